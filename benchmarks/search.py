"""Alpha-beta speed per backend: ``python benchmarks/search.py [--runs N] [--depth D]``.

Searches a fixed set of 8x8 midgame positions (reached by seeded random openings) with
the standard evaluation and prints nodes per second (median of N runs) per backend,
the cython/python ratio on the same searches in the same run, and the Cython speed on
deeper searches. Memory of the transposition table is printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import available_backends, median_seconds  # noqa: E402

from gamecore import Othello  # noqa: E402
from gamecore.search import Engine  # noqa: E402


def midgame_positions(backend: str, count: int = 4, plies: int = 20) -> list[Othello]:
    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        game = Othello(8, backend=backend)
        while len(game.move_stack) < plies and not game.is_game_over():
            game.push(rng.choice(game.legal_moves()))
        positions.append(game)
    return positions


def nodes_per_second(backend: str, depth: int, runs: int) -> tuple[float, int, int]:
    positions = midgame_positions(backend)

    def work() -> int:
        # A fresh engine per position: every search starts from an empty table.
        return sum(Engine("standard", tt_mb=16).search(game, depth=depth).nodes for game in positions)

    seconds, nodes = median_seconds(work, runs)
    return nodes / seconds, nodes, Engine(tt_mb=16)._searcher(positions[0]._backend).tt_bytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--depth", type=int, default=6, help="depth of the cython/python comparison (default 6)")
    parser.add_argument("--deep", type=int, default=10, help="depth of the Cython-only run (default 10)")
    args = parser.parse_args(argv)
    backends = available_backends()
    rates = {}
    for backend in backends:
        rate, nodes, tt = nodes_per_second(backend, args.depth, args.runs)
        rates[backend] = rate
        print(f"{backend:7s} depth {args.depth}: {nodes:>10,} nodes  {rate:>13,.0f} nodes/s  (TT {tt / 2**20:.0f} MB)")
    if len(rates) == 2:
        print(f"cython/python ratio at depth {args.depth}: {rates['cython'] / rates['python']:.0f}x")
    if "cython" in backends:
        rate, nodes, _ = nodes_per_second("cython", args.deep, args.runs)
        print(f"cython  depth {args.deep}: {nodes:>10,} nodes  {rate:>13,.0f} nodes/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
