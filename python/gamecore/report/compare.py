"""``gamecore compare GAME``: the n-player algorithms against each other, in any game.

The Rolit course's bonus asks to compare Max^n and MCTS by states explored per whole game, space
used and execution time. This plays Max^n (shallow pruning), paranoid, Best-Reply Search and
MCTS in games of any registered game (``gamecore compare rolit``: four-player Rolit, the
course's question; ``compare othello``, ``compare tetralath``: two seats) and measures, per
algorithm:

- states explored: ``SearchResult.nodes`` of every search (positions visited; MCTS: positions
  played into in selection and simulation), summed over the algorithm's moves of a game;
- space: the search's own count of its structures (``SearchResult.memory_used``: table entries
  filled x entry size and recursion frames, MCTS tree nodes x node size) at its peak over the
  game, and, as a
  cross-check, the growth of the peak resident set of a fresh process that replays one game's
  positions with that algorithm alone (:func:`peak_rss`);
- time: the searching thread's CPU time (and the wall time) of every ``Engine.search`` call,
  measured around the call, per move and per game, and the share of its budget it used.

Max^n without shallow pruning (``maxn-plain``) is not seated: it searches, with the same
budget, every position where Max^n is to move (its move is not played), so the two are
measured on the same positions.

A cycle in four-player Rolit is 24 games: the 6 cyclic orders of the four algorithms x 4
rotations (:func:`seatings`), so every algorithm plays every seat, and after every other
algorithm, equally often; with fewer seats (two in Othello) a cycle is every ordered choice of
that many algorithms (12 games). What the game is -- its start, its seats, its colours' letters,
its longest game -- comes from the game class (``GAMES[name]``), never from its name. ``head_to_head`` adds, per pair of algorithms, the 6 ways of seating two of
each (:func:`pair_seatings`). Budgets are CPU seconds a move (``Engine(clock="cpu")``) so
that figures reproduce on a loaded machine, or states a move (``--states``). Each seat has
its own :class:`~gamecore.search.engine.Engine` for the whole game (table or tree reused).
MCTS seeds come from ``seed``, game and seat. Wins follow the course's tie rule (among tied
colours the first to reach the top score wins); win rates carry 95 % Wilson intervals.

Writes, in ``out``: ``report.md``, ``summary.csv`` (one row per algorithm), ``games.csv``
(one row per game and seat), ``moves.csv`` (one row per search), ``head_to_head.csv`` (when
played) and, with matplotlib (``pip install "gamecore[report]"``), ``charts.png`` and
``report.pdf``, one page.
"""

from __future__ import annotations

import csv
import itertools
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, TextIO

from .._deprecated import renamed
from .._progress import Progress
from ..errors import InvalidLimitError, InvalidOptionError
from ..games import GAMES
from ..games.base import Position
from ..runner import MoveRecord, Seat, run_game, seat_letters
from ..search.engine import Engine, SearchResult
from .table import ALGORITHMS, MEASURED, SHADOWS, markdown

try:
    from . import pdf
except ImportError:  # matplotlib is the optional ``report`` extra: Markdown and CSV only
    pdf = None  # type: ignore[assignment]
#: Whether the charts and the PDF can be drawn here (matplotlib installed).
HAS_CHARTS = pdf is not None

#: What to install for the charts and the PDF.
INSTALL_HINT = 'PNG charts and the PDF need matplotlib: pip install "gamecore[report]" (or pip install matplotlib)'

__all__ = [
    "ALGORITHMS",
    "INSTALL_HINT",
    "HAS_CHARTS",
    "AlgorithmStats",
    "Budget",
    "ComparisonGame",
    "MoveRecord",
    "compare_game",
    "compare_rolit",
    "start_position",
    "pair_seatings",
    "peak_rss",
    "play_game",
    "seatings",
    "wilson",
]

#: The game ``gamecore compare`` plays unless told: the Rolit course's question.
DEFAULT_GAME = "rolit"
#: Seats of four-player Rolit (the default game's).
SEATS = 4


def start_position(game: str = DEFAULT_GAME, backend: str | None = None) -> Position[Any]:
    """The start of game ``game`` (a name of ``GAMES``) as the comparison plays it: its default
    setting (Rolit: four players; Othello: 8x8)."""
    if game not in GAMES:
        raise InvalidOptionError(f"unknown game {game!r}; compare plays {', '.join(GAMES)}")
    return GAMES[game].for_size(None, backend=backend)


