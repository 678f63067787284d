"""The searches, written once over the game protocol: pure-Python twin of ``_alphabeta_cy``.

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

from __future__ import annotations

import mmap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..errors import ConcurrentUseError, InvalidEvaluationError, InvalidMoveError
from ._options import (
    ASPIRATION_WINDOW,
    EXACT,
    HISTORY_MAX,
    HISTORY_OFFSET,
    HISTORY_SIZE,
    INFINITY,
    LOWER,
    MAX_NODE_LIMIT,
    MAX_PLY,
    MAX_WEIGHT,
    MAX_WEIGHTS,
    MPC_DEPTHS,
    MPC_EMPTIES,
    MPC_MAX_LEVEL,
    MPC_MIN_DEPTH,
    MPC_SCALE,
    TT_ENTRY_BYTES,
    TT_MIN_DEPTH,
    UPPER,
    WIN,
    MPCTable,
    SearchLimits,
    check_algorithm,
    check_evaluation,
    check_mpc,
    check_tt_mb,
    check_weights,
    require_limits,
)
from ._results import NO_MOVE, SearchOutcome

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

# WIN, MAX_PLY, the table's layout, the history's and the weight bounds are in _options, shared with
# _alphabeta_cy. The clock interval is not: the compiled search's nodes are cheaper.
#: Nodes between two looks at the clock (a power of two).
CLOCK_INTERVAL = 16


def terminal_score(value: int) -> int:
    """Search score of a finished game whose result for the side to move is ``value``."""
    if value > 0:
        return WIN + value
    if value < 0:
        return -WIN + value
    return 0


class LimitReached(Exception):
    """The node or time limit ran out: unwind to the root."""


class Searcher:
    """Search state that lives between searches: the transposition table.

    :param tt_mb: transposition-table size in megabytes (0 disables it).

    One search at a time: a second ``search`` (from the evaluation function, or from another
    thread while this one runs), ``__init__`` or ``clear`` during a search raises
    :class:`~gamecore.errors.ConcurrentUseError` and changes nothing.
    """

    def __init__(self, tt_mb: float = 16) -> None:
        lock = self.__dict__.get("_lock")
        if lock is not None and lock.locked():
            raise ConcurrentUseError("cannot re-initialise a searcher while it searches")
        tt_mb = check_tt_mb(tt_mb)
        entries = int(tt_mb * (1 << 20)) // TT_ENTRY_BYTES
        size = 1
        while size * 2 <= entries:
            size *= 2
        self._lock = lock or threading.Lock()
        self._cpu_clock = False
        self._stop_requested = False
        self._mpc: MPCTable | None = None
        self._mpc_level = 0
        self.tt_entries = size if entries else 0
        self._mask = self.tt_entries - 1
        self._tt_mb = tt_mb
        self._reset_table()

    def __getstate__(self) -> dict[str, float]:
        # A copy gets a fresh table of the same size (the table is a cache).
        return {"tt_mb": self.tt_bytes() / (1 << 20)}

    def __setstate__(self, state: dict[str, float]) -> None:
        Searcher.__init__(self, state["tt_mb"])

    def _reset_table(self) -> None:
        # The same 16 bytes an entry as the C table: the key, and score | move | depth | flag
        # packed in one signed 64-bit word (flag 0: an empty slot). Anonymous mappings are
        # zero pages until written: making even a large table costs nothing up front.
        n = self.tt_entries
        try:
            memory = mmap.mmap(-1, 16 * n) if n else bytearray()
        except OSError:  # no address space for it (ENOMEM): the compiled twin's error, word for word
            raise MemoryError(f"cannot allocate a {self._tt_mb} MB transposition table") from None
        self._memory = memory
        self._tt_filled = 0  # entries not empty: stores into an empty slot since the table was made
        self._keys = memoryview(memory)[: 8 * n].cast("Q")
        self._data = memoryview(memory)[8 * n :].cast("q")

    def clear(self) -> None:
        """Empty the transposition table."""
        if self._lock.locked():
            raise ConcurrentUseError("cannot clear a searcher while it searches")
        self._reset_table()

    def tt_bytes(self) -> int:
        """Memory of the transposition table (allocated when the searcher is made)."""
        return self.tt_entries * TT_ENTRY_BYTES

    def _tt_probe(self, key: int) -> tuple[int, int, int, int] | None:
        """``(score, move, depth, flag)`` stored for ``key`` (counted as a hit), or None."""
        slot = key & self._mask
        data = self._data[slot]
        if data & 0xFF and self._keys[slot] == key:
            self._tt_hits += 1
            return _unpack(data)
        return None

    def _tt_store(self, key: int, score: int, move: int, depth: int, flag: int) -> None:
        """Store an entry under the replacement rule: it replaces the slot's entry unless
        that one is for the same position and was searched deeper."""
        slot = key & self._mask
        old = self._data[slot]
        if not old & 0xFF or self._keys[slot] != key or depth >= (old >> 8) & 0xFF:
            self._tt_filled += not old & 0xFF
            self._keys[slot] = key
            self._data[slot] = (score << 32) | ((move + 2) << 16) | (depth << 8) | flag

    # -- the search -------------------------------------------------------

    def search(
        self,
        core: Any,
        limits: SearchLimits,
        *,
        weights: Sequence[int] = (),
        evaluator: Callable[[Any], int] | None = None,
        wrap: Callable[[Any], Any] | None = None,
        algorithm: str = "alphabeta",
        aspiration: bool = False,
        root_moves: list[int] | None = None,
        progress: Callable[[int, int, list[int], int], Any] | None = None,
        mpc: Any = None,
    ) -> SearchOutcome:
        """Search ``core`` and return a :class:`SearchOutcome` (move codes).

        ``root_moves``, when given, restricts the root to those of the legal moves
        (in their usual order): e.g. one move of each set of symmetric ones.

        ``limits`` (:class:`~gamecore.search._options.SearchLimits`): the deepest iteration
        (>= 1), the node limit (0: none) and the seconds (0: none), on the wall clock or with
        ``cpu_clock`` the searching thread's CPU time.
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
        if not self._lock.acquire(blocking=False):
            raise ConcurrentUseError(
                "this searcher (Engine) is already searching: an evaluation function may not call "
                "it again, and two threads may not share it (give each its own Engine)"
            )
        try:
            values = check_weights(weights)
            max_depth, node_limit, time_limit = require_limits(limits).checked()
            check_algorithm(algorithm, ("alphabeta", "minimax"))
            if evaluator is not None and not (callable(evaluator) and callable(wrap)):
                raise InvalidEvaluationError("an evaluation function and a position wrapper must be callables")
            if root_moves is not None:
                for m in root_moves:
                    if type(m) is not int or not -HISTORY_OFFSET <= m < HISTORY_SIZE - HISTORY_OFFSET:
                        raise InvalidMoveError(f"root moves must be move codes from -2 to 125, got {m!r}")
            self._mpc = check_mpc(mpc)
            self._mpc_level = 0
            self._core = core.copy()
            self._weights = values + [0] * (MAX_WEIGHTS - len(values))
            self._core.begin_search(self._weights)
            self._evaluator = evaluator
            self._wrap = wrap
            self._cpu_clock = bool(limits.cpu_clock)
            self._progress = progress
            self._stop_requested = False
            return self._run(max_depth, node_limit, time_limit, algorithm, aspiration, root_moves)
        finally:
            self._core = self._evaluator = self._wrap = self._progress = self._mpc = None
            self._lock.release()

    def _run(
        self,
        max_depth: int,
        node_limit: int,
        time_limit: float,
        algorithm: str,
        aspiration: bool,
        root_moves: list[int] | None,
    ) -> SearchOutcome:
        core = self._core
        self._nodes = 0
        self._tt_hits = 0
        self._node_limit = node_limit
        self._start = self._now()
        self._deadline = self._start + time_limit if time_limit > 0 else 0.0
        self._pv = [[0] * MAX_PLY for _ in range(MAX_PLY)]
        self._pv_len = [0] * MAX_PLY
        self._killers = [[NO_MOVE, NO_MOVE] for _ in range(MAX_PLY)]
        self._history = [0] * HISTORY_SIZE
        self._hit_horizon = False
        use_tt = algorithm == "alphabeta" and self.tt_entries > 0

        self._root_filter = None if root_moves is None else set(root_moves)
        legal = self._root_moves(core.gen_moves())
        if not legal:
            return SearchOutcome(NO_MOVE, terminal_score(core.terminal_value()), 0, [], 0, 0)
        best_move = self._order(legal)[0]
        best_score = 0
        best_pv = [best_move]
        done_depth = 0
        score = 0
        for depth in range(1, max_depth + 1):
            self._hit_horizon = False
            self._last_best = best_move
            try:
                if aspiration and depth > 1 and algorithm == "alphabeta":
                    alpha, beta = score - ASPIRATION_WINDOW, score + ASPIRATION_WINDOW
                    score = self._root_search(depth, alpha, beta, algorithm, use_tt)
                    if score <= alpha or score >= beta:
                        score = self._root_search(depth, -INFINITY, INFINITY, algorithm, use_tt)
                else:
                    score = self._root_search(depth, -INFINITY, INFINITY, algorithm, use_tt)
            except LimitReached:
                if self._last_best_searched and self._pv_len[0]:  # the stopped iteration's best so far
                    best_score = self._root_score
                    best_pv = self._pv[0][: self._pv_len[0]]
                    best_move = best_pv[0]
                break
            best_score = score
            best_pv = self._pv[0][: self._pv_len[0]]
            best_move = best_pv[0]
            done_depth = depth
            if self._progress is not None and self._progress(depth, best_score, list(best_pv), self._nodes):
                break
            if not self._hit_horizon:
                break  # every line reached the end of the game: deeper is the same
        return SearchOutcome(best_move, best_score, done_depth, best_pv, self._nodes, self._tt_hits)

    def stop(self) -> None:
        """Make the running search return soon (from another thread: a stop button), with
        the answer it gives when its time runs out (module docstring). Does nothing when
        no search runs."""
        if self._lock.locked():
            self._stop_requested = True

    def _root_search(self, depth: int, alpha: int, beta: int, algorithm: str, use_tt: bool) -> int:
        """One search of the root, which records whether it has searched ``_last_best`` to
        the end, and its best score so far (``_root_score``; module docstring)."""
        self._last_best_searched = False
        if algorithm == "minimax":
            return self._minimax(depth, 0)
        return self._alphabeta(depth, alpha, beta, 0, use_tt)

    def _root_moves(self, moves: list[int]) -> list[int]:
        """The root's moves after the ``root_moves`` restriction (all when there is none)."""
        allowed = self._root_filter
        if allowed is None:
            return moves
        kept = [m for m in moves if m in allowed]
        return kept or moves  # a restriction that leaves nothing is ignored

    def _now(self) -> float:
        """Seconds on the search's clock: wall (monotonic) or the thread's CPU time."""
        return time.thread_time() if self._cpu_clock else time.perf_counter()

    def _order(self, moves: list[int], by_history: bool = False) -> list[int]:
        """``moves`` by ``order_key``, high first, stable; with ``by_history`` (alpha-beta)
        the history score breaks ties."""
        core = self._core
        if by_history:
            history = self._history
            return sorted(moves, key=lambda m: (-core.order_key(m), -history[m + HISTORY_OFFSET]))
        return sorted(moves, key=lambda m: -core.order_key(m))

    def _front_moves(self, moves: list[int], first: int, ply: int) -> Iterator[int]:
        """``moves`` in alpha-beta's order, lazily: ``first`` (the TT move) and the killers of
        ``ply`` that are among them, then the others by ``order_key`` and history, whose keys
        are taken only when the search gets to them (a cut-off by the first moves saves them)."""
        front: list[int] = []
        for move in (first, *self._killers[ply]):
            if move != NO_MOVE and move not in front and move in moves:
                front.append(move)
        yield from front
        yield from self._order([m for m in moves if m not in front], by_history=True)

    def _enter(self) -> None:
        """Count a node and stop the search when a limit is reached: a node limit of N
        visits N nodes at most (the one that would be the N+1-th is not counted)."""
        if self._node_limit and self._nodes >= self._node_limit:
            raise LimitReached
        self._nodes += 1
        if self._evaluator is not None or not self._nodes % CLOCK_INTERVAL:
            if self._stop_requested or self._deadline and self._now() >= self._deadline:
                raise LimitReached

    def _evaluate_node(self) -> int:
        if self._evaluator is None:
            value: int = self._core.evaluate(self._weights)
        else:
            # A copy: the evaluation may do what it likes with it, the search is unharmed.
            wrap = self._wrap
            assert wrap is not None  # given with the evaluator
            value = check_evaluation(self._evaluator(wrap(self._core.copy())))
        # A heuristic score never reaches the range of proven results.
        return max(-WIN + 1, min(WIN - 1, value))

    def _leaf(self, move: int, ply: int) -> int:
        """What ``_alphabeta(0, ..., ply)`` returns after ``move``, by the core's ``leaf_value``:
        the same node counted, the same value (a leaf's does not depend on the window). Only for
        a search without an evaluation function (that one gets the position played)."""
        self._enter()
        self._pv_len[ply] = 0
        leaf: tuple[int, bool] = self._core.leaf_value(move, self._weights)
        value, over = leaf
        if over:
            return terminal_score(value)
        self._hit_horizon = True
        return max(-WIN + 1, min(WIN - 1, value))  # a heuristic score never reaches proven results

    def _open_node(self, depth: int, ply: int) -> tuple[int, list[int] | None]:
        """Count the node. ``(score, None)`` for a leaf or a finished game, else
        ``(0, moves)``: the moves to search (the root's after ``root_moves``)."""
        self._enter()
        core = self._core
        self._pv_len[ply] = 0
        if depth == 0 or ply >= MAX_PLY - 1:
            # A leaf needs no move list, only whether the game is over.
            if core.is_terminal():
                return terminal_score(core.terminal_value()), None
            self._hit_horizon = True
            return self._evaluate_node(), None
        # The root gets every legal move; below it the game may leave out moves that
        # cannot change the node's value at this depth (``search_moves``).
        moves = core.gen_moves() if ply == 0 else core.search_moves(depth)
        if not moves:
            return terminal_score(core.terminal_value()), None
        return 0, self._root_moves(moves) if ply == 0 else moves

    def _minimax(self, depth: int, ply: int) -> int:
        score, moves = self._open_node(depth, ply)
        if moves is None:
            return score
        core = self._core
        best = -INFINITY
        for move in self._order(moves):
            core.make_move(move)
            try:
                score = -self._minimax(depth - 1, ply + 1)
            finally:
                core.unmake_move()
            if ply == 0:
                self._root_searched(move, score, score > best)
            if score > best:
                best = score
                self._update_pv(ply, move)
        return best

    def _root_searched(self, move: int, score: int, better: bool) -> None:
        """The root has searched ``move`` to the end: note it when it is the last iteration's
        best, and the root's best score when ``move`` is the new best."""
        if move == self._last_best:
            self._last_best_searched = True
        if better:
            self._root_score = score

    def _update_pv(self, ply: int, move: int) -> None:
        row, child = self._pv[ply], self._pv[ply + 1]
        row[0] = move
        n = self._pv_len[ply + 1]
        row[1 : n + 1] = child[:n]
        self._pv_len[ply] = n + 1

    def _alphabeta(self, depth: int, alpha: int, beta: int, ply: int, use_tt: bool) -> int:
        score, moves = self._open_node(depth, ply)
        if moves is None:
            return score
        core = self._core
        tt_move = NO_MOVE
        key = 0
        tabled = use_tt and depth >= TT_MIN_DEPTH
        if tabled:
            key = core.key()
            entry = self._tt_probe(key)
            if entry is not None:
                tt_score, tt_move, tt_depth, tt_flag = entry
                if tt_depth == depth and ply > 0:
                    if (
                        tt_flag == EXACT
                        or (tt_flag == LOWER and tt_score >= beta)
                        or (tt_flag == UPPER and tt_score <= alpha)
                    ):
                        if -WIN < tt_score < WIN:
                            self._hit_horizon = True  # a stored score from a search that stopped at the horizon
                        self._pv[ply][0] = tt_move
                        self._pv_len[ply] = 1
                        return tt_score
        if (
            self._mpc is not None
            and ply > 0
            and beta - alpha == 1
            and MPC_MIN_DEPTH <= depth < MPC_DEPTHS
            and self._mpc_level < MPC_MAX_LEVEL
        ):
            cut = self._probcut(depth, alpha, beta, ply, use_tt)
            if cut is not None:
                return cut
        alpha_orig = alpha
        best = -INFINITY
        best_move = NO_MOVE
        # The children are leaves: evaluated here rather than by a recursive call (_leaf).
        leaves = depth == 1 and self._evaluator is None
        for index, move in enumerate(self._front_moves(moves, tt_move, ply)):
            if leaves:
                score = -self._leaf(move, ply + 1)
                if index > 0 and alpha < score < beta:
                    self._enter()  # the principal variation's re-search: a node again, the same value
            else:
                core.make_move(move)
                try:
                    if index == 0:
                        score = -self._alphabeta(depth - 1, -beta, -alpha, ply + 1, use_tt)
                    else:
                        # Principal variation search: prove the move no better with a null
                        # window, and search it fully only when that fails.
                        score = -self._alphabeta(depth - 1, -alpha - 1, -alpha, ply + 1, use_tt)
                        if alpha < score < beta:
                            score = -self._alphabeta(depth - 1, -beta, -score, ply + 1, use_tt)
                finally:
                    core.unmake_move()
            if ply == 0:
                self._root_searched(move, score, score > alpha)
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    self._update_pv(ply, move)
                    if alpha >= beta:
                        slot = move + HISTORY_OFFSET
                        self._history[slot] = min(self._history[slot] + depth * depth, HISTORY_MAX)
                        killers = self._killers[ply]
                        if move != killers[0]:
                            killers[1] = killers[0]
                            killers[0] = move
                        break
        if best_move != NO_MOVE and self._pv_len[ply] == 0:
            self._pv[ply][0] = best_move  # fail low: the best move found, without a line
            self._pv_len[ply] = 1
        if tabled:
            flag = UPPER if best <= alpha_orig else LOWER if best >= beta else EXACT
            self._tt_store(key, best, best_move, depth, flag)
        return best

    def _probcut(self, depth: int, alpha: int, beta: int, ply: int, use_tt: bool) -> int | None:
        """Multi-ProbCut's probes of a null-window node (module docstring): ``beta`` or
        ``alpha`` when a shallow search predicts the deep one fails that way, else None."""
        mpc = self._mpc
        assert mpc is not None
        shallow_depths, slopes, highs, lows = mpc
        shallow = shallow_depths[depth]
        if not shallow:
            return None
        slot = min(self._core.num_empty(), MPC_EMPTIES - 1) * MPC_DEPTHS + depth
        slope = slopes[slot]
        if not slope or not -WIN < alpha or not beta < WIN:
            return None
        bound = -(-(beta + highs[slot]) * MPC_SCALE // slope)  # rounded up
        if -WIN < bound - 1 and bound + 1 < WIN:
            self._mpc_level += 1
            try:
                score = self._alphabeta(shallow, bound - 1, bound, ply, use_tt)
            finally:
                self._mpc_level -= 1
            if score >= bound:
                return beta
        bound = (alpha + lows[slot]) * MPC_SCALE // slope  # rounded down
        if -WIN < bound - 1 and bound + 1 < WIN:
            self._mpc_level += 1
            try:
                score = self._alphabeta(shallow, bound, bound + 1, ply, use_tt)
            finally:
                self._mpc_level -= 1
            if score <= bound:
                return alpha
        self._pv_len[ply] = 0  # the probes' lines are not the node's
        return None


def _unpack(data: int) -> tuple[int, int, int, int]:
    """``(score, move, depth, flag)`` of a packed table word."""
    return data >> 32, ((data >> 16) & 0xFFFF) - 2, (data >> 8) & 0xFF, data & 0xFF
