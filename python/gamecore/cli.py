"""The ``gamecore`` command (also ``python -m gamecore``).

::

    gamecore game                                   # a quick game: random vs greedy, move by move
    gamecore play othello --black human --white engine --time 5
    gamecore play othello --size 6 --white mcts --style ufrj --record game.txt
    gamecore perft --size 8 --depth 7 --backend python
    gamecore bench perft                            # leaves/s per backend and size, their ratio
    gamecore bench search --ffo 40                  # alpha-beta nodes/s, ratio, FFO #40 solved
    gamecore bench endgame --ffo 40-49              # exact solving of FFO positions
    gamecore bench mcts                             # MCTS iterations/s per backend
    gamecore bench tetralath                        # Tetralath nodes/s, depth 8 and depth at 5 s per opening ply
    gamecore bench multiplayer                      # Rolit: Max^n/paranoid/BRS states/s, MCTS iterations/s, pruning
    gamecore bench rolit                            # Rolit core: perft leaves/s, random-playout plies/s, ratios
    gamecore export ufrj --out models/players/gamecore_player.py --time 5
    gamecore export ctu --out player.py --time 1 --standalone
    gamecore tetralath                              # the Tetralath terminal game
    gamecore rolit Y B                              # Rolit: you play yellow and blue, the computer red and green

Players are given as ``human``, ``random``, ``greedy``, ``corner``, ``positional``,
``engine`` or ``mcts``, with options after a colon: ``engine:depth=6,eval=positional``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from . import _backend, bench
from .adapters import ctu, ufrj
from .bench import api as bench_api
from .bench import multiplayer as bench_multiplayer
from .bench import rolit as bench_rolit
from .errors import GamecoreError
from .games.othello import BLACK, PASS, WHITE, Move, Othello, parse_move_list
from .players import HumanPlayer, Player, make_player
from .referee.cli import add_subparser as add_tournament_parser
from .report.cli import add_subparser as add_compare_parser
from .ui import rolit as rolit_ui
from .ui import tetralath as tetralath_ui

__all__ = ["main", "run_game", "format_record", "load_record"]

_SIDE_NAMES = ("black", "white")
_EVALUATIONS = ("discs", "positional", "mobility", "corners", "stability", "parity", "standard")


class QuitGame(Exception):
    """The human asked to stop (``quit``) or the input ended."""


# -- game records ----------------------------------------------------------------


def format_record(game: Othello) -> str:
    """The moves played as one word like ``f5d6c3d3`` (passes left out, as in most Othello tools)."""
    return "".join(str(m) for m in game.move_stack if not m.is_pass)


def load_record(game: Othello, text: str) -> int:
    """Play the moves of a record (``f5d6c3...``, passes written or not) on ``game``.

    Returns the number of moves read. On a bad record raises ``ValueError`` and leaves
    ``game`` as it was.
    """
    body = " ".join(line.split("#", 1)[0] for line in text.splitlines())
    moves = parse_move_list(body, game.size)
    trial = game.copy()
    for number, index in enumerate(moves, 1):
        legal = trial.legal_moves()
        if legal and legal[0].is_pass and index != PASS:
            trial.push(legal[0])  # the record leaves the pass out
        move = Move(index, game.size)
        try:
            trial.push(move)
        except ValueError as exc:
            raise GamecoreError(f"move {number} of the record ({move}) cannot be played: {exc}") from None
    for move in trial.move_stack[len(game.move_stack) :]:
        game.push(move)
    return len(moves)


# -- the game loop ---------------------------------------------------------------------


def _describe(player: Player) -> str:
    return player.name


def _search_note(player: Player) -> str:
    result = getattr(player, "last_result", None)
    if result is None:
        return ""
    parts = []
    if getattr(result, "iterations", None):
        parts.append(f"{result.iterations} iterations")
        parts.append(f"win rate {result.score / 10:.1f}%")
    else:
        depth = getattr(result, "depth", None)
        if depth is not None:
            parts.append(f"depth {depth}")
        score = getattr(result, "score", None)
        if score is not None:
            parts.append(f"score {score:+d}")
        nodes = getattr(result, "nodes", None)
        if nodes is not None:
            parts.append(f"{nodes} nodes")
    return ", ".join(parts)


def run_game(
    game: Othello,
    players: Sequence[Player],
    *,
    out: TextIO,
    style: str = "letters",
    boards: bool = True,
    record_path: str | None = None,
    time_budget: float | None = None,
) -> Any | None:
    """Play ``game`` to its end between ``players[BLACK]`` and ``players[WHITE]``, printing it.

    Returns the outcome, or ``None`` when a human quits or the input ends (the record,
    if any, is saved up to there).
    """

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    def save() -> None:
        if record_path:
            with open(record_path, "w", encoding="utf-8") as fh:
                fh.write(format_record(game) + "\n")

    labels = [f"{_SIDE_NAMES[side]} ({_describe(players[side])})" for side in (BLACK, WHITE)]
    if boards:
        say(game.render(style=style))
    ply = len(game.move_stack)
    while not game.is_game_over():
        side = game.turn
        legal = game.legal_moves()
        if legal[0].is_pass:
            say(f"{labels[side]} has no legal move and passes.")
            game.push(legal[0])
            save()
            continue
        player = players[side]
        start = time.perf_counter()
        try:
            move = player.choose_move(game, time_budget)
        except (EOFError, QuitGame, KeyboardInterrupt) as exc:
            say("")
            say("Game stopped" + (" (input ended)." if isinstance(exc, EOFError) else "."))
            if record_path:
                save()
                say(f"Record saved to {record_path}: {format_record(game) or '(no moves)'}")
            return None
        elapsed = time.perf_counter() - start
        game.push(move)
        ply += 1
        save()
        line = f"{ply}. {labels[side]} plays {move}"
        if hasattr(player, "last_result"):  # a thinking player: show its time and search
            note = _search_note(player)
            line += f" in {elapsed:.2f} s" + (f" ({note})" if note else "")
        say(line)
        if boards:
            say(game.render(style=style, last_move=move))
            if not game.is_game_over():
                say(f"{labels[game.turn]} to move.")
    outcome = game.outcome()
    if not boards:
        say(game.render(style=style))
    black, white = game.score()
    if outcome.winner is None:
        say(f"Game over: a draw, {black}-{white}.")
    else:
        say(f"Game over: {labels[outcome.winner]} wins, {black}-{white}.")
    if record_path:
        say(f"Record saved to {record_path}: {format_record(game)}")
    return outcome


class _QuittableHuman(HumanPlayer):
    """A human at the terminal: ``quit`` stops the game."""

    def _read(self, prompt: str) -> str:
        line = super()._read(prompt)
        if line.strip().lower() in ("quit", "exit", "q"):
            raise QuitGame
        return line


def _build_player(spec: str, side: int, args: argparse.Namespace, out: TextIO) -> Player:
    if spec.strip().lower() == "human":
        return _QuittableHuman(output=out)
    return make_player(
        spec,
        seed=(getattr(args, "seed", 0) or 0) + side,
        depth=getattr(args, "depth", None),
        time=getattr(args, "time", None),
        evaluation=getattr(args, "eval", None),
        iterations=getattr(args, "iterations", None),
        backend=getattr(args, "backend", None),
    )


# -- subcommands -----------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    game = Othello(args.size, backend=args.backend)
    if args.load:
        with open(args.load, encoding="utf-8") as fh:
            count = load_record(game, fh.read())
        print(f"Loaded {count} moves from {args.load}.", file=out)
    players = [_build_player(args.black, BLACK, args, out), _build_player(args.white, WHITE, args, out)]
    print(
        f"Othello {args.size}x{args.size}: black {players[BLACK].name} vs white {players[WHITE].name}"
        f" ({game.backend} backend). Type a move like d3 or '3 4' (row column); 'quit' stops.",
        file=out,
    )
    run_game(game, players, out=out, style=args.style, record_path=args.record)
    return 0


def _cmd_game(args: argparse.Namespace, out: TextIO) -> int:
    game = Othello(args.size, backend=args.backend)
    players = [_build_player(args.black, BLACK, args, out), _build_player(args.white, WHITE, args, out)]
    if any(isinstance(p, HumanPlayer) for p in players):
        raise GamecoreError("'gamecore game' is for computer players; use 'gamecore play othello' to play yourself")
    print(
        f"Othello {args.size}x{args.size}: black {players[BLACK].name} vs white {players[WHITE].name} ({game.backend} backend)",
        file=out,
    )
    run_game(game, players, out=out, style=args.style, boards=args.boards, record_path=args.record)
    return 0


def _cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    game = Othello(args.size, backend=args.backend)
    start = time.perf_counter()
    leaves = game.perft(args.depth)
    elapsed = time.perf_counter() - start
    rate = leaves / elapsed if elapsed > 0 else float("inf")
    print(
        f"perft {args.size}x{args.size} depth {args.depth}: {leaves} leaves in {elapsed:.3f} s, "
        f"{rate:,.0f} leaves/s ({game.backend} backend)",
        file=out,
    )
    return 0


def _cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    if args.what == "perft":
        bench.bench_perft(out, runs=args.runs, backend=args.backend, quick=args.quick)
        return 0
    if args.what == "mcts":
        bench.bench_mcts(out, runs=args.runs, iterations=args.iterations or 200, size=args.size, backend=args.backend)
        return 0
    if args.what == "endgame":
        return bench.bench_endgame(out, args.ffo or "40-49", backend=args.backend or _backend.BACKEND)
    if args.what == "api":
        return bench_api.bench_api(out, runs=args.runs, depth=args.depth, backend=args.backend)
    if args.what == "multiplayer":
        bench_multiplayer.bench_multiplayer(out, runs=args.runs, backend=args.backend, quick=args.quick)
        return 0
    if args.what == "rolit":
        bench_rolit.bench_rolit(out, runs=args.runs, backend=args.backend, quick=args.quick)
        return 0
    if args.what == "tetralath":
        bench.bench_tetralath(
            out,
            runs=args.runs,
            backend=args.backend,
            plies=args.plies,
            depth=args.depth or 8,
            time_limit=args.time,
            quick=args.quick,
        )
        return 0
    return bench.bench_search(
        out, runs=args.runs, depth=args.depth or 6, deep=args.deep, ffo=args.ffo or "40-49", backend=args.backend
    )


def _cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    evaluation = args.eval or "standard"
    if args.framework == "ufrj":
        time_limit = 5.0 if args.time is None else args.time
        path = ufrj.export_player(args.out, time=time_limit, depth=args.depth, evaluation=evaluation)
        print(f"Wrote the UFRJ player {path} ({time_limit:g} s a move; the framework allows 10 s).", file=out)
        if not os.path.basename(path).endswith("_player.py"):
            print("Note: the framework lists only files named *_player.py in models/players/.", file=out)
        return 0
    time_limit = 1.0 if args.time is None else args.time
    path = ctu.export_player(
        args.out, time=time_limit, depth=args.depth, evaluation=evaluation, standalone=args.standalone
    )
    size = os.path.getsize(path)
    kind = "standalone pure-Python file" if args.standalone else "file (needs gamecore installed)"
    print(f"Wrote the CTU player {path}: {kind}, {size:,} bytes, {time_limit:g} s a move.", file=out)
    return 0


def _cmd_tetralath(argv: Sequence[str], out: TextIO) -> int:
    return int(tetralath_ui.main(list(argv)) or 0)


# -- argument parsing ----------------------------------------------------------------------


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text!r}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {text!r}")
    return value


def _board_size(text: str) -> int:
    value = _positive_int(text)
    if value % 2 or not 4 <= value <= 10:
        raise argparse.ArgumentTypeError(f"the board size must be even, 4 to 10; got {text!r}")
    return value


def _add_engine_options(p: argparse.ArgumentParser, default_time: float | None = None) -> None:
    p.add_argument("--time", type=_positive_float, default=default_time, metavar="S", help="seconds per engine move")
    p.add_argument(
        "--depth", type=_positive_int, metavar="N", help="search depth of engine players (with --time: at most)"
    )
    p.add_argument("--eval", choices=_EVALUATIONS, help="evaluation of engine players (default standard)")


def _add_game_options(p: argparse.ArgumentParser, black: str, white: str) -> None:
    p.add_argument("--size", type=_board_size, default=8, help="board size: 4, 6, 8 or 10 (default 8)")
    p.add_argument("--black", default=black, metavar="PLAYER", help=f"black player (default {black})")
    p.add_argument("--white", default=white, metavar="PLAYER", help=f"white player (default {white})")
    _add_engine_options(p)
    p.add_argument("--iterations", type=_positive_int, metavar="N", help="MCTS iterations per move")
    p.add_argument("--seed", type=int, default=0, help="seed of the random and MCTS players")
    p.add_argument(
        "--style",
        choices=("letters", "ufrj"),
        default="letters",
        help="board text: X/O letters or the UFRJ ○/● with a ? border",
    )
    p.add_argument("--record", metavar="FILE", help="save the game record (f5d6c3...) to FILE after every move")
    p.add_argument("--backend", choices=_backend.BACKENDS, help="backend for the game and the engines")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamecore",
        description="Board-game AI for teaching: play Othello in the terminal, benchmark, export course players.",
        epilog="Players: human, random, greedy, corner, positional, engine, mcts (options: engine:depth=6,eval=positional).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("play", help="play a game in the terminal (human vs engine, any mix)")
    p.add_argument("game", choices=("othello", "tetralath"), help="the game")
    _add_game_options(p, black="human", white="engine")
    p.add_argument("--load", metavar="FILE", help="start from the game record in FILE (replay and resume)")

    p = sub.add_parser(
        "game", help="a quick computer-vs-computer game, printed move by move (default random vs greedy)"
    )
    _add_game_options(p, black="random", white="greedy")
    p.add_argument("--boards", action="store_true", help="print the board after every move")

    p = sub.add_parser("perft", help="count the leaves of the game tree (move-generator check and speed)")
    p.add_argument("--size", type=_board_size, default=8)
    p.add_argument("--depth", type=int, default=6)
    p.add_argument("--backend", choices=_backend.BACKENDS)

    p = sub.add_parser("bench", help="benchmarks: perft, search, endgame, mcts or tetralath speed per backend")
    p.add_argument("what", choices=("perft", "search", "endgame", "mcts", "tetralath", "api", "multiplayer", "rolit"))
    p.add_argument("--size", type=_board_size, default=8, help="board size of the MCTS benchmark")
    p.add_argument(
        "--depth",
        type=_positive_int,
        help="search: depth of the cython/python comparison (default 6); tetralath: depth of the opening searches (default 8)",
    )
    p.add_argument("--plies", type=_positive_int, default=12, help="tetralath: plies of the opening (default 12)")
    p.add_argument(
        "--time", type=_positive_float, default=5.0, help="tetralath: seconds a move of the timed opening (default 5)"
    )
    p.add_argument("--deep", type=int, default=10, help="search: depth of the Cython-only run (default 10; 0 skips it)")
    p.add_argument(
        "--ffo", metavar="RANGE", help="search/endgame: FFO positions to solve, e.g. 40-49 (default), 40, none"
    )
    p.add_argument("--iterations", type=_positive_int, help="MCTS iterations per search (default 200)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="perft: trees three plies shallower; tetralath: nodes/s searches two shallower (smoke runs)",
    )
    p.add_argument(
        "--runs", type=_positive_int, default=3, help="runs per measurement; the median is reported (default 3)"
    )
    p.add_argument("--backend", choices=_backend.BACKENDS, help="only this backend")

    p = sub.add_parser("export", help="write a player file for a course framework (UFRJ or CTU)")
    p.add_argument("framework", choices=("ufrj", "ctu"))
    p.add_argument("--out", required=True, metavar="PATH", help="the file to write")
    _add_engine_options(p)
    p.add_argument("--standalone", action="store_true", help="CTU: one flat pure-Python file that needs no gamecore")

    add_tournament_parser(sub)  # gamecore tournament: the referee's own parser (gamecore.referee.cli)
    add_compare_parser(sub)  # gamecore compare rolit: the report's own parser (gamecore.report.cli)

    p = sub.add_parser("tetralath", help="play Tetralath in the terminal (options: gamecore tetralath --help)")
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    # Listed for --help only: main() hands "rolit ..." to the Rolit UI before parsing.
    sub.add_parser("rolit", help="play Rolit for 2-4 players in the terminal (options: gamecore rolit --help)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``gamecore`` command; returns the exit status (0 ok, 1 error, 2 bad usage)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    # Everything after "tetralath" belongs to the Tetralath UI.
    if argv and argv[0] == "tetralath":
        return _cmd_tetralath(argv[1:], out)
    if len(argv) >= 2 and argv[0] == "play" and argv[1] == "tetralath":
        return _cmd_tetralath(argv[2:], out)
    # Likewise everything after "rolit" belongs to the Rolit UI.
    if argv and argv[0] == "rolit":
        return int(rolit_ui.main(argv[1:]) or 0)
    if len(argv) >= 2 and argv[0] == "play" and argv[1] == "rolit":
        return int(rolit_ui.main(argv[2:]) or 0)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    notice = _backend.fallback_notice()
    if notice:
        print(notice, file=sys.stderr)
    try:
        if args.command == "play":
            return _cmd_play(args, out)
        if args.command == "game":
            return _cmd_game(args, out)
        if args.command == "perft":
            return _cmd_perft(args, out)
        if args.command == "bench":
            return _cmd_bench(args, out)
        if args.command == "export":
            return _cmd_export(args, out)
        if args.command == "tournament":
            return args.referee_handler(args, out)
        if args.command == "compare":
            return args.report_handler(args, out)
        return _cmd_tetralath(args.rest, out)
    except (GamecoreError, ValueError, OSError) as exc:
        print(f"gamecore: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
