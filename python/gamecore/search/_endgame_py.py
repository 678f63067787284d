"""The exact Othello endgame solver: the pure-Python twin of ``_endgame_cy``.

The readable reference of pyx/endgame.pxd; every name below has its twin there, and both
visit the same nodes in the same order. Scores are final disc differences for the side to
move, empty squares going to the winner (as ``terminal_value``); with an even number of
squares they are always even.

- Depth bands by empty squares e: e > SHALLOW_EMPTIES: ``deep_search`` (stability cut-off,
  transposition table, enhanced transposition cut-off from ETC_EMPTIES, PVS); 5 <= e <=
  SHALLOW_EMPTIES: ``shallow_search`` (stability cut-off, no table); e <= 4: the dedicated
  ``solve4`` .. ``solve1`` that try the empty squares directly.
- Move order. deep_search: the table's move, then the others by ``move_key`` (the replier's mobility,
  then the mover's corner stability, the replier's potential mobility, quadrant parity); on a
  board with learned weights, from ``EVAL_ORDER[0]`` empties, plus ``EVAL_ORDER[4]`` times
  the move's value for the replier by a shallow search with the learned evaluation
  (``shallow_value``: 0 plies, 1 from ``EVAL_ORDER[1]`` empties, 2 from ``EVAL_ORDER[2]``,
  3 from ``EVAL_ORDER[3]``; ``EVAL_ORDER[5]`` more in a node entered with an open window).
  shallow_search and solve4/solve3: moves in quadrants with an odd number of empties first.
  Ties, and the order within a parity group: the presorted order (positional weight
  classes, best first: corners, edges, centre, inner ring, C squares, X squares), then
  ascending squares.
- Nodes: every call of deep_search, shallow_search, solve4, solve3, solve2, solve1 is one
  node, and so is a position reached with no empty square. A pass calls the same routine
  again for the other side, which is one more node. Each position the evaluated ordering
  evaluates (or finds finished) is one node too.
- Limits are checked on entry to deep_search and shallow_search, and after each move
  inside the evaluated ordering's shallow searches (never inside the last four empties), so
  a search stopped by ``node_limit`` has visited at most a few dozen nodes more than the
  limit; the count is the same in both backends.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import Any

from .._game_py import bit_indices
from .._rng import GOLDEN, MASK64
from ..errors import InvalidOptionError
from ..games._othello_patterns import MAX_PATTERN_SCORE, SCALE
from ..games._othello_py import (
    PASS,
    OthelloCore,
    _pattern_score,
    final_score,
    flips,
    geometry_of,
    legal_moves_mask,
    stable_edges,
)
from ._options import (
    ENDGAME_TT_BITS,
    ETC_EMPTIES,
    ODD_BONUS,
    SHALLOW_EMPTIES,
    STATS_FIELDS,
    check_eval_order,
    check_solve_args,
    check_stats,
    check_table_bits,
)
from ._results import NO_MOVE

__all__ = ["SHALLOW_EMPTIES", "ENDGAME_TT_BITS", "NO_MOVE", "EndgameTable", "solve_exact"]

# The measurement counters of one number of empty squares (STATS_FIELDS in _options).
STAT_NODES, STAT_TABLE_HITS, STAT_TABLE_CUTS, STAT_OTHER_CUTS, STAT_FAIL_HIGHS, STAT_FIRST_CUTS = range(STATS_FIELDS)

# SHALLOW_EMPTIES (where ``shallow_search`` takes over from ``deep_search``), ENDGAME_TT_BITS,
# ODD_BONUS (move_key) and ETC_EMPTIES (etc_cutoff) are in _options, NO_MOVE (game over at the
# root) in _results: shared with _endgame_cy.
# The clock is read every this many nodes: about 1 ms of pure-Python solving (the compiled
# solver reads it every 4096 of its far faster nodes). Node counts do not depend on it.
_TIME_CHECK_EVERY = 64
_HASH_SEED = GOLDEN  # the compiled solver's GC_EG_HASH_SEED


def _mix64(x: int) -> int:
    """splitmix64's finaliser: a 64-bit to 64-bit bijection that mixes every bit."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def tt_hash(player: int, opponent: int) -> int:
    """64-bit key of a position for the solver's table (the side to move owns ``player``)."""
    h = _mix64((opponent >> 64) ^ _HASH_SEED)
    h = _mix64((player >> 64) ^ h)
    h = _mix64((opponent & MASK64) ^ h)
    return _mix64((player & MASK64) ^ h)


