"""Tetralath positions for users: cells, moves, text and results over a backend core.

Tetralath is Yavalath without the swap rule: on a hexagon of 61 cells, white and
black place stones in turn; four or more in a row wins, three in a row (without
four made by the same move) loses, a full board is a draw.

>>> from gamecore import Tetralath
>>> game = Tetralath()
>>> len(game.legal_moves())
61
>>> for cell in ("e1", "a1", "e2", "a2", "e3"):
...     game.push(cell)
>>> game.outcome().winner, game.outcome().termination
(Tetralath.BLACK, <Termination.THREE_IN_A_ROW: 'three in a row'>)
>>> print(game.outcome())
black wins 3-2 (white made three in a row)
>>> game.pop()
Tetralath.Move('e3')

Cells use Susan notation: rows ``a`` to ``i`` from top to bottom with 5, 6, 7, 8, 9,
8, 7, 6, 5 cells, numbered from 1 on the left of each row (``a1`` top-left, ``e5``
the centre, ``i5`` bottom-right), or the index 0..60 row by row (``a1`` = 0,
``e1`` = 26, ``e5`` = 30, ``i5`` = 60).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import _backend
from ..errors import InvalidMoveError, InvalidOptionError, InvalidPositionError, InvalidSquareError
from ._tetralath_rules import ROW_LENGTHS, ROW_STARTS
from .base import Color, Outcome, Position, Termination, renamed, split_position_text
from .metadata import GameOption, Geometry, hexagon_geometry

if TYPE_CHECKING:  # checkers read the pure twin; the compiled core has the same methods
    from ._tetralath_py import TetralathCore

__all__ = [
    "Tetralath",
    "TetralathColor",
    "TetralathMove",
    "WHITE",
    "BLACK",
    "SWAP",
    "ROWS",
    "ROW_LENGTHS",
    "parse_cell",
    "cell_name",
]


class TetralathColor(Color):
    """Tetralath's colours: white (player 0) moves first."""

    WHITE = 0
    BLACK = 1


WHITE = TetralathColor.WHITE
BLACK = TetralathColor.BLACK
#: The core's code of the swap move (one past the last cell); users write ``"swap"`` or ``SWAP``.
SWAP_CODE = 61
NUM_CELLS = 61
ROWS = "abcdefghi"
_CELL_RE = re.compile(r"^([a-iA-I])\s*([1-9])$")
_CELL_CHARS = {"W": 0, "w": 0, "B": 1, "b": 1, ".": -1, "-": -1}
_SWAP_WORDS = ("swap", "troca", "trocar")


def cell_name(index: int) -> str:
    """Susan name of a cell index (``30`` -> ``'e5'``)."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_CELLS:
        raise InvalidSquareError(f"cell index must be an int from 0 to 60, got {index!r}")
    row = 0
    while row < 8 and ROW_STARTS[row + 1] <= index:
        row += 1
    return f"{ROWS[row]}{index - ROW_STARTS[row] + 1}"


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 12 symmetries of the hexagon (6 rotations, each with and without a mirror) as
    permutations of the cell indices."""
    cube = []  # cube coordinates (q, r, s), q + r + s = 0, centred on e5
    for row in range(9):
        first_x = 4 - row if row < 4 else 0
        for i in range(ROW_LENGTHS[row]):
            q, r = first_x + i - 4, row - 4
            cube.append((q, r, -q - r))
    index = {c: i for i, c in enumerate(cube)}
    perms = []
    for mirror in (False, True):
        for turns in range(6):
            perm = []
            for q, r, s in cube:
                if mirror:
                    q, r = r, q
                for _ in range(turns):  # a sixth of a turn
                    q, r, s = -r, -s, -q
                perm.append(index[(q, r, s)])
            perms.append(tuple(perm))
    return tuple(perms)


#: ``SYMMETRIES[k][cell]``: where symmetry k takes the cell (k = 0 is the identity).
SYMMETRIES = _symmetries()


def _transform(bb: int, perm: tuple[int, ...]) -> int:
    out = 0
    while bb:
        bit = bb & -bb
        bb ^= bit
        out |= 1 << perm[bit.bit_length() - 1]
    return out


