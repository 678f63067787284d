/* Bit tricks for gamecore's kernel: popcount and count-trailing-zeros on 64-bit words, and
 * the 128-bit unsigned type used for boards with more than 64 squares (10x10). All symbols
 * are gc_-prefixed.
 *
 * The kernel is GCC/Clang C (builtins, unsigned __int128, vector extensions behind run-time
 * checks); clang-cl counts as Clang. MSVC's cl has no 128-bit integer, so it cannot build the
 * extension whatever this header did for it: the build stops here, and setup.py's optional
 * build installs the pure-Python backend instead. */
#ifndef GAMECORE_BITS_H
#define GAMECORE_BITS_H
#include <stdint.h>

#if !(defined(__GNUC__) || defined(__clang__)) || !defined(__SIZEOF_INT128__)
#error "gamecore's compiled kernel needs GCC or Clang on a 64-bit target (unsigned __int128)"
#endif

static inline int gc_popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int gc_ctz64(uint64_t x) { return __builtin_ctzll(x); }

/* Hint that *p will be read soon (a transposition-table slot): no effect on results. */
#define gc_prefetch(p) __builtin_prefetch((const void*)(p))

/* A zeroed table of n bytes; *block receives what to free() afterwards. On Linux a table
 * of 2 MB or more starts on a 2 MB boundary and is offered to the kernel for huge pages,
 * which spares the TLB misses of random probes; its pages are still only mapped (and
 * zeroed by the kernel) when first touched. NULL when out of memory. */
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
static inline void* gc_table_alloc(size_t n, void** block) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (n >= huge) {
        char* raw = (char*)calloc(n + huge, 1);
        char* start;
        *block = raw;
        if (raw == NULL)
            return NULL;
        start = raw + ((huge - ((uintptr_t)raw & (huge - 1))) & (huge - 1));
        madvise(start, n, MADV_HUGEPAGE);
        return start;
    }
#endif
    *block = calloc(n, 1);
    return *block;
}

/* 128-bit boards (10x10). */
typedef unsigned __int128 gc_u128;

static inline int gc_popcount128(gc_u128 x) {
    return gc_popcount64((uint64_t)x) + gc_popcount64((uint64_t)(x >> 64));
}
static inline int gc_ctz128(gc_u128 x) {
    uint64_t lo = (uint64_t)x;
    return lo ? gc_ctz64(lo) : 64 + gc_ctz64((uint64_t)(x >> 64));
}
static inline gc_u128 gc_u128_from_halves(uint64_t hi, uint64_t lo) {
    return ((gc_u128)hi << 64) | lo;
}
static inline uint64_t gc_u128_hi(gc_u128 x) { return (uint64_t)(x >> 64); }
static inline uint64_t gc_u128_lo(gc_u128 x) { return (uint64_t)x; }

/* 10x10 boards in the compiled kernel: rows interleaved over the two 64-bit halves.
 * Square (r, c) is bit (r / 2) * 10 + c of the low half for an even row r, of the high half
 * for an odd one; bits 50..63 of each half stay empty. One step down a row then moves the
 * even rows into the odd half unshifted and the odd rows into the even half 10 bits up:
 * every step is one 64-bit shift per half and no carry crosses between the halves, where
 * the plain layout (bit r * 10 + c) costs a double-word shift per step (slow SHLD/SHRD).
 * Bits pushed past a row's end or above bit 49 are garbage the callers mask off, exactly
 * as with the plain layout. Ascending square order is not ascending bit order here:
 * gc_b10_first_square gives the lowest square. */
#define GC_ALWAYS_INLINE static inline __attribute__((always_inline))

GC_ALWAYS_INLINE uint64_t gc_shift64(uint64_t x, int k) { return k >= 0 ? x << k : x >> -k; }

/* Every bit moved one square in direction (dr, dc), dr and dc in -1..1. */
GC_ALWAYS_INLINE gc_u128 gc_b10_step(gc_u128 x, int dr, int dc) {
    uint64_t even = (uint64_t)x, odd = (uint64_t)(x >> 64);
    if (dr == 0) return gc_u128_from_halves(gc_shift64(odd, dc), gc_shift64(even, dc));
    if (dr > 0) return gc_u128_from_halves(gc_shift64(even, dc), gc_shift64(odd, 10 + dc));
    return gc_u128_from_halves(gc_shift64(even, dc - 10), gc_shift64(odd, dc));
}

/* Every bit moved `rows2` * 2 rows down (up if negative) and `cols` columns right: both
 * halves keep their parity, so this is one shift per half. */
