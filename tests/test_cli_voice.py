"""One command line (issue 19, section 5): an option means the same in every subcommand, and
the referee's default limits are written once (section 6)."""

from __future__ import annotations

import inspect
import io

import pytest

from gamecore import cli
from gamecore.referee import play as referee_play
from gamecore.referee.check import check_bot
from gamecore.referee.rules import DEFAULT_RULES
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
    [["play", "othello"], ["play", "rolit"], ["rolit"], ["perft"], ["bench", "perft"], ["compare", "rolit"]],
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
    assert (d.time, d.grace, d.startup, d.memory_mb, d.disk_mb) == (5.0, 0.5, 20.0, 1024, 64)  # the course's
