"""``gamecore bench othello eval``: how well an evaluation predicts the exact result.

The check set (``gamecore/data/eval-check{size}.txt``) holds positions from real games
(the WTHOR archive of tournament games, see the file's header), each with its exact value:
the final disc margin for the side to move with perfect play, proven by gamecore's solver.
For each stage of empty squares and each search depth (0: the evaluation of the position
itself; ``d``: a ``d``-ply alpha-beta search with that evaluation, no exact solver, no
selective pruning), the check prints the Pearson correlation of the evaluation with the
exact values and, for an evaluation in hundredths of a disc (the learned one), the mean
absolute error in discs.

It gates shipped weights: ``--gate`` compares the weights given with ``--weights`` against
the shipped ones, stage by stage, and exits 1 if the new ones are worse in any stage at one
ply (a lower correlation, or a larger error by more than ``GATE_SLACK`` discs).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from ..errors import InvalidOptionError
from ..games.othello import Othello
from ..search.engine import Engine

__all__ = [
    "CheckPosition",
    "CHECK_SETS",
    "check_path",
    "check_positions",
    "STAGES",
    "measure",
    "bench_eval",
    "correlation",
    "pick_check_positions",
    "make_check_set",
    "GATE_SLACK",
]

#: The stages of the check, (fewest, most) empty squares; the issue's target is 20-26.
STAGES: tuple[tuple[int, int], ...] = ((14, 16), (17, 19), (20, 22), (23, 26), (27, 30), (20, 26))
#: ``--gate``: how much larger a new evaluation's mean error may be in a stage (discs).
GATE_SLACK = 0.1
#: The evaluations the check reads in discs (their scores are hundredths of a disc).
DISC_UNITS = 100


@dataclass(frozen=True)
class CheckPosition:
    """One position of the check set: the board (``Othello.to_text``), its exact value for
    the side to move and where it comes from."""

    text: str
    exact: int
    source: str

    @property
    def empties(self) -> int:
        return self.text.split()[0].count("-")


#: The shipped check sets by name (``--check NAME``): positions from tournament games (the
#: default, what ``--gate`` reads) and from engine games (another engine's self-play).
CHECK_SETS: dict[str, str] = {"tournament": "eval-check{size}.txt", "engines": "eval-check{size}-engines.txt"}


def check_path(size: int, name: str = "tournament") -> str:
    """The path of a shipped check set (``CHECK_SETS``)."""
    data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
    return os.path.join(data, CHECK_SETS[name].format(size=size))


def _check_file(size: int, path: str | None) -> str:
    """A check set's file: a shipped one by name (``CHECK_SETS``; None: the default), else ``path``."""
    return check_path(size, path or "tournament") if path is None or path in CHECK_SETS else path


def check_positions(size: int = 8, path: str | None = None) -> list[CheckPosition]:
    """The check set of a board size: the shipped one, another shipped one by name
    (``CHECK_SETS``) or the file at ``path``: lines of ``BOARD SIDE EXACT SOURCE``, ``#``
    comments."""
    path = _check_file(size, path)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        raise InvalidOptionError(f"no evaluation check set for {size}x{size} boards ({path})") from None
    positions = []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        try:
            board, side, exact, source = fields[0], fields[1], int(fields[2]), " ".join(fields[3:])
            Othello.from_text(f"{board} {side}")
        except (IndexError, ValueError) as error:
            raise InvalidOptionError(f"{path}:{number}: not a check position ({error})") from None
        if len(board) != size * size:
            raise InvalidOptionError(f"{path}:{number}: not a {size}x{size} board")
        positions.append(CheckPosition(f"{board} {side}", exact, source))
    return positions


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation (nan when either side does not vary)."""
    n = len(xs)
    if n < 2:
        return math.nan
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


def _value(engine: Engine, game: Othello, plies: int) -> float:
    """The evaluation of ``game`` for its side to move after a ``plies``-ply search (0: the
    evaluation itself), in the evaluation's units (a finished game: its margin in discs)."""
    if plies == 0:
        return float(engine.evaluate(game))
    result = engine.search(game, depth=plies)
    return float(result.score * DISC_UNITS if result.proven else result.score)


@dataclass
class StageFigures:
    stage: tuple[int, int]
    count: int
    correlation: float
    mean_error: float  # discs; nan for an evaluation not in discs


def measure(
    positions: Sequence[CheckPosition],
    make_engine: Callable[[], Engine],
    plies: Sequence[int] = (0, 1, 4),
    in_discs: bool = True,
    backend: str | None = None,
    progress: Callable[[int, int], Any] | None = None,
) -> dict[int, list[StageFigures]]:
    """Per search depth, the figures of every stage of ``STAGES`` with positions."""
    figures: dict[int, list[StageFigures]] = {}
    total = len(plies) * len(positions)
    done = 0
    for depth in plies:
        engine = make_engine()
        values = []
        for position in positions:
            values.append(_value(engine, Othello.from_text(position.text, backend=backend), depth))
            done += 1
            if progress is not None:
                progress(done, total)
        rows = []
        for stage in STAGES:
            chosen = [(v, p.exact) for v, p in zip(values, positions) if stage[0] <= p.empties <= stage[1]]
            if not chosen:
                continue
            evals = [v for v, _ in chosen]
            exact = [float(e) for _, e in chosen]
            error = sum(abs(v / DISC_UNITS - e) for v, e in chosen) / len(chosen) if in_discs else math.nan
            rows.append(StageFigures(stage, len(chosen), correlation(evals, exact), error))
        figures[depth] = rows
    return figures


