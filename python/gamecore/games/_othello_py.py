"""Othello/Reversi on an n x n board: the pure-Python core (twin of ``_othello_cy``).

Bit layout: square ``(row, col)`` is bit ``row * n + col``; ``a1`` (row 0, col 0) is
the top-left corner and bit 0. A bitboard is a Python int below ``2 ** (n * n)``.

The core keeps one bitboard per colour (black = player 0 moves first) and a move
stack for undo. Moves are square indices, or ``PASS``. The public ``Othello``
class in ``othello.py`` wraps a core with notation, text and ``Move`` objects.
"""

from __future__ import annotations

import functools
import linecache
import types
from collections.abc import Callable
from typing import Any

from .._game_py import GameCore
from .._zobrist import SQUARE_KEYS, TURN_KEYS
from ..errors import (
    EmptyHistoryError,
    GameOverError,
    IllegalMoveError,
    InvalidPositionError,
    InvalidSizeError,
)
from . import _othello_patterns as patterns
from ._othello_rules import FEATURES, MAX_SIZE, MIN_SIZE, PASS

__all__ = [
    "PASS",
    "MIN_SIZE",
    "MAX_SIZE",
    "FEATURES",
    "square_weight",
    "legal_moves_mask",
    "flips",
    "pattern_indices",
    "pattern_score",
    "set_pattern_weights",
    "OthelloCore",
]

# PASS, the board sizes and FEATURES are in _othello_rules, shared with _othello_cy.
_TURN_CHANGE = TURN_KEYS[0] ^ TURN_KEYS[1]


def square_weight(row: int, col: int, size: int) -> int:
    """Positional weight of a square: corners high, X and C squares next to them low."""
    dr = min(row, size - 1 - row)
    dc = min(col, size - 1 - col)
    near, far = min(dr, dc), max(dr, dc)
    if near == 0 and far == 0:
        return 100  # corner
    if near == 0 and far == 1:
        return -20  # C square: on the edge next to a corner
    if near == 1 and far == 1:
        return -50  # X square: diagonal to a corner
    if near == 0:
        return 10  # other edge squares
    if near == 1:
        return -2  # the ring inside the edge
    return 1


