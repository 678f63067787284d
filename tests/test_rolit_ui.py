"""The Rolit terminal game driven through standard input: humans, bad entries, undo, a full
automatic game, the handout's board checked line by line, the command line and gamecore.rolit."""

from __future__ import annotations

import io
import re

import pytest

import gamecore
from gamecore import Rolit, cli
from gamecore.bench.rolit import bench_rolit
from gamecore.errors import InvalidOptionError
from gamecore.players import EnginePlayer, make_player
from gamecore.ui import rolit as ui

ROW = re.compile(r"^([1-8])( [.RYGBrygb]){8} ([1-8])$")  # lower case: the last move's ball
HEADER = "  1 2 3 4 5 6 7 8"


def run(argv, text=""):
    out = io.StringIO()
    status = ui.main(argv, stdin=io.StringIO(text), stdout=out)
    return status, out.getvalue()


def boards(output: str) -> list[list[str]]:
    """Every board drawn in the output, as its 10 lines (checked to be the handout's frame)."""
    lines = output.splitlines()
    found = []
    for i, line in enumerate(lines):
        if line == HEADER and i + 9 < len(lines) and lines[i + 9] == HEADER:
            frame = lines[i : i + 10]
            for r, row in enumerate(frame[1:9], start=1):
                match = ROW.match(row)
                assert match, f"bad board line {row!r}"
                assert match.group(1) == match.group(3) == str(r)
            found.append(frame)
    return found


def cells_of(frame: list[str]) -> str:
    return "".join(line[2:-2].replace(" ", "") for line in frame[1:9]).upper()


def test_automatic_game_shows_the_board_after_every_round(backend):
    status, output = run(["--algorithm", "random", "--seed", "4", "--backend", backend.name])
    assert status == 0
    frames = boards(output)
    # The start, then once a round: 60 plies of 4 players are 15 rounds.
    assert len(frames) == 16
    assert cells_of(frames[0]) == "." * 27 + "RY......BG" + "." * 27
    for k, frame in enumerate(frames):
        assert cells_of(frame).count(".") == 60 - 4 * k
        # the last move marked (README: every game marks it), none on the start board
        assert sum(ch.islower() for line in frame[1:9] for ch in line[2:-2]) == (k > 0)
    assert len(re.findall(r"^\d+\. \w+ \(random\) plays [1-8] [1-8] \([a-h][1-8]\)$", output, re.M)) == 60
    assert "Game over: " in output
    # The same game replayed with the same players: the final board and the result agree.
    game = Rolit(backend=backend.name)
    players = {c: make_player("random", seed=4 + int(c)) for c in game.colours}
    while not game.is_game_over():
        legal = game.legal_moves()  # a forced move is played without asking the player
        game.push(legal[0] if len(legal) == 1 else players[game.turn].choose_move(game))
    assert cells_of(frames[-1]) == game.to_text().split()[0]
    winner = game.outcome().winner
    assert f"{winner.name.capitalize()} wins" in output or "tie rule" in output or "draw" in output


def test_two_player_automatic_game_rounds(backend):
    status, output = run(["--colours", "RG", "--algorithm", "greedy", "--backend", backend.name])
    assert status == 0
    frames = boards(output)
    assert len(frames) == 31  # the start and 30 rounds of two
    assert "Red (greedy), Green (greedy)." in output and "Yellow (greedy)" not in output
    assert set(cells_of(frames[0])) == {".", "R", "Y", "B", "G"}  # neutral yellow and blue are there


