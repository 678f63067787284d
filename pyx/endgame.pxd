# Exact Othello endgame solver kernel: twin of python/gamecore/search/_endgame_py.py
# (EndgameTables, stable_discs, EndgameSolver), name for name, visiting the same nodes in
# the same order.
#
# Every routine is fused over the board width (bb_t: uint64_t up to 8x8, gc_u128 for 10x10,
# in the interleaved layout of othello.pxd); the caller picks the specialisation once, at the
# root. Moves are tried in the same order as in the twin, whatever the layout. Nothing here
# holds Python objects or globals: the per-size tables, the transposition table and the
# counters live in structs owned by the caller and passed in by pointer.
#
# Scores are final disc differences for the side to move (`player`), empty squares going to
# the winner. Depth bands by empty squares e:
#   e > SHALLOW_EMPTIES       deep_search: stability cut-off, transposition table, enhanced
#                             transposition cut-off (e >= ETC_EMPTIES), PVS;
#   5 <= e <= SHALLOW_EMPTIES shallow_search: stability cut-off, no table;
#   e <= 4                    solve4 .. solve1: try the empty squares directly.
# Move order: deep_search tries the table's move, then sorts the others by move_key (the replier's
# mobility, then the mover's corner stability, the replier's potential mobility, quadrant
# parity), plus, on boards with learned weights and from eval_from empties (EVAL_ORDER in
# _options), eval_weight times the move's shallow_value (a 0-2 ply search with the learned
# evaluation); shallow_search and solve4/solve3 try moves in quadrants with an odd number of
# empties first. Ties, and the order within a parity group, follow the presorted order
# (EndgameTables.presorted: positional weight classes, best first), then ascending squares.
# Nodes: every call of deep_search, shallow_search, solve4/3/2/1 is one node, and so is a
# position reached with no empty square; a pass calls the same routine again for the other
# side (one more node); each position the evaluated ordering evaluates is one node too. Limits
# are checked on entry to deep_search and shallow_search, and after each move inside the
# evaluated ordering's shallow searches.
from libc.stdint cimport uint64_t, uint32_t, int8_t, uint8_t, int64_t
from bits cimport bb_t, gc_u128, gc_prefetch, popcount, gc_u128_hi, gc_u128_lo, gc_b10_step, gc_b10_to_plain
from othello cimport Geometry, gc_board64, gc_board64_init, legal_moves_mask, flips, stable_edges, square_bit, first_square

cdef extern from "gamecore_endgame64.h":
    ctypedef struct gc_eg64:
        const uint64_t (*rays)[8]
        uint64_t neighbours[64]
        unsigned char quad_of[64]
        int nsq
    void gc_eg64_set_rays(gc_eg64* e, const uint64_t (*rays)[8]) noexcept nogil
    uint64_t gc_eg64_flips(const gc_eg64* e, uint64_t player, uint64_t opponent, int x) noexcept nogil
    uint64_t gc_eg64_child(const gc_board64* b, uint64_t player, uint64_t opponent, int x,
                           uint64_t* replies) noexcept nogil
    uint64_t gc_eg64_moves(const gc_board64* b, uint64_t player, uint64_t opponent) noexcept nogil
    int gc_eg64_solve(const gc_eg64* e, uint64_t player, uint64_t opponent, int alpha, int beta,
                      int empties, const int* sq, uint64_t* nodes) noexcept nogil
    int gc_eg64_solve5(const gc_eg64* e, uint64_t player, uint64_t opponent, int alpha, int beta,
                       const int* sq, uint64_t* nodes) noexcept nogil

cdef extern from "gamecore_tt.h":
    uint64_t gc_tt_load(const uint64_t* word) noexcept nogil
    void gc_tt_save(uint64_t* word, uint64_t value) noexcept nogil

cdef extern from "gamecore_clock.h":
    double gc_monotonic_seconds() noexcept nogil
    double gc_clock_seconds(int cpu) noexcept nogil
from interrupt cimport gc_poll_signals

cdef enum:
    EG_SHALLOW_EMPTIES = 5      # SHALLOW_EMPTIES in _endgame_py
    EG_TT_BITS = 20             # ENDGAME_TT_BITS: 2**20 entries of 16 bytes = 16 MiB
    EG_NO_MOVE = -2             # NO_MOVE: game over at the root
    EG_PASS = -1
    EG_TIME_CHECK_EVERY = 4096  # nodes between two readings of the clock
    EG_NO_CUT = 1000            # stability_cutoff: no cut-off (None in _endgame_py)
    EG_ODD_BONUS = 4            # ODD_BONUS: move_key's bonus for a move in an odd quadrant
    EG_ETC_EMPTIES = 12         # ETC_EMPTIES: enhanced transposition cut-offs from this many empties
    EG_SCALE = 100              # _othello_patterns.SCALE: evaluation units a disc
    EG_MAX_PATTERN_SCORE = 100000  # _othello_patterns.MAX_PATTERN_SCORE: the evaluation's bound
    EG_STATS_FIELDS = 6         # STATS_FIELDS: the counters of one number of empty squares
    EG_STAT_NODES = 0           # deep_search and shallow_search calls
    EG_STAT_TABLE_HITS = 1      # deep_search: the position found in the table
    EG_STAT_TABLE_CUTS = 2      # ... its bounds alone answered
    EG_STAT_OTHER_CUTS = 3      # stability or enhanced transposition cut-offs
    EG_STAT_FAIL_HIGHS = 4      # deep_search: a move reached beta
    EG_STAT_FIRST_CUTS = 5      # ... the first move tried

cdef extern from *:
    """
    #define GC_EG_HASH_SEED 0x9E3779B97F4A7C15ULL
    """
    uint64_t GC_EG_HASH_SEED


