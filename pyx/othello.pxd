# Othello/Reversi bitboard kernel for n x n boards (n even, 4..10); twin of the module-level
# functions of python/gamecore/_othello_py.py.
#
# Bit layout up to 8x8 (uint64_t): square (row, col) is bit row * n + col; a1 (row 0, col 0),
# the top-left corner, is bit 0. A move in direction +s shifts a bitboard left by s bits, -s
# right. The four direction steps are 1 (east), n (south), n + 1 (south-east), n - 1
# (south-west); every horizontal or diagonal step is masked with `inner` (the board without
# its first and last columns) so that no run wraps from one row to the next.
#
# 10x10 (gc_u128) uses the interleaved layout of gamecore_bits.h instead: even rows in the low
# half, odd rows in the high half, so that a step costs one plain shift per half. The same
# fills run over it through gc_b10_step; squares map to bits through Geometry.square_bit and
# bit_square, and callers convert from and to the plain layout at the Python boundary.
# Flips and perft convert to the split layout of gamecore_othello100.h (rows 0..4 in the low
# half, 5..9 in the high half, square order) and run on that header's C kernel.
# The pure-Python twin keeps the plain layout for every size: results are the same.
from libc.stdint cimport uint64_t
from bits cimport (bb_t, gc_u128, popcount, lowest_bit, gc_ctz64, gc_b10_step, gc_b10_step_pairs,
                   gc_b10_square_bit, gc_b10_bit_square, gc_b10_first_square, gc_b10_to_split,
                   gc_b10_from_split, gc_u128_hi, gc_u128_lo, gc_u128_from_halves)

cdef extern from "gamecore_othello64.h":
    ctypedef struct gc_board64:
        pass
    void gc_board64_init(gc_board64* b, int n, uint64_t full, uint64_t inner, const uint64_t (*rays)[8]) noexcept nogil
    uint64_t gc_direction_moves64(uint64_t player, uint64_t mask, uint64_t empty, int s) noexcept nogil
    uint64_t gc_moves8x8(uint64_t player, uint64_t opponent) noexcept nogil
    void gc_moves8x8_both(uint64_t player, uint64_t opponent, uint64_t* mine, uint64_t* theirs) noexcept nogil
    uint64_t gc_moves8x8_fastest(uint64_t player, uint64_t opponent) noexcept nogil
    uint64_t gc_flips64(uint64_t player, uint64_t opponent, const uint64_t* rays) noexcept nogil
    uint64_t gc_perft64(uint64_t player, uint64_t opponent, int depth, const gc_board64* b) noexcept nogil

cdef extern from "gamecore_othello100.h":
    ctypedef struct gc_b100:
        uint64_t lo
        uint64_t hi
    ctypedef struct gc_board100:
        pass
    void gc_board100_init(gc_board100* b) noexcept nogil
    gc_b100 gc_flips100(gc_b100 p, gc_b100 o, int square, const gc_board100* b) noexcept nogil
    uint64_t gc_perft100(gc_b100 player, gc_b100 opponent, int depth, const gc_board100* b) noexcept nogil

ctypedef struct Geometry:
    int n
    int nsq
    gc_u128 full          # every square of the board
    gc_u128 inner         # without the first and last column
    gc_u128 corners
    gc_u128 edge_rows     # first and last row
    gc_u128 edge_cols     # first and last column
    int nclasses          # positional weights grouped by value
    int class_weight[8]
    gc_u128 class_mask[8]
    int square_weight[100]
    gc_u128 square_bit[100]       # the bit of each square in this size's layout
    signed char bit_square[128]   # the square of each bit position, -1 for none
    gc_board100 b100              # 10x10 only: masks and rays of gamecore_othello100.h
    uint64_t rays64[64][8]        # up to 8x8: the squares from each square to the edge in each
                                  # direction (gamecore_othello64.h)
    const void* patterns          # the learned evaluation's table a core with weights of its
                                  # own reads (_othello_cy.PatternTable); NULL: the size's shipped one


cdef inline int square_weight(int row, int col, int size) noexcept nogil:
    """Positional weight: corners high, X and C squares next to them low (as in _othello_py)."""
    cdef int dr = row if row < size - 1 - row else size - 1 - row
    cdef int dc = col if col < size - 1 - col else size - 1 - col
    cdef int near = dr if dr < dc else dc
    cdef int far = dr if dr > dc else dc
    if near == 0 and far == 0:
        return 100
    if near == 0 and far == 1:
        return -20
    if near == 1 and far == 1:
        return -50
    if near == 0:
        return 10
    if near == 1:
        return -2
    return 1


