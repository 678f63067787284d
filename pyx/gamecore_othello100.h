/* Othello kernel for 10x10 boards, in C for the same reason as gamecore_othello64.h: the
 * perft recursion is compiled twice, for any CPU and for AVX2 CPUs, and picked at run time.
 *
 * Layout ("split"): a board is two 64-bit halves, rows 0..4 in `lo` (square r * 10 + c is
 * bit r * 10 + c) and rows 5..9 in `hi` (square 50 + k is bit k); bits 50..63 of each half
 * stay empty. Square order is bit order within a half, so rays work as on 8x8, and a step of
 * s squares is a 64-bit shift per half plus the carry of the bits that cross between the
 * halves (one more shift and an or). Bits pushed past a row's end or above bit 49 are
 * garbage that the masks of the caller remove. The rest of the compiled kernel keeps the
 * interleaved layout of gamecore_bits.h: gc_b10_to_split converts.
 *
 * Directions 0..3 (E, S, SE, SW) run up the square order, 4..7 (W, N, NW, NE) down; their
 * steps are 1, 10, 11, 9 squares. A run of opponent discs is at most 8 long. */
#ifndef GAMECORE_OTHELLO100_H
#define GAMECORE_OTHELLO100_H
#include <stdint.h>
#include "gamecore_bits.h"
#include "gamecore_othello64.h"

#define GC_B100_HALF (((uint64_t)1 << 50) - 1) /* the squares of one half */

typedef struct {
    uint64_t lo, hi;
} gc_b100;

/* The flips of a move are found ray by ray. up[h][d] is the part of ray d (0..3) in half h,
 * down[h][d - 4] the same for rays 4..7. A ray from a square of rows 0..4 running S may go
 * on into the high half, one from rows 5..9 running N into the low half. */
typedef struct {
    uint64_t up[2][4];
    uint64_t down[2][4];
} gc_rays100;

typedef struct {
    uint64_t step[4];     /* 1, 10, 11, 9 */
    uint64_t carry[4];    /* 50 - step: the shift that moves bits across the halves */
    uint64_t run_mask[4]; /* where a run may lie, per half: inner, full, inner, inner */
    uint64_t inner;       /* a half without its first and last columns */
    gc_u128 interleaved_inner; /* the board without them in the interleaved layout */
    gc_rays100 rays[100];
} gc_board100;

