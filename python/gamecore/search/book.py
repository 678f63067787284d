"""The opening book: the exact value and an optimal move of every position the engine can
meet in the first plies of a game, whatever its opponent plays (``gamecore solve --book``).

Because the engine always plays its book move, only the opponent's replies branch: the
book of ``plies`` plies holds, for each colour the engine may play, the positions with that
colour to move reached within ``plies`` plies when that colour follows the book and the
other plays anything. Positions are stored once for their eight symmetric images (the
smallest image, :func:`~gamecore.search.split.canonical`), with the side to move, the exact
value (final disc difference for the side to move, empty squares to the winner) and an
optimal move in the stored image's frame. The values come from the exact solver
(``solve_exact`` of the backend, one table shared by all the solves), so the book plays
perfectly; past it, the engine solves live (``Engine(endgame_empties=...)``).

The file is text, one position a line after ``#`` comments (``# size 6`` among them)::

    # BLACK WHITE SIDE VALUE MOVE
    000108000 000204000 b -4 c2
    00010c100 000200000 w +4 b4

``BLACK`` and ``WHITE`` are the discs as hexadecimal bitboards (bit ``row * size + col``),
``SIDE`` ``b`` or ``w`` (the side to move), ``VALUE`` its exact value, ``MOVE`` an optimal
move (a square name or ``pass``), all of the stored image. The shipped
book is ``gamecore/data/othello{size}.book`` with its record ``othello{size}.book.json``
(the command that made it, the positions, the SHA-256 and the time taken).

>>> from gamecore import Othello
>>> book = opening_book(6)
>>> book.lookup(Othello(size=6).core)[1]  # white wins 20-16 with perfect play
-4
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from ..errors import CorruptDataError, GamecoreError, InvalidOptionError
from ..games.othello import COLUMNS, PASS, Othello, OthelloMove
from ..train._runs import job_runner
from .split import TreeSplit, _transform, is_symmetric, symmetries

__all__ = [
    "Book",
    "BookBuild",
    "ExactSolver",
    "book_path",
    "book_levels",
    "book_record",
    "build_book",
    "load_book",
    "opening_book",
    "solve_book_job",
]

#: Sizes the package may ship a book for.
BOOK_SIZES = (4, 6, 8, 10)
#: A build's solver table: 2**22 entries (``--table-bits`` sets another).
BOOK_TABLE_BITS = 22
_SIDES = {"b": 0, "w": 1}
#: Symmetric positions with this many empty squares or more are solved split one ply
#: (:func:`gamecore.search.perfect.split_plies_for`'s rule).
SPLIT_EMPTIES = 23


def book_path(size: int) -> str:
    """Where the shipped book of ``size`` lives (the package's data folder)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", f"othello{size}.book")


def _canonical_with(black: int, white: int, n: int) -> tuple[int, int, tuple[int, ...]]:
    """The smallest symmetric image of the discs and the symmetry (a square permutation) giving it."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for perm in symmetries(n):
        image = (_transform(black, perm), _transform(white, perm), perm)
        if best is None or image[:2] < best[:2]:
            best = image
    assert best is not None
    return best


def _square(move: int, n: int) -> str:
    return "pass" if move == PASS else f"{COLUMNS[move % n]}{move // n + 1}"


@dataclass
class Book:
    """An opening book of one board size: ``entries[(black, white, side)] = (value, move)``,
    the discs and the move those of the smallest symmetric image."""

    size: int
    entries: dict[tuple[int, int, int], tuple[int, int]]

    def __len__(self) -> int:
        return len(self.entries)

    def key(self, core: Any) -> tuple[tuple[int, int, int], tuple[int, ...]]:
        """The entry key of an Othello core (either backend) and the symmetry that maps it there."""
        black, white = core.bitboards()
        b, w, perm = _canonical_with(int(black), int(white), self.size)
        return (b, w, int(core.turn)), perm

    def lookup(self, core: Any) -> tuple[int, int] | None:
        """``(move, value)`` for the core's position (the move a square index of its own
        frame, or ``PASS``), or None when the book does not hold it."""
        if core.size != self.size:
            return None
        key, perm = self.key(core)
        found = self.entries.get(key)
        if found is None:
            return None
        value, move = found
        if move != PASS:
            move = perm.index(move)  # back from the stored image's frame
        return move, value

    def add(self, core: Any, move: int, value: int) -> tuple[tuple[int, int, int], int]:
        """Store the position's value and ``move`` (of its own frame); returns the key and the
        stored move."""
        key, perm = self.key(core)
        stored = move if move == PASS else perm[move]
        self.entries[key] = (value, stored)
        return key, stored

    def line(self, key: tuple[int, int, int]) -> str:
        """The file line of an entry."""
        digits = (self.size * self.size + 3) // 4
        black, white, side = key
        value, move = self.entries[key]
        return f"{black:0{digits}x} {white:0{digits}x} {'bw'[side]} {value:+d} {_square(move, self.size)}"


def _parse_line(text: str, size: int, where: str) -> tuple[tuple[int, int, int], tuple[int, int]]:
    squares = size * size
    try:
        black_hex, white_hex, side, value_text, move_text = text.split()
        black, white, value = int(black_hex, 16), int(white_hex, 16), int(value_text)
        move = PASS if move_text == "pass" else OthelloMove(move_text, size).index
    except (ValueError, GamecoreError):
        raise CorruptDataError(f"{where}: not a book line (BLACK WHITE SIDE VALUE MOVE): {text[:80]!r}") from None
    if side not in _SIDES or black >> squares or white >> squares or black & white or not -squares <= value <= squares:
        raise CorruptDataError(f"{where}: not a {size}x{size} position and value: {text[:80]!r}")
    if move != PASS and (black | white) >> move & 1:
        raise CorruptDataError(f"{where}: the move {move_text} is on an occupied square")
    return (black, white, _SIDES[side]), (value, move)


def load_book(path: str | os.PathLike[str], size: int | None = None) -> Book:
    """Read a book file; its size from its header (``# size N``), else ``size``.

    :raises CorruptDataError: a line that is not an entry, a missing or wrong size, not text.
    :raises InvalidOptionError: no such file, or one that cannot be read.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            return _read_book(handle, path, size)
    except CorruptDataError:
        raise  # an OSError too, but said already
    except UnicodeDecodeError:
        raise CorruptDataError(f"{path}: not a book (not UTF-8 text)") from None
    except OSError as error:
        raise InvalidOptionError(f"cannot read the book file: {error}") from None


def _read_book(handle: TextIO, path: Any, size: int | None) -> Book:
    entries: dict[tuple[int, int, int], tuple[int, int]] = {}
    found_size = None
    for number, raw in enumerate(handle, 1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith("#"):
            words = text[1:].split()
            if words[:1] == ["size"]:
                try:
                    found_size = int(words[1])
                except (IndexError, ValueError):
                    raise CorruptDataError(f"{path}:{number}: a bad size line: {text[:80]!r}") from None
                if found_size not in BOOK_SIZES or (size is not None and found_size != size):
                    wanted = f"wanted {size}" if size is not None else f"sizes {', '.join(map(str, BOOK_SIZES))}"
                    raise CorruptDataError(f"{path}:{number}: a book of size {words[1]} ({wanted})")
            continue
        if found_size is None:
            if size is None:
                raise CorruptDataError(f"{path}:{number}: no '# size N' line before the first entry")
            found_size = size
        key, entry = _parse_line(text, found_size, f"{path}:{number}")
        entries[key] = entry
    if found_size is None:
        if size is None:
            raise CorruptDataError(f"{path}: not a book (no '# size N' line)")
        found_size = size
    return Book(found_size, entries)


@functools.cache
def opening_book(size: int) -> Book | None:
    """The shipped book of ``size`` (read once), or None when none is shipped.

    :raises CorruptDataError: the shipped file is damaged (reinstall gamecore).
    """
    path = book_path(size)
    if not os.path.exists(path):
        return None
    return load_book(path, size)


def sha256_of(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file, as the book's record gives it."""
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def book_record(path: str | os.PathLike[str]) -> str:
    """The record beside a book file: ``othello6.book`` -> ``othello6.book.json``."""
    return f"{os.fspath(path)}.json"


class ExactSolver:
    """Exact solves of one board size sharing one :class:`EndgameTable` of ``2 ** table_bits``
    entries (what a solve stores helps the next ones); ``nodes`` counts them all."""

    def __init__(self, size: int, backend: str | None = None, table_bits: int = BOOK_TABLE_BITS) -> None:
        position = Othello(size, backend=backend)
        self.squares = size * size
        self.endgame = position._backend.endgame
        self.table = self.endgame.EndgameTable(table_bits)
        self.nodes = 0
        # A symmetric position (the start, some early ones) is split one ply: its symmetric
        # moves searched once (the 6x6 start: a third of the nodes), as gamecore solve does.
        self.split = TreeSplit(size, position.backend, 1, self._leaf)

    def _leaf(self, core: Any, alpha: int, beta: int) -> tuple[int | None, int, bool]:
        move, score, nodes, completed = self.endgame.solve_exact(core.copy(), alpha, beta, table=self.table)
        self.nodes += nodes
        return move, score, completed

    def solve(self, core: Any, alpha: int | None = None, beta: int | None = None) -> tuple[int, int]:
        """``(best move, score)`` of a core (left unchanged) in the window (default: the whole,
        so exact), fail-soft; the game must not be over."""
        alpha = -self.squares if alpha is None else alpha
        beta = self.squares if beta is None else beta
        if is_symmetric(core) and self.squares - sum(core.counts()) >= SPLIT_EMPTIES:
            move, score = self.split.solve(core, alpha, beta)
        else:
            move, score, _ = self._leaf(core, alpha, beta)
        if move is None:  # pragma: no cover - no limits were given, the game is not over
            raise GamecoreError("the solver stopped without a result")
        return move, score


# -- building ------------------------------------------------------------------------------


@dataclass
class BookBuild:
    """What :func:`build_book` did: entries in the book, solved now, the solver's nodes and
    the CPU seconds of the threads that solved them."""

    positions: int = 0
    solved: int = 0
    nodes: int = 0
    cpu_seconds: float = 0.0
    completed: bool = False


def book_levels(book: Book, size: int, plies: int, backend: str | None) -> Iterator[tuple[int, list[Any]]]:
    """The positions the book must hold, a level at a time: ``(ply, cores)`` for each ply and
    colour, every core with that colour to move (a core of each symmetric class once) reached
    when that colour follows ``book`` and the other side plays anything. The caller adds a
    level's entries before asking for the next: the next level follows their book moves."""
    start = Othello(size, backend=backend).core
    frontiers = [{book.key(start)[0]: start}, {book.key(start)[0]: start}]  # for black, for white
    for ply in range(plies):
        for colour in (0, 1):
            # Each core with its moves: [PASS] for a forced pass, [] at the end.
            frontier = [(core, core.legal_moves()) for _, core in sorted(frontiers[colour].items())]
            to_move = [core for core, moves in frontier if moves and int(core.turn) == colour]
            if to_move:
                yield ply, to_move
            following: dict[tuple[int, int, int], Any] = {}
            for core, moves in frontier:
                if moves and int(core.turn) == colour:
                    found = book.lookup(core)
                    if found is None:  # the caller stopped adding
                        return
                    moves = [found[0]]
                for move in moves:
                    child = core.copy()
                    child.push(move)
                    following.setdefault(book.key(child)[0], child)
            frontiers[colour] = following


#: Each solving thread's own solver, kept from job to job (its table's entries help the next).
_WORKER_SOLVERS: dict[tuple[int, int, str | None, int], ExactSolver] = {}


#: A book position to solve: ``(size, backend, table_bits, black, white, turn)``.
BookJob = tuple[int, str | None, int, int, int, int]


def _solve_on(solver: ExactSolver, job: BookJob) -> tuple[int, int, int, float]:
    """``(move, value, nodes, cpu_seconds)`` of a job's position by ``solver``."""
    size, backend, _table_bits, black, white, turn = job
    core = Othello(size, backend=backend).core
    core.set_board(black, white, turn)
    nodes, cpu = solver.nodes, time.thread_time()
    move, value = solver.solve(core)
    return move, value, solver.nodes - nodes, time.thread_time() - cpu


def solve_book_job(job: BookJob) -> tuple[int, int, int, float]:
    """One position of a parallel build, solved where it runs (a process of ``--workers``
    or a Dask worker): ``(move, value, nodes, cpu_seconds)``, the move in the job's frame."""
    size, backend, table_bits = job[:3]
    key = (threading.get_ident(), size, backend, table_bits)
    solver = _WORKER_SOLVERS.get(key)
    if solver is None:
        solver = _WORKER_SOLVERS[key] = ExactSolver(size, backend, table_bits)
    return _solve_on(solver, job)


def build_book(
    size: int,
    plies: int,
    path: str | os.PathLike[str],
    *,
    backend: str | None = None,
    table_bits: int = BOOK_TABLE_BITS,
    progress: Callable[[int, int, BookBuild], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> BookBuild:
    """Build the book of ``plies`` plies into ``path``, appending: entries already in the file
    are kept and not solved again (a stopped build goes on where it stopped). Each new entry
    is the exact solver's value and best move (full window); in this process one
    :class:`EndgameTable` of ``2 ** table_bits`` entries serves all the solves. With
    ``workers`` > 1 the positions of a level (a ply and a colour) are solved at once in that
    many processes, or on the Dask cluster of ``scheduler`` (``tcp://HOST:8786``, or
    ``"local"`` for a ``LocalCluster`` of ``workers``), each with a table of its own, and
    written in the same order: the same positions and values (where several moves are
    optimal, the move may be another optimal one). ``progress(ply, empties, build)`` after
    each solve. Ctrl-C stops cleanly (``completed`` False; what was solved is in the file).

    :raises InvalidOptionError: a size with no solver worth it, ``plies`` < 1 or ``workers`` < 1.
    """
    if size not in BOOK_SIZES:
        raise InvalidOptionError(f"a book is for Othello sizes {', '.join(map(str, BOOK_SIZES))}, got {size!r}")
    if isinstance(plies, bool) or not isinstance(plies, int) or plies < 1:
        raise InvalidOptionError(f"plies must be an int >= 1, got {plies!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidOptionError(f"workers must be an int >= 1, got {workers!r}")
    book = load_book(path, size) if os.path.exists(path) and os.path.getsize(path) else Book(size, {})
    result = BookBuild()
    solve: Callable[[BookJob], tuple[int, int, int, float]]
    with job_runner(workers, scheduler) as run:
        if workers == 1 and scheduler is None:  # one table for all the solves, in this process
            solve = functools.partial(_solve_on, ExactSolver(size, backend, table_bits))
        else:  # each worker's own (solve_book_job travels to the workers by name)
            solve = solve_book_job
        _append_levels(book, size, plies, backend, table_bits, path, functools.partial(run, solve), result, progress)
    result.positions = len(book)
    return result


def _append_levels(
    book: Book,
    size: int,
    plies: int,
    backend: str | None,
    table_bits: int,
    path: str | os.PathLike[str],
    solve_all: Callable[[list[BookJob]], Iterator[tuple[int, int, int, float]]],
    result: BookBuild,
    progress: Callable[[int, int, BookBuild], None] | None,
) -> None:
    """Solve each level's positions missing from ``book`` by ``solve_all`` and append them
    to the file at ``path``, in order; Ctrl-C leaves ``result.completed`` False."""
    new_file = not os.path.exists(path) or not os.path.getsize(path)
    with open(path, "a", encoding="utf-8") as out:
        if new_file:
            out.write(f"# gamecore opening book: {size}x{size} Othello, exact values (gamecore solve --book)\n")
            out.write(f"# size {size}\n# BLACK WHITE SIDE VALUE MOVE (hex bitboards, side to move, its value)\n")
        try:
            for ply, cores in book_levels(book, size, plies, backend):
                todo = [core for core in cores if book.lookup(core) is None]
                jobs = [(size, backend, table_bits, *core.bitboards(), int(core.turn)) for core in todo]
                for core, (move, value, nodes, cpu) in zip(todo, solve_all(jobs)):
                    key, _ = book.add(core, move, value)
                    out.write(book.line(key) + "\n")
                    out.flush()
                    result.solved += 1
                    result.nodes += nodes
                    result.cpu_seconds += cpu
                    if progress is not None:
                        progress(ply, size * size - sum(core.counts()), result)
            result.completed = True
        except KeyboardInterrupt:
            result.completed = False


def write_record(path: str | os.PathLike[str], size: int, plies: int, build: BookBuild, seconds: float) -> str:
    """Write the JSON record beside a finished book: its command, positions, checksum and the
    time taken, summed over the runs that built it (each run listed)."""
    record_path = book_record(path)
    runs: list[dict[str, Any]] = []
    try:
        with open(record_path, encoding="utf-8") as handle:
            runs = list(json.load(handle).get("runs", []))
    except (FileNotFoundError, ValueError, AttributeError):
        runs = []
    runs.append(
        {
            "plies": plies,
            "solved": build.solved,
            "nodes": build.nodes,
            "cpu_seconds": round(build.cpu_seconds, 1),
            "wall_seconds": round(seconds, 1),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }
    )
    record = {
        "size": size,
        "plies": plies,
        "format": "text: BLACK WHITE SIDE VALUE MOVE a line (gamecore.search.book)",
        "command": f"gamecore solve --book {os.path.basename(os.fspath(path))} --size {size} --plies {plies}",
        "seed": None,
        "positions": build.positions,
        "sha256": sha256_of(path),
        "solver": "exact: solve_exact, whole window, one shared table; symmetric positions split one ply",
        "cpu_seconds": round(sum(run["cpu_seconds"] for run in runs), 1),
        "nodes": sum(run["nodes"] for run in runs),
        "runs": runs,
        "python": sys.version.split()[0],
    }
    with open(record_path, "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1)
        handle.write("\n")
    return record_path


def run_build(args: Any, out: TextIO) -> int:
    """``gamecore solve --book OUT --size N --plies K [--workers N | --scheduler ADDRESS]``."""
    size = args.size or 6
    print(f"building the {size}x{size} book of {args.book_plies} plies into {args.book}", file=out)
    start = time.perf_counter()
    every = max(args.progress, 0.0)
    last = [0.0]

    def show(ply: int, empties: int, build: BookBuild) -> None:
        now = time.perf_counter()
        if every and now - last[0] >= every:
            last[0] = now
            print(
                f"  ply {ply} ({empties} empties): {build.solved} solved, {build.nodes:,} nodes, "
                f"{build.cpu_seconds:.0f} s CPU",
                file=sys.stderr,
                flush=True,
            )

    workers = args.workers or (2 if args.scheduler == "local" else 1)
    build = build_book(
        size,
        args.book_plies,
        args.book,
        backend=args.backend,
        progress=show,
        workers=workers,
        scheduler=args.scheduler,
        table_bits=BOOK_TABLE_BITS if args.table_bits is None else args.table_bits,
    )
    seconds = time.perf_counter() - start
    print(
        f"{build.positions} positions in the book ({build.solved} solved now, {build.nodes:,} nodes, "
        f"{build.cpu_seconds:.1f} s CPU, {seconds:.1f} s)",
        file=out,
    )
    if not build.completed:
        print("stopped before the end: run the same command again to go on", file=out)
        return 130
    print(f"record: {write_record(args.book, size, args.book_plies, build, seconds)}", file=out)
    return 0
