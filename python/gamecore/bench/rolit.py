"""``gamecore bench rolit`` (``core``, the default): the speed of the Rolit game core itself, per backend.

Prints, per backend: perft leaves per second from the four-player start (move generation
and make/unmake of the kernel, bulk-counted at the last ply) and plies per second of
uniformly random playouts to the end of the game (``RolitCore.playouts``: what an MCTS
playout does, with every move made and taken back), then the cython/python ratio of each.
Perft counts are checked against the table the tests keep (computed by the slow oracle).
"""

from __future__ import annotations

from functools import partial
from typing import TextIO

from ..games.rolit import Rolit
from . import _backends, median_seconds

__all__ = ["bench_rolit", "PERFT_DEPTH", "PLAYOUTS"]

#: Perft depth from the start per backend (and ``quick``: two plies less).
PERFT_DEPTH = {"cython": 8, "python": 6}
#: Random playouts from the start per backend.
PLAYOUTS = {"cython": 20_000, "python": 40}
#: Leaves from the four-player start, in the handout's order red, blue, yellow, green
#: (tests/data/rolit_perft.txt, the slow oracle's; 8 plies also the oracle's).
KNOWN_LEAVES = {4: 1332, 5: 7215, 6: 42157, 7: 340098, 8: 2747302}


def bench_rolit(out: TextIO, runs: int = 3, backend: str | None = None, quick: bool = False) -> None:
    """Perft leaves/s and random-playout plies/s per backend, and the cython/python ratios."""
    print("Rolit, four players from the start: perft leaves/s and random-playout plies/s", file=out)
    print(f"(medians of {runs} runs; a playout plays every move and takes it back)", file=out)
    print(f"{'backend':<8} {'perft':>6} {'leaves':>10} {'leaves/s':>13} {'playouts':>9} {'plies/s':>12}", file=out)
    rates: dict[str, tuple[float, float]] = {}
    for name in _backends(backend):
        depth = PERFT_DEPTH[name] - (2 if quick else 0)
        core = Rolit(backend=name).core
        seconds, leaves = median_seconds(partial(core.perft, depth), runs)
        if leaves != KNOWN_LEAVES[depth]:
            raise AssertionError(f"Rolit perft({depth}) on {name}: {leaves}, expected {KNOWN_LEAVES[depth]}")
        games = PLAYOUTS[name] // (10 if quick else 1)
        play_seconds, (plies, _keys) = median_seconds(partial(core.playouts, games, 1), runs)
        rates[name] = (leaves / seconds, plies / play_seconds)
        print(
            f"{name:<8} {depth:>6} {leaves:>10,} {rates[name][0]:>13,.0f} {games:>9,} {rates[name][1]:>12,.0f}",
            file=out,
        )
    if "cython" in rates and "python" in rates:
        perft_ratio = rates["cython"][0] / rates["python"][0]
        playout_ratio = rates["cython"][1] / rates["python"][1]
        print(f"cython/python: perft {perft_ratio:,.0f}x per leaf, playouts {playout_ratio:,.0f}x per ply", file=out)