static inline void gc_board100_init(gc_board100* b) {
    static const int dr[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int dc[8] = {1, 0, 1, -1, -1, 0, -1, 1};
    static const int steps[4] = {1, 10, 11, 9};
    int sq, d, r, c, k;
    b->inner = 0;
    for (r = 0; r < 5; r++)
        for (c = 1; c < 9; c++)
            b->inner |= (uint64_t)1 << (r * 10 + c);
    b->interleaved_inner = gc_b10_from_split(gc_u128_from_halves(b->inner, b->inner));
    for (k = 0; k < 4; k++) {
        b->step[k] = (uint64_t)steps[k];
        b->carry[k] = (uint64_t)(50 - steps[k]);
        b->run_mask[k] = k == 1 ? GC_B100_HALF : b->inner;
    }
    for (sq = 0; sq < 100; sq++) {
        gc_rays100* rays = &b->rays[sq];
        for (d = 0; d < 8; d++) {
            uint64_t* part = d < 4 ? rays->up[0] + d : rays->down[0] + (d - 4);
            part[0] = part[4] = 0; /* [0][k] and [1][k] are 4 words apart */
            r = sq / 10 + dr[d];
            c = sq % 10 + dc[d];
            for (; 0 <= r && r < 10 && 0 <= c && c < 10; r += dr[d], c += dc[d])
                part[r < 5 ? 0 : 4] |= (uint64_t)1 << ((r % 5) * 10 + c);
        }
    }
}

/* The portable kernel generates moves in the interleaved layout, where a step is one plain
 * shift per half (see gamecore_bits.h): the discs of `mask` reached from `start` in
 * direction (dr, dc), two single steps, then one of two and one of four squares, and the
 * step beyond them (where a move may be). */
GC_ALWAYS_INLINE gc_u128 gc_b10_beyond_run(gc_u128 start, gc_u128 mask, int dr, int dc) {
    gc_u128 x, pre, pre2;
    x = gc_b10_step(start, dr, dc) & mask;
    x |= gc_b10_step(x, dr, dc) & mask;
    pre = mask & gc_b10_step(mask, dr, dc);
    pre2 = pre & gc_b10_step_pairs(pre, dr, 2 * dc);
    x |= pre & gc_b10_step_pairs(x, dr, 2 * dc);
    x |= pre2 & gc_b10_step_pairs(x, 2 * dr, 4 * dc);
    return gc_b10_step(x, dr, dc);
}

/* Squares where `p` may move against `o`, both interleaved. */
GC_ALWAYS_INLINE gc_u128 gc_moves100_interleaved(gc_u128 p, gc_u128 o, const gc_board100* b) {
    gc_u128 inner = o & b->interleaved_inner;
    gc_u128 empty = ~(p | o) & gc_u128_from_halves(GC_B100_HALF, GC_B100_HALF);
    return (gc_b10_beyond_run(p, inner, 0, 1) | gc_b10_beyond_run(p, inner, 0, -1)
            | gc_b10_beyond_run(p, o, 1, 0) | gc_b10_beyond_run(p, o, -1, 0)
            | gc_b10_beyond_run(p, inner, 1, 1) | gc_b10_beyond_run(p, inner, -1, -1)
            | gc_b10_beyond_run(p, inner, 1, -1) | gc_b10_beyond_run(p, inner, -1, 1)) & empty;
}

/* Flips along a ray within one half, up or down the bit order (as gamecore_othello64.h). */
GC_ALWAYS_INLINE uint64_t gc_flips_up100(uint64_t ray, uint64_t p, uint64_t o) {
    uint64_t outflank = ray & ~o;
    outflank &= (0 - outflank) & p;
    return ray & (outflank - (outflank != 0));
}
GC_ALWAYS_INLINE uint64_t gc_highest_bit100(uint64_t x) {
    return x ? (uint64_t)1 << (63 - __builtin_clzll(x)) : 0;
}
GC_ALWAYS_INLINE uint64_t gc_flips_down100(uint64_t ray, uint64_t p, uint64_t o) {
    uint64_t outflank = gc_highest_bit100(ray & ~o) & p;
    return ray & (0 - (outflank << 1));
}

/* The rays that cross between the halves, as 128-bit words (the high half above the low
 * one keeps square order): up the bit order, the flips end below the lowest bit of
 * ray & ~opponent if that bit is a disc of the mover; down, above the highest. */
GC_ALWAYS_INLINE uint64_t gc_flips_up_across100(uint64_t near, uint64_t far, gc_b100 p, gc_b100 o, uint64_t* near_flips) {
    gc_u128 ray = gc_u128_from_halves(far, near);
    gc_u128 outflank = ray & ~gc_u128_from_halves(o.hi, o.lo);
    gc_u128 flips;
    outflank &= (0 - outflank) & gc_u128_from_halves(p.hi, p.lo);
    flips = ray & (outflank - (outflank != 0));
    *near_flips |= (uint64_t)flips;
    return (uint64_t)(flips >> 64);
}
GC_ALWAYS_INLINE uint64_t gc_flips_down_across100(uint64_t near, uint64_t far, gc_b100 p, gc_b100 o, uint64_t* near_flips) {
    gc_u128 ray = gc_u128_from_halves(near, far);
    gc_u128 t = ray & ~gc_u128_from_halves(o.hi, o.lo);
    uint64_t th = (uint64_t)(t >> 64), tl = (uint64_t)t;
    gc_u128 outflank = gc_u128_from_halves(gc_highest_bit100(th), th ? 0 : gc_highest_bit100(tl))
                     & gc_u128_from_halves(p.hi, p.lo);
    gc_u128 flips = ray & (0 - (outflank << 1));
    *near_flips |= (uint64_t)(flips >> 64);
    return (uint64_t)flips;
}

/* Discs a move of `p` on `square` flips (0 if none), for a square of rows 0..4, whose
 * S, SE and SW rays may cross into the high half, and for one of rows 5..9, whose N, NW and
 * NE rays may cross into the low half. */
GC_ALWAYS_INLINE gc_b100 gc_flips100_lo(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    const gc_rays100* r = &b->rays[square];
    gc_b100 f = {gc_flips_up100(r->up[0][0], p.lo, o.lo), 0};
    int d;
    for (d = 0; d < 4; d++)
        f.lo |= gc_flips_down100(r->down[0][d], p.lo, o.lo);
    for (d = 1; d < 4; d++)
        f.hi |= gc_flips_up_across100(r->up[0][d], r->up[1][d], p, o, &f.lo);
    return f;
}
GC_ALWAYS_INLINE gc_b100 gc_flips100_hi(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    const gc_rays100* r = &b->rays[square];
    gc_b100 f = {0, gc_flips_down100(r->down[1][0], p.hi, o.hi)};
    int d;
    for (d = 0; d < 4; d++)
        f.hi |= gc_flips_up100(r->up[1][d], p.hi, o.hi);
    for (d = 1; d < 4; d++)
        f.lo |= gc_flips_down_across100(r->down[1][d], r->down[0][d], p, o, &f.hi);
    return f;
}
GC_ALWAYS_INLINE gc_b100 gc_flips100(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    return square < 50 ? gc_flips100_lo(p, o, square, b) : gc_flips100_hi(p, o, square, b);
}

GC_ALWAYS_INLINE gc_b100 gc_b100_of(gc_u128 split) {
    gc_b100 x = {(uint64_t)split, (uint64_t)(split >> 64)};
    return x;
}

/* perft, portable: the boards go down the tree interleaved, for the move generation; each
 * node with children converts its boards and moves to the split layout once, for the
 * flips, and converts each child's flips back. A pass is a ply, a finished game one leaf,
 * and the last two plies are counted without a call per child. */
static uint64_t gc_perft100_interleaved(gc_u128 player, gc_u128 opponent, int depth, const gc_board100* b) {
    gc_u128 moves = gc_moves100_interleaved(player, opponent, b);
    gc_b100 p, o, m;
    uint64_t total = 0;
    int half;
    if (depth == 1)
        return moves ? (uint64_t)gc_popcount128(moves) : 1;
    if (!moves) {
        if (gc_moves100_interleaved(opponent, player, b))
            return gc_perft100_interleaved(opponent, player, depth - 1, b);
        return 1;
    }
    p = gc_b100_of(gc_b10_to_split(player));
    o = gc_b100_of(gc_b10_to_split(opponent));
    m = gc_b100_of(gc_b10_to_split(moves));
    for (half = 0; half < 2; half++) {
        for (uint64_t rest = half ? m.hi : m.lo; rest; rest &= rest - 1) {
            uint64_t bit = rest & (0 - rest);
            gc_b100 f = half ? gc_flips100_hi(p, o, 50 + gc_ctz64(rest), b) : gc_flips100_lo(p, o, gc_ctz64(rest), b);
            gc_u128 changed = gc_b10_from_split(gc_u128_from_halves(f.hi | (half ? bit : 0), f.lo | (half ? 0 : bit)));
            gc_u128 cp = opponent & ~changed, co = player | changed; /* the move's square was empty */
            if (depth == 2) {
                gc_u128 replies = gc_moves100_interleaved(cp, co, b);
                total += replies ? (uint64_t)gc_popcount128(replies) : 1; /* a pass or the end: one leaf */
            } else {
                total += gc_perft100_interleaved(cp, co, depth - 1, b);
            }
        }
    }
    return total;
}

/* perft over the split layout, written once as a macro for instruction sets with vector
 * shifts (see gamecore_othello64.h): a pass is a ply, a finished game one leaf, the last two
 * plies are counted without a call per child. Moves of the low half are visited before those
 * of the high half, each half by its own loop, so that the flips need no test of the half. */
#define GC_B100_CHILDREN(HALF, BASE, FLIPS, BODY)                                                  \
    for (uint64_t rest = moves.HALF; rest; rest &= rest - 1) {                              \
        int sq = BASE + __builtin_ctzll(rest);                                              \
        gc_b100 flipped = FLIPS(player, opponent, sq, b);                                  \
        gc_b100 cp = {opponent.lo ^ flipped.lo, opponent.hi ^ flipped.hi};                  \
        gc_b100 co = {player.lo | flipped.lo, player.hi | flipped.hi};                      \
        co.HALF |= rest & (0 - rest);                                                       \
        BODY                                                                                \
    }
#define GC_DEFINE_PERFT100(NAME, ATTR, MOVES, FLIPS_LO, FLIPS_HI)                                        \
    ATTR static uint64_t NAME(gc_b100 player, gc_b100 opponent, int depth, const gc_board100* b) { \
        gc_b100 moves = MOVES(player, opponent, b);                                         \
        uint64_t total = 0;                                                                 \
        if (depth == 1)                                                                     \
            return (moves.lo | moves.hi)                                                    \
                ? (uint64_t)(__builtin_popcountll(moves.lo) + __builtin_popcountll(moves.hi)) : 1; \
        if (!(moves.lo | moves.hi)) {                                                       \
            gc_b100 replies = MOVES(opponent, player, b);                                   \
            if (replies.lo | replies.hi)                                                    \
                return NAME(opponent, player, depth - 1, b);                                \
            return 1;                                                                       \
        }                                                                                   \
        if (depth == 2) { /* the children's moves, counted without a call each */           \
            GC_B100_CHILDREN(lo, 0, FLIPS_LO, {                                                       \
                gc_b100 replies = MOVES(cp, co, b);                                         \
                uint64_t n = (uint64_t)(__builtin_popcountll(replies.lo) + __builtin_popcountll(replies.hi)); \
                total += n ? n : 1; /* a pass or the end: one leaf either way */            \
            })                                                                              \
            GC_B100_CHILDREN(hi, 50, FLIPS_HI, {                                                      \
                gc_b100 replies = MOVES(cp, co, b);                                         \
                uint64_t n = (uint64_t)(__builtin_popcountll(replies.lo) + __builtin_popcountll(replies.hi)); \
                total += n ? n : 1;                                                         \
            })                                                                              \
            return total;                                                                   \
        }                                                                                   \
        GC_B100_CHILDREN(lo, 0, FLIPS_LO, { total += NAME(cp, co, depth - 1, b); })                   \
        GC_B100_CHILDREN(hi, 50, FLIPS_HI, { total += NAME(cp, co, depth - 1, b); })                  \
        return total;                                                                       \
    }


/* AVX2: the four directions of a half in the four lanes of a vector, one vector per half
 * and per sense (up, down). gamecore_othello64.h decides at run time whether the CPU has
 * AVX2 (gc_cpu_has_avx2) and defines GC_AVX2 and GC_AVX2_INLINE on x86. */
#ifdef GC_HAVE_AVX2_PERFT

typedef struct {
    __m256i lo, hi;
} gc_v100;

GC_AVX2_INLINE gc_v100 gc_v100_up(gc_v100 x, __m256i s, __m256i carry) {
    gc_v100 y = {_mm256_sllv_epi64(x.lo, s), _mm256_or_si256(_mm256_sllv_epi64(x.hi, s), _mm256_srlv_epi64(x.lo, carry))};
    return y;
}
GC_AVX2_INLINE gc_v100 gc_v100_down(gc_v100 x, __m256i s, __m256i carry) {
    gc_v100 y = {_mm256_or_si256(_mm256_srlv_epi64(x.lo, s), _mm256_sllv_epi64(x.hi, carry)), _mm256_srlv_epi64(x.hi, s)};
    return y;
}
GC_AVX2_INLINE gc_v100 gc_v100_and(gc_v100 x, gc_v100 y) {
    gc_v100 z = {_mm256_and_si256(x.lo, y.lo), _mm256_and_si256(x.hi, y.hi)};
    return z;
}
GC_AVX2_INLINE gc_v100 gc_v100_or(gc_v100 x, gc_v100 y) {
    gc_v100 z = {_mm256_or_si256(x.lo, y.lo), _mm256_or_si256(x.hi, y.hi)};
    return z;
}

/* The lanes of x.lo or-ed together, and those of x.hi. */
GC_AVX2_INLINE gc_b100 gc_v100_reduce(__m256i lo, __m256i hi) {
    __m256i t = _mm256_or_si256(_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi));
    __m128i u = _mm_or_si128(_mm256_castsi256_si128(t), _mm256_extracti128_si256(t, 1));
    gc_b100 r = {(uint64_t)_mm_cvtsi128_si64(u), (uint64_t)_mm_extract_epi64(u, 1)};
    return r;
}

