"""The ``gamecore`` command (also ``python -m gamecore``).

::

    gamecore play othello                          # you (black) against the engine (white)
    gamecore play othello --size 6 --white mcts --style ufrj --record game.txt
    gamecore play tetralath --lang pt              # Tetralath in Portuguese (short form: gamecore tetralath)
    gamecore play rolit --blue human               # Rolit: you play red and blue, the computer yellow and green
    gamecore rolit Y B                             # the course handout's Rolit: you play yellow and blue
    gamecore game                                  # a quick computer game (random vs greedy), final board only
    gamecore perft --depth 8                       # leaves of the Othello game tree, and the speed
    gamecore perft rolit --depth 6                 # the same for another game
    gamecore bench othello perft                   # leaves/s per backend and size, their ratio
    gamecore bench rolit                           # the Rolit core per backend (bench rolit search: its searches)
    gamecore bench rl                              # random games through PettingZoo and OpenSpiel: plies/s
    gamecore export ufrj --out models/players/gamecore_player.py
    gamecore tournament ...                        # the tournament referee (gamecore tournament --help)
    gamecore archive stats wthor/WTH_2004.wtb      # players, openings, results of archived games
    gamecore nboard                                # an engine for the NBoard GUI (its protocol on stdin/stdout)

Players are given as ``human``, ``random``, ``engine``, ``mcts`` (every game) or ``greedy``,
``corner``, ``positional`` (Othello), with options after a colon: ``engine:depth=6,eval=positional``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from . import __version__, _backend, bench, nboard
from ._cli_types import DEFAULT_GAME, add_backend, board_size, count, plies, seconds
from ._progress import add_quiet_option
from .adapters import ctu, ufrj
from .archive.cli import add_subparser as add_archive_parser
from .bench import api as bench_api
from .bench import evaluation as bench_evaluation
from .bench import multiplayer as bench_multiplayer
from .bench import perfect as bench_perfect
from .bench import rl as bench_rl
from .bench import rolit as bench_rolit
from .bench import rolit_strength as bench_rolit_strength
from .bench import strength as bench_strength
from .errors import GamecoreError
from .games import GAMES
from .games.othello import Othello
from .players import player_names
from .referee.cli import add_subparser as add_tournament_parser
from .referee.cli import expand as expand_tournament
from .report.cli import add_subparser as add_compare_parser
from .search.perfect import add_subparser as add_solve_parser
from .train.othello import add_subparser as add_train_parser
from .ui import GAME_UIS
from .ui import play as play_ui
from .ui import rolit as rolit_ui
from .ui.othello import format_record, load_record
from .web.cli import add_subparser as add_serve_parser

__all__ = ["main", "build_parser", "format_record", "load_record"]


# -- subcommands -----------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    args.out = out
    return play_ui.run(GAME_UIS[args.game], args, stdin, out, boards=args.boards)


def _cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    game = GAMES[args.perft_game].for_size(args.size, backend=args.backend)
    compiled, pure = game.perft_depths
    depth = args.depth if args.depth is not None else (compiled if game.backend == "cython" else pure)
    start = time.perf_counter()
    leaves = game.perft(depth)
    elapsed = time.perf_counter() - start
    if elapsed < 0.001:
        took = f"{elapsed * 1e6:.0f} µs"
    else:
        took = f"{elapsed * 1000:.1f} ms" if elapsed < 1 else f"{elapsed:.2f} s"
    # A rate over less than a millisecond is the clock's noise: leave it out.
    rate = f", {leaves / elapsed:,.0f} leaves/s" if elapsed >= 0.001 else ""
    noun = "leaf" if leaves == 1 else "leaves"
    rows = game.cells()
    board = f"{len(rows)}x{len(rows[0])}" if all(len(row) == len(rows) for row in rows) else f"{game.size} cells"
    what = board if args.perft_game == DEFAULT_GAME else f"{game.name} {board}"  # the default game unnamed
    print(f"perft {what} depth {depth}: {leaves:,} {noun} in {took}{rate} ({game.backend} backend)", file=out)
    return 0


def _cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    """``gamecore bench GAME [KIND]``: the handler its game's parser set (no game named here)."""
    return int(args.bench_handler(args, out))