def parse_cell(cell: Any) -> int:
    """Index of a cell given as ``'e5'``/``'E5'`` or as an index 0..60.

    :raises InvalidSquareError: malformed or off the board.
    """
    if isinstance(cell, bool):
        raise InvalidSquareError(f"not a cell: {cell!r}")
    if isinstance(cell, int):
        if not 0 <= cell < NUM_CELLS:
            raise InvalidSquareError(f"cell index {cell} is off the board (0..60)")
        return cell
    if isinstance(cell, str):
        text = cell.strip()
        match = _CELL_RE.match(text)
        if match:
            row = ROWS.index(match.group(1).lower())
            number = int(match.group(2))
            if number > ROW_LENGTHS[row]:
                raise InvalidSquareError(
                    f"cell {text!r} is off the board: row {ROWS[row]} has cells 1 to {ROW_LENGTHS[row]}"
                )
            return ROW_STARTS[row] + number - 1
        if text.isascii() and text.isdigit() and len(text) <= 2:
            return parse_cell(int(text))
        raise InvalidSquareError(f"not a cell name: {cell!r} (expected a row a-i and a number, e.g. 'e5')")
    raise InvalidSquareError(f"not a cell: {cell!r}")


@dataclass(frozen=True, init=False)
class TetralathMove:
    """A Tetralath move: a cell, built from its index 0..60 or its name (``TetralathMove("e5")``,
    ``Tetralath.Move(30)``), or the swap (``"swap"``, :data:`SWAP`; its code ``index`` is 61).
    Moves are equal when their indices are; a move is not equal to its text.

    :raises InvalidSquareError: a malformed or off-board cell.
    """

    index: int

    def __init__(self, index: int | str) -> None:
        if isinstance(index, str) and index.strip().lower() in _SWAP_WORDS:
            index = SWAP_CODE
        elif not (isinstance(index, int) and not isinstance(index, bool) and index == SWAP_CODE):
            index = parse_cell(index)
        object.__setattr__(self, "index", int(index))

    @classmethod
    def parse(cls, text: str) -> TetralathMove:
        """The move written ``text`` (``'e5'``, ``'swap'``)."""
        return cls(text)

    @property
    def is_swap(self) -> bool:
        return self.index == SWAP_CODE

    #: Tetralath has no pass (every game's moves say whether they are one).
    is_pass = False

    @property
    def row(self) -> int:
        """0-based row (0 is row ``a``, at the top)."""
        if self.is_swap:
            raise InvalidMoveError("the swap has no row")
        row = 0
        while row < 8 and ROW_STARTS[row + 1] <= self.index:
            row += 1
        return row

    @property
    def number(self) -> int:
        """1-based number of the cell inside its row (the digit of its name)."""
        return self.index - ROW_STARTS[self.row] + 1

    @property
    def name(self) -> str:
        """``'e5'``-style name, or ``'swap'``."""
        return "swap" if self.is_swap else cell_name(self.index)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tetralath.Move({self.name!r})"


#: The moves made once, by core code: ``[cell]`` and the swap.
INTERNED_MOVES = tuple(TetralathMove(code) for code in range(SWAP_CODE + 1))
#: The swap move (pie rule), legal as black's first move when the game has ``swap=True``.
SWAP = INTERNED_MOVES[SWAP_CODE]


_TERMINATIONS = {
    "four in a row": Termination.FOUR_IN_A_ROW,
    "three in a row": Termination.THREE_IN_A_ROW,
    "full board": Termination.FULL_BOARD,
}


