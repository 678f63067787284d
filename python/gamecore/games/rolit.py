"""Rolit positions for users: colours, moves, text and results over a backend core.

Rolit is Othello for two to four players on an 8x8 board. Red, blue, yellow and green
play in that order, as the course handout says (any other order may be given); the start
is the same whoever plays (d4 red, e4 yellow, d5 blue, e5
green) and the balls of colours that do not play are neutral. A move that captures
(brackets balls of other colours up to the nearest own ball) is compulsory when one exists;
otherwise the ball goes on any empty square next to a ball. Nobody passes: a game is 60
plies. Most balls wins; a tie at the top goes to the colour that first reached that score.

>>> from gamecore import Rolit
>>> game = Rolit()
>>> [str(m) for m in game.legal_moves()]
['f4', 'd6', 'f6']
>>> game.push("f4")                    # red captures e4
>>> game.turn
Rolit.BLUE
>>> [m.row_col for m in game.legal_moves()]    # blue captures
['3 4', '3 6', '5 6']
>>> game.push("3 4")                   # row 3, column 4 (d3), as the course's players type it
>>> print(game)
  1 2 3 4 5 6 7 8
1 . . . . . . . . 1
2 . . . . . . . . 2
3 . . . B . . . . 3
4 . . . B R R . . 4
5 . . . B G . . . 5
6 . . . . . . . . 6
7 . . . . . . . . 7
8 . . . . . . . . 8
  1 2 3 4 5 6 7 8

Squares are named as in Othello (``d6``: column d, row 6; ``a1`` top-left), or given as
``(row, col)`` 0-based, as ``"6 4"`` (1-based row then column, the handout's way) or as an
index ``row * 8 + col``. See ``gamecore/games/_rolit_py.py`` for the values the searches
see and the exact tie rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import _backend
from ..errors import BackendUnavailableError, InvalidMoveError, InvalidPositionError
from .base import Color, Outcome, Position, Termination, renamed, split_position_text, strip_row_numbers
from .metadata import GameOption, Geometry, square_geometry

if TYPE_CHECKING:  # checkers read the pure twin; the compiled core has the same methods
    from ._rolit_py import RolitCore
from .othello import _PASS_WORDS, COLUMNS, parse_square

__all__ = ["Rolit", "RolitColor", "RolitMove", "RED", "BLUE", "YELLOW", "GREEN", "R", "B", "Y", "G", "render_rolit"]


class RolitColor(Color):
    """The four colours, numbered in the handout's play order (``Rolit.RED`` 0, ``BLUE`` 1,
    ``YELLOW`` 2, ``GREEN`` 3).

    The number is the colour's, not the player's: with ``colours="RG"`` green is player 1.
    """

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3

    @property
    def initial(self) -> str:
        """``R``, ``Y``, ``G`` or ``B``: the colour's letter on the board."""
        return self.name[0]


RED, BLUE, YELLOW, GREEN = RolitColor
#: The handout's names of the colours, so that its ``rolit(Y, B)`` runs as written
#: (``from gamecore import rolit, R, B, Y, G``).
R, B, Y, G = RolitColor
#: Colour initials by colour number.
INITIALS = "".join(c.initial for c in RolitColor)
#: Default colours for each number of players, in play order (the handout's order).
DEFAULT_COLOURS = {2: "RG", 3: "RYG", 4: "RBYG"}
SIZE = 8
_CELL_CHARS = {".": -1, "-": -1, **{initial: number for number, initial in enumerate(INITIALS)}}


def parse_colour(value: Any) -> RolitColor:
    """A colour from ``Rolit.RED``, ``0``..``3``, ``"R"``/``"red"`` (any case).

    :raises InvalidPositionError: anything else.
    """
    if isinstance(value, RolitColor):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return RolitColor(value)
    if isinstance(value, str):
        text = value.strip().upper()
        for colour in RolitColor:
            if text in (colour.initial, colour.name):
                return colour
    raise InvalidPositionError(f"not a Rolit colour: {value!r} (red, blue, yellow, green or R, B, Y, G)")


