"""``gamecore bench othello strength``: a player against an opponent from balanced openings.

::

    gamecore bench othello strength --player engine:time=0.2,clock=cpu --opponent engine:v1,time=0.2,clock=cpu --games 40

Each shipped opening (``gamecore/data/openings{size}.txt``) is played twice, the players
swapping colours, in the order of the file: ``--games 40`` plays the first 20 openings.
The report gives the player's wins, draws and losses, its mean disc margin, its score and
the Elo difference that score means, with a 95 % interval (normal approximation of the
mean game score: ``elo = -400 log10(1 / score - 1)``; the interval is the Elo of
``score +- 1.96 * sqrt(var / games)``, ``var`` the variance of the single game scores 1,
1/2, 0).

``--jobs N`` plays N games at once, each in its own process with its own two players (on this
2-core machine, ``--jobs 2`` with CPU-time budgets halves the wall time and changes no game's
budget); the lines and the result come out in game order.

Player specs are those of ``gamecore play`` (``engine:time=0.2``, ``engine:depth=6,eval=learned``,
``mcts:time=1``, ``random``); ``engine:v1`` is the engine with the evaluation of
version 1 (``standard``; the default is now the learned one where weights are shipped), with
the options after it (``engine:v1,time=0.2``). ``clock=cpu`` gives an engine its time in CPU
seconds, so that a loaded machine slows both sides alike. ``mpc=on`` / ``mpc=off`` turn the
engine's Multi-ProbCut on or off (``Engine(mpc=)``; without it, the engine's default), and
``mpc_t=T`` sets its threshold.

The openings were made by :func:`make_openings` (the header of each file records how):
random plies from the start, kept when a search of today's engine finds them near balance.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TextIO

from .._cli_types import count
from .._progress import Progress, add_quiet_option
from ..errors import GamecoreError
from ..games.othello import Othello
from ..players import make_player
from ..runner import player_seat, run_game
from ..search.engine import Engine
from ._parallel import run_games

__all__ = ["StrengthResult", "elo", "elo_interval", "load_openings", "make_openings", "play_match", "main"]

#: The evaluation of gamecore 1's engine.
V1_EVALUATION = "standard"


def elo(score: float) -> float:
    """The Elo difference a mean game score (0..1) stands for (+-inf at 1 and 0)."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400 * math.log10(1 / score - 1)


def elo_interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """``(elo, low, high)``: the Elo of the mean of the game ``scores`` and its 95 % interval.

    The interval is the normal one of the mean score; when every game scored the same (4-0-0,
    all draws) that one has no width, and the Wilson interval of the score takes its place: after
    4 wins of 4 the Elo is +inf but its lower bound is finite (+7: 4 wins are still few)."""
    if not scores:
        raise ValueError("no games")
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / n
    if variance == 0:
        z2 = 1.96**2
        centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
        half = 1.96 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return elo(mean), elo(centre - half), elo(centre + half)
    half = 1.96 * math.sqrt(variance / n)
    return elo(mean), elo(mean - half), elo(mean + half)


@dataclass
class StrengthResult:
    """The games of a match, from the player's side."""

    margins: list[int] = field(default_factory=list)  #: player's disc margin per game

    @property
    def wins(self) -> int:
        return sum(m > 0 for m in self.margins)

    @property
    def draws(self) -> int:
        return sum(m == 0 for m in self.margins)

    @property
    def losses(self) -> int:
        return sum(m < 0 for m in self.margins)

    @property
    def scores(self) -> list[float]:
        return [1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in self.margins]

    def summary(self) -> str:
        n = len(self.margins)
        if not n:
            return "no games played"
        rating, low, high = elo_interval(self.scores)
        return (
            f"W-D-L {self.wins}-{self.draws}-{self.losses} in {n} games, score {100 * sum(self.scores) / n:.1f} %, "
            f"mean disc margin {sum(self.margins) / n:+.2f}, Elo {_signed(rating)} (95 %: {_signed(low)} .. {_signed(high)})"
        )


def _signed(value: float) -> str:
    return f"{round(value):+d}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")  # never "-0"


