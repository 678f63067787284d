"""Zobrist keys shared by both backends.

The keys come from one fixed seeded generator (splitmix64), so a position has the
same hash in every backend, every process and every version of Python. The
compiled modules copy these tables into C arrays when they are imported.
"""

from __future__ import annotations

from ._game_py import MAX_PLAYERS
from ._rng import splitmix64

__all__ = ["SQUARE_KEYS", "TURN_KEYS", "MAX_PLAYERS", "MAX_CELLS"]

#: Cells a key table covers (10x10 Othello has 100).
MAX_CELLS = 128
_SEED = 0x6A09E667F3BCC908  # first 64 bits of the fractional part of sqrt(2)


def _make_keys() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    state = _SEED
    squares = []
    for _player in range(MAX_PLAYERS):
        row = []
        for _cell in range(MAX_CELLS):
            state, key = splitmix64(state)
            row.append(key)
        squares.append(tuple(row))
    turns = []
    for _player in range(MAX_PLAYERS):
        state, key = splitmix64(state)
        turns.append(key)
    # Player 0 to move adds no key, so a hash is the plain XOR of the discs then.
    turns[0] = 0
    return tuple(squares), tuple(turns)


#: ``SQUARE_KEYS[player][cell]``: XORed in while the player owns the cell.
#: ``TURN_KEYS[player]``: XORed in while the player is to move (0 for player 0).
SQUARE_KEYS, TURN_KEYS = _make_keys()
