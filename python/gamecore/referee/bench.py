"""Referee overhead and throughput: ``python -m gamecore.referee.bench`` (or ``gamecore tournament bench``).

Prints, with a trivial bot (the built-in random player, which answers in microseconds):

- start-up: from spawning a bot host to its ``ready`` reply (process, sandbox, imports), per
  isolation mode, median of ``--runs``;
- round trip: a move request answered, less the bot's own time (what the referee adds to each
  move), median over ``--moves`` requests on the 8x8 start position;
- games per second of a small round robin of random players on 6x6 with 1 and 2 workers, and
  on a 2-worker Dask ``LocalCluster`` when Dask is installed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import TextIO

from .._cli_types import at_least, count
from .cluster import dask_available, local_cluster
from .rules import MoveRequest
from .sandbox import BotProcess, namespaces_available
from .tournament import TournamentConfig, run_tournament

__all__ = ["bench", "main", "add_bench_options"]


def _startup_and_round_trip(isolation: str, runs: int, moves: int) -> tuple[float, float]:
    starts, trips = [], []
    request: MoveRequest = {
        "type": "move",
        "game": "othello",
        "size": 8,
        "seat": 0,
        "turn": 0,
        "board": [],
        "legal": [],
        "history": [],
        "time": 5.0,
        "bank": 0.0,
    }
    for run in range(runs):
        bot = BotProcess({"kind": "builtin", "spec": "random", "name": "random"}, isolation=isolation)
        try:
            bot.send({"type": "start", "game": "othello", "size": 8, "seat": 0, "seats": 2, "time": 5.0, "seed": run})
            bot.receive(60)
            starts.append(time.perf_counter() - bot.started)
            if run == 0:
                for _ in range(moves):
                    sent = time.perf_counter()
                    bot.send(request)
                    reply = bot.receive(10)
                    elapsed = reply.get("elapsed", 0.0)  # the host's own time, a float
                    trips.append(time.perf_counter() - sent - (elapsed if isinstance(elapsed, float) else 0.0))
        finally:
            bot.close()
    return statistics.median(starts), statistics.median(trips)


def _games_per_second(players: int, workers: int, scheduler: str | None = None) -> tuple[int, float]:
    with tempfile.TemporaryDirectory(prefix="gamecore-bench-") as folder:
        config = TournamentConfig(
            [f"random:seed={i}" for i in range(players)],
            sizes=[6],
            time=5.0,
            db=os.path.join(folder, "bench.sqlite"),
            progress=False,
            workers=workers,
            scheduler=scheduler,
        )
        start = time.perf_counter()
        records = run_tournament(config)
        return len(records), len(records) / (time.perf_counter() - start)


def bench(out: TextIO, *, runs: int = 5, moves: int = 200, players: int = 5) -> None:
    modes = (["full"] if namespaces_available() else []) + ["basic"]
    print(
        f"Referee overhead with a trivial bot (built-in random), median of {runs} start-ups and {moves} moves:",
        file=out,
    )
    for mode in modes:
        startup, trip = _startup_and_round_trip(mode, runs, moves)
        print(f"  {mode:<10} start-up {startup * 1000:7.1f} ms   move round trip {trip * 1e6:7.0f} us", file=out)
    print(f"Round robin of {players} random players on 6x6 (2 games a match):", file=out)
    for workers in (1, 2):
        games, rate = _games_per_second(players, workers)
        print(f"  {workers} worker{'s' if workers > 1 else ' '}          {games} games   {rate:6.2f} games/s", file=out)
    if not dask_available():
        print("  Dask LocalCluster: not installed (pip install 'gamecore[cluster]')", file=out)
        return
    with local_cluster(2) as address:
        games, rate = _games_per_second(players, 2, scheduler=address)
    print(f"  Dask LocalCluster, 2 workers   {games} games   {rate:6.2f} games/s (cluster already running)", file=out)


def add_bench_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``gamecore tournament bench`` and ``python -m gamecore.referee.bench``."""
    parser.add_argument("--runs", type=count, default=5, help="bot start-ups to time (default 5)")
    parser.add_argument("--moves", type=count, default=200, help="move round trips to time (default 200)")
    parser.add_argument(
        "--players",
        type=at_least(int, 2, "players"),
        default=5,
        help="players of the throughput round robin (default 5)",
    )


def main(argv: list[str] | None = None) -> int:
    assert __doc__ is not None
    parser = argparse.ArgumentParser(prog="python -m gamecore.referee.bench", description=__doc__.splitlines()[0])
    add_bench_options(parser)
    args = parser.parse_args(argv)
    bench(sys.stdout, runs=args.runs, moves=args.moves, players=args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
