"""Benchmarks behind ``gamecore bench GAME [KIND]``: commands that print figures, never timed tests.

Every figure is a median of several runs in CPU seconds of this process (steadier than the
wall clock on a shared machine; the timed Tetralath opening alone runs on the wall clock, as
its time limit does). A sample repeats a short piece of work until it lasts
``MIN_SAMPLE_SECONDS``, so that small trees are not timed at the clock's resolution. A
cython/python ratio is taken on the same work, the backends' samples taken in turn.

- ``othello perft``: leaves per second per backend and board size, the per-leaf cost of 6x6 and
  10x10 relative to 8x8 on trees of similar size, and the cython/python ratio; with
  ``--reference PATH``, compiled 8x8 perft(11) against a reference perft loop built outside
  gamecore (``ref_perft.perft``, e.g. the plain Cython loop of the course's bench folder),
  timed in turn: the ratio that compares machines.
- ``othello search``: alpha-beta nodes per second on 8x8 midgame positions with the standard
  evaluation (``--eval``: another one, e.g. ``learned``), the ratio, and the time to solve FFO
  endgame positions exactly; with ``--against PATH``, the Cython-only run timed in turn with
  this build and the gamecore at PATH (before/after figures of one run).
- ``othello endgame``: the FFO positions alone (``data/ffo-40-59.obf``), one line each; with
  ``--solve-limit S``, how many empty squares the solver finishes within S seconds a move.
- ``othello mcts``: UCT iterations per second per backend and the ratio.
- ``tetralath`` (``search``): Tetralath alpha-beta nodes per second per backend and the ratio; the nodes
  and time a fixed-depth engine needs on each ply of an opening (deterministic counts); and
  the depth a timed engine (the terminal game's: 64 MB table, 5 s a move) reaches on each
  ply of an engine-vs-engine opening.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import io
import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from functools import partial
from importlib import resources
from typing import TextIO, TypeVar

from .. import _backend
from .._progress import Progress
from ..games.othello import Othello
from ..games.tetralath import Tetralath, TetralathMove
from ..search.engine import Engine, SearchResult
from ..search.mcts import MCTS

T = TypeVar("T")

__all__ = [
    "bench_perft",
    "bench_reference",
    "load_reference",
    "bench_search",
    "bench_endgame",
    "bench_solve_limit",
    "bench_mcts",
    "bench_tetralath",
    "ffo_positions",
    "parse_range",
]

#: (size, depth) per backend: the 8x8 tree of the targets, then trees of similar size.
PERFT_TREES = {
    "cython": [(8, 11), (8, 10), (6, 11), (10, 10)],
    "python": [(8, 8), (8, 7), (6, 7), (10, 7)],
}
PERFT_RATIO_TREE = (8, 8)
#: ``--reference``: the module name looked for, and the tree it is timed on (full / quick).
REFERENCE_MODULE = "ref_perft"
REFERENCE_TREE = (8, 11)
FFO_FIRST = 40  # the data file's first line is FFO position 40


#: A sample repeats its work until it has lasted this many CPU seconds (a perft of half a
#: millisecond once gave a per-leaf ratio of 16.88x).
MIN_SAMPLE_SECONDS = 0.02


def _sample(work: Callable[[], T]) -> tuple[float, T]:
    """CPU seconds of one call of ``work`` (the mean over as many calls as last
    ``MIN_SAMPLE_SECONDS``) and the last call's result."""
    calls = 0
    start = time.process_time()
    while True:
        result = work()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= MIN_SAMPLE_SECONDS:
            return elapsed / calls, result


def median_seconds(work: Callable[[], T], runs: int) -> tuple[float, T]:
    """Median CPU seconds of a call of ``work`` over ``runs`` samples (at least one) and the
    last call's result."""
    times = []
    for _ in range(max(1, runs)):
        seconds, result = _sample(work)
        times.append(seconds)
    return statistics.median(times), result


def alternated_medians(works: Mapping[str, Callable[[], T]], runs: int) -> dict[str, tuple[float, T]]:
    """:func:`median_seconds` of each work, with the samples taken in turn (a b, b a, a b, ...)
    so that a slow spell of the machine weighs on each alike: ratios of these are honest."""
    times: dict[str, list[float]] = {name: [] for name in works}
    results: dict[str, T] = {}
    order = list(works)
    for run in range(max(1, runs)):
        for name in order if run % 2 == 0 else order[::-1]:
            seconds, results[name] = _sample(works[name])
            times[name].append(seconds)
    return {name: (statistics.median(times[name]), results[name]) for name in works}


