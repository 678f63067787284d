"""The WTHOR databases of the Fédération Française d'Othello: games (``.wtb``), players
(``.jou``) and tournaments (``.trn``).

Every file starts with a 16-byte header (little-endian):

========  ==================================================================
bytes     meaning
========  ==================================================================
0-3       the file's creation date: century, year in the century, month, day
4-7       number of games (``.wtb``; 0 in the name files)
8-9       number of names (``.jou``/``.trn``; 0 in game files)
10-11     the year the games were played
12        board size (0 or 8: 8x8; 10x10 files are not read here)
13        1 for a solitaire file (not read here), else 0
14        the depth of the theoretical scores (empties solved perfectly)
15        reserved
========  ==================================================================

then a ``.wtb`` holds 68-byte games: tournament id, black id, white id (3 x u16), black's
disc count at the end (the empty squares count for the winner), black's theoretical score,
and 60 move bytes ``10 * row + column`` (1-based; 0 once the game is over). A ``.jou``
holds 20-byte player names, a ``.trn`` 26-byte tournament names (latin-1, NUL-padded).
"""

from __future__ import annotations

import datetime
import os
import struct
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import ArchiveError
from ._record import ArchiveGame, result_of

HEADER = struct.Struct("<BBBBIHHBBBB")
GAME = struct.Struct("<HHHBB60s")
PLAYER_NAME_BYTES = 20
TOURNAMENT_NAME_BYTES = 26
COLUMNS = "abcdefgh"


def read_wthor(
    path: str | os.PathLike[str],
    *,
    players: Sequence[str] | None = None,
    tournaments: Sequence[str] | None = None,
    check: bool = True,
) -> list[ArchiveGame]:
    """The games of a ``.wtb`` file, each replayed and checked (``check=False`` skips that).

    Names come from ``players``/``tournaments`` when given, else from ``WTHOR.JOU`` and
    ``WTHOR.TRN`` next to the file when they are there, else they stay ``""`` (the ids are
    kept in ``wthor_ids`` either way).

    :raises ArchiveError: a truncated file, a header count that disagrees with the file's
        length, a byte that is no square, an id with no name, a move the rules forbid.
    """
    path = Path(path)
    data = _read(path)
    header = _header(path, data)
    count, _names, year, board, solitaire, depth = header
    if solitaire:
        raise ArchiveError(f"{path.name}: a solitaire file (not a game file)")
    if board not in (0, 8):
        raise ArchiveError(f"{path.name}: board size byte {board}; only 8x8 WTHOR games are read")
    body = len(data) - HEADER.size
    if body % GAME.size:
        raise ArchiveError(f"{path.name}: {body} bytes after the header, not a whole number of {GAME.size}-byte games")
    if body // GAME.size != count:
        raise ArchiveError(f"{path.name}: the header says {count} games, the file holds {body // GAME.size}")
    if players is None:
        players = _sibling_names(path, "WTHOR.JOU", read_wthor_players)
    if tournaments is None:
        tournaments = _sibling_names(path, "WTHOR.TRN", read_wthor_tournaments)
    games: list[ArchiveGame] = []
    for index in range(count):
        record = GAME.unpack_from(data, HEADER.size + index * GAME.size)
        game = _game(path.name, index, record, year, depth, players, tournaments)
        if check:
            game.replay()
        games.append(game)
    return games


def _game(
    name: str,
    index: int,
    record: tuple[int, int, int, int, int, bytes],
    year: int,
    depth: int,
    players: Sequence[str] | None,
    tournaments: Sequence[str] | None,
) -> ArchiveGame:
    tournament_id, black_id, white_id, black_discs, theoretical, move_bytes = record
    where = f"{name}, game {index}"
    moves = []
    for number, code in enumerate(move_bytes, 1):
        if code == 0:
            if any(move_bytes[number:]):
                raise ArchiveError(
                    f"{where}: a move after the end of the game (byte {number} is 0, a later one is not)"
                )
            break
        row, col = divmod(code, 10)
        if not (1 <= row <= 8 and 1 <= col <= 8):
            raise ArchiveError(
                f"{where}: move {number} is byte {code}, which is no square (10 * row + column, 11 to 88)"
            )
        moves.append(f"{COLUMNS[col - 1]}{row}")
    if black_discs > 64 or theoretical > 64:
        raise ArchiveError(f"{where}: a score above 64 (real {black_discs}, theoretical {theoretical})")
    return ArchiveGame(
        moves=tuple(moves),
        black=_name(players, black_id, where, "player"),
        white=_name(players, white_id, where, "player"),
        tournament=_name(tournaments, tournament_id, where, "tournament"),
        year=year,
        black_discs=black_discs,
        theoretical_black=theoretical,
        theoretical_depth=depth,
        margin=2 * black_discs - 64,
        result=result_of(2 * black_discs - 64),
        source=(name, index),
        wthor_ids=(tournament_id, black_id, white_id),
    )


def _name(names: Sequence[str] | None, number: int, where: str, kind: str) -> str:
    if names is None:
        return ""
    if number >= len(names):
        raise ArchiveError(f"{where}: {kind} id {number}, but the {kind} file has {len(names)} names")
    return names[number]


