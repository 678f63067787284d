"""Training the learned Othello evaluation from recorded games (``gamecore train othello
--games FILE...``; the ``train`` extra: numpy and scipy).

1. **Games**: the files given, read by :mod:`gamecore.archive` by their kind: WTHOR
   databases (``.wtb``: tournament games, each with its theoretical score), GGF records
   (``.ggf``) and transcripts (anything else: one game a line, ``f5d6c3...``, as the
   self-play records Egaroucid's author published). Nothing is fetched.
2. **Positions and labels** (:mod:`gamecore.train.dataset`): every position with a move to
   play, labelled by the game's final margin for the mover; in a WTHOR game, the positions
   up to its theoretical-score point take the theoretical score (the margin with perfect
   play from there) instead. Positions equal up to symmetry merge into one row.
3. **Held out**: a share of the *games* (chosen by a hash of the game's index and the seed)
   never enters the fit; the error per stage is measured on them.
4. **Fit** (:mod:`gamecore.train.fit`): each stage a ridge regression solved by LSQR.

The weights go to ``OUT/othello{size}.patterns`` and the record (options, the input files
with their SHA-256 and game counts, rows, the held-out error and correlation per stage,
timings, the weights' SHA-256) to ``OUT/othello{size}.json``: ``Engine(weights=PATH)``,
``gamecore play --weights`` and ``gamecore bench othello eval --weights`` load them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from ..errors import InvalidOptionError
from ..games import _othello_patterns as patterns
from ..games.othello import parse_square
from .dataset import Positions, _numpy, merge_symmetric, positions_from_records
from .fit import fit_table, table_score

__all__ = ["GameFitOptions", "read_games", "train_from_games", "SHIPPED_GAME_FIT"]


@dataclass
class GameFitOptions:
    """What a training run from recorded games does; every field is recorded."""

    size: int = 8
    stage_width: int = 0  #: empties a stage; 0: the size's STAGE_WIDTH
    ridge: float = 10.0  #: the regulariser (``lam`` of :func:`gamecore.train.fit.fit_stage`)
    overlap: int = 2  #: a stage also fits the positions this many empties either side
    weight_cap: float = 16.0  #: a merged row counts at most this many times
    held_out: float = 0.05  #: the share of games kept out of the fit, to measure it
    iterations: int = 200  #: LSQR iterations a stage
    seed: int = 1


#: The options of the shipped 8x8 weights (``gamecore train othello --games ...``).
SHIPPED_GAME_FIT: dict[str, Any] = {}


def _file_digest(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_games(path: str, size: int) -> tuple[list[list[int]], list[tuple[int, int] | None]]:
    """The move codes of every game in ``path`` and, per game, its known value from a point
    on (WTHOR's theoretical score: ``(black's margin, empties)``), or None."""
    from .. import archive  # noqa: PLC0415 (the archive readers)

    lowered = path.lower()
    if lowered.endswith(".wtb"):
        games = archive.read_wthor(path, check=False)
    elif lowered.endswith(".ggf"):
        games = archive.read_ggf(path, check=False)
    else:
        games = archive.read_transcripts(path, size=size, check=False)
    records: list[list[int]] = []
    values: list[tuple[int, int] | None] = []
    for game in games:
        if game.size != size or game.start is not None:
            continue  # another board, or a position of its own: not this fit's
        records.append([parse_square(name, size) for name in game.moves])
        theoretical, depth = game.theoretical_black, game.theoretical_depth
        if theoretical is not None and depth:
            values.append((2 * theoretical - size * size, depth))
        else:
            values.append(None)
    return records, values


def command_of(options: GameFitOptions) -> str:
    """The command line of a run (its game files are the record's ``sources``)."""
    defaults = GameFitOptions()
    given = [
        f"--{name.replace('_', '-')} {value}"
        for name, value in asdict(options).items()
        if name != "size" and value != getattr(defaults, name)
    ]
    return " ".join(["gamecore train othello", f"--size {options.size}", *given, "--from FILE...", "--out DIR"])


def held_out_games(games: Any, share: float, seed: int) -> Any:
    """The mask of the rows whose game is held out (a hash of the game index and seed)."""
    np = _numpy()
    mixed = (games.astype(np.uint64) * np.uint64(2654435761) + np.uint64(seed * 40503)) % np.uint64(1 << 32)
    return mixed < np.uint64(int(share * (1 << 32)))


def stage_figures(table: Any, positions: Positions, width: int) -> list[dict[str, Any]]:
    """Per stage: rows, RMS error and mean error (discs) and correlation of ``table`` on
    ``positions``."""
    np = _numpy()
    scores = table_score(table, positions, width) / patterns.SCALE
    empties = positions.empties
    figures = []
    for stage in range(patterns.stages_for(positions.size, width)):
        lo = stage * width + 1
        hi = (stage + 1) * width if stage < patterns.stages_for(positions.size, width) - 1 else positions.size**2
        mask = (empties >= lo) & (empties <= hi)
        if mask.sum() < 2:
            continue
        errors = scores[mask] - positions.label[mask]
        figures.append(
            {
                "empties": [lo, min(hi, positions.size**2 - 4)],
                "rows": int(mask.sum()),
                "rms": round(float(np.sqrt((errors**2).mean())), 3),
                "mean_error": round(float(np.abs(errors).mean()), 3),
                "correlation": round(float(np.corrcoef(scores[mask], positions.label[mask])[0, 1]), 4),
            }
        )
    return figures


def train_from_games(
    paths: Sequence[str],
    options: GameFitOptions,
    out_dir: str,
    log: TextIO | None = None,
    exact_paths: Sequence[str] = (),
) -> dict[str, Any]:
    """Run the pipeline on the game files ``paths``; write the weights and the record to
    ``out_dir``; return the record. ``exact_paths``: label files of
    ``gamecore train othello-label`` (:mod:`gamecore.train.labels`), whose exact values
    replace the labels of their games' positions."""
    _numpy()  # the extra's message before any work
    n = options.size
    if n not in (6, 8, 10):
        raise InvalidOptionError(f"learned evaluations are trained for 6x6, 8x8 and 10x10, not {n}x{n}")
    if not paths:
        raise InvalidOptionError("give the game files to learn from")
    width = options.stage_width or patterns.STAGE_WIDTH[n]
    if not 1 <= width <= n * n - 4:
        raise InvalidOptionError(f"stage_width must be from 1 to {n * n - 4}, got {width}")
    if not 0 < options.held_out < 1:
        raise InvalidOptionError(f"held_out must be a share between 0 and 1, got {options.held_out}")
    if not options.ridge >= 0 or options.iterations < 1 or options.overlap < 0 or options.weight_cap < 1:
        raise InvalidOptionError("ridge >= 0, iterations >= 1, overlap >= 0 and weight_cap >= 1 are needed")
    started = time.perf_counter()

    def say(text: str) -> None:
        if log is not None:
            print(f"[{time.perf_counter() - started:7.1f} s] {text}", file=log, flush=True)

    from .labels import read_exact_labels  # noqa: PLC0415

    solved = read_exact_labels(exact_paths, n)
    label_files = [{"file": os.path.basename(path), "sha256": _file_digest(path)} for path in exact_paths]
    used = 0
    sources = []
    parts = []
    for path in paths:
        records, values = read_games(path, n)
        name = os.path.basename(path)
        exact = [solved.get(f"{name}#{index}") for index in range(len(records))]
        used += sum(len(known) for known in exact if known)
        part = positions_from_records(records, n, values=values, exact=exact)
        parts.append(part)
        sources.append(
            {
                "file": os.path.basename(path),
                "sha256": _file_digest(path),
                "games": len(records),
                "positions": len(part),
            }
        )
        say(f"{path}: {len(records)} games, {len(part)} positions")
    if exact_paths:
        say(f"{used} positions take an exact label")
    everything = Positions.concatenate(parts)
    held = held_out_games(everything.game, options.held_out, options.seed)
    test = everything.select(held)
    train = merge_symmetric(everything.select(~held))
    say(f"{len(train)} distinct positions to fit (of {int((~held).sum())}), {len(test)} held out")
    fitted_at = time.perf_counter()
    table = fit_table(train, options.ridge, options.overlap, options.weight_cap, say, width, options.iterations)
    fit_seconds = time.perf_counter() - fitted_at
    blob = patterns.table_bytes(table.tolist())
    record: dict[str, Any] = {
        "size": n,
        "format": "little-endian int16; stages of stage_width empties, stride weights each, stage 0 first",
        "stage_width": width,
        "stages": patterns.stages_for(n, width),
        "stride": patterns.pattern_set(n).stride,
        "units": "1/100 disc",
        "fit": "ridge regression per stage (scipy.sparse.linalg.lsqr), gamecore.train.fit",
        "options": asdict(options),
        "command": command_of(options),
        "sources": sources,
        "exact_labels": {"files": label_files, "positions_used": used},
        "positions": {"fitted_rows": len(train), "held_out_rows": len(test)},
        "held_out": stage_figures(table, test, width),
        "seconds": {"total": round(time.perf_counter() - started, 1), "fit": round(fit_seconds, 1)},
        "sha256": patterns.sha256(blob),
    }
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, patterns.data_name(n, "patterns")), "wb") as weights_file:
        weights_file.write(blob)
    with open(os.path.join(out_dir, patterns.data_name(n, "json")), "w", encoding="utf-8") as record_file:
        json.dump(record, record_file, indent=1)
        record_file.write("\n")
    say(f"wrote {patterns.data_name(n, 'patterns')} ({len(blob):,} bytes) and its record to {out_dir}")
    return record


def progress_printer(out: TextIO) -> Callable[[str], None]:
    return lambda text: print(text, file=out, flush=True)