def _duration(seconds: float) -> str:
    """``"0.42 ms"`` below a second, ``"1.234 s"`` above."""
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.3f} s"


def _print_ratio(out: TextIO, what: str, medians: Mapping[str, tuple[float, int]]) -> None:
    """The cython/python ratio of the rates (count / seconds) of one piece of work."""
    rate = {name: count / seconds for name, (seconds, count) in medians.items()}
    print(f"cython/python ratio {what}: {rate['cython'] / rate['python']:.0f}x (alternated runs, medians)", file=out)


def _perft(size: int, depth: int, backend: str) -> int:
    return Othello(size, backend=backend).perft(depth)


def _mcts_iterations(size: int, iterations: int, backend: str) -> int:
    return MCTS(seed=1, backend=backend).search(Othello(size, backend=backend), iterations=iterations).iterations


def _backends(only: str | None) -> list[str]:
    return [only] if only else _backend.available()


def load_reference(path: str) -> Callable[[int], int]:
    """``perft`` of the ``ref_perft`` module found at ``path``: the module file itself (a
    built extension or a ``.py``), or the folder it was built in.

    :raises ValueError: nothing importable named ``ref_perft`` there, or it has no ``perft``.
    """
    if os.path.isdir(path):
        suffixes = importlib.machinery.EXTENSION_SUFFIXES + [".py"]
        found = [os.path.join(path, REFERENCE_MODULE + suffix) for suffix in suffixes]
        found = [file for file in found if os.path.isfile(file)]
        if not found:
            raise ValueError(f"no built {REFERENCE_MODULE} module in {path} (see the bench folder's README)")
        path = found[0]
    elif not os.path.isfile(path):
        raise ValueError(f"--reference: no such file or folder: {path}")
    spec = importlib.util.spec_from_file_location(REFERENCE_MODULE, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"--reference: {path} is not a Python module or extension")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as error:  # an extension built for another Python, or a bad file
        raise ValueError(f"--reference: cannot load {path}: {error}") from None
    perft: object = getattr(module, "perft", None)
    if not callable(perft):
        raise ValueError(f"--reference: {path} has no perft(depth) function")
    return perft


def bench_reference(out: TextIO, reference: Callable[[int], int], runs: int = 3, quick: bool = False) -> int:
    """Compiled 8x8 perft(11) (perft(8) with ``quick``) against ``reference(depth)``, samples
    taken in turn; prints both times and gamecore's time as a multiple of the reference's.
    Exit status 1 if the reference counts another number of leaves."""
    size, depth = REFERENCE_TREE[0], REFERENCE_TREE[1] - (3 if quick else 0)
    medians = alternated_medians(
        {"reference": partial(reference, depth), "gamecore": partial(_perft, size, depth, "cython")}, runs
    )
    (ref_seconds, ref_leaves), (own_seconds, leaves) = medians["reference"], medians["gamecore"]
    print(f"reference loop: {size}x{size} perft({depth}) = {ref_leaves:,} leaves  {_duration(ref_seconds)}", file=out)
    print(f"gamecore cython: {size}x{size} perft({depth}) = {leaves:,} leaves  {_duration(own_seconds)}", file=out)
    if ref_leaves != leaves:
        print(f"the reference loop counts {ref_leaves:,} leaves, gamecore {leaves:,}: not the same tree", file=out)
        return 1
    print(f"gamecore / reference time: {own_seconds / ref_seconds:.3f}x (alternated runs, medians)", file=out)
    return 0


