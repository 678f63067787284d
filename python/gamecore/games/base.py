"""What every game position has in common: a backend core and its move history.

:class:`Othello`, :class:`Tetralath` and :class:`Rolit` subclass :class:`Position`. Each says
how its move codes become move objects (``move_from_code``) and how text becomes a move
(``parse_move``), and states its facts once, as class attributes (``name``, ``sizes``,
``seats``, ``players``...): :data:`GAMES`, the terminal games, the players it takes and the
referee are all read from them. The searches use the core and what ``Position`` offers on
every game (``features()``, ``EVALUATIONS``, ``player``, ``scores()``, ``copy()``...).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from .. import _backend
from ..errors import (
    BackendUnavailableError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSizeError,
    InvalidSquareError,
)
from .metadata import ColourStyle, GameOption, Geometry, square_geometry

__all__ = ["Position", "Core", "Color", "Termination", "Outcome", "GAMES"]


class Color(enum.IntEnum):
    """Base of every game's colours: an int (the player number, 0 moves first unless the game
    says otherwise) whose repr names the colour (``Othello.BLACK``) and whose str is the
    colour in words (``black``). Each game subclasses it with its own members."""

    def __repr__(self) -> str:
        return f"{self._game_name()}.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def _game_name(cls) -> str:
        # OthelloColor -> Othello: the colours are offered on the game class (Othello.BLACK).
        name = cls.__qualname__.split(".")[0]
        return name[: -len("Color")] if name.endswith("Color") and len(name) > 5 else name


class Termination(enum.Enum):
    """Why a game ended (python-chess style)."""

    #: Othello: neither side can move (two passes), the board not full.
    NO_MOVES = "neither side can move"
    #: Every square is taken (Othello, Rolit after 60 plies, a Tetralath draw).
    FULL_BOARD = "full board"
    #: Tetralath: the mover made four (or more) in a row and won.
    FOUR_IN_A_ROW = "four in a row"
    #: Tetralath: the mover made three in a row without four and lost.
    THREE_IN_A_ROW = "three in a row"


@dataclass(frozen=True)
class Outcome:
    """The end of a game, the same shape in every game.

    ``winner`` is a colour of the game, or ``None`` for a draw; ``termination`` says why the
    game ended; ``scores`` maps each colour that plays to its final count (discs, balls or
    stones); ``tied`` lists the colours level at the top when a tie rule picked the winner
    (Rolit), else it is empty.
    """

    winner: Color | None
    termination: Termination
    scores: Mapping[Color, int] = field(default_factory=dict)
    tied: tuple[Color, ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def losers(self) -> tuple[Color, ...]:
        """The colours that did not win (every colour on a draw)."""
        return tuple(c for c in self.scores if c != self.winner)

    def result(self) -> str:
        """The result in the usual short form, player 0 first: ``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``
        for two players; with more players, the winner's name (``"draw"`` on a draw)."""
        if len(self.scores) != 2:
            return "draw" if self.winner is None else str(self.winner)
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if int(self.winner) == 0 else "0-1"

    def __str__(self) -> str:
        values = list(self.scores.values())
        if len(values) == 2 and self.winner is not None:
            values.sort(reverse=True)  # as people say it: "white wins 10-6"
        counts = "-".join(str(v) for v in values)
        if self.winner is None:
            head = "draw"
        else:
            head = f"{self.winner} wins"
            if self.tied:
                head += " on the tie rule (" + ", ".join(str(c) for c in self.tied) + " level)"
        reason = self.termination.value
        if self.termination is Termination.THREE_IN_A_ROW and len(self.losers) == 1:
            reason = f"{self.losers[0]} made three in a row"
        return f"{head} {counts} ({reason})" if counts else f"{head} ({reason})"


P = TypeVar("P", bound="Position[Any]")

#: Every game by its name (``Position.name``), filled as each game class is defined.
GAMES: dict[str, type[Position[Any]]] = {}


