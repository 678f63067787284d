/* Othello kernel pieces for boards of up to 64 squares (bit r * n + c), in C so that the
 * perft recursion can be compiled twice: once for any x86-64 (or other) CPU, once for
 * AVX2 CPUs, picked at run time (gc_perft64). Everything else in othello.pxd calls the
 * portable pieces.
 *
 * Flips work ray by ray from precomputed rays (the squares from a square to the edge in
 * one direction). Directions 0..3 (E, S, SE, SW) run up the bit order, 4..7 (W, N, NW,
 * NE) down. Along a ray, the discs flipped are the run of opponent discs before the first
 * other square, if that square (the "outflank") holds a disc of the mover. Up the bit
 * order the first non-opponent square is the lowest set bit of ray & ~opponent; down the
 * bit order it is the highest. Branch-free: a bracket is a coin toss to a predictor. */
#ifndef GAMECORE_OTHELLO64_H
#define GAMECORE_OTHELLO64_H
#include <stdint.h>
#include "gamecore_bits.h"

/* The ray's flips when it runs up the bit order (ray & (outflank - 1), or 0). */
GC_ALWAYS_INLINE uint64_t gc_flips_up64(uint64_t ray, uint64_t player, uint64_t opponent) {
    uint64_t outflank = ray & ~opponent;
    outflank &= (0 - outflank) & player;
    return ray & (outflank - (outflank != 0));
}

/* The ray's flips when it runs down the bit order: the ray's bits above the outflank. */
GC_ALWAYS_INLINE uint64_t gc_flips_down64(uint64_t ray, uint64_t player, uint64_t opponent) {
    uint64_t t = ray & ~opponent;
    uint64_t outflank = ((uint64_t)(t != 0) << (63 - __builtin_clzll(t | 1))) & player;
    return ray & (0 - (outflank << 1));
}

/* Discs a move of `player` on the square whose eight rays are `rays` flips (0 if none). */
GC_ALWAYS_INLINE uint64_t gc_flips64(uint64_t player, uint64_t opponent, const uint64_t* rays) {
    return gc_flips_up64(rays[0], player, opponent) | gc_flips_up64(rays[1], player, opponent)
         | gc_flips_up64(rays[2], player, opponent) | gc_flips_up64(rays[3], player, opponent)
         | gc_flips_down64(rays[4], player, opponent) | gc_flips_down64(rays[5], player, opponent)
         | gc_flips_down64(rays[6], player, opponent) | gc_flips_down64(rays[7], player, opponent);
}

/* Squares where `player` may move on an n x n board (n <= 8): the four direction pairs
 * 1 (E/W), n (S/N), n + 1 (SE/NW), n - 1 (SW/NE), each by Kogge-Stone doubling. A run of
 * opponent discs is at most n - 2 <= 6 long: two single steps reach 2, each doubling
 * step adds 2. `inner` is the board without its first and last columns (no wrapping).
 * Written once as a macro over the word type: a 64-bit word (gc_direction_moves64), or a
 * vector of two (gc_direction_moves64x2, below: two generations at once, lane by lane). */
#define GC_DEFINE_DIRECTION_MOVES(NAME, WORD)                                               \
    GC_ALWAYS_INLINE WORD NAME(WORD player, WORD mask, WORD empty, int s) {                 \
        WORD x, pre, moves;                                                                 \
        int s2 = s + s;                                                                     \
        x = (player << s) & mask;                                                           \
        x |= (x << s) & mask;                                                               \
        pre = mask & (mask << s);                                                           \
        x |= pre & (x << s2);                                                               \
        x |= pre & (x << s2);                                                               \
        moves = (x << s) & empty;                                                           \
        x = (player >> s) & mask;                                                           \
        x |= (x >> s) & mask;                                                               \
        pre = mask & (mask >> s);                                                           \
        x |= pre & (x >> s2);                                                               \
        x |= pre & (x >> s2);                                                               \
        moves |= (x >> s) & empty;                                                          \
        return moves;                                                                       \
    }

