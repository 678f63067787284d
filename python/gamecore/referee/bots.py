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
bytes, at most :data:`MAX_BYTES` in all) and ``digest`` (SHA-256 of what defines the bot, part
of the tournament's identity: a changed file is a changed tournament).
"""

from __future__ import annotations

import hashlib
import os
import re

from ..errors import GamecoreError
from ..players import make_player

__all__ = ["resolve", "MAX_BYTES"]

#: Cap on the files shipped with a bot (the CTU upload limit is 1 MB; this leaves room).
MAX_BYTES = 16 << 20
_NAME = re.compile(r"^[A-Za-z0-9_.\-+ ]{1,64}$")


def _read_folder(folder: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", ".git"))
        for name in sorted(names):
            if name.endswith(".pyc"):
                continue
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue
            total += os.path.getsize(path)
            if total > MAX_BYTES:
                raise GamecoreError(f"the bot folder {folder} holds more than {MAX_BYTES >> 20} MB")
            with open(path, "rb") as fh:
                files[os.path.relpath(path, folder)] = fh.read()
    return files


def _read_file(path: str) -> dict[str, bytes]:
    if os.path.getsize(path) > MAX_BYTES:
        raise GamecoreError(f"the bot file {path} is over {MAX_BYTES >> 20} MB")
    with open(path, "rb") as fh:
        return {os.path.basename(path): fh.read()}


def _digest(bot: dict) -> str:
    h = hashlib.sha256()
    for key in ("kind", "spec", "entry"):
        h.update(repr(bot.get(key)).encode())
    h.update(repr(bot.get("command")).encode())
    for rel, data in sorted((bot.get("files") or {}).items()):
        h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def resolve(argument: str, game: str = "othello") -> dict:
    """The bot a command-line player argument names (see the module docs).

    :raises GamecoreError: an unreadable file, an unknown built-in name or option, a bad name.
    """
    if not isinstance(argument, str) or not argument.strip():
        raise GamecoreError("a player is a built-in spec, a player file or folder, or NAME=SPEC")
    name: str | None = None
    spec = argument.strip()
    head, eq, tail = spec.partition("=")
    if eq and ":" not in head and not os.path.exists(spec) and _NAME.match(head):
        name, spec = head.strip(), tail.strip()
    path = os.path.expanduser(spec)
    bot: dict
    if os.path.isdir(path):
        folder = os.path.abspath(path)
        default = os.path.basename(folder.rstrip("/"))
        if os.path.isfile(os.path.join(folder, "player.py")):
            bot = {"kind": "ctu", "entry": "player.py", "files": _read_folder(folder)}
        else:
            runner = next((n for n in ("run", "bot") if os.access(os.path.join(folder, n), os.X_OK)), None)
            if runner is None:
                raise GamecoreError(f"{spec}: a bot folder needs a player.py (CTU) or an executable 'run' (protocol)")
            bot = {"kind": "external", "command": [runner], "files": _read_folder(folder)}
    elif os.path.isfile(path):
        path = os.path.abspath(path)
        base = os.path.basename(path)
        default = base
        if base == "player.py":
            default = os.path.basename(os.path.dirname(path))
            bot = {"kind": "ctu", "entry": "player.py", "files": _read_folder(os.path.dirname(path))}
        elif base.endswith(".py"):
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            ctu = not base.endswith("_player.py") and re.search(r"^class\s+MyPlayer\b", text, re.M)
            bot = {"kind": "ctu" if ctu else "ufrj", "entry": base, "files": _read_file(path)}
        elif os.access(path, os.X_OK):
            bot = {"kind": "external", "command": [base], "files": _read_file(path)}
        else:
            raise GamecoreError(f"{spec}: not a .py player, a bot folder or an executable program")
    else:
        if os.sep in spec or spec.endswith(".py"):
            raise GamecoreError(f"{spec}: no such file or folder")
        try:
            player = make_player(spec)
        except ValueError as exc:
            raise GamecoreError(f"{spec}: {exc}") from None
        if player.name == "human":
            raise GamecoreError("a human cannot play in a tournament")
        default = spec
        bot = {"kind": "builtin", "spec": spec}
    if bot["kind"] in ("ctu", "ufrj") and game != "othello":
        raise GamecoreError(f"{spec}: {bot['kind'].upper()} course players play Othello only")
    bot["name"] = name or default
    bot["source"] = spec
    bot["digest"] = _digest(bot)
    return bot