def test_human_entries_are_checked_and_explained(backend):
    entries = [
        "",  # nothing typed
        "hello",  # cannot be read
        "9 9",  # off the board
        "4 4",  # taken (d4)
        "1 1",  # next to no ball
        "3 3",  # next to a ball, but red can capture
        "help",
        "undo",  # nothing of red's to take back
        "4 6",  # f4: legal, captures e4
        "quit",
    ]
    status, output = run(["R", "B", "--backend", backend.name], "\n".join(entries) + "\n")
    assert status == 0
    assert "Cannot read 'hello': type a row and a column (e.g. 4 6) or a square name (e.g. f4)." in output
    assert "'9 9' is off the board: rows and columns go from 1 to 8." in output
    assert "4 4 is not a legal move: that square is already taken." in output
    assert "1 1 is not a legal move: a ball must go next to a ball already on the board." in output
    assert "3 3 is not a legal move: you can capture, so you must: 4 6, 6 4, 6 6." in output
    assert "Your legal moves: 4 6, 6 4, 6 6" in output
    assert "There is no move of yours to take back." in output
    assert "1. Red (human) plays 4 6 (f4)" in output
    assert output.rstrip().endswith("Game stopped.")
    frames = boards(output)
    # The board before each of red's prompts (once: the errors do not redraw it), then blue's:
    # blue is next in the handout's order.
    assert len(frames) == 2
    assert frames[0][4] == "4 . . . R Y . . . 4"
    assert frames[1][4] == "4 . . . R R r . . 4"  # red's f4 marked: its ball in lower case
    assert "Move 2: Blue (human) to play.   R 3  B 1  Y 0  G 1" in output  # the balls of every colour
    assert "Red, your move as row column (4 6, 6 4, 6 6; 'help'): " in output  # the legal moves asked from


def test_undo_takes_back_the_computer_replies_too(backend):
    # Red is human, the others play at random; red plays f4, undoes it, plays d6 and leaves.
    status, output = run(["r", "--algorithm", "random", "--backend", backend.name], "f4\nundo\nd6\nquit\n")
    assert status == 0
    assert "1. Red (human) plays 4 6 (f4)" in output
    taken = re.search(r"Taken back: (.*)\.", output)
    assert taken and taken.group(1).split(", ")[0] == "4 6" and len(taken.group(1).split(", ")) == 4
    assert "1. Red (human) plays 6 4 (d6)" in output
    frames = boards(output)
    assert frames[2] == frames[0]  # after the undo: the start again


def test_end_of_input_mid_game(backend):
    status, output = run(["G", "--algorithm", "random", "--backend", backend.name], "")
    assert status == 1
    assert "Game stopped (input ended)." in output
    assert output.count("(random) plays") == 3  # red, blue and yellow moved before green's turn


def test_humans_are_asked_in_the_handout_s_order_of_play(backend):
    # gamecore rolit Y B: red (computer), blue, yellow, green (computer), red, blue, ...
    moves = "\n".join(["d3", "c4"] + ["quit"]) + "\n"
    status, output = run(["Y", "B", "--algorithm", "greedy", "--backend", backend.name], moves)
    assert status == 0
    assert output.splitlines()[:3] == [
        f"Rolit, 4 players in this order: Red, Blue, Yellow, Green ({backend.name} backend).",
        "Capture when you can; otherwise put the ball next to any ball. Most balls wins.",
        "Red (greedy), Blue (human), Yellow (human), Green (greedy).",
    ]
    prompts = re.findall(r"(\w+), your move", output)
    assert prompts[:3] == ["Blue", "Yellow", "Blue"]
    said = re.findall(r"\d+\. (\w+) \(\w+\) plays ", output)
    assert said == ["Red", "Blue", "Yellow", "Green", "Red"]


@pytest.mark.parametrize(
    "argv",
    [
        ["X"],
        ["B", "--colours", "RG"],
        ["--first", "Y", "--colours", "RG"],
        ["--colours", "R"],
    ],
)
def test_bad_settings_exit_2(argv, capsys):
    status, output = run(argv)
    assert status == 2
    assert "gamecore rolit:" in capsys.readouterr().err


def test_bad_options_are_argparse_errors(capsys):
    assert run(["--algorithm", "nonsense"])[0] == 2
    assert "unknown player 'nonsense' for rolit" in capsys.readouterr().err
    assert run(["--algorithm", "corner"])[0] == 2  # Othello's, not Rolit's
    assert run(["--algorithm", "engine:depth=0"])[0] == 2
    assert run(["--time", "0"])[0] == 2
    assert run(["--time", "soon"])[0] == 2
    assert "argument --time" in capsys.readouterr().err
    assert run(["--help"])[0] == 0


def test_options_first_free_placement_and_tie_rule(backend):
    status, output = run(
        ["--colours", "YB", "--first", "B", "--no-tie-rule", "--free-placement", "--algorithm", "random"]
        + ["--backend", backend.name]
    )
    assert status == 0
    assert output.splitlines()[0] == (
        f"Rolit, 2 players in this order: Yellow, Blue; Blue moves first ({backend.name} backend)."
    )
    assert output.index("1. Blue (random) plays") < output.index("2. Yellow (random) plays")


