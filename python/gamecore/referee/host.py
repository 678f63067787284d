"""The bot host: one process per bot and game, between the referee and an untrusted bot.

Started by the referee (``python -m gamecore.referee.host CONFIG_JSON``), usually as the
first process of fresh PID, network and mount namespaces (see :mod:`gamecore.referee.sandbox`).
In order, it:

1. takes the protocol channel away from the bot: requests arrive on fd 0 and replies leave
   on the pipe fd the referee names (``reply_fd``); the host keeps private copies, points fd 0 at ``/dev/null`` and fds 1 and 2
   (the bot's prints, also from C code) at ``/dev/null``; ``sys.stdout``/``sys.stderr``
   become counters that keep the first 2 KB, so a printing bot is never punished and the
   compliance check can report its noise;
2. when it runs as root in its own mount namespace: mounts a size-capped tmpfs as the bot's
   working directory (a full disk is the bot's own problem), copies the bot's files there,
   hides the paths the referee names (the database, other bots' folders) under empty mounts,
   remounts everything else read-only, and drops to a uid of its own (no access to root's
   files, no signals to other bots);
3. sets ``PR_SET_NO_NEW_PRIVS`` and the resource limits (``RLIMIT_AS`` memory cap,
   ``RLIMIT_CPU`` backstop, ``RLIMIT_FSIZE``, ``RLIMIT_NPROC`` per bot uid, no core files);
4. loads the bot (a built-in player, a CTU ``player.py``, a UFRJ ``*_player.py`` run with
   ``exec``) and answers the referee; or, for an external program, ``exec``-s it with the
   channel left on fds 0 and 3 so that it speaks the protocol itself.

The protocol (JSON lines) is documented in :mod:`gamecore.referee`.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import re
import resource
import shutil
import sys
import time
import traceback
from typing import Any

# Everything the host needs is imported here, before the sandbox hides paths and drops root.
from ..adapters.ufrj import BLACK_STONE, WHITE_STONE, board_to_position, position_to_board
from ..games.othello import Move
from ..players import make_player
from .games import rules_for

REQUEST_FD = 0
REPLY_FD = 3
_KEEP_PRINTED = 2048
_PR_SET_NO_NEW_PRIVS = 38
_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_REMOUNT = 32
_MS_BIND = 4096


class _Counter:
    """A stand-in for ``sys.stdout``: counts what the bot prints, keeps the first bytes."""

    def __init__(self) -> None:
        self.count = 0
        self.head: list[str] = []
        self._kept = 0

    def write(self, text: Any) -> int:
        text = str(text)
        self.count += len(text)
        if self._kept < _KEEP_PRINTED:
            piece = text[: _KEEP_PRINTED - self._kept]
            self.head.append(piece)
            self._kept += len(piece)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1  # a C extension asking for a real fd gets fd 1, which is /dev/null

    @property
    def encoding(self) -> str:
        return "utf-8"


class Channel:
    """The host's end of the protocol: one JSON object per line each way."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._in = os.fdopen(read_fd, "rb", buffering=0)
        self._out = write_fd
        self._buffer = b""

    def receive(self) -> dict | None:
        while b"\n" not in self._buffer:
            chunk = self._in.read(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)

    def send(self, message: dict) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        while data:
            data = data[os.write(self._out, data) :]


# -- sandbox set-up (runs as the referee's trusted code, before the bot is loaded) ---------------


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    libc = _libc()
    libc.mount.argtypes = (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p)
    result = libc.mount(
        source.encode(), target.encode(), fstype.encode() if fstype else None, flags, data.encode() if data else None
    )
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {target}: {os.strerror(errno)}")


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _hide(paths: list[str], keep: list[str]) -> None:
    """Cover each path with an empty read-only mount (files with /dev/null), except paths
    that hold something the host still needs (Python, gamecore, the bot's own directory)."""
    for path in paths:
        if not os.path.lexists(path) or any(_inside(k, path) for k in keep):
            continue
        if os.path.isdir(path):
            _mount("none", path, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "size=4k,mode=0555")
        else:
            _mount("/dev/null", path, None, _MS_BIND, None)