cdef inline void geometry_init(Geometry* g, int n) noexcept nogil:
    cdef int r, c, i, k, w
    cdef gc_u128 one = 1, bit
    g.n = n
    g.nsq = n * n
    g.patterns = NULL
    for i in range(128):
        g.bit_square[i] = -1
    for i in range(g.nsq):
        g.square_bit[i] = gc_b10_square_bit(i) if n == 10 else one << i
        g.bit_square[lowest_bit[gc_u128](g.square_bit[i])] = i
    g.full = 0
    g.inner = 0
    g.corners = (g.square_bit[0] | g.square_bit[n - 1] | g.square_bit[n * (n - 1)]
                 | g.square_bit[g.nsq - 1])
    g.edge_rows = 0
    g.edge_cols = 0
    for r in range(n):
        for c in range(n):
            i = r * n + c
            bit = g.square_bit[i]
            g.full |= bit
            if 0 < c < n - 1:
                g.inner |= bit
            if r == 0 or r == n - 1:
                g.edge_rows |= bit
            if c == 0 or c == n - 1:
                g.edge_cols |= bit
            g.square_weight[i] = square_weight(r, c, n)
    g.nclasses = 0
    for i in range(g.nsq):
        w = g.square_weight[i]
        for k in range(g.nclasses):
            if g.class_weight[k] == w:
                break
        else:
            k = g.nclasses
            g.class_weight[k] = w
            g.class_mask[k] = 0
            g.nclasses += 1
        g.class_mask[k] |= g.square_bit[i]
    if n == 10:
        gc_board100_init(&g.b100)
    else:
        rays64_init(g)


cdef inline void rays64_init(Geometry* g) noexcept nogil:
    # Directions 0..3 go up the bit order (E, S, SE, SW), 4..7 down (W, N, NW, NE).
    cdef int dr[8]
    cdef int dc[8]
    cdef int sq, d, r, c, n = g.n
    dr[:] = [0, 1, 1, 1, 0, -1, -1, -1]
    dc[:] = [1, 0, 1, -1, -1, 0, -1, 1]
    for sq in range(g.nsq):
        for d in range(8):
            g.rays64[sq][d] = 0
            r = sq // n + dr[d]
            c = sq % n + dc[d]
            while 0 <= r < n and 0 <= c < n:
                g.rays64[sq][d] |= (<uint64_t>1) << (r * n + c)
                r += dr[d]
                c += dc[d]


# -- squares and bits ---------------------------------------------------------------------

cdef inline bb_t square_bit(bb_t board, int square, const Geometry* g) noexcept nogil:
    """The bit of `square` (the `board` argument only picks the width)."""
    if bb_t is uint64_t:
        return (<uint64_t>1) << square
    else:
        return g.square_bit[square]


cdef inline int first_square(bb_t x) noexcept nogil:
    """The lowest square of a non-empty board."""
    if bb_t is uint64_t:
        return gc_ctz64(x)
    else:
        return gc_b10_first_square(x)


cdef inline int bit_square(bb_t bit) noexcept nogil:
    """The square of a one-bit board."""
    if bb_t is uint64_t:
        return gc_ctz64(bit)
    else:
        return gc_b10_bit_square(lowest_bit(bit))


# -- fills --------------------------------------------------------------------------------

cdef inline gc_u128 b10_run_fill(gc_u128 start, gc_u128 mask, int dr, int dc) noexcept nogil:
    """10x10: the `mask` discs reached from `start` in direction (dr, dc) through `mask`.

    A run is at most eight discs: two single steps, then one step of two and one of four
    (Kogge-Stone), the longer steps keeping each half's row parity: one shift per half."""
    cdef gc_u128 x, pre, pre2
    x = gc_b10_step(start, dr, dc) & mask
    x |= gc_b10_step(x, dr, dc) & mask
    pre = mask & gc_b10_step(mask, dr, dc)
    pre2 = pre & gc_b10_step_pairs(pre, dr, 2 * dc)
    x |= pre & gc_b10_step_pairs(x, dr, 2 * dc)
    x |= pre2 & gc_b10_step_pairs(x, 2 * dr, 4 * dc)
    return x


cdef inline gc_u128 b10_direction_moves(gc_u128 player, gc_u128 mask, gc_u128 empty, int dr, int dc) noexcept nogil:
    return gc_b10_step(b10_run_fill(player, mask, dr, dc), dr, dc) & empty


cdef inline bb_t legal_moves_mask(bb_t player, bb_t opponent, const Geometry* g) noexcept nogil:
    """Squares where `player` may move."""
    cdef bb_t empty = ~(player | opponent) & <bb_t>g.full
    cdef bb_t inner = opponent & <bb_t>g.inner
    cdef int n = g.n
    if bb_t is gc_u128:
        return (b10_direction_moves(player, inner, empty, 0, 1) | b10_direction_moves(player, inner, empty, 0, -1)
                | b10_direction_moves(player, opponent, empty, 1, 0) | b10_direction_moves(player, opponent, empty, -1, 0)
                | b10_direction_moves(player, inner, empty, 1, 1) | b10_direction_moves(player, inner, empty, -1, -1)
                | b10_direction_moves(player, inner, empty, 1, -1) | b10_direction_moves(player, inner, empty, -1, 1))
    elif n == 8:
        return gc_moves8x8(player, opponent)  # the common size: constant steps
    else:
        return (gc_direction_moves64(player, inner, empty, 1)
                | gc_direction_moves64(player, opponent, empty, n)
                | gc_direction_moves64(player, inner, empty, n + 1)
                | gc_direction_moves64(player, inner, empty, n - 1))


