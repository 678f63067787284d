"""Self-play games for training (``gamecore train othello-selfplay``).

A player (any ``make_player`` spec; ``engine:depth=6`` by default: a fixed depth, so that a
game is the same on every run and on both backends) plays both colours from a varied
opening: each game starts with a number of uniformly random plies drawn from
``random_plies`` (a range), then the player moves to the end. Game ``i`` of a run with
``seed`` draws everything from a generator seeded by ``(seed, i)``, so the file does not
depend on the number of workers, on which worker played which game, or on how often the run
was stopped and started again.

Each game is one transcript line, the moves and black's final disc margin (the empty
squares counted for the winner), the format ``gamecore train othello --from`` reads and the
self-play records Egaroucid's author published use::

    f5d6c3d3c4f4f6f3e6e7... +12

The output is appended to: a run stopped by Ctrl-C (exit status 130) or given a ``--games``
budget goes on from the games already in the file when started again with the same options
(a file made with other options is refused rather than mixed). Games run in ``--workers``
processes, or on a Dask cluster (``--scheduler``, see :mod:`gamecore.train._runs`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, TextIO

from .._cli_types import at_least
from .._progress import add_quiet_option
from ..errors import InvalidOptionError
from ..games.othello import Othello
from ..players import HumanPlayer, make_player
from ._runs import Run, add_workers_options, append_results, lo_hi, progress_lines, results_in_order

__all__ = ["SelfPlayJob", "play_game", "self_play", "DEFAULT_PLAYER", "DEFAULT_RANDOM_PLIES"]

DEFAULT_PLAYER = "engine:depth=6"
#: Random plies at the start of a game, fewest and most: openings varied well beyond a book's.
DEFAULT_RANDOM_PLIES = (4, 16)


@dataclass(frozen=True)
class SelfPlayJob:
    """One game to play: its index in the run, and the run's options."""

    index: int
    size: int
    player: str
    random_plies: tuple[int, int]
    seed: int
    backend: str | None = None


def play_game(job: SelfPlayJob) -> list[str]:
    """The transcript line of game ``job.index`` (see the module)."""
    rng = random.Random(job.seed * 1_000_003 + job.index)
    game = Othello(job.size, backend=job.backend)
    player = make_player(job.player, game="othello", size=job.size)
    player.new_game()
    opening = rng.randint(*job.random_plies)
    names = []
    plies = 0
    while not game.is_game_over():
        move = rng.choice(game.legal_moves()) if plies < opening else player.choose_move(game.copy())
        game.push(move)  # an illegal move from the player is the rules' error, not a record
        plies += 1
        if not move.is_pass:
            names.append(move.name)
    black, white = game.score()
    empty = job.size * job.size - black - white
    margin = black - white + (empty if black > white else -empty if white > black else 0)
    return [f"{''.join(names)} {margin:+d}"]


def _header(size: int, player: str, random_plies: tuple[int, int], seed: int) -> str:
    lo, hi = random_plies
    return (
        f"# gamecore train othello-selfplay --size {size} --player {player} --random-plies {lo}-{hi} "
        f"--seed {seed}: one game a line, its moves and black's final margin"
    )


def _games_in(path: str, header: str) -> int:
    """How many games ``path`` holds (0: no file); a file of another run is refused."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return 0
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidOptionError(f"{path}: cannot read the self-play file ({error})") from None
    if not lines:
        return 0
    if lines[0] != header:
        raise InvalidOptionError(
            f"{path} was not made by this command with these options (its first line: {lines[0][:120]!r}); "
            "give another --out, or the options it was made with"
        )
    return sum(1 for line in lines[1:] if line.strip() and not line.startswith("#"))


def self_play(
    out_path: str,
    *,
    size: int = 8,
    games: int = 1000,
    player: str = DEFAULT_PLAYER,
    random_plies: tuple[int, int] = DEFAULT_RANDOM_PLIES,
    seed: int = 1,
    workers: int = 1,
    scheduler: str | None = None,
    backend: str | None = None,
    say: Any = None,
) -> Run:
    """Play games until ``out_path`` holds ``games`` of them (see the module)."""
    if size not in (4, 6, 8, 10):
        raise InvalidOptionError(f"Othello boards are 4x4 to 10x10 with even sides, not {size}x{size}")
    lo, hi = random_plies
    if not 0 <= lo <= hi or games < 0 or workers < 1:
        raise InvalidOptionError("random plies LO-HI with 0 <= LO <= HI, games >= 0 and workers >= 1 are needed")
    made = make_player(player, game="othello", size=size)  # a bad spec is refused before any game
    if isinstance(made, HumanPlayer):
        raise InvalidOptionError("self-play needs a computer player (engine, mcts, random, ...), not human")
    header = _header(size, player, random_plies, seed)
    have = _games_in(out_path, header)
    jobs = [SelfPlayJob(index, size, player, random_plies, seed, backend) for index in range(have, games)]
    if say is not None:
        say(f"{have} games in {out_path} already; {len(jobs)} to play, {size}x{size}, {player}")
    results = results_in_order(play_game, jobs, workers=workers, scheduler=scheduler)
    return append_results(out_path, header, results, len(jobs), say, what="games")


def add_parser(games: Any, board_size: Any) -> None:
    """``gamecore train othello-selfplay``: registered beside ``gamecore train othello``."""
    p = games.add_parser(
        "othello-selfplay",
        help="play games between copies of a player from varied openings, as data for gamecore train othello --from",
    )
    p.add_argument("--size", type=board_size, default=8)
    p.add_argument("--out", required=True, help="the transcript file (appended to; a rerun goes on from its games)")
    p.add_argument(
        "--games",
        type=at_least(int, 0, "a whole number of games"),
        default=1000,
        help="games the file should hold when done (default 1000)",
    )
    p.add_argument("--player", default=DEFAULT_PLAYER, help=f"the player of both colours (default {DEFAULT_PLAYER})")
    lo, hi = DEFAULT_RANDOM_PLIES
    p.add_argument(
        "--random-plies",
        type=lo_hi("random plies", "4-16"),
        default=DEFAULT_RANDOM_PLIES,
        help=f"LO-HI: each game opens with a random number of random plies in this range (default {lo}-{hi})",
    )
    p.add_argument("--seed", type=int, default=1, help="the games' randomness (default 1)")
    p.add_argument("--backend", choices=("cython", "python"), help="the core the games run on")
    add_workers_options(p)
    add_quiet_option(p)
    p.set_defaults(run=run_command)


def run_command(args: Any, out: TextIO) -> int:
    run = self_play(
        args.out,
        size=args.size,
        games=args.games,
        player=args.player,
        random_plies=args.random_plies,
        seed=args.seed,
        workers=args.workers,
        scheduler=args.scheduler,
        backend=args.backend,
        say=progress_lines(args.quiet),
    )
    print(f"{run.jobs} games played into {args.out}", file=out)
    return 130 if run.interrupted else 0  # as a shell reports a command Ctrl-C stopped