GC_DEFINE_DIRECTION_MOVES(gc_direction_moves64, uint64_t)

/* gc_moves64's moves on 8x8, where its steps and masks are constants (the 64 bits are the
 * board: no `full` mask; `inner` is every byte's bits 1..6): about half the instructions. */
GC_ALWAYS_INLINE uint64_t gc_moves8x8(uint64_t player, uint64_t opponent) {
    uint64_t empty = ~(player | opponent);
    uint64_t inner = opponent & 0x7E7E7E7E7E7E7E7EULL;
    return gc_direction_moves64(player, inner, empty, 1) | gc_direction_moves64(player, opponent, empty, 8)
         | gc_direction_moves64(player, inner, empty, 9) | gc_direction_moves64(player, inner, empty, 7);
}

/* Both sides' moves on 8x8 at once: gc_moves8x8(player, opponent) into *mine and
 * gc_moves8x8(opponent, player) into *theirs. The two generations run in the two 64-bit
 * lanes of one vector (GCC/Clang vector extensions: SSE2, which every x86-64 has, or NEON),
 * every step shifting both lanes by the same constant: half the instructions of two calls,
 * for the evaluations that need both sides' mobility. */
typedef uint64_t gc_u64x2 __attribute__((vector_size(16)));

GC_DEFINE_DIRECTION_MOVES(gc_direction_moves64x2, gc_u64x2)

GC_ALWAYS_INLINE void gc_moves8x8_both(uint64_t player, uint64_t opponent, uint64_t* mine, uint64_t* theirs) {
    const gc_u64x2 edges = {0x7E7E7E7E7E7E7E7EULL, 0x7E7E7E7E7E7E7E7EULL};
    gc_u64x2 p = {player, opponent}, o = {opponent, player};
    gc_u64x2 empty = ~(p | o), inner = o & edges;
    gc_u64x2 moves = gc_direction_moves64x2(p, inner, empty, 1) | gc_direction_moves64x2(p, o, empty, 8)
                   | gc_direction_moves64x2(p, inner, empty, 9) | gc_direction_moves64x2(p, inner, empty, 7);
    *mine = moves[0];
    *theirs = moves[1];
}

typedef struct {
    int n;
    uint64_t full;              /* every square */
    uint64_t inner;             /* without the first and last columns */
    const uint64_t (*rays)[8];  /* rays[square][direction], directions as above */
    uint64_t step[4];           /* 1, n, n + 1, n - 1 */
    uint64_t run_mask[4];       /* where a run may lie in each direction: inner, full, inner, inner */
} gc_board64;

static inline void gc_board64_init(gc_board64* b, int n, uint64_t full, uint64_t inner, const uint64_t (*rays)[8]) {
    b->n = n;
    b->full = full;
    b->inner = inner;
    b->rays = rays;
    b->step[0] = 1; b->step[1] = n; b->step[2] = n + 1; b->step[3] = n - 1;
    b->run_mask[0] = inner; b->run_mask[1] = full; b->run_mask[2] = inner; b->run_mask[3] = inner;
}

GC_ALWAYS_INLINE uint64_t gc_moves64(uint64_t player, uint64_t opponent, const gc_board64* b) {
    uint64_t empty = ~(player | opponent) & b->full;
    uint64_t inner = opponent & b->inner;
    int n = b->n;
    return gc_direction_moves64(player, inner, empty, 1) | gc_direction_moves64(player, opponent, empty, n)
         | gc_direction_moves64(player, inner, empty, n + 1) | gc_direction_moves64(player, inner, empty, n - 1);
}

/* perft, written once as a macro over the move generator and the flips so that it can be
 * compiled for two instruction sets (a recursive function cannot be inlined into a
 * target-specific caller, so the whole recursion is instantiated per target). Leaves
 * `depth` plies deep (depth >= 1): a pass is a ply, a finished game one leaf, and the last
 * ply is bulk-counted (its leaves are the moves); any move order will do. */
