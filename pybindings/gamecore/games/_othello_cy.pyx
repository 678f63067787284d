# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Othello/Reversi on an n x n board: the compiled core (twin of ``_othello_py``).

Bit layout, as seen from Python: square ``(row, col)`` is bit ``row * n + col``; ``a1``
(row 0, col 0) is the top-left corner and bit 0. Boards are 128-bit words here; every
kernel call on a board of up to 64 squares runs the 64-bit specialisation of the kernel,
with that layout. A 10x10 board is kept in the kernel's interleaved layout instead
(``pyx/othello.pxd``): ``to_board``/``from_board`` convert at the Python boundary and
``Geometry.square_bit``/``bit_square`` map squares inside.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from bits cimport (bb_t, popcount, gc_u128, gc_u128_from_halves, gc_u128_hi, gc_u128_lo, gc_ctz64,
                   gc_popcount128, gc_b10_from_plain, gc_b10_to_plain, gc_b10_first_square)
cimport othello as kernel
cdef extern from "gamecore_patterns.h":
    enum:
        GC_PATTERN_VIEW
    void gc_patterns_advance(const unsigned short* before, unsigned short* after, const unsigned short* power,
                             int mover, int square, const unsigned char* flipped, int count) noexcept nogil
    void gc_patterns_view_after(const unsigned short* before, unsigned short* view, const unsigned short* power,
                                int square, const unsigned char* flipped, int count) noexcept nogil
    void gc_patterns_view_after64(const unsigned short* before, unsigned short* view, const unsigned short* power,
                                  int square, uint64_t flipped) noexcept nogil
    int gc_patterns_weight_sum(const short* w, const int* offset, const unsigned short* index, int count) noexcept nogil
    void gc_patterns_copy(const unsigned short* before, unsigned short* after) noexcept nogil
from othello cimport Geometry

from gamecore._game_cy cimport GameCore
from interrupt cimport gc_poll_signals, gc_raise_pending

from gamecore._zobrist import SQUARE_KEYS, TURN_KEYS
from gamecore.games import _othello_patterns as patterns
from gamecore.games._othello_rules import FEATURES, MAX_SIZE, MIN_SIZE, PASS
from gamecore.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidPositionError,
    InvalidSizeError,
    InvalidSquareError,
)

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

# PASS, the board sizes and FEATURES are in _othello_rules, shared with _othello_py.
cdef enum:
    C_PASS = -1  # _othello_rules.PASS (checked: _C_COPIES, tests/test_options.py)
    # The learned evaluation (_othello_patterns): at most this many instances, this long.
    MAX_INSTANCES = 64
    MAX_INSTANCE_SQUARES = 10  # an index below 3**10 fits an unsigned short
    # A frame of tracked pattern indices (OthelloCore.frames): black's view of every
    # instance, then white's (a view reads 1 for that colour's discs, 2 for the other's).
    FRAME = 2 * MAX_INSTANCES
    MAX_PATTERN_SCORE = 100_000  # _othello_patterns.MAX_PATTERN_SCORE (checked at import)
    # perft hands subtrees this many plies deep to the kernel in one call (a few ms each on
    # the largest boards) and looks for Ctrl-C between two calls: the kernel keeps its speed.
    PERFT_KERNEL_DEPTH = 6
    PERFT_KERNEL_DEPTH_10 = 5

#: The C constants that copy a shared one, by its name in _othello_rules (compared in the tests).
_C_COPIES = {"PASS": C_PASS}

cdef uint64_t SQUARE_KEY[2][128]
cdef uint64_t FLIP_KEY[128]      # SQUARE_KEY[0][i] ^ SQUARE_KEY[1][i]: a disc changing colour
cdef uint64_t TURN_KEY[2]
cdef Geometry GEOMETRIES[11]
cdef uint64_t MASK64 = 0xFFFFFFFFFFFFFFFF


# The learned evaluation of one board size, copied from _othello_patterns (the pure twin
# reads the same instances and weights there): see pattern_score.
ctypedef struct PatternTable:
    int instances
    int stride
    int stage_start[101]              # by number of empty squares: where its stage's table starts
    int offset[MAX_INSTANCES]         # where the instance's shape table starts in a stage
    int length[MAX_INSTANCES]
    signed char squares[MAX_INSTANCES][MAX_INSTANCE_SQUARES]
    const short* weights              # stride weights per stage, stage after stage

cdef PatternTable* PATTERN_TABLES[11]  # NULL: no weights for that size (or not looked yet)
cdef PatternTable* PATTERN_STORE[11]   # the allocation, kept while a size has no weights
cdef bint PATTERNS_LOOKED[11]
# Every weight buffer a table has pointed to, kept for the life of the process: a search
# running in another thread reads old or new weights, never freed memory.
cdef list PATTERN_BUFFERS = []


cdef int load_patterns(int n) except -1:
    """Point PATTERN_TABLES[n] at the shipped weights of an n x n board (once per size;
    a size without a file keeps NULL: its pattern score is 0)."""
    if not PATTERNS_LOOKED[n]:
        install_patterns(n, patterns.load_table(n))
    return 0


cdef bint has_patterns(int n) noexcept nogil:
    """Whether an n x n board has a learned evaluation now (after load_patterns(n))."""
    return PATTERN_TABLES[n] != NULL


