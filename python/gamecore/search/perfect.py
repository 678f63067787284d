"""Solving Othello positions exactly: the value, a best move and the whole perfect line
(``gamecore solve``).

:func:`perfect_line` drives the exact endgame solver (``solve_exact`` of the position's backend)
with one :class:`~gamecore.search._endgame_py.EndgameTable` shared by all its calls:

1. **The value** by one search of the whole window; the best of the root's moves searched
   so far is a proven lower bound, which the progress reports. With ``wld=True``, one
   search of the window ``(-1, 1)``: win, draw or loss.
2. **The principal variation**: the best move is played and the position after it solved
   again in a window of width two around the value it must have (the table holds most of
   it); each move of the line is so proven optimal, to the end of the game.

Progress (nodes, the proven window, the time) goes to a callback every ``progress_every``
seconds from a thread of its own; Ctrl-C (``KeyboardInterrupt``) or ``time_limit`` stops
cleanly with what was proven so far (``PerfectLine.completed`` False).

>>> from gamecore import Othello
>>> result = perfect_line(Othello(size=4))
>>> result.value, result.describe()
(-10, 'white wins 11-3 (2 empty squares left)')
>>> " ".join(str(m) for m in result.line)
'b1 a1 a2 c1 d4 a3 d1 b4 a4 c4'
"""

from __future__ import annotations

import argparse
import contextlib
import os
import threading
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from .._cli_types import add_backend, board_size, count, seconds, seconds_or_zero
from .._dask import dask_client
from .._progress import Progress
from ..errors import GamecoreError, InvalidOptionError
from ..games.othello import PASS, Othello, OthelloMove
from ..ui.othello import load_record
from .book import run_build
from .engine import Engine
from .race import ProbeRace
from .split import DaskJobs, Journal, SplitStopped, ThreadJobs, TreeSplit, empties_of, is_symmetric

__all__ = ["PerfectLine", "perfect_line", "table_bits_for", "split_plies_for", "add_subparser"]

#: Table sizes of :func:`perfect_line` (2**bits entries, 16 bytes each compiled): the smallest
#: that holds what a solve of that many empty squares stores, 2**22 (64 MiB) at most: more
#: saves 2 % of the nodes of the 6x6 start (2**24) and costs more in memory traffic.
MIN_TABLE_BITS, MAX_TABLE_BITS = 16, 22


def table_bits_for(empties: int) -> int:
    """The default table size of a solve of ``empties`` empty squares."""
    return max(MIN_TABLE_BITS, min(MAX_TABLE_BITS, empties - 8))


@dataclass
class PerfectLine:
    """What :func:`perfect_line` proved, for the side to move at the root (``black_to_move``).

    ``lower <= value <= upper`` (final disc differences, empty squares to the winner):
    ``value`` is set when they meet (always after a completed exact solve); a ``wld`` solve
    proves only the sign. ``line`` is the principal variation, every move proven optimal
    (with ``wld``: keeping the result), passes included; after an interrupted solve, the
    part proven. ``final``: the black and white discs where the whole line ends. ``nodes`` counts every solver call; ``seconds`` is the wall time,
    ``cpu_seconds`` this process's CPU time.
    """

    size: int
    black_to_move: bool
    lower: int
    upper: int
    wld: bool = False
    line: list[OthelloMove] = field(default_factory=list)
    final: tuple[int, int] | None = None
    nodes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    completed: bool = False

    @property
    def value(self) -> int | None:
        """The exact value when proven, else None."""
        return self.lower if self.lower == self.upper else None

    @property
    def best_move(self) -> OthelloMove | None:
        """The first move of the line (None at game over or before it is proven)."""
        return self.line[0] if self.line else None

    def outcome(self) -> str | None:
        """``win``, ``draw`` or ``loss`` for the side to move, once the sign is proven."""
        if self.lower > 0:
            return "win"
        if self.upper < 0:
            return "loss"
        if self.lower == self.upper == 0:
            return "draw"
        return None

    def describe(self) -> str:
        """The result in words: ``white wins 20-16`` (exact: the discs where the perfect line
        ends, or else those the value gives with the empty squares to the winner), ``black
        wins`` (win/draw/loss), ``not proven``."""
        outcome = self.outcome()
        if outcome is None:
            return "not proven"
        mover, other = ("black", "white") if self.black_to_move else ("white", "black")
        winner = mover if outcome == "win" else other
        if self.value is None:
            return "draw" if outcome == "draw" else f"{winner} wins"
        squares = self.size * self.size
        if self.final is not None and self.wld is False:
            big, small = max(self.final), min(self.final)
        else:
            big = (squares + abs(self.value)) // 2
            small = squares - big
        left = squares - big - small
        empty = f" ({left} empty square{'s' if left > 1 else ''} left)" if left else ""
        return (f"draw {big}-{small}" if outcome == "draw" else f"{winner} wins {big}-{small}") + empty


