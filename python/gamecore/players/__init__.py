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

import math
import sys
from collections.abc import Callable
from typing import Any, Optional, TextIO

from .._rng import splitmix64
from ..errors import GamecoreError, GameOverError, InvalidLimitError
from ..games.base import Color

__all__ = [
    "Player",
    "RandomPlayer",
    "GreedyPlayer",
    "CornerPlayer",
    "PositionalPlayer",
    "EnginePlayer",
    "MCTSPlayer",
    "HumanPlayer",
    "PLAYERS",
    "make_player",
    "safe_time",
]


def safe_time(budget: float, margin: float = 0.05) -> float:
    """The time limit to give a search so that the move comes within ``budget`` seconds:
    ``budget * (1 - margin)`` less 10 ms for the work around the search, at least 10 ms.
    (The engine keeps its own margin inside the limit it is given.)"""
    return max(0.01, budget * (1.0 - margin) - 0.01)


def _legal(position: Any) -> list:
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


class RandomPlayer(Player):
    """A uniformly random legal move, from a seeded splitmix64 generator (the MCTS one):
    the n-th choice is ``moves[output_n % len(moves)]`` over the moves in square order, so a
    seed replays the same game in every backend and every Python version."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        self.seed = seed
        self.state = seed & ((1 << 64) - 1)

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        self.state, out = splitmix64(self.state)
        return moves[out % len(moves)]

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self.seed})"


def _discs_after(position: Any, move: Any) -> int:
    child = position.play(move)
    return child.score()[position.turn]


class GreedyPlayer(Player):
    """The move that leaves the most discs of its own colour (the first in square order on ties)."""

    name = "greedy"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            return moves[0]
        return max(moves, key=lambda m: _discs_after(position, m))  # max keeps the first of equals


def _square_class(move: Any, size: int) -> int:
    """0 corner, 1 other squares, 2 the X and C squares next to a corner."""
    if move.is_pass:
        return 1
    last = size - 1
    r, c = move.row, move.col
    if r in (0, last) and c in (0, last):
        return 0
    near_r = r in (0, 1, last - 1, last)
    near_c = c in (0, 1, last - 1, last)
    if near_r and near_c:
        return 2
    return 1


class CornerPlayer(Player):
    """Corner first: a corner when it can take one; otherwise it avoids the squares next to a
    corner (X and C squares) when it can; among what is left, the move with the most discs."""

    name = "corner"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            return moves[0]
        size = position.size
        return min(moves, key=lambda m: (_square_class(m, size), -_discs_after(position, m)))


class PositionalPlayer(Player):
    """One ply of positional play: the move after which the board's positional weight
    (corners 100, X squares -50, C squares -20, other edges 10, ...: see
    ``gamecore._othello_py.square_weight``) counts most for it."""

    name = "positional"

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        from ..games._othello_py import square_weight

        moves = _legal(position)
        if len(moves) == 1:
            return moves[0]
        n = position.size
        weights = [square_weight(i // n, i % n, n) for i in range(n * n)]
        me = position.turn

        def value(move: Any) -> int:
            cells = position.play(move).cells()
            total = 0
            for r, row in enumerate(cells):
                for c, v in enumerate(row):
                    if v >= 0:
                        total += weights[r * n + c] if v == me else -weights[r * n + c]
            return total

        return max(moves, key=value)


class EnginePlayer(Player):
    """Iterative-deepening alpha-beta (``gamecore.Engine``), its transposition table kept
    between moves.

    :param depth: the depth to search to (with a time limit: at most this deep).
    :param time: seconds per move (default 1 when no depth is given); the search gets
        :func:`safe_time` of it, so the answer comes within it.
    :param evaluation: an evaluation name, a ``{name: weight}`` dict or a callable.
    :param tt_mb: transposition-table size in MB.
    :param backend: ``"cython"`` or ``"python"``; default: the position's.
    :param margin: fraction of the time kept back as a safety margin.
    """

    name = "engine"

    def __init__(
        self,
        depth: int | None = None,
        time: float | None = None,
        evaluation: Any = "standard",
        tt_mb: int = 16,
        backend: str | None = None,
        margin: float = 0.05,
    ) -> None:
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
            raise ValueError(f"depth must be an int >= 1, got {depth!r}")
        if time is not None and (
            isinstance(time, bool) or not isinstance(time, (int, float)) or not 0 < time < math.inf
        ):
            raise InvalidLimitError(f"time must be a finite number of seconds > 0 (None: no limit), got {time!r}")
        if not 0.0 <= margin < 1.0:
            raise ValueError(f"margin must be in [0, 1), got {margin!r}")
        if depth is None and time is None:
            time = 1.0
        self.depth = depth
        self.time = time
        self.evaluation = evaluation
        self.tt_mb = tt_mb
        self.backend = backend
        self.margin = margin
        self._engine: Any = None
        self._engine_for()  # its table is made now, not inside the first timed move
        #: The SearchResult of the last move chosen (``None`` for a forced move).
        self.last_result: Any = None

    def _engine_for(self) -> Any:
        if self._engine is None:
            from ..search.engine import Engine

            self._engine = Engine(self.evaluation, tt_mb=self.tt_mb)
        return self._engine

    def new_game(self) -> None:
        if self._engine is not None:
            self._engine.clear()

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        if len(moves) == 1:
            self.last_result = None
            return moves[0]
        budget = self.time if time_budget is None else min(time_budget, self.time or time_budget)
        engine = self._engine_for()
        if self.backend and self.backend != position.backend:
            position = type(position).from_text(position.to_text(), backend=self.backend)
        result = engine.search(
            position,
            depth=self.depth,
            time_limit=None if budget is None else safe_time(budget, self.margin),
        )
        self.last_result = result
        move = result.move
        if move not in moves:  # a safety net: never hand back an illegal move
            raise GamecoreError(f"the engine returned {move}, not a legal move")  # pragma: no cover
        return move

    def __repr__(self) -> str:
        return f"EnginePlayer(depth={self.depth!r}, time={self.time!r}, evaluation={self.evaluation!r})"


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
        from ..search.mcts import DEFAULT_EXPLORATION

        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise ValueError(f"iterations must be an int >= 1, got {iterations!r}")
        if time is not None and (
            isinstance(time, bool) or not isinstance(time, (int, float)) or not 0 < time < math.inf
        ):
            raise InvalidLimitError(f"time must be a finite number of seconds > 0 (None: no limit), got {time!r}")
        if iterations is None and time is None:
            time = 1.0
        self.iterations = iterations
        self.time = time
        self.seed = seed
        self.exploration = DEFAULT_EXPLORATION if exploration is None else exploration
        self.max_nodes = max_nodes
        self.margin = margin
        self._mcts: Any = None
        self.last_result: Any = None

    def new_game(self) -> None:
        if self._mcts is not None:
            self._mcts.reset()

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        from ..search.mcts import MCTS

        moves = _legal(position)
        if len(moves) == 1:
            self.last_result = None
            return moves[0]
        if self._mcts is None or self._mcts.tree is not None and self._mcts._backend_name != position.backend:
            self._mcts = MCTS(self.seed, self.exploration, self.max_nodes)
        budget = self.time if time_budget is None else min(time_budget, self.time or time_budget)
        result = self._mcts.search(
            position,
            iterations=self.iterations,
            time_limit=None if budget is None else safe_time(budget, self.margin),
        )
        self.last_result = result
        return result.move

    def __repr__(self) -> str:
        return f"MCTSPlayer(iterations={self.iterations!r}, time={self.time!r}, seed={self.seed!r})"


class HumanPlayer(Player):
    """Asks a person: reads a move from ``input`` until it is legal.

    Accepts ``d3``, ``D3``, ``3 4`` (row column, 1-based) and ``pass`` when passing is the
    only move. A bad or illegal entry gets a message and a new prompt. End of input
    (Ctrl-D) raises ``EOFError``, which the terminal game turns into a clean exit.
    """

    name = "human"

    def __init__(self, input: Callable[[str], str] | None = None, output: TextIO | None = None) -> None:
        self._input = input
        self._output = output

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

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        moves = _legal(position)
        names = ", ".join(str(m) for m in moves)
        turn = position.turn
        side = str(turn) if isinstance(turn, Color) else ("black", "white")[turn]  # Rolit: four colours
        while True:
            text = self._read(f"{side} to move ({names}): ").strip()
            if not text:
                continue
            if text.lower() in ("?", "help"):
                self._say(f"Type a square like d3 (column letter, row number) or '3 4' (row, column). Legal: {names}")
                continue
            try:
                move = position.parse_move(text)
            except ValueError as exc:
                self._say(f"Cannot read {text!r}: {exc}. Type a square like d3 or '3 4' (row column).")
                continue
            if move not in moves:
                if moves[0].is_pass:
                    self._say(f"{move} is not legal: you have no move and must pass (type 'pass').")
                    continue
                reason = "the rules forbid it"
                try:
                    position.copy().push(move)
                except ValueError as exc:
                    reason = str(exc)
                self._say(f"{move} is not a legal move here ({reason}). Legal moves: {names}")
                continue
            return move


#: The names ``make_player`` knows, with the class each builds.
PLAYERS = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "corner": CornerPlayer,
    "positional": PositionalPlayer,
    "engine": EnginePlayer,
    "alphabeta": EnginePlayer,
    "mcts": MCTSPlayer,
    "human": HumanPlayer,
}
_ALIASES = {"eval": "evaluation", "t": "time", "d": "depth", "iter": "iterations", "n": "iterations"}
_INT_OPTIONS = {"depth", "seed", "iterations", "tt_mb", "max_nodes"}
_FLOAT_OPTIONS = {"time", "exploration", "margin"}


def make_player(spec: str, **defaults: Any) -> Player:
    """A player from a short spec: ``"random"``, ``"greedy"``, ``"corner"``, ``"positional"``,
    ``"engine"``, ``"mcts"``, ``"human"``, optionally with options after a colon:
    ``"engine:depth=6,time=2,eval=positional"``, ``"random:seed=3"``, ``"mcts:iterations=5000"``.

    ``defaults`` are keyword options given to the player's class when it takes them
    (the spec's own options win). Unknown names or options raise ``ValueError``.
    """
    import inspect

    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a player spec is a name like 'engine' or 'random:seed=3', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    cls = PLAYERS.get(name)
    if cls is None:
        raise ValueError(f"unknown player {name!r}; choose one of {', '.join(PLAYERS)}")
    accepted = set(inspect.signature(cls.__init__).parameters) - {"self"}
    options = {k: v for k, v in defaults.items() if k in accepted and v is not None}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        key = _ALIASES.get(key.strip().lower(), key.strip().lower())
        if not eq or key not in accepted:
            raise ValueError(
                f"player {name!r} takes no option {item!r}; options: {', '.join(sorted(accepted)) or 'none'}"
            )
        value = value.strip()
        try:
            if key in _INT_OPTIONS:
                options[key] = int(value)
            elif key in _FLOAT_OPTIONS:
                options[key] = float(value)
            else:
                options[key] = value
        except ValueError:
            raise ValueError(f"option {key} of player {name!r} needs a number, got {value!r}") from None
    return cls(**options)