class EndgameTables:
    """Per-size masks of the solver: quadrants (parity regions), lines (stability), edges."""

    def __init__(self, n: int) -> None:
        g = geometry_of(n)
        self.n = n
        self.nsq = g.nsq
        self.full = g.full
        self.corners = g.corners
        self.edge_rows = g.edge_rows
        self.edge_cols = g.edge_cols
        self.edges = g.edge_rows | g.edge_cols
        half = n // 2
        #: quadrant of each square: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right
        self.quad_of = [(sq // n >= half) * 2 + (sq % n >= half) for sq in range(g.nsq)]
        self.quadrant = [sum(1 << sq for sq in range(g.nsq) if self.quad_of[sq] == q) for q in range(4)]
        # The lines of each direction (rows, columns, both diagonals); diagonals shorter than
        # three squares hold only edge squares, which the edges already protect.
        lines: list[list[int]] = [[], [], [], []]
        for r in range(n):
            lines[0].append(sum(1 << (r * n + c) for c in range(n)))
            lines[1].append(sum(1 << (c * n + r) for c in range(n)))
        for k in range(-(n - 3), n - 2):
            lines[2].append(sum(1 << (r * n + r + k) for r in range(n) if 0 <= r + k < n))
        for k in range(2, 2 * n - 3):
            lines[3].append(sum(1 << (r * n + k - r) for r in range(n) if 0 <= k - r < n))
        self.lines = lines
        # Where a disc can be flipped along E/W, S/N, SE/NW and SW/NE (not on the edge
        # across that line), with the shift of that line: potential mobility.
        not_edge_rows = g.full & ~g.edge_rows
        self.runs = (
            (1, g.inner),
            (n, not_edge_rows),
            (n + 1, g.inner & not_edge_rows),
            (n - 1, g.inner & not_edge_rows),
        )
        top_left, top_right = 1, 1 << (n - 1)
        bottom_left, bottom_right = 1 << (n * (n - 1)), 1 << (n * n - 1)
        #: the corners in the first column, last column, first row, last row
        self.corner_side = (
            top_left | bottom_left,
            top_right | bottom_right,
            top_left | top_right,
            bottom_left | bottom_right,
        )
        #: the squares by positional weight class, best class first (corners, edges, ...,
        #: X squares): the solver's "presorted" order, ascending squares within a class
        self.presorted = tuple(mask for _, mask in sorted(g.weight_classes, key=lambda wc: -wc[0]))


@functools.cache
def _endgame_tables(n: int) -> EndgameTables:
    """The solver's tables for an n x n board, computed once per size."""
    return EndgameTables(n)


def stable_discs(own: int, other: int, t: EndgameTables) -> int:
    """Discs of ``own`` that can never be flipped (a subset of them: a sound lower bound).

    A disc is stable when, along each of the four lines through it, the line is full, or
    the disc lies on the board's edge across that line, or a neighbour on that line is an
    own stable disc; grown from the discs on four full lines and the edge discs connected
    to an own corner, until nothing changes.
    """
    occupied = own | other
    full = []
    for lines in t.lines:
        f = 0
        for line in lines:
            if occupied & line == line:
                f |= line
        full.append(f)
    n = t.n
    free_h = full[0] | t.edge_cols
    free_v = full[1] | t.edge_rows
    free_d1 = full[2] | t.edges
    free_d2 = full[3] | t.edges
    stable = stable_edges(own, geometry_of(n)) | (own & full[0] & full[1] & full[2] & full[3])
    while True:
        grown = (
            own
            & (free_h | (stable << 1) | (stable >> 1))
            & (free_v | (stable << n) | (stable >> n))
            & (free_d1 | (stable << (n + 1)) | (stable >> (n + 1)))
            & (free_d2 | (stable << (n - 1)) | (stable >> (n - 1)))
        )
        if grown == stable:
            return stable
        stable = grown


def potential_mobility(mover: int, empty: int, t: EndgameTables) -> int:
    """Empty squares next to a disc of ``mover`` that a reply could flip along that line
    (the disc is not on the edge across it), a corner counting twice: the replier's
    potential mobility."""
    near = 0
    for shift, mask in t.runs:
        discs = mover & mask
        near |= (discs << shift) | (discs >> shift)
    near &= empty
    return near.bit_count() + (near & t.corners).bit_count()


def corner_stability(own: int, t: EndgameTables) -> int:
    """Own corners and the own edge squares next to an own corner."""
    left, right, top, bottom = t.corner_side
    n = t.n
    near = ((own & left) << 1) | ((own & right) >> 1) | ((own & top) << n) | ((own & bottom) >> n)
    return (own & (near | t.corners)).bit_count()


def move_key(t: EndgameTables, replier: int, mover: int, replies: int, odd: bool) -> int:
    """Sort key of a move in ``deep_search``, lowest first (after the table's move):

    1. the replier's mobility, a corner counting twice (fastest first), weight 2**15;
    2. minus the mover's corner stability, weight 2**11;
    3. the replier's potential mobility, weight 2**5;
    4. minus ``ODD_BONUS`` for a move in a quadrant with an odd number of empty squares.

    The weights make it close to lexicographic; ties keep the order the moves came in.
    """
    empty = ~(replier | mover) & t.full
    return (
        ((replies.bit_count() + (replies & t.corners).bit_count()) << 15)
        - (corner_stability(mover, t) << 11)
        + (potential_mobility(mover, empty, t) << 5)
        - (ODD_BONUS if odd else 0)
    )


def stability_threshold(empties: int) -> int:
    """Alpha from which a node computes the stability bound (below it a cut-off is rare)."""
    return 2 * empties - 2


class EndgameTable:
    """A transposition table that successive solves share: ``solve_exact(core, table=t)``.

    Every bound a solve stores is true of its position whatever the window, so a solve
    with the table of earlier solves (narrower windows at the same root, the positions of
    its principal variation, the jobs of a split tree) starts from all they proved.
    ``2 ** bits`` entries (``bits`` from 10 to 28; the dict holds those in use); :meth:`clear`
    empties it. Several solves may use it at once, in threads of their own: an entry is a tuple,
    replaced whole (the compiled twin's lock-free entries, whose torn writes read as misses),
    so every value stays exact and each solve finds what the others proved.

    :raises InvalidOptionError: ``bits`` out of range.
    """

    def __init__(self, bits: Any = ENDGAME_TT_BITS) -> None:
        self.bits = check_table_bits(bits)
        self.entries: dict[int, tuple[int, int, int, int, int]] = {}
        self.users = 0  # the solves using it now (counted under the lock: `+=` is not atomic)
        self.users_lock = threading.Lock()

    def clear(self) -> None:
        """Forget every entry.

        :raises RuntimeError: a solve is using the table.
        """
        if self.users:
            raise RuntimeError("the endgame table is in use by a solve")
        self.entries.clear()


class _SolverStopped(Exception):
    """A node or time limit was reached (the compiled kernel sets ``stop`` instead)."""


class EndgameSolver:
    """One exact solve: the table, the counters and the limits (``Solver`` in endgame.pxd).

    The transposition table has ``2 ** ENDGAME_TT_BITS`` entries, in buckets of two
    (even index: depth-preferred slot, odd index: always-replace slot); an entry is
    ``(key, lower, upper, move, empties)``, replaced whole, and a missing index is an empty slot. A position
    with key ``h`` lives in bucket ``h & (size - 1) & ~1``. Storing a position already in
    the bucket merges the bounds (every bound of an exact solve is true); otherwise it
    replaces the even slot when it has at least as many empties as the entry there, else the
    odd slot.
    """

    def __init__(
        self,
        n: int,
        node_limit: int = 0,
        deadline: float = 0.0,
        eval_order: tuple[int, int, int, int, int, int] | None = None,
        empties: int = 0,
        stop_flag: bytearray | None = None,
        table: EndgameTable | None = None,
        progress: Any = None,
        stats: Any = None,
        geometry: Any = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.t = _endgame_tables(n)
        self.progress = progress  # None, or [nodes, root moves searched, their best score] (root_progress)
        self.stats = stats  # None, or STATS_FIELDS counters by empty squares (count_stat)
        self.stop_flag = stop_flag  # a caller's flag (Engine.stop): nonzero stops
        self.n = n
        self.nsq = n * n
        # The core's geometry: a core given weights of its own (use_weights) orders by them.
        self.g = geometry if geometry is not None else geometry_of(n)
        # The evaluated ordering (EVAL_ORDER in _options), only where the size has learned
        # weights (looked up only when the root has ``empties`` enough for it: a solve of
        # fewer never reads the weights): otherwise it starts above the board's empties.
        eval_from, depth1_from, depth2_from, depth3_from, weight, pv_extra = check_eval_order(eval_order)
        if empties < eval_from or self.g.pattern_table is None:
            eval_from = self.nsq + 1
        self.eval_from = eval_from
        self.eval_depth1_from = depth1_from
        self.eval_depth2_from = depth2_from
        self.eval_depth3_from = depth3_from
        self.eval_weight = weight
        self.eval_pv_extra = pv_extra
        self.tt: dict[int, tuple[int, int, int, int, int]] = {} if table is None else table.entries
        self.tt_mask = (1 << (ENDGAME_TT_BITS if table is None else table.bits)) - 1
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.clock = clock  # what deadline is read on (solve_exact's _cpu_clock; the compiled Solver.cpu_clock)
        self.next_check = _TIME_CHECK_EVERY
        self.root_move = NO_MOVE

    # -- limits and table ---------------------------------------------------------------

    def count_stat(self, empties: int, field: int) -> None:
        """One more in a measurement's counter (``stats``, when asked for)."""
        if self.stats is not None:
            self.stats[empties * STATS_FIELDS + field] += 1

    def root_progress(self, best: int) -> None:
        """A root move searched: one more, and the best score so far (a proven lower bound of
        the root's value once above the window's alpha), for a caller's progress report."""
        if self.progress is not None:
            self.progress[1] += 1
            self.progress[2] = best

    def check_limits(self) -> None:
        if self.node_limit and self.nodes > self.node_limit:
            raise _SolverStopped
        if self.nodes >= self.next_check:
            self.next_check = self.nodes + _TIME_CHECK_EVERY
            if self.progress is not None:
                self.progress[0] = self.nodes
            if self.deadline and self.clock() >= self.deadline:
                raise _SolverStopped
            if self.stop_flag is not None and self.stop_flag[0]:
                raise _SolverStopped

    def tt_probe(self, h: int, empties: int) -> tuple[int, int, int, int, int] | None:
        bucket = h & self.tt_mask & ~1
        for i in (bucket, bucket + 1):
            entry = self.tt.get(i)
            if entry is not None and entry[0] == h and entry[4] == empties:
                return entry
        return None

    def tt_store(self, h: int, empties: int, lower: int, upper: int, move: int) -> None:
        bucket = h & self.tt_mask & ~1
        tt = self.tt
        for i in (bucket, bucket + 1):
            entry = tt.get(i)
            if entry is not None and entry[0] == h and entry[4] == empties:
                # Both bounds are true (whatever another solve stored meanwhile): keep the tighter.
                tt[i] = (h, max(entry[1], lower), min(entry[2], upper), move, empties)
                return
        deep = tt.get(bucket)
        if deep is None or empties >= deep[4]:
            tt[bucket] = (h, lower, upper, move, empties)
        else:
            tt[bucket + 1] = (h, lower, upper, move, empties)

    # -- the last four empties -----------------------------------------------------------

    def solve1(self, player: int, opponent: int, x: int) -> int:
        self.nodes += 1
        mine, theirs = player.bit_count(), opponent.bit_count()
        f = flips(player, opponent, x, self.n)
        if f:
            k = f.bit_count()
            return mine + k + 1 - (theirs - k)
        f = flips(opponent, player, x, self.n)
        if f:
            k = f.bit_count()
            return mine - k - (theirs + k + 1)
        diff = mine - theirs
        return diff + 1 if diff > 0 else diff - 1 if diff < 0 else 0

    def solve2(self, player: int, opponent: int, alpha: int, beta: int, x1: int, x2: int, passed: bool) -> int:
        self.nodes += 1
        best = -self.nsq - 1
        for x, rest in ((x1, x2), (x2, x1)):
            f = flips(player, opponent, x, self.n)
            if f:
                score = -self.solve1(opponent ^ f, player | f | (1 << x), rest)
                if score > best:
                    best = score
                    if best >= beta:
                        return best
                    if best > alpha:
                        alpha = best
        if best == -self.nsq - 1:
            if passed:
                return final_score(player, opponent, self.nsq)
            return -self.solve2(opponent, player, -beta, -alpha, x1, x2, True)
        return best

    def parity_order(self, squares: list[int]) -> list[int]:
        """Squares alone-or-odd in their quadrant first, then the others, each in given order."""
        quads = [self.t.quad_of[x] for x in squares]
        odd = [x for x, q in zip(squares, quads) if quads.count(q) % 2]
        return odd + [x for x, q in zip(squares, quads) if not quads.count(q) % 2]

    def solve3(self, player: int, opponent: int, alpha: int, beta: int, x1: int, x2: int, x3: int, passed: bool) -> int:
        self.nodes += 1
        order = self.parity_order([x1, x2, x3])
        best = -self.nsq - 1
        for i, x in enumerate(order):
            f = flips(player, opponent, x, self.n)
            if f:
                a, b = [y for j, y in enumerate(order) if j != i]
                score = -self.solve2(opponent ^ f, player | f | (1 << x), -beta, -alpha, a, b, False)
                if score > best:
                    best = score
                    if best >= beta:
                        return best
                    if best > alpha:
                        alpha = best
        if best == -self.nsq - 1:
            if passed:
                return final_score(player, opponent, self.nsq)
            return -self.solve3(opponent, player, -beta, -alpha, x1, x2, x3, True)
        return best

    def solve4(
        self, player: int, opponent: int, alpha: int, beta: int, x1: int, x2: int, x3: int, x4: int, passed: bool
    ) -> int:
        self.nodes += 1
        order = self.parity_order([x1, x2, x3, x4])
        best = -self.nsq - 1
        for i, x in enumerate(order):
            f = flips(player, opponent, x, self.n)
            if f:
                a, b, c = [y for j, y in enumerate(order) if j != i]
                score = -self.solve3(opponent ^ f, player | f | (1 << x), -beta, -alpha, a, b, c, False)
                if score > best:
                    best = score
                    if best >= beta:
                        return best
                    if best > alpha:
                        alpha = best
        if best == -self.nsq - 1:
            if passed:
                return final_score(player, opponent, self.nsq)
            return -self.solve4(opponent, player, -beta, -alpha, x1, x2, x3, x4, True)
        return best

    # -- the searches ----------------------------------------------------------------------

    def search_child(self, player: int, opponent: int, alpha: int, beta: int, empties: int) -> int:
        """The routine for ``empties`` empty squares (the depth bands above)."""
        if empties > SHALLOW_EMPTIES:
            return self.deep_search(player, opponent, alpha, beta, empties, False)
        if empties > 4:
            return self.shallow_search(player, opponent, alpha, beta, empties)
        empty = ~(player | opponent) & self.t.full
        sq = [x for group in self.t.presorted for x in bit_indices(empty & group)]
        if empties == 4:
            return self.solve4(player, opponent, alpha, beta, sq[0], sq[1], sq[2], sq[3], False)
        if empties == 3:
            return self.solve3(player, opponent, alpha, beta, sq[0], sq[1], sq[2], False)
        if empties == 2:
            return self.solve2(player, opponent, alpha, beta, sq[0], sq[1], False)
        if empties == 1:
            return self.solve1(player, opponent, sq[0])
        self.nodes += 1
        return final_score(player, opponent, self.nsq)

    def stability_cutoff(self, player: int, opponent: int, alpha: int, empties: int) -> int | None:
        """The bound ``nsq - 2 * stable opponent discs`` when it is <= alpha, else None."""
        if alpha >= stability_threshold(empties):
            bound = self.nsq - 2 * stable_discs(opponent, player, self.t).bit_count()
            if bound <= alpha:
                return bound
        return None

    def shallow_search(self, player: int, opponent: int, alpha: int, beta: int, empties: int) -> int:
        """Alpha-beta without table; moves in odd quadrants first, presorted within."""
        self.nodes += 1
        self.count_stat(empties, STAT_NODES)
        self.check_limits()
        cut = self.stability_cutoff(player, opponent, alpha, empties)
        if cut is not None:
            self.count_stat(empties, STAT_OTHER_CUTS)
            return cut
        moves = legal_moves_mask(player, opponent, self.n)
        if not moves:
            if not legal_moves_mask(opponent, player, self.n):
                return final_score(player, opponent, self.nsq)
            return -self.shallow_search(opponent, player, -beta, -alpha, empties)
        empty = ~(player | opponent) & self.t.full
        odd = 0
        for q in self.t.quadrant:
            if (empty & q).bit_count() & 1:
                odd |= q
        best = -self.nsq - 1
        for parity_group in (moves & odd, moves & ~odd):
            for group in self.t.presorted:
                for sq in bit_indices(parity_group & group):
                    f = flips(player, opponent, sq, self.n)
                    score = -self.search_child(opponent ^ f, player | f | (1 << sq), -beta, -alpha, empties - 1)
                    if score > best:
                        best = score
                        if best >= beta:
                            return best
                        if best > alpha:
                            alpha = best
        return best

    def sort_depth(self, empties: int, pv: bool) -> int:
        """How far ``order_moves`` looks past each move with the learned evaluation: -1 (not
        at all: fastest-first alone) below ``eval_from`` empties, else 0 (the move's position),
        1 from ``eval_depth1_from``, 2 from ``eval_depth2_from``, 3 from ``eval_depth3_from``;
        ``eval_pv_extra`` more in a node entered with an open window (``pv``)."""
        if empties < self.eval_from:
            return -1
        depth = (
            (empties >= self.eval_depth1_from) + (empties >= self.eval_depth2_from) + (empties >= self.eval_depth3_from)
        )
        return depth + self.eval_pv_extra if pv else depth

    def shallow_value(self, player: int, opponent: int, moves: int, depth: int, alpha: int, beta: int) -> int:
        """The value for ``player`` (to move; its moves are ``moves``) of a ``depth``-ply
        alpha-beta search (fail-soft, moves in ascending squares) with the learned evaluation
        at its leaves, in hundredths of a disc; a pass is a ply, a finished game its final
        score. Every position evaluated counts one node."""
        if depth == 0:
            self.nodes += 1
            return _pattern_score(player, opponent, self.g)
        if not moves:
            replies = legal_moves_mask(opponent, player, self.n)
            if not replies:
                self.nodes += 1
                return SCALE * final_score(player, opponent, self.nsq)
            return -self.shallow_value(opponent, player, replies, depth - 1, -beta, -alpha)
        best = -MAX_PATTERN_SCORE - 1  # below every value
        for sq in bit_indices(moves):
            f = flips(player, opponent, sq, self.n)
            child_p, child_o = opponent ^ f, player | f | (1 << sq)
            replies = legal_moves_mask(child_p, child_o, self.n) if depth > 1 else 0
            value = -self.shallow_value(child_p, child_o, replies, depth - 1, -beta, -alpha)
            self.check_limits()  # a 2-3 ply search on 10x10 evaluates thousands: limits hold inside it
            if value > best:
                best = value
                if best >= beta:
                    break
                if best > alpha:
                    alpha = best
        return best

    def order_moves(self, player: int, opponent: int, moves: int, sort_depth: int = -1) -> list[tuple[int, int]]:
        """``(square, flipped)`` of each move by ``move_key``, plus, with ``sort_depth`` >= 0,
        ``eval_weight`` times the ``shallow_value`` of the move for the replier (lower first);
        presorted order (``EndgameTables.presorted``) on ties."""
        keyed = []
        t = self.t
        empty = ~(player | opponent) & t.full
        odd = 0
        for q in t.quadrant:
            if (empty & q).bit_count() & 1:
                odd |= q
        for sq in (x for group in t.presorted for x in bit_indices(moves & group)):
            f = flips(player, opponent, sq, self.n)
            bit = 1 << sq
            child_p, child_o = opponent ^ f, player | f | bit
            replies = legal_moves_mask(child_p, child_o, self.n)
            key = move_key(t, child_p, child_o, replies, bool(bit & odd))
            if sort_depth >= 0:
                window = MAX_PATTERN_SCORE + 1
                key += self.eval_weight * self.shallow_value(child_p, child_o, replies, sort_depth, -window, window)
                self.check_limits()  # a deep ordering search at the root evaluates hundreds
            keyed.append((key, sq, f))
        keyed.sort(key=lambda item: item[0])  # stable: presorted order on equal keys
        return [(sq, f) for _, sq, f in keyed]

    def etc_cutoff(self, player: int, opponent: int, moves: int, beta: int, empties: int) -> int | None:
        """Enhanced transposition cut-off: a child whose table entry proves the move scores
        at least ``beta`` (its upper bound <= -beta) cuts this node before any search; that
        score, else None. Children are looked up in ascending square order."""
        for sq in bit_indices(moves):
            f = flips(player, opponent, sq, self.n)
            entry = self.tt_probe(tt_hash(opponent ^ f, player | f | (1 << sq)), empties - 1)
            if entry is not None and -entry[2] >= beta:
                return -entry[2]
        return None

    def deep_search(self, player: int, opponent: int, alpha: int, beta: int, empties: int, root: bool) -> int:
        """PVS with the table and fastest-first ordering; at the root it also sets ``root_move``."""
        self.nodes += 1
        self.count_stat(empties, STAT_NODES)
        self.check_limits()
        pv = beta - alpha > 1
        tt_move = NO_MOVE
        h = 0
        if not root:
            cut = self.stability_cutoff(player, opponent, alpha, empties)
            if cut is not None:
                self.count_stat(empties, STAT_OTHER_CUTS)
                return cut
            h = tt_hash(player, opponent)
            entry = self.tt_probe(h, empties)
            if entry is not None:
                self.count_stat(empties, STAT_TABLE_HITS)
                if entry[1] >= beta or entry[2] <= alpha or max(alpha, entry[1]) >= min(beta, entry[2]):
                    self.count_stat(empties, STAT_TABLE_CUTS)
                if entry[1] >= beta:
                    return entry[1]
                if entry[2] <= alpha:
                    return entry[2]
                if entry[1] > alpha:
                    alpha = entry[1]
                if entry[2] < beta:
                    beta = entry[2]
                if alpha >= beta:
                    return alpha
                tt_move = entry[3]
        else:
            # The root takes only the table's move (a shared table's, from an earlier solve):
            # its bounds could end the search without a best move.
            h = tt_hash(player, opponent)
            entry = self.tt_probe(h, empties)
            if entry is not None:
                tt_move = entry[3]
        moves = legal_moves_mask(player, opponent, self.n)
        if not moves:
            if not legal_moves_mask(opponent, player, self.n):
                return final_score(player, opponent, self.nsq)
            if root:
                self.root_move = PASS
            return -self.search_child(opponent, player, -beta, -alpha, empties)
        if not root and empties >= ETC_EMPTIES:
            cut = self.etc_cutoff(player, opponent, moves, beta, empties)
            if cut is not None:
                self.count_stat(empties, STAT_OTHER_CUTS)
                return cut
        alpha0 = alpha
        best = -self.nsq - 1
        best_move = NO_MOVE
        tried = 0
        if tt_move >= 0 and moves >> tt_move & 1:
            # The table's move first, before the others are ordered: often it cuts alone.
            moves ^= 1 << tt_move
            f = flips(player, opponent, tt_move, self.n)
            best = -self.search_child(opponent ^ f, player | f | (1 << tt_move), -beta, -alpha, empties - 1)
            if root:
                self.root_progress(best)
            best_move = tt_move
            alpha = max(alpha, best)
            tried = 1
            if best >= beta:
                self.count_stat(empties, STAT_FAIL_HIGHS)
                self.count_stat(empties, STAT_FIRST_CUTS)
        ordered = self.order_moves(player, opponent, moves, self.sort_depth(empties, pv)) if best < beta else []
        for i, (sq, f) in enumerate(ordered, start=tried):
            child_p, child_o = opponent ^ f, player | f | (1 << sq)
            if i == 0:
                score = -self.search_child(child_p, child_o, -beta, -alpha, empties - 1)
            else:
                score = -self.search_child(child_p, child_o, -alpha - 1, -alpha, empties - 1)
                if alpha < score < beta:
                    score = -self.search_child(child_p, child_o, -beta, -alpha, empties - 1)
            if root:
                self.root_progress(max(score, best))
            if score > best:
                best = score
                best_move = sq
                if best >= beta:
                    self.count_stat(empties, STAT_FAIL_HIGHS)
                    if i == 0:
                        self.count_stat(empties, STAT_FIRST_CUTS)
                    break
                if best > alpha:
                    alpha = best
        if root:
            self.root_move = best_move
        if best >= beta:
            self.tt_store(h, empties, best, self.nsq, best_move)
        elif best > alpha0:
            self.tt_store(h, empties, best, best, best_move)
        else:
            self.tt_store(h, empties, -self.nsq, best, best_move)
        return best


def solve_exact(
    core: OthelloCore,
    alpha: Any = None,
    beta: Any = None,
    node_limit: Any = 0,
    time_limit: Any = 0.0,
    *,
    table: Any = None,
    _eval_order: Any = None,
    _stop: bytearray | None = None,
    _progress: Any = None,
    _stats: Any = None,
    _cpu_clock: bool = False,
) -> tuple[int | None, int, int, bool]:  # the options are what a user passed, checked below
    """Solve the position exactly: ``(best_move, score, nodes, completed)``.

    ``score`` is the final disc difference for the side to move under perfect play by
    both sides, empty squares going to the winner (as ``terminal_value``). ``best_move``
    is a square index reaching that score, ``PASS`` (-1) when the side to move must
    pass, and ``None`` when the game is already over (the compiled kernel's ``NO_MOVE``,
    -2, never leaves it). ``nodes`` counts the positions visited, the same in both
    backends.

    ``alpha`` and ``beta`` (ints, ``None`` for minus and plus the number of squares)
    set the search window, fail-soft: a score <= alpha is an upper bound, >= beta a
    lower bound, and only a score inside the window is exact (with a best move).
    ``node_limit`` > 0 stops the search once it has visited more nodes than that,
    checked before every node with more than four empty squares (and after each move
    inside the evaluated ordering's shallow searches), and ``time_limit`` > 0
    after that many seconds (clock read every 4096 nodes); then ``completed`` is False,
    ``best_move`` None and ``score`` 0, meaning nothing. Only ``time_limit`` can make the
    two backends differ. The compiled backend releases the GIL while it solves.

    Algorithm (see ``pyx/endgame.pxd``): negamax alpha-beta (PVS) over the empty
    squares, a transposition table of ``2 ** ENDGAME_TT_BITS`` entries (empty for each
    call; the compiled twin keeps its table between calls, its entries stamped with the
    call's generation), fastest-first move ordering (with many empty squares on boards with
    learned weights, helped by shallow searches with the learned evaluation: ``EVAL_ORDER``),
    parity ordering near the end, stability cut-offs and dedicated solvers for the last four
    empty squares. ``table`` (an :class:`EndgameTable`) is used instead, and kept: what
    earlier solves with it stored counts, and so does what solves using it meanwhile in other
    threads store. ``_eval_order`` (tests and measurements) replaces
    ``EVAL_ORDER``; ``_progress`` (an ``array('q')`` of three) receives the node count with
    each reading of the clock, and after each root move the moves searched and the best score
    among them; ``_stats`` (an ``array('Q')`` of ``STATS_FIELDS * (squares + 1)``
    zeros) counts by empty squares the nodes, table hits and cut-offs (see ``STATS_FIELDS``).
    ``_cpu_clock``: ``time_limit`` is seconds of this thread's CPU time, not of the wall clock
    (an engine whose budget is CPU time: matches on a loaded machine).

    :raises InvalidOptionError: a bad window (not ints within +-squares, or alpha >= beta),
        a negative or non-int ``node_limit``, a negative or non-finite ``time_limit``, a bad
        ``_eval_order``, a ``table`` that is not an EndgameTable, bad ``_stats``.
    """
    if not isinstance(core, OthelloCore):
        raise TypeError(f"solve_exact needs an OthelloCore of this backend, got {type(core).__name__}")
    alpha, beta, node_limit, time_limit = check_solve_args(alpha, beta, node_limit, time_limit, core.size * core.size)
    check_stats(_stats, _progress, core.size * core.size)
    if table is not None:
        if not isinstance(table, EndgameTable):
            raise InvalidOptionError(f"table must be an EndgameTable of this backend, got {type(table).__name__}")
    clock = time.thread_time if _cpu_clock else time.perf_counter
    deadline = clock() + time_limit if time_limit > 0.0 else 0.0
    solver = EndgameSolver(
        core.size,
        node_limit,
        deadline,
        _eval_order,
        core.num_empty(),
        _stop,
        table,
        _progress,
        _stats,
        core._geometry,
        clock,
    )
    black, white = core.bitboards()
    me, opp = (black, white) if core.turn == 0 else (white, black)
    if table is not None:
        with table.users_lock:
            table.users += 1
    try:
        score = solver.deep_search(me, opp, alpha, beta, core.num_empty(), True)
    except _SolverStopped:
        return None, 0, solver.nodes, False
    finally:
        if table is not None:
            with table.users_lock:
                table.users -= 1
    move = solver.root_move
    return (None if move == NO_MOVE else move), score, solver.nodes, True
