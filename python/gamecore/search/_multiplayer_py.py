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

Paranoid and BRS values are the root player's: its ``terminal_values()`` entry at the end,
its ``evaluate_players`` entry at the horizon. Both use the transposition table of the
alpha-beta ``Searcher`` (same entries, same replacement rule, a stored score cuts only at
the depth it was searched to), its keys salted by the algorithm and the root player, and
its flag's bit ``NO_HORIZON`` set when every line below reached the end of the game (an
iteration that meets only such lines is the last one needed). Move order: the table's move
first, then ``order_key`` high to low, then the game's move order. In BRS a move is coded
``(player << 8) | (move + 2)`` inside the table and the principal variation.

All run by iterative deepening (Max^n too, for the time limit) under the alpha-beta
engine's limits: nodes, and a wall-clock deadline read every ``CLOCK_INTERVAL`` nodes; the
answer is the last finished iteration's. Both backends visit the same nodes in the same
order, so for a depth or node limit they return the same move, values, principal variation
and node count.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import ConcurrentUseError
from ._alphabeta_py import INFINITY, MAX_PLY, Searcher, _Abort

__all__ = ["MULTIPLAYER_ALGORITHMS", "MultiSearcher", "NO_HORIZON", "brs_code", "brs_move", "brs_player"]

MULTIPLAYER_ALGORITHMS = ("maxn", "maxn-plain", "paranoid", "brs")
#: Flag bit of a table entry whose subtree reached the end of the game on every line.
NO_HORIZON = 4
_EXACT, _LOWER, _UPPER = 1, 2, 3
_NO_MOVE = -2
#: Bytes of one recursion frame's buffers in the compiled search (moves, their keys, values).
FRAME_BYTES = 4 * 128 + 8 * 128 + 4 * 4
#: Table-key salts: one per algorithm, times the root player (paranoid and BRS values differ).
_SALT = {"paranoid": 0x6A09E667F3BCC908, "brs": 0xBB67AE8584CAA73B}
_SALT_STEP = 0x3C6EF372FE94F82B
_MASK64 = (1 << 64) - 1


def brs_code(player: int, move: int) -> int:
    """A BRS move: the player who makes it and the move."""
    return (player << 8) | (move + 2)


def brs_move(code: int) -> int:
    return (code & 0xFF) - 2


def brs_player(code: int) -> int:
    return code >> 8