def renamed(value: Any, older: Any, name: str, older_name: str) -> Any:
    """An option given by its name or by its older name (``colours=`` for ``colors=``, ``to_move=``
    for ``turn=``: the API spells colour as its ``Color`` class does), not both."""
    if older is None:
        return value
    if value is not None:
        raise InvalidOptionError(f"give {name}= or its older name {older_name}=, not both")
    return older


def split_position_text(text: str) -> tuple[list[str], list[str] | None]:
    """What every game's ``from_text`` reads first: the text's non-empty lines, stripped, and
    for the one-line form (a single line) its fields, before any ``;`` comment (``None`` for
    a drawn board of several lines).

    :raises InvalidPositionError: the text is empty.
    """
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        raise InvalidPositionError("empty position text")
    if len(lines) > 1:
        return lines, None
    return lines, lines[0].split(";", 1)[0].split()


def strip_row_numbers(tokens: list[str]) -> list[str]:
    """A drawn board row without the row numbers a drawing may put at either end."""
    if tokens and tokens[0].isdigit():
        tokens = tokens[1:]
    if tokens and tokens[-1].isdigit():
        tokens = tokens[:-1]
    return tokens


class _GameMove(Protocol):
    """What every game's move type has: its core code, and whether it is a pass."""

    @property
    def index(self) -> int: ...

    @property
    def is_pass(self) -> bool: ...


class Core(Protocol):
    """What the generic code (every ``Position``, :mod:`gamecore.rl`) reads of a game's core:
    :attr:`Position.core` on any game. Each game narrows it to its pure twin's class
    (``Othello().core`` is an ``OthelloCore``), which has the rest (``set_board``, Rolit's
    ``colours``, Tetralath's ``swap_rule``); the compiled cores have the same members."""

    @property
    def turn(self) -> int:
        """The player to move, from 0 in the order of play."""
        ...

    def legal_moves(self) -> list[int]:
        """The legal move codes (``[-1]`` for Othello's forced pass, ``[]`` at the end)."""
        ...

    def count_legal_moves(self) -> int:
        """``len(legal_moves())``, counted without the list."""
        ...

    def push(self, move: int) -> None:
        """Play a move code (:class:`~gamecore.IllegalMoveError` if it is not legal)."""
        ...

    def pop(self) -> int:
        """Undo the last move and return its code."""
        ...

    def history(self) -> list[int]:
        """The move codes played, first to last."""
        ...

    def is_game_over(self) -> bool: ...

    def bitboards(self) -> tuple[int, ...]:
        """One bitboard a colour, in the order of play (bit ``i``: square or cell ``i``)."""
        ...

    def counts(self) -> tuple[int, ...]:
        """Discs, balls or stones of each colour, in the order of play."""
        ...

    def perft(self, depth: int) -> int: ...

    def zobrist(self) -> int: ...

    def copy(self) -> Core: ...


#: A game's move type (``Othello`` is a ``Position[OthelloMove]``).
MoveT = TypeVar("MoveT", bound=_GameMove)
_Color = Color  # the base class, for annotations inside Position (where Color is the game's)


