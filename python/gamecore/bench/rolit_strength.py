"""``gamecore bench rolit strength``: an engine against Max^n, paranoid and BRS in four-player Rolit.

::

    gamecore bench rolit strength --time 1 --games 72 --jobs 2
    gamecore bench rolit strength --time 1 --games 24 --player implicit=0.8,exploration=1

The engine under test (by default the default Rolit engine, ``Engine(algorithm="mcts")``;
``--player`` gives it :class:`~gamecore.search.engine.Engine` options) takes the seat of
``"mcts"`` in ``gamecore compare rolit``'s seating (:func:`~gamecore.report.compare.seatings`
of mcts, maxn, paranoid, brs: 6 cyclic orders x 4 rotations, game ``g`` the seating
``g mod 24``), and Max^n, paranoid and Best-Reply Search the other three, each
``Engine(algorithm=..., tt_mb=16)`` with its defaults. Every seat has its own engine for the
whole game. Every move gets the same budget: ``--time`` seconds of the searching thread's
CPU time (``clock="cpu"``, so that a loaded machine, or ``--jobs`` processes, slow every side
alike) or ``--states`` states (``gamecore compare rolit``'s budget of states). The engine
under test is seeded ``seed * 1_000_000 + 4 g + seat``; games ``--first`` to
``--first + --games - 1`` are played, so that fresh games can follow a tuning run's.

Prints a line per game (its seating, each colour's balls, the winner by the course's tie
rule, the share of its budget the tested engine used), then per algorithm the games won with
the Wilson 95 % interval, the mean balls and how often it finished last, and the mean share
of the budget the tested engine used (searches that solved the game to its end left out:
they stop when it is solved). 25 % is what an equal player wins.

``--tally LOG...`` plays nothing: it reads the game lines of earlier runs (several
processes, each given its own ``--first``) and prints their pooled totals.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .._cli_types import at_least, count, seconds
from .._progress import Progress, add_quiet_option
from ..errors import GamecoreError, InvalidOptionError
from ..games.rolit import Rolit
from ..players import read_options
from ..report.compare import Budget, budget_shares, engine_seat, seatings, wilson
from ..runner import run_game
from ..search.engine import Engine
from ._parallel import run_games

__all__ = [
    "ALGORITHMS",
    "RolitGame",
    "parse_player",
    "play_rolit_game",
    "play_rolit_match",
    "read_games",
    "summary",
    "main",
]

#: The seat names of the seating: the engine under test sits where "mcts" does.
ALGORITHMS = ("mcts", "maxn", "paranoid", "brs")
#: What ``--player`` may set (``Engine``'s keyword options).
PLAYER_OPTIONS = (
    "algorithm",
    "exploration",
    "greedy",
    "history",
    "implicit",
    "mast",
    "max_nodes",
    "endgame_empties",
    "tt_mb",
    "evaluation",
)
_WHOLE = at_least(int, 0, "a whole number")
#: How far apart the seeds of two runs (``--seed``) lie.
SEED_STRIDE = 1_000_000


def parse_player(spec: str) -> dict[str, Any]:
    """``"implicit=0.8,exploration=1"`` -> the ``Engine`` options of the engine under test, read
    as a player spec's options are (:func:`~gamecore.players.read_options`: ``none`` or
    ``default`` is None, the option's default by budget and players)."""
    options = read_options(spec, PLAYER_OPTIONS, "the tested engine (--player)")
    options.setdefault("algorithm", "mcts")
    if options["algorithm"] == "mcts":
        options.setdefault("tt_mb", 0)  # MCTS uses no table
    return options


def tested_engine(options: dict[str, Any], seed: int, budget: Budget) -> Engine:
    """The engine under test (``options`` from :func:`parse_player`); bad options are gamecore errors."""
    kwargs = dict(options)
    if kwargs.get("algorithm") == "mcts":
        kwargs["seed"] = seed
    try:
        return Engine(clock=budget.clock, **kwargs)
    except TypeError as exc:  # a value of the wrong kind that Engine did not name
        raise InvalidOptionError(f"player options {options!r}: {exc}") from None


@dataclass
class RolitGame:
    """One game: who sat where, their balls, the winner, the tested engine's budget shares."""

    number: int
    seating: tuple[str, ...]
    colours: tuple[str, ...]
    balls: tuple[int, ...]
    winner: str  #: the algorithm that won by the course's tie rule
    shares: list[float] = field(default_factory=list)  #: the tested engine's budget share per search
    over: int = 0  #: the tested engine's searches past their budget

    def line(self) -> str:
        seats = " ".join(f"{c}:{a}={b}" for c, a, b in zip(self.colours, self.seating, self.balls))
        share = f"{sum(self.shares) / len(self.shares):.3f}" if self.shares else "-"
        return f"game {self.number:4d}: {seats}  winner {self.winner}  budget share {share}"


