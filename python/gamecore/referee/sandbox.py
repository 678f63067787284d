"""Starting, talking to and killing a bot host under the referee's isolation.

Every bot of every game gets its own host process (:mod:`gamecore.referee.host`). The threat
model, and what each isolation mode does and does not protect, are in ``docs/referee.rst``.

``full`` (root, ``bwrap``, writable cgroups, libseccomp; what ``auto`` picks when it can):

- **one resource group** per bot (:mod:`gamecore.referee.cgroups`): one core's worth of CPU,
  one memory cap and one process cap for all its processes together. The host is put in the
  group before it can fork (a ``/bin/sh`` trampoline waits on a pipe until the referee has
  moved it, then ``exec``-s bubblewrap), and at the end of the game the group is frozen and
  every process in it killed, whatever session or process group it made for itself;
- **bubblewrap** (``bwrap``, what Flatpak uses) builds new PID, IPC, UTS, network, mount (and,
  where possible, cgroup) namespaces. bwrap's own init is PID 1, so the bot host is an
  ordinary process whose own signals kill it; ``--die-with-parent`` kills the sandbox when
  the referee's thread that started it dies (SIGKILL included: no bot outlives its referee).
  The mount view is a fresh tmpfs root holding only the Python runtime and the gamecore
  package (read-only), a fresh ``/proc``, ``/dev/null``, ``/dev/zero``, ``/dev/urandom``, and
  two small private tmpfs: ``/bot`` (the bot's files, its working directory) and ``/tmp``.
  No ``/sys``, ``/run``, ``/etc`` (but the loader's cache), home folders, host sockets or
  devices. bwrap hands the host only the capabilities it needs to unpack the files and drop
  to the bot's uid (CAP_CHOWN, CAP_SETUID, CAP_SETGID); the bot runs as a uid of its own
  with ``no_new_privs`` and the seccomp filter of :mod:`gamecore.referee.seccomp`;
- **staging** never touches the disk: the referee writes the bot's files into a memfd
  (:func:`os.memfd_create`, readable by nobody else) that the host unpacks into ``/bot``.

``basic`` (and ``auto`` where ``full`` is not possible) is **not a security boundary**: the
host gets its own session, a scrubbed environment, a private (0700) folder and rlimits, and
the referee, a child subreaper, kills re-parented orphans of the bots after each game
(:func:`sweep_orphans`, which knows the referee's own children by pid). It is for trusted
bots: as root it runs built-in players only, and drops them to a uid of their own too.

The deadline is the referee's: :meth:`BotProcess.receive` waits at most the time it is given
and the caller then kills the bot with :meth:`BotProcess.kill`.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import json
import multiprocessing
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ..errors import GamecoreError
from . import cgroups, seccomp
from .jail import ARCHIVE_MAGIC
from .rules import DEFAULT_RULES, BotSpec, HostConfig, Reply

__all__ = [
    "Limits",
    "BotProcess",
    "SandboxError",
    "ReplyError",
    "ISOLATION_MODES",
    "BASIC_WARNING",
    "resolve_isolation",
    "isolation_for",
    "full_isolation_missing",
    "namespaces_available",
    "bwrap_path",
    "sweep_orphans",
    "sweep_stale",
    "become_subreaper",
    "pack_files",
    "BOT_UID_BASE",
    "bot_uids",
]

#: What ``--isolation`` accepts (``namespaces`` is the old name of ``full``).
ISOLATION_MODES = ("auto", "full", "basic", "namespaces")
#: The one line the referee prints when bots run without the sandbox.
BASIC_WARNING = (
    "gamecore referee: isolation 'basic' is NOT a security boundary: run trusted bots only "
    "(untrusted submissions need --isolation full: root, bwrap, writable cgroups)"
)
#: Bots run as uids from here on (never root, never a uid of the machine's users).
BOT_UID_BASE = 1_000_000

_PR_SET_CHILD_SUBREAPER = 36
_MAX_LINE = 1 << 16
_BOT_DIR = "/bot"
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Waits for the referee's go (after it has moved this process into the bot's cgroups), then
# becomes bubblewrap: every process of the bot is born inside the group.
_TRAMPOLINE = 'read -r _ && exec "$@" </dev/null'
_live_lock = threading.Lock()
_live: set[int] = set()  # pids of the hosts this process started and has not reaped yet
_own_children: set[int] = set()  # children this process had when it became a subreaper
_uids = itertools.count()


class SandboxError(RuntimeError):
    """The referee could not build a bot's sandbox (a tool missing, a cgroup write refused, the
    host failing before the bot's code ran): the referee's own failure, never the bot's forfeit."""


