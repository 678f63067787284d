"""The tournament's results in an embedded SQLite database (WAL, one transaction per game).

Two tables: ``meta`` (the tournament's identity: the normalised command, see
:func:`gamecore.referee.tournament.identity`; and the pid of the referee using it) and ``games``
(one row per finished game, primary key the game's key, the record as JSON). A game is
written in one transaction when it ends, so a referee killed at any moment (even ``SIGKILL``)
loses at most the games in flight, never a finished one, and the primary key makes a second
copy of a game impossible. The file (and its ``-wal``/``-shm`` companions) is made ``0600``.

One referee per database: opening it takes an exclusive ``flock`` on the file, held until
:meth:`ResultsDB.close` (or the referee's death); a second referee is refused with "in use by
another referee (pid N)" before it plays anything. A damaged database (not SQLite, a broken
page, a missing table, a record that is not a game record) raises one :class:`GamecoreError`
naming the file and the record, never a raw SQLite, JSON or key error.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import GamecoreError
from .rules import GameRecord

__all__ = ["ResultsDB", "DamagedDatabaseError", "check_record"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    ordinal INTEGER NOT NULL,
    record TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
"""


class DamagedDatabaseError(GamecoreError):
    """The results database cannot be read as a tournament's (the message names the file and record)."""


def _is(value: object, kind: type) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)


def _list_of(value: object, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, list) and all(check(v) for v in value)


def check_record(record: Any) -> str | None:
    """What is wrong with a stored game record (its shape, not its moves), or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    fields: dict[str, Callable[[Any], bool]] = {  # each reads a JSON value
        "key": lambda v: _is(v, str) and v.count("/") >= 3,
        "size": lambda v: _is(v, int),
        "players": lambda v: _list_of(v, lambda p: _is(p, str)) and len(v) >= 2,
        "places": lambda v: _list_of(v, lambda p: _is(p, int)),
        "score": lambda v: _list_of(v, lambda p: _is(p, int) or _is(p, float)),
        "moves": lambda v: _list_of(
            v,
            lambda m: (
                isinstance(m, dict)
                and _is(m.get("seat"), int)
                and _is(m.get("move"), str)
                and (_is(m.get("time"), float) or _is(m.get("time"), int))
            ),
        ),
        "forfeits": lambda v: _list_of(
            v,
            lambda f: (
                isinstance(f, dict)
                and _is(f.get("seat"), int)
                and _is(f.get("player"), str)
                and _is(f.get("reason"), str)
            ),
        ),
        "winner": lambda v: v is None or _is(v, str),
        "termination": lambda v: _is(v, str),
    }
    for name, ok in fields.items():
        if name not in record:
            return f"no field {name!r}"
        if not ok(record[name]):
            return f"a bad {name!r} field ({str(record[name])[:60]})"
    if len(record["places"]) != len(record["players"]):
        return "places and players differ in length"
    return None


class ResultsDB:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = -1
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        old_umask = os.umask(0o077)
        try:
            self._take_lock()
            self.conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
            with self._reading("its set-up"):
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=FULL")
                self.conn.executescript(_SCHEMA)
                self.conn.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('referee', ?)", (json.dumps({"pid": os.getpid()}),)
                )
        except BaseException:
            self._release()
            raise
        finally:
            os.umask(old_umask)
        for suffix in ("", "-wal", "-shm"):
            try:
                os.chmod(path + suffix, 0o600)
            except OSError:
                pass

    def _take_lock(self) -> None:
        # flock on the database file itself: independent of SQLite's own (fcntl) locks on
        # Linux, released by the kernel when the referee dies, even by SIGKILL.
        self._lock = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._lock)
            self._lock = -1
            raise GamecoreError(
                f"the database {self.path} is in use by another referee (pid {self._holder()}); "
                "wait for it to finish, or give another --db"
            ) from None

    def _holder(self) -> str:
        """The pid the referee holding the lock wrote into the database ('unknown' if unreadable)."""
        try:
            conn = sqlite3.connect(f"file:{os.path.abspath(self.path)}?mode=ro", uri=True, timeout=2)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'referee'").fetchone()
            finally:
                conn.close()
            return str(int(json.loads(row[0])["pid"]))
        except (sqlite3.Error, TypeError, ValueError, KeyError):
            return "unknown"

    def _release(self) -> None:
        if self._lock >= 0:
            os.close(self._lock)  # closing the descriptor drops the flock
            self._lock = -1

    def _reading(self, what: str) -> Any:
        return _Damage(self.path, what)

    def identity(self) -> dict[str, object] | None:
        with self._reading("its 'identity' record"):
            row = self.conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
            if not row:
                return None
            identity: object = json.loads(row[0])
            if not isinstance(identity, dict):
                raise ValueError("not a JSON object")
            return identity

    def claim(self, identity: dict[str, object]) -> None:
        """Tie the database to this tournament, or refuse a different one clearly."""
        existing = self.identity()
        if existing is None:
            with self._reading("its 'identity' record"):
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
        return {record["key"] for record in self.records()}

    def add(self, ordinal: int, record: GameRecord) -> None:
        """Store a finished game (one transaction)."""
        with self._reading(f"the game {record['key']!r}"), self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(
                "INSERT INTO games (key, ordinal, record) VALUES (?, ?, ?)",
                (record["key"], ordinal, json.dumps(record, sort_keys=True)),
            )

    def records(self) -> Iterator[GameRecord]:
        """Every stored game record, checked (:func:`check_record`), in schedule order."""
        with self._reading("its games table"):
            rows = self.conn.execute("SELECT key, record FROM games ORDER BY ordinal").fetchall()
        for key, text in rows:
            with self._reading(f"the game record {str(key)[:80]!r}"):
                record = json.loads(text)
                problem = check_record(record)
                if problem is None and record["key"] != key:
                    problem = f"it is filed under another key ({str(record['key'])[:80]!r})"
                if problem:
                    raise ValueError(problem)
            yield record

    def count(self) -> int:
        with self._reading("its games table"):
            count: int = self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            return count

    def close(self) -> None:
        try:
            self.conn.close()
        finally:
            self._release()


class _Damage:
    """Turns what a damaged database raises while reading ``what`` into one clear error."""

    def __init__(self, path: str, what: str) -> None:
        self.path = path
        self.what = what

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if exc is None or isinstance(exc, (GamecoreError, sqlite3.IntegrityError)):
            return  # (a second copy of a game is the caller's bug, not damage)
        if isinstance(exc, (sqlite3.DatabaseError, ValueError, TypeError, KeyError, RecursionError)):
            raise DamagedDatabaseError(
                f"the database {self.path} is damaged or not a tournament's: {self.what} cannot be read ({exc})"
            ) from None
