"""What the referee passes around, typed, and its default limits, written once.

- :class:`Rules`: the limits every game of a tournament (or a check) is played under. Its
  defaults are the course's: 5 s a move, 0.5 s grace, 20 s to start, no time bank, 1024 MB
  of memory and 64 MB of disk a bot. The command line, :class:`TournamentConfig`,
  :func:`check_bot` and :func:`play_game` all read them from :data:`DEFAULT_RULES`.
- :class:`BotSpec`, :class:`Task`, :class:`GameRecord`: the dicts a bot, a scheduled game and a
  played game are. They stay plain dicts (they are pickled to Dask workers and stored as JSON);
  these ``TypedDict`` s say what they hold.
- :class:`StartRequest`, :class:`MoveRequest`: the protocol lines the referee writes to a bot
  (see :mod:`gamecore.referee`); :data:`Reply`: a line a bot writes back, untrusted; :class:`HostConfig`: what the referee
  tells a bot host on its command line.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, TypedDict, cast

__all__ = [
    "Rules",
    "DEFAULT_RULES",
    "RulesDict",
    "BotSpec",
    "Task",
    "GameRecord",
    "MoveRecord",
    "Forfeit",
    "StartRequest",
    "MoveRequest",
    "Reply",
    "Message",
    "HostConfig",
]


class RulesDict(TypedDict):
    """:class:`Rules` as a task carries it."""

    time: float
    grace: float
    startup: float
    bank: float
    isolation: str
    memory_mb: int
    disk_mb: int


@dataclass(frozen=True)
class Rules:
    """The limits a game is played under (seconds and megabytes)."""

    #: Seconds a move.
    time: float = 5.0
    #: Seconds over ``time`` still accepted: the referee's own overhead, not thinking time.
    grace: float = 0.5
    #: Seconds to load a bot and answer ``start``.
    startup: float = 20.0
    #: Seconds a game that moves over ``time`` may draw on.
    bank: float = 0.0
    #: ``auto``, ``full`` or ``basic`` (see :mod:`gamecore.referee.sandbox`).
    isolation: str = "auto"
    #: Memory cap of a bot.
    memory_mb: int = 1024
    #: Disk a bot may write in its private ``/tmp``.
    disk_mb: int = 64

    def as_dict(self) -> RulesDict:
        return cast(RulesDict, asdict(self))  # the dataclass's fields are RulesDict's keys


#: The course's limits (see :class:`Rules`).
DEFAULT_RULES = Rules()


class BotSpec(TypedDict, total=False):
    """A bot as :func:`gamecore.referee.bots.resolve` makes it."""

    name: str
    #: ``builtin``, ``ctu``, ``ufrj`` or ``external`` (a JSON-lines program).
    kind: str
    #: The spec or path given on the command line.
    source: str
    #: SHA-256 of the submission (or of the spec), part of the tournament's identity.
    digest: str
    #: The submission's files, relative path -> bytes (not for built-in players).
    files: dict[str, bytes]
    #: The file a course bot is loaded from (``player.py``, ``x_player.py``).
    entry: str
    #: An external bot's command, relative to its files.
    command: list[str]
    #: The built-in player spec (``engine:depth=6``).
    spec: str
    #: Why the submission was refused; such a bot forfeits without being started.
    refused: str


class Task(TypedDict, total=False):
    """One game to play, as :func:`gamecore.referee.tournament.schedule` makes it."""

    key: str
    ordinal: int
    game: str
    size: int
    seed: int
    #: The players' numbers at this table, and in the order of the seats.
    table: list[int]
    seats: list[int]
    bots: list[BotSpec]
    rules: RulesDict
    #: Paths the bots must not see.
    hide: list[str]


class MoveRecord(TypedDict):
    seat: int
    move: str
    time: float


class Forfeit(TypedDict, total=False):
    seat: int
    #: One of :data:`gamecore.referee.play.FORFEIT_REASONS`.
    reason: str
    detail: str
    player: str


class GameRecord(TypedDict, total=False):
    """A played game, as :func:`gamecore.referee.play.play_game` returns it and the database,
    ``games.json`` and the HTML replay hold it."""

    key: str
    game: str
    size: int
    players: list[str]
    first: str
    moves: list[MoveRecord]
    #: The winner's name, ``None`` on a draw.
    winner: str | None
    #: Finishing place of each seat (0 best; equal places tie).
    places: list[int]
    #: Discs, stones or balls of each seat at the end.
    score: list[int]
    #: ``normal`` or ``forfeit``.
    termination: str
    #: Why the game ended, in words (``neither side can move``, the first forfeit's reason).
    reason: str
    forfeits: list[Forfeit]
    #: Characters each seat printed (thrown away).
    printed: list[int]
    #: UTC start, ``2026-11-24T14:20:45Z``.
    started: str
    #: Seconds.
    duration: float


class StartRequest(TypedDict):
    """``start``: load the bot and get ready."""

    type: str
    game: str
    size: int
    seat: int
    seats: int
    time: float
    seed: int


class MoveRequest(TypedDict):
    """``move``: the position (board rows of -1 empty or a seat; the moves so far) and the clock."""

    type: str
    game: str
    size: int
    seat: int
    turn: int
    board: list[list[int]]
    #: The names of the legal moves; the reply must be one of them.
    legal: list[str]
    history: list[str]
    time: float
    bank: float


#: A line a bot (or its host) writes: a JSON object whose every value the referee checks before
#: it uses it (``isinstance``), since the bot wrote it.
Reply = dict[str, object]

#: A protocol line as the bot host decodes it from the referee (trusted: the referee wrote it).
Message = dict[str, Any]


class HostConfig(TypedDict):
    """The bot host's command line (:mod:`gamecore.referee.host`), as the referee writes it."""

    #: The bot without its files (they come in the memfd ``archive_fd``).
    bot: BotSpec
    #: ``full`` or ``basic`` isolation.
    mode: str
    #: The bot's working folder.
    work: str
    #: The uid the bot runs as (``None``: the referee's own, when it is not root).
    uid: int | None
    #: ``setrlimit`` limits by name (``memory``, ``cpu``, ``fsize``, ``nproc``).
    limits: dict[str, int]
    request_fd: int
    reply_fd: int
    archive_fd: int
    #: An external bot's program, to be made executable (``None`` for a Python bot).
    executable: str | None
