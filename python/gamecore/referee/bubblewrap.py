"""The bubblewrap command line of a bot in ``full`` isolation, and what travels to its host in
memfds (its files, bubblewrap's options, the seccomp filter): the same mount view for every bot
(the Python runtime and the gamecore package read-only, a fresh ``/proc``, three devices, two
private tmpfs), its namespaces, its capabilities, and the uid it runs as.
"""

from __future__ import annotations

import functools
import itertools
import os
import struct
import sys
from collections.abc import Mapping

from .jail import ARCHIVE_MAGIC

__all__ = [
    "NAMESPACES",
    "BOT_DIR",
    "BOT_UID_BASE",
    "bwrap_options",
    "bot_uids",
    "next_bot_uid",
    "memfd_with",
    "pack_files",
]

#: Bots run as uids from here on (never root, never a uid of the machine's users).
BOT_UID_BASE = 1_000_000
#: The bot's working folder, a private tmpfs, inside the sandbox.
BOT_DIR = "/bot"
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_uids = itertools.count()


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


#: bubblewrap's namespaces and process options (the check runs them too).
NAMESPACES = [
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


def bwrap_options(disk_mb: int, hide: list[str], seccomp_fd: int) -> list[str]:
    """bubblewrap's options for one bot. They reach it in a memfd (``--args FD``), not on its
    command line, which the bot could read as ``/proc/1/cmdline`` (the machine's paths)."""
    size = str(disk_mb << 20)
    args = [*NAMESPACES, "--hostname", "gamecore-bot", *_view()]
    args += ["--size", size, "--tmpfs", "/tmp", "--size", size, "--tmpfs", BOT_DIR]
    runtime = _runtime_paths()
    made = {"/", "/tmp", BOT_DIR}
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
    return args + ["--seccomp", str(seccomp_fd), "--chdir", BOT_DIR]


def bot_uids(referee: int) -> range:
    """The uids the bots of referee process ``referee`` run as: none a user of the machine has,
    4096 a referee, so that two referees' bots never share a uid (signals, files)."""
    start = BOT_UID_BASE + (referee * 4096) % 2_000_000_000
    return range(start, start + 4096)


def next_bot_uid() -> int:
    """The uid of the next bot of this referee process."""
    return bot_uids(os.getpid())[next(_uids) % 4096]


def memfd_with(data: bytes, name: str) -> int:
    """A memfd holding ``data``, at its start (the caller closes it)."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
