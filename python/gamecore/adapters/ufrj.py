"""The UFRJ "tabuleiro-othello" course framework: board converters and a drop-in player.

The framework's conventions:

- a player is a class called with its colour, the framework's ``Board.BLACK`` (``'○'``)
  or ``Board.WHITE`` (``'●'``), and kept in ``self.color``;
- ``play(board)`` gets a copy of the framework's board: ``board.board`` is a 10x10 list
  of lists with a ``'?'`` border, rows and columns 1..8 inside, ``'.'`` for empty; it
  must return one of the objects of ``board.valid_moves(color)`` (they have ``x`` = row
  and ``y`` = column, both 1-based);
- player files in ``models/players/*_player.py`` are run with ``exec`` and the last
  name they define is the class: no ``__file__``, no relative imports.

>>> from gamecore.adapters.ufrj import board_to_position, position_to_board
>>> from gamecore import Othello
>>> grid = position_to_board(Othello())
>>> grid[4][4], grid[4][5], grid[0][0]
('●', '○', '?')
>>> board_to_position(grid, '○').to_text() == Othello().to_text()
True
"""

from __future__ import annotations

from typing import Any

from .._version import __version__
from ..errors import InvalidBoardError, InvalidPositionError
from ..games.othello import BLACK, WHITE, Othello
from ..players import EnginePlayer, Player
from ._export import check_export_options, write_player

__all__ = [
    "BLACK_STONE",
    "WHITE_STONE",
    "EMPTY",
    "BORDER",
    "color_to_side",
    "board_to_position",
    "position_to_board",
    "find_framework_move",
    "UFRJPlayer",
    "player_source",
    "export_player",
]

BLACK_STONE = "○"
WHITE_STONE = "●"
EMPTY = "."
BORDER = "?"
#: The framework allows 10 s a move; exported players default to half of it.
DEFAULT_TIME = 5.0


def color_to_side(color: Any) -> int:
    """``BLACK`` for the framework's ``'○'``, ``WHITE`` for ``'●'``."""
    if color == BLACK_STONE:
        return BLACK
    if color == WHITE_STONE:
        return WHITE
    raise InvalidPositionError(f"a UFRJ colour is {BLACK_STONE!r} (black) or {WHITE_STONE!r} (white), got {color!r}")


def _grid(board: Any) -> list[Any]:
    grid = board.board if hasattr(board, "board") else board
    try:
        rows = [list(row) for row in grid]
    except TypeError:
        raise InvalidPositionError("a UFRJ board is a Board object or its list of lists") from None
    return rows


def board_to_position(board: Any, color: Any, *, backend: str | None = None) -> Othello:
    """The gamecore position of a framework board (a ``Board`` or its ``board`` list of lists),
    with ``color`` (``'○'`` or ``'●'``) to move.

    :raises InvalidBoardError: not a bordered square board of the framework's symbols (the
        message names the cell); the board is only read.
    """
    side = color_to_side(color)
    rows = _grid(board)
    n = len(rows) - 2
    if n < 4 or any(len(row) != n + 2 for row in rows):
        raise InvalidBoardError(f"a UFRJ board is (n+2)x(n+2) with a '?' border, got {len(rows)} rows")
    for r in range(n + 2):
        for c in range(n + 2):
            if (r in (0, n + 1) or c in (0, n + 1)) and rows[r][c] != BORDER:
                raise InvalidBoardError(
                    f"row {r}, column {c} of the UFRJ board is {rows[r][c]!r}: the border is {BORDER!r} "
                    f"(a board of n x n squares is (n+2) x (n+2) with the border)"
                )
    cells = []
    for r in range(1, n + 1):
        row: list[int] = []
        for c in range(1, n + 1):
            v = rows[r][c]
            if v == BLACK_STONE:
                row.append(BLACK)
            elif v == WHITE_STONE:
                row.append(WHITE)
            elif v == EMPTY:
                row.append(-1)
            else:
                raise InvalidBoardError(f"unexpected {v!r} at row {r}, column {c} of the UFRJ board")
        cells.append(row)
    return Othello.from_cells(cells, turn=side, backend=backend)


