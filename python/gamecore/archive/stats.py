"""What a pile of archived games holds: players, results, openings (``gamecore archive stats``).

>>> from gamecore.archive import read_transcripts
>>> from gamecore.archive.stats import opening_name
>>> opening_name(read_transcripts("f5d6c3d3c4f4f6g5e3")[0])
'No-Kung'
>>> opening_name(read_transcripts("e6f4c3c4d3")[0])  # e6 first: the Tiger seen through a symmetry
'Tiger'
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ArchiveError
from ..games.othello import Othello
from ._record import ArchiveGame
from .text import read_ggf, read_transcripts
from .wthor import read_wthor

#: How many plies of a game its "line" shows when openings are counted by their moves.
LINE_PLIES = 8
#: Bins of black's disc difference in the score distribution.
MARGIN_BIN = 8


def read_archive(path: str | os.PathLike[str], *, check: bool = True) -> list[ArchiveGame]:
    """The games of any archive file, by its extension: ``.wtb`` (WTHOR), ``.ggf``, else a
    transcript. WTHOR name files (``.jou``, ``.trn``) hold no game: ``[]``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".wtb":
        return read_wthor(path, check=check)
    if suffix in (".jou", ".trn"):
        return []
    if suffix == ".ggf":
        return read_ggf(Path(path), check=check)
    return read_transcripts(Path(path), check=check)


@functools.cache
def opening_names() -> dict[tuple[str, ...], str]:
    """The shipped names of 8x8 openings (``gamecore/data/opening_names.txt``) by their moves."""
    text = resources.files("gamecore").joinpath("data/opening_names.txt").read_text(encoding="utf-8")
    names = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            moves, name = line.split(None, 1)
            names[tuple(moves[i : i + 2] for i in range(0, len(moves), 2))] = name.strip()
    return names


@functools.cache
def _opening_book() -> tuple[dict[tuple[int, int], str], frozenset[tuple[int, int]], int]:
    """The named positions by their symmetric key, every position on the way to one, and
    the longest line: a game is named by the positions it reaches, whatever the order of its
    moves or the symmetry of the board it is seen through (as the NBoard GUI names them)."""
    named, on_the_way, longest = {}, set(), 0
    for moves, name in opening_names().items():
        game = Othello()
        for move in moves:
            game.push(move)
            on_the_way.add(position_key(game))
        named[position_key(game)] = name
        longest = max(longest, len(moves))
    return named, frozenset(on_the_way), longest


def position_key(game: Othello) -> tuple[int, int]:
    """The discs (black, white bitboards) of the position or of one of its images under the
    symmetries of the starting position, the same for all of them."""
    black, white = game.core.bitboards()[:2]
    return min(
        [(black, white)]
        + [(_transform(black, table), _transform(white, table)) for table in _symmetry_tables(game.size)]
    )


#: The symmetries of Othello's starting position (each maps one first move to another).
IDENTITY, TRANSPOSE, ANTI_TRANSPOSE, HALF_TURN = range(4)


def mirror(symmetry: int, col: int, row: int, n: int) -> tuple[int, int]:
    """The (column, row) image of a square of an n x n board under one of the symmetries."""
    if symmetry == TRANSPOSE:
        return row, col
    if symmetry == ANTI_TRANSPOSE:
        return n - 1 - row, n - 1 - col
    if symmetry == HALF_TURN:
        return n - 1 - col, n - 1 - row
    return col, row


def _transform(bits: int, table: tuple[tuple[int, ...], ...]) -> int:
    n = len(table)
    mask = (1 << n) - 1
    out = 0
    for row, images in enumerate(table):
        out |= images[(bits >> (row * n)) & mask]
    return out


