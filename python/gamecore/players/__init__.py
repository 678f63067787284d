"""Built-in players behind one small interface: ``choose_move(position, time_budget=None) -> Move``.

>>> from gamecore import Othello
>>> from gamecore.players import GreedyPlayer, RandomPlayer
>>> game = Othello()
>>> GreedyPlayer().choose_move(game)
Othello.Move('d3')
>>> RandomPlayer(seed=1).choose_move(game) in game.legal_moves()
True

A player never changes the position it is given. ``time_budget`` (seconds) is the
most the move may take; players that think use it instead of their own time
setting, keeping a safety margin. The same players drive the terminal game
(``gamecore play``), the course adapters and the tournament referee.

``make_player("engine:depth=6,eval=positional")`` builds a player from the short
strings the command line takes.
"""

from __future__ import annotations

import inspect
import math
import sys
from collections.abc import Callable, Collection
from time import perf_counter
from typing import Any, TextIO

from .. import _backend
from .._rng import splitmix64
from ..errors import GamecoreError, InvalidLimitError, InvalidOptionError
from ..games import GAMES
from ..search.engine import ALGORITHMS, Engine
from ..search.mcts import DEFAULT_EXPLORATION, MCTS
from .base import Player, game_move_time, safe_time
from .base import legal_moves_or_raise as _legal
from .othello import CornerPlayer, GreedyPlayer, PositionalPlayer

__all__ = [
    "Player",
    "RandomPlayer",
    "GreedyPlayer",
    "CornerPlayer",
    "PositionalPlayer",
    "EnginePlayer",
    "MCTSPlayer",
    "HumanPlayer",
    "QuitGame",
    "UndoMove",
    "HUMAN_COMMANDS",
    "HUMAN_TEXTS",
    "PLAYERS",
    "player_names",
    "make_player",
    "read_options",
    "safe_time",
]


class RandomPlayer(Player):
    """A uniformly random legal move, from a seeded splitmix64 generator (the MCTS one):
    the n-th choice is ``moves[output_n % len(moves)]`` over the moves in square order, so a
    seed replays the same game in every backend and every Python version."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptionError(f"seed must be an int, got {type(seed).__name__}")
        self.seed = seed
        self.state = seed & ((1 << 64) - 1)

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        self.state, out = splitmix64(self.state)
        return moves[out % len(moves)]

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self.seed})"


def _check_count(name: str, value: Any) -> None:
    """A depth or an iteration count: an int >= 1, or ``None`` (no such limit)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidLimitError(f"{name} must be an int >= 1 (None: no limit), got {value!r}")


def _check_seconds(name: str, value: Any) -> None:
    """A time: a finite number of seconds > 0, or ``None`` (no such limit)."""
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf
    ):
        raise InvalidLimitError(f"{name} must be a finite number of seconds > 0 (None: no limit), got {value!r}")


def _check_margin(margin: Any) -> None:
    """The fraction of a move's time a player keeps back: in [0, 1)."""
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0.0 <= margin < 1.0:
        raise InvalidOptionError(f"margin must be a number in [0, 1), got {margin!r}")


#: Names of weights gamecore shipped before, kept so that today's engine can be measured
#: against them (``engine:weights=v2``): name -> file in the package's data folder.
PREVIOUS_WEIGHTS = {"v2": "othello8-v2.patterns"}


def previous_weights(name: str) -> Any:
    """The loaded weights an earlier gamecore shipped under ``name`` (``PREVIOUS_WEIGHTS``)."""
    from ..games import _othello_patterns as patterns  # noqa: PLC0415

    return patterns.load_weights(patterns.data_path(PREVIOUS_WEIGHTS[name]))