def test_cli_dispatch(monkeypatch):
    # "gamecore rolit" is the handout's short form; "play rolit" is the shared loop.
    calls = []
    monkeypatch.setattr(cli.rolit_ui, "run", lambda args, stdin, out: calls.append(args) or 0)
    assert cli.main(["rolit", "Y", "B", "--time", "2"]) == 0
    assert calls[0].humans == ["Y", "B"] and calls[0].time == 2.0  # a real subcommand, parsed by argparse
    assert (
        cli.main(
            [
                "play",
                "rolit",
                "--red",
                "random",
                "--blue",
                "random",
                "--yellow",
                "random",
                "--green",
                "random",
                "--quiet",
            ],
            out=io.StringIO(),
        )
        == 0
    )


# -- gamecore play rolit / game rolit: the shared loop ----------------------------------------


def play_cli(argv, text=""):
    out = io.StringIO()
    status = cli.main(argv, stdin=io.StringIO(text), out=out)
    return status, out.getvalue()


def test_play_rolit_one_line_per_bad_entry_in_the_form_used(backend):
    entries = ["hello", "9 9", "i1", "4 4", "1 1", "3 3", "c3", "pass", "quit"]
    status, output = play_cli(["play", "rolit", "--backend", backend.name], "\n".join(entries) + "\n")
    assert status == 0
    prompt = "Red, your move as row column (4 6, 6 4, 6 6; 'help'): "
    replies = [line[len(prompt) :] for line in output.splitlines() if line.startswith(prompt)]
    assert replies == [
        "Cannot read 'hello': type a row and a column (e.g. 4 6) or a square name (e.g. f4).",
        "'9 9' is off the board: rows and columns go from 1 to 8.",
        "'i1' is off the board: columns a to h, rows 1 to 8.",
        "4 4 is not a legal move: that square is already taken.",
        "1 1 is not a legal move: a ball must go next to a ball already on the board.",
        "3 3 is not a legal move: you can capture, so you must: 4 6, 6 4, 6 6.",
        "c3 is not a legal move: you can capture, so you must: f4, d6, f6.",
        "There is no passing in Rolit: every turn puts a ball on the board.",
        "Game stopped.",
    ]
    assert "Rolit, 4 players in this order: Red, Blue, Yellow, Green" in output
    assert "Red (human), Blue (mcts), Yellow (mcts), Green (mcts)." in output
    assert "Move 1: Red (you) to play.   R 1  B 1  Y 1  G 1" in output  # the handout's board, then the balls


def test_play_rolit_undo_goes_back_to_one_s_own_turn_never_the_other_human_s(backend):
    # Red and blue are people, yellow and green play at random.
    entries = ["f4", "undo", "d3", "undo", "6 4", "undo", "quit"]
    argv = ["play", "rolit", "--blue", "human", "--yellow", "random", "--green", "random", "--backend", backend.name]
    status, output = play_cli(argv, "\n".join(entries) + "\n")
    assert status == 0
    assert "Blue, your move as row column (3 4, 3 6, 5 6; 'help'): There is no move of yours to take back." in output
    assert "2. Blue (human) plays 3 4 (d3)" in output
    # Red, at move 5, takes back its f4 and the three moves after it: the start again, red to play.
    taken = re.search(r"Red, your move as row column \([^)]*\): Taken back: (.*)\.", output)
    assert taken and taken.group(1).split(", ")[:2] == ["4 6", "3 4"] and len(taken.group(1).split(", ")) == 4
    after = output[taken.end() :]
    assert boards(after)[0] == boards(output)[0] and "Move 1: Red (human) to play." in after
    # Red plays d6; blue's undo has nothing of blue's to take back and leaves red's move alone.
    assert "1. Red (human) plays 6 4 (d6)" in after
    assert after.rstrip().endswith("Game stopped.")
    assert after.count("There is no move of yours to take back.") == 1


