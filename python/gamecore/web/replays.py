"""Tournament games to replay: a tournament's ``games.json`` (``gamecore tournament --out``)
or its results database (``--db``), read once; or a ``games.json`` the page uploads."""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3
from dataclasses import dataclass
from typing import Any

from ..games import GAMES
from .games import BadRequest

__all__ = ["Replays", "MAX_GAMES"]

MAX_GAMES = 20_000


@dataclass
class Replays:
    games: list[dict[str, Any]]
    source: str

    @classmethod
    def from_json(cls, data: Any, source: str) -> Replays:
        if not isinstance(data, list) or not data or len(data) > MAX_GAMES:
            raise BadRequest(f"a games.json is a list of 1 to {MAX_GAMES} game records")
        if not all(isinstance(g, dict) for g in data):
            raise BadRequest("every game of a games.json is a JSON object")
        return cls(data, source)

    @classmethod
    def load(cls, path: str) -> Replays:
        """Read ``path``: JSON (games.json) or SQLite (the referee's database, read-only)."""
        with open(path, "rb") as fh:
            head = fh.read(16)
        name = os.path.basename(path)
        if head.startswith(b"SQLite format 3"):
            # read-only, without the referee's lock: a running tournament's database may be watched
            conn = sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro", uri=True)
            try:
                rows = conn.execute("SELECT record FROM games ORDER BY ordinal LIMIT ?", (MAX_GAMES,)).fetchall()
            finally:
                conn.close()
            return cls.from_json([json.loads(text) for (text,) in rows], name)
        with open(path, encoding="utf-8") as fh:
            return cls.from_json(json.load(fh), name)

    def title(self, index: int) -> str:
        game = self.games[index]
        players = game.get("players")
        names = " vs ".join(str(p) for p in players) if isinstance(players, list) else "?"
        kind = str(game.get("game", "?"))
        size = game.get("size")
        several = len(GAMES[kind].sizes) > 1 if kind in GAMES else False  # a size worth saying
        board = f" {size}x{size}" if several and isinstance(size, int) else ""
        return f"{index + 1}. {kind}{board}: {names}"[:200]