class EnginePlayer(Player):
    """Iterative-deepening alpha-beta (``gamecore.Engine``), its transposition table kept
    between moves; in a game of more than two players (Rolit) its n-player form, paranoid.

    :param depth: the depth to search to (with a time limit: at most this deep).
    :param time: seconds per move (default 1 when no depth is given); the search gets
        :func:`safe_time` of it, so the answer comes within it.
    :param evaluation: an evaluation name (``"default"``: the engine's, see
        :class:`~gamecore.Engine`), a ``{name: weight}`` dict or a callable.
    :param tt_mb: transposition-table size in MB.
    :param backend: ``"cython"`` or ``"python"``; default: the position's.
    :param margin: fraction of the time kept back as a safety margin (the engine keeps its
        own inside what it is given: with the defaults a move of 0.2 s or more uses 85-95 % of
        ``time``).
    :param algorithm: one of :data:`gamecore.search.engine.ALGORITHMS`; ``None``:
        ``"alphabeta"`` with two players, ``"paranoid"`` (alpha-beta against the coalition
        of the others) with more.
    :param game_time: seconds for all of this player's moves in a game (wall clock, from
        ``new_game()``): each move gets :func:`~gamecore.players.base.game_move_time` of
        what is left (with ``time`` too: at most ``time``).
    :param clock: what ``time`` measures, as :class:`~gamecore.Engine`'s ``clock``:
        ``"wall"`` or ``"cpu"`` (the same work on a loaded machine: for matches).
    :param seed: seed of the engine's random choices (``algorithm="mcts"``'s playouts), as
        :class:`~gamecore.Engine`'s ``seed``.
    :param mpc: alpha-beta's Multi-ProbCut, as :class:`~gamecore.Engine`'s ``mpc``
        (``"engine:mpc=off"`` in a spec); ``None``: the engine's default.
    :param mpc_t: Multi-ProbCut's cut threshold, as :class:`~gamecore.Engine`'s ``mpc_t``.
    :param book: Othello's opening book, as :class:`~gamecore.Engine`'s ``book``
        (``"engine:book=off"`` in a spec); ``None``: the engine's default (on, 6x6).
    :param weights: a learned-evaluation weights file (``gamecore train othello``'s
        ``othello8.patterns``) used instead of the shipped weights, as
        :class:`~gamecore.Engine`'s ``weights`` (``"engine:weights=PATH"`` in a spec; ``v2``
        names the weights gamecore shipped before its archive-trained ones).
    """

    name = "engine"

    def __init__(
        self,
        depth: int | None = None,
        time: float | None = None,
        evaluation: Any = "default",
        tt_mb: int = 16,
        backend: str | None = None,
        margin: float = 0.02,
        algorithm: str | None = None,
        game_time: float | None = None,
        clock: str = "wall",
        seed: int = 0,
        mpc: bool | None = None,
        mpc_t: float | None = None,
        weights: str | None = None,
        book: bool | None = None,
    ) -> None:
        if algorithm is not None and algorithm not in ALGORITHMS:
            raise InvalidOptionError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
        _check_count("depth", depth)
        _check_seconds("time", time)
        _check_margin(margin)
        _check_seconds("game_time", game_time)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOptionError(f"seed must be an int, got {type(seed).__name__}")
        if backend is not None:
            _backend.load(backend)  # an unknown or missing backend fails here, not at the first move
        if depth is None and time is None and game_time is None:
            time = 1.0
        self.depth = depth
        self.time = time
        self.game_time = game_time
        self._game_time_used = 0.0
        self.evaluation = evaluation
        self.tt_mb = tt_mb
        self.backend = backend
        self.margin = margin
        self.algorithm = algorithm
        self.clock = clock
        self.seed = seed
        self.mpc = mpc
        self.mpc_t = mpc_t
        self.book = book
        self.weights = (
            previous_weights(weights) if isinstance(weights, str) and weights in PREVIOUS_WEIGHTS else weights
        )
        self._engines: dict[str, Any] = {}
        self._engine_for(algorithm or "alphabeta")  # its table is made now, not inside the first timed move
        #: The SearchResult of the last move chosen (``None`` for a forced move).
        self.last_result: Any = None
        #: ``progress(SearchResult)`` after each finished iteration while choosing (a true
        #: return value ends the search): the web board's live thinking.
        self.progress: Callable[[Any], Any] | None = None

    def _engine_for(self, algorithm: str) -> Any:
        engine = self._engines.get(algorithm)
        if engine is None:
            engine = self._engines[algorithm] = Engine(
                self.evaluation,
                tt_mb=self.tt_mb,
                algorithm=algorithm,
                clock=self.clock,
                seed=self.seed,
                mpc=self.mpc,
                mpc_t=self.mpc_t,
                book=self.book,
                weights=self.weights,
            )
        return engine

    @property
    def weights_size(self) -> int | None:
        """The board side of the learned-evaluation weights given (``weights``), or None."""
        weights = self._engine_for(self.algorithm or "alphabeta").weights
        return None if weights is None else int(weights.size)

    def new_game(self) -> None:
        for engine in self._engines.values():
            engine.clear()
        self._game_time_used = 0.0

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            self.last_result = None
            return moves[0]
        started = perf_counter()
        budgets = [b for b in (self.time, time_budget) if b is not None]
        if self.game_time is not None:
            budgets.append(game_move_time(self.game_time - self._game_time_used, position))
        budget = min(budgets) if budgets else None
        algorithm = self.algorithm or ("alphabeta" if getattr(position, "num_players", 2) == 2 else "paranoid")
        engine = self._engine_for(algorithm)
        if self.backend and self.backend != position.backend:
            position = type(position).from_text(position.to_text(), backend=self.backend)
        result = engine.search(
            position,
            depth=self.depth,
            time_limit=None if budget is None else safe_time(budget, self.margin),
            progress=self.progress,
        )
        self.last_result = result
        move = result.move
        if move not in moves:  # a safety net: never hand back an illegal move
            raise GamecoreError(f"the engine returned {move}, not a legal move")  # pragma: no cover
        self._game_time_used += perf_counter() - started
        return move

    def stop(self) -> None:
        """From another thread: make the move being chosen come now (a stop button)."""
        for engine in self._engines.values():
            engine.stop()

    def __repr__(self) -> str:
        chosen = "" if self.algorithm is None else f", algorithm={self.algorithm!r}"
        return f"EnginePlayer(depth={self.depth!r}, time={self.time!r}, evaluation={self.evaluation!r}{chosen})"


