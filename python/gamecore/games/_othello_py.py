"""Othello/Reversi on an n x n board: the pure-Python core (twin of ``_othello_cy``).

Bit layout: square ``(row, col)`` is bit ``row * n + col``; ``a1`` (row 0, col 0) is
the top-left corner and bit 0. A bitboard is a Python int below ``2 ** (n * n)``.

The core keeps one bitboard per colour (black = player 0 moves first) and a move
stack for undo. Moves are square indices, or ``PASS``. The public ``Othello``
class in ``othello.py`` wraps a core with notation, text and ``Move`` objects.
"""

from __future__ import annotations

import functools

from .._game_py import GameCore, bit_indices
from .._zobrist import SQUARE_KEYS, TURN_KEYS
from ..errors import (
    EmptyHistoryError,
    GameOverError,
    IllegalMoveError,
    InvalidPositionError,
    InvalidSizeError,
)

__all__ = [
    "PASS",
    "MIN_SIZE",
    "MAX_SIZE",
    "FEATURES",
    "square_weight",
    "legal_moves_mask",
    "flips",
    "OthelloCore",
]

#: The move code of a pass.
PASS = -1
MIN_SIZE = 4
MAX_SIZE = 10
#: Evaluation features, in the order of the ``weights`` passed to ``evaluate``.
FEATURES = ("discs", "positional", "mobility", "corners", "stability", "parity")


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
        # (shift, mask) for the four "positive" directions; each is also used negated.
        self.directions = ((1, self.inner), (n, self.full), (n + 1, self.inner), (n - 1, self.inner))
        # Each doubling step extends a run of opponent discs by two; runs are at most n - 2 long.
        self.fills = tuple((s, s + s, mask) for s, mask in self.directions)
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


@functools.cache
def geometry_of(n: int) -> _Geometry:
    """The geometry of an n x n board, computed once per size."""
    return _Geometry(n)


def legal_moves_mask(player: int, opponent: int, size: int) -> int:
    """Bitboard of the squares where ``player`` may move (Kogge-Stone fill, 8 directions)."""
    return _moves(player, opponent, geometry_of(size))


def _moves(player: int, opponent: int, g: _Geometry) -> int:
    # A run of opponent discs is at most n - 2 long: two single steps reach 2, each
    # doubling step adds 2. Two doubling steps serve boards up to 8x8 (more do no harm
    # on smaller ones), 10x10 needs a third.
    empty = ~(player | opponent) & g.full
    moves = 0
    third = g.n > 8
    for s, s2, mask in g.fills:
        m = opponent & mask
        # Positive direction (towards higher bits).
        x = (player << s) & m
        x |= (x << s) & m
        pre = m & (m << s)
        x |= pre & (x << s2)
        x |= pre & (x << s2)
        if third:
            x |= pre & (x << s2)
        moves |= (x << s) & empty
        # Negative direction.
        x = (player >> s) & m
        x |= (x >> s) & m
        pre = m & (m >> s)
        x |= pre & (x >> s2)
        x |= pre & (x >> s2)
        if third:
            x |= pre & (x >> s2)
        moves |= (x >> s) & empty
    return moves


def flips(player: int, opponent: int, square: int, size: int) -> int:
    """Bitboard of the discs a move of ``player`` on ``square`` flips (0 if none)."""
    return _flips(player, opponent, square, geometry_of(size))


def _flips(player: int, opponent: int, square: int, g: _Geometry) -> int:
    flipped = 0
    for ray in g.rays[square]:
        run = 0
        for bit in ray:
            if opponent & bit:
                run |= bit
            elif player & bit:
                flipped |= run
                break
            else:
                break
    return flipped


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


