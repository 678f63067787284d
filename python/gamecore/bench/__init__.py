"""Benchmarks behind ``gamecore bench``: commands that print figures, never timed tests.

Every figure is a median of several runs, and a cython/python ratio is taken on the same
work in the same run (the machines are shared and noisy).

- ``perft``: leaves per second per backend and board size, the per-leaf cost of 6x6 and
  10x10 relative to 8x8 on trees of similar size, and the cython/python ratio.
- ``search``: alpha-beta nodes per second on 8x8 midgame positions with the standard
  evaluation, the ratio, and the time to solve FFO endgame positions exactly.
- ``endgame``: the FFO positions alone (``data/ffo-40-59.obf``), one line each.
- ``mcts``: UCT iterations per second per backend and the ratio.
- ``tetralath``: Tetralath alpha-beta nodes per second per backend and the ratio; the nodes
  and time a fixed-depth engine needs on each ply of an opening (deterministic counts); and
  the depth a timed engine (the terminal game's: 64 MB table, 5 s a move) reaches on each
  ply of an engine-vs-engine opening.
"""

from __future__ import annotations

import random
import resource
import statistics
import time
from collections.abc import Callable
from functools import partial
from importlib import resources
from typing import TextIO, TypeVar

from .. import _backend
from ..games.othello import Othello
from ..games.tetralath import Tetralath
from ..search.engine import Engine
from ..search.mcts import MCTS

T = TypeVar("T")

__all__ = [
    "bench_perft",
    "bench_search",
    "bench_endgame",
    "bench_mcts",
    "bench_tetralath",
    "ffo_positions",
    "parse_range",
]

#: (size, depth) per backend: the 8x8 tree of the targets, then trees of similar size.
PERFT_TREES = {
    "cython": [(8, 11), (8, 10), (6, 11), (10, 10)],
    "python": [(8, 8), (8, 7), (6, 7), (10, 7)],
}
PERFT_RATIO_TREE = (8, 8)
FFO_FIRST = 40  # the data file's first line is FFO position 40


def median_seconds(work: Callable[[], T], runs: int) -> tuple[float, T]:
    """Median wall time of ``runs`` calls of ``work`` (at least one) and the last call's result."""
    times = []
    for _ in range(max(1, runs)):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _perft(size: int, depth: int, backend: str) -> int:
    return Othello(size, backend=backend).perft(depth)


def _mcts_iterations(size: int, iterations: int, backend: str) -> int:
    return MCTS(seed=1, backend=backend).search(Othello(size, backend=backend), iterations=iterations).iterations


def _backends(only: str | None) -> list[str]:
    return [only] if only else _backend.available()


def bench_perft(out: TextIO, runs: int = 3, backend: str | None = None, quick: bool = False) -> None:
    """Leaves/s for each backend and size, per-leaf cost vs 8x8, and the cython/python ratio.

    ``quick`` makes every tree three plies shallower (a smoke run, not figures to quote).
    """
    shallower = 3 if quick else 0
    trees = {name: [(size, depth - shallower) for size, depth in sizes] for name, sizes in PERFT_TREES.items()}
    ratio_size, ratio_depth = PERFT_RATIO_TREE[0], PERFT_RATIO_TREE[1] - shallower
    ratio_rates = {}
    for name in _backends(backend):
        print(f"{name} backend", file=out)
        rates = {}
        # Round robin over the trees: a slow spell of the shared machine hits every size
        # alike instead of one size's runs, so the per-leaf ratios stay honest.
        times: dict[tuple[int, int], list[float]] = {tree: [] for tree in trees[name]}
        leaves_of: dict[tuple[int, int], int] = {}
        for _ in range(runs):
            for size, depth in trees[name]:
                seconds, leaves_of[(size, depth)] = median_seconds(partial(_perft, size, depth, name), 1)
                times[(size, depth)].append(seconds)
        for size, depth in trees[name]:
            seconds, leaves = statistics.median(times[(size, depth)]), leaves_of[(size, depth)]
            rates[(size, depth)] = leaves / seconds
            print(
                f"  {size:>2}x{size:<2} perft({depth:>2}) = {leaves:>13,} leaves  {seconds:8.3f} s"
                f"  {leaves / seconds:>14,.0f} leaves/s",
                file=out,
                flush=True,
            )
        base = rates[trees[name][1]]
        for size, depth in trees[name][2:]:
            print(f"  per-leaf cost {size}x{size} / 8x8: {base / rates[(size, depth)]:.2f}x", file=out)
        seconds, leaves = median_seconds(partial(_perft, ratio_size, ratio_depth, name), runs)
        ratio_rates[name] = leaves / seconds
    if len(ratio_rates) == 2:
        print(
            f"cython/python ratio on 8x8 perft({ratio_depth}): {ratio_rates['cython'] / ratio_rates['python']:.0f}x",
            file=out,
        )