class MCTSPlayer(Player):
    """Monte-Carlo tree search (UCT), the tree kept between moves (see :mod:`gamecore.mcts`).

    :param iterations: iterations per move (with a time limit: at most this many).
    :param time: seconds per move (default 1 when no iteration count is given).
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        time: float | None = None,
        seed: int = 0,
        exploration: float | None = None,
        max_nodes: int = 1_000_000,
        margin: float = 0.1,
    ) -> None:
        _check_count("iterations", iterations)
        _check_seconds("time", time)
        _check_margin(margin)
        if iterations is None and time is None:
            time = 1.0
        self.iterations = iterations
        self.time = time
        self.seed = seed
        self.exploration = DEFAULT_EXPLORATION if exploration is None else exploration
        self.max_nodes = max_nodes
        self.margin = margin
        # Made now, so that a bad seed, exploration or max_nodes fails here and not at the first move.
        self._mcts: Any = MCTS(self.seed, self.exploration, self.max_nodes)
        self.last_result: Any = None
        #: ``progress(MCTSResult)`` about every 0.1 s while choosing (a true return value
        #: ends the search): the web board's live thinking.
        self.progress: Callable[[Any], Any] | None = None

    def new_game(self) -> None:
        if self._mcts is not None:
            self._mcts.reset()

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            self.last_result = None
            return moves[0]
        if self._mcts is None or self._mcts.tree is not None and self._mcts.backend != position.backend:
            self._mcts = MCTS(self.seed, self.exploration, self.max_nodes)
        budget = self.time if time_budget is None else min(time_budget, self.time or time_budget)
        result = self._mcts.search(
            position,
            iterations=self.iterations,
            time_limit=None if budget is None else safe_time(budget, self.margin),
            progress=self.progress,
        )
        self.last_result = result
        return result.move

    def stop(self) -> None:
        """From another thread: make the move being chosen come now (a stop button)."""
        if self._mcts is not None:
            self._mcts.stop()

    def __repr__(self) -> str:
        return f"MCTSPlayer(iterations={self.iterations!r}, time={self.time!r}, seed={self.seed!r})"


class QuitGame(Exception):
    """A human typed ``quit`` (the terminal game stops)."""


class UndoMove(Exception):
    """A human typed ``undo`` (the terminal game takes back their last move)."""


#: What a human may type besides a move, per command (the terminal game passes its own,
#: in the game's language).
HUMAN_COMMANDS = {"help": ("help", "h", "?"), "undo": ("undo", "u"), "quit": ("quit", "exit", "q")}
#: The lines a human player prints, in English; the terminal game passes them translated.
HUMAN_TEXTS = {
    "prompt": "{side}, your move ({moves}): ",
    "many_moves": "e.g. {example}",
    "help": "Type a move like {example}. Commands: undo (take back your last move), quit, help.",
    "help_moves": "Legal moves: {moves}",
    "cannot_read": "Cannot read {text!r}: {error}.",
    "must_pass": "{move} is not legal: you have no move and must pass (type 'pass').",
    "illegal": "{move} is not a legal move here: {reason}.",
}


class HumanPlayer(Player):
    """Asks a person, in any game: reads a move from ``input`` until it is legal.

    Reads what the game's ``parse_move`` reads (Othello ``d3``, ``D3``, ``3 4``, ``pass``;
    Tetralath ``e5``, ``swap``). A bad or illegal entry gets a message and a new prompt;
    ``help`` explains. Given ``commands`` with ``undo``/``quit`` words (the terminal game
    does), those raise :class:`UndoMove` / :class:`QuitGame`. End of input (Ctrl-D) raises
    ``EOFError``, which the terminal game turns into a clean exit.

    :param texts: the lines it prints (keys of :data:`HUMAN_TEXTS`), e.g. translated.
    :param explain: ``explain(position, text, error) -> str | None``, a game's own message
        for a move it cannot read or play (``None``: the generic one).
    :param side_name: ``side_name(colour) -> str`` for the prompt (default ``str(colour)``).
    :param move_name: ``move_name(move) -> str`` for the moves it lists (default ``str(move)``;
        Rolit: row and column, the handout's way).
    """

    name = "human"

    def __init__(
        self,
        input: Callable[[str], str] | None = None,
        output: TextIO | None = None,
        *,
        commands: dict[str, tuple[str, ...]] | None = None,
        texts: dict[str, str] | None = None,
        explain: Callable[[Any, str, Exception | None], str | None] | None = None,
        side_name: Callable[[Any], str] | None = None,
        move_name: Callable[[Any], str] | None = None,
    ) -> None:
        self._input = input
        self._output = output
        self.commands = {"help": HUMAN_COMMANDS["help"]} if commands is None else commands
        self.texts = {**HUMAN_TEXTS, **(texts or {})}
        self.explain = explain
        self.side_name = side_name or str
        self.move_name = move_name or str

    def _say(self, text: str) -> None:
        print(text, file=self._output or sys.stdout, flush=True)

    def _read(self, prompt: str) -> str:
        if self._input is not None:
            return self._input(prompt)
        out = self._output or sys.stdout
        out.write(prompt)
        out.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    def _is(self, command: str, word: str) -> bool:
        return word in self.commands.get(command, ())

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        names = ", ".join(self.move_name(m) for m in moves)
        example = self.move_name(moves[len(moves) // 2])
        shown = names if len(moves) <= 12 else self.texts["many_moves"].format(example=example)
        t = self.texts
        while True:
            prompt = t["prompt"].format(side=self.side_name(position.turn), moves=shown)
            text = self._read(prompt[:1].upper() + prompt[1:]).strip()  # a sentence: "Black, your move"
            word = text.lower()
            if not text:
                continue
            if self._is("help", word):
                if "{moves}" in t["help"]:  # a help text that lists every legal move itself
                    self._say(t["help"].format(example=example, moves=names))
                    continue
                listed = "\n" + t["help_moves"].format(moves=names) if len(moves) <= 20 else ""
                self._say(t["help"].format(example=example) + listed)
                continue
            if self._is("quit", word):
                raise QuitGame
            if self._is("undo", word):
                raise UndoMove
            try:
                move = position.parse_move(text)
            except ValueError as exc:
                message = self.explain(position, text, exc) if self.explain else None
                self._say(message or t["cannot_read"].format(text=text, error=exc))
                continue
            if move in moves:
                return move
            message = self.explain(position, text, None) if self.explain else None
            if message:
                self._say(message)
            elif moves[0].is_pass:
                self._say(t["must_pass"].format(move=move))
            else:
                try:
                    position.copy().push(move)
                    reason = "the rules forbid it"
                except ValueError as exc:
                    reason = str(exc)
                self._say(t["illegal"].format(move=move, reason=reason, moves=names))


#: The names ``make_player`` knows, with the class each builds.
PLAYERS: dict[str, type[Player]] = {
    "human": HumanPlayer,
    "random": RandomPlayer,
    "engine": EnginePlayer,
    "computer": EnginePlayer,
    "alphabeta": EnginePlayer,
    "mcts": MCTSPlayer,
    "greedy": GreedyPlayer,
    "corner": CornerPlayer,
    "positional": PositionalPlayer,
    "maxn": EnginePlayer,
    "paranoid": EnginePlayer,
    "brs": EnginePlayer,
}
#: Other names of a player (the game classes list the first name only).
_SAME_PLAYER = {"computer": "engine", "alphabeta": "engine"}
#: Players that are an engine running one search (``maxn`` is ``engine:algorithm=maxn``).
_PRESETS: dict[str, dict[str, Any]] = {name: {"algorithm": name} for name in ("maxn", "paranoid", "brs")}


def player_names(game: str | None = None) -> list[str]:
    """The names ``make_player`` knows, for one game (``"othello"``: the names its class lists
    in ``players``, see :class:`~gamecore.games.Position`) or every game."""
    if game is None:
        return list(PLAYERS)
    try:
        plays = GAMES[game].players
    except KeyError:
        raise InvalidOptionError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}") from None
    return [name for name in PLAYERS if _SAME_PLAYER.get(name, name) in plays]


_ALIASES = {"eval": "evaluation", "t": "time", "d": "depth", "iter": "iterations", "n": "iterations"}
_INT_OPTIONS = {"depth", "seed", "iterations", "tt_mb", "max_nodes", "endgame_empties"}
_FLOAT_OPTIONS = {"time", "exploration", "margin", "game_time", "mpc_t", "greedy", "history", "implicit"}
#: Options that are on or off in a spec (``engine:mpc=off``).
_SWITCH_OPTIONS = {"mpc", "mast", "book"}
_SWITCH_VALUES = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}


def read_options(text: str, accepted: Collection[str], owner: str) -> dict[str, Any]:
    """The options of a spec's ``NAME=VALUE,...`` part: ``"depth=6, t=2,eval=positional"`` ->
    ``{"depth": 6, "time": 2.0, "evaluation": "positional"}``.

    Names are case-blind, ``-`` reads as ``_``, and the short names ``t``, ``d``, ``eval``,
    ``iter`` and ``n`` stand for ``time``, ``depth``, ``evaluation`` and ``iterations``. Numbers
    are read for the options that take them, ``on``/``off`` for switches, ``none`` is ``None``
    and ``default`` leaves the option out (its default); other values stay text. ``owner``
    names what takes the options, in the errors.

    :raises InvalidOptionError: an entry that is not ``NAME=VALUE``, a name not in
        ``accepted``, a name given twice, or a value of the wrong kind.
    """
    options: dict[str, Any] = {}
    seen: set[str] = set()
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, eq, value = item.partition("=")
        key = name.strip().lower().replace("-", "_")
        key = _ALIASES.get(key, key)
        value = value.strip()
        if not eq or not key or not value:
            raise InvalidOptionError(f"{owner}: cannot read {item!r}: write NAME=VALUE")
        if key not in accepted:
            raise InvalidOptionError(
                f"{owner} takes no option {key!r}; options: {', '.join(sorted(accepted)) or 'none'}"
            )
        if key in seen:
            raise InvalidOptionError(f"{owner}: option {key!r} given twice")
        seen.add(key)
        if value.lower() == "default":
            continue  # left out: the option's own default
        if value.lower() == "none":
            options[key] = None
        elif key in _SWITCH_OPTIONS:
            if value.lower() not in _SWITCH_VALUES:
                raise InvalidOptionError(f"{owner}: option {key} is on or off, got {value!r}")
            options[key] = _SWITCH_VALUES[value.lower()]
        elif key in _INT_OPTIONS or key in _FLOAT_OPTIONS:
            try:
                options[key] = int(value) if key in _INT_OPTIONS else float(value)
            except ValueError:
                raise InvalidOptionError(f"{owner}: option {key} needs a number, got {value!r}") from None
        else:
            options[key] = value
    return options


def _nboard_player(command: str, game: str | None, defaults: dict[str, Any]) -> Player:
    from ..nboard import NBoardPlayer  # noqa: PLC0415 - gamecore.nboard imports the players

    if game not in (None, "othello"):
        raise InvalidOptionError(f"an NBoard engine plays Othello only, not {game}")
    return NBoardPlayer(command, **{k: v for k, v in defaults.items() if k in ("depth", "time") and v is not None})


def make_player(spec: str, *, game: str | None = None, size: int | None = None, **defaults: Any) -> Player:
    """A player from a short spec: `"random"`, `"greedy"`, `"corner"`, `"positional"`,
    `"engine"`, `"mcts"`, `"maxn"`, `"paranoid"`, `"brs"` (an engine running that
    n-player search), `"human"`, optionally with options after a colon:
    `"engine:depth=6,time=2,eval=positional"`, `"random:seed=3"`, `"mcts:iterations=5000"`.
    `"nboard:CMD ARGS"` (Othello) is an external NBoard engine run by that command line
    (`gamecore.nboard.NBoardPlayer`: `"nboard:edax -nboard"`).

    `defaults` are keyword options given to the player's class when it takes them
    (the spec's own options win). `game` (`"tetralath"`) refuses players that do not
    play it; `size`, the board's side when known, refuses an engine whose learned-evaluation
    weights are for another size now rather than at its first move. `computer` is `engine`.

    Raises:
        InvalidOptionError: an unknown name or option.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidOptionError(f"a player spec is a name like 'engine' or 'random:seed=3', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name == "nboard":  # nboard:CMD ARGS, an external NBoard engine: the rest is its command line
        return _nboard_player(rest, game, defaults)
    cls = PLAYERS.get(name)
    if cls is None or name not in player_names(game):
        known = ", ".join(player_names(game))
        where = f" for {game}" if game else ""
        raise InvalidOptionError(f"unknown player {name!r}{where}; choose one of {known}")
    accepted = set(inspect.signature(cls).parameters)
    options = {k: v for k, v in defaults.items() if k in accepted and v is not None}
    options.update(_PRESETS.get(name, {}))
    options.update(read_options(rest, accepted, f"player {name!r}"))
    player = cls(**options)
    weights_size = getattr(player, "weights_size", None)
    if size is not None and weights_size is not None and weights_size != size:
        raise InvalidOptionError(
            f"player {spec.strip()!r}: its weights are for {weights_size}x{weights_size}, not {size}x{size}"
        )
    return player
