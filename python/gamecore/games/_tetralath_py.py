"""Tetralath (Yavalath without the swap rule): the pure-Python core (twin of ``_tetralath_cy``).

Board: a hexagon with 5 cells a side, 61 cells. Rows ``a``..``i`` run from top to
bottom with 5, 6, 7, 8, 9, 8, 7, 6, 5 cells; cell ``k`` of a row is numbered from 1 on
the left. Cell index = position in row-major order: ``a1`` = 0, ``e1`` = 26,
``e5`` = 30 (the centre), ``i5`` = 60. A bitboard has bit ``index`` set for each stone.

Internally a cell also has axial coordinates ``(x, y)``: ``y`` is the row (0..8) and
``x`` runs 0..8 with ``4 <= x + y <= 12``. The three line directions are ``(1, 0)``
(along a row), ``(0, 1)`` (down and to the right) and ``(-1, 1)`` (down and to the
left); ``NEIGHBOURS[cell][d]`` walks direction ``d`` and ``d + 3`` is its opposite.

Rules: white (player 0) moves first, players alternate, no passing. A move that
makes four or more in a row of the mover's colour wins; otherwise a move that makes
exactly three in a row loses; a full board with neither is a draw. With the optional
swap rule, black's first move may be ``SWAP``: white's only stone becomes black and
white moves next (the pie rule).

The core keeps one bitboard per colour, the side to move, a status (``ONGOING``,
``FOUR``, ``THREE``, ``FULL``: what the last move did) and a move stack for undo.
The public :class:`~gamecore.tetralath.Tetralath` class wraps a core with notation,
text and move objects.

Evaluation (``evaluate(weights)``, for the side to move, ``sum(weights[i] * f[i])``
over ``FEATURES``):

* ``win_now``: 1 if the side to move can make four with this move (an empty cell
  that completes a four-cell window holding three of its stones), else 0;
* ``forced_blocks``: the number of cells where the opponent would make four, which
  the side to move must fill at once;
* ``cannot_block``: 1 if it cannot fill them all safely (two or more such cells, or
  one where its own stone would make a losing three), else 0;
* ``losing_threes``: empty cells where the opponent would make a losing three (and
  no four), minus those where the side to move would: cells each side may not use;
* ``open_twos``: four-cell windows holding two stones of the side to move and two
  empty cells, minus the opponent's;
* ``open_ones``: the same with one stone and three empty cells;
* ``centre``: sum over own stones of ``4 - distance to e5``, minus the opponent's.

``DEFAULT_WEIGHTS`` is the standard evaluation; weights are ints of at most 2**16 in
size, so a value always fits a C int. ``terminal_value()`` is ``1 + empty cells`` when
the side to move has won (the opponent's last move made three), ``-(1 + empty cells)``
when it has lost (the opponent's last move made four), 0 for a draw: the margin makes
a quicker win worth more, and a later loss less bad, to a search that adds it to its
win score.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._game_py import GameCore, bit_indices
from .._zobrist import SQUARE_KEYS, TURN_KEYS
from ..errors import (
    GameOverError,
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
)
from ._tetralath_rules import (
    CELL_XY,
    CENTRALITY,
    DEFAULT_WEIGHTS,
    DIRECTIONS,
    FEATURES,
    FOUR,
    FOUR_WINDOWS,
    FULL,
    FULL_MASK,
    MAX_PLIES,
    NEIGHBOURS,
    NUM_CELLS,
    ONGOING,
    REASONS,
    ROW_LENGTHS,
    ROW_STARTS,
    SWAP,
    THREE,
    THREE_WINDOWS,
    cell_index,
    check_bitboard,
    check_cell,
    check_weights,
)

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
    "DEFAULT_WEIGHTS",
    "cell_index",
    "move_status",
    "board_status",
    "threat_cells",
    "features",
    "TetralathCore",
    "num_empty",
    "evaluate",
    "order_key",
    "search_moves",
    "terminal_value",
]

# The constants, the geometry (cell_index, CELL_XY, NEIGHBOURS, the windows, CENTRALITY), FEATURES,
# DEFAULT_WEIGHTS and the weights' check are in _tetralath_rules, shared with _tetralath_cy.

# order_key: the four-windows through each cell, and what a window adds to a quiet move's key
# by the stones in it: own stones and none of the opponent's, opponent's stones and no own.
_FOUR_THROUGH = tuple(tuple(w for w in FOUR_WINDOWS if w >> c & 1) for c in range(NUM_CELLS))
_ORDER_OWN = (1, 3, 10)
_ORDER_OPP = (0, 1, 4)


def _run(own: int, cell: int, d: int) -> int:
    """Own stones next to ``cell`` in direction ``d``, counted up to 3."""
    n = 0
    c = NEIGHBOURS[cell][d]
    while n < 3 and c >= 0 and own >> c & 1:
        n += 1
        c = NEIGHBOURS[c][d]
    return n


def _move_status(own: int, cell: int) -> int:
    """What a stone on ``cell`` does for its owner, ``own`` including that stone:
    ``FOUR`` (four or more in a row), ``THREE`` (exactly three, no four) or ``ONGOING``."""
    three = False
    for d in range(3):
        n = 1 + _run(own, cell, d) + _run(own, cell, d + 3)
        if n >= 4:
            return FOUR
        if n == 3:
            three = True
    return THREE if three else ONGOING


def _lines(bb: int) -> tuple[bool, bool, int]:
    """``(has four+, has exactly three, common)``: the maximal runs of 3+ stones of
    ``bb``, and the stones they all share (``FULL_MASK`` when there is none)."""
    four = three = False
    common = FULL_MASK
    for cell in range(NUM_CELLS):
        if not bb >> cell & 1:
            continue
        for d in range(3):
            back = NEIGHBOURS[cell][d + 3]
            if back >= 0 and bb >> back & 1:
                continue  # not the start of a run
            run = 0
            c = cell
            while c >= 0 and bb >> c & 1:
                run |= 1 << c
                c = NEIGHBOURS[c][d]
            length = run.bit_count()
            if length >= 3:
                common &= run
                if length >= 4:
                    four = True
                else:
                    three = True
    return four, three, common


def _board_status(mover: int, waiting: int) -> int:
    """Status of a set position: ``mover`` made the last move, ``waiting`` is to move.

    Returns -1 for a position no game can reach: the side to move has three or more
    in a row, or the last mover's lines do not all pass through one stone.
    """
    four, three, common = _lines(waiting)
    if four or three:
        return -1
    four, three, common = _lines(mover)
    if four or three:
        if not common:
            return -1
        return FOUR if four else THREE
    if (mover | waiting) == FULL_MASK:
        return FULL
    return ONGOING


def _threat_cells(me: int, opp: int) -> tuple[int, int, int, int, int, int]:
    """``(win_me, win_opp, lose_me, lose_opp, twos, ones)`` for stones ``me`` and ``opp``.

    ``win_p``: empty cells where player ``p`` would make four; ``lose_p``: empty
    cells where it would make exactly three and no four; ``twos`` / ``ones``: open
    four-cell windows (no opposing stone) with two / one stones, ``me``'s minus ``opp``'s.
    """
    win_me = win_opp = three_me = three_opp = 0
    twos = ones = 0
    for w in FOUR_WINDOWS:
        a = me & w
        b = opp & w
        if not b:
            if a:
                c = a.bit_count()
                if c == 3:
                    win_me |= w ^ a
                elif c == 2:
                    twos += 1
                else:
                    ones += c == 1
        elif not a:
            c = b.bit_count()
            if c == 3:
                win_opp |= w ^ b
            elif c == 2:
                twos -= 1
            else:
                ones -= c == 1
    for w in THREE_WINDOWS:
        a = me & w
        b = opp & w
        if not b:
            if a.bit_count() == 2:
                three_me |= w ^ a
        elif not a:
            if b.bit_count() == 2:
                three_opp |= w ^ b
    return win_me, win_opp, three_me & ~win_me, three_opp & ~win_opp, twos, ones


def _features(me: int, opp: int) -> tuple[int, ...]:
    """The evaluation features (``FEATURES``) for the side to move with stones ``me``."""
    win_me, win_opp, lose_me, lose_opp, twos, ones = _threat_cells(me, opp)
    blocks = win_opp.bit_count()
    cannot = 1 if blocks >= 2 or win_opp & lose_me else 0
    centre = 0
    for cell in range(NUM_CELLS):
        if me >> cell & 1:
            centre += CENTRALITY[cell]
        elif opp >> cell & 1:
            centre -= CENTRALITY[cell]
    return (
        1 if win_me else 0,
        blocks,
        cannot,
        lose_opp.bit_count() - lose_me.bit_count(),
        twos,
        ones,
        centre,
    )


def move_status(own: int, cell: int) -> int:
    """What a stone on ``cell`` does for its owner, ``own`` including that stone:
    ``FOUR`` (four or more in a row), ``THREE`` (exactly three, no four) or ``ONGOING``."""
    return _move_status(check_bitboard(own, "own"), check_cell(cell))


def board_status(mover: int, waiting: int) -> int:
    """Status of a set position: ``mover`` made the last move, ``waiting`` is to move.

    Returns -1 for a position no game can reach: the side to move has three or more
    in a row, or the last mover's lines do not all pass through one stone.
    """
    return _board_status(check_bitboard(mover, "mover"), check_bitboard(waiting, "waiting"))


def threat_cells(me: int, opp: int) -> tuple[int, int, int, int, int, int]:
    """``(win_me, win_opp, lose_me, lose_opp, twos, ones)`` for stones ``me`` and ``opp``.

    ``win_p``: empty cells where player ``p`` would make four; ``lose_p``: empty
    cells where it would make exactly three and no four; ``twos`` / ``ones``: open
    four-cell windows (no opposing stone) with two / one stones, ``me``'s minus ``opp``'s.
    """
    return _threat_cells(check_bitboard(me, "me"), check_bitboard(opp, "opp"))


def features(me: int, opp: int) -> tuple[int, ...]:
    """The evaluation features (``FEATURES``) for the side to move with stones ``me``."""
    return _features(check_bitboard(me, "me"), check_bitboard(opp, "opp"))


def _perft(core: TetralathCore, depth: int) -> int:
    moves = core.gen_moves()
    if not moves:
        return 1  # a finished game is one leaf
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        core.make_move(move)
        total += _perft(core, depth - 1)
        core.unmake_move()
    return total


class TetralathCore(GameCore):
    """Mutable Tetralath position with a move stack (the pure-Python core).

    Player 0 is white and moves first, player 1 is black.

    :param swap: allow the swap rule (black's first move may be ``SWAP``).
    """

    __slots__ = ("turn", "swap_rule", "_stones", "_hash", "_status", "_stack", "_order")

    def __init__(self, swap: bool = False) -> None:
        self.swap_rule = bool(swap)
        self._set(0, 0, 0, ONGOING)

    def _set(self, white: int, black: int, turn: int, status: int) -> None:
        self._stones = [white, black]
        self.turn = turn
        self._status = status
        h = TURN_KEYS[turn]
        for player, bb in enumerate(self._stones):
            keys = SQUARE_KEYS[player]
            while bb:
                bit = bb & -bb
                bb ^= bit
                h ^= keys[bit.bit_length() - 1]
        self._hash = h
        self._stack: list[tuple[int, int, int]] = []
        # order_key's masks for one position: (me, opp, win_me, lose_me, win_opp). The search
        # asks for the key of every move of a node, so they are computed once per node.
        self._order: tuple[int, int, int, int, int] = (-1, -1, 0, 0, 0)

    def set_board(self, white: int, black: int, turn: int) -> None:
        """Set the stones (two bitboards, bit = cell index) and the side to move; clears the history.

        :raises InvalidPositionError: bitboards off the board or overlapping, a bad turn,
            stone counts that do not fit the turn, or lines no game can reach.
        """
        check_bitboard(white, "white")
        check_bitboard(black, "black")
        if white & black:
            raise InvalidPositionError("a cell cannot hold a white and a black stone")
        if type(turn) is not int or turn not in (0, 1):
            raise InvalidPositionError(f"turn must be 0 (white) or 1 (black), got {turn!r}")
        nw, nb = white.bit_count(), black.bit_count()
        if nw - nb != turn and not (self.swap_rule and nb - nw == 1 - turn):
            raise InvalidPositionError(
                f"{nw} white and {nb} black stones do not fit {'black' if turn else 'white'} to move "
                "(white moves first, players alternate)"
            )
        stones = (white, black)
        status = _board_status(stones[1 - turn], stones[turn])
        if status < 0:
            raise InvalidPositionError("no game reaches this position (lines of three or more that did not end it)")
        self._set(white, black, turn, status)

    def bitboards(self) -> tuple[int, int]:
        """``(white, black)`` bitboards."""
        return self._stones[0], self._stones[1]

    def copy(self) -> TetralathCore:
        """An independent copy, history included."""
        other = TetralathCore.__new__(TetralathCore)
        other.swap_rule = self.swap_rule
        other._stones = list(self._stones)
        other.turn = self.turn
        other._hash = self._hash
        other._status = self._status
        other._stack = list(self._stack)
        other._order = self._order
        return other

    def _swap_allowed(self) -> bool:
        return self.swap_rule and self.turn == 1 and self._stones[1] == 0 and self._stones[0].bit_count() == 1

    # -- the game protocol -------------------------------------------------

    def gen_moves(self) -> list[int]:
        """The legal moves in ascending order (empty cells, then ``SWAP`` if allowed); ``[]`` at the end."""
        if self._status != ONGOING:
            return []
        out = bit_indices(~(self._stones[0] | self._stones[1]) & FULL_MASK)
        if self._swap_allowed():
            out.append(SWAP)
        return out

    def search_moves(self, depth: int) -> list[int]:
        """The moves a search tries at a node with ``depth`` >= 1 plies left, in ascending
        order: the legal moves less those that cannot change the node's value at that depth.

        - a move that makes four is worth more than anything else: only those are kept;
        - else, with ``depth`` >= 2, when the opponent could make four and one of those
          cells can be filled without making three: only such blocks are kept (any other
          move lets the opponent win next move, which is no better);
        - else the moves that make a losing three are left out (nothing is worse), unless
          there is no other move.
        """
        if self._status != ONGOING or self._swap_allowed():
            return self.gen_moves()
        me, opp = self._stones[self.turn], self._stones[1 - self.turn]
        _, _, win_me, lose_me, win_opp = self._order_masks(me, opp)
        if win_me:
            keep = win_me
        elif win_opp & ~lose_me and depth >= 2:
            keep = win_opp & ~lose_me
        else:
            empty = ~(me | opp) & FULL_MASK
            keep = empty & ~lose_me or empty
        return bit_indices(keep)

    def _order_masks(self, me: int, opp: int) -> tuple[int, int, int, int, int]:
        """``(me, opp, win_me, lose_me, win_opp)`` for these stones, computed once per position."""
        order = self._order
        if order[0] != me or order[1] != opp:
            win_me, win_opp, lose_me, _, _, _ = _threat_cells(me, opp)
            order = self._order = (me, opp, win_me, lose_me, win_opp)
        return order

    def make_move(self, move: int) -> None:
        """Play a move known to be legal (no checks)."""
        turn = self.turn
        stones = self._stones
        self._stack.append((move, self._hash, self._status))
        h = self._hash ^ TURN_KEYS[turn] ^ TURN_KEYS[1 - turn]
        if move == SWAP:
            cell = stones[0].bit_length() - 1
            stones[0] = 0
            stones[1] = 1 << cell
            h ^= SQUARE_KEYS[0][cell] ^ SQUARE_KEYS[1][cell]
            status = ONGOING
        else:
            own = stones[turn] | (1 << move)
            stones[turn] = own
            h ^= SQUARE_KEYS[turn][move]
            status = _move_status(own, move)
            if status == ONGOING and (own | stones[1 - turn]) == FULL_MASK:
                status = FULL
        self._hash = h
        self._status = status
        self.turn = 1 - turn

    def unmake_move(self) -> None:
        """Take back the last move made (no checks)."""
        move, h, status = self._stack.pop()
        turn = 1 - self.turn  # the player who made the move
        stones = self._stones
        if move == SWAP:
            cell = stones[1].bit_length() - 1
            stones[1] = 0
            stones[0] = 1 << cell
        else:
            stones[turn] ^= 1 << move
        self.turn = turn
        self._hash = h
        self._status = status

    def is_terminal(self) -> bool:
        """True when the last move made four, made three, or filled the board."""
        return self._status != ONGOING

    def terminal_value(self) -> int:
        """``1 + empty cells`` if the side to move has won, ``-(1 + empty cells)`` if it has
        lost, 0 for a draw (or a game not over): sooner wins are worth more."""
        status = self._status
        if status == FOUR:
            return -1 - self.num_empty()  # the opponent made four
        if status == THREE:
            return 1 + self.num_empty()  # the opponent made three
        return 0

    def evaluate(self, weights: Sequence[int]) -> int:
        """``sum(weights[i] * feature_i)`` for the side to move, features as in ``FEATURES``."""
        f = _features(self._stones[self.turn], self._stones[1 - self.turn])
        total = 0
        for i in range(len(FEATURES)):
            total += weights[i] * f[i]
        return total

    def order_key(self, move: int) -> int:
        """Move-ordering key for the side to move: 1000 a winning four, 500 a block of the
        opponent's four, -1000 a losing three, else 4 * the cell's centrality plus, over the
        four-windows through the cell, 1 an empty one, 3 / 10 one with one / two stones of
        the side to move and none of the opponent's, 1 / 4 one with one / two of the
        opponent's and none of its own (at most 4 * 4 + 12 * 10 < 500); 0 for ``SWAP``."""
        if not 0 <= move < NUM_CELLS:
            return 0
        order = self._order_masks(self._stones[self.turn], self._stones[1 - self.turn])
        bit = 1 << move
        if order[2] & bit:
            return 1000
        if order[3] & bit:
            return -1000
        if order[4] & bit:
            return 500
        me, opp = order[0], order[1]
        key = 4 * CENTRALITY[move]
        for w in _FOUR_THROUGH[move]:
            a = me & w
            b = opp & w
            if not b:
                key += _ORDER_OWN[a.bit_count()]
            elif not a:
                key += _ORDER_OPP[b.bit_count()]
        return key

    def to_move(self) -> int:
        """The player to move (the same as ``turn``)."""
        return self.turn

    def key(self) -> int:
        """64-bit Zobrist hash of the stones and the side to move."""
        return self._hash

    def num_empty(self) -> int:
        """Empty cells left."""
        return NUM_CELLS - (self._stones[0] | self._stones[1]).bit_count()

    # -- checked operations for the public API -----------------------------

    def legal_moves(self) -> list[int]:
        """The legal moves in ascending order (empty cells, then ``SWAP`` if allowed); ``[]`` at the end."""
        return self.gen_moves()

    def push(self, move: int) -> None:
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if type(move) is not int:
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        if self._status != ONGOING:
            raise GameOverError(f"the game is over ({REASONS[self._status]}): no move can be played")
        if move == SWAP:
            if not self._swap_allowed():
                raise IllegalMoveError(
                    "swap is only allowed as black's first move, with the swap rule on"
                    if self.swap_rule
                    else "the swap rule is off in this game"
                )
        elif not 0 <= move < NUM_CELLS:
            raise IllegalMoveError(f"cell index {move} is off the board (0..60)")
        elif (self._stones[0] | self._stones[1]) >> move & 1:
            raise IllegalMoveError("that cell is already occupied")
        self.make_move(move)

    def is_game_over(self) -> bool:
        """True when the last move made four, made three, or filled the board."""
        return self._status != ONGOING

    def status(self) -> int:
        """``ONGOING``, ``FOUR``, ``THREE`` or ``FULL``: what the last move did."""
        return self._status

    def winner(self) -> int | None:
        """0 (white) or 1 (black) once someone has won; ``None`` for a draw or a game not over."""
        status = self._status
        if status == FOUR:
            return 1 - self.turn  # the last mover
        if status == THREE:
            return self.turn  # the last mover lost
        return None

    def reason(self) -> str:
        """Why the game ended: ``'four in a row'``, ``'three in a row'``, ``'full board'``; ``''`` while it goes on."""
        return REASONS[self._status]

    def counts(self) -> tuple[int, int]:
        """``(white stones, black stones)``."""
        return self._stones[0].bit_count(), self._stones[1].bit_count()

    def zobrist(self) -> int:
        """64-bit Zobrist hash of the stones and the side to move."""
        return self._hash

    def features(self) -> tuple[int, ...]:
        """The evaluation features (``FEATURES``) for the side to move."""
        return _features(self._stones[self.turn], self._stones[1 - self.turn])

    def count_leaves(self, depth: int) -> int:
        """Perft (``GameCore.perft`` checks the depth); a finished game is one leaf."""
        if depth < 1:  # perft() checks the depth; this keeps a direct call safe
            return 1
        return _perft(self.copy(), depth)  # Ctrl-C leaves this position as it was


# -- the search protocol, checked, for Python callers -------------------------------------
# The compiled core has these as C methods only (a C method and a Python one cannot share a
# name), so both backends offer them to Python here, under the protocol's names.


def num_empty(core: TetralathCore) -> int:
    """Empty cells left."""
    return _core(core).num_empty()


def evaluate(core: TetralathCore, weights: Sequence[int] | None = None) -> int:
    """The heuristic value for the side to move: ``weights`` (``DEFAULT_WEIGHTS`` if none,
    one int per feature) over ``core.features()``."""
    return _core(core).evaluate(check_weights(DEFAULT_WEIGHTS if weights is None else weights))


def order_key(core: TetralathCore, move: int) -> int:
    """The search's ordering key of a legal move (``IllegalMoveError`` for another)."""
    if type(move) is not int or move not in _core(core).gen_moves():
        raise IllegalMoveError(f"not a legal move here: {move!r}")
    return core.order_key(move)


def search_moves(core: TetralathCore, depth: int) -> list[int]:
    """The moves a search tries here with ``depth`` >= 1 plies left."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InvalidLimitError(f"depth must be an int >= 1, got {depth!r}")
    return _core(core).search_moves(depth)


def terminal_value(core: TetralathCore) -> int:
    """``1 + empty cells`` when the side to move has won, minus that when it has lost, 0 for a
    draw or a game not over."""
    return _core(core).terminal_value()


def _core(core: TetralathCore) -> TetralathCore:
    if not isinstance(core, TetralathCore):
        raise TypeError(f"expected a TetralathCore, got {type(core).__name__}")
    return core
