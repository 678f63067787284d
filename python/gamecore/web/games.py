"""What the web board needs of each game: the options of a new game, the board's geometry,
the colours and the players each seat may have. Plain Python: no web framework here."""

from __future__ import annotations

import math
from typing import Any

from ..errors import GamecoreError
from ..games.othello import Othello
from ..games.rolit import DEFAULT_COLOURS, Rolit
from ..games.tetralath import ROW_LENGTHS, Tetralath
from ..players import EnginePlayer, GreedyPlayer, MCTSPlayer, Player, RandomPlayer

__all__ = ["BadRequest", "GAME_NAMES", "SEAT_PLAYERS", "new_position", "board_geometry", "make_seat_player"]


class BadRequest(GamecoreError):
    """A request the web board refuses (answered with a 4xx status; nothing changes)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


GAME_NAMES = ("othello", "rolit", "tetralath")
OTHELLO_SIZES = (4, 6, 8, 10)
#: The players a seat may have, per game (the terminal's vocabulary; greedy reads discs).
SEAT_PLAYERS = {
    "othello": ("human", "random", "greedy", "engine", "mcts", "maxn", "paranoid", "brs"),
    "rolit": ("human", "random", "greedy", "engine", "mcts", "maxn", "paranoid", "brs"),
    "tetralath": ("human", "random", "engine", "mcts", "maxn", "paranoid", "brs"),
}
MIN_TIME, MAX_TIME = 0.05, 60.0
#: Engines of the web board keep small tables: many sessions may hold engines at once.
WEB_TT_MB = 8
WEB_MCTS_NODES = 200_000
#: Disc and ball colours (Rolit's in the handout's order: red, blue, yellow, green).
FILL = {
    ("othello", 0): "#111111",
    ("othello", 1): "#f4f4f4",
    ("tetralath", 0): "#f4f4f4",
    ("tetralath", 1): "#111111",
    ("rolit", 0): "#d62828",
    ("rolit", 1): "#1d5fd1",
    ("rolit", 2): "#f2c200",
    ("rolit", 3): "#2a9d3a",
}
LANGUAGES = ("en", "pt")


def _choice(options: dict[str, Any], key: str, allowed: tuple[object, ...], default: Any) -> Any:
    value = options.get(key, default)
    if value not in allowed or isinstance(value, bool):
        raise BadRequest(f"{key} must be one of {', '.join(map(str, allowed))}, got {str(value)[:40]!r}")
    return value


def new_position(game: Any, options: Any, backend: str | None = None) -> tuple[Any, dict[str, Any]]:
    """A fresh position of ``game`` and the options it was made with (checked)."""
    if game not in GAME_NAMES:
        raise BadRequest(f"game must be one of {', '.join(GAME_NAMES)}, got {str(game)[:40]!r}")
    if not isinstance(options, dict):
        raise BadRequest("options must be a JSON object")
    lang = _choice(options, "lang", LANGUAGES if game == "tetralath" else ("en",), "en")
    if game == "othello":
        size = _choice(options, "size", OTHELLO_SIZES, 8)
        return Othello(size, backend=backend), {"size": size, "lang": lang}
    if game == "rolit":
        players = _choice(options, "players", (2, 3, 4), 4)
        return Rolit(DEFAULT_COLOURS[players], backend=backend), {"players": players, "lang": lang}
    swap = options.get("swap", False)
    if not isinstance(swap, bool):
        raise BadRequest("swap must be true or false")
    return Tetralath(swap=swap, backend=backend), {"swap": swap, "lang": lang}


def board_geometry(game: str, position: Any) -> dict[str, Any]:
    """Every cell's index and centre in board units, and the board's extent: the page draws
    squares (Othello, Rolit) or hexagons (Tetralath) there."""
    if game == "tetralath":
        cells = []
        index = 0
        step = math.sqrt(3) / 2
        for row, length in enumerate(ROW_LENGTHS):
            for k in range(length):
                x = k + abs(4 - row) / 2 + 0.5
                cells.append({"i": index, "x": round(x, 3), "y": round(row * step + 0.6, 3)})
                index += 1
        return {"shape": "hex", "width": 9, "height": round(8 * step + 1.2, 3), "cells": cells}
    n = position.size
    cells = [{"i": r * n + c, "x": c + 0.5, "y": r + 0.5} for r in range(n) for c in range(n)]
    # Othello's columns are letters (d3); Rolit's numbers, as its moves are said (row column: "3 4")
    columns = [str(c + 1) for c in range(n)] if game == "rolit" else [chr(ord("a") + c) for c in range(n)]
    return {"shape": "square", "width": n, "height": n, "rows": n, "columns": columns, "cells": cells}


def flat_cells(position: Any) -> list[int]:
    """The owner of every cell in index order (-1 empty; a colour's number)."""
    return [v for row in position.cells() for v in row]


def make_seat_player(game: str, spec: Any, seed: int) -> tuple[dict[str, Any], Player | None]:
    """A seat's player from ``{"player": name, "time": seconds}`` (``None`` for a human)."""
    if not isinstance(spec, dict):
        raise BadRequest("a seat is a JSON object like {'player': 'engine', 'time': 1}")
    name = spec.get("player", "human")
    if name not in SEAT_PLAYERS[game]:
        raise BadRequest(f"player must be one of {', '.join(SEAT_PLAYERS[game])} in {game}, got {str(name)[:40]!r}")
    seconds = spec.get("time", 1.0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not MIN_TIME <= seconds <= MAX_TIME:
        raise BadRequest(f"time must be a number of seconds from {MIN_TIME} to {MAX_TIME:g}, got {str(seconds)[:40]!r}")
    seat = {"player": name, "time": float(seconds)}
    player: Player | None
    if name == "human":
        player = None
    elif name == "random":
        player = RandomPlayer(seed)
    elif name == "greedy":
        player = GreedyPlayer()
    elif name == "mcts":
        player = MCTSPlayer(time=seconds, seed=seed, max_nodes=WEB_MCTS_NODES)
    else:
        algorithm = None if name == "engine" else name
        player = EnginePlayer(time=seconds, tt_mb=WEB_TT_MB, algorithm=algorithm)
    return seat, player
