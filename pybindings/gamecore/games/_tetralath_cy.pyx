# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True
"""Tetralath (Yavalath without the swap rule): the compiled core (twin of ``_tetralath_py``).

Same names, signatures and behaviour as ``python/gamecore/_tetralath_py.py``, which
documents the board, the rules, the evaluation features and the move order. The
searches use the ``cdef`` methods of :class:`TetralathCore`; Python code uses the
checked ``def`` methods, which validate everything before it reaches C.
"""
from libc.stdint cimport uint64_t

from bits cimport gc_popcount64, gc_ctz64
from gamecore._game_cy cimport GameCore, MOVE_BUFFER
from interrupt cimport gc_poll_signals, gc_raise_pending
from tetralath cimport (
    TLTables, TL_CELLS, TL_SWAP, TL_MAX_PLIES, TL_STACK, TL_NFOUR, TL_NTHREE, TL_NFEATURES,
    TL_ONGOING, TL_FOUR, TL_THREE, TL_FULL, TL_FULL_MASK,
    tl_build_tables, tl_move_status, tl_board_status,
    tl_threat_cells, tl_features, tl_features_from, tl_weighted, tl_order_key,
    tlw_add, tlw_remove, tlw_rebuild, tlw_threat_cells,
)

from gamecore._zobrist import SQUARE_KEYS, TURN_KEYS
from gamecore.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidLimitError,
    InvalidPositionError,
)
from gamecore.games._tetralath_rules import (
    CELL_XY, CENTRALITY, DEFAULT_WEIGHTS, DIRECTIONS, FEATURES, FOUR, FOUR_WINDOWS, FULL, FULL_MASK, MAX_PLIES,
    NEIGHBOURS, NUM_CELLS, ONGOING, REASONS, ROW_LENGTHS, ROW_STARTS, SWAP, THREE, THREE_WINDOWS,
    cell_index, check_bitboard, check_cell, check_weights,
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

# The geometry and the Zobrist keys, built once at import.
cdef TLTables _T
tl_build_tables(&_T)


def _fill_keys():
    cdef int p, c
    for p in range(2):
        for c in range(64):
            _T.zsq[p][c] = SQUARE_KEYS[p][c]
        _T.zturn[p] = TURN_KEYS[p]


_fill_keys()

# The constants, the geometry, FEATURES, DEFAULT_WEIGHTS and the weights' check are in
# _tetralath_rules, shared with _tetralath_py. The C constants and the C tables built by
# tl_build_tables copy them: read back here, they are compared in tests/test_options.py.
_C_COPIES = {
    "NUM_CELLS": TL_CELLS,
    "FULL_MASK": TL_FULL_MASK,
    "SWAP": TL_SWAP,
    "MAX_PLIES": TL_MAX_PLIES,
    "ONGOING": TL_ONGOING,
    "FOUR": TL_FOUR,
    "THREE": TL_THREE,
    "FULL": TL_FULL,
    "NUM_FEATURES": TL_NFEATURES,
    "CELL_XY": tuple((_T.x[c], _T.y[c]) for c in range(TL_CELLS)),
    "NEIGHBOURS": tuple(tuple(_T.nb[c][d] for d in range(6)) for c in range(TL_CELLS)),
    "FOUR_WINDOWS": tuple(_T.four[i] for i in range(TL_NFOUR)),
    "THREE_WINDOWS": tuple(_T.three[i] for i in range(TL_NTHREE)),
    "CENTRALITY": tuple(_T.centre[c] for c in range(TL_CELLS)),
}


def move_status(own, cell):
    """What a stone on ``cell`` does for its owner, ``own`` including that stone:
    ``FOUR`` (four or more in a row), ``THREE`` (exactly three, no four) or ``ONGOING``."""
    return tl_move_status(<uint64_t>check_bitboard(own, "own"), &_T, <int>check_cell(cell))


def board_status(mover, waiting):
    """Status of a set position: ``mover`` made the last move, ``waiting`` is to move.

    Returns -1 for a position no game can reach: the side to move has three or more
    in a row, or the last mover's lines do not all pass through one stone.
    """
    return tl_board_status(<uint64_t>check_bitboard(mover, "mover"), <uint64_t>check_bitboard(waiting, "waiting"), &_T)


def threat_cells(me, opp):
    """``(win_me, win_opp, lose_me, lose_opp, twos, ones)`` for stones ``me`` and ``opp``.

    ``win_p``: empty cells where player ``p`` would make four; ``lose_p``: empty
    cells where it would make exactly three and no four; ``twos`` / ``ones``: open
    four-cell windows (no opposing stone) with two / one stones, ``me``'s minus ``opp``'s.
    """
    cdef uint64_t cells[4]
    cdef int twos, ones
    tl_threat_cells(<uint64_t>check_bitboard(me, "me"), <uint64_t>check_bitboard(opp, "opp"), &_T, cells, &twos, &ones)
    return cells[0], cells[1], cells[2], cells[3], twos, ones


def features(me, opp):
    """The evaluation features (``FEATURES``) for the side to move with stones ``me``."""
    cdef int f[TL_NFEATURES]
    tl_features(<uint64_t>check_bitboard(me, "me"), <uint64_t>check_bitboard(opp, "opp"), &_T, f)
    return tuple([f[i] for i in range(TL_NFEATURES)])


cdef long long _perft(TetralathCore core, int depth, double* next_poll, bint* interrupted) noexcept nogil:
    """Leaves below `core`; stops (`interrupted` set) when a signal handler raised (Ctrl-C)."""
    cdef int moves[MOVE_BUFFER]
    cdef int n = core.gen_moves(moves)
    cdef int i
    cdef long long total = 0
    if n == 0:
        return 1  # a finished game is one leaf
    if depth == 1:
        return n
    if depth == 3 and gc_poll_signals(next_poll):  # a clock read every few thousand leaves
        interrupted[0] = True
    for i in range(n):
        if interrupted[0]:
            break
        core.make_move(moves[i])
        total += _perft(core, depth - 1, next_poll, interrupted)
        core.unmake_move()
    return total


cdef class TetralathCore(GameCore):
    """Mutable Tetralath position with a move stack (the compiled core).

    Player 0 is white and moves first, player 1 is black.

    :param swap: allow the swap rule (black's first move may be ``SWAP``).
    """

    def __init__(self, swap=False):
        self.swap_rule = bool(swap)
        self._set(0, 0, 0, TL_ONGOING)

    cdef void _set(self, uint64_t white, uint64_t black, int turn, int status) noexcept nogil:
        cdef uint64_t h = _T.zturn[turn]
        cdef uint64_t bb
        cdef int p
        self.stones[0] = white
        self.stones[1] = black
        self.turn = turn
        self.status_ = status
        for p in range(2):
            bb = self.stones[p]
            while bb:
                h ^= _T.zsq[p][gc_ctz64(bb)]
                bb &= bb - 1
        self.hash_ = h
        self.nply = 0
        tlw_rebuild(&self.windows, &_T, white, black)

    def set_board(self, white, black, turn):
        """Set the stones (two bitboards, bit = cell index) and the side to move; clears the history.

        :raises InvalidPositionError: bitboards off the board or overlapping, a bad turn,
            stone counts that do not fit the turn, or lines no game can reach.
        """
        cdef uint64_t w = <uint64_t>check_bitboard(white, "white")
        cdef uint64_t b = <uint64_t>check_bitboard(black, "black")
        cdef int t, nw, nb, status
        if w & b:
            raise InvalidPositionError("a cell cannot hold a white and a black stone")
        if type(turn) is not int or turn not in (0, 1):
            raise InvalidPositionError(f"turn must be 0 (white) or 1 (black), got {turn!r}")
        t = turn
        nw = gc_popcount64(w)
        nb = gc_popcount64(b)
        if nw - nb != t and not (self.swap_rule and nb - nw == 1 - t):
            raise InvalidPositionError(
                f"{nw} white and {nb} black stones do not fit {'black' if t else 'white'} to move "
                "(white moves first, players alternate)"
            )
        status = tl_board_status(b if t == 0 else w, w if t == 0 else b, &_T)
        if status < 0:
            raise InvalidPositionError("no game reaches this position (lines of three or more that did not end it)")
        self._set(w, b, t, status)

    def bitboards(self):
        """``(white, black)`` bitboards."""
        return self.stones[0], self.stones[1]

    def copy(self):
        """An independent copy, history included."""
        cdef TetralathCore other = TetralathCore.__new__(TetralathCore)
        cdef int i
        other.swap_rule = self.swap_rule
        other.stones[0] = self.stones[0]
        other.stones[1] = self.stones[1]
        other.turn = self.turn
        other.hash_ = self.hash_
        other.status_ = self.status_
        other.nply = self.nply
        other.windows = self.windows
        for i in range(self.nply):
            other.stack_move[i] = self.stack_move[i]
            other.stack_hash[i] = self.stack_hash[i]
            other.stack_status[i] = self.stack_status[i]
        return other

    cdef bint _swap_allowed(self) noexcept nogil:
        return (self.swap_rule and self.turn == 1 and self.stones[1] == 0
                and gc_popcount64(self.stones[0]) == 1)

    # -- the game protocol -------------------------------------------------

    cdef int gen_moves(self, int* moves) noexcept nogil:
        """The legal moves in ascending order (empty cells, then SWAP if allowed); 0 at the end."""
        cdef uint64_t empty
        cdef int n = 0
        if self.status_ != TL_ONGOING:
            return 0
        empty = ~(self.stones[0] | self.stones[1]) & TL_FULL_MASK
        while empty:
            moves[n] = gc_ctz64(empty)
            n += 1
            empty &= empty - 1
        if self._swap_allowed():
            moves[n] = TL_SWAP
            n += 1
        return n

    cdef int search_moves(self, int* moves, int depth) noexcept nogil:
        """The moves a search tries at a node with depth >= 1 plies left, in ascending
        order: the legal moves less those that cannot change the node's value at that
        depth (see the pure twin: wins only; else blocks only at depth >= 2; else no
        losing threes unless nothing else is left)."""
        cdef uint64_t me, opp, keep, empty
        cdef int n = 0
        if self.status_ != TL_ONGOING or self._swap_allowed():
            return self.gen_moves(moves)
        me = self.stones[self.turn]
        opp = self.stones[1 - self.turn]
        self._order_masks(me, opp)
        if self.order_masks[0]:
            keep = self.order_masks[0]
        elif (self.order_masks[2] & ~self.order_masks[1]) and depth >= 2:
            keep = self.order_masks[2] & ~self.order_masks[1]
        else:
            empty = ~(me | opp) & TL_FULL_MASK
            keep = empty & ~self.order_masks[1]
            if not keep:
                keep = empty
        while keep:
            moves[n] = gc_ctz64(keep)
            n += 1
            keep &= keep - 1
        return n

    cdef void _order_masks(self, uint64_t me, uint64_t opp) noexcept nogil:
        """order_masks for these stones, computed once per position."""
        if not (self.order_valid and self.order_for[0] == me and self.order_for[1] == opp):
            self.window_order_masks()
            self.order_for[0] = me
            self.order_for[1] = opp
            self.order_valid = True

    cdef void make_move(self, int move) noexcept nogil:
        """Play a move known to be legal (no checks but the size of the stack)."""
        cdef int turn = self.turn
        cdef int cell, status
        cdef uint64_t own
        cdef uint64_t h
        if self.nply >= TL_STACK:
            return
        self.stack_move[self.nply] = move
        self.stack_hash[self.nply] = self.hash_
        self.stack_status[self.nply] = self.status_
        self.nply += 1
        h = self.hash_ ^ _T.zturn[turn] ^ _T.zturn[1 - turn]
        if move == TL_SWAP:
            cell = gc_ctz64(self.stones[0] | (<uint64_t>1 << 63))
            self.stones[0] = 0
            self.stones[1] = (<uint64_t>1) << cell
            h ^= _T.zsq[0][cell] ^ _T.zsq[1][cell]
            status = TL_ONGOING
            tlw_rebuild(&self.windows, &_T, self.stones[0], self.stones[1])
        else:
            own = self.stones[turn] | ((<uint64_t>1) << move)
            self.stones[turn] = own
            h ^= _T.zsq[turn][move]
            status = tlw_add(&self.windows, &_T, turn, move)  # = tl_move_status(own, &_T, move)
            if status == TL_ONGOING and (own | self.stones[1 - turn]) == TL_FULL_MASK:
                status = TL_FULL
        self.hash_ = h
        self.status_ = status
        self.turn = 1 - turn

    cdef int ply_count(self) noexcept nogil:
        return self.nply

    cdef int move_at(self, int ply) noexcept nogil:
        return self.stack_move[ply]

    cdef void unmake_move(self) noexcept nogil:
        """Take back the last move made (no checks but an empty stack)."""
        cdef int move, cell
        cdef int turn = 1 - self.turn  # the player who made the move
        if self.nply <= 0:
            return
        self.nply -= 1
        move = self.stack_move[self.nply]
        if move == TL_SWAP:
            cell = gc_ctz64(self.stones[1] | (<uint64_t>1 << 63))
            self.stones[1] = 0
            self.stones[0] = (<uint64_t>1) << cell
            tlw_rebuild(&self.windows, &_T, self.stones[0], self.stones[1])
        else:
            self.stones[turn] ^= (<uint64_t>1) << move
            tlw_remove(&self.windows, &_T, turn, move)
        self.turn = turn
        self.hash_ = self.stack_hash[self.nply]
        self.status_ = self.stack_status[self.nply]

    cdef bint is_terminal(self) noexcept nogil:
        """True when the last move made four, made three, or filled the board."""
        return self.status_ != TL_ONGOING

    cdef int terminal_value(self) noexcept nogil:
        """1 + empty cells if the side to move has won, -(1 + empty cells) if it has
        lost, 0 for a draw (or a game not over): sooner wins are worth more."""
        if self.status_ == TL_FOUR:
            return -1 - self.num_empty()
        if self.status_ == TL_THREE:
            return 1 + self.num_empty()
        return 0

    cdef int evaluate(self, const int* weights) noexcept nogil:
        """sum(weights[i] * feature_i) for the side to move, features as in FEATURES."""
        cdef int f[TL_NFEATURES]
        self.window_features(f)
        return tl_weighted(f, weights)

    cdef void window_features(self, int* f) noexcept nogil:
        """The features for the side to move, from the window sets."""
        cdef uint64_t cells[4]
        cdef int twos, ones
        cdef uint64_t me = self.stones[self.turn], opp = self.stones[1 - self.turn]
        tlw_threat_cells(&self.windows, &_T, self.turn, me, opp, cells, &twos, &ones)
        tl_features_from(cells, twos, ones, me, opp, &_T, f)

    cdef int order_key(self, int move) noexcept nogil:
        """Move-ordering key for the side to move: 1000 a winning four, 500 a block of the
        opponent's four, -1000 a losing three, else 4 * the cell's centrality plus what the
        four-windows through the cell add (see the pure twin and tl_order_key); 0 for SWAP."""
        self._order_masks(self.stones[self.turn], self.stones[1 - self.turn])
        return tl_order_key(self.order_masks, &_T, &self.windows, self.turn, move)

    cdef void window_order_masks(self) noexcept nogil:
        """order_masks (cells making four, a losing three, blocking four) from the windows."""
        cdef uint64_t cells[4]
        cdef int twos, ones
        tlw_threat_cells(&self.windows, &_T, self.turn, self.stones[self.turn],
                         self.stones[1 - self.turn], cells, &twos, &ones)
        self.order_masks[0] = cells[0]
        self.order_masks[1] = cells[2]
        self.order_masks[2] = cells[1]

    cdef int to_move(self) noexcept nogil:
        return self.turn

    cdef uint64_t key(self) noexcept nogil:
        """64-bit Zobrist hash of the stones and the side to move."""
        return self.hash_

    cdef int num_empty(self) noexcept nogil:
        """Empty cells left."""
        return TL_CELLS - gc_popcount64(self.stones[0] | self.stones[1])

    # -- checked operations for the public API -----------------------------

    def legal_moves(self):
        """The legal moves in ascending order (empty cells, then ``SWAP`` if allowed); ``[]`` at the end."""
        cdef int moves[MOVE_BUFFER]
        cdef int n = self.gen_moves(moves)
        return [moves[i] for i in range(n)]

    def push(self, move):
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if type(move) is not int:
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        if self.status_ != TL_ONGOING:
            raise GameOverError(f"the game is over ({REASONS[self.status_]}): no move can be played")
        if move == TL_SWAP:
            if not self._swap_allowed():
                raise IllegalMoveError(
                    "swap is only allowed as black's first move, with the swap rule on"
                    if self.swap_rule
                    else "the swap rule is off in this game"
                )
        elif not 0 <= move < TL_CELLS:
            raise IllegalMoveError(f"cell index {move} is off the board (0..60)")
        elif ((self.stones[0] | self.stones[1]) >> <int>move) & 1:
            raise IllegalMoveError("that cell is already occupied")
        self.make_move(<int>move)

    def is_game_over(self):
        """True when the last move made four, made three, or filled the board."""
        return self.status_ != TL_ONGOING

    def status(self):
        """``ONGOING``, ``FOUR``, ``THREE`` or ``FULL``: what the last move did."""
        return self.status_

    def winner(self):
        """0 (white) or 1 (black) once someone has won; ``None`` for a draw or a game not over."""
        if self.status_ == TL_FOUR:
            return 1 - self.turn
        if self.status_ == TL_THREE:
            return self.turn
        return None

    def reason(self):
        """Why the game ended: ``'four in a row'``, ``'three in a row'``, ``'full board'``; ``''`` while it goes on."""
        return REASONS[self.status_]

    def counts(self):
        """``(white stones, black stones)``."""
        return gc_popcount64(self.stones[0]), gc_popcount64(self.stones[1])

    def zobrist(self):
        """64-bit Zobrist hash of the stones and the side to move."""
        return self.hash_

    def features(self):
        """The evaluation features (``FEATURES``) for the side to move."""
        cdef int f[TL_NFEATURES]
        self.window_features(f)
        return tuple([f[i] for i in range(TL_NFEATURES)])

    def count_leaves(self, int depth):
        """Perft (``GameCore.perft`` checks the depth); a finished game is one leaf."""
        if depth < 1:  # perft() checks the depth; this keeps a direct call safe
            return 1
        cdef int d
        cdef long long total
        cdef double next_poll = 0.0
        cdef bint interrupted = False
        cdef TetralathCore work
        d = depth if depth < TL_STACK else TL_STACK
        work = self.copy()  # Ctrl-C leaves this position as it was
        with nogil:
            total = _perft(work, d, &next_poll, &interrupted)
        if interrupted:
            gc_raise_pending()
        return total


# -- the search protocol, checked, for Python callers -------------------------------------
# The core has these as C methods only (a C method and a Python one cannot share a name),
# so both backends offer them to Python here, under the protocol's names.


def num_empty(TetralathCore core not None):
    """Empty cells left."""
    return core.num_empty()


def evaluate(TetralathCore core not None, weights=None):
    """The heuristic value for the side to move: ``weights`` (``DEFAULT_WEIGHTS`` if none,
    one int per feature) over ``core.features()``."""
    cdef int w[TL_NFEATURES]
    cdef int i
    values = check_weights(DEFAULT_WEIGHTS if weights is None else weights)
    for i in range(TL_NFEATURES):
        w[i] = values[i]
    return core.evaluate(w)


def order_key(TetralathCore core not None, move):
    """The search's ordering key of a legal move (``IllegalMoveError`` for another)."""
    if type(move) is not int or move not in core.legal_moves():
        raise IllegalMoveError(f"not a legal move here: {move!r}")
    return core.order_key(<int>move)


def search_moves(TetralathCore core not None, depth):
    """The moves a search tries here with ``depth`` >= 1 plies left."""
    cdef int moves[MOVE_BUFFER]
    cdef int n
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise InvalidLimitError(f"depth must be an int >= 1, got {depth!r}")
    n = core.search_moves(moves, depth if depth < 1000 else 1000)
    return [moves[i] for i in range(n)]


def terminal_value(TetralathCore core not None):
    """``1 + empty cells`` when the side to move has won, minus that when it has lost, 0 for a
    draw or a game not over."""
    return core.terminal_value()
