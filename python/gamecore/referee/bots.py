"""What a tournament player argument names, as a bot the host can load.

``[NAME=]SPEC`` where SPEC is, in this order:

- a folder with a ``player.py``: a CTU bot (the folder is the submission, copied whole);
- a folder with an executable ``run`` (or ``bot``): an external program, run as ``./run``;
- a ``player.py`` file: a CTU bot (its folder is copied; flat CTU folders hold one bot);
- a ``*_player.py`` file: a UFRJ bot (that file alone, run with ``exec``);
- another ``.py`` file: CTU if it defines ``class MyPlayer``, else UFRJ (the file alone);
- another executable file: an external program speaking the protocol;
- otherwise a built-in player spec: ``random``, ``engine:depth=6``, ``mcts:iterations=2000``...

A bot is a dict that travels with each game's task: ``name``, ``kind`` (``builtin``, ``ctu``,
``ufrj``, ``external``), ``spec`` / ``entry`` / ``command``, ``files`` (relative path ->
bytes content; the path is a ``str`` made by :func:`os.fsdecode`, so :func:`os.fsencode` gives
back its exact bytes, UTF-8 or not) and ``digest`` (SHA-256 of what defines the bot, part of the
tournament's identity: a changed file is a changed tournament).

Submissions are data. Only regular files and folders are read: every entry of a bot folder is
looked at with ``lstat`` and opened with ``O_NOFOLLOW`` relative to its folder's descriptor, so
a link is never followed, even by a referee running as root. A folder holds at most
``max_files`` files and folders (default :data:`MAX_FILES`) of at most ``max_bytes`` bytes in
all (default :data:`MAX_BYTES`); ``__pycache__``, ``.git`` and ``*.pyc`` are skipped unread.
A submission that breaks a rule (a symbolic link, a device, a FIFO, a socket, a hard-linked
file, too many files or bytes, an unreadable file) is *refused*: the bot keeps its place in the
tournament with ``refused`` set to one sentence naming the file and the rule, and forfeits each
of its games with reason ``refused`` without being started; the other bots play on.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import unicodedata

from ..errors import GamecoreError
from ..players import make_player
from .rules import BotSpec

__all__ = ["resolve", "MAX_BYTES", "MAX_FILES", "SubmissionRefused"]

#: Default cap on the bytes of a bot's files (the CTU upload limit is 1 MB; this leaves room).
MAX_BYTES = 16 << 20
#: Default cap on the files and folders of a bot folder (all are copied for every game).
MAX_FILES = 1000
_NAME = re.compile(r"^[A-Za-z0-9_.\-+ ]{1,64}$")
_SKIPPED_DIRS = (b"__pycache__", b".git")
_KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


class SubmissionRefused(GamecoreError):
    """A bot's files break a rule for submissions (the message names the file and the rule)."""


def printable(text: str) -> str:
    """``text`` with every control and format character written as an escape (``\\x1b``,
    ``\\u202e``): a name or message that came from a bot can neither steer the terminal it is
    printed on (escape sequences, a cleared screen, a window title) nor fake lines or reverse
    its text (newlines, carriage returns, bidirectional overrides)."""
    return "".join(c if unicodedata.category(c) not in ("Cc", "Cf") else _escape(c) for c in text)


def _escape(c: str) -> str:
    """One character as Python writes it in a string literal: ``\\n``, ``\\x1b``, ``\\u202e``."""
    return _SHORT_ESCAPES.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def shown(path: str | bytes) -> str:
    """A file name made printable whatever its bytes are (undecodable bytes as ``\\xNN``,
    control characters escaped: see :func:`printable`)."""
    return printable(os.fsencode(path).decode("utf-8", "backslashreplace"))


