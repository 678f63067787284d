"""One resource group per bot: every process of the bot, however started, shares one CPU cap,
one memory cap and one process cap, and the whole group is killed at the end of its game.

Cgroups v1 (the ``cpu``, ``memory``, ``pids`` and ``freezer`` controllers, each mounted under
``/sys/fs/cgroup/<controller>``) or v2 (the unified hierarchy at ``/sys/fs/cgroup``), told
apart at run time. As nsjail does, a bot's group sits under the referee's own group of each
controller (read from ``/proc/self/cgroup``), in a folder ``gamecore``, so the limits a machine
puts on the referee still bound its bots. A group is named after the referee process that made
it (``<pid>.<start time>.<n>``). A bot is frozen between its turns, and a frozen process cannot
die of a signal until it is thawed (v1), so a referee killed with -9 would leave its bots frozen
for good: each referee process has a watcher (:func:`watch_this_referee`), a small process in a
session of its own that waits for the end of a pipe only the referee holds and then kills and
removes that referee's groups. A referee also sweeps the groups of dead referees under the same
parent when it starts (:func:`sweep_stale`), for a watcher killed with it.

- CPU: a CFS quota equal to its period, one core's worth however many processes the bot runs
  (``cpu.cfs_quota_us = cpu.cfs_period_us``; v2 ``cpu.max``);
- memory: ``memory.limit_in_bytes`` and, where swap accounting is on,
  ``memory.memsw.limit_in_bytes`` to the same value (v2 ``memory.max``, ``memory.swap.max = 0``);
  the kernel's OOM killer acts inside the group only. The bot's tmpfs pages count too;
- processes: ``pids.max`` (threads count);
- killing: freeze the group (nothing can fork any more), SIGKILL every pid in it, thaw (v1
  delivers a kill to frozen tasks on thaw), wait until it is empty; v2 ``cgroup.kill`` where
  the kernel has it.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

__all__ = [
    "BotGroup",
    "hierarchy",
    "sweep_stale",
    "sweep_referee",
    "watch_this_referee",
    "watcher_pid",
    "start_time",
    "ROOT",
]

ROOT = "/sys/fs/cgroup"
V1_CONTROLLERS = ("cpu", "memory", "pids", "freezer")
_FOLDER = "gamecore"
_PERIOD_US = 100_000
_numbers = itertools.count()


def hierarchy() -> str | None:
    """``"v2"`` on a unified hierarchy, ``"v1"`` when the four v1 controllers are mounted, else None."""
    if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):
        return "v2"
    if all(os.path.exists(os.path.join(ROOT, c, "cgroup.procs")) for c in V1_CONTROLLERS):
        return "v1"
    return None


def _own_path(controller: str | None) -> str:
    """This process's group in ``controller``'s hierarchy (None: the v2 one)."""
    with open("/proc/self/cgroup", encoding="utf-8") as fh:
        for line in fh:
            _, names, path = line.rstrip("\n").split(":", 2)
            if (controller is None and names == "") or (controller and controller in names.split(",")):
                return path.lstrip("/")
    raise OSError(f"this process is in no {controller or 'v2'} cgroup")


def start_time(pid: int) -> str | None:
    """Process ``pid``'s start time (clock ticks since boot; None if it is gone): with the pid,
    it names a process for good (pids are reused)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as fh:
        fh.write(value)


def _read(path: str) -> str:
    with open(path, encoding="ascii") as fh:
        return fh.read()


def _parents(version: str) -> list[str]:
    """The ``gamecore`` folders bots' groups go in, one per hierarchy."""
    if version == "v2":
        return [os.path.join(ROOT, _own_path(None), _FOLDER)]
    return [os.path.join(ROOT, c, _own_path(c), _FOLDER) for c in V1_CONTROLLERS]


def _weigh(version: str, parent: str) -> None:
    """Give the ``gamecore`` folder of the CPU hierarchy the weight of one process per core: all
    bots share it, and with the default weight of one process they would together get no more
    CPU than any single process of the machine (a loaded machine would starve them)."""
    if version == "v2":
        name, value = "cpu.weight", min(10_000, 100 * (os.cpu_count() or 1))
    elif parent.startswith(os.path.join(ROOT, "cpu") + "/"):
        name, value = "cpu.shares", 1024 * (os.cpu_count() or 1)
    else:
        return
    path = os.path.join(parent, name)
    if os.path.exists(path):
        _write(path, str(value))