class ReplyError(Exception):
    """No usable reply: ``reason`` is ``timeout``, ``crash`` or ``protocol``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class Limits:
    """Resource limits of a bot (megabytes, seconds, processes). ``memory_mb`` caps each process
    (RLIMIT_AS, so a big allocation fails with MemoryError) and, in ``full`` isolation, the
    whole bot (its cgroup); ``nproc`` caps the bot's processes and threads. The memory and disk
    defaults are the referee's (:data:`~gamecore.referee.rules.DEFAULT_RULES`)."""

    def __init__(
        self,
        memory_mb: int = DEFAULT_RULES.memory_mb,
        cpu_s: int = 600,
        file_mb: int = 16,
        disk_mb: int = DEFAULT_RULES.disk_mb,
        nproc: int = 64,
    ) -> None:
        self.memory_mb = memory_mb
        self.cpu_s = cpu_s
        self.file_mb = file_mb
        self.disk_mb = disk_mb
        self.nproc = nproc

    def as_dict(self) -> dict[str, int]:
        return {"memory": self.memory_mb << 20, "cpu": self.cpu_s, "fsize": self.file_mb << 20, "nproc": self.nproc}


# -- which isolation -------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def bwrap_path() -> str:
    """bubblewrap's absolute path, found once on the referee's ``PATH`` ("" when it is not
    there): the check and every launch run this same file, whatever ``PATH`` the launcher has."""
    found = shutil.which("bwrap")
    return os.path.abspath(found) if found else ""


