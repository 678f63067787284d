"""What the two Tetralath cores (``_tetralath_py`` / ``_tetralath_cy``) share: the game's
constants, its geometry and the check of evaluation weights.

They are built once at import or run once per call, so they need no compiling: as
``_rolit_rules.py``, this module is plain Python written once rather than in each twin
(``_tetralath_py.py`` documents the board, the rules and the features). The compiled core keeps
the C constants and tables its ``nogil`` code needs (``pyx/tetralath.pxd``: ``TL_CELLS`` ...,
the geometry built by ``tl_build_tables``); it lists them, read back, in its ``_C_COPIES``, and
``tests/test_options.py`` checks them against these.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import InvalidEvaluationError, InvalidPositionError, InvalidSquareError

__all__ = [
    "NUM_CELLS",
    "FULL_MASK",
    "SWAP",
    "MAX_PLIES",
    "ONGOING",
    "FOUR",
    "THREE",
    "FULL",
    "REASONS",
    "ROW_LENGTHS",
    "ROW_STARTS",
    "DIRECTIONS",
    "CELL_XY",
    "NEIGHBOURS",
    "FOUR_WINDOWS",
    "THREE_WINDOWS",
    "CENTRALITY",
    "FEATURES",
    "NUM_FEATURES",
    "DEFAULT_WEIGHTS",
    "MAX_WEIGHT",
    "cell_index",
    "check_bitboard",
    "check_cell",
    "check_weights",
]

NUM_CELLS = 61
FULL_MASK = (1 << NUM_CELLS) - 1
#: Move code of the swap (pie rule): black's first move takes over white's stone.
SWAP = 61
#: Longest possible game: 61 stones plus one swap.
MAX_PLIES = 62

#: Status of a position: what the last move did.
ONGOING = 0
FOUR = 1  # the last mover made four or more in a row: it has won
THREE = 2  # the last mover made exactly three (and no four): it has lost
FULL = 3  # the last move filled the board with neither: a draw
#: Reason of the game's end for each status (empty while the game goes on).
REASONS = ("", "four in a row", "three in a row", "full board")

ROW_LENGTHS = (5, 6, 7, 8, 9, 8, 7, 6, 5)
ROW_STARTS = (0, 5, 11, 18, 26, 35, 43, 50, 56)

#: Direction ``d`` as an axial step; ``d + 3`` is the opposite of ``d``.
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def cell_index(x: int, y: int) -> int:
    """Index of the cell at axial ``(x, y)``, or -1 off the board."""
    if type(x) is not int or type(y) is not int:
        return -1
    if not (0 <= y <= 8 and 0 <= x <= 8 and 4 <= x + y <= 12):
        return -1
    return ROW_STARTS[y] + x - max(0, 4 - y)


def _build_geometry() -> tuple[
    tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]:
    xy = []
    for y in range(9):
        for x in range(max(0, 4 - y), min(8, 12 - y) + 1):
            xy.append((x, y))
    neighbours = tuple(tuple(cell_index(x + dx, y + dy) for dx, dy in DIRECTIONS) for x, y in xy)
    windows: dict[int, list[int]] = {3: [], 4: []}
    for cell in range(NUM_CELLS):
        for d in range(3):
            for length in (3, 4):
                mask = 0
                c = cell
                for _ in range(length):
                    if c < 0:
                        break
                    mask |= 1 << c
                    c = neighbours[c][d]
                else:
                    windows[length].append(mask)
    centrality = tuple(4 - (abs(x - 4) + abs(y - 4) + abs(x + y - 8)) // 2 for x, y in xy)
    return tuple(xy), neighbours, tuple(windows[4]), tuple(windows[3]), centrality


#: Axial ``(x, y)`` of each cell index.
#: ``NEIGHBOURS[cell][d]``: the next cell in direction ``d`` (0..5), -1 off the board.
#: ``FOUR_WINDOWS`` / ``THREE_WINDOWS``: masks of the 102 four-cell and 129 three-cell
#: straight windows, ordered by first cell, then direction 0, 1, 2.
#: ``CENTRALITY[cell]``: 4 minus the cell's distance to the centre e5 (0 on the rim).
CELL_XY, NEIGHBOURS, FOUR_WINDOWS, THREE_WINDOWS, CENTRALITY = _build_geometry()

#: Evaluation features, in the order of the ``weights`` passed to ``evaluate``.
FEATURES = ("win_now", "forced_blocks", "cannot_block", "losing_threes", "open_twos", "open_ones", "centre")
NUM_FEATURES = len(FEATURES)
#: The standard evaluation: weights for ``FEATURES``.
DEFAULT_WEIGHTS = (10000, -60, -5000, 8, 10, 2, 1)


#: Each weight is an int within +-MAX_WEIGHT, so that a value always fits a C int.
MAX_WEIGHT = 2**16


def check_bitboard(bb: int, name: str) -> int:
    """A bitboard of the 61 cells (``name`` says whose, in the error)."""
    if type(bb) is not int or bb < 0 or bb > FULL_MASK:
        raise InvalidPositionError(f"{name} bitboard must be an int within the 61 cells (0 <= bb < 2**61)")
    return bb


def check_cell(cell: int) -> int:
    """A cell index, 0 to 60."""
    if type(cell) is not int or not 0 <= cell < NUM_CELLS:
        raise InvalidSquareError(f"a cell index must be an int from 0 to 60, got {cell!r}")
    return cell


def check_weights(weights: Iterable[int]) -> list[int]:
    """The evaluation weights: one int per feature of ``FEATURES``, each within +-MAX_WEIGHT."""
    try:
        values = list(weights)
    except TypeError:
        raise InvalidEvaluationError(f"weights must be a sequence of {NUM_FEATURES} ints") from None
    if len(values) != NUM_FEATURES or any(type(v) is not int or not -MAX_WEIGHT <= v <= MAX_WEIGHT for v in values):
        raise InvalidEvaluationError(
            f"weights must be {NUM_FEATURES} ints of at most 2**16 in size ({', '.join(FEATURES)})"
        )
    return values
