"""Fitting Multi-ProbCut's parameters (``gamecore train othello-mpc``).

Multi-ProbCut (M. Buro, "Experiments with Multi-ProbCut and a new high-quality evaluation
function for Othello", 1997; ProbCut, ICCA Journal 18(2), 1995) predicts the value ``v_d`` of a
``d``-ply search from that of a shallower ``d'``-ply one by a linear fit per game stage,
``v_d = a * v_d' + b + e``, and cuts a node when the shallow search puts the deep value
beyond the window with ``t`` standard deviations of ``e`` to spare. The pipeline, seeded and
reproducible:

1. **Positions**: self-play games as ``gamecore train othello`` makes them (the ``standard``
   engine at depth 2 after random opening plies, with random moves mixed in), at most
   ``per_stage`` positions per stage of the learned evaluation (``STAGE_WIDTH`` empties).
   Every fifth position is held out for choosing ``t``.
2. **Values**: one iterative-deepening search of each position with the learned evaluation,
   full width (no Multi-ProbCut), to ``max_depth``: its iteration ``d`` is the ``d``-ply
   search's value (the table changes no fixed-depth score). Values proven by the end of the
   game are left out.
3. **Fit**: for each stage and each depth ``d`` from ``MPC_MIN_DEPTH`` to ``max_depth``, the
   least-squares line of ``v_d`` on ``v_{shallow_depth(d)}`` and the deviation of its residuals
   (a stage with fewer than ``MIN_PAIRS`` pairs gets no fit: the searchers then use the nearest
   stage's).
4. **Threshold**: for each candidate ``t``, the held-out positions are searched with
   Multi-ProbCut at that ``t`` within the node count of the full-width search two plies
   shallower than ``max_depth``; the ``t`` whose moves agree most often with the full-width
   ``max_depth`` search's (ties: the larger ``t``, the safer) is kept. The record lists every
   candidate's agreement and nodes.

Written: ``OUT/othello{size}.mpc.json`` (the fits, ``t``, the options, the command, the seed,
the counts and timings, and the SHA-256 of the weights the values came from).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from .. import _backend
from .._progress import Progress, add_quiet_option
from ..games import _othello_patterns as patterns
from ..games.othello import Othello
from ..search import _mpc
from ..search._options import MPC_MIN_DEPTH, SearchLimits
from ..search.engine import Engine
from .othello import Position, empties_of, self_play_positions, shipped_options

__all__ = ["MPCOptions", "fit_line", "fit_pairs", "fit", "MIN_PAIRS", "T_CANDIDATES"]

#: A stage and depth needs this many pairs of values for a fit.
MIN_PAIRS = 20
#: The thresholds tried (standard deviations; Edax's selectivity levels span 1.0-3.3).
T_CANDIDATES = (1.0, 1.5, 2.0, 2.5)


@dataclass
class MPCOptions:
    """What a fit does; every field is recorded beside the fit."""

    size: int = 8
    games: int = 400  #: self-play games for the positions
    per_stage: int = 40  #: positions per stage, at most (a fifth of them held out for t)
    max_depth: int = 10  #: the deepest search fitted
    seed: int = 1
    backend: str = ""  #: "" picks the compiled backend when it loads


#: The options of the shipped fits, where they differ from ``MPCOptions``' defaults. 10x10 fits
#: depths to 8: a 10-ply search of a 10x10 position costs seconds, and the 45 minutes of a fit to
#: 10 buy probes only at the few nodes of remaining depth 9-10.
SHIPPED: dict[int, dict[str, Any]] = {8: {}, 10: {"max_depth": 8}}


def shipped_mpc_options(size: int, **changes: Any) -> MPCOptions:
    return MPCOptions(**{"size": size, **SHIPPED.get(size, {}), **changes})


def fit_line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float]:
    """``(a, b, sigma)``: the least-squares line ``y = a x + b`` and the standard deviation
    of its residuals (``n - 2`` degrees of freedom). Needs three points and two distinct xs."""
    n = len(xs)
    if n != len(ys) or n < 3:
        raise ValueError("a fit needs at least three pairs")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a fit needs two distinct shallow values")
    a = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    b = my - a * mx
    residual = sum((y - a * x - b) ** 2 for x, y in zip(xs, ys))
    return a, b, math.sqrt(residual / (n - 2))


def fit_pairs(values: Sequence[tuple[int, dict[int, int]]], size: int, max_depth: int) -> list[dict[str, Any]]:
    """The fits of ``values`` (per position: its empty squares and ``{depth: value}``), per
    stage (``STAGE_WIDTH`` empties) and depth ``MPC_MIN_DEPTH..max_depth``, each as a record
    ``{empties: [low, high], depth, shallow, a, b, sigma, pairs}``."""
    width = patterns.STAGE_WIDTH[size]
    stages: dict[int, list[dict[int, int]]] = {}
    for empties, by_depth in values:
        stages.setdefault(patterns.stage_of(empties, size), []).append(by_depth)
    fits = []
    for stage in sorted(stages):
        for depth in range(MPC_MIN_DEPTH, max_depth + 1):
            shallow = _mpc.shallow_depth(depth)
            pairs = [(v[shallow], v[depth]) for v in stages[stage] if shallow in v and depth in v]
            if len(pairs) < MIN_PAIRS or len({x for x, _ in pairs}) < 2:
                continue
            a, b, sigma = fit_line([x for x, _ in pairs], [y for _, y in pairs])
            fits.append(
                {
                    "empties": [stage * width + 1, (stage + 1) * width],
                    "depth": depth,
                    "shallow": shallow,
                    "a": round(a, 4),
                    "b": round(b, 2),
                    "sigma": round(sigma, 2),
                    "pairs": len(pairs),
                }
            )
    return fits


def _values(position: Position, options: MPCOptions, engine: Engine, backend: str) -> tuple[dict[int, int], Any]:
    """The full-width iterative deepening's value at each depth (unproven ones only), and its
    last result."""
    game = Othello(options.size, backend=backend)
    game.core.set_board(*position)
    found: dict[int, int] = {}

    def note(result: Any) -> None:
        if result.proven is None:
            found[result.depth] = result.score

    engine.clear()
    result = engine.search(game, depth=options.max_depth, progress=note)
    return found, result


def _choose_t(
    held: list[Position], options: MPCOptions, table_fits: dict[str, Any], backend: str, say: Any, shown: Progress
) -> tuple[float, list[dict[str, Any]]]:
    """The candidate ``t`` whose node-limited Multi-ProbCut searches agree most often with the
    full-width ``max_depth`` search (module docstring), and every candidate's figures."""
    full = Engine("learned", tt_mb=8, mpc=False)
    cases = []
    for position in held:
        shown.advance(doing="held-out positions: full-width searches")
        game = Othello(options.size, backend=backend)
        game.core.set_board(*position)
        if game.is_game_over():
            continue
        full.clear()
        deep = full.search(game, depth=options.max_depth)
        full.clear()
        budget = full.search(game, depth=options.max_depth - 2)
        if deep.proven is not None or deep.move is None:
            continue
        cases.append((game, deep.move, budget.nodes, budget.move))
    figures = [
        {
            "t": None,
            "agreement": round(sum(move == best for _, best, _, move in cases) / max(1, len(cases)), 4),
            "nodes": sum(nodes for _, _, nodes, _ in cases),
        }
    ]
    say(
        f"t: {len(cases)} held-out positions; full width at depth {options.max_depth - 2}: "
        f"agreement {figures[0]['agreement']:.3f}"
    )
    best_t, best = T_CANDIDATES[-1], -1.0
    for t in T_CANDIDATES:
        shown.advance(doing=f"t = {t}: Multi-ProbCut searches")
        table = _mpc.mpc_table(table_fits, t)
        agree = 0
        nodes = 0
        for game, truth, budget_nodes, _ in cases:
            searcher = _backend.load(backend).alphabeta.Searcher(8)
            engine_weights = Engine("learned").evaluation_weights(game)
            limits = SearchLimits(options.max_depth + 10, budget_nodes)
            outcome = searcher.search(game.core, limits, weights=engine_weights, mpc=table)
            agree += game.move_from_code(outcome.move) == truth
            nodes += outcome.nodes
        share = agree / max(1, len(cases))
        figures.append({"t": t, "agreement": round(share, 4), "nodes": nodes})
        say(f"t = {t}: agreement {share:.3f}")
        if share >= best:
            best_t, best = t, share
    return best_t, figures