#define GC_DEFINE_PERFT64(NAME, ATTR, MOVES, FLIPS)                                         \
    ATTR static uint64_t NAME(uint64_t player, uint64_t opponent, int depth, const gc_board64* b) { \
        uint64_t moves = MOVES(player, opponent, b), total = 0, bit, flipped;              \
        int sq;                                                                             \
        if (depth == 1)                                                                     \
            return moves ? (uint64_t)__builtin_popcountll(moves) : 1;                       \
        if (!moves) {                                                                       \
            if (MOVES(opponent, player, b))                                                 \
                return NAME(opponent, player, depth - 1, b);                                \
            return 1;                                                                       \
        }                                                                                   \
        if (depth == 2) { /* the children's moves, counted without a call each */           \
            do {                                                                            \
                sq = __builtin_ctzll(moves);                                                \
                bit = moves & (0 - moves);                                                  \
                moves ^= bit;                                                               \
                flipped = FLIPS(player, opponent, b->rays[sq]);                             \
                uint64_t cp = opponent ^ flipped, co = player | flipped | bit;              \
                uint64_t replies = MOVES(cp, co, b);                                        \
                if (replies)                                                                \
                    total += (uint64_t)__builtin_popcountll(replies);                       \
                else                                                                        \
                    total += 1; /* a pass or the end: one leaf either way */                \
            } while (moves);                                                                \
            return total;                                                                   \
        }                                                                                   \
        do {                                                                                \
            sq = __builtin_ctzll(moves);                                                    \
            bit = moves & (0 - moves);                                                      \
            moves ^= bit;                                                                   \
            flipped = FLIPS(player, opponent, b->rays[sq]);                                 \
            total += NAME(opponent ^ flipped, player | flipped | bit, depth - 1, b);        \
        } while (moves);                                                                    \
        return total;                                                                       \
    }

GC_DEFINE_PERFT64(gc_perft64_portable, , gc_moves64, gc_flips64)

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
/* AVX2 (x86-64-v3 CPUs): the four direction pairs of the move generator in the four lanes
 * of one vector, and the flips of the four up-rays in one vector and of the four
 * down-rays in another. Picked at run time, so the extension still runs on any x86-64. */
#include <immintrin.h>
#define GC_AVX2 __attribute__((target("avx2,popcnt")))
#define GC_AVX2_INLINE static inline __attribute__((always_inline, target("avx2,popcnt")))

GC_AVX2_INLINE uint64_t gc_or_lanes(__m256i v) {
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x)));
}

GC_AVX2_INLINE uint64_t gc_moves64_avx2(uint64_t player, uint64_t opponent, const gc_board64* b) {
    const __m256i s1 = _mm256_loadu_si256((const __m256i*)b->step);
    const __m256i s2 = _mm256_add_epi64(s1, s1);
    const __m256i mask = _mm256_and_si256(_mm256_set1_epi64x((long long)opponent),
                                          _mm256_loadu_si256((const __m256i*)b->run_mask));
    const __m256i p = _mm256_set1_epi64x((long long)player);
    __m256i up, down, pre_up, pre_down;
    up = _mm256_and_si256(mask, _mm256_sllv_epi64(p, s1));
    down = _mm256_and_si256(mask, _mm256_srlv_epi64(p, s1));
    up = _mm256_or_si256(up, _mm256_and_si256(mask, _mm256_sllv_epi64(up, s1)));
    down = _mm256_or_si256(down, _mm256_and_si256(mask, _mm256_srlv_epi64(down, s1)));
    pre_up = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, s1));
    pre_down = _mm256_srlv_epi64(pre_up, s1);
    up = _mm256_or_si256(up, _mm256_and_si256(pre_up, _mm256_sllv_epi64(up, s2)));
    down = _mm256_or_si256(down, _mm256_and_si256(pre_down, _mm256_srlv_epi64(down, s2)));
    up = _mm256_or_si256(up, _mm256_and_si256(pre_up, _mm256_sllv_epi64(up, s2)));
    down = _mm256_or_si256(down, _mm256_and_si256(pre_down, _mm256_srlv_epi64(down, s2)));
    return gc_or_lanes(_mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1)))
         & ~(player | opponent) & b->full;
}

