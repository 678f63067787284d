"""The learned Othello evaluation's patterns and weight tables, shared by both backends.

A *pattern* is an ordered list of squares (the Logistello/Edax family: Buro, "Experiments
with Multi-ProbCut and a new high-quality evaluation function for Othello", 1997). Each
shape below is placed on the board under its eight symmetries; each distinct square set is
one *instance*. An instance reads its squares in order as a base-3 number (0 empty, 1 a disc
of the side to move, 2 an opponent disc, the first square the most significant digit), and
the evaluation is, for the side to move, the sum over the instances of
``weights[stage][shape][index]``, plus the stage's bias and its weights times the mobility
difference, the disc difference and the parity: in hundredths of a disc (``SCALE``). The stage is the number of empty
squares, ``(empties - 1) // STAGE_WIDTH`` (clamped to the last stage).

The compiled backend copies the instances and the table into C arrays
(``pybindings/gamecore/games/_othello_cy.pyx``); the pure one reads them from here
(``_othello_py.pattern_score``): both compute the same integer.

Weights are stored per size in ``gamecore/data/othello{size}.patterns`` (little-endian
int16, every stage's table in turn) with ``othello{size}.json`` beside it (how
they were trained: sources, seeds, error per stage, the file's SHA-256). A size without a
file has no learned evaluation: its pattern score is 0.
"""

from __future__ import annotations

import functools
import mmap
import os
import sys
from array import array
from collections.abc import Callable
from typing import NamedTuple, TypeAlias

from ..errors import CorruptDataError

__all__ = [
    "SCALE",
    "STAGE_WIDTH",
    "PatternSet",
    "pattern_set",
    "stage_of",
    "load_table",
    "table_bytes",
    "MAX_PATTERN_SCORE",
    "Weights",
    "load_weights",
    "stages_for",
]

#: Evaluation units per disc.
SCALE = 100
#: Empty squares per stage.
STAGE_WIDTH = {4: 4, 6: 4, 8: 4, 10: 12}
#: The pattern score is clamped to +-this (a weighted sum of features stays inside a C int).
MAX_PATTERN_SCORE = 100_000
#: Extra weights after the patterns, per stage: a bias, and the weights of the mobility
#: difference, the disc difference and the parity (+1 with an odd number of empties, else -1).
EXTRA_WEIGHTS = 4


def _edge_2x(n: int) -> list[tuple[int, int]]:
    return [(0, c) for c in range(n)] + [(1, 1), (1, n - 2)]


def _corner(rows: int, cols: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(rows) for c in range(cols)]


def _row(r: int, n: int) -> list[tuple[int, int]]:
    return [(r, c) for c in range(n)]


def _diagonal(length: int) -> list[tuple[int, int]]:
    return [(i, length - 1 - i) for i in range(length)]