cdef int install_patterns(int n, weights) except -1:
    """Make ``weights`` (an int16 table checked by _othello_patterns; None: none) the
    pattern table of an n x n board, without copying it."""
    PATTERNS_LOOKED[n] = True
    if weights is None:
        PATTERN_TABLES[n] = NULL
        return 0
    if PATTERN_STORE[n] == NULL:
        PATTERN_STORE[n] = new_pattern_table(n, patterns.STAGE_WIDTH[n])
    point_table_at(PATTERN_STORE[n], weights, n, patterns.STAGE_WIDTH[n])
    PATTERN_TABLES[n] = PATTERN_STORE[n]
    return 0


cdef PatternTable* new_pattern_table(int n, int width) except NULL:
    """A table of the n x n pattern set in stages of ``width`` empties, weights not set."""
    cdef PatternTable* t
    cdef int i, k
    ps = patterns.pattern_set(n)
    if patterns.EXTRA_WEIGHTS != 4:
        raise ValueError("the compiled pattern score reads four extra weights a stage")
    if len(ps.instances) > MAX_INSTANCES or max(ps.lengths) > MAX_INSTANCE_SQUARES:
        raise ValueError(f"the {n}x{n} pattern set does not fit the compiled table")
    t = <PatternTable*>malloc(sizeof(PatternTable))
    if t == NULL:
        raise MemoryError("no memory for the pattern table")
    t.instances = len(ps.instances)
    t.stride = ps.stride
    for k in range(n * n + 1):
        t.stage_start[k] = patterns.stage_of(k, n, width) * t.stride
    t.weights = NULL
    for i, (shape, squares) in enumerate(ps.instances):
        t.offset[i] = ps.offsets[shape]
        t.length[i] = len(squares)
        for k in range(len(squares)):
            t.squares[i][k] = squares[k]
    return t


cdef int point_table_at(PatternTable* t, weights, int n, int width) except -1:
    """Point ``t`` at ``weights`` (checked against the layout, kept alive for the process)."""
    cdef const short[::1] values
    ps = patterns.pattern_set(n)
    if len(weights) != ps.stride * patterns.stages_for(n, width):
        raise ValueError(f"an {n}x{n} pattern table has {ps.stride * patterns.stages_for(n, width)} weights, got {len(weights)}")
    values = weights
    PATTERN_BUFFERS.append(weights)
    t.weights = &values[0]
    return 0


# The geometries of cores given weights of their own (OthelloCore.use_weights), one per
# Weights object, kept for the life of the process like the buffers: id -> (weights, address).
cdef dict WEIGHTED_GEOMETRIES = {}


cdef const Geometry* weighted_geometry(weights) except NULL:
    """A copy of the size's geometry whose pattern table reads ``weights``."""
    cdef Geometry* g
    cdef PatternTable* t
    cdef size_t address
    entry = WEIGHTED_GEOMETRIES.get(id(weights))
    if entry is not None and entry[0] is weights:
        address = entry[1]
        return <const Geometry*>address
    n = weights.size
    geometry_of(n)
    t = new_pattern_table(n, weights.stage_width)
    g = <Geometry*>malloc(sizeof(Geometry))
    if g == NULL:
        free(t)
        raise MemoryError("no memory for the pattern table")
    memcpy(g, &GEOMETRIES[<int>n], sizeof(Geometry))
    try:
        point_table_at(t, weights.table, n, weights.stage_width)
    except BaseException:
        free(t)
        free(g)
        raise
    g.patterns = t
    WEIGHTED_GEOMETRIES[id(weights)] = (weights, <size_t>g)
    return g


def set_pattern_weights(size, weights):
    """Use ``weights`` (a table of ``_othello_patterns.pattern_set(size)``'s layout, int16
    values; None for none) as the learned evaluation of ``size`` boards in this process,
    instead of the shipped one: for training. Each table given stays in memory until the
    process ends."""
    cdef const Geometry* g = geometry_of(size)
    if weights is not None:
        weights = patterns.checked_table(weights, g.n)
    install_patterns(g.n, weights)


# -- the pattern indices kept up to date move by move --------------------------------------
# A search with the learned evaluation has its own copy of the position track the indices
# (OthelloCore.begin_search): a move changes each instance's index by what its squares
# changed. The new disc adds its square's power of 3 in each instance it belongs to once in
# the mover's view (digit 1) and twice in the other's (digit 2); a flipped disc goes from 2
# to 1 in the mover's view and from 1 to 2 in the other's: minus its power, plus its power.
# That is a few vector additions a move instead of reading every square of every instance
# at each evaluated node (356 on 8x8); the strong engines (Logistello, Edax) update their
# pattern indices the same way. Undoing a move steps back one frame.

ctypedef struct PatternPowers:
    unsigned short power[100][MAX_INSTANCES]  # by square: its power of 3 in each instance, 0 if not in it
    int width                                # the instances, rounded up to 8: the vector loops' length

cdef PatternPowers* PATTERN_POWERS[11]  # built on first use per size, kept for the process