/* Up-rays: the lowest set bit of ray & ~opponent by t & -t. Down-rays: the highest, by
 * smearing t down to bit 0 (f) and keeping the top of the smear; the flips are then the
 * ray's bits above the smear. */
GC_AVX2_INLINE uint64_t gc_flips64_avx2(uint64_t player, uint64_t opponent, const uint64_t* rays) {
    const __m256i p = _mm256_set1_epi64x((long long)player);
    const __m256i o = _mm256_set1_epi64x((long long)opponent);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i ray_up = _mm256_loadu_si256((const __m256i*)rays);
    const __m256i ray_down = _mm256_loadu_si256((const __m256i*)(rays + 4));
    __m256i t, outflank, up, down;
    t = _mm256_andnot_si256(o, ray_up);
    outflank = _mm256_and_si256(_mm256_and_si256(t, _mm256_sub_epi64(zero, t)), p);
    up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero),
                             _mm256_and_si256(ray_up, _mm256_add_epi64(outflank, _mm256_cmpeq_epi64(zero, zero))));
    t = _mm256_andnot_si256(o, ray_down);
    t = _mm256_or_si256(t, _mm256_srli_epi64(t, 1));
    t = _mm256_or_si256(t, _mm256_srli_epi64(t, 2));
    t = _mm256_or_si256(t, _mm256_srli_epi64(t, 4));
    t = _mm256_or_si256(t, _mm256_srli_epi64(t, 8));
    t = _mm256_or_si256(t, _mm256_srli_epi64(t, 16));
    t = _mm256_or_si256(t, _mm256_srli_epi64(t, 32));
    outflank = _mm256_and_si256(_mm256_andnot_si256(_mm256_srli_epi64(t, 1), t), p);
    down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), _mm256_andnot_si256(t, ray_down));
    return gc_or_lanes(_mm256_or_si256(up, down));
}

GC_DEFINE_PERFT64(gc_perft64_avx2, GC_AVX2, gc_moves64_avx2, gc_flips64_avx2)

/* GAMECORE_NO_SIMD=1 in the environment keeps the portable kernel (to test it). */
static inline int gc_cpu_has_avx2(void) {
    static int known = -1;
    if (known < 0) {
        const char* off = getenv("GAMECORE_NO_SIMD");
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")
                && !(off && *off && *off != '0');
    }
    return known;
}
#define GC_HAVE_AVX2_PERFT 1
#endif

#ifdef GC_HAVE_AVX2_PERFT
/* gc_moves8x8 by the AVX2 generator (the four direction pairs in the lanes of one vector). */
GC_AVX2 static uint64_t gc_moves8x8_avx2(uint64_t player, uint64_t opponent) {
    static const gc_board64 board8 = {8, ~0ULL, 0x7E7E7E7E7E7E7E7EULL, NULL, {1, 8, 9, 7},
                                      {0x7E7E7E7E7E7E7E7EULL, ~0ULL, 0x7E7E7E7E7E7E7E7EULL, 0x7E7E7E7E7E7E7E7EULL}};
    return gc_moves64_avx2(player, opponent, &board8);
}
#endif

/* gc_moves8x8 on the fastest generator this CPU runs: a call of the AVX2 one (a quarter of
 * the instructions, the call included) where the CPU has it, for the searches' move lists. */
static inline uint64_t gc_moves8x8_fastest(uint64_t player, uint64_t opponent) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_moves8x8_avx2(player, opponent);
#endif
    return gc_moves8x8(player, opponent);
}

/* Leaves of the perft tree `depth` >= 1 plies deep, on the fastest kernel this CPU runs. */
static inline uint64_t gc_perft64(uint64_t player, uint64_t opponent, int depth, const gc_board64* b) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_perft64_avx2(player, opponent, depth, b);
#endif
    return gc_perft64_portable(player, opponent, depth, b);
}

#endif
