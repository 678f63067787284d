"""Othello/Reversi positions for users: moves, notation and text over a backend core.

>>> from gamecore import Othello
>>> game = Othello()
>>> [str(m) for m in game.legal_moves()]
['d3', 'c4', 'f5', 'e6']
>>> game.push("d3")
>>> game.score()
(4, 1)
>>> game.pop()
Othello.Move('d3')
>>> game.turn
Othello.BLACK
>>> Othello.Move("d3") in game.legal_moves(), game.is_legal("d3")
(True, True)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import _backend
from ..errors import InvalidMoveError, InvalidOptionError, InvalidPositionError, InvalidSizeError, InvalidSquareError
from . import _othello_patterns
from .base import Color, Outcome, Position, Termination, split_position_text, strip_row_numbers

if TYPE_CHECKING:  # checkers read the pure twin; the compiled core has the same methods
    from ._othello_py import OthelloCore

__all__ = ["Othello", "OthelloColor", "OthelloMove", "Move", "BLACK", "WHITE", "PASS", "STYLES", "render_othello"]


class OthelloColor(Color):
    """Othello's colours: black (player 0) moves first."""

    BLACK = 0
    WHITE = 1


BLACK = OthelloColor.BLACK
WHITE = OthelloColor.WHITE
#: Square index of the pass move.
PASS = -1
COLUMNS = "abcdefghij"
_PASS_WORDS = ("pass", "--", "ps")
# Also the UFRJ style's symbols, so that every drawing of render() reads back.
_CELL_CHARS = {"X": 0, "*": 0, "x": 0, "○": 0, "◌": 0, "O": 1, "o": 1, "●": 1, "◍": 1, "-": -1, ".": -1}
_SQUARE_RE = re.compile(r"^([a-jA-J])(10|[1-9])$")
# ASCII digits, at most three (a row or column is 1..10): no int() of a huge or exotic number.
_ROWCOL_RE = re.compile(r"^\s*([0-9]{1,3})[\s,]+([0-9]{1,3})\s*$")
_RECORD_MOVE_RE = re.compile(r"pass|ps|--|([a-j])(10|[1-9])")
#: Longest game record parse_move_list reads (a 10x10 game is under 1000 characters).
MAX_RECORD_CHARS = 100_000


@dataclass(frozen=True, init=False)
class OthelloMove:
    """A move on an n x n board: a square (``index = row * size + col``) or a pass (``index == -1``).

    Built from its index or its text: ``Move(19)``, ``Move("d3")``, ``Move("pass")``,
    ``Move("e10", size=10)`` (or ``Move.parse``). Moves are equal when index and size are;
    a move is not equal to its text (``game.is_legal("d3")`` reads text).

    :raises InvalidSquareError: a malformed or off-board square.
    """

    index: int
    size: int

    def __init__(self, index: int | str, size: int = 8) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size % 2 or not 4 <= size <= 10:
            raise InvalidSizeError(f"Othello board size must be even, 4 to 10; got {size!r}")
        if isinstance(index, str) and index.strip().lower() in _PASS_WORDS:
            index = PASS
        elif not (isinstance(index, int) and not isinstance(index, bool) and index == PASS):
            index = parse_square(index, size)
        object.__setattr__(self, "index", int(index))
        object.__setattr__(self, "size", size)

    @classmethod
    def parse(cls, text: str, size: int = 8) -> OthelloMove:
        """The move written ``text`` (``'d3'``, ``'pass'``) on a ``size`` board."""
        return cls(text, size)

    @property
    def is_pass(self) -> bool:
        return self.index == PASS

    @property
    def row(self) -> int:
        """0-based row (0 is the top row, ``1`` in notation)."""
        if self.is_pass:
            raise InvalidMoveError("a pass has no row")
        return self.index // self.size

    @property
    def col(self) -> int:
        """0-based column (0 is column ``a``)."""
        if self.is_pass:
            raise InvalidMoveError("a pass has no column")
        return self.index % self.size

    @property
    def name(self) -> str:
        """``'d3'``-style name, or ``'pass'``."""
        if self.is_pass:
            return "pass"
        return f"{COLUMNS[self.col]}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        size = "" if self.size == 8 else f", size={self.size}"
        return f"Othello.Move({self.name!r}{size})"


#: The move type under its short name (``Othello.Move`` is the same class).
Move = OthelloMove