def _reopen_for_others(needed: list[str], stash: str) -> None:
    """Make the paths the host needs after dropping root (Python, gamecore) reachable even when
    an ancestor is closed to other users (``/root`` with a pyenv Python): in the private mount
    namespace, cover that ancestor with an empty tmpfs open to all and bind the needed paths
    back at their places. What else the ancestor held stays out of the bot's sight."""
    needed = sorted({os.path.realpath(p) for p in needed if os.path.exists(p)})
    blocked: list[str] = []
    for path in needed:
        parts = path.split("/")
        for i in range(2, len(parts)):
            ancestor = "/".join(parts[:i])
            if not os.stat(ancestor).st_mode & 0o001 and ancestor not in blocked:
                blocked.append(ancestor)
                break
    for number, ancestor in enumerate(blocked):
        inside = [p for p in needed if _inside(p, ancestor)]
        kept = []
        for k, path in enumerate(inside):
            place = os.path.join(stash, f"{number}-{k}")
            os.makedirs(place, exist_ok=True)
            _mount(path, place, None, _MS_BIND, None)
            kept.append((place, path))
        _mount("none", ancestor, "tmpfs", _MS_NOSUID | _MS_NODEV, "size=64k,mode=0755")
        for place, path in kept:
            os.makedirs(path, exist_ok=True)
            _mount(place, path, None, _MS_BIND, None)


def _mount_points() -> list[str]:
    points = []
    with open("/proc/self/mountinfo", encoding="utf-8") as fh:
        for line in fh:
            field = line.split()[4]
            points.append(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field))
    return points


def _read_only_except(writable: str) -> list[str]:
    """Remount every mount point of this (private) mount namespace read-only, except the
    bot's working directory: a bot writes nowhere else (``/tmp``, world-writable folders).
    Returns the mount points that would not turn read-only."""
    failed = []
    for point in _mount_points():
        if _inside(point, writable):
            continue
        try:
            _mount("none", point, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY, None)
        except OSError:
            failed.append(point)
    return failed


def _set_limits(limits: dict, nproc: bool) -> None:

    def put(which: int, soft: int, hard: int | None = None) -> None:
        try:
            resource.setrlimit(which, (soft, soft if hard is None else hard))
        except (ValueError, OSError):
            pass  # a limit the system will not lower this far: the referee's deadline still holds

    if limits.get("memory"):
        put(resource.RLIMIT_AS, int(limits["memory"]))
    if limits.get("cpu"):
        put(resource.RLIMIT_CPU, int(limits["cpu"]), int(limits["cpu"]) + 2)
    if limits.get("fsize"):
        put(resource.RLIMIT_FSIZE, int(limits["fsize"]))
    if nproc and limits.get("nproc"):
        put(resource.RLIMIT_NPROC, int(limits["nproc"]))
    put(resource.RLIMIT_CORE, 0)


