"""``gamecore serve``: play, watch and study every game in the browser.

A local web app (Starlette on uvicorn, the optional extra ``web``: ``pip install
"gamecore[web]"``) bound to 127.0.0.1: Othello 4x4 to 10x10, Rolit with 2 to 4 colours,
Tetralath in English or Portuguese, drawn as SVG; a player per seat from the terminal's
vocabulary; undo, redo, a clickable move list, move records in and out; the engines'
thinking live; tournament replays. See docs/web.rst.

This package imports its web framework only in :mod:`gamecore.web.app`, so that the
command's options (:mod:`gamecore.web.cli`) work without the extra.
"""

__all__: list[str] = []
