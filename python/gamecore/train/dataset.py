"""Labelled Othello positions from game records, as numpy arrays (the ``train`` extra).

A record is a list of moves from the start (``"f5d6c3..."`` or square names); every
position of it with a move to play becomes one row:

- ``cells``: the board from the mover's side, one int8 a square (0 empty, 1 the mover's
  disc, 2 the opponent's), the same digits the learned evaluation reads;
- ``mobility``: the mover's legal moves minus the opponent's (the evaluation's mobility
  feature, read from the core so that both agree by construction);
- ``label``: the game's final disc margin for the mover (empty squares to the winner), or
  an exact value where a solver gave one;
- ``game``: the record's index, so that a held-out set is a set of *games*, never positions
  of one game on both sides.

Rows that are the same position (after the board's eight symmetries) are merged into one,
whose label is the mean of theirs: an opening position met in 30,000 games is one row with a
well-estimated value, not 30,000 rows that drown the rest of the fit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidOptionError
from ..games.othello import Othello, parse_move_list

__all__ = ["Positions", "positions_from_records", "merge_symmetric", "symmetries"]


def _numpy() -> Any:
    try:
        import numpy  # noqa: PLC0415 (an optional extra)
    except ImportError:  # pragma: no cover - depends on the environment
        raise InvalidOptionError('training the evaluation needs numpy: pip install ".[train]"') from None
    return numpy


@dataclass
class Positions:
    """Labelled positions of one board size (arrays of one length, see the module)."""

    size: int
    cells: Any  # (N, size*size) int8
    mobility: Any  # (N,) int16
    label: Any  # (N,) float32, discs for the mover
    weight: Any  # (N,) float32: how many records the row merges
    game: Any  # (N,) int32

    def __len__(self) -> int:
        return int(self.cells.shape[0])

    @property
    def empties(self) -> Any:
        return (self.cells == 0).sum(axis=1)

    def select(self, mask: Any) -> Positions:
        return Positions(
            self.size, self.cells[mask], self.mobility[mask], self.label[mask], self.weight[mask], self.game[mask]
        )

    def save(self, path: str) -> None:
        np = _numpy()
        np.savez_compressed(
            path,
            size=self.size,
            cells=self.cells,
            mobility=self.mobility,
            label=self.label,
            weight=self.weight,
            game=self.game,
        )

    @classmethod
    def load(cls, path: str) -> Positions:
        np = _numpy()
        with np.load(path) as data:
            return cls(
                int(data["size"]),
                data["cells"],
                data["mobility"],
                data["label"],
                data["weight"],
                data["game"],
            )

    @classmethod
    def concatenate(cls, parts: Sequence[Positions]) -> Positions:
        np = _numpy()
        size = parts[0].size
        if any(p.size != size for p in parts):
            raise InvalidOptionError("positions of different board sizes cannot be joined")
        offset = 0
        games = []
        for p in parts:  # game indices stay distinct across the parts
            games.append(p.game + offset)
            offset += int(p.game.max()) + 1 if len(p) else 0
        return cls(
            size,
            np.concatenate([p.cells for p in parts]),
            np.concatenate([p.mobility for p in parts]),
            np.concatenate([p.label for p in parts]),
            np.concatenate([p.weight for p in parts]),
            np.concatenate(games),
        )


def positions_from_records(
    records: Iterable[Sequence[int] | str],
    size: int = 8,
    *,
    backend: str | None = None,
    values: Sequence[tuple[int, int] | None] | None = None,
    exact: Sequence[Mapping[int, int] | None] | None = None,
) -> Positions:
    """Replay every record (move codes, or a transcript string) and label each position
    with a move to play by the game's final margin for its mover. A record that does not
    replay (an illegal move) is an error naming it; a record that stops before the game's
    end is labelled by the margin where it stops, as the archives score an unfinished game.

    ``values[i]``, when given and not None, is ``(black's margin, empties)``: the value of
    record ``i``'s game with perfect play from its position at ``empties`` empty squares on
    (WTHOR's theoretical score): the positions with at least that many empty squares take
    it as their label instead of the result the players reached.

    ``exact[i]``, when given and not None, maps a number of empty squares to black's exact
    margin of record ``i``'s position with that many (``gamecore train othello-label``):
    those positions take it as their label, above all else."""
    np = _numpy()
    nsq = size * size
    movers_bits: list[int] = []
    others_bits: list[int] = []
    mobility: list[int] = []
    labels: list[int] = []
    games: list[int] = []
    start = Othello(size, backend=backend)
    empties_at: list[int] = []
    for index, record in enumerate(records):
        codes = parse_move_list(record, size) if isinstance(record, str) else list(record)
        core = start.copy().core
        movers: list[int] = []
        for ply, code in enumerate(codes):
            legal = core.legal_moves()
            if legal == [_PASS]:  # a forced pass is not written in a record
                core.push(_PASS)
                legal = core.legal_moves()
            if code not in legal:
                raise InvalidOptionError(f"record {index}: move {ply + 1} is illegal in its position")
            black, white = core.bitboards()
            mover, other = (black, white) if core.turn == 0 else (white, black)
            movers_bits.append(mover)
            others_bits.append(other)
            mobility.append(core.feature_values()[_MOBILITY])
            movers.append(core.turn)
            empties_at.append(nsq - black.bit_count() - white.bit_count())
            games.append(index)
            core.push(code)
        black, white = core.bitboards()
        nb, nw = black.bit_count(), white.bit_count()
        empty = nsq - nb - nw
        margin = nb - nw + (empty if nb > nw else -empty if nw > nb else 0)
        known = values[index] if values is not None else None
        solved = exact[index] if exact is not None else None
        for row, turn in enumerate(movers):
            value = margin
            if solved is not None and empties_at[row] in solved:
                value = solved[empties_at[row]]
            elif known is not None and empties_at[row] >= known[1]:
                # Later positions keep the result the players reached: blending the known
                # value into them measured worse against exact values (docs/learned-evaluation.md).
                value = known[0]
            labels.append(value if turn == 0 else -value)
        empties_at.clear()
    cells = _bits(movers_bits, nsq) + 2 * _bits(others_bits, nsq)
    return Positions(
        size,
        cells,
        np.asarray(mobility, dtype=np.int16),
        np.asarray(labels, dtype=np.float32),
        np.ones(len(labels), dtype=np.float32),
        np.asarray(games, dtype=np.int32),
    )


_PASS = -1
_MOBILITY = 2  # the index of "mobility" in _othello_rules.FEATURES (checked below)


def _bits(boards: list[int], nsq: int) -> Any:
    """Bitboards (bit i = square i) as rows of 0/1 int8, one a square."""
    np = _numpy()
    mask = (1 << 64) - 1
    words = [np.array([b >> (64 * k) & mask for b in boards], dtype=np.uint64) for k in range((nsq + 63) // 64)]
    rows = [np.unpackbits(w.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little") for w in words]
    joined = np.concatenate(rows, axis=1) if len(rows) > 1 else rows[0]
    return joined[:, :nsq].astype(np.int8).reshape(len(boards), nsq)


def symmetries(size: int) -> Any:
    """The eight symmetries of a size x size board as square permutations, shape (8, n*n):
    ``cells[:, perm]`` is the board under that symmetry."""
    np = _numpy()
    grid = np.arange(size * size).reshape(size, size)
    views = []
    for turned in (grid, grid.T):
        for rows in (False, True):
            for cols in (False, True):
                g = turned[::-1] if rows else turned
                g = g[:, ::-1] if cols else g
                views.append(g.reshape(-1))
    return np.stack(views)


def merge_symmetric(positions: Positions) -> Positions:
    """One row per distinct position up to symmetry, its label the weighted mean of the
    rows it merges and its weight their total (the row keeps the first game's index)."""
    np = _numpy()
    cells = positions.cells
    keys = None
    columns = np.ascontiguousarray(cells.T)  # a square's column contiguous: fast to pack
    for perm in symmetries(positions.size):
        packed = _pack(columns[perm])
        if keys is None:
            keys = packed
            continue
        # The lexicographic minimum, word by word from the first.
        smaller = np.zeros(len(keys), dtype=bool)
        decided = np.zeros(len(keys), dtype=bool)
        for word in range(keys.shape[1]):
            smaller |= ~decided & (packed[:, word] < keys[:, word])
            decided |= packed[:, word] != keys[:, word]
        keys = np.where(smaller[:, None], packed, keys)
    assert keys is not None
    # Rows grouped by key: sorted (lexsort: the last key is the primary one), a new group
    # wherever a key differs from the one before (np.unique(axis=0) is five times slower).
    order = np.lexsort(keys.T[::-1])
    ordered = keys[order]
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    group = np.cumsum(starts) - 1
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = group
    first = order[starts]  # the first row of each group in sorted order (stable: its first row)
    total = np.bincount(inverse, weights=positions.weight).astype(np.float32)
    label = (np.bincount(inverse, weights=positions.label * positions.weight) / total).astype(np.float32)
    return Positions(
        positions.size,
        cells[first],
        positions.mobility[first],
        label,
        total,
        positions.game[first],
    )


def _pack(columns: Any) -> Any:
    """Boards given column by column (``columns[square]``: that square's base-3 digit in
    every row) packed into comparable integers, 32 squares (2 bits each) a 64-bit word, the
    first square most significant: the lexicographic order of the rows."""
    np = _numpy()
    width, n = columns.shape
    words = (width + 31) // 32
    packed = np.zeros((words, n), dtype=np.uint64)
    for square in range(width):
        word, place = divmod(square, 32)
        packed[word] |= columns[square].astype(np.uint64) << np.uint64(62 - 2 * place)
    return packed.T