@pytest.mark.parametrize("colours, order", [(None, "Red Blue Yellow Green"), ("RGBY", "Red Green Blue Yellow")])
def test_play_rolit_computer_game_in_the_order_of_play(backend, colours, order):
    argv = ["play", "rolit", "--quiet", "--backend", backend.name]
    argv += [word for c in ("red", "blue", "yellow", "green") for word in (f"--{c}", "random")]
    argv += ["--colours", colours] if colours else []
    status, output = play_cli(argv)
    assert status == 0
    movers = re.findall(r"^\d+\. (\w+) \(random\) plays [1-8] [1-8] \([a-h][1-8]\)$", output, re.M)
    assert len(movers) == 60 and " ".join(movers[:4]) == order and movers[:4] * 15 == movers
    assert len(boards(output)) == 1 and "Game over: " in output


def test_game_rolit_is_a_quick_computer_game(backend):
    status, output = play_cli(["game", "rolit", "--backend", backend.name])
    assert status == 0
    assert len(boards(output)) == 1 and "Game over: " in output
    assert "Red (engine), Blue (random), Yellow (mcts), Green (random)." in output


def test_play_rolit_record_and_load(backend, tmp_path):
    record = tmp_path / "rolit.txt"
    argv = ["play", "rolit", "--blue", "human", "--yellow", "human", "--green", "human", "--backend", backend.name]
    status, _ = play_cli(argv + ["--record", str(record)], "f4\nd3\nquit\n")
    assert status == 0 and record.read_text().split() == ["f4", "d3"]
    status, output = play_cli(argv + ["--load", str(record)], "quit\n")
    assert status == 0 and "Loaded 2 moves" in output and "Move 3: Yellow (human) to play." in output


@pytest.mark.parametrize("argv", [["--colours", "RR"], ["--colours", "RX"], ["--first", "Y", "--colours", "RG"]])
def test_play_rolit_bad_settings_are_one_clear_error(argv, capsys):
    status, output = play_cli(["play", "rolit", *argv])
    assert status == 1 and output == ""
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("gamecore: error: ")


def test_python_entry_point(backend):
    out = io.StringIO()
    game = gamecore.rolit("YB", algorithm="random", backend=backend.name, input=io.StringIO("quit\n"), output=out)
    assert isinstance(game, Rolit) and len(game.move_stack) == 1  # red moved, blue quit
    assert "Yellow (human)" in out.getvalue() and "Blue (human)" in out.getvalue()
    assert "Blue, your move" in out.getvalue() and "Yellow, your move" not in out.getvalue()
    out = io.StringIO()
    game = gamecore.rolit(
        Rolit.YELLOW, Rolit.BLUE, algorithm="random", backend=backend.name, input=io.StringIO("d3\nquit\n"), output=out
    )
    assert len(game.move_stack) == 2 and re.findall(r"(\w+), your move", out.getvalue()) == ["Blue", "Yellow"]
    with pytest.raises(ValueError):
        gamecore.rolit("Q", output=out)
    with pytest.raises(ValueError, match="two-player games only; this game has 3 players"):
        gamecore.rolit(algorithm="alphabeta", colours="RYG", output=out)
    finished = gamecore.rolit(algorithm="greedy", colors="RG", backend=backend.name, output=io.StringIO())
    assert finished.is_game_over() and finished.outcome() is not None
    # colours= is the older name of colors= (one spelling in the API, the old one still read).
    older = gamecore.rolit(algorithm="greedy", colours="RG", backend=backend.name, output=io.StringIO())
    assert older.move_stack == finished.move_stack and older.colors == finished.colors == (Rolit.RED, Rolit.GREEN)
    with pytest.raises(InvalidOptionError, match="Yellow does not play in this game"):
        gamecore.rolit("Y", colors="RG", output=io.StringIO())
    with pytest.raises(InvalidOptionError, match="not both"):
        gamecore.rolit(colors="RG", colours="RG", output=io.StringIO())


@pytest.mark.parametrize("algorithm", ui.ENGINE_ALGORITHMS)
def test_the_computer_is_a_shared_player(algorithm, backend):
    game = Rolit("RG", backend=backend.name)  # two colours: alphabeta plays too
    game.push(game.legal_moves()[0])
    computer = ui.make_engine(algorithm, time=0.05, seed=3)
    if algorithm in ("random", "greedy"):
        assert type(computer) is type(make_player(algorithm, game="rolit"))
    else:  # gamecore.players' engine, running the algorithm, seeded
        assert isinstance(computer, EnginePlayer)
        assert (computer.algorithm, computer.seed, computer.time) == (algorithm, 3, 0.05)
    assert computer.choose_move(game) in game.legal_moves()