GC_AVX2_INLINE gc_b100 gc_moves100_avx2(gc_b100 p, gc_b100 o, const gc_board100* b) {
    const __m256i s1 = _mm256_loadu_si256((const __m256i*)b->step);
    const __m256i c1 = _mm256_loadu_si256((const __m256i*)b->carry);
    const __m256i k50 = _mm256_set1_epi64x(50);
    const __m256i s2 = _mm256_add_epi64(s1, s1), s4 = _mm256_add_epi64(s2, s2);
    const __m256i c2 = _mm256_sub_epi64(k50, s2), c4 = _mm256_sub_epi64(k50, s4);
    const __m256i run = _mm256_loadu_si256((const __m256i*)b->run_mask);
    const gc_v100 m = {_mm256_and_si256(_mm256_set1_epi64x((long long)o.lo), run),
                       _mm256_and_si256(_mm256_set1_epi64x((long long)o.hi), run)};
    const gc_v100 pv = {_mm256_set1_epi64x((long long)p.lo), _mm256_set1_epi64x((long long)p.hi)};
    gc_v100 up, down, pre_up, pre_down, pre2_up, pre2_down;
    up = gc_v100_and(gc_v100_up(pv, s1, c1), m);
    down = gc_v100_and(gc_v100_down(pv, s1, c1), m);
    up = gc_v100_or(up, gc_v100_and(gc_v100_up(up, s1, c1), m));
    down = gc_v100_or(down, gc_v100_and(gc_v100_down(down, s1, c1), m));
    pre_up = gc_v100_and(m, gc_v100_up(m, s1, c1));
    pre_down = gc_v100_and(m, gc_v100_down(m, s1, c1));
    pre2_up = gc_v100_and(pre_up, gc_v100_up(pre_up, s2, c2));
    pre2_down = gc_v100_and(pre_down, gc_v100_down(pre_down, s2, c2));
    up = gc_v100_or(up, gc_v100_and(pre_up, gc_v100_up(up, s2, c2)));
    down = gc_v100_or(down, gc_v100_and(pre_down, gc_v100_down(down, s2, c2)));
    up = gc_v100_or(up, gc_v100_and(pre2_up, gc_v100_up(up, s4, c4)));
    down = gc_v100_or(down, gc_v100_and(pre2_down, gc_v100_down(down, s4, c4)));
    up = gc_v100_or(gc_v100_up(up, s1, c1), gc_v100_down(down, s1, c1));
    gc_b100 moves = gc_v100_reduce(up.lo, up.hi);
    moves.lo &= ~(p.lo | o.lo) & GC_B100_HALF;
    moves.hi &= ~(p.hi | o.hi) & GC_B100_HALF;
    return moves;
}

