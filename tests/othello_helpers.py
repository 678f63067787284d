"""Plain helpers shared by the Othello tests (no fixtures, no hypothesis)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import othello_oracle as oracle

DATA_DIR = Path(__file__).resolve().parent / "data"
SIZES = (4, 6, 8, 10)


def read_perft_data(path: Path = DATA_DIR / "perft.txt") -> dict[tuple[int, int], int]:
    """``{(size, depth): leaves}`` from ``tests/data/perft.txt`` (``size depth leaves`` lines)."""
    table = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            size, depth, leaves = (int(v) for v in line.split())
            table[size, depth] = leaves
    return table


def play_picks(game: Any, picks: Iterable[int]) -> Any:
    """Play ``legal_moves()[k % len(legal)]`` for each ``k`` of ``picks`` until the game ends.

    Works on a public ``Othello`` and on a core (``OthelloCore``). Returns ``game``.
    """
    for k in picks:
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[k % len(legal)])
    return game


def snapshot(game: Any) -> tuple:
    """Everything observable about a public ``Othello`` position, to compare before/after."""
    return (
        game.size,
        game.to_text(),
        game.zobrist_hash(),
        game.turn,
        game.score(),
        tuple(game.move_stack),
        tuple(game.legal_moves()),
        game.is_game_over(),
        game.outcome(),
        str(game),
    )


def core_state(core: Any) -> tuple:
    """Everything observable about an ``OthelloCore``, to compare across backends."""
    return (
        core.size,
        core.bitboards(),
        core.turn,
        core.zobrist(),
        core.counts(),
        core.legal_moves(),
        core.history(),
        core.is_game_over(),
    )


def oracle_grid(game: Any) -> list[list[int]]:
    """The oracle's grid for a public ``Othello`` or a core (through the bitboards)."""
    core = getattr(game, "core", game)
    black, white = core.bitboards()
    return oracle.from_bitboards(black, white, core.size)


def bits_of(squares: Iterable[tuple[int, int]], size: int) -> int:
    """A bitboard from ``(row, col)`` pairs."""
    bb = 0
    for r, c in squares:
        bb |= 1 << (r * size + c)
    return bb