def midgame_positions(backend: str, count: int = 4, plies: int = 20) -> list[Othello]:
    """8x8 positions ``plies`` deep into seeded random games."""
    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        game = Othello(8, backend=backend)
        while len(game.move_stack) < plies and not game.is_game_over():
            game.push(rng.choice(game.legal_moves()))
        positions.append(game)
    return positions


def _search_rate(backend: str, depth: int, runs: int, tt_mb: int) -> tuple[float, int]:
    positions = midgame_positions(backend)

    def work() -> int:
        # A fresh engine per position: every search starts from an empty table.
        return sum(Engine("standard", tt_mb=tt_mb).search(game, depth=depth).nodes for game in positions)

    seconds, nodes = median_seconds(work, runs)
    return nodes / seconds, nodes


def bench_search(
    out: TextIO,
    runs: int = 3,
    depth: int = 6,
    deep: int = 10,
    ffo: str = "40-49",
    backend: str | None = None,
) -> int:
    """Alpha-beta nodes/s per backend, the ratio, a deeper Cython run, then FFO solving."""
    names = _backends(backend)
    # First, while the process's peak memory is still low: the peak only ever grows.
    grown = _peak_memory_growth(names[0], tt_mb=64)
    rates = {}
    for name in names:
        # A small table: allocating and touching 16 MB would cost more than these short searches.
        rate, nodes = _search_rate(name, depth, runs, tt_mb=1)
        rates[name] = rate
        print(
            f"alpha-beta {name:7s} depth {depth:>2}: {nodes:>11,} nodes {rate:>13,.0f} nodes/s (1 MB table)",
            file=out,
            flush=True,
        )
    if len(rates) == 2:
        print(f"cython/python ratio at depth {depth}: {rates['cython'] / rates['python']:.0f}x", file=out)
    if "cython" in names and deep:
        rate, nodes = _search_rate("cython", deep, runs, tt_mb=16)
        print(
            f"alpha-beta cython  depth {deep:>2}: {nodes:>11,} nodes {rate:>13,.0f} nodes/s (16 MB table)",
            file=out,
            flush=True,
        )
    tt = Engine(tt_mb=16).tt_bytes(names[0])
    print(f"transposition table: {tt / 2**20:.0f} MB allocated ({tt // 16:,} entries of 16 bytes)", file=out)
    if grown is not None:
        print(f"peak memory growth of a {names[0]} search with a 64 MB table: {grown / 2**20:.1f} MB", file=out)
    if ffo and ffo != "none":
        return bench_endgame(out, ffo, backend="cython" if "cython" in names else "python")
    return 0


def _peak_memory_growth(backend: str, tt_mb: int) -> int | None:
    """Bytes the process's peak resident memory grew by while a fresh engine with a
    ``tt_mb`` table searched a midgame position until its table was well used
    (None where the resource module is missing)."""
    game = midgame_positions(backend, count=1)[0]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    Engine(tt_mb=tt_mb).search(game, depth=9 if backend == "cython" else 5)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (after - before) * 1024  # ru_maxrss is in kilobytes on Linux


