"""The one-ply heuristic players: greedy (most discs or balls), corner first, positional.

Greedy reads ``scores()``, so it plays Othello and Rolit; corner and positional read squares
(``row``/``col``) and play Othello only. ``make_player`` offers each for the games whose class
lists it in ``players`` (``gamecore play othello --white greedy``).
"""

from __future__ import annotations

from typing import Any

from .. import _backend
from .base import Player
from .base import legal_moves_or_raise as _legal

__all__ = ["GreedyPlayer", "CornerPlayer", "PositionalPlayer"]


def _discs_after(position: Any, move: Any) -> int:
    child = position.play(move)
    return int(child.scores()[position.turn])


class GreedyPlayer(Player):
    """The move that leaves the most discs of its own colour (the first in square order on ties)."""

    name = "greedy"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            return moves[0]
        return max(moves, key=lambda m: _discs_after(position, m))  # max keeps the first of equals


def _square_class(move: Any, size: int) -> int:
    """0 corner, 1 other squares, 2 the X and C squares next to a corner."""
    if move.is_pass:
        return 1
    last = size - 1
    r, c = move.row, move.col
    if r in (0, last) and c in (0, last):
        return 0
    near_r = r in (0, 1, last - 1, last)
    near_c = c in (0, 1, last - 1, last)
    if near_r and near_c:
        return 2
    return 1


class CornerPlayer(Player):
    """Corner first: a corner when it can take one; otherwise it avoids the squares next to a
    corner (X and C squares) when it can; among what is left, the move with the most discs."""

    name = "corner"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            return moves[0]
        size = position.size
        return min(moves, key=lambda m: (_square_class(m, size), -_discs_after(position, m)))


class PositionalPlayer(Player):
    """One ply of positional play: the move after which the board's positional weight
    (corners 100, X squares -50, C squares -20, other edges 10, ...: see
    ``square_weight`` of the Othello core modules) counts most for it."""

    name = "positional"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            return moves[0]
        n = position.size
        square_weight = _backend.load(position.backend).othello.square_weight
        weights = [square_weight(i // n, i % n, n) for i in range(n * n)]
        me = position.turn

        def value(move: Any) -> int:
            cells = position.play(move).cells()
            total = 0
            for r, row in enumerate(cells):
                for c, v in enumerate(row):
                    if v >= 0:
                        total += weights[r * n + c] if v == me else -weights[r * n + c]
            return total

        return max(moves, key=value)
