"""Plain helpers shared by the Othello tests (no fixtures, no hypothesis)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import othello_oracle as oracle
from gamecore import Othello
from gamecore.games import _othello_patterns as patterns

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


def score_by_hand(me: int, opp: int, weights: Any) -> int:
    """The learned pattern score read straight from the definition in _othello_patterns, for
    ``weights`` (an ``_othello_patterns.Weights``: its own stage width)."""
    n, table = weights.size, weights.table
    ps = patterns.pattern_set(n)
    empties = n * n - (me | opp).bit_count()
    base = min(max(empties - 1, 0) // weights.stage_width, weights.stages - 1) * ps.stride
    moves = Othello(n, backend="python")._backend.othello.legal_moves_mask
    mobility = moves(me, opp, n).bit_count() - moves(opp, me, n).bit_count()
    total = table[base + ps.stride - 4] + table[base + ps.stride - 3] * mobility
    total += table[base + ps.stride - 2] * (me.bit_count() - opp.bit_count())
    total += table[base + ps.stride - 1] * (1 if empties % 2 else -1)
    for shape, squares in ps.instances:
        index = 0
        for square in squares:
            index = index * 3 + (1 if me >> square & 1 else 2 if opp >> square & 1 else 0)
        total += table[base + ps.offsets[shape] + index]
    return max(-patterns.MAX_PATTERN_SCORE, min(patterns.MAX_PATTERN_SCORE, total))


def assert_keeps_the_value(endgame: Any, game: Any, line: Iterable[Any], value: int) -> None:
    """Every move of ``line`` from ``game`` keeps ``value`` (for the side to move at ``game``),
    each position after it solved again by ``endgame.solve_exact``, and the line ends the game."""
    position, expected = game.copy(), value
    for move in line:
        position.push(move)
        expected = -expected
        if not position.is_game_over():
            assert endgame.solve_exact(position.core.copy())[1] == expected, move
    assert position.is_game_over()