def ffo_positions() -> list[str]:
    """The lines of the FFO endgame suite 40-59 shipped with gamecore (first line: #40)."""
    text = resources.files("gamecore").joinpath("data/ffo-40-59.obf").read_text()
    return [line for line in text.splitlines() if line.strip()]


def parse_range(text: str) -> list[int]:
    """``"40-49"`` or ``"40,44,50-52"`` as a list of numbers."""
    numbers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-")
            numbers.extend(range(int(lo), int(hi) + 1))
        elif part:
            numbers.append(int(part))
    return numbers


def bench_endgame(
    out: TextIO,
    positions: str = "40-49",
    backend: str = "cython",
    node_limit: int = 0,
    time_limit: float = 0.0,
) -> int:
    """Solve FFO positions exactly, one line each; exit status 1 if any result is wrong."""
    lines = ffo_positions()
    numbers = parse_range(positions)
    for number in numbers:
        if not 0 <= number - FFO_FIRST < len(lines):
            raise ValueError(f"FFO position {number} is not shipped ({FFO_FIRST}-{FFO_FIRST + len(lines) - 1})")
    print(f"exact endgame, {backend} backend, FFO positions {positions}", file=out)
    print(
        f"{'#':>3} {'empty':>5} {'publ':>5} {'score':>5} {'move':>4} {'nodes':>14} {'seconds':>9} {'nodes/s':>12}",
        file=out,
    )
    total_nodes, total_seconds, wrong = 0, 0.0, 0
    for number in numbers:
        line = lines[number - FFO_FIRST]
        board, rest = line.split(None, 1)
        fields = [f.strip() for f in rest.split(";") if f.strip()]
        scores = {move.lower(): int(score) for move, score in (f.split(":") for f in fields[1:])}
        published = max(scores.values())
        game = Othello.from_text(f"{board} {fields[0]}", backend=backend)
        empties = 64 - sum(game.score())
        start = time.perf_counter()
        move, score, nodes, completed = game.exact_solver()(game.core, node_limit=node_limit, time_limit=time_limit)
        seconds = time.perf_counter() - start
        total_nodes += nodes
        total_seconds += seconds
        name = "--" if move is None else game.move_from_code(move).name
        if not completed:
            flag = "  stopped by a limit"
        elif score != published or scores.get(name) != published:
            flag = "  WRONG"
            wrong += 1
        else:
            flag = ""
        print(
            f"{number:>3} {empties:>5} {published:>+5} {score:>+5} {name:>4} {nodes:>14,} "
            f"{seconds:>9.2f} {nodes / max(seconds, 1e-9):>12,.0f}{flag}",
            file=out,
            flush=True,
        )
    print(
        f"total: {len(numbers)} positions, {total_nodes:,} nodes, {total_seconds:.1f} s, "
        f"{total_nodes / max(total_seconds, 1e-9):,.0f} nodes/s, {wrong} wrong",
        file=out,
    )
    return 1 if wrong else 0


def bench_mcts(out: TextIO, runs: int = 3, iterations: int = 200, size: int = 8, backend: str | None = None) -> None:
    """UCT iterations per second from the start position, per backend, and the ratio."""
    rates = {}
    for name in _backends(backend):
        seconds, done = median_seconds(partial(_mcts_iterations, size, iterations, name), runs)
        rates[name] = done / seconds
        print(f"MCTS {name:7s} {size}x{size}: {rates[name]:>12,.0f} iterations/s", file=out, flush=True)
    if len(rates) == 2:
        print(f"cython/python ratio: {rates['cython'] / rates['python']:.0f}x", file=out)


#: Opening positions of the Tetralath nodes/s comparison, and its depth per backend.
TETRALATH_POSITIONS = ("", "e5", "d4 d5 e5", "e5 d4 f3 c3")
TETRALATH_RATE_DEPTH = {"cython": 6, "python": 3}
TETRALATH_RATIO_DEPTH = 3


