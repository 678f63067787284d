"""The player interface shared by every built-in player, and the helpers they use."""

from __future__ import annotations

from typing import Any

from ..errors import GameOverError

__all__ = ["Player", "safe_time", "game_move_time", "legal_moves_or_raise"]

#: Moves at the end of a game that the planning of a game budget does not count on: the
#: exact solver (Othello) or a short search finishes them in a fraction of their share.
QUICK_LAST_MOVES = 4


def safe_time(budget: float, margin: float = 0.05) -> float:
    """The time limit to give a search so that the move comes within ``budget`` seconds:
    ``budget * (1 - margin)`` less 10 ms for the work around the search, at least 10 ms.
    (The engine keeps its own margin inside the limit it is given.)"""
    return max(0.01, budget * (1.0 - margin) - 0.01)


def game_move_time(time_left: float, position: Any) -> float:
    """The part of a game's remaining time ``time_left`` the next move gets: an equal share
    of the moves the side to move still has to make (every game here fills one empty cell a
    move, so about ``ceil(empty cells / players)``) less the ``QUICK_LAST_MOVES`` that go
    fast, and at most half of what is left. What a move leaves unused (a forced move, a
    solved endgame) goes to the later ones."""
    empties = sum(row.count(-1) for row in position.cells())
    own_moves = -(-empties // position.num_players)
    return float(max(0.0, time_left) / max(2, own_moves - QUICK_LAST_MOVES))


def legal_moves_or_raise(position: Any) -> list[Any]:
    moves = position.legal_moves()
    if not moves:
        raise GameOverError("the game is over: there is no move to choose")
    return list(moves)


class Player:
    """Base class: a name and ``choose_move``. ``new_game()`` forgets what a player learnt of the last game."""

    name = "player"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        raise NotImplementedError

    def new_game(self) -> None:
        """Called before a new game starts (players with a tree or a table reset it)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
