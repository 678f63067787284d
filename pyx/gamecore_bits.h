/* Portable bit tricks for gamecore's kernel: popcount and count-trailing-zeros on 64-bit
 * words, and the 128-bit unsigned type used for boards with more than 64 squares (10x10).
 * GCC/Clang builtins, MSVC intrinsics, or a plain-C fallback. All symbols are gc_-prefixed. */
#ifndef GAMECORE_BITS_H
#define GAMECORE_BITS_H
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
static inline int gc_popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int gc_ctz64(uint64_t x) { return __builtin_ctzll(x); }
#elif defined(_MSC_VER) && defined(_M_X64)
#include <intrin.h>
static __inline int gc_popcount64(uint64_t x) { return (int)__popcnt64(x); }
static __inline int gc_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
#else
static inline int gc_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int gc_ctz64(uint64_t x) {
    int n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
}
#endif

/* Hint that *p will be read soon (a transposition-table slot): no effect on results. */
#if defined(__GNUC__) || defined(__clang__)
#define gc_prefetch(p) __builtin_prefetch((const void*)(p))
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#define gc_prefetch(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
#else
#define gc_prefetch(p) ((void)0)
#endif

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

/* 128-bit boards: GCC and Clang provide unsigned __int128 on 64-bit targets. A compiler
 * without it cannot build the extension, and setup.py's optional build then falls back to
 * the pure-Python backend. */
#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 gc_u128;
#else
#error "gamecore's compiled kernel needs unsigned __int128 (GCC or Clang on a 64-bit target)"
#endif

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
#endif
