"""``gamecore bench othello perfect``: does the engine play perfectly? Every one of its moves
checked by the exact solver.

::

    gamecore bench othello perfect --size 6 --games 200 --time 5 --opponent random

The engine (``--player``, by default the default engine at ``--time`` CPU seconds a move)
plays ``--games`` games against ``--opponent`` (a ``gamecore play`` spec: ``random``,
``greedy``, ``engine:v1,time=1``, ``engine``), black in the even games and white in the odd
ones. The opponent's first ``--random-moves`` moves are random (seeded by ``--seed`` and the
game's number), so that the games start from varied openings. Before each of the engine's
moves (forced ones aside) the position's exact value is solved, and after it the position it
leaves, in a window of width two around the value it must have: the move is a **mistake**
when its value is worse than the position's. One solver table serves the whole run, and
every solved value is kept by position (the eight symmetric images are one), so that the
positions the games share are solved once; ``--cache FILE`` keeps them between runs too
(in the book's format). ``--trust-book`` counts the moves the engine took from its opening
book as checked (they were solved when the book was built) instead of solving them again.

The report: games, the engine's moves checked (from its book, solved live, searched),
mistakes (the target is 0) with the positions where they happened, and the time taken.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .._cli_types import count, seconds
from .._progress import Progress, add_quiet_option
from ..errors import GamecoreError
from ..games.othello import Othello
from ..search.book import Book, ExactSolver, load_book, opening_book
from ..search.split import final_value
from .strength import player_from_spec

__all__ = ["PerfectCheck", "ValueCache", "check_games", "main"]


class ValueCache:
    """Exact values of positions (by their smallest symmetric image), solved once: an
    :class:`~gamecore.search.book.ExactSolver` behind a :class:`~gamecore.search.book.Book`
    (the values and best moves found), appended to ``path`` when given."""

    def __init__(self, size: int, backend: str | None = None, path: str | None = None) -> None:
        self.solver = ExactSolver(size, backend)
        self.path = path
        self.book = load_book(path, size) if path and os.path.exists(path) and os.path.getsize(path) else Book(size, {})
        self.solves = 0

    def value(self, core: Any) -> int:
        """The exact value of ``core`` for its side to move."""
        if not core.legal_moves():
            return final_value(core)
        found = self.book.lookup(core)
        if found is not None:
            return found[1]
        move, value = self.solver.solve(core)
        self.solves += 1
        self._keep(core, move, value)
        return value

    def _keep(self, core: Any, move: int, value: int) -> None:
        key, _ = self.book.add(core, move, value)
        if self.path:
            new = not os.path.exists(self.path) or not os.path.getsize(self.path)
            with open(self.path, "a", encoding="utf-8") as out:
                if new:
                    out.write(f"# gamecore bench othello perfect: solved values\n# size {self.book.size}\n")
                out.write(self.book.line(key) + "\n")

    def child_value_is(self, core: Any, want: int) -> int:
        """The value of ``core`` if it is ``want``, else a bound beyond it (a score outside
        ``want`` +- 1): one solve in the window ``(want - 1, want + 1)``, or the cache."""
        if not core.legal_moves():
            return final_value(core)
        found = self.book.lookup(core)
        if found is not None:
            return found[1]
        squares = self.book.size**2  # at the window's edge a bound is the value: none beyond it
        move, score = self.solver.solve(core, max(-squares, want - 1), min(squares, want + 1))
        self.solves += 1
        if score == want:  # inside the window: exact, kept
            self._keep(core, move, score)
        return score


@dataclass
class PerfectCheck:
    """What :func:`check_games` counted."""

    games: int = 0
    checked: int = 0  #: the engine's moves checked (forced ones aside)
    from_book: int = 0  #: of them, moves the engine's book gave
    solved_live: int = 0  #: moves the engine's exact solver gave
    searched: int = 0  #: moves of its ordinary search (the solver did not finish in time)
    trusted: int = 0  #: book moves counted as checked (--trust-book)
    forced: int = 0  #: forced moves (one legal move), not checked
    mistakes: list[str] = field(default_factory=list)  #: where each mistake happened
    engine_margins: list[int] = field(default_factory=list)  #: the engine's final disc margin a game
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    interrupted: bool = False  #: Ctrl-C stopped the run: the games before it are counted
    last_game: str = ""  #: the line of the last game played

    def summary(self) -> str:
        wins = sum(1 for m in self.engine_margins if m > 0)
        draws = sum(1 for m in self.engine_margins if m == 0)
        losses = len(self.engine_margins) - wins - draws
        how = f"book {self.from_book}, solved live {self.solved_live}, searched {self.searched}"
        trusted = f", {self.trusted} book moves trusted" if self.trusted else ""
        return (
            f"{self.games} games (engine W-D-L {wins}-{draws}-{losses}), {self.checked} engine moves checked "
            f"({how}{trusted}; {self.forced} forced), {len(self.mistakes)} mistakes; "
            f"{self.seconds:.0f} s ({self.cpu_seconds:.0f} s CPU)"
        )


def check_games(
    player: str,
    opponent: str,
    *,
    size: int = 6,
    games: int = 200,
    random_moves: int = 3,
    seed: int = 1,
    backend: str | None = None,
    cache: str | None = None,
    trust_book: bool = False,
    out: TextIO | None = None,
    progress: TextIO | None = None,
) -> PerfectCheck:
    """Play and check ``games`` games (the module's text); a line per game to ``out``."""
    engine = player_from_spec(player)
    them = player_from_spec(opponent)
    values = ValueCache(size, backend, cache)
    book = opening_book(size) if trust_book else None
    result = PerfectCheck()
    start, cpu_start = time.perf_counter(), time.process_time()
    shown = Progress(games, "games", label="perfect", stream=progress, quiet=progress is None)
    with shown:
        shown.doing(lambda: f"{result.checked} moves checked, {len(result.mistakes)} mistakes")
        try:
            for number in range(games):
                _play_checked(number, engine, them, size, seed, random_moves, backend, values, book, result)
                shown.advance()
                if out is not None:
                    shown.note(result.last_game, out)
        except KeyboardInterrupt:  # Ctrl-C: the games finished so far are the result
            result.interrupted = True
    result.seconds = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - cpu_start
    return result


def _play_checked(
    number: int,
    engine: Any,
    them: Any,
    size: int,
    seed: int,
    random_moves: int,
    backend: str | None,
    values: ValueCache,
    book: Book | None,
    result: PerfectCheck,
) -> None:
    """Play game ``number`` and check the engine's moves into ``result``."""
    engine_colour = number % 2
    rng = random.Random(seed * 1_000_003 + number)
    game = Othello(size, backend=backend)
    for p in (engine, them):
        if hasattr(p, "new_game"):
            p.new_game()
    their_moves = 0
    record: list[str] = []
    while not game.is_game_over():
        legal = game.legal_moves()
        if int(game.turn) != engine_colour:
            if their_moves < random_moves:
                move = rng.choice(legal)
            else:
                move = them.choose_move(game.copy())
            their_moves += 1
        else:
            move = engine.choose_move(game.copy())
            if len(legal) == 1:
                result.forced += 1
            else:
                _check_move(game, move, engine, values, book, result, record)
        record.append(str(move))
        game.push(move)
    black, white = game.score()
    margin = final_value(game.core) if int(game.turn) == engine_colour else -final_value(game.core)
    result.engine_margins.append(margin)
    result.games += 1
    colour = "black" if engine_colour == 0 else "white"
    result.last_game = (
        f"game {number + 1:3d}: engine {colour}, {black}-{white}: {''.join(record)} "
        f"[{result.checked} checked (book {result.from_book}, solved live {result.solved_live}, searched "
        f"{result.searched}), {len(result.mistakes)} mistakes so far]"
    )


def _check_move(
    game: Othello,
    move: Any,
    engine: Any,
    values: ValueCache,
    book: Book | None,
    result: PerfectCheck,
    record: list[str],
) -> None:
    """Check one engine move: the value of the position it leaves is the position's."""
    found = getattr(engine, "last_result", None)
    how = getattr(found, "algorithm", "")
    result.checked += 1
    if how == "book":
        result.from_book += 1
        if book is not None and book.lookup(game.core) is not None:
            result.trusted += 1
            return
    elif how == "endgame" and found is not None and found.exact:
        result.solved_live += 1
    else:
        result.searched += 1
    value = values.value(game.core)
    child = game.core.copy()
    child.push(move.index)
    got = -values.child_value_is(child, -value)
    if got < value:
        where = f"{''.join(record)} {move}: value {got:+d} (or less), the position's {value:+d} ({how or 'search'})"
        result.mistakes.append(where)
    elif got > value:  # pragma: no cover - the solver contradicting itself
        raise GamecoreError(f"a move better than the position's value at {''.join(record)} {move}")


def main(argv: Sequence[str], out: TextIO) -> int:
    """``gamecore bench othello perfect [options]``."""
    parser = argparse.ArgumentParser(
        prog="gamecore bench othello perfect",
        description="Play the engine against an opponent from random openings, both colours, and check every "
        "engine move with the exact solver: print the games, the moves checked and the mistakes (moves worse than "
        "the position's exact value; the target is 0).",
    )
    parser.add_argument("--size", type=int, default=6, choices=(4, 6), help="board size (default 6)")
    parser.add_argument("--games", type=count, default=200, help="games (default 200)")
    parser.add_argument("--time", type=seconds, default=5.0, help="the engine's CPU seconds a move (default 5)")
    parser.add_argument(
        "--player", default=None, help="the engine's spec (default engine:time=TIME,clock=cpu: the default engine)"
    )
    parser.add_argument(
        "--opponent", default="random", help="opponent spec: random (default), greedy, engine:v1,time=1, engine"
    )
    parser.add_argument(
        "--random-moves", type=int, default=3, help="the opponent's first moves played at random (default 3)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random moves (default 1)")
    parser.add_argument("--cache", default=None, metavar="FILE", help="keep the solved values in FILE between runs")
    parser.add_argument(
        "--trust-book", action="store_true", help="count the engine's book moves as checked (solved at the build)"
    )
    parser.add_argument("--backend", choices=("cython", "python"))
    add_quiet_option(parser, "line per game, no progress")
    try:
        args = parser.parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    player = args.player or f"engine:time={args.time:g},clock=cpu"
    try:
        if args.random_moves < 0:
            raise GamecoreError("--random-moves must be >= 0")
        result = check_games(
            player,
            args.opponent,
            size=args.size,
            games=args.games,
            random_moves=args.random_moves,
            seed=args.seed,
            backend=args.backend,
            cache=args.cache,
            trust_book=args.trust_book,
            out=None if args.quiet else out,
            progress=None if args.quiet else sys.stderr,
        )
    except (GamecoreError, ValueError) as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    print(f"{player} against {args.opponent}, {args.size}x{args.size}: {result.summary()}", file=out)
    for where in result.mistakes:
        print(f"mistake: {where}", file=out)
    if result.interrupted:
        print(f"stopped by Ctrl-C after {result.games} of {args.games} games: the figures above are theirs", file=out)
        return 130
    return 1 if result.mistakes else 0
