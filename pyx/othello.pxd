# Othello/Reversi bitboard kernel for n x n boards (n even, 4..10); twin of the module-level
# functions of python/gamecore/_othello_py.py.
#
# Bit layout: square (row, col) is bit row * n + col; a1 (row 0, col 0), the top-left
# corner, is bit 0. A move in direction +s shifts a bitboard left by s bits, -s right.
# The four direction steps are 1 (east), n (south), n + 1 (south-east), n - 1 (south-west);
# every horizontal or diagonal step is masked with `inner` (the board without its first and
# last columns) so that no run wraps from one row to the next.
from libc.stdint cimport uint64_t
from bits cimport bb_t, gc_u128, popcount, lowest_square

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
    cdef gc_u128 one = 1
    g.n = n
    g.nsq = n * n
    g.full = (one << g.nsq) - 1
    g.inner = 0
    g.corners = (one << 0) | (one << (n - 1)) | (one << (n * (n - 1))) | (one << (g.nsq - 1))
    g.edge_rows = 0
    g.edge_cols = 0
    for r in range(n):
        for c in range(n):
            i = r * n + c
            if 0 < c < n - 1:
                g.inner |= one << i
            if r == 0 or r == n - 1:
                g.edge_rows |= one << i
            if c == 0 or c == n - 1:
                g.edge_cols |= one << i
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
        g.class_mask[k] |= one << i


cdef inline bb_t direction_moves(bb_t player, bb_t mask, bb_t empty, int s) noexcept nogil:
    """Moves bracketing runs of `mask` discs in directions +s and -s (Kogge-Stone doubling)."""
    cdef bb_t x, pre, moves
    cdef int s2 = s + s
    # A run of opponent discs is at most n - 2 long: two single steps reach 2, each doubling
    # step adds 2. Boards up to 8x8 need two doubling steps, 10x10 three.
    x = (player << s) & mask
    x |= (x << s) & mask
    pre = mask & (mask << s)
    x |= pre & (x << s2)
    x |= pre & (x << s2)
    if bb_t is gc_u128:
        x |= pre & (x << s2)
    moves = (x << s) & empty
    x = (player >> s) & mask
    x |= (x >> s) & mask
    pre = mask & (mask >> s)
    x |= pre & (x >> s2)
    x |= pre & (x >> s2)
    if bb_t is gc_u128:
        x |= pre & (x >> s2)
    moves |= (x >> s) & empty
    return moves


cdef inline bb_t legal_moves_mask(bb_t player, bb_t opponent, const Geometry* g) noexcept nogil:
    """Squares where `player` may move."""
    cdef bb_t empty = ~(player | opponent) & <bb_t>g.full
    cdef bb_t inner = opponent & <bb_t>g.inner
    cdef int n = g.n
    if bb_t is gc_u128:
        n = 10  # the only size over 64 squares; a constant lets C shift 128-bit words fast
    return (direction_moves(player, inner, empty, 1)
            | direction_moves(player, opponent, empty, n)
            | direction_moves(player, inner, empty, n + 1)
            | direction_moves(player, inner, empty, n - 1))


cdef inline bb_t direction_flips(bb_t bit, bb_t player, bb_t mask, int s) noexcept nogil:
    """Discs flipped along +s and -s from the move `bit`."""
    cdef bb_t x, pre, flipped = 0
    cdef int s2 = s + s
    x = (bit << s) & mask
    x |= (x << s) & mask
    pre = mask & (mask << s)
    x |= pre & (x << s2)
    x |= pre & (x << s2)
    if bb_t is gc_u128:
        x |= pre & (x << s2)
    if (x << s) & player:
        flipped = x
    x = (bit >> s) & mask
    x |= (x >> s) & mask
    pre = mask & (mask >> s)
    x |= pre & (x >> s2)
    x |= pre & (x >> s2)
    if bb_t is gc_u128:
        x |= pre & (x >> s2)
    if (x >> s) & player:
        flipped |= x
    return flipped


