"""Starting, talking to and killing a bot host under the referee's isolation.

Every bot of every game gets its own host process (:mod:`gamecore.referee.host`), started in a
new session (so its own process group) with:

- **namespaces** (Linux, root, ``unshare`` found; checked once): ``unshare --pid --fork
  --kill-child --net --mount --mount-proc``. The host is PID 1 of its own PID namespace, so when
  the referee kills it *every* process the bot started dies with it, even children that
  called ``setsid`` or double-forked; it has no network (a fresh network namespace with only a
  loopback device that is down); its mounts (tmpfs working directory, hidden paths) are private;
  it runs as a uid of its own with ``RLIMIT_NPROC``.
- **fallback** (no root, no ``unshare``, or ``isolation="basic"``): the host still gets its own
  session, scrubbed environment, private temporary directory and resource limits, but no
  network fence and no uid of its own. Children that leave the process group are caught
  because the referee process is a *child subreaper* (``PR_SET_CHILD_SUBREAPER``): orphans are
  re-parented to it and :func:`sweep_orphans` kills every child it did not start after each
  game. Documented limits of the fallback: the bot can open sockets and read what the
  referee's user can read (keep the database ``0600``, which the referee does).

The deadline is the referee's: :meth:`BotProcess.request` waits at most the time it is given
and, on expiry, the caller kills the whole group with ``os.killpg(..., SIGKILL)``.
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

__all__ = [
    "Limits",
    "BotProcess",
    "namespaces_available",
    "sweep_orphans",
    "become_subreaper",
    "ReplyError",
    "SandboxError",
]

_PR_SET_CHILD_SUBREAPER = 36
_MAX_LINE = 1 << 16
_UNSHARE = ["unshare", "--pid", "--fork", "--kill-child", "--net", "--mount", "--mount-proc"]
_namespaces: bool | None = None
_live_lock = threading.Lock()
_live: set[int] = set()  # pids of the hosts this process started and has not reaped yet
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Limits:
    """Resource limits of a bot host (bytes and seconds)."""

    def __init__(
        self, memory_mb: int = 1024, cpu_s: int = 600, file_mb: int = 16, disk_mb: int = 64, nproc: int = 64
    ) -> None:
        self.memory_mb = memory_mb
        self.cpu_s = cpu_s
        self.file_mb = file_mb
        self.disk_mb = disk_mb
        self.nproc = nproc

    def as_dict(self) -> dict:
        return {"memory": self.memory_mb << 20, "cpu": self.cpu_s, "fsize": self.file_mb << 20, "nproc": self.nproc}


def namespaces_available() -> bool:
    """Whether bots can run in their own PID, network and mount namespaces (checked once)."""
    global _namespaces
    if _namespaces is None:
        ok = False
        if sys.platform.startswith("linux") and os.geteuid() == 0 and shutil.which("unshare"):
            try:
                ok = subprocess.run(_UNSHARE + ["true"], capture_output=True, timeout=20).returncode == 0
            except (OSError, subprocess.SubprocessError):
                ok = False
        _namespaces = ok
    return _namespaces


def become_subreaper() -> bool:
    """Make this process the child subreaper of its descendants (Linux); True on success."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):  # pragma: no cover
        return False


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


def sweep_orphans() -> int:
    """Kill and reap every child of this process that is not a live bot host it started
    (orphans of killed bots re-parented to this subreaper, e.g. ``setsid`` children).
    Returns how many it killed."""
    if not os.path.isdir("/proc"):
        return 0  # pragma: no cover
    killed = 0
    for _ in range(20):  # children of the orphans become orphans in turn
        with _live_lock:
            live = set(_live)
        strays = [pid for pid in _children(os.getpid()) if pid not in live and not _is_ours(pid)]
        if not strays:
            break
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
        for pid in strays:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    return killed


def _is_ours(pid: int) -> bool:
    """Children the referee started for itself (worker processes, a Dask nanny...), not bots:
    they are not in a session of a bot host, recognised by the marker in their environment."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return b"GAMECORE_BOT=1" not in fh.read()
    except OSError:
        return True


class SandboxError(RuntimeError):
    """The referee could not build a bot's sandbox (a tool missing, a cgroup write refused, the
    host failing before the bot's code ran): the referee's own failure, never the bot's forfeit."""


