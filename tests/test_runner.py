"""The in-process game runner and its one record (gamecore.runner): compare and both strength
benchmarks play through it."""

from __future__ import annotations

from gamecore import GAMES, Othello, Rolit
from gamecore.players import GreedyPlayer, RandomPlayer, make_player
from gamecore.runner import player_seat, run_game
from test_game_registry import NAME as FOURTH
from test_game_registry import small_othello  # noqa: F401  # the fixture of the fourth game


def test_a_game_is_recorded_move_by_move(backend):
    start = Othello(6, backend=backend.name)
    seats = [player_seat(RandomPlayer(3)), player_seat(make_player("engine:depth=2"))]
    record = run_game(start, seats, ["random", "engine"])
    assert record.forfeit is None and start.move_stack == []  # the start is not changed
    replay = Othello(6, backend=backend.name)
    for code in record.codes:
        replay.push(replay.move_from_code(code))
    assert replay == record.final and replay.outcome() == record.outcome
    assert [m.move for m in record.played] == [str(m) for m in replay.move_stack]
    assert [m.player for m in record.played][:2] == ["random", "engine"] and record.seats == ("random", "engine")
    assert [m.colour for m in record.played][:2] == ["X", "O"]
    searched = [m for m in record.played if m.player == "engine" and m.nodes]
    assert searched and all(m.depth >= 1 and m.cpu_seconds >= 0 and m.wall_seconds > 0 for m in searched)
    assert all(m.nodes == 0 and m.depth == 0 for m in record.played if m.player == "random")


def test_shadows_search_the_same_positions_unplayed(backend):
    start = Rolit(players=2, backend=backend.name)
    greedy = player_seat(GreedyPlayer())
    record = run_game(start, [greedy, greedy], ["a", "b"], shadows={1: [("shadow", player_seat(RandomPlayer(1)))]})
    shadows = [m for m in record.moves if not m.played]
    assert len(shadows) == len([m for m in record.played if m.player == "b"]) and len(record.played) == 60
    assert all(s.player == "shadow" and s.colour == "G" for s in shadows)
    plies = {m.ply for m in record.played if m.player == "b"}
    assert {s.ply for s in shadows} == plies  # each shadow ply is one where b moved


def test_a_seat_that_answers_an_illegal_move_forfeits(backend):
    def illegal(position):
        return "a1", None  # a corner: never legal at the start

    record = run_game(Othello(backend=backend.name), [illegal, player_seat(RandomPlayer())], ["bad", "random"])
    assert record.forfeit is not None and record.forfeit[0] == 0 and "bad" in record.forfeit[1]
    assert record.outcome is None and record.codes == [] and len(record.moves) == 1


def test_every_game_and_the_fourth_play_through_it(small_othello, backend):  # noqa: F811
    for name in [*GAMES]:
        start = GAMES[name].for_size(backend=backend.name)
        record = run_game(
            start, [player_seat(RandomPlayer(k)) for k in range(start.num_players)], ["r"] * start.num_players
        )
        assert record.outcome is not None and record.final.is_game_over(), name
    assert FOURTH in GAMES