def parse_square(square: Any, size: int) -> int:
    """Square index of ``'d3'``/``'D3'``, ``(row, col)`` (0-based), ``'3 4'`` (1-based row col) or an index."""
    if isinstance(square, bool):
        raise InvalidSquareError(f"not a square: {square!r}")
    if isinstance(square, int):
        if not 0 <= square < size * size:
            raise InvalidSquareError(f"square index {square} is off the {size}x{size} board (0..{size * size - 1})")
        return square
    if isinstance(square, tuple):
        if len(square) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in square):
            raise InvalidSquareError(f"a square tuple is (row, col) with two ints, got {square!r}")
        row, col = square
        if not (0 <= row < size and 0 <= col < size):
            raise InvalidSquareError(f"(row, col) = {square} is off the {size}x{size} board (0-based)")
        return int(row * size + col)
    if isinstance(square, str):
        text = square.strip()
        match = _SQUARE_RE.match(text)
        if match:
            col = COLUMNS.index(match.group(1).lower())
            row = int(match.group(2)) - 1
            if col >= size or row >= size:
                raise InvalidSquareError(f"square {text!r} is off the {size}x{size} board")
            return row * size + col
        match = _ROWCOL_RE.match(text)
        if match:  # "3 4": 1-based row then column, as a human types it
            row, col = int(match.group(1)) - 1, int(match.group(2)) - 1
            if not (0 <= row < size and 0 <= col < size):
                raise InvalidSquareError(f"row/column {text!r} is off the {size}x{size} board (1..{size})")
            return row * size + col
        raise InvalidSquareError(f"not a square name: {square!r} (expected e.g. 'd3')")
    raise InvalidSquareError(f"not a square: {square!r}")


@functools.cache
def interned_moves(size: int) -> tuple[Move, ...]:
    """The moves of a ``size`` board, made once: ``[index]`` for a square, ``[PASS]`` (the last) for the pass."""
    return tuple(Move(index, size) for index in range(size * size)) + (Move(PASS, size),)


