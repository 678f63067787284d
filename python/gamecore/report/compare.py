"""``gamecore compare rolit``: the n-player algorithms against each other in four-player Rolit.

Every game seats the four algorithms at the four colours; game ``g`` rotates them by ``g``
places, so over a multiple of four games every algorithm plays every seat equally. Each
seat has its own :class:`~gamecore.search.engine.Engine` for the whole game (its table or
MCTS tree is reused from move to move), searching ``time`` seconds a move. MCTS seeds come
from ``seed``, game and seat. Per algorithm it counts: states explored (``SearchResult.nodes``)
per game and per move, the peak memory of its search structures, the time per move and per
game, wins by the course's tie rule (among tied colours, the first to reach the top score
wins), plain ties at the top, and the average final balls.

Writes, in ``out``: ``report.md`` (the table), ``summary.csv`` (one row per algorithm),
``games.csv`` (one row per game and seat), and with matplotlib (``pip install
"gamecore[report]"``): ``charts.png`` (four panels), ``win_rate.png`` and ``report.pdf``, one
page that reads as the course's bonus report.
"""

from __future__ import annotations

import csv
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..games.rolit import Rolit
from ..search.engine import Engine
from .table import ALGORITHMS, COLUMNS, markdown

try:
    from . import pdf
except ImportError:  # matplotlib is the optional ``report`` extra: Markdown and CSV only
    pdf = None  # type: ignore[assignment]

#: What to install for the charts and the PDF.
INSTALL_HINT = 'PNG charts and the PDF need matplotlib: pip install "gamecore[report]" (or pip install matplotlib)'

__all__ = ["ALGORITHMS", "INSTALL_HINT", "AlgorithmStats", "GameRecord", "compare_rolit", "play_game", "write_report"]

SEATS = 4


@dataclass
class SeatRecord:
    algorithm: str
    colour: str
    moves: int = 0
    states: int = 0
    seconds: float = 0.0
    peak_memory: int = 0
    balls: int = 0


@dataclass
class GameRecord:
    number: int
    seats: list[SeatRecord]
    winner: str  #: the colour that won by the tie rule
    tied: tuple[str, ...]  #: colours level at the top (empty when one colour had the most balls)


@dataclass
class AlgorithmStats:
    algorithm: str
    games: int = 0
    moves: int = 0
    states: int = 0
    seconds: float = 0.0
    peak_memory: int = 0
    wins: int = 0
    ties: int = 0
    balls: int = 0
    seats: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def row(self) -> dict[str, Any]:
        games, moves = max(self.games, 1), max(self.moves, 1)
        return {
            "algorithm": self.algorithm,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 3),
            "ties_at_top": self.ties,
            "average_balls": round(self.balls / games, 2),
            "states_per_game": round(self.states / games),
            "states_per_move": round(self.states / moves),
            "peak_memory_bytes": self.peak_memory,
            "seconds_per_move": round(self.seconds / moves, 4),
            "seconds_per_game": round(self.seconds / games, 3),
        }


def play_game(number: int, time_limit: float, seed: int, backend: str | None = None) -> GameRecord:
    """One four-player game, the algorithms rotated by ``number`` seats."""
    game = Rolit(backend=backend)
    colours = [str(colour.initial) for colour in game.colours]
    seats = []
    engines = []
    for seat in range(SEATS):
        algorithm = ALGORITHMS[(seat + number) % len(ALGORITHMS)]
        seats.append(SeatRecord(algorithm, colours[seat]))
        engines.append(Engine(algorithm=algorithm, seed=seed * 1000 + number * SEATS + seat))
    while not game.is_game_over():
        seat = game.player
        start = time.perf_counter()
        result = engines[seat].search(game, time_limit=time_limit)
        record = seats[seat]
        record.seconds += time.perf_counter() - start
        record.moves += 1
        record.states += result.nodes
        record.peak_memory = max(record.peak_memory, result.memory)
        assert result.move is not None  # the game is not over
        game.push(result.move)
    outcome = game.outcome()
    assert outcome is not None
    counts = list(outcome.scores.values())
    for seat, record in enumerate(seats):
        record.balls = counts[seat]
    # Every colour plays (four players): a colour's seat is its number.
    winner = colours[int(outcome.winner)] if outcome.winner is not None else ""
    return GameRecord(number, seats, winner, tuple(colours[int(c)] for c in outcome.tied))


def _progress(stream: TextIO, done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    elapsed = time.perf_counter() - started
    left = elapsed / done * (total - done) if done else 0.0
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {left:.0f} s left ")
    stream.flush()


def compare_rolit(
    games: int,
    time_limit: float,
    out: str,
    seed: int = 0,
    backend: str | None = None,
    stream: TextIO | None = None,
) -> dict[str, AlgorithmStats]:
    """Play ``games`` seat-rotated games, write the report into ``out``, return the stats.

    A progress bar goes to ``stream`` (default stderr) when it is a terminal.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time must be a number of seconds > 0, got {time_limit!r}")
    stream = sys.stderr if stream is None else stream
    show = hasattr(stream, "isatty") and stream.isatty()
    records = []
    started = time.perf_counter()
    for number in range(games):
        if show:
            _progress(stream, number, games, started)
        records.append(play_game(number, time_limit, seed, backend))
    if show:
        _progress(stream, games, games, started)
        stream.write("\n")
    stats = summarise(records)
    write_report(stats, records, out, time_limit=time_limit, seed=seed)
    return stats


def summarise(records: list[GameRecord]) -> dict[str, AlgorithmStats]:
    stats = {name: AlgorithmStats(name) for name in ALGORITHMS}
    for record in records:
        for seat in record.seats:
            entry = stats[seat.algorithm]
            entry.games += 1
            entry.moves += seat.moves
            entry.states += seat.states
            entry.seconds += seat.seconds
            entry.peak_memory = max(entry.peak_memory, seat.peak_memory)
            entry.balls += seat.balls
            entry.seats[seat.colour] = entry.seats.get(seat.colour, 0) + 1
            entry.wins += seat.colour == record.winner
            entry.ties += seat.colour in record.tied
    return stats


def write_report(
    stats: dict[str, AlgorithmStats], records: list[GameRecord], out: str, time_limit: float, seed: int
) -> list[str]:
    """Write the Markdown, the CSVs and (with matplotlib) the charts and the PDF; return the paths."""
    os.makedirs(out, exist_ok=True)
    paths = []
    path = os.path.join(out, "report.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(markdown(stats, time_limit, len(records)))
    paths.append(path)
    path = os.path.join(out, "summary.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        summary = csv.DictWriter(f, fieldnames=[key for key, _ in COLUMNS])
        summary.writeheader()
        for entry in stats.values():
            summary.writerow(entry.row())
    paths.append(path)
    path = os.path.join(out, "games.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(
            ["game", "colour", "algorithm", "balls", "won", "tied", "moves", "states", "seconds", "peak_memory"]
        )
        for record in records:
            for seat in record.seats:
                writer.writerow(
                    [
                        record.number,
                        seat.colour,
                        seat.algorithm,
                        seat.balls,
                        int(seat.colour == record.winner),
                        int(seat.colour in record.tied),
                        seat.moves,
                        seat.states,
                        round(seat.seconds, 4),
                        seat.peak_memory,
                    ]
                )
    paths.append(path)
    if pdf is not None:
        paths += pdf.write_charts(stats, out, time_limit=time_limit, games=len(records), seed=seed)
    return paths