GC_ALWAYS_INLINE gc_u128 gc_b10_step_pairs(gc_u128 x, int rows2, int cols) {
    int k = rows2 * 10 + cols;
    return gc_u128_from_halves(gc_shift64((uint64_t)(x >> 64), k), gc_shift64((uint64_t)x, k));
}

GC_ALWAYS_INLINE gc_u128 gc_b10_square_bit(int square) {
    int r = square / 10, c = square % 10;
    uint64_t bit = (uint64_t)1 << ((r >> 1) * 10 + c);
    return (r & 1) ? gc_u128_from_halves(bit, 0) : (gc_u128)bit;
}

/* Square of bit position `pos`, the position of a square's bit (bits 50..63 of a half are
 * no square's and never set on a board). */
GC_ALWAYS_INLINE int gc_b10_bit_square(int pos) {
    int half = pos >> 6, b = pos & 63;
    return ((b / 10) * 2 + half) * 10 + b % 10;
}

/* The lowest square of a non-empty board. */
GC_ALWAYS_INLINE int gc_b10_first_square(gc_u128 x) {
    uint64_t even = (uint64_t)x, odd = (uint64_t)(x >> 64);
    int se = even ? gc_b10_bit_square(gc_ctz64(even)) : 1000;
    int so = odd ? gc_b10_bit_square(64 + gc_ctz64(odd)) : 1000;
    return se < so ? se : so;
}

/* The row-major 10x10 layout split at the middle: rows 0..4 in the low half (bit r * 10 + c),
 * rows 5..9 in the high half (bit (r - 5) * 10 + c). Bit order is square order, so the first
 * disc along a ray is a lowest or highest set bit: the flips and perft of gamecore_othello100.h work in it. */
#define GC_B10_SLOT(k) ((uint64_t)1023 << (10 * (k)))  /* the ten bits of slot k of a half */
GC_ALWAYS_INLINE gc_u128 gc_b10_to_split(gc_u128 x) {
    uint64_t even = (uint64_t)x, odd = (uint64_t)(x >> 64);
    /* rows 0..4: even slots 0, 1, 2 and odd slots 0, 1; rows 5..9: odd 2, even 3, odd 3, even 4, odd 4 */
    uint64_t lo = (even & GC_B10_SLOT(0))
                | (((odd & GC_B10_SLOT(0)) | (even & GC_B10_SLOT(1))) << 10)
                | (((odd & GC_B10_SLOT(1)) | (even & GC_B10_SLOT(2))) << 20);
    uint64_t hi = (((odd & GC_B10_SLOT(2)) | (even & GC_B10_SLOT(3))) >> 20)
                | (((odd & GC_B10_SLOT(3)) | (even & GC_B10_SLOT(4))) >> 10)
                | (odd & GC_B10_SLOT(4));
    return gc_u128_from_halves(hi, lo);
}
GC_ALWAYS_INLINE gc_u128 gc_b10_from_split(gc_u128 x) {
    uint64_t lo = (uint64_t)x, hi = (uint64_t)(x >> 64);
    uint64_t lo10 = lo >> 10, lo20 = lo >> 20, hi20 = hi << 20, hi10 = hi << 10;
    uint64_t even = (lo & GC_B10_SLOT(0)) | (lo10 & GC_B10_SLOT(1)) | (lo20 & GC_B10_SLOT(2))
                  | (hi20 & GC_B10_SLOT(3)) | (hi10 & GC_B10_SLOT(4));
    uint64_t odd = (lo10 & GC_B10_SLOT(0)) | (lo20 & GC_B10_SLOT(1)) | (hi20 & GC_B10_SLOT(2))
                 | (hi10 & GC_B10_SLOT(3)) | (hi & GC_B10_SLOT(4));
    return gc_u128_from_halves(odd, even);
}
/* Conversions from and to the plain layout (bit r * 10 + c), for the boundary with Python
 * and for hashing positions the same way as the pure-Python twin. */
static inline gc_u128 gc_b10_from_plain(gc_u128 plain) {
    uint64_t even = 0, odd = 0;
    int k;
    for (k = 0; k < 5; k++) {
        even |= (uint64_t)((plain >> (20 * k)) & 1023) << (10 * k);
        odd |= (uint64_t)((plain >> (20 * k + 10)) & 1023) << (10 * k);
    }
    return gc_u128_from_halves(odd, even);
}
static inline gc_u128 gc_b10_to_plain(gc_u128 x) {
    uint64_t even = (uint64_t)x, odd = (uint64_t)(x >> 64);
    gc_u128 plain = 0;
    int k;
    for (k = 0; k < 5; k++) {
        plain |= (gc_u128)((even >> (10 * k)) & 1023) << (20 * k);
        plain |= (gc_u128)((odd >> (10 * k)) & 1023) << (20 * k + 10);
    }
    return plain;
}
#endif