@dataclass(frozen=True)
class Budget:
    """What every search gets a move: ``seconds`` on ``clock`` ("cpu" or "wall"), or ``states``."""

    seconds: float | None = None
    states: int | None = None
    clock: str = "cpu"

    def __post_init__(self) -> None:
        if (self.seconds is None) == (self.states is None):
            raise InvalidLimitError("give a budget of seconds or of states, not both")
        if self.seconds is not None and not (
            isinstance(self.seconds, (int, float))
            and not isinstance(self.seconds, bool)
            and 0 < self.seconds < math.inf
        ):
            raise InvalidLimitError(f"seconds must be a positive finite number, got {self.seconds!r}")
        if self.states is not None and (
            isinstance(self.states, bool) or not isinstance(self.states, int) or self.states < 1
        ):
            raise InvalidLimitError(f"states must be an int >= 1, got {self.states!r}")
        if self.clock not in ("cpu", "wall"):
            raise InvalidOptionError(f"clock must be 'cpu' or 'wall', got {self.clock!r}")

    def describe(self) -> str:
        if self.states is not None:
            return f"{self.states:,} states a move"
        kind = "CPU time of the searching thread" if self.clock == "cpu" else "wall-clock time"
        return f"{self.seconds:g} s of {kind} a move"


@dataclass
class SeatRecord:
    algorithm: str
    colour: str
    balls: int = 0


@dataclass
class ComparisonGame:
    number: int
    seats: list[SeatRecord]
    winner: str  #: the colour that won by the tie rule
    tied: tuple[str, ...]  #: colours level at the top (empty when one colour had the most balls)
    moves: list[MoveRecord] = field(default_factory=list)
    played: list[int] = field(default_factory=list)  #: the move codes, in order


@dataclass
class AlgorithmStats:
    algorithm: str
    games: int = 0  #: games it sat in (a shadow: games of the algorithm it shadows)
    wins: int = 0
    ties: int = 0
    balls: int = 0
    moves: list[MoveRecord] = field(default_factory=list)
    peak_rss: int | None = None  #: bytes the peak resident set grew by (:func:`peak_rss`)
    seated: bool = True

    def row(self, budget: Budget) -> dict[str, Any]:
        games, moves = max(self.games, 1), max(len(self.moves), 1)
        low, high = wilson(self.wins, self.games)
        states = sum(m.nodes for m in self.moves)
        cpu = sum(m.cpu_seconds for m in self.moves)
        wall = sum(m.wall_seconds for m in self.moves)
        shares = budget_shares(self.moves, budget)
        return {
            "algorithm": self.algorithm,
            "games": self.games,
            "wins": self.wins if self.seated else "",
            "win_rate": round(self.wins / games, 4) if self.seated else "",
            "win_low": round(low, 4) if self.seated else "",
            "win_high": round(high, 4) if self.seated else "",
            "ties_at_top": self.ties if self.seated else "",
            "average_balls": round(self.balls / games, 2) if self.seated else "",
            "moves": len(self.moves),
            "states_per_game": round(states / games),
            "states_per_move": round(states / moves),
            "peak_memory_bytes": max((m.memory for m in self.moves), default=0),
            "peak_rss_bytes": "" if self.peak_rss is None else self.peak_rss,
            "cpu_seconds_per_move": round(cpu / moves, 5),
            "cpu_seconds_per_game": round(cpu / games, 4),
            "wall_seconds_per_move": round(wall / moves, 5),
            "wall_seconds_per_game": round(wall / games, 4),
            "budget_share_mean": round(sum(shares) / len(shares), 4) if shares else "",
            "budget_share_max": round(max(shares), 4) if shares else "",
            "average_depth": round(sum(m.depth for m in self.moves) / moves, 2),
        }


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % with the default ``z``); (0, 1) for no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def budget_shares(moves: list[MoveRecord], budget: Budget) -> list[float]:
    """The share of its budget each search used, on the budget's own measure (CPU seconds,
    wall seconds or states); searches solved to the end of the game are left out: they stop
    when the game is solved, not at their budget."""
    used = []
    for move in moves:
        if move.exact:
            continue
        if budget.states is not None:
            used.append(move.nodes / budget.states)
        else:
            assert budget.seconds is not None
            spent = move.cpu_seconds if budget.clock == "cpu" else move.wall_seconds
            used.append(spent / budget.seconds)
    return used


