"""What a game says about how it is shown, encoded and staffed, read by every front end.

A game class (:class:`~gamecore.games.Position`) states these once; the web board, the
learning adapters (:mod:`gamecore.rl`), the terminal games and the command line read them
and never ask a game's name:

- :class:`GameOption`: the options a game is set up with (Othello's ``size``, Rolit's
  ``players``, Tetralath's ``swap`` and ``lang``), their choices and defaults;
- :class:`Geometry`: its cells, where each is drawn (square or hexagon) and where each sits in
  the grid of the learning adapters' observation planes;
- :class:`ColourStyle`: each colour's name, letter and display colour.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

__all__ = ["GameOption", "Geometry", "ColourStyle", "square_geometry", "hexagon_geometry", "rgb"]


@dataclass(frozen=True)
class GameOption:
    """One option a game is set up with, as every front end offers it.

    ``name`` is the keyword of the game's class when ``start`` is true (``Othello(size=6)``),
    else an option of how the game is shown (``lang``). ``tag`` names a variant in an id
    (``"{}x{}"``: ``Othello-6x6``), or is empty when the variants share one id.
    """

    name: str
    choices: tuple[Any, ...]
    default: Any
    help: str
    start: bool = True
    tag: str = ""

    def check(self, value: Any) -> Any:
        """``value`` if it is one of :attr:`choices` (``True`` is not ``1``), else a ``ValueError``
        naming the choices (the caller raises its own kind of error)."""
        if value not in self.choices or isinstance(value, bool) != isinstance(self.default, bool):
            shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
            raise ValueError(f"{self.name} must be one of {shown}, got {str(value)[:40]!r}")
        return value


@dataclass(frozen=True)
class Geometry:
    """A board's cells, as they are drawn and as the learning adapters lay them out.

    ``centres[i]`` is the centre of cell ``i`` (the move code of a placement) in board units,
    where a cell is 1 wide; ``width`` and ``height`` bound the drawing. ``shape`` is how a
    cell is drawn: ``"square"`` or ``"hex"`` (a pointy-top hexagon). ``grid`` is the
    ``(rows, columns)`` array the observation planes use and ``grid_index[i]`` the place of
    cell ``i`` in it, row-major; grid squares no cell takes stay 0. ``column_labels`` and
    ``row_labels`` name the columns and rows along a square board's edges (empty for a hexagon).
    """

    shape: str
    width: float
    height: float
    centres: tuple[tuple[float, float], ...]
    grid: tuple[int, int]
    grid_index: tuple[int, ...]
    column_labels: tuple[str, ...] = ()
    row_labels: tuple[str, ...] = ()

    @property
    def num_cells(self) -> int:
        return len(self.centres)


@dataclass(frozen=True)
class ColourStyle:
    """How one colour is shown: its name (``"black"``), the letter of the game's text form
    (``"X"``) and a display colour (``"#111111"``, as the web board and the pictures paint it)."""

    number: int
    name: str
    letter: str
    display: str


def rgb(display: str) -> tuple[int, int, int]:
    """``"#d62828"`` -> ``(214, 40, 40)``."""
    value = int(display.lstrip("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


@functools.cache
def square_geometry(size: int, columns: str = "letters") -> Geometry:
    """An ``size x size`` board of squares, index ``row * size + column``; its columns named by
    letters (``a``, ``b``...: Othello) or numbers (``1``, ``2``...: Rolit), its rows by numbers."""
    numbers = tuple(str(k + 1) for k in range(size))
    return Geometry(
        shape="square",
        width=size,
        height=size,
        centres=tuple((c + 0.5, r + 0.5) for r in range(size) for c in range(size)),
        grid=(size, size),
        grid_index=tuple(range(size * size)),
        column_labels=numbers if columns == "numbers" else tuple("abcdefghijklmnopqrstuvwxyz"[:size]),
        row_labels=numbers,
    )


@functools.cache
def hexagon_geometry(row_lengths: tuple[int, ...]) -> Geometry:
    """A hexagon of hexagonal cells, rows top to bottom of ``row_lengths`` cells (Tetralath:
    5, 6, ... 9, ... 5), index row by row. Rows are ``sqrt(3)/2`` apart, each row centred;
    the grid is the hexagon in axial coordinates (row ``r`` starts at column
    ``max(0, middle - r)``) in a square of the longest row."""
    widest = max(row_lengths)
    middle = row_lengths.index(widest)
    step = math.sqrt(3) / 2
    margin = 0.6  # a little more than a pointy-top hexagon's half-height, 1/sqrt(3)
    centres, grid_index = [], []
    for row, length in enumerate(row_lengths):
        for k in range(length):
            centres.append((round(k + (widest - length) / 2 + 0.5, 3), round(row * step + margin, 3)))
            grid_index.append(row * widest + max(0, middle - row) + k)
    return Geometry(
        shape="hex",
        width=widest,
        height=round((len(row_lengths) - 1) * step + 2 * margin, 3),
        centres=tuple(centres),
        grid=(len(row_lengths), widest),
        grid_index=tuple(grid_index),
    )
