"""Exact labels: the positions of recorded games solved by gamecore's own exact solver
(``gamecore train othello-label``).

A game's final result is a noisy label for its late positions: the players' mistakes after
a position are in it. Below about 20 empty squares the solver gives the true value in
milliseconds to a second, so those positions can be labelled exactly instead.

For every game of the files given (in an order shuffled by ``seed``, so that a run stopped
early is a random sample of the games, not the first years of an archive), each position
with ``lo`` to ``hi`` empty squares and a move to play is solved, the fullest first, with
one endgame table per worker kept across the game (a later position of the same game is
often in it already). Each position is one line, the format of the evaluation check set
(:func:`gamecore.bench.evaluation.check_positions`)::

    BOARD SIDE EXACT FILE#GAME

``EXACT`` is the final disc margin for the side to move with perfect play, ``FILE#GAME``
the game's file name and index in it: ``gamecore train othello --from FILES --labels
LABELS`` replaces the label of that game's position with it.

The output is appended to, and games already in it are skipped: a run stopped by Ctrl-C,
or one given a ``--games`` budget, goes on where it stopped when started again.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from .._cli_types import at_least
from .._progress import add_quiet_option
from ..errors import InvalidOptionError
from ..games.othello import Othello
from ._runs import Run, add_workers_options, append_results, lo_hi, progress_lines, results_in_order

__all__ = ["LabelJob", "label_games", "solve_game", "read_exact_labels"]

_PASS = -1
_TABLE_BITS = 20  # an endgame table of 2^20 entries a game: the solves of 13-20 empties fit


@dataclass(frozen=True)
class LabelJob:
    """One game to label: where it is from, its moves (core codes) and the empties wanted."""

    source: str  # FILE#GAME
    codes: tuple[int, ...]
    size: int
    lo: int
    hi: int


def solve_game(job: LabelJob, backend: str | None = None) -> list[str]:
    """The label lines of one game's positions with ``lo``..``hi`` empties (see the module)."""
    game = Othello(job.size, backend=backend)
    nsq = job.size * job.size
    wanted: list[Othello] = []
    for code in job.codes:
        legal = game.core.legal_moves()
        if legal == [_PASS]:
            game.push(game.move_from_code(_PASS))
            legal = game.core.legal_moves()
        if code not in legal:
            break  # a damaged record: its positions so far stand
        if job.lo <= nsq - sum(game.score()) <= job.hi:
            wanted.append(game.copy())
        game.push(game.move_from_code(code))
    endgame = game._backend.endgame
    table = endgame.EndgameTable(_TABLE_BITS)
    lines = []
    for position in reversed(wanted):  # ... the fullest first (see the module)
        _move, score, _nodes, completed = endgame.solve_exact(position.core.copy(), table=table)
        if not completed:
            raise KeyboardInterrupt  # the solver stops early only when interrupted
        lines.append(f"{position.to_text()} {score} {job.source}")
    return lines


def _jobs(paths: Sequence[str], size: int, lo: int, hi: int, seed: int, done: set[str]) -> list[LabelJob]:
    from .supervised import read_games  # noqa: PLC0415 (the archive readers)

    jobs: list[LabelJob] = []
    for path in paths:
        records, _values = read_games(path, size)
        name = os.path.basename(path)
        jobs.extend(
            LabelJob(f"{name}#{index}", tuple(codes), size, lo, hi)
            for index, codes in enumerate(records)
            if f"{name}#{index}" not in done
        )
    random.Random(seed).shuffle(jobs)
    return jobs


