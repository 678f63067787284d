"""The terminal game ``gamecore tetralath`` (short for ``gamecore play tetralath``), driven
through its standard input, in both languages."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamecore.cli import main
from gamecore.ui import play
from gamecore.ui.tetralath import MESSAGES

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(argv, lines):
    out = io.StringIO()
    status = main(["tetralath", *argv], stdin=io.StringIO("".join(line + "\n" for line in lines)), out=out)
    return status, out.getvalue()


def _fixed_parts(template: str) -> list[str]:
    """The literal pieces of a message template (without its {placeholders}), long enough to spot."""
    return [p.strip() for p in re.split(r"\{[^}]*\}", template) if len(p.strip()) >= 8]


def english_parts():
    for table in (MESSAGES["en"], play.MESSAGES["en"]):
        for template in table.values():
            yield from _fixed_parts(template)


def test_human_vs_human_game_to_a_win_in_english(backend):
    # White builds e1 e2 _ e4 and fills e3; black plays along row a (a1 a3 a5: no line).
    moves = ["e1", "a1", "e2", "z9", "a3", "e4", "a6", "e4", "a5", "e3"]
    status, text = run(["--white", "human", "--black", "human", "--ansi", "never", "--backend", backend.name], moves)
    assert status == 0
    assert "'z9' is not a cell" in text
    assert "'a6' is off the board: row a has cells 1 to 5." in text
    assert "e4 is already taken" in text
    assert text.count("White, your move") == 4
    assert text.count("Black, your move") == 6  # three moves and three bad entries re-prompted
    assert "Game over: white (human) wins: four in a row." in text
    # the final board shows the last move in parentheses and the four white stones on row e
    board = text.split("Game over")[0].splitlines()
    row_e = [line for line in board if line.startswith("e ")][-1]
    assert "(W)" in row_e
    assert row_e.replace("(", " ").replace(")", " ").split() == ["e"] + ["W"] * 4 + ["."] * 5


def test_three_in_a_row_loses_in_portuguese(backend):
    moves = ["e1", "a1", "xyz", "e2", "a3", "", "ajuda", "e3"]
    status, text = run(
        ["--lang", "pt", "--white", "human", "--black", "human", "--ansi", "never", "--backend", backend.name], moves
    )
    assert status == 0
    assert "'xyz' não é uma casa" in text
    assert "Comandos: desfazer" in text
    assert "Fim de jogo: vitória das pretas (humano): as brancas fizeram três em linha." in text
    # every line is Portuguese: no English message text anywhere, and the board in B/P
    for part in english_parts():
        assert part not in text, part
    assert "white" not in text.lower() and "black" not in text.lower()
    assert " P " in text and " W " not in text


def test_human_against_computer_with_undo_and_quit(backend):
    lines = ["undo", "e5", "undo", "e5", "quit"]
    status, text = run(["--depth", "1", "--ansi", "never", "--backend", backend.name], lines)
    assert status == 0
    assert "There is no move of yours to take back." in text
    assert re.search(r"black \(engine\) plays [a-i][1-9] in [0-9.]+ s \(depth 1, ", text)
    assert re.search(r"Taken back: e5, [a-i][1-9]\.", text)
    assert "Game stopped." in text
    # the computer's move is marked with parentheses on the board that follows it
    after = text.split("black (engine) plays", 1)[1]
    assert "(B)" in after


def test_computer_starts_and_wins_against_a_blunder(backend):
    # The human (black) makes three in a row as fast as possible and loses.
    lines = ["a1", "a2", "a3"]
    status, text = run(["--computer-first", "--depth", "2", "--ansi", "never", "--backend", backend.name], lines)
    assert status == 0
    assert text.startswith(MESSAGES["en"]["title"])
    assert "white (engine), black (human)." in text
    assert "Game over: white (engine) wins: black made three in a row." in text
    assert "The computer won this time." in text
    assert "1000" not in text  # proven scores are said in words, never as the internal number


def test_computer_vs_computer_portuguese_with_colours(backend):
    argv = ["--lang", "pt", "--white", "engine", "--black", "engine", "--depth", "2", "--ansi", "always"]
    status, text = run([*argv, "--backend", backend.name], [])
    assert status == 0
    assert "\x1b[" in text and "\x1b[5;7m" in text  # colours and the blinking reverse-video last move
    plain = ANSI.sub("", text)
    assert "Fim de jogo:" in plain
    assert re.search(r"brancas \(computador\) jogam [a-i][1-9]", plain)
    for part in english_parts():
        assert part not in plain, part


def test_end_of_input_and_bad_options():
    status, text = run(["--white", "human", "--black", "human", "--ansi", "never"], ["e5"])
    assert status == 1 and "Game stopped (input ended)." in text
    assert main(["tetralath", "--depth", "0"], stdin=io.StringIO(""), out=io.StringIO()) == 2
    assert main(["tetralath", "--time", "abc"], stdin=io.StringIO(""), out=io.StringIO()) == 2
    assert main(["tetralath", "--lang", "fr"], stdin=io.StringIO(""), out=io.StringIO()) == 2
    assert main(["tetralath", "--white", "greedy"], stdin=io.StringIO(""), out=io.StringIO()) == 1  # Othello's


def test_messages_exist_in_both_languages():
    for table in (MESSAGES, play.MESSAGES):
        assert set(table["en"]) == set(table["pt"])
        for key in table["en"]:
            placeholders_en = set(re.findall(r"\{(\w+)", table["en"][key]))
            placeholders_pt = set(re.findall(r"\{(\w+)", table["pt"][key]))
            assert placeholders_en == placeholders_pt, key


def test_help_names_the_defaults(capsys):
    assert main(["tetralath", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(default 5)" in text and "(default human)" in text and "(default engine)" in text


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
    assert "Fim de jogo: vitória das brancas (humano): quatro em linha." in proc.stdout
    assert "\x1b[" not in proc.stdout  # not a terminal: no colours


def test_old_option_names_still_work_and_say_they_are_deprecated(capsys):
    # --color was ANSI output and --first who moves first; both names now mean other things elsewhere.
    out = io.StringIO()
    argv = ["tetralath", "--first", "computer", "--color", "always", "--depth", "1"]
    assert main(argv, stdin=io.StringIO(""), out=out) == 1  # the human (black) typed nothing
    warnings = capsys.readouterr().err
    assert "--first is deprecated; use --computer-first" in warnings
    assert "--color is deprecated; use --ansi" in warnings
    assert "\x1b[" in out.getvalue()  # --color always took effect
    assert "white (engine), black (human)." in ANSI.sub("", out.getvalue())  # and --first computer
    assert main(["tetralath", "--colour", "sometimes"], stdin=io.StringIO(""), out=io.StringIO()) == 2


def test_portuguese_numbers_group_thousands_with_dots():
    status, text = run(["--lang", "pt", "--white", "engine", "--black", "engine", "--depth", "4"], [])
    assert status == 0
    counts = re.findall(r", ([\d.,]+) nós\)", text)
    assert counts and all("," not in count for count in counts)
    assert any(re.fullmatch(r"\d{1,3}(\.\d{3})+", count) for count in counts)  # e.g. 9.183


def test_the_eval_help_names_tetralaths_own_default():
    help_text = subprocess.run(
        [sys.executable, "-m", "gamecore", "play", "tetralath", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "Othello" not in help_text
    assert re.search(r"\(default: default,\s+standard\)", help_text)


class _Terminal(io.StringIO):
    """Typed input at a terminal: the command asks what its options left open."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("answers", "white", "computer_starts"),
    [("computador\n", "computador", True), ("\n", "humano", False), ("talvez\nvocê\n", "humano", False)],
)
def test_who_moves_first_is_asked_at_a_terminal(answers, white, computer_starts):
    out = io.StringIO()
    argv = ["tetralath", "--lang", "pt", "--depth", "1", "--ansi", "never"]
    assert main(argv, stdin=_Terminal(answers + "sair\n"), out=out) == 0
    text = out.getvalue()
    assert text.startswith("Quem começa, você ou o computador? (você/computador, Enter: você) ")
    assert ("Responda 'você' ou 'computador'." in text) == ("talvez" in answers)  # asked again
    assert f"brancas ({white})" in text
    assert bool(re.search(r"1\. brancas \(computador\) jogam [a-i][1-9]", text)) == computer_starts


