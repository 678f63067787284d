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
    # The learned evaluation's pattern indices kept up to date move by move (begin_search):
    # frame k holds them after the k-th move of the history; NULL when not tracked.
    cdef unsigned short* frames
    cdef const void* powers       # _othello_cy.PatternPowers of the size
    cdef gc_u128 seen[4]          # tracking: is_terminal's last position (mover's, other's discs)
                                  # and both sides' moves there (mover's, other's), which the evaluation reuses

    cdef bint _reserve(self, int plies) noexcept nogil

    cdef void _set(self, gc_u128 black, gc_u128 white, int turn) noexcept nogil
    cdef int tracked_pattern_score(self) noexcept nogil
    cdef bint tracked_is_terminal(self) noexcept nogil

# The learned evaluation, for the exact endgame solver's move ordering: load_patterns(n)
# (with the GIL, before a search) points the size's table at its weights, has_patterns(n)
# says whether it has any, _pattern_score is pattern_score without the checks (0 without
# weights), callable without the GIL; discs in the core's layout.
cdef int load_patterns(int n) except -1
cdef bint has_patterns(int n) noexcept nogil
cdef int _pattern_score(gc_u128 me, gc_u128 opp, const Geometry* g) noexcept nogil