def bench_perft(out: TextIO, runs: int = 3, backend: str | None = None, quick: bool = False) -> None:
    """Leaves/s for each backend and size, per-leaf cost vs 8x8, and the cython/python ratio.

    ``quick`` makes every tree three plies shallower (a smoke run, not figures to quote).
    """
    shallower = 3 if quick else 0
    trees = {name: [(size, depth - shallower) for size, depth in sizes] for name, sizes in PERFT_TREES.items()}
    ratio_size, ratio_depth = PERFT_RATIO_TREE[0], PERFT_RATIO_TREE[1] - shallower
    names = _backends(backend)
    for name in names:
        print(f"{name} backend", file=out)
        rates = {}
        # Round robin over the trees: a slow spell of the shared machine hits every size
        # alike instead of one size's runs, so the per-leaf ratios stay honest.
        times: dict[tuple[int, int], list[float]] = {tree: [] for tree in trees[name]}
        leaves_of: dict[tuple[int, int], int] = {}
        for _ in range(runs):
            for size, depth in trees[name]:
                seconds, leaves_of[(size, depth)] = median_seconds(partial(_perft, size, depth, name), 1)
                times[(size, depth)].append(seconds)
        for size, depth in trees[name]:
            seconds, leaves = statistics.median(times[(size, depth)]), leaves_of[(size, depth)]
            rates[(size, depth)] = leaves / seconds
            print(
                f"  {size:>2}x{size:<2} perft({depth:>2}) = {leaves:>13,} leaves  {_duration(seconds):>9}"
                f"  {leaves / seconds:>14,.0f} leaves/s",
                file=out,
                flush=True,
            )
        base = rates[trees[name][1]]
        for size, depth in trees[name][2:]:
            print(f"  per-leaf cost {size}x{size} / 8x8: {base / rates[(size, depth)]:.2f}x", file=out)
    if len(names) == 2:
        works = {name: partial(_perft, ratio_size, ratio_depth, name) for name in names}
        _print_ratio(out, f"on {ratio_size}x{ratio_size} perft({ratio_depth})", alternated_medians(works, runs))


def midgame_positions(backend: str, count: int = 4, plies: int = 20) -> list[Othello]:
    """8x8 positions ``plies`` deep into seeded random games."""
    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        game = Othello(8, backend=backend)
        while len(game.move_stack) < plies and not game.is_game_over():
            game.push(rng.choice(game.legal_moves()))
        positions.append(game)
    return positions


def _search_work(backend: str, depth: int, tt_mb: int, evaluation: str = "standard") -> Callable[[], int]:
    positions = midgame_positions(backend)

    def work() -> int:
        # A fresh engine per position: every search starts from an empty table.
        return sum(Engine(evaluation, tt_mb=tt_mb).search(game, depth=depth).nodes for game in positions)

    return work


def _search_rate(backend: str, depth: int, runs: int, tt_mb: int, evaluation: str = "standard") -> tuple[float, int]:
    seconds, nodes = median_seconds(_search_work(backend, depth, tt_mb, evaluation), runs)
    return nodes / seconds, nodes


#: ``--against``: one sample of the compiled search, run by another build of gamecore in a
#: process of its own (the same work as ``_search_work``, with that build's public names).
SAMPLE_ELSEWHERE = """
import sys, time
from gamecore.bench import midgame_positions
from gamecore.search.engine import Engine
evaluation, depth, tt_mb, least = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
positions = midgame_positions("cython")
calls, start = 0, time.process_time()
while True:
    nodes = sum(Engine(evaluation, tt_mb=tt_mb).search(game, depth=depth).nodes for game in positions)
    calls += 1
    elapsed = time.process_time() - start
    if elapsed >= least:
        break
print(elapsed / calls, nodes)
"""


def package_folder(path: str) -> str:
    """The folder that holds the ``gamecore`` package of ``path``: that folder itself, or a
    checkout's ``python`` folder. ValueError when neither holds one."""
    for folder in (path, os.path.join(path, "python")):
        if os.path.isfile(os.path.join(folder, "gamecore", "__init__.py")):
            return os.path.abspath(folder)
    raise ValueError(f"--against: no gamecore package in {path} (give a checkout or the folder holding gamecore/)")


def _sample_elsewhere(folder: str, evaluation: str, depth: int, tt_mb: int) -> Callable[[], tuple[float, int]]:
    """One timed sample of the compiled search by the gamecore in ``folder``: (CPU seconds of
    the work, nodes); ValueError with that build's last error line when it fails."""
    import subprocess  # noqa: PLC0415 (--against only: the other benchmarks need not load it)

    env = {**os.environ, "PYTHONPATH": folder, "GAMECORE_BACKEND": "cython"}
    command = [sys.executable, "-c", SAMPLE_ELSEWHERE, evaluation, str(depth), str(tt_mb), str(MIN_SAMPLE_SECONDS)]

    def sample() -> tuple[float, int]:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise ValueError(f"--against: the gamecore in {folder} failed: {last}")
        seconds, nodes = done.stdout.split()
        return float(seconds), int(nodes)

    return sample