def _perft(player: int, opponent: int, depth: int, g: _Geometry) -> int:
    moves = _moves(player, opponent, g)
    if depth == 1:
        return moves.bit_count() if moves else 1  # a pass or the game's end is one leaf
    if not moves:
        if _moves(opponent, player, g):
            return _perft(opponent, player, depth - 1, g)  # the pass is a ply
        return 1
    total = 0
    rays = g.rays
    while moves:
        bit = moves & -moves
        moves ^= bit
        # flips(), inlined: this loop is the hot path of the pure backend.
        flipped = 0
        for ray in rays[bit.bit_length() - 1]:
            run = 0
            for b in ray:
                if opponent & b:
                    run |= b
                elif player & b:
                    flipped |= run
                    break
                else:
                    break
        total += _perft(opponent ^ flipped, player | flipped | bit, depth - 1, g)
    return total


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

    __slots__ = ("size", "turn", "_discs", "_hash", "_stack", "_geometry")

    def __init__(self, size: int = 8) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidSizeError(
                f"Othello board size must be an even int from {MIN_SIZE} to {MAX_SIZE}, got {size!r}"
            )
        size = self.size = int(size)  # an int subclass (IntEnum) becomes a plain int
        self._geometry = geometry_of(size)
        self._stack: list[tuple[int, int, int]] = []
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

    def copy(self) -> OthelloCore:
        """An independent copy, history included."""
        other = OthelloCore.__new__(OthelloCore)
        other.size = self.size
        other._geometry = self._geometry
        other._discs = list(self._discs)
        other.turn = self.turn
        other._hash = self._hash
        other._stack = list(self._stack)
        return other

    # -- the game protocol -------------------------------------------------

    def gen_moves(self) -> list[int]:
        """The legal moves in ascending order; ``[PASS]`` for a forced pass, ``[]`` at the end."""
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        moves = _moves(me, opp, self._geometry)
        if not moves:
            return [PASS] if _moves(opp, me, self._geometry) else []
        return bit_indices(moves)

    def make_move(self, move: int) -> None:
        """Play a move known to be legal (no checks)."""
        turn = self.turn
        flipped = 0 if move == PASS else _flips(self._discs[turn], self._discs[1 - turn], move, self._geometry)
        self._play(move, flipped)

    def _play(self, move: int, flipped: int) -> None:
        turn = self.turn
        h = self._hash ^ TURN_KEYS[turn] ^ TURN_KEYS[1 - turn]
        if move != PASS:
            discs = self._discs
            me, opp = discs[turn], discs[1 - turn]
            bit = 1 << move
            discs[turn] = me | flipped | bit
            discs[1 - turn] = opp ^ flipped
            mine, theirs = SQUARE_KEYS[turn], SQUARE_KEYS[1 - turn]
            h ^= mine[move]
            f = flipped
            while f:
                b = f & -f
                f ^= b
                i = b.bit_length() - 1
                h ^= mine[i] ^ theirs[i]
        self._stack.append((move, flipped, self._hash))
        self._hash = h
        self.turn = 1 - turn

    def unmake_move(self) -> None:
        """Take back the last move made (no checks)."""
        move, flipped, h = self._stack.pop()
        turn = 1 - self.turn  # the player who made the move
        if move != PASS:
            discs = self._discs
            discs[turn] ^= flipped | (1 << move)
            discs[1 - turn] ^= flipped
        self.turn = turn
        self._hash = h

    def is_terminal(self) -> bool:
        """True when neither side can move."""
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        return not _moves(me, opp, self._geometry) and not _moves(opp, me, self._geometry)

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
            mobility = _moves(me, opp, self._geometry).bit_count() - _moves(opp, me, self._geometry).bit_count()
            total += weights[2] * mobility
        if weights[3]:
            total += weights[3] * ((me & g.corners).bit_count() - (opp & g.corners).bit_count())
        if weights[4]:
            total += weights[4] * (stable_edges(me, g).bit_count() - stable_edges(opp, g).bit_count())
        if weights[5]:
            total += weights[5] * (1 if self.num_empty() % 2 else -1)
        return total

    def order_key(self, move: int) -> int:
        """Positional weight of the move's square (corners first); 0 for a pass."""
        return 0 if move == PASS else self._geometry.weights[move]

    def to_move(self) -> int:
        """The player to move (the same as ``turn``)."""
        return self.turn

    def key(self) -> int:
        """64-bit Zobrist hash of the discs and the side to move."""
        return self._hash

    def num_empty(self) -> int:
        """Empty squares left."""
        return self._geometry.nsq - (self._discs[0] | self._discs[1]).bit_count()

    # -- checked operations for the public API -----------------------------

    def legal_moves(self) -> list[int]:
        """The legal moves in ascending order; ``[PASS]`` for a forced pass, ``[]`` at the end."""
        return self.gen_moves()

    def legal_move_objects(self, table: tuple) -> list:
        """``[table[move] for move in gen_moves()]``, straight from the move bitboard."""
        me, opp = self._discs[self.turn], self._discs[1 - self.turn]
        moves = _moves(me, opp, self._geometry)
        if not moves:
            return [table[PASS]] if _moves(opp, me, self._geometry) else []
        out = []
        while moves:
            bit = moves & -moves
            moves ^= bit
            out.append(table[bit.bit_length() - 1])
        return out

    def push(self, move: int) -> None:
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if type(move) is not int:
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        discs = self._discs
        if 0 <= move < self._geometry.nsq and not (discs[0] | discs[1]) >> move & 1:
            # A square move is legal exactly when it flips something: one flip scan, no move list.
            flipped = _flips(discs[self.turn], discs[1 - self.turn], move, self._geometry)
            if flipped:
                self._play(move, flipped)
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

    def pop(self) -> int:
        """Take back the last move and return it."""
        if not self._stack:
            raise EmptyHistoryError("no move to take back")
        move = self._stack[-1][0]
        self.unmake_move()
        return move

    def history(self) -> list[int]:
        """The moves played since the position was set, oldest first."""
        return [entry[0] for entry in self._stack]

    def is_game_over(self) -> bool:
        """True when neither side can move."""
        return self.is_terminal()

    def counts(self) -> tuple[int, int]:
        """``(black discs, white discs)``."""
        return self._discs[0].bit_count(), self._discs[1].bit_count()

    def zobrist(self) -> int:
        """64-bit Zobrist hash of the discs and the side to move."""
        return self._hash

    def perft(self, depth: int) -> int:
        """Leaves of the game tree ``depth`` plies deep; a pass is a ply, a finished game one leaf."""
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ValueError(f"perft depth must be an int >= 0, got {depth!r}")
        if depth == 0:
            return 1
        return _perft(self._discs[self.turn], self._discs[1 - self.turn], depth, self._geometry)
