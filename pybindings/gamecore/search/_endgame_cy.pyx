# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The exact Othello endgame solver: the compiled twin of ``_endgame_py``.

The search itself is the C-level kernel ``pyx/endgame.pxd``; this module validates the
arguments, sets up the per-size tables and the transposition table, and runs it without
the GIL on the discs of a compiled :class:`~gamecore.games._othello_cy.OthelloCore`.
"""
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memset

from libc.stdlib cimport free

from bits cimport gc_u128, gc_table_alloc
cimport othello as kernel
from othello cimport Geometry
cimport endgame
from endgame cimport EndgameTables, Solver, TTEntry
from interrupt cimport gc_raise_pending

from gamecore.games._othello_cy cimport OthelloCore, load_patterns, has_patterns, _pattern_score

from gamecore.errors import InvalidOptionError
from gamecore.games import _othello_patterns as patterns
from gamecore.search._options import (ENDGAME_TT_BITS, SHALLOW_EMPTIES, STATS_FIELDS, check_eval_order,
                                      check_solve_args, check_stats, check_table_bits)
from gamecore.search._results import NO_MOVE

__all__ = ["SHALLOW_EMPTIES", "ENDGAME_TT_BITS", "NO_MOVE", "EndgameTable", "solve_exact"]

cdef enum:
    C_MIN_SIZE = 4  # Othello's board sizes (games/_othello_rules.MIN_SIZE ...), bounding the tables below
    C_MAX_SIZE = 10

# Per-size geometries and solver tables, set up once.
cdef Geometry GEOMETRIES[11]
cdef EndgameTables ENDGAME_TABLES[11]

# The transposition table kept from solve to solve (allocating and first touching 16 MiB
# cost about 3 ms a solve): each solve stamps its entries with a new generation, and the
# others' count as empty slots, so every solve still starts from an empty table. One solve
# at a time uses it (the solver runs without the GIL); another meanwhile makes its own.
cdef TTEntry* KEPT_TT = NULL
cdef void* KEPT_TT_BLOCK = NULL
cdef bint KEPT_TT_BUSY = False
cdef uint32_t KEPT_TT_GENERATION = 0


cdef TTEntry* kept_table(uint32_t* generation):
    """The kept table with the next generation, or NULL when another solve holds it (or
    there is no memory for it). Called with the GIL held."""
    global KEPT_TT, KEPT_TT_BLOCK, KEPT_TT_BUSY, KEPT_TT_GENERATION
    cdef size_t size = ((<size_t>1) << endgame.EG_TT_BITS) * sizeof(TTEntry)
    if KEPT_TT_BUSY:
        return NULL
    if KEPT_TT == NULL:
        KEPT_TT = <TTEntry*>gc_table_alloc(size, &KEPT_TT_BLOCK)
        if KEPT_TT == NULL:
            return NULL
    KEPT_TT_GENERATION += 1
    if KEPT_TT_GENERATION == 0:  # after 2**32 solves: start the stamps again on a zeroed table
        memset(KEPT_TT, 0, size)
        KEPT_TT_GENERATION = 1
    KEPT_TT_BUSY = True
    generation[0] = KEPT_TT_GENERATION
    return KEPT_TT


cdef class EndgameTable:
    """A transposition table that successive solves share: ``solve_exact(core, table=t)``.

    Every bound a solve stores is true of its position whatever the window, so a solve
    with the table of earlier solves (narrower windows at the same root, the positions of
    its principal variation, the jobs of a split tree) starts from all they proved.
    ``2 ** bits`` entries of 16 bytes (``bits`` from 10 to 28); :meth:`clear` empties it.
    Several solves may use it at once, in threads of their own (the solver runs without the
    GIL): its entries are lock-free, each written as two words whose check a torn write fails
    (it is then read as a miss), so every value stays exact and each solve finds what the
    others proved.

    :raises InvalidOptionError: ``bits`` out of range.
    :raises MemoryError: no memory for it.
    """
    cdef TTEntry* entries
    cdef void* block
    cdef readonly int bits
    cdef uint32_t generation
    cdef readonly int users  # the solves using it now (counted with the GIL held)

    def __cinit__(self, bits=ENDGAME_TT_BITS):
        self.bits = check_table_bits(bits)
        self.entries = <TTEntry*>gc_table_alloc(((<size_t>1) << self.bits) * sizeof(TTEntry), &self.block)
        if self.entries == NULL:
            raise MemoryError(f"no memory for an endgame table of 2**{self.bits} entries")
        self.generation = 1

    def __dealloc__(self):
        free(self.block)

    def clear(self):
        """Forget every entry (a new generation: the old stamps count as empty slots).

        :raises RuntimeError: a solve is using the table.
        """
        if self.users:
            raise RuntimeError("the endgame table is in use by a solve")
        self.generation += 1
        if self.generation == 0:
            memset(self.entries, 0, ((<size_t>1) << self.bits) * sizeof(TTEntry))
            self.generation = 1


def _init_endgame_tables():
    cdef int n
    for n in range(C_MIN_SIZE, C_MAX_SIZE + 1, 2):
        kernel.geometry_init(&GEOMETRIES[n], n)
        endgame.endgame_tables_init(&ENDGAME_TABLES[n], &GEOMETRIES[n])


_init_endgame_tables()

# SHALLOW_EMPTIES, ENDGAME_TT_BITS, ODD_BONUS and ETC_EMPTIES are in _options, NO_MOVE (game over
# at the root) in _results, shared with _endgame_py; the kernel's C copies of them are checked
# against them (tests/test_options.py).
_C_COPIES = {"SHALLOW_EMPTIES": endgame.EG_SHALLOW_EMPTIES, "ENDGAME_TT_BITS": endgame.EG_TT_BITS,
             "NO_MOVE": endgame.EG_NO_MOVE, "ODD_BONUS": endgame.EG_ODD_BONUS,
             "ETC_EMPTIES": endgame.EG_ETC_EMPTIES, "STATS_FIELDS": endgame.EG_STATS_FIELDS}
# The learned evaluation's units and bound, which the evaluated ordering's C code copies.
if (endgame.EG_SCALE, endgame.EG_MAX_PATTERN_SCORE) != (patterns.SCALE, patterns.MAX_PATTERN_SCORE):
    raise ImportError("the endgame solver's copies of SCALE, MAX_PATTERN_SCORE differ from _othello_patterns")


def solve_exact(OthelloCore core not None, alpha=None, beta=None, node_limit=0, time_limit=0.0, *, table=None,
                _eval_order=None, _stop=None, _progress=None, _stats=None, _cpu_clock=False):
    """Solve the position exactly: ``(best_move, score, nodes, completed)``.

    ``score`` is the final disc difference for the side to move under perfect play by
    both sides, empty squares going to the winner (as ``terminal_value``). ``best_move``
    is a square index reaching that score, ``PASS`` (-1) when the side to move must
    pass, and ``None`` when the game is already over (the compiled kernel's ``NO_MOVE``,
    -2, never leaves it). ``nodes`` counts the positions visited, the same in both
    backends.

    ``alpha`` and ``beta`` (ints, ``None`` for minus and plus the number of squares)
    set the search window, fail-soft: a score <= alpha is an upper bound, >= beta a
    lower bound, and only a score inside the window is exact (with a best move).
    ``node_limit`` > 0 stops the search once it has visited more nodes than that,
    checked before every node with more than four empty squares (and after each move
    inside the evaluated ordering's shallow searches), and ``time_limit`` > 0
    after that many seconds (clock read every 4096 nodes); then ``completed`` is False,
    ``best_move`` None and ``score`` 0, meaning nothing. Only ``time_limit`` can make the
    two backends differ. The compiled backend releases the GIL while it solves.

    Algorithm (see ``pyx/endgame.pxd``): negamax alpha-beta (PVS) over the empty
    squares, a transposition table of ``2 ** ENDGAME_TT_BITS`` entries (empty for each
    call: kept between calls, its entries stamped with the call's generation), fastest-first
    move ordering (with many empty squares on boards with learned weights, helped by shallow
    searches with the learned evaluation: ``EVAL_ORDER``), parity ordering near the end,
    stability cut-offs and dedicated solvers for the last four empty squares.
    ``table`` (an :class:`EndgameTable`) is used instead, and kept: what earlier solves with
    it stored counts, and so does what solves using it meanwhile in other threads store. ``_eval_order`` (tests and measurements) replaces ``EVAL_ORDER``;
    ``_progress`` (an ``array('q')`` of three) receives the node count with each reading of the
    clock, and after each root move the moves searched and the best score among them;
    ``_stats`` (an ``array('Q')`` of ``STATS_FIELDS * (squares + 1)`` zeros) counts by empty
    squares the nodes, table hits and cut-offs (see ``STATS_FIELDS``).

    :raises InvalidOptionError: a bad window (not ints within +-squares, or alpha >= beta),
        a bad ``_eval_order``, a ``table`` that is not an EndgameTable, bad ``_stats``.
    :raises InvalidLimitError: a negative or non-int ``node_limit``, a negative or non-finite
        ``time_limit`` (``check_solve_args``, shared with the pure twin).
    """
    global KEPT_TT_BUSY
    cdef int nsq = core.g.nsq
    cdef EndgameTable shared = None
    alpha, beta, node_limit, time_limit = check_solve_args(alpha, beta, node_limit, time_limit, nsq)
    check_stats(_stats, _progress, nsq)
    if table is not None:
        if not isinstance(table, EndgameTable):
            raise InvalidOptionError(f"table must be an EndgameTable of this backend, got {type(table).__name__}")
        shared = table
    eval_from, depth1_from, depth2_from, depth3_from, weight, pv_extra = check_eval_order(_eval_order)
    cdef Solver s
    cdef int a = alpha, b = beta, score, empties = core.num_empty()
    # The evaluated ordering (EVAL_ORDER in _options) where the size has learned weights, looked
    # up only when the root has empty squares enough for it (as the twin).
    if empties < eval_from:
        eval_from = nsq + 1
    else:
        load_patterns(core.size)
        if core.g.patterns == NULL and not has_patterns(core.size):  # weights of its own, or shipped
            eval_from = nsq + 1
    cdef double limit = time_limit
    cdef gc_u128 me = core.discs[core.turn], opp = core.discs[1 - core.turn]
    s.t = &ENDGAME_TABLES[core.size]
    s.g = core.g
    s.pattern_score = _pattern_score
    s.eval_from = eval_from
    s.eval_depth1_from = depth1_from
    s.eval_depth2_from = depth2_from
    s.eval_depth3_from = depth3_from
    s.eval_pv_extra = pv_extra
    s.eval_weight = weight
    s.tt_mask = (<uint64_t>1 << endgame.EG_TT_BITS) - 1
    s.nodes = 0
    s.node_limit = min(node_limit, 0xFFFFFFFFFFFFFFFF)
    s.next_check = endgame.EG_TIME_CHECK_EVERY
    s.stop = 0
    s.cpu_clock = 1 if _cpu_clock else 0
    s.next_poll = 0.0
    s.interrupted = 0
    cdef const unsigned char[::1] stop_view
    s.stop_flag = NULL
    if _stop is not None:  # a bytearray: Engine.stop sets its byte (read with the clock)
        stop_view = _stop
        s.stop_flag = &stop_view[0]
    cdef uint64_t[::1] stats_view
    cdef int64_t[::1] progress_view
    s.progress = s.stats = NULL
    if _progress is not None:
        progress_view = _progress
        s.progress = &progress_view[0]
    if _stats is not None:
        stats_view = _stats
        s.stats = &stats_view[0]
    s.root_move = endgame.EG_NO_MOVE
    # Zeroed pages mapped lazily, huge pages where the system has them (random probes into
    # 16 MiB of small pages miss the TLB on almost every probe).
    cdef void* tt_block = NULL
    if shared is not None:
        s.tt = shared.entries
        s.tt_mask = ((<uint64_t>1) << shared.bits) - 1
        s.generation = shared.generation
        shared.users += 1
    else:
        s.tt = kept_table(&s.generation)
        if s.tt == NULL:
            s.tt = <TTEntry*>gc_table_alloc((s.tt_mask + 1) * sizeof(TTEntry), &tt_block)
            s.generation = 1
        if s.tt == NULL:
            raise MemoryError("no memory for the endgame transposition table")
    try:
        with nogil:
            s.deadline = endgame.gc_clock_seconds(s.cpu_clock) + limit if limit > 0.0 else 0.0
            if nsq <= 64:
                score = endgame.solve_root[uint64_t](&s, <uint64_t>me, <uint64_t>opp, a, b, empties)
            else:
                score = endgame.solve_root[gc_u128](&s, me, opp, a, b, empties)
    finally:
        if shared is not None:
            shared.users -= 1
        elif tt_block != NULL:
            free(tt_block)
        else:
            KEPT_TT_BUSY = False
    if s.interrupted:
        gc_raise_pending()  # Ctrl-C: KeyboardInterrupt, the core untouched
    if s.stop:
        return None, 0, s.nodes, False
    return (None if s.root_move == endgame.EG_NO_MOVE else s.root_move), score, s.nodes, True
