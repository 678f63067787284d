"""``gamecore compare``: the command line of the comparison reports (added to the main parser)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from .._cli_types import add_backend, add_seed, count, seconds
from .._progress import add_quiet_option
from ..errors import InvalidOptionError
from ..games import GAMES
from . import compare
from .compare import INSTALL_HINT, Budget, compare_game, seatings, start_position
from .table import ALGORITHMS, LABELS, fmt_bytes

__all__ = ["add_subparser"]


def add_subparser(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="compare the n-player algorithms (four-player Rolit, or any game): states, space, time, wins (report)",
        description="Play Max^n, paranoid, Best-Reply Search and MCTS against each other in a game (four-player "
        "Rolit: all 6 cyclic orders x 4 rotations, 24 games a cycle; a two-player game: every ordered pair, 12; "
        "Max^n without pruning searches Max^n's positions beside it) and write a Markdown table, CSVs, charts and "
        "a one-page PDF of the states explored per game, the memory and the time they used (charts and PDF need "
        'matplotlib: pip install "gamecore[report]").',
    )
    p.add_argument("game", choices=tuple(GAMES), metavar="GAME", help=f"the game: {', '.join(GAMES)}")
    p.add_argument("--cycles", type=count, help="cycles of seatings (default 1; 24 games each in Rolit)")
    # the old spelling (before cycles of 24): still works, with a warning
    p.add_argument("--games", type=count, help=argparse.SUPPRESS)
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--time", type=seconds, metavar="S", help="seconds a move for every algorithm (default 0.1)")
    budget.add_argument(
        "--states", type=count, metavar="N", help="instead of time: states explored a move for every algorithm"
    )
    p.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="what --time measures: the searching thread's CPU time (default; reproduces on a loaded machine) or wall time",
    )
    p.add_argument(
        "--head-to-head",
        action="store_true",
        help="also play every pair two against two (the 6 seatings of two each; 36 games a cycle)",
    )
    p.add_argument(
        "--no-rss", action="store_true", help="skip the peak-RSS cross-check (a fresh process per algorithm)"
    )
    p.add_argument("--out", help="folder for the files (default GAME-report: rolit-report)")
    add_seed(p, of="the MCTS generators")
    add_backend(p)
    add_quiet_option(p, "progress lines")
    p.set_defaults(report_handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    if not compare.HAS_CHARTS:
        print(INSTALL_HINT + "; writing the Markdown and CSV only.", file=out)
    if args.states is not None:
        budget = Budget(states=args.states)
    else:
        budget = Budget(seconds=args.time if args.time is not None else 0.1, clock=args.clock)
    cycles = args.cycles or 1
    per_cycle = len(seatings(ALGORITHMS, start_position(args.game).num_players))
    if args.games is not None:
        if args.cycles is not None:
            raise InvalidOptionError("--games is the old spelling of --cycles: give one of them")
        cycles = -(-args.games // per_cycle)
        print(
            f"gamecore compare: warning: --games is deprecated (games come in cycles of {per_cycle}, every "
            f"seating once); --games {args.games} plays {cycles * per_cycle} games: use --cycles {cycles}",
            file=sys.stderr,
        )
    folder = args.out or f"{args.game}-report"
    report = compare_game(
        args.game,
        budget,
        folder,
        cycles=cycles,
        seed=args.seed,
        backend=args.backend,
        pairs=args.head_to_head,
        rss=not args.no_rss,
        stream=sys.stderr,
        quiet=args.quiet,
    )
    print(f"{len(report.records)} games, {budget.describe()}", file=out)
    for entry in report.stats.values():
        row = entry.row(budget)
        wins = f"{row['wins']:3d}/{row['games']:<3d} ({row['win_rate']:.0%})" if entry.seated else "  (not seated) "
        share = f"{row['budget_share_mean']:.0%}" if row["budget_share_mean"] != "" else "-"
        print(
            f"{LABELS[entry.algorithm]:24s} wins {wins}  states/game {row['states_per_game']:>11,}  "
            f"peak memory {fmt_bytes(row['peak_memory_bytes']):>9}  CPU s/move {row['cpu_seconds_per_move']:.3f}  "
            f"budget used {share}",
            file=out,
        )
    print(f"report written to {folder}/", file=out)
    return 0
