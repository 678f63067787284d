"""Training the learned Othello evaluation (``gamecore train othello``).

The pipeline, all of it gamecore's own code and reproducible from its seed:

1. **Positions**: self-play games of today's engine (the ``standard`` evaluation, a shallow
   fixed depth), each opened by a random number of random plies and with a share of random
   moves after that, so that the positions are varied. Every position with a move to play
   is kept once.
2. **Labels, bootstrapped from the end of the game** (as Logistello was): stage 0 (the
   fewest empty squares) first. A position with at most ``exact`` empty squares is labelled
   by the exact solver (its final disc margin); a later one by a fixed-depth search with
   the learned evaluation as fitted so far, whose leaves lie ``depth`` plies closer to the
   end, in stages already fitted (the stage width is at most ``depth``).
3. **Fit** of each stage by stochastic gradient descent on the squared error (plain Python:
   no numpy needed), on the positions of the stage and of the stage before it (neighbouring
   stages share their data, so that the weights change smoothly). Configurations a symmetry
   of the board maps onto each other share one weight; a configuration never seen keeps 0.
   The error (root mean square, in discs) on a held-out tenth is recorded per stage.

The weights go to ``OUT/othello{size}.patterns``, the record (options, seed, counts, error
per stage, timings, the weights' SHA-256) to ``OUT/othello{size}.json``, and the labelled
positions to ``OUT/othello{size}-positions.txt``. Both files are rewritten after each stage:
a run stopped early leaves the stages fitted so far, and the record says which (a stage not
fitted takes the weights of the nearest fitted one and is listed as copied).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from .. import _backend
from .._progress import Progress, add_quiet_option
from ..errors import InvalidOptionError
from ..games import _othello_patterns as patterns
from ..games.othello import Othello
from ..search.engine import Engine, solve

__all__ = ["TrainOptions", "SHIPPED", "shipped_options", "train", "fit_stage", "canonical_tables"]


@dataclass
class TrainOptions:
    """What a training run does; every field is recorded beside the weights."""

    size: int = 8
    games: int = 2000  #: self-play games
    per_stage: int = 3000  #: positions labelled per stage (at most)
    random_plies: int = 10  #: each game opens with 0..random_plies random plies
    random_share: float = 0.1  #: share of random moves after the opening
    play_depth: int = 2  #: depth of the self-play engine
    depth: int = 6  #: depth of the labelling search
    exact: int = 14  #: positions with at most this many empties are solved exactly
    epochs: int = 30
    learning_rate: float = 0.004
    seed: int = 1
    backend: str = ""  #: "" picks the compiled backend when it loads


#: The options the shipped weights were trained with, where they differ from
#: ``TrainOptions``' defaults: ``gamecore train othello --size N --out DIR`` runs them, and
#: the same code and seed give the same bytes (6x6: exact solving reaches deep cheaply).
#: (8x8: the options of the self-play weights shipped before 0.2, ``othello8-v2.patterns``; the
#: shipped 8x8 weights are now fitted to recorded games, ``gamecore train othello --from``.)
SHIPPED: dict[int, dict[str, Any]] = {
    6: {"games": 4000, "per_stage": 10000, "depth": 8, "exact": 16},
    8: {"games": 6000, "per_stage": 20000},
    10: {"games": 1500, "per_stage": 10000},
}


#: The range of each option a run accepts (a labelling search, exact solve or self-play
#: engine much deeper than these would run for days on a 10x10 board, not hours).
OPTION_RANGES: dict[str, tuple[float, float]] = {
    "games": (1, 10**7),
    "per_stage": (1, 10**8),
    "random_plies": (0, 100),
    "random_share": (0.0, 1.0),
    "play_depth": (1, 10),
    "depth": (1, 16),
    "exact": (0, 20),
    "epochs": (1, 10**4),
    "learning_rate": (1e-9, 1.0),
    "stop_after": (0.0, math.inf),
}


def check_option(name: str, value: Any) -> None:
    """InvalidOptionError unless ``value`` is a number (an int for an int option) in the
    option's ``OPTION_RANGES`` (NaN is in no range)."""
    low, high = OPTION_RANGES[name]
    whole = isinstance(low, int)
    if (
        isinstance(value, bool)
        or not isinstance(value, int if whole else (int, float))
        or not low <= value <= high  # False for NaN
    ):
        flag = "--" + name.replace("_", "-")
        raise InvalidOptionError(
            f"{flag} must be {'an int' if whole else 'a number'} from {low} to {high}, got {value!r}"
        )


