"""``gamecore bench rolit strength``: the tested engine against Max^n, paranoid and BRS in four-player Rolit.

Games on budgets of states (deterministic: the same game on both backends), the seating of
``gamecore compare rolit``, the tallies and their Wilson intervals, and bad input.
"""

from __future__ import annotations

import io
import re

import pytest

from gamecore import cli
from gamecore.bench import rolit_strength as rs
from gamecore.errors import InvalidLimitError, InvalidOptionError
from gamecore.games.rolit import Rolit
from gamecore.report.compare import Budget, seatings

TINY = Budget(states=120)


def test_parse_player_reads_engine_options():
    assert rs.parse_player("") == {"algorithm": "mcts", "tt_mb": 0}
    assert rs.parse_player("implicit=0.8, exploration=1,greedy=none") == {
        "implicit": 0.8,
        "exploration": 1,
        "greedy": None,
        "algorithm": "mcts",
        "tt_mb": 0,
    }
    assert rs.parse_player("algorithm=brs") == {"algorithm": "brs"}  # a table search keeps its table
    assert rs.parse_player("endgame-empties=0") == {"endgame_empties": 0, "algorithm": "mcts", "tt_mb": 0}


@pytest.mark.parametrize(
    "spec, message",
    [
        ("foo=1", "takes no option 'foo'"),
        ("implicit", "write NAME=VALUE"),
        ("implicit=", "write NAME=VALUE"),
        ("implicit=0.5,implicit=0.6", "given twice"),
    ],
)
def test_parse_player_refuses_what_it_cannot_read(spec, message):
    with pytest.raises(InvalidOptionError, match=message):
        rs.parse_player(spec)


@pytest.mark.parametrize("spec", ["implicit=2", "exploration=-1", "greedy=yes", "algorithm=chess", "max_nodes=0.5"])
def test_bad_option_values_fail_before_any_game(spec):
    # Engine checks them; a match never starts with them (a generator: the first next() raises).
    with pytest.raises(InvalidOptionError):
        next(rs.play_rolit_match(rs.parse_player(spec), TINY, 2))


def test_a_game_sits_the_seating_of_its_number_and_adds_up(backend):
    for number in (0, 29) if backend.name == "cython" else (5,):
        game = rs.play_rolit_game(number, rs.parse_player(""), TINY, backend=backend.name)
        assert game.seating == seatings(rs.ALGORITHMS)[number % 24]
        assert game.colours == tuple(str(c.initial) for c in Rolit().colours)
        assert sum(game.balls) == 64  # a four-player game fills the board
        top = max(game.balls)
        assert game.balls[game.seating.index(game.winner)] == top  # the winner has the most balls
        assert len(game.shares) == 15  # the tested engine moves 15 times of 60, none solved with a budget of states


def test_both_backends_play_the_same_games(backends):
    # Budgets of states make every search deterministic; the twins search alike.
    options = rs.parse_player("implicit=0.6")
    for number in (10,):
        py, cy = (rs.play_rolit_game(number, options, TINY, seed=1, backend=b.name) for b in backends)
        assert (py.balls, py.winner, py.shares) == (cy.balls, cy.winner, cy.shares)


def test_the_tested_engine_and_its_options_are_what_plays():
    # An option changes the tested engine's games and nothing else: the same game with
    # another tested algorithm (BRS in the seat of "mcts") plays differently.
    mcts = rs.play_rolit_game(0, rs.parse_player(""), TINY, backend="cython")
    brs = rs.play_rolit_game(0, rs.parse_player("algorithm=brs"), TINY, backend="cython")
    assert mcts.balls != brs.balls
    assert brs.shares and all(0 < share <= 1 for share in brs.shares)  # BRS stops within its states


def test_the_seed_changes_only_the_tested_engines_games():
    options = rs.parse_player("")
    budget = Budget(states=3000)  # enough iterations for the playouts, and so the seed, to matter
    games = {seed: rs.play_rolit_game(1, options, budget, seed=seed, backend="cython").balls for seed in (0, 1, 2)}
    assert len(set(games.values())) > 1


@pytest.mark.slow  # two spawned processes import gamecore: 10-30 s
def test_parallel_jobs_play_the_same_games():
    options = rs.parse_player("")
    alone = list(rs.play_rolit_match(options, TINY, 3, first=4))
    together = sorted(rs.play_rolit_match(options, TINY, 3, first=4, jobs=2), key=lambda g: g.number)
    assert [g.number for g in alone] == [4, 5, 6]
    assert [(g.balls, g.winner) for g in alone] == [(g.balls, g.winner) for g in together]


def _game(number, winner_seat, balls):
    seating = seatings(rs.ALGORITHMS)[number % 24]
    return rs.RolitGame(number, seating, ("R", "B", "Y", "G"), balls, seating[winner_seat], [0.9, 1.0])


