"""gamecore: board-game AI for teaching, with a Cython core and a pure-Python twin.

>>> import gamecore
>>> gamecore.BACKEND in ("cython", "python")
True

The games are `Othello`, `Rolit` and `Tetralath`; `search()` and `Engine` search any of
them, `solve()` solves an Othello endgame exactly, `gamecore.players.make_player()` makes a
player from a spec such as `"engine:depth=6"`. Colours and moves belong to their game:
`Othello.BLACK`, `Tetralath.WHITE`, `Othello.Move("d3")`, `Tetralath.Move("e5")`.
`help(gamecore.Othello)` is the place to start; the same text, with links, is the API
reference (docs/).
"""

from typing import Any

from ._backend import BACKEND
from ._version import __version__
from .errors import (
    EmptyHistoryError,
    GamecoreError,
    GameOverError,
    IllegalMoveError,
    InvalidEvaluationError,
    InvalidLimitError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSizeError,
    InvalidSquareError,
)
from .games import GAMES, Color, Othello, Outcome, Position, Rolit, Termination, Tetralath
from .games.rolit import B, G, R, Y  # the handout's colour names: rolit(Y, B)
from .search.engine import Engine, SearchResult, SolveResult, search, solve
from .ui.rolit import play as rolit  # gamecore.rolit("Y", "B"): the terminal game

__all__ = [
    "__version__",
    "BACKEND",
    "GAMES",
    "Othello",
    "Tetralath",
    "Rolit",
    "Color",
    "Outcome",
    "Termination",
    "perft",
    "rolit",
    "R",
    "B",
    "Y",
    "G",
    "search",
    "solve",
    "Engine",
    "SearchResult",
    "SolveResult",
    "GamecoreError",
    "InvalidSizeError",
    "InvalidSquareError",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "GameOverError",
    "EmptyHistoryError",
    "InvalidEvaluationError",
    "InvalidLimitError",
    "InvalidOptionError",
]


def perft(position: Position[Any], depth: int) -> int:
    """Leaves of the game tree ``depth`` plies below ``position``, in any game (a pass is a
    ply, a game that ends early is one leaf), computed by the position's backend: the same as
    ``position.perft(depth)``."""
    return position.perft(depth)


# Names that were Othello's at the package root: in a library of several games they were
# ambiguous (player 0 is black in Othello, white in Tetralath), so they live on the game.
_MOVED = {"BLACK": "Othello.BLACK", "WHITE": "Othello.WHITE", "PASS": "Othello.Move('pass')", "Move": "Othello.Move"}


def __getattr__(name: str) -> object:
    if name in _MOVED:
        raise AttributeError(
            f"gamecore.{name} is gone: colours and moves belong to a game, use gamecore.{_MOVED[name]}"
        )
    raise AttributeError(f"module 'gamecore' has no attribute {name!r}")
