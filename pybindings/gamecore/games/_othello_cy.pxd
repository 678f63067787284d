# The compiled Othello core (_othello_cy.pyx beside this file); mirrors
# python/gamecore/games/_othello_py.py. Declared here so that the exact endgame solver
# (search/_endgame_cy.pyx) can read a core's discs.
from libc.stdint cimport uint64_t
from bits cimport gc_u128
from othello cimport Geometry
from gamecore._game_cy cimport GameCore

cdef enum:
    # Every move fills a square and at most one pass separates two moves: 2 * 100 plies.
    MAX_PLIES = 256

# One played move, to take it back.
cdef struct Ply:
    gc_u128 flips
    uint64_t hash
    int move

cdef class OthelloCore(GameCore):
    cdef readonly int size
    cdef readonly int turn
    cdef gc_u128 discs[2]
    cdef uint64_t zhash
    cdef int sp
    # The history on the heap, grown as played (copy() and play() copy only what is used).
    cdef int capacity
    cdef Ply* stack
    cdef const Geometry* g

    cdef bint _reserve(self, int plies) noexcept nogil

    cdef void _set(self, gc_u128 black, gc_u128 white, int turn) noexcept nogil
