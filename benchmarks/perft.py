"""Perft speed per backend and board size: ``python benchmarks/perft.py [--runs N]``.

Prints leaves per second (median of N runs) for each backend, the per-leaf cost of 6x6
and 10x10 relative to 8x8 on trees of similar size, and the cython/python ratio taken
in the same run on the same tree.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _common import available_backends, median_seconds  # noqa: E402

from gamecore import Othello  # noqa: E402

# (size, depth) with trees of about the same number of leaves, per backend.
TREES = {
    "cython": [(8, 11), (8, 10), (6, 11), (10, 10)],
    "python": [(8, 8), (8, 7), (6, 7), (10, 7)],
}
RATIO_TREE = (8, 8)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    backends = available_backends()
    ratio_rates = {}
    for backend in backends:
        print(f"{backend} backend")
        rates = {}
        for size, depth in TREES[backend]:
            seconds, leaves = median_seconds(lambda: Othello(size, backend=backend).perft(depth), args.runs)
            rates[(size, depth)] = leaves / seconds
            print(f"  {size:>2}x{size:<2} perft({depth:>2}) = {leaves:>13,} leaves  {seconds:8.3f} s  {leaves / seconds:>14,.0f} leaves/s")
        base = rates[TREES[backend][1]]
        for size, depth in TREES[backend][2:]:
            print(f"  per-leaf cost {size}x{size} / 8x8: {base / rates[(size, depth)]:.2f}x")
        seconds, leaves = median_seconds(lambda: Othello(RATIO_TREE[0], backend=backend).perft(RATIO_TREE[1]), args.runs)
        ratio_rates[backend] = leaves / seconds
    if len(ratio_rates) == 2:
        print(f"cython/python ratio on 8x8 perft({RATIO_TREE[1]}): {ratio_rates['cython'] / ratio_rates['python']:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
