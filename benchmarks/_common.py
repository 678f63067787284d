"""Timing helpers shared by the benchmark scripts: medians of repeated runs."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_seconds(work: Callable[[], object], runs: int) -> tuple[float, object]:
    """Median wall time of ``runs`` calls of ``work`` and the last call's result."""
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def available_backends() -> list[str]:
    from gamecore import _backend
    from gamecore.errors import BackendUnavailableError

    names = []
    for name in _backend.BACKENDS:
        try:
            _backend.load(name)
        except BackendUnavailableError:
            continue
        names.append(name)
    return names