def _bench_rolit(args: argparse.Namespace, out: TextIO) -> int:
    if args.kind == "strength":  # reached only with options before the kind: it parses its own
        raise GamecoreError("write the options after the kind: gamecore bench rolit strength [OPTIONS]")
    run = bench_rolit.bench_rolit if args.kind == "core" else bench_multiplayer.bench_multiplayer
    run(out, runs=args.runs, backend=args.backend, quick=args.quick)
    return 0


def _bench_tetralath(args: argparse.Namespace, out: TextIO) -> int:
    bench.bench_tetralath(
        out,
        runs=args.runs,
        backend=args.backend,
        plies=args.plies,
        depth=args.depth,
        time_limit=args.time,
        quick=args.quick,
    )
    return 0


def _bench_rl(args: argparse.Namespace, out: TextIO) -> int:
    bench_rl.bench_rl(out, runs=args.runs, backend=args.backend, quick=args.quick)
    return 0


def _bench_othello(args: argparse.Namespace, out: TextIO) -> int:
    kind = args.kind
    if kind == "perfect":  # reached only with options before the kind: it parses its own
        raise GamecoreError("write the options after the kind: gamecore bench othello perfect [OPTIONS]")
    if kind == "perft":
        if args.reference is not None:
            if "cython" not in _backend.available():
                raise ValueError("--reference times the compiled backend, which is not installed here")
            reference = bench.load_reference(args.reference)  # ValueError: one line, exit 1
            return bench.bench_reference(out, reference, runs=args.runs, quick=args.quick)
        bench.bench_perft(out, runs=args.runs, backend=args.backend, quick=args.quick)
        return 0
    if kind == "mcts":
        bench.bench_mcts(out, runs=args.runs, iterations=args.iterations or 200, size=args.size, backend=args.backend)
        return 0
    progress = None if args.quiet else sys.stderr  # search and endgame: their progress lines
    if kind == "endgame":
        if args.solve_limit is not None:
            return bench.bench_solve_limit(
                out, args.solve_limit, args.ffo or "40-49", backend=args.backend or _backend.BACKEND, progress=progress
            )
        return bench.bench_endgame(
            out, args.ffo or "40-49", backend=args.backend or _backend.BACKEND, progress=progress
        )
    if kind == "api":
        return bench_api.bench_api(out, runs=args.runs, depth=args.depth, backend=args.backend)
    if kind == "eval":
        return bench_evaluation.bench_eval(
            out,
            size=args.size,
            evaluation=args.eval or "default",
            weights=args.weights,
            plies=args.depths,
            gate=args.gate,
            path=args.check,
            backend=args.backend,
            limit=args.limit,
        )
    return bench.bench_search(
        out,
        runs=args.runs,
        depth=args.depth or 6,
        deep=args.deep,
        ffo=args.ffo or "40-49",
        backend=args.backend,
        progress=progress,
        evaluation=args.eval or "standard",
        against=args.against,
    )


def _cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    evaluation = args.eval
    if args.standalone and args.framework != "ctu":
        raise GamecoreError("--standalone is for 'export ctu' only (a UFRJ player imports gamecore)")
    if args.framework == "ufrj":
        time_limit = 5.0 if args.time is None else args.time
        path = ufrj.export_player(args.out, time=time_limit, depth=args.depth, evaluation=evaluation or "default")
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


# -- argument parsing ----------------------------------------------------------------------