def play_rolit_game(
    number: int, options: dict[str, Any], budget: Budget, seed: int = 0, backend: str | None = None
) -> RolitGame:
    """Game ``number``: seating ``number mod 24``, the tested engine in the seat of "mcts", played
    through :func:`gamecore.runner.run_game` (as ``gamecore compare`` plays)."""
    seating = seatings(ALGORITHMS)[number % len(seatings(ALGORITHMS))]
    game = Rolit(backend=backend)
    engines = [
        tested_engine(options, seed * SEED_STRIDE + 4 * number + seat, budget)
        if name == "mcts"
        else Engine(algorithm=name, tt_mb=16, clock=budget.clock)
        for seat, name in enumerate(seating)
    ]
    record = run_game(game, [engine_seat(engine, budget) for engine in engines], seating)
    assert record.forfeit is None and record.outcome is not None  # the engines play legal moves to the end
    shares = budget_shares([move for move in record.moves if move.player == "mcts"], budget)  # exact ones left out
    over = sum(share > 1 for share in shares)
    outcome = record.outcome
    order: list[Any] = list(game.colours)
    winner = seating[order.index(outcome.winner)] if outcome.winner is not None else ""
    return RolitGame(
        number,
        tuple(seating),
        tuple(str(c.initial) for c in order),
        tuple(int(outcome.scores[c]) for c in order),
        winner,
        shares,
        over,
    )


def play_rolit_match(
    options: dict[str, Any],
    budget: Budget,
    games: int,
    *,
    first: int = 0,
    seed: int = 0,
    jobs: int = 1,
    backend: str | None = None,
) -> Iterator[RolitGame]:
    """Games ``first`` .. ``first + games - 1``, in order with one job, as they finish with more
    (each in a process of its own)."""
    tested_engine(options, 0, budget)  # bad options fail here, before any game
    arguments = [(number, options, budget, seed, backend) for number in range(first, first + games)]
    yield from run_games(play_rolit_game, arguments, jobs, ordered=False)


_LINE = re.compile(r"^game +(\d+): (.+?)  winner (\S*)  budget share (\S+)\s*$")
_SEAT = re.compile(r"^(\w+):(\w+)=(\d+)$")


def read_games(text: str) -> list[RolitGame]:
    """The games of the lines :meth:`RolitGame.line` printed in ``text`` (other lines are
    skipped); each game's budget share is its mean (one entry)."""
    games = []
    for number, line in enumerate(text.splitlines(), 1):
        found = _LINE.match(line)
        if not found:
            continue
        seats = [_SEAT.match(word) for word in found.group(2).split()]
        share = found.group(4)
        if len(seats) != 4 or not all(seats) or found.group(3) not in (*ALGORITHMS, ""):
            raise InvalidOptionError(f"line {number}: not a game of gamecore bench rolit strength: {line!r}")
        colours, seating, balls = zip(*((m.group(1), m.group(2), int(m.group(3))) for m in seats if m))
        if sorted(seating) != sorted(ALGORITHMS):
            raise InvalidOptionError(f"line {number}: the seats are not {', '.join(ALGORITHMS)}: {line!r}")
        try:
            shares = [] if share == "-" else [float(share)]
        except ValueError:
            raise InvalidOptionError(f"line {number}: budget share {share!r} is not a number") from None
        games.append(RolitGame(int(found.group(1)), seating, colours, balls, found.group(3), shares))
    return games


def summary(played: Sequence[RolitGame], tallied: bool = False) -> list[str]:
    """Per algorithm: wins with the Wilson 95 % interval, mean balls, last places; the tested
    engine's mean budget share (``tallied``: the games hold their mean share alone)."""
    n = len(played)
    seated = collections.Counter(g.seating.index("mcts") for g in played)
    per_seat = "/".join(str(seated[seat]) for seat in range(len(ALGORITHMS)))
    lines = [f"{n} games, the tested engine {per_seat} times in seats 1-4; 25 % is an equal player's share"]
    for name in ALGORITHMS:
        wins = sum(g.winner == name for g in played)
        low, high = wilson(wins, n)
        balls = [g.balls[g.seating.index(name)] for g in played]
        last = sum(b == min(g.balls) for g, b in zip(played, balls))
        label = "tested" if name == "mcts" else name
        lines.append(
            f"{label:>8}: {wins:3d} wins ({100 * wins / max(n, 1):5.1f} %, Wilson 95 % {100 * low:4.1f}-{100 * high:4.1f} %)"
            f", mean balls {sum(balls) / max(n, 1):5.2f}, last (ties too) {last}"
        )
    shares = [s for g in played for s in g.shares]
    if shares:
        over = sum(g.over for g in played)
        mean = sum(shares) / len(shares)
        lines.append(
            f"tested engine: mean budget share {mean:.3f}, the mean of {len(shares)} games' means "
            f"(min {min(shares):.3f}, max {max(shares):.3f})"
            if tallied
            else f"tested engine: mean budget share {mean:.3f} over {len(shares)} searches "
            f"(min {min(shares):.3f}, max {max(shares):.3f}; over the budget: {over})"
        )
    return lines


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "n/a"