cdef const PatternPowers* powers_of(int n) except NULL:
    """The squares' powers of 3 in the n x n pattern instances."""
    cdef PatternPowers* q = PATTERN_POWERS[n]
    cdef int i, k, power
    if q != NULL:
        return q
    ps = patterns.pattern_set(n)
    if len(ps.instances) > MAX_INSTANCES or max(ps.lengths) > MAX_INSTANCE_SQUARES:
        raise ValueError(f"the {n}x{n} pattern set does not fit the compiled table")
    q = <PatternPowers*>calloc(1, sizeof(PatternPowers))
    if q == NULL:
        raise MemoryError("no memory for the pattern indices")
    q.width = (len(ps.instances) + 7) & ~7
    for i, (_, squares) in enumerate(ps.instances):
        power = 1
        for k in reversed(squares):  # the last square is the lowest digit
            q.power[k][i] = power
            power *= 3
    PATTERN_POWERS[n] = q
    return q


cdef inline void add_power(unsigned short* view, const unsigned short* power, int times, int width) noexcept nogil:
    cdef int k
    for k in range(width):
        view[k] += times * power[k]


cdef void read_frame(unsigned short* frame, gc_u128 black, gc_u128 white, const PatternPowers* q,
                     const Geometry* g) noexcept nogil:
    """Both colours' views of every instance's index, read from the board."""
    cdef int square
    memset(frame, 0, FRAME * sizeof(unsigned short))
    for square in range(g.nsq):
        if black & g.square_bit[square]:
            add_power(frame, q.power[square], 1, q.width)
            add_power(frame + MAX_INSTANCES, q.power[square], 2, q.width)
        elif white & g.square_bit[square]:
            add_power(frame, q.power[square], 2, q.width)
            add_power(frame + MAX_INSTANCES, q.power[square], 1, q.width)


cdef inline int squares_of(gc_u128 board, const Geometry* g, unsigned char* squares) noexcept nogil:
    """The squares of ``board``'s discs into ``squares``; how many."""
    cdef int count = 0
    cdef uint64_t half = gc_u128_lo(board)
    while half:
        squares[count] = g.bit_square[gc_ctz64(half)]
        count += 1
        half &= half - 1
    half = gc_u128_hi(board)
    while half:
        squares[count] = g.bit_square[64 + gc_ctz64(half)]
        count += 1
        half &= half - 1
    return count


cdef inline void advance_frame(const unsigned short* before, unsigned short* after, const PatternPowers* q,
                               int mover, int square, gc_u128 flipped, const Geometry* g) noexcept nogil:
    """``after``: the frame ``before`` once ``mover`` has played ``square``, flipping ``flipped``."""
    cdef unsigned char squares[128]
    cdef int count = squares_of(flipped, g, squares)
    gc_patterns_advance(before, after, &q.power[0][0], mover, square, squares, count)


cdef inline void fill_cells(gc_u128 me, gc_u128 opp, const Geometry* g, unsigned char* cells) noexcept nogil:
    """cells[square] = 0 empty, 1 ``me``, 2 ``opp``."""
    cdef uint64_t half
    memset(cells, 0, g.nsq)
    half = gc_u128_lo(me)
    while half:
        cells[g.bit_square[gc_ctz64(half)]] = 1
        half &= half - 1
    half = gc_u128_hi(me)
    while half:
        cells[g.bit_square[64 + gc_ctz64(half)]] = 1
        half &= half - 1
    half = gc_u128_lo(opp)
    while half:
        cells[g.bit_square[gc_ctz64(half)]] = 2
        half &= half - 1
    half = gc_u128_hi(opp)
    while half:
        cells[g.bit_square[64 + gc_ctz64(half)]] = 2
        half &= half - 1


cdef inline int instance_index(const unsigned char* cells, const PatternTable* t, int i) noexcept nogil:
    cdef int k, index = 0
    for k in range(t.length[i]):
        index = index * 3 + cells[t.squares[i][k]]
    return index


cdef inline const PatternTable* table_of(const Geometry* g) noexcept nogil:
    """The pattern table a core of geometry ``g`` evaluates with (NULL: none)."""
    return <const PatternTable*>g.patterns if g.patterns != NULL else PATTERN_TABLES[g.n]


cdef inline void read_indices(gc_u128 me, gc_u128 opp, const Geometry* g, const PatternTable* t,
                              unsigned short* indices) noexcept nogil:
    """Every instance's index for ``me`` to move, read square by square from the board."""
    cdef unsigned char cells[128]
    cdef int i
    fill_cells(me, opp, g, cells)
    for i in range(t.instances):
        indices[i] = <unsigned short>instance_index(cells, t, i)


cdef int _pattern_score(gc_u128 me, gc_u128 opp, const Geometry* g) noexcept nogil:
    cdef const PatternTable* t = table_of(g)
    cdef unsigned short indices[MAX_INSTANCES]
    if t == NULL:
        return 0
    cdef gc_u128 my_moves, their_moves
    read_indices(me, opp, g, t, indices)
    both_moves(me, opp, g, &my_moves, &their_moves)
    return pattern_sum(me, opp, g, t, indices, my_moves, their_moves)


cdef int pattern_sum(gc_u128 me, gc_u128 opp, const Geometry* g, const PatternTable* t,
                     const unsigned short* indices, gc_u128 my_moves, gc_u128 their_moves) noexcept nogil:
    """The pattern score of ``me`` to move whose instances have ``indices``, ``me`` having the
    moves ``my_moves`` and ``opp`` ``their_moves``: whether read from the board
    (_pattern_score) or tracked move by move (OthelloCore.tracked_pattern_score)."""
    cdef int empties = g.nsq - gc_popcount128(me | opp)
    return stage_score(t, empties, indices, gc_popcount128(my_moves) - gc_popcount128(their_moves),
                       gc_popcount128(me) - gc_popcount128(opp))