class Tetralath(Position[TetralathMove]):
    """A Tetralath position with its move history. White moves first.

    Args:
        swap: allow the swap rule of Yavalath (black's first move may be `"swap"`:
            white's stone becomes black and white moves again). Off by default.
        backend: `"cython"` or `"python"`; default `gamecore.BACKEND`.

    Four in a row wins, three in a row (without four) loses. Cells are named by row `a`-`i`
    and number (`e5` the centre); `legal_moves()`, `push()`, `pop()` and `outcome()` work as
    in every game.
    """

    __slots__ = ()

    Color = TetralathColor
    WHITE = TetralathColor.WHITE
    BLACK = TetralathColor.BLACK
    Move = TetralathMove

    name = "tetralath"
    #: One board: its size is its 61 cells.
    sizes = (61,)
    default_size = 61
    tournament_sizes = (61,)

    if TYPE_CHECKING:
        _core: TetralathCore

        @property
        def core(self) -> TetralathCore: ...

    #: The swap move (``Tetralath.Move("swap")``), legal only with the swap rule on.
    SWAP = SWAP
    languages = ("en", "pt")
    default_time = 2.0
    colour_display = ("#f4f4f4", "#111111")
    colour_letters = "WB"
    #: The board's wood, and its empty cells.
    board_display = ("#d7b987", "#b49669")
    #: Built-in evaluations for the searches: feature name -> integer weight (see :meth:`features`).
    EVALUATIONS = {
        "standard": {
            "win_now": 10000,
            "forced_blocks": -60,
            "cannot_block": -5000,
            "losing_threes": 8,
            "open_twos": 10,
            "open_ones": 2,
            "centre": 1,
        },
        "threats": {"win_now": 10000, "forced_blocks": -60, "cannot_block": -5000, "losing_threes": 8},
        "windows": {"open_twos": 5, "open_ones": 1},
        "centre": {"centre": 1},
    }

    def __init__(self, *, swap: bool = False, backend: str | None = None) -> None:
        if not isinstance(swap, bool):
            raise InvalidOptionError(f"swap must be True or False, got {swap!r}")
        self._backend = _backend.load(backend or _backend.BACKEND)
        self._core = self._backend.tetralath.TetralathCore(swap)

    @classmethod
    def _own_options(cls) -> tuple[GameOption, ...]:
        return (GameOption("swap", (False, True), False, "the swap rule (black's first move may take white's stone)"),)

    def start_options(self) -> dict[str, Any]:
        return {"swap": self.swap_rule}

    def geometry(self) -> Geometry:
        """The hexagon of 61 cells, rows ``a`` to ``i``."""
        return hexagon_geometry(ROW_LENGTHS)

    def extra_moves(self) -> tuple[int, ...]:
        """The swap (code 61) when the rule is on."""
        return (SWAP_CODE,) if self.swap_rule else ()

    def features(self) -> tuple[str, ...]:
        """Names of the evaluation features, in the order the weights are given to the core
        (all for the side to move): ``win_now`` (it can make four now), ``forced_blocks``
        (cells where the opponent would make four), ``cannot_block`` (it cannot fill them all
        without losing), ``losing_threes`` (cells where the opponent would make a losing three,
        minus its own), ``open_twos`` / ``open_ones`` (four-cell windows with two / one own
        stones and no opposing one, minus the opponent's), ``centre`` (own stones' closeness to
        e5 minus the opponent's)."""
        return tuple(self._backend.tetralath.FEATURES)

    def feature_values(self) -> tuple[int, ...]:
        """The values of :meth:`features` in this position, for the side to move."""
        return tuple(self._core.features())

    def move_from_code(self, code: int) -> TetralathMove:
        """The :class:`TetralathMove` of a core move code (cell index, or ``SWAP_CODE``)."""
        return INTERNED_MOVES[code]

    def _interned_moves(self) -> tuple[TetralathMove, ...]:
        return INTERNED_MOVES

    # -- state ------------------------------------------------------------

    @property
    def swap_rule(self) -> bool:
        """Whether the swap rule is on."""
        return bool(self._core.swap_rule)

    def parse_move(self, move: Any) -> TetralathMove:
        """A :class:`TetralathMove` from a move, ``'e5'``, ``'swap'`` or a cell index 0..60.

        Checks the form and the board, not legality.

        :raises InvalidSquareError: a malformed or off-board cell (61 included: the swap is
            written ``'swap'`` or :data:`SWAP`).
        :raises InvalidMoveError: something that is not a move at all.
        """
        if isinstance(move, TetralathMove):
            return move
        if isinstance(move, str) and move.strip().lower() in _SWAP_WORDS:
            return SWAP
        if isinstance(move, (str, int)) and not isinstance(move, bool):
            return TetralathMove(parse_cell(move))
        raise InvalidMoveError(f"not a move: {move!r} (expected a cell like 'e5', an index 0..60 or 'swap')")

    def distinct_moves(self) -> list[TetralathMove]:
        """The legal moves less those that a symmetry of the position makes equivalent to an
        earlier one: one move per class (the empty board's 61 cells are 9 classes).
        The searches use it to skip symmetric root moves."""
        white, black = self._core.bitboards()
        group = [p for p in SYMMETRIES if _transform(white, p) == white and _transform(black, p) == black]
        moves = self._core.legal_moves()
        if len(group) == 1:
            return [TetralathMove(m) for m in moves]
        return [TetralathMove(m) for m in moves if m == SWAP_CODE or m == min(p[m] for p in group)]

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``: the winner (``None`` on a draw),
        ``termination`` ``FOUR_IN_A_ROW`` (the mover won), ``THREE_IN_A_ROW`` (the mover lost)
        or ``FULL_BOARD`` (a draw), and the stones per colour in ``scores``."""
        if not self._core.is_game_over():
            return None
        winner = self._core.winner()
        white, black = self._core.counts()
        return Outcome(
            None if winner is None else TetralathColor(winner),
            _TERMINATIONS[self._core.reason()],
            {WHITE: white, BLACK: black},
        )

    @property
    def size(self) -> int:
        """The number of cells, 61: Tetralath has one board (the referee records its size so)."""
        return NUM_CELLS

    def counts(self) -> tuple[int, int]:
        """``(white stones, black stones)``: the older form of :meth:`scores`."""
        return self._core.counts()

    def cells(self) -> list[list[int]]:
        """The board as 9 rows (``a`` to ``i``) of ``-1`` (empty), ``0`` (white), ``1`` (black)."""
        white, black = self._core.bitboards()
        flat = [0 if white >> i & 1 else 1 if black >> i & 1 else -1 for i in range(NUM_CELLS)]
        return [flat[s : s + n] for s, n in zip(ROW_STARTS, ROW_LENGTHS, strict=True)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tetralath):
            return NotImplemented
        return (
            self.turn == other.turn
            and self.swap_rule == other.swap_rule
            and self._core.bitboards() == other._core.bitboards()
        )

    # -- text ---------------------------------------------------------------

    def to_text(self) -> str:
        """One line: the rows ``a`` to ``i`` separated by ``/``, a character per cell (``W`` white,
        ``B`` black, ``.`` empty), a space, the side to move (``W`` or ``B``)."""
        chars = {-1: ".", 0: "W", 1: "B"}
        body = "/".join("".join(chars[v] for v in row) for row in self.cells())
        return f"{body} {'WB'[self.turn]}"

    def render(
        self,
        last_move: TetralathMove | None = None,
        *,
        color: bool = False,
        lang: str = "en",
        colour: bool | None = None,
    ) -> str:
        """The hexagon with coordinates (``str(position)``): row letters on the left, cell numbers
        along the top and bottom edges (1-5) and the right edges (6-9), ``W`` white, ``B`` black,
        ``.`` empty (``lang="pt"``: ``B`` brancas, ``P`` pretas); the last move (``last_move``,
        by default the last one played) in parentheses, and with ``color=True`` also in ANSI
        colours and reverse video (``colour=`` is its older name). :meth:`from_text` reads
        both drawings back."""
        color = bool(renamed(color or None, colour, "color", "colour"))
        if lang not in SYMBOLS:
            raise InvalidOptionError(f"lang must be one of {', '.join(SYMBOLS)}, got {lang!r}")
        if last_move is None:
            last_move = self.peek()
        mark = -1 if last_move is None or last_move.is_swap else last_move.index
        return render_board(
            self.cells(), self.turn, mark=mark, colour=color, footer=self._status_line(lang), symbols=SYMBOLS[lang]
        )

    def _status_line(self, lang: str = "en") -> str:
        outcome = self.outcome()
        if lang == "pt":
            side = ("brancas", "pretas")[self.turn]
            return "fim de jogo" if outcome is not None else f"vez das {side}"
        return f"game over: {outcome}" if outcome is not None else f"{'WB'[self.turn]} to move"

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Tetralath.from_text({self.to_text()!r})"

    @classmethod
    def from_text(cls, text: str, *, swap: bool = False, backend: str | None = None) -> Tetralath:
        """Read a position: the one-line form of :meth:`to_text` (the ``/`` between rows optional,
        ``-`` also accepted for empty, anything after a ``;`` ignored) or the hexagon of ``str()``.

        :raises InvalidPositionError: wrong number of cells, stray characters, no side to move,
            stone counts that do not fit the side to move, or lines of three or more that would
            have ended the game earlier.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position text must be a str, got {type(text).__name__}")
        cells, turn = _parse_position_text(text)
        game = cls(swap=swap, backend=backend)
        white = sum(1 << i for i, v in enumerate(cells) if v == 0)
        black = sum(1 << i for i, v in enumerate(cells) if v == 1)
        game._core.set_board(white, black, int(turn))
        return game

    @classmethod
    def from_cells(
        cls, rows: Iterable[Iterable[int]], *, turn: int = 0, swap: bool = False, backend: str | None = None
    ) -> Tetralath:
        """A position from 9 rows (``a`` to ``i``, of 5 to 9 cells) of ``-1``/``0``/``1`` (as
        :meth:`cells` returns) and the side to move (``0`` white, ``1`` black); checked as
        :meth:`from_text` checks a text."""
        try:
            grid = [list(row) for row in rows]
        except TypeError as exc:
            raise InvalidPositionError(f"rows must be iterables of cells: {exc}") from exc
        if [len(row) for row in grid] != list(ROW_LENGTHS):
            raise InvalidPositionError(f"the board has 9 rows of {', '.join(map(str, ROW_LENGTHS))} cells")
        if any(
            isinstance(v, bool) or not hasattr(type(v), "__index__") or v not in (-1, 0, 1) for row in grid for v in row
        ):
            raise InvalidPositionError("cells must be -1 (empty), 0 (white) or 1 (black)")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn not in (0, 1):
            raise InvalidPositionError(f"turn must be 0 (white) or 1 (black), got {turn!r}")
        chars = {-1: ".", 0: "W", 1: "B"}
        text = "/".join("".join(chars[int(v)] for v in row) for row in grid) + " " + "WB"[turn]
        return cls.from_text(text, swap=swap, backend=backend)

    @classmethod
    def from_moves(cls, moves: str | Iterable[Any], *, swap: bool = False, backend: str | None = None) -> Tetralath:
        """The position after a sequence of moves (``'e5 d4 c3'`` or an iterable of moves)."""
        if isinstance(moves, str):
            moves = moves.replace(",", " ").split()
        game = cls(swap=swap, backend=backend)
        for move in moves:
            game.push(move)
        return game