def shipped_options(size: int, **changes: Any) -> TrainOptions:
    """The options of the shipped ``size`` weights, with ``changes`` made."""
    return TrainOptions(**{"size": size, **SHIPPED.get(size, {}), **changes})


def command_of(options: TrainOptions) -> str:
    """The ``gamecore train othello`` command line that runs ``options``."""
    shipped = asdict(shipped_options(options.size))
    changed = [
        f"--{name.replace('_', '-')} {value}"
        for name, value in asdict(options).items()
        if name not in ("size", "backend") and value != shipped[name]
    ]
    backend = [f"--backend {options.backend}"] if options.backend else []
    return " ".join(["gamecore train othello", f"--size {options.size}", "--out DIR", *changed, *backend])


Position = tuple[int, int, int]  # (black, white, side to move)


def self_play_positions(
    options: TrainOptions, rng: random.Random, backend: str, progress: Progress | None = None
) -> list[Position]:
    """Distinct positions (with a move to play) from ``options.games`` self-play games
    (``progress``, if given, counts the games)."""
    engine = Engine("standard", tt_mb=1)
    seen: set[Position] = set()
    positions: list[Position] = []
    for number in range(options.games):
        if progress:
            progress.update(number, f"self-play game {number + 1}, {len(positions)} positions so far")
        game = Othello(options.size, backend=backend)
        opening = rng.randint(0, options.random_plies)
        plies = 0
        while not game.is_game_over():
            moves = game.legal_moves()
            if plies < opening or rng.random() < options.random_share:
                chosen = rng.choice(moves)
            else:  # (a search of a game not over always has a move)
                chosen = engine.search(game, depth=options.play_depth).move or rng.choice(moves)
            game.push(chosen)
            plies += 1
            black, white = game.core.bitboards()
            key = (black, white, int(game.turn))
            if key not in seen and not game.is_game_over():
                seen.add(key)
                positions.append(key)
        engine.clear()
    if progress:
        progress.update(options.games)
    return positions


def empties_of(position: Position, size: int) -> int:
    return size * size - (position[0] | position[1]).bit_count()


def label(position: Position, options: TrainOptions, engine: Engine, backend: str) -> int:
    """The position's value for the side to move, in hundredths of a disc."""
    game = Othello(options.size, backend=backend)
    game.core.set_board(*position)
    if empties_of(position, options.size) <= options.exact:
        return solve(game).score * patterns.SCALE
    result = engine.search(game, depth=options.depth)
    # A proven result's score is its disc margin: in hundredths like the solver's labels.
    return result.score * patterns.SCALE if result.proven else result.score


