"""Multi-ProbCut's parameters: the shipped fits, and the searchers' table made from them.

Plain Python shared by both backends (as ``_options``): it runs once per search, not in it.

A fit (``gamecore/data/othello{size}.mpc.json``, written by ``gamecore train othello-mpc``,
``gamecore.train.mpc``) holds, per stage of the game (a range of empty squares) and per
remaining depth ``d`` that probes, the linear fit ``v_d = a * v_d' + b + e`` of the values
of a ``d``-ply search against those of the ``d'``-ply one (``shallow_depth(d)``), ``e``'s
standard deviation ``sigma``, and the cut threshold ``t`` the fit chose. :func:`mpc_table`
turns it into the ``MPCTable`` the searchers read (``_options.check_mpc``): one row per number
of empty squares, one column per depth.
"""

from __future__ import annotations

import functools
import os
from typing import Any

from ._options import MPC_DEPTHS, MPC_EMPTIES, MPC_MIN_DEPTH, MPC_SCALE, WIN, MPCTable

__all__ = ["shallow_depth", "load_fit", "mpc_table", "table_for", "fit_name"]


def shallow_depth(depth: int) -> int:
    """The probe's depth for a node of remaining ``depth``: about half of it, of the same
    parity (as Edax: ``2 * floor(depth / 4) + depth % 2``, or ``depth - 2`` when that is 0)."""
    shallow = 2 * (depth // 4) + depth % 2
    return shallow if shallow > 0 else depth - 2


def fit_name(n: int) -> str:
    return f"othello{n}.mpc.json"


def _data_path(name: str) -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", name)


@functools.cache
def load_fit(n: int) -> dict[str, Any] | None:
    """The shipped fit of an n x n board, or None when none is shipped."""
    import json  # noqa: PLC0415 (read on first use: importing gamecore stays as cheap as it was)

    try:
        with open(_data_path(fit_name(n))) as f:
            fit: dict[str, Any] = json.load(f)
    except FileNotFoundError:
        return None
    return fit


def mpc_table(fit: dict[str, Any], t: float | None = None) -> MPCTable:
    """The searchers' table of a fit, with its threshold ``t`` (or the one given).

    A number of empty squares outside every fitted stage takes the nearest stage's fit; a
    depth without a fit does not probe; nor does a fit whose slope is not positive."""
    threshold = float(fit["t"] if t is None else t)
    shallow = [0] * MPC_DEPTHS
    slope = [0] * (MPC_EMPTIES * MPC_DEPTHS)
    high = [0] * (MPC_EMPTIES * MPC_DEPTHS)
    low = [0] * (MPC_EMPTIES * MPC_DEPTHS)
    by_depth: dict[int, list[dict[str, Any]]] = {}
    for entry in fit["fits"]:
        by_depth.setdefault(int(entry["depth"]), []).append(entry)
    limit = WIN // 4
    for depth, entries in by_depth.items():
        if not MPC_MIN_DEPTH <= depth < MPC_DEPTHS:
            continue
        shallow[depth] = int(entries[0]["shallow"])
        for empties in range(MPC_EMPTIES):
            entry = min(entries, key=lambda e: (_distance(empties, e["empties"]), e["empties"][0]))
            a, b, sigma = float(entry["a"]), float(entry["b"]), float(entry["sigma"])
            scaled = round(a * MPC_SCALE)
            if scaled <= 0:
                continue
            slot = empties * MPC_DEPTHS + depth
            slope[slot] = min(scaled, 64 * MPC_SCALE)
            high[slot] = max(-limit, min(limit, round(threshold * sigma - b)))
            low[slot] = max(-limit, min(limit, round(-threshold * sigma - b)))
    return shallow, slope, high, low


def _distance(empties: int, span: list[int]) -> int:
    low, high = span
    return low - empties if empties < low else empties - high if empties > high else 0


@functools.cache
def _shipped_table(n: int, t: float | None) -> MPCTable | None:
    fit = load_fit(n)
    return None if fit is None else mpc_table(fit, t)


def table_for(n: int, t: float | None = None) -> MPCTable | None:
    """The table of the shipped fit of an n x n board (made once per size and threshold)."""
    return _shipped_table(n, t)
