"""The text formats: plain transcripts (``f5d6c3...``) and GGF game records (GGS, NBoard).

A transcript holds one game a line, the moves run together or spaced, optionally followed
by whitespace and a number read from black's side: -1, 0 or 1 the result (as in Egaroucid's
self-play records), any other integer black's disc difference. ``#`` starts a comment line.

A GGF record is ``(;GM[Othello]PB[..]PW[..]RE[..]TY[8]BO[8 ... *]B[d3]W[c5]...;)``: tags,
the starting board ``BO`` (size, one character a square: ``-`` empty, ``*`` black, ``O``
white, then the side to move) and the moves, each ``square/evaluation/time`` with the last
two optional; ``PA`` is a pass.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..errors import ArchiveError, GamecoreError
from ..games.othello import PASS, Othello, OthelloMove, parse_move_list
from ._record import ArchiveGame, result_of

TEXT_SOURCE = "<text>"
_RESULT_RE = re.compile(r"^(.*?)\s+([-+]?\d+)$")
_GGF_GAME_RE = re.compile(r"\(;(.*?);\)", re.S)
_GGF_TAG_RE = re.compile(r"([A-Za-z]+)\[((?:\\.|[^\]\\])*)\]", re.S)
_GGF_CELLS = {"-": "-", "*": "X", "O": "O", "o": "O", "x": "X", "X": "X"}


def _load(path_or_text: str | os.PathLike[str]) -> tuple[str, str]:
    """(text, source name): a path (``Path`` or an existing file's name) is read, a str is the text."""
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str) and "\n" not in path_or_text and os.path.isfile(path_or_text)
    ):
        path = Path(path_or_text)
        try:
            return path.read_text(encoding="utf-8", errors="replace"), path.name
        except OSError as exc:
            raise ArchiveError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    if not isinstance(path_or_text, str):
        raise ArchiveError(f"expected a path or the text of an archive, got {type(path_or_text).__name__}")
    return path_or_text, TEXT_SOURCE


# -- transcripts -------------------------------------------------------------------------


def read_transcripts(path_or_text: str | os.PathLike[str], *, size: int = 8, check: bool = True) -> list[ArchiveGame]:
    """The games of a transcript file or text, one a line, each replayed and checked.

    :raises ArchiveError: a line that is no game record, or a move the rules forbid; the
        message names the source and the game's index (its line number is in it too).
    """
    text, name = _load(path_or_text)
    games: list[ArchiveGame] = []
    for line_number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        index = len(games)
        moves_text, number = line, None
        found = _RESULT_RE.match(line)
        if found:
            moves_text, number = found.group(1), int(found.group(2))
        try:
            codes = parse_move_list(moves_text, size)
        except GamecoreError as exc:
            raise ArchiveError(f"{name}, game {index} (line {line_number}): {exc}") from exc
        margin = number if number is not None and abs(number) > 1 else None
        game = ArchiveGame(
            moves=tuple(OthelloMove(code, size).name for code in codes if code != PASS),
            size=size,
            margin=margin,
            result=result_of(number),
            source=(name, index),
        )
        if check:
            try:
                game.replay()
            except ArchiveError as exc:  # say the line too: transcripts are edited by hand
                raise ArchiveError(str(exc).replace(game.where(), f"{game.where()} (line {line_number})", 1)) from exc
        games.append(game)
    return games


def write_transcript(games: Iterable[ArchiveGame], path: str | os.PathLike[str] | None = None) -> str:
    """The games as transcript lines (``f5d6c3... 1`` when the result is known); also written
    to ``path`` when given.

    :raises ArchiveError: a game from a non-standard start (a transcript cannot say it).
    """
    lines = []
    for game in games:
        if game.start is not None:
            raise ArchiveError(f"{game.where()}: a transcript cannot record a non-standard starting position")
        line = "".join(game.moves)
        if game.result is not None:
            line += f" {game.result}"
        lines.append(line)
    text = "".join(line + "\n" for line in lines)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


# -- GGF ----------------------------------------------------------------------------------


def read_ggf(path_or_text: str | os.PathLike[str], *, check: bool = True) -> list[ArchiveGame]:
    """The Othello games of a GGF file or text, each replayed and checked (a non-standard
    ``BO`` start is honoured; its size, 4 to 10, is the board's).

    :raises ArchiveError: a record with no ``BO``, a board gamecore does not play, text that
        is no GGF, a move the rules forbid.
    """
    text, name = _load(path_or_text)
    games: list[ArchiveGame] = []
    for index, found in enumerate(_GGF_GAME_RE.finditer(text)):
        game = _ggf_game(found.group(1), (name, index))
        if check:
            game.replay()
        games.append(game)
    if not games and text.strip():
        raise ArchiveError(f"{name}: no GGF game record '(;GM[Othello]...;)' in it")
    return games