cdef inline int stage_score(const PatternTable* t, int empties, const unsigned short* indices, int mobility,
                            int discs) noexcept nogil:
    """pattern_sum from the position's features: its empty squares, instances' indices,
    mobility and disc difference (the side to move's)."""
    cdef const short* w = t.weights + t.stage_start[empties]
    cdef int total = (w[t.stride - 4] + w[t.stride - 3] * mobility + w[t.stride - 2] * discs
                      + w[t.stride - 1] * (1 if empties % 2 else -1))
    total += gc_patterns_weight_sum(w, t.offset, indices, t.instances)
    if total > MAX_PATTERN_SCORE:
        return MAX_PATTERN_SCORE
    if total < -MAX_PATTERN_SCORE:
        return -MAX_PATTERN_SCORE
    return total


cdef inline int leaf_score(bb_t mover, bb_t other, int move, const Geometry* g, const PatternTable* table,
                           const PatternPowers* q, const unsigned short* before, const int* weights,
                           bint* over) noexcept nogil:
    """OthelloCore.leaf_value of ``mover`` (to move, ``other`` waiting) playing ``move``, from
    the other side's tracked indices ``before``: the new discs, the next mover's view of the
    indices and the evaluation in one go (no Zobrist key, history entry or frame is written: a
    leaf needs none). Boards of up to 64 squares run on 64-bit words."""
    cdef bb_t flipped, me, opp, my_moves, their_moves
    cdef unsigned char squares[128]
    cdef unsigned short view[MAX_INSTANCES]
    cdef int total, empties
    cdef uint64_t mine64, theirs64
    if bb_t is uint64_t:
        flipped = kernel.gc_flips64(mover, other, g.rays64[move])
        opp = mover | flipped | ((<uint64_t>1) << move)
        gc_patterns_view_after64(before, view, &q.power[0][0], move, flipped)
    else:
        flipped = flips_of(mover, other, move, g)
        opp = mover | flipped | g.square_bit[move]
        gc_patterns_view_after(before, view, &q.power[0][0], move, squares, squares_of(flipped, g, squares))
    # The leaf's side to move (`me`) is the one that did not play.
    me = other ^ flipped
    empties = g.nsq - popcount(me | opp)
    if bb_t is uint64_t and g.n == 8:
        kernel.gc_moves8x8_both(me, opp, &mine64, &theirs64)
        my_moves = mine64
        their_moves = theirs64
    else:
        my_moves = kernel.legal_moves_mask[bb_t](me, opp, g)
        their_moves = kernel.legal_moves_mask[bb_t](opp, me, g)
    over[0] = not my_moves and not their_moves
    if over[0]:
        return final_result(me, opp, g)
    total = 0
    if weights[0] or weights[1] or weights[2] or weights[3] or weights[4] or weights[5]:  # not the learned alone
        total = kernel.evaluate[bb_t](me, opp, g, weights)
    if weights[6]:
        total += weights[6] * stage_score(table, empties, view, popcount(my_moves) - popcount(their_moves),
                                          popcount(me) - popcount(opp))
    return total


cdef inline int final_result(gc_u128 me, gc_u128 opp, const Geometry* g) noexcept nogil:
    """The result of a finished game for ``me``: the disc difference, the empty squares
    going to the winner."""
    cdef int mine = gc_popcount128(me), theirs = gc_popcount128(opp)
    cdef int empties = g.nsq - mine - theirs
    if mine > theirs:
        return mine - theirs + empties
    if mine < theirs:
        return mine - theirs - empties
    return 0


def _init_tables():
    cdef int i, n
    for i in range(128):
        SQUARE_KEY[0][i] = SQUARE_KEYS[0][i]
        SQUARE_KEY[1][i] = SQUARE_KEYS[1][i]
        FLIP_KEY[i] = SQUARE_KEY[0][i] ^ SQUARE_KEY[1][i]
    TURN_KEY[0] = TURN_KEYS[0]
    TURN_KEY[1] = TURN_KEYS[1]
    for n in range(MIN_SIZE, MAX_SIZE + 1, 2):
        kernel.geometry_init(&GEOMETRIES[n], n)


_init_tables()
if MAX_PATTERN_SCORE != patterns.MAX_PATTERN_SCORE:
    raise ImportError("the compiled pattern score bound differs from _othello_patterns")
if GC_PATTERN_VIEW != MAX_INSTANCES:
    raise ImportError("gamecore_patterns.h and _othello_cy disagree on the instances a view holds")

cdef inline gc_u128 to_board(object x, const Geometry* g):
    """A Python bitboard (plain layout) as a kernel board of this size's layout."""
    cdef gc_u128 b = gc_u128_from_halves(<uint64_t>(x >> 64), <uint64_t>(x & 0xFFFFFFFFFFFFFFFF))
    return gc_b10_from_plain(b) if g.nsq > 64 else b


cdef inline object from_board(gc_u128 x, const Geometry* g):
    """A kernel board as a Python bitboard (plain layout)."""
    if g.nsq > 64:
        x = gc_b10_to_plain(x)
    return (<object>gc_u128_hi(x) << 64) | <object>gc_u128_lo(x)