class ReplyError(Exception):
    """No usable reply: ``reason`` is ``timeout``, ``crash`` or ``protocol``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class BotProcess:
    """One running bot host and its channel (requests to its fd 0, replies from the fd named in its
    configuration; an external program gets that channel on fd 3)."""

    def __init__(
        self,
        bot: dict,
        *,
        isolation: str = "auto",
        limits: Limits | None = None,
        hide: list[str] | None = None,
        uid: int | None = None,
    ) -> None:
        limits = limits or Limits()
        use_ns = isolation != "basic" and namespaces_available()
        if isolation == "namespaces" and not use_ns:
            raise SandboxError("namespaces isolation asked for, but unshare --pid --net --mount is not available here")
        self.isolated = use_ns
        self.base = tempfile.mkdtemp(prefix="gamecore-bot-")
        stage = os.path.join(self.base, "stage")
        os.makedirs(stage)
        for rel, data in (bot.get("files") or {}).items():
            path = os.path.join(stage, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(data)
            if rel == (bot.get("command") or [None])[0]:
                os.chmod(path, 0o755)
        if not use_ns:
            uid = None
        elif uid is None:
            uid = 1_000_000 + (os.getpid() * 1024 + next(_uids) % 1024) % 2_000_000_000
        if uid is not None:
            os.chmod(self.base, 0o711)  # the bot may enter base/work only
        bot_for_host = {k: v for k, v in bot.items() if k != "files"}
        if bot.get("kind") == "external":
            bot_for_host["command"] = [os.path.join(self.base, "work", bot["command"][0])] + list(bot["command"][1:])
        config = {
            "bot": bot_for_host,
            "base": self.base,
            "uid": uid,
            "private_mounts": use_ns,
            "disk_mb": limits.disk_mb,
            "limits": limits.as_dict(),
            "hide": list(hide or []),
        }
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HOME": self.base,
            "TMPDIR": self.base,
            "PYTHONPATH": _PACKAGE_PARENT,
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",
            "PYTHONNOUSERSITE": "1",
            "GAMECORE_BOT": "1",
            "GAMECORE_REFEREE": str(os.getpid()),  # whose bot it is (tests look for strays by it)
        }
        if os.environ.get("GAMECORE_BACKEND"):
            env["GAMECORE_BACKEND"] = os.environ["GAMECORE_BACKEND"]
        req_read, self._req_write = os.pipe()
        self._rep_read, rep_write = os.pipe()
        config["reply_fd"] = rep_write
        command = [sys.executable, "-m", "gamecore.referee.host", json.dumps(config)]
        if use_ns:
            command = _UNSHARE + command
        if shutil.which("setpriv"):  # the bot dies with the referee's thread, even if the referee is SIGKILLed
            command = ["setpriv", "--pdeathsig", "KILL"] + command
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            command,
            stdin=req_read,
            stdout=subprocess.DEVNULL,
            stderr=None if os.environ.get("GAMECORE_REFEREE_DEBUG") else subprocess.DEVNULL,
            pass_fds=(rep_write,),
            start_new_session=True,
            env=env,
            cwd=self.base,
            close_fds=True,
        )
        with _live_lock:
            _live.add(self.proc.pid)
        os.close(req_read)
        os.close(rep_write)
        self._buffer = b""
        self.printed = 0

    def send(self, message: dict) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            while data:
                data = data[os.write(self._req_write, data) :]
        except (BrokenPipeError, OSError) as exc:
            raise ReplyError("crash", f"the bot closed its input ({exc})") from None

    def receive(self, timeout: float) -> dict:
        """The next reply, waiting at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReplyError("timeout", f"no reply within {timeout:.3f} s")
            ready, _, _ = select.select([self._rep_read], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._rep_read, 65536)
            if not chunk:
                raise ReplyError("crash", self._exit_detail())
            self._buffer += chunk
            if len(self._buffer) > _MAX_LINE:
                raise ReplyError("protocol", "a reply line over 64 KB")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise ReplyError("protocol", f"not a JSON line: {line[:80]!r}") from None
        if not isinstance(reply, dict):
            raise ReplyError("protocol", f"not a JSON object: {line[:80]!r}")
        printed = reply.get("printed")
        if isinstance(printed, int) and not isinstance(printed, bool):  # a bot's own field: trusted as far as its type
            self.printed = max(self.printed, printed)
        return reply

    def _exit_detail(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "the bot closed its reply channel"
        if code < 0:
            return f"the bot process died of signal {signal.Signals(-code).name}"
        return f"the bot process exited with status {code}"

    def kill(self) -> None:
        """Kill the host's whole process group (and with the PID namespace everything in it),
        reap it, sweep orphans and remove its directory."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
            pass
        with _live_lock:
            _live.discard(self.proc.pid)
        for fd in (self._req_write, self._rep_read):
            try:
                os.close(fd)
            except OSError:
                pass
        if not self.isolated:
            sweep_orphans()
        shutil.rmtree(self.base, ignore_errors=True)

    def close(self, grace: float = 0.0) -> None:
        """Ask the bot to end, then kill whatever is left (always)."""
        try:
            self.send({"type": "end"})
        except ReplyError:
            pass
        if grace:
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


def _counter() -> Any:
    n = 0
    while True:
        yield n
        n += 1


_uids = _counter()
