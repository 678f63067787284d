"""``gamecore compare``: the command line of the comparison reports (added to the main parser)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .compare import INSTALL_HINT, compare_rolit, pdf
from .table import LABELS

__all__ = ["add_subparser"]


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {value}")
    return value


def add_subparser(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="compare the n-player algorithms in seat-rotated four-player Rolit games (report)",
        description="Play Max^n, paranoid, Best-Reply Search and MCTS against each other in four-player Rolit, "
        "seats rotated, and write a Markdown table, CSV, PNG charts and a one-page PDF (charts and PDF need "
        'matplotlib: pip install "gamecore[report]").',
    )
    p.add_argument("game", choices=("rolit",), help="the game (rolit)")
    p.add_argument(
        "--games", type=_positive_int, default=8, help="games to play (default 8; a multiple of 4 rotates fully)"
    )
    p.add_argument("--time", type=_positive_float, default=0.2, help="seconds a move for every algorithm (default 0.2)")
    p.add_argument("--out", default="rolit-report", help="folder for the files (default rolit-report)")
    p.add_argument("--seed", type=int, default=0, help="seed of the MCTS generators (default 0)")
    p.add_argument("--backend", choices=("cython", "python"), help="backend (default: the one in use)")
    p.set_defaults(report_handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    if pdf is None:
        print(INSTALL_HINT + "; writing the Markdown and CSV only.", file=out)
    stats = compare_rolit(args.games, args.time, args.out, seed=args.seed, backend=args.backend, stream=sys.stderr)
    for entry in stats.values():
        row = entry.row()
        print(
            f"{LABELS[entry.algorithm]:24s} wins {row['wins']:3d}/{row['games']:<3d} ({row['win_rate']:.0%})  "
            f"avg balls {row['average_balls']:5.1f}  states/move {row['states_per_move']:>9,}",
            file=out,
        )
    print(f"report written to {args.out}/", file=out)
    return 0
