"""splitmix64 (Vigna), the one random generator of gamecore.

It makes the Zobrist keys, drives MCTS playouts and the random players, and is cheap and
identical in both backends (the compiled twin is ``gc_splitmix64`` in ``pyx/bits.pxd``),
which Python's ``random`` is not.
"""

from __future__ import annotations

__all__ = ["MASK64", "GOLDEN", "splitmix64"]

MASK64 = (1 << 64) - 1
#: splitmix64's increment: 2**64 divided by the golden ratio.
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64: ``(next_state, output)``, both 64-bit (``state`` is taken modulo 2**64)."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)
