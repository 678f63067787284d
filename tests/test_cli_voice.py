"""One command line (issue 19, section 5): an option means the same in every subcommand, and
the referee's default limits are written once (section 6)."""

from __future__ import annotations

import argparse
import inspect
import io

import pytest

from gamecore import GAMES, cli
from gamecore.referee import play as referee_play
from gamecore.referee.check import check_bot
from gamecore.referee.rules import DEFAULT_RULES
from gamecore.referee.sandbox import Limits
from gamecore.referee.tournament import TournamentConfig

#: Every command that takes ``--time``, with what else it needs to parse.
TIMED = [
    ["play", "othello"],
    ["play", "tetralath"],
    ["play", "rolit"],
    ["game", "othello"],
    ["rolit", "Y"],
    ["tournament", "run", "random", "greedy"],
    ["tournament", "check", "player.py"],
    ["compare", "rolit"],
    ["export", "ufrj", "--out", "x_player.py"],
    ["bench", "tetralath"],
]


def _parse(argv):
    return cli.build_parser().parse_args(cli._expand(argv))


@pytest.mark.parametrize("command", TIMED, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("value", ["0", "-1", "3600.5", "inf", "nan", "soon"])
def test_time_is_refused_the_same_way_everywhere(command, value, capsys):
    assert cli.main([*command, "--time", value], stdin=io.StringIO(), out=io.StringIO()) == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(f"argument --time: expected a finite number of seconds, got {value!r}") or error.endswith(
        f"argument --time: expected seconds above 0 and at most 3600, got {value!r}"
    ), error


@pytest.mark.parametrize("command", TIMED, ids=lambda c: " ".join(c[:2]))
def test_time_takes_seconds_up_to_an_hour_everywhere(command):
    assert _parse([*command, "--time", "3600"]).time == 3600.0
    assert _parse([*command, "--time", "0.25"]).time == 0.25


@pytest.mark.parametrize(
    "command",
    [
        ["play", "othello"],
        ["play", "rolit"],
        ["rolit"],
        ["perft"],
        ["perft", "tetralath"],
        ["bench", "othello"],
        ["compare", "rolit"],
    ],
    ids=lambda c: " ".join(c),
)
def test_backend_is_one_option(command, capsys):
    assert _parse([*command, "--backend", "python"]).backend == "python"
    assert cli.main([*command, "--backend", "fortran"], stdin=io.StringIO(), out=io.StringIO()) == 2
    assert "invalid choice: 'fortran' (choose from 'cython', 'python')" in capsys.readouterr().err


def test_colours_and_first_mean_the_colours_that_play_everywhere():
    rolit = _parse(["play", "rolit", "--colours", "RG", "--first", "G"])
    assert (rolit.colours, rolit.first) == ("RG", "G")
    assert _parse(["rolit", "--colours", "RG", "--first", "G"]).first == "G"
    tetralath = _parse(["play", "tetralath", "--ansi", "never", "--computer-first"])
    assert (tetralath.ansi, tetralath.computer_first) == ("never", True)
    assert not hasattr(tetralath, "colours") and not hasattr(tetralath, "first")


def test_tournament_check_and_bench_are_subcommands(capsys):
    args = _parse(["tournament", "check", "bot.py", "--game", "rolit", "--time", "2"])
    assert (args.tournament_command, args.bot, args.game, args.time) == ("check", "bot.py", "rolit", 2.0)
    args = _parse(["tournament", "bench", "--runs", "7", "--moves", "300"])
    assert (args.tournament_command, args.runs, args.moves, args.players) == ("bench", 7, 300, 5)
    args = _parse(["tournament", "random", "greedy", "--sizes", "6"])  # the documented short form
    assert (args.tournament_command, args.players, args.sizes) == ("run", ["random", "greedy"], [6])
    # A player named like a subcommand is no longer a word inside the player list.
    assert _parse(["tournament", "run", "check=random", "greedy"]).players == ["check=random", "greedy"]
    assert cli.main(["tournament", "bench", "--runs", "0"]) == 2
    assert cli.main(["tournament", "check"]) == 2  # the bot is required
    assert "the following arguments are required: FILE_OR_FOLDER" in capsys.readouterr().err
    assert cli.main(["tournament", "--help"], out=io.StringIO()) == 0
    assert "{run,check,bench}" in capsys.readouterr().out


def test_the_referee_limits_are_written_once():
    d = DEFAULT_RULES
    run = _parse(["tournament", "run", "random", "greedy"])
    check = _parse(["tournament", "check", "player.py"])
    for args in (run, check):
        assert (args.time, args.grace, args.startup, args.memory, args.isolation) == (
            d.time,
            d.grace,
            d.startup,
            d.memory_mb,
            d.isolation,
        )
    assert run.bank == d.bank
    assert TournamentConfig(players=[]).rules == d
    defaults = {k: p.default for k, p in inspect.signature(check_bot).parameters.items()}
    assert (defaults["time_limit"], defaults["grace"], defaults["startup"], defaults["memory_mb"]) == (
        d.time,
        d.grace,
        d.startup,
        d.memory_mb,
    )
    # A task that names some limits gets the others from the defaults.
    assert referee_play._rules({"rules": {"time": 1.0, "grace": 0.2}}) == type(d)(
        time=1.0, grace=0.2, startup=d.startup, bank=d.bank, memory_mb=d.memory_mb, disk_mb=d.disk_mb
    )
    # The sandbox's own limits of a bot started without rules are the same.
    limits = Limits()
    assert (limits.memory_mb, limits.disk_mb) == (d.memory_mb, d.disk_mb)
    assert (d.time, d.grace, d.startup, d.memory_mb, d.disk_mb) == (5.0, 0.5, 20.0, 1024, 64)  # the course's


# -- gamecore bench GAME [KIND] ------------------------------------------------------------

#: Each spelling, and the benchmark it must run with the options it must pass (ints: the
#: positional arguments after ``out``).
BENCH_CALLS = {
    ("othello",): ("bench_perft", {"runs": 3, "backend": None, "quick": False}),
    ("othello", "perft", "--quick", "--runs", "2"): ("bench_perft", {"runs": 2, "backend": None, "quick": True}),
    ("othello", "search", "--depth", "4", "--deep", "0", "--ffo", "none"): (
        "bench_search",
        {"runs": 3, "depth": 4, "deep": 0, "ffo": "none", "backend": None, "evaluation": "standard", "against": None},
    ),
    ("othello", "search", "--eval", "learned", "--against", "DIR"): (
        "bench_search",
        {"evaluation": "learned", "against": "DIR", "depth": 6, "deep": 10},
    ),
    ("othello", "eval"): ("bench_eval", {"evaluation": "default"}),
    ("othello", "endgame", "--ffo", "40", "--backend", "python"): ("bench_endgame", {"backend": "python", 0: "40"}),
    ("othello", "endgame", "--solve-limit", "2"): ("bench_solve_limit", {0: 2.0, 1: "40-49"}),
    ("othello", "mcts", "--size", "6", "--iterations", "50"): (
        "bench_mcts",
        {"runs": 3, "iterations": 50, "size": 6, "backend": None},
    ),
    ("othello", "api", "--depth", "3"): ("bench_api", {"runs": 3, "depth": 3, "backend": None}),
    ("rolit",): ("bench_rolit", {"runs": 3, "backend": None, "quick": False}),
    ("rolit", "core", "--quick"): ("bench_rolit", {"runs": 3, "backend": None, "quick": True}),
    ("rolit", "search", "--backend", "cython"): ("bench_multiplayer", {"runs": 3, "backend": "cython", "quick": False}),
    ("tetralath", "--plies", "3", "--time", "0.5"): (
        "bench_tetralath",
        {"runs": 3, "backend": None, "plies": 3, "depth": None, "time_limit": 0.5, "quick": False},
    ),
    ("rl", "--runs", "5"): ("bench_rl", {"runs": 5, "backend": None, "quick": False}),
}


@pytest.fixture
def bench_calls(monkeypatch):
    """Every benchmark the CLI can run, replaced by a recorder of its name and keyword options."""
    calls = []

    def recorder(name):
        def record(out, *args, **kwargs):
            calls.append((name, args, kwargs))
            return 0

        return record

    for module, name in [
        (cli.bench, "bench_perft"),
        (cli.bench, "bench_search"),
        (cli.bench, "bench_endgame"),
        (cli.bench, "bench_solve_limit"),
        (cli.bench, "bench_mcts"),
        (cli.bench, "bench_tetralath"),
        (cli.bench_api, "bench_api"),
        (cli.bench_evaluation, "bench_eval"),
        (cli.bench_rolit, "bench_rolit"),
        (cli.bench_multiplayer, "bench_multiplayer"),
        (cli.bench_rl, "bench_rl"),
    ]:
        monkeypatch.setattr(module, name, recorder(name))
    monkeypatch.setattr(cli.bench_strength, "main", lambda argv, out: calls.append(("strength", tuple(argv), {})) or 0)
    monkeypatch.setattr(
        cli.bench_rolit_strength, "main", lambda argv, out: calls.append(("rolit strength", tuple(argv), {})) or 0
    )
    return calls


@pytest.mark.parametrize("argv", list(BENCH_CALLS), ids=" ".join)
def test_bench_names_the_game_first(argv, bench_calls, capsys):
    # gamecore bench GAME [KIND], as gamecore play GAME: each spelling runs its benchmark
    # with the options given, and says nothing of deprecation.
    assert cli.main(["bench", *argv], out=io.StringIO()) == 0
    name, expected = BENCH_CALLS[argv]
    [(called, args, given)] = bench_calls
    given = {**given, **dict(enumerate(args))}
    assert called == name
    assert {k: given[k] for k in expected} == expected
    assert "deprecated" not in capsys.readouterr().err


def test_bench_othello_strength_keeps_its_own_options(bench_calls):
    assert cli.main(["bench", "othello", "strength", "--games", "2", "--size", "6"], out=io.StringIO()) == 0
    assert bench_calls == [("strength", ("--games", "2", "--size", "6"), {})]


def test_bench_rolit_strength_keeps_its_own_options(bench_calls, capsys):
    assert cli.main(["bench", "rolit", "strength", "--games", "2", "--player", "implicit=0.8"], out=io.StringIO()) == 0
    assert bench_calls == [("rolit strength", ("--games", "2", "--player", "implicit=0.8"), {})]
    # Options before the kind reach the shared parser, which cannot read the strength options.
    assert cli.main(["bench", "rolit", "--quick", "strength"], out=io.StringIO()) == 1
    assert "gamecore bench rolit strength [OPTIONS]" in capsys.readouterr().err
    assert len(bench_calls) == 1


@pytest.mark.parametrize(
    "old, new",
    [
        (["perft", "--quick"], ["othello", "perft", "--quick"]),
        (["search", "--depth", "4", "--ffo", "none"], ["othello", "search", "--depth", "4", "--ffo", "none"]),
        (["endgame", "--solve-limit", "2"], ["othello", "endgame", "--solve-limit", "2"]),
        (["mcts", "--size", "6"], ["othello", "mcts", "--size", "6"]),
        (["api", "--runs", "5"], ["othello", "api", "--runs", "5"]),
        (["multiplayer", "--quick"], ["rolit", "search", "--quick"]),
        (["strength", "--games", "4"], ["othello", "strength", "--games", "4"]),
    ],
    ids=lambda argv: argv[0],
)
def test_the_old_bench_names_still_run_the_same_benchmark_with_a_warning(old, new, bench_calls, capsys):
    assert cli.main(["bench", *old], out=io.StringIO()) == 0
    err = capsys.readouterr().err
    kind = "search" if old[0] == "multiplayer" else old[0]
    game = "rolit" if old[0] == "multiplayer" else "othello"
    assert f"gamecore bench: warning: 'bench {old[0]}' is deprecated; use 'bench {game} {kind}'" in err
    assert cli.main(["bench", *new], out=io.StringIO()) == 0
    assert "deprecated" not in capsys.readouterr().err
    assert len(bench_calls) == 2 and bench_calls[0] == bench_calls[1]  # the same call, the same figures
    assert set(cli.OLD_BENCH_NAMES) == {"perft", "search", "endgame", "mcts", "api", "multiplayer", "strength"}


def test_bench_refuses_what_its_game_does_not_have(bench_calls, capsys):
    for argv, message in [
        (["bench"], "the following arguments are required: GAME"),
        (["bench", "chess"], "invalid choice: 'chess'"),
        (
            ["bench", "rolit", "perft"],
            "argument KIND: invalid choice: 'perft' (choose from 'core', 'search', 'strength')",
        ),
        (["bench", "tetralath", "mcts"], "argument KIND: invalid choice: 'mcts'"),
        (["bench", "rolit", "--size=6"], "unrecognized arguments: --size=6"),  # an Othello option
        (["bench", "othello", "--plies=3"], "unrecognized arguments: --plies=3"),  # a Tetralath one
    ]:
        assert cli.main(argv, out=io.StringIO()) == 2, argv
        assert message in capsys.readouterr().err, argv
    assert bench_calls == []


def test_bench_help_names_the_games_and_their_kinds(capsys):
    assert cli.main(["bench", "--help"], out=io.StringIO()) == 0
    out = capsys.readouterr().out
    assert "usage: gamecore bench [-h] GAME ..." in out
    for game in ("othello", "rolit", "tetralath", "rl"):
        assert f"\n    {game}" in out, game
    for game, kinds in cli.BENCH_KINDS.items():
        assert cli.main(["bench", game, "--help"], out=io.StringIO()) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert all(kind in out for kind in kinds), game
        if kinds:
            assert f"{kinds[0]} (default)" in out


# -- gamecore perft [GAME] -----------------------------------------------------------------


@pytest.mark.parametrize(("game", "depth"), [("othello", 4), ("rolit", 4), ("tetralath", 2)])
def test_perft_names_the_game_and_counts_what_the_position_counts(game, depth, backend, capsys):
    argv = ["perft", game, "--depth", str(depth), "--backend", backend.name]
    assert cli.main(argv, out=(out := io.StringIO())) == 0
    leaves = GAMES[game].for_size(backend=backend.name).perft(depth)
    assert leaves == {"othello": 244, "tetralath": 61 * 60}.get(game, leaves)  # the known counts
    line = out.getvalue()
    assert f"depth {depth}: {leaves:,} leaves" in line and f"({backend.name} backend)" in line
    assert (game in line) == (game != "othello")  # Othello's line reads as before: "perft 8x8 depth 4"


def test_perft_defaults_to_othello_and_refuses_bad_depths_and_sizes_as_usage(capsys):
    assert _parse(["perft"]).perft_game == "othello"
    assert _parse(["perft", "--size", "6"]).perft_game == "othello"
    assert _parse(["perft", "--depth", "0"]).depth == 0  # one leaf: the start
    for bad in ("-1", "2.5", str(2**31)):
        assert cli.main(["perft", "--depth", bad]) == 2
        assert "argument --depth: expected a whole number of plies" in capsys.readouterr().err
    assert cli.main(["perft", "chess"]) == 2
    assert "invalid choice: 'chess'" in capsys.readouterr().err
    assert cli.main(["perft", "rolit", "--size", "6", "--depth", "1"], out=io.StringIO()) == 1
    assert "rolit is played on sizes 8, not 6" in capsys.readouterr().err


def test_game_help_lists_the_games_and_game_name_help_shows_its_options(capsys):
    assert cli.main(["game", "--help"], out=io.StringIO()) == 0
    listed = capsys.readouterr().out
    assert "usage: gamecore game [-h] GAME" in listed and all(name in listed for name in GAMES)
    assert cli.main(["game", "rolit", "--help"], out=io.StringIO()) == 0
    assert "--yellow PLAYER" in capsys.readouterr().out
    assert _parse(["game", "--size", "6"]).game == "othello"  # no game named: Othello, as before


#: Number options still typed with a bare int/float, by their command: why each is left. (A
#: seed is any int: ``add_seed`` gives ``--seed`` plain ``int`` on purpose.)
BARE_TYPES = {
    "serve": "web/cli.py (helper-owned): --port 0 picks a free port; --sessions, --threads checked by the server",
    "train othello": "train/othello.py (helper-owned): its fitting options, checked by the trainer",
    "train othello-mpc": "train (helper-owned): Multi-ProbCut's fitting options, checked by the trainer",
}


def _parsers(parser, path=()):
    yield " ".join(path), parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_every_number_option_takes_a_shared_type():
    bare = set()
    for command, parser in _parsers(cli.build_parser()):
        for action in parser._actions:
            if action.type in (int, float) and action.dest != "seed":
                bare.add((command, action.option_strings[0] if action.option_strings else action.dest))
    assert {command for command, _ in bare} == set(BARE_TYPES), sorted(bare)
    assert ("play othello", "--size") not in bare and ("bench othello", "--deep") not in bare
