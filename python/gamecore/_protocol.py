"""What the two bases of the game protocol (``_game_py.GameCore`` and ``_game_cy.GameCore``)
share: its constants and the check of perft's depth.

Plain Python run once per call, so written once for both backends rather than twinned
(as ``search/_results.py`` and ``search/_options.py``). The compiled base keeps the C copies
it needs at compile time (``MOVE_BUFFER``, ``PLAYER_BUFFER`` in ``pybindings/gamecore/_game_cy.pxd``).
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidLimitError

__all__ = ["MAX_MOVES", "MAX_PLAYERS", "ZERO_SUM_BOUNDS", "MAX_PERFT_DEPTH", "check_perft_depth"]

#: Upper bound on the number of legal moves of any game (10x10 Othello: 96, Tetralath: 61).
MAX_MOVES = 128
#: Most players a game may have (Rolit: 4).
MAX_PLAYERS = 4
#: ``value_bounds()`` of a two-player zero-sum game: no lower bound worth the name, sum 0.
ZERO_SUM_BOUNDS = (-(2**30), 0)
#: Perft depths stop below this: a C int counts the plies, and a depth past the longest
#: game counts the same leaves as the longest game (and takes as long).
MAX_PERFT_DEPTH = 2**31 - 1


def check_perft_depth(depth: Any) -> int:
    """``depth`` if it is an int from 0 to ``MAX_PERFT_DEPTH``, else InvalidLimitError."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_PERFT_DEPTH:
        raise InvalidLimitError(f"perft depth must be an int from 0 to {MAX_PERFT_DEPTH}, got {depth!r}")
    return int(depth)
