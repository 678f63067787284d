"""``gamecore bench othello strength``'s match driver: games played in several processes are the
games one process plays, in the same order; bad input is one error line."""

from __future__ import annotations

import io

import pytest

from gamecore import cli
from gamecore.bench import strength


def test_a_match_in_two_processes_is_the_match_in_one(backend):
    # Fixed-depth players are deterministic, so both runs must give the same margins in order.
    args = ("engine:depth=2", "positional")
    one_out, two_out = io.StringIO(), io.StringIO()
    one = strength.play_match(*args, size=6, games=4, backend=backend.name, out=one_out)
    two = strength.play_match(*args, size=6, games=4, backend=backend.name, out=two_out, jobs=2)
    assert one.margins == two.margins
    assert one_out.getvalue() == two_out.getvalue()
    assert [line.split(":")[0] for line in two_out.getvalue().splitlines()] == [f"game {n:3d}" for n in range(1, 5)]
    # The lines give the player's colour alternately and its margin, as the result has them.
    assert [int(line.rsplit(":", 1)[1]) for line in two_out.getvalue().splitlines()] == two.margins


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "6", "--games", "41"], "at most 40 games"),
        (["--size", "6", "--games", "2", "--player", "bogus"], "unknown player 'bogus'"),
        (["--size", "6", "--games", "2", "--opponent", "engine:depth=-1"], "depth"),
    ],
)
def test_bad_input_is_one_error_line_and_no_game(argv, message, capsys):
    out = io.StringIO()
    assert cli.main(["bench", "othello", "strength", *argv], out=out) == 1
    err = capsys.readouterr().err
    assert err.startswith("gamecore bench othello strength: error: ") and message in err
    assert "Traceback" not in err and out.getvalue() == ""


@pytest.mark.parametrize("jobs", ["0", "-1", "x"])
def test_a_bad_jobs_count_is_a_usage_error(jobs, capsys):
    assert cli.main(["bench", "othello", "strength", "--jobs", jobs], out=io.StringIO()) == 2
    assert "--jobs" in capsys.readouterr().err


def test_play_match_refuses_a_bad_jobs_value():
    for jobs in (0, True, 1.5):
        with pytest.raises(ValueError, match="jobs"):
            strength.play_match("random", "random", size=6, games=2, jobs=jobs)  # type: ignore[arg-type]