class Othello(Position[OthelloMove]):
    """An Othello/Reversi position with its move history.

    Args:
        size: even board size from 4 to 10 (default 8). Standard start: white on
            d4/e5, black on e4/d5 (for 8x8; the four centre squares on any size), black first.
        backend: `"cython"` or `"python"`; default `gamecore.BACKEND`.

    Raises:
        InvalidSizeError: for an odd size or one outside 4..10.

    `turn` is `Othello.BLACK` (0) or `Othello.WHITE` (1). `legal_moves()` lists the
    squares in index order, `[pass]` when the side to move must pass, `[]` at the end;
    `push(move)` plays a move (`"d3"`, a `Move`), `pop()` takes it back, `outcome()` says
    who won once `is_game_over()`.
    """

    __slots__ = ()

    Color = OthelloColor
    BLACK = OthelloColor.BLACK
    WHITE = OthelloColor.WHITE
    Move = OthelloMove

    name = "othello"
    sizes = (4, 6, 8, 10)
    default_size = 8
    tournament_sizes = (6, 8, 10)
    #: Besides every game's players, the one-ply ones that read squares (``gamecore.players.othello``).
    players = (*Position.players, "greedy", "corner", "positional")
    colour_display = ("#111111", "#f4f4f4")
    colour_letters = "XO"
    perft_depths = (9, 7)
    final_score_unit = "discs: the final margin"
    evaluation_units = {"learned": "hundredths of a disc (learned evaluation)"}
    default_evaluation_help = "the learned one where Othello ships weights (6x6, 8x8, 10x10), else standard"

    if TYPE_CHECKING:
        _core: OthelloCore

        @property
        def core(self) -> OthelloCore: ...

    #: Built-in evaluations by name, as weights over the features of :meth:`features`
    #: (see ``gamecore.search``). The engine's default, ``"default"``, is "learned" on a size
    #: with shipped weights (6x6, 8x8) and "standard" elsewhere (:meth:`default_evaluation`).
    EVALUATIONS = {
        "greedy": {"discs": 1},
        "discs": {"discs": 1},
        "positional": {"positional": 1},
        "mobility": {"mobility": 1},
        "corners": {"corners": 1},
        "stability": {"stability": 1},
        "parity": {"parity": 1},
        "standard": {"positional": 2, "mobility": 12, "stability": 15, "parity": 3},
        # the learned pattern evaluation (gamecore/data/othello{size}.json says how it was
        # trained), in hundredths of a disc; 0 on a size without shipped weights
        "learned": {"patterns": 1},
    }

    def __init__(self, size: int = 8, *, backend: str | None = None) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidSizeError(f"Othello board size must be an int, got {size!r}")
        self._backend = _backend.load(backend or _backend.BACKEND)
        self._core = self._backend.othello.OthelloCore(size)

    def feature_values(self) -> tuple[int, ...]:
        """The values of :meth:`features` in this position, for the side to move (each one is
        what the evaluation adds per unit of its weight)."""
        return tuple(self._core.feature_values())

    @classmethod
    def _start(cls, size: int, backend: str | None) -> Othello:
        return cls(size, backend=backend)

    def extra_moves(self) -> tuple[int, ...]:
        """The pass (the core's ``-1``): the learning adapters' action ``size * size``."""
        return (PASS,)

    def max_game_length(self) -> int:
        """Every square but the four of the start once, and a pass before each (never two in a row)."""
        return 2 * (self.size * self.size - 4)

    def features(self) -> tuple[str, ...]:
        """Names of the evaluation features, in the order the weights are given to the core:
        disc difference, positional square weights, mobility (own moves minus the
        opponent's), corners, stable edge discs, parity (+1 when the side to move
        would make the last move), the learned pattern evaluation (hundredths of a disc)."""
        return tuple(self._backend.othello.FEATURES)

    def default_evaluation(self) -> str:
        """``"learned"`` on a size with shipped weights (``gamecore/data/othello{size}.patterns``),
        else ``"standard"``."""
        return "learned" if _othello_patterns.load_table(self.size) is not None else "standard"

    def exact_solver(self) -> Callable[..., tuple[Any, ...]]:
        """The exact endgame solver of this position's backend (``gamecore.search._endgame_*``)."""
        return self._backend.endgame.solve_exact  # type: ignore[no-any-return]

    def opening_book(self) -> Any:
        """The shipped opening book of this board size (6x6), or ``None``."""
        from ..search.book import opening_book  # noqa: PLC0415 (book -> split -> engine -> games)

        return opening_book(self.size)

    def move_from_code(self, code: int) -> OthelloMove:
        """The :class:`Move` of a core move code (square index or -1 for a pass)."""
        return interned_moves(self._core.size)[code]

    def _interned_moves(self) -> tuple[OthelloMove, ...]:
        return interned_moves(self._core.size)

    # -- state ------------------------------------------------------------

    @property
    def size(self) -> int:
        """The board's side: 4 to 10 (even)."""
        return int(self._core.size)

    def parse_move(self, move: Any) -> OthelloMove:
        """A :class:`Move` from a ``Move``, ``'d3'``, ``'pass'``, ``(row, col)``, ``'3 4'`` or an index.

        Checks the form and the board, not legality.
        """
        size = self.size
        if isinstance(move, OthelloMove):
            if move.size != size:
                raise InvalidMoveError(f"move {move} is for a {move.size}x{move.size} board, this one is {size}x{size}")
            return move
        if move is None:
            raise InvalidMoveError("None is not a move (use 'pass' to pass)")
        if isinstance(move, int) and not isinstance(move, bool):
            return Move(parse_square(move, size), size)  # a square: -1 is no square (pass is 'pass')
        return Move(move, size)

    def score(self) -> tuple[int, int]:
        """``(black discs, white discs)``: the older form of :meth:`scores`, kept for the
        course adapters and existing code."""
        return self._core.counts()

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``: most discs wins, equal is a draw;
        ``scores`` are the discs per colour, ``termination`` ``FULL_BOARD`` or ``NO_MOVES``.

        >>> print(Othello.from_moves("b1a1a2c1d1a3a4d2d3b4c4d4", size=4).outcome())
        white wins 10-6 (full board)
        """
        if not self._core.is_game_over():
            return None
        black, white = self._core.counts()
        winner = None if black == white else (BLACK if black > white else WHITE)
        full = black + white == self.size * self.size
        termination = Termination.FULL_BOARD if full else Termination.NO_MOVES
        return Outcome(winner, termination, {BLACK: black, WHITE: white})

    def cells(self) -> list[list[int]]:
        """The board as rows of ``-1`` (empty), ``0`` (black), ``1`` (white)."""
        black, white = self._core.bitboards()
        n = self.size
        return [
            [0 if black >> (r * n + c) & 1 else 1 if white >> (r * n + c) & 1 else -1 for c in range(n)]
            for r in range(n)
        ]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Othello):
            return NotImplemented
        return self.size == other.size and self.turn == other.turn and self._core.bitboards() == other._core.bitboards()

    # -- text ---------------------------------------------------------------

    def to_text(self) -> str:
        """One line: a character per square row by row (``X`` black, ``O`` white, ``-`` empty), a space, the side to move."""
        chars = {-1: "-", 0: "X", 1: "O"}
        body = "".join(chars[v] for row in self.cells() for v in row)
        return f"{body} {'XO'[self.turn]}"

    def render(self, last_move: OthelloMove | None = None, *, style: str = "letters") -> str:
        """The readable board with coordinates (``str(position)``); see :func:`render_othello`."""
        return render_othello(self, style=style, last_move=last_move)

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Othello.from_text({self.to_text()!r})"

    @classmethod
    def from_text(cls, text: str, *, backend: str | None = None) -> Othello:
        """Read a position: the one-line form of :meth:`to_text` (as in Edax's OBF files, a
        trailing ``;`` and anything after it ignored; ``*`` and ``.`` also accepted) or the
        readable board of ``str()``.

        :raises InvalidPositionError: wrong length, stray characters, no side to move or no disc.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position text must be a str, got {type(text).__name__}")
        cells, turn = _parse_position_text(text)
        size = _size_from_cells(len(cells))
        game = cls(size, backend=backend)
        game._set_discs(cells, turn)
        return game

    @classmethod
    def from_moves(cls, moves: str | Iterable[Any], *, size: int = 8, backend: str | None = None) -> Othello:
        """The position after a game record: ``'f5d6c3'`` (spaces, commas and ``pass`` allowed; a
        pass the record leaves out is played when it is forced) or an iterable of moves.

        :raises InvalidMoveError: a move that cannot be read (``IllegalMoveError`` one that
            cannot be played).
        """
        game = cls(size, backend=backend)
        codes = parse_move_list(moves, size) if isinstance(moves, str) else [game.parse_move(m).index for m in moves]
        for code in codes:
            if code != PASS and game._core.legal_moves() == [PASS]:
                game._core.push(PASS)  # the record leaves the forced pass out
            game.push(Move(code, size))
        return game

    @classmethod
    def from_cells(cls, rows: Iterable[Iterable[int]], *, turn: int = BLACK, backend: str | None = None) -> Othello:
        """A position from rows of ``-1``/``0``/``1`` (as :meth:`cells` returns) and the side to move."""
        try:
            grid = [list(row) for row in rows]
        except TypeError as exc:
            raise InvalidPositionError(f"rows must be iterables of cells: {exc}") from exc
        size = len(grid)
        if any(len(row) != size for row in grid):
            raise InvalidPositionError("the board must be square")
        if size % 2 or not 4 <= size <= 10:
            raise InvalidSizeError(f"Othello board size must be even, 4 to 10; got {size}")
        flat = [v for row in grid for v in row]
        # Ints only (also int-like objects such as numpy integers); 0.0 or True is not a cell.
        if any(isinstance(v, bool) or not hasattr(type(v), "__index__") or v not in (-1, 0, 1) for v in flat):
            raise InvalidPositionError("cells must be -1 (empty), 0 (black) or 1 (white)")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn not in (BLACK, WHITE):
            raise InvalidPositionError(f"turn must be 0 (black) or 1 (white), got {turn!r}")
        game = cls(size, backend=backend)
        game._set_discs(flat, turn)
        return game

    def _set_discs(self, cells: list[int], turn: int) -> None:
        """Set the board from cells in index order (-1 empty, 0 black, 1 white)."""
        black = sum(1 << i for i, v in enumerate(cells) if v == 0)
        white = sum(1 << i for i, v in enumerate(cells) if v == 1)
        if not black | white:
            # Nothing can be played on it and no game reaches it: a mistake, not a position.
            raise InvalidPositionError("the board has no disc (a game starts with four in the centre)")
        self._core.set_board(black, white, int(turn))