def bench_against(out: TextIO, path: str, evaluation: str, depth: int, runs: int, tt_mb: int = 16) -> None:
    """Compiled alpha-beta nodes/s of this build and of the gamecore at ``path``, their samples
    taken in turn, each in a fresh process: before/after figures measured in one run."""
    this_build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    folders = {"this build": package_folder(this_build), path: package_folder(path)}
    samples = {name: _sample_elsewhere(folder, evaluation, depth, tt_mb) for name, folder in folders.items()}
    times: dict[str, list[float]] = {name: [] for name in samples}
    nodes: dict[str, int] = {}
    for run in range(max(1, runs)):
        for name in list(samples) if run % 2 == 0 else list(samples)[::-1]:
            seconds, nodes[name] = samples[name]()
            times[name].append(seconds)
    rates = {name: nodes[name] / statistics.median(times[name]) for name in samples}
    for name in samples:
        print(
            f"alpha-beta cython  depth {depth:>2} {evaluation}: {nodes[name]:>11,} nodes {rates[name]:>13,.0f} nodes/s"
            f"  {name}",
            file=out,
        )
    other = list(samples)[1]
    print(f"this build / {other}: {rates['this build'] / rates[other]:.2f}x (alternated runs, medians)", file=out)


def bench_search(
    out: TextIO,
    runs: int = 3,
    depth: int = 6,
    deep: int = 10,
    ffo: str = "40-49",
    backend: str | None = None,
    progress: TextIO | None = None,
    evaluation: str = "standard",
    against: str | None = None,
) -> int:
    """Alpha-beta nodes/s per backend with ``evaluation``, the ratio, a deeper Cython run, the
    deeper run against the build at ``against`` when given (:func:`bench_against`), then FFO
    solving (``progress``: where the progress of its steps goes; None: nowhere)."""
    names = _backends(backend)
    deep_run = "cython" in names and deep
    if against is not None:
        if "cython" not in names:
            raise ValueError("--against times the compiled backend, which is not in use here")
        package_folder(against)  # ValueError before any work
    steps = 1 + len(names) + (len(names) == 2) + bool(deep_run) + (against is not None)
    with Progress(steps, "steps", label="bench search", stream=progress, quiet=progress is None) as shown:
        # First, while the process's peak memory is still low: the peak only ever grows.
        shown.doing("peak memory of a search with a 64 MB table")
        grown = _peak_memory_growth(names[0], tt_mb=64)
        for name in names:
            shown.advance(doing=f"{name}: alpha-beta depth {depth}, {runs} runs")
            # A small table: allocating and touching 16 MB would cost more than these short searches.
            rate, nodes = _search_rate(name, depth, runs, tt_mb=1, evaluation=evaluation)
            shown.note(
                f"alpha-beta {name:7s} depth {depth:>2} {evaluation}: {nodes:>11,} nodes {rate:>13,.0f} nodes/s "
                "(1 MB table)",
                out,
            )
        if len(names) == 2:
            shown.advance(doing=f"cython/python ratio: alternated runs at depth {depth}")
            works = {name: _search_work(name, depth, tt_mb=1, evaluation=evaluation) for name in names}
            ratio = io.StringIO()  # printed through the progress helper, above its line
            _print_ratio(ratio, f"at depth {depth}", alternated_medians(works, runs))
            shown.note(ratio.getvalue().rstrip("\n"), out)
        if deep_run:
            shown.advance(doing=f"cython: alpha-beta depth {deep}, {runs} runs")
            rate, nodes = _search_rate("cython", deep, runs, tt_mb=16, evaluation=evaluation)
            shown.note(
                f"alpha-beta cython  depth {deep:>2} {evaluation}: {nodes:>11,} nodes {rate:>13,.0f} nodes/s "
                "(16 MB table)",
                out,
            )
        if against is not None:
            against_depth = deep or depth
            shown.advance(doing=f"cython: depth {against_depth}, this build and {against} in turn, {runs} runs")
            compared = io.StringIO()
            bench_against(compared, against, evaluation, against_depth, runs)
            shown.note(compared.getvalue().rstrip("\n"), out)
        shown.advance()
    tt = Engine(tt_mb=16).tt_bytes(names[0])
    print(f"transposition table: {tt / 2**20:.0f} MB allocated ({tt // 16:,} entries of 16 bytes)", file=out)
    if grown is not None:
        print(f"peak memory growth of a {names[0]} search with a 64 MB table: {grown / 2**20:.1f} MB", file=out)
    if ffo and ffo != "none":
        return bench_endgame(out, ffo, backend="cython" if "cython" in names else "python", progress=progress)
    return 0