def test_the_algorithm_takes_every_player_spec_of_rolit(backend):
    # the one vocabulary: a spec of make_player, with its options, plays as it does elsewhere
    game = Rolit(backend=backend.name)
    computer = ui.make_engine("engine:depth=1", time=0.05, seed=3)
    assert isinstance(computer, EnginePlayer) and computer.depth == 1
    assert computer.choose_move(game) in game.legal_moves() and computer.last_result.depth == 1
    computer = ui.make_engine("mcts:iterations=50", time=30, seed=3)  # the iterations end it
    assert computer.choose_move(game) in game.legal_moves() and computer.last_result.iterations == 50
    status, output = run(["--algorithm", "random:seed=5", "--backend", backend.name])
    assert status == 0 and "Game over" in output


def test_gamecore_rolit_is_an_alias_of_play_rolit(backend):
    # one loop: the handout's form and play rolit with the players it means write the same game
    alias = run(["Y", "--algorithm", "random", "--seed", "2", "--backend", backend.name], "d3\nc4\nquit\n")
    argv = ["play", "rolit", "--red", "random", "--blue", "random", "--yellow", "human", "--green", "random"]
    same = play_cli([*argv, "--seed", "2", "--backend", backend.name], "d3\nc4\nquit\n")
    assert alias == same and "Yellow (human)" in alias[1]
    mcts = ui.play_arguments(["B"], "mcts", 0.5, 0, "RBG", None, True, True, None)
    assert (mcts.red, mcts.blue, mcts.green, mcts.time) == ("engine:algorithm=mcts", "human", mcts.red, 0.5)
    assert ui.play_arguments([], "maxn", 1.0, 0, None, None, True, True, None).yellow == "maxn"


def test_an_engine_players_seed_reaches_its_engine():
    player = make_player("engine:algorithm=mcts,seed=7", game="rolit")
    assert player.seed == 7 and player._engines["mcts"]._mcts.seed == 7


def test_mcts_engine_plays_a_move(backend):
    game = Rolit(backend=backend.name)
    computer = ui.make_engine("mcts", time=0.05, seed=1)
    assert computer.choose_move(game) in game.legal_moves() and computer.last_result.iterations > 0


@pytest.mark.parametrize(
    "spec", ["random:seed=2", "greedy", "corner", "positional", "engine:depth=2", "mcts:iterations=50"]
)
def test_players_play_rolit(backend, spec):
    game = Rolit("RYG", backend=backend.name)
    player = make_player(spec)
    for _ in range(4):
        move = player.choose_move(game)
        assert move in game.legal_moves()
        game.push(move)


def test_human_player_names_every_colour(backend):
    game = Rolit(first="B", backend=backend.name)
    prompts = []
    player = make_player("human", input=lambda prompt: prompts.append(prompt) or "d3", output=io.StringIO())
    assert str(player.choose_move(game)) == "d3"
    assert prompts[0].startswith("Blue, your move")


def test_bench_rolit_prints_both_backends_and_the_ratio(backends):
    out = io.StringIO()
    bench_rolit(out, runs=1, quick=True)
    lines = out.getvalue().splitlines()
    rows = {line.split()[0]: line.split() for line in lines if line.split()[0] in ("cython", "python")}
    # Perft of the default game (red, blue, yellow, green): tests/data/rolit_perft.txt, from the oracle.
    assert rows["cython"][1:3] == ["6", "42,157"] and rows["python"][1:3] == ["4", "1,332"]
    assert lines[-1].startswith("cython/python: perft ") and "per ply" in lines[-1]
    assert cli.main(["bench", "rolit", "--quick", "--runs", "1", "--backend", "python"]) == 0


def test_the_help_fits_an_80_column_terminal():
    for tie in ("", ",\na tie going to the colour that reached that score first"):
        assert max(len(line) for line in ui.HELP.format(tie=tie).splitlines()) <= 80