ctypedef struct EndgameTables:
    const Geometry* g
    int n
    int nsq
    gc_u128 full
    gc_u128 corners
    gc_u128 edge_rows
    gc_u128 edge_cols
    gc_u128 edges
    unsigned char quad_of[128]  # 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right
    gc_u128 run_mask[4]         # discs a move can flip along E/W, S/N, SE/NW, SW/NE: not on
                                # the edge across that line (potential mobility)
    gc_u128 corner_side[4]      # the corners in the first column, last column, first row, last row
    int nclasses
    gc_u128 presorted[8]        # the squares by positional weight class, best class first
    gc_u128 quadrant[4]
    int nlines[4]               # rows, columns, diagonals (+n+1), anti-diagonals (+n-1)
    gc_u128 lines[4][20]
    gc_u128 neighbours[100]     # the squares next to each square
    # full_lines64 (up to 8x8): the first column and row, the multiplier that spreads a
    # square of the first row over its column, squares that can step 1, 2, 4 columns
    # right (c < n - k) or left (c >= k), and the squares of the diagonals in `lines`.
    uint64_t first_col, first_row, col_spread
    uint64_t can_right[3]
    uint64_t can_left[3]
    uint64_t diagonals[2]
    gc_eg64 last64              # up to 8x8: the C solvers of the last four empties
    gc_board64 board64          # up to 8x8: the C move generator's board


ctypedef struct TTEntry:
    # Two words, each read and written whole (gamecore_tt.h), so that threads can share the table
    # without a lock: `data` packs the bounds, the move, the empties and the generation (see
    # tt_pack), and `check` is the key XOR `data`. An entry whose words two threads wrote at once
    # fails the check and is read as a miss.
    uint64_t check
    uint64_t data


ctypedef struct TTData:           # an entry's data unpacked: a probe's copy, immune to later writes
    int lower
    int upper
    int move
    int empties
    uint32_t generation           # the solve that stored it: other solves' entries are empty slots


ctypedef int (*PatternScoreFn)(gc_u128 me, gc_u128 opp, const Geometry* g) noexcept nogil


ctypedef struct Solver:
    const EndgameTables* t
    const Geometry* g
    PatternScoreFn pattern_score  # the learned evaluation (_othello_cy._pattern_score)
    int eval_from                 # evaluated ordering from this many empties (above nsq: never)
    int eval_depth1_from          # ... looking one ply past the move from this many
    int eval_depth2_from          # ... two plies from this many
    int eval_depth3_from          # ... three plies from this many
    int eval_pv_extra             # ... and this many more in a node entered with an open window
    int eval_weight               # key units per hundredth of a disc of the shallow value
    TTEntry* tt                   # 2**EG_TT_BITS entries, owned by the caller
    uint64_t tt_mask
    uint32_t generation           # this solve's stamp (> 0; a zeroed entry's 0 is never one)
    uint64_t nodes
    uint64_t node_limit           # 0: none
    uint64_t next_check
    double deadline               # gc_clock_seconds(cpu_clock) to stop at; 0: none
    int cpu_clock                 # the deadline is the thread's CPU time (else the wall clock)
    double next_poll              # gc_poll_signals' clock (0.0 to start)
    int stop
    int interrupted               # a signal handler raised (Ctrl-C): its exception is set
    const unsigned char* stop_flag  # a caller's flag (Engine.stop): nonzero stops; NULL: none
    int64_t* progress             # NULL, or [nodes (written with each reading of the clock), root moves
                                  # searched, the best score among them] (see root_progress)
    uint64_t* stats               # NULL, or EG_STATS_FIELDS counters by empty squares (see count_stat)
    int root_move


