"""Least-squares fit of the learned Othello evaluation (the ``train`` extra: numpy, scipy).

Each stage's weights solve a ridge regression: minimise, over the stage's positions,
``sum(w_i * (x_i . w - y_i)**2) + lam * |w|**2`` where ``x_i`` has a 1 in the slot of each
pattern instance's configuration (configurations a symmetry maps onto each other share a
slot, ``canonical_tables``), then the mobility difference, disc difference and parity, and
a bias. ``scipy.sparse.linalg.lsqr`` solves it (its ``damp`` is ``sqrt(lam)``) in seconds
for a million positions: each row has one entry per instance, 50 or so.

The regulariser ``lam`` is chosen per board on held-out *games* (positions of one game never
sit on both sides of the split), from a short list, by the held-out error of a few stages;
the stage's rows are its own empties plus ``overlap`` empties on each side, so neighbouring
stages see some of the same positions and their weights change smoothly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..games import _othello_patterns as patterns
from .dataset import Positions, _numpy
from .othello import canonical_tables

__all__ = ["design", "fit_stage", "fit_table", "predict", "stage_rows", "stage_bounds"]


def _scipy_lsqr() -> Any:
    try:
        from scipy.sparse.linalg import lsqr  # noqa: PLC0415 (an optional extra)
    except ImportError:  # pragma: no cover - depends on the environment
        from ..errors import InvalidOptionError  # noqa: PLC0415

        raise InvalidOptionError('training the evaluation needs scipy: pip install ".[train]"') from None
    return lsqr


def design(positions: Positions) -> Any:
    """The sparse design matrix of ``positions`` (CSR, one column a slot of a stage's table)."""
    np = _numpy()
    from scipy.sparse import csr_matrix  # noqa: PLC0415

    n = positions.size
    ps = patterns.pattern_set(n)
    canonical = [np.asarray(t, dtype=np.int32) for t in canonical_tables(n)]
    rows = len(positions)
    cells = positions.cells.astype(np.int32)
    per_row = len(ps.instances) + patterns.EXTRA_WEIGHTS
    columns = np.empty((rows, per_row), dtype=np.int32)
    values = np.ones((rows, per_row), dtype=np.float32)
    for i, (shape, squares) in enumerate(ps.instances):
        index = np.zeros(rows, dtype=np.int32)
        for square in squares:
            index = index * 3 + cells[:, square]
        columns[:, i] = ps.offsets[shape] + canonical[shape][index]
    base = len(ps.instances)
    stride = ps.stride
    empties = (positions.cells == 0).sum(axis=1)
    discs = (positions.cells == 1).sum(axis=1).astype(np.float32) - (positions.cells == 2).sum(axis=1)
    for k, feature in enumerate(
        (
            np.ones(rows, dtype=np.float32),
            positions.mobility.astype(np.float32),
            discs,
            np.where(empties % 2 == 1, 1.0, -1.0),
        )
    ):
        columns[:, base + k] = stride - patterns.EXTRA_WEIGHTS + k
        values[:, base + k] = feature
    indptr = np.arange(0, rows * per_row + 1, per_row, dtype=np.int64)
    return csr_matrix((values.ravel(), columns.ravel(), indptr), shape=(rows, stride))


def stage_bounds(n: int, stage: int, width: int = 0) -> tuple[int, int]:
    """The empties ``lo..hi`` (inclusive) of a stage (of ``width`` empties, default the
    size's ``STAGE_WIDTH``)."""
    width = width or patterns.STAGE_WIDTH[n]
    lo = stage * width + 1
    hi = (stage + 1) * width
    if stage == patterns.stages_for(n, width) - 1:
        hi = n * n - 4
    return lo, hi


def stage_rows(positions: Positions, stage: int, overlap: int, width: int = 0) -> Any:
    """The mask of the rows a stage is fitted on: its empties and ``overlap`` either side."""
    lo, hi = stage_bounds(positions.size, stage, width)
    empties = positions.empties
    return (empties >= lo - overlap) & (empties <= hi + overlap)


def fit_stage(matrix: Any, label: Any, weight: Any, lam: float, iterations: int = 400, start: Any = None) -> Any:
    """The ridge solution (in discs) for one stage's rows; ``start``: where LSQR starts
    (the neighbouring stage's solution: the stages are alike, so it needs fewer steps)."""
    np = _numpy()
    lsqr = _scipy_lsqr()
    from scipy.sparse import diags  # noqa: PLC0415

    scale = np.sqrt(weight).astype(np.float64)
    weighted = diags(scale) @ matrix
    # lsqr's damp is relative to the columns' scale; an unweighted row counts 1.
    solution = lsqr(weighted, label * scale, damp=math.sqrt(lam), atol=1e-6, btol=1e-6, iter_lim=iterations, x0=start)
    return solution[0]


def predict(matrix: Any, solution: Any) -> Any:
    return matrix @ solution


def quantise(solution: Any, n: int) -> Any:
    """A stage's table as stored: hundredths of a disc, int16, each configuration given its
    shared slot's weight (the canonical slots are the only ones fitted)."""
    np = _numpy()
    ps = patterns.pattern_set(n)
    canonical = canonical_tables(n)
    table = np.zeros(ps.stride, dtype=np.int16)
    scaled = np.clip(np.rint(solution * patterns.SCALE), -32767, 32767).astype(np.int16)
    for shape, offset in enumerate(ps.offsets):
        shared = offset + np.asarray(canonical[shape], dtype=np.int64)
        table[offset : offset + len(canonical[shape])] = scaled[shared]
    table[-patterns.EXTRA_WEIGHTS :] = scaled[-patterns.EXTRA_WEIGHTS :]
    return table


def fit_table(
    train: Positions,
    lam: float,
    overlap: int = 2,
    weight_cap: float = 16.0,
    say: Callable[[str], None] = lambda text: None,
    width: int = 0,
    iterations: int = 200,
) -> Any:
    """Every stage's table (int16, stage 0 first), fitted on ``train``."""
    np = _numpy()
    n = train.size
    ps = patterns.pattern_set(n)
    tables = []
    previous = None
    for stage in range(patterns.stages_for(n, width or patterns.STAGE_WIDTH[n])):
        mask = stage_rows(train, stage, overlap, width)
        part = train.select(mask)
        if len(part) == 0:
            say(f"stage {stage}: no positions, zero weights")
            tables.append(np.zeros(ps.stride, dtype=np.int16))
            continue
        matrix = design(part)
        solution = fit_stage(
            matrix, part.label.astype(np.float64), np.minimum(part.weight, weight_cap), lam, iterations, previous
        )
        previous = solution
        tables.append(quantise(solution, n))
        say(f"stage {stage}: {len(part)} positions fitted")
    return np.concatenate(tables)


def table_score(table: Any, positions: Positions, width: int = 0) -> Any:
    """The evaluation's score (hundredths of a disc, for the mover) that ``table`` gives each
    of ``positions``, computed as the engine does (stage by the position's own empties, the
    sum of int16 weights): the numpy twin of ``pattern_score``, for checking a fit fast."""
    np = _numpy()
    n = positions.size
    ps = patterns.pattern_set(n)
    stride = ps.stride
    width = width or patterns.STAGE_WIDTH[n]
    stage = np.minimum(np.maximum(positions.empties - 1, 0) // width, patterns.stages_for(n, width) - 1)
    base = stage.astype(np.int64) * stride
    cells = positions.cells.astype(np.int64)
    table = np.asarray(table, dtype=np.int64)
    empties = positions.empties
    discs = (positions.cells == 1).sum(axis=1) - (positions.cells == 2).sum(axis=1)
    total = (
        table[base + stride - 4]
        + table[base + stride - 3] * positions.mobility.astype(np.int64)
        + table[base + stride - 2] * discs
        + table[base + stride - 1] * np.where(empties % 2 == 1, 1, -1)
    )
    for shape, squares in ps.instances:
        index = np.zeros(len(positions), dtype=np.int64)
        for square in squares:
            index = index * 3 + cells[:, square]
        total = total + table[base + ps.offsets[shape] + index]
    return np.clip(total, -patterns.MAX_PATTERN_SCORE, patterns.MAX_PATTERN_SCORE)
