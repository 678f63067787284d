"""Exact endgame solving: ``python benchmarks/endgame.py [--backend B] [--positions 40-49]``.

Solves FFO endgame positions (``tests/data/ffo-40-59.obf``: positions 40-59, 20 to 26
empty squares, with the exact score of every move) with ``OthelloCore.solve_exact`` on one
backend, single-threaded, and prints per position the empty squares, the published score,
the solver's score and best move, nodes, seconds and nodes per second, then the totals.
A wrong score or a move that the file does not list as best is flagged and makes the exit
status 1. Positions take seconds to minutes each on the Cython backend; the pure-Python
backend is only practical for a few of them with ``--node-limit``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FILE = os.path.join(HERE, os.pardir, "tests", "data", "ffo-40-59.obf")
FIRST_NUMBER = 40  # the file's first line is FFO position 40


def parse_obf(line: str) -> tuple[int, int, int, dict[str, int]]:
    """``(black, white, turn, {move: score})`` of one OBF line (8x8, a1 = bit 0)."""
    board, rest = line.split(None, 1)
    if len(board) != 64:
        raise ValueError(f"an 8x8 OBF board has 64 squares, got {len(board)}")
    black = sum(1 << i for i, c in enumerate(board) if c in "Xx*")
    white = sum(1 << i for i, c in enumerate(board) if c in "Oo")
    fields = [f.strip() for f in rest.split(";")]
    turn = 0 if fields[0].upper() == "X" else 1
    scores = {}
    for field in fields[1:]:
        if field:
            move, score = field.split(":")
            scores[move.upper()] = int(score)
    return black, white, turn, scores


def square_name(square: int | None) -> str:
    if square is None:
        return "--"
    if square < 0:
        return "PS"
    return "ABCDEFGH"[square % 8] + str(square // 8 + 1)


def parse_range(text: str) -> list[int]:
    numbers: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            numbers.extend(range(int(lo), int(hi) + 1))
        else:
            numbers.append(int(part))
    return numbers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("cython", "python"), default="cython")
    parser.add_argument("--positions", default="40-49", help="FFO numbers, e.g. 40-49 or 40,44,50-52 (default 40-49)")
    parser.add_argument("--file", default=DEFAULT_FILE, help="OBF file whose first line is FFO #40")
    parser.add_argument("--node-limit", type=int, default=0, help="stop each solve after this many nodes (0: none)")
    parser.add_argument("--time-limit", type=float, default=0.0, help="stop each solve after this many seconds (0: none)")
    args = parser.parse_args(argv)

    from gamecore import _backend

    core_class = _backend.load(args.backend).othello.OthelloCore
    with open(args.file) as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    numbers = parse_range(args.positions)
    for number in numbers:
        if not 0 <= number - FIRST_NUMBER < len(lines):
            parser.error(f"position {number} is not in {args.file} ({FIRST_NUMBER}-{FIRST_NUMBER + len(lines) - 1})")

    print(f"backend {args.backend}, FFO positions {args.positions}")
    print(f"{'#':>3} {'empty':>5} {'publ':>5} {'score':>5} {'move':>4} {'nodes':>14} {'seconds':>9} {'nodes/s':>12}")
    total_nodes = 0
    total_seconds = 0.0
    failures = 0
    for number in numbers:
        black, white, turn, scores = parse_obf(lines[number - FIRST_NUMBER])
        published = max(scores.values())
        core = core_class(8)
        core.set_board(black, white, turn)
        empties = 64 - sum(core.counts())
        start = time.perf_counter()
        move, score, nodes, completed = core.solve_exact(node_limit=args.node_limit, time_limit=args.time_limit)
        seconds = time.perf_counter() - start
        total_nodes += nodes
        total_seconds += seconds
        if not completed:
            flag = "  stopped by a limit"
        elif score != published or scores.get(square_name(move)) != published:
            flag = "  WRONG"
            failures += 1
        else:
            flag = ""
        print(f"{number:>3} {empties:>5} {published:>+5} {score:>+5} {square_name(move):>4} {nodes:>14,} "
              f"{seconds:>9.2f} {nodes / max(seconds, 1e-9):>12,.0f}{flag}", flush=True)
    print(f"total: {len(numbers)} positions, {total_nodes:,} nodes, {total_seconds:.1f} s, "
          f"{total_nodes / max(total_seconds, 1e-9):,.0f} nodes/s, {failures} wrong")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
