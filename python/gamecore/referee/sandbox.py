"""Starting, talking to and killing a bot host under the referee's isolation.

Every bot of every game gets its own host process (:mod:`gamecore.referee.host`). The threat
model, and what each isolation mode does and does not protect, are in ``docs/sandbox.rst``.
This module is the bot's process, its channel and its deadlines; the other jobs have their
own modules: which isolation a run gets (:mod:`~gamecore.referee.isolation`), the bubblewrap
command line (:mod:`~gamecore.referee.bubblewrap`), the bot's cgroup
(:mod:`~gamecore.referee.cgroups`), ``basic`` isolation's sweeps
(:mod:`~gamecore.referee.basic`), and the host's side (:mod:`~gamecore.referee.jail`).

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

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping

from . import cgroups, seccomp
from .basic import become_subreaper, forget, start_registered, sweep_orphans, sweep_stale
from .bubblewrap import BOT_DIR, BOT_UID_BASE, bot_uids, bwrap_options, memfd_with, next_bot_uid, pack_files
from .isolation import (
    BASIC_WARNING,
    ISOLATION_MODES,
    SandboxError,
    bwrap_path,
    full_isolation_missing,
    isolation_for,
    namespaces_available,
    resolve_isolation,
)
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

_MAX_LINE = 1 << 16
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Waits for the referee's go (after it has moved this process into the bot's cgroups), then
# becomes bubblewrap: every process of the bot is born inside the group.
_TRAMPOLINE = 'read -r _ && exec "$@" </dev/null'


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
            uid = next_bot_uid() if uid is None else uid
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
                work = BOT_DIR
                fds["seccomp"] = memfd_with(seccomp.filter_program(), "gamecore-seccomp")
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
                options = bwrap_options(limits.disk_mb, hide or [], fds["seccomp"])
                fds["options"] = memfd_with(b"".join(os.fsencode(o) + b"\0" for o in options), "gamecore-bwrap")
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
                self.proc = start_registered(  # known before any sweep can see it
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
        forget(self.proc.pid)
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
