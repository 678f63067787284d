"""A game says everything about itself once, on its class (issue 19, section 1).

A fourth game is defined here -- Othello on the small boards only, without the MCTS player,
as python-chess defines its variants -- and nothing else is touched: it registers itself
when its class is defined and is at once in every registry the other layers read: the
players it takes, the command line (``play``, ``game``, ``tournament --game``), the referee's
tables and the tournament report's replay page.

The referee's bots normally run in sandboxed host processes, which import their games from
gamecore: a class defined in a test is not there. So the games below are refereed by the
real :func:`play_game` loop with in-process stand-ins for :class:`BotProcess` that answer
the protocol with random legal moves.
"""

from __future__ import annotations

import io
import json
import random
import re
import time

import pytest

from gamecore import GAMES, Othello
from gamecore.cli import main
from gamecore.errors import GamecoreError, InvalidPositionError, InvalidSizeError
from gamecore.games import Position
from gamecore.players import make_player, player_names
from gamecore.referee import play as referee_play
from gamecore.referee.games import game_class, start_position
from gamecore.referee.report import write_reports
from gamecore.referee.tournament import TournamentConfig, schedule
from gamecore.ui import GAME_UIS

NAME = "small-othello"


@pytest.fixture
def small_othello():
    class SmallOthello(Othello):
        """Othello on the small boards, 4x4 and 6x6."""

        name = NAME
        sizes = (4, 6)
        default_size = 4
        tournament_sizes = (4, 6)
        players = ("human", "random", "engine")

    try:
        yield SmallOthello
    finally:
        del GAMES[NAME]


def test_the_three_games_say_their_facts_on_their_classes():
    assert list(GAMES.values()) == [Othello, *[g for g in GAMES.values() if g is not Othello]]
    assert {name: (g.sizes, g.default_size, g.seats) for name, g in GAMES.items()} == {
        "othello": ((4, 6, 8, 10), 8, 2),
        "rolit": ((8,), 8, 4),
        "tetralath": ((61,), 61, 2),
    }
    assert all(g.name == name and issubclass(g, Position) for name, g in GAMES.items())
    assert "greedy" in player_names("rolit") and "corner" not in player_names("rolit")
    assert "greedy" not in player_names("tetralath")


def test_places_and_scores_of_finished_games(backend):
    # Any finished game will do: greedy against random on 4x4, to the end.
    game = Othello(4, backend=backend.name)
    with pytest.raises(InvalidPositionError):
        game.places()  # not over
    black, white = make_player("random", seed=3), make_player("greedy")
    while not game.is_game_over():
        game.push((black if game.turn == Othello.BLACK else white).choose_move(game))
    outcome = game.outcome()
    scores = list(game.scores().values())
    assert scores == [outcome.scores[Othello.BLACK], outcome.scores[Othello.WHITE]]
    expected = [0, 0] if scores[0] == scores[1] else [0, 1] if scores[0] > scores[1] else [1, 0]
    assert game.places() == expected


def test_a_fourth_game_registers_itself(small_othello):
    assert GAMES[NAME] is small_othello and NAME in GAME_UIS
    assert player_names(NAME) == ["human", "random", "engine", "computer", "alphabeta"]
    with pytest.raises(ValueError, match="unknown player 'mcts' for small-othello"):
        make_player("mcts", game=NAME)
    assert small_othello.for_size(6).size == 6 and type(small_othello.for_size()) is small_othello
    with pytest.raises(InvalidSizeError):
        small_othello.for_size(8)


def test_a_fourth_game_is_on_the_command_line(small_othello, backend, capsys):
    out = io.StringIO()
    argv = ["play", NAME, "--size", "6", "--black", "random", "--white", "engine:depth=1", "--quiet"]
    assert main([*argv, "--backend", backend.name], stdin=io.StringIO(), out=out) == 0
    assert "SmallOthello" in out.getvalue() and "Game over" in out.getvalue()
    out = io.StringIO()
    assert main(["game", NAME, "--backend", backend.name], stdin=io.StringIO(), out=out) == 0  # random players
    assert "Game over" in out.getvalue()
    assert main(["play", NAME, "--size", "8"], stdin=io.StringIO(), out=io.StringIO()) == 2
    assert main(["play", NAME, "--white", "mcts"], stdin=io.StringIO(), out=io.StringIO()) == 1
    assert "unknown player 'mcts' for small-othello" in capsys.readouterr().err
    assert main(["play", "--help"], stdin=io.StringIO(), out=io.StringIO()) == 0
    assert re.search(rf"{NAME}\s+Othello on the small boards, 4x4 and 6x6", capsys.readouterr().out)


class _InProcessBot:
    """What :func:`play_game` needs of a :class:`BotProcess`, answering from this process."""

    def __init__(self, spec, *, isolation, limits, hide):
        self.started = time.perf_counter()
        self.printed = 0
        self.random = random.Random(spec["name"])
        self.replies: list[dict] = []

    def send(self, message):
        if message["type"] == "start":
            self.replies.append({"type": "ready"})
        else:
            self.replies.append({"type": "move", "move": self.random.choice(message["legal"])})

    def receive(self, timeout):
        return self.replies.pop(0)

    def pause(self):
        pass

    def resume(self):
        pass

    def close(self):
        pass


def test_a_fourth_game_is_refereed_and_replayed(small_othello, backend, tmp_path, monkeypatch):
    assert game_class(NAME) is small_othello
    assert type(start_position(NAME, 6)) is small_othello
    with pytest.raises(GamecoreError, match="played on sizes 4, 6"):
        start_position(NAME, 8)
    assert main(["tournament", "random", "random", "--game", "no-such-game"]) == 2  # refused by argparse
    assert main(["tournament", "random", "--game", NAME]) == 1  # accepted; one player is too few
    config = TournamentConfig(["random:seed=1", "random:seed=2"], game=NAME, db=str(tmp_path / "t.sqlite"))
    config.resolve()
    assert config.sizes == [4, 6]  # the game's tournament sizes
    tasks = schedule(config)
    assert [(t["game"], t["size"]) for t in tasks] == [(NAME, 4), (NAME, 4), (NAME, 6), (NAME, 6)]

    monkeypatch.setattr(referee_play, "BotProcess", _InProcessBot)
    records = [referee_play.play_game(task) for task in tasks]
    for record in records:
        replay = small_othello.for_size(record["size"], backend=backend.name)
        for move in record["moves"]:
            replay.push(move["move"])
        assert replay.is_game_over() and record["termination"] == "normal"
        assert record["score"] == list(replay.scores().values()) and record["places"] == replay.places()

    write_reports(config, records, str(tmp_path / "out"))
    page = (tmp_path / "out" / "tournament.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert data["game"] == NAME
    for shown, record in zip(data["games"], records, strict=True):
        size = record["size"]
        assert shown["rows"] == [size] * size and len(shown["boards"]) == len(record["moves"]) + 1
        final = shown["boards"][-1]
        assert [final.count(str(seat)) for seat in range(2)] == record["score"]
