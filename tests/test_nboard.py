"""The NBoard protocol: `gamecore nboard` answering a scripted GUI session, and NBoardPlayer
driving fake engines written here and `gamecore nboard` itself, end to end."""

import io
import random
import sys
import textwrap
import time
from pathlib import Path

import pytest

from gamecore import Othello
from gamecore.archive import ArchiveGame, read_wthor, write_ggf
from gamecore.cli import main
from gamecore.errors import GameOverError, InvalidOptionError, NBoardError
from gamecore.nboard import NBoardPlayer, game_record, serve
from gamecore.players import make_player

GAMECORE_ENGINE = f"{sys.executable} -m gamecore nboard --depth 1 --time 0.3"


def session(*lines, depth=3, time_limit=1.0):
    out, err = io.StringIO(), io.StringIO()
    serve(io.StringIO("".join(line + "\n" for line in lines)), out, err=err, depth=depth, time_limit=time_limit)
    return out.getvalue().splitlines(), err.getvalue()


def ggf(moves, size=8):
    return write_ggf(ArchiveGame(moves=tuple(moves.split()), size=size))


def test_a_gui_session_as_nboard_sends_it():
    position = Othello.from_moves("f5d6c3")
    lines, err = session(
        "nboard 2",
        "set depth 4",
        "set contempt 0",
        f"set game {ggf('f5 d6')}",
        "ping 1",
        "move C3//0.12",
        "hint 3",
        "go",
        "learn",
        "ping 2",
        "quit",
        "ping 3",  # after quit: never read
    )
    assert err == ""
    assert lines[:2] == ["set myname gamecore", "set myname gamecore"]
    assert "pong 1" in lines and lines[-1] == "pong 2" and "pong 3" not in lines
    hints = [line.split() for line in lines if line.startswith("search ")]
    assert len(hints) == 3
    values = [float(h[2]) for h in hints]
    assert values == sorted(values, reverse=True)
    legal = {m.name.upper() for m in position.legal_moves()}
    assert all(h[1][:2] in legal and h[3] == "0" for h in hints)
    [answer] = [line for line in lines if line.startswith("=== ")]
    move, value, seconds = answer[4:].split("/")
    assert move in legal and float(seconds) >= 0
    thinking = lines.index(answer)
    assert any(line.startswith("status depth ") for line in lines[:thinking])  # while it searched
    assert any(line.startswith("nodestats ") for line in lines[:thinking])
    assert "status gamecore keeps no book: nothing learned" in lines


def test_bad_commands_are_reported_and_the_session_goes_on():
    lines, err = session(
        "frobnicate",
        "set depth many",
        "set game (;GM[Othello]BO[8 nonsense];)",
        "move Z9",
        f"set game {ggf('f5 d6')}",
        "move F5",  # occupied
        "ping 9",
    )
    assert lines == ["pong 9"]
    assert err.count("gamecore nboard:") == 5
    assert "unknown command 'frobnicate'" in err and "set depth" in err and "move F5" in err


def test_go_after_a_forced_pass_answers_for_the_side_that_moves():
    # black's last move leaves white without a move: the record ends there, black moves again
    game = Othello()
    rng = random.Random(3)
    while True:
        game.push(rng.choice(game.legal_moves()))
        if not game.is_game_over() and game.legal_moves()[0].is_pass:
            break
        if game.is_game_over():
            game, rng = Othello(), random.Random(rng.random())
    game.push("pass")
    lines, err = session(f"set game {game_record(game)}", "go", time_limit=0.5)
    [answer] = [line for line in lines if line.startswith("=== ")]
    assert game.is_legal(answer[4:].split("/")[0].lower()) and err == ""


def test_other_board_sizes_and_a_finished_game():
    lines, _ = session(f"set game {ggf('c2', size=6)}", "go", time_limit=0.5)
    [answer] = [line for line in lines if line.startswith("=== ")]
    assert Othello.from_moves("c2", size=6).is_legal(answer[4:].split("/")[0].lower())
    game = read_wthor(Path(__file__).parent / "data" / "archive" / "WTH_1977.wtb")[0].replay()
    lines, err = session(f"set game {game_record(game)}", "go", "hint 2")
    assert "the game is over" in err and lines == ["status the game is over"]