def main(argv: Sequence[str], out: TextIO) -> int:
    """``gamecore bench rolit strength [options]``; exit 0, 1 on a gamecore error, 2 on bad usage."""
    parser = argparse.ArgumentParser(
        prog="gamecore bench rolit strength",
        description="Four-player Rolit: an engine (by default the default, MCTS) against Max^n, paranoid and "
        "Best-Reply Search with their defaults, all 24 seatings per 24 games, budgets of CPU time; prints each "
        "game and the wins per algorithm with Wilson 95 %% intervals.",
    )
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--time", type=seconds, metavar="S", help="CPU seconds a move (default 1)")
    limit.add_argument("--states", type=count, metavar="N", help="instead: states a move")
    parser.add_argument("--games", type=count, default=24, help="games (default 24: one cycle)")
    parser.add_argument("--first", type=_WHOLE, default=0, help="the first game's number (default 0)")
    parser.add_argument(
        "--player",
        default="",
        metavar="SPEC",
        help="Engine options of the engine under test, e.g. implicit=0.8,exploration=1 (default: the defaults)",
    )
    parser.add_argument("--seed", type=_WHOLE, default=0, help="seed of the tested engine's runs (default 0)")
    parser.add_argument("--jobs", type=count, default=1, help="games played at once (processes)")
    parser.add_argument("--wall", action="store_true", help="budgets of wall-clock time instead of CPU time")
    parser.add_argument("--backend", choices=("cython", "python"))
    add_quiet_option(parser, "line per game, no progress")
    parser.add_argument(
        "--tally",
        nargs="+",
        metavar="LOG",
        help="play nothing: the totals of the games printed in these files (runs in several processes, pooled; "
        "the budget share is then the mean of the games' means)",
    )
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.tally:
        return _tally(args.tally, out)
    try:
        options = parse_player(args.player)
        clock = "wall" if args.wall else "cpu"
        budget = Budget(states=args.states, clock=clock) if args.states else Budget(args.time or 1.0, clock=clock)
        print(
            f"Rolit, 4 players: {{{args.player or 'defaults'}}} ({options}) against maxn, paranoid, brs; "
            f"{budget.describe()}; games {args.first}-{args.first + args.games - 1}, seed {args.seed}, "
            f"{args.jobs} job(s); load {_load()} on {os.cpu_count()} CPUs",
            file=out,
            flush=True,
        )
        started = time.perf_counter()
        played = []
        shown = Progress(args.games, "games", label="rolit strength", quiet=args.quiet)
        with shown:
            for record in play_rolit_match(
                options, budget, args.games, first=args.first, seed=args.seed, jobs=args.jobs, backend=args.backend
            ):
                played.append(record)
                shown.advance()
                if not args.quiet:
                    shown.note(record.line(), out)
    except GamecoreError as exc:
        print(f"gamecore bench rolit strength: error: {exc}", file=sys.stderr)
        return 1
    played.sort(key=lambda g: g.number)
    for line in summary(played):
        print(line, file=out)
    print(f"{time.perf_counter() - started:.0f} s wall; load {_load()} at the end", file=out)
    return 0


def _tally(paths: Sequence[str], out: TextIO) -> int:
    played: dict[int, RolitGame] = {}
    try:
        for path in paths:
            with open(path, encoding="utf-8") as log:
                for game in read_games(log.read()):
                    if game.number in played and played[game.number] != game:
                        raise InvalidOptionError(f"{path}: game {game.number} is in two logs with different results")
                    played[game.number] = game
    except (GamecoreError, OSError) as exc:
        print(f"gamecore bench rolit strength: error: {exc}", file=sys.stderr)
        return 1
    if not played:
        print("gamecore bench rolit strength: error: no game lines in " + ", ".join(paths), file=sys.stderr)
        return 1
    games = [played[number] for number in sorted(played)]
    numbers = [g.number for g in games]
    print(f"games {_ranges(numbers)} from {len(paths)} log(s)", file=out)
    for line in summary(games, tallied=True):
        print(line, file=out)
    return 0


def _ranges(numbers: list[int]) -> str:
    """``[0, 1, 2, 5]`` -> ``"0-2, 5"`` (sorted numbers)."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)