def _shapes(n: int) -> dict[str, list[tuple[int, int]]]:
    """The shapes of an n x n board, none longer than 10 squares (3**10 weights a stage)."""
    if n == 10:
        return _shapes_10()
    shapes: dict[str, list[tuple[int, int]]] = {}
    shapes["edge+2x" if n + 2 <= 10 else "edge"] = _edge_2x(n) if n + 2 <= 10 else _row(0, n)
    shapes["corner3x3"] = _corner(3, 3)
    if n >= 6:
        shapes["corner2x5"] = _corner(2, 5)
    for r in range(1, n // 2):
        shapes[f"row{r + 1}"] = _row(r, n)
    for length in range(4, n + 1):
        shapes[f"diagonal{length}"] = _diagonal(length)
    return shapes


def _shapes_10() -> dict[str, list[tuple[int, int]]]:
    """The 10x10 shapes: none longer than 9 squares, so that the table stays small (121,342
    weights a stage, 1.9 MB at 8 stages; rows and diagonals of 10 would take 9.3 MB at 10).
    A full edge with its X-squares (12 squares) is read as two overlapping pieces, a corner,
    the 8 squares beside it and its X-square, placed at both ends; the rows 2-5 are their
    middle 8 squares; the diagonals of 9 and 10 squares are read from a corner, 9 squares
    long (the 10-square one as two overlapping pieces again). 64 instances in all."""
    shapes: dict[str, list[tuple[int, int]]] = {
        "edge8+x": [(0, c) for c in range(8)] + [(1, 1)],
        "corner3x3": _corner(3, 3),
        "corner2x4": _corner(2, 4),
    }
    for r in range(1, 5):
        shapes[f"row{r + 1}/8"] = [(r, c) for c in range(1, 9)]
    for length in range(4, 10):
        shapes[f"diagonal{length}"] = _diagonal(length)
    shapes["diagonal10/9"] = [(i, 9 - i) for i in range(9)]
    return shapes


def _symmetries(n: int) -> list[Callable[[int, int], tuple[int, int]]]:
    m = n - 1
    return [
        lambda r, c: (r, c),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (m - r, m - c),
        lambda r, c: (c, r),
        lambda r, c: (c, m - r),
        lambda r, c: (m - c, r),
        lambda r, c: (m - c, m - r),
    ]


class PatternSet(NamedTuple):
    """The instances of one board size: ``instances[i] = (shape, squares)``; ``offsets[shape]``
    is where the shape's table starts inside a stage's table of ``stride`` weights (the
    ``EXTRA_WEIGHTS`` are its last ones); ``mirrors[shape]`` lists, for a shape a
    symmetry maps onto itself in another order, that order (training ties the two indices)."""

    size: int
    shapes: tuple[str, ...]
    lengths: tuple[int, ...]
    instances: tuple[tuple[int, tuple[int, ...]], ...]
    offsets: tuple[int, ...]
    stride: int
    stages: int
    mirrors: tuple[tuple[tuple[int, ...], ...], ...]


@functools.cache
def pattern_set(n: int) -> PatternSet:
    """The pattern instances of an n x n board (computed once per size)."""
    shapes = _shapes(n)
    instances: list[tuple[int, tuple[int, ...]]] = []
    mirrors: list[tuple[tuple[int, ...], ...]] = []
    for shape_id, cells in enumerate(shapes.values()):
        first_order: dict[frozenset[int], tuple[int, ...]] = {}
        self_maps: set[tuple[int, ...]] = set()
        for transform in _symmetries(n):
            squares = tuple(r * n + c for r, c in (transform(*cell) for cell in cells))
            seen = first_order.get(frozenset(squares))
            if seen is None:
                first_order[frozenset(squares)] = squares
                instances.append((shape_id, squares))
            elif seen != squares:
                self_maps.add(tuple(seen.index(sq) for sq in squares))
        mirrors.append(tuple(sorted(self_maps)))
    lengths = tuple(len(cells) for cells in shapes.values())
    offsets = []
    total = 0
    for length in lengths:
        offsets.append(total)
        total += 3**length
    return PatternSet(
        size=n,
        shapes=tuple(shapes),
        lengths=lengths,
        instances=tuple(instances),
        offsets=tuple(offsets),
        stride=total + EXTRA_WEIGHTS,
        stages=(n * n - 5) // STAGE_WIDTH[n] + 1,
        mirrors=tuple(mirrors),
    )


def stages_for(n: int, width: int) -> int:
    """How many stages of ``width`` empties an n x n board's tables have."""
    return (n * n - 5) // width + 1


def stage_of(empties: int, n: int, width: int = 0) -> int:
    """The stage of a position with ``empties`` empty squares (stages of ``width`` empties,
    the size's ``STAGE_WIDTH`` by default)."""
    width = width or STAGE_WIDTH[n]
    return min(max(empties - 1, 0) // width, (n * n - 5) // width)


def data_name(n: int, suffix: str) -> str:
    return f"othello{n}.{suffix}"


def table_bytes(weights: array[int] | list[int]) -> bytes:
    """A table as stored: little-endian int16, uncompressed (read and copied in a millisecond
    or two when the first core of the size is made; decompressing would take ten)."""
    raw = array("h", weights)
    if sys.byteorder != "little":
        raw.byteswap()
    return raw.tobytes()


def decode_table(blob: bytes, n: int, width: int = 0) -> Table:
    """The int16 table of a stored blob, checked against the size's pattern set."""
    raw = array("h")
    raw.frombytes(blob)
    if sys.byteorder != "little":
        raw.byteswap()
    return checked_table(raw, n, width)


Table: TypeAlias = "array[int] | memoryview"  # int16 values (a string: array is generic to checkers only)


def checked_table(weights: object, n: int, width: int = 0) -> Table:
    """``weights`` as an int16 table of the n x n layout in stages of ``width`` empties (the
    size's ``STAGE_WIDTH`` by default; an int16 array or memoryview is taken as it is,
    anything else copied into one), or ValueError."""
    table: Table
    try:
        if isinstance(weights, array) and weights.typecode == "h":
            table = weights
        elif isinstance(weights, memoryview) and weights.format == "h":
            table = weights
        else:
            table = array("h", weights)  # type: ignore[call-overload]
    except (TypeError, OverflowError) as error:
        raise ValueError(f"pattern weights must be int16 values: {error}") from None
    ps = pattern_set(n)
    stages = stages_for(n, width or STAGE_WIDTH[n])
    if len(table) != ps.stride * stages:
        raise ValueError(f"a {n}x{n} pattern table has {ps.stride * stages} weights, got {len(table)}")
    return table


def data_path(name: str) -> str:
    """A file of the package's data folder (plain file access: importlib.resources alone
    would cost more to import than mapping the weights). Worked out when asked: the flat
    CTU player (``gamecore export ctu --standalone``) carries this module without a file."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", name)


@functools.cache
def load_table(n: int) -> Table | None:
    """The shipped weights of an n x n board (``None`` when none are shipped): the file
    mapped read-only into memory, so that only the entries a search reads are ever paged
    in (reading all of it would cost milliseconds on the first core of the size)."""
    path = data_path(data_name(n, "patterns"))
    try:
        with open(path, "rb") as f:
            if sys.byteorder != "little":
                return decode_table(f.read(), n)
            try:
                mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file cannot be mapped
                return decode_table(b"", n)
        return checked_table(memoryview(mapped).cast("h"), n)
    except FileNotFoundError:
        return None
    except (ValueError, TypeError) as error:  # short, empty, an odd number of bytes
        raise CorruptDataError(
            f"the learned {n}x{n} Othello weights are damaged ({error}): {path}; reinstall gamecore"
        ) from None


def sha256(blob: bytes) -> str:
    """The SHA-256 of a stored table, as its record gives it."""
    import hashlib  # noqa: PLC0415 (training and tests only: OpenSSL takes milliseconds to load)

    return hashlib.sha256(blob).hexdigest()


class Weights(NamedTuple):
    """A learned evaluation's weights for one board size: what ``Engine(weights=...)`` and
    ``OthelloCore.use_weights`` take. ``table`` is ``stages`` tables of the size's layout
    (``pattern_set(size)``), ``stage_width`` empties each; ``source`` says where they came
    from (a path, or ``"shipped"``)."""

    size: int
    stage_width: int
    table: Table
    source: str
    #: the Multi-ProbCut fit made for these weights (``gamecore train othello-mpc``), if any
    mpc: dict[str, object] | None = None

    @property
    def stages(self) -> int:
        return stages_for(self.size, self.stage_width)


def _json_beside(path: str, suffix: str, what: str) -> dict[str, object] | None:
    """The JSON object written beside a weights file (``X.patterns`` -> ``X{suffix}``): its
    training record or its Multi-ProbCut fit (``what``, in the errors); None when absent."""
    import json  # noqa: PLC0415 (a custom weights file only)

    beside = os.path.splitext(path)[0] + suffix
    try:
        with open(beside, encoding="utf-8") as f:
            found = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise CorruptDataError(f"the {what} beside the weights cannot be read ({error}): {beside}") from None
    if not isinstance(found, dict):
        raise CorruptDataError(f"the {what} beside the weights is not a JSON object: {beside}")
    return found


#: The largest weights file read (the largest layout, 10x10 in stages of one empty, is 24 MB).
MAX_WEIGHTS_BYTES = 64 << 20


def load_weights(path: str | os.PathLike[str], size: int | None = None) -> Weights:
    """The weights of a file written by ``gamecore train othello`` (``othello{N}.patterns``,
    with its record ``othello{N}.json`` beside it when there is one: the record gives the
    board size and the stage width). Without a record, the size is ``size`` or the one whose
    layout the file's length fits, and the stages have the size's ``STAGE_WIDTH``. A
    Multi-ProbCut fit beside it (``othello{N}.mpc.json``) comes with them.

    A file that does not fit (a wrong length for every size, a record naming another size
    than ``size``, an odd number of bytes) is :class:`CorruptDataError` naming it; a missing
    file is ``FileNotFoundError``."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        blob = f.read(MAX_WEIGHTS_BYTES + 1)
    if len(blob) > MAX_WEIGHTS_BYTES:
        raise CorruptDataError(f"not a weights file (over {MAX_WEIGHTS_BYTES >> 20} MB): {path}")
    record = _json_beside(path, ".json", "record")
    sizes = [size] if size is not None else [8, 6, 10, 4]
    width = 0
    if record is not None:
        recorded_size, recorded_width = record.get("size"), record.get("stage_width")
        if not isinstance(recorded_size, int) or not isinstance(recorded_width, int) or recorded_width < 1:
            raise CorruptDataError(f"the record beside the weights has no valid size and stage_width: {path}")
        if size is not None and recorded_size != size:
            raise CorruptDataError(
                f"the weights are for {recorded_size}x{recorded_size} boards, not {size}x{size}: {path}"
            )
        sizes, width = [recorded_size], recorded_width
    errors = []
    for n in sizes:
        try:
            table = decode_table(blob, n, width)
        except (ValueError, KeyError) as error:
            errors.append(str(error))
            continue
        fit = _json_beside(path, ".mpc.json", "Multi-ProbCut fit")
        if fit is not None and not isinstance(fit.get("fits"), list):
            raise CorruptDataError(f"not a Multi-ProbCut fit beside the weights: {path}")
        return Weights(n, width or STAGE_WIDTH[n], table, path, fit)
    raise CorruptDataError(f"not a learned Othello weights file ({'; '.join(errors)}): {path}")


@functools.cache
def shipped_weights(n: int) -> Weights | None:
    """The shipped weights of an n x n board as :class:`Weights` (None without a file)."""
    table = load_table(n)
    return None if table is None else Weights(n, STAGE_WIDTH[n], table, "shipped")
