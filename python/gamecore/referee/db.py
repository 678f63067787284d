"""The tournament's results in an embedded SQLite database (WAL, one transaction per game).

Two tables: ``meta`` (the tournament's identity: the normalised command, see
:func:`gamecore.referee.tournament.identity`) and ``games`` (one row per finished game,
primary key the game's key, the record as JSON). A game is written in one transaction
when it ends, so a referee killed at any moment (even ``SIGKILL``) loses at most the
games in flight, never a finished one, and the primary key makes a second copy of a game
impossible. The file (and its ``-wal``/``-shm`` companions) is made ``0600``.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator

from ..errors import GamecoreError

__all__ = ["ResultsDB"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    ordinal INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
"""


class ResultsDB:
    def __init__(self, path: str) -> None:
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        old_umask = os.umask(0o077)
        try:
            self.conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise GamecoreError(f"{path} is not a tournament database ({exc})") from None
        finally:
            os.umask(old_umask)
        for suffix in ("", "-wal", "-shm"):
            try:
                os.chmod(path + suffix, 0o600)
            except OSError:
                pass

    def identity(self) -> dict | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
        return json.loads(row[0]) if row else None

    def claim(self, identity: dict) -> None:
        """Tie the database to this tournament, or refuse a different one clearly."""
        existing = self.identity()
        if existing is None:
            self.conn.execute("INSERT INTO meta VALUES ('identity', ?)", (json.dumps(identity, sort_keys=True),))
            return
        if existing != json.loads(json.dumps(identity)):
            fields = sorted(
                k for k in set(existing) | set(identity) if existing.get(k) != json.loads(json.dumps(identity.get(k)))
            )
            raise GamecoreError(
                f"the database {self.path} holds a different tournament (it differs in: {', '.join(fields)}); "
                "run the same command to resume it, or give another --db for a new tournament"
            )

    def done(self) -> set[str]:
        return {row[0] for row in self.conn.execute("SELECT key FROM games")}

    def add(self, ordinal: int, record: dict) -> None:
        """Store a finished game (one transaction)."""
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(
                "INSERT INTO games (key, ordinal, record) VALUES (?, ?, ?)",
                (record["key"], ordinal, json.dumps(record, sort_keys=True)),
            )

    def records(self) -> Iterator[dict]:
        for (text,) in self.conn.execute("SELECT record FROM games ORDER BY ordinal"):
            yield json.loads(text)

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def close(self) -> None:
        self.conn.close()