def test_who_moves_first_is_not_asked_when_an_option_says_it_or_input_is_a_script():
    for argv in (["--human-first"], ["--computer-first"], ["--white", "engine"]):
        out = io.StringIO()
        main(["tetralath", *argv, "--depth", "1", "--ansi", "never"], stdin=_Terminal("quit\n"), out=out)
        assert "Who moves first" not in out.getvalue()
    status, text = run(["--depth", "1", "--ansi", "never"], ["quit"])  # piped: a script is never asked
    assert status == 0 and "Who moves first" not in text and "white (human)" in text


def test_the_help_speaks_portuguese_with_lang_pt(capsys):
    assert main(["tetralath", "--lang", "pt", "--help"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("uso: gamecore play tetralath") and "\nopções:\n" in text
    assert "quem joga com as brancas" in " ".join(text.split()) and "(padrão 5)" in " ".join(text.split())
    helps = re.findall(r"^  (-[-\w, ]+?)(?:\s{2,}|\n\s+)(.*)$", text, re.M)
    english = [opt for opt, line in helps if re.search(r"\b(the|of|who|seconds)\b|\(default", line)]
    assert english == []  # no option left in English
    assert main(["tetralath", "--lang=pt", "--help"]) == 0 and capsys.readouterr().out.startswith("uso: ")
    assert main(["tetralath", "--help"]) == 0 and capsys.readouterr().out.startswith("usage: ")
