"""The terminal game ``gamecore tetralath``, driven through its standard input, in both languages."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

from gamecore.ui.tetralath import MESSAGES, build_parser, main

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(argv, lines):
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return status, out.getvalue()


def _fixed_parts(template: str) -> list[str]:
    """The literal pieces of a message template (without its {placeholders}), long enough to spot."""
    return [p.strip() for p in re.split(r"\{[^}]*\}", template) if len(p.strip()) >= 8]


def test_human_vs_human_game_to_a_win_in_english(backend):
    # White builds e1 e2 _ e4 and fills e3; black plays along row a (a1 a3 a5: no line).
    moves = ["e1", "a1", "e2", "z9", "a3", "e4", "a6", "e4", "a5", "e3"]
    status, text = run(["--white", "human", "--black", "human", "--color", "never", "--backend", backend.name], moves)
    assert status == 0
    assert "'z9' is not a cell" in text
    assert "'a6' is off the board: row a has cells 1 to 5." in text
    assert "e4 is already taken" in text
    assert text.count("White, your move") == 4
    assert text.count("Black, your move") == 6  # three moves and three bad entries re-prompted
    assert "Game over: White wins, four in a row." in text
    # the final board shows the last move in parentheses and the four white stones on row e
    board = text.split("Game over")[0].splitlines()
    row_e = [line for line in board if line.startswith("e ")][-1]
    assert "(W)" in row_e
    assert row_e.replace("(", " ").replace(")", " ").split() == ["e"] + ["W"] * 4 + ["."] * 5


def test_three_in_a_row_loses_in_portuguese(backend):
    moves = ["e1", "a1", "xyz", "e2", "a3", "", "ajuda", "e3"]
    status, text = run(
        ["--lang", "pt", "--white", "human", "--black", "human", "--color", "never", "--backend", backend.name], moves
    )
    assert status == 0
    assert "'xyz' não é uma casa" in text
    assert "Digite uma jogada" in text
    assert "Comandos: desfazer" in text
    assert "Fim de jogo: vitória das Pretas: as Brancas fizeram três em linha." in text
    # every line is Portuguese: no English message text anywhere
    for template in MESSAGES["en"].values():
        for part in _fixed_parts(template):
            assert part not in text, part
    assert "White" not in text and "Black" not in text


def test_human_against_computer_with_undo_and_quit(backend):
    lines = ["undo", "e5", "undo", "e5", "quit"]
    status, text = run(["--depth", "1", "--color", "never", "--backend", backend.name], lines)
    assert status == 0
    assert "There is no move of yours to take back." in text
    assert re.search(r"Black \(computer\) plays [a-i][1-9]: depth 1", text)
    assert re.search(r"Taken back: e5, [a-i][1-9]\.", text)
    assert "(x) marks the computer's last move." in text
    assert "Game abandoned." in text
    # the computer's move is marked with parentheses on the board that follows it
    after = text.split("Black (computer) plays", 1)[1]
    assert "(B)" in after


def test_computer_starts_and_wins_against_a_blunder(backend):
    # The human (black) makes three in a row as fast as possible and loses.
    lines = ["a1", "a2", "a3"]
    status, text = run(["--first", "computer", "--depth", "2", "--color", "never", "--backend", backend.name], lines)
    assert status == 0
    assert text.startswith(MESSAGES["en"]["title"])
    assert "White (W): computer. Black (B): human." in text
    assert "Game over: White wins: Black made three in a row." in text
    assert "The computer won this time." in text


def test_computer_vs_computer_portuguese_with_colours(backend):
    status, text = run(
        [
            "--lang",
            "pt",
            "--white",
            "computer",
            "--black",
            "computer",
            "--depth",
            "2",
            "--color",
            "always",
            "--backend",
            backend.name,
        ],
        [],
    )
    assert status == 0
    assert "\x1b[" in text and "\x1b[5;7m" in text  # colours and the blinking reverse-video last move
    plain = ANSI.sub("", text)
    assert "Fim de jogo:" in plain
    assert re.search(r"Brancas \(computador\) jogam [a-i][1-9]", plain)
    for template in MESSAGES["en"].values():
        for part in _fixed_parts(template):
            assert part not in plain, part


def test_end_of_input_and_bad_options():
    status, text = run(["--white", "human", "--black", "human", "--color", "never"], ["e5"])
    assert status == 1 and "The input ended" in text
    assert main(["--depth", "0"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert main(["--time", "abc"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert main(["--lang", "fr"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2


def test_messages_exist_in_both_languages():
    assert set(MESSAGES["en"]) == set(MESSAGES["pt"])
    for key in MESSAGES["en"]:
        placeholders_en = set(re.findall(r"\{(\w+)", MESSAGES["en"][key]))
        placeholders_pt = set(re.findall(r"\{(\w+)", MESSAGES["pt"][key]))
        assert placeholders_en == placeholders_pt, key


def test_default_time_is_five_seconds():
    assert build_parser().parse_args([]).time == 5.0
    status, text = run(["--color", "never"], ["quit"])
    assert "up to 5 s a move" in text


def test_the_command_through_a_real_stdin(tmp_path):
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root / "python"))
    proc = subprocess.run(
        [sys.executable, "-m", "gamecore", "tetralath", "--lang", "pt", "--white", "human", "--black", "human"],
        input="e1\na1\ne2\na3\ne4\na5\nbad\ne3\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "'bad' não é uma casa" in proc.stdout
    assert "Fim de jogo: vitória das Brancas, quatro em linha." in proc.stdout
    assert "\x1b[" not in proc.stdout  # not a terminal: no colours