cdef inline void endgame_tables_init(EndgameTables* t, const Geometry* g) noexcept nogil:
    """Quadrants (parity regions), lines (stability) and edges of one board size."""
    cdef int n = g.n, half = g.n // 2, sq, q, r, c, k, d
    cdef int class_order[8]
    cdef gc_u128 line
    t.g = g
    t.n = n
    t.nsq = g.nsq
    t.full = g.full
    t.corners = g.corners
    t.edge_rows = g.edge_rows
    t.edge_cols = g.edge_cols
    t.edges = g.edge_rows | g.edge_cols
    for q in range(4):
        t.quadrant[q] = 0
        t.nlines[q] = 0
    # The weight classes of Geometry by descending weight (corners, edges, ..., X squares).
    t.nclasses = g.nclasses
    for k in range(g.nclasses):
        r = k
        while r > 0 and g.class_weight[class_order[r - 1]] < g.class_weight[k]:
            class_order[r] = class_order[r - 1]
            r -= 1
        class_order[r] = k
    for k in range(g.nclasses):
        t.presorted[k] = g.class_mask[class_order[k]]
    t.run_mask[0] = g.inner
    t.run_mask[1] = g.full & ~g.edge_rows
    t.run_mask[2] = g.inner & ~g.edge_rows
    t.run_mask[3] = g.inner & ~g.edge_rows
    t.corner_side[0] = g.square_bit[0] | g.square_bit[n * (n - 1)]
    t.corner_side[1] = g.square_bit[n - 1] | g.square_bit[n * n - 1]
    t.corner_side[2] = g.square_bit[0] | g.square_bit[n - 1]
    t.corner_side[3] = g.square_bit[n * (n - 1)] | g.square_bit[n * n - 1]
    for sq in range(g.nsq):
        q = (2 if sq // n >= half else 0) + (1 if sq % n >= half else 0)
        t.quad_of[sq] = q
        t.quadrant[q] |= g.square_bit[sq]
        t.neighbours[sq] = 0
        for r in range(sq // n - 1, sq // n + 2):
            for c in range(sq % n - 1, sq % n + 2):
                if 0 <= r < n and 0 <= c < n and r * n + c != sq:
                    t.neighbours[sq] |= g.square_bit[r * n + c]
    t.first_col = t.first_row = t.col_spread = 0
    for k in range(3):
        t.can_right[k] = t.can_left[k] = 0
    for sq in range(g.nsq if n <= 8 else 0):
        r = sq // n
        c = sq % n
        if c == 0:
            t.first_col |= (<uint64_t>1) << sq
            t.col_spread |= (<uint64_t>1) << sq
        if r == 0:
            t.first_row |= (<uint64_t>1) << sq
        for k in range(3):
            if c < n - (1 << k):
                t.can_right[k] |= (<uint64_t>1) << sq
            if c >= (1 << k):
                t.can_left[k] |= (<uint64_t>1) << sq
    for r in range(n):
        line = 0
        for c in range(n):
            line |= g.square_bit[r * n + c]
        t.lines[0][t.nlines[0]] = line
        t.nlines[0] += 1
        line = 0
        for c in range(n):
            line |= g.square_bit[c * n + r]
        t.lines[1][t.nlines[1]] = line
        t.nlines[1] += 1
    # Diagonals shorter than three squares hold only edge squares: the edges protect them.
    for k in range(-(n - 3), n - 2):
        line = 0
        for r in range(n):
            if 0 <= r + k < n:
                line |= g.square_bit[r * n + r + k]
        t.lines[2][t.nlines[2]] = line
        t.nlines[2] += 1
    for k in range(2, 2 * n - 3):
        line = 0
        for r in range(n):
            if 0 <= k - r < n:
                line |= g.square_bit[r * n + k - r]
        t.lines[3][t.nlines[3]] = line
        t.nlines[3] += 1
    if n <= 8:
        gc_eg64_set_rays(&t.last64, g.rays64)
        gc_board64_init(&t.board64, n, <uint64_t>g.full, <uint64_t>g.inner, g.rays64)
        t.last64.nsq = g.nsq
        for sq in range(g.nsq):
            t.last64.neighbours[sq] = <uint64_t>t.neighbours[sq]
            t.last64.quad_of[sq] = t.quad_of[sq]
    for d in range(2):
        t.diagonals[d] = 0
        for k in range(t.nlines[2 + d] if n <= 8 else 0):
            t.diagonals[d] |= <uint64_t>t.lines[2 + d][k]


# -- kernel calls with the width named (Cython cannot pick it across modules) -------------

cdef inline bb_t eg_moves(bb_t player, bb_t opponent, const EndgameTables* t) noexcept nogil:
    """The moves of `player`; up to 8x8 by the C generator, on AVX2 where the CPU has it."""
    if bb_t is uint64_t:
        return gc_eg64_moves(&t.board64, player, opponent)
    else:
        return legal_moves_mask[gc_u128](player, opponent, t.g)


cdef inline bb_t eg_flips(bb_t player, bb_t opponent, int square, const Geometry* g) noexcept nogil:
    if bb_t is uint64_t:
        return flips[uint64_t](player, opponent, square, g)
    else:
        return flips[gc_u128](player, opponent, square, g)


cdef inline bb_t eg_flips_near(bb_t player, bb_t opponent, int square, const EndgameTables* t) noexcept nogil:
    """eg_flips, without the work when no opponent disc is next to the square (no flips);
    up to 8x8 in C, on the AVX2 flips where the CPU has them."""
    if bb_t is uint64_t:
        return gc_eg64_flips(&t.last64, player, opponent, square)
    elif opponent & <bb_t>t.neighbours[square]:
        return eg_flips(player, opponent, square, t.g)
    else:
        return 0


cdef inline bb_t eg_stable_edges(bb_t own, const Geometry* g) noexcept nogil:
    if bb_t is uint64_t:
        return stable_edges[uint64_t](own, g)
    else:
        return stable_edges[gc_u128](own, g)


# -- pieces ---------------------------------------------------------------------------------

cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64's finaliser: a 64-bit to 64-bit bijection that mixes every bit."""
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EB
    return x ^ (x >> 31)


cdef inline uint64_t tt_hash(bb_t player, bb_t opponent) noexcept nogil:
    """64-bit key of a position for the solver's table (the side to move owns `player`)."""
    cdef uint64_t h
    if bb_t is uint64_t:
        h = mix64(mix64(GC_EG_HASH_SEED))
        h = mix64(opponent ^ h)
        return mix64(player ^ h)
    else:
        # Hashed in the plain layout, as the twin does: the same table slots, the same nodes.
        player = gc_b10_to_plain(player)
        opponent = gc_b10_to_plain(opponent)
        h = mix64(gc_u128_hi(opponent) ^ GC_EG_HASH_SEED)
        h = mix64(gc_u128_hi(player) ^ h)
        h = mix64(gc_u128_lo(opponent) ^ h)
        return mix64(gc_u128_lo(player) ^ h)


cdef inline int final_score(bb_t player, bb_t opponent, int nsq) noexcept nogil:
    """Disc difference of a finished game for `player`; empty squares go to the winner."""
    cdef int mine = popcount(player), theirs = popcount(opponent)
    cdef int diff = mine - theirs
    if diff > 0:
        return diff + (nsq - mine - theirs)
    if diff < 0:
        return diff - (nsq - mine - theirs)
    return 0


cdef inline uint64_t smear_up(uint64_t x, int step, const uint64_t* can) noexcept nogil:
    """`x` and every square reached from it by 1 to 7 steps of `step` (up the bit order),
    a step of k columns allowed from the squares of `can` (1, 2, 4 columns): no wrapping."""
    x |= (x & can[0]) << step
    x |= (x & can[1]) << (2 * step)
    return x | ((x & can[2]) << (4 * step))


cdef inline uint64_t smear_down(uint64_t x, int step, const uint64_t* can) noexcept nogil:
    x |= (x & can[0]) >> step
    x |= (x & can[1]) >> (2 * step)
    return x | ((x & can[2]) >> (4 * step))


cdef inline void full_lines64(uint64_t occupied, const EndgameTables* t, uint64_t* full) noexcept nogil:
    """Up to 8x8, by shifts: the squares of the full lines of `lines` (rows, columns,
    diagonals, anti-diagonals), the same as testing them one by one."""
    cdef int n = t.n
    cdef uint64_t x, empty = ~occupied & <uint64_t>t.full
    x = occupied & (occupied >> 1)  # column 0 of a row: are columns 0..n-1 all occupied?
    x &= x >> 2
    x &= x >> (n - 4)
    full[0] = (x & t.first_col) * ((<uint64_t>1 << n) - 1)
    x = occupied & (occupied >> n)
    x &= x >> (2 * n)
    x &= x >> ((n - 4) * n)
    full[1] = (x & t.first_row) * t.col_spread
    # A diagonal is full when no empty square reaches it along that diagonal.
    full[2] = ~(smear_up(empty, n + 1, t.can_right) | smear_down(empty, n + 1, t.can_left)) & t.diagonals[0]
    full[3] = ~(smear_up(empty, n - 1, t.can_left) | smear_down(empty, n - 1, t.can_right)) & t.diagonals[1]


cdef inline bb_t stable_discs(bb_t own, bb_t other, const EndgameTables* t) noexcept nogil:
    """Discs of `own` that can never be flipped (a sound subset; see _othello_py)."""
    cdef bb_t occupied = own | other
    cdef bb_t full[4]
    cdef uint64_t full64[4]
    cdef bb_t f, line, stable, grown, free_h, free_v, free_d1, free_d2
    cdef int d, i, n = t.n
    if bb_t is uint64_t:
        full_lines64(occupied, t, full64)
        for d in range(4):
            full[d] = full64[d]
    else:
        for d in range(4):
            f = 0
            for i in range(t.nlines[d]):
                line = <bb_t>t.lines[d][i]
                if occupied & line == line:
                    f |= line
            full[d] = f
    free_h = full[0] | <bb_t>t.edge_cols
    free_v = full[1] | <bb_t>t.edge_rows
    free_d1 = full[2] | <bb_t>t.edges
    free_d2 = full[3] | <bb_t>t.edges
    stable = eg_stable_edges(own, t.g) | (own & full[0] & full[1] & full[2] & full[3])
    while True:
        if bb_t is gc_u128:
            grown = (own
                     & (free_h | gc_b10_step(stable, 0, 1) | gc_b10_step(stable, 0, -1))
                     & (free_v | gc_b10_step(stable, 1, 0) | gc_b10_step(stable, -1, 0))
                     & (free_d1 | gc_b10_step(stable, 1, 1) | gc_b10_step(stable, -1, -1))
                     & (free_d2 | gc_b10_step(stable, 1, -1) | gc_b10_step(stable, -1, 1)))
        else:
            grown = (own
                     & (free_h | (stable << 1) | (stable >> 1))
                     & (free_v | (stable << n) | (stable >> n))
                     & (free_d1 | (stable << (n + 1)) | (stable >> (n + 1)))
                     & (free_d2 | (stable << (n - 1)) | (stable >> (n - 1))))
        if grown == stable:
            return stable
        stable = grown


cdef inline int stability_threshold(int empties) noexcept nogil:
    """Alpha from which a node computes the stability bound (below it a cut-off is rare)."""
    return 2 * empties - 2


cdef inline void count_stat(Solver* s, int empties, int field) noexcept nogil:
    """One more in a measurement's counter (`stats`, when asked for)."""
    if s.stats != NULL:
        s.stats[empties * EG_STATS_FIELDS + field] += 1


cdef inline void root_progress(Solver* s, int best) noexcept nogil:
    """A root move searched: one more, and the best score so far (a proven lower bound of the
    root's value once above the window's alpha), for a caller's progress report."""
    if s.progress != NULL:
        s.progress[1] += 1
        s.progress[2] = best


cdef inline bint check_limits(Solver* s) noexcept nogil:
    """Set and return `stop` when the node or time limit is reached, or a signal handler
    raised (then `interrupted` too)."""
    if s.node_limit and s.nodes > s.node_limit:
        s.stop = 1
    elif s.nodes >= s.next_check:
        s.next_check = s.nodes + EG_TIME_CHECK_EVERY
        if s.progress != NULL:
            s.progress[0] = s.nodes
        if s.deadline != 0.0 and gc_clock_seconds(s.cpu_clock) >= s.deadline:
            s.stop = 1
        elif s.stop_flag != NULL and s.stop_flag[0] != 0:
            s.stop = 1
        elif gc_poll_signals(&s.next_poll):
            s.stop = s.interrupted = 1
    return s.stop


# -- transposition table ----------------------------------------------------------------------
# Buckets of two: even index = depth-preferred slot, odd index = always-replace slot. A
# position with key h lives in bucket h & tt_mask & ~1. Storing a position already in the
# bucket merges the bounds (every bound of an exact solve is true); otherwise it replaces
# the even slot when it has at least as many empties as the entry there, else the odd slot.

cdef inline void tt_prefetch(Solver* s, uint64_t h) noexcept nogil:
    """Start loading the bucket of key h (a probe soon after will not wait for memory)."""
    gc_prefetch(s.tt + (h & s.tt_mask & ~(<uint64_t>1)))


cdef inline uint64_t tt_pack(int lower, int upper, int move, int empties, uint32_t generation) noexcept nogil:
    """An entry's data word: lower, upper, move (a byte each, two's complement), empties, generation."""
    return (<uint64_t><uint8_t>lower | <uint64_t><uint8_t>upper << 8 | <uint64_t><uint8_t>move << 16
            | <uint64_t><uint8_t>empties << 24 | <uint64_t>generation << 32)


cdef inline bint tt_read(const TTEntry* e, uint64_t h, int empties, uint32_t generation, TTData* out) noexcept nogil:
    """Whether the slot holds position h at `empties`, stored in this generation, and intact
    (both words of one write); its data in `out` if so."""
    cdef uint64_t data = gc_tt_load(&e.data)
    if gc_tt_load(&e.check) ^ data != h:
        return False
    out.empties = <uint8_t>(data >> 24)
    out.generation = <uint32_t>(data >> 32)
    if out.empties != empties or out.generation != generation:
        return False
    out.lower = <int8_t>data
    out.upper = <int8_t>(data >> 8)
    out.move = <int8_t>(data >> 16)
    return True


cdef inline void tt_write(TTEntry* e, uint64_t h, uint64_t data) noexcept nogil:
    gc_tt_save(&e.data, data)
    gc_tt_save(&e.check, h ^ data)


cdef inline bint tt_probe(Solver* s, uint64_t h, int empties, TTData* out) noexcept nogil:
    """Whether the table holds position h at `empties` (its data then in `out`)."""
    cdef TTEntry* e = s.tt + (h & s.tt_mask & ~(<uint64_t>1))
    return tt_read(e, h, empties, s.generation, out) or tt_read(e + 1, h, empties, s.generation, out)


cdef inline void tt_store(Solver* s, uint64_t h, int empties, int lower, int upper, int move) noexcept nogil:
    cdef TTEntry* e = s.tt + (h & s.tt_mask & ~(<uint64_t>1))
    cdef TTData old
    cdef uint64_t deep
    cdef int i
    for i in range(2):
        if tt_read(e + i, h, empties, s.generation, &old):
            # Both bounds are true (whatever another thread stored meanwhile): keep the tighter.
            tt_write(e + i, h, tt_pack(max(lower, old.lower), min(upper, old.upper), move, empties, s.generation))
            return
    deep = gc_tt_load(&e.data)  # read whole, a torn entry's word only misplaces this entry
    if <uint32_t>(deep >> 32) == s.generation and empties < <int><uint8_t>(deep >> 24):
        e += 1
    tt_write(e, h, tt_pack(lower, upper, move, empties, s.generation))


# -- the last four empties ------------------------------------------------------------------

cdef inline int solve1(Solver* s, bb_t player, bb_t opponent, int x) noexcept nogil:
    cdef int mine = popcount(player), theirs = popcount(opponent), k, diff
    cdef bb_t f
    s.nodes += 1
    f = eg_flips_near(player, opponent, x, s.t)
    if f:
        k = popcount(f)
        return mine + k + 1 - (theirs - k)
    f = eg_flips_near(opponent, player, x, s.t)
    if f:
        k = popcount(f)
        return mine - k - (theirs + k + 1)
    diff = mine - theirs
    if diff > 0:
        return diff + 1
    if diff < 0:
        return diff - 1
    return 0


cdef inline int solve2(Solver* s, bb_t player, bb_t opponent, int alpha, int beta,
                       int x1, int x2, bint passed) noexcept nogil:
    cdef int none = -s.t.nsq - 1, best = -s.t.nsq - 1, score
    cdef bb_t f
    s.nodes += 1
    f = eg_flips_near(player, opponent, x1, s.t)
    if f:
        score = -solve1(s, opponent ^ f, player | f | square_bit(player, x1, s.g), x2)
        if score > best:
            best = score
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
    f = eg_flips_near(player, opponent, x2, s.t)
    if f:
        score = -solve1(s, opponent ^ f, player | f | square_bit(player, x2, s.g), x1)
        if score > best:
            best = score
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
    if best == none:
        if passed:
            return final_score(player, opponent, s.t.nsq)
        return -solve2(s, opponent, player, -beta, -alpha, x1, x2, True)
    return best


cdef inline int parity_order(const EndgameTables* t, const int* squares, int count, int* order) noexcept nogil:
    """Squares alone-or-odd in their quadrant first, then the others, each in given order."""
    cdef int i, j, same, k = 0
    cdef bint odd[4]
    for i in range(count):
        same = 0
        for j in range(count):
            if t.quad_of[squares[j]] == t.quad_of[squares[i]]:
                same += 1
        odd[i] = same & 1
    for i in range(count):
        if odd[i]:
            order[k] = squares[i]
            k += 1
    for i in range(count):
        if not odd[i]:
            order[k] = squares[i]
            k += 1
    return k


cdef inline int solve3(Solver* s, bb_t player, bb_t opponent, int alpha, int beta,
                       int x1, int x2, int x3, bint passed) noexcept nogil:
    cdef int none = -s.t.nsq - 1, best = -s.t.nsq - 1, score, i, j, k, x
    cdef int squares[3]
    cdef int order[3]
    cdef int rest[2]
    cdef bb_t f
    s.nodes += 1
    squares[0] = x1
    squares[1] = x2
    squares[2] = x3
    parity_order(s.t, squares, 3, order)
    for i in range(3):
        x = order[i]
        f = eg_flips_near(player, opponent, x, s.t)
        if f:
            k = 0
            for j in range(3):
                if j != i:
                    rest[k] = order[j]
                    k += 1
            score = -solve2(s, opponent ^ f, player | f | square_bit(player, x, s.g), -beta, -alpha, rest[0], rest[1], False)
            if score > best:
                best = score
                if best >= beta:
                    return best
                if best > alpha:
                    alpha = best
    if best == none:
        if passed:
            return final_score(player, opponent, s.t.nsq)
        return -solve3(s, opponent, player, -beta, -alpha, x1, x2, x3, True)
    return best


cdef inline int solve4(Solver* s, bb_t player, bb_t opponent, int alpha, int beta,
                       int x1, int x2, int x3, int x4, bint passed) noexcept nogil:
    cdef int none = -s.t.nsq - 1, best = -s.t.nsq - 1, score, i, j, k, x
    cdef int squares[4]
    cdef int order[4]
    cdef int rest[3]
    cdef bb_t f
    s.nodes += 1
    squares[0] = x1
    squares[1] = x2
    squares[2] = x3
    squares[3] = x4
    parity_order(s.t, squares, 4, order)
    for i in range(4):
        x = order[i]
        f = eg_flips_near(player, opponent, x, s.t)
        if f:
            k = 0
            for j in range(4):
                if j != i:
                    rest[k] = order[j]
                    k += 1
            score = -solve3(s, opponent ^ f, player | f | square_bit(player, x, s.g), -beta, -alpha, rest[0], rest[1], rest[2], False)
            if score > best:
                best = score
                if best >= beta:
                    return best
                if best > alpha:
                    alpha = best
    if best == none:
        if passed:
            return final_score(player, opponent, s.t.nsq)
        return -solve4(s, opponent, player, -beta, -alpha, x1, x2, x3, x4, True)
    return best


# -- the searches -----------------------------------------------------------------------------

cdef inline int search_child(Solver* s, bb_t player, bb_t opponent, int alpha, int beta, int empties) noexcept nogil:
    """The routine for `empties` empty squares (the depth bands above)."""
    cdef bb_t empty, group
    cdef int sq[4]
    cdef int k = 0, c
    if empties > EG_SHALLOW_EMPTIES:
        return deep_search(s, player, opponent, alpha, beta, empties, False)
    if empties > 4:
        return shallow_search(s, player, opponent, alpha, beta, empties)
    empty = ~(player | opponent) & <bb_t>s.t.full
    for c in range(s.t.nclasses):  # in presorted order (see EndgameTables)
        group = empty & <bb_t>s.t.presorted[c]
        while group and k < 4:
            sq[k] = first_square(group)
            group ^= square_bit(group, sq[k], s.g)
            k += 1
    if bb_t is uint64_t:
        return gc_eg64_solve(&s.t.last64, player, opponent, alpha, beta, empties, sq, &s.nodes)
    elif empties == 4:
        return solve4(s, player, opponent, alpha, beta, sq[0], sq[1], sq[2], sq[3], False)
    elif empties == 3:
        return solve3(s, player, opponent, alpha, beta, sq[0], sq[1], sq[2], False)
    elif empties == 2:
        return solve2(s, player, opponent, alpha, beta, sq[0], sq[1], False)
    elif empties == 1:
        return solve1(s, player, opponent, sq[0])
    else:
        s.nodes += 1
        return final_score(player, opponent, s.t.nsq)


cdef inline int stability_cutoff(Solver* s, bb_t player, bb_t opponent, int alpha, int empties) noexcept nogil:
    """The bound `nsq - 2 * stable opponent discs` when it is <= alpha, else EG_NO_CUT."""
    cdef int bound
    if alpha >= stability_threshold(empties):
        bound = s.t.nsq - 2 * popcount(stable_discs(opponent, player, s.t))
        if bound <= alpha:
            return bound
    return EG_NO_CUT


cdef inline int shallow_search(Solver* s, bb_t player, bb_t opponent, int alpha, int beta, int empties) noexcept nogil:
    """Alpha-beta without table; moves in odd quadrants first, presorted within.

    With so few empty squares, trying the flips of each empty square finds the moves for
    less than generating them: a square that flips nothing is no move. The order, and so
    the nodes, are those of the twin, which generates the moves first."""
    cdef int best = -s.t.nsq - 1, score, cut, q, sq, c, k = 0
    cdef int squares[5]
    cdef bint moved = False
    cdef bb_t empty, odd, parity_group, group, bit, f
    s.nodes += 1
    count_stat(s, empties, EG_STAT_NODES)
    if check_limits(s):
        return 0
    cut = stability_cutoff(s, player, opponent, alpha, empties)
    if cut != EG_NO_CUT:
        count_stat(s, empties, EG_STAT_OTHER_CUTS)
        return cut
    empty = ~(player | opponent) & <bb_t>s.t.full
    if bb_t is uint64_t:
        if empties == 5:  # up to 8x8: the same moves and nodes in C (gc_eg64_solve5)
            for c in range(s.t.nclasses):
                group = empty & <bb_t>s.t.presorted[c]
                while group:
                    squares[k] = first_square(group)
                    group ^= square_bit(group, squares[k], s.g)
                    k += 1
            best = gc_eg64_solve5(&s.t.last64, player, opponent, alpha, beta, squares, &s.nodes)
            if best != -s.t.nsq - 1:
                return best
            if not eg_moves(opponent, player, s.t):
                return final_score(player, opponent, s.t.nsq)
            return -shallow_search(s, opponent, player, -beta, -alpha, empties)
    odd = 0
    for q in range(4):
        if popcount(empty & <bb_t>s.t.quadrant[q]) & 1:
            odd |= <bb_t>s.t.quadrant[q]
    for q in range(2):
        parity_group = (empty & odd) if q == 0 else (empty & ~odd)
        for c in range(s.t.nclasses):
            group = parity_group & <bb_t>s.t.presorted[c]
            while group:
                sq = first_square(group)
                bit = square_bit(group, sq, s.g)
                group ^= bit
                f = eg_flips_near(player, opponent, sq, s.t)
                if not f:
                    continue
                moved = True
                score = -search_child(s, opponent ^ f, player | f | bit, -beta, -alpha, empties - 1)
                if s.stop:
                    return 0
                if score > best:
                    best = score
                    if best >= beta:
                        return best
                    if best > alpha:
                        alpha = best
    if not moved:
        if not eg_moves(opponent, player, s.t):
            return final_score(player, opponent, s.t.nsq)
        return -shallow_search(s, opponent, player, -beta, -alpha, empties)
    return best


cdef inline int potential_mobility(bb_t mover, bb_t empty, const EndgameTables* t) noexcept nogil:
    """Empty squares next to a disc of `mover` that a reply could flip along that line (the
    disc is not on the edge across it), a corner counting twice: the replier's potential
    mobility."""
    cdef bb_t h = mover & <bb_t>t.run_mask[0], v = mover & <bb_t>t.run_mask[1]
    cdef bb_t d = mover & <bb_t>t.run_mask[2], near
    cdef int n = t.n
    if bb_t is gc_u128:
        near = (gc_b10_step(h, 0, 1) | gc_b10_step(h, 0, -1) | gc_b10_step(v, 1, 0) | gc_b10_step(v, -1, 0)
                | gc_b10_step(d, 1, 1) | gc_b10_step(d, -1, -1) | gc_b10_step(d, 1, -1) | gc_b10_step(d, -1, 1))
    else:
        near = ((h << 1) | (h >> 1) | (v << n) | (v >> n)
                | (d << (n + 1)) | (d >> (n + 1)) | (d << (n - 1)) | (d >> (n - 1)))
    near &= empty
    return popcount(near) + popcount(near & <bb_t>t.corners)


cdef inline int corner_stability(bb_t own, const EndgameTables* t) noexcept nogil:
    """Own corners and the own edge squares next to an own corner."""
    cdef bb_t near
    cdef int n = t.n
    if bb_t is gc_u128:
        near = (gc_b10_step(own & <bb_t>t.corner_side[0], 0, 1) | gc_b10_step(own & <bb_t>t.corner_side[1], 0, -1)
                | gc_b10_step(own & <bb_t>t.corner_side[2], 1, 0) | gc_b10_step(own & <bb_t>t.corner_side[3], -1, 0))
    else:
        near = (((own & <bb_t>t.corner_side[0]) << 1) | ((own & <bb_t>t.corner_side[1]) >> 1)
                | ((own & <bb_t>t.corner_side[2]) << n) | ((own & <bb_t>t.corner_side[3]) >> n))
    return popcount(own & (near | <bb_t>t.corners))


cdef inline int move_key(const EndgameTables* t, bb_t replier, bb_t mover, bb_t replies, bint odd) noexcept nogil:
    """Sort key of a move in deep_search, lowest first: the replier's mobility (a corner
    counting twice) first, then the mover's corner stability, the replier's potential
    mobility and the parity of the move's quadrant; see _othello_py.move_key."""
    cdef bb_t empty = ~(replier | mover) & <bb_t>t.full
    return (((popcount(replies) + popcount(replies & <bb_t>t.corners)) << 15)
            - (corner_stability(mover, t) << 11)
            + (potential_mobility(mover, empty, t) << 5)
            - (EG_ODD_BONUS if odd else 0))


cdef inline int sort_depth(const Solver* s, int empties, bint pv) noexcept nogil:
    """How far order_moves looks past each move with the learned evaluation: -1 (fastest-first
    alone) below eval_from empties, else 0 (the move's position), 1 from eval_depth1_from, 2
    from eval_depth2_from, 3 from eval_depth3_from; eval_pv_extra more in a node entered with
    an open window (`pv`)."""
    cdef int depth
    if empties < s.eval_from:
        return -1
    depth = ((empties >= s.eval_depth1_from) + (empties >= s.eval_depth2_from)
             + (empties >= s.eval_depth3_from))
    return depth + s.eval_pv_extra if pv else depth


cdef inline int eg_pattern_score(const Solver* s, bb_t player, bb_t opponent) noexcept nogil:
    if bb_t is uint64_t:
        return s.pattern_score(<gc_u128>player, <gc_u128>opponent, s.g)
    else:
        return s.pattern_score(player, opponent, s.g)


cdef inline int shallow_value(Solver* s, bb_t player, bb_t opponent, bb_t moves, int depth, int alpha, int beta) noexcept nogil:
    """The value for `player` (to move; its moves are `moves`) of a `depth`-ply alpha-beta
    search (fail-soft, moves in ascending squares) with the learned evaluation at its leaves,
    in hundredths of a disc; a pass is a ply, a finished game its final score. Every position
    evaluated counts one node."""
    cdef int best, value, sq
    cdef bb_t bit, f, child_p, child_o, replies
    if depth == 0:
        s.nodes += 1
        return eg_pattern_score(s, player, opponent)
    if not moves:
        replies = eg_moves(opponent, player, s.t)
        if not replies:
            s.nodes += 1
            return EG_SCALE * final_score(player, opponent, s.t.nsq)
        return -shallow_value(s, opponent, player, replies, depth - 1, -beta, -alpha)
    best = -EG_MAX_PATTERN_SCORE - 1  # below every value
    while moves:
        sq = first_square(moves)
        bit = square_bit(moves, sq, s.g)
        moves ^= bit
        f = eg_flips_near(player, opponent, sq, s.t)
        child_p = opponent ^ f
        child_o = player | f | bit
        replies = eg_moves(child_p, child_o, s.t) if depth > 1 else 0
        value = -shallow_value(s, child_p, child_o, replies, depth - 1, -beta, -alpha)
        if check_limits(s):  # a 2-3 ply search on 10x10 evaluates thousands: limits hold inside it
            return 0
        if value > best:
            best = value
            if best >= beta:
                break
            if best > alpha:
                alpha = best
    return best


cdef inline int order_moves(Solver* s, bb_t player, bb_t opponent, bb_t moves, bint deep_children,
                            int depth, int* squares, bb_t* flipped) noexcept nogil:
    """Fill `squares`/`flipped`: the moves by move_key plus, with `depth` >= 0 (sort_depth),
    eval_weight times the shallow_value of the move for the replier (lower first); presorted
    order (EndgameTables.presorted) on ties. Returns the count."""
    cdef int keys[100]
    cdef int count = 0, sq, key, i, q, c
    cdef bb_t bit, f, replies, child_p, child_o, group
    cdef bb_t empty = ~(player | opponent) & <bb_t>s.t.full
    cdef bb_t odd = 0
    for q in range(4):
        if popcount(empty & <bb_t>s.t.quadrant[q]) & 1:
            odd |= <bb_t>s.t.quadrant[q]
    for c in range(s.t.nclasses):
        group = moves & <bb_t>s.t.presorted[c]
        while group:
            sq = first_square(group)
            bit = square_bit(group, sq, s.g)
            group ^= bit
            if bb_t is uint64_t:
                f = gc_eg64_child(&s.t.board64, player, opponent, sq, &replies)
            else:
                f = eg_flips_near(player, opponent, sq, s.t)
                replies = eg_moves(opponent ^ f, player | f | bit, s.t)
            child_p = opponent ^ f
            child_o = player | f | bit
            if deep_children:  # their table buckets load while the others are ordered
                tt_prefetch(s, tt_hash(child_p, child_o))
            key = move_key(s.t, child_p, child_o, replies, (bit & odd) != 0)
            if depth >= 0:
                key += s.eval_weight * shallow_value(s, child_p, child_o, replies, depth,
                                                     -EG_MAX_PATTERN_SCORE - 1, EG_MAX_PATTERN_SCORE + 1)
                if check_limits(s):  # a deep ordering search at the root evaluates hundreds
                    return 0
            # Insertion sort, stable: after every entry with a key <= this one.
            i = count
            while i > 0 and keys[i - 1] > key:
                squares[i] = squares[i - 1]
                flipped[i] = flipped[i - 1]
                keys[i] = keys[i - 1]
                i -= 1
            squares[i] = sq
            flipped[i] = f
            keys[i] = key
            count += 1
    return count


cdef inline int etc_cutoff(Solver* s, bb_t player, bb_t opponent, bb_t moves, int beta, int empties) noexcept nogil:
    """Enhanced transposition cut-off: a child whose table entry proves the move scores at
    least `beta` (its upper bound <= -beta) cuts this node before any search; that score,
    else EG_NO_CUT. Children are looked up in ascending square order."""
    cdef bb_t bit, f
    cdef TTData entry
    cdef uint64_t keys[100]
    cdef int sq, count = 0, i
    # All the children's buckets are requested first, so that their memory loads overlap.
    while moves:
        sq = first_square(moves)
        bit = square_bit(moves, sq, s.g)
        moves ^= bit
        f = eg_flips_near(player, opponent, sq, s.t)
        keys[count] = tt_hash(opponent ^ f, player | f | bit)
        tt_prefetch(s, keys[count])
        count += 1
    for i in range(count):
        if tt_probe(s, keys[i], empties - 1, &entry) and -entry.upper >= beta:
            return -entry.upper
    return EG_NO_CUT


cdef inline int deep_search(Solver* s, bb_t player, bb_t opponent, int alpha, int beta,
                            int empties, bint root) noexcept nogil:
    """PVS with the table and fastest-first ordering; at the root it also sets `root_move`."""
    cdef int tt_move = EG_NO_MOVE, cut, alpha0, best, best_move, score, i, count, tried
    cdef uint64_t h = 0
    cdef TTData entry
    cdef bb_t moves, child_p, child_o, bit, f
    cdef int squares[100]
    cdef bb_t flipped[100]
    cdef bint pv = beta - alpha > 1
    s.nodes += 1
    count_stat(s, empties, EG_STAT_NODES)
    if check_limits(s):
        return 0
    if not root:
        h = tt_hash(player, opponent)
        tt_prefetch(s, h)  # loads while the stability bound and the moves are computed
        cut = stability_cutoff(s, player, opponent, alpha, empties)
        if cut != EG_NO_CUT:
            count_stat(s, empties, EG_STAT_OTHER_CUTS)
            return cut
    moves = eg_moves(player, opponent, s.t)
    if not root:
        if tt_probe(s, h, empties, &entry):
            count_stat(s, empties, EG_STAT_TABLE_HITS)
            if entry.lower >= beta:
                count_stat(s, empties, EG_STAT_TABLE_CUTS)
                return entry.lower
            if entry.upper <= alpha:
                count_stat(s, empties, EG_STAT_TABLE_CUTS)
                return entry.upper
            if entry.lower > alpha:
                alpha = entry.lower
            if entry.upper < beta:
                beta = entry.upper
            if alpha >= beta:
                count_stat(s, empties, EG_STAT_TABLE_CUTS)
                return alpha
            tt_move = entry.move
    else:
        # The root takes only the table's move (a shared table's, from an earlier solve): its
        # bounds could end the search without a best move.
        h = tt_hash(player, opponent)
        if tt_probe(s, h, empties, &entry):
            tt_move = entry.move
    if not moves:
        if not eg_moves(opponent, player, s.t):
            return final_score(player, opponent, s.t.nsq)
        if root:
            s.root_move = EG_PASS
        return -search_child(s, opponent, player, -beta, -alpha, empties)
    if not root and empties >= EG_ETC_EMPTIES:
        cut = etc_cutoff(s, player, opponent, moves, beta, empties)
        if cut != EG_NO_CUT:
            count_stat(s, empties, EG_STAT_OTHER_CUTS)
            return cut
    alpha0 = alpha
    best = -s.t.nsq - 1
    best_move = EG_NO_MOVE
    tried = 0
    if tt_move >= 0 and moves & square_bit(moves, tt_move, s.g):
        # The table's move first, before the others are ordered: often it cuts alone.
        bit = square_bit(moves, tt_move, s.g)
        moves ^= bit
        f = eg_flips_near(player, opponent, tt_move, s.t)
        best = -search_child(s, opponent ^ f, player | f | bit, -beta, -alpha, empties - 1)
        if s.stop:
            return 0
        if root:
            root_progress(s, best)
        best_move = tt_move
        if best > alpha:
            alpha = best
        tried = 1
        if best >= beta:
            count_stat(s, empties, EG_STAT_FAIL_HIGHS)
            count_stat(s, empties, EG_STAT_FIRST_CUTS)
    count = (order_moves(s, player, opponent, moves, empties - 1 > EG_SHALLOW_EMPTIES, sort_depth(s, empties, pv),
                         squares, flipped) if best < beta else 0)
    if s.stop:
        return 0
    for i in range(count):
        child_p = opponent ^ flipped[i]
        child_o = player | flipped[i] | square_bit(player, squares[i], s.g)
        if i + tried == 0:
            score = -search_child(s, child_p, child_o, -beta, -alpha, empties - 1)
        else:
            score = -search_child(s, child_p, child_o, -alpha - 1, -alpha, empties - 1)
            if not s.stop and alpha < score < beta:
                score = -search_child(s, child_p, child_o, -beta, -alpha, empties - 1)
        if s.stop:
            return 0
        if root:
            root_progress(s, score if score > best else best)
        if score > best:
            best = score
            best_move = squares[i]
            if best >= beta:
                count_stat(s, empties, EG_STAT_FAIL_HIGHS)
                if i + tried == 0:
                    count_stat(s, empties, EG_STAT_FIRST_CUTS)
                break
            if best > alpha:
                alpha = best
    if root:
        s.root_move = best_move
    if best >= beta:
        tt_store(s, h, empties, best, s.t.nsq, best_move)
    elif best > alpha0:
        tt_store(s, h, empties, best, best, best_move)
    else:
        tt_store(s, h, empties, -s.t.nsq, best, best_move)
    return best


cdef inline int solve_root(Solver* s, bb_t player, bb_t opponent, int alpha, int beta, int empties) noexcept nogil:
    """Solve from the root: the score, with the best move in `root_move` (EG_PASS for a forced
    pass, EG_NO_MOVE at game over); `stop` set if a limit cut it short."""
    s.root_move = EG_NO_MOVE
    return deep_search(s, player, opponent, alpha, beta, empties, True)
