# cython: language_level=3, embedsignature=True
"""The game protocol every search runs on (compiled twin of ``_game_py``).

The cdef methods here are abstract: every game core overrides them. See
``python/gamecore/_game_py.py`` for what each one means.
"""
from libc.stdint cimport uint64_t

__all__ = ["GameCore", "MAX_MOVES"]

MAX_MOVES = 128


cdef class GameCore:
    """Abstract base of the game cores (documentation of the protocol)."""

    cdef int gen_moves(self, int* moves) noexcept nogil:
        return 0

    cdef int search_moves(self, int* moves, int depth) noexcept nogil:
        return self.gen_moves(moves)

    cdef void make_move(self, int move) noexcept nogil:
        pass

    cdef void unmake_move(self) noexcept nogil:
        pass

    cdef bint is_terminal(self) noexcept nogil:
        return True

    cdef int terminal_value(self) noexcept nogil:
        return 0

    cdef int evaluate(self, const int* weights) noexcept nogil:
        return 0

    cdef int order_key(self, int move) noexcept nogil:
        return 0

    cdef uint64_t key(self) noexcept nogil:
        return 0

    cdef int num_empty(self) noexcept nogil:
        return 0
