# Rolit bitboard kernel (8x8, one uint64_t per colour); twin of the module-level functions of
# python/gamecore/games/_rolit_py.py.
#
# Bit layout as in pyx/othello.pxd: square (row, col) is bit row * 8 + col, a1 the top-left
# corner. A capture is Othello's bracket with the opponent set = every ball that is not the
# mover's (the other players' and the neutral ones), so the 64-bit Othello fills serve as
# they are: legal_moves_mask and flips with `others` as the opponent.
from libc.stdint cimport uint64_t
from bits cimport gc_popcount64, gc_ctz64
from othello cimport Geometry, legal_moves_mask, flips

cdef enum:
    ROLIT_COLOURS = 4   # red, blue, yellow, green: the handout's play order
    ROLIT_SQUARES = 64



cdef inline uint64_t neighbours(uint64_t x) noexcept nogil:
    """The squares 8-adjacent to a ball of `x` (and `x` itself)."""
    cdef uint64_t column_a = 0x0101010101010101
    # A step east must not wrap into column a of the next row, a step west into column h.
    cdef uint64_t row = x | ((x << 1) & ~column_a) | ((x >> 1) & ~(column_a << 7))
    return row | (row << 8) | (row >> 8)


cdef inline uint64_t moves_mask(uint64_t own, uint64_t occupied, bint compulsory,
                                const Geometry* g) noexcept nogil:
    """Squares where the owner of `own` may play: with compulsory capture the capturing
    squares when there is one, else every empty square next to a ball. A capturing square is
    next to the captured ball, so without compulsion every move is an adjacency move."""
    cdef uint64_t captures
    if compulsory and own:
        captures = legal_moves_mask[uint64_t](own, occupied ^ own, g)
        if captures:
            return captures
    return neighbours(occupied) & ~occupied


cdef inline uint64_t move_flips(uint64_t own, uint64_t occupied, int square, const Geometry* g) noexcept nogil:
    """Balls of the other colours that a ball of `own` on `square` captures (0 if none)."""
    if not own:
        return 0
    return flips[uint64_t](own, occupied ^ own, square, g)


cdef inline void play(uint64_t* balls, int colour, int square, const Geometry* g) noexcept nogil:
    """Put a ball of `colour` on `square` and recolour what it captures."""
    cdef uint64_t occupied = balls[0] | balls[1] | balls[2] | balls[3]
    cdef uint64_t taken = move_flips(balls[colour], occupied, square, g)
    balls[0] &= ~taken
    balls[1] &= ~taken
    balls[2] &= ~taken
    balls[3] &= ~taken
    balls[colour] |= taken | ((<uint64_t>1) << square)


cdef inline uint64_t perft(uint64_t* balls, const int* colours, int nplayers, int player, int depth,
                           bint compulsory, const Geometry* g) noexcept nogil:
    """Leaves `depth` plies deep (depth >= 1); a finished game is one leaf."""
    cdef uint64_t occupied = balls[0] | balls[1] | balls[2] | balls[3]
    cdef int colour = colours[player]
    cdef uint64_t moves = moves_mask(balls[colour], occupied, compulsory, g)
    cdef uint64_t saved[4]
    cdef uint64_t total = 0, bit
    cdef int nxt = player + 1
    if not moves:
        return 1
    if depth == 1:
        return gc_popcount64(moves)
    if nxt == nplayers:
        nxt = 0
    saved[0] = balls[0]
    saved[1] = balls[1]
    saved[2] = balls[2]
    saved[3] = balls[3]
    while moves:
        bit = moves & (~moves + 1)
        moves ^= bit
        play(balls, colour, gc_ctz64(bit), g)
        total += perft(balls, colours, nplayers, nxt, depth - 1, compulsory, g)
        balls[0] = saved[0]
        balls[1] = saved[1]
        balls[2] = saved[2]
        balls[3] = saved[3]
    return total
