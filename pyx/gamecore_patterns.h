/* The learned Othello evaluation's pattern indices, kept up to date move by move
 * (_othello_cy.pyx, "the pattern indices kept up to date move by move", says why and how).
 *
 * A frame holds every instance's base-3 index twice: black's view (digit 1 a black disc,
 * 2 a white one) in its first GC_PATTERN_VIEW entries, white's view in the next ones.
 * power[square * GC_PATTERN_VIEW + i] is the square's power of 3 in instance i (0 when it is
 * not in it).
 * Indices stay below 3**10, so unsigned 16-bit arithmetic is exact (a sum that wraps on
 * the way comes back), eight instances a vector addition. */
#ifndef GAMECORE_PATTERNS_H
#define GAMECORE_PATTERNS_H
#include <stdint.h>
#include <string.h>

#define GC_PATTERN_VIEW 64  /* instances of one view (_othello_cy MAX_INSTANCES) */
#define GC_PATTERN_CHUNK 8  /* instances a vector holds */

/* Eight indices at a time (GCC and Clang vector extensions; the build needs one of them). */
typedef uint16_t gc_u16x8 __attribute__((vector_size(16)));

static inline gc_u16x8 gc_load_u16x8(const uint16_t* p) {
    gc_u16x8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void gc_store_u16x8(uint16_t* p, gc_u16x8 v) {
    memcpy(p, &v, sizeof v);
}

/* `after`: the frame `before` once `mover` (0 black, 1 white) has put a disc on `square`
 * and flipped the `count` squares of `flipped`. The new disc reads 1 in the mover's view
 * and 2 in the other's; a flipped disc goes from 2 to 1 in the mover's view, 1 to 2 in the
 * other's. All GC_PATTERN_VIEW instances are updated, the unused ones staying 0: fixed
 * bounds let the compiler keep the eight sums in registers (a board of fewer instances
 * would save a few additions, and lose more to a loop of unknown length). */
static inline void gc_patterns_advance(const uint16_t* before, uint16_t* after, const uint16_t* power, int mover,
                                       int square, const unsigned char* flipped, int count) {
    enum { CHUNKS = GC_PATTERN_VIEW / GC_PATTERN_CHUNK };
    const uint16_t* mine = before + mover * GC_PATTERN_VIEW;
    const uint16_t* theirs = before + (1 - mover) * GC_PATTERN_VIEW;
    uint16_t* new_mine = after + mover * GC_PATTERN_VIEW;
    uint16_t* new_theirs = after + (1 - mover) * GC_PATTERN_VIEW;
    const uint16_t* placed = power + square * GC_PATTERN_VIEW;
    gc_u16x8 turned[CHUNKS];
    for (int c = 0; c < CHUNKS; c++)
        turned[c] = (gc_u16x8){0};
    for (int f = 0; f < count; f++) {
        const uint16_t* p = power + flipped[f] * GC_PATTERN_VIEW;
        for (int c = 0; c < CHUNKS; c++)
            turned[c] += gc_load_u16x8(p + c * GC_PATTERN_CHUNK);
    }
    for (int c = 0; c < CHUNKS; c++) {
        int k = c * GC_PATTERN_CHUNK;
        gc_u16x8 new_disc = gc_load_u16x8(placed + k);
        gc_store_u16x8(new_mine + k, gc_load_u16x8(mine + k) + new_disc - turned[c]);
        gc_store_u16x8(new_theirs + k, gc_load_u16x8(theirs + k) + new_disc + new_disc + turned[c]);
    }
}

/* `view`: the other side's view (the side to move next) once `mover` has played as in
 * gc_patterns_advance, from that side's view `before` (of the frame before the move): what a
 * search's leaf evaluates, without a frame of its own. The flipped discs are the `count`
 * squares of `flipped` or, when `flipped` is NULL, the bits of `bits` (a board of at most 64
 * squares, bit i square i: read straight from the bitboard). The eight sums stay in registers. */
static inline __attribute__((always_inline)) void gc_patterns_view_of(const uint16_t* before, uint16_t* view,
                                                                      const uint16_t* power, int square,
                                                                      const unsigned char* flipped, int count,
                                                                      uint64_t bits) {
    enum { CHUNKS = GC_PATTERN_VIEW / GC_PATTERN_CHUNK };
    const uint16_t* placed = power + square * GC_PATTERN_VIEW;
    gc_u16x8 sum[CHUNKS];
    for (int c = 0; c < CHUNKS; c++) {
        gc_u16x8 new_disc = gc_load_u16x8(placed + c * GC_PATTERN_CHUNK);
        sum[c] = gc_load_u16x8(before + c * GC_PATTERN_CHUNK) + new_disc + new_disc;
    }
    for (int f = 0; flipped ? f < count : bits != 0; f++, bits &= bits - 1) {
        const uint16_t* p = power + (flipped ? flipped[f] : __builtin_ctzll(bits)) * GC_PATTERN_VIEW;
        for (int c = 0; c < CHUNKS; c++)
            sum[c] += gc_load_u16x8(p + c * GC_PATTERN_CHUNK);
    }
    for (int c = 0; c < CHUNKS; c++)
        gc_store_u16x8(view + c * GC_PATTERN_CHUNK, sum[c]);
}

static inline void gc_patterns_view_after(const uint16_t* before, uint16_t* view, const uint16_t* power, int square,
                                          const unsigned char* flipped, int count) {
    gc_patterns_view_of(before, view, power, square, flipped, count, 0);
}

static inline void gc_patterns_view_after64(const uint16_t* before, uint16_t* view, const uint16_t* power, int square,
                                            uint64_t flipped) {
    gc_patterns_view_of(before, view, power, square, NULL, 0, flipped);
}

/* The learned evaluation's pattern part: the sum over the `count` instances of the weight
 * w[offset[i] + index[i]]. Unrolled, with two sums: the loads are independent of each other. */
static inline int gc_patterns_weight_sum(const int16_t* w, const int* offset, const uint16_t* index, int count) {
    int even = 0, odd = 0, i = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (; i + 1 < count; i += 2) {
        even += w[offset[i] + index[i]];
        odd += w[offset[i + 1] + index[i + 1]];
    }
    if (i < count)
        even += w[offset[i] + index[i]];
    return even + odd;
}

/* `after`: a copy of `before` (a pass changes no disc). */
static inline void gc_patterns_copy(const uint16_t* before, uint16_t* after) {
    memcpy(after, before, 2 * GC_PATTERN_VIEW * sizeof(uint16_t));
}

#endif