cdef inline gc_b100 b10_split(gc_u128 x) noexcept nogil:
    """A 10x10 board in the split layout of gamecore_othello100.h."""
    cdef gc_u128 split = gc_b10_to_split(x)
    cdef gc_b100 halves
    halves.lo = gc_u128_lo(split)
    halves.hi = gc_u128_hi(split)
    return halves


cdef inline bb_t flips_by_bit(bb_t player, bb_t opponent, bb_t bit, const Geometry* g) noexcept nogil:
    """Discs a move of `player` on the square of `bit` flips (0 if none)."""
    cdef gc_b100 flipped
    if bb_t is gc_u128:
        flipped = gc_flips100(b10_split(player), b10_split(opponent), bit_square(bit), &g.b100)
        return gc_b10_from_split(gc_u128_from_halves(flipped.hi, flipped.lo))
    else:
        return gc_flips64(player, opponent, g.rays64[gc_ctz64(bit)])


cdef inline bb_t flips(bb_t player, bb_t opponent, int square, const Geometry* g) noexcept nogil:
    """Discs a move of `player` on `square` flips (0 if none)."""
    return flips_by_bit(player, opponent, square_bit(player, square, g), g)


cdef inline bb_t stable_edges(bb_t own, const Geometry* g) noexcept nogil:
    """Own discs on the edges connected to an own corner through own edge discs."""
    cdef bb_t stable = own & <bb_t>g.corners
    cdef bb_t along_rows = own & <bb_t>g.edge_rows
    cdef bb_t along_cols = own & <bb_t>g.edge_cols
    cdef bb_t grown
    cdef int n = g.n
    while True:
        if bb_t is gc_u128:
            grown = (stable | (along_rows & (gc_b10_step(stable, 0, 1) | gc_b10_step(stable, 0, -1)))
                     | (along_cols & (gc_b10_step(stable, 1, 0) | gc_b10_step(stable, -1, 0))))
        else:
            grown = (stable | (along_rows & ((stable << 1) | (stable >> 1)))
                     | (along_cols & ((stable << n) | (stable >> n))))
        if grown == stable:
            return stable
        stable = grown


cdef inline uint64_t perft(bb_t player, bb_t opponent, int depth, const Geometry* g) noexcept nogil:
    """Leaves `depth` plies deep (depth >= 1); a pass is a ply, a finished game one leaf.
    The C kernels of gamecore_othello64.h (up to 8x8) and gamecore_othello100.h (10x10) run
    it, on AVX2 where the CPU has it."""
    cdef uint64_t total
    cdef gc_board64 b64
    if bb_t is uint64_t:
        gc_board64_init(&b64, g.n, <uint64_t>g.full, <uint64_t>g.inner, g.rays64)
        total = gc_perft64(player, opponent, depth, &b64)
    else:
        total = gc_perft100(b10_split(player), b10_split(opponent), depth, &g.b100)
    return total


cdef inline int evaluate(bb_t me, bb_t opp, const Geometry* g, const int* weights) noexcept nogil:
    """sum(weights[i] * feature_i) for the side owning `me`, features in the order of
    FEATURES: discs, positional, mobility, corners, stability, parity."""
    cdef int total = 0, positional, k, empties
    cdef uint64_t mine, theirs
    if weights[0]:
        total += weights[0] * (popcount(me) - popcount(opp))
    if weights[1]:
        positional = 0
        for k in range(g.nclasses):
            positional += g.class_weight[k] * (popcount(me & <bb_t>g.class_mask[k])
                                               - popcount(opp & <bb_t>g.class_mask[k]))
        total += weights[1] * positional
    if weights[2]:
        if bb_t is uint64_t and g.n == 8:
            gc_moves8x8_both(me, opp, &mine, &theirs)  # both sides at once
            total += weights[2] * (popcount(mine) - popcount(theirs))
        else:
            total += weights[2] * (popcount(legal_moves_mask(me, opp, g))
                                   - popcount(legal_moves_mask(opp, me, g)))
    if weights[3]:
        total += weights[3] * (popcount(me & <bb_t>g.corners) - popcount(opp & <bb_t>g.corners))
    if weights[4]:
        total += weights[4] * (popcount(stable_edges(me, g)) - popcount(stable_edges(opp, g)))
    if weights[5]:
        empties = g.nsq - popcount(me | opp)
        total += weights[5] * (1 if empties % 2 else -1)
    return total