@functools.cache
def _symmetry_tables(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each symmetry of the starting position but the identity (transpose, anti-transpose,
    half turn): per row, the image of each pattern of that row's discs (a row at a time keeps
    a transform to n table look-ups)."""
    tables = []
    for symmetry in (TRANSPOSE, ANTI_TRANSPOSE, HALF_TURN):
        per_row = []
        for row in range(n):
            bit_images = [1 << (r * n + c) for c, r in (mirror(symmetry, col, row, n) for col in range(n))]
            per_row.append(
                tuple(sum(bit for col, bit in enumerate(bit_images) if pattern >> col & 1) for pattern in range(1 << n))
            )
        tables.append(tuple(per_row))
    return tuple(tables)


def opening_name(game: ArchiveGame) -> str | None:
    """The name of the last shipped opening the game passes through (8x8 games from the
    standard start), or ``None``."""
    if game.size != 8 or game.start is not None:
        return None
    named, on_the_way, longest = _opening_book()
    name: str | None = None
    board = Othello()
    for move in game.moves[:longest]:
        board.push(move)
        key = position_key(board)
        if key not in on_the_way:
            break
        name = named.get(key, name)
    return name


def normalised_moves(game: ArchiveGame) -> tuple[str, ...]:
    """The moves seen through the symmetry of the starting position that makes the first one
    f5 (on any size: the square right of the centre, one row below it)."""
    if not game.moves or game.start is not None:
        return game.moves
    n = game.size
    columns = "abcdefghij"
    first = (columns.index(game.moves[0][0]), int(game.moves[0][1:]) - 1)
    symmetries = (IDENTITY, TRANSPOSE, ANTI_TRANSPOSE, HALF_TURN)
    turn = next((s for s in symmetries if mirror(s, *first, n) == (n // 2, n // 2 - 1)), IDENTITY)
    out = []
    for move in game.moves:
        col, row = mirror(turn, columns.index(move[0]), int(move[1:]) - 1, n)
        out.append(f"{columns[col]}{row + 1}")
    return tuple(out)


@dataclass
class PlayerRecord:
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def score(self) -> float:
        """Points per game: a win 1, a draw 1/2."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass
class ArchiveStats:
    """Counts over a collection of games (see :func:`archive_stats`)."""

    games: int = 0
    sizes: collections.Counter[int] = field(default_factory=collections.Counter)
    years: collections.Counter[int] = field(default_factory=collections.Counter)
    #: Black's results: 1 (won), 0 (drew), -1 (lost), as recorded.
    results: collections.Counter[int] = field(default_factory=collections.Counter)
    #: Black's disc difference in bins of MARGIN_BIN (see margin_bin).
    margins: collections.Counter[int] = field(default_factory=collections.Counter)
    players: dict[str, PlayerRecord] = field(default_factory=dict)
    openings: collections.Counter[str] = field(default_factory=collections.Counter)
    opening_scores: dict[str, PlayerRecord] = field(default_factory=dict)
    lines: collections.Counter[str] = field(default_factory=collections.Counter)
    #: Games with a theoretical score, and those whose result agrees with it.
    theoretical: int = 0
    theoretical_kept: int = 0

    def as_dict(self, top: int = 10) -> dict[str, Any]:
        """The figures as plain data (``gamecore archive stats --json``)."""
        return {
            "games": self.games,
            "sizes": dict(sorted(self.sizes.items())),
            "years": [min(self.years), max(self.years)] if self.years else None,
            "black_results": {"won": self.results[1], "drew": self.results[0], "lost": self.results[-1]},
            "black_margin_bins": {str(k): v for k, v in sorted(self.margins.items())},
            "players": len(self.players),
            "most_games": [
                {"player": name, "games": r.games, "wins": r.wins, "draws": r.draws, "score": round(r.score, 3)}
                for name, r in self.top_players(top)
            ],
            "openings": [
                {"name": name, "games": count, "black_score": round(self.opening_scores[name].score, 3)}
                for name, count in self.openings.most_common(top)
            ],
            "lines": [{"moves": line, "games": count} for line, count in self.lines.most_common(top)],
            "theoretical": {"games": self.theoretical, "result_kept": self.theoretical_kept},
        }

    def top_players(self, top: int) -> list[tuple[str, PlayerRecord]]:
        return sorted(self.players.items(), key=lambda item: (-item[1].games, item[0]))[:top]


