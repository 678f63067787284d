"""``gamecore bench rolit search``: the n-player searches and MCTS on four-player Rolit.

Prints, per backend: states explored per second of Max^n (shallow pruning), paranoid and
Best-Reply Search at a fixed depth on a fixed set of positions, MCTS iterations per second
from the start and from a midgame position, and the cython/python ratio of each, taken on
the same work in the same run. Then what shallow pruning saves against plain Max^n (both
without a table), and what Max^n's transposition table saves (with pruning): the states at
equal depth on the same positions (deterministic counts).
"""

from __future__ import annotations

import time
from functools import partial
from typing import TextIO

from ..games.rolit import Rolit
from ..players import RandomPlayer
from ..search.engine import Engine
from ..search.mcts import MCTS
from . import _backends, median_seconds

__all__ = ["bench_multiplayer", "rolit_positions"]

#: (random plies from the start, seed) of the fixed four-player positions.
POSITIONS = ((0, 0), (6, 1), (12, 2), (18, 3), (24, 4), (30, 5), (36, 6), (42, 7))
#: Depth of the states/s figure per backend; the ratio is taken at the pure depth.
DEPTH = {"cython": 5, "python": 3}
RATIO_DEPTH = 3
MCTS_ITERATIONS = {"cython": 20_000, "python": 300}


def rolit_positions(backend: str) -> list[Rolit]:
    """The fixed four-player Rolit positions of the benchmark."""
    games = []
    for plies, seed in POSITIONS:
        game = Rolit(backend=backend)
        player = RandomPlayer(seed)
        for _ in range(plies):
            game.push(player.choose_move(game))
        games.append(game)
    return games


#: Table size of the paranoid and BRS figures: small, so that allocating and clearing it per
#: search does not weigh on the pure backend's states/s.
TT_MB = 1


def _states(games: list[Rolit], algorithm: str, depth: int) -> int:
    return sum(Engine(algorithm=algorithm, tt_mb=TT_MB).search(game, depth=depth).nodes for game in games)


def _mcts(game: Rolit, iterations: int) -> int:
    return MCTS(seed=1).search(game, iterations=iterations).iterations


def bench_multiplayer(out: TextIO, runs: int = 3, backend: str | None = None, quick: bool = False) -> None:
    """Print the figures of the module docstring (``quick``: one depth less, fewer iterations)."""
    names = _backends(backend)
    games = {name: rolit_positions(name) for name in names}
    print(f"Rolit, 4 players, {len(POSITIONS)} positions (random openings of 0-42 plies)", file=out)
    for algorithm in ("maxn", "paranoid", "brs"):
        rates = {}
        for name in names:
            depth = DEPTH[name] - quick
            seconds, states = median_seconds(partial(_states, games[name], algorithm, depth), runs)
            rates[name] = states / seconds
            print(
                f"{algorithm:9s} {name:7s} depth {depth}: {states:>10,} states, {rates[name]:>12,.0f} states/s",
                file=out,
                flush=True,
            )
        if len(names) == 2:
            same = {
                name: median_seconds(partial(_states, games[name], algorithm, RATIO_DEPTH), runs)[0] for name in names
            }
            ratio = same["python"] / same["cython"]
            print(f"{algorithm:9s} cython/python ratio (depth {RATIO_DEPTH}): {ratio:.0f}x", file=out, flush=True)
    for label, index in (("start", 0), ("midgame", 4)):
        rates = {}
        for name in names:
            iterations = MCTS_ITERATIONS[name] // (4 if quick else 1)
            cpu_before = time.process_time()
            seconds, done = median_seconds(partial(_mcts, games[name][index], iterations), runs)
            cpu = (time.process_time() - cpu_before) / max(1, runs)
            rates[name] = done / seconds
            print(
                f"mcts      {name:7s} {label:8s}: {rates[name]:>12,.0f} iterations/s "
                f"({done / cpu:,.0f} per CPU second: the machine may be shared)",
                file=out,
                flush=True,
            )
        if len(rates) == 2:
            print(f"mcts      cython/python ratio ({label}): {rates['cython'] / rates['python']:.0f}x", file=out)
    name = "cython" if "cython" in names else names[0]
    for colours in ("RYGB", "RYG", "RG"):
        _pruning(out, name, colours, DEPTH[name] - quick)
    for colours in ("RYGB", "RYG", "RG"):
        _pruning(out, name, colours, DEPTH[name] - quick, table=True)


def _pruning(out: TextIO, name: str, colours: str, depth: int, table: bool = False) -> None:
    """States of plain Max^n and of Max^n with shallow pruning at equal depth, no table (same
    move and values); with ``table``: of Max^n without its table and with it (16 MB)."""
    if table:
        print(f"Max^n table, {colours}, {name}, depth {depth}: states without the table -> with it", file=out)
    else:
        print(
            f"shallow pruning, {colours}, {name}, depth {depth}: states of plain Max^n -> with shallow pruning",
            file=out,
        )
    total_plain = total_pruned = 0
    for plies, seed in POSITIONS:
        game = Rolit(colours=colours, backend=name)
        player = RandomPlayer(seed)
        for _ in range(plies):
            game.push(player.choose_move(game))
        if table:
            plain = Engine(algorithm="maxn", tt_mb=0).search(game, depth=depth)
            pruned = Engine(algorithm="maxn", tt_mb=16).search(game, depth=depth)
        else:
            plain = Engine(algorithm="maxn-plain", tt_mb=0).search(game, depth=depth)
            pruned = Engine(algorithm="maxn", tt_mb=0).search(game, depth=depth)
        assert (plain.move, plain.values) == (pruned.move, pruned.values)
        total_plain += plain.nodes
        total_pruned += pruned.nodes
        saved = 1 - pruned.nodes / plain.nodes
        print(f"  ply {plies:2d}: {plain.nodes:>10,} -> {pruned.nodes:>10,} ({saved:6.1%} fewer)", file=out)
    print(
        f"  total : {total_plain:>10,} -> {total_pruned:>10,} ({1 - total_pruned / total_plain:6.1%} fewer)",
        file=out,
        flush=True,
    )