def _peak_memory_growth(backend: str, tt_mb: int) -> int | None:
    """Bytes the process's peak resident memory grew by while a fresh engine with a
    ``tt_mb`` table searched a midgame position until its table was well used
    (None where the resource module is missing)."""
    game = midgame_positions(backend, count=1)[0]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    Engine(tt_mb=tt_mb).search(game, depth=9 if backend == "cython" else 5)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (after - before) * 1024  # ru_maxrss is in kilobytes on Linux


def ffo_positions() -> list[str]:
    """The lines of the FFO endgame suite 40-59 shipped with gamecore (first line: #40)."""
    text = resources.files("gamecore").joinpath("data/ffo-40-59.obf").read_text()
    return [line for line in text.splitlines() if line.strip()]


def parse_range(text: str) -> list[int]:
    """``"40-49"`` or ``"40,44,50-52"`` as a list of numbers."""
    numbers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-")
            numbers.extend(range(int(lo), int(hi) + 1))
        elif part:
            numbers.append(int(part))
    return numbers


def bench_endgame(
    out: TextIO,
    positions: str = "40-49",
    backend: str = "cython",
    node_limit: int = 0,
    time_limit: float = 0.0,
    progress: TextIO | None = None,
) -> int:
    """Solve FFO positions exactly, one line each (seconds of the solving thread's CPU
    time, so that a loaded machine measures the same work); exit status 1 if any result
    is wrong. ``progress``: where the progress goes (None: nowhere)."""
    lines = ffo_positions()
    numbers = parse_range(positions)
    for number in numbers:
        if not 0 <= number - FFO_FIRST < len(lines):
            raise ValueError(f"FFO position {number} is not shipped ({FFO_FIRST}-{FFO_FIRST + len(lines) - 1})")
    print(f"exact endgame, {backend} backend, FFO positions {positions}", file=out)
    print(
        f"{'#':>3} {'empty':>5} {'publ':>5} {'score':>5} {'move':>4} {'nodes':>14} {'cpu s':>9} {'nodes/s':>12}",
        file=out,
    )
    total_nodes, total_seconds, wrong = 0, 0.0, 0
    shown = Progress(len(numbers), "positions", label="bench endgame", stream=progress, quiet=progress is None)
    for number in numbers:
        line = lines[number - FFO_FIRST]
        board, rest = line.split(None, 1)
        fields = [f.strip() for f in rest.split(";") if f.strip()]
        scores = {move.lower(): int(score) for move, score in (f.split(":") for f in fields[1:])}
        published = max(scores.values())
        game = Othello.from_text(f"{board} {fields[0]}", backend=backend)
        empties = 64 - sum(game.score())
        shown.doing(f"FFO #{number}, {empties} empty squares")
        start = time.thread_time()
        move, score, nodes, completed = game.exact_solver()(game.core, node_limit=node_limit, time_limit=time_limit)
        seconds = time.thread_time() - start
        total_nodes += nodes
        total_seconds += seconds
        name = "--" if move is None else game.move_from_code(move).name
        if not completed:
            flag = "  stopped by a limit"
        elif score != published or scores.get(name) != published:
            flag = "  WRONG"
            wrong += 1
        else:
            flag = ""
        shown.advance()
        shown.note(
            f"{number:>3} {empties:>5} {published:>+5} {score:>+5} {name:>4} {nodes:>14,} "
            f"{seconds:>9.2f} {nodes / max(seconds, 1e-9):>12,.0f}{flag}",
            out,
        )
    shown.finish()
    print(
        f"total: {len(numbers)} positions, {total_nodes:,} nodes, {total_seconds:.1f} s CPU, "
        f"{total_nodes / max(total_seconds, 1e-9):,.0f} nodes/s, {wrong} wrong",
        file=out,
    )
    return 1 if wrong else 0


#: bench_solve_limit: the engine that plays the FFO positions down to fewer empty squares.
SOLVE_LIMIT_PLAY_DEPTH = 4


