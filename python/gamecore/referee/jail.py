"""The bot's side of the sandbox, built by the host before any code of the bot runs.

:func:`prepare` takes the protocol channel off the bot's file descriptors; :func:`build` unpacks
the bot's files into its working folder (a private tmpfs, ``/bot``, in ``full`` isolation),
creating every file itself (no path of the bot is followed), gives them to the bot's uid, sets
``PR_SET_NO_NEW_PRIVS``, drops to that uid (never root) and sets the per-process limits
(``RLIMIT_AS``, an ``RLIMIT_CPU`` backstop, ``RLIMIT_FSIZE``, ``RLIMIT_NOFILE``, no core files; in ``basic``
isolation ``RLIMIT_NPROC`` too, where no cgroup caps the bot's processes). A failure here is
the referee's (:class:`SetupError`), never the bot's. The referee's side is
:mod:`gamecore.referee.sandbox`.
"""

from __future__ import annotations

import ctypes
import os
import resource
import struct
from typing import Any

from .games import preload_game_data
from .rules import HostConfig

__all__ = ["SetupError", "prepare", "build", "ARCHIVE_MAGIC"]

_PR_SET_NO_NEW_PRIVS = 38
_MAX_OPEN_FILES = 1024  # a bot's file descriptors: the kernel's file table is the machine's
#: The first bytes of the archive of a bot's files (``sandbox.pack_files`` writes it, :func:`build` checks it).
ARCHIVE_MAGIC = b"GCBOT1\n"


class SetupError(Exception):
    """The host could not build the bot's side of the sandbox: the referee's failure."""


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def _unpack(fd: int, work: bytes, executable: bytes | None) -> list[bytes]:
    """Write the files the referee packed into memfd ``fd`` under ``work`` (paths are bytes,
    relative, without ``..``; nothing is followed: files are created, never opened). Returns
    the paths written."""
    with os.fdopen(fd, "rb") as archive:
        if archive.read(len(ARCHIVE_MAGIC)) != ARCHIVE_MAGIC:
            raise SetupError("the bot's files are not a gamecore archive")
        written = []
        while head := archive.read(12):
            name_size, data_size = struct.unpack(">IQ", head)
            name = archive.read(name_size)
            parts = name.split(b"/")
            if not name or name.startswith(b"/") or b"\0" in name or any(p in (b"", b".", b"..") for p in parts):
                raise SetupError(f"a bot file has an unsafe path {name[:80]!r}")
            folder = work
            for part in parts[:-1]:
                folder = os.path.join(folder, part)
                try:
                    os.mkdir(folder, 0o700)
                except FileExistsError:
                    if not os.path.isdir(folder) or os.path.islink(folder):
                        raise SetupError(f"a bot file's folder is not a folder: {name[:80]!r}") from None
            mode = 0o700 if name == executable else 0o600
            out = os.open(os.path.join(work, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
            with os.fdopen(out, "wb") as fh:
                left = data_size
                while left:
                    chunk = archive.read(min(left, 1 << 20))
                    if not chunk:
                        raise SetupError("the bot's archive is truncated")
                    fh.write(chunk)
                    left -= len(chunk)
            written.append(name)
    return written


def _give_to(work: bytes, uid: int) -> None:
    """Hand the bot's folder and everything in it to the bot's uid (nothing is a symlink:
    :func:`_unpack` made every entry)."""
    for root, dirs, files in os.walk(work):
        for name in dirs + files:
            os.lchown(os.path.join(root, name), uid, uid)
    os.chmod(work, 0o700)  # before the chown: root is then no longer its owner
    os.chown(work, uid, uid)


def _threads_of(uid: int) -> int:
    """Threads running as real uid ``uid`` now: what ``RLIMIT_NPROC`` counts."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="utf-8") as fh:
                fields = dict(line.split(":", 1) for line in fh if ":" in line)
        except OSError:
            continue
        if int(fields.get("Uid", "-1 ").split()[0]) == uid:
            count += int(fields.get("Threads", "1").strip())
    return count


def _set_limits(limits: dict[str, int], *, own_uid: bool = True) -> None:
    """The per-process limits. ``nproc`` becomes ``RLIMIT_NPROC``, which counts every thread
    of the bot's uid: with a uid of its own that is the bot alone; sharing the referee's user
    (``basic`` isolation, not root) the bot may start ``nproc`` more than that user runs now."""

    def put(which: int, soft: int, hard: int | None = None) -> None:
        try:
            resource.setrlimit(which, (soft, soft if hard is None else hard))
        except (ValueError, OSError):
            pass  # a limit the system will not lower this far: the cgroup and the deadline still hold

    if limits.get("memory"):
        put(resource.RLIMIT_AS, int(limits["memory"]))
    if limits.get("cpu"):
        put(resource.RLIMIT_CPU, int(limits["cpu"]), int(limits["cpu"]) + 2)
    if limits.get("fsize"):
        put(resource.RLIMIT_FSIZE, int(limits["fsize"]))
    if limits.get("nproc"):
        put(resource.RLIMIT_NPROC, int(limits["nproc"]) + (0 if own_uid else _threads_of(os.getuid())))
    put(resource.RLIMIT_NOFILE, _MAX_OPEN_FILES)
    put(resource.RLIMIT_CORE, 0)


def _drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() == 0 or os.geteuid() == 0 or os.getgid() == 0:  # pragma: no cover - the kernel said yes
        raise SetupError("could not drop root")


def prepare(config: HostConfig) -> dict[str, int]:
    """Move the channel off the bot's fds, unpack its files, drop to its uid and set its limits;
    returns what the host keeps. Raises :class:`SetupError` (or OSError) on a failure of its own."""
    request_fd = os.dup(config["request_fd"])
    reply_fd = os.dup(config["reply_fd"])
    os.close(config["request_fd"])
    os.close(config["reply_fd"])
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    for fd in (request_fd, reply_fd):
        os.set_inheritable(fd, config["bot"]["kind"] == "external")
    return {"request_fd": request_fd, "reply_fd": reply_fd}


def build(config: HostConfig) -> str:
    """The bot's side of the sandbox, after :func:`prepare`: its files in its working folder
    (``/bot``, a private tmpfs, in ``full`` isolation), then its own uid, ``no_new_privs`` and
    the resource limits. Returns the working folder."""
    # first: in full isolation /tmp (where a venv may live) goes to the bot below, and in basic
    # isolation the bot's uid may not read a package installed under a folder closed to others
    preload_game_data()
    work = os.fsencode(config["work"])
    uid = config.get("uid")
    os.makedirs(work, mode=0o700, exist_ok=True)
    executable = config.get("executable")
    _unpack(config["archive_fd"], work, os.fsencode(executable) if executable else None)
    os.chdir(work)  # before the chown: root without CAP_DAC_OVERRIDE may not enter it after
    if uid is not None:
        _give_to(work, uid)
        if config.get("mode") == "full":
            os.chmod("/tmp", 0o700)
            os.chown("/tmp", uid, uid)
    if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SetupError("prctl(PR_SET_NO_NEW_PRIVS) failed")
    if uid is not None:
        _drop_privileges(uid)
    elif os.geteuid() == 0:
        raise SetupError("a bot never runs as root: no uid was given")
    os.environ["HOME"] = os.fsdecode(work)
    os.environ["TMPDIR"] = "/tmp" if config.get("mode") == "full" else os.fsdecode(work)
    limits = dict(config.get("limits") or {})
    if config.get("mode") == "full":
        limits.pop("nproc", None)  # the bot's cgroup caps its processes (pids.max)
    _set_limits(limits, own_uid=uid is not None)
    return os.fsdecode(work)
