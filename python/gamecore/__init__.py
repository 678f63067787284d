"""gamecore: board-game AI for teaching, with a Cython core and a pure-Python twin.

>>> import gamecore
>>> gamecore.BACKEND in ("cython", "python")
True
"""

from ._backend import BACKEND
from .errors import (
    EmptyHistoryError,
    GamecoreError,
    GameOverError,
    IllegalMoveError,
    InvalidEvaluationError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSizeError,
    InvalidSquareError,
)
from .games.othello import BLACK, PASS, WHITE, Move, Othello, Outcome
from .games.rolit import Rolit
from .games.tetralath import Tetralath
from .search.engine import Engine, SearchResult, SolveResult, search, solve
from .ui.rolit import play as rolit  # gamecore.rolit("Y", "B"): the terminal game

__version__ = "0.1.0"

__all__ = [
    "BACKEND",
    "BLACK",
    "WHITE",
    "PASS",
    "Move",
    "Othello",
    "Tetralath",
    "Rolit",
    "Outcome",
    "perft",
    "rolit",
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
]


def perft(position: Othello, depth: int) -> int:
    """Leaves of the game tree ``depth`` plies below ``position`` (a pass is a ply,
    a game that ends early is one leaf), computed by the position's backend."""
    return position.perft(depth)
