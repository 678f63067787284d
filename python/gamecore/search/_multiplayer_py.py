"""Searches for games of n players, over the game protocol: pure-Python twin of ``_multiplayer_cy``.

Values are integers per player (``terminal_values()`` at the end of the game,
``evaluate_players(weights)`` at the horizon), never mixed into one negamax score.

- ``maxn`` / ``maxn-plain``: Max^n (Luckhardt & Irani 1986). Every node returns a vector
  of values, one per player: the vector of the child that is best for the player to move
  there. Tie-break: among children with the same value for the mover, the first in move
  order wins (a later child must be strictly better). ``maxn`` adds Korf's (1991) shallow
  pruning, from ``value_bounds() = (L, S)`` (every value >= L, every sum <= S): once the
  mover ``q`` of a node is sure of ``v``, the player ``p`` above can get at most
  ``S - v - (n - 2) * L`` here; when that is no more than what ``p`` already has, the node's
  other children are skipped (``p`` will not pick it: strictly better is needed). A mover
  already sure of ``S - (n - 1) * L``, the most anyone can get, also stops. Both give the
  same move and vector as ``maxn-plain`` at the same depth, with fewer states.
- ``paranoid`` (Sturtevant & Korf 2000): the root player against the coalition of all the
  others, who minimise its value; fail-soft alpha-beta on the root player's value.
- ``brs``, Best-Reply Search (Schadd & Winands 2011): the root player's layers alternate
  with one MIN layer holding every move of every opponent (opponents in playing order
  after the root player, each one's moves in move order); only the best of those replies
  is played, then it is the root player's turn again. An opponent moves out of turn through
  the protocol's ``set_turn`` (a pushed turn change): before its move when it is not the
  side to move, and after it, back to the root player, when that one is not. Two-player
  games never need it. A layer counts one ply of depth.

Paranoid and BRS are one alpha-beta search on the root player's value (``_coalition``):
they differ only in the MIN layers' moves -- paranoid's are the moves of the player whose
turn it is, BRS's every opponent's, after which the turn goes back to the root player.
Their values are the root player's: its ``terminal_values()`` entry at the end, its
``evaluate_players`` entry (or the user evaluation's) at the horizon. Both use the
transposition table of the alpha-beta ``Searcher`` (same entries, same replacement rule, a
stored score cuts only at the depth it was searched to), its keys salted by the algorithm
and the root player, and its flag's bit ``NO_HORIZON`` set when every line below reached
the end of the game (an iteration that meets only such lines is the last one needed).
Move order: the table's move first, then ``order_key`` high to low, then the game's move
order. A move is coded ``(player << 8) | (move + 2)`` (``brs_code``: the player who makes
it) inside the table and the principal variation.

Max^n's transposition table. A Max^n value is a vector, so Max^n has a table of its own:
``2**k`` entries of 32 bytes (key, the vector of up to four int32 values, move, depth,
flag), half as many entries as the alpha-beta table of the same ``tt_mb``, the same slot
and replacement rule. An entry is stored only when the node's vector is *exact* for its
depth: a node that shallow pruning cut short (the parent's bound) returns a vector that
is only good enough to be rejected above -- a bound on the mover's value, nothing on the
others' -- and is not stored (the other cut, the mover sure of the most anyone can get,
leaves the vector exact: later children can only tie, and ties go to the first). A stored
vector settles a node searched to the same depth, never another depth, and the table's
move does not reorder the children: the tie-break is the move order, so Max^n returns
the same move and vector with or without the table at a fixed depth, with fewer states.
The root (ply 0) is neither probed nor stored.

User evaluation. ``evaluator(position) -> values`` (one int per player) replaces
``evaluate_players(weights)`` at the horizon of all three searches (paranoid and BRS use
the root player's entry). It gets a fresh copy of the position each time, and its result
must keep ``value_bounds()`` (each value >= L, their sum <= S: shallow pruning relies on
it), else InvalidEvaluationError (``check_values``); its exceptions propagate.

All run by iterative deepening (Max^n too, for the time limit) under the alpha-beta
engine's limits: nodes, and a deadline read every ``CLOCK_INTERVAL`` nodes, on the wall
clock or (``cpu_clock``) the searching thread's CPU time. A time limit is used whole: the
iterations go on until the deadline stops one half-way. The answer is the last finished
iteration's, or the stopped iteration's best root move so far when that iteration has
already searched to the end the move the answer would otherwise be (the last iteration's
best, or the first in move order before any finished): every root move searched to the end
has its exact value at the new depth, and the best of them is at least as good, at that
depth, as the move it replaces (paranoid and BRS search the table's move, the last best,
first). ``depth`` stays the last finished iteration's. Both backends visit the same nodes in
the same order, so for a depth or node limit they return the same move, values, principal
variation and node count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._rng import MASK64
from ..errors import ConcurrentUseError, InvalidEvaluationError, InvalidOptionError
from ._alphabeta_py import LimitReached, Searcher
from ._options import (
    EXACT,
    FRAME_BYTES,
    INFINITY,
    LOWER,
    MAX_PLY,
    MAX_WEIGHTS,
    MAXN_ENTRY_BYTES,
    MULTIPLAYER_SALT_STEP,
    MULTIPLAYER_SALTS,
    MULTIPLAYER_SEARCHES,
    NO_HORIZON,
    UPPER,
    SearchLimits,
    check_algorithm,
    check_root_moves,
    check_values,
    check_weights,
    require_limits,
)
from ._results import NO_MOVE, MultiOutcome

__all__ = [
    "MULTIPLAYER_SEARCHES",
    "MAXN_ENTRY_BYTES",
    "MultiSearcher",
    "NO_HORIZON",
    "brs_code",
    "brs_move",
    "brs_player",
    "check_values",
]

# NO_HORIZON, FRAME_BYTES, MAXN_ENTRY_BYTES, the table-key salts and the bound flags are in _options, shared with _multiplayer_cy.


def brs_code(player: int, move: int) -> int:
    """A BRS move: the player who makes it and the move."""
    return (player << 8) | (move + 2)


def brs_move(code: int) -> int:
    return (code & 0xFF) - 2


def brs_player(code: int) -> int:
    return code >> 8


class MultiSearcher(Searcher):
    """Max^n, paranoid and Best-Reply Search over the alpha-beta ``Searcher``'s table and limits.

    :param tt_mb: transposition-table size in megabytes (0 disables it); Max^n's table of
        vectors takes as much again, made at its first search.
    """

    def _reset_table(self) -> None:
        super()._reset_table()
        self._maxn_table: list[tuple[Any, ...] | None] | None = None
        self._maxn_filled = 0

    def _maxn_entries(self) -> int:
        return self.tt_entries // 2 if self.tt_entries >= 2 else 0

    def maxn_tt_bytes(self) -> int:
        """Memory of Max^n's table (allocated by ``make_maxn_table`` or the first Max^n search)."""
        return self._maxn_entries() * MAXN_ENTRY_BYTES

    def make_maxn_table(self) -> None:
        """Allocate Max^n's table, if it is not yet, with every page of it touched: the first
        timed Max^n search then spends none of its time on page faults, which come between two
        readings of its clock and can overshoot a short limit (the Engine calls it)."""
        if self._lock.locked():
            raise ConcurrentUseError("cannot make a table while the searcher searches")
        if self._maxn_table is None and self._maxn_entries():
            self._maxn_table = [None] * self._maxn_entries()

    def tt_used(self, algorithm: str) -> int:
        """Entries of the table ``algorithm`` uses (Max^n's for ``maxn`` and ``maxn-plain``,
        the alpha-beta table for paranoid and BRS) that hold a position: what the searches
        since the last ``clear`` filled of it, not what was allocated."""
        return self._maxn_filled if algorithm in ("maxn", "maxn-plain") else self._tt_filled

    def search_multi(
        self,
        core: Any,
        weights: list[int],
        limits: SearchLimits,
        algorithm: str,
        root_moves: list[int] | None = None,
        evaluator: Callable[[Any], Any] | None = None,
        wrap: Callable[[Any], Any] | None = None,
        progress: Callable[[int, int, list[int], int], Any] | None = None,
    ) -> MultiOutcome:
        """Search ``core``; return a :class:`MultiOutcome` (move codes).

        ``score`` is the root player's value; ``values`` the vector of every player (Max^n;
        paranoid and BRS know only the root player's: None for the others); ``depth`` the last
        finished iteration (0: none, the move is then the first in move order); ``exact`` True
        when that iteration reached the end of the game on every line; ``memory`` the bytes of
        the search structures (tables and recursion buffers). ``move`` is ``NO_MOVE`` when the
        game is over. ``evaluator(wrap(core))``, when given, replaces ``evaluate_players(weights)`` at
        the horizon (see the module docstring). ``limits`` (:class:`~gamecore.search._options.SearchLimits`):
        the deepest iteration, the node and time limits, and which clock. ``core`` is not touched: the
        search runs on a copy of it. Like ``Searcher.search``, a second call while one runs (from the
        evaluation, or from another thread) raises ConcurrentUseError. ``progress`` and
        :meth:`stop` as for ``Searcher.search``.
        """
        if not self._lock.acquire(blocking=False):
            raise ConcurrentUseError(
                "this searcher (Engine) is already searching: an evaluation function may not call "
                "it again, and two threads may not share it (give each its own Engine)"
            )
        try:
            if evaluator is not None and not (callable(evaluator) and callable(wrap)):
                raise InvalidEvaluationError("an evaluation function and a position wrapper must be callables")
            require_limits(limits)
            self._evaluator = evaluator
            self._wrap = wrap
            self._cpu_clock = bool(limits.cpu_clock)
            self._progress = progress
            self._stop_requested = False
            # The clock starts here: copying the position and making the table are in the time.
            self._start = self._now()
            return self._search_multi(core.copy(), weights, limits, algorithm, root_moves)
        finally:
            self._core = self._evaluator = self._wrap = self._progress = None
            self._lock.release()

    def _search_multi(
        self,
        core: Any,
        weights: list[int],
        limits: SearchLimits,
        algorithm: str,
        root_moves: list[int] | None,
    ) -> MultiOutcome:
        check_algorithm(algorithm, MULTIPLAYER_SEARCHES)
        weights = check_weights(weights)
        weights += [0] * (MAX_WEIGHTS - len(weights))  # as the compiled twin's buffer: a missing weight is 0
        max_depth, node_limit, time_limit = limits.checked()
        root_moves = check_root_moves(root_moves)
        players = core.num_players()
        if algorithm == "brs" and players > 2:
            if not core.set_turn(core.to_move()):
                raise InvalidOptionError(
                    "Best-Reply Search needs a game that lets a player move out of turn (set_turn)"
                )
            core.unmake_move()
        self._core = core
        self._weights = weights
        self._view = None
        self._nodes = 0
        self._tt_hits = 0
        self._node_limit = node_limit
        self._deadline = self._start + time_limit if time_limit > 0 else 0.0
        self._pv = [[0] * MAX_PLY for _ in range(MAX_PLY)]
        self._pv_len = [0] * MAX_PLY
        self._hit_horizon = False
        self._deepest = 0
        self._root_found: Any = None  # the root's best so far in this iteration (score or vector)
        self._root_filter = None if root_moves is None else set(root_moves)
        self._players = players
        root: int = core.to_move()
        self._root = root
        self._lowest, self._highest_sum = lowest, highest_sum = core.value_bounds()
        self._sum_rest = highest_sum - (players - 2) * lowest  # the most two players can share
        self._max_single = highest_sum - (players - 1) * lowest  # the most one player can get
        self._salt = (MULTIPLAYER_SALTS.get(algorithm, 0) + root * MULTIPLAYER_SALT_STEP) & MASK64
        maxn = algorithm in ("maxn", "maxn-plain")
        use_tt = self.tt_entries > 0 if not maxn else self._maxn_entries() > 0
        if maxn and use_tt and self._maxn_table is None:
            self._maxn_table = [None] * self._maxn_entries()
        pruned = algorithm == "maxn"

        legal = self._root_moves(core.gen_moves())
        if not legal:
            final = core.terminal_values()
            return MultiOutcome(NO_MOVE, final[root], list(final), 0, [], 0, 0, True, 0)
        best_move = self._order(legal)[0]
        best_pv = [best_move]
        best_score = 0
        best_values: list[int | None] = [None] * players
        done_depth = 0
        exact = False
        for depth in range(1, max_depth + 1):
            self._hit_horizon = False
            self._last_best = best_move
            self._last_best_searched = False
            try:
                if maxn:
                    values = self._maxn(depth, 0, None, pruned, use_tt)
                    score = values[root]
                else:
                    values = None
                    score = self._coalition(depth, -INFINITY, INFINITY, 0, use_tt, algorithm == "brs")
            except LimitReached:
                if self._last_best_searched:  # the stopped iteration's best so far (module docstring)
                    best_score, best_values, best_pv = self._root_best(maxn, self._root_found)
                    best_move = best_pv[0]
                break
            best_score, best_values, best_pv = self._root_best(maxn, values if maxn else score)
            best_move = best_pv[0]
            done_depth = depth
            exact = not self._hit_horizon
            if self._progress is not None and self._progress(depth, best_score, list(best_pv), self._nodes):
                break
            if exact:
                break  # every line reached the end of the game: deeper is the same
        table = 0 if not use_tt else self.maxn_tt_bytes() if maxn else self.tt_bytes()
        memory = table + (self._deepest + 1) * FRAME_BYTES
        return MultiOutcome(
            best_move, best_score, best_values, done_depth, best_pv, self._nodes, self._tt_hits, exact, memory
        )

    def _root_best(self, maxn: bool, found: Any) -> tuple[int, list[int | None], list[int]]:
        """``(score, values, principal variation)`` of the root from what the iteration found:
        Max^n's vector, or the coalition's score for the root player."""
        pv = self._pv[0][: self._pv_len[0]]
        if maxn:
            return found[self._root], list(found), pv
        values = [found if p == self._root else None for p in range(self._players)]
        return found, values, [brs_move(code) for code in pv]

    # -- the pieces every node needs ---------------------------------------

    def _open(self, depth: int, ply: int) -> list[int] | None:
        """Count the node; None at a leaf (horizon or end of the game), else the moves to search."""
        self._enter()
        self._pv_len[ply] = 0
        if ply > self._deepest:
            self._deepest = ply
        core = self._core
        if depth == 0 or ply >= MAX_PLY - 1:
            if not core.is_terminal():
                self._hit_horizon = True
            return None
        moves = core.gen_moves() if ply == 0 else core.search_moves(depth)
        if not moves:
            return None
        return self._root_moves(moves) if ply == 0 else moves

    def _leaf_values(self) -> list[int]:
        core = self._core
        values: list[int]
        if core.is_terminal():
            values = core.terminal_values()
            return values
        if self._evaluator is None:
            values = core.evaluate_players(self._weights)
            return values
        # A copy: the evaluation may do what it likes with it, the search is unharmed.
        view = self._wrap(core.copy())  # type: ignore[misc]
        return check_values(self._evaluator(view), self._players, self._lowest, self._highest_sum)

    def _leaf_score(self) -> int:
        return self._leaf_values()[self._root]

    # -- Max^n ---------------------------------------------------------------

    def _maxn(self, depth: int, ply: int, limit: int | None, pruned: bool, use_tt: bool) -> list[int]:
        """The value vector of the node; ``limit``: the best value the parent's mover already
        has (None when it has none yet, or without pruning)."""
        moves = self._open(depth, ply)
        if moves is None:
            return self._leaf_values()
        probe = use_tt and ply > 0
        if probe:
            stored = self._maxn_probe(depth, ply)
            if stored is not None:
                return stored
        core = self._core
        mover = core.to_move()
        horizon_above = self._hit_horizon
        self._hit_horizon = False
        best: list[int] = []
        best_move = NO_MOVE
        cut = False
        for move in self._order(moves):
            core.make_move(move)
            try:
                values = self._maxn(depth - 1, ply + 1, best[mover] if pruned and best else None, pruned, use_tt)
            finally:
                core.unmake_move()
            if ply == 0 and move == self._last_best:
                self._last_best_searched = True
            if not best or values[mover] > best[mover]:
                best, best_move = values, move
                self._update_pv(ply, move)
                if ply == 0:
                    self._root_found = values
                if pruned:
                    if best[mover] >= self._max_single:
                        break  # nothing can be strictly better for the mover: still exact
                    if limit is not None and self._sum_rest - best[mover] <= limit:
                        cut = True  # shallow pruning: the parent's mover cannot gain here
                        break
        below = self._hit_horizon
        self._hit_horizon = below or horizon_above
        if probe and not cut:
            self._maxn_store(depth, best, best_move, below)
        return best

    def _maxn_probe(self, depth: int, ply: int) -> list[int] | None:
        """The stored vector when the table settles the node (same depth), else None."""
        table = self._maxn_table
        assert table is not None
        key = self._core.key()
        entry = table[key & (len(table) - 1)]
        if entry is None or entry[0] != key:
            return None
        self._tt_hits += 1
        _, values, move, stored_depth, flag = entry
        if stored_depth != depth:
            return None
        if not flag & NO_HORIZON:
            self._hit_horizon = True
        self._pv[ply][0] = move
        self._pv_len[ply] = 1
        return list(values)

    def _maxn_store(self, depth: int, values: list[int], move: int, below: bool) -> None:
        """Store an exact vector under the alpha-beta table's replacement rule."""
        table = self._maxn_table
        assert table is not None
        key = self._core.key()
        slot = key & (len(table) - 1)
        old = table[slot]
        if old is None or old[0] != key or depth >= old[3]:
            self._maxn_filled += old is None
            table[slot] = (key, tuple(values), move, depth, EXACT | (0 if below else NO_HORIZON))

    # -- paranoid and Best-Reply Search ----------------------------------------

    def _probe(self, ply: int, depth: int, alpha: int, beta: int, use_tt: bool) -> tuple[int, int | None]:
        """``(table move, score)``: the score when the table settles the node, else None."""
        if not use_tt:
            return NO_MOVE, None
        entry = self._tt_probe(self._core.key() ^ self._salt)
        if entry is None:
            return NO_MOVE, None
        tt_score, tt_move, tt_depth, tt_flag = entry
        bound = tt_flag & 3
        if tt_depth == depth and ply > 0:
            if bound == EXACT or (bound == LOWER and tt_score >= beta) or (bound == UPPER and tt_score <= alpha):
                if not tt_flag & NO_HORIZON:
                    self._hit_horizon = True
                self._pv[ply][0] = tt_move
                self._pv_len[ply] = 1
                return tt_move, tt_score
        return tt_move, None

    def _layer(self, moves: list[int], depth: int, opponents: bool) -> list[tuple[int, int]]:
        """A layer's moves as ``(code, order_key)``: the side to move's, or with ``opponents``
        (BRS's MIN layer) every opponent's, in playing order after the root player."""
        core = self._core
        mover = core.to_move()
        if not opponents:
            return [(brs_code(mover, m), core.order_key(m)) for m in moves]
        players, root = self._players, self._root
        replies: list[tuple[int, int]] = []
        for step in range(1, players):
            player = (root + step) % players
            if player == mover:
                own = moves
            else:
                core.set_turn(player)
                own = core.search_moves(depth)
            replies.extend((brs_code(player, m), core.order_key(m)) for m in own)
            if player != mover:
                core.unmake_move()
        return replies

    def _coalition(self, depth: int, alpha: int, beta: int, ply: int, use_tt: bool, best_reply: bool) -> int:
        """Fail-soft alpha-beta on the root player's value against the coalition of the others:
        paranoid, or with ``best_reply`` BRS (one MIN layer of every opponent's moves, the
        turn back to the root player after the reply)."""
        moves = self._open(depth, ply)
        if moves is None:
            return self._leaf_score()
        tt_move, settled = self._probe(ply, depth, alpha, beta, use_tt)
        if settled is not None:
            return settled
        core = self._core
        root = self._root
        maximizing = core.to_move() == root
        coded = self._layer(moves, depth, best_reply and not maximizing)
        ordered = [code for code, _ in sorted(coded, key=lambda item: -item[1])]
        if tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        alpha_orig, beta_orig = alpha, beta
        horizon_above = self._hit_horizon
        self._hit_horizon = False
        best = -INFINITY if maximizing else INFINITY
        best_move = NO_MOVE
        for code in ordered:
            player = brs_player(code)
            pushed = 1
            if core.to_move() != player:
                core.set_turn(player)
                pushed += 1
            core.make_move(brs_move(code))
            if best_reply and not maximizing and core.to_move() != root:
                core.set_turn(root)
                pushed += 1
            try:
                score = self._coalition(depth - 1, alpha, beta, ply + 1, use_tt, best_reply)
            finally:
                for _ in range(pushed):
                    core.unmake_move()
            if ply == 0 and brs_move(code) == self._last_best:
                self._last_best_searched = True
            if score > best if maximizing else score < best:
                best, best_move = score, code
                if maximizing and score > alpha:
                    alpha = score
                    self._update_pv(ply, code)
                    if ply == 0:
                        self._root_found = score
                elif not maximizing and score < beta:
                    beta = score
                    self._update_pv(ply, code)
                if alpha >= beta:
                    break
        if best_move != NO_MOVE and self._pv_len[ply] == 0:
            self._pv[ply][0] = best_move  # every move failed: the best found, without a line
            self._pv_len[ply] = 1
        below = self._hit_horizon
        self._hit_horizon = below or horizon_above
        if use_tt:
            flag = UPPER if best <= alpha_orig else LOWER if best >= beta_orig else EXACT
            self._tt_store(self._core.key() ^ self._salt, best, best_move, depth, flag | (0 if below else NO_HORIZON))
        return best