# -- drawing and reading the board ----------------------------------------

_ANSI = {
    0: "\x1b[1;97m",  # white stones: bold bright white
    1: "\x1b[1;91m",  # black stones: bold bright red (black would vanish on a dark terminal)
    "last": "\x1b[5;7m",  # the last move: blinking, reverse video
    "reset": "\x1b[0m",
    "dim": "\x1b[2m",
}


def render_board(
    rows: list[list[int]],
    turn: int,
    *,
    mark: int = -1,
    colour: bool = False,
    footer: str | None = None,
    symbols: tuple[str, str, str] = ("W", "B", "."),
) -> str:
    """Draw 9 rows of cells (-1/0/1) as a hexagon with coordinates; ``mark`` (a cell index)
    in parentheses, and in reverse video with ``colour=True``."""
    lines = [" " * 8 + " ".join("12345")]
    for y, row in enumerate(rows):
        indent = abs(4 - y)
        parts: list[str] = []
        for k, v in enumerate(row):
            index = ROW_STARTS[y] + k
            ch = symbols[v] if v >= 0 else symbols[2]
            if colour:
                if index == mark:
                    ch = _ANSI["last"] + (_ANSI[v] if v >= 0 else "") + ch + _ANSI["reset"]
                elif v >= 0:
                    ch = _ANSI[v] + ch + _ANSI["reset"]
                else:
                    ch = _ANSI["dim"] + ch + _ANSI["reset"]
            left = "(" if index == mark else " "
            if parts and index - 1 == mark:
                left = ")"
            parts.append(left + ch)
        tail = ")" if ROW_STARTS[y] + len(row) - 1 == mark else " "
        label = str(6 + y) if y < 4 else (str(14 - y) if y > 4 else "")
        lines.append(" " * indent + ROWS[y] + " " + "".join(parts) + tail + label)
    lines.append(lines[0])
    if footer:
        lines.append(footer)
    return "\n".join(line.rstrip() for line in lines)