def prepare(config: dict) -> dict:
    """Move the channel off the bot's fds and build its sandbox; returns what the host keeps."""
    request_fd = os.dup(REQUEST_FD)
    reply_fd = os.dup(config["reply_fd"])
    os.close(config["reply_fd"])
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    for fd in (request_fd, reply_fd):
        os.set_inheritable(fd, config["bot"]["kind"] == "external")

    base = config["base"]
    stage, work = os.path.join(base, "stage"), os.path.join(base, "work")
    os.makedirs(work, exist_ok=True)
    uid = config.get("uid")
    private = bool(config.get("private_mounts")) and os.geteuid() == 0
    notes = []
    if private:
        mb = int(config.get("disk_mb") or 64)
        owner = f",uid={uid},gid={uid}" if uid is not None else ""
        try:
            _mount("none", work, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={mb}m,mode=0700{owner}")
        except OSError as exc:
            notes.append(f"no private tmpfs: {exc}")
    if os.path.isdir(stage):
        shutil.copytree(stage, work, dirs_exist_ok=True)
    if uid is not None:
        for root, dirs, files in os.walk(work):
            for name in dirs + files:
                os.lchown(os.path.join(root, name), uid, uid)
        os.chown(work, uid, uid)
        os.chmod(work, 0o700)
    os.chdir(work)
    if private:
        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        keep = [work, sys.prefix, sys.base_prefix, package_parent]
        try:
            _hide(config.get("hide") or [], keep)
            if uid is not None:
                stash = os.path.join(base, "keep")
                os.makedirs(stash, mode=0o700, exist_ok=True)
                _reopen_for_others(keep[1:], stash)
            failed = _read_only_except(work)
            if failed:
                notes.append(f"not read-only: {', '.join(failed[:5])}")
        except OSError as exc:
            notes.append(f"mounts failed: {exc}")
    try:
        _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    os.environ["HOME"] = os.environ["TMPDIR"] = work
    _set_limits(config.get("limits") or {}, nproc=uid is not None)
    return {"request_fd": request_fd, "reply_fd": reply_fd, "work": work, "notes": notes}


# -- the bots -------------------------------------------------------------------------------------


class BotError(Exception):
    """What the bot did wrong, with the forfeit reason the referee records."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def _position(game: str, size: int, history: list[str]) -> Any:

    position = rules_for(game).new(size)
    for name in history:
        position.push(name)
    return position


class BuiltinBot:
    def __init__(self, spec: dict, start: dict) -> None:

        self.player = make_player(spec["spec"], seed=start.get("seed", 0))
        self.name = self.player.name

    def move(self, request: dict, position: Any) -> str:
        return self.player.choose_move(position, request.get("time")).name


def _check_ctu_move(value: Any, size: int, legal: list) -> Any:
    if value is None:
        return None
    if type(value) is not tuple:
        raise BotError(
            "bad_return",
            f"move() returned {type(value).__name__} {value!r:.80}; the CTU framework expects a tuple (row, col) or None",
        )
    if len(value) != 2 or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise BotError("bad_return", f"move() returned {value!r:.80}; expected a tuple of two ints (row, col)")
    return value


class CTUBot:
    """``player.py`` with ``MyPlayer(my_color, opponent_color, board_size)``; colours are the seats."""

    def __init__(self, spec: dict, start: dict) -> None:

        module_name = os.path.splitext(spec["entry"])[0]
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
        cls = getattr(module, "MyPlayer", None)
        if cls is None:
            raise BotError("load_error", f"{spec['entry']} defines no MyPlayer class")
        seat = start["seat"]
        self.size = start["size"]
        try:
            self.player = cls(my_color=seat, opponent_color=1 - seat, board_size=self.size)
        except TypeError as exc:
            raise BotError("load_error", f"MyPlayer(my_color, opponent_color, board_size) failed: {exc}") from None
        self.method: Any = getattr(self.player, "move", None) or getattr(self.player, "select_move", None)
        if not callable(self.method):
            raise BotError("load_error", "MyPlayer has no move(board) method")
        self.name = str(getattr(self.player, "name", "MyPlayer"))

    def move(self, request: dict, position: Any) -> str:

        value = _check_ctu_move(self.method(request["board"]), self.size, request["legal"])
        if value is None:
            return "pass"
        row, col = value
        if not (0 <= row < self.size and 0 <= col < self.size):
            return f"off-board ({row}, {col})"
        return Move(row * self.size + col, self.size).name


class _FrameworkMove:
    def __init__(self, x: int, y: int) -> None:
        self.x = x
        self.y = y

    def __repr__(self) -> str:
        return f"Move({self.x}, {self.y})"


class FrameworkBoard:
    """What the UFRJ framework hands a player: ``board`` (bordered grid), ``valid_moves(color)``,
    ``play(move, color)``, ``get_clone()``, ``score()``; conversions are the adapter's."""

    EMPTY, BLACK, WHITE, OUTER = ".", "○", "●", "?"

    def __init__(self, grid: list) -> None:
        self.board = [list(row) for row in grid]
        self._offered: dict[str, list] = {}  # the move objects handed out, until the board changes

    def _position(self, color: str) -> Any:
        return board_to_position(self.board, color)

    def valid_moves(self, color: str) -> list:
        if color not in self._offered:
            moves = [m for m in self._position(color).legal_moves() if not m.is_pass]
            self._offered[color] = [_FrameworkMove(m.row + 1, m.col + 1) for m in moves]
        return list(self._offered[color])

    def play(self, move: Any, color: str) -> None:
        position = self._position(color)
        position.push((move.x - 1, move.y - 1))
        self.board = position_to_board(position)
        self._offered.clear()

    def get_clone(self) -> FrameworkBoard:
        return FrameworkBoard(self.board)

    def score(self) -> list:
        flat = [v for row in self.board for v in row]
        return [flat.count(self.WHITE), flat.count(self.BLACK)]


class UFRJBot:
    """A UFRJ ``*_player.py``: run with ``exec``, the last name it defines is the class."""

    def __init__(self, spec: dict, start: dict) -> None:

        if start["game"] != "othello":
            raise BotError("load_error", "UFRJ players play Othello only")
        with open(spec["entry"], encoding="utf-8") as fh:
            source = fh.read()
        namespace: dict = {"__name__": "__ufrj_player__", "__builtins__": __builtins__}
        exec(compile(source, spec["entry"], "exec"), namespace)
        names = [k for k in namespace if k not in ("__name__", "__builtins__")]
        if not names:
            raise BotError("load_error", f"{spec['entry']} defines nothing")
        self.color = (BLACK_STONE, WHITE_STONE)[start["seat"]]
        self.player = namespace[names[-1]](self.color)
        self.name = names[-1]

    def move(self, request: dict, position: Any) -> str:
        board = FrameworkBoard(position_to_board(position))
        offered = board.valid_moves(self.color)
        value = self.player.play(board)
        if value is None:
            return "pass"
        if not any(value is m for m in offered):
            if hasattr(value, "x") and hasattr(value, "y"):
                try:
                    return Move((int(value.x) - 1) * position.size + int(value.y) - 1, position.size).name
                except (TypeError, ValueError):
                    pass
            raise BotError("bad_return", f"play() returned {value!r:.80}, not one of board.valid_moves(color)")
        return Move((value.x - 1) * position.size + value.y - 1, position.size).name


_BOTS = {"builtin": BuiltinBot, "ctu": CTUBot, "ufrj": UFRJBot}


def _failure(exc: BaseException, during: str) -> dict:
    if isinstance(exc, BotError):
        return {"type": "error", "reason": exc.reason, "detail": exc.detail}
    if isinstance(exc, MemoryError):
        reason = "memory"
    elif isinstance(exc, SystemExit):
        reason = "exit"
    elif during == "start":
        reason = "load_error"
    else:
        reason = "exception"
    detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=-4))
    return {"type": "error", "reason": reason, "detail": detail[-2000:]}


