/* Ctrl-C inside long compiled loops.
 *
 * Python runs a signal's handler (KeyboardInterrupt for SIGINT) only between bytecodes, so a
 * C loop that runs for seconds must ask for it itself. gc_poll_signals is cheap to call often:
 * it reads the clock and, at most every GC_POLL_SECONDS, takes the GIL for PyErr_CheckSignals.
 * It returns 1 when a handler raised: the exception is then set in this thread and the caller
 * must unwind (restoring its position) and let its Python caller propagate it. Callable with or
 * without the GIL held. */
#ifndef GAMECORE_INTERRUPT_H
#define GAMECORE_INTERRUPT_H

#include <Python.h>
#include "gamecore_clock.h"

#define GC_POLL_SECONDS 0.02

static inline int gc_poll_signals(double* next_poll) {
    double now = gc_monotonic_seconds();
    PyGILState_STATE state;
    int raised;
    if (now < *next_poll)
        return 0;
    *next_poll = now + GC_POLL_SECONDS;
    state = PyGILState_Ensure();
    raised = PyErr_CheckSignals() < 0;
    PyGILState_Release(state);
    return raised;
}

#endif
