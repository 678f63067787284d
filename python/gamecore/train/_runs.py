"""What the training's long commands share (``train othello-label``, ``train othello-selfplay``):
jobs run in order, here, on processes of this machine or on a Dask cluster, and their lines
appended to a file that the next run goes on from.

- :func:`results_in_order` yields each job's result in the jobs' order, whichever worker
  finished it first (:func:`job_runner` keeps the processes or the cluster for several
  runs). On a Dask cluster (``scheduler``: ``tcp://HOST:8786``, or ``"local"`` for a
  ``LocalCluster`` of ``workers`` processes, the same Dask the referee's tournaments use) a
  worker that dies has its jobs run again by Dask.
- :func:`append_results` appends each result's lines to the output as it arrives, with a
  progress line every ten seconds; Ctrl-C stops it, keeping every line written (the next run
  skips what is there), and says so in the :class:`Run` it returns.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .._cli_types import count
from .._dask import dask_client

__all__ = ["Run", "job_runner", "results_in_order", "append_results", "add_workers_options", "lo_hi", "progress_lines"]

Job = TypeVar("Job")
Result = TypeVar("Result")

#: Jobs sent to a worker at a time: enough to hide the cost of sending, few enough to spread.
CHUNK = 20


@dataclass(frozen=True)
class Run:
    """What one run appended (jobs done, lines written) and whether Ctrl-C stopped it."""

    jobs: int
    lines: int
    interrupted: bool


def _leave_ctrl_c_to_the_parent() -> None:
    """A worker process ignores Ctrl-C: the parent stops the run, keeps what is written and
    ends the pool (each worker would otherwise die printing its traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(function: Callable[[Job], Result], chunk: Sequence[Job]) -> list[Result]:
    return [function(job) for job in chunk]


@contextlib.contextmanager
def job_runner(
    workers: int = 1, scheduler: str | None = None
) -> Iterator[Callable[[Callable[[Job], Result], Sequence[Job]], Iterator[Result]]]:
    """A ``run(function, jobs)`` that yields ``function(job)`` of every job in the jobs'
    order: in this process (one worker, no scheduler), in ``workers`` processes, or on the
    Dask cluster of ``scheduler``; the processes or the cluster are started once, for every
    ``run`` inside the ``with``. ``function`` must be a module's function (it travels to the
    workers by name)."""

    def chunked(function: Callable[[Job], Result], jobs: Sequence[Job]) -> tuple[Any, list[Sequence[Job]]]:
        return functools.partial(_run_chunk, function), [jobs[i : i + CHUNK] for i in range(0, len(jobs), CHUNK)]

    if scheduler:
        with dask_client(scheduler, workers) as client:

            def on_cluster(function: Callable[[Job], Result], jobs: Sequence[Job]) -> Iterator[Result]:
                run_chunk, chunks = chunked(function, jobs)
                futures = client.map(run_chunk, chunks, pure=False)
                try:
                    for future in futures:
                        yield from future.result()
                finally:
                    client.cancel(futures)

            yield on_cluster
    elif workers == 1:
        yield lambda function, jobs: map(function, jobs)
    else:
        import multiprocessing  # noqa: PLC0415

        with multiprocessing.get_context("spawn").Pool(workers, initializer=_leave_ctrl_c_to_the_parent) as pool:

            def on_processes(function: Callable[[Job], Result], jobs: Sequence[Job]) -> Iterator[Result]:
                run_chunk, chunks = chunked(function, jobs)
                for done in pool.imap(run_chunk, chunks):
                    yield from done

            yield on_processes


def results_in_order(
    function: Callable[[Job], Result],
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    scheduler: str | None = None,
) -> Iterator[Result]:
    """``function(job)`` of every job, in the jobs' order, on a :func:`job_runner` of its own."""
    with job_runner(workers, scheduler) as run:
        yield from run(function, jobs)


def append_results(
    out_path: str,
    header: str,
    results: Iterator[list[str]],
    total: int,
    say: Callable[[str], None] | None,
    what: str = "jobs",
    line_unit: str = "",
) -> Run:
    """Append each result's lines to ``out_path`` (``header`` first when the file is new),
    flushing after each, until ``results`` ends or Ctrl-C stops it. Progress counts ``what``
    (the jobs) and, when ``line_unit`` names them, the lines."""
    done = lines = 0
    started = last = time.perf_counter()
    with open(out_path, "a", encoding="utf-8") as out:
        if out.tell() == 0:
            print(header, file=out)
        try:
            for result in results:
                for line in result:
                    print(line, file=out)
                out.flush()
                done += 1
                lines += len(result)
                now = time.perf_counter()
                if say is not None and now - last >= 10:
                    last = now
                    rate = done / (now - started)
                    left = (total - done) / rate if rate else 0
                    written = f", {lines} {line_unit}" if line_unit else ""
                    say(f"{done}/{total} {what}{written}, about {left / 60:.0f} min left")
        except KeyboardInterrupt:
            if say is not None:
                say("interrupted: what is written stays; run again to go on")
            return Run(done, lines, interrupted=True)
    return Run(done, lines, interrupted=False)


def add_workers_options(parser: Any) -> None:
    """``--workers N`` and ``--scheduler ADDRESS`` of a command that runs through :func:`results_in_order`."""
    parser.add_argument(
        "--workers", type=count, default=1, help="processes, or a local Dask cluster's workers (default 1)"
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster: tcp://HOST:8786, or 'local' for a LocalCluster of --workers processes "
        '(pip install "gamecore[cluster]")',
    )


def lo_hi(what: str, example: str) -> Callable[[str], tuple[int, int]]:
    """An argparse type reading ``LO-HI`` (or one number) as ``(LO, HI)``."""

    def read(text: str) -> tuple[int, int]:
        try:
            lo, _, hi = text.partition("-")
            return int(lo), int(hi or lo)
        except ValueError:
            raise argparse.ArgumentTypeError(f"give {what} as LO-HI, e.g. {example}, not {text!r}") from None

    return read


def progress_lines(quiet: bool) -> Callable[[str], None] | None:
    """Where a command's progress lines go: standard error, or nowhere with ``--quiet``."""
    if quiet:
        return None
    return lambda text: print(text, file=sys.stderr, flush=True)