def seatings(algorithms: tuple[str, ...] = ALGORITHMS, seats: int | None = None) -> list[tuple[str, ...]]:
    """Every cyclic order of ``algorithms`` in every rotation: seat ``i`` of a seating moves ``i``-th.

    Four algorithms have 3! = 6 cyclic orders and 4 rotations each: 24 seatings (every
    permutation), so each algorithm sits in each seat, and right after each other one, equally often.
    With fewer ``seats`` than algorithms (a two-player game): every ordered choice of ``seats`` of
    them (12 for two of four), so each sits in each seat against each other one equally often.
    """
    if seats is not None and seats != len(algorithms):
        return list(itertools.permutations(algorithms, seats))
    first, *rest = algorithms
    orders = [(first, *others) for others in itertools.permutations(rest)]
    return [order[turn:] + order[:turn] for order in orders for turn in range(len(order))]


def pair_seatings(a: str, b: str, seats: int = SEATS) -> list[tuple[str, ...]]:
    """The ways to seat ``a`` at half the ``seats`` and ``b`` at the others (a head-to-head cycle):
    6 at four seats, 2 at two."""
    return [
        tuple(a if seat in mine else b for seat in range(seats))
        for mine in itertools.combinations(range(seats), seats // 2)
    ]


def make_engine(algorithm: str, seed: int, budget: Budget) -> Engine:
    """The engine of one seat; MCTS's gets no transposition table (it uses none)."""
    tt_mb = 0 if algorithm == "mcts" else 16
    return Engine(algorithm=algorithm, seed=seed, tt_mb=tt_mb, clock=budget.clock)


def timed_search(engine: Engine, game: Position[Any], budget: Budget) -> tuple[SearchResult[Any], int, float, float]:
    """``engine`` searches ``game`` within ``budget``: (result, states, CPU seconds, wall seconds),
    the times measured around the call on this thread's CPU clock and the wall clock.

    With a budget of states, MCTS (whose ``nodes`` limit counts iterations) searches the same
    root again, its tree kept, with as many iterations as the states left could pay for at one
    state a remaining ply, until one more iteration could overshoot: it never exceeds the budget.
    """
    cpu, wall = time.thread_time(), time.perf_counter()
    if budget.states is None:
        result = engine.search(game, time_limit=budget.seconds)
        states = result.nodes
    elif engine.algorithm != "mcts":
        result = engine.search(game, nodes=budget.states)
        states = result.nodes
    else:
        states = 0
        longest = game.max_game_length() + 1 - len(game.move_stack)  # the most states one iteration plays into
        iterations = max(1, budget.states // longest)
        while True:
            result = engine.search(game, nodes=iterations)
            states += result.nodes
            iterations = (budget.states - states) // longest
            if iterations < 1:
                break
        result.nodes = states
    return result, states, time.thread_time() - cpu, time.perf_counter() - wall


# GameRecord, the older name of ComparisonGame (the referee's record is referee.rules.GameRecord):
# still imports, with a warning (__getattr__ at the end).
#: The columns of ``moves.csv``: a search each (the runner's :class:`~gamecore.runner.MoveRecord`,
#: its ``player`` under the report's word ``algorithm``, its ``nodes`` as ``states``).
MOVE_COLUMNS = ["game", "ply", "algorithm", "colour", "states", "cpu_seconds", "wall_seconds", "memory"]
MOVE_COLUMNS += ["depth", "exact", "played", "move"]


def _move_row(number: int, move: MoveRecord) -> dict[str, Any]:
    return {
        "game": number,
        "ply": move.ply,
        "algorithm": move.player,
        "colour": move.colour,
        "states": move.nodes,
        "cpu_seconds": move.cpu_seconds,
        "wall_seconds": move.wall_seconds,
        "memory": move.memory,
        "depth": move.depth,
        "exact": int(move.exact),
        "played": int(move.played),
        "move": move.move,
    }


def engine_seat(engine: Engine, budget: Budget) -> Seat:
    """An engine as a seat of :func:`~gamecore.runner.run_game`, searching within ``budget``
    (:func:`timed_search`: its result's ``nodes`` are every state it searched)."""

    def choose(position: Any) -> tuple[Any, Any]:
        result = timed_search(engine, position, budget)[0]
        return result.move, result

    return choose


def play_game(
    number: int,
    seating: tuple[str, ...],
    budget: Budget,
    seed: int = 0,
    backend: str | None = None,
    shadows: bool = True,
    game_name: str = DEFAULT_GAME,
) -> ComparisonGame:
    """One game of ``game_name`` (four-player Rolit by default), ``seating[i]`` at seat ``i``,
    through :func:`~gamecore.runner.run_game`; with ``shadows``, every algorithm of ``SHADOWS``
    searches each position of the algorithm it shadows, its move not played."""
    game = start_position(game_name, backend)
    colours = seat_letters(game)
    seats = [SeatRecord(algorithm, colours[seat]) for seat, algorithm in enumerate(seating)]
    engines = [
        make_engine(algorithm, seed * 1000 + number * len(seating) + seat, budget)
        for seat, algorithm in enumerate(seating)
    ]
    shadow_seats = {
        seat: [
            (name, engine_seat(make_engine(name, 0, budget), budget))
            for name, shadowed in SHADOWS.items()
            if shadowed == algorithm
        ]
        for seat, algorithm in enumerate(seating)
    }
    played = run_game(
        game,
        [engine_seat(engine, budget) for engine in engines],
        seating,
        shadows=shadow_seats if shadows else None,
    )
    outcome = played.outcome
    assert outcome is not None and played.forfeit is None  # the engines play legal moves to the end
    order: list[Any] = list(game.colors)
    for seat, colour in enumerate(order):
        seats[seat].balls = outcome.scores.get(colour, 0)  # balls, discs; stones in Tetralath
    winner = colours[order.index(outcome.winner)] if outcome.winner is not None else ""
    tied = tuple(colours[order.index(c)] for c in outcome.tied)
    return ComparisonGame(number, seats, winner, tied, played.moves, played.codes)


def _rss_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return int(next(line for line in status if line.startswith(field + ":")).split()[1])


def _rss_child(
    algorithm: str, played: list[int], seats: list[int], budget: Budget, backend: str | None, game_name: str
) -> int | None:
    """In a fresh process: replay ``played``, ``algorithm`` searching at its ``seats``' turns;
    how far the peak resident set rose above the resident set of just before its Engine was
    made (the peak is reset there: Linux's ``clear_refs``; None where that is not available)."""
    game = start_position(game_name, backend)
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")  # reset the peak (VmHWM) to the present resident set
        before = _rss_kib("VmRSS")
    except OSError:
        return None
    engine = make_engine(algorithm, 0, budget)
    for code in played:
        if game.player in seats:
            timed_search(engine, game, budget)
        game.push(game.move_from_code(code))
    return (_rss_kib("VmHWM") - before) * 1024


def peak_rss(
    record: ComparisonGame, budget: Budget, backend: str | None = None, game_name: str = DEFAULT_GAME
) -> dict[str, int | None]:
    """Per algorithm: how much the peak resident set of a fresh (spawned) process grew while
    that algorithm alone searched its positions of ``record`` (a shadow: those of the algorithm
    it shadows), one process after another."""
    grown: dict[str, int | None] = {}
    for algorithm in MEASURED:
        sitting = SHADOWS.get(algorithm, algorithm)
        seats = [seat for seat, entry in enumerate(record.seats) if entry.algorithm == sitting]
        if not seats:
            continue
        with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
            job = pool.submit(_rss_child, algorithm, record.played, seats, budget, backend, game_name)
            grown[algorithm] = job.result()
    return grown


def summarise(records: list[ComparisonGame]) -> dict[str, AlgorithmStats]:
    stats = {name: AlgorithmStats(name, seated=name not in SHADOWS) for name in MEASURED}
    for record in records:
        for seat in record.seats:
            entry = stats[seat.algorithm]
            entry.games += 1
            entry.balls += seat.balls
            entry.wins += seat.colour == record.winner
            entry.ties += seat.colour in record.tied
            for name, shadowed in SHADOWS.items():
                if shadowed == seat.algorithm and any(m.player == name for m in record.moves):
                    stats[name].games += 1
        for move in record.moves:
            stats[move.player].moves.append(move)
    return {name: entry for name, entry in stats.items() if entry.games}


def head_to_head(records: list[ComparisonGame]) -> dict[tuple[str, str], tuple[int, int]]:
    """Per ordered pair (a, b) of a 2-against-2 game: (games, games a's colours won)."""
    table: dict[tuple[str, str], tuple[int, int]] = {}
    for record in records:
        names = sorted({seat.algorithm for seat in record.seats})
        winner = next((seat.algorithm for seat in record.seats if seat.colour == record.winner), None)
        for a in names:
            for b in names:
                if a != b:
                    games, won = table.get((a, b), (0, 0))
                    table[a, b] = (games + 1, won + (winner == a))
    return table


@dataclass
class Run:
    """Everything a report is made of."""

    budget: Budget
    cycles: int
    seed: int
    backend: str
    stats: dict[str, AlgorithmStats]
    records: list[ComparisonGame]
    pairs: dict[tuple[str, str], tuple[int, int]]
    load: tuple[float, float]  #: 1-minute load average at the start and the end
    cpus: int
    game: str = DEFAULT_GAME  #: the game's name (``GAMES``)
    seats: int = SEATS  #: players a game


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # not on Windows
        return float("nan")


def compare_rolit(budget: Budget, out: str, **options: Any) -> Run:
    """:func:`compare_game` of four-player Rolit (the course's question)."""
    return compare_game(DEFAULT_GAME, budget, out, **options)


def compare_game(
    game: str,
    budget: Budget,
    out: str,
    cycles: int = 1,
    seed: int = 0,
    backend: str | None = None,
    pairs: bool = False,
    rss: bool = True,
    stream: TextIO | None = None,
    quiet: bool = False,
) -> Run:
    """Play ``cycles`` cycles of the seatings of ``game`` (:func:`seatings`: 24 in four-player
    Rolit) and, with ``pairs``, of the half-against-half seatings of every pair; measure, write
    the report into ``out`` and return what it shows.

    Its progress goes to ``stream`` (default stderr; ``gamecore._progress``: a line redrawn on a
    terminal, a plain line every 15 s elsewhere), none with ``quiet``.
    """
    if isinstance(cycles, bool) or not isinstance(cycles, int) or cycles < 1:
        raise InvalidLimitError(f"cycles must be an int >= 1, got {cycles!r}")
    start = start_position(game, backend)
    seats = start.num_players
    plan = [seating for _ in range(cycles) for seating in seatings(ALGORITHMS, seats)]
    pair_plan = (
        [s for _ in range(cycles) for a, b in itertools.combinations(ALGORITHMS, 2) for s in pair_seatings(a, b, seats)]
        if pairs
        else []
    )
    total = len(plan) + len(pair_plan)
    load_start = _load()
    records: list[ComparisonGame] = []
    pair_records: list[ComparisonGame] = []
    with Progress(total, "games", label=f"compare {game}", stream=stream, quiet=quiet) as progress:
        for number, seating in enumerate(plan + pair_plan):
            progress.update(number, " vs ".join(seating))
            played = play_game(number, seating, budget, seed, backend, shadows=number < len(plan), game_name=game)
            (records if number < len(plan) else pair_records).append(played)
        progress.update(total, "peak-RSS cross-check: a fresh process per algorithm" if rss else "")
        stats = summarise(records)
        if rss:
            for name, grown in peak_rss(records[0], budget, backend, game).items():
                stats[name].peak_rss = grown
    run = Run(
        budget=budget,
        cycles=cycles,
        seed=seed,
        backend=start.backend,
        stats=stats,
        records=records,
        pairs=head_to_head(pair_records),
        load=(load_start, _load()),
        cpus=os.cpu_count() or 1,
        game=game,
        seats=seats,
    )
    write_report(run, out)
    return run


def write_report(run: Run, out: str) -> list[str]:
    """Write the Markdown, the CSVs and (with matplotlib) the charts and the PDF; return the paths."""
    os.makedirs(out, exist_ok=True)
    paths = []
    path = os.path.join(out, "report.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(markdown(run))
    paths.append(path)
    path = os.path.join(out, "summary.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        summary = csv.DictWriter(f, fieldnames=list(AlgorithmStats(ALGORITHMS[0]).row(run.budget)))
        summary.writeheader()
        for entry in run.stats.values():
            summary.writerow(entry.row(run.budget))
    paths.append(path)
    path = os.path.join(out, "games.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(
            ["game", "seat", "colour", "algorithm", "balls", "won", "tied", "moves", "states", "cpu_seconds"]
        )
        for record in run.records:
            for seat, sitting in enumerate(record.seats):
                mine = [m for m in record.moves if m.played and m.colour == sitting.colour]
                writer.writerow(
                    [
                        record.number,
                        seat,
                        sitting.colour,
                        sitting.algorithm,
                        sitting.balls,
                        int(sitting.colour == record.winner),
                        int(sitting.colour in record.tied),
                        len(mine),
                        sum(m.nodes for m in mine),
                        round(sum(m.cpu_seconds for m in mine), 5),
                    ]
                )
    paths.append(path)
    path = os.path.join(out, "moves.csv")
    with open(path, "w", newline="", encoding="utf-8") as f:
        moves = csv.DictWriter(f, fieldnames=MOVE_COLUMNS)
        moves.writeheader()
        for record in run.records:
            for move in record.moves:
                moves.writerow(_move_row(record.number, move))
    paths.append(path)
    if run.pairs:
        path = os.path.join(out, "head_to_head.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["algorithm", "against", "games", "wins"])
            for (a, b), (games, won) in sorted(run.pairs.items()):
                writer.writerow([a, b, games, won])
        paths.append(path)
    if pdf is not None:
        paths += pdf.write_charts(run, out)
    return paths


__getattr__ = renamed(__name__, {"GameRecord": ("ComparisonGame", ComparisonGame)})