def parse_colours(colours: Any) -> tuple[RolitColor, ...]:
    """Playing colours from ``"RYG"``, ``"red green"``, ``["R", "G"]`` or colours: 2 to 4
    different ones, in the order given, which is the order of play.

    :raises InvalidPositionError: an unknown colour, one named twice, fewer than 2 or more than 4.
    """
    if isinstance(colours, str):
        tokens = colours.replace(",", " ").split()
        names = {c.name for c in RolitColor}
        # "RYG" is three initials; "red green" or "R G" one colour a word.
        items: list[Any] = list(tokens[0]) if len(tokens) == 1 and tokens[0].upper() not in names else tokens
    elif isinstance(colours, Iterable):
        items = list(colours)
    else:
        raise InvalidPositionError(f"colours must be a string like 'RBYG' or a list of colours, got {colours!r}")
    parsed = [parse_colour(item) for item in items]
    if len(set(parsed)) != len(parsed):
        raise InvalidPositionError(f"a colour is named twice in {colours!r}: each colour plays once")
    if not 2 <= len(parsed) <= 4:
        raise InvalidPositionError(f"Rolit is played by 2 to 4 colours, got {len(parsed)} in {colours!r}")
    return tuple(parsed)


@dataclass(frozen=True, init=False)
class RolitMove:
    """A Rolit move: the square ``index = row * 8 + col`` where the ball goes.

    Built as Othello's and Tetralath's moves are, from a square's name or its index:
    ``Rolit.Move("f4")``, ``Rolit.Move("4 6")`` (1-based row then column, the handout's way),
    ``Rolit.Move((3, 5))`` (0-based row, column) or ``Rolit.Move(29)``; ``Move.parse`` too.
    Moves are equal when their squares are; a move is not equal to its text.

    :raises InvalidSquareError: anything that is not a square of the board (``Rolit.Move(99)``,
        ``Rolit.Move(None)``), as Othello's.
    :raises InvalidMoveError: ``"pass"``: there is no passing in Rolit.
    """

    index: int

    def __init__(self, square: int | str | tuple[int, int]) -> None:
        if isinstance(square, str) and square.strip().lower() in _PASS_WORDS:
            raise InvalidMoveError("there is no passing in Rolit: every turn puts a ball on the board")
        object.__setattr__(self, "index", parse_square(square, SIZE))

    @classmethod
    def parse(cls, text: str) -> RolitMove:
        """The move written ``text`` (``'f4'``, ``'4 6'``)."""
        return cls(text)

    #: Rolit has no pass (the attribute lets the common players treat every game alike).
    is_pass = False
    size = SIZE

    @property
    def row(self) -> int:
        """0-based row (0 is the top row, ``1`` on the board)."""
        return self.index // SIZE

    @property
    def col(self) -> int:
        """0-based column (0 is column ``a``, ``1`` on the board)."""
        return self.index % SIZE

    @property
    def name(self) -> str:
        """``'d6'``-style name: column letter, row number."""
        return f"{COLUMNS[self.col]}{self.row + 1}"

    @property
    def row_col(self) -> str:
        """``'6 4'``: 1-based row then column, as the course's players type a move."""
        return f"{self.row + 1} {self.col + 1}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Rolit.Move({self.name!r})"


#: The moves made once, by square index.
INTERNED_MOVES = tuple(RolitMove(index) for index in range(SIZE * SIZE))