def canonical_tables(n: int) -> list[list[int]]:
    """Per shape, the index each configuration shares its weight with (the smallest of the
    configurations a symmetry of the board maps it to)."""
    ps = patterns.pattern_set(n)
    tables = []
    for length, mirrors in zip(ps.lengths, ps.mirrors):
        table = list(range(3**length))
        for perm in mirrors:
            for index in range(3**length):
                digits = [index // 3 ** (length - 1 - k) % 3 for k in range(length)]
                mirrored = 0
                for k in range(length):
                    mirrored = mirrored * 3 + digits[perm[k]]
                if mirrored < table[index]:
                    table[index] = mirrored
        tables.append(table)
    return tables


Sample = tuple[list[int], tuple[int, ...], float]  # (weight slots, extra features, target in discs)


def features(position: Position, n: int, othello: Any, canonical: list[list[int]]) -> tuple[list[int], tuple[int, ...]]:
    """The weight slots (inside one stage's table) a position uses, and its extra features
    (1 for the bias, the mobility difference, the disc difference, the parity)."""
    black, white, turn = position
    me, opp = (black, white) if turn == 0 else (white, black)
    ps = patterns.pattern_set(n)
    indices = othello.pattern_indices(me, opp, n)
    slots = [ps.offsets[shape] + canonical[shape][index] for (shape, _), index in zip(ps.instances, indices)]
    mobility = othello.legal_moves_mask(me, opp, n).bit_count() - othello.legal_moves_mask(opp, me, n).bit_count()
    empties = n * n - (me | opp).bit_count()
    return slots, (1, mobility, me.bit_count() - opp.bit_count(), 1 if empties % 2 else -1)


def fit_stage(
    samples: list[Sample], stride: int, options: TrainOptions, rng: random.Random
) -> tuple[list[float], float]:
    """Weights of one stage (``stride`` floats, in discs; the extra weights last: bias,
    mobility, discs, parity) fitted to ``samples`` by stochastic gradient descent; and the
    root mean square error on a held-out tenth (on the training samples when there are too
    few)."""
    weights = [0.0] * stride
    order = samples[:]
    rng.shuffle(order)
    held = len(order) // 10
    test, learn = (order[:held], order[held:]) if held >= 5 else (order, order)
    rate = options.learning_rate
    for _ in range(options.epochs):
        rng.shuffle(learn)
        for slots, extras, target in learn:
            error = target - _predict(weights, slots, extras, stride)
            step = rate * error
            for s in slots:
                weights[s] += step
            # the scalar features take smaller steps: they are larger than a 0/1 pattern slot
            for k, value in enumerate(extras):
                weights[stride - EXTRAS + k] += step * value * EXTRA_RATE[k]
        rate *= 0.93
    squares = [(target - _predict(weights, slots, extras, stride)) ** 2 for slots, extras, target in test]
    return weights, math.sqrt(sum(squares) / len(squares)) if squares else 0.0


EXTRAS = patterns.EXTRA_WEIGHTS
EXTRA_RATE = (1.0, 0.05, 0.01, 1.0)  # bias, mobility, discs, parity


def _predict(weights: list[float], slots: list[int], extras: tuple[int, ...], stride: int) -> float:
    base = stride - EXTRAS
    return sum(weights[s] for s in slots) + sum(weights[base + k] * v for k, v in enumerate(extras))


def expand(stage_weights: list[float], n: int, canonical: list[list[int]]) -> list[int]:
    """A stage's fitted weights as stored: hundredths of a disc, int16, every configuration
    given its shared weight."""
    ps = patterns.pattern_set(n)
    table = [0] * ps.stride
    for shape, offset in enumerate(ps.offsets):
        for index, shared in enumerate(canonical[shape]):
            table[offset + index] = _int16(stage_weights[offset + shared])
    for k in range(1, patterns.EXTRA_WEIGHTS + 1):
        table[-k] = _int16(stage_weights[-k])
    return table


def _int16(discs: float) -> int:
    return max(-32767, min(32767, round(discs * patterns.SCALE)))


def full_table(stages: dict[int, list[int]], n: int) -> tuple[list[int], dict[int, int]]:
    """Every stage's table, a stage not fitted copying the nearest fitted one (and which)."""
    ps = patterns.pattern_set(n)
    copied = {}
    table: list[int] = []
    for s in range(ps.stages):
        source = s if s in stages else min(stages, key=lambda k: (abs(k - s), k)) if stages else None
        if source is None:
            table += [0] * ps.stride
        else:
            table += stages[source]
            if source != s:
                copied[s] = source
    return table, copied


def train(
    options: TrainOptions,
    out_dir: str,
    log: TextIO | None = None,
    stop_after: float = 0.0,
    progress: TextIO | None = None,
) -> dict[str, Any]:
    """Run the whole pipeline; write the weights, the record and the positions to
    ``out_dir``; return the record. ``stop_after`` (seconds, 0: none) ends the run after the
    stage that passes it (the record says so). ``progress``: where the progress of the
    self-play games and of the labelling goes (``gamecore._progress``; None: nowhere)."""
    n = options.size
    if n not in (6, 8, 10):
        raise ValueError(f"learned evaluations are trained for 6x6, 8x8 and 10x10, not {n}x{n}")
    for name in OPTION_RANGES:  # before any work: a bad value fails at once, not hours in
        check_option(name, stop_after if name == "stop_after" else getattr(options, name))
    backend_name = options.backend or ("cython" if "cython" in _backend.available() else "python")
    othello = _backend.load(backend_name).othello
    os.makedirs(out_dir, exist_ok=True)
    ps = patterns.pattern_set(n)
    rng = random.Random(options.seed)
    started = time.perf_counter()

    shown = Progress(options.games, "games", label="train: self-play", stream=progress, quiet=progress is None)

    def say(text: str) -> None:
        if log is not None:
            shown.note(f"[{time.perf_counter() - started:7.1f} s] {text}", log)

    othello.set_pattern_weights(n, None)  # label with the weights of this run only
    with shown:
        positions = self_play_positions(options, rng, backend_name, shown)
    say(f"{len(positions)} positions from {options.games} self-play games")
    by_stage: dict[int, list[Position]] = {}
    for p in positions:
        by_stage.setdefault(patterns.stage_of(empties_of(p, n), n), []).append(p)
    canonical = canonical_tables(n)
    record: dict[str, Any] = {
        "size": n,
        "format": "little-endian int16; stages of stage_width empties, stride weights each, stage 0 first",
        "stage_width": patterns.STAGE_WIDTH[n],
        "stages": ps.stages,
        "stride": ps.stride,
        "shapes": dict(zip(ps.shapes, ps.lengths)),
        "instances": len(ps.instances),
        "units": f"1/{patterns.SCALE} disc",
        "sources": "self-play of gamecore's own engine (standard evaluation); no external game archive",
        "fit": "stochastic gradient descent on the squared error, plain Python",
        "options": asdict(options),
        "command": command_of(options),
        "backend": backend_name,
        "positions": len(positions),
        "stage_results": [],
        "complete": False,
    }
    fitted: dict[int, list[int]] = {}
    samples_by_stage: dict[int, list[Sample]] = {}
    labelled_path = os.path.join(out_dir, f"othello{n}-positions.txt")
    to_label = sum(min(options.per_stage, len(by_stage.get(stage, []))) for stage in range(ps.stages))
    shown = Progress(to_label, "positions", label="train: labelling", stream=progress, quiet=progress is None)
    with shown, open(labelled_path, "w") as labelled:
        for stage in range(ps.stages):
            chosen = by_stage.get(stage, [])
            rng.shuffle(chosen)
            chosen = chosen[: options.per_stage]
            engine = Engine({"patterns": 1}, tt_mb=8, mpc=False)  # labels by full-width search
            stage_start = time.perf_counter()
            samples = []
            for p in chosen:
                shown.doing(f"stage {stage} (of 0-{ps.stages - 1}), {empties_of(p, n)} empties")
                value = label(p, options, engine, backend_name)
                shown.advance()
                labelled.write(f"{p[0]:x} {p[1]:x} {p[2]} {value}\n")
                slots, extras = features(p, n, othello, canonical)
                samples.append((slots, extras, value / patterns.SCALE))
            labelled.flush()
            samples_by_stage[stage] = samples
            labelling = time.perf_counter() - stage_start
            data = samples + samples_by_stage.get(stage - 1, [])
            if not data:
                say(f"stage {stage}: no positions")
                continue
            shown.doing(f"stage {stage} (of 0-{ps.stages - 1}): fitting {len(data)} positions")
            weights, error = fit_stage(data, ps.stride, options, rng)
            fitted[stage] = expand(weights, n, canonical)
            table, copied = full_table(fitted, n)
            othello.set_pattern_weights(n, table)
            record["stage_results"].append(
                {
                    "stage": stage,
                    "empties": [stage * ps_width(n) + 1, (stage + 1) * ps_width(n)],
                    "positions": len(samples),
                    "fitted_on": len(data),
                    "rms_error_discs": round(error, 3),
                    "labels": "exact" if (stage + 1) * ps_width(n) <= options.exact else f"depth {options.depth}",
                    "label_seconds": round(labelling, 1),
                }
            )
            record["copied_stages"] = {str(k): v for k, v in copied.items()}
            record["complete"] = stage == ps.stages - 1
            record["seconds"] = round(time.perf_counter() - started, 1)
            write_weights(table, record, out_dir, n)
            say(f"stage {stage}: {len(samples)} positions labelled in {labelling:.1f} s, rms error {error:.2f} discs")
            if stop_after and time.perf_counter() - started > stop_after and stage < ps.stages - 1:
                record["stopped"] = f"stopped after stage {stage} (time limit {stop_after:g} s)"
                write_weights(table, record, out_dir, n)
                break
    othello.set_pattern_weights(n, patterns.load_table(n))
    return record


def ps_width(n: int) -> int:
    return patterns.STAGE_WIDTH[n]


def write_weights(table: list[int], record: dict[str, Any], out_dir: str, n: int) -> None:
    """The weights file and the record beside it (with the file's SHA-256)."""
    blob = patterns.table_bytes(table)
    with open(os.path.join(out_dir, patterns.data_name(n, "patterns")), "wb") as f:
        f.write(blob)
    record["sha256"] = patterns.sha256(blob)
    with open(os.path.join(out_dir, patterns.data_name(n, "json")), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def add_subparser(sub: Any, board_size: Callable[[str], int]) -> None:
    """``gamecore train othello``: registered by the CLI."""
    p = sub.add_parser("train", help="train a learned evaluation (gamecore train othello --help)")
    games = p.add_subparsers(dest="game", metavar="GAME", required=True)
    o = games.add_parser("othello", help="fit the Othello pattern evaluation of one board size")
    defaults = TrainOptions()
    o.add_argument("--size", type=board_size, default=8)
    shipped = "; ".join(
        f"{n}x{n}: " + ", ".join(f"{k.replace('_', '-')} {v}" for k, v in changes.items())
        for n, changes in SHIPPED.items()
    )
    o.add_argument("--out", required=True, help="directory for the weights, their record and the positions")
    helps = {
        "games": "self-play games",
        "per_stage": "positions labelled per stage, at most",
        "random_plies": "each game opens with 0 to this many random plies",
        "random_share": "share of random moves after the opening",
        "play_depth": "depth of the self-play engine",
        "depth": "depth of the labelling search (at least a stage's width)",
        "exact": "positions with at most this many empties are solved exactly",
        "epochs": "passes of the fit over a stage's positions",
        "learning_rate": "step of the fit",
        "seed": "seed of the whole run",
    }
    for name, value in asdict(defaults).items():
        if name in helps:
            where = [f"{n}x{n} {SHIPPED[n][name]}" for n in SHIPPED if name in SHIPPED[n]]
            default = f"{value}" + (f", except {', '.join(where)}" if where else "")
            o.add_argument(f"--{name.replace('_', '-')}", type=type(value), help=f"{helps[name]} (default {default})")
    o.add_argument("--backend", choices=("cython", "python"), default="")
    o.epilog = (
        "Without --from, the defaults are the self-play options of the shipped 6x6 and 10x10 weights and of "
        f"the 8x8 ones before 0.2, engine:v2 ({shipped}). The shipped 8x8 weights come from --from: "
        "docs/learned-evaluation.md."
    )
    o.add_argument("--stop-after", type=float, default=0.0, help="seconds: stop after the stage that passes it")
    add_quiet_option(o)
    recorded = o.add_argument_group(
        "from recorded games",
        "with --from, the weights are fitted to the positions of recorded games instead of self-play "
        '(needs pip install ".[train]": numpy, scipy)',
    )
    recorded.add_argument(
        "--from",
        dest="game_files",
        nargs="+",
        metavar="FILE",
        help="game files: WTHOR .wtb, GGF .ggf, or transcripts (one game a line: f5d6c3...)",
    )
    from .supervised import GameFitOptions  # noqa: PLC0415 (it imports this module)

    fit_defaults = GameFitOptions()
    recorded.add_argument(
        "--labels",
        dest="label_files",
        nargs="+",
        default=[],
        metavar="LABELS",
        help="label files of gamecore train othello-label: exact values for those games' positions",
    )
    recorded.add_argument("--ridge", type=float, help=f"the ridge regulariser (default {fit_defaults.ridge})")
    recorded.add_argument("--stage-width", type=int, help="empties a stage (default: the size's)")
    recorded.add_argument(
        "--overlap", type=int, help=f"empties a stage also fits either side (default {fit_defaults.overlap})"
    )
    recorded.add_argument("--held-out", type=float, help=f"share of games held out (default {fit_defaults.held_out})")
    recorded.add_argument("--iterations", type=int, help=f"LSQR iterations a stage (default {fit_defaults.iterations})")
    o.set_defaults(run=run_command)
    from . import mpc  # noqa: PLC0415 (it imports this module)

    mpc.add_parser(games, board_size)
    from . import labels, selfplay  # noqa: PLC0415

    labels.add_parser(games, board_size)
    selfplay.add_parser(games, board_size)


def run_command(args: Any, out: TextIO) -> int:
    if args.game_files:
        from .supervised import GameFitOptions, train_from_games  # noqa: PLC0415 (it imports this module)

        given = {k: getattr(args, k, None) for k in GameFitOptions.__dataclass_fields__ if k != "size"}
        fit_options = GameFitOptions(size=args.size, **{k: v for k, v in given.items() if v is not None})
        fitted = train_from_games(
            args.game_files, fit_options, args.out, log=None if args.quiet else out, exact_paths=args.label_files
        )
        print(
            f"{fitted['stages']} stages fitted on {fitted['positions']['fitted_rows']:,} positions; weights in {args.out}",
            file=out,
        )
        return 0
    given = {k: getattr(args, k) for k in TrainOptions.__dataclass_fields__ if k != "size"}
    options = shipped_options(args.size, **{k: v for k, v in given.items() if v is not None})
    record = train(
        options,
        args.out,
        log=None if args.quiet else out,
        stop_after=args.stop_after,
        progress=None if args.quiet else sys.stderr,
    )
    done = len(record["stage_results"])
    print(f"{done} of {record['stages']} stages fitted; weights in {args.out}", file=out)
    return 0