class _Progress:
    """The progress thread: calls ``report`` every ``every`` seconds until stopped."""

    def __init__(self, every: float, report: Callable[[], None]) -> None:
        self.every = every
        self.report = report
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="gamecore-solve-progress", daemon=True)

    def _run(self) -> None:
        while not self.done.wait(self.every):
            self.report()

    def __enter__(self) -> _Progress:
        if self.every > 0:
            self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()


def perfect_line(
    position: Othello,
    *,
    wld: bool = False,
    table_bits: int | None = None,
    time_limit: float = 0.0,
    progress: Callable[[PerfectLine, int, str], None] | None = None,
    progress_every: float = 2.0,
    table: Any = None,
    split_plies: int | None = None,
    jobs: Any = None,
    threads: int = 1,
) -> PerfectLine:
    """Solve ``position`` (an Othello position, left unchanged): see the module's text.

    ``table_bits``: the table's size (default :func:`table_bits_for` the empty squares);
    ``table``: an ``EndgameTable`` of the position's backend to use instead (kept, with what
    earlier solves stored). ``time_limit`` > 0 stops after that many seconds of wall time.
    ``progress(result_so_far, nodes, doing)`` is called from another thread every
    ``progress_every`` seconds while the solver works (``doing``: what it is proving now).
    ``split_plies``: the top plies searched by :class:`~gamecore.search.split.TreeSplit`
    (symmetric positions once, children ordered by a short search), the positions below solved
    as jobs, 0 for one solve of the root; by default :func:`split_plies_for` the empty squares,
    used only at symmetric positions (the start), unless ``jobs`` are given.
    ``jobs``: a :class:`~gamecore.search.split.DaskJobs` to solve the jobs on a cluster (then
    the nodes are the workers').
    ``threads`` > 1 (without ``jobs``): each solve of more than :data:`RACE_MIN_EMPTIES` empty
    squares is a :class:`~gamecore.search.race.ProbeRace` of that many threads on the table
    (null-window probes around a guess, at once).

    :raises InvalidOptionError: not an Othello position, a bad ``table_bits``, ``time_limit`` or
        ``threads``.
    """
    if not isinstance(position, Othello):
        raise InvalidOptionError(f"solve needs an Othello position, got {type(position).__name__}")
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 <= time_limit < float("inf"):
        raise InvalidOptionError(f"time_limit must be a finite number of seconds >= 0, got {time_limit!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise InvalidOptionError(f"threads must be an int >= 1, got {threads!r}")
    endgame = position._backend.endgame
    game = position.copy()
    nsq = game.size * game.size
    empties = nsq - sum(game.score())
    if table is None and isinstance(jobs, ThreadJobs):  # the threads' table: what the jobs proved
        table = jobs.table
    if table is None:  # with a cluster too: the line's last moves are solved here
        table = endgame.EndgameTable(table_bits_for(empties) if table_bits is None else table_bits)
    race = ProbeRace(endgame, table, threads) if threads > 1 and jobs is None else None
    plies = split_plies_for(empties) if split_plies is None else split_plies
    result = PerfectLine(game.size, game.turn == Othello.Color.BLACK, -nsq, nsq, wld)
    start, cpu_start = time.perf_counter(), time.process_time()
    counter = array("q", [0, 0, 0])  # the solver's: nodes, root moves searched, their best score
    doing = ["the value"]
    root_alpha: list[int | None] = [None]  # the window's alpha of the root's search, while it runs

    racing_root = [False]  # a race of the root in progress: its probes' bounds are the root's

    def root_bound() -> None:
        """The root's best move so far is a proven lower bound once above the window's alpha;
        in a race of the root, what its probes proved bounds the value."""
        alpha = root_alpha[0]
        if alpha is not None and counter[1] and counter[2] > alpha:
            result.lower = max(result.lower, int(counter[2]))
        if racing_root[0] and race is not None:
            lower, upper = race.bounds()
            if lower is not None and upper is not None:
                result.lower, result.upper = max(result.lower, lower), min(result.upper, upper)

    def report() -> None:
        if progress is not None:
            root_bound()
            result.seconds = time.perf_counter() - start
            racing = race.running_nodes() if race is not None else 0
            progress(result, result.nodes + counter[0] + racing, doing[0])

    def run(
        core: Any, alpha: int, beta: int, root: bool = False, guess: int | None = None
    ) -> tuple[int | None, int, bool]:
        """One solver call (a race of ``threads`` when the window and the position are wide
        enough); stops the whole solve (returns completed False) at the time limit."""
        left = 0.0
        if time_limit:
            left = time_limit - (time.perf_counter() - start)
            if left <= 0:
                return None, 0, False
        if race is not None and beta - alpha > 1 and empties_of(core) > RACE_MIN_EMPTIES:
            before = race.nodes
            racing_root[0] = root
            try:
                move, score, completed = race.solve(
                    core, alpha, beta, _guess(core, game.size, game.backend) if guess is None else guess, left
                )
            finally:
                result.nodes += race.nodes - before
                if root:
                    root_bound()  # what the probes proved, also when stopped
                racing_root[0] = False
            return move, score, completed
        counter[0] = counter[1] = counter[2] = 0
        root_alpha[0] = alpha if root else None
        move, score, nodes, completed = endgame.solve_exact(
            core, alpha, beta, time_limit=left, table=table, _progress=counter
        )
        root_bound()
        root_alpha[0] = None
        counter[0] = 0
        result.nodes += nodes
        return move, score, completed

    def run_job(core: Any, alpha: int, beta: int) -> tuple[int | None, int, bool]:
        if jobs is None:
            return run(core, alpha, beta)
        if time_limit and time.perf_counter() - start >= time_limit:
            return None, 0, False
        before = jobs.nodes
        move, score, completed = jobs.leaf(core, alpha, beta)
        result.nodes += jobs.nodes - before
        return move, score, completed

    def batch(positions: list[tuple[Any, int, int]]) -> Any:
        assert jobs is not None
        before = jobs.nodes
        try:
            yield from jobs.batch(positions)
        finally:
            result.nodes += jobs.nodes - before

    tree = TreeSplit(game.size, game.backend, plies, run_job, batch=batch if jobs is not None else None)

    def solve(
        core: Any, alpha: int, beta: int, root: bool = False, guess: int | None = None
    ) -> tuple[int | None, int, bool]:
        """One solve of ``core``: the solver's alone (no split, or a position too small for
        one), else the tree split's."""
        if empties_of(core) <= tree.min_empties:  # small: here, also with a cluster
            return run(core, alpha, beta, root, guess)
        if plies == 0:
            return run_job(core, alpha, beta) if jobs is not None else run(core, alpha, beta, root, guess)
        if split_plies is None and jobs is None and not is_symmetric(core):
            # By default, in one process, the split is used only where it leaves out symmetric
            # moves: its jobs' roots have none of the solver's table cut-offs (the 28 empty
            # squares after c2 b4 c5 d2 and their line cost 216 M nodes split, 149 M not).
            return run(core, alpha, beta, root, guess)
        nodes_before = tree.nodes
        try:
            move, score = tree.solve(core, alpha, beta)
        except SplitStopped:
            return None, 0, False
        finally:
            result.nodes += tree.nodes - nodes_before
        return move, score, True

    try:
        with _Progress(progress_every if progress is not None else 0, report):
            _solve_value(game, result, solve, doing)
            if result.value is not None or (wld and result.outcome() is not None):
                _solve_line(game, result, solve, doing)
    except KeyboardInterrupt:
        if race is not None:
            race.stop_all()
        root_bound()
        result.completed = False
    result.seconds = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - cpu_start
    return result


#: ``gamecore solve --book``'s plies: the shipped 6x6 book's (the engine solves live from there).
BOOK_PLIES = 10

#: The split's plies on a cluster: enough jobs for the workers at once.
CLUSTER_SPLIT_PLIES = 2

#: ``threads`` > 1: positions with no more empty squares than this are solved by one thread
#: (milliseconds: the threads would cost more than they share).
RACE_MIN_EMPTIES = 16

#: Plies of the learned-evaluation search that gives a race its first guess.
GUESS_DEPTH = 8


def _guess(core: Any, size: int, backend: str) -> int:
    """A guess of ``core``'s exact value (even on even boards) from a short search with the
    learned evaluation (hundredths of a disc; 0 on boards without learned weights)."""
    position = Othello(size, backend=backend)
    black, white = core.bitboards()
    position.core.set_board(black, white, core.turn)
    found = Engine("learned", endgame_empties=0, mpc=False, tt_mb=4).search(position, depth=GUESS_DEPTH)
    discs = found.score if found.proven else found.score / 100
    step = 2 if size * size % 2 == 0 else 1
    return max(-size * size, min(size * size, step * round(discs / step)))


def split_plies_for(empties: int) -> int:
    """The default plies of the tree split of a solve of ``empties`` empty squares in one
    process: 1 from 23 (used where the position is symmetric: the root's symmetric moves searched
    once, a third of the nodes of the 6x6 start), else 0 (one solve: the split's searches would cost more than they save; a
    deeper split costs more nodes than it saves, the jobs' roots lose the solver's cut-offs)."""
    return 1 if empties >= 23 else 0


def _window(value: int, size: int) -> tuple[int, int]:
    """The narrowest window that tells ``value`` from the other even scores: ``(value - 1,
    value + 1)``, within the board's squares."""
    squares = size * size
    return max(-squares, value - 1), min(squares, value + 1)


def _solve_value(game: Othello, result: PerfectLine, run: Callable[..., Any], doing: list[str]) -> None:
    """Prove the value (one search of the whole window: null-window probes, MTD(f), cost the
    6x6 start 25 % more) or, with ``wld``, the result (one search of the window (-1, 1))."""
    if game.is_game_over():
        black, white = game.score()
        diff = black - white if result.black_to_move else white - black
        empty = game.size * game.size - black - white
        result.lower = result.upper = diff + (empty if diff > 0 else -empty if diff < 0 else 0)
        result.completed = True
        return
    squares = game.size * game.size
    alpha, beta = (-1, 1) if result.wld else (-squares, squares)
    doing[0] = "win, draw or loss" if result.wld else "the value"
    _, score, completed = run(game.core, alpha, beta, root=True)
    if not completed:
        return
    if score <= alpha:
        result.upper = min(result.upper, score)
    elif score >= beta:
        result.lower = max(result.lower, score)
    else:
        result.lower = result.upper = score
    result.completed = True


def _solve_line(game: Othello, result: PerfectLine, run: Callable[..., Any], doing: list[str]) -> None:
    """Extend ``result.line`` to the end of the game, each move proven to keep the value
    (with ``wld``: the result) by a solve of the position it leaves."""
    sign = 1
    completed = result.completed
    result.completed = False
    while not game.is_game_over():
        want = result.outcome()
        want_value = sign * (result.value or 0)
        window = _window(0 if result.wld else want_value, game.size)
        doing[0] = f"move {len(result.line) + 1} of the perfect line"
        move, score, done = run(game.core, *window, guess=0 if result.wld else want_value)
        if not done:
            return
        if result.wld:
            got = "win" if score > 0 else "loss" if score < 0 else "draw"
            expected = want if sign > 0 else {"win": "loss", "loss": "win", "draw": "draw"}[str(want)]
            if got != expected:  # pragma: no cover - a solver bug, never a user's mistake
                raise GamecoreError(f"the perfect line lost its result at move {len(result.line) + 1}")
        elif score != want_value:  # pragma: no cover - a solver bug
            raise GamecoreError(f"the perfect line lost its value at move {len(result.line) + 1}")
        played = game.move_from_code(PASS if move is None else move)
        game.push(played)
        result.line.append(played)
        sign = -sign
    result.final = game.score()
    result.completed = completed


# -- the command ---------------------------------------------------------------------------


def add_subparser(sub: Any) -> None:
    """``gamecore solve``: registered by the CLI."""
    p = sub.add_parser(
        "solve",
        help="solve an Othello position exactly: value, best move, the whole perfect line",
        description="Solve an Othello position with perfect play by both sides: the exact final disc "
        "difference, a best move and the whole principal variation, each move proven optimal. "
        "Ctrl-C stops and says what was proven.",
        epilog="POSITION: a one-line board as in OBF files ('---XO...--- X', ';' and after ignored), "
        "a file holding one (its first line) or the readable board, or nothing: the start of --size "
        "after --moves. Example: gamecore solve --size 6 (white wins 20-16).",
    )
    p.add_argument("position", nargs="?", help="the position (see below); default: the start")
    p.add_argument("--size", type=board_size, default=None, help="board size of the start (default 8)")
    p.add_argument("--moves", default="", help="a game record played first, e.g. c4e3f6")
    p.add_argument("--wld", action="store_true", help="prove win/draw/loss only (much cheaper)")
    p.add_argument("--time", type=seconds, default=None, help="stop after this many seconds")
    p.add_argument("--progress", type=seconds_or_zero, default=2.0, help="seconds between progress lines (0: none)")
    p.add_argument("--table-bits", type=count, default=None, help="table of 2**BITS entries (default by empties)")
    p.add_argument(
        "--split",
        type=count,
        default=None,
        metavar="PLIES",
        help="search the top PLIES plies apart (symmetric positions once), solving the positions below as "
        "jobs (default: 1 from 23 empty squares, 0 below; 2 with --scheduler)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="solve the jobs on a Dask cluster: tcp://HOST:8786, or 'local' for a LocalCluster of --workers "
        'processes (pip install "gamecore[cluster]")',
    )
    p.add_argument(
        "--workers",
        type=count,
        default=None,
        help="--scheduler local: worker processes (default 2); --book: processes solving a ply's positions at once "
        "(default 1)",
    )
    p.add_argument(
        "--threads",
        type=count,
        default=None,
        help="threads of this process on one shared table, racing: one searches the whole window, the others probe "
        f"null windows from a guess (default: {DEFAULT_THREADS} with the compiled backend if the machine has the CPUs, "
        "else 1); with --split: the split's jobs",
    )
    p.add_argument(
        "--journal", default=None, metavar="FILE", help="--scheduler: keep the jobs done in FILE; a rerun skips them"
    )
    p.add_argument(
        "--book",
        default=None,
        metavar="FILE",
        help="instead, build the opening book of --size (default 6) into FILE: the exact value and a best move of "
        "every position the engine meets in the first --plies plies against any opponent (appends: a rerun goes on)",
    )
    p.add_argument(
        "--plies", dest="book_plies", type=count, default=BOOK_PLIES, help=f"--book: plies (default {BOOK_PLIES})"
    )
    add_backend(p)
    p.set_defaults(solve_handler=run_command)


def _read_position(args: argparse.Namespace) -> Othello:
    backend = args.backend
    if args.position is None:
        game = Othello(args.size or 8, backend=backend)
    else:
        text = args.position
        try:
            with open(text, encoding="utf-8") as handle:
                text = handle.read()
        except (FileNotFoundError, IsADirectoryError, OSError):
            pass  # not a file: the position itself
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and ";" in lines[0]:
            text = lines[0]  # an OBF file: its first position
        game = Othello.from_text(text, backend=backend)
        if args.size is not None and args.size != game.size:
            raise GamecoreError(f"--size {args.size} but the position is {game.size}x{game.size}")
    if args.moves:
        load_record(game, args.moves)
    return game


#: ``gamecore solve``'s threads by default: the race's two (measured: the 6x6 start in 0.75 of
#: one thread's time); more only add MTD(f) chains from other guesses.
DEFAULT_THREADS = 2


def _threads(args: argparse.Namespace, game: Othello) -> int:
    """The race's threads: ``--threads``, else :data:`DEFAULT_THREADS` where they run at once
    (the compiled solver, as many CPUs; a split's jobs only when asked)."""
    if args.threads is not None:
        return int(args.threads)
    if game.backend != "cython" or args.split is not None:
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(DEFAULT_THREADS, cpus))


