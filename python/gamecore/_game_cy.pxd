# The game protocol every compiled search runs on; mirrors python/gamecore/_game_py.py.
# Subclasses (OthelloCore, TetralathCore) override every cdef method.
from libc.stdint cimport uint64_t

cdef enum:
    MOVE_BUFFER = 128  # capacity of a gen_moves buffer (MAX_MOVES in Python)

cdef class GameCore:
    cdef int gen_moves(self, int* moves) noexcept nogil
    cdef int search_moves(self, int* moves, int depth) noexcept nogil
    cdef void make_move(self, int move) noexcept nogil
    cdef void unmake_move(self) noexcept nogil
    cdef bint is_terminal(self) noexcept nogil
    cdef int terminal_value(self) noexcept nogil
    cdef int evaluate(self, const int* weights) noexcept nogil
    cdef int order_key(self, int move) noexcept nogil
    cdef uint64_t key(self) noexcept nogil
    cdef int num_empty(self) noexcept nogil