def _size_from_cells(count: int) -> int:
    for size in (4, 6, 8, 10):
        if size * size == count:
            return size
    raise InvalidPositionError(f"a position needs 16, 36, 64 or 100 squares (4x4 to 10x10), got {count}")


def _side(token: str) -> int:
    token = token.strip().lower()
    if token in ("x", "*", "b", "black", "○"):
        return BLACK
    if token in ("o", "w", "white", "●"):
        return WHITE
    raise InvalidPositionError(f"side to move must be X (black) or O (white), got {token!r}")


def _parse_position_text(text: str) -> tuple[list[int], int]:
    lines, parts = split_position_text(text)
    if parts is not None:
        if len(parts) != 2:
            raise InvalidPositionError("expected the squares, a space and the side to move (e.g. '---...--- X')")
        board, side = parts
        try:
            line_cells = [_CELL_CHARS[ch] for ch in board]
        except KeyError as exc:
            raise InvalidPositionError(f"stray character {exc.args[0]!r} in the position (use X, O or -)") from None
        return line_cells, _side(side)
    # The readable board: optional column header, rows with optional numbers at both ends,
    # and a line saying whose turn it is.
    cells: list[int] = []
    turn: int | None = None
    for line in lines:
        lower = line.lower()
        if "to move" in lower or "to play" in lower:
            turn = _side(lower.split()[0])
            continue
        if lower.startswith("game over"):
            turn = BLACK  # a finished game: nobody moves, any side will do
            continue
        tokens = [t for t in line.replace("|", " ").split() if set(t) != {"?"}]  # the UFRJ frame
        if all(len(t) == 1 and t.lower() in COLUMNS for t in tokens):
            continue  # column header
        for token in strip_row_numbers(tokens):
            for ch in token:
                if ch not in _CELL_CHARS:
                    raise InvalidPositionError(f"stray character {ch!r} in the board (use X, O, - or .)")
                cells.append(_CELL_CHARS[ch])
    if turn is None:
        raise InvalidPositionError("the board text does not say whose turn it is (a line like 'X to move')")
    return cells, turn