@functools.lru_cache(maxsize=1)
def full_isolation_missing() -> str:
    """Why ``full`` isolation cannot run here ("" when it can; checked once)."""
    if not sys.platform.startswith("linux"):
        return "it needs Linux"
    if os.geteuid() != 0:
        return "it needs root"
    if not bwrap_path():
        return "bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    if not seccomp.seccomp_available():
        return "libseccomp is not installed (Debian/Ubuntu: apt-get install libseccomp2)"
    try:
        seccomp.filter_program()
        group = cgroups.BotGroup(memory_bytes=64 << 20, pids=8)
    except OSError as exc:
        return f"cannot make a cgroup with CPU, memory and process limits ({exc})"
    try:
        trial = subprocess.run(
            [bwrap_path(), *_NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc", "true"],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap cannot run ({exc})"
    finally:
        group.kill()
        group.remove()
    if trial.returncode != 0:
        return f"bwrap cannot make namespaces here: {trial.stderr.decode(errors='replace').strip()[:200]}"
    return ""


def namespaces_available() -> bool:
    """Whether ``full`` isolation (namespaces, cgroups, seccomp) can run here."""
    return not full_isolation_missing()


def resolve_isolation(requested: str) -> str:
    """``full`` or ``basic`` for an ``--isolation`` value; raises :class:`SandboxError` when
    ``full`` (or its old name ``namespaces``) is asked for and cannot run."""
    if requested not in ISOLATION_MODES:
        raise SandboxError(f"unknown isolation {requested!r} (one of {', '.join(ISOLATION_MODES)})")
    if requested == "basic":
        return "basic"
    missing = full_isolation_missing()
    if not missing:
        return "full"
    if requested == "auto":
        return "basic"
    raise SandboxError(f"isolation 'full' is not available: {missing}")


def isolation_for(requested: str, bots: Sequence[Mapping[str, Any]], stream: TextIO) -> str:
    """The isolation a run of ``bots`` gets (``full`` or ``basic``), checked before any game:
    ``basic`` says in one line on ``stream`` that it is no security boundary, and as root it
    refuses anything but built-in players. Raises :class:`~gamecore.errors.GamecoreError`."""
    try:
        mode = resolve_isolation(requested)
    except SandboxError as exc:
        raise GamecoreError(str(exc)) from None
    if mode == "basic":
        untrusted = sorted(b["name"] for b in bots if b.get("kind") != "builtin")
        if os.geteuid() == 0 and untrusted:
            why = full_isolation_missing() if requested == "auto" else "--isolation basic was asked for"
            raise GamecoreError(
                f"refusing to run submitted bots ({', '.join(untrusted[:5])}) as root without the sandbox "
                f"({why}): isolation 'basic' is not a security boundary"
            )
        print(BASIC_WARNING, file=stream)
    return mode


# -- staging: a bot's files travel in a memfd, never through a shared folder ------------------


def pack_files(files: Mapping[str, bytes] | Mapping[bytes, bytes]) -> int:
    """Write ``files`` (relative path -> bytes; paths as str or bytes) into a sealed memfd the
    host unpacks; returns its fd (inheritable, the caller closes it)."""
    fd = os.memfd_create("gamecore-bot-files", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        with os.fdopen(os.dup(fd), "wb") as out:
            out.write(ARCHIVE_MAGIC)
            for path, data in files.items():
                name = os.fsencode(path)
                out.write(struct.pack(">IQ", len(name), len(data)))
                out.write(name)
                out.write(data)
        seals = 0x0001 | 0x0002 | 0x0004 | 0x0008  # F_SEAL_SEAL | SHRINK | GROW | WRITE
        import fcntl  # noqa: PLC0415 (POSIX only, like the rest of the sandbox)

        fcntl.fcntl(fd, 1033, seals)  # F_ADD_SEALS: the host reads exactly what the referee wrote
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


# -- full isolation: the bubblewrap command line ------------------------------------------------

_NAMESPACES = [
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-net",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _runtime_paths() -> list[str]:
    """What the host needs to run, to be bound read-only: the Python installation (and a venv),
    and the folder holding the gamecore package."""
    found = {"/usr"}
    for path in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, _PACKAGE_PARENT):
        found.add(os.path.realpath(path))
    found.add(os.path.dirname(os.path.dirname(os.path.realpath(sys.executable))))
    ordered = sorted(p for p in found if os.path.isdir(p) and p != "/")
    return [p for p in ordered if not any(q != p and _inside(p, q) for q in ordered)]


@functools.lru_cache(maxsize=1)
def _view() -> tuple[str, ...]:
    """The bwrap arguments of the mount view (same for every bot)."""
    args: list[str] = []
    for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = "/" + top
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    args += ["--ro-bind-try", "/etc/alternatives", "/etc/alternatives"]
    args += ["--proc", "/proc", "--dir", "/dev"]
    for device in ("null", "zero", "urandom"):
        args += ["--dev-bind", f"/dev/{device}", f"/dev/{device}"]
    return tuple(args)


def _bwrap_options(limits: Limits, hide: list[str], seccomp_fd: int) -> list[str]:
    """bubblewrap's options for one bot. They reach it in a memfd (``--args FD``), not on its
    command line, which the bot could read as ``/proc/1/cmdline`` (the machine's paths)."""
    size = str(limits.disk_mb << 20)
    args = [*_NAMESPACES, "--hostname", "gamecore-bot", *_view()]
    args += ["--size", size, "--tmpfs", "/tmp", "--size", size, "--tmpfs", _BOT_DIR]
    runtime = _runtime_paths()
    made = {"/", "/tmp", _BOT_DIR}
    for path in runtime:  # after the tmpfs: a venv under /tmp is bound into the private /tmp
        # bwrap copies the modes of the folders above a bind (/root is 0700): open them to the bot
        parts = path.split("/")
        for i in range(2, len(parts)):
            ancestor = "/".join(parts[:i])
            if ancestor not in made and not any(_inside(ancestor, p) for p in runtime):
                args += ["--perms", "0755", "--dir", ancestor]
                made.add(ancestor)
        args += ["--ro-bind", path, path]
    for path in hide:  # what the referee hides that lies inside the runtime (a database in a venv)
        real = os.path.realpath(path)
        if os.path.lexists(real) and any(_inside(real, p) for p in runtime):
            args += ["--tmpfs", real] if os.path.isdir(real) else ["--ro-bind", "/dev/null", real]
    args += ["--cap-drop", "ALL"]
    for cap in ("CAP_CHOWN", "CAP_SETUID", "CAP_SETGID"):
        args += ["--cap-add", cap]
    return args + ["--seccomp", str(seccomp_fd), "--chdir", _BOT_DIR]


def bot_uids(referee: int) -> range:
    """The uids the bots of referee process ``referee`` run as: none a user of the machine has,
    4096 a referee, so that two referees' bots never share a uid (signals, files)."""
    start = BOT_UID_BASE + (referee * 4096) % 2_000_000_000
    return range(start, start + 4096)


def _bot_uid() -> int:
    return bot_uids(os.getpid())[next(_uids) % 4096]


def _memfd_with(data: bytes, name: str) -> int:
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


class BotProcess:
    """One running bot host and its channel (requests to the host's request fd, replies from
    the fd named in its configuration; an external program gets them on fds 0 and 3).

    Raises :class:`SandboxError` when the sandbox cannot be built (the referee's failure)."""

    def __init__(
        self,
        bot: BotSpec,
        *,
        isolation: str = "auto",
        limits: Limits | None = None,
        hide: list[str] | None = None,
        uid: int | None = None,
    ) -> None:
        limits = limits or Limits()
        self.mode = resolve_isolation(isolation)
        self.isolated = self.mode == "full"
        self.group: cgroups.BotGroup | None = None
        self.base: str | None = None
        root = os.geteuid() == 0
        if self.mode == "basic" and root and bot.get("kind") != "builtin":
            raise SandboxError(
                "isolation 'basic' as root runs built-in players only: untrusted bots need --isolation full"
            )
        if root:
            uid = _bot_uid() if uid is None else uid
            if uid == 0:
                raise SandboxError("a bot never runs as root")
        else:
            uid = None  # not root: the bot runs as the referee's own user
        sweep_stale()
        fds: dict[str, int] = {}
        to_close: list[int] = []
        try:
            fds["archive"] = pack_files(bot.get("files") or {})
            to_close.append(fds["archive"])
            if self.isolated:
                work = _BOT_DIR
                fds["seccomp"] = _memfd_with(seccomp.filter_program(), "gamecore-seccomp")
                to_close.append(fds["seccomp"])
                try:
                    self.group = cgroups.BotGroup(
                        memory_bytes=limits.memory_mb << 20, pids=limits.nproc + 8
                    )  # + bwrap's two processes and the host's own threads
                except OSError as exc:
                    raise SandboxError(f"cannot make the bot's cgroup: {exc}") from None
            else:
                self.base = tempfile.mkdtemp(prefix=f"gamecore-bot-{os.getpid()}.{cgroups.start_time(os.getpid())}-")
                work = os.path.join(self.base, "work")
                if uid is not None:
                    os.chmod(self.base, 0o711)  # the bot may enter base/work only
            req_read, self._req_write = os.pipe()
            self._rep_read, rep_write = os.pipe()
            to_close += [req_read, rep_write]
            command_of_bot = list(bot.get("command") or [])
            bot_for_host = bot.copy()
            bot_for_host.pop("files", None)
            if bot.get("kind") == "external":
                bot_for_host["command"] = [os.path.join(work, command_of_bot[0])] + command_of_bot[1:]
            config: HostConfig = {
                "bot": bot_for_host,
                "mode": self.mode,
                "work": work,
                "uid": uid,
                "limits": limits.as_dict(),
                "request_fd": req_read,
                "reply_fd": rep_write,
                "archive_fd": fds["archive"],
                "executable": command_of_bot[0] if bot.get("kind") == "external" else None,
            }
            env = {
                "PATH": "/usr/local/bin:/usr/bin:/bin",
                "LANG": "C.UTF-8",
                "HOME": work,
                "TMPDIR": "/tmp" if self.isolated else work,
                "PYTHONPATH": _PACKAGE_PARENT,
                "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONHASHSEED": "0",
                "PYTHONNOUSERSITE": "1",
                "GAMECORE_BOT": "1",
                "GAMECORE_REFEREE": str(os.getpid()),  # whose bot it is (tests look for strays by it)
            }
            if os.environ.get("GAMECORE_BACKEND"):
                env["GAMECORE_BACKEND"] = os.environ["GAMECORE_BACKEND"]
            host = [sys.executable, "-m", "gamecore.referee.host", json.dumps(config)]
            stderr = None if os.environ.get("GAMECORE_REFEREE_DEBUG") else subprocess.DEVNULL
            self.started = time.perf_counter()
            if self.isolated:
                options = _bwrap_options(limits, hide or [], fds["seccomp"])
                fds["options"] = _memfd_with(b"".join(os.fsencode(o) + b"\0" for o in options), "gamecore-bwrap")
                to_close.append(fds["options"])
                self.proc = self._start_in_group(
                    ["/bin/sh", "-c", _TRAMPOLINE, "sh", bwrap_path(), "--args", str(fds["options"]), "--", *host],
                    fds=(req_read, rep_write, *fds.values()),
                    env=env,
                    stderr=stderr,
                )
            else:
                setpriv = shutil.which("setpriv")
                if setpriv:  # the host dies with the referee's thread (until it drops root)
                    host = [os.path.abspath(setpriv), "--pdeathsig", "KILL"] + host
                with _live_lock:  # registered before any sweep can see it (sweep_orphans holds the lock)
                    self.proc = subprocess.Popen(
                        host,
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=stderr,
                        pass_fds=(req_read, rep_write, fds["archive"]),
                        start_new_session=True,
                        env=env,
                        cwd=self.base,
                        close_fds=True,
                    )
                    _live.add(self.proc.pid)
        except OSError as exc:
            self._release()
            raise SandboxError(f"cannot start the bot's sandbox: {exc}") from None
        except BaseException:
            self._release()
            raise
        finally:
            for fd in to_close:
                os.close(fd)
        self._buffer = b""
        self._unsent = b""
        self._lines = 0  # lines read from the host: only the first can be its control line
        self.sandboxed = False
        self.printed = 0

    def _start_in_group(
        self, command: list[str], *, fds: tuple[int, ...], env: dict[str, str], stderr: int | None
    ) -> subprocess.Popen[bytes]:
        """Start ``command`` behind the trampoline, move it into the bot's group, then let it go."""
        assert self.group is not None
        gate_read, gate_write = os.pipe()
        try:
            proc = subprocess.Popen(
                command,
                stdin=gate_read,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                pass_fds=fds,
                start_new_session=True,
                env=env,
                cwd="/",
                close_fds=True,
            )
        finally:
            os.close(gate_read)
        try:
            self.group.add(proc.pid)
            os.write(gate_write, b"go\n")
        except OSError as exc:
            proc.kill()
            proc.wait()
            raise SandboxError(f"cannot put the bot in its cgroup: {exc}") from None
        finally:
            os.close(gate_write)
        return proc

    def _release(self) -> None:
        for name in ("_req_write", "_rep_read"):
            fd = getattr(self, name, None)
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
                setattr(self, name, None)
        if self.group is not None:
            self.group.kill()
            self.group.remove()
            self.group = None
        if self.base:
            shutil.rmtree(self.base, ignore_errors=True)
            self.base = None

    def send(self, message: Mapping[str, object]) -> None:
        """Queue a request and write what the pipe takes now, never blocking: a bot that
        stops reading cannot stall the referee; the rest is written by :meth:`receive`,
        under the reply's deadline."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        os.set_blocking(self._req_write, False)
        self._unsent += data
        self._write_some()

    def _write_some(self) -> None:
        try:
            while self._unsent:
                self._unsent = self._unsent[os.write(self._req_write, self._unsent) :]
        except BlockingIOError:
            pass
        except OSError as exc:  # BrokenPipeError included: the bot closed its input
            self._unsent = b""
            if not self.sandboxed:  # no code of the bot has run yet: the host's first line (or
                return  # its end) says what went wrong, in receive()
            raise ReplyError("crash", f"the bot closed its input ({exc})") from None

    def receive(self, timeout: float) -> Reply:
        """The next reply, waiting at most ``timeout`` seconds (while finishing the request's
        write); a reply already in the pipe is taken even when ``timeout`` is 0.

        The host's first line is its own control line, written before any code of the bot
        runs: ``{"type": "sandboxed"}`` sets :attr:`sandboxed` (from then on a ``setup`` error
        can only be the bot's own). Only the first line can be it: a later ``sandboxed`` line
        is a reply like any other (the bot's forgery, a protocol error for the caller), so
        nothing the bot writes extends its deadline. A channel that closes before that line
        means the sandbox never started: :class:`SandboxError`, the referee's failure."""
        deadline = time.monotonic() + timeout
        while True:
            reply = self._next_line(deadline, timeout)
            self._lines += 1
            if self._lines > 1 or reply.get("type") != "sandboxed":
                break
            self.sandboxed = True  # the host's set-up is done: the bot's code may run from now on
        printed = reply.get("printed")
        if isinstance(printed, int) and not isinstance(printed, bool):  # a bot's own field: trusted as far as its type
            self.printed = max(self.printed, printed)
        return reply

    def _next_line(self, deadline: float, timeout: float) -> Reply:
        while b"\n" not in self._buffer:
            left = max(0.0, deadline - time.monotonic())
            unsent = bool(self._unsent)
            readable, writable, _ = select.select([self._rep_read], [self._req_write] if unsent else [], [], left)
            if writable:
                self._write_some()
            if readable:
                chunk = os.read(self._rep_read, 65536)
                if not chunk:
                    if not self.sandboxed:
                        raise SandboxError(f"the bot's sandbox did not start: {self._exit_detail()}")
                    raise ReplyError("crash", self._exit_detail())
                self._buffer += chunk
                if len(self._buffer) > _MAX_LINE:
                    raise ReplyError("protocol", "a reply line over 64 KB")
            if b"\n" not in self._buffer and time.monotonic() >= deadline:  # a trickle cannot extend it
                raise ReplyError("timeout", f"no reply within {timeout:.3f} s")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise ReplyError("protocol", f"not a JSON line: {line[:80]!r}") from None
        if not isinstance(reply, dict):
            raise ReplyError("protocol", f"not a JSON object: {line[:80]!r}")
        return reply

    def _exit_detail(self) -> str:
        try:
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "the bot closed its reply channel"
        if self.isolated and code > 128:  # bwrap exits with 128 + the signal that killed the host
            code = 128 - code
        if code < 0:
            try:
                return f"the bot process died of signal {signal.Signals(-code).name}"
            except ValueError:
                return f"the bot process died of signal {-code}"
        return f"the bot process exited with status {code}"

    def pause(self) -> None:
        """Freeze every process of the bot (``full`` isolation; nothing in ``basic``) until
        :meth:`resume`: a bot computes only on its own turn, so it can never take CPU from a
        bot thinking in this game or another (no pondering)."""
        self._freeze(True)

    def resume(self) -> None:
        """Thaw the bot frozen by :meth:`pause` (its turn has come)."""
        self._freeze(False)

    def _freeze(self, frozen: bool) -> None:
        if self.group is not None:
            try:
                self.group.freeze(frozen)
            except OSError as exc:  # the referee's machinery failed, not the bot
                raise SandboxError(f"cannot {'freeze' if frozen else 'thaw'} the bot's cgroup: {exc}") from None

    def kill(self) -> None:
        """Kill every process of the bot (its whole cgroup in ``full`` isolation, its process
        group and the orphans it left in ``basic``), reap the host and remove what it had."""
        if self.group is not None:
            self.group.kill()
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
        if not self.isolated:
            sweep_orphans()
        self._release()

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


# -- basic isolation: orphans and leftovers --------------------------------------------------------


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
