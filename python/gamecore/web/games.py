"""What the web board needs of each game, read from the game's class (``GAMES``): the options
of a new game, the board's geometry, the colours and the players each seat may have. Plain
Python: no web framework here, and no game named: a game registered in ``GAMES`` is on the board."""

from __future__ import annotations

import itertools
import json
from typing import Any

from ..errors import GamecoreError
from ..games import GAMES
from ..games.base import Position
from ..players import Player, make_player
from ..ui import GAME_UIS
from ..ui.play import playing_colours

__all__ = [
    "BadRequest",
    "game_class",
    "seat_players",
    "new_position",
    "board_geometry",
    "colour_fills",
    "default_seats",
    "make_seat_player",
    "games_menu",
    "setup_key",
]


class BadRequest(GamecoreError):
    """A request the web board refuses (answered with a 4xx status; nothing changes)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


MIN_TIME, MAX_TIME = 0.05, 60.0
#: Engines of the web board keep small tables: many sessions may hold engines at once.
WEB_TT_MB = 8
WEB_MCTS_NODES = 200_000


def game_class(game: Any) -> type[Position[Any]]:
    """The class of a game named in a request (:class:`BadRequest` for any other name)."""
    cls = GAMES.get(game) if isinstance(game, str) else None
    if cls is None:
        raise BadRequest(f"game must be one of {', '.join(GAMES)}, got {str(game)[:40]!r}")
    return cls


def seat_players(game: str) -> tuple[str, ...]:
    """The players a seat may have: the game's own list (``Othello.players``)."""
    return game_class(game).players


def new_position(game: Any, options: Any, backend: str | None = None) -> tuple[Any, dict[str, Any]]:
    """A fresh position of ``game`` and the options it was made with (checked: the game's
    :meth:`~gamecore.games.Position.game_options`)."""
    cls = game_class(game)
    if not isinstance(options, dict):
        raise BadRequest("options must be a JSON object")
    try:
        return cls.from_options(options, backend=backend)
    except GamecoreError as exc:
        raise BadRequest(str(exc)) from None


def board_geometry(position: Position[Any]) -> dict[str, Any]:
    """Every cell's index and centre in board units, and the board's extent: the page draws
    squares or hexagons (``shape``) there, and a square board's column and row labels."""
    geometry = position.geometry()
    cells = [{"i": i, "x": x, "y": y} for i, (x, y) in enumerate(geometry.centres)]
    shown: dict[str, Any] = {"shape": geometry.shape, "width": geometry.width, "height": geometry.height}
    if geometry.column_labels:
        shown.update(rows=len(geometry.row_labels), columns=list(geometry.column_labels))
    shown["cells"] = cells
    return shown


def colour_fills(position: Position[Any]) -> dict[int, str]:
    """The display colour of each of the game's colours, by colour number."""
    return {style.number: style.display for style in position.colour_styles()}


def default_seats(position: Position[Any]) -> list[dict[str, Any]]:
    """A new game's seats unless told: a person first, then the game's computer player."""
    cls = type(position)
    computer = {"player": cls.default_opponent, "time": cls.default_time}
    return [{"player": "human"}, *[dict(computer) for _ in range(position.num_players - 1)]]


def setup_key(values: dict[str, Any]) -> str:
    """The key of a set of option values in the menu's ``seats`` table: compact JSON, as the
    page's ``JSON.stringify`` writes the same object."""
    return json.dumps(values, separators=(",", ":"))


def _seat_names(cls: type[Position[Any]], values: dict[str, Any]) -> list[str]:
    """The colour of each seat, in order of play, of a game set up with ``values``."""
    position, checked = cls.from_options(values)
    ui = GAME_UIS[cls.name]
    return [ui.colour_name(colour, checked["lang"]).lower() for colour in playing_colours(position)]


def games_menu() -> list[dict[str, Any]]:
    """Every registered game as the page's menus offer it, so that the page names no game:
    its options (choices, default), its seat players and a new seat's defaults, and the seats'
    colour names for each setting of the options that change them (``seat_options``: Rolit's
    ``players``, Tetralath's ``lang``), keyed by :func:`setup_key` of those options' values."""
    menu = []
    for name, cls in GAMES.items():
        options = cls.game_options()
        defaults = {o.name: o.default for o in options}
        plain = _seat_names(cls, defaults)
        shaping = [o for o in options if any(_seat_names(cls, {**defaults, o.name: c}) != plain for c in o.choices)]
        seats = {}
        for choice in itertools.product(*(o.choices for o in shaping)):
            values = dict(zip((o.name for o in shaping), choice))
            seats[setup_key(values)] = _seat_names(cls, {**defaults, **values})
        menu.append(
            {
                "game": name,
                "title": cls.__name__,
                "options": [
                    {"name": o.name, "choices": list(o.choices), "default": o.default, "help": o.help} for o in options
                ],
                "players": list(cls.players),
                "default_opponent": cls.default_opponent,
                "default_time": cls.default_time,
                "seat_options": [o.name for o in shaping],
                "seats": seats,
            }
        )
    return menu


def flat_cells(position: Any) -> list[int]:
    """The owner of every cell in index order (-1 empty; a colour's number)."""
    return [v for row in position.cells() for v in row]


def make_seat_player(game: str, spec: Any, seed: int) -> tuple[dict[str, Any], Player | None]:
    """A seat's player from ``{"player": name, "time": seconds}`` (``None`` for a human): the
    game's player of that name (:func:`gamecore.players.make_player`), with the web board's
    small tables."""
    if not isinstance(spec, dict):
        raise BadRequest("a seat is a JSON object like {'player': 'engine', 'time': 1}")
    name = spec.get("player", "human")
    players = seat_players(game)
    if name not in players:
        raise BadRequest(f"player must be one of {', '.join(players)} in {game}, got {str(name)[:40]!r}")
    seconds = spec.get("time", 1.0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not MIN_TIME <= seconds <= MAX_TIME:
        raise BadRequest(f"time must be a number of seconds from {MIN_TIME} to {MAX_TIME:g}, got {str(seconds)[:40]!r}")
    seat = {"player": name, "time": float(seconds)}
    if name == "human":  # a person at the page
        return seat, None
    web: dict[str, Any] = {"time": float(seconds), "seed": seed, "tt_mb": WEB_TT_MB, "max_nodes": WEB_MCTS_NODES}
    return seat, make_player(name, game=game, **web)
