"""The bot host: one process per bot and game, between the referee and an untrusted bot.

Started by the referee (``python -m gamecore.referee.host CONFIG_JSON``), in ``full`` isolation
inside bubblewrap's namespaces and the bot's cgroup (see :mod:`gamecore.referee.sandbox`). In
order, it:

1. takes the protocol channel away from the bot: requests arrive on the fd the referee names
   (``request_fd``) and replies leave on ``reply_fd``; the host keeps private copies and points
   fds 0, 1 and 2 (the bot's prints, also from C code) at ``/dev/null``;
   ``sys.stdout``/``sys.stderr`` become counters that keep the first 2 KB, so a printing bot
   is never punished and the compliance check can report its noise;
2. builds the bot's side of the sandbox (:mod:`gamecore.referee.jail`): its files from the
   referee's memfd in its working folder (a private tmpfs, ``/bot``, in ``full`` isolation), its
   own uid, ``PR_SET_NO_NEW_PRIVS``, the per-process limits. A failure here is the referee's:
   the host replies ``{"type": "error", "reason": "setup"}`` before any code of the bot has run;
3. loads the bot (:mod:`gamecore.referee.course_bots`: a built-in player, a CTU ``player.py``, a
   UFRJ ``*_player.py`` run with ``exec``) and answers the referee (:func:`serve`, the protocol
   loop); or, for an external program, ``exec``-s it with the channel on fds 0 and 3 so that it
   speaks the protocol itself.

The protocol (JSON lines) is documented in :mod:`gamecore.referee`.
"""

from __future__ import annotations

import json
import os
import struct
import sys
import time
import traceback
from typing import Any, cast

# Everything the host runs is imported here, before build() hides the paths it came from.
from ..games import Position
from .course_bots import BOTS, Bot, BotError
from .games import start_position
from .jail import SetupError, build, prepare
from .rules import HostConfig, Message, MoveRequest, StartRequest

REQUEST_FD = 0
REPLY_FD = 3
_KEEP_PRINTED = 2048


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

    def receive(self) -> Message | None:
        while b"\n" not in self._buffer:
            chunk = self._in.read(65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        message: Message = json.loads(line)
        return message

    def send(self, message: Message) -> None:
        tell(self._out, message)


def tell(fd: int, message: Message) -> None:
    """Write one protocol line to ``fd``."""
    data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
    while data:
        data = data[os.write(fd, data) :]


def _position(game: str, size: int, history: list[str]) -> Position[Any]:
    position = start_position(game, size)
    for name in history:
        position.push(name)
    return position


def _failure(exc: BaseException, during: str) -> Message:
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


def serve(channel: Channel, config: HostConfig) -> int:
    counter = _Counter()
    sys.stdout = sys.stderr = counter
    bot: Bot | None = None
    while True:
        request = channel.receive()
        if request is None or request.get("type") == "end":
            return 0
        start = time.perf_counter()
        kind = request.get("type")
        # a request is the referee's own line (play._start, play._ask): its shape is trusted
        try:
            if kind == "start":
                bot = BOTS[config["bot"]["kind"]](config["bot"], cast(StartRequest, request))
                reply: Message = {"type": "ready", "name": bot.name}
            elif kind == "move":
                if bot is None:
                    raise BotError("protocol", "move before start")
                position = _position(request["game"], request["size"], request["history"])
                reply = {"type": "move", "move": bot.move(cast(MoveRequest, request), position)}
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
    config: HostConfig = json.loads(argv[0])
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
