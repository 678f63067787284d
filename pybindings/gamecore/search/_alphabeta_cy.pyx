# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The searches, written once over the game protocol: compiled twin of ``_alphabeta_py``.

Negamax with integer scores from the point of view of the side to move.

- ``minimax``: plain full-width search (teaching); the same root score as alpha-beta.
- ``alphabeta``: fail-soft alpha-beta (principal variation search: null windows after
  the first move) with a Zobrist transposition table, killer moves, iterative
  deepening, optional aspiration windows, and limits by depth, nodes and time.

A time limit is used whole (the n-player searches' design, ``_multiplayer_py``): the
iterations go on until the deadline stops one half-way. The answer is the last finished
iteration's, or the stopped iteration's best root move so far once the stopped root search
has searched to the end the move the answer would otherwise be (the last iteration's best,
which the table's move puts first): a root move that then beats the root's window (its
score above alpha, so a true value at least that) is at least as good at the new depth as
the move it replaces. Its score is that root search's (exact, or a lower bound when it
failed high), its principal variation the line found so far; ``depth`` stays the last
finished iteration's.

Both backends visit the same nodes in the same order, so for a depth or node limit
they return the same move, score, principal variation and node count.

Moves searched: every legal move at the root; below it the game's ``search_moves(depth)``,
which may leave out moves that cannot change the node's value at that depth (Tetralath:
moves that lose at once, and everything but the win or the forced blocks).

Move order at every node: the transposition-table move first, then (alpha-beta only)
the two killer moves of the ply -- the last two moves that cut off a sibling node, most
recent first -- then the game's ``order_key`` from high to low, ties broken by the
history score (alpha-beta only: the sum of depth * depth over the cut-offs the move
made in this search, read when the search gets past the TT move and the killers), then in
the order ``gen_moves`` gives.

Transposition table: ``2**k`` entries of 16 bytes (key, score, move, depth, flag),
the largest power of two that fits ``tt_mb`` megabytes; a position goes to slot
``key & (entries - 1)``. Replacement rule: a new entry replaces the slot's entry
unless that one is for the same position and was searched deeper. A stored score cuts
the search only at the depth it was searched to (its move orders every depth), so the
score of a fixed-depth search is the same with or without the table. Nodes with less
remaining depth than ``TT_MIN_DEPTH`` (2: the nodes whose children are leaves) neither look
the table up nor store: there a lookup, most often a cache miss, costs more than it saves.