def read_wthor_players(path: str | os.PathLike[str]) -> list[str]:
    """The player names of a ``.jou`` file, by id (a game's player id is an index here)."""
    return _read_names(Path(path), PLAYER_NAME_BYTES)


def read_wthor_tournaments(path: str | os.PathLike[str]) -> list[str]:
    """The tournament names of a ``.trn`` file, by id."""
    return _read_names(Path(path), TOURNAMENT_NAME_BYTES)


def _read_names(path: Path, width: int) -> list[str]:
    data = _read(path)
    _games, count, *_rest = _header(path, data)
    body = len(data) - HEADER.size
    if body % width:
        raise ArchiveError(f"{path.name}: {body} bytes after the header, not a whole number of {width}-byte names")
    if body // width != count:
        raise ArchiveError(f"{path.name}: the header says {count} names, the file holds {body // width}")
    start = HEADER.size
    return [
        data[start + i * width : start + (i + 1) * width].split(b"\0", 1)[0].decode("latin-1").strip()
        for i in range(count)
    ]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ArchiveError(f"{path}: cannot read: {exc.strerror or exc}") from exc


def _header(path: Path, data: bytes) -> tuple[int, int, int, int, int, int]:
    if len(data) < HEADER.size:
        raise ArchiveError(f"{path.name}: {len(data)} bytes, shorter than the {HEADER.size}-byte WTHOR header")
    _century, _yy, _month, _day, games, names, year, board, solitaire, depth, _reserved = HEADER.unpack_from(data)
    return games, names, year, board, solitaire, depth


def _sibling_names(path: Path, filename: str, reader: object) -> list[str] | None:
    """The name file beside ``path``, found whatever the case of its name."""
    for candidate in path.parent.iterdir() if path.parent.is_dir() else ():
        if candidate.name.upper() == filename:
            return reader(candidate)  # type: ignore[operator, no-any-return]
    return None


# -- writing ---------------------------------------------------------------------------


def write_wthor(
    path: str | os.PathLike[str],
    games: Iterable[ArchiveGame],
    *,
    year: int | None = None,
    depth: int | None = None,
    created: datetime.date | None = None,
) -> None:
    """Write 8x8 games as a ``.wtb`` file.

    Ids come from each game's ``wthor_ids`` (0 when it has none); ``year`` and ``depth``
    default to the first game's. A game with no recorded disc count gets its replayed one
    (empties to the winner, as WTHOR counts).

    :raises ArchiveError: a game not on 8x8 or from a non-standard start, more than 60
        moves, or a move the rules forbid.
    """
    games = list(games)
    records = []
    for game in games:
        if game.size != 8 or game.start is not None:
            raise ArchiveError(f"{game.where()}: WTHOR holds 8x8 games from the standard start only")
        final = game.replay()
        black_discs = game.black_discs if game.black_discs is not None else _wthor_count(final.score())
        theoretical = game.theoretical_black if game.theoretical_black is not None else black_discs
        move_bytes = bytes(10 * int(name[1:]) + COLUMNS.index(name[0].lower()) + 1 for name in game.moves)
        tournament_id, black_id, white_id = game.wthor_ids or (0, 0, 0)
        records.append(
            GAME.pack(tournament_id, black_id, white_id, black_discs, theoretical, move_bytes.ljust(60, b"\0"))
        )
    first = games[0] if games else None
    year = year if year is not None else (first.year if first and first.year is not None else 0)
    depth = (
        depth
        if depth is not None
        else (first.theoretical_depth if first and first.theoretical_depth is not None else 0)
    )
    header = _pack_header(created, games=len(records), names=0, year=year, board=8, depth=depth)
    Path(path).write_bytes(header + b"".join(records))


def _wthor_count(score: tuple[int, int]) -> int:
    black, white = score
    empty = 64 - black - white
    return black + empty if black > white else black if black < white else black + empty // 2


def write_wthor_players(
    path: str | os.PathLike[str], names: Sequence[str], *, created: datetime.date | None = None
) -> None:
    """Write player names as a ``.jou`` file (a name's index is its id)."""
    _write_names(Path(path), names, PLAYER_NAME_BYTES, created)


def write_wthor_tournaments(
    path: str | os.PathLike[str], names: Sequence[str], *, created: datetime.date | None = None
) -> None:
    """Write tournament names as a ``.trn`` file."""
    _write_names(Path(path), names, TOURNAMENT_NAME_BYTES, created)


def _write_names(path: Path, names: Sequence[str], width: int, created: datetime.date | None) -> None:
    body = []
    for name in names:
        raw = name.encode("latin-1")
        if len(raw) >= width:
            raise ArchiveError(f"{path.name}: the name {name!r} is longer than {width - 1} bytes")
        body.append(raw.ljust(width, b"\0"))
    path.write_bytes(_pack_header(created, games=0, names=len(body), year=0, board=0, depth=0) + b"".join(body))


def _pack_header(created: datetime.date | None, *, games: int, names: int, year: int, board: int, depth: int) -> bytes:
    created = created or datetime.date.today()
    century, yy = divmod(created.year, 100)
    return HEADER.pack(century, yy, created.month, created.day, games, names, year, board, 0, depth, 0)