_SIDE_WORDS = {
    "w": WHITE, "white": WHITE, "o": WHITE, "branco": WHITE, "brancas": WHITE,
    "b": BLACK, "black": BLACK, "x": BLACK, "preto": BLACK, "pretas": BLACK,
}  # fmt: skip
#: Cell letters of the drawings per language: (white, black, empty).
SYMBOLS = {"en": ("W", "B", "."), "pt": ("B", "P", ".")}


def _side(token: str) -> int:
    side = _SIDE_WORDS.get(token.strip().lower())
    if side is None:
        raise InvalidPositionError(f"side to move must be W (white) or B (black), got {token!r}")
    return side


def _turn_of_line(line: str) -> int | None:
    """The side named on a status line ("W to move", "Move 3: White (you) to play.", "vez das
    pretas"), or None when the line is not one."""
    lower = line.lower()
    if not any(key in lower for key in ("to move", "to play", "vez d")):
        return None
    for word in lower.replace(":", " ").replace(".", " ").replace("(", " ").split():
        if word in _SIDE_WORDS and word not in ("o", "x"):
            return _SIDE_WORDS[word]
    raise InvalidPositionError(f"cannot tell whose turn it is from {line!r}")


def _parse_position_text(text: str) -> tuple[list[int], int]:
    lines, parts = split_position_text(text)
    if parts is not None:
        if len(parts) < 2:
            raise InvalidPositionError("expected the cells, a space and the side to move (e.g. '...../....../... W')")
        side = parts[-1]
        board = "".join(parts[:-1])
        rows = board.split("/") if "/" in board else None
        if rows is not None:
            if len(rows) != 9 or any(len(r) != n for r, n in zip(rows, ROW_LENGTHS, strict=True)):
                raise InvalidPositionError("expected 9 rows separated by '/', with 5, 6, 7, 8, 9, 8, 7, 6, 5 cells")
            board = "".join(rows)
        line_cells: list[int] = []
        for ch in board:
            if ch not in _CELL_CHARS:
                raise InvalidPositionError(f"stray character {ch!r} in the position (use W, B or .)")
            line_cells.append(_CELL_CHARS[ch])
        if len(line_cells) != NUM_CELLS:
            raise InvalidPositionError(f"a Tetralath position has 61 cells, got {len(line_cells)}")
        return line_cells, _side(side)
    # The hexagon of str() or of the terminal game, in English (W/B) or Portuguese (B/P):
    # number lines, rows with a letter in front and maybe a number behind, the last move in
    # parentheses, and a line saying whose turn it is (without one, the stone counts say it).
    tokens_by_row: list[list[str]] = []
    turn: int | None = None
    portuguese = False
    for line in lines:
        lower = line.lower()
        if "vez d" in lower or "fim de jogo" in lower or "jogada" in lower:
            portuguese = True
        named = _turn_of_line(line)
        if named is not None:
            turn = named
            continue
        if "game over" in lower or "fim de jogo" in lower:
            continue
        tokens = line.replace("(", " ").replace(")", " ").split()
        if all(t.isdigit() for t in tokens):
            continue  # the cell numbers along the top and bottom edges
        row = len(tokens_by_row)
        if row >= 9:
            raise InvalidPositionError("more than 9 rows in the board")
        if tokens[0] != ROWS[row]:
            raise InvalidPositionError(f"cannot read the board line {line!r}")
        tokens = tokens[1:]
        if tokens and tokens[-1].isdigit():
            tokens = tokens[:-1]
        if len(tokens) != ROW_LENGTHS[row]:
            raise InvalidPositionError(f"row {ROWS[row]} must have {ROW_LENGTHS[row]} cells, got {len(tokens)}")
        portuguese = portuguese or "P" in tokens
        tokens_by_row.append(tokens)
    if len(tokens_by_row) != 9:
        raise InvalidPositionError(f"the board has 9 rows a to i, got {len(tokens_by_row)}")
    white_ch, black_ch, empty_ch = SYMBOLS["pt" if portuguese else "en"]
    chars = {white_ch: WHITE, black_ch: BLACK, empty_ch: -1, "-": -1}
    cells: list[int] = []
    for tokens in tokens_by_row:
        for token in tokens:
            if token not in chars:
                raise InvalidPositionError(
                    f"stray cell {token!r} in the board (use {white_ch}, {black_ch} or {empty_ch})"
                )
            cells.append(chars[token])
    if turn is None:
        white, black = cells.count(WHITE), cells.count(BLACK)
        if white not in (black, black + 1):
            raise InvalidPositionError("the board text does not say whose turn it is (a line like 'W to move')")
        turn = WHITE if white == black else BLACK
    return cells, turn