def _solve_limit_positions(numbers: list[int], backend: str, fewest: int) -> dict[int, list[Othello]]:
    """Empty squares -> positions: each FFO position, then the positions a depth-4 engine
    reaches from it down to ``fewest`` empty squares (deterministic)."""
    lines = ffo_positions()
    engine = Engine(tt_mb=16)
    by_empties: dict[int, list[Othello]] = {}
    for number in numbers:
        board, rest = lines[number - FFO_FIRST].split(None, 1)
        game = Othello.from_text(f"{board} {rest.split(';')[0].strip()}", backend=backend)
        while not game.is_game_over():
            empties = 64 - sum(game.score())
            if empties < fewest:
                break
            by_empties.setdefault(empties, []).append(game.copy())
            move = engine.search(game, depth=SOLVE_LIMIT_PLAY_DEPTH).move
            if move is None:  # not before the game is over
                break
            game.push(move)
    return by_empties


def bench_solve_limit(
    out: TextIO,
    limit: float,
    positions: str = "40-49",
    backend: str = "cython",
    fewest: int = 14,
    progress: TextIO | None = None,
) -> int:
    """The most empty squares the exact solver finishes within ``limit`` seconds (wall clock,
    as the engine's time budget) on every test position: the FFO positions and the
    positions played from them, one line per number of empty squares, from ``fewest`` up
    until a number where some position is not solved in time. ``progress``: where the
    progress goes (None: nowhere; the total is every position, the run may stop before)."""
    by_empties = _solve_limit_positions(parse_range(positions), backend, fewest)
    shown = Progress(
        sum(map(len, by_empties.values())), "positions", label="bench endgame", stream=progress, quiet=progress is None
    )
    print(f"exact solves within {limit:g} s, {backend} backend, positions from FFO {positions}", file=out)
    print(f"{'empty':>5} {'solved':>7} {'median s':>9} {'max s':>7} {'max cpu s':>9}", file=out)
    best = None
    for empties in sorted(by_empties):
        times, cpu_times, solved = [], [], 0
        for game in by_empties[empties]:
            shown.advance(0, doing=f"{empties} empty squares: {solved} solved within {limit:g} s")
            start, cpu_start = time.perf_counter(), time.process_time()
            completed = game.exact_solver()(game.core, time_limit=limit)[3]
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu_start)  # below the wall time on a loaded machine
            solved += completed
            shown.advance()
        total = len(by_empties[empties])
        shown.note(
            f"{empties:>5} {solved:>3}/{total:<3} {statistics.median(times):>9.3f} {max(times):>7.3f} "
            f"{max(cpu_times):>9.3f}",
            out,
        )
        if solved < total:
            break
        best = empties
    shown.finish()
    print(
        f"solved within {limit:g} s on every position: {best if best is not None else 'none'} empty squares", file=out
    )
    return 0


def bench_mcts(out: TextIO, runs: int = 3, iterations: int = 200, size: int = 8, backend: str | None = None) -> None:
    """UCT iterations per second from the start position, per backend, and the ratio."""
    names = _backends(backend)
    works = {name: partial(_mcts_iterations, size, iterations, name) for name in names}
    medians = alternated_medians(works, runs)
    for name, (seconds, done) in medians.items():
        print(f"MCTS {name:7s} {size}x{size}: {done / seconds:>12,.0f} iterations/s", file=out, flush=True)
    if len(names) == 2:
        _print_ratio(out, f"on {size}x{size}", medians)


#: Opening positions of the Tetralath nodes/s comparison, and its depth per backend.
TETRALATH_POSITIONS = ("", "e5", "d4 d5 e5", "e5 d4 f3 c3")
TETRALATH_RATE_DEPTH = {"cython": 6, "python": 3}
#: The cython/python ratio is taken on this tree (about 10 000 nodes; 0.4 s of pure Python).
TETRALATH_RATIO_DEPTH = 3
#: The openings' plies, depth and seconds a move: by default, and with ``--quick`` (whose
#: nodes/s searches are also two plies shallower).
TETRALATH_OPENING = (12, 8, 5.0)
TETRALATH_QUICK_OPENING = (4, 5, 0.5)
TETRALATH_QUICK_SHALLOWER = 2


def _tetralath_work(backend: str, depth: int) -> Callable[[], int]:
    games = [Tetralath.from_moves(moves, backend=backend) for moves in TETRALATH_POSITIONS]

    def work() -> int:
        # A small table: allocating and touching 16 MB would cost more than the small searches.
        return sum(Engine(tt_mb=1).search(game, depth=depth).nodes for game in games)

    return work


