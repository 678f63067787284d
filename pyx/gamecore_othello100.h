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
#include <stdlib.h>
#include "gamecore_bits.h"

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

/* x moved s squares up (down) the square order: one shift per half and the carry. */
GC_ALWAYS_INLINE gc_b100 gc_b100_up(gc_b100 x, int s) {
    gc_b100 y = {x.lo << s, (x.hi << s) | (x.lo >> (50 - s))};
    return y;
}
GC_ALWAYS_INLINE gc_b100 gc_b100_down(gc_b100 x, int s) {
    gc_b100 y = {(x.lo >> s) | (x.hi << (50 - s)), x.hi >> s};
    return y;
}
GC_ALWAYS_INLINE gc_b100 gc_b100_and(gc_b100 x, gc_b100 y) {
    gc_b100 z = {x.lo & y.lo, x.hi & y.hi};
    return z;
}
GC_ALWAYS_INLINE gc_b100 gc_b100_or(gc_b100 x, gc_b100 y) {
    gc_b100 z = {x.lo | y.lo, x.hi | y.hi};
    return z;
}

/* Moves of `p` along direction pair s (up and down) through the run mask `m`: Kogge-Stone,
 * two single steps (runs of 1..2), then steps of two and of four (3..4, 5..8). */
GC_ALWAYS_INLINE gc_b100 gc_direction_moves100(gc_b100 p, gc_b100 m, int s) {
    gc_b100 x, pre, pre2, moves;
    x = gc_b100_and(gc_b100_up(p, s), m);
    x = gc_b100_or(x, gc_b100_and(gc_b100_up(x, s), m));
    pre = gc_b100_and(m, gc_b100_up(m, s));
    pre2 = gc_b100_and(pre, gc_b100_up(pre, 2 * s));
    x = gc_b100_or(x, gc_b100_and(pre, gc_b100_up(x, 2 * s)));
    x = gc_b100_or(x, gc_b100_and(pre2, gc_b100_up(x, 4 * s)));
    moves = gc_b100_up(x, s);
    x = gc_b100_and(gc_b100_down(p, s), m);
    x = gc_b100_or(x, gc_b100_and(gc_b100_down(x, s), m));
    pre = gc_b100_and(m, gc_b100_down(m, s));
    pre2 = gc_b100_and(pre, gc_b100_down(pre, 2 * s));
    x = gc_b100_or(x, gc_b100_and(pre, gc_b100_down(x, 2 * s)));
    x = gc_b100_or(x, gc_b100_and(pre2, gc_b100_down(x, 4 * s)));
    return gc_b100_or(moves, gc_b100_down(x, s));
}

/* Squares where `p` may move against `o`. */
GC_ALWAYS_INLINE gc_b100 gc_moves100(gc_b100 p, gc_b100 o, const gc_board100* b) {
    gc_b100 inner = {o.lo & b->inner, o.hi & b->inner};
    gc_b100 moves = gc_direction_moves100(p, inner, 1);
    moves = gc_b100_or(moves, gc_direction_moves100(p, o, 10));
    moves = gc_b100_or(moves, gc_direction_moves100(p, inner, 11));
    moves = gc_b100_or(moves, gc_direction_moves100(p, inner, 9));
    moves.lo &= ~(p.lo | o.lo) & GC_B100_HALF;
    moves.hi &= ~(p.hi | o.hi) & GC_B100_HALF;
    return moves;
}

/* Flips along a ray within one half, up or down the bit order (as gamecore_othello64.h). */
GC_ALWAYS_INLINE uint64_t gc_flips_up100(uint64_t ray, uint64_t p, uint64_t o) {
    uint64_t outflank = ray & ~o;
    outflank &= (0 - outflank) & p;
    return ray & (outflank - (outflank != 0));
}
GC_ALWAYS_INLINE uint64_t gc_highest_bit100(uint64_t x) {
    return (uint64_t)(x != 0) << (63 - __builtin_clzll(x | 1));
}
GC_ALWAYS_INLINE uint64_t gc_flips_down100(uint64_t ray, uint64_t p, uint64_t o) {
    uint64_t outflank = gc_highest_bit100(ray & ~o) & p;
    return ray & (0 - (outflank << 1));
}

/* A ray that starts in one half (near) and may go on in the other (far), up the bit order:
 * the first square that is no opponent disc is in the far part only when the near part is
 * all opponent discs. The near flips go to *near_flips, the far ones are returned. */
