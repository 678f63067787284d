"""Boards as SVG pictures, for every game: notebooks, reports and the docs.

>>> from gamecore import Othello
>>> from gamecore.svg import board
>>> game = Othello.from_moves("f5d6")
>>> picture = board(game, labels={"c3": "+2", "e3": "-4"}, arrows=[("f5", "d6")])
>>> picture.startswith("<svg") and "+2" in picture
True

A position shows itself in Jupyter (``_repr_svg_``) with its last move and legal moves; call
:func:`board` (or ``position.svg(...)``) for labels, arrows or another size. Each game says how
it is drawn through :meth:`~gamecore.games.Position.geometry` (squares or hexagons, the
coordinates) and its ``colour_display``/``board_display`` colours, so a new game needs no
drawing code.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .errors import GamecoreError, InvalidOptionError, InvalidSquareError
from .games.metadata import rgb

if TYPE_CHECKING:
    from .games.base import Position

__all__ = ["board", "SVG"]

#: Margin around the board for the coordinates, in cells.
MARGIN = 0.6
#: The last move's mark and the arrows' colour.
HIGHLIGHT = "#e63946"


class SVG(str):
    """An SVG picture: a ``str`` that Jupyter shows as the picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def board(
    position: Position[Any],
    *,
    size: int = 360,
    last_move: Any = True,
    legal_moves: bool = True,
    labels: Mapping[Any, object] | None = None,
    arrows: Iterable[tuple[Any, Any]] = (),
    coordinates: bool = True,
    flipped: bool = False,
    clickable: bool = False,
) -> SVG:
    """The position as an SVG picture ``size`` pixels wide.

    ``last_move``: ``True`` marks the position's last move, a move (or square) marks that one,
    ``None``/``False`` none. ``legal_moves`` puts a dot in the colour to move on each legal
    placement. ``labels`` writes a short text on squares (an engine's value on each legal
    move, as the NBoard GUI shows hints): ``{"d3": "+4", ...}``, keys as moves are written
    (names, indices or move objects). ``arrows`` draws an arrow from each first square to
    its second. ``coordinates`` names the columns and rows of a square board, and each cell
    of a hexagonal one. ``flipped`` rings the pieces the last move turned over.
    ``clickable`` lays a transparent target over every cell, in order of the move codes, that
    says the cell's name (``data-cell``), its owner (``data-owner``, -1 empty) and whether it is
    a legal placement (``data-legal``) or the last move (``data-last``): a page wires its clicks
    there (the web board draws its boards with this function).

    :raises InvalidSquareError: a label, arrow or last move naming no square of the board.
    """
    if isinstance(size, bool) or not isinstance(size, int) or not 50 <= size <= 4000:
        raise InvalidOptionError(f"size must be a whole number of pixels, 50 to 4000; got {size!r}")
    geometry = position.geometry()
    margin = MARGIN if coordinates else 0.15
    scale = size / (geometry.width + 2 * margin)
    height = round((geometry.height + 2 * margin) * scale)
    drawing = _Drawing(position, geometry, scale, margin)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
        f'viewBox="0 0 {size} {height}" font-family="sans-serif">',
        "<defs><marker id='arrowhead' viewBox='0 0 10 10' refX='8' refY='5' markerWidth='4' markerHeight='4' "
        f"orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' fill='{HIGHLIGHT}'/></marker></defs>",
        f'<rect width="{size}" height="{height}" fill="#ffffff"/>',
    ]
    parts += drawing.cells_and_pieces()
    labelled = {_square(position, square): str(text) for square, text in (labels or {}).items()}
    if coordinates:
        parts += drawing.coordinates(set(labelled))
    if legal_moves:
        parts += drawing.legal_dots(set(labelled))
    mark = _last_move(position, last_move)
    if mark is not None:
        parts.append(drawing.ring(mark))
    if flipped:
        parts += [drawing.flip_ring(cell) for cell in _flipped(position)]
    parts += [drawing.label(cell, text) for cell, text in labelled.items()]
    for start, end in arrows:
        parts.append(drawing.arrow(_square(position, start), _square(position, end)))
    if clickable:
        parts += drawing.targets(mark)
    parts.append("</svg>")
    return SVG("\n".join(parts))


def _square(position: Position[Any], square: Any) -> int:
    """The cell of a square given as moves are written (a name, an index, a move)."""
    index = square if isinstance(square, int) and not isinstance(square, bool) else position.parse_move(square).index
    if not 0 <= index < position.geometry().num_cells:
        raise InvalidSquareError(f"{square!r} is not a square of the board")
    return int(index)