/* Flips on four rays at once (gamecore_othello64.h's gc_flips64_avx2), within one half. */
GC_AVX2_INLINE __m256i gc_flips_up_avx2(__m256i ray, __m256i p, __m256i o) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i t = _mm256_andnot_si256(o, ray);
    __m256i outflank = _mm256_and_si256(_mm256_and_si256(t, _mm256_sub_epi64(zero, t)), p);
    return _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero),
                               _mm256_and_si256(ray, _mm256_add_epi64(outflank, _mm256_cmpeq_epi64(zero, zero))));
}
/* The highest set bit of each lane (0 for 0), for values below 2^52: or-ed into the
 * mantissa of 2^52 and 2^52 taken off again, x becomes an exact double whose exponent is
 * the bit's index (a zero lane gives 0.0, exponent 0, and a shift count out of range). */
GC_AVX2_INLINE __m256i gc_highest_bit_avx2(__m256i x) {
    const __m256i magic = _mm256_set1_epi64x(0x4330000000000000LL); /* 2^52 as a double */
    __m256d d = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, magic)), _mm256_castsi256_pd(magic));
    __m256i e = _mm256_sub_epi64(_mm256_srli_epi64(_mm256_castpd_si256(d), 52), _mm256_set1_epi64x(1023));
    return _mm256_sllv_epi64(_mm256_set1_epi64x(1), e);
}
GC_AVX2_INLINE __m256i gc_flips_down_avx2(__m256i ray, __m256i p, __m256i o) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i outflank = _mm256_and_si256(gc_highest_bit_avx2(_mm256_andnot_si256(o, ray)), p);
    return _mm256_and_si256(ray, _mm256_sub_epi64(zero, _mm256_add_epi64(outflank, outflank)));
}

