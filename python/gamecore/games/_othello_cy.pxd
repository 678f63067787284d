# The compiled Othello core (pybindings/games/_othello_cy.pyx); mirrors
# python/gamecore/games/_othello_py.py. Declared here so that the exact endgame solver
# (pybindings/search/_endgame_cy.pyx) can read a core's discs.
from libc.stdint cimport uint64_t
from bits cimport gc_u128
from othello cimport Geometry
from gamecore._game_cy cimport GameCore

cdef enum:
    # Every move fills a square and at most one pass separates two moves: 2 * 100 plies.
    MAX_PLIES = 256

cdef class OthelloCore(GameCore):
    cdef readonly int size
    cdef readonly int turn
    cdef gc_u128 discs[2]
    cdef uint64_t zhash
    cdef int sp
    cdef int stack_move[MAX_PLIES]
    cdef gc_u128 stack_flips[MAX_PLIES]
    cdef uint64_t stack_hash[MAX_PLIES]
    cdef const Geometry* g

    cdef void _set(self, gc_u128 black, gc_u128 white, int turn) noexcept nogil