def bench_tetralath(
    out: TextIO,
    runs: int = 3,
    backend: str | None = None,
    plies: int | None = None,
    depth: int | None = None,
    time_limit: float | None = None,
    quick: bool = False,
) -> None:
    """Tetralath: nodes/s per backend and the ratio; per opening ply the nodes and time of a
    fixed-depth search (engine-vs-engine, one engine with a 64 MB table kept between moves);
    then the depth a ``time_limit`` engine reaches on each ply of its own opening.

    Defaults: 12 plies, depth 8, 5 s a move; ``quick`` (a smoke run of a few seconds) makes the
    nodes/s searches two plies shallower and the openings 4 plies at depth 5 and 0.5 s a move."""
    default_plies, default_depth, default_time = TETRALATH_QUICK_OPENING if quick else TETRALATH_OPENING
    opening_plies = plies or default_plies
    opening_depth = depth or default_depth
    seconds_a_move = time_limit or default_time
    names = _backends(backend)
    for name in names:
        d = TETRALATH_RATE_DEPTH[name] - (TETRALATH_QUICK_SHALLOWER if quick else 0)
        seconds, nodes = median_seconds(_tetralath_work(name, d), runs)
        print(
            f"tetralath alpha-beta {name:7s} depth {d}: {nodes:>11,} nodes {nodes / seconds:>13,.0f} nodes/s",
            file=out,
            flush=True,
        )
    if len(names) == 2:
        works = {name: _tetralath_work(name, TETRALATH_RATIO_DEPTH) for name in names}
        _print_ratio(out, f"at depth {TETRALATH_RATIO_DEPTH}", alternated_medians(works, runs))
    fast = "cython" if "cython" in names else names[0]
    if fast != "cython":
        opening_depth = min(opening_depth, 4)
    print(
        f"{fast}: depth {opening_depth} on each ply of an engine-vs-engine opening (64 MB table kept between moves)",
        file=out,
    )
    print(f"{'ply':>3} {'move':>4} {'score':>8} {'nodes':>12} {'seconds':>8} {'nodes/s':>11}", file=out, flush=True)
    # The game is the same on every run (fixed depth): each run replays it with a fresh
    # engine, and each ply's time is the median over the runs.
    played: list[tuple[TetralathMove, SearchResult[TetralathMove], list[float]]] = []  # each ply's move, result, times
    for run in range(runs):
        engine = Engine(tt_mb=64)
        game = Tetralath(backend=fast)
        for ply in range(opening_plies):
            if game.is_game_over():
                break
            start = time.process_time()
            result = engine.search(game, depth=opening_depth)
            seconds = time.process_time() - start
            assert result.move is not None  # the game is not over
            if run == 0:
                played.append((result.move, result, []))
            played[ply][2].append(seconds)
            game.push(result.move)
    total_nodes, total_seconds, worst = 0, 0.0, 0.0
    for ply, (move, result, times) in enumerate(played):
        seconds = statistics.median(times)
        total_nodes += result.nodes
        total_seconds += seconds
        worst = max(worst, seconds)
        print(
            f"{ply:>3} {move.name:>4} {result.score:>8} {result.nodes:>12,} {seconds:>8.2f} "
            f"{result.nodes / max(seconds, 1e-9):>11,.0f}",
            file=out,
            flush=True,
        )
    print(f"total {total_nodes:,} nodes, {total_seconds:.1f} s; slowest ply {worst:.2f} s", file=out)
    print(f"{fast}: depth reached in {seconds_a_move:g} s a move, engine vs engine (one engine, 64 MB table)", file=out)
    engine = Engine(tt_mb=64)
    game = Tetralath(backend=fast)
    depths = []
    for ply in range(opening_plies):
        if game.is_game_over():
            break
        result = engine.search(game, time_limit=seconds_a_move)
        assert result.move is not None  # the game is not over
        depths.append(result.depth)
        print(
            f"{ply:>3} {result.move.name:>4} depth {result.depth:>2} {result.nodes:>12,} nodes {result.elapsed:6.2f} s",
            file=out,
            flush=True,
        )
        game.push(result.move)
    print(f"depths: {' '.join(map(str, depths))} (lowest {min(depths) if depths else 0})", file=out)
