"""The ``gamecore tournament`` command (also ``python -m gamecore.referee``).

::

    gamecore tournament random greedy engine:depth=2 students/*/ --game othello --sizes 6 8 10 \\
        --time 5 --out results --db results/tournament.sqlite
    gamecore tournament check player.py --game othello --size 8
    gamecore tournament bench --runs 7  # referee overhead per move, games/s (= python -m gamecore.referee.bench)

``run`` is the default subcommand: ``gamecore tournament PLAYER...`` is ``tournament run PLAYER...``.

:func:`add_subparser` adds the subcommand to the main ``gamecore`` parser; the handler it
sets (``args.referee_handler``) runs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO, TypeAlias

from .._cli_types import add_game, add_seed, add_time, at_least, count, seconds, seconds_or_zero
from ..errors import GamecoreError
from .bench import __doc__ as bench_doc
from .bench import add_bench_options, bench
from .bots import MAX_BYTES, MAX_FILES, printable
from .check import check_bot
from .report import standings, write_reports
from .rules import DEFAULT_RULES
from .sandbox import ISOLATION_MODES
from .scoring import elo_text
from .tournament import TournamentConfig, run_tournament

#: What ``ArgumentParser.add_subparsers()`` returns.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # not subscriptable at run time

__all__ = ["add_subparser", "expand", "main", "run", "SUBCOMMANDS"]

_EPILOG = """\
A player is a built-in spec (random, greedy, corner, positional, engine:depth=6,
mcts:iterations=2000), a CTU player.py file or its folder, a UFRJ *_player.py file, or a
program speaking the JSON-lines protocol (an executable file, or a folder with an executable
'run'); NAME=SPEC names it. 'gamecore tournament check FILE' checks one bot before submission.
Rules by default as the CTU course: two games a match with colours swapped, 2/1/0 points for
a match won/drawn/lost, a forfeit (timeout, illegal move, crash, ...) loses the match."""


def _points(text: str) -> tuple[float, float, float]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3:
        raise argparse.ArgumentTypeError(f"points are WIN,DRAW,LOSS like 2,1,0; got {text!r}")
    return values[0], values[1], values[2]


def _add_limits(p: argparse.ArgumentParser) -> None:
    """The limits a game is played under, the same for ``run`` and ``check``."""
    d = DEFAULT_RULES
    add_game(p)
    add_time(p, default=d.time)
    p.add_argument(
        "--grace",
        type=seconds_or_zero,
        default=d.grace,
        metavar="S",
        help=f"seconds over the limit still accepted, for the referee's own overhead (default {d.grace:g})",
    )
    p.add_argument(
        "--startup", type=seconds, default=d.startup, metavar="S", help=f"seconds to load a bot (default {d.startup:g})"
    )
    p.add_argument(
        "--memory",
        type=at_least(int, 16, "megabytes"),
        default=d.memory_mb,
        metavar="MB",
        help=f"memory cap of a bot (default {d.memory_mb} MB)",
    )
    p.add_argument(
        "--submission-mb",
        type=at_least(float, 0.001, "megabytes"),
        default=MAX_BYTES / (1 << 20),
        metavar="MB",
        help=f"a submission's files in all, at most (default {MAX_BYTES >> 20} MB; a bigger one forfeits, 'refused')",
    )
    p.add_argument(
        "--submission-files",
        type=count,
        default=MAX_FILES,
        metavar="N",
        help=f"files and folders of a submission, at most (default {MAX_FILES}; more forfeits, 'refused')",
    )
    p.add_argument(
        "--isolation",
        choices=ISOLATION_MODES,
        default=d.isolation,
        help="full: the sandbox (root, bwrap, cgroups; see docs/sandbox.rst); basic: NOT a security "
        "boundary, trusted bots only (as root: built-in players only); auto (default): full when "
        "available, else basic (namespaces: old name of full)",
    )


def _add_run_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        "run",
        help="the round robin (the default: 'gamecore tournament PLAYER...' is 'tournament run PLAYER...')",
        description="Round-robin tournament of (untrusted) bots, each isolated in its own process.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("players", nargs="*", metavar="PLAYER", help="the players (at least one table of them)")
    _add_limits(p)
    p.add_argument(
        "--sizes",
        type=count,
        nargs="+",
        metavar="N",
        help="board sizes; every pair meets once per size (othello default: 6 8 10)",
    )
    p.add_argument(
        "--bank",
        type=seconds_or_zero,
        default=DEFAULT_RULES.bank,
        metavar="S",
        help=f"time bank: extra seconds a game that moves over --time may draw on (default {DEFAULT_RULES.bank:g})",
    )
    p.add_argument(
        "--games",
        type=count,
        help="games per match (default: one per seat, each bot playing every seat: 2 with colours swapped)",
    )
    p.add_argument(
        "--points", type=_points, default=(2.0, 1.0, 0.0), metavar="W,D,L", help="match points (default 2,1,0)"
    )
    add_seed(p, of="the games (random players)")
    p.add_argument("--workers", type=count, help="games at once (default: one per core)")
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
        "--no-progress",
        "--quiet",
        dest="progress",
        action="store_false",
        help="never show it (default: a line redrawn on a terminal, a plain line every 15 s elsewhere)",
    )
    p.set_defaults(referee_run=_tournament)


def _add_check_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        "check",
        help="play one bot against random players, a game in each seat, and say what would forfeit",
        description="Check a bot before submitting it: it plays a game in each seat against random players "
        "under the tournament's limits; the verdict says what would forfeit and how to fix it.",
    )
    p.add_argument("bot", metavar="FILE_OR_FOLDER", help="the bot: a player.py, a *_player.py, or a folder")
    _add_limits(p)
    p.add_argument("--size", type=count, metavar="N", help="the board size (default: the middle tournament size)")
    p.set_defaults(referee_run=_check)


def _add_bench_parser(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench",
        help="the referee's overhead per move and games/s (= python -m gamecore.referee.bench)",
        description=bench_doc.splitlines()[0],
    )
    add_bench_options(p)
    p.set_defaults(referee_run=_bench)


#: The subcommands of ``tournament``; any other first word is a player of ``run``.
SUBCOMMANDS = ("run", "check", "bench")


def expand(argv: list[str]) -> list[str]:
    """``tournament PLAYER...`` (the documented short form) is ``tournament run PLAYER...``."""
    if argv and argv[0] in SUBCOMMANDS or argv[:1] in (["-h"], ["--help"]):
        return argv
    return ["run", *argv]


def add_subparser(subparsers: Subparsers) -> argparse.ArgumentParser:
    """Add ``tournament`` (with ``run``, ``check``, ``bench``) to a parser's subcommands; the
    parsed args carry ``referee_handler``. Give it the arguments after ``tournament`` through
    :func:`expand` first."""
    p = subparsers.add_parser(
        "tournament",
        help="round robin of bots under time limits (also: tournament check FILE, tournament bench)",
        description="Round-robin tournament of (untrusted) bots, each isolated in its own process. "
        "'gamecore tournament PLAYER...' is 'gamecore tournament run PLAYER...'.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="tournament_command", metavar="{run,check,bench}", required=True)
    _add_run_parser(sub)
    _add_check_parser(sub)
    _add_bench_parser(sub)
    p.set_defaults(referee_handler=run)
    return p


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the parsed ``tournament`` command; returns the exit status."""
    out = out or sys.stdout
    try:
        return int(args.referee_run(args, out))
    except (GamecoreError, ValueError, OSError) as exc:
        print(f"gamecore tournament: error: {printable(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted: finished games are in the database; run the same command to resume", file=sys.stderr)
        return 130


def _bench(args: argparse.Namespace, out: TextIO) -> int:
    bench(out, runs=args.runs, moves=args.moves, players=args.players)
    return 0


def _check(args: argparse.Namespace, out: TextIO) -> int:
    return check_bot(
        args.bot,
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
            f"  Elo {elo_text(r)}" + (f"  forfeits: {reasons}" if reasons else ""),
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
        args = build_parser().parse_args(["tournament", *expand(argv)])
    except SystemExit as exc:
        return int(exc.code or 0)
    status: int = args.referee_handler(args)
    return status