# The 8x8 legal moves and the flips up to 8x8 are written out here, so that the compiler
# inlines them into the searches' loops (the general kernels are too long to be inlined);
# 8x8 moves are a call of the AVX2 generator where the CPU has it (fewer instructions still).
cdef inline gc_u128 moves_of(gc_u128 me, gc_u128 opp, const Geometry* g) noexcept nogil:
    if g.n == 8:
        return kernel.gc_moves8x8_fastest(<uint64_t>me, <uint64_t>opp)
    if g.nsq <= 64:
        return kernel.legal_moves_mask[uint64_t](<uint64_t>me, <uint64_t>opp, g)
    return kernel.legal_moves_mask[gc_u128](me, opp, g)


cdef inline void both_moves(gc_u128 me, gc_u128 opp, const Geometry* g, gc_u128* mine, gc_u128* theirs) noexcept nogil:
    """moves_of(me, opp) into ``mine`` and moves_of(opp, me) into ``theirs``: on 8x8 both at once."""
    cdef uint64_t a, b
    if g.n == 8:
        kernel.gc_moves8x8_both(<uint64_t>me, <uint64_t>opp, &a, &b)
        mine[0] = a
        theirs[0] = b
    else:
        mine[0] = moves_of(me, opp, g)
        theirs[0] = moves_of(opp, me, g)


cdef inline gc_u128 flips_of(gc_u128 me, gc_u128 opp, int square, const Geometry* g) noexcept nogil:
    if g.nsq <= 64:
        return kernel.gc_flips64(<uint64_t>me, <uint64_t>opp, g.rays64[square])
    return kernel.flips[gc_u128](me, opp, square, g)


cdef inline gc_u128 stable_of(gc_u128 own, const Geometry* g) noexcept nogil:
    if g.nsq <= 64:
        return kernel.stable_edges[uint64_t](<uint64_t>own, g)
    return kernel.stable_edges[gc_u128](own, g)


cdef inline uint64_t xor_flip_keys(gc_u128 flipped, const Geometry* g) noexcept nogil:
    cdef uint64_t h = 0
    cdef uint64_t lo = gc_u128_lo(flipped), hi = gc_u128_hi(flipped)
    while lo:
        h ^= FLIP_KEY[g.bit_square[gc_ctz64(lo)]]
        lo &= lo - 1
    while hi:
        h ^= FLIP_KEY[g.bit_square[64 + gc_ctz64(hi)]]
        hi &= hi - 1
    return h


