"""The Python bots a host loads: gamecore's own players and the two course frameworks' players.

- :class:`BuiltinBot`: a :func:`gamecore.players.make_player` spec;
- :class:`CTUBot`: the CTU framework's ``player.py`` with ``MyPlayer(my_color, opponent_color)``,
  whose ``move(board)`` returns ``(row, col)`` or ``None``;
- :class:`UFRJBot`: the UFRJ framework's ``*_player.py``, run with ``exec``, whose
  ``play(board)`` gets a :class:`FrameworkBoard` (the conversions are
  :mod:`gamecore.adapters.ufrj`'s).

Each takes the bot's spec and the ``start`` request, and answers ``move(request, position)``
with a move's name; what the bot does wrong is a :class:`BotError` with its forfeit reason.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable
from typing import Any, Protocol

from ..adapters.ufrj import BLACK_STONE, WHITE_STONE, board_to_position, position_to_board
from ..games import Position
from ..games.othello import Move, Othello
from ..players import make_player
from .rules import BotSpec, MoveRequest, StartRequest

__all__ = ["Bot", "BotError", "BuiltinBot", "CTUBot", "UFRJBot", "FrameworkBoard", "BOTS"]


class BotError(Exception):
    """What the bot did wrong, with the forfeit reason the referee records."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class Bot(Protocol):
    """What the host serves: a loaded bot, made from its spec and the ``start`` request."""

    name: str

    def move(self, request: MoveRequest, position: Position[Any]) -> str:
        """The name of the bot's move in ``position`` (``request`` is the referee's line)."""
        ...


class BuiltinBot:
    def __init__(self, spec: BotSpec, start: StartRequest) -> None:

        self.player = make_player(spec["spec"], seed=start.get("seed", 0))
        self.name = self.player.name

    def move(self, request: MoveRequest, position: Position[Any]) -> str:
        name: str = self.player.choose_move(position, request.get("time")).name
        return name


def _check_ctu_move(value: object, size: int, legal: list[str]) -> tuple[int, int] | None:
    if value is None:
        return None
    if type(value) is not tuple:
        raise BotError(
            "bad_return",
            f"move() returned {type(value).__name__} {value!r:.80}; the CTU framework expects a tuple (row, col) or None",
        )
    if len(value) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise BotError("bad_return", f"move() returned {value!r:.80}; expected a tuple of two ints (row, col)")
    return value


class CTUBot:
    """``player.py`` with ``MyPlayer``; colours are the seats. Constructed as the course framework
    does: positionally, ``MyPlayer(my_color, opponent_color)`` on 8x8 (the CTU framework's
    headless_reversi_creator.py calls ``player_module.MyPlayer(p2_color, p1_color)`` and plays
    size 8), and ``MyPlayer(my_color, opponent_color, board_size)`` on other sizes when the
    constructor takes a third argument."""

    def __init__(self, spec: BotSpec, start: StartRequest) -> None:

        module_name = os.path.splitext(spec["entry"])[0]
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
        cls = getattr(module, "MyPlayer", None)
        if cls is None:
            raise BotError("load_error", f"{spec['entry']} defines no MyPlayer class")
        seat = start["seat"]
        self.size = start["size"]
        args: tuple[int, ...] = (seat, 1 - seat)
        if self.size != 8 and _accepts(cls, args + (self.size,)):
            args += (self.size,)
        elif not _accepts(cls, args) and _accepts(cls, args + (self.size,)):
            args += (self.size,)  # a constructor that needs board_size gets it on 8x8 too
        try:
            self.player: Any = cls(*args)  # the student's object: any type, every use guarded
        except TypeError as exc:
            shown = "MyPlayer(my_color, opponent_color" + (", board_size)" if len(args) == 3 else ")")
            raise BotError("load_error", f"{shown} failed: {exc}") from None
        self.method: Any = getattr(self.player, "move", None) or getattr(self.player, "select_move", None)
        if not callable(self.method):
            raise BotError("load_error", "MyPlayer has no move(board) method")
        self.name = str(getattr(self.player, "name", "MyPlayer"))

    def move(self, request: MoveRequest, position: Position[Any]) -> str:

        value = _check_ctu_move(self.method(request["board"]), self.size, request["legal"])
        if value is None:
            return "pass"
        row, col = value
        if not (0 <= row < self.size and 0 <= col < self.size):
            return f"off-board ({row}, {col})"
        return Move(row * self.size + col, self.size).name


