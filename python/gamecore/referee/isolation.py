"""Which isolation a run gets: ``full`` where it can run (root, bubblewrap, libseccomp, writable
cgroups; checked once), else ``basic``, which says in one line that it is no security boundary
and, as root, runs built-in players only. The threat model is in ``docs/sandbox.rst``.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from ..errors import GamecoreError
from . import cgroups, seccomp
from .bubblewrap import NAMESPACES

__all__ = [
    "SandboxError",
    "ISOLATION_MODES",
    "BASIC_WARNING",
    "bwrap_path",
    "full_isolation_missing",
    "namespaces_available",
    "resolve_isolation",
    "isolation_for",
]


class SandboxError(RuntimeError):
    """The referee could not build a bot's sandbox (a tool missing, a cgroup write refused, the
    host failing before the bot's code ran): the referee's own failure, never the bot's forfeit."""


#: What ``--isolation`` accepts (``namespaces`` is the old name of ``full``).
ISOLATION_MODES = ("auto", "full", "basic", "namespaces")
#: The one line the referee prints when bots run without the sandbox.
BASIC_WARNING = (
    "gamecore referee: isolation 'basic' is NOT a security boundary: run trusted bots only "
    "(untrusted submissions need --isolation full: root, bwrap, writable cgroups)"
)


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
            [bwrap_path(), *NAMESPACES, "--ro-bind", "/", "/", "--proc", "/proc", "true"],
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