cdef const Geometry* geometry_of(object size) except NULL:
    if isinstance(size, bool) or not isinstance(size, int) or size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidSizeError(f"Othello board size must be an even int from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
    return &GEOMETRIES[<int>size]


cdef gc_u128 checked_board(object bb, const Geometry* g, str name) except? 0:
    if type(bb) is not int or bb < 0 or bb >> g.nsq:
        raise InvalidPositionError(f"{name} bitboard must be an int within the {g.n}x{g.n} board")
    return to_board(bb, g)


cdef uint64_t perft_split(gc_u128 me, gc_u128 opp, int depth, const Geometry* g, double* next_poll,
                          bint* interrupted) noexcept nogil:
    """perft: the top plies here, the subtrees by the kernel; 0 with `interrupted` set when a
    signal handler raised (Ctrl-C)."""
    cdef gc_u128 moves, flipped, bit
    cdef uint64_t total = 0, lo
    cdef int square
    if depth <= (PERFT_KERNEL_DEPTH if g.nsq <= 64 else PERFT_KERNEL_DEPTH_10):
        if gc_poll_signals(next_poll):
            interrupted[0] = True
            return 0
        if g.nsq <= 64:
            return kernel.perft[uint64_t](<uint64_t>me, <uint64_t>opp, depth, g)
        return kernel.perft[gc_u128](me, opp, depth, g)
    moves = moves_of(me, opp, g)
    if not moves:
        if moves_of(opp, me, g):
            return perft_split(opp, me, depth - 1, g, next_poll, interrupted)  # the pass is a ply
        return 1
    while moves and not interrupted[0]:
        if g.nsq > 64:
            square = gc_b10_first_square(moves)
        else:
            lo = gc_u128_lo(moves)
            square = gc_ctz64(lo)
        bit = g.square_bit[square]
        moves ^= bit
        flipped = flips_of(me, opp, square, g)
        total += perft_split(opp ^ flipped, me | flipped | bit, depth - 1, g, next_poll, interrupted)
    return 0 if interrupted[0] else total


def square_weight(int row, int col, int size):
    """Positional weight of a square: corners high, X and C squares next to them low."""
    return kernel.square_weight(row, col, size)


def legal_moves_mask(player, opponent, size):
    """Bitboard of the squares where ``player`` may move (Kogge-Stone fill, 8 directions)."""
    cdef const Geometry* g = geometry_of(size)
    cdef gc_u128 p = checked_board(player, g, "player"), o = checked_board(opponent, g, "opponent")
    return from_board(moves_of(p, o, g), g)


def flips(player, opponent, square, size):
    """Bitboard of the discs a move of ``player`` on ``square`` flips (0 if none)."""
    cdef const Geometry* g = geometry_of(size)
    cdef gc_u128 p = checked_board(player, g, "player"), o = checked_board(opponent, g, "opponent")
    if type(square) is not int or not 0 <= square < g.nsq:
        raise InvalidSquareError(f"square must be an int from 0 to {g.nsq - 1}, got {square!r}")
    return from_board(flips_of(p, o, square, g), g)


def pattern_indices(player, opponent, size):
    """The base-3 index of every pattern instance (``_othello_patterns.pattern_set(size)``),
    for ``player`` to move: a square counts 0 empty, 1 ``player``'s, 2 ``opponent``'s."""
    cdef const Geometry* g = geometry_of(size)
    cdef gc_u128 p = checked_board(player, g, "player"), o = checked_board(opponent, g, "opponent")
    cdef unsigned char cells[128]
    cdef int k, index
    fill_cells(p, o, g, cells)
    indices = []
    for _, squares in patterns.pattern_set(g.n).instances:
        index = 0
        for k in squares:
            index = index * 3 + cells[k]
        indices.append(index)
    return indices


def pattern_score(player, opponent, size):
    """The learned evaluation for ``player`` to move, in hundredths of a disc (0 for a size
    without shipped weights)."""
    cdef const Geometry* g = geometry_of(size)
    cdef gc_u128 p = checked_board(player, g, "player"), o = checked_board(opponent, g, "opponent")
    load_patterns(g.n)
    return _pattern_score(p, o, g)


cdef class OthelloCore(GameCore):
    """Mutable Othello position with a move stack (the compiled core).

    Player 0 is black and moves first, player 1 is white.
    """


    def __cinit__(self):
        # A core made by __new__ alone is an empty 8x8 board, never a NULL geometry.
        self.g = &GEOMETRIES[8]
        self.size = 8
        self.stack = NULL
        self.capacity = 0
        self.frames = NULL
        self.powers = NULL

    def __dealloc__(self):
        free(self.stack)
        free(self.frames)

    cdef bint _reserve(self, int plies) noexcept nogil:
        """Room for ``plies`` moves in the history (at most MAX_PLIES); False if none."""
        cdef int want
        cdef Ply* grown
        if plies <= self.capacity:
            return True
        if plies > MAX_PLIES:
            return False
        want = max(plies, min(MAX_PLIES, 2 * self.capacity))
        grown = <Ply*>realloc(self.stack, want * sizeof(Ply))
        if grown == NULL:
            return False
        self.stack = grown
        self.capacity = want
        return True

    def __init__(self, size=8):
        self.g = geometry_of(size)
        self.size = int(size)
        if not PATTERNS_LOOKED[self.size]:
            load_patterns(self.size)  # the searches evaluate without the GIL: read them now
        cdef int half = self.size // 2, n = self.size
        cdef const Geometry* g = self.g
        self._set(g.square_bit[(half - 1) * n + half] | g.square_bit[half * n + half - 1],
                  g.square_bit[(half - 1) * n + half - 1] | g.square_bit[half * n + half], 0)

    cdef void _set(self, gc_u128 black, gc_u128 white, int turn) noexcept nogil:
        cdef int i
        cdef uint64_t h = TURN_KEY[turn]
        self.discs[0] = black
        self.discs[1] = white
        self.turn = turn
        for i in range(self.g.nsq):
            if black & self.g.square_bit[i]:
                h ^= SQUARE_KEY[0][i]
            elif white & self.g.square_bit[i]:
                h ^= SQUARE_KEY[1][i]
        self.zhash = h
        self.sp = 0
        if self.frames != NULL:
            read_frame(self.frames, black, white, <const PatternPowers*>self.powers, self.g)

    def set_board(self, black, white, turn):
        """Set the discs (two bitboards) and the side to move; clears the move history."""
        cdef gc_u128 b = checked_board(black, self.g, "black")
        cdef gc_u128 w = checked_board(white, self.g, "white")
        if b & w:
            raise InvalidPositionError("a square cannot hold a black and a white disc")
        if type(turn) is not int or turn not in (0, 1):
            raise InvalidPositionError(f"turn must be 0 (black) or 1 (white), got {turn!r}")
        self._set(b, w, turn)

    def bitboards(self):
        """``(black, white)`` bitboards."""
        return from_board(self.discs[0], self.g), from_board(self.discs[1], self.g)

    def use_weights(self, weights):
        """Evaluate with ``weights`` (:class:`_othello_patterns.Weights` of this board size)
        instead of the shipped learned weights; None: the shipped ones again. Copies of the
        core keep them."""
        if weights is None:
            self.g = &GEOMETRIES[self.size]
            return
        if not isinstance(weights, patterns.Weights) or weights.size != self.size:
            raise InvalidSizeError(f"weights for a {self.size}x{self.size} board are needed, got {weights!r:.80}")
        self.g = weighted_geometry(weights)

    def copy(self):
        """An independent copy, history included."""
        cdef OthelloCore other = OthelloCore.__new__(OthelloCore)
        other.size = self.size
        other.turn = self.turn
        other.g = self.g
        other.discs[0] = self.discs[0]
        other.discs[1] = self.discs[1]
        other.zhash = self.zhash
        # Room for a few more moves, so that play() and a short search never grow it.
        if not other._reserve(min(MAX_PLIES, self.sp + 8)):
            raise MemoryError("no memory for the move history")
        memcpy(other.stack, self.stack, self.sp * sizeof(Ply))
        other.sp = self.sp
        return other

    # -- the game protocol -------------------------------------------------

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef gc_u128 me = self.discs[self.turn], opp = self.discs[1 - self.turn]
        cdef gc_u128 moves = moves_of(me, opp, self.g)
        cdef uint64_t lo
        cdef int count = 0
        if not moves:
            if moves_of(opp, me, self.g):
                out[0] = C_PASS
                return 1
            return 0
        if self.g.nsq > 64:
            while moves:  # ascending squares, as in the twin (not the layout's bit order)
                out[count] = gc_b10_first_square(moves)
                moves ^= self.g.square_bit[out[count]]
                count += 1
            return count
        lo = gc_u128_lo(moves)
        while lo:
            out[count] = gc_ctz64(lo)
            count += 1
            lo &= lo - 1
        return count

    cdef void make_move(self, int move) noexcept nogil:
        cdef int t = self.turn
        cdef unsigned short* frame
        cdef gc_u128 flipped = 0, me, opp
        cdef uint64_t h = self.zhash ^ TURN_KEY[0] ^ TURN_KEY[1]
        if self.sp >= self.capacity and not self._reserve(self.sp + 1):
            return  # past MAX_PLIES (never in a game: at most 2 * 100 plies) or out of memory
        if move != C_PASS:
            me = self.discs[t]
            opp = self.discs[1 - t]
            flipped = flips_of(me, opp, move, self.g)
            self.discs[t] = me | flipped | self.g.square_bit[move]
            self.discs[1 - t] = opp ^ flipped
            h ^= SQUARE_KEY[t][move] ^ xor_flip_keys(flipped, self.g)
        if self.frames != NULL:
            frame = self.frames + self.sp * FRAME
            if move == C_PASS:
                gc_patterns_copy(frame, frame + FRAME)
            else:
                advance_frame(frame, frame + FRAME, <const PatternPowers*>self.powers, t, move, flipped, self.g)
        self.stack[self.sp].move = move
        self.stack[self.sp].flips = flipped
        self.stack[self.sp].hash = self.zhash
        self.sp += 1
        self.zhash = h
        self.turn = 1 - t

    cdef int ply_count(self) noexcept nogil:
        return self.sp

    cdef int move_at(self, int ply) noexcept nogil:
        return self.stack[ply].move

    cdef void unmake_move(self) noexcept nogil:
        if self.sp <= 0:
            return  # nothing to take back (never for the searches; guards the C stack)
        self.sp -= 1
        cdef int move = self.stack[self.sp].move
        cdef gc_u128 flipped = self.stack[self.sp].flips
        cdef int t = 1 - self.turn
        if move != C_PASS:
            self.discs[t] ^= flipped | self.g.square_bit[move]
            self.discs[1 - t] ^= flipped
        self.turn = t
        self.zhash = self.stack[self.sp].hash

    cdef bint is_terminal(self) noexcept nogil:
        cdef gc_u128 me = self.discs[self.turn], opp = self.discs[1 - self.turn]
        if self.frames != NULL:
            return self.tracked_is_terminal()  # out of line: the plain evaluations' path stays as it was
        return not moves_of(me, opp, self.g) and not moves_of(opp, me, self.g)

    cdef bint tracked_is_terminal(self) noexcept nogil:
        """is_terminal, keeping the mover's moves for the learned evaluation of a leaf, next."""
        self.seen[0] = self.discs[self.turn]
        self.seen[1] = self.discs[1 - self.turn]
        both_moves(self.seen[0], self.seen[1], self.g, &self.seen[2], &self.seen[3])
        return not self.seen[2] and not self.seen[3]

    cdef int terminal_value(self) noexcept nogil:
        return final_result(self.discs[self.turn], self.discs[1 - self.turn], self.g)

    cdef int leaf_value(self, int move, const int* weights, bint* over) noexcept nogil:
        """GameCore.leaf_value without playing the move, when the pattern indices are tracked
        (leaf_score)."""
        cdef int t = self.turn
        cdef const PatternTable* table = table_of(self.g)
        cdef const unsigned short* before
        if self.frames == NULL or move == C_PASS or table == NULL:
            return GameCore.leaf_value(self, move, weights, over)
        before = self.frames + self.sp * FRAME + (1 - t) * MAX_INSTANCES
        if self.g.nsq <= 64:
            return leaf_score[uint64_t](<uint64_t>self.discs[t], <uint64_t>self.discs[1 - t], move, self.g, table,
                                        <const PatternPowers*>self.powers, before, weights, over)
        return leaf_score[gc_u128](self.discs[t], self.discs[1 - t], move, self.g, table,
                                   <const PatternPowers*>self.powers, before, weights, over)

    cdef int evaluate(self, const int* weights) noexcept nogil:
        cdef gc_u128 me = self.discs[self.turn], opp = self.discs[1 - self.turn]
        cdef int total
        if self.g.nsq <= 64:
            total = kernel.evaluate[uint64_t](<uint64_t>me, <uint64_t>opp, self.g, weights)
        else:
            total = kernel.evaluate[gc_u128](me, opp, self.g, weights)
        if weights[6]:
            if self.frames != NULL:
                total += weights[6] * self.tracked_pattern_score()
            else:
                total += weights[6] * _pattern_score(me, opp, self.g)
        return total

    cdef int begin_search(self, const int* weights) except -1:
        """With the learned evaluation among ``weights``, keep the pattern indices up to date
        move by move from here on (this core is a search's own copy; push and pop of the
        public positions never pay for it)."""
        if weights[6] == 0 or self.frames != NULL or table_of(self.g) == NULL:
            return 0
        self.powers = powers_of(self.size)
        self.frames = <unsigned short*>malloc((MAX_PLIES + 1) * FRAME * sizeof(unsigned short))
        if self.frames == NULL:
            raise MemoryError("no memory for the pattern indices")
        self.seen[0] = self.seen[1] = self.seen[2] = self.seen[3] = 0  # the empty board's: right whenever it matches
        read_frame(self.frames + self.sp * FRAME, self.discs[0], self.discs[1], <const PatternPowers*>self.powers,
                   self.g)
        return 0

    cdef int tracked_pattern_score(self) noexcept nogil:
        """_pattern_score of the side to move, from the tracked indices."""
        cdef const PatternTable* t = table_of(self.g)
        cdef gc_u128 me = self.discs[self.turn], opp = self.discs[1 - self.turn]
        if t == NULL:
            return 0
        if me != self.seen[0] or opp != self.seen[1]:
            self.seen[0] = me
            self.seen[1] = opp
            both_moves(me, opp, self.g, &self.seen[2], &self.seen[3])
        return pattern_sum(me, opp, self.g, t, self.frames + self.sp * FRAME + self.turn * MAX_INSTANCES,
                           self.seen[2], self.seen[3])

    def _track_patterns(self):
        """Track the pattern indices as a search with the learned evaluation does (for the
        tests: the learned feature then reads them); whether they are tracked."""
        cdef int weights[16]
        memset(weights, 0, sizeof(weights))
        weights[6] = 1
        self.begin_search(weights)
        return self.frames != NULL

    cdef int order_key(self, int move) noexcept nogil:
        return 0 if move == C_PASS else self.g.square_weight[move]

    cdef int to_move(self) noexcept nogil:
        return self.turn

    cdef uint64_t key(self) noexcept nogil:
        return self.zhash

    cdef int num_empty(self) noexcept nogil:
        return self.g.nsq - gc_popcount128(self.discs[0] | self.discs[1])

    # -- checked operations for the public API -----------------------------

    def legal_moves(self):
        """The legal moves in ascending order; ``[PASS]`` for a forced pass, ``[]`` at the end."""
        cdef int buf[128]
        cdef int count = self.gen_moves(buf)
        return [buf[i] for i in range(count)]

    def count_legal_moves(self):
        """``len(legal_moves())`` from the move bitboard's popcount: 1 for a forced pass, 0 at the end."""
        cdef gc_u128 me = self.discs[self.turn], opp = self.discs[1 - self.turn]
        cdef gc_u128 moves = moves_of(me, opp, self.g)
        if moves:
            return gc_popcount128(moves)
        return 1 if moves_of(opp, me, self.g) else 0

    def push(self, move):
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if type(move) is not int:
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        legal = self.legal_moves()
        if not legal:
            raise GameOverError("the game is over: no move can be played")
        if move not in legal:
            raise IllegalMoveError(self._illegal_reason(move, legal))
        if not self._reserve(self.sp + 1):
            if self.sp >= MAX_PLIES:  # unreachable in a real game
                raise IllegalMoveError("move history is full")
            raise MemoryError("no memory for the move history")
        self.make_move(move)

    def _illegal_reason(self, move, legal):
        if legal == [PASS]:
            return "the side to move has no legal move and must pass"
        if move == PASS:
            return "cannot pass while a legal move exists"
        if not 0 <= move < self.g.nsq:
            return f"square index {move} is off the {self.size}x{self.size} board"
        if (from_board(self.discs[0] | self.discs[1], self.g) >> move) & 1:
            return "that square is already occupied"
        return "that move flips no disc"

    def is_game_over(self):
        """True when neither side can move."""
        return self.is_terminal()

    def feature_values(self):
        """The values of ``FEATURES`` for the side to move: what ``evaluate`` adds per unit of
        each weight."""
        cdef int weights[16]
        cdef int i
        values = []
        for i in range(len(FEATURES)):
            memset(weights, 0, sizeof(weights))
            weights[i] = 1
            values.append(self.evaluate(weights))
        return tuple(values)

    def counts(self):
        """``(black discs, white discs)``."""
        return gc_popcount128(self.discs[0]), gc_popcount128(self.discs[1])

    def zobrist(self):
        """64-bit Zobrist hash of the discs and the side to move."""
        return self.zhash

    def count_leaves(self, int depth):
        """Perft (``GameCore.perft`` checks the depth); a pass is a ply, a finished game one leaf."""
        if depth < 1:  # perft() checks the depth; this keeps a direct call safe
            return 1
        cdef int d = depth
        cdef uint64_t leaves
        cdef double next_poll = 0.0
        cdef bint interrupted = False
        cdef gc_u128 me = self.discs[self.turn], opp = self.discs[1 - self.turn]
        with nogil:
            leaves = perft_split(me, opp, d, self.g, &next_poll, &interrupted)
        if interrupted:
            gc_raise_pending()
        return leaves
