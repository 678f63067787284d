"""The referee's in-process path (#32): a task of built-in players played through
``gamecore.runner`` gives the very record the sandboxed hosts give (same moves, seats, places,
scores, winner, termination), and a submission is never run in process."""

from __future__ import annotations

import sys

import pytest

from gamecore.errors import GamecoreError
from gamecore.games import GAMES
from gamecore.players import make_player
from gamecore.referee.play import play_game, play_in_process, record_of_played
from gamecore.referee.tournament import TournamentConfig, schedule
from gamecore.runner import player_seat, run_game
from referee_bots import write_bot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's hosts are Linux-only")

SAME = ("key", "game", "size", "players", "first", "places", "score", "winner", "termination", "reason", "forfeits")


@pytest.mark.parametrize(
    ("game", "sizes", "players"),
    [
        ("othello", [6], ["random:seed=3", "greedy"]),
        ("rolit", None, ["random:seed=1", "greedy", "random:seed=2", "corner"]),
        ("tetralath", None, ["random:seed=5", "random:seed=6"]),
    ],
)
def test_in_process_and_hosted_games_write_the_same_record(tmp_path, game, sizes, players):
    config = TournamentConfig(players, game=game, sizes=sizes, time=1.0, db=str(tmp_path / "t.sqlite"))
    config.resolve()
    for task in schedule(config)[:2]:  # both seatings of the first pairing
        hosted, here = play_game(task), play_in_process(task)
        assert {k: here[k] for k in SAME} == {k: hosted[k] for k in SAME}
        assert [(m["seat"], m["move"]) for m in here["moves"]] == [(m["seat"], m["move"]) for m in hosted["moves"]]
        assert here["termination"] == "normal" and len(here["moves"]) > 4


def test_the_runner_s_record_converts_with_its_forfeit(tmp_path):
    config = TournamentConfig(["random:seed=1", "greedy"], sizes=[4], db=str(tmp_path / "t.sqlite"))
    config.resolve()
    task = schedule(config)[0]

    def illegal(position):
        return "z9", None  # no square of a 4x4 board

    played = run_game(GAMES["othello"].for_size(4), [player_seat(make_player("greedy")), illegal], ["x", "y"])
    record = record_of_played(task, played)
    assert record["termination"] == "forfeit" and record["reason"] == "illegal_move"
    assert record["forfeits"][0]["seat"] == 1 and record["places"] == [0, 1]
    assert record["winner"] == task["bots"][0]["name"] and [m["seat"] for m in record["moves"]] == [0]


def test_a_submission_is_never_run_in_process(tmp_path):
    bot = write_bot(tmp_path, "raiser")
    config = TournamentConfig(["random", bot], sizes=[4], db=str(tmp_path / "t.sqlite"))
    config.resolve()
    with pytest.raises(GamecoreError, match="only built-in players play in process"):
        play_in_process(schedule(config)[0])
