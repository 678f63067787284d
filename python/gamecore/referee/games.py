"""The games a referee can run, behind one small "table" interface.

A *table* is ``seats`` bots around one game; seat 0 moves first. Othello and Tetralath are
tables of two, Rolit a table of four (red, blue, yellow, green = seats 0 to 3, the handout's
order of play); another game plugs in by adding a :class:`Rules` with its ``seats`` and
``places``. The referee only needs, from a game:

- a new position of a size, whose ``legal_moves()``, ``push()``, ``turn``, ``cells()``,
  ``is_game_over()`` it uses (the gamecore position protocol);
- ``places(position)``: the finishing place of every seat (0 best; equal places tie);
- how a move is written on the wire (its name: ``d3``, ``e5``; ``pass``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import GamecoreError
from ..games.othello import Othello
from ..games.rolit import Rolit
from ..games.tetralath import Tetralath

__all__ = ["Rules", "RULES", "rules_for"]


@dataclass(frozen=True)
class Rules:
    name: str
    seats: int
    sizes: tuple[int, ...]
    default_sizes: tuple[int, ...]
    new: Callable[[int], Any]
    places: Callable[[Any], list[int]]
    #: The score to show for a finished game (discs for Othello), per seat.
    score: Callable[[Any], list[int]]

    def check_size(self, size: int) -> int:
        if size not in self.sizes:
            raise GamecoreError(f"{self.name} is played on sizes {', '.join(map(str, self.sizes))}, not {size}")
        return size


def _two_places(winner: int | None) -> list[int]:
    if winner is None:
        return [0, 0]
    return [0, 1] if winner == 0 else [1, 0]


def _othello(size: int) -> Any:
    return Othello(size)


def _tetralath(size: int) -> Any:
    return Tetralath()


def _rolit(size: int) -> Any:
    return Rolit()


def _rolit_places(position: Any) -> list[int]:
    """The winner (the tie rule of the course decides a tie at the top) first, then the
    others by balls; equal balls share a place."""
    outcome = position.outcome()
    scores = [outcome.scores[c] for c in position.colours]
    places = [sum(1 for other in scores if other > mine) for mine in scores]
    if outcome.winner is not None:
        winner = list(position.colours).index(outcome.winner)
        places = [0 if seat == winner else max(1, p) for seat, p in enumerate(places)]
    return places


RULES: dict[str, Rules] = {
    "othello": Rules(
        "othello",
        2,
        (4, 6, 8, 10),
        (6, 8, 10),
        _othello,
        places=lambda p: _two_places(p.outcome().winner),
        score=lambda p: list(p.score()),
    ),
    # Tetralath has one board (61 cells); its "size" is recorded as 61.
    "tetralath": Rules(
        "tetralath",
        2,
        (61,),
        (61,),
        _tetralath,
        places=lambda p: _two_places(p.outcome().winner),
        score=lambda p: list(p.counts()),
    ),
    # Rolit has one board (8x8) and four seats.
    "rolit": Rules(
        "rolit",
        4,
        (8,),
        (8,),
        _rolit,
        places=_rolit_places,
        score=lambda p: list(p.score().values()),
    ),
}


def rules_for(name: str) -> Rules:
    try:
        return RULES[name]
    except KeyError:
        raise GamecoreError(f"unknown game {name!r}; the referee runs {', '.join(RULES)}") from None
