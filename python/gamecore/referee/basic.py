"""``basic`` isolation's side of the referee: it is the child subreaper of its bots' processes,
knows the hosts it started by pid, and after each game kills every other child of its own (the
bots' re-parented orphans, whatever session or environment they made for themselves); once
per referee process it removes what referees killed with -9 left behind.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from typing import Any

from . import cgroups

__all__ = ["become_subreaper", "sweep_orphans", "sweep_stale", "start_registered", "forget"]

_PR_SET_CHILD_SUBREAPER = 36
_live_lock = threading.Lock()
_live: set[int] = set()  # pids of the hosts this process started and has not reaped yet
_own_children: set[int] = set()  # children this process had when it became a subreaper


def start_registered(command: list[str], **options: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(command, **options)``, its pid known as a live host before any sweep
    can see it (:func:`sweep_orphans` looks under the same lock)."""
    with _live_lock:
        proc = subprocess.Popen(command, **options)
        _live.add(proc.pid)
    return proc


def forget(pid: int) -> None:
    """``pid`` is reaped: no longer a live host."""
    with _live_lock:
        _live.discard(pid)


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux); True on success. The
    children it has now are its own (worker processes...), never swept as a bot's orphans."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):  # pragma: no cover
        return False
    with _live_lock:
        _own_children.update(pid for pid in _children(os.getpid()) if pid not in _live)
    return True


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _own_processes() -> set[int]:
    """Children this process started for itself, by pid: those it had when it became a
    subreaper and those :mod:`multiprocessing` started (never something a bot can claim)."""
    own = set(_own_children)
    own.update(p.pid for p in multiprocessing.active_children() if p.pid)
    watcher = cgroups.watcher_pid()
    if watcher:
        own.add(watcher)
    tracker = getattr(getattr(multiprocessing, "resource_tracker", None), "_resource_tracker", None)
    tracker_pid = getattr(tracker, "_pid", None)
    if tracker_pid:
        own.add(tracker_pid)
    return own


def sweep_orphans() -> int:
    """Kill and reap every child of this process that is neither a live bot host it started
    nor one of its own processes (:func:`_own_processes`): orphans of killed bots re-parented
    to this subreaper, e.g. ``setsid`` children, whatever their environment. Returns how many."""
    if not os.path.isdir("/proc"):
        return 0  # pragma: no cover
    killed = 0
    for _ in range(20):  # children of the orphans become orphans in turn
        with _live_lock:  # a host is started and registered under this lock: never seen half-way
            keep = _live | _own_processes()
            strays = [pid for pid in _children(os.getpid()) if pid not in keep]
            for pid in strays:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
        if not strays:
            break
        for pid in strays:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    return killed


_swept = False


def sweep_stale() -> None:
    """Once per referee process: remove what referees killed with -9 left behind, the bots'
    cgroups (:func:`gamecore.referee.cgroups.sweep_stale`) and ``basic`` folders in the temporary
    directory."""
    global _swept
    with _live_lock:
        if _swept:
            return
        _swept = True
    if os.geteuid() == 0 and cgroups.hierarchy():
        try:
            cgroups.sweep_stale()
        except OSError:
            pass
    folder = tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.startswith("gamecore-bot-"):
            continue
        owner = name[len("gamecore-bot-") :].partition("-")[0]
        pid, _, started = owner.partition(".")
        if not pid.isdigit() or not started:
            continue
        if cgroups.start_time(int(pid)) != started:  # its referee is gone
            shutil.rmtree(os.path.join(folder, name), ignore_errors=True)
