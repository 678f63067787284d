# The game protocol every compiled search runs on; mirrors python/gamecore/_game_py.py.
# Each game's core (OthelloCore, TetralathCore, RolitCore) subclasses GameCore.
from libc.stdint cimport uint64_t

cdef enum:
    MOVE_BUFFER = 128  # capacity of a gen_moves buffer (MAX_MOVES in Python)
    PLAYER_BUFFER = 4  # capacity of a per-player value buffer (MAX_PLAYERS in Python)

cdef class GameCore:
    cdef int gen_moves(self, int* moves) noexcept nogil
    cdef int search_moves(self, int* moves, int depth) noexcept nogil
    cdef void make_move(self, int move) noexcept nogil
    cdef void unmake_move(self) noexcept nogil
    cdef int num_players(self) noexcept nogil
    cdef int to_move(self) noexcept nogil
    cdef bint is_terminal(self) noexcept nogil
    cdef int terminal_value(self) noexcept nogil
    cdef int evaluate(self, const int* weights) noexcept nogil
    cdef int leaf_value(self, int move, const int* weights, bint* over) noexcept nogil
    cdef int begin_search(self, const int* weights) except -1
    cdef void terminal_values(self, int* out) noexcept nogil
    cdef void evaluate_players(self, const int* weights, int* out) noexcept nogil
    cdef void value_bounds(self, int* lowest, int* highest_sum) noexcept nogil
    cdef bint set_turn(self, int player) noexcept nogil
    cdef int order_key(self, int move) noexcept nogil
    cdef uint64_t key(self) noexcept nogil
    cdef int num_empty(self) noexcept nogil
    # The move stack, read by the checked pop() and history() every core shares.
    cdef int ply_count(self) noexcept nogil
    cdef int move_at(self, int ply) noexcept nogil