@contextlib.contextmanager
def _cluster_jobs(args: argparse.Namespace, game: Othello) -> Iterator[DaskJobs | None]:
    """The Dask cluster's jobs of ``--scheduler`` (None without it), closed afterwards."""
    empties = game.size * game.size - sum(game.score())
    bits = table_bits_for(empties) if args.table_bits is None else args.table_bits
    if args.scheduler is None:
        if args.journal is not None:
            raise GamecoreError("--journal keeps a cluster's jobs: it needs --scheduler")
        if args.threads is not None and args.threads > 1 and args.split is not None:
            threads = ThreadJobs(args.threads, game.size, game.backend, bits)
            try:
                yield threads
            finally:
                threads.close()
        else:
            yield None
        return
    with dask_client(args.scheduler, args.workers or 2) as client:
        yield DaskJobs(client, game.size, game.backend, bits, Journal(args.journal))


def run_command(args: argparse.Namespace, out: TextIO) -> int:
    """``gamecore solve``: exit status 0 when the asked result was proven, 130 after Ctrl-C, 1 after --time."""
    if args.book is not None:
        if args.position is not None or args.moves:
            raise GamecoreError("--book builds from the start of --size: give no position or --moves")
        return run_build(args, out)
    game = _read_position(args)
    n = game.size
    empties = n * n - sum(game.score())
    mover = "black" if game.turn == Othello.Color.BLACK else "white"
    what = "win/draw/loss" if args.wld else "exact value"
    threads = _threads(args, game) if args.scheduler is None else 1
    how = f"{game.backend} backend" + (f", {threads} threads" if threads > 1 else "")
    print(f"{n}x{n}, {mover} to move, {empties} empty squares; proving the {what} ({how})", file=out)

    # The shared progress line (standard error): redrawn on a terminal, else a line every --progress s.
    with Progress(None, "nodes", label="solve", quiet=not args.progress, every=args.progress or 1.0) as shown:

        def show(result: PerfectLine, nodes: int, doing: str) -> None:
            window = f"[{result.lower:+d}, {result.upper:+d}]"
            shown.update(nodes, f"value in {window}, line {len(result.line)} moves, proving {doing}")

        with _cluster_jobs(args, game) as jobs:
            result = perfect_line(
                game,
                wld=args.wld,
                table_bits=args.table_bits,
                time_limit=args.time or 0.0,
                progress=show if args.progress else None,
                progress_every=min(args.progress, 0.5),
                split_plies=args.split if args.split is not None or jobs is None else CLUSTER_SPLIT_PLIES,
                jobs=jobs,
                threads=threads if jobs is None else 1,
            )
    rate = result.nodes / max(result.cpu_seconds, 1e-9)
    if result.value is not None:
        print(f"value: {result.value:+d} for {mover}: {result.describe()} with perfect play", file=out)
    elif result.outcome() is not None:
        print(
            f"result: {result.describe()} (win/draw/loss only: value in [{result.lower:+d}, {result.upper:+d}])",
            file=out,
        )
    else:
        print(f"value in [{result.lower:+d}, {result.upper:+d}] for {mover} (not proven further)", file=out)
    if result.line:
        kept = "keeping the result" if args.wld else "proven optimal"
        print(f"best move: {result.line[0]}", file=out)
        print(f"line ({len(result.line)} moves, each {kept}): {' '.join(str(m) for m in result.line)}", file=out)
    print(
        f"{result.nodes:,} nodes in {result.seconds:.1f} s ({result.cpu_seconds:.1f} s CPU, {rate:,.0f} nodes/s CPU)",
        file=out,
    )
    if not result.completed:
        print("stopped before the end: the figures above are what was proven", file=out)
        return 1 if args.time else 130
    return 0