def _last_move(position: Position[Any], last_move: Any) -> int | None:
    if last_move is None or last_move is False:
        return None
    if last_move is True:
        move = position.peek()
        index = getattr(move, "index", -1)
        return index if 0 <= index < position.geometry().num_cells else None
    return _square(position, last_move)


def _flipped(position: Position[Any]) -> list[int]:
    """The cells whose piece the last move turned over (changed owner)."""
    if position.peek() is None:
        return []
    before = position.copy()
    before.pop()
    was = [value for row in before.cells() for value in row]
    now = [value for row in position.cells() for value in row]
    return [cell for cell, (old, new) in enumerate(zip(was, now)) if old >= 0 and old != new]


def _ink_on(display: str) -> str:
    """Black or white, whichever reads better on ``display``."""
    red, green, blue = rgb(display)
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "#ffffff"


class _Drawing:
    """Board units (a cell is 1 wide) to pixels, and the pieces of the picture."""

    def __init__(self, position: Position[Any], geometry: Any, scale: float, margin: float) -> None:
        self.position, self.geometry, self.scale, self.margin = position, geometry, scale, margin
        self.background, self.lines = position.board_display
        self.colours = position.colour_display
        self.contents = [value for row in position.cells() for value in row]

    def xy(self, cell: int) -> tuple[float, float]:
        x, y = self.geometry.centres[cell]
        return round((x + self.margin) * self.scale, 2), round((y + self.margin) * self.scale, 2)

    def px(self, units: float) -> float:
        return round(units * self.scale, 2)

    def cells_and_pieces(self) -> list[str]:
        g, out = self.geometry, []
        if g.shape == "square":
            left = top = self.px(self.margin)
            out.append(
                f'<rect x="{left}" y="{top}" width="{self.px(g.width)}" height="{self.px(g.height)}" '
                f'fill="{self.background}" stroke="{self.lines}" stroke-width="{self.px(0.04)}"/>'
            )
            for k in range(1, int(g.width)):
                x = self.px(self.margin + k)
                out.append(
                    f'<line x1="{x}" y1="{top}" x2="{x}" y2="{top + self.px(g.height)}" stroke="{self.lines}" '
                    f'stroke-width="{self.px(0.025)}"/>'
                )
            for k in range(1, int(g.height)):
                y = self.px(self.margin + k)
                out.append(
                    f'<line x1="{left}" y1="{y}" x2="{left + self.px(g.width)}" y2="{y}" stroke="{self.lines}" '
                    f'stroke-width="{self.px(0.025)}"/>'
                )
        else:
            for cell in range(g.num_cells):
                out.append(
                    f'<polygon class="cell" points="{self._hexagon(*self.xy(cell))}" fill="{self.background}" '
                    f'stroke="{self.lines}" stroke-width="{self.px(0.04)}"/>'
                )
        for cell, value in enumerate(self.contents):
            if value >= 0:
                x, y = self.xy(cell)
                out.append(
                    f'<circle class="piece" cx="{x}" cy="{y}" r="{self.px(0.4)}" fill="{self.colours[value]}" '
                    f'stroke="#000000" stroke-opacity="0.6" stroke-width="{self.px(0.03)}"/>'
                )
        return out

    def coordinates(self, labelled: set[int]) -> list[str]:
        g, out = self.geometry, []
        font = self.px(0.3)
        for k, name in enumerate(g.column_labels):
            x, y = self.px(self.margin + k + 0.5), self.px(self.margin * 0.55)
            out.append(self._text(x, y, name, font, "#333333", "coordinate"))
        for k, name in enumerate(g.row_labels):
            x, y = self.px(self.margin * 0.5), self.px(self.margin + k + 0.5)
            out.append(self._text(x, y, name, font, "#333333", "coordinate"))
        if g.shape != "square":  # hexagons: each empty cell its name
            for cell, value in enumerate(self.contents):
                if value < 0 and cell not in labelled:
                    x, y = self.xy(cell)
                    name = str(self.position.move_from_code(cell))
                    out.append(
                        self._text(x, y, name, self.px(0.26), _ink_on(self.background), "coordinate", opacity=0.6)
                    )
        return out

    def legal_dots(self, labelled: set[int]) -> list[str]:
        try:
            moves = self.position.legal_moves()
        except GamecoreError:
            return []
        cells = [i for i in (getattr(move, "index", -1) for move in moves) if 0 <= i < self.geometry.num_cells]
        if len(cells) == self.contents.count(-1):
            return []  # every empty cell is legal (Tetralath): dots would say nothing
        colour = self.colours[int(self.position.turn)]
        # the mover's colour, ringed in black or white, whichever reads on it: a black dot on
        # Othello's green had too little contrast (issue 33), the ring stands out on any board
        ring = _ink_on(colour)
        out = []
        for index in sorted(set(cells) - labelled):  # a label says more than a dot
            x, y = self.xy(index)
            out.append(
                f'<circle class="legal" cx="{x}" cy="{y}" r="{self.px(0.11)}" fill="{colour}" '
                f'stroke="{ring}" stroke-width="{self.px(0.035)}"/>'
            )
        return out

    def ring(self, cell: int) -> str:
        x, y = self.xy(cell)
        return (
            f'<circle class="last" cx="{x}" cy="{y}" r="{self.px(0.14)}" fill="{HIGHLIGHT}" stroke="#ffffff" '
            f'stroke-width="{self.px(0.035)}"/>'
        )

    def flip_ring(self, cell: int) -> str:
        x, y = self.xy(cell)
        ink = _ink_on(self.colours[self.contents[cell]])  # dashed black or white: it shows on any piece
        return (
            f'<circle class="flipped" cx="{x}" cy="{y}" r="{self.px(0.3)}" fill="none" stroke="{ink}" '
            f'stroke-width="{self.px(0.05)}" stroke-dasharray="{self.px(0.1)} {self.px(0.07)}"/>'
        )

    def targets(self, last: int | None) -> list[str]:
        """A transparent shape over each cell, carrying what a page needs to know of it."""
        try:
            legal = {getattr(move, "index", -1) for move in self.position.legal_moves()}
        except GamecoreError:
            legal = set()
        out = []
        for cell, value in enumerate(self.contents):
            x, y = self.xy(cell)
            if self.geometry.shape == "square":
                half = self.px(0.5)
                shape = (
                    f'<rect x="{round(x - half, 2)}" y="{round(y - half, 2)}" width="{2 * half}" height="{2 * half}"'
                )
            else:
                shape = f'<polygon points="{self._hexagon(x, y)}"'
            name = escape(str(self.position.move_from_code(cell)))
            extra = (' data-legal="1"' if cell in legal else "") + (' data-last="1"' if cell == last else "")
            out.append(f'{shape} class="hit" fill="transparent" data-cell="{name}" data-owner="{value}"{extra}/>')
        return out

    def _hexagon(self, x: float, y: float) -> str:
        """The corners of a pointy-top hexagon 1 wide (corner radius 1/sqrt(3)) around ``(x, y)``."""
        radius = 1 / math.sqrt(3) * 0.97
        return " ".join(
            f"{x + self.px(radius * math.cos(math.radians(a))):.2f},{y + self.px(radius * math.sin(math.radians(a))):.2f}"
            for a in range(-90, 270, 60)
        )

    def label(self, cell: int, text: str) -> str:
        value = self.contents[cell]
        under = self.colours[value] if value >= 0 else self.background
        x, y = self.xy(cell)
        return self._text(x, y, text, self.px(0.32 if len(text) <= 3 else 0.24), _ink_on(under), "label", bold=True)

    def arrow(self, start: int, end: int) -> str:
        (x1, y1), (x2, y2) = self.xy(start), self.xy(end)
        length = math.hypot(x2 - x1, y2 - y1)
        if length > self.px(0.8):  # from the edge of the first cell to the edge of the second
            dx, dy = (x2 - x1) / length, (y2 - y1) / length
            x1, y1 = round(x1 + dx * self.px(0.35), 2), round(y1 + dy * self.px(0.35), 2)
            x2, y2 = round(x2 - dx * self.px(0.3), 2), round(y2 - dy * self.px(0.3), 2)
        return (
            f'<line class="arrow" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{HIGHLIGHT}" stroke-opacity="0.8" '
            f'stroke-width="{self.px(0.12)}" stroke-linecap="round" marker-end="url(#arrowhead)"/>'
        )

    @staticmethod
    def _text(
        x: float, y: float, text: str, font: float, colour: str, kind: str, *, bold: bool = False, opacity: float = 1
    ) -> str:
        weight = ' font-weight="bold"' if bold else ""
        return (
            f'<text class="{kind}" x="{x}" y="{y}" font-size="{font}" fill="{colour}" fill-opacity="{opacity}" '
            f'text-anchor="middle" dominant-baseline="central"{weight}>{escape(text)}</text>'
        )