class BotGroup:
    """The cgroup(s) of one bot. Raises ``OSError`` when a group cannot be made or limited."""

    def __init__(self, *, memory_bytes: int, pids: int) -> None:
        version = hierarchy()
        if version is None:
            raise OSError(f"no usable cgroup hierarchy under {ROOT}")
        self.version = version
        self.name = f"{os.getpid()}.{start_time(os.getpid())}.{next(_numbers)}"
        self.dirs: list[str] = []
        try:
            for parent in _parents(version):
                if version == "v2" and not os.path.isdir(parent):
                    os.makedirs(parent, exist_ok=True)
                    _write(os.path.join(os.path.dirname(parent), "cgroup.subtree_control"), "+cpu +memory +pids")
                    _write(os.path.join(parent, "cgroup.subtree_control"), "+cpu +memory +pids")
                os.makedirs(parent, exist_ok=True)
                _weigh(version, parent)
                path = os.path.join(parent, self.name)
                os.mkdir(path)
                self.dirs.append(path)
            self._limit(memory_bytes, pids)
            watch_this_referee()
        except OSError:
            self.remove()
            raise

    def _file(self, controller: str, name: str) -> str:
        if self.version == "v2":
            return os.path.join(self.dirs[0], name)
        return os.path.join(self.dirs[V1_CONTROLLERS.index(controller)], name)

    def _limit(self, memory_bytes: int, pids: int) -> None:
        if self.version == "v2":
            _write(self._file("cpu", "cpu.max"), f"{_PERIOD_US} {_PERIOD_US}")
            _write(self._file("memory", "memory.max"), str(memory_bytes))
            if os.path.exists(self._file("memory", "memory.swap.max")):
                _write(self._file("memory", "memory.swap.max"), "0")
            _write(self._file("pids", "pids.max"), str(pids))
            return
        _write(self._file("cpu", "cpu.cfs_period_us"), str(_PERIOD_US))
        _write(self._file("cpu", "cpu.cfs_quota_us"), str(_PERIOD_US))
        _write(self._file("memory", "memory.limit_in_bytes"), str(memory_bytes))
        if os.path.exists(self._file("memory", "memory.memsw.limit_in_bytes")):
            _write(self._file("memory", "memory.memsw.limit_in_bytes"), str(memory_bytes))
        _write(self._file("pids", "pids.max"), str(pids))

    def add(self, pid: int) -> None:
        """Move process ``pid`` (one that has not forked yet) into every controller's group."""
        for path in self.dirs:
            _write(os.path.join(path, "cgroup.procs"), str(pid))

    def pids(self) -> list[int]:
        """Every process of the group (the ``pids`` controller's view)."""
        try:
            text = _read(self._file("pids", "cgroup.procs"))
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def read(self, controller: str, name: str) -> str:
        """A control file of the group, e.g. ``read("cpu", "cpu.stat")`` (tests, diagnostics)."""
        return _read(self._file(controller, name))

    def freeze(self, frozen: bool = True) -> None:
        if self.version == "v2":
            _write(os.path.join(self.dirs[0], "cgroup.freeze"), "1" if frozen else "0")
        else:
            _write(self._file("freezer", "freezer.state"), "FROZEN" if frozen else "THAWED")

    def kill(self, wait: float = 10.0) -> bool:
        """Kill every process of the group; True once it is empty (within ``wait`` seconds)."""
        return _kill_group(self.version, self.dirs, wait)

    def remove(self) -> None:
        """Remove the group's folders (after :meth:`kill`; a folder still in use stays)."""
        for path in reversed(self.dirs):
            _rmdir(path)
        self.dirs = []


def _rmdir(path: str) -> None:
    # A killed process leaves its group a moment after it is reaped: on a loaded machine that
    # moment took more than half a second (a soak left groups behind), so wait up to 3 s.
    deadline = time.monotonic() + 3.0
    while True:
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