def _tetralath_rate(backend: str, depth: int, runs: int) -> tuple[float, int]:
    games = [Tetralath.from_moves(moves, backend=backend) for moves in TETRALATH_POSITIONS]

    def work() -> int:
        return sum(Engine(tt_mb=16).search(game, depth=depth).nodes for game in games)

    seconds, nodes = median_seconds(work, runs)
    return nodes / seconds, nodes


def bench_tetralath(
    out: TextIO,
    runs: int = 3,
    backend: str | None = None,
    plies: int = 12,
    depth: int = 8,
    time_limit: float = 5.0,
    quick: bool = False,
) -> None:
    """Tetralath: nodes/s per backend and the ratio; per opening ply the nodes and time of a
    fixed-depth search (engine-vs-engine, one engine with a 64 MB table kept between moves);
    then the depth a ``time_limit`` engine reaches on each ply of its own opening.

    ``quick`` makes the nodes/s searches two plies shallower (a smoke run)."""
    names = _backends(backend)
    rates = {}
    for name in names:
        d = TETRALATH_RATE_DEPTH[name] - (2 if quick else 0)
        rate, nodes = _tetralath_rate(name, d, runs)
        print(
            f"tetralath alpha-beta {name:7s} depth {d}: {nodes:>11,} nodes {rate:>13,.0f} nodes/s", file=out, flush=True
        )
    if len(names) == 2:
        for name in names:
            rates[name] = _tetralath_rate(name, TETRALATH_RATIO_DEPTH - (2 if quick else 0), runs)[0]
        print(
            f"cython/python ratio at depth {TETRALATH_RATIO_DEPTH - (2 if quick else 0)}: {rates['cython'] / rates['python']:.0f}x",
            file=out,
        )
    fast = "cython" if "cython" in names else names[0]
    if fast != "cython":
        depth = min(depth, 4)
    print(
        f"{fast}: depth {depth} on each ply of an engine-vs-engine opening (64 MB table kept between moves)", file=out
    )
    print(f"{'ply':>3} {'move':>4} {'score':>8} {'nodes':>12} {'seconds':>8} {'nodes/s':>11}", file=out, flush=True)
    # The game is the same on every run (fixed depth): each run replays it with a fresh
    # engine, and each ply's time is the median over the runs.
    played: list = []
    for run in range(runs):
        engine = Engine(tt_mb=64)
        game = Tetralath(backend=fast)
        for ply in range(plies):
            if game.is_game_over():
                break
            start = time.perf_counter()
            result = engine.search(game, depth=depth)
            seconds = time.perf_counter() - start
            assert result.move is not None  # the game is not over
            if run == 0:
                played.append([result, []])
            played[ply][1].append(seconds)
            game.push(result.move)
    total_nodes, total_seconds, worst = 0, 0.0, 0.0
    for ply, (result, times) in enumerate(played):
        seconds = statistics.median(times)
        total_nodes += result.nodes
        total_seconds += seconds
        worst = max(worst, seconds)
        print(
            f"{ply:>3} {result.move.name:>4} {result.score:>8} {result.nodes:>12,} {seconds:>8.2f} "
            f"{result.nodes / max(seconds, 1e-9):>11,.0f}",
            file=out,
            flush=True,
        )
    print(f"total {total_nodes:,} nodes, {total_seconds:.1f} s; slowest ply {worst:.2f} s", file=out)
    print(f"{fast}: depth reached in {time_limit:g} s a move, engine vs engine (one engine, 64 MB table)", file=out)
    engine = Engine(tt_mb=64)
    game = Tetralath(backend=fast)
    depths = []
    for ply in range(plies):
        if game.is_game_over():
            break
        result = engine.search(game, time_limit=time_limit)
        assert result.move is not None  # the game is not over
        depths.append(result.depth)
        print(
            f"{ply:>3} {result.move.name:>4} depth {result.depth:>2} {result.nodes:>12,} nodes {result.elapsed:6.2f} s",
            file=out,
            flush=True,
        )
        game.push(result.move)
    print(f"depths: {' '.join(map(str, depths))} (lowest {min(depths) if depths else 0})", file=out)
