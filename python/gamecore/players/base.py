"""The player interface shared by every built-in player, and the helpers they use."""

from __future__ import annotations

from typing import Any

from ..errors import GameOverError

__all__ = ["Player", "safe_time", "legal_moves_or_raise"]


def safe_time(budget: float, margin: float = 0.05) -> float:
    """The time limit to give a search so that the move comes within ``budget`` seconds:
    ``budget * (1 - margin)`` less 10 ms for the work around the search, at least 10 ms.
    (The engine keeps its own margin inside the limit it is given.)"""
    return max(0.01, budget * (1.0 - margin) - 0.01)


def legal_moves_or_raise(position: Any) -> list:
    moves = position.legal_moves()
    if not moves:
        raise GameOverError("the game is over: there is no move to choose")
    return moves


class Player:
    """Base class: a name and ``choose_move``. ``new_game()`` forgets what a player learnt of the last game."""

    name = "player"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        raise NotImplementedError

    def new_game(self) -> None:
        """Called before a new game starts (players with a tree or a table reset it)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
