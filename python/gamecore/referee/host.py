"""The bot host: one process per bot and game, between the referee and an untrusted bot.

Started by the referee (``python -m gamecore.referee.host CONFIG_JSON``), in ``full`` isolation
inside bubblewrap's namespaces and the bot's cgroup (see :mod:`gamecore.referee.sandbox`). In
order, it:

1. takes the protocol channel away from the bot: requests arrive on the fd the referee names
   (``request_fd``) and replies leave on ``reply_fd``; the host keeps private copies and points
   fds 0, 1 and 2 (the bot's prints, also from C code) at ``/dev/null``;
   ``sys.stdout``/``sys.stderr`` become counters that keep the first 2 KB, so a printing bot
   is never punished and the compliance check can report its noise;
2. unpacks the bot's files from the referee's memfd into its working folder (a private tmpfs,
   ``/bot``, in ``full`` isolation), creating every file itself (no path of the bot is followed),
   gives them to the bot's uid, sets ``PR_SET_NO_NEW_PRIVS`` and drops to that uid (never root),
   then sets the per-process limits (``RLIMIT_AS``, an ``RLIMIT_CPU`` backstop, ``RLIMIT_FSIZE``,
   no core files). A failure here is the referee's: the host replies
   ``{"type": "error", "reason": "setup"}`` before any code of the bot has run;
3. loads the bot (a built-in player, a CTU ``player.py``, a UFRJ ``*_player.py`` run with
   ``exec``) and answers the referee; or, for an external program, ``exec``-s it with the
   channel on fds 0 and 3 so that it speaks the protocol itself.

The protocol (JSON lines) is documented in :mod:`gamecore.referee`.
"""

from __future__ import annotations

import ctypes
import importlib
import inspect
import json
import os
import resource
import struct
import sys
import time
import traceback
from typing import Any

from ..adapters.ufrj import BLACK_STONE, WHITE_STONE, board_to_position, position_to_board
from ..games import _othello_patterns
from ..games.othello import Move
from ..players import make_player
from .games import start_position

REQUEST_FD = 0
REPLY_FD = 3
_KEEP_PRINTED = 2048
_PR_SET_NO_NEW_PRIVS = 38
_ARCHIVE_MAGIC = b"GCBOT1\n"  # gamecore.referee.sandbox.pack_files writes it


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
        tell(self._out, message)


def tell(fd: int, message: dict) -> None:
    """Write one protocol line to ``fd``."""
    data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
    while data:
        data = data[os.write(fd, data) :]


# -- sandbox set-up (runs as the referee's trusted code, before the bot is loaded) ---------------


class SetupError(Exception):
    """The host could not build the bot's side of the sandbox: the referee's failure."""


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def _unpack(fd: int, work: bytes, executable: bytes | None) -> list[bytes]:
    """Write the files the referee packed into memfd ``fd`` under ``work`` (paths are bytes,
    relative, without ``..``; nothing is followed: files are created, never opened). Returns
    the paths written."""
    with os.fdopen(fd, "rb") as archive:
        if archive.read(len(_ARCHIVE_MAGIC)) != _ARCHIVE_MAGIC:
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


def _set_limits(limits: dict) -> None:

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
    put(resource.RLIMIT_CORE, 0)


def _read_package_data() -> None:
    """Map gamecore's own data files (the Othello evaluation's weights, read when a board
    size is first used) while the host may still read them: in ``basic`` isolation the bot's
    uid cannot, when the package is installed under a folder closed to others."""
    for size in range(4, 11, 2):
        _othello_patterns.load_table(size)


def _drop_privileges(uid: int) -> None:
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() == 0 or os.geteuid() == 0 or os.getgid() == 0:  # pragma: no cover - the kernel said yes
        raise SetupError("could not drop root")


def prepare(config: dict) -> dict:
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


def build(config: dict) -> str:
    """The bot's side of the sandbox, after :func:`prepare`: its files in its working folder
    (``/bot``, a private tmpfs, in ``full`` isolation), then its own uid, ``no_new_privs`` and
    the resource limits. Returns the working folder."""
    _read_package_data()  # first: in full isolation /tmp (where a venv may live) goes to the bot below
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
    _set_limits(config.get("limits") or {})
    return os.fsdecode(work)


# -- the bots -------------------------------------------------------------------------------------


class BotError(Exception):
    """What the bot did wrong, with the forfeit reason the referee records."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


def _position(game: str, size: int, history: list[str]) -> Any:

    position = start_position(game, size)
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
    """``player.py`` with ``MyPlayer``; colours are the seats. Constructed as the course framework
    does: positionally, ``MyPlayer(my_color, opponent_color)`` on 8x8 (the CTU framework's
    headless_reversi_creator.py calls ``player_module.MyPlayer(p2_color, p1_color)`` and plays
    size 8), and ``MyPlayer(my_color, opponent_color, board_size)`` on other sizes when the
    constructor takes a third argument."""

    def __init__(self, spec: dict, start: dict) -> None:

        module_name = os.path.splitext(spec["entry"])[0]
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
        cls = getattr(module, "MyPlayer", None)
        if cls is None:
            raise BotError("load_error", f"{spec['entry']} defines no MyPlayer class")
        seat = start["seat"]
        self.size = start["size"]
        args: tuple = (seat, 1 - seat)
        if self.size != 8 and _accepts(cls, args + (self.size,)):
            args += (self.size,)
        elif not _accepts(cls, args) and _accepts(cls, args + (self.size,)):
            args += (self.size,)  # a constructor that needs board_size gets it on 8x8 too
        try:
            self.player = cls(*args)
        except TypeError as exc:
            shown = "MyPlayer(my_color, opponent_color" + (", board_size)" if len(args) == 3 else ")")
            raise BotError("load_error", f"{shown} failed: {exc}") from None
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


def _accepts(cls: Any, args: tuple) -> bool:
    """Whether ``cls(*args)`` binds to its constructor's parameters (True when unknowable)."""
    try:
        inspect.signature(cls).bind(*args)
    except TypeError:
        return False
    except ValueError:  # no signature to read (a C type): let the call itself tell
        return True
    return True


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
    try:
        build(config)
    except (OSError, SetupError, ValueError, struct.error) as exc:  # the referee's failure, not the bot's
        Channel(kept["request_fd"], kept["reply_fd"]).send(
            {"type": "error", "reason": "setup", "detail": f"{type(exc).__name__}: {exc}"[:2000]}
        )
        return 1
    # The set-up is done and the bot's code runs from here on: a "setup" error after this line
    # can only be the bot's forgery (the referee reads this line, see BotProcess.receive).
    tell(kept["reply_fd"], {"type": "sandboxed"})
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