def fit(options: MPCOptions, out_dir: str, log: TextIO | None = None, progress: TextIO | None = None) -> dict[str, Any]:
    """Run the pipeline (module docstring); write ``othello{size}.mpc.json`` to ``out_dir``
    and return its record. ``progress``: where the progress goes (None: nowhere)."""
    n = options.size
    if patterns.load_table(n) is None:
        raise ValueError(f"no learned weights are shipped for {n}x{n}: Multi-ProbCut is fitted for them")
    backend = options.backend or ("cython" if "cython" in _backend.available() else "python")
    started = time.perf_counter()

    shown = Progress(
        options.games, "games", label="train othello-mpc: self-play", stream=progress, quiet=progress is None
    )

    def say(text: str) -> None:
        if log is not None:
            shown.note(f"[{time.perf_counter() - started:7.1f} s] {text}", log)

    rng = random.Random(options.seed)
    source = shipped_options(n, games=options.games, seed=options.seed)
    with shown:
        positions = self_play_positions(source, rng, backend, shown)
    say(f"{len(positions)} positions from {options.games} self-play games")
    by_stage: dict[int, list[Position]] = {}
    for p in positions:
        by_stage.setdefault(patterns.stage_of(empties_of(p, n), n), []).append(p)
    chosen: list[Position] = []
    for stage in sorted(by_stage):
        group = by_stage[stage]
        rng.shuffle(group)
        chosen += group[: options.per_stage]
    held = chosen[::5]
    learn = [p for i, p in enumerate(chosen) if i % 5]
    engine = Engine("learned", tt_mb=8, mpc=False)
    values = []
    # every position: its searches to max_depth; then each held-out one and each candidate t
    steps = len(learn) + len(held) + len(T_CANDIDATES)
    shown = Progress(steps, "steps", label="train othello-mpc", stream=progress, quiet=progress is None)
    with shown:
        for i, p in enumerate(learn):
            shown.doing(f"searches of position {i + 1} of {len(learn)} to depth {options.max_depth}")
            found, _ = _values(p, options, engine, backend)
            values.append((empties_of(p, n), found))
            shown.advance()
            if (i + 1) % 50 == 0:
                say(f"values of {i + 1} of {len(learn)} positions")
        fits = fit_pairs(values, n, options.max_depth)
        record: dict[str, Any] = {
            "size": n,
            "model": "v_depth = a * v_shallow + b + e, e of standard deviation sigma, per stage of empties",
            "units": f"1/{patterns.SCALE} disc (the learned evaluation's)",
            "evaluation": "learned",
            "weights_sha256": _weights_sha256(n),
            "shallow_rule": "shallow = 2 * (depth // 4) + depth % 2 (depth - 2 when 0)",
            "options": asdict(options),
            "command": command_of(options),
            "backend": backend,
            "positions": len(learn),
            "held_out": len(held),
            "fits": fits,
            "t": None,
        }
        say(f"{len(fits)} fits; choosing t on {len(held)} held-out positions")
        t, figures = _choose_t(held, options, record, backend, say, shown)
    record["t"] = t
    record["t_choice"] = figures
    record["seconds"] = round(time.perf_counter() - started, 1)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, _mpc.fit_name(n)), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    return record