def _engine_factory(evaluation: str, weights: Any) -> Callable[[], Engine]:
    # Full-width alpha-beta on the evaluation alone: no exact solver, no Multi-ProbCut.
    return lambda: Engine(evaluation, weights=weights, endgame_empties=0, mpc=False, tt_mb=16)


def _print_figures(out: TextIO, title: str, figures: dict[int, list[StageFigures]]) -> None:
    print(title, file=out)
    print(f"  {'empties':>8} {'n':>4} " + " ".join(f"{f'r@{d}':>7} {f'err@{d}':>7}" for d in figures), file=out)
    stages = [row.stage for row in next(iter(figures.values()))]
    for i, stage in enumerate(stages):
        cells = []
        for rows in figures.values():
            row = rows[i]
            error = "-" if math.isnan(row.mean_error) else f"{row.mean_error:.2f}"
            cells.append(f"{row.correlation:>7.3f} {error:>7}")
        count = next(iter(figures.values()))[i].count
        print(f"  {f'{stage[0]}-{stage[1]}':>8} {count:>4} " + " ".join(cells), file=out)


def bench_eval(
    out: TextIO,
    size: int = 8,
    evaluation: str = "default",
    weights: str | None = None,
    plies: Sequence[int] = (0, 1, 4),
    gate: bool = False,
    path: str | None = None,
    backend: str | None = None,
    limit: int = 0,
) -> int:
    """Print the check of one evaluation (and, with ``gate``, of the shipped weights beside
    it); exit status 1 when ``gate`` finds the given weights worse in a stage."""
    positions = check_positions(size, path)
    if limit:
        positions = positions[:limit]
    if gate and weights is None:
        raise InvalidOptionError("--gate compares --weights PATH against the shipped weights: give --weights")
    in_discs = evaluation in ("default", "learned")
    shown = os.path.basename(_check_file(size, path)) if path is None or path in CHECK_SETS else path
    print(
        f"evaluation check, {size}x{size}: {len(positions)} positions from real games with exact values "
        f"({shown}); r = correlation with the exact result, "
        f"err = mean error in discs",
        file=out,
    )
    figures = measure(positions, _engine_factory(evaluation, weights), plies, in_discs, backend)
    name = f"{evaluation}" + (f" with weights {weights}" if weights else "")
    _print_figures(out, name, figures)
    if not gate:
        return 0
    shipped = measure(positions, _engine_factory(evaluation, None), plies, in_discs, backend)
    _print_figures(out, "shipped weights", shipped)
    depth = 1 if 1 in plies else plies[0]
    worse = []
    for new, old in zip(figures[depth], shipped[depth]):
        if new.correlation < old.correlation or new.mean_error > old.mean_error + GATE_SLACK:
            worse.append(f"{new.stage[0]}-{new.stage[1]}")
    if worse:
        print(
            f"gate: worse than the shipped weights at {depth} ply in stages {', '.join(worse)}: do not ship", file=out
        )
        return 1
    print(f"gate: at least as good as the shipped weights in every stage at {depth} ply", file=out)
    return 0


#: The check set's stages and how many positions each gets (``make_check_set``).
CHECK_COUNTS: dict[tuple[int, int], int] = {(14, 16): 30, (17, 19): 30, (20, 22): 40, (23, 26): 40, (27, 30): 12}


def pick_check_positions(
    path: str,
    seed: int = 2021,
    counts: dict[tuple[int, int], int] | None = None,
) -> list[tuple[int, Othello]]:
    """The check set's positions, unsolved: the games of a record file (any archive format
    :func:`gamecore.archive.read_archive` reads) in an order shuffled by ``random.Random(seed)``, one position from each game, at a number of
    empty squares drawn from the stage that lacks most positions (``CHECK_COUNTS``).
    Returns ``(game index, position)`` sorted by empty squares, then by game order."""
    import random  # noqa: PLC0415

    from ..archive.stats import read_archive  # noqa: PLC0415

    counts = dict(counts or CHECK_COUNTS)
    records = read_archive(path)
    rng = random.Random(seed)
    order = list(range(len(records)))
    rng.shuffle(order)
    taken = {stage: 0 for stage in counts}
    picked: list[tuple[int, int, Othello]] = []
    for index in order:
        stage = max(counts, key=lambda k: counts[k] - taken[k])
        if taken[stage] >= counts[stage]:
            break
        empties = rng.randint(*stage)
        game = Othello()
        found = None
        for name in records[index].moves:
            if not game.legal_moves():
                break
            if game.legal_moves()[0].is_pass:
                game.push(game.legal_moves()[0])
            if game.size**2 - sum(game.score()) == empties:
                found = game.copy()
                break
            game.push(name)
        if found is None or found.is_game_over() or found.legal_moves()[0].is_pass:
            continue
        taken[stage] += 1
        picked.append((empties, index, found))
    picked.sort(key=lambda item: item[0])
    return [(index, position) for _, index, position in picked]


def make_check_set(
    path: str,
    seed: int = 2021,
    counts: dict[tuple[int, int], int] | None = None,
) -> list[tuple[str, int, str]]:
    """The check set as shipped: :func:`pick_check_positions`, each solved exactly. Returns
    ``(Othello.to_text(), exact value, source)``. Solving the 27-30-empty positions takes
    minutes each."""
    from ..search.engine import solve  # noqa: PLC0415

    name = os.path.basename(path)
    return [
        (position.to_text(), solve(position).score, f"{name}#{index}")
        for index, position in pick_check_positions(path, seed, counts)
    ]
