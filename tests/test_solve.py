"""``gamecore solve`` and :func:`gamecore.search.perfect.perfect_line` in both backends.

- the value against minimax written in tests/test_endgame.py (4x4 start, 6x6 endgames), the
  whole line checked move by move: each move keeps the value (minimax again, or a solve);
- 6x6 at 20 empties on Feinstein's published perfect line (white wins 20-16), FFO #40's
  published score (compiled; the pure twin in the slow run), win/draw/loss alone;
- the twins agree on the value, the line and the nodes;
- the command: a position by size, record, OBF text or file, progress lines, --time, Ctrl-C
  (a real SIGINT to a child process), bad input;
- slow: the 6x6 start solved, and every move of Feinstein's line proven optimal.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time

import pytest

from gamecore.cli import main
from gamecore.errors import InvalidOptionError
from gamecore.games.othello import PASS, Othello
from gamecore.search.perfect import perfect_line, table_bits_for
from test_endgame import FFO, minimax

#: Joel Feinstein's perfect line of 6x6 Othello (1993; his 8x8 coordinates b2-g7 moved to
#: a1-f6), which ends 16-20: white wins by 4.
FEINSTEIN = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1"


def value_by_minimax(game: Othello) -> int:
    black, white = game.core.bitboards()
    return minimax(black, white, game.core.turn, game.size)


def assert_line_keeps_value(game: Othello, result, value_of) -> None:
    """Each move of ``result.line`` leaves the opponent exactly minus the value before it."""
    position = game.copy()
    value = result.value
    for move in result.line:
        position.push(move)
        value = -value
        assert value_of(position) == value, f"{move} does not keep the value"
    assert position.is_game_over()


def test_four_by_four_start_against_minimax(backend):
    game = Othello(4, backend=backend.name)
    result = perfect_line(game)
    assert result.completed and result.value == value_by_minimax(game) == -10
    assert result.describe() == "white wins 11-3 (2 empty squares left)"
    assert result.final == (3, 11)
    assert_line_keeps_value(game, result, value_by_minimax)
    assert game == Othello(4)  # left unchanged


def test_six_by_six_endgames_against_minimax(backend):
    for moves in (FEINSTEIN[:48], "e4e3b2c5c2a1d5e5f3c1b6c6d6f2f4f5b1e2b3a3d2"):
        game = Othello.from_moves(moves, size=6, backend=backend.name)
        result = perfect_line(game)
        assert result.completed and result.value == value_by_minimax(game)
        assert_line_keeps_value(game, result, value_by_minimax)


def test_feinstein_line_at_twenty_empties(backend):
    """After 12 moves of the published line: white still wins 20-16, and the rest of the
    published line keeps it."""
    game = Othello.from_moves(FEINSTEIN[:24], size=6, backend=backend.name)
    if backend.name == "python":
        pytest.skip("pure twin: 20 empties take a minute (the slow run has it)")
    check_feinstein_from(game, 12)


def check_feinstein_from(game: Othello, start: int) -> None:
    table = game._backend.endgame.EndgameTable(table_bits_for(36 - sum(game.score())))
    result = perfect_line(game, table=table)
    assert result.completed and result.value == -4 and result.describe() == "white wins 20-16"
    assert result.final == (16, 20)
    position = game.copy()
    for index in range(start * 2, len(FEINSTEIN), 2):
        if position.legal_moves()[0].is_pass:
            position.push(position.legal_moves()[0])  # the record leaves passes out
        position.push(position.parse_move(FEINSTEIN[index : index + 2]))
        if position.is_game_over():
            break
        value = perfect_line(position, table=table).value
        assert value is not None
        black_value = value * (1 if position.turn == Othello.Color.BLACK else -1)
        assert black_value == -4, f"Feinstein's move {index // 2 + 1} is not optimal"
    assert position.is_game_over() and position.score() == (16, 20)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["python"], indirect=True)
def test_feinstein_line_at_twenty_empties_pure(backend):
    check_feinstein_from(Othello.from_moves(FEINSTEIN[:24], size=6, backend=backend.name), 12)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_six_by_six_start_and_feinstein_line(backend):
    """The 6x6 start: white wins 20-16, the whole line proven, and each move of Feinstein's
    published line optimal (two to four minutes of CPU)."""
    check_feinstein_from(Othello(6, backend=backend.name), 0)


def test_win_draw_loss(backend):
    game = Othello.from_moves(FEINSTEIN[:32], size=6, backend=backend.name)
    result = perfect_line(game, wld=True)
    assert result.completed and result.outcome() == "loss" and result.value is None
    assert result.upper < 0 and result.describe() == "white wins"
    # The line keeps the result: white (the winner) wins at its end.
    position = game.copy()
    for move in result.line:
        position.push(move)
    assert position.is_game_over() and position.score()[1] > position.score()[0]


def test_backends_agree(backends):
    py, cy = backends
    game = Othello.from_moves(FEINSTEIN[:40], size=6)
    a = perfect_line(Othello.from_text(game.to_text(), backend="python"))
    b = perfect_line(Othello.from_text(game.to_text(), backend="cython"))
    assert (a.lower, a.upper, a.line, a.nodes) == (b.lower, b.upper, b.line, b.nodes)


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_ffo_40_by_the_command(backend):
    black, white, turn, scores = FFO[40]
    text = "".join("X" if black >> i & 1 else "O" if white >> i & 1 else "-" for i in range(64))
    out = io.StringIO()
    # the compiled backend whatever GAMECORE_BACKEND says (CI runs the suite again with "python")
    assert main(["solve", f"{text} {'XO'[turn]}", "--progress", "0", "--backend", backend.name], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("8x8, black to move, 20 empty squares; proving the exact value (cython backend")
    assert lines[1].startswith("value: +38 for black: black wins")
    assert lines[2] == "best move: a2"  # the one move of +38 in the suite's file
    assert max(scores.values()) == 38


def test_game_over_and_forced_pass(backend):
    over = Othello.from_moves(FEINSTEIN, size=6, backend=backend.name)
    result = perfect_line(over)
    assert result.completed and result.value == 4 and result.line == [] and result.best_move is None
    # White to move must pass here (a random game's position).
    game = Othello.from_text("XXXXXXOOOOO--OOOO---OOOO-OOOOX---OXX O", backend=backend.name)
    assert game.legal_moves()[0].is_pass
    result = perfect_line(game)
    assert result.line[0].index == PASS and result.value == value_by_minimax(game)


def test_bad_options(backend):
    game = Othello(4, backend=backend.name)
    with pytest.raises(InvalidOptionError):
        perfect_line("not a position")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        perfect_line(game, time_limit=-1)
    with pytest.raises(InvalidOptionError):
        perfect_line(game, table_bits=40)
    assert table_bits_for(32) == 22 and table_bits_for(4) == 16


# -- the command --------------------------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["solve", *argv], out=out)
    return status, out.getvalue()


def test_command_from_a_record_and_a_file(tmp_path, backend):
    status, text = run_cli("--size", "6", "--moves", FEINSTEIN[:48], "--backend", backend.name, "--progress", "0")
    assert status == 0
    assert "value: -4 for black: white wins 20-16 with perfect play" in text
    assert "line (9 moves, each proven optimal): " in text
    board = tmp_path / "position.txt"
    board.write_text(str(Othello.from_moves(FEINSTEIN[:48], size=6)))  # the readable board
    status, again = run_cli(str(board), "--backend", backend.name, "--progress", "0", "--wld")
    assert status == 0 and "result: white wins (win/draw/loss only" in again


def test_command_progress_and_time_limit(capsys):
    status, text = run_cli("--size", "6", "--moves", FEINSTEIN[:8], "--progress", "0.05", "--time", "0.3")
    assert status == 1
    assert "stopped before the end: the figures above are what was proven" in text
    progress = capsys.readouterr().err  # the progress lines go to standard error
    assert "solve: " in progress and " nodes - value in [" in progress


def test_command_bad_input():
    err = io.StringIO()
    old = sys.stderr
    sys.stderr = err
    try:
        assert run_cli("not a board X")[0] == 1
        assert run_cli("--size", "6", "--moves", "a1")[0] == 1
        assert run_cli("--size", "5")[0] == 2
    finally:
        sys.stderr = old
    assert "gamecore: error:" in err.getvalue()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_stops_cleanly():
    """A real Ctrl-C (SIGINT) to ``gamecore solve --size 6``: it stops within a second or
    two, prints what was proven and exits 130."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    child = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "solve", "--size", "6", "--progress", "0.2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    first = child.stdout.readline()  # the heading: the solver is starting
    assert first.startswith("6x6, black to move, 32 empty squares")
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    assert "stopped before the end: the figures above are what was proven" in out
    assert "Traceback" not in err
