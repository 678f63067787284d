"""The ``gamecore tournament`` command (also ``python -m gamecore.referee``).

::

    gamecore tournament random greedy engine:depth=2 students/*/ --game othello --sizes 6 8 10 \\
        --time 5 --out results --db results/tournament.sqlite
    gamecore tournament check player.py --game othello --size 8
    gamecore tournament bench        # referee overhead per move, games/s (= python -m gamecore.referee.bench)

:func:`add_subparser` adds the subcommand to the main ``gamecore`` parser; the handler it
sets (``args.referee_handler``) runs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..errors import GamecoreError
from .bench import bench
from .bots import MAX_BYTES, MAX_FILES
from .check import check_bot
from .report import standings, write_reports
from .sandbox import ISOLATION_MODES
from .tournament import TournamentConfig, run_tournament

__all__ = ["add_subparser", "main", "run"]

_EPILOG = """\
A player is a built-in spec (random, greedy, corner, positional, engine:depth=6,
mcts:iterations=2000), a CTU player.py file or its folder, a UFRJ *_player.py file, or a
program speaking the JSON-lines protocol (an executable file, or a folder with an executable
'run'); NAME=SPEC names it. 'gamecore tournament check FILE' checks one bot before submission.
Rules by default as the CTU course: two games a match with colours swapped, 2/1/0 points for
a match won/drawn/lost, a forfeit (timeout, illegal move, crash, ...) loses the match."""


def _number(kind: Any, low: float, what: str) -> Any:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what} >= {low:g}, got {text!r}")
        return value

    return parse


def _points(text: str) -> tuple[float, float, float]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3:
        raise argparse.ArgumentTypeError(f"points are WIN,DRAW,LOSS like 2,1,0; got {text!r}")
    return values[0], values[1], values[2]


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("players", nargs="*", metavar="PLAYER", help="the players (or: check FILE)")
    p.add_argument(
        "--game", choices=("othello", "tetralath", "rolit"), default="othello", help="the game (default othello)"
    )
    p.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        metavar="N",
        help="board sizes; every pair meets once per size (othello default: 6 8 10)",
    )
    p.add_argument("--size", type=int, metavar="N", help="check: the board size (default 8)")
    p.add_argument("--time", type=_number(float, 0.001, "seconds"), default=5.0, help="seconds a move (default 5)")
    p.add_argument(
        "--grace",
        type=_number(float, 0.0, "seconds"),
        default=0.5,
        help="seconds over the limit still accepted, for the referee's own overhead (default 0.5)",
    )
    p.add_argument(
        "--startup", type=_number(float, 0.001, "seconds"), default=20.0, help="seconds to load a bot (default 20)"
    )
    p.add_argument(
        "--bank",
        type=_number(float, 0.0, "seconds"),
        default=0.0,
        help="time bank: extra seconds a game that moves over --time may draw on (default 0)",
    )
    p.add_argument(
        "--games",
        type=_number(int, 1, "a whole number"),
        help="games per match (default: one per seat, each bot playing every seat: 2 with colours swapped)",
    )
    p.add_argument(
        "--points", type=_points, default=(2.0, 1.0, 0.0), metavar="W,D,L", help="match points (default 2,1,0)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the games (random players, default 0)")
    p.add_argument(
        "--memory",
        type=_number(int, 16, "megabytes"),
        default=1024,
        metavar="MB",
        help="memory cap of a bot (default 1024 MB)",
    )
    p.add_argument(
        "--submission-mb",
        type=_number(float, 0.001, "megabytes"),
        default=MAX_BYTES / (1 << 20),
        metavar="MB",
        help=f"a submission's files in all, at most (default {MAX_BYTES >> 20} MB; a bigger one forfeits, 'refused')",
    )
    p.add_argument(
        "--submission-files",
        type=_number(int, 1, "a whole number"),
        default=MAX_FILES,
        metavar="N",
        help=f"files and folders of a submission, at most (default {MAX_FILES}; more forfeits, 'refused')",
    )
    p.add_argument(
        "--isolation",
        choices=ISOLATION_MODES,
        default="auto",
        help="full: the sandbox (root, bwrap, cgroups; see docs/referee.rst); basic: NOT a security "
        "boundary, trusted bots only (as root: built-in players only); auto (default): full when "
        "available, else basic (namespaces: old name of full)",
    )
    p.add_argument("--workers", type=_number(int, 1, "a whole number"), help="games at once (default: one per core)")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on a Dask cluster (tcp://host:8786, or 'local'); needs gamecore[cluster]",
    )
    p.add_argument("--out", metavar="DIR", help="write standings.csv, games.json, tournament.md/html... there")
    p.add_argument(
        "--db", metavar="FILE", help="the results database (default DIR/tournament.sqlite or ./tournament.sqlite)"
    )
    bar = p.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress", dest="progress", action="store_true", default=None, help="always show the progress bar"
    )
    bar.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show it (default: only on a terminal)"
    )


def add_subparser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``tournament`` to a parser's subcommands; the parsed args carry ``referee_handler``."""
    p = subparsers.add_parser(
        "tournament",
        help="round robin of bots under time limits (also: tournament check FILE)",
        description="Round-robin tournament of (untrusted) bots, each isolated in its own process.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _configure(p)
    p.set_defaults(referee_handler=run)
    return p


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the parsed ``tournament`` command; returns the exit status."""
    out = out or sys.stdout
    try:
        if args.players == ["bench"]:
            bench(out)
            return 0
        if args.players[:1] == ["check"]:
            if len(args.players) != 2:
                raise GamecoreError("usage: gamecore tournament check FILE_OR_FOLDER [--game G] [--size N] [--time S]")
            return check_bot(
                args.players[1],
                game=args.game,
                size=args.size,
                time_limit=args.time,
                grace=args.grace,
                startup=args.startup,
                isolation=args.isolation,
                memory_mb=args.memory,
                max_bytes=int(args.submission_mb * (1 << 20)),
                max_files=args.submission_files,
                out=out,
            )
        return _tournament(args, out)
    except (GamecoreError, ValueError, OSError) as exc:
        print(f"gamecore tournament: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted: finished games are in the database; run the same command to resume", file=sys.stderr)
        return 130


def _tournament(args: argparse.Namespace, out: TextIO) -> int:
    if len(args.players) < 2:
        raise GamecoreError("a tournament needs at least two players (see gamecore tournament --help)")
    sizes = args.sizes
    db = args.db or os.path.join(args.out or ".", "tournament.sqlite")
    config = TournamentConfig(
        players=args.players,
        game=args.game,
        sizes=sizes,
        time=args.time,
        grace=args.grace,
        startup=args.startup,
        bank=args.bank,
        games=args.games,
        points=args.points,
        seed=args.seed,
        memory_mb=args.memory,
        isolation=args.isolation,
        workers=args.workers,
        scheduler=args.scheduler,
        db=db,
        out=args.out,
        progress=args.progress,
        submission_bytes=int(args.submission_mb * (1 << 20)),
        submission_files=args.submission_files,
    )
    records = run_tournament(config)
    rows = standings(config, records)
    print(f"{len(records)} games; standings:", file=out)
    for place, r in enumerate(rows, 1):
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(r["forfeits_by_reason"].items()))
        print(
            f"{place:3d}. {r['player']:<24} {r['points']:>6g} pts  {r['matches_won']}-{r['matches_drawn']}-{r['matches_lost']}"
            f"  Elo {r['elo']:+.0f} ± {r['elo_95']:.0f}" + (f"  forfeits: {reasons}" if reasons else ""),
            file=out,
        )
    if args.out:
        write_reports(config, records, args.out)
        print(
            f"Reports in {args.out}: standings.csv, standings.json, crosstable.csv, games.json, tournament.md, tournament.html",
            file=out,
        )
    print(f"Results database: {db}", file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gamecore")
    add_subparser(parser.add_subparsers(dest="command", required=True))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gamecore.referee ARGS`` = ``gamecore tournament ARGS``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(["tournament"] + argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return args.referee_handler(args)