cdef inline bb_t walk_flips(bb_t bit, bb_t player, bb_t mask, int s) noexcept nogil:
    """Discs flipped along +s and -s from the move `bit`, walking disc by disc."""
    cdef bb_t x, run = 0, flipped = 0
    x = (bit << s) & mask
    while x:
        run |= x
        x <<= s
        if x & player:
            flipped = run
            break
        x &= mask
    run = 0
    x = (bit >> s) & mask
    while x:
        run |= x
        x >>= s
        if x & player:
            flipped |= run
            break
        x &= mask
    return flipped


cdef inline bb_t flips(bb_t player, bb_t opponent, int square, const Geometry* g) noexcept nogil:
    """Discs a move of `player` on `square` flips (0 if none)."""
    cdef bb_t bit = (<bb_t>1) << square
    cdef bb_t inner = opponent & <bb_t>g.inner
    cdef int n = g.n
    if bb_t is gc_u128:
        n = 10  # the only size over 64 squares; a constant lets C shift 128-bit words fast
    if bb_t is gc_u128:
        # 128-bit shifts cost several instructions: walking the few discs of each ray beats
        # a full fill here.
        return (walk_flips(bit, player, inner, 1) | walk_flips(bit, player, opponent, n)
                | walk_flips(bit, player, inner, n + 1) | walk_flips(bit, player, inner, n - 1))
    return (direction_flips(bit, player, inner, 1)
            | direction_flips(bit, player, opponent, n)
            | direction_flips(bit, player, inner, n + 1)
            | direction_flips(bit, player, inner, n - 1))


cdef inline bb_t stable_edges(bb_t own, const Geometry* g) noexcept nogil:
    """Own discs on the edges connected to an own corner through own edge discs."""
    cdef bb_t stable = own & <bb_t>g.corners
    cdef bb_t along_rows = own & <bb_t>g.edge_rows
    cdef bb_t along_cols = own & <bb_t>g.edge_cols
    cdef bb_t grown
    cdef int n = g.n
    if bb_t is gc_u128:
        n = 10  # the only size over 64 squares; a constant lets C shift 128-bit words fast
    while True:
        grown = (stable | (along_rows & ((stable << 1) | (stable >> 1)))
                 | (along_cols & ((stable << n) | (stable >> n))))
        if grown == stable:
            return stable
        stable = grown


cdef inline uint64_t perft(bb_t player, bb_t opponent, int depth, const Geometry* g) noexcept nogil:
    """Leaves `depth` plies deep (depth >= 1); a pass is a ply, a finished game one leaf."""
    cdef bb_t moves = legal_moves_mask(player, opponent, g)
    cdef bb_t bit, flipped
    cdef uint64_t total = 0
    if depth == 1:
        return popcount(moves) if moves else 1  # bulk counting: the leaves are the moves
    if not moves:
        if legal_moves_mask(opponent, player, g):
            return perft(opponent, player, depth - 1, g)  # the pass is a ply
        return 1
    while moves:
        bit = moves & (~moves + 1)
        moves ^= bit
        flipped = flips(player, opponent, lowest_square(bit), g)
        total += perft(opponent ^ flipped, player | flipped | bit, depth - 1, g)
    return total


cdef inline int evaluate(bb_t me, bb_t opp, const Geometry* g, const int* weights) noexcept nogil:
    """sum(weights[i] * feature_i) for the side owning `me`, features in the order of
    FEATURES: discs, positional, mobility, corners, stability, parity."""
    cdef int total = 0, positional, k, empties
    if weights[0]:
        total += weights[0] * (popcount(me) - popcount(opp))
    if weights[1]:
        positional = 0
        for k in range(g.nclasses):
            positional += g.class_weight[k] * (popcount(me & <bb_t>g.class_mask[k])
                                               - popcount(opp & <bb_t>g.class_mask[k]))
        total += weights[1] * positional
    if weights[2]:
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
