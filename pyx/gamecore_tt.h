/* The endgame table's words, read and written whole by threads that share the table without a
 * lock (Hyatt and Mann's lockless hashing): an entry is two 64-bit words, the data and the key
 * XOR the data, each loaded and stored as one (relaxed atomic) access. Two threads writing an
 * entry at once may leave one's key word beside the other's data word; the XOR then fails to
 * give the key of either, and a probe reads the entry as a miss, never as wrong bounds. */
#ifndef GAMECORE_TT_H
#define GAMECORE_TT_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
/* MSVC: an aligned 64-bit volatile access is one instruction on x64 and arm64. */
static __inline uint64_t gc_tt_load(const uint64_t* word) { return *(const volatile uint64_t*)word; }
static __inline void gc_tt_save(uint64_t* word, uint64_t value) { *(volatile uint64_t*)word = value; }
#else
static inline uint64_t gc_tt_load(const uint64_t* word) { return __atomic_load_n(word, __ATOMIC_RELAXED); }
static inline void gc_tt_save(uint64_t* word, uint64_t value) { __atomic_store_n(word, value, __ATOMIC_RELAXED); }
#endif

#endif