Multi-ProbCut (Buro 1997; ``mpc``, a table fitted from data: ``gamecore train othello-mpc``),
off unless a table is given: in a null-window node below the root with a remaining depth
``d`` of at least ``MPC_MIN_DEPTH`` and a shallow depth ``d'`` for it, the node is first
searched to ``d'`` with a null window at the bound from which the fit ``v_d = a * v_d' + b
+ e`` (``e`` of deviation ``sigma``, the fit of the node's number of empty squares) puts the
deep value above ``beta`` with ``t`` deviations to spare: if the shallow search reaches it
the node returns ``beta`` at once; likewise below ``alpha`` (then ``alpha``). Probes run
before the node's moves, after the table's cut-off; the probe's nodes count as nodes and
probe again themselves up to ``MPC_MAX_LEVEL`` levels. All of it is integer arithmetic, so
both backends cut the same nodes.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport free
from libc.string cimport memset

from gamecore._game_cy cimport GameCore, MOVE_BUFFER
from bits cimport gc_prefetch, gc_table_alloc
from interrupt cimport gc_poll_signals, gc_raise_pending

cdef extern from "gamecore_clock.h":
    double gc_clock_seconds(int cpu) noexcept nogil

from gamecore.errors import ConcurrentUseError, InvalidEvaluationError, InvalidMoveError
from gamecore.search._options import (
    ASPIRATION_WINDOW, EXACT, INFINITY, LOWER, MAX_NODE_LIMIT, MAX_PLY, MAX_WEIGHT, TT_ENTRY_BYTES, UPPER, WIN,
    check_algorithm, check_evaluation, check_mpc, check_tt_mb, check_weights, require_limits,
)
from gamecore.search._results import NO_MOVE, SearchOutcome

__all__ = [
    "WIN",
    "INFINITY",
    "MAX_PLY",
    "TT_ENTRY_BYTES",
    "EXACT",
    "LOWER",
    "UPPER",
    "terminal_score",
    "check_evaluation",
    "check_weights",
    "MAX_WEIGHT",
    "MAX_NODE_LIMIT",
    "NO_MOVE",
    "SearchOutcome",
    "Searcher",
]

# WIN, MAX_PLY, the table's layout, the history's and the weight bounds are in _options, shared with _alphabeta_py
# (the C copies below are checked against them: _C_COPIES, in tests/test_options.py).
# The compiled search looks at the clock less often than the pure one: its nodes are cheaper.
CLOCK_INTERVAL = 1024

cdef enum:
    C_WIN = 1000000
    C_INFINITY = 2000000000
    C_EXACT = 1
    C_LOWER = 2
    C_UPPER = 3
    C_CLOCK_MASK = 1023
    C_ASPIRATION = 50
    C_NO_MOVE = -2  # _results.NO_MOVE
    C_HISTORY_OFFSET = 2
    C_MPC_SCALE = 1024
    C_MPC_MIN_DEPTH = 3
    C_MPC_MAX_LEVEL = 2
    C_TT_MIN_DEPTH = 2  # _options.TT_MIN_DEPTH

cdef long long C_HISTORY_MAX = (1 << 40) - 1  # history scores stay below the order_key field

#: The C constants that copy a shared one, by its name in _options / _results (compared in the tests).
_C_COPIES = {"WIN": C_WIN, "INFINITY": C_INFINITY, "EXACT": C_EXACT, "LOWER": C_LOWER, "UPPER": C_UPPER,
             "ASPIRATION_WINDOW": C_ASPIRATION, "NO_MOVE": C_NO_MOVE, "MAX_PLY": C_MAX_PLY,
             "MAX_WEIGHTS": MAX_WEIGHTS, "TT_ENTRY_BYTES": sizeof(TTEntry), "HISTORY_OFFSET": C_HISTORY_OFFSET,
             "HISTORY_SIZE": C_HISTORY_SIZE, "HISTORY_MAX": C_HISTORY_MAX, "MPC_DEPTHS": C_MPC_DEPTHS,
             "MPC_EMPTIES": C_MPC_EMPTIES, "MPC_SCALE": C_MPC_SCALE, "MPC_MIN_DEPTH": C_MPC_MIN_DEPTH,
             "MPC_MAX_LEVEL": C_MPC_MAX_LEVEL, "TT_MIN_DEPTH": C_TT_MIN_DEPTH}


# TTEntry, the Searcher's fields and its cdef methods are declared in _alphabeta_cy.pxd.


cdef inline int c_terminal_score(int value) noexcept nogil:
    if value > 0:
        return C_WIN + value
    if value < 0:
        return -C_WIN + value
    return 0


cdef inline int heuristic_score(int value) noexcept nogil:
    """An evaluation as a search score: a heuristic score never reaches the range of proven results."""
    if value >= C_WIN:
        return C_WIN - 1
    if value <= -C_WIN:
        return -C_WIN + 1
    return value


def terminal_score(int value):
    """Search score of a finished game whose result for the side to move is ``value``."""
    return c_terminal_score(value)


cdef inline long long floor_div(long long x, long long y) noexcept nogil:
    """``x // y`` for ``y > 0``, rounded down as Python rounds (C's division truncates)."""
    cdef long long q = x / y
    if q * y != x and x < 0:
        q -= 1
    return q


cdef void sort_by_key(int* moves, long long* keys, int count) noexcept nogil:
    """Stable sort of `moves` by `keys`, high first: insertion sort for the short lists
    of Othello, bottom-up merge sort for the long ones of Tetralath."""
    cdef int tmp_moves[MOVE_BUFFER]
    cdef long long tmp_keys[MOVE_BUFFER]
    cdef int width = 1, lo, mid, hi, a, b, k, m
    cdef long long key
    if count <= 16:
        for a in range(1, count):
            m = moves[a]
            key = keys[a]
            b = a - 1
            while b >= 0 and keys[b] < key:
                moves[b + 1] = moves[b]
                keys[b + 1] = keys[b]
                b -= 1
            moves[b + 1] = m
            keys[b + 1] = key
        return
    while width < count:
        lo = 0
        while lo < count - width:
            mid = lo + width
            hi = mid + width if mid + width < count else count
            a, b, k = lo, mid, lo
            while a < mid and b < hi:
                if keys[b] > keys[a]:  # strictly greater: equal keys keep their order
                    tmp_moves[k] = moves[b]
                    tmp_keys[k] = keys[b]
                    b += 1
                else:
                    tmp_moves[k] = moves[a]
                    tmp_keys[k] = keys[a]
                    a += 1
                k += 1
            while a < mid:
                tmp_moves[k] = moves[a]
                tmp_keys[k] = keys[a]
                a += 1
                k += 1
            while b < hi:
                tmp_moves[k] = moves[b]
                tmp_keys[k] = keys[b]
                b += 1
                k += 1
            for k in range(lo, hi):
                moves[k] = tmp_moves[k]
                keys[k] = tmp_keys[k]
            lo += 2 * width
        width *= 2


cdef class Searcher:
    """Search state that lives between searches: the transposition table.

    :param tt_mb: transposition-table size in megabytes (0 disables it).

    One search at a time: a second ``search`` (from the evaluation function, or from another
    thread while this one runs), ``__init__`` or ``clear`` during a search raises
    :class:`~gamecore.errors.ConcurrentUseError` and changes nothing. The search runs without
    the GIL unless it calls a Python evaluation function.
    """

    def __cinit__(self):
        # A Searcher made by __new__ alone has no table and searches without one.
        self.table = NULL
        self.table_block = NULL
        self.tt_entries = 0
        self.mask = 0
        self.busy = False
        self.mpc_on = False

    def __init__(self, tt_mb=16):
        if self.busy:
            raise ConcurrentUseError("cannot re-initialise a searcher while it searches")
        tt_mb = check_tt_mb(tt_mb)
        entries = int(tt_mb * (1 << 20)) // TT_ENTRY_BYTES
        size = 1
        while size * 2 <= entries:
            size *= 2
        free(self.table_block)
        self.table = NULL
        self.table_block = NULL
        self.tt_entries = 0
        self.tt_filled = 0
        self.mask = 0
        if entries:
            self.table = <TTEntry*>gc_table_alloc(size * sizeof(TTEntry), &self.table_block)
            if self.table == NULL:
                raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")
            # Touch every page now, not during a timed search (first touches of a large table
            # would overshoot a short time limit).
            memset(self.table, 0, size * sizeof(TTEntry))
            self.tt_entries = size
            self.mask = size - 1

    def __dealloc__(self):
        free(self.table_block)

    def __reduce__(self):
        # A copy gets a fresh table of the same size (the table is a cache).
        return type(self), (self.tt_bytes() / (1 << 20),)

    cdef TTEntry* tt_probe(self, uint64_t key) noexcept nogil:
        """The table slot of `key`; a hit (same key, not empty) is counted."""
        cdef TTEntry* entry = &self.table[key & self.mask]
        if entry.flag != 0 and entry.key == key:
            self.tt_hits += 1
        return entry

    cdef void tt_store(self, TTEntry* entry, uint64_t key, int score, int move, int depth, int flag) noexcept nogil:
        """Store in `entry` (the slot of `key`) under the replacement rule: replace it
        unless it holds the same position searched deeper."""
        if entry.flag == 0 or entry.key != key or depth >= entry.depth:
            self.tt_filled += entry.flag == 0
            entry.key = key
            entry.score = score
            entry.move = move
            entry.depth = depth
            entry.flag = flag

    def clear(self):
        """Empty the transposition table."""
        if self.busy:
            raise ConcurrentUseError("cannot clear a searcher while it searches")
        if self.table != NULL:
            memset(self.table, 0, self.tt_entries * sizeof(TTEntry))
        self.tt_filled = 0

    def tt_bytes(self):
        """Memory the transposition table is allowed (and in C, allocated)."""
        return self.tt_entries * TT_ENTRY_BYTES

    # -- the search -------------------------------------------------------

    def search(self, GameCore core not None, limits, *, weights=(), evaluator=None, wrap=None,
               algorithm="alphabeta", aspiration=False, root_moves=None, progress=None, mpc=None):
        """Search ``core`` and return a :class:`SearchOutcome` (move codes).

        ``root_moves``, when given, restricts the root to those of the legal moves
        (in their usual order): e.g. one move of each set of symmetric ones.

        ``limits`` (``SearchLimits``): the deepest iteration (>= 1), the node limit (0: none)
        and the seconds (0: none), on the wall clock or with ``cpu_clock`` the searching
        thread's CPU time.
        ``weights`` are the game's feature weights; ``evaluator(wrap(core))`` replaces
        them when given: it is handed a fresh copy of the node's position each time, never
        the position searched. ``algorithm`` is ``"alphabeta"`` or ``"minimax"``. The
        outcome's ``depth`` is the last fully searched depth (0 if none finished: the move
        is then the first in move order); its ``move`` is ``NO_MOVE`` when the game is over.
        ``core`` is not touched: the search runs on a copy of it.

        ``progress(depth, score, pv, nodes)``, when given, is called after each finished
        iteration (with the GIL); a true return value ends the deepening there. :meth:`stop`
        ends a search from another thread. ``mpc``: a Multi-ProbCut table
        (``_options.MPCTable``; module docstring), None for a full-width search.
        """
        if self.busy:
            raise ConcurrentUseError(
                "this searcher (Engine) is already searching: an evaluation function may not call "
                "it again, and two threads may not share it (give each its own Engine)"
            )
        values = check_weights(weights)
        max_depth, node_limit, time_limit = require_limits(limits).checked()
        check_algorithm(algorithm, ("alphabeta", "minimax"))
        if evaluator is not None and not (callable(evaluator) and callable(wrap)):
            raise InvalidEvaluationError("an evaluation function and a position wrapper must be callables")
        table = check_mpc(mpc)
        cdef int i
        cdef bint root_filtered = root_moves is not None
        cdef uint64_t allowed[2]
        allowed[0] = allowed[1] = 0
        if root_moves is not None:
            for m in root_moves:
                if type(m) is not int or not -C_HISTORY_OFFSET <= m < 128 - C_HISTORY_OFFSET:
                    raise InvalidMoveError(f"root moves must be move codes from -2 to 125, got {m!r}")
                m += C_HISTORY_OFFSET
                allowed[m >> 6] |= (<uint64_t>1) << (m & 63)
        self.busy = True
        try:
            self.root_filtered = root_filtered
            self.root_allowed[0] = allowed[0]
            self.root_allowed[1] = allowed[1]
            for i in range(MAX_WEIGHTS):
                self.weights[i] = values[i] if i < len(values) else 0
            self.mpc_on = table is not None
            self.mpc_level = 0
            if table is not None:
                shallow, slope, high, low = table
                for i in range(C_MPC_DEPTHS):
                    self.mpc_shallow[i] = shallow[i]
                for i in range(C_MPC_EMPTIES * C_MPC_DEPTHS):
                    self.mpc_slope[i] = slope[i]
                    self.mpc_high[i] = high[i]
                    self.mpc_low[i] = low[i]
            self.core = core.copy()
            self.core.begin_search(self.weights)
            self.evaluator = evaluator
            self.has_evaluator = evaluator is not None
            self.view = wrap
            self.poll_signals = True
            self.nodes = 0
            self.tt_hits = 0
            self.node_limit = node_limit
            self.cpu_clock = bool(limits.cpu_clock)
            self.start = gc_clock_seconds(self.cpu_clock)
            self.deadline = self.start + time_limit if time_limit > 0 else 0.0
            self.next_poll = 0.0
            self.aborted = False
            self.interrupted = False
            self.stop_requested = False
            memset(self.pv_len, 0, sizeof(self.pv_len))
            memset(self.history, 0, sizeof(self.history))
            for i in range(C_MAX_PLY):
                self.killers[i][0] = C_NO_MOVE
                self.killers[i][1] = C_NO_MOVE
            return self.run(max_depth, algorithm == "minimax", algorithm == "alphabeta" and self.tt_entries > 0,
                            bool(aspiration), progress)
        finally:
            self.core = None
            self.evaluator = None
            self.has_evaluator = False
            self.view = None
            self.poll_signals = False
            self.mpc_on = False
            self.busy = False

    cdef object run(self, int max_depth, bint minimax, bint use_tt, bint aspiration, object progress):
        cdef int root_list[MOVE_BUFFER]
        cdef int count = self.root_moves(root_list, self.core.gen_moves(root_list))
        cdef int score = 0, best_score = 0, depth, done_depth = 0
        cdef bint with_gil = self.has_evaluator
        if count == 0:
            return SearchOutcome(C_NO_MOVE, c_terminal_score(self.core.terminal_value()), 0, [], 0, 0)
        self.order(root_list, count, False)
        best_move = root_list[0]
        best_pv = [best_move]
        for depth in range(1, max_depth + 1):
            self.hit_horizon = False
            self.last_best = best_move
            if with_gil:
                score = self.iteration(depth, score, minimax, use_tt, aspiration)
            else:
                with nogil:
                    score = self.iteration(depth, score, minimax, use_tt, aspiration)
            if self.interrupted:
                gc_raise_pending()
            if self.aborted:
                if self.last_best_searched and self.pv_len[0] > 0:  # the stopped iteration's best so far
                    best_score = self.root_score
                    best_pv = [self.pv[0][i] for i in range(self.pv_len[0])]
                    best_move = best_pv[0]
                break
            best_score = score
            best_pv = [self.pv[0][i] for i in range(self.pv_len[0])]
            best_move = best_pv[0]
            done_depth = depth
            if progress is not None and progress(depth, best_score, list(best_pv), self.nodes):
                break
            if not self.hit_horizon:
                break  # every line reached the end of the game: deeper is the same
        return SearchOutcome(best_move, best_score, done_depth, best_pv, self.nodes, self.tt_hits)

    def stop(self):
        """Make the running search return soon (from another thread: a stop button), with
        the answer it gives when its time runs out (module docstring). Does nothing when
        no search runs."""
        if self.busy:
            self.stop_requested = True

    cdef int iteration(self, int depth, int last, bint minimax, bint use_tt, bint aspiration) except? ERROR_SCORE nogil:
        cdef int score, alpha, beta
        if aspiration and depth > 1 and not minimax:
            alpha = last - C_ASPIRATION
            beta = last + C_ASPIRATION
            score = self.root_search(depth, alpha, beta, minimax, use_tt)
            if not self.aborted and (score <= alpha or score >= beta):
                score = self.root_search(depth, -C_INFINITY, C_INFINITY, minimax, use_tt)
            return score
        return self.root_search(depth, -C_INFINITY, C_INFINITY, minimax, use_tt)

    cdef int root_search(self, int depth, int alpha, int beta, bint minimax, bint use_tt) except? ERROR_SCORE nogil:
        """One search of the root, which records whether it has searched last_best to the
        end, and its best score so far (root_score; the module docstring)."""
        self.last_best_searched = False
        if minimax:
            return self.minimax(depth, 0)
        return self.alphabeta(depth, alpha, beta, 0, use_tt)

    cdef void root_searched(self, int move, int score, bint better) noexcept nogil:
        """The root has searched `move` to the end: note it when it is the last iteration's
        best, and the root's best score when `move` is the new best."""
        if move == self.last_best:
            self.last_best_searched = True
        if better:
            self.root_score = score

    cdef int root_moves(self, int* moves, int count) noexcept nogil:
        """Keep the allowed root moves (in order); all of them when none or nothing is allowed."""
        cdef int i, kept = 0
        if not self.root_filtered:
            return count
        for i in range(count):
            if self.root_allowed_move(moves[i]):
                kept += 1
        if kept == 0:
            return count  # a restriction that leaves nothing is ignored
        kept = 0
        for i in range(count):
            if self.root_allowed_move(moves[i]):
                moves[kept] = moves[i]
                kept += 1
        return kept

    cdef bint root_allowed_move(self, int move) noexcept nogil:
        move += C_HISTORY_OFFSET
        return 0 <= move < 128 and (self.root_allowed[move >> 6] >> (move & 63)) & 1

    cdef void order(self, int* moves, int count, bint by_history) noexcept nogil:
        """Sort by order_key, high first, stable; with `by_history` (alpha-beta) the
        history score breaks ties."""
        cdef long long keys[MOVE_BUFFER]
        cdef int i
        for i in range(count):
            # order_key first, the history score (below 2**40) breaking ties.
            keys[i] = (<long long>self.core.order_key(moves[i]) << 40) + (
                self.history[moves[i] + C_HISTORY_OFFSET] if by_history else 0)
        sort_by_key(moves, keys, count)

    cdef int front_moves(self, int* moves, int count, int first, int ply) noexcept nogil:
        """Bring `first` (the TT move) and the killers of `ply` that are in `moves` to the
        front, in that order, the others keeping theirs; return how many were brought."""
        cdef int candidates[3]
        cdef int c, i, j, n = 0, move
        candidates[0] = first
        candidates[1] = self.killers[ply][0]
        candidates[2] = self.killers[ply][1]
        for c in range(3):
            move = candidates[c]
            if move == C_NO_MOVE:
                continue
            for j in range(n, count):
                if moves[j] == move:
                    i = j
                    while i > n:
                        moves[i] = moves[i - 1]
                        i -= 1
                    moves[n] = move
                    n += 1
                    break
        return n

    cdef int enter(self) noexcept nogil:
        """Count a node; 1 (and the abort flag) when a limit is reached or a signal handler
        raised (Ctrl-C: the interrupted flag too)."""
        if self.node_limit and self.nodes >= self.node_limit:
            self.aborted = True  # N nodes at most (the pure twin)
            return 1
        self.nodes += 1
        if self.has_evaluator or (self.nodes & C_CLOCK_MASK) == 0:
            if self.stop_requested or self.deadline > 0 and gc_clock_seconds(self.cpu_clock) >= self.deadline:
                self.aborted = True
                return 1
            if self.poll_signals and gc_poll_signals(&self.next_poll):
                self.aborted = True
                self.interrupted = True
                return 1
        return 0

    cdef int evaluate_node(self) except? ERROR_SCORE nogil:
        cdef int value
        if not self.has_evaluator:
            value = self.core.evaluate(self.weights)
        else:
            with gil:
                # A copy: the evaluation may do what it likes with it, the search is unharmed.
                value = check_evaluation(self.evaluator(self.view(self.core.copy())))
        return heuristic_score(value)

    cdef void update_pv(self, int ply, int move) noexcept nogil:
        cdef int i, n = self.pv_len[ply + 1]
        self.pv[ply][0] = move
        for i in range(n):
            self.pv[ply][i + 1] = self.pv[ply + 1][i]
        self.pv_len[ply] = n + 1

    cdef int open_node(self, int depth, int ply, int* moves, int* count) except? ERROR_SCORE nogil:
        """Count the node. For a leaf, a finished game or a stop: its score, with count -1;
        else 0, with the moves to search in `moves` (the root's after root_moves)."""
        count[0] = -1
        if self.enter():
            return 0
        self.pv_len[ply] = 0
        if depth == 0 or ply >= C_MAX_PLY - 1:
            # A leaf needs no move list, only whether the game is over.
            if self.core.is_terminal():
                return c_terminal_score(self.core.terminal_value())
            self.hit_horizon = True
            return self.evaluate_node()
        # The root gets every legal move; below it the game may leave out moves that
        # cannot change the node's value at this depth (search_moves).
        count[0] = self.core.gen_moves(moves) if ply == 0 else self.core.search_moves(moves, depth)
        if count[0] == 0:
            count[0] = -1
            return c_terminal_score(self.core.terminal_value())
        if ply == 0:
            count[0] = self.root_moves(moves, count[0])
        return 0

    cdef int leaf(self, int move, int ply) noexcept nogil:
        """What ``alphabeta(0, ..., ply)`` returns after ``move``, without playing it (the
        core's leaf_value): the same node counted, the same flags set, the same value (a
        leaf's does not depend on the window). Only for a search without an evaluation
        function (that one gets the position played, and may count its calls)."""
        cdef bint over
        cdef int value
        if self.enter():
            return 0
        self.pv_len[ply] = 0
        value = self.core.leaf_value(move, self.weights, &over)
        if over:
            return c_terminal_score(value)
        self.hit_horizon = True
        return heuristic_score(value)

    cdef int minimax(self, int depth, int ply) except? ERROR_SCORE nogil:
        cdef int moves[MOVE_BUFFER]
        cdef int count, i, score, best
        score = self.open_node(depth, ply, moves, &count)
        if count < 0:
            return score
        self.order(moves, count, False)
        best = -C_INFINITY
        for i in range(count):
            self.core.make_move(moves[i])
            try:
                score = -self.minimax(depth - 1, ply + 1)
            finally:
                self.core.unmake_move()
            if self.aborted:
                return 0
            if ply == 0:
                self.root_searched(moves[i], score, score > best)
            if score > best:
                best = score
                self.update_pv(ply, moves[i])
        return best

    cdef int alphabeta(self, int depth, int alpha, int beta, int ply, bint use_tt) except? ERROR_SCORE nogil:
        cdef int moves[MOVE_BUFFER]
        cdef int count, i, score, best, best_move, tt_move = C_NO_MOVE, alpha_orig, flag, front
        cdef bint cut = False, leaves
        cdef uint64_t key = 0
        cdef TTEntry* entry = NULL
        cdef bint tabled = use_tt and depth >= C_TT_MIN_DEPTH
        if tabled:
            # Start loading the node's table slot (most likely a cache miss) while the
            # node's moves are generated.
            gc_prefetch(&self.table[self.core.key() & self.mask])
        score = self.open_node(depth, ply, moves, &count)
        if count < 0:
            return score
        if tabled:
            key = self.core.key()
            entry = self.tt_probe(key)
            if entry.flag != 0 and entry.key == key:
                tt_move = entry.move
                if entry.depth == depth and ply > 0:
                    if (entry.flag == C_EXACT or (entry.flag == C_LOWER and entry.score >= beta)
                            or (entry.flag == C_UPPER and entry.score <= alpha)):
                        if -C_WIN < entry.score < C_WIN:
                            self.hit_horizon = True  # a stored score from a search that stopped at the horizon
                        self.pv[ply][0] = tt_move
                        self.pv_len[ply] = 1
                        return entry.score
        if (self.mpc_on and ply > 0 and beta - alpha == 1 and C_MPC_MIN_DEPTH <= depth < C_MPC_DEPTHS
                and self.mpc_level < C_MPC_MAX_LEVEL):
            score = self.probcut(depth, alpha, beta, ply, use_tt, &cut)
            if self.aborted:
                return 0
            if cut:
                return score
        alpha_orig = alpha
        best = -C_INFINITY
        best_move = C_NO_MOVE
        # The TT move and the killers first; the others are ordered only when the search
        # gets to them (a cut-off by the first moves saves it).
        front = self.front_moves(moves, count, tt_move, ply)
        # The children are leaves: evaluated here rather than by a recursive call (leaf).
        leaves = depth == 1 and not self.has_evaluator
        for i in range(count):
            if i == front:
                self.order(moves + front, count - front, True)
            if leaves:
                score = -self.leaf(moves[i], ply + 1)
                if i > 0 and not self.aborted and alpha < score < beta:
                    self.enter()  # the principal variation's re-search: a node again, the same value
            else:
                self.core.make_move(moves[i])
                try:
                    if i == 0:
                        score = -self.alphabeta(depth - 1, -beta, -alpha, ply + 1, use_tt)
                    else:
                        # Principal variation search: prove the move no better with a null
                        # window, and search it fully only when that fails.
                        score = -self.alphabeta(depth - 1, -alpha - 1, -alpha, ply + 1, use_tt)
                        if not self.aborted and alpha < score < beta:
                            score = -self.alphabeta(depth - 1, -beta, -score, ply + 1, use_tt)
                finally:
                    self.core.unmake_move()
            if self.aborted:
                return 0
            if ply == 0:
                self.root_searched(moves[i], score, score > alpha)
            if score > best:
                best = score
                best_move = moves[i]
                if score > alpha:
                    alpha = score
                    self.update_pv(ply, moves[i])
                    if alpha >= beta:
                        self.history[moves[i] + C_HISTORY_OFFSET] = min(
                            self.history[moves[i] + C_HISTORY_OFFSET] + depth * depth, C_HISTORY_MAX)
                        if moves[i] != self.killers[ply][0]:
                            self.killers[ply][1] = self.killers[ply][0]
                            self.killers[ply][0] = moves[i]
                        break
        if best_move != C_NO_MOVE and self.pv_len[ply] == 0:
            self.pv[ply][0] = best_move  # fail low: the best move found, without a line
            self.pv_len[ply] = 1
        if tabled:
            flag = C_UPPER if best <= alpha_orig else (C_LOWER if best >= beta else C_EXACT)
            self.tt_store(entry, key, best, best_move, depth, flag)
        return best

    cdef int probcut(self, int depth, int alpha, int beta, int ply, bint use_tt, bint* cut) except? ERROR_SCORE nogil:
        """Multi-ProbCut's probes of a null-window node (module docstring): `cut` set and
        beta or alpha returned when a shallow search predicts the deep one fails that way."""
        cdef int shallow = self.mpc_shallow[depth], slot, slope, score, empties
        cdef long long bound
        cut[0] = False
        if shallow == 0:
            return 0
        empties = self.core.num_empty()
        slot = (empties if empties < C_MPC_EMPTIES - 1 else C_MPC_EMPTIES - 1) * C_MPC_DEPTHS + depth
        slope = self.mpc_slope[slot]
        if slope == 0 or not -C_WIN < alpha or not beta < C_WIN:
            return 0
        bound = -floor_div(-(<long long>beta + self.mpc_high[slot]) * C_MPC_SCALE, slope)  # rounded up
        if -C_WIN < bound - 1 and bound + 1 < C_WIN:
            self.mpc_level += 1
            score = self.alphabeta(shallow, <int>bound - 1, <int>bound, ply, use_tt)
            self.mpc_level -= 1
            if self.aborted:
                return 0
            if score >= bound:
                cut[0] = True
                return beta
        bound = floor_div((<long long>alpha + self.mpc_low[slot]) * C_MPC_SCALE, slope)  # rounded down
        if -C_WIN < bound - 1 and bound + 1 < C_WIN:
            self.mpc_level += 1
            score = self.alphabeta(shallow, <int>bound, <int>bound + 1, ply, use_tt)
            self.mpc_level -= 1
            if self.aborted:
                return 0
            if score <= bound:
                cut[0] = True
                return alpha
        self.pv_len[ply] = 0  # the probes' lines are not the node's
        return 0