def parse_move_list(text: str, size: int = 8) -> list[int]:
    """Square indices of a game record like ``'f5d6c3'`` (``'pass'``/``'ps'``/``'--'`` for passes).

    :raises InvalidMoveError: a record that is not text, longer than ``MAX_RECORD_CHARS``, or
        with something that is not a move.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a game record is a str, got {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise InvalidMoveError(f"a game record of {len(text)} characters is too long (at most {MAX_RECORD_CHARS})")
    record = text.strip().lower().replace(" ", "").replace(",", "")
    out = []
    i = 0
    while i < len(record):
        match = _RECORD_MOVE_RE.match(record, i)  # from position i: no copy of the rest
        if not match:
            raise InvalidMoveError(f"cannot read a move at {record[i : i + 4]!r} in the record")
        out.append(PASS if match.group(1) is None else parse_square(match.group(0), size))
        i = match.end()
    return out


# -- text rendering ---------------------------------------------------------------------
#: name -> (black, white, empty, last black, last white, border)
STYLES = {
    "letters": ("X", "O", "-", "x", "o", None),
    "ufrj": ("○", "●", ".", "◌", "◍", "?"),
}


def render_othello(game: Othello, style: str = "letters", last_move: OthelloMove | None = None) -> str:
    """The board with column letters and row numbers on both sides, then whose turn it is.

    ``style="letters"``: ``X`` black, ``O`` white, ``-`` empty, the last move in lower case.
    ``style="ufrj"``: the UFRJ handout's ``○`` black, ``●`` white, ``.`` empty, ``?`` border.
    """
    if style not in STYLES:
        raise InvalidOptionError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    black, white, empty, last_black, last_white, border = STYLES[style]
    n = game.size
    if last_move is None:
        last_move = game.peek()
    last = -1 if last_move is None or last_move.is_pass else last_move.index
    width = len(str(n))
    pad = " " * (width + 1)
    if border:  # the handout's frame: a row and a column of '?' around the board
        header = pad + "  " + " ".join(COLUMNS[:n])
        frame = pad + " ".join(border * (n + 2))
        lines = [header, frame]
    else:
        header = pad + " ".join(COLUMNS[:n])
        lines = [header]
    for r, row in enumerate(game.cells()):
        cells = []
        for c, v in enumerate(row):
            i = r * n + c
            if v == 0:
                cells.append(last_black if i == last else black)
            elif v == 1:
                cells.append(last_white if i == last else white)
            else:
                cells.append(empty)
        body = " ".join(cells)
        if border:
            body = f"{border} {body} {border}"
        lines.append(f"{r + 1:>{width}} {body} {r + 1}")
    if border:
        lines.append(frame)
    lines.append(header)
    b, w = game.score()
    outcome = game.outcome()
    turn_line = f"game over: {outcome}" if outcome is not None else f"{(black, white)[game.turn]} to move"
    lines.append(f"{turn_line}   {black}: {b}  {white}: {w}")
    return "\n".join(lines)