class MultiSearcher(Searcher):
    """Max^n, paranoid and Best-Reply Search over the alpha-beta ``Searcher``'s table and limits.

    :param tt_mb: transposition-table size in megabytes (0 disables it; Max^n uses none).
    """

    def search_multi(
        self,
        core: Any,
        weights: list[int],
        max_depth: int,
        node_limit: int,
        time_limit: float,
        algorithm: str,
        root_moves: list[int] | None = None,
    ) -> tuple[int, int, list[int | None], int, list[int], int, int, bool, int]:
        """Search ``core``; return ``(move, score, values, depth, pv, nodes, tt_hits, exact, memory)``.

        ``score`` is the root player's value; ``values`` the vector of every player (Max^n;
        paranoid and BRS know only the root player's: None for the others); ``depth`` the last finished iteration (0: none, the move
        is then the first in move order); ``exact`` True when that iteration reached the end
        of the game on every line; ``memory`` the bytes of the search structures (table and
        recursion buffers). ``move`` is -2 when the game is over. ``core`` is not touched: the
        search runs on a copy of it. Like ``Searcher.search``, a second call while one runs (from
        another thread) raises ConcurrentUseError.
        """
        if not self._lock.acquire(blocking=False):
            raise ConcurrentUseError(
                "this searcher (Engine) is already searching: two threads may not share it (give each its own Engine)"
            )
        try:
            return self._search_multi(core.copy(), weights, max_depth, node_limit, time_limit, algorithm, root_moves)
        finally:
            self._core = None
            self._lock.release()

    def _search_multi(
        self,
        core: Any,
        weights: list[int],
        max_depth: int,
        node_limit: int,
        time_limit: float,
        algorithm: str,
        root_moves: list[int] | None,
    ) -> tuple[int, int, list[int | None], int, list[int], int, int, bool, int]:
        if algorithm not in MULTIPLAYER_ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}")
        players = core.num_players()
        if algorithm == "brs" and players > 2:
            if not core.set_turn(core.to_move()):
                raise ValueError("Best-Reply Search needs a game that lets a player move out of turn (set_turn)")
            core.unmake_move()
        self._core = core
        self._weights = list(weights)
        self._evaluator = None
        self._view = None
        self._nodes = 0
        self._tt_hits = 0
        self._node_limit = node_limit
        self._start = time.perf_counter()
        self._deadline = self._start + time_limit if time_limit > 0 else 0.0
        self._pv = [[0] * MAX_PLY for _ in range(MAX_PLY)]
        self._pv_len = [0] * MAX_PLY
        self._hit_horizon = False
        self._deepest = 0
        self._root_filter = None if root_moves is None else set(root_moves)
        self._players = players
        self._root = root = core.to_move()
        lowest, highest_sum = core.value_bounds()
        self._sum_rest = highest_sum - (players - 2) * lowest  # the most two players can share
        self._max_single = highest_sum - (players - 1) * lowest  # the most one player can get
        self._salt = (_SALT.get(algorithm, 0) + root * _SALT_STEP) & _MASK64
        use_tt = algorithm in ("paranoid", "brs") and self.tt_entries > 0
        pruned = algorithm == "maxn"

        legal = self._root_moves(core.gen_moves())
        if not legal:
            final = core.terminal_values()
            return _NO_MOVE, final[root], list(final), 0, [], 0, 0, True, 0
        best_move = self._ordered(legal)[0]
        best_pv = [best_move]
        best_score = 0
        best_values: list[int | None] = [None] * players
        done_depth = 0
        exact = False
        for depth in range(1, max_depth + 1):
            self._hit_horizon = False
            try:
                if algorithm in ("maxn", "maxn-plain"):
                    values = self._maxn(depth, 0, None, pruned)
                    score = values[root]
                elif algorithm == "paranoid":
                    values = None
                    score = self._paranoid(depth, -INFINITY, INFINITY, 0, use_tt)
                else:
                    values = None
                    score = self._brs(depth, -INFINITY, INFINITY, 0, use_tt)
            except _Abort:
                break
            best_score = score
            best_values = list(values) if values is not None else [score if p == root else None for p in range(players)]
            best_pv = self._pv[0][: self._pv_len[0]]
            if algorithm == "brs":
                best_pv = [brs_move(code) for code in best_pv]
            best_move = best_pv[0]
            done_depth = depth
            exact = not self._hit_horizon
            if exact:
                break  # every line reached the end of the game: deeper is the same
            if self._deadline and self._out_of_time_for_next():
                break
        memory = (self.tt_bytes() if use_tt else 0) + (self._deepest + 1) * FRAME_BYTES
        return best_move, best_score, best_values, done_depth, best_pv, self._nodes, self._tt_hits, exact, memory

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
        return core.terminal_values() if core.is_terminal() else core.evaluate_players(self._weights)

    def _leaf_score(self) -> int:
        return self._leaf_values()[self._root]

    # -- Max^n ---------------------------------------------------------------

    def _maxn(self, depth: int, ply: int, limit: int | None, pruned: bool) -> list[int]:
        """The value vector of the node; ``limit``: the best value the parent's mover already
        has (None when it has none yet, or without pruning)."""
        moves = self._open(depth, ply)
        if moves is None:
            return self._leaf_values()
        core = self._core
        mover = core.to_move()
        best: list[int] = []
        for move in self._ordered(moves):
            core.make_move(move)
            try:
                values = self._maxn(depth - 1, ply + 1, best[mover] if pruned and best else None, pruned)
            finally:
                core.unmake_move()
            if not best or values[mover] > best[mover]:
                best = values
                self._update_pv(ply, move)
                if pruned and (
                    best[mover] >= self._max_single or (limit is not None and self._sum_rest - best[mover] <= limit)
                ):
                    break  # shallow pruning: the parent's mover cannot gain here
        return best

    # -- paranoid ------------------------------------------------------------

    def _probe(self, ply: int, depth: int, alpha: int, beta: int, use_tt: bool) -> tuple[int, int | None]:
        """``(table move, score)``: the score when the table settles the node, else None."""
        if not use_tt:
            return _NO_MOVE, None
        entry = self._tt_probe(self._core.key() ^ self._salt)
        if entry is None:
            return _NO_MOVE, None
        tt_score, tt_move, tt_depth, tt_flag = entry
        bound = tt_flag & 3
        if tt_depth == depth and ply > 0:
            if bound == _EXACT or (bound == _LOWER and tt_score >= beta) or (bound == _UPPER and tt_score <= alpha):
                if not tt_flag & NO_HORIZON:
                    self._hit_horizon = True
                self._pv[ply][0] = tt_move
                self._pv_len[ply] = 1
                return tt_move, tt_score
        return tt_move, None

    def _store(self, depth: int, best: int, best_move: int, alpha_orig: int, beta_orig: int, below: bool) -> None:
        """Table entry of a searched node; ``below``: a line under it stopped at the horizon."""
        flag = _UPPER if best <= alpha_orig else _LOWER if best >= beta_orig else _EXACT
        self._tt_store(self._core.key() ^ self._salt, best, best_move, depth, flag | (0 if below else NO_HORIZON))

    def _paranoid(self, depth: int, alpha: int, beta: int, ply: int, use_tt: bool) -> int:
        moves = self._open(depth, ply)
        if moves is None:
            return self._leaf_score()
        tt_move, settled = self._probe(ply, depth, alpha, beta, use_tt)
        if settled is not None:
            return settled
        core = self._core
        maximizing = core.to_move() == self._root
        alpha_orig, beta_orig = alpha, beta
        horizon_above = self._hit_horizon
        self._hit_horizon = False
        best = -INFINITY if maximizing else INFINITY
        best_move = _NO_MOVE
        ordered = self._ordered(moves)
        if tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        for move in ordered:
            core.make_move(move)
            try:
                score = self._paranoid(depth - 1, alpha, beta, ply + 1, use_tt)
            finally:
                core.unmake_move()
            if self._better(score, best, maximizing):
                best, best_move = score, move
                if maximizing and score > alpha:
                    alpha = score
                    self._update_pv(ply, move)
                elif not maximizing and score < beta:
                    beta = score
                    self._update_pv(ply, move)
                if alpha >= beta:
                    break
        self._finish(ply, depth, best, best_move, alpha_orig, beta_orig, horizon_above, use_tt)
        return best

    @staticmethod
    def _better(score: int, best: int, maximizing: bool) -> bool:
        return score > best if maximizing else score < best

    def _finish(
        self,
        ply: int,
        depth: int,
        best: int,
        best_move: int,
        alpha_orig: int,
        beta_orig: int,
        horizon_above: bool,
        use_tt: bool,
    ) -> None:
        """After a node's moves: its principal variation when every move failed, the table
        entry, and the horizon flag of the lines searched before it restored."""
        if best_move != _NO_MOVE and self._pv_len[ply] == 0:
            self._pv[ply][0] = best_move  # every move failed: the best found, without a line
            self._pv_len[ply] = 1
        below = self._hit_horizon
        self._hit_horizon = below or horizon_above
        if use_tt:
            self._store(depth, best, best_move, alpha_orig, beta_orig, below)

    # -- Best-Reply Search ---------------------------------------------------

    def _replies(self, moves: list[int], depth: int) -> list[tuple[int, int]]:
        """The MIN layer's moves as ``(code, order_key)``: every opponent's, in playing order
        after the root player (``moves`` are those of the side to move)."""
        core = self._core
        players, root, mover = self._players, self._root, core.to_move()
        replies: list[tuple[int, int]] = []
        for step in range(1, players):
            player = (root + step) % players
            if player == mover:
                own = moves
                replies.extend((brs_code(player, m), core.order_key(m)) for m in own)
                continue
            core.set_turn(player)
            own = core.search_moves(depth)
            replies.extend((brs_code(player, m), core.order_key(m)) for m in own)
            core.unmake_move()
        return replies

    def _brs(self, depth: int, alpha: int, beta: int, ply: int, use_tt: bool) -> int:
        moves = self._open(depth, ply)
        if moves is None:
            return self._leaf_score()
        tt_move, settled = self._probe(ply, depth, alpha, beta, use_tt)
        if settled is not None:
            return settled
        core = self._core
        root = self._root
        maximizing = ply % 2 == 0  # the root player's layers (it is then the side to move)
        if maximizing:
            coded = [(brs_code(root, m), core.order_key(m)) for m in moves]
        else:
            coded = self._replies(moves, depth)
        ordered = [code for code, _ in sorted(coded, key=lambda item: -item[1])]
        if tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        alpha_orig, beta_orig = alpha, beta
        horizon_above = self._hit_horizon
        self._hit_horizon = False
        best = -INFINITY if maximizing else INFINITY
        best_move = _NO_MOVE
        for code in ordered:
            player, move = brs_player(code), brs_move(code)
            pushed = 1
            if core.to_move() != player:
                core.set_turn(player)
                pushed += 1
            core.make_move(move)
            if not maximizing and core.to_move() != root:
                core.set_turn(root)
                pushed += 1
            try:
                score = self._brs(depth - 1, alpha, beta, ply + 1, use_tt)
            finally:
                for _ in range(pushed):
                    core.unmake_move()
            if self._better(score, best, maximizing):
                best, best_move = score, code
                if maximizing and score > alpha:
                    alpha = score
                    self._update_pv(ply, code)
                elif not maximizing and score < beta:
                    beta = score
                    self._update_pv(ply, code)
                if alpha >= beta:
                    break
        self._finish(ply, depth, best, best_move, alpha_orig, beta_orig, horizon_above, use_tt)
        return best
