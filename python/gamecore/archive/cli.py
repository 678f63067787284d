"""``gamecore archive stats FILE...``: what archived games hold (registered by the CLI)."""

from __future__ import annotations

import argparse
import json
from typing import Any, TextIO

from .._cli_types import count
from .stats import archive_stats, format_stats, read_all


def add_subparser(sub: Any) -> None:
    """Add ``archive`` and its commands to the ``gamecore`` parser."""
    p = sub.add_parser("archive", help="game archives: WTHOR, GGF, transcripts (gamecore archive stats --help)")
    commands = p.add_subparsers(dest="archive_command", metavar="COMMAND", required=True)
    s = commands.add_parser(
        "stats",
        help="games, players, openings and results of archive files",
        description="Read archive files (.wtb WTHOR games, with WTHOR.JOU/WTHOR.TRN beside them for the names; "
        ".ggf GGF records; anything else as transcripts, one game a line) and count their games, players, most "
        "played openings (by the shipped opening names) and black's results. Every game is replayed and checked.",
    )
    s.add_argument("files", nargs="+", metavar="FILE", help="archive files")
    s.add_argument("--top", type=count, default=10, metavar="N", help="players, openings and lines listed (default 10)")
    s.add_argument("--json", action="store_true", help="the figures as JSON")
    s.add_argument("--no-check", dest="check", action="store_false", help="do not replay the games (faster)")
    p.set_defaults(archive_handler=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    stats = archive_stats(read_all(args.files, check=args.check))
    if args.json:
        json.dump(stats.as_dict(args.top), out, indent=1)
        out.write("\n")
    else:
        out.write(format_stats(stats, args.top))
    return 0
