# cython: language_level=3
# Tetralath kernel: C-level functions on one 64-bit bitboard per player (bit = cell index
# 0..60, row by row: a1 = 0, e5 = 30, i5 = 60). No Python objects and no globals: the
# geometry lives in a TLTables struct that the caller owns and fills once with
# tl_build_tables (the Zobrist keys in it are filled by the caller from gamecore._zobrist).
# Mirrors the functions of python/gamecore/_tetralath_py.py name for name.
from libc.stdint cimport uint64_t, int8_t, uint8_t
from libc.string cimport memset
from bits cimport gc_popcount64, gc_ctz64

cdef enum:
    TL_CELLS = 61
    TL_SWAP = 61            # move code of the swap (pie rule)
    TL_MAX_PLIES = 62       # 61 stones and one swap
    TL_STACK = 64           # size of the move stack (>= TL_MAX_PLIES)
    TL_NFOUR = 102          # four-cell windows
    TL_NTHREE = 129         # three-cell windows
    TL_NFEATURES = 7
    TL_ONGOING = 0
    TL_FOUR = 1             # the last mover made four or more in a row: it won
    TL_THREE = 2            # the last mover made exactly three: it lost
    TL_FULL = 3             # the last move filled the board: a draw

cdef extern from *:
    """
    #define TL_FULL_MASK 0x1FFFFFFFFFFFFFFFULL
    """
    const uint64_t TL_FULL_MASK     # the 61 cells

ctypedef struct TLTables:
    int8_t nb[61][6]        # nb[cell][d]: next cell in direction d, -1 off the board
    int8_t centre[61]       # 4 minus the distance to e5
    int8_t x[61]            # axial coordinates
    int8_t y[61]
    uint64_t four[102]      # masks of the four-cell windows (by first cell, then direction)
    uint64_t three[129]     # masks of the three-cell windows
    uint64_t four_of[61][2]     # four_of[cell]: bit set of the four-windows through the cell
    uint64_t three_of[61][3]    # three_of[cell]: the same for the three-windows
    uint8_t four_list[61][12]   # the same as lists: four_len[cell] window indices
    int8_t four_len[61]
    uint8_t three_list[61][9]
    int8_t three_len[61]
    uint64_t zsq[2][64]     # Zobrist keys: zsq[player][cell]
    uint64_t zturn[2]       # Zobrist keys of the side to move


cdef inline int tl_cell_index(int x, int y) noexcept nogil:
    """Index of the cell at axial (x, y), or -1 off the board."""
    cdef int r, start = 0
    if y < 0 or y > 8 or x < 0 or x > 8 or x + y < 4 or x + y > 12:
        return -1
    for r in range(y):
        start += 9 - (4 - r if r < 4 else r - 4)
    return start + x - (4 - y if y < 4 else 0)