def opening_file(size: int) -> str:
    return f"data/openings{size}.txt"


def load_openings(size: int) -> list[str]:
    """The shipped balanced openings of a board size, as move lists (``"f5d6c3"``)."""
    try:
        text = resources.files("gamecore").joinpath(opening_file(size)).read_text()
    except (FileNotFoundError, OSError):
        raise ValueError(f"no balanced openings are shipped for {size}x{size}") from None
    return [line.split()[0] for line in text.splitlines() if line.strip() and not line.startswith("#")]


def make_openings(
    size: int, count: int, *, seed: int = 1, plies: tuple[int, int] = (4, 8), depth: int = 8, within: int = 40
) -> tuple[str, list[tuple[str, int]]]:
    """``count`` openings of ``plies`` random plies whose value by a ``depth``-ply search of
    today's engine (the ``standard`` evaluation, its own units) lies within ``within`` of 0;
    and the header recording how (the openings file is the header, then one line each)."""
    rng = random.Random(seed)
    engine = Engine(V1_EVALUATION, tt_mb=16)
    found: list[tuple[str, int]] = []
    seen: set[str] = set()
    tried = 0
    while len(found) < count:
        tried += 1
        game = Othello(size)
        for _ in range(rng.randint(*plies)):
            moves = game.legal_moves()
            if not moves or game.is_game_over():
                break
            game.push(rng.choice(moves))
        text = "".join(str(m) for m in game.move_stack)
        if text in seen or game.is_game_over():
            continue
        seen.add(text)
        engine.clear()
        score = engine.search(game, depth=depth).score
        if abs(score) <= within:
            found.append((text, score))
    header = (
        f"# {count} balanced {size}x{size} openings: {plies[0]}-{plies[1]} random plies (random.Random({seed})), "
        f"kept when a depth-{depth} search of gamecore 1's engine ({V1_EVALUATION} evaluation) scores them within "
        f"+-{within} of 0 for the side to move ({len(found)} of {tried} tried).\n"
        f"# Made by gamecore.bench.strength.make_openings({size}, {count}, seed={seed}, plies={plies}, "
        f"depth={depth}, within={within}); each line: the moves, then that score."
    )
    return header, found


def player_from_spec(spec: str) -> Any:
    """A player from a ``gamecore play`` spec, ``engine:v1`` being today's engine (and
    ``mpc=on|off``, ``mpc_t=T`` for an engine: the module docstring)."""
    name, _, rest = spec.partition(":")
    options = [part.strip() for part in rest.split(",") if part.strip()]
    if name.strip().lower() == "engine" and "v1" in options:
        options.remove("v1")
        options.append(f"eval={V1_EVALUATION}")
        spec = "engine:" + ",".join(options)
    if name.strip().lower() == "engine" and "v2" in options:  # the learned weights of gamecore 3.x
        options.remove("v2")
        options.append("weights=v2")
        spec = "engine:" + ",".join(options)
    player: Any = make_player(spec, game="othello")
    return player


def play_game(opening: str, black: Any, white: Any, size: int, backend: str | None = None) -> int:
    """Black's final disc margin (empties to the winner) of a game from ``opening``, played
    through :func:`gamecore.runner.run_game`.

    :raises GamecoreError: a player forfeited (an illegal move, an error)."""
    game = Othello.from_moves(opening, size=size, backend=backend)
    for player in (black, white):
        new_game = getattr(player, "new_game", None)
        if new_game is not None:
            new_game()
    record = run_game(game, [player_seat(black), player_seat(white)], ["black", "white"])
    if record.forfeit is not None:
        raise GamecoreError(f"the {record.forfeit[1]}")
    final: Othello = record.final
    black_discs, white_discs = final.score()
    empties = size * size - black_discs - white_discs
    diff = black_discs - white_discs
    return diff + (empties if diff > 0 else -empties if diff < 0 else 0)


