"""The ``gamecore`` command: the terminal game driven through standard input, and the other subcommands."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from gamecore import _backend
from gamecore.cli import format_record, load_record, main
from gamecore.games.othello import Othello
from gamecore.players import EnginePlayer, RandomPlayer


@pytest.fixture
def backend(backend):
    """The name of the backend under test (the shared conftest fixture gives its modules)."""
    return backend.name


def run(monkeypatch, capsys, argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def simulate(backend, seed, size=6):
    """The game a seeded random 'human' (black) plays against the depth-2 engine (white)."""
    game = Othello(size, backend=backend)
    human, engine = RandomPlayer(seed), EnginePlayer(depth=2)
    human_moves = []
    passes = 0
    while not game.is_game_over():
        legal = game.legal_moves()
        if legal[0].is_pass:
            passes += 1
            game.push(legal[0])
            continue
        if game.turn == 0:
            move = human.choose_move(game)
            human_moves.append(move)
        else:
            move = engine.choose_move(game)
        game.push(move)
    return game, human_moves, passes


def human_input(moves, noise=True):
    """What the human types: the moves in mixed notations, with bad entries in between."""
    lines = []
    for i, move in enumerate(moves):
        if noise and i == 0:
            lines += ["", "hello", "z9", "a1"]  # blank, unreadable, off-board, illegal
        if i % 3 == 0:
            lines.append(str(move))
        elif i % 3 == 1:
            lines.append(str(move).upper())
        else:
            lines.append(f"{move.row + 1} {move.col + 1}")
    return "\n".join(lines) + "\n"


def game_with_a_pass(backend):
    for seed in range(200):
        game, moves, passes = simulate(backend, seed)
        if passes:
            return game, moves
    pytest.skip("no seeded 6x6 game with a pass found")


PLAY = ["play", "othello", "--size", "6", "--black", "human", "--white", "engine", "--depth", "2"]


def test_full_human_vs_engine_game_through_stdin(backend, monkeypatch, capsys, tmp_path):
    final, moves = game_with_a_pass(backend)
    record = tmp_path / "game.txt"
    code, out, err = run(
        monkeypatch, capsys, PLAY + ["--backend", backend, "--record", str(record)], human_input(moves)
    )
    assert code == 0, err
    assert "Cannot read 'hello'" in out
    assert "Cannot read 'z9'" in out  # off the 6x6 board
    assert "a1 is not a legal move" in out
    assert "has no legal move and passes" in out
    assert "white (engine) plays" in out and " s (depth 2" in out  # engine time and depth shown
    black, white = final.score()
    winner = "a draw" if black == white else ("black (human) wins" if black > white else "white (engine) wins")
    high, low = max(black, white), min(black, white)
    assert f"Game over: {winner} {high}-{low}: " in out
    assert "X: " in out and "to move" in out  # disc count and whose turn
    # The record is the game's move list (passes left out) and replays to the same end.
    assert record.read_text().strip() == format_record(final)
    replay = Othello(6, backend=backend)
    load_record(replay, record.read_text())
    assert replay.to_text() == final.to_text()


def test_last_move_is_marked(backend, monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["game", "--size", "4", "--boards", "--backend", backend])
    assert code == 0
    boards = [b for b in out.split("plays")[1:]]
    # In the letters style the last move is the only lower-case disc on the board.
    first_board = boards[0].split("\n", 1)[1]
    rows = [line for line in first_board.splitlines() if line[:1].isdigit()]
    assert sum(ch in "xo" for row in rows for ch in row[1:-1]) == 1


def test_saved_record_resumes(backend, monkeypatch, capsys, tmp_path):
    final, moves = game_with_a_pass(backend)
    record = tmp_path / "partial.txt"
    half = len(moves) // 2
    code, out, _ = run(
        monkeypatch, capsys, PLAY + ["--backend", backend, "--record", str(record)], human_input(moves[:half])
    )
    assert code == 1  # the input ended before the game
    assert "Game stopped (input ended)." in out
    assert f"Record saved to {record}" in out
    saved = record.read_text().strip()
    assert saved and len(saved) < len(format_record(final))
    code, out, _ = run(
        monkeypatch,
        capsys,
        PLAY + ["--backend", backend, "--load", str(record)],
        human_input(moves[half:], noise=False),
    )
    assert code == 0
    assert f"Loaded {len(saved) // 2} moves" in out
    black, white = final.score()
    game_over = [line for line in out.splitlines() if line.startswith("Game over")]
    assert f"{max(black, white)}-{min(black, white)}: " in game_over[-1]


def test_ufrj_style(backend, monkeypatch, capsys):
    final, moves, _ = simulate(backend, 3)
    code, out, _ = run(
        monkeypatch, capsys, PLAY + ["--backend", backend, "--style", "ufrj"], human_input(moves, noise=False)
    )
    assert code == 0
    assert "○" in out and "●" in out and "? ? ?" in out
    assert "Game over" in out


def test_quit_and_eof_end_cleanly(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, PLAY, "quit\n")
    assert code == 0 and "Game stopped." in out
    code, out, _ = run(monkeypatch, capsys, PLAY, "")
    assert code == 1 and "input ended" in out


def test_load_errors(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("f5f5\n")
    code, _, err = run(
        monkeypatch, capsys, ["play", "othello", "--black", "greedy", "--white", "greedy", "--load", str(bad)]
    )
    assert code == 1 and "move 2 of the record (f5) cannot be played" in err
    code, _, err = run(monkeypatch, capsys, ["play", "othello", "--load", str(tmp_path / "missing.txt")])
    assert code == 1 and "missing.txt" in err


def test_quick_game(backend, monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["game", "--backend", backend])
    assert code == 0
    assert "black (random) plays" in out and "white (greedy) plays" in out
    assert out.strip().splitlines()[-1].startswith("Game over:")


def test_engine_game_and_passes(monkeypatch, capsys):
    code, out, _ = run(
        monkeypatch, capsys, ["game", "--size", "4", "--black", "engine:depth=3", "--white", "mcts:iterations=50"]
    )
    assert code == 0 and "Game over" in out


def test_perft(backend, monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["perft", "--size", "8", "--depth", "5", "--backend", backend])
    assert code == 0
    assert "1,396 leaves" in out and backend in out
    code, out, _ = run(monkeypatch, capsys, ["perft", "--size", "8", "--depth", "7", "--backend", backend])
    assert "55,092 leaves" in out and ("leaves/s" in out or " µs " in out)  # no rate from noise
    code, out, _ = run(monkeypatch, capsys, ["perft", "--size", "6", "--depth", "3", "--backend", backend])
    assert "perft 6x6 depth 3" in out


def test_bench_perft_reports_both_backends(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["bench", "othello", "perft", "--quick", "--runs", "1"])
    assert code == 0
    assert "python backend" in out and "leaves/s" in out and "per-leaf cost 10x10 / 8x8" in out
    assert "perft( 5) =       390,216" not in out  # quick trees: 8x8 perft(5) on python
    assert "8x8  perft( 5) =         1,396 leaves" in out
    if "cython" in _backend.available():
        assert "cython/python ratio" in out


@pytest.mark.parametrize("leaves, code_wanted", [(390_216, 0), (390_217, 1)])
def test_bench_perft_against_a_reference_loop(monkeypatch, capsys, tmp_path, leaves, code_wanted):
    # A stand-in for the course's plain reference loop (ref_perft, not part of gamecore): the
    # plumbing (finding the module, alternating, checking the count), not its speed.
    (tmp_path / "ref_perft.py").write_text(f"def perft(depth):\n    assert depth == 8\n    return {leaves}\n")
    code, out, err = run(
        monkeypatch, capsys, ["bench", "othello", "perft", "--reference", str(tmp_path), "--quick", "--runs", "1"]
    )
    if "cython" not in _backend.available():
        assert code == 1 and "compiled backend" in err
        return
    assert code == code_wanted
    assert "reference loop: 8x8 perft(8) =" in out
    assert "gamecore cython: 8x8 perft(8) = 390,216 leaves" in out
    assert ("gamecore / reference time:" in out) == (code_wanted == 0)
    assert ("not the same tree" in out) == (code_wanted == 1)


def test_bench_perft_reference_not_found(monkeypatch, capsys, tmp_path):
    code, out, err = run(monkeypatch, capsys, ["bench", "othello", "perft", "--reference", str(tmp_path)])
    assert code == 1 and "gamecore: error:" in err
    assert ("no built ref_perft module" in err) or ("compiled backend" in err)
    (tmp_path / "ref_perft.py").write_text("count = 1\n")
    code, out, err = run(
        monkeypatch, capsys, ["bench", "othello", "perft", "--reference", str(tmp_path / "ref_perft.py")]
    )
    assert code == 1 and (("no perft(depth) function" in err) or ("compiled backend" in err))


def test_bench_mcts(monkeypatch, capsys):
    code, out, _ = run(
        monkeypatch, capsys, ["bench", "othello", "mcts", "--size", "4", "--iterations", "20", "--runs", "1"]
    )
    assert code == 0 and "iterations/s" in out


def test_bench_search_and_endgame(monkeypatch, capsys):
    code, out, _ = run(
        monkeypatch,
        capsys,
        ["bench", "othello", "search", "--depth", "2", "--deep", "0", "--ffo", "none", "--runs", "1"],
    )
    assert code == 0 and "nodes/s" in out and "transposition table: 16 MB" in out
    if "cython" in _backend.available():
        code, out, _ = run(monkeypatch, capsys, ["bench", "othello", "endgame", "--ffo", "40", "--backend", "cython"])
        assert code == 0
        assert " 40    20   +38   +38   a2" in out and "0 wrong" in out


def test_bench_search_against_another_build(monkeypatch, capsys, tmp_path):
    # --against: the deep run of this build and of the build at PATH (here this one again, by
    # its folder) timed in turn, each sample in a process of its own: the same nodes.
    if "cython" not in _backend.available():
        pytest.skip("--against times the compiled backend: build it (pip install .)")
    here = os.path.dirname(os.path.dirname(os.path.abspath(sys.modules["gamecore"].__file__ or "")))
    argv = ["bench", "othello", "search", "--eval", "learned", "--depth", "1", "--deep", "3", "--ffo", "none"]
    code, out, _ = run(monkeypatch, capsys, [*argv, "--runs", "1", "--backend", "cython", "--against", here])
    assert code == 0, out
    lines = [line for line in out.splitlines() if line.startswith("alpha-beta cython  depth  3 learned:")]
    assert len(lines) == 3 and len({line.split()[5] for line in lines}) == 1  # one node count
    assert lines[1].endswith("this build") and lines[2].endswith(here)
    assert f"this build / {here}: " in out
    code, _, err = run(monkeypatch, capsys, [*argv, "--against", str(tmp_path)])
    assert code == 1 and "no gamecore package in" in err


def test_bench_endgame_solve_limit(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["bench", "othello", "endgame", "--solve-limit", "0.3", "--ffo", "40"])
    assert code == 0 and "exact solves within 0.3 s" in out
    lines = out.splitlines()
    # One line per number of empty squares from 14 up, each with the one position of FFO #40.
    assert lines[2].split()[:2] == ["14", "1/1"] or lines[2].split()[:2] == ["14", "0/1"]
    assert lines[-1].startswith("solved within 0.3 s on every position: ")


def test_bench_tetralath(monkeypatch, capsys):
    args = ["bench", "tetralath", "--quick", "--runs", "1", "--plies", "3", "--depth", "2", "--time", "0.2"]
    code, out, _ = run(monkeypatch, capsys, args)
    assert code == 0 and "nodes/s" in out
    assert "depth 2 on each ply of an engine-vs-engine opening" in out
    assert "depth reached in 0.2 s a move" in out and "depths: " in out
    if "cython" in _backend.available():
        assert "cython/python ratio at depth 3: " in out and "(alternated runs, medians)" in out


def test_bad_usage(monkeypatch, capsys):
    assert run(monkeypatch, capsys, ["play", "othello", "--size", "7"])[0] == 2
    assert run(monkeypatch, capsys, ["play", "othello", "--time", "-1"])[0] == 2
    assert run(monkeypatch, capsys, [])[0] == 2
    code, _, err = run(monkeypatch, capsys, ["play", "othello", "--white", "wizard"])
    assert code == 1 and "unknown player" in err


def test_export_writes_files(monkeypatch, capsys, tmp_path):
    target = tmp_path / "models" / "players" / "gamecore_player.py"
    code, out, _ = run(monkeypatch, capsys, ["export", "ufrj", "--out", str(target), "--time", "2"])
    assert code == 0 and target.exists()
    code, _, err = run(monkeypatch, capsys, ["export", "ufrj", "--out", str(target), "--time", "12"])
    assert code == 1 and "10 s" in err
    ctu = tmp_path / "player.py"
    code, out, _ = run(monkeypatch, capsys, ["export", "ctu", "--out", str(ctu), "--standalone"])
    assert code == 0 and "standalone" in out and ctu.stat().st_size < 1_000_000


def test_python_dash_m(tmp_path):
    env = dict(os.environ)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__import__("gamecore").__file__)))
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "gamecore", "game", "--size", "6"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout


def test_short_forms_are_play(monkeypatch, capsys):
    # "tetralath" is "play tetralath"; "game" is "play othello" with two quick computer players.
    code, out, _ = run(monkeypatch, capsys, ["tetralath", "--white", "random", "--black", "random", "--quiet"])
    assert code == 0 and "Game over" in out and out.count("a b c") == 0 or out.count("1 2 3 4 5") == 2
    code, out, _ = run(monkeypatch, capsys, ["game", "tetralath"])
    assert code == 0 and "white (random) plays" in out and "black (engine) plays" in out
    # "play" without a game is Othello, as "game" is.
    code, out, _ = run(
        monkeypatch, capsys, ["play", "--size", "4", "--black", "random", "--white", "random", "--quiet"]
    )
    assert code == 0 and out.startswith("Othello 4x4") and "Game over" in out
    code, out, _ = run(monkeypatch, capsys, ["play", "--help"])
    assert code == 0 and "rolit" in out and "Othello when no game is named" in out


def test_version_and_help_name_defaults(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["--version"])
    assert code == 0 and out.startswith("gamecore ")
    for argv in (["play", "othello"], ["perft"], ["export", "ufrj"], ["bench", "othello"]):
        code, out, _ = run(monkeypatch, capsys, [*argv, "--help"])
        assert code == 0 and "default" in out, argv


def test_scores_read_as_people_say_them(monkeypatch, capsys):
    # A 4x4 engine game is solved exactly: the search proves the result, said in words.
    code, out, _ = run(monkeypatch, capsys, ["game", "--size", "4", "--white", "engine:depth=12"])
    assert code == 0
    assert re.search(r"\((depth \d+, )?(black|white) wins by \d+|[+-]\d+ for (black|white)", out)
    assert not re.search(r"[+-]?1000\d\d\d", out)


def test_board_and_banner_fit_80_columns(monkeypatch, capsys):
    code, out, _ = run(monkeypatch, capsys, ["play", "othello", "--size", "10", "--style", "ufrj"], "quit\n")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 80


def test_closed_pipe_is_one_line(tmp_path):
    env = dict(os.environ)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__import__("gamecore").__file__)))
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        f"{sys.executable} -m gamecore game --boards | head -1",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_backend_setting_error_is_one_line(tmp_path):
    env = dict(os.environ, GAMECORE_BACKEND="nope")
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__import__("gamecore").__file__)))
    env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "gamecore", "perft", "--depth", "1"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "gamecore: error: GAMECORE_BACKEND must be one of auto, cython, python; got 'nope'"
    ]


def test_a_forced_pass_is_not_announced_as_your_turn(monkeypatch, capsys, tmp_path):
    # 4x4 after b1 c1 d3 a1: black has no move. The loop passes for black at once: no "you to
    # play" before it, and the input hint names a square (c4 after the pass), not "pass".
    record = tmp_path / "pass.txt"
    record.write_text("b1c1d3a1\n")
    argv = ["play", "othello", "--size", "4", "--load", str(record), "--white", "engine:depth=2"]
    code, out, err = run(monkeypatch, capsys, argv, "quit\n")
    assert code == 0, err
    assert "Type a move like c4; 'help' lists the commands." in out
    before_pass = out.split("black (human) has no legal move and passes.")[0]
    assert "to play" not in before_pass
    assert "Move 7: black (you) to play." in out  # after white's reply, black's own turn


def test_a_computer_game_says_its_result_once_and_no_input_hint(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, ["game", "--size", "6"])
    assert code == 0, err
    assert "Type a move" not in out
    assert out.count("Game over: ") == 1 and "game over: " not in out  # not also under the board
    assert out.rstrip().splitlines()[-2] == "  a b c d e f"  # the last board, then the one result line