class Rolit(Position[RolitMove]):
    """A Rolit position with its move history.

    Args:
        colors: the colours that play, in their order of play: `"RBYG"` (default, four
            players in the handout's order red, blue, yellow, green), `"RG"`, `"RYG"`, any 2
            to 4 different ones in any order (`"RGBY"` plays red, green, blue, yellow), or a
            list of colours. `colours=` is its older name, still accepted.
        players: 2, 3 or 4 instead of `colors`: red-green, red-yellow-green, all four
            (red, blue, yellow, green).
        first: the colour that moves first (default the first of `colors`); the turn
            then goes round in the order of `colors`.
        compulsory_capture: a capture must be played when one exists (the rules);
            `False` lifts the compulsion (every empty square next to a ball is legal).
        tie_rule: break a tie at the top in favour of the colour that first reached the
            final score (the course handout's rule, default); `False` leaves it a draw.
        backend: `"cython"` or `"python"`; default `gamecore.BACKEND`.

    Raises:
        InvalidPositionError: bad colours or first colour.
    """

    __slots__ = ("_tie_rule",)

    RED = RED
    BLUE = BLUE
    YELLOW = YELLOW
    GREEN = GREEN
    Color = RolitColor
    Move = RolitMove

    name = "rolit"
    sizes = (SIZE,)
    default_size = SIZE
    tournament_sizes = (SIZE,)
    #: The referee seats the handout's four players, red to green.
    seats = 4
    #: Besides every game's players, greedy (the most balls after the move).
    players = (*Position.players, "greedy")
    #: The handout's computer: multi-player MCTS (``gamecore rolit``'s default too).
    default_opponent = "mcts"
    #: Besides places, ``"balls"``: each player's balls less the mean, over the 64 squares.
    rewards = ("place", "balls")
    colour_display = ("#d62828", "#1d5fd1", "#f2c200", "#2a9d3a")
    colour_letters = INITIALS
    perft_depths = (9, 6)
    board_display = ("#464650", "#142819")

    if TYPE_CHECKING:
        _core: RolitCore

        @property
        def core(self) -> RolitCore: ...

    #: Built-in evaluations: feature name -> integer weight (see :meth:`features`); each
    #: player's strength shares out the empty squares (``gamecore/games/_rolit_py.py``).
    EVALUATIONS = {
        "standard": {"balls": 2, "corners": 24, "stable": 6, "edges": 2, "mobility": 3},
        "balls": {"balls": 1},
        "greedy": {"balls": 1},
        "corners": {"balls": 1, "corners": 20},
        "mobility": {"balls": 1, "mobility": 2},
    }

    def __init__(
        self,
        colors: Any = None,
        *,
        players: int | None = None,
        first: Any = None,
        compulsory_capture: bool = True,
        tie_rule: bool = True,
        backend: str | None = None,
        colours: Any = None,
    ) -> None:
        colours = renamed(colors, colours, "colors", "colours")
        if players is not None and (
            isinstance(players, bool) or not isinstance(players, int) or players not in DEFAULT_COLOURS
        ):
            raise InvalidPositionError(f"players must be 2, 3 or 4, got {players!r}")
        if colours is None:
            colours = DEFAULT_COLOURS[players or 4]
        playing = parse_colours(colours)
        if players is not None and len(playing) != players:
            raise InvalidPositionError(f"players={players} but colours {colours!r} names {len(playing)}")
        start = playing[0] if first is None else parse_colour(first)
        if start not in playing:
            raise InvalidPositionError(f"the first colour, {start}, does not play ({_initials(playing)})")
        if not isinstance(compulsory_capture, bool):
            raise InvalidPositionError(f"compulsory_capture must be True or False, got {compulsory_capture!r}")
        if not isinstance(tie_rule, bool):
            raise InvalidPositionError(f"tie_rule must be True or False, got {tie_rule!r}")
        self._backend = _backend.load(backend or _backend.BACKEND)
        self._core = self._backend.rolit.RolitCore(tuple(int(c) for c in playing), int(start), compulsory_capture)
        self._tie_rule = tie_rule

    @classmethod
    def _own_options(cls) -> tuple[GameOption, ...]:
        players = GameOption(
            "players", tuple(DEFAULT_COLOURS), 4, "how many play (the default colours of each number)", tag="{0}p"
        )
        return (players,)

    def start_options(self) -> dict[str, Any]:
        return {"players": self.num_players}

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        return tuple(DEFAULT_COLOURS)

    def geometry(self) -> Geometry:
        """8x8 squares, the columns numbered as the handout says its moves (row column: ``3 4``)."""
        return square_geometry(SIZE, columns="numbers")

    def max_game_length(self) -> int:
        """A ball on every square but the four of the start."""
        return SIZE * SIZE - 4

    @classmethod
    def _wrap(cls, core: Any, backend: Any) -> Rolit:
        # A position around a bare core (an evaluation's view of a search node): the default tie rule.
        position = super()._wrap(core, backend)
        position._tie_rule = True
        return position

    def copy(self) -> Rolit:
        """An independent copy, history included."""
        other = Rolit._wrap(self._core.copy(), self._backend)
        other._tie_rule = self._tie_rule
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        # Plain data, so a pickle loads on either backend (the compiled one if it is there).
        state = self._core.__reduce__()
        _rebuild, (colours, compulsory, balls, colour_to_move, moves) = state
        return _restore, (colours, compulsory, self._tie_rule, balls, colour_to_move, moves, self._backend.name)

    def with_backend(self, backend: str) -> Rolit:
        """The same position and history on another backend.

        :raises BackendUnavailableError: that backend is not installed (asked for by name, it
            is never replaced by another, as a pickle's may be).
        """
        _backend.load(backend)
        state = self._core.__reduce__()
        _rebuild, (colours, compulsory, balls, colour_to_move, moves) = state
        return _restore(colours, compulsory, self._tie_rule, balls, colour_to_move, moves, backend)

    def features(self) -> tuple[str, ...]:
        """Names of the evaluation features, per player, in the order the weights are given:
        own balls, own corners, own edge balls held by an own corner through own edge balls,
        own balls on the edge, own capturing moves."""
        return tuple(self._backend.rolit.FEATURES)

    def feature_values(self, color: Any = None, *, colour: Any = None) -> tuple[int, ...]:
        """The values of :meth:`features` for a playing colour (default: the side to move;
        ``colour=`` is the older name of ``color=``)."""
        colour = renamed(color, colour, "color", "colour")
        colour = self.turn if colour is None else parse_colour(colour)
        return tuple(self._core.feature_values(self._player(colour)))

    def move_from_code(self, code: int) -> RolitMove:
        """The :class:`RolitMove` of a core move code (the square index)."""
        return INTERNED_MOVES[code]

    def _interned_moves(self) -> tuple[RolitMove, ...]:
        return INTERNED_MOVES

    # -- state ------------------------------------------------------------

    @property
    def size(self) -> int:
        """8: the board is 8x8."""
        return SIZE

    @property
    def colors(self) -> tuple[RolitColor, ...]:
        """The colours that play, in play order (player ``i`` plays ``colors[i]``)."""
        return tuple(RolitColor(c) for c in self._core.colours)

    @property
    def colours(self) -> tuple[RolitColor, ...]:
        """The older name of :attr:`colors`."""
        return self.colors

    @property
    def num_players(self) -> int:
        return len(self._core.colours)

    @property
    def turn(self) -> RolitColor:
        """The colour to move."""
        return RolitColor(self._core.colour_to_move())

    @property
    def player(self) -> int:
        """The player to move: the index of :attr:`turn` in :attr:`colors`."""
        return int(self._core.turn)

    @property
    def compulsory_capture(self) -> bool:
        """Whether a capture must be played when one exists (the rules; ``False`` is a variant)."""
        return bool(self._core.compulsory)

    @property
    def tie_rule(self) -> bool:
        """Whether a tie at the top goes to the colour that first reached that score (the handout's rule)."""
        return self._tie_rule

    def _player(self, colour: RolitColor) -> int:
        playing = self._core.colours
        if int(colour) not in playing:
            raise InvalidPositionError(f"{colour} does not play in this game ({_initials(self.colours)})")
        return int(playing.index(int(colour)))

    def parse_move(self, move: Any) -> RolitMove:
        """A :class:`RolitMove` from a move, ``'d6'``, ``'6 4'`` (1-based row column),
        ``(row, col)`` (0-based) or an index. Checks the form and the board, not legality.

        :raises InvalidSquareError: a malformed or off-board square.
        :raises InvalidMoveError: something that is not a move at all.
        """
        if isinstance(move, RolitMove):
            return INTERNED_MOVES[parse_square(move.index, SIZE)]  # (checked again: frozen is not sealed)
        return INTERNED_MOVES[RolitMove(move).index]

    def score(self) -> dict[RolitColor, int]:
        """Balls of each playing colour, in play order."""
        counts = self._core.counts()
        return {RolitColor(c): counts[c] for c in self._core.colours}

    def counts(self) -> dict[RolitColor, int]:
        """Balls of all four colours (neutral ones included)."""
        return {colour: n for colour, n in zip(RolitColor, self._core.counts(), strict=True)}

    def cells(self) -> list[list[int]]:
        """The board as 8 rows of ``-1`` (empty) or a colour number (0 red, 1 blue, 2 yellow, 3 green)."""
        balls = self._core.bitboards()
        flat = [-1] * (SIZE * SIZE)
        for colour, bb in enumerate(balls):
            for square in range(SIZE * SIZE):
                if bb >> square & 1:
                    flat[square] = colour
        return [flat[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]

    def reached_at(self) -> dict[RolitColor, int]:
        """For each playing colour, the first ply (0 = the position the history starts from,
        p = moves played) after which it held at least the current top score; the length
        of the history plus one if it never did. The tie rule of :meth:`outcome`."""
        history = self._core.count_history()
        scores = self.score()
        top = max(scores.values())
        return {
            colour: next((ply for ply, row in enumerate(history) if row[colour] >= top), len(history))
            for colour in scores
        }

    def outcome(self) -> Outcome | None:
        """The result once the board is full, else ``None``.

        ``scores`` holds each playing colour's balls; the most balls wins. When several
        colours share the top score S, ``tied`` lists them and, with the tie rule on, the
        winner is the one among them that first held S or more balls: the smallest ply p
        (0 = the position the history starts from) after which it had at least S balls.
        Only the mover's count grows in a ply, so this picks one colour unless several
        already had S balls at ply 0 (a position set up mid-game): then it is a draw.
        """
        if not self._core.is_game_over():
            return None
        scores: dict[Color, int] = {colour: n for colour, n in self.score().items()}
        top = max(scores.values())
        tied = tuple(colour for colour, n in scores.items() if n == top)
        if len(tied) == 1:
            return Outcome(tied[0], Termination.FULL_BOARD, scores)
        winner = None
        if self._tie_rule:
            reached: dict[Color, int] = {colour: ply for colour, ply in self.reached_at().items()}
            first = min(reached[c] for c in tied)
            leaders = [c for c in tied if reached[c] == first]
            if len(leaders) == 1:
                winner = leaders[0]
        return Outcome(winner, Termination.FULL_BOARD, scores, tied)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rolit):
            return NotImplemented
        return (
            self._core.colours == other._core.colours
            and self.turn == other.turn
            and self.compulsory_capture == other.compulsory_capture
            and self._core.bitboards() == other._core.bitboards()
        )

    # -- text ---------------------------------------------------------------

    def to_text(self) -> str:
        """One line: 64 characters row by row (``R`` ``B`` ``Y`` ``G`` balls, ``.`` empty),
        the colour to move and the colours that play in their order, e.g. ``'...RY... R RBYG'``."""
        body = "".join("." if v < 0 else INITIALS[v] for row in self.cells() for v in row)
        return f"{body} {self.turn.initial} {_initials(self.colours)}"

    def render(self, last_move: RolitMove | None = None, *, status: bool = False) -> str:
        """The board as the course handout draws it (``str(position)``): ``.`` empty, the
        colour's initial for a ball, one space between cells, the 1-based row and column
        numbers at both ends of every row and column. ``last_move`` (a move, as
        ``game.render(game.peek())``) is drawn in lower case; unlike Othello and Tetralath
        none is marked by default, since ``str()`` is the handout's board that bots read.
        ``status=True`` adds a line with the colour to move and the balls of each playing colour."""
        mark = -1 if last_move is None else self.parse_move(last_move).index
        return render_rolit(self.cells(), status=self._status_line() if status else None, mark=mark)

    def _status_line(self) -> str:
        balls = "  ".join(f"{c.initial} {n}" for c, n in self.score().items())
        outcome = self.outcome()
        if outcome is not None:
            return f"game over: {outcome}   {balls}"
        return f"{self.turn} to move   {balls}"

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Rolit.from_text({self.to_text()!r})"

    @classmethod
    def from_text(
        cls,
        text: str,
        *,
        colors: Any = None,
        turn: Any = None,
        compulsory_capture: bool = True,
        tie_rule: bool = True,
        backend: str | None = None,
        colours: Any = None,
        to_move: Any = None,
    ) -> Rolit:
        """Read a position: the one-line form of :meth:`to_text` (the colours that play may be
        left out, ``/`` between rows and ``-`` for empty accepted), or the board of ``str()``
        with ``turn`` (and ``colors``) given as keywords. ``colors`` defaults to the
        text's, else all four; ``turn`` to the text's, else the first that plays.
        (``colours=`` and ``to_move=`` are their older names, still accepted.)

        :raises InvalidPositionError: wrong number of squares, stray characters, a colour to
            move that does not play, an empty board.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"a position text must be a str, got {type(text).__name__}")
        colours = renamed(colors, colours, "colors", "colours")
        to_move = renamed(turn, to_move, "turn", "to_move")
        cells, text_mover, text_colours = _parse_position_text(text)
        if colours is None:
            colours = text_colours or DEFAULT_COLOURS[4]
        playing = parse_colours(colours)
        if to_move is not None:
            mover = parse_colour(to_move)
        else:  # (not ``text_mover or ...``: red is colour 0, a false int)
            mover = text_mover if text_mover is not None else playing[0]
        if text_mover is not None and to_move is not None and parse_colour(to_move) != text_mover:
            raise InvalidPositionError(f"the text says {text_mover} to move, turn says {parse_colour(to_move)}")
        game = cls(playing, first=mover, compulsory_capture=compulsory_capture, tie_rule=tie_rule, backend=backend)
        balls = [0, 0, 0, 0]
        for square, v in enumerate(cells):
            if v >= 0:
                balls[v] |= 1 << square
        game._core.set_board((balls[0], balls[1], balls[2], balls[3]), int(mover))
        return game

    @classmethod
    def from_cells(
        cls,
        rows: Iterable[Iterable[int]],
        *,
        colors: Any = None,
        turn: Any = None,
        compulsory_capture: bool = True,
        tie_rule: bool = True,
        backend: str | None = None,
        colours: Any = None,
        to_move: Any = None,
    ) -> Rolit:
        """A position from 8 rows of ``-1`` (empty) or a colour number (as :meth:`cells`
        returns), with the options of :meth:`from_text` and its checks."""
        try:
            grid = [list(row) for row in rows]
        except TypeError as exc:
            raise InvalidPositionError(f"rows must be iterables of cells: {exc}") from exc
        if len(grid) != SIZE or any(len(row) != SIZE for row in grid):
            raise InvalidPositionError(f"the board has {SIZE} rows of {SIZE} squares")
        if any(
            isinstance(v, bool) or not hasattr(type(v), "__index__") or v not in (-1, 0, 1, 2, 3)
            for row in grid
            for v in row
        ):
            raise InvalidPositionError("cells must be -1 (empty) or a colour number 0-3")
        text = "".join("." if v < 0 else INITIALS[int(v)] for row in grid for v in row)
        return cls.from_text(
            text,
            colors=renamed(colors, colours, "colors", "colours"),
            turn=renamed(turn, to_move, "turn", "to_move"),
            compulsory_capture=compulsory_capture,
            tie_rule=tie_rule,
            backend=backend,
        )

    def places(self) -> list[int]:
        """The finishing place of each player, in the order of play, once the game is over (0
        best): the winner first (the tie rule decides a tie at the top), then the others by
        their balls; equal balls share a place."""
        outcome = self._final_outcome()
        balls = list(outcome.scores.values())
        places = [sum(1 for other in balls if other > mine) for mine in balls]
        if outcome.winner is not None:
            winner = list(outcome.scores).index(outcome.winner)
            places = [0 if player == winner else max(1, place) for player, place in enumerate(places)]
        return places

    def scores(self) -> dict[RolitColor, int]:  # type: ignore[override]
        """Balls of each colour that plays, in the order of play (neutral colours left out);
        when the game is over, equal to ``outcome().scores``."""
        return self.score()

    @classmethod
    def from_moves(
        cls,
        moves: str | Iterable[Any],
        *,
        colors: Any = None,
        players: int | None = None,
        first: Any = None,
        compulsory_capture: bool = True,
        tie_rule: bool = True,
        backend: str | None = None,
        colours: Any = None,
    ) -> Rolit:
        """The position after a sequence of moves (``'f4 c4 ...'`` or an iterable of moves) from
        the start of the game the options make, as for :class:`Rolit`.

        :raises IllegalMoveError: a move that is not legal where it is played.
        """
        if isinstance(moves, str):
            moves = moves.replace(",", " ").split()
        game = cls(
            colors,
            players=players,
            first=first,
            compulsory_capture=compulsory_capture,
            tie_rule=tie_rule,
            backend=backend,
            colours=colours,
        )
        for move in moves:
            game.push(move)
        return game


def _initials(colours: Iterable[RolitColor]) -> str:
    return "".join(c.initial for c in colours)


def _restore(
    colours: tuple[int, ...],
    compulsory: bool,
    tie_rule: bool,
    balls: tuple[int, int, int, int],
    colour_to_move: int,
    moves: list[int],
    backend: str,
) -> Rolit:
    """A position from plain data (pickling): on ``backend`` if it loads here, else the default."""
    try:
        _backend.load(backend)
    except BackendUnavailableError:
        backend = _backend.BACKEND
    game = Rolit(colours, first=colour_to_move, compulsory_capture=compulsory, tie_rule=tie_rule, backend=backend)
    game._core.set_board(balls, colour_to_move)
    game._core.replay(moves)
    return game


def render_rolit(cells: list[list[int]], status: str | None = None, mark: int = -1) -> str:
    """Draw 8 rows of cells (-1 empty, 0..3 a colour) as the course handout does, the ball
    on square ``mark`` (the last move) in lower case."""
    header = "  " + " ".join(str(c + 1) for c in range(SIZE))
    lines = [header]
    for r, row in enumerate(cells):
        body = " ".join(
            "." if v < 0 else INITIALS[v].lower() if r * SIZE + c == mark else INITIALS[v] for c, v in enumerate(row)
        )
        lines.append(f"{r + 1} {body} {r + 1}")
    lines.append(header)
    if status:
        lines.append(status)
    return "\n".join(lines)


def _parse_position_text(text: str) -> tuple[list[int], RolitColor | None, str | None]:
    """Cells, colour to move (or None) and playing colours (or None) from either text form."""
    lines, parts = split_position_text(text)
    if parts is not None:
        if not 1 <= len(parts) <= 3:
            raise InvalidPositionError("expected the 64 squares, the colour to move and the colours that play")
        board = parts[0].replace("/", "")
        cells = []
        for ch in board:
            if ch.upper() not in _CELL_CHARS:
                raise InvalidPositionError(f"stray character {ch!r} in the position (use R, B, Y, G or .)")
            cells.append(_CELL_CHARS[ch.upper()])
        if len(cells) != SIZE * SIZE:
            raise InvalidPositionError(f"a Rolit position has 64 squares, got {len(cells)}")
        mover = parse_colour(parts[1]) if len(parts) > 1 else None
        return cells, mover, parts[2] if len(parts) > 2 else None
    # The handout's board: number lines, and rows with their number at both ends.
    cells = []
    for line in lines:
        tokens = line.split()
        if all(t.isdigit() for t in tokens):
            continue
        tokens = strip_row_numbers(tokens)
        if len(tokens) != SIZE:
            raise InvalidPositionError(f"a board row has 8 cells, got {line!r}")
        for token in tokens:
            if token.upper() not in _CELL_CHARS:
                raise InvalidPositionError(f"stray cell {token!r} in the board (use R, B, Y, G or .)")
            cells.append(_CELL_CHARS[token.upper()])
    if len(cells) != SIZE * SIZE:
        raise InvalidPositionError(f"the board has 8 rows of 8 cells, got {len(cells)} cells")
    return cells, None, None