def position_to_board(position: Othello) -> list[list[str]]:
    """The framework's bordered list of lists for a gamecore position."""
    n = position.size
    symbols = {-1: EMPTY, BLACK: BLACK_STONE, WHITE: WHITE_STONE}
    grid = [[BORDER] * (n + 2)]
    for row in position.cells():
        grid.append([BORDER] + [symbols[v] for v in row] + [BORDER])
    grid.append([BORDER] * (n + 2))
    return grid


def find_framework_move(valid_moves: list[Any], move: Any) -> Any:
    """The object of ``valid_moves`` (framework ``Move``s, 1-based ``x`` row, ``y`` column) for a
    gamecore move, or ``None`` if it is not there."""
    if move.is_pass:
        return None
    for candidate in valid_moves:
        if candidate.x == move.row + 1 and candidate.y == move.col + 1:
            return candidate
    return None


class UFRJPlayer:
    """A gamecore player speaking the framework's language.

    :param color: the framework colour, ``'○'`` or ``'●'``.
    :param player: any gamecore player (default: the alpha-beta engine with the options below).
    :param time: seconds a move (the framework allows 10).
    """

    def __init__(
        self,
        color: Any,
        player: Player | None = None,
        *,
        time: float = DEFAULT_TIME,
        depth: int | None = None,
        evaluation: Any = "default",
        backend: str | None = None,
    ) -> None:
        color_to_side(color)
        self.color = color
        self.time = time
        self.backend = backend
        self.player = player if player is not None else EnginePlayer(depth=depth, time=time, evaluation=evaluation)

    def play(self, board: Any) -> Any:
        """One of the objects of ``board.valid_moves(self.color)`` (``None`` when there is none)."""
        valid = board.valid_moves(self.color)
        if not valid:
            return None
        distinct = {(m.x, m.y) for m in valid}
        if len(distinct) == 1:
            return valid[0]
        position = board_to_position(board, self.color, backend=self.backend)
        move = self.player.choose_move(position, self.time)
        chosen = find_framework_move(valid, move)
        if chosen is None:  # the framework disagrees with the rules: still answer legally there
            return valid[0]
        return chosen


_TEMPLATE = '''\
"""A gamecore player for the UFRJ tabuleiro-othello framework.

Written by `gamecore export ufrj` (gamecore {version}). Put it in models/players/; it needs
gamecore installed in the same Python (from a gamecore source checkout: pip install .). It uses the compiled
backend when gamecore was built with it, pure Python otherwise.

Settings: {time:g} s a move, depth {depth}, evaluation {evaluation!r}.
"""

GAMECORE_SETTINGS = {{"time": {time!r}, "depth": {depth!r}, "evaluation": {evaluation!r}}}


class GamecorePlayer:
    """Alpha-beta with iterative deepening from gamecore (the last name here: the framework loads it)."""

    def __init__(self, color):
        from gamecore.adapters.ufrj import UFRJPlayer

        self.color = color
        self._player = UFRJPlayer(color, **GAMECORE_SETTINGS)

    def play(self, board):
        return self._player.play(board)
'''


def player_source(*, time: float = DEFAULT_TIME, depth: int | None = None, evaluation: str = "default") -> str:
    """The text of a UFRJ player file (see :func:`export_player`)."""
    check_export_options(time, depth, evaluation, most_seconds=10, framework="UFRJ")  # the framework's 10 s
    return _TEMPLATE.format(version=__version__, time=float(time), depth=depth, evaluation=evaluation)


def export_player(
    path: str, *, time: float = DEFAULT_TIME, depth: int | None = None, evaluation: str = "default"
) -> str:
    """Write a UFRJ player file to ``path`` (e.g. ``models/players/gamecore_player.py``); returns the path."""
    text = player_source(time=time, depth=depth, evaluation=evaluation)
    return write_player(path, text)
