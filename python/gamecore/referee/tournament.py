"""The round robin: schedule, identity, running the games (threads or Dask), resuming.

Every table of ``seats`` players (two for Othello and Tetralath) meets once per size; a
match is ``games`` games (default 2) and game ``g`` of a match seats the players rotated
by ``g`` (for two players: the colours swapped, each starts one). Games are keyed
``game/size/i-j/g<g>`` over the players' order on the command line, so a run, a resumed run
and a parallel run play the very same games with the very same seeds.

``workers`` games run at once on this machine (default: one per core, so that a bot thinking
for 5 s gets a core to itself and timing stays fair; each game's referee work is a thread of
this process, the bots are their own processes). With ``scheduler`` (a Dask address, or
``"local"`` for a ``LocalCluster``) the games run on Dask workers, see
:mod:`gamecore.referee.cluster`; either way the results are written here, into the one
database, as each game ends.

When the referee cannot build a bot's sandbox (:class:`~gamecore.referee.sandbox.SandboxError`:
its own failure, not the bot's), that game is not stored and no new game is started; the
games already running finish and are stored (on Dask: every other game is played and
stored), then :func:`run_tournament` raises one :class:`GamecoreError` naming the game. Fix
the set-up and run the same command: it resumes with the missing games.

Resuming checks every stored record against the tournament it claims to be (its key
scheduled, its players the bots of that game, its moves legal from the start position): a
damaged database stops the referee with one line naming the file and the record.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TextIO

from .._progress import Progress
from ..errors import GamecoreError, InvalidLimitError
from .bots import MAX_BYTES, MAX_FILES, resolve
from .cluster import run_on_dask
from .db import DamagedDatabaseError, ResultsDB
from .games import game_class, start_position
from .play import play_game
from .report import standings
from .rules import DEFAULT_RULES, BotSpec, GameRecord, Rules, Task
from .sandbox import SandboxError, become_subreaper, isolation_for

__all__ = ["TournamentConfig", "schedule", "identity", "run_tournament"]


@dataclass
class TournamentConfig:
    players: list[str]
    game: str = "othello"
    sizes: list[int] | None = None
    time: float = DEFAULT_RULES.time
    grace: float = DEFAULT_RULES.grace
    startup: float = DEFAULT_RULES.startup
    bank: float = DEFAULT_RULES.bank
    games: int | None = None
    points: tuple[float, float, float] = (2.0, 1.0, 0.0)
    seed: int = 0
    memory_mb: int = DEFAULT_RULES.memory_mb
    disk_mb: int = DEFAULT_RULES.disk_mb
    isolation: str = DEFAULT_RULES.isolation
    workers: int | None = None
    scheduler: str | None = None
    db: str = "tournament.sqlite"
    out: str | None = None
    progress: bool | None = None
    submission_bytes: int = MAX_BYTES
    submission_files: int = MAX_FILES
    bots: list[BotSpec] = field(default_factory=list)

    @property
    def rules(self) -> Rules:
        """The limits every game is played under."""
        return Rules(
            time=self.time,
            grace=self.grace,
            startup=self.startup,
            bank=self.bank,
            isolation=self.isolation,
            memory_mb=self.memory_mb,
            disk_mb=self.disk_mb,
        )

    def resolve(self) -> None:
        rules = game_class(self.game)
        self.sizes = list(self.sizes or rules.tournament_sizes)
        for size in self.sizes:
            start_position(self.game, size)  # a size the game is not played on: one clear error
        if len(set(self.sizes)) != len(self.sizes):
            raise GamecoreError("a size is given twice in --sizes")
        if not (self.time > 0 and self.grace >= 0 and self.startup > 0 and self.bank >= 0):
            raise InvalidLimitError("time and start-up limits must be > 0, grace and bank >= 0")
        if self.games is None:
            self.games = max(2, rules.seats)  # every bot plays every seat of its table
        if self.games < 1:
            raise InvalidLimitError("a match has at least one game")
        self.bots = [
            resolve(p, self.game, max_bytes=self.submission_bytes, max_files=self.submission_files)
            for p in self.players
        ]
        if len(self.bots) < rules.seats:
            raise GamecoreError(f"a {self.game} tournament needs at least {rules.seats} players")
        names = [b["name"] for b in self.bots]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise GamecoreError(f"two players are called {', '.join(twice)}: name them with NAME=SPEC")


def identity(config: TournamentConfig) -> dict[str, object]:
    """What makes a tournament itself: everything that changes which games are played or how
    they come out (not the number of workers, the output folder or the progress bar)."""
    return {
        "game": config.game,
        "sizes": list(config.sizes or []),
        "players": [[b["name"], b["kind"], b["digest"]] for b in config.bots],
        "time": config.time,
        "grace": config.grace,
        "startup": config.startup,
        "bank": config.bank,
        "games": config.games,
        "points": list(config.points),
        "seed": config.seed,
        "memory_mb": config.memory_mb,
        "disk_mb": config.disk_mb,
        "isolation": config.isolation,
    }


def _seed(base: int, key: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{base}:{key}".encode()).digest()[:4], "big")


def _hidden_paths(config: TournamentConfig) -> list[str]:
    paths = []
    db = os.path.abspath(config.db)
    paths += [db, db + "-wal", db + "-shm", db + "-journal"]
    if config.out:
        paths.append(os.path.abspath(config.out))
    for bot in config.bots:
        if bot["kind"] != "builtin":
            source = os.path.abspath(os.path.expanduser(bot["source"]))
            paths.append(os.path.dirname(source) if os.path.basename(source) == "player.py" else source)
    return paths


def schedule(config: TournamentConfig) -> list[Task]:
    """Every game of the tournament as a task for :func:`gamecore.referee.play.play_game`, in order."""
    seats = game_class(config.game).seats
    rules = config.rules.as_dict()
    hide = _hidden_paths(config)
    games = config.games or max(2, seats)
    tasks: list[Task] = []
    for size in config.sizes or []:
        for table in itertools.combinations(range(len(config.bots)), seats):
            for g in range(games):
                order = table[g % seats :] + table[: g % seats]
                key = f"{config.game}/{size}/{'-'.join(map(str, table))}/g{g}"
                tasks.append(
                    {
                        "key": key,
                        "ordinal": len(tasks),
                        "game": config.game,
                        "size": size,
                        "seed": _seed(config.seed, key),
                        "table": list(table),
                        "seats": list(order),
                        "bots": [config.bots[i] for i in order],
                        "rules": rules,
                        "hide": hide,
                    }
                )
    return tasks


def _leader(config: TournamentConfig, records: list[GameRecord]) -> str:
    table = standings(config, records, rated=False)
    if not table:
        return "-"
    top = table[0]
    return f"{top['player']} ({top['points']:g} pts)"


def _run_local(tasks: list[Task], workers: int, store: Callable[[GameRecord], None]) -> None:
    """Play ``tasks``, ``workers`` at once, storing each record as it comes. After a failure
    no new game starts; the games in flight finish and are stored, then the failure is raised."""
    failure: BaseException | None = None
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="referee-game") as pool:
        pending = iter(tasks)
        running = {pool.submit(play_game, t) for t in itertools.islice(pending, workers)}
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    record = future.result()
                except Exception as exc:  # noqa: BLE001 (raised below, once the others are stored)
                    failure = failure or exc
                    continue
                store(record)
                nxt = None if failure else next(pending, None)
                if nxt is not None:
                    running.add(pool.submit(play_game, nxt))
            if failure:
                for future in running:
                    future.cancel()
    if failure:
        raise failure


def _check_stored(config: TournamentConfig, tasks: list[Task], records: list[GameRecord], path: str) -> None:
    """Every stored record is a game of this tournament, played by its bots, legal move by move."""
    by_key = {t["key"]: t for t in tasks}
    for record in records:
        task = by_key.get(record["key"])
        problem = None
        if task is None:
            problem = "not a game of this tournament"
        elif record["players"] != [b["name"] for b in task["bots"]] or record["size"] != task["size"]:
            problem = "not the players or the size this tournament schedules under its key"
        else:
            position = start_position(config.game, task["size"])
            for move in record["moves"]:
                try:
                    position.push(move["move"])
                except (ValueError, TypeError) as exc:
                    problem = f"the move {move['move'][:20]!r} cannot be played ({exc})"
                    break
        if problem:
            raise DamagedDatabaseError(
                f"the database {path} is damaged: the game record {record['key'][:80]!r}: {problem}"
            )


def run_tournament(
    config: TournamentConfig, *, stream: TextIO = sys.stderr, after_game: Callable[[GameRecord], None] | None = None
) -> list[GameRecord]:
    """Play every game not yet in the database, then return all records in schedule order."""
    config.resolve()
    if not config.scheduler:  # on Dask, each worker's machine decides (and refuses) for itself
        isolation_for(config.isolation, config.bots, stream)
    tasks = schedule(config)
    db = ResultsDB(config.db)
    try:
        db.claim(identity(config))
        records = list(db.records())
        _check_stored(config, tasks, records, config.db)
        done = {r["key"] for r in records}
        todo = [t for t in tasks if t["key"] not in done]
        progress = Progress(
            len(tasks),
            "games",
            label="tournament",
            stream=stream,
            quiet=config.progress is False,
            tty=config.progress or None,  # --progress: the terminal line even into a pipe
            done=len(done),
        )
        progress.update(len(done), lambda: f"leader: {_leader(config, records)}")
        lock = threading.Lock()
        ordinals = {t["key"]: t["ordinal"] for t in tasks}

        def store(record: GameRecord) -> None:
            with lock:
                db.add(ordinals[record["key"]], record)
                records.append(record)
                progress.update(len(records), lambda: f"leader: {_leader(config, records)}")
                if after_game:
                    after_game(record)

        try:
            if todo and config.scheduler:
                run_on_dask(todo, config.scheduler, store, workers=config.workers)
            elif todo:
                become_subreaper()
                _run_local(todo, config.workers or os.cpu_count() or 1, store)
        except SandboxError as exc:
            raise GamecoreError(
                f"the referee could not build a bot's sandbox, {exc}; that game was not stored "
                f"({len(records)} of {len(tasks)} games are); fix the set-up and run the same command to resume"
            ) from None
        finally:
            progress.finish()
        return list(db.records())
    finally:
        db.close()
