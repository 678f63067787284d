"""Games played in worker processes, for the strength commands' ``--jobs N``.

The workers are fresh interpreters (``spawn``: no copied threads or locks). They ignore SIGINT:
Ctrl-C reaches the command, and leaving :func:`run_games` in any way (done, an error,
KeyboardInterrupt, the caller dropping the iterator) terminates them. And they end when the
command's process dies without that cleanup (SIGTERM, SIGKILL): on Linux the kernel sends them
SIGKILL then (``PR_SET_PDEATHSIG``), elsewhere a watcher thread notices within a second. No
worker plays on for nobody.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["run_games"]

#: Linux's prctl option: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1


def run_games(
    function: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], jobs: int, *, ordered: bool = True
) -> Iterator[Any]:
    """``function(*args)`` for each of ``arguments``: in this process when ``jobs`` is 1, else
    in ``min(jobs, len(arguments))`` worker processes (``function`` must be a module-level
    function), the results in the order of ``arguments`` (``ordered``) or as they finish."""
    if jobs <= 1 or len(arguments) <= 1:
        for args in arguments:
            yield function(*args)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(arguments)), initializer=_start_worker, initargs=(os.getpid(),)) as pool:
        calls = [(function, args) for args in arguments]
        yield from pool.imap(_call, calls) if ordered else pool.imap_unordered(_call, calls)


def _call(call: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    function, args = call
    return function(*args)


def _start_worker(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # no prctl: the watcher below still ends the worker
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="gamecore-parent-watch").start()


def _watch_parent(parent: int) -> None:
    """End this worker when its parent is gone (then it is re-parented: another ppid)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