def _weights_sha256(n: int) -> str:
    with open(patterns.data_path(patterns.data_name(n, "patterns")), "rb") as f:
        return patterns.sha256(f.read())


def command_of(options: MPCOptions) -> str:
    shipped = asdict(shipped_mpc_options(options.size))
    changed = [
        f"--{name.replace('_', '-')} {value}"
        for name, value in asdict(options).items()
        if name not in ("size", "backend") and value != shipped[name]
    ]
    return " ".join(["gamecore train othello-mpc", f"--size {options.size}", "--out DIR", *changed])


def add_parser(games: Any, board_size: Any) -> None:
    """``gamecore train othello-mpc``: registered beside ``gamecore train othello``."""
    p = games.add_parser("othello-mpc", help="fit Multi-ProbCut's parameters for the learned Othello evaluation")
    p.add_argument("--size", type=board_size, default=8)
    p.add_argument("--out", required=True, help="directory for othello{size}.mpc.json")
    defaults = MPCOptions()
    for name, text in (
        ("games", "self-play games for the positions"),
        ("per_stage", "positions per stage, at most"),
        ("max_depth", "the deepest search fitted"),
        ("seed", "seed of the whole run"),
    ):
        by_size = "".join(
            f"; {value} on {size}x{size}"
            for size, shipped in SHIPPED.items()
            for key, value in shipped.items()
            if key == name
        )
        p.add_argument(
            f"--{name.replace('_', '-')}", type=int, help=f"{text} (default {getattr(defaults, name)}{by_size})"
        )
    p.add_argument("--backend", choices=("cython", "python"), default="")
    add_quiet_option(p)
    p.set_defaults(run=run_command)


def run_command(args: Any, out: TextIO) -> int:
    given = {k: getattr(args, k) for k in ("games", "per_stage", "max_depth", "seed", "backend")}
    options = shipped_mpc_options(args.size, **{k: v for k, v in given.items() if v is not None})
    record = fit(options, args.out, log=None if args.quiet else out, progress=None if args.quiet else sys.stderr)
    print(f"{len(record['fits'])} fits, t = {record['t']}; written to {args.out}", file=out)
    return 0