GC_ALWAYS_INLINE uint64_t gc_flips_up_across100(uint64_t near, uint64_t far, uint64_t pn, uint64_t on,
                                                uint64_t pf, uint64_t of, uint64_t* near_flips) {
    uint64_t tn = near & ~on, tf = far & ~of;
    uint64_t near_open = 0 - (uint64_t)(tn == 0);     /* all ones when the near part is all opponent */
    uint64_t first_n = tn & (0 - tn), first_f = tf & (0 - tf) & near_open;
    uint64_t ok = 0 - (uint64_t)(((first_n & pn) | (first_f & pf)) != 0);
    *near_flips |= near & (first_n - 1) & ok;         /* first_n = 0: the whole near part */
    return far & (first_f - 1) & near_open & ok;
}

/* The same down the bit order. */
GC_ALWAYS_INLINE uint64_t gc_flips_down_across100(uint64_t near, uint64_t far, uint64_t pn, uint64_t on,
                                                  uint64_t pf, uint64_t of, uint64_t* near_flips) {
    uint64_t tn = near & ~on, tf = far & ~of;
    uint64_t near_open = 0 - (uint64_t)(tn == 0);
    uint64_t first_n = gc_highest_bit100(tn), first_f = gc_highest_bit100(tf) & near_open;
    uint64_t ok = 0 - (uint64_t)(((first_n & pn) | (first_f & pf)) != 0);
    *near_flips |= near & ((0 - (first_n << 1)) | near_open) & ok;
    return far & (0 - (first_f << 1)) & ok;
}

/* Discs a move of `p` on `square` flips (0 if none), for a square of rows 0..4, whose
 * up-rays may cross into the high half, and for one of rows 5..9, whose down-rays may
 * cross into the low half. */
GC_ALWAYS_INLINE gc_b100 gc_flips100_lo(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    const gc_rays100* r = &b->rays[square];
    gc_b100 f = {0, 0};
    int d;
    for (d = 0; d < 4; d++) {
        f.lo |= gc_flips_down100(r->down[0][d], p.lo, o.lo);
        f.hi |= gc_flips_up_across100(r->up[0][d], r->up[1][d], p.lo, o.lo, p.hi, o.hi, &f.lo);
    }
    return f;
}
GC_ALWAYS_INLINE gc_b100 gc_flips100_hi(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    const gc_rays100* r = &b->rays[square];
    gc_b100 f = {0, 0};
    int d;
    for (d = 0; d < 4; d++) {
        f.hi |= gc_flips_up100(r->up[1][d], p.hi, o.hi);
        f.lo |= gc_flips_down_across100(r->down[1][d], r->down[0][d], p.hi, o.hi, p.lo, o.lo, &f.hi);
    }
    return f;
}
GC_ALWAYS_INLINE gc_b100 gc_flips100(gc_b100 p, gc_b100 o, int square, const gc_board100* b) {
    return square < 50 ? gc_flips100_lo(p, o, square, b) : gc_flips100_hi(p, o, square, b);
}

/* perft over the split layout, written once as a macro for two instruction sets (see
 * gamecore_othello64.h): a pass is a ply, a finished game one leaf, the last two plies are
 * counted without a call per child. Moves of the low half are visited before those of the
 * high half, each half by its own loop, so that the flips need no test of the half. */
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

GC_DEFINE_PERFT100(gc_perft100_portable, , gc_moves100, gc_flips100_lo, gc_flips100_hi)

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
/* AVX2: the four directions of a half in the four lanes of a vector, one vector per half
 * and per sense (up, down). gamecore_othello64.h decides at run time whether the CPU has
 * AVX2 (gc_cpu_has_avx2) and defines GC_AVX2 and GC_AVX2_INLINE. */
#include "gamecore_othello64.h"
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
 * high half (as gc_flips_up_across100, four rays at once). */
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
 * low half (as gc_flips_down_across100). */
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
#endif

/* Leaves of the perft tree `depth` >= 1 plies deep, on the fastest kernel this CPU runs. */
static inline uint64_t gc_perft100(gc_b100 player, gc_b100 opponent, int depth, const gc_board100* b) {
#ifdef GC_HAVE_AVX2_PERFT100
    if (gc_cpu_has_avx2())
        return gc_perft100_avx2(player, opponent, depth, b);
#endif
    return gc_perft100_portable(player, opponent, depth, b);
}

#endif
