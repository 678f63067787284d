# Bitboard types and intrinsics shared by every kernel (see gamecore_bits.h).
from libc.stdint cimport uint64_t

cdef extern from "gamecore_bits.h":
    # Really `unsigned __int128`: Cython emits the C name and C does the arithmetic. It is
    # declared as a signed type here only so that Cython tells it apart from uint64_t when
    # it picks a fused specialisation (two unsigned typedefs look the same to it).
    ctypedef long long gc_u128
    int gc_popcount64(uint64_t x) noexcept nogil
    int gc_ctz64(uint64_t x) noexcept nogil
    void gc_prefetch(const void* p) noexcept nogil
    void* gc_table_alloc(size_t n, void** block) noexcept nogil
    int gc_popcount128(gc_u128 x) noexcept nogil
    int gc_ctz128(gc_u128 x) noexcept nogil
    gc_u128 gc_u128_from_halves(uint64_t hi, uint64_t lo) noexcept nogil
    uint64_t gc_u128_hi(gc_u128 x) noexcept nogil
    uint64_t gc_u128_lo(gc_u128 x) noexcept nogil
    # The interleaved 10x10 layout (see the header).
    gc_u128 gc_b10_step(gc_u128 x, int dr, int dc) noexcept nogil
    gc_u128 gc_b10_step_pairs(gc_u128 x, int rows2, int cols) noexcept nogil
    gc_u128 gc_b10_square_bit(int square) noexcept nogil
    int gc_b10_bit_square(int pos) noexcept nogil
    int gc_b10_first_square(gc_u128 x) noexcept nogil
    gc_u128 gc_b10_from_plain(gc_u128 plain) noexcept nogil
    gc_u128 gc_b10_to_split(gc_u128 x) noexcept nogil
    gc_u128 gc_b10_from_split(gc_u128 x) noexcept nogil
    gc_u128 gc_b10_to_plain(gc_u128 x) noexcept nogil

# A board of up to 64 squares is a uint64_t, a larger one (10x10) a 128-bit word;
# the kernels are written once over both.
ctypedef fused bb_t:
    uint64_t
    gc_u128


cdef inline int popcount(bb_t x) noexcept nogil:
    if bb_t is uint64_t:
        return gc_popcount64(x)
    else:
        return gc_popcount128(x)


cdef inline int lowest_bit(bb_t x) noexcept nogil:
    """Index of the lowest set bit (x must not be 0); a square only in the plain layout."""
    if bb_t is uint64_t:
        return gc_ctz64(x)
    else:
        return gc_ctz128(x)


cdef inline uint64_t gc_splitmix64(uint64_t* state) noexcept nogil:
    """One step of splitmix64 (the twin of ``gamecore._rng.splitmix64``): advances ``state``
    and returns the output."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)