def _labelled_games(path: str) -> set[str]:
    """The ``FILE#GAME`` of every game with a line in ``path`` already (none: no file)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return set()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidOptionError(f"{path}: cannot read the label file ({error})") from None
    games = set()
    for number, line in enumerate(lines, 1):
        if line.strip() and not line.startswith("#"):
            fields = line.split()
            if len(fields) != 4 or fields[1] not in ("X", "O") or "#" not in fields[3]:  # never append to it
                raise InvalidOptionError(f"{path}:{number}: not a label line (BOARD SIDE EXACT FILE#GAME)")
            games.add(fields[3])
    return games


def label_games(
    paths: Sequence[str],
    out_path: str,
    *,
    size: int = 8,
    lo: int = 13,
    hi: int = 18,
    games: int = 0,
    workers: int = 1,
    seed: int = 1,
    say: Callable[[str], None] | None = None,
    scheduler: str | None = None,
) -> Run:
    """Label the positions of up to ``games`` games (0: all) of ``paths`` into ``out_path``
    (see the module); return what this run wrote (games, lines) and whether Ctrl-C stopped it."""
    if size not in (4, 6, 8, 10):
        raise InvalidOptionError(f"Othello boards are 4x4 to 10x10 with even sides, not {size}x{size}")
    if not 1 <= lo <= hi <= size * size - 4:
        raise InvalidOptionError(f"empties must be a range within 1..{size * size - 4}, got {lo}..{hi}")
    if workers < 1 or games < 0:
        raise InvalidOptionError("workers >= 1 and games >= 0 are needed")
    done = _labelled_games(out_path)
    jobs = _jobs(paths, size, lo, hi, seed, done)
    if games:
        jobs = jobs[:games]
    if say is not None:
        say(f"{len(done)} games labelled already; {len(jobs)} to go, {lo}..{hi} empties, {workers} worker(s)")
    header = (
        f"# gamecore train othello-label --size {size} --empties {lo}-{hi} --seed {seed}: "
        "BOARD SIDE EXACT FILE#GAME (the exact final margin for the side to move)"
    )
    results = results_in_order(solve_game, jobs, workers=workers, scheduler=scheduler)
    return append_results(out_path, header, results, len(jobs), say, what="games", line_unit="positions")


def read_exact_labels(paths: Sequence[str], size: int) -> dict[str, dict[int, int]]:
    """``{FILE#GAME: {empties: black's exact margin}}`` from label files (see the module)."""
    nsq = size * size
    labels: dict[str, dict[int, int]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                fields = line.split()
                try:
                    board, side, value, source = fields[0], fields[1], int(fields[2]), fields[3]
                except (IndexError, ValueError):
                    raise InvalidOptionError(
                        f"{path}:{number}: not a label line (BOARD SIDE EXACT FILE#GAME)"
                    ) from None
                if len(board) != nsq or side not in ("X", "O"):
                    raise InvalidOptionError(f"{path}:{number}: not a {size}x{size} label line")
                empties = board.count("-")
                labels.setdefault(source, {})[empties] = value if side == "X" else -value
    return labels


def add_parser(games: Any, board_size: Any) -> None:
    """``gamecore train othello-label``: registered beside ``gamecore train othello``."""
    p = games.add_parser(
        "othello-label",
        help="solve the late positions of recorded games exactly, as labels for gamecore train othello --labels",
    )
    p.add_argument("--size", type=board_size, default=8)
    p.add_argument("--from", dest="game_files", nargs="+", metavar="FILE", required=True, help="game files")
    p.add_argument("--out", required=True, help="the label file (appended to; its games are skipped)")
    p.add_argument(
        "--empties", type=lo_hi("empties", "13-18"), default=(13, 18), help="LO-HI empty squares (default 13-18)"
    )
    p.add_argument(
        "--games",
        type=at_least(int, 0, "a whole number of games"),
        default=0,
        help="games to label in this run, at most (default 0: all)",
    )
    p.add_argument("--seed", type=int, default=1, help="the order of the games (default 1)")
    add_workers_options(p)
    add_quiet_option(p)
    p.set_defaults(run=run_command)


def run_command(args: Any, out: TextIO) -> int:
    lo, hi = args.empties
    run = label_games(
        args.game_files,
        args.out,
        size=args.size,
        lo=lo,
        hi=hi,
        games=args.games,
        workers=args.workers,
        seed=args.seed,
        say=progress_lines(args.quiet),
        scheduler=args.scheduler,
    )
    print(f"{run.jobs} games, {run.lines} positions labelled into {args.out}", file=out)
    # 130, as a shell reports a command Ctrl-C stopped: a script sees the labelling is not done
    return 130 if run.interrupted else 0
