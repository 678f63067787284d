# The compiled Tetralath core (_tetralath_cy.pyx beside this file); mirrors python/gamecore/games/_tetralath_py.py.
from libc.stdint cimport uint64_t
from gamecore._game_cy cimport GameCore
from tetralath cimport TL_STACK, TLWindows

cdef class TetralathCore(GameCore):
    cdef uint64_t stones[2]          # white, black
    cdef readonly int turn           # 0 white, 1 black
    cdef readonly bint swap_rule
    cdef uint64_t hash_
    cdef int status_                 # ONGOING, FOUR, THREE, FULL: what the last move did
    cdef int nply
    cdef int stack_move[TL_STACK]
    cdef uint64_t stack_hash[TL_STACK]
    cdef int stack_status[TL_STACK]
    # order_key's masks for one position (the stones they were computed for): the search
    # asks for the key of every move of a node, so they are computed once per node.
    cdef uint64_t order_for[2]
    cdef uint64_t order_masks[3]
    cdef bint order_valid
    # Stones per window, kept up to date by make/unmake: the evaluation reads its threats
    # off these instead of scanning all 231 windows.
    cdef TLWindows windows

    cdef void _set(self, uint64_t white, uint64_t black, int turn, int status) noexcept nogil
    cdef bint _swap_allowed(self) noexcept nogil
    cdef int gen_moves(self, int* moves) noexcept nogil
    cdef int search_moves(self, int* moves, int depth) noexcept nogil
    cdef void _order_masks(self, uint64_t me, uint64_t opp) noexcept nogil
    cdef void make_move(self, int move) noexcept nogil
    cdef void unmake_move(self) noexcept nogil
    cdef bint is_terminal(self) noexcept nogil
    cdef int terminal_value(self) noexcept nogil
    cdef int evaluate(self, const int* weights) noexcept nogil
    cdef int order_key(self, int move) noexcept nogil
    cdef void window_features(self, int* f) noexcept nogil
    cdef void window_order_masks(self) noexcept nogil
    cdef int to_move(self) noexcept nogil
    cdef uint64_t key(self) noexcept nogil
    cdef int num_empty(self) noexcept nogil