class Position(_backend.position_base(), Generic[MoveT]):  # type: ignore[misc]
    """A position of any game (`Othello`, `Rolit`, `Tetralath`): the moves played from its
    start, on one backend.

    Every game answers the same calls: `legal_moves()`, `push(move)` / `pop()` (play and
    take back), `play(move)` (a new position), `copy()`, `turn`, `is_game_over()`,
    `outcome()`, `scores()`, `to_text()` / `from_text()`, `zobrist_hash()`. A game class
    also says what it is -- its sizes, colours, geometry and players (`game_options()`,
    `geometry()`, `colour_styles()`, `players`) -- for every front end to read.

    Inside: a core (`_core`) of the chosen backend does the work; the hot methods come from
    `PositionBase` (`games/_position_py.py`, compiled as `_position_cy`), over the move
    objects each game interns. Each game is a `Position` of its move type, so type checkers
    see `legal_moves() -> list[OthelloMove]`.
    """

    if TYPE_CHECKING:  # PositionBase's slots, which checkers cannot see through _backend
        __slots__ = ("_core", "_backend")
    else:
        __slots__ = ()
    _core: Core  # the backend's core object (games/_<game>_py or _cy)
    _backend: Any  # the backend's modules (gamecore._backend.load)

    if TYPE_CHECKING:  # the signatures of PositionBase's methods, typed by the game's move

        def legal_moves(self) -> list[MoveT]: ...
        def push(self, move: MoveT | str | int) -> None: ...
        def pop(self) -> MoveT: ...
        def play(self: P, move: MoveT | str | int) -> P: ...
        def copy(self: P) -> P: ...
        def is_game_over(self) -> bool: ...
        def peek(self) -> MoveT | None: ...
        @property
        def move_stack(self) -> list[MoveT]: ...
        @property
        def turn(self) -> _Color: ...

    # -- what a game says about itself, once: every registry is read from here (GAMES, the
    # -- terminal games, the players a game takes, the referee's tables, the report's pages).

    #: The game's name on the command line and in the referee (``gamecore play othello``). A
    #: game class that sets it is registered in :data:`GAMES` when it is defined.
    name: ClassVar[str] = ""
    #: The board sizes the game is played on (Tetralath: its 61 cells, Rolit: 8).
    sizes: ClassVar[tuple[int, ...]] = ()
    #: The size it is played on unless told.
    default_size: ClassVar[int] = 0
    #: The sizes a tournament plays unless told.
    tournament_sizes: ClassVar[tuple[int, ...]] = ()
    #: Players at the referee's table, one a colour of :meth:`for_size`'s game (Rolit: four).
    seats: ClassVar[int] = 2
    #: The players a seat may take: the names of :func:`gamecore.players.make_player` that
    #: play this game, the one list every front end offers (the web board's seats, ``play``,
    #: ``tournament``, ``compare``, ``bench``).
    players: ClassVar[tuple[str, ...]] = ("human", "random", "engine", "mcts", "maxn", "paranoid", "brs")
    #: The depths ``gamecore perft`` counts unless told: (compiled backend, pure Python), a second or so each.
    perft_depths: ClassVar[tuple[int, int]] = (5, 4)
    #: The player a computer's seat gets unless told (the web board's new game), and its seconds a move.
    default_opponent: ClassVar[str] = "engine"
    #: The seconds a move that computer seat gets unless told.
    default_time: ClassVar[float] = 1.0
    #: The languages its terminal and web boards speak (``lang``; English unless a course asks).
    languages: ClassVar[tuple[str, ...]] = ("en",)
    #: How a finished game may be scored for the learning adapters (:mod:`gamecore.rl`):
    #: ``"place"`` (+1 / 0 / -1 by finishing places), and a game's own (Rolit's ``"balls"``).
    rewards: ClassVar[tuple[str, ...]] = ("place",)
    #: Display colours of each colour, by colour number (``"#rrggbb"``: the web board, pictures).
    colour_display: ClassVar[tuple[str, ...]] = ()
    #: The letter of each colour in the game's text form, by colour number.
    colour_letters: ClassVar[str] = ""
    #: The board's display colours: its background, and its lines (squares) or empty cells (hexagons).
    board_display: ClassVar[tuple[str, str]] = ("#006e3c", "#142819")

    #: What an exact search's score counts (``SearchResult.score_unit``; Othello: the disc margin).
    final_score_unit: ClassVar[str] = "the final result"
    #: What a built-in evaluation's score counts where it is not its points (Othello's learned
    #: one: hundredths of a disc), by evaluation name (``SearchResult.score_unit``).
    evaluation_units: ClassVar[dict[str, str]] = {}
    #: What :meth:`default_evaluation` picks, in words (the help of ``gamecore play --eval``).
    default_evaluation_help: ClassVar[str] = "standard"
    #: Built-in evaluations by name, as weights over ``features()`` (set by each game).
    EVALUATIONS: dict[str, dict[str, int]] = {}
    #: The game's colours (an :class:`Color` subclass; each game sets it).
    Color: ClassVar[type[_Color]] = Color
    #: The game's move type (each game sets it).
    Move: type = object

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("name"):
            GAMES[cls.name] = cls

    @classmethod
    def for_size(cls: type[P], size: int | None = None, *, backend: str | None = None) -> P:
        """The starting position on a board of ``size`` (one of :attr:`sizes`; default
        :attr:`default_size`), with :attr:`seats` players: what the referee and the terminal
        game start from.

        :raises InvalidSizeError: a size the game is not played on.
        """
        size = cls.default_size if size is None else size
        if size not in cls.sizes:
            sizes = ", ".join(map(str, cls.sizes))
            raise InvalidSizeError(f"{cls.name or cls.__name__} is played on sizes {sizes}, not {size!r}")
        return cls._start(size, backend)

    @classmethod
    def _start(cls: type[P], size: int, backend: str | None) -> P:
        """:meth:`for_size` once ``size`` is checked (a game whose constructor takes a size overrides it)."""
        return cls(backend=backend)

    # -- how the game is shown, encoded and staffed (gamecore.games.metadata): the web board,
    # -- the learning adapters, the terminal games and the command line read these.

    @classmethod
    def game_options(cls) -> tuple[GameOption, ...]:
        """The options a game is set up with: ``size`` when it has several sizes, each game's
        own (Rolit's ``players``, Tetralath's ``swap``), then ``lang`` (:attr:`languages`)."""
        options = []
        if len(cls.sizes) > 1:
            options.append(GameOption("size", cls.sizes, cls.default_size, "the board size", tag="{0}x{0}"))
        options.extend(cls._own_options())
        options.append(GameOption("lang", cls.languages, cls.languages[0], "the language", start=False))
        return tuple(options)

    @classmethod
    def _own_options(cls) -> tuple[GameOption, ...]:
        """The options of the game's own (keywords of its class), between ``size`` and ``lang``."""
        return ()

    @classmethod
    def from_options(
        cls: type[P], options: Mapping[str, Any] | None = None, *, backend: str | None = None
    ) -> tuple[P, dict[str, Any]]:
        """A new game set up with ``options`` (names of :meth:`game_options`; the others take
        their defaults), and every option's value.

        :raises InvalidOptionError: an option the game does not take, or a value not among its choices.
        """
        given = dict(options or {})
        known = cls.game_options()
        unknown = sorted(set(given) - {option.name for option in known})
        if unknown:
            names = ", ".join(option.name for option in known)
            raise InvalidOptionError(f"{cls.name} takes no option {unknown[0]!r}; its options: {names}")
        values = {}
        for option in known:
            try:
                values[option.name] = option.check(given.get(option.name, option.default))
            except ValueError as exc:
                raise InvalidOptionError(str(exc)) from None
        start = {option.name: values[option.name] for option in known if option.start}
        return cls._from_start_options(start, backend), values

    @classmethod
    def _from_start_options(cls: type[P], start: dict[str, Any], backend: str | None) -> P:
        """The game of checked start options (the keywords of the class by default)."""
        return cls(**start, backend=backend)

    def start_options(self) -> dict[str, Any]:
        """The values of the start options (:meth:`game_options`) this position was set up with."""
        return {"size": self.size} if len(self.sizes) > 1 else {}

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        """The numbers of players the game may be set up for (Rolit: 2, 3 or 4)."""
        return (2,)

    def geometry(self) -> Geometry:
        """The board's cells, how they are drawn and laid out (:class:`~gamecore.games.metadata.Geometry`):
        a square board of :attr:`size` by default."""
        return square_geometry(self.size)

    @classmethod
    def colour_styles(cls) -> tuple[ColourStyle, ...]:
        """Each colour's name, letter and display colour, by colour number."""
        return tuple(
            ColourStyle(int(c), str(c), cls.colour_letters[int(c)], cls.colour_display[int(c)]) for c in cls.Color
        )

    def extra_moves(self) -> tuple[int, ...]:
        """The move codes that put nothing on a cell (Othello's pass, Tetralath's swap when the
        rule is on), in the order the learning adapters number them after the cells."""
        return ()

    def max_game_length(self) -> int:
        """The most plies a game can last: a move a cell and each extra move once by default."""
        return self.geometry().num_cells + len(self.extra_moves())

    @property
    def colors(self) -> tuple[_Color, ...]:
        """The colours that play, in order of play (player ``i`` plays ``colors[i]``)."""
        return tuple(self.Color)

    def places(self) -> list[int]:
        """The finishing place of each player, in the order of play, once the game is over
        (0 best, equal places tie): the winner first and every other player second, or all
        level on a draw. Rolit ranks the others by their balls.

        :raises InvalidPositionError: the game is not over.
        """
        outcome = self._final_outcome()
        if outcome.winner is None:
            return [0] * self.num_players
        return [0 if colour == outcome.winner else 1 for colour in self.scores()]

    def _final_outcome(self) -> Outcome:
        outcome = self.outcome()
        if outcome is None:
            raise InvalidPositionError("the game is not over yet: it has no places")
        return outcome

    @classmethod
    def _wrap(cls: type[P], core: Any, backend: Any) -> P:
        position = cls.__new__(cls)
        position._core = core
        position._backend = backend
        return position

    def wrap_core(self: P, core: Any) -> P:
        """A position of this game and backend around ``core`` (not copied): what the
        searches hand a user evaluation function for the nodes they reach."""
        return self._wrap(core, self._backend)

    def move_from_code(self, code: int) -> MoveT:
        """The move object of a core move code."""
        raise NotImplementedError

    def parse_move(self, move: Any) -> MoveT:
        """A move object from what a user passes (checks the form, not legality)."""
        raise NotImplementedError

    def features(self) -> tuple[str, ...]:
        """Names of the evaluation features, in the order the core takes the weights."""
        raise NotImplementedError

    def default_evaluation(self) -> str:
        """The built-in evaluation the engines use when given none (``"default"``, their
        default): ``"standard"`` here; Othello's learned one on a size with shipped weights."""
        return "standard"

    def exact_solver(self) -> Callable[..., tuple[Any, ...]] | None:
        """The backend's exact endgame solver for this game's cores
        (``solve_exact(core, alpha=None, beta=None, node_limit=0, time_limit=0.0)``), or
        ``None`` when the game has none."""
        return None

    def opening_book(self) -> Any:
        """The game's shipped opening book for this position's board (a
        :class:`gamecore.search.book.Book`: exact values, looked up by ``book.lookup(core)``),
        or ``None`` when the game has none."""
        return None

    @property
    def backend(self) -> str:
        """Name of the backend holding this position."""
        return str(self._backend.name)

    @property
    def core(self) -> Core:
        """The backend's core object (what the searches run on). Each game tells type
        checkers its pure twin's class (``Othello().core`` is an ``OthelloCore``): the compiled
        one has the same methods, and is what runs under the compiled backend."""
        return self._core

    @property
    def num_players(self) -> int:
        """How many players take turns: 2 here (Othello, Tetralath); Rolit says its own."""
        return 2

    @property
    def player(self) -> int:
        """The player to move as a number: 0 moves first (the index of :attr:`turn` in the
        order of play)."""
        return int(self._core.turn)

    def cells(self) -> list[list[int]]:
        """The board as rows of ``-1`` (empty) or the number of the colour on each square."""
        raise NotImplementedError

    def svg(self, **options: Any) -> Any:
        """The position as an SVG picture (:func:`gamecore.svg.board`: ``size``, ``last_move``,
        ``legal_moves``, ``labels``, ``arrows``, ``coordinates``); Jupyter shows it."""
        from ..svg import board  # noqa: PLC0415 - gamecore.svg imports the games package

        return board(self, **options)

    def _repr_svg_(self) -> str:
        """Jupyter shows a position as its board, last move and legal moves marked."""
        return str(self.svg())

    def to_text(self) -> str:
        """The position as one line of text, which ``from_text`` reads back."""
        raise NotImplementedError

    def cell(self, square: Any) -> int:
        """What is on one square (a name like ``"d4"`` or an index, as moves are written):
        ``-1`` empty, else the number of the colour there, as :meth:`cells` gives it.

        :raises InvalidSquareError: not a square of this board (``"pass"`` included).
        """
        index = self.parse_move(square).index
        board = [value for row in self.cells() for value in row]
        if not 0 <= index < len(board):  # a pass or a swap
            raise InvalidSquareError(f"{square!r} is not a square")
        return board[index]

    def distinct_moves(self) -> list[MoveT]:
        """One legal move of each set that the board's symmetries make equivalent (what the
        engine searches at the root): Tetralath's 12 symmetries; every legal move in the
        games whose positions are searched without them (Othello, Rolit)."""
        return self.legal_moves()

    def scores(self) -> dict[_Color, int]:
        """Discs, stones or balls of each colour that plays, in the order of play; when the
        game is over, equal to ``outcome().scores``."""
        return dict(zip(self._interned_colors(), self._core.counts()))

    def perft(self, depth: int) -> int:
        """Leaves of the game tree ``depth`` plies deep, counted by the backend's core (a pass
        is a ply where the game has one; a finished game is one leaf).

        :raises InvalidLimitError: a depth that is not an int from 0 to 2**31 - 1 (a depth
            past the longest game counts the same leaves as the longest game, and takes as
            long); checked once, by the cores' protocol base.
        """
        return int(self._core.perft(depth))

    def _interned_colors(self) -> tuple[Any, ...]:
        """``turn`` of each player number (the position layer looks the colour up here)."""
        return tuple(self.Color)

    def is_legal(self, move: Any) -> bool:
        """True if ``move`` can be read and is legal here."""
        try:
            code = self.parse_move(move).index
        except ValueError:
            return False
        return code in self._core.legal_moves()

    # copy.copy and copy.deepcopy are the position layer's (an independent copy); a pickle
    # holds the game's starting board and its moves, nothing of the backend, so it loads on
    # either backend (on the same one when it is there).
    def with_backend(self: P, backend: str) -> P:
        """The same position and history on another backend (``"cython"`` or ``"python"``)."""
        _backend.load(backend)  # a clear error for an unknown or missing backend (unpickling falls back)
        restore, (cls, _, state) = self.__reduce__()
        return restore(cls, backend, state)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        core = self._core.copy()
        moves = core.history()
        for _ in moves:
            core.pop()
        state = (type(core).__name__, self._core_args(), core.bitboards(), core.turn, moves)
        return _restore_position, (type(self), self.backend, state)

    def _core_args(self) -> tuple[Any, ...]:
        """The arguments that make this position's core (before its board is set)."""
        core = self._core
        if hasattr(core, "swap_rule"):
            return (bool(core.swap_rule),)
        return (core.size,) if hasattr(core, "size") else ()

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` once the game is over (player 0 first), else ``"*"``."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    def outcome(self) -> Outcome | None:
        """The :class:`Outcome` once the game is over, else ``None``."""
        raise NotImplementedError

    def zobrist_hash(self) -> int:
        """64-bit Zobrist hash of the position and side to move; the same in both backends."""
        return int(self._core.zobrist())

    __hash__ = None  # type: ignore[assignment]  # mutable


def _restore_position(cls: type[P], backend_name: str, state: tuple[Any, ...]) -> P:
    """Unpickle a position: on ``backend_name`` when it is available, else on the one in use."""
    core_name, args, bitboards, turn, moves = state
    try:
        backend = _backend.load(backend_name)
    except (BackendUnavailableError, ValueError):
        backend = _backend.selected()
    for module in vars(backend).values():
        core_class = getattr(module, core_name, None)
        if isinstance(core_class, type):
            break
    else:
        raise ValueError(f"no {core_name} in the {backend.name} backend")
    core = core_class(*args)
    core.set_board(*bitboards, turn)
    for move in moves:
        core.push(move)
    return cls._wrap(core, backend)