def _accepts(cls: Callable[..., object], args: tuple[int, ...]) -> bool:
    """Whether ``cls(*args)`` binds to its constructor's parameters (True when unknowable)."""
    try:
        inspect.signature(cls).bind(*args)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a C type): let the call itself tell
        return True
    return True


class _FrameworkMove:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y

    def __repr__(self) -> str:
        return f"Move({self.x}, {self.y})"


class FrameworkBoard:
    """What the UFRJ framework hands a player: ``board`` (bordered grid), ``valid_moves(color)``,
    ``play(move, color)``, ``get_clone()``, ``score()``; conversions are the adapter's."""

    EMPTY, BLACK, WHITE, OUTER = ".", "○", "●", "?"

    def __init__(self, grid: list[list[str]]) -> None:
        self.board = [list(row) for row in grid]
        self._offered: dict[str, list[_FrameworkMove]] = {}  # the move objects handed out, until the board changes

    def _position(self, color: str) -> Othello:
        return board_to_position(self.board, color)

    def valid_moves(self, color: str) -> list[_FrameworkMove]:
        if color not in self._offered:
            moves = [m for m in self._position(color).legal_moves() if not m.is_pass]
            self._offered[color] = [_FrameworkMove(m.row + 1, m.col + 1) for m in moves]
        return list(self._offered[color])

    def play(self, move: Any, color: str) -> None:
        position = self._position(color)
        position.push(position.parse_move((move.x - 1, move.y - 1)))
        self.board = position_to_board(position)
        self._offered.clear()

    def get_clone(self) -> FrameworkBoard:
        return FrameworkBoard(self.board)

    def score(self) -> list[int]:
        flat = [v for row in self.board for v in row]
        return [flat.count(self.WHITE), flat.count(self.BLACK)]


class UFRJBot:
    """A UFRJ ``*_player.py``: run with ``exec``, the last name it defines is the class."""

    def __init__(self, spec: BotSpec, start: StartRequest) -> None:

        if start["game"] != "othello":
            raise BotError("load_error", "UFRJ players play Othello only")
        with open(spec["entry"], encoding="utf-8") as fh:
            source = fh.read()
        namespace: dict[str, Any] = {"__name__": "__ufrj_player__", "__builtins__": __builtins__}
        exec(compile(source, spec["entry"], "exec"), namespace)
        names = [k for k in namespace if k not in ("__name__", "__builtins__")]
        if not names:
            raise BotError("load_error", f"{spec['entry']} defines nothing")
        self.color = (BLACK_STONE, WHITE_STONE)[start["seat"]]
        self.player: Any = namespace[names[-1]](self.color)  # the student's object: any type, every use guarded
        self.name = names[-1]

    def move(self, request: MoveRequest, position: Position[Any]) -> str:
        assert isinstance(position, Othello)  # UFRJ bots are refused on other games (__init__)
        board = FrameworkBoard(position_to_board(position))
        offered = board.valid_moves(self.color)
        value = self.player.play(board)
        if value is None:
            return "pass"
        if not any(value is m for m in offered):
            if hasattr(value, "x") and hasattr(value, "y"):
                try:
                    return Move((int(value.x) - 1) * position.size + int(value.y) - 1, position.size).name
                except (TypeError, ValueError):
                    pass
            raise BotError("bad_return", f"play() returned {value!r:.80}, not one of board.valid_moves(color)")
        return Move((value.x - 1) * position.size + value.y - 1, position.size).name


#: The Python bots by the kind :func:`gamecore.referee.bots.resolve` gives them.
BOTS: dict[str, Callable[[BotSpec, StartRequest], Bot]] = {"builtin": BuiltinBot, "ctu": CTUBot, "ufrj": UFRJBot}
