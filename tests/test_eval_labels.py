"""Exact labels (``gamecore train othello-label``, :mod:`gamecore.train.labels`).

- Every label line is the exact value of its position, checked against a brute-force
  negamax written here (no solver, no ordering, no table), on both backends; the two
  backends write the same lines.
- A run stopped after some games goes on where it stopped, with no game labelled twice;
  Ctrl-C keeps the games written and exits 130.
- In training, a label replaces the game's result for that position (and only that one).
- A damaged label file or a bad range is one clear error.
"""

from __future__ import annotations

import io
import json
import random

import pytest

from gamecore import Othello
from gamecore.cli import main
from gamecore.errors import InvalidOptionError
from gamecore.games.othello import parse_square
from gamecore.train import labels


def negamax(game: Othello) -> int:
    """The final margin for the side to move with perfect play, by trying everything."""
    if game.is_game_over():
        black, white = game.score()
        empty = game.size * game.size - black - white
        margin = black - white + (empty if black > white else -empty if white > black else 0)
        return margin if game.turn == Othello.Color.BLACK else -margin
    best = -1000
    for move in game.legal_moves():
        child = game.copy()
        child.push(move)
        best = max(best, -negamax(child))
    return best


def random_games(count: int, size: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        game = Othello(size)
        names = []
        while not game.is_game_over():
            move = rng.choice(game.legal_moves())
            game.push(move)
            if not move.is_pass:
                names.append(move.name)
        lines.append("".join(names))
    return lines


@pytest.fixture
def transcripts(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text("\n".join(random_games(6, 6, seed=7)) + "\n")
    return path


def test_every_label_is_the_brute_force_value(backend, transcripts):
    lines = []
    for index, line in enumerate(transcripts.read_text().split()):
        codes = tuple(parse_square(line[i : i + 2], 6) for i in range(0, len(line), 2))
        lines += labels.solve_game(labels.LabelJob(f"games.txt#{index}", codes, 6, 5, 8), backend=backend.name)
    assert len(lines) >= 20  # about four positions a game (passes and short games aside)
    for line in lines:
        board, side, value, source = line.split()
        position = Othello.from_text(f"{board} {side}")
        assert 5 <= board.count("-") <= 8 and source.startswith("games.txt#")
        assert int(value) == negamax(position), line


def test_both_backends_write_the_same_lines(backends, transcripts):
    line = transcripts.read_text().split()[0]
    codes = tuple(parse_square(line[i : i + 2], 6) for i in range(0, len(line), 2))
    job = labels.LabelJob("g#0", codes, 6, 6, 12)
    py, cy = (labels.solve_game(job, backend=b.name) for b in backends)
    assert py == cy and len(py) >= 5


def test_a_stopped_run_goes_on_where_it_stopped(tmp_path, transcripts):
    out = tmp_path / "labels.txt"
    args = ["train", "othello-label", "--size", "6", "--from", str(transcripts), "--out", str(out), "--empties", "6-9"]
    text = io.StringIO()
    assert main([*args, "--games", "2", "--quiet"], out=text) == 0
    assert text.getvalue().startswith("2 games,")
    assert main([*args, "--quiet"], out=io.StringIO()) == 0
    rows = [line.split() for line in out.read_text().splitlines() if not line.startswith("#")]
    games = {row[3] for row in rows}
    assert games == {f"games.txt#{i}" for i in range(6)}
    keys = [(row[3], row[0].count("-")) for row in rows]
    assert len(keys) == len(set(keys))  # no position twice
    assert main([*args, "--quiet"], out=(again := io.StringIO())) == 0
    assert again.getvalue().startswith("0 games,")


def test_ctrl_c_keeps_what_is_written_and_exits_130(tmp_path, transcripts, monkeypatch):
    solve = labels.solve_game
    solved = []

    def solve_then_interrupt(job, backend=None):
        if len(solved) == 2:
            raise KeyboardInterrupt  # as Ctrl-C arrives during the third game
        solved.append(job.source)
        return solve(job, backend)

    monkeypatch.setattr(labels, "solve_game", solve_then_interrupt)
    out = tmp_path / "labels.txt"
    args = ["train", "othello-label", "--size", "6", "--from", str(transcripts), "--out", str(out), "--empties", "6-9"]
    text = io.StringIO()
    assert main([*args, "--quiet"], out=text) == 130
    assert text.getvalue().startswith("2 games,")
    assert {line.split()[3] for line in out.read_text().splitlines()[1:]} == set(solved)


def test_a_label_replaces_the_result_of_its_position_only():
    pytest.importorskip("numpy", reason='the training needs numpy and scipy: pip install ".[train]"')
    from gamecore.train.dataset import positions_from_records  # noqa: PLC0415

    record = random_games(1, 6, seed=3)[0]
    plain = positions_from_records([record], 6)
    empties = plain.empties
    chosen = int(empties[len(empties) // 2])
    labelled = positions_from_records([record], 6, exact=[{chosen: 17}])
    changed = [i for i in range(len(plain)) if plain.label[i] != labelled.label[i]]
    assert changed == [i for i in range(len(plain)) if empties[i] == chosen]
    row = changed[0]
    flipped = positions_from_records([record], 6, exact=[{chosen: -17}])
    # Black's margin, turned to the mover's side: 17 one way, -17 the other.
    assert abs(float(labelled.label[row])) == 17 and float(flipped.label[row]) == -float(labelled.label[row])


def test_training_with_labels_records_them(tmp_path, transcripts):
    for name in ("numpy", "scipy"):
        pytest.importorskip(name, reason='the training needs numpy and scipy: pip install ".[train]"')
    out = tmp_path / "labels.txt"
    main(["train", "othello-label", "--size", "6", "--from", str(transcripts), "--out", str(out), "--quiet"])
    code = main(
        ["train", "othello", "--size", "6", "--from", str(transcripts), "--labels", str(out)]
        + ["--out", str(tmp_path / "w"), "--iterations", "5", "--held-out", "0.3", "--quiet"],
        out=io.StringIO(),
    )
    assert code == 0
    record = json.loads((tmp_path / "w" / "othello6.json").read_text())
    used = record["exact_labels"]["positions_used"]
    assert used == sum(1 for line in out.read_text().splitlines() if not line.startswith("#")) > 0


@pytest.mark.parametrize(
    "line",
    ["not a line", "------ X 3 g#0", "-" * 36 + " Z 3 g#0", "-" * 36 + " X three g#0"],
)
def test_a_damaged_label_file_is_one_clear_error(tmp_path, line):
    path = tmp_path / "bad.txt"
    path.write_text(line + "\n")
    with pytest.raises(InvalidOptionError, match="bad.txt:1"):
        labels.read_exact_labels([str(path)], 6)


def test_an_output_that_is_not_a_label_file_is_refused_and_kept(tmp_path, transcripts):
    out = tmp_path / "notes.txt"
    out.write_text("my notes, not labels\n")
    with pytest.raises(InvalidOptionError, match="notes.txt:1: not a label line"):
        labels.label_games([str(transcripts)], str(out), size=6, lo=6, hi=9)
    assert out.read_text() == "my notes, not labels\n"


@pytest.mark.parametrize("lo, hi", [(0, 5), (9, 8), (1, 40)])
def test_a_bad_range_is_refused(tmp_path, transcripts, lo, hi):
    with pytest.raises(InvalidOptionError, match="empties"):
        labels.label_games([str(transcripts)], str(tmp_path / "x.txt"), size=6, lo=lo, hi=hi)
    assert not (tmp_path / "x.txt").exists()