def serve(channel: Channel, config: dict) -> int:
    counter = _Counter()
    sys.stdout = sys.stderr = counter
    bot: Any = None
    while True:
        request = channel.receive()
        if request is None or request.get("type") == "end":
            return 0
        start = time.perf_counter()
        kind = request.get("type")
        try:
            if kind == "start":
                bot = _BOTS[config["bot"]["kind"]](config["bot"], request)
                reply: dict = {"type": "ready", "name": bot.name}
            elif kind == "move":
                if bot is None:
                    raise BotError("protocol", "move before start")
                position = _position(request["game"], request["size"], request["history"])
                reply = {"type": "move", "move": bot.move(request, position)}
            else:
                reply = {"type": "error", "reason": "protocol", "detail": f"unknown request {kind!r}"}
        except BaseException as exc:  # the bot's failure, reported; the referee decides
            reply = _failure(exc, kind or "")
        reply["elapsed"] = round(time.perf_counter() - start, 6)
        reply["printed"] = counter.count
        if counter.count and kind == "start":
            reply["printed_head"] = "".join(counter.head)
        channel.send(reply)
        if reply["type"] == "error":
            return 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    config = json.loads(argv[0])
    kept = prepare(config)
    if config["bot"]["kind"] == "external":
        os.dup2(kept["request_fd"], REQUEST_FD)
        os.dup2(kept["reply_fd"], REPLY_FD)
        command = config["bot"]["command"]
        try:
            os.execve(
                command[0],
                command,
                {k: os.environ[k] for k in ("PATH", "HOME", "TMPDIR", "LANG") if k in os.environ}
                | {"GAMECORE_REPLY_FD": str(REPLY_FD)},
            )
        except OSError as exc:
            Channel(REQUEST_FD, REPLY_FD).send(
                {"type": "error", "reason": "load_error", "detail": f"cannot run {command[0]}: {exc}"}
            )
            return 1
    channel = Channel(kept["request_fd"], kept["reply_fd"])
    return serve(channel, config)


if __name__ == "__main__":
    sys.exit(main())