class _Geometry:
    """Masks and shift amounts for one board size (computed once per size)."""

    #: The table of the last ``move_lister`` made and that lister (legal_move_objects).
    listed: tuple[tuple[Any, ...], Callable[[int], list[Any]]]
    #: The Python source of this size's generated move generator and flip functions:
    #: ``print(geometry_of(8).kernel_source)``; :func:`reference_moves` and
    #: :func:`reference_flips` are the plain loops they must agree with.
    kernel_source: str

    def __init__(self, n: int) -> None:
        self.n = n
        self.nsq = n * n
        self.full = (1 << self.nsq) - 1
        col_first = sum(1 << (r * n) for r in range(n))
        col_last = col_first << (n - 1)
        self.inner = self.full & ~col_first & ~col_last  # no wrap across the side edges
        row_first = (1 << n) - 1
        row_last = row_first << (n * (n - 1))
        self.edge_rows = row_first | row_last
        self.edge_cols = col_first | col_last
        self.corners = 1 | (1 << (n - 1)) | (1 << (n * (n - 1))) | (1 << (self.nsq - 1))
        weights = [square_weight(i // n, i % n, n) for i in range(self.nsq)]
        self.weights = weights
        self.weight_classes = tuple(
            (w, sum(1 << i for i in range(self.nsq) if weights[i] == w)) for w in sorted(set(weights))
        )
        deltas = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]
        rays = []
        for sq in range(self.nsq):
            r0, c0 = divmod(sq, n)
            sq_rays = []
            for dr, dc in deltas:
                ray = []
                r, c = r0 + dr, c0 + dc
                while 0 <= r < n and 0 <= c < n:
                    ray.append(1 << (r * n + c))
                    r, c = r + dr, c + dc
                if len(ray) >= 2:  # a flip needs an opponent disc and an own disc behind it
                    sq_rays.append(tuple(ray))
            rays.append(tuple(sq_rays))
        self.rays = tuple(rays)
        # The hot path of the pure backend, made for this size (see _compile_kernels).
        self.moves, self.flippers = _compile_kernels(self)
        #: bit -> the Zobrist change of flipping that square's disc (either colour).
        self.flip_keys = {1 << i: SQUARE_KEYS[0][i] ^ SQUARE_KEYS[1][i] for i in range(self.nsq)}
        self.nbytes = (self.nsq + 7) // 8
        self._move_lists: dict[int, tuple[tuple[Any, ...], Callable[[int], list[Any]]]] = {}
        self.squares = self.move_lister(tuple(range(self.nsq)))  # bitboard -> square indices

    def __reduce__(self) -> tuple[Callable[[int], _Geometry], tuple[int]]:
        return geometry_of, (self.n,)

    @functools.cached_property
    def pattern_table(self) -> PatternTable | None:
        """The learned evaluation's table, None when no weights are shipped for this size
        (read on first use; ``set_pattern_weights`` replaces it)."""
        return _pattern_table(
            self.n, patterns.load_table(self.n)
        )  # one per size (its generated functions do not pickle)

    def move_lister(self, table: tuple[Any, ...]) -> Callable[[int], list[Any]]:
        """A function from a move bitboard to ``[table[square] ...]`` in ascending order, one
        byte of the bitboard at a time (the squares of each byte value listed in advance)."""
        try:
            return self._move_lists[id(table)][1]  # the table is kept there: its id stays its own
        except KeyError:
            pass
        chunks = tuple(
            tuple(
                tuple(table[8 * k + b] for b in range(8) if value >> b & 1 and 8 * k + b < self.nsq)
                for value in range(256)
            )
            for k in range(self.nbytes)
        )
        args = ", ".join(f"c{k}" for k in range(self.nbytes))
        items = ", ".join(f"*c{k}[b[{k}]]" for k in range(self.nbytes))
        source = (
            f"def make({args}):\n"
            f"    def lister(moves):\n"
            f"        b = moves.to_bytes({self.nbytes}, 'little')\n"
            f"        return [{items}]\n"
            f"    return lister\n"
        )
        namespace: dict[str, Any] = {}
        exec(_compiled(source, f"<othello {self.n}x{self.n} move lister {len(self._move_lists)}>"), namespace)
        lister: Callable[[int], list[Any]] = namespace["make"](*chunks)
        self._move_lists[id(table)] = (table, lister)
        self.listed = (table, lister)  # the last one asked for
        return lister


# Each board size gets its own move generator and one flip function per square, written
# out with that size's shifts and masks as literals: no loops and no attribute reads, about
# twice as fast as generic loops in CPython (the pure backend's users feel every call).
_REVERSED_BYTES = bytes(int(f"{value:08b}"[::-1], 2) for value in range(256))


def _compile_kernels(g: _Geometry) -> tuple[Callable[[int, int], int], tuple[Callable[[int, int], int], ...]]:
    n, nsq = g.n, g.nsq
    nbytes = (nsq + 7) // 8
    # The moves towards lower bits are the moves towards higher bits on the board turned
    # half a turn (its bits reversed), so both are found at once: the turned board rides in
    # a second lane of the same int, above a gap no shift crosses. CPython pays per
    # operation, hardly per bit.
    lane = nsq + 2 * n + 4
    turned = f"fb({{}}.to_bytes({nbytes}, 'little').translate(REV), 'big')"
    if 8 * nbytes > nsq:
        turned += f" >> {8 * nbytes - nsq}"
    inner = g.inner | g.inner << lane
    # Kogge-Stone: two single steps reach a run of 2 opponent discs, each doubling step
    # adds 2; runs are at most n - 2 long.
    doublings = max(0, (n - 3) // 2)
    lines = [
        "def moves(P, O):",
        f"    e = ~(P | O) & {g.full}",
        f"    P |= {turned.format('P')} << {lane}",
        f"    O |= {turned.format('O')} << {lane}",
        f"    m = O & {inner}",
        # Along a row, adding the opponent discs that follow an own disc carries across
        # each such run onto the square after it (runs never touch a side edge).
        "    r = m + (m & (P << 1))",
    ]
    for s, mask in ((n, "O"), (n + 1, "m"), (n - 1, "m")):
        lines.append(f"    x = {mask} & (P << {s})")
        lines.append(f"    x |= {mask} & (x << {s})")
        if doublings:
            lines.append(f"    p = {mask} & ({mask} << {s})")
            lines.extend(f"    x |= p & (x << {2 * s})" for _ in range(doublings))
        lines.append(f"    r |= x << {s}")
    lines.append(f"    h = r >> {lane} & {g.full}")
    lines.append(f"    return (r | {turned.format('h')}) & e")
    for square, rays in enumerate(g.rays):
        lines.append(f"def flips_{square}(P, O):")
        lines.append("    f = 0")
        lines.append("    q = ~O")
        for ray in rays:
            bits = sum(ray)
            lines.append(f"    if O & {ray[0]}:")
            lines.append(f"        b = q & {bits}")
            if ray[0] > 1 << square:  # away from the square is towards higher bits: the lowest
                lines.append("        b &= -b")
                lines.append(f"        if b & P:\n            f |= {bits} & (b - 1)")
            else:  # towards lower bits: the highest
                lines.append("        if b:")
                lines.append("            b = 1 << (b.bit_length() - 1)")
                lines.append(f"            if b & P:\n                f |= {bits} & -(b << 1)")
        lines.append("    return f")
    g.kernel_source = "\n".join(lines) + "\n"
    namespace: dict[str, Any] = {"REV": _REVERSED_BYTES, "fb": int.from_bytes}
    exec(_compiled(g.kernel_source, f"<othello {n}x{n} kernels>"), namespace)
    return namespace["moves"], tuple(namespace[f"flips_{square}"] for square in range(g.nsq))


def _compiled(source: str, filename: str) -> types.CodeType:
    """``source`` compiled under ``filename``, whose lines tracebacks and debuggers show."""
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    return compile(source, filename, "exec")


# The readable reference of the generated kernels: the same answers, square by square and
# ray by ray (the tests check the kernels against it on random boards of every size).


def reference_moves(player: int, opponent: int, g: _Geometry) -> int:
    """Bitboard of the empty squares where ``player`` flips something: what ``g.moves`` computes."""
    empty = g.full & ~(player | opponent)
    moves = 0
    for square in range(g.nsq):
        if empty >> square & 1 and reference_flips(player, opponent, square, g):
            moves |= 1 << square
    return moves


def reference_flips(player: int, opponent: int, square: int, g: _Geometry) -> int:
    """Discs a move on ``square`` flips: along each ray, a run of opponent discs closed by an
    own disc (what ``g.flippers[square]`` computes)."""
    flipped = 0
    for ray in g.rays[square]:
        run = 0
        for bit in ray:
            if opponent & bit:
                run |= bit
            else:
                if player & bit:
                    flipped |= run
                break
    return flipped


@functools.cache
def geometry_of(n: int) -> _Geometry:
    """The geometry of an n x n board, computed once per size."""
    return _Geometry(n)


def legal_moves_mask(player: int, opponent: int, size: int) -> int:
    """Bitboard of the squares where ``player`` may move (Kogge-Stone fill, 8 directions)."""
    return geometry_of(size).moves(player, opponent)


def flips(player: int, opponent: int, square: int, size: int) -> int:
    """Bitboard of the discs a move of ``player`` on ``square`` flips (0 if none)."""
    return geometry_of(size).flippers[square](player, opponent)


def stable_edges(own: int, g: _Geometry) -> int:
    """Own discs on the edges connected to an own corner through own edge discs."""
    stable = own & g.corners
    along_rows = own & g.edge_rows
    along_cols = own & g.edge_cols
    n = g.n
    while True:
        grown = stable | (along_rows & ((stable << 1) | (stable >> 1))) | (along_cols & ((stable << n) | (stable >> n)))
        if grown == stable:
            return stable
        stable = grown


#: ``(instances as (table offset, squares), stride, weights)``
#: (instances as (offset, squares), stride, weights, stage width, last stage)
PatternTable = tuple[tuple[tuple[int, tuple[int, ...]], ...], int, patterns.Table, int, int]


def _pattern_table(n: int, weights: object, width: int = 0) -> PatternTable | None:
    if weights is None:
        return None
    width = width or patterns.STAGE_WIDTH[n]
    ps = patterns.pattern_set(n)
    instances = tuple((ps.offsets[shape], squares) for shape, squares in ps.instances)
    return instances, ps.stride, weights, width, patterns.stages_for(n, width) - 1  # type: ignore[return-value]


# The geometries of cores given weights of their own (OthelloCore.use_weights), one per
# Weights object, kept for the life of the process: id -> (weights, geometry).
_WEIGHTED_GEOMETRIES: dict[int, tuple[patterns.Weights, _Geometry]] = {}


def _weighted_geometry(weights: patterns.Weights) -> _Geometry:
    """A copy of the size's geometry whose pattern table reads ``weights``."""
    entry = _WEIGHTED_GEOMETRIES.get(id(weights))
    if entry is not None and entry[0] is weights:
        return entry[1]
    table = patterns.checked_table(weights.table, weights.size, weights.stage_width)
    # A new object with the size's attributes (copy.copy would go through __reduce__ and
    # hand back the shared geometry of the size itself).
    geometry = _Geometry.__new__(_Geometry)
    geometry.__dict__.update(geometry_of(weights.size).__dict__)
    geometry.__dict__["pattern_table"] = _pattern_table(weights.size, table, weights.stage_width)
    _WEIGHTED_GEOMETRIES[id(weights)] = (weights, geometry)
    return geometry


def set_pattern_weights(size: int, weights: object) -> None:
    """Use ``weights`` (a table of ``_othello_patterns.pattern_set(size)``'s layout, int16
    values; None for none) as the learned evaluation of ``size`` boards in this process,
    instead of the shipped one: for training. Each table given stays in memory until the
    process ends."""
    if isinstance(size, bool) or not isinstance(size, int) or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidSizeError(f"Othello board size must be an even int from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
    if weights is not None:
        weights = patterns.checked_table(weights, size)
    geometry_of(size).pattern_table = _pattern_table(size, weights)


def pattern_indices(player: int, opponent: int, size: int) -> list[int]:
    """The base-3 index of every pattern instance (``_othello_patterns.pattern_set(size)``),
    for ``player`` to move: a square counts 0 empty, 1 ``player``'s, 2 ``opponent``'s."""
    return [_instance_index(player, opponent, squares) for _, squares in patterns.pattern_set(size).instances]


def _instance_index(player: int, opponent: int, squares: tuple[int, ...]) -> int:
    index = 0
    for square in squares:
        index = index * 3 + (1 if player >> square & 1 else 2 if opponent >> square & 1 else 0)
    return index


def pattern_score(player: int, opponent: int, size: int) -> int:
    """The learned evaluation for ``player`` to move, in hundredths of a disc (0 for a size
    without shipped weights)."""
    return _pattern_score(player, opponent, geometry_of(size))


def _pattern_score(player: int, opponent: int, g: _Geometry) -> int:
    table = g.pattern_table
    if table is None:
        return 0
    instances, stride, weights, width, last_stage = table
    empties = g.nsq - (player | opponent).bit_count()
    base = min(max(empties - 1, 0) // width, last_stage) * stride
    mobility = g.moves(player, opponent).bit_count() - g.moves(opponent, player).bit_count()
    discs = player.bit_count() - opponent.bit_count()
    total = (
        weights[base + stride - 4]
        + weights[base + stride - 3] * mobility
        + weights[base + stride - 2] * discs
        + weights[base + stride - 1] * (1 if empties % 2 else -1)
    )
    for offset, squares in instances:
        total += weights[base + offset + _instance_index(player, opponent, squares)]
    return max(-patterns.MAX_PATTERN_SCORE, min(patterns.MAX_PATTERN_SCORE, total))


def _perft(player: int, opponent: int, depth: int, g: _Geometry) -> int:
    moves = g.moves(player, opponent)
    if depth == 1:
        return moves.bit_count() if moves else 1  # a pass or the game's end is one leaf
    if not moves:
        if g.moves(opponent, player):
            return _perft(opponent, player, depth - 1, g)  # the pass is a ply
        return 1
    total = 0
    flippers = g.flippers
    while moves:
        bit = moves & -moves
        moves ^= bit
        flipped = flippers[bit.bit_length() - 1](player, opponent)
        total += _perft(opponent ^ flipped, player | flipped | bit, depth - 1, g)
    return total


def _flip_key(flipped: int, keys: dict[int, int]) -> int:
    """The Zobrist change of turning the discs of ``flipped`` over."""
    h = 0
    while flipped:
        bit = flipped & -flipped
        h ^= keys[bit]
        flipped ^= bit
    return h


def final_score(player: int, opponent: int, nsq: int) -> int:
    """Disc difference of a finished game for ``player``; empty squares go to the winner."""
    mine = player.bit_count()
    theirs = opponent.bit_count()
    diff = mine - theirs
    if diff > 0:
        return diff + (nsq - mine - theirs)
    if diff < 0:
        return diff - (nsq - mine - theirs)
    return 0


class OthelloCore(GameCore):
    """Mutable Othello position with a move stack (the pure-Python core).

    Player 0 is black and moves first, player 1 is white.
    """

    __slots__ = ("size", "turn", "_discs", "_hash", "_stack", "_geometry", "_seen")
    _hash: int | None  # None after a public push until asked for (_rehash)

    def __init__(self, size: int = 8) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidSizeError(
                f"Othello board size must be an even int from {MIN_SIZE} to {MAX_SIZE}, got {size!r}"
            )
        size = self.size = int(size)  # an int subclass (IntEnum) becomes a plain int
        self._geometry = geometry_of(size)
        self._stack: list[tuple[int, int, int | None]] = []  # (move, flips, hash before it)
        half = size // 2
        black = (1 << ((half - 1) * size + half)) | (1 << (half * size + half - 1))
        white = (1 << ((half - 1) * size + half - 1)) | (1 << (half * size + half))
        self._set(black, white, 0)

    def _set(self, black: int, white: int, turn: int) -> None:
        self._discs = [black, white]
        self.turn = turn
        h = TURN_KEYS[turn]
        for player, bb in enumerate(self._discs):
            keys = SQUARE_KEYS[player]
            while bb:
                bit = bb & -bb
                bb ^= bit
                h ^= keys[bit.bit_length() - 1]
        self._hash = h
        self._stack = []
        self._seen: tuple[int, int, int] | None = None  # (me, opp, their moves) of is_game_over()

    def set_board(self, black: int, white: int, turn: int) -> None:
        """Set the discs (two bitboards) and the side to move; clears the move history."""
        full = self._geometry.full
        for name, bb in (("black", black), ("white", white)):
            if type(bb) is not int or bb < 0 or bb & ~full:
                raise InvalidPositionError(f"{name} bitboard must be an int within the {self.size}x{self.size} board")
        if black & white:
            raise InvalidPositionError("a square cannot hold a black and a white disc")
        if type(turn) is not int or turn not in (0, 1):
            raise InvalidPositionError(f"turn must be 0 (black) or 1 (white), got {turn!r}")
        self._set(black, white, turn)

    def bitboards(self) -> tuple[int, int]:
        """``(black, white)`` bitboards."""
        return self._discs[0], self._discs[1]

    def use_weights(self, weights: patterns.Weights | None) -> None:
        """Evaluate with ``weights`` (:class:`_othello_patterns.Weights` of this board size)
        instead of the shipped learned weights; None: the shipped ones again. Copies of the
        core keep them."""
        if weights is None:
            self._geometry = geometry_of(self.size)
            return
        if not isinstance(weights, patterns.Weights) or weights.size != self.size:
            raise InvalidSizeError(f"weights for a {self.size}x{self.size} board are needed, got {weights!r:.80}")
        self._geometry = _weighted_geometry(weights)

    def copy(self) -> OthelloCore:
        """An independent copy, history included."""
        other = OthelloCore.__new__(OthelloCore)
        other.size = self.size
        other._geometry = self._geometry
        other._discs = list(self._discs)
        other.turn = self.turn
        other._hash = self._hash
        other._stack = list(self._stack)
        other._seen = None
        return other

    # -- the game protocol -------------------------------------------------

    def gen_moves(self) -> list[int]:
        """The legal moves in ascending order; ``[PASS]`` for a forced pass, ``[]`` at the end."""
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        g = self._geometry
        moves = g.moves(me, opp)
        if not moves:
            return [PASS] if g.moves(opp, me) else []
        return g.squares(moves)

    def make_move(self, move: int) -> None:
        """Play a move known to be legal (no checks)."""
        turn = self.turn
        flipped = 0 if move == PASS else self._geometry.flippers[move](self._discs[turn], self._discs[1 - turn])
        self._play(move, flipped)

    def _play(self, move: int, flipped: int) -> None:
        turn = self.turn
        before = self._hash
        if before is None:
            before = self._rehash()
        h = before ^ _TURN_CHANGE
        if move != PASS:
            discs = self._discs
            discs[turn] |= flipped | 1 << move
            discs[1 - turn] ^= flipped
            h ^= SQUARE_KEYS[turn][move]
            keys = self._geometry.flip_keys
            f = flipped
            while f:  # _flip_key inlined: the searches play every move through here
                b = f & -f
                h ^= keys[b]
                f ^= b
        self._stack.append((move, flipped, before))
        self._hash = h
        self.turn = 1 - turn

    def _rehash(self) -> int:
        """The hash of a position reached by ``push`` (which leaves ``_hash`` unknown, None):
        replayed from the last known one on the stack, the entries on the way filled in.

        The searches keep the hash up to date as they play (``make_move``); a user's own
        push/pop loop seldom asks for it, so the public ``push`` does not pay for it."""
        stack = self._stack
        start = len(stack) - 1
        known = stack[start][2]
        while known is None:  # the first entry always holds one (see _set)
            start -= 1
            known = stack[start][2]
        h = known
        mover = self.turn ^ ((len(stack) - start) & 1)  # the player of move ``start``
        keys = self._geometry.flip_keys
        for i in range(start, len(stack)):
            move, flipped, _ = stack[i]
            if i > start:
                stack[i] = (move, flipped, h)
            h ^= _TURN_CHANGE
            if move != PASS:
                h ^= SQUARE_KEYS[mover][move] ^ _flip_key(flipped, keys)
            mover ^= 1
        self._hash = h
        return h

    def pop(self) -> int:
        """Take back the last move and return it (:class:`EmptyHistoryError` if there is none)."""
        try:
            move, flipped, h = self._stack.pop()
        except IndexError:
            raise EmptyHistoryError("no move to take back") from None
        turn = 1 - self.turn  # the player who made the move
        if move != PASS:
            discs = self._discs
            discs[turn] ^= flipped | (1 << move)
            discs[1 - turn] ^= flipped
        self.turn = turn
        self._hash = h
        return move

    # The searches' unmake is the same code: its check costs nothing on a move that was made,
    # and one body is a frame fewer for the public pop than the protocol's pop-over-unmake.
    unmake_move = pop  # type: ignore[assignment]  # returns the move too; callers ignore it

    def is_terminal(self) -> bool:
        """True when neither side can move."""
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        return not self._geometry.moves(me, opp) and not self._geometry.moves(opp, me)

    def terminal_value(self) -> int:
        """Final disc difference for the side to move, empties going to the winner (world rules)."""
        return final_score(self._discs[self.turn], self._discs[1 - self.turn], self._geometry.nsq)

    def evaluate(self, weights: list[int]) -> int:
        """``sum(weights[i] * feature_i)`` for the side to move, features as in ``FEATURES``."""
        g = self._geometry
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        total = 0
        if weights[0]:
            total += weights[0] * (me.bit_count() - opp.bit_count())
        if weights[1]:
            positional = 0
            for w, mask in g.weight_classes:
                positional += w * ((me & mask).bit_count() - (opp & mask).bit_count())
            total += weights[1] * positional
        if weights[2]:
            mobility = g.moves(me, opp).bit_count() - g.moves(opp, me).bit_count()
            total += weights[2] * mobility
        if weights[3]:
            total += weights[3] * ((me & g.corners).bit_count() - (opp & g.corners).bit_count())
        if weights[4]:
            total += weights[4] * (stable_edges(me, g).bit_count() - stable_edges(opp, g).bit_count())
        if weights[5]:
            total += weights[5] * (1 if self.num_empty() % 2 else -1)
        if weights[6]:
            total += weights[6] * _pattern_score(me, opp, g)
        return total

    def order_key(self, move: int) -> int:
        """Positional weight of the move's square (corners first); 0 for a pass."""
        return 0 if move == PASS else self._geometry.weights[move]

    def to_move(self) -> int:
        """The player to move (the same as ``turn``)."""
        return self.turn

    def key(self) -> int:
        """64-bit Zobrist hash of the discs and the side to move."""
        h = self._hash
        return self._rehash() if h is None else h

    def num_empty(self) -> int:
        """Empty squares left."""
        return self._geometry.nsq - (self._discs[0] | self._discs[1]).bit_count()

    # -- checked operations for the public API -----------------------------

    def legal_moves(self) -> list[int]:
        """The legal moves in ascending order; ``[PASS]`` for a forced pass, ``[]`` at the end."""
        return self.gen_moves()

    def count_legal_moves(self) -> int:
        """``len(legal_moves())`` from the move bitboard's popcount: 1 for a forced pass, 0 at the end."""
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        g = self._geometry
        moves = g.moves(me, opp)
        if moves:
            return moves.bit_count()
        return 1 if g.moves(opp, me) else 0

    def legal_move_objects(self, table: tuple[Any, ...]) -> list[Any]:
        """``[table[move] for move in gen_moves()]``, straight from the move bitboard."""
        turn = self.turn
        me, opp = self._discs[turn], self._discs[1 - turn]
        g = self._geometry
        seen = self._seen
        if seen is not None and seen[0] == me and seen[1] == opp:
            moves = seen[2]  # just worked out by is_game_over()
        else:
            moves = g.moves(me, opp)
        if moves:
            listed = g.listed  # one tuple: threads never see a table with another's lister
            if listed[0] is table:  # the usual case: one table of moves per board size
                return listed[1](moves)
            return g.move_lister(table)(moves)
        return [table[PASS]] if g.moves(opp, me) else []

    def push(self, move: int) -> None:
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if type(move) is not int:
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        discs = self._discs
        if 0 <= move < self._geometry.nsq and not (discs[0] | discs[1]) >> move & 1:
            # A square move is legal exactly when it flips something: one flip scan, no move list.
            turn = self.turn
            flipped = self._geometry.flippers[move](discs[turn], discs[1 - turn])
            if flipped:
                discs[turn] |= flipped | 1 << move
                discs[1 - turn] ^= flipped
                self._stack.append((move, flipped, self._hash))
                self._hash = None  # worked out if asked for (_rehash)
                self.turn = 1 - turn
                return
        legal = self.gen_moves()
        if not legal:
            raise GameOverError("the game is over: no move can be played")
        if move not in legal:
            raise IllegalMoveError(self._illegal_reason(move, legal))
        self.make_move(move)

    def _illegal_reason(self, move: int, legal: list[int]) -> str:
        if legal == [PASS]:
            return "the side to move has no legal move and must pass"
        if move == PASS:
            return "cannot pass while a legal move exists"
        if not 0 <= move < self._geometry.nsq:
            return f"square index {move} is off the {self.size}x{self.size} board"
        if (self._discs[0] | self._discs[1]) >> move & 1:
            return "that square is already occupied"
        return "that move flips no disc"

    def is_game_over(self) -> bool:
        """True when neither side can move."""
        turn = self.turn
        me, opp = self._discs[turn], self._discs[1 - turn]
        g = self._geometry
        moves = g.moves(me, opp)
        # A user's search asks legal_moves() next, at the same discs: kept for it.
        self._seen = (me, opp, moves)
        return not moves and not g.moves(opp, me)

    def feature_values(self) -> tuple[int, ...]:
        """The values of ``FEATURES`` for the side to move: what ``evaluate`` adds per unit of
        each weight."""
        count = len(FEATURES)
        return tuple(self.evaluate([int(i == j) for j in range(count)]) for i in range(count))

    def counts(self) -> tuple[int, int]:
        """``(black discs, white discs)``."""
        return self._discs[0].bit_count(), self._discs[1].bit_count()

    def zobrist(self) -> int:
        """64-bit Zobrist hash of the discs and the side to move."""
        h = self._hash
        return self._rehash() if h is None else h

    def count_leaves(self, depth: int) -> int:
        """Perft (``GameCore.perft`` checks the depth); a pass is a ply, a finished game one leaf."""
        if depth < 1:  # perft() checks the depth; this keeps a direct call safe
            return 1
        return _perft(self._discs[self.turn], self._discs[1 - self.turn], depth, self._geometry)