/* Rays from rows 0..4: the down-rays stay in the low half, the up-rays may go on into the
 * high half (four rays at once; the E ray has no part there). */
GC_AVX2_INLINE gc_b100 gc_flips100_lo_avx2(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    const gc_rays100* r = &b->rays[square];
    const __m256i zero = _mm256_setzero_si256(), ones = _mm256_cmpeq_epi64(zero, zero);
    const __m256i pn = _mm256_set1_epi64x((long long)p.lo), on = _mm256_set1_epi64x((long long)o.lo);
    const __m256i pf = _mm256_set1_epi64x((long long)p.hi), of = _mm256_set1_epi64x((long long)o.hi);
    const __m256i near = _mm256_loadu_si256((const __m256i*)r->up[0]);
    const __m256i far = _mm256_loadu_si256((const __m256i*)r->up[1]);
    __m256i tn = _mm256_andnot_si256(on, near), tf = _mm256_andnot_si256(of, far);
    __m256i near_open = _mm256_cmpeq_epi64(tn, zero);
    __m256i first_n = _mm256_and_si256(tn, _mm256_sub_epi64(zero, tn));
    __m256i first_f = _mm256_and_si256(near_open, _mm256_and_si256(tf, _mm256_sub_epi64(zero, tf)));
    __m256i bad = _mm256_cmpeq_epi64(_mm256_or_si256(_mm256_and_si256(first_n, pn), _mm256_and_si256(first_f, pf)), zero);
    __m256i flips_n = _mm256_andnot_si256(bad, _mm256_and_si256(near, _mm256_add_epi64(first_n, ones)));
    __m256i flips_f = _mm256_andnot_si256(bad, _mm256_and_si256(_mm256_and_si256(far, near_open), _mm256_add_epi64(first_f, ones)));
    flips_n = _mm256_or_si256(flips_n, gc_flips_down_avx2(_mm256_loadu_si256((const __m256i*)r->down[0]), pn, on));
    return gc_v100_reduce(flips_n, flips_f);
}