def _ggf_game(body: str, source: tuple[str, int]) -> ArchiveGame:
    where = f"{source[0]}, game {source[1]}"
    tags: list[tuple[str, str]] = []
    moves: list[str] = []
    board = None
    for key, raw in _GGF_TAG_RE.findall(body):
        key = key.upper()
        value = re.sub(r"\\(.)", r"\1", raw)
        if key in ("B", "W"):
            square = value.split("/", 1)[0].strip().lower()
            if square not in ("pa", "pass"):
                moves.append(square)
        elif key == "BO":
            board = value
        elif key == "GM":
            if value.strip().lower() != "othello":
                raise ArchiveError(f"{where}: GM[{value}] is not an Othello game")
        else:
            tags.append((key, value))
    if board is None:
        raise ArchiveError(f"{where}: no starting board BO[...]")
    size, start = _ggf_board(board, where)
    found = dict(tags)
    margin = _ggf_margin(found.get("RE"), where)
    kept = tuple((k, v) for k, v in tags if k not in ("PB", "PW") and not (k == "RE" and ":" not in v))
    return ArchiveGame(
        moves=tuple(moves),
        size=size,
        black=found.get("PB", ""),
        white=found.get("PW", ""),
        year=_ggf_year(found.get("DT", "")),
        margin=margin,
        result=result_of(margin),
        start=start,
        source=source,
        tags=kept,
    )


def _ggf_board(value: str, where: str) -> tuple[int, str | None]:
    tokens = value.split()
    try:
        size = int(tokens[0])
    except (IndexError, ValueError):
        raise ArchiveError(f"{where}: BO[{value}] does not start with the board size") from None
    squares = "".join(tokens[1:])
    if len(squares) != size * size + 1 or any(ch not in _GGF_CELLS for ch in squares[:-1]):
        raise ArchiveError(f"{where}: BO[{value}] is not {size * size} squares (-, * or O) and the side to move")
    text = "".join(_GGF_CELLS[ch] for ch in squares[:-1]) + " " + _GGF_CELLS.get(squares[-1], "?")
    try:
        position = Othello.from_text(text)
    except GamecoreError as exc:
        raise ArchiveError(f"{where}: BO[{value}]: {exc}") from exc
    return size, (None if position == Othello(size) else position.to_text())


def _ggf_margin(value: str | None, where: str) -> int | None:
    if value is None or value.strip() in ("", "?"):
        return None
    number = value.split(":", 1)[0].strip()
    try:
        return round(float(number))
    except ValueError:
        raise ArchiveError(f"{where}: RE[{value}] is not black's disc difference") from None


def _ggf_year(value: str) -> int | None:
    found = re.match(r"\s*(\d{4})(?:[.\-/_]|\s*$)", value)
    if found:
        return int(found.group(1))
    try:  # GGS also writes seconds since 1970
        seconds = float(value)
    except ValueError:
        return None
    if not 1e8 < seconds < 1e11:
        return None
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).year


def write_ggf(game: ArchiveGame) -> str:
    """One GGF record for ``game``: players, its other tags in their order, the result, the
    board and the moves, the forced passes written out as ``PA`` (as GGS records them).
    Records joined by newlines make a GGF file.

    :raises ArchiveError: a move the rules forbid.
    """
    tags = [("PB", game.black), ("PW", game.white)] if game.black or game.white else []
    tags += game.tags
    keys = {key for key, _ in tags}
    if "TY" not in keys:
        tags.append(("TY", str(game.size)))
    if "RE" not in keys and game.margin is not None:
        tags.append(("RE", f"{game.margin:+d}" if game.margin else "0"))
    parts = ["(;GM[Othello]"] + [f"{key}[{_escape(value)}]" for key, value in tags]
    position = game.start_position()
    parts.append(f"BO[{_ggf_board_text(position)}]")
    for before, move in game.positions():
        while before.turn != position.turn:  # a forced pass came between
            parts.append(f"{'BW'[position.turn]}[PA]")
            position.push("pass")
        parts.append(f"{'BW'[before.turn]}[{move.name.upper()}]")
        position.push(move)
    if not position.is_game_over() and position.legal_moves()[0].is_pass:  # a pass ends the record
        parts.append(f"{'BW'[position.turn]}[PA]")
    parts.append(";)")
    return "".join(parts)


def _ggf_board_text(position: Othello) -> str:
    text, side = position.to_text().split()
    n = position.size
    cells = text.replace("X", "*")
    rows = " ".join(cells[r * n : (r + 1) * n] for r in range(n))
    return f"{n} {rows} {'*' if side == 'X' else 'O'}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")
