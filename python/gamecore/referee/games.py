"""The games a referee can run: every game of :data:`gamecore.games.GAMES`.

A *table* is ``seats`` bots around one game (the game class's :attr:`~gamecore.games.Position.seats`);
seat 0 moves first. Othello and Tetralath are tables of two, Rolit a table of four (red, blue,
yellow, green = seats 0 to 3, the handout's order of play). The referee reads everything else
from the game class too:

- :meth:`~gamecore.games.Position.for_size`: the starting position of a size (``sizes``,
  ``tournament_sizes`` say which), whose ``legal_moves()``, ``push()``, ``turn``, ``cells()``,
  ``is_game_over()`` it uses (the gamecore position protocol);
- :meth:`~gamecore.games.Position.places`: the finishing place of every seat (0 best; equal
  places tie), and ``scores()``: the discs, stones or balls shown for a finished game;
- how a move is written on the wire: its name (``d3``, ``e5``; ``pass``);
- the data files its code reads on first use (:data:`GAME_DATA`), which the bot host reads
  before it drops to the bot's uid (:func:`preload_game_data`).

A new game joins the referee by being a registered game class; nothing here changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import GamecoreError
from ..games import GAMES, Position, _othello_patterns

__all__ = ["game_class", "start_position", "seat_scores", "GAME_DATA", "preload_game_data"]

#: What each game reads from gamecore's own files on first use, by board size (Othello: the
#: evaluation's pattern weights).
GAME_DATA: dict[str, Callable[[int], object]] = {"othello": _othello_patterns.load_table}


def preload_game_data() -> None:
    """Read every game's data files of every size now (the bot host does so before it drops
    to the bot's uid, which may not read them: a package installed under a folder closed to
    others, a venv under ``/tmp`` in ``full`` isolation)."""
    for name, load in GAME_DATA.items():
        for size in GAMES[name].sizes:
            load(size)


def game_class(name: str) -> type[Position[Any]]:
    """The class of the game called ``name``.

    :raises GamecoreError: no such game."""
    try:
        return GAMES[name]
    except KeyError:
        raise GamecoreError(f"unknown game {name!r}; the referee runs {', '.join(GAMES)}") from None


def start_position(name: str, size: int) -> Position[Any]:
    """The starting position of game ``name`` on a board of ``size``, as the referee plays it."""
    game = game_class(name)
    if size not in game.sizes:
        raise GamecoreError(f"{name} is played on sizes {', '.join(map(str, game.sizes))}, not {size}")
    return game.for_size(size)


def seat_scores(position: Position[Any]) -> list[int]:
    """The discs, stones or balls of each seat (the players in the order of play)."""
    return list(position.scores().values())