/* Rays from rows 5..9: the up-rays stay in the high half, the down-rays may go on into the
 * low half (four rays at once; the W ray has no part there). */
GC_AVX2_INLINE gc_b100 gc_flips100_hi_avx2(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    const gc_rays100* r = &b->rays[square];
    const __m256i zero = _mm256_setzero_si256();
    const __m256i pn = _mm256_set1_epi64x((long long)p.hi), on = _mm256_set1_epi64x((long long)o.hi);
    const __m256i pf = _mm256_set1_epi64x((long long)p.lo), of = _mm256_set1_epi64x((long long)o.lo);
    const __m256i near = _mm256_loadu_si256((const __m256i*)r->down[1]);
    const __m256i far = _mm256_loadu_si256((const __m256i*)r->down[0]);
    __m256i tn = _mm256_andnot_si256(on, near), tf = _mm256_andnot_si256(of, far);
    __m256i near_open = _mm256_cmpeq_epi64(tn, zero);
    __m256i first_n = gc_highest_bit_avx2(tn);
    __m256i first_f = _mm256_and_si256(near_open, gc_highest_bit_avx2(tf));
    __m256i bad = _mm256_cmpeq_epi64(_mm256_or_si256(_mm256_and_si256(first_n, pn), _mm256_and_si256(first_f, pf)), zero);
    __m256i flips_n = _mm256_andnot_si256(bad, _mm256_and_si256(near, _mm256_or_si256(near_open, _mm256_sub_epi64(zero, _mm256_add_epi64(first_n, first_n)))));
    __m256i flips_f = _mm256_andnot_si256(bad, _mm256_and_si256(far, _mm256_sub_epi64(zero, _mm256_add_epi64(first_f, first_f))));
    flips_n = _mm256_or_si256(flips_n, gc_flips_up_avx2(_mm256_loadu_si256((const __m256i*)r->up[1]), pn, on));
    return gc_v100_reduce(flips_f, flips_n);
}

GC_DEFINE_PERFT100(gc_perft100_avx2, GC_AVX2, gc_moves100_avx2, gc_flips100_lo_avx2, gc_flips100_hi_avx2)
#define GC_HAVE_AVX2_PERFT100 1
#endif

/* Leaves of the perft tree `depth` >= 1 plies deep, on the fastest kernel this CPU runs. */
static inline uint64_t gc_perft100(gc_b100 player, gc_b100 opponent, int depth, const gc_board100* b) {
#ifdef GC_HAVE_AVX2_PERFT100
    if (gc_cpu_has_avx2())
        return gc_perft100_avx2(player, opponent, depth, b);
#endif
    return gc_perft100_interleaved(gc_b10_from_split(gc_u128_from_halves(player.hi, player.lo)),
                                   gc_b10_from_split(gc_u128_from_halves(opponent.hi, opponent.lo)), depth, b);
}

#endif
