"""The Dask cluster every distributed command uses (``--scheduler``): the referee's tournaments
(:mod:`gamecore.referee.cluster`), ``gamecore solve`` and the training's self-play and labels
(:mod:`gamecore.train._runs`). Dask is the optional ``cluster`` extra, imported only here and
only when a command is given a scheduler.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .errors import GamecoreError

__all__ = ["dask_client"]


@contextlib.contextmanager
def dask_client(scheduler: str, workers: int) -> Iterator[Any]:
    """A ``distributed.Client`` of the cluster at ``scheduler``, or of a ``LocalCluster`` of
    ``workers`` one-thread processes when ``scheduler`` is ``"local"``, for a ``with``."""
    try:
        from dask.distributed import Client, LocalCluster  # noqa: PLC0415 (optional extra)
    except ImportError:
        raise GamecoreError('--scheduler needs Dask: pip install "gamecore[cluster]"') from None
    if scheduler == "local":
        with (
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(scheduler, timeout="20s")
    except (OSError, TimeoutError) as error:  # no scheduler there: one clear error, not a traceback
        raise GamecoreError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    with client:
        yield client