cdef inline void tl_build_tables(TLTables* t) noexcept nogil:
    """Fill the geometry of t (everything but the Zobrist keys)."""
    cdef int dx[6]
    cdef int dy[6]
    cdef int x, y, c, d, k, n3 = 0, n4 = 0, cell, ax, ay, az
    cdef uint64_t mask
    dx[0] = 1; dy[0] = 0
    dx[1] = 0; dy[1] = 1
    dx[2] = -1; dy[2] = 1
    dx[3] = -1; dy[3] = 0
    dx[4] = 0; dy[4] = -1
    dx[5] = 1; dy[5] = -1
    c = 0
    for y in range(9):
        for x in range(4 - y if y < 4 else 0, (8 if y <= 4 else 12 - y) + 1):
            t.x[c] = <int8_t>x
            t.y[c] = <int8_t>y
            c += 1
    for c in range(TL_CELLS):
        x = t.x[c]
        y = t.y[c]
        for d in range(6):
            t.nb[c][d] = <int8_t>tl_cell_index(x + dx[d], y + dy[d])
        ax = x - 4 if x >= 4 else 4 - x
        ay = y - 4 if y >= 4 else 4 - y
        az = x + y - 8 if x + y >= 8 else 8 - x - y
        t.centre[c] = <int8_t>(4 - (ax + ay + az) // 2)
    for c in range(TL_CELLS):
        for d in range(3):
            # three-cell window from c along d
            mask = 0
            cell = c
            for k in range(3):
                if cell < 0:
                    break
                mask |= (<uint64_t>1) << cell
                cell = t.nb[cell][d]
            else:
                t.three[n3] = mask
                n3 += 1
            mask = 0
            cell = c
            for k in range(4):
                if cell < 0:
                    break
                mask |= (<uint64_t>1) << cell
                cell = t.nb[cell][d]
            else:
                t.four[n4] = mask
                n4 += 1
    for c in range(TL_CELLS):
        t.four_of[c][0] = t.four_of[c][1] = 0
        t.three_of[c][0] = t.three_of[c][1] = t.three_of[c][2] = 0
        t.four_len[c] = 0
        t.three_len[c] = 0
    for k in range(TL_NFOUR):
        for c in range(TL_CELLS):
            if (t.four[k] >> c) & 1:
                t.four_of[c][k >> 6] |= (<uint64_t>1) << (k & 63)
                t.four_list[c][t.four_len[c]] = <uint8_t>k
                t.four_len[c] += 1
    for k in range(TL_NTHREE):
        for c in range(TL_CELLS):
            if (t.three[k] >> c) & 1:
                t.three_of[c][k >> 6] |= (<uint64_t>1) << (k & 63)
                t.three_list[c][t.three_len[c]] = <uint8_t>k
                t.three_len[c] += 1


cdef inline int tl_run(uint64_t own, const TLTables* t, int cell, int d) noexcept nogil:
    """Own stones next to cell in direction d, counted up to 3."""
    cdef int n = 0
    cdef int c = t.nb[cell][d]
    while n < 3 and c >= 0 and (own >> c) & 1:
        n += 1
        c = t.nb[c][d]
    return n


cdef inline int tl_move_status(uint64_t own, const TLTables* t, int cell) noexcept nogil:
    """TL_FOUR, TL_THREE or TL_ONGOING: what a stone on cell does (own includes it)."""
    cdef int d, n
    cdef bint three = False
    for d in range(3):
        n = 1 + tl_run(own, t, cell, d) + tl_run(own, t, cell, d + 3)
        if n >= 4:
            return TL_FOUR
        if n == 3:
            three = True
    return TL_THREE if three else TL_ONGOING


cdef inline void tl_lines(uint64_t bb, const TLTables* t, bint* four, bint* three, uint64_t* common) noexcept nogil:
    """The maximal runs of 3+ stones of bb: four+ found, exactly three found, stones they all share."""
    cdef int cell, d, c, back
    cdef uint64_t run
    cdef int length
    four[0] = False
    three[0] = False
    common[0] = TL_FULL_MASK
    for cell in range(TL_CELLS):
        if not (bb >> cell) & 1:
            continue
        for d in range(3):
            back = t.nb[cell][d + 3]
            if back >= 0 and (bb >> back) & 1:
                continue
            run = 0
            c = cell
            while c >= 0 and (bb >> c) & 1:
                run |= (<uint64_t>1) << c
                c = t.nb[c][d]
            length = gc_popcount64(run)
            if length >= 3:
                common[0] &= run
                if length >= 4:
                    four[0] = True
                else:
                    three[0] = True


cdef inline int tl_board_status(uint64_t mover, uint64_t waiting, const TLTables* t) noexcept nogil:
    """Status of a set position (mover made the last move); -1 if no game reaches it."""
    cdef bint four, three
    cdef uint64_t common
    tl_lines(waiting, t, &four, &three, &common)
    if four or three:
        return -1
    tl_lines(mover, t, &four, &three, &common)
    if four or three:
        if not common:
            return -1
        return TL_FOUR if four else TL_THREE
    if (mover | waiting) == TL_FULL_MASK:
        return TL_FULL
    return TL_ONGOING


cdef inline void tl_threat_cells(uint64_t me, uint64_t opp, const TLTables* t, uint64_t* cells, int* twos, int* ones) noexcept nogil:
    """cells[0..3] = win_me, win_opp, lose_me, lose_opp; twos/ones: open windows, me minus opp."""
    cdef uint64_t win_me = 0, win_opp = 0, three_me = 0, three_opp = 0, w, a, b, bits
    cdef uint64_t fours[2]
    cdef uint64_t threes[3]
    cdef int i, c, k, n2 = 0, n1 = 0
    # Only windows through a stone can count: gather them from the per-cell sets (few in
    # the opening, where the search is widest) instead of scanning all 231 windows.
    fours[0] = fours[1] = 0
    threes[0] = threes[1] = threes[2] = 0
    bits = me | opp
    while bits:
        c = gc_ctz64(bits)
        bits &= bits - 1
        fours[0] |= t.four_of[c][0]
        fours[1] |= t.four_of[c][1]
        threes[0] |= t.three_of[c][0]
        threes[1] |= t.three_of[c][1]
        threes[2] |= t.three_of[c][2]
    for k in range(2):
        bits = fours[k]
        while bits:
            i = (k << 6) + gc_ctz64(bits)
            bits &= bits - 1
            w = t.four[i]
            a = me & w
            b = opp & w
            if not b:
                c = gc_popcount64(a)
                if c == 3:
                    win_me |= w ^ a
                elif c == 2:
                    n2 += 1
                elif c == 1:
                    n1 += 1
            elif not a:
                c = gc_popcount64(b)
                if c == 3:
                    win_opp |= w ^ b
                elif c == 2:
                    n2 -= 1
                elif c == 1:
                    n1 -= 1
    for k in range(3):
        bits = threes[k]
        while bits:
            i = (k << 6) + gc_ctz64(bits)
            bits &= bits - 1
            w = t.three[i]
            a = me & w
            b = opp & w
            if not b:
                if gc_popcount64(a) == 2:
                    three_me |= w ^ a
            elif not a:
                if gc_popcount64(b) == 2:
                    three_opp |= w ^ b
    cells[0] = win_me
    cells[1] = win_opp
    cells[2] = three_me & ~win_me
    cells[3] = three_opp & ~win_opp
    twos[0] = n2
    ones[0] = n1


cdef inline void tl_features_from(const uint64_t* cells, int twos, int ones, uint64_t me, uint64_t opp,
                                  const TLTables* t, int* f) noexcept nogil:
    """The TL_NFEATURES features for the side to move from its threat cells (see FEATURES)."""
    cdef uint64_t bits
    cdef int blocks, centre = 0
    blocks = gc_popcount64(cells[1])
    bits = me
    while bits:
        centre += t.centre[gc_ctz64(bits)]
        bits &= bits - 1
    bits = opp
    while bits:
        centre -= t.centre[gc_ctz64(bits)]
        bits &= bits - 1
    f[0] = 1 if cells[0] else 0
    f[1] = blocks
    f[2] = 1 if (blocks >= 2 or (cells[1] & cells[2])) else 0
    f[3] = gc_popcount64(cells[3]) - gc_popcount64(cells[2])
    f[4] = twos
    f[5] = ones
    f[6] = centre


cdef inline void tl_features(uint64_t me, uint64_t opp, const TLTables* t, int* f) noexcept nogil:
    """The TL_NFEATURES evaluation features for the side to move (see FEATURES)."""
    cdef uint64_t cells[4]
    cdef int twos, ones
    tl_threat_cells(me, opp, t, cells, &twos, &ones)
    tl_features_from(cells, twos, ones, me, opp, t, f)


cdef inline int tl_weighted(const int* f, const int* weights) noexcept nogil:
    cdef int i, total = 0
    for i in range(TL_NFEATURES):
        total += weights[i] * f[i]
    return total


# -- windows kept up to date move by move (the search's fast path) -----------------------
#
# pure4[p][k] is the set of four-windows that hold k stones of player p and none of the
# other (k = 1..4), pure3[p][k] the same for three-windows: exactly what tl_threat_cells
# finds by scanning, maintained by tlw_add / tlw_remove as stones come and go.

ctypedef struct TLWindows:
    uint8_t n4[2][102]        # stones of each player in each four-window
    uint8_t n3[2][129]
    uint64_t pure4[2][5][2]
    uint64_t pure3[2][4][3]


cdef inline void _tlw_flip(uint64_t* words, int k) noexcept nogil:
    words[k >> 6] ^= (<uint64_t>1) << (k & 63)


cdef inline int tlw_add(TLWindows* w, const TLTables* t, int p, int cell) noexcept nogil:
    """Account for a new stone of player p on cell; return what the stone does for p, as
    tl_move_status: TL_FOUR when a four-window through it is now all p's (a run of four or
    more holds one), else TL_THREE when a three-window through it is, else TL_ONGOING."""
    cdef int q = 1 - p, i, k, a, b, status = TL_ONGOING
    for i in range(t.four_len[cell]):
        k = t.four_list[cell][i]
        a = w.n4[p][k]
        b = w.n4[q][k]
        if b == 0:
            if a > 0:
                _tlw_flip(w.pure4[p][a], k)
            _tlw_flip(w.pure4[p][a + 1], k)
        elif a == 0:
            _tlw_flip(w.pure4[q][b], k)  # the other's window is no longer pure
        w.n4[p][k] = a + 1
        if a == 3:
            status = TL_FOUR
    for i in range(t.three_len[cell]):
        k = t.three_list[cell][i]
        a = w.n3[p][k]
        b = w.n3[q][k]
        if b == 0:
            if a > 0:
                _tlw_flip(w.pure3[p][a], k)
            _tlw_flip(w.pure3[p][a + 1], k)
        elif a == 0:
            _tlw_flip(w.pure3[q][b], k)
        w.n3[p][k] = a + 1
        if a == 2 and status == TL_ONGOING:
            status = TL_THREE
    return status


cdef inline void tlw_remove(TLWindows* w, const TLTables* t, int p, int cell) noexcept nogil:
    """Undo tlw_add(w, t, p, cell)."""
    cdef int q = 1 - p, i, k, a, b
    for i in range(t.four_len[cell]):
        k = t.four_list[cell][i]
        a = w.n4[p][k]
        b = w.n4[q][k]
        if b == 0:
            _tlw_flip(w.pure4[p][a], k)
            if a > 1:
                _tlw_flip(w.pure4[p][a - 1], k)
        elif a == 1:
            _tlw_flip(w.pure4[q][b], k)  # pure again for the other
        w.n4[p][k] = a - 1
    for i in range(t.three_len[cell]):
        k = t.three_list[cell][i]
        a = w.n3[p][k]
        b = w.n3[q][k]
        if b == 0:
            _tlw_flip(w.pure3[p][a], k)
            if a > 1:
                _tlw_flip(w.pure3[p][a - 1], k)
        elif a == 1:
            _tlw_flip(w.pure3[q][b], k)
        w.n3[p][k] = a - 1


cdef inline void tlw_rebuild(TLWindows* w, const TLTables* t, uint64_t white, uint64_t black) noexcept nogil:
    """Recompute everything from the stones."""
    cdef int p
    cdef uint64_t bits
    memset(w, 0, sizeof(TLWindows))
    for p in range(2):
        bits = white if p == 0 else black
        while bits:
            tlw_add(w, t, p, gc_ctz64(bits))
            bits &= bits - 1


cdef inline void tlw_threat_cells(const TLWindows* w, const TLTables* t, int p, uint64_t me, uint64_t opp,
                                  uint64_t* cells, int* twos, int* ones) noexcept nogil:
    """tl_threat_cells for player p (stones me) against opp, read off the window sets."""
    cdef int q = 1 - p, k, i
    cdef uint64_t bits, win_me = 0, win_opp = 0, three_me = 0, three_opp = 0
    for k in range(2):
        bits = w.pure4[p][3][k]
        while bits:
            i = (k << 6) + gc_ctz64(bits)
            bits &= bits - 1
            win_me |= t.four[i] & ~me
        bits = w.pure4[q][3][k]
        while bits:
            i = (k << 6) + gc_ctz64(bits)
            bits &= bits - 1
            win_opp |= t.four[i] & ~opp
    for k in range(3):
        bits = w.pure3[p][2][k]
        while bits:
            i = (k << 6) + gc_ctz64(bits)
            bits &= bits - 1
            three_me |= t.three[i] & ~me
        bits = w.pure3[q][2][k]
        while bits:
            i = (k << 6) + gc_ctz64(bits)
            bits &= bits - 1
            three_opp |= t.three[i] & ~opp
    cells[0] = win_me
    cells[1] = win_opp
    cells[2] = three_me & ~win_me
    cells[3] = three_opp & ~win_opp
    twos[0] = (gc_popcount64(w.pure4[p][2][0]) + gc_popcount64(w.pure4[p][2][1])
               - gc_popcount64(w.pure4[q][2][0]) - gc_popcount64(w.pure4[q][2][1]))
    ones[0] = (gc_popcount64(w.pure4[p][1][0]) + gc_popcount64(w.pure4[p][1][1])
               - gc_popcount64(w.pure4[q][1][0]) - gc_popcount64(w.pure4[q][1][1]))


cdef inline int tl_order_key(const uint64_t* masks, const TLTables* t, const TLWindows* w, int p,
                             int move) noexcept nogil:
    """1000 a winning four, -1000 a losing three, 500 a block of the opponent's four, else
    4 * the cell's centrality plus, over the four-windows through the cell, 1 an empty
    one, 3 / 10 one with one / two stones of player p (to move) and none of the other's,
    1 / 4 one with one / two of the other's and none of p's; 0 for the swap. masks: win,
    losing-three and block cells (TetralathCore.window_order_masks)."""
    cdef uint64_t bit
    cdef int key, i, k, a, b, q = 1 - p
    if move < 0 or move >= TL_CELLS:
        return 0
    bit = (<uint64_t>1) << move
    if masks[0] & bit:
        return 1000
    if masks[1] & bit:
        return -1000
    if masks[2] & bit:
        return 500
    key = 4 * t.centre[move]
    for i in range(t.four_len[move]):
        k = t.four_list[move][i]
        a = w.n4[p][k]
        b = w.n4[q][k]
        if b == 0:
            key += 1 if a == 0 else (3 if a == 1 else 10)
        elif a == 0:
            key += 1 if b == 1 else 4
    return key