def _add_play_parser(sub: Any, ui: play_ui.GameUI, *, quick: bool = False, lang: str = "en") -> None:
    colours = list(ui.game.Color)
    p = sub.add_parser(
        ui.name,
        help=ui.summary,
        description=f"{ui.summary}. At the prompt: a move, help, undo, quit.",
        epilog="PLAYER: " + ", ".join(player_names(ui.name)) + " (options after a colon: engine:depth=6,time=2).",
    )
    ui.add_options(p)
    play_ui.add_play_options(p, ui, colours)
    p.add_argument(
        "--quiet", dest="boards", action="store_false", help="draw only the final board (default: after every move)"
    )
    p.add_argument("--boards", dest="boards", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(boards=not quick, game=ui.name)
    play_ui.translate_help(p, ui, lang)  # gamecore tetralath --lang pt --help


#: What ``gamecore bench GAME KIND`` measures of each game, the default first ("rl" is the
#: learning adapters on every game, not a game).
BENCH_KINDS = {
    "othello": ("perft", "search", "endgame", "mcts", "api", "strength", "eval", "perfect"),
    "rolit": ("core", "search", "strength"),
    "tetralath": ("search",),
    "rl": (),
}
#: The spellings of ``gamecore bench WHAT`` before the game came first, still understood
#: (with a warning): WHAT -> (GAME, KIND). ``bench rolit``, ``bench tetralath`` and
#: ``bench rl`` read the same in both.
OLD_BENCH_NAMES = {
    "perft": ("othello", "perft"),
    "search": ("othello", "search"),
    "endgame": ("othello", "endgame"),
    "mcts": ("othello", "mcts"),
    "api": ("othello", "api"),
    "strength": ("othello", "strength"),
    "multiplayer": ("rolit", "search"),
}


def _add_bench_parser(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmarks per backend: bench othello|rolit|tetralath [KIND], bench rl",
        description="Speed figures per backend (medians of CPU time), for one game: 'gamecore bench GAME [KIND]'; "
        "'gamecore bench rl' times the learning adapters on every game.",
        epilog="KIND: "
        + "; ".join(f"{game} {_kinds_text(game)}" for game, kinds in BENCH_KINDS.items() if kinds)
        + ". 'gamecore bench GAME --help' shows the options of each.",
    )
    games = p.add_subparsers(dest="bench_game", metavar="GAME")
    games.required = True

    o = games.add_parser(
        "othello",
        help=_kinds_text("othello"),
        description="Othello: perft leaves/s per size (perft), alpha-beta nodes/s and FFO endgames (search), the "
        "FFO positions alone (endgame), UCT iterations/s (mcts), the public API as a student's code uses it (api), "
        "the engine against an opponent (strength: gamecore bench othello strength --help), every engine move "
        "checked by the exact solver (perfect: gamecore bench othello perfect --help).",
    )
    _add_bench_kind(o, "othello")
    o.set_defaults(bench_handler=_bench_othello)
    o.add_argument("--size", type=board_size, default=8, help="mcts: board size (default 8)")
    o.add_argument(
        "--depth", type=count, help="search: depth of the cython/python comparison (default 6); api: negamax depth"
    )
    o.add_argument(
        "--deep", type=plies, default=10, help="search: depth of the Cython-only run (default 10; 0 skips it)"
    )
    o.add_argument(
        "--ffo", metavar="RANGE", help="search/endgame: FFO positions to solve, e.g. 40-49 (default), 40, none"
    )
    o.add_argument(
        "--solve-limit",
        type=seconds,
        metavar="S",
        help="endgame: instead, the most empty squares solved within S seconds a move (FFO positions and "
        "positions played from them)",
    )
    o.add_argument(
        "--reference",
        metavar="PATH",
        help="perft: instead, time compiled 8x8 perft(11) against ref_perft.perft(11) from PATH (a folder "
        "where a ref_perft module was built, or the module file), in turn",
    )
    o.add_argument("--iterations", type=count, help="mcts: iterations per search (default 200)")
    add_quiet_option(o, "progress lines (search, endgame)")
    o.add_argument(
        "--weights", metavar="PATH", help="eval: learned weights to check (gamecore train othello's .patterns file)"
    )
    o.add_argument(
        "--eval",
        help="eval: the evaluation to check (default: the engine's); search: the evaluation of the alpha-beta runs "
        "(default standard; learned: the pattern evaluation)",
    )
    o.add_argument(
        "--against",
        metavar="PATH",
        help="search: also time the deep run with the gamecore at PATH (a checkout or the folder holding "
        "gamecore/, its extensions built), in turn with this build: before/after figures of one run",
    )
    o.add_argument(
        "--depths",
        type=ply_list,
        default=(0, 1, 4),
        metavar="D,D,...",
        help="eval: search depths to check at (default 0,1,4)",
    )
    o.add_argument(
        "--gate", action="store_true", help="eval: exit 1 when --weights are worse than the shipped ones in a stage"
    )
    o.add_argument(
        "--check",
        metavar="SET",
        help="eval: the check set: tournament (default: positions of tournament games), engines (of engine games) "
        "or a FILE of lines BOARD SIDE EXACT SOURCE",
    )
    o.add_argument("--limit", type=count, default=0, help="eval: only the first N positions of the check set")
    _add_bench_common(o, quick="perft: trees three plies shallower (--reference: perft(8))")

    r = games.add_parser(
        "rolit",
        help=_kinds_text("rolit"),
        description="Rolit for four: the game core's perft leaves/s and random playouts (core); Max^n, paranoid, "
        "Best-Reply Search and MCTS (search); the default engine against the three others (strength: "
        "gamecore bench rolit strength --help).",
    )
    _add_bench_kind(r, "rolit")
    r.set_defaults(bench_handler=_bench_rolit)
    _add_bench_common(
        r,
        quick="core: perft two plies shallower, a tenth of the playouts; search: a ply shallower, a quarter "
        "of the MCTS iterations",
    )

    t = games.add_parser(
        "tetralath",
        help=_kinds_text("tetralath"),
        description="Tetralath: alpha-beta nodes/s, the nodes of each ply of a fixed-depth opening, the depth a "
        "timed engine reaches on each ply of an opening (search).",
    )
    _add_bench_kind(t, "tetralath")
    t.set_defaults(bench_handler=_bench_tetralath)
    t.add_argument("--depth", type=count, help="depth of the opening searches (default 8, --quick 5)")
    t.add_argument("--plies", type=count, help="plies of the openings (default 12, --quick 4)")
    t.add_argument(
        "--time", type=seconds, metavar="S", help="seconds a move of the timed opening (default 5, --quick 0.5)"
    )
    _add_bench_common(t, quick="nodes/s searches two plies shallower and short openings")

    rl = games.add_parser(
        "rl",
        help="the learning adapters (PettingZoo, OpenSpiel) on every game: plies/s",
        description="Random games through the PettingZoo and OpenSpiel adapters on every game: plies/s "
        '(needs pip install ".[rl]").',
    )
    _add_bench_common(rl, quick="a tenth of the games")
    rl.set_defaults(kind=None, bench_handler=_bench_rl)


def ply_list(text: str) -> tuple[int, ...]:
    """``"0,1,4"`` -> (0, 1, 4): search depths from 0 to 20."""
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected depths like 0,1,4, got {text!r}") from None
    if not values or any(not 0 <= v <= 20 for v in values):
        raise argparse.ArgumentTypeError(f"depths from 0 to 20, got {text!r}")
    return values


def _kinds_text(game: str) -> str:
    """``perft (default), search, ...``: what ``gamecore bench GAME`` measures."""
    first, *others = BENCH_KINDS[game]
    return ", ".join([f"{first} (default)", *others])


def _add_bench_kind(parser: argparse.ArgumentParser, game: str) -> None:
    kinds = BENCH_KINDS[game]
    parser.add_argument("kind", nargs="?", choices=kinds, default=kinds[0], metavar="KIND", help=_kinds_text(game))


def _add_bench_common(parser: argparse.ArgumentParser, *, quick: str) -> None:
    parser.add_argument("--quick", action="store_true", help=f"smoke runs of a few seconds: {quick}")
    parser.add_argument(
        "--runs", type=count, default=3, help="runs per measurement; the median is reported (default 3)"
    )
    add_backend(parser, every=True)


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The parser of ``gamecore``; ``lang``: the language of the play commands' help where a game
    speaks it (``gamecore tetralath --lang pt --help``)."""
    parser = argparse.ArgumentParser(
        prog="gamecore",
        description="Board-game AI for teaching: play Othello, Tetralath and Rolit in the terminal, "
        "count and benchmark, export course players, run tournaments.",
        epilog="'gamecore COMMAND --help' shows the options of a command and their defaults.",
    )
    parser.add_argument("--version", action="version", version=f"gamecore {__version__} ({_backend.BACKEND} backend)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser(
        "play",
        help="play a game in the terminal: " + ", ".join(GAME_UIS) + " (default othello)",
        description="Play a game in the terminal (Othello when no game is named).",
    )
    games = p.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    for ui in GAME_UIS.values():
        _add_play_parser(games, ui, lang=lang)

    p = sub.add_parser(
        "game",
        help="a quick computer game, final board only (play GAME --black random --white greedy --quiet)",
        description="A quick game between computer players, final board only: 'gamecore game [GAME] "
        "[OPTIONS]' is 'gamecore play GAME' with each game's quick players and --quiet (Othello when no game is "
        "named; the options of 'play GAME', given here, win).",
    )
    games = p.add_subparsers(dest="game", metavar="GAME")
    for ui in GAME_UIS.values():
        _add_play_parser(games, ui, quick=True, lang=lang)

    p = sub.add_parser("tetralath", help="short for 'play tetralath' (gamecore tetralath --help)", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    p = sub.add_parser(
        "perft",
        help="count the leaves of a game tree (move-generator check and speed): perft [GAME] (default othello)",
        description="Count the leaves of a game's tree from its start position, plies deep (a pass is a ply; a "
        "finished game is one leaf).",
    )
    p.add_argument(
        "perft_game",
        nargs="?",
        choices=tuple(GAMES),
        default=DEFAULT_GAME,
        metavar="GAME",
        help=f"the game: {', '.join(GAMES)} (default {DEFAULT_GAME})",
    )
    p.add_argument(
        "--size", type=count, metavar="SIZE", help="board size: Othello 4, 6, 8 or 10 (default: the game's, Othello 8)"
    )
    depths = ", ".join(
        f"{name} {c} compiled, {py} pure" for name, (c, py) in ((n, g.perft_depths) for n, g in GAMES.items())
    )
    p.add_argument("--depth", type=plies, metavar="N", help=f"plies to count (default: {depths})")
    add_backend(p)

    _add_bench_parser(sub)

    p = sub.add_parser(
        "export",
        help="write an Othello player file for a course framework (UFRJ or CTU)",
        description="Write an Othello player for a course framework: ufrj (the UFRJ Python framework's "
        "models/players/*_player.py, 5 s a move by default; the framework allows 10 s) or ctu (the CTU "
        "reversi player.py, 1 s a move by default).",
    )
    p.add_argument("framework", choices=("ufrj", "ctu"), help="ufrj or ctu")
    p.add_argument("--out", required=True, metavar="PATH", help="the file to write")
    p.add_argument("--time", type=seconds, metavar="S", help="seconds per move (default: ufrj 5, ctu 1)")
    p.add_argument("--depth", type=count, metavar="N", help="deepest search (default: as deep as --time allows)")
    p.add_argument(
        "--eval",
        choices=["default", *sorted(Othello.EVALUATIONS)],
        metavar="NAME",
        help="evaluation (default: the engine's, learned on 6x6, 8x8 and 10x10; standard with --standalone)",
    )
    p.add_argument(
        "--standalone", action="store_true", help="ctu only: one flat pure-Python file that needs no gamecore"
    )

    add_tournament_parser(sub)  # gamecore tournament: the referee's own parser (gamecore.referee.cli)
    add_compare_parser(sub)  # gamecore compare rolit: the report's own parser (gamecore.report.cli)
    add_train_parser(sub, board_size)  # gamecore train othello (gamecore.train.othello)
    add_serve_parser(sub)  # gamecore serve: the web board (gamecore.web.cli)
    add_archive_parser(sub)  # gamecore archive stats (gamecore.archive.cli)
    add_solve_parser(sub)  # gamecore solve: exact values and perfect lines (gamecore.search.perfect)
    p = sub.add_parser(
        "nboard",
        help="be an Othello engine for the NBoard GUI (its protocol on standard input and output)",
        description="Speak the NBoard protocol on standard input and output: add 'gamecore nboard' as an "
        "engine in the NBoard GUI, or drive it from another program. The GUI's 'set depth' sets the depth; "
        "every move and hint also stops at --time seconds.",
    )
    p.add_argument("--depth", type=count, default=12, metavar="N", help="search depth until the GUI sets one (12)")
    p.add_argument("--time", type=seconds, default=5.0, metavar="S", help="most seconds a move or hint takes (5)")
    p = sub.add_parser(
        "rolit",
        help="the course handout's Rolit, an alias of 'play rolit': 'gamecore rolit Y B' (you play yellow and blue)",
        **rolit_ui.PARSER_TEXTS,
    )
    rolit_ui.add_options(p)
    p.set_defaults(alias_handler=rolit_ui.run)  # an alias of play rolit (gamecore.ui.rolit)
    return parser


def _expand(argv: list[str]) -> list[str]:
    """The short forms: ``tetralath ...`` is ``play tetralath ...``; ``bench perft`` and the other
    names of ``OLD_BENCH_NAMES`` are ``bench othello perft`` ... (with a warning); ``tournament PLAYER...`` is
    ``tournament run PLAYER...``; ``play`` with options only
    is ``play othello``; ``game [GAME] ...`` is ``play GAME`` with two quick computer players
    (the user's own options come after and win)."""
    if argv and argv[0] == "tetralath":
        return ["play", "tetralath", *argv[1:]]
    if argv[:1] == ["bench"] and len(argv) > 1 and argv[1] in OLD_BENCH_NAMES:
        new = ["bench", *OLD_BENCH_NAMES[argv[1]]]
        print(f"gamecore bench: warning: 'bench {argv[1]}' is deprecated; use '{' '.join(new)}'", file=sys.stderr)
        return [*new, *argv[2:]]
    if argv and argv[0] == "tournament":
        return ["tournament", *expand_tournament(argv[1:])]
    if argv and argv[0] == "play" and (len(argv) == 1 or argv[1].startswith("-") and argv[1] not in ("-h", "--help")):
        return ["play", "othello", *argv[1:]]  # Othello is the default game, as for "game"
    if argv and argv[0] == "game":
        rest = argv[1:]
        named = bool(rest) and rest[0] in GAME_UIS
        name = rest.pop(0) if named else "othello"
        if any(a in ("-h", "--help") for a in rest):
            return ["game", name, *rest] if named else ["game", "--help"]  # no game named: list them
        quick = [word for colour, spec in GAME_UIS[name].quick_players.items() for word in (f"--{colour}", spec)]
        return ["game", name, *quick, *rest]
    return argv


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    """Run the ``gamecore`` command; returns the exit status (0 ok, 1 error, 2 bad usage)."""
    argv = _expand(list(sys.argv[1:] if argv is None else argv))
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    try:
        if argv[:3] == ["bench", "othello", "strength"]:  # its own options (gamecore.bench.strength)
            return bench_strength.main(argv[3:], out)
        if argv[:3] == ["bench", "othello", "perfect"]:  # its own options (gamecore.bench.perfect)
            return bench_perfect.main(argv[3:], out)
        if argv[:3] == ["bench", "rolit", "strength"]:  # its own options (gamecore.bench.rolit_strength)
            return bench_rolit_strength.main(argv[3:], out)
    except KeyboardInterrupt:  # as every other command: one line, no traceback
        print("\ninterrupted", file=sys.stderr)
        return 130
    parser = build_parser(play_ui.help_language(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    notice = _backend.fallback_notice()
    if notice and not getattr(args, "backend", None):  # a chosen backend needs no notice
        print(notice, file=sys.stderr)
    try:
        if args.command in ("play", "game"):
            return _cmd_play(args, stdin, out)
        if args.command == "perft":
            return _cmd_perft(args, out)
        if args.command == "bench":
            return _cmd_bench(args, out)
        if args.command == "export":
            return _cmd_export(args, out)
        if getattr(args, "alias_handler", None):
            return int(args.alias_handler(args, stdin, out))
        if args.command == "tournament":
            return int(args.referee_handler(args, out))
        if args.command == "compare":
            return int(args.report_handler(args, out))
        if args.command == "train":
            return int(args.run(args, out))
        if args.command == "serve":
            return int(args.serve_handler(args, out))
        if args.command == "archive":
            return int(args.archive_handler(args, out))
        if args.command == "solve":
            return int(args.solve_handler(args, out))
        if args.command == "nboard":
            return nboard.serve(stdin, out, depth=args.depth, time_limit=args.time)
        parser.error(f"unknown command {args.command!r}")  # pragma: no cover
    except BrokenPipeError:
        # The reader went away (gamecore ... | head): say nothing more on stdout.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass  # not a real file: nothing will flush it at exit
        return 1
    except (GamecoreError, ValueError, OSError) as exc:
        print(f"gamecore: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return 0
