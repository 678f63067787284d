"""Text rendering of boards (shared by ``str()``, the CLI and the examples)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .othello import Move, Othello

__all__ = ["render_othello", "STYLES"]

COLUMNS = "abcdefghij"
#: name -> (black, white, empty, last black, last white, border)
STYLES = {
    "letters": ("X", "O", "-", "x", "o", None),
    "ufrj": ("○", "●", ".", "◌", "◍", "?"),
}


def render_othello(game: "Othello", style: str = "letters", last_move: Optional["Move"] = None) -> str:
    """The board with column letters and row numbers on both sides, then whose turn it is.

    ``style="letters"``: ``X`` black, ``O`` white, ``-`` empty, the last move in lower case.
    ``style="ufrj"``: the UFRJ handout's ``○`` black, ``●`` white, ``.`` empty, ``?`` border.
    """
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    black, white, empty, last_black, last_white, border = STYLES[style]
    n = game.size
    if last_move is None:
        last_move = game.peek()
    last = -1 if last_move is None or last_move.is_pass else last_move.index
    width = len(str(n))
    pad = " " * (width + 1)
    if border:  # the handout's frame: a row and a column of '?' around the board
        header = pad + "  " + " ".join(COLUMNS[:n])
        frame = pad + " ".join(border * (n + 2))
        lines = [header, frame]
    else:
        header = pad + " ".join(COLUMNS[:n])
        lines = [header]
    for r, row in enumerate(game.cells()):
        cells = []
        for c, v in enumerate(row):
            i = r * n + c
            if v == 0:
                cells.append(last_black if i == last else black)
            elif v == 1:
                cells.append(last_white if i == last else white)
            else:
                cells.append(empty)
        body = " ".join(cells)
        if border:
            body = f"{border} {body} {border}"
        lines.append(f"{r + 1:>{width}} {body} {r + 1}")
    if border:
        lines.append(frame)
    lines.append(header)
    b, w = game.score()
    # The side letter stays X/O in every style so that from_text() can read the board back.
    turn_line = f"{'XO'[game.turn]} to move" + (" (game over)" if game.is_game_over() else "")
    lines.append(f"{turn_line}   {black}: {b}  {white}: {w}")
    return "\n".join(lines)