def test_the_cli_command():
    out = io.StringIO()
    assert main(["nboard", "--depth", "2", "--time", "0.5"], stdin=io.StringIO("nboard 2\nping 4\ngo\n"), out=out) == 0
    assert out.getvalue().splitlines()[:2] == ["set myname gamecore", "pong 4"]
    assert "=== " in out.getvalue()


# -- NBoardPlayer ---------------------------------------------------------------------------

FAKE = textwrap.dedent(
    """
    import sys, time
    answer = sys.argv[1]
    if answer == "exit":
        sys.exit(0)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "nboard":
            print("set myname fake", flush=True)
        elif words[0] == "ping":
            print("pong", words[1], flush=True)
        elif words[0] == "go":
            if answer == "silent":
                time.sleep(60)
            print("status fake is thinking", flush=True)
            print("=== " + answer, flush=True)
        elif words[0] == "quit":
            break
    """
)


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE)
    return lambda answer: NBoardPlayer(f"{sys.executable} {path} {answer}", time=1.0, grace=0.5)


def test_player_reads_the_engines_move(fake):
    player = fake("D3/+1.00/0.1")
    move = player.choose_move(Othello(), 1.0)
    assert move == Othello.Move("d3") and player.engine_name == "fake"
    process = player._process
    player.close()
    assert process.poll() is not None  # quit, ended


def test_a_forced_pass_is_played_without_asking_the_engine(fake):
    # A record that ends where the side to move must pass says so with a final PA, which the
    # engine plays before it searches: asked here, it would answer the other side's move.
    game, rng = Othello(), random.Random(3)
    while game.is_game_over() or not game.legal_moves()[0].is_pass:
        game = Othello() if game.is_game_over() else game
        game.push(rng.choice(game.legal_moves()))
    player = fake("A1")  # an engine that would answer a move, were it asked
    assert player.choose_move(game, 1.0).is_pass
    assert player._process is None  # not even started
    real = make_player(f"nboard:{GAMECORE_ENGINE}", game="othello")
    assert real.choose_move(game, 0.5).is_pass
    real.close()
    while not game.is_game_over():
        game.push(rng.choice(game.legal_moves()))
    with pytest.raises(GameOverError):  # nothing to ask either, and one clear error
        player.choose_move(game, 1.0)
    assert player._process is None


def test_a_silent_engine_is_stopped_at_its_time(fake):
    player = fake("silent")
    start = time.monotonic()
    with pytest.raises(NBoardError, match="did not answer in time"):
        player.choose_move(Othello(), 0.5)
    assert time.monotonic() - start < 5
    assert player._process is None


@pytest.mark.parametrize(("answer", "words"), [("A1", "'a1' is not a legal move"), ("exit", "exited")])
def test_an_illegal_or_vanished_engine_is_one_error(fake, answer, words):
    with pytest.raises(NBoardError, match=words):
        fake(answer).choose_move(Othello(), 1.0)


def test_specs_and_commands_that_cannot_work():
    with pytest.raises(NBoardError, match="cannot start the engine"):
        NBoardPlayer("/nonexistent/engine -nboard").choose_move(Othello(), 1.0)
    with pytest.raises(InvalidOptionError, match="engine's command"):
        make_player("nboard:", game="othello")
    with pytest.raises(InvalidOptionError, match="Othello only"):
        make_player("nboard:edax", game="tetralath")


def test_a_full_game_against_gamecore_nboard_itself():
    player = make_player(f"nboard:{GAMECORE_ENGINE}", game="othello")
    game, rng = Othello(), random.Random(7)
    while not game.is_game_over():
        game.push(player.choose_move(game, 1.0) if game.turn == Othello.WHITE else rng.choice(game.legal_moves()))
    assert sum(game.score()) <= 64 and player.engine_name == "gamecore"
    process = player._process
    player.close()
    assert process.poll() == 0


def test_bench_strength_runs_against_an_nboard_engine():
    out = io.StringIO()
    status = main(
        [
            "bench",
            "othello",
            "strength",
            "--player",
            "random:seed=1",
            "--opponent",
            f"nboard:{GAMECORE_ENGINE}",
            "--games",
            "2",
            "--quiet",
        ],
        out=out,
    )
    assert status == 0 and "in 2 games" in out.getvalue()
