# Ctrl-C in long compiled loops (see gamecore_interrupt.h).
cdef extern from "gamecore_interrupt.h":
    double GC_POLL_SECONDS
    int gc_poll_signals(double* next_poll) noexcept nogil


cdef inline int gc_raise_pending() except -1:
    """Propagate the exception gc_poll_signals left set (call with the GIL)."""
    return -1