def play_match(
    player: str,
    opponent: str,
    *,
    size: int = 8,
    games: int = 40,
    backend: str | None = None,
    out: TextIO | None = None,
    jobs: int = 1,
    progress: TextIO | None = None,
) -> StrengthResult:
    """``games`` games from the shipped openings, each opening twice with colours swapped;
    ``jobs`` > 1 plays them in that many processes (each with its own two players), and the
    games and their lines come out in the same order. ``progress``: where the progress of the
    match goes (``gamecore._progress``; None: nowhere)."""
    openings = load_openings(size)
    if games > 2 * len(openings):
        raise ValueError(f"{len(openings)} openings are shipped for {size}x{size}: at most {2 * len(openings)} games")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int >= 1, got {jobs!r}")
    # Bad specs fail here, before any process starts; these two players play the match when it
    # runs in this process (a new match never reuses an earlier one's engines and tables).
    _PLAYERS.clear()
    _PLAYERS[player, opponent] = (player_from_spec(player), player_from_spec(opponent))
    result = StrengthResult()
    arguments = [(number, player, opponent, size, backend) for number in range(games)]
    shown = Progress(games, "games", label="strength", stream=progress, quiet=progress is None)
    with shown:
        shown.doing(lambda: f"{player} vs {opponent}, {_running_score(result)}")
        _collect(result, run_games(_play_numbered, arguments, jobs), openings, out, shown)
    return result


def _running_score(result: StrengthResult) -> str:
    return f"W-D-L so far {result.wins}-{result.draws}-{result.losses}"


#: The two players of this process, by their specs (a worker of ``play_match(jobs=N)`` makes
#: them once and keeps them, as one process playing every game does).
_PLAYERS: dict[tuple[str, str], tuple[Any, Any]] = {}


def _play_numbered(number: int, player: str, opponent: str, size: int, backend: str | None) -> int:
    """The player's margin in game ``number`` of a match: opening ``number // 2``, black in the
    even games."""
    if (player, opponent) not in _PLAYERS:
        _PLAYERS.clear()
        _PLAYERS[player, opponent] = (player_from_spec(player), player_from_spec(opponent))
    me, them = _PLAYERS[player, opponent]
    opening = load_openings(size)[number // 2]
    if number % 2 == 0:
        return play_game(opening, me, them, size, backend)
    return -play_game(opening, them, me, size, backend)


def _collect(
    result: StrengthResult, margins: Iterable[int], openings: list[str], out: TextIO | None, shown: Progress
) -> None:
    for number, margin in enumerate(margins):
        result.margins.append(margin)
        shown.advance()
        if out is not None:
            colour = "black" if number % 2 == 0 else "white"
            shown.note(f"game {number + 1:3d}: {openings[number // 2]:<18} player {colour}: {margin:+d}", out)


def main(argv: Sequence[str], out: TextIO) -> int:
    """``gamecore bench othello strength [options]``."""
    parser = argparse.ArgumentParser(
        prog="gamecore bench othello strength",
        description="Play a player against an opponent from the shipped balanced openings, both colours; "
        "print W-D-L, the mean disc margin and the Elo difference with its 95 % interval.",
    )
    parser.add_argument("--player", default="engine:time=1", help="player spec (default engine:time=1)")
    parser.add_argument("--opponent", default="engine:v1,time=1", help="opponent spec (default engine:v1,time=1)")
    parser.add_argument("--size", type=int, default=8, choices=(6, 8, 10))
    parser.add_argument("--games", type=count, default=40, help="games (two per opening; default 40)")
    parser.add_argument("--backend", choices=("cython", "python"))
    add_quiet_option(parser, "line per game, no progress")
    parser.add_argument(
        "--jobs", type=count, default=1, help="games played at once, each in its own process (default 1)"
    )
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        result = play_match(
            args.player,
            args.opponent,
            size=args.size,
            games=args.games,
            backend=args.backend,
            out=None if args.quiet else out,
            jobs=args.jobs,
            progress=None if args.quiet else sys.stderr,
        )
    except (GamecoreError, ValueError) as exc:  # a bad spec, too many games: one line, no traceback
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    print(f"{args.player} against {args.opponent}, {args.size}x{args.size}: {result.summary()}", file=out)
    return 0