def archive_stats(games: Iterable[ArchiveGame]) -> ArchiveStats:
    """Count games, sizes, years, results, players, named openings and the first plies."""
    stats = ArchiveStats()
    line_of: dict[tuple[int, int], str] = {}
    for game in games:
        stats.games += 1
        stats.sizes[game.size] += 1
        if game.year is not None:
            stats.years[game.year] += 1
        if game.margin is not None:
            stats.margins[margin_bin(game.margin)] += 1
        if game.result is not None:
            stats.results[game.result] += 1
            for name, result in ((game.black, game.result), (game.white, -game.result)):
                if name:
                    _count(stats.players.setdefault(name, PlayerRecord()), result)
        opening = opening_name(game)
        if opening:
            stats.openings[opening] += 1
            if game.result is not None:
                _count(stats.opening_scores.setdefault(opening, PlayerRecord()), game.result)
        if len(game.moves) >= LINE_PLIES and game.start is None:
            key = position_key(dataclasses.replace(game, moves=game.moves[:LINE_PLIES]).replay())
            # one line for all the move orders and symmetric images reaching the position
            line = line_of.setdefault(key, "".join(normalised_moves(game)[:LINE_PLIES]))
            stats.lines[line] += 1
        if game.theoretical_black is not None and game.result is not None:
            stats.theoretical += 1
            half = game.size * game.size // 2
            perfect = (game.theoretical_black > half) - (game.theoretical_black < half)
            stats.theoretical_kept += perfect == game.result
    for name in stats.openings:
        stats.opening_scores.setdefault(name, PlayerRecord())
    return stats


def margin_bin(margin: int) -> int:
    """The bin of a disc difference: 0 a draw, else the end nearest 0 of a run of MARGIN_BIN
    (1 holds +1..+8, -1 holds -8..-1), so that draws and narrow wins stand apart."""
    if margin == 0:
        return 0
    size = (abs(margin) - 1) // MARGIN_BIN * MARGIN_BIN + 1
    return size if margin > 0 else -size


def _count(record: PlayerRecord, result: int) -> None:
    record.games += 1
    record.wins += result == 1
    record.draws += result == 0


def format_stats(stats: ArchiveStats, top: int = 10) -> str:
    """The figures as a readable report."""
    lines = [f"games: {stats.games}"]
    if stats.sizes:
        lines.append("boards: " + ", ".join(f"{n}x{n} {count}" for n, count in sorted(stats.sizes.items())))
    if stats.years:
        first, last = min(stats.years), max(stats.years)
        lines.append(f"years: {first}" + (f"-{last}" if last != first else ""))
    decided = sum(stats.results.values())
    if decided:
        won, drew, lost = stats.results[1], stats.results[0], stats.results[-1]
        lines.append(
            f"black won {won} ({_pct(won, decided)}), drew {drew} ({_pct(drew, decided)}), "
            f"lost {lost} ({_pct(lost, decided)}) of {decided} games with a result"
        )
    if stats.theoretical:
        lines.append(
            f"result as perfect play from the theoretical depth on: {stats.theoretical_kept} of "
            f"{stats.theoretical} ({_pct(stats.theoretical_kept, stats.theoretical)})"
        )
    if stats.players:
        lines += ["", f"players: {len(stats.players)}; most games:"]
        lines += [
            f"  {name:<24} {r.games:>6} games  {r.wins:>5} won  {r.draws:>4} drawn  score {100 * r.score:5.1f} %"
            for name, r in stats.top_players(top)
        ]
    if stats.openings:
        named = sum(stats.openings.values())
        lines += ["", f"most played openings ({named} of {stats.games} games named; black's score):"]
        lines += [
            f"  {name:<24} {count:>6}  ({_pct(count, stats.games)})  black {100 * stats.opening_scores[name].score:5.1f} %"
            for name, count in stats.openings.most_common(top)
        ]
    if stats.lines:
        lines += [
            "",
            f"most played positions after {LINE_PLIES} plies (one line for its move orders and mirror images):",
        ]
        lines += [f"  {line}  {count:>6}" for line, count in stats.lines.most_common(top)]
    if stats.margins:
        lines += ["", "black's disc difference:"]
        widest = max(stats.margins.values())
        for near in sorted(stats.margins):
            count = stats.margins[near]
            far = near + (MARGIN_BIN - 1 if near > 0 else -(MARGIN_BIN - 1))
            span = "draw" if near == 0 else f"{min(near, far):+d} to {max(near, far):+d}"
            bar = "#" * max(1, round(40 * count / widest))
            lines.append(f"  {span:>12}  {count:>6}  {bar}")
    return "\n".join(lines) + "\n"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %"


def read_all(paths: Sequence[str | os.PathLike[str]], *, check: bool = True) -> list[ArchiveGame]:
    """The games of every file, in order.

    :raises ArchiveError: no file given, or a file that cannot be read (the message names it).
    """
    if not paths:
        raise ArchiveError("no archive file given")
    games: list[ArchiveGame] = []
    for path in paths:
        games += read_archive(path, check=check)
    return games