def _kill_group(version: str, dirs: list[str], wait: float) -> bool:
    if not dirs:
        return True
    procs = os.path.join(dirs[0] if version == "v2" else dirs[V1_CONTROLLERS.index("pids")], "cgroup.procs")
    freezer = (
        os.path.join(dirs[0], "cgroup.freeze")
        if version == "v2"
        else os.path.join(dirs[V1_CONTROLLERS.index("freezer")], "freezer.state")
    )
    kill_file = os.path.join(dirs[0], "cgroup.kill")
    deadline = time.monotonic() + wait
    while True:
        try:
            pids = [int(p) for p in _read(procs).split()]
        except OSError:
            return True
        if not pids:
            return True
        if time.monotonic() > deadline:
            return False
        if version == "v2" and os.path.exists(kill_file):
            _write(kill_file, "1")
        else:
            try:
                _write(freezer, "1" if version == "v2" else "FROZEN")
            except OSError:
                pass
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                _write(freezer, "0" if version == "v2" else "THAWED")
            except OSError:
                pass
        time.sleep(0.005)


def sweep_stale() -> int:
    """Kill and remove the bots' groups left by referees that died (SIGKILL, power loss) under
    this referee's parent groups; returns how many groups it removed."""

    def dead(name: str) -> bool:
        pid, _, rest = name.partition(".")
        return pid.isdigit() and start_time(int(pid)) != rest.partition(".")[0]

    return _sweep(dead)


def sweep_referee(pid: int, started: str) -> int:
    """Kill and remove every bot group of referee process ``pid`` started at ``started`` (what
    its watcher does once the referee is gone); returns how many groups it removed."""
    return _sweep(lambda name: name.startswith(f"{pid}.{started}."))


# The watcher: ``python -c`` in a session of its own, reading a pipe whose write end only the
# referee process holds (closed in forked children); end of file means the referee is gone.
_WATCHER = """
import sys
sys.stdin.buffer.read()
from gamecore.referee import cgroups
cgroups.sweep_referee(int(sys.argv[1]), sys.argv[2])
"""
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_watch_lock = threading.Lock()
_watching: dict[int, tuple[int, int]] = {}  # referee pid -> (watcher pid, write end of its pipe)


def _forget_watcher_in_child() -> None:
    for _, write in _watching.values():
        try:
            os.close(write)  # a forked worker must not keep its parent's watcher waiting
        except OSError:
            pass
    _watching.clear()


os.register_at_fork(after_in_child=_forget_watcher_in_child)


def watch_this_referee() -> None:
    """Start this referee process's watcher (once per process): when the referee ends in any
    way, even killed with -9, the watcher kills and removes its bots' groups."""
    me = os.getpid()
    with _watch_lock:
        if me in _watching:
            return
        read, write = os.pipe()
        try:
            watcher = subprocess.Popen(
                [sys.executable, "-c", _WATCHER, str(me), str(start_time(me))],
                stdin=read,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # not killed with the referee's process group
                close_fds=True,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": _PACKAGE_PARENT},
            )
        finally:
            os.close(read)
        _watching[me] = (watcher.pid, write)


def watcher_pid() -> int | None:
    """The pid of this process's watcher, if it has one (it is the referee's own child)."""
    entry = _watching.get(os.getpid())
    return entry[0] if entry else None


def _sweep(select: Callable[[str], bool]) -> int:
    version = hierarchy()
    if version is None:
        return 0
    try:
        parents = _parents(version)
    except OSError:
        return 0
    # a group's folders in the order of the parents (V1_CONTROLLERS for v1), "" where absent
    stale: dict[str, list[str]] = {}
    for index, parent in enumerate(parents):
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        for name in names:
            if not select(name):
                continue
            if os.path.isdir(os.path.join(parent, name)):
                stale.setdefault(name, [""] * len(parents))[index] = os.path.join(parent, name)
    for dirs in stale.values():
        if all(dirs):
            _kill_group(version, dirs, 10.0)
        for path in dirs:
            if path:
                _rmdir(path)
    return len(stale)
