"""Games on a Dask distributed cluster (the client comes from :mod:`gamecore._dask`, the one place
that makes one for every ``--scheduler`` command).

Install the extra on the referee's machine and on every worker: ``pip install "gamecore[cluster]"``.
Start a scheduler and workers, one thread per worker process so that each game has a core::

    dask scheduler                                   # prints tcp://HOST:8786
    dask worker tcp://HOST:8786 --nworkers 8 --nthreads 1   # on each machine (as root for the sandbox)
    gamecore tournament ... --scheduler tcp://HOST:8786

Each task carries its game's bots (their files travel inside the task, so the workers need no
shared filesystem, only gamecore); the worker plays the game in its own sandbox and returns
the record, which the referee writes into its database as it arrives. ``--scheduler local``
starts a ``LocalCluster`` on this machine (``--workers`` processes, one thread each).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from .._dask import dask_client
from .play import play_game
from .rules import GameRecord, Task
from .sandbox import become_subreaper

__all__ = ["run_on_dask", "local_cluster", "dask_available"]


def dask_available() -> bool:
    try:
        import dask.distributed  # noqa: F401, PLC0415 (optional extra)
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def local_cluster(workers: int = 2) -> Iterator[str]:
    """A ``LocalCluster`` of ``workers`` one-thread processes for the length of a ``with``; yields its address."""
    from dask.distributed import LocalCluster  # noqa: PLC0415 (optional extra)

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _play_on_worker(task: Task) -> GameRecord:
    become_subreaper()
    return play_game(task)


def run_on_dask(
    tasks: list[Task], scheduler: str, store: Callable[[GameRecord], None], *, workers: int | None = None
) -> None:
    """Play ``tasks`` on the cluster at ``scheduler`` (``"local"``: a ``LocalCluster`` of
    ``workers``), storing each record as it arrives; a game that failed is raised at the end."""
    with dask_client(scheduler, workers or 2) as client:
        from dask.distributed import as_completed  # noqa: PLC0415 (optional extra: dask_client checked it)

        futures = [
            client.submit(_play_on_worker, task, key=f"gamecore-game-{task['key']}-{task['seed']}", pure=False)
            for task in tasks
        ]
        failure: BaseException | None = None
        for future in as_completed(futures):
            try:
                record = future.result()
            except Exception as exc:  # noqa: BLE001 (raised below, once the other games are stored)
                failure = failure or exc
                continue
            store(record)
        if failure:
            raise failure