class _Reader:
    """Reads a submission as data, under the byte and file-count limits."""

    def __init__(self, root: bytes, max_bytes: int, max_files: int) -> None:
        self.max_bytes = max_bytes
        self.max_files = max_files
        self.total = 0
        self.entries = 0
        self.files: dict[str, bytes] = {}
        # Messages name an entry by the submission's own name and the path inside it, never by
        # where staff keep it: the refusal (and so the bot's digest) stays the same when moved.
        self.label = os.path.basename(os.path.normpath(root))
        self.current = self.label  # the entry being read, for messages

    def count(self, path: bytes) -> None:
        self.entries += 1
        if self.entries > self.max_files:
            raise SubmissionRefused(
                f"{shown(path)}: the submission holds more than {self.max_files} files and folders "
                "(the limit is --submission-files)"
            )

    def read_file(self, path: bytes, rel: bytes, name: bytes, dir_fd: int | None) -> None:
        """Read regular file ``name`` (in folder ``dir_fd``) as ``rel``; ``path`` is for messages."""
        self.current = path
        info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode):
            what = _KINDS.get(stat.S_IFMT(info.st_mode), "not a regular file")
            raise SubmissionRefused(f"{shown(path)} is {what}: a submission holds regular files and folders only")
        if info.st_nlink > 1:  # another name of a file from elsewhere
            raise SubmissionRefused(f"{shown(path)} is a hard link: a submission holds files of its own only")
        self.total += info.st_size
        if self.total > self.max_bytes:
            raise SubmissionRefused(
                f"{shown(path)}: the submission holds more than {self.max_bytes} bytes (the limit is --submission-mb)"
            )
        # O_NOFOLLOW | O_NONBLOCK: an entry swapped for a link or a FIFO since the lstat is
        # refused, never followed or waited on; fstat must find the very file lstat saw.
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
        try:
            opened = os.fstat(fd)
            if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
                raise SubmissionRefused(f"{shown(path)} changed while it was read")
            chunks, size = [], 0
            while size <= info.st_size:  # at most one byte more than lstat said, to see growth
                chunk = os.read(fd, min(1 << 20, info.st_size + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
        if size != info.st_size:
            raise SubmissionRefused(f"{shown(path)} changed while it was read")
        self.files[os.fsdecode(rel)] = b"".join(chunks)

    def read_folder(self, rel: bytes, name: bytes, dir_fd: int | None) -> None:
        """Read every regular file under folder ``name`` (in ``dir_fd``; the root is followed)."""
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (os.O_NOFOLLOW if rel else 0)
        fd = os.open(name, flags, dir_fd=dir_fd)
        try:
            for entry in sorted(os.fsencode(n) for n in os.listdir(fd)):
                child = os.path.join(rel, entry)
                path = self.current = os.path.join(self.label, child)
                info = os.stat(entry, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISDIR(info.st_mode):
                    if entry not in _SKIPPED_DIRS:
                        self.count(path)
                        self.read_folder(child, entry, fd)
                elif not (stat.S_ISREG(info.st_mode) and entry.endswith(b".pyc")):
                    self.count(path)
                    self.read_file(path, child, entry, fd)
        finally:
            os.close(fd)


def _read_submission(path: str, folder: bool, max_bytes: int, max_files: int) -> dict[str, bytes]:
    """The files of a bot folder, or of one bot file (see the module docs for the rules)."""
    raw = os.fsencode(path)
    reader = _Reader(raw, max_bytes, max_files)
    try:
        if folder:
            reader.read_folder(b"", raw, None)
        else:
            reader.read_file(reader.label, os.path.basename(raw), raw, None)
    except OSError as exc:
        raise SubmissionRefused(f"{shown(reader.current)} cannot be read ({exc.strerror})") from None
    return reader.files


def _digest(bot: BotSpec) -> str:
    h = hashlib.sha256()
    for key in ("kind", "spec", "entry", "command") + (("refused",) if "refused" in bot else ()):
        h.update(repr(bot.get(key)).encode("utf-8", "backslashreplace"))
    for rel, data in sorted((bot.get("files") or {}).items()):
        h.update(os.fsencode(rel) + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _regular_or_link(path: str) -> bool:
    """An entry that decides a folder's kind: a regular file, or a link (refused when read)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def resolve(argument: str, game: str = "othello", *, max_bytes: int = MAX_BYTES, max_files: int = MAX_FILES) -> BotSpec:
    """The bot a command-line player argument names (see the module docs). A submission that
    breaks the rules for submissions comes back with ``refused`` set (it forfeits its games).

    :raises GamecoreError: no such file, an unknown built-in name or option, a bad name.
    """
    if not isinstance(argument, str) or not argument.strip():
        raise GamecoreError("a player is a built-in spec, a player file or folder, or NAME=SPEC")
    name: str | None = None
    spec = argument.strip()
    head, eq, tail = spec.partition("=")
    if eq and ":" not in head and not os.path.exists(spec) and _NAME.match(head):
        name, spec = head.strip(), tail.strip()
    path = os.path.expanduser(spec)
    bot: BotSpec
    source: tuple[str, bool] | None = None  # what to read: a folder (True) or one file
    if os.path.isdir(path):  # the folder named on the command line is the staff's: followed
        folder = os.path.abspath(path)
        default = os.path.basename(folder.rstrip("/"))
        if _regular_or_link(os.path.join(folder, "player.py")):
            bot = {"kind": "ctu", "entry": "player.py"}
        else:
            runner = next(
                (
                    n
                    for n in ("run", "bot")
                    if os.path.islink(os.path.join(folder, n)) or os.access(os.path.join(folder, n), os.X_OK)
                ),
                None,
            )
            if runner is None:
                raise GamecoreError(
                    f"{shown(spec)}: a bot folder needs a player.py (CTU) or an executable 'run' (protocol)"
                )
            bot = {"kind": "external", "command": [runner]}
        source = (folder, True)
    elif os.path.lexists(path) and not os.path.isdir(path):
        path = os.path.abspath(path)
        base = os.path.basename(path)
        default = base
        if base == "player.py":
            default = os.path.basename(os.path.dirname(path))
            bot = {"kind": "ctu", "entry": "player.py"}
            source = (os.path.dirname(path), True)
        elif base.endswith(".py"):
            bot = {"kind": "ufrj" if base.endswith("_player.py") else "ctu", "entry": base}
            source = (path, False)
        elif os.path.islink(path) or os.access(path, os.X_OK):
            bot = {"kind": "external", "command": [base]}
            source = (path, False)
        else:
            raise GamecoreError(f"{shown(spec)}: not a .py player, a bot folder or an executable program")
    else:
        if os.sep in spec or spec.endswith(".py"):
            raise GamecoreError(f"{shown(spec)}: no such file or folder")
        try:
            player = make_player(spec)
        except ValueError as exc:
            raise GamecoreError(f"{spec}: {exc}") from None
        if player.name == "human":
            raise GamecoreError("a human cannot play in a tournament")
        default = spec
        bot = {"kind": "builtin", "spec": spec}
    if source is not None:
        try:
            bot["files"] = _read_submission(source[0], source[1], max_bytes, max_files)
        except SubmissionRefused as exc:
            bot["files"] = {}
            bot["refused"] = str(exc)
        entry = bot.get("entry")
        if not source[1] and entry and bot["files"] and not entry.endswith("_player.py"):
            # CTU if the file defines class MyPlayer, else UFRJ (read from the bytes already read)
            text = bot["files"][entry].decode("utf-8", "replace")
            bot["kind"] = "ctu" if re.search(r"^class\s+MyPlayer\b", text, re.M) else "ufrj"
    if bot["kind"] in ("ctu", "ufrj") and game != "othello":
        raise GamecoreError(f"{shown(spec)}: {bot['kind'].upper()} course players play Othello only")
    bot["name"] = printable(name) if name else shown(default)
    bot["source"] = spec
    bot["digest"] = _digest(bot)
    return bot