def test_summary_counts_wins_with_wilson_intervals():
    # 5 wins of 10 for the tested engine: Wilson 95 % 23.7-76.3 % (the textbook's value).
    played = []
    for number in range(10):
        seating = seatings(rs.ALGORITHMS)[number]
        mine = seating.index("mcts")
        winner = mine if number < 5 else (mine + 1) % 4
        balls = tuple(40 if seat == winner else 8 for seat in range(4))
        played.append(_game(number, winner, balls))
    lines = rs.summary(played)
    # Seatings 0-9 seat the tested engine first in 0, 4, 8, second in 3, 7, third in 2, 6, fourth in 1, 5, 9.
    assert lines[0].startswith("10 games, the tested engine 3/2/2/3 times in seats 1-4;")
    tested = next(line for line in lines if line.strip().startswith("tested:"))
    assert "5 wins ( 50.0 %, Wilson 95 % 23.7-76.3 %)" in tested
    assert "mean balls 24.00" in tested  # 5 x 40 + 5 x 8
    assert "last (ties too) 5" in tested
    assert sum(int(re.search(r"(\d+) wins", line).group(1)) for line in lines[1:5]) == 10
    assert lines[-1].startswith("tested engine: mean budget share 0.950 over 20 searches")


def test_the_command_prints_every_game_and_the_totals(capsys):
    out = io.StringIO()
    argv = ["bench", "rolit", "strength", "--states", "120", "--games", "2", "--first", "24", "--seed", "3"]
    assert cli.main(argv, out=out) == 0
    text = out.getvalue()
    assert "120 states a move; games 24-25, seed 3" in text
    assert re.search(r"^game   24: R:mcts=\d+ B:maxn=\d+ Y:paranoid=\d+ G:brs=\d+  winner \w+", text, re.M)
    assert re.search(r"^game   25: ", text, re.M)
    assert re.search(r"^  tested: +\d wins", text, re.M)
    assert "tested engine: mean budget share" in text


@pytest.mark.parametrize(
    "argv, status, message",
    [
        (["--time", "0"], 2, "argument --time: expected seconds above 0"),
        (["--time", "1", "--states", "5"], 2, "not allowed with argument"),
        (["--games", "0"], 2, "argument --games: expected a whole number of at least 1"),
        (["--first", "-1"], 2, "argument --first"),
        (["--jobs", "x"], 2, "argument --jobs"),
        (["--player", "implicit=7", "--states", "50"], 1, "implicit must be a number from 0 to 1"),
        (["--player", "depth=3", "--states", "50"], 1, "takes no option 'depth'"),
    ],
)
def test_bad_input_is_a_usage_or_gamecore_error(argv, status, message, capsys):
    out = io.StringIO()
    assert cli.main(["bench", "rolit", "strength", *argv], out=out) == status
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and "game " not in out.getvalue()


def test_a_budget_is_checked():
    with pytest.raises(InvalidLimitError):
        rs.play_rolit_game(0, rs.parse_player(""), Budget(states=0))


def test_tally_pools_the_game_lines_of_several_logs(tmp_path, capsys):
    played = [rs.play_rolit_game(number, rs.parse_player(""), TINY, backend="cython") for number in (0, 1, 2)]
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("header line\n" + played[0].line() + "\n" + played[2].line() + "\nsummary\n", encoding="utf-8")
    second.write_text(played[1].line() + "\n" + played[2].line() + "\n", encoding="utf-8")  # game 2 twice: once
    read = rs.read_games(first.read_text(encoding="utf-8"))
    assert [(g.number, g.seating, g.colours, g.balls, g.winner) for g in read] == [
        (g.number, g.seating, g.colours, g.balls, g.winner) for g in (played[0], played[2])
    ]
    out = io.StringIO()
    assert cli.main(["bench", "rolit", "strength", "--tally", str(first), str(second)], out=out) == 0
    text = out.getvalue()
    assert text.startswith("games 0-2 from 2 log(s)\n3 games, the tested engine ")
    expected = rs.summary(played)  # the same wins, balls and last places as the games themselves
    assert [line for line in text.splitlines() if "wins" in line] == [line for line in expected if "wins" in line]
    assert "the mean of 3 games' means" in text


def test_tally_refuses_logs_it_cannot_pool(tmp_path, capsys):
    game = rs.play_rolit_game(0, rs.parse_player(""), TINY, backend="cython")
    other = rs.RolitGame(0, game.seating, game.colours, game.balls[::-1], game.winner, [])
    cases = {
        "empty.txt": ("no game line here\n", "no game lines in"),
        "twice.txt": (game.line() + "\n" + other.line() + "\n", "game 0 is in two logs with different results"),
        "seats.txt": (game.line().replace("maxn", "mcts") + "\n", "line 1: the seats are not"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert cli.main(["bench", "rolit", "strength", "--tally", str(path)], out=io.StringIO()) == 1, name
        assert message in capsys.readouterr().err, name
    assert cli.main(["bench", "rolit", "strength", "--tally", str(tmp_path / "none.txt")], out=io.StringIO()) == 1
    assert "No such file" in capsys.readouterr().err
