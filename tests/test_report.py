"""``gamecore compare rolit``: a short run writes every file, the PDF on exactly one page."""

from __future__ import annotations

import csv
import importlib.util
import re

import pytest

from gamecore import cli

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def _pdf_pages(path):
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", path.read_bytes()))


def test_compare_rolit_two_games_writes_all_files(tmp_path, capsys):
    out = tmp_path / "report"
    status = cli.main(["compare", "rolit", "--games", "2", "--time", "0.01", "--out", str(out), "--seed", "3"])
    assert status == 0
    printed = capsys.readouterr().out
    assert "report written to" in printed
    summary = list(csv.DictReader((out / "summary.csv").open()))
    assert [row["algorithm"] for row in summary] == ["maxn", "paranoid", "brs", "mcts"]
    assert all(int(row["games"]) == 2 for row in summary)
    assert sum(int(row["wins"]) for row in summary) == 2  # one winner a game by the tie rule
    games = list(csv.DictReader((out / "games.csv").open()))
    assert len(games) == 8 and all(int(row["moves"]) == 15 for row in games)  # 60 plies, 4 seats
    assert sum(int(row["balls"]) for row in games) == 2 * 64
    # Seats rotated: in game 1 every algorithm sits one colour earlier.
    seat = {(row["game"], row["colour"]): row["algorithm"] for row in games}
    assert [seat["0", c] for c in "RBYG"] == ["maxn", "paranoid", "brs", "mcts"]
    assert [seat["1", c] for c in "RBYG"] == ["paranoid", "brs", "mcts", "maxn"]
    text = (out / "report.md").read_text()
    assert "| Max^n (shallow pruning) | 2 |" in text and "25% is chance" in text
    if not HAVE_MATPLOTLIB:
        assert "pip install" in printed
        pytest.skip("matplotlib is not installed: no charts nor PDF")
    for name in ("charts.png", "win_rate.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG")
    pdf = out / "report.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    assert _pdf_pages(pdf) == 1


def test_compare_rejects_bad_options(capsys):
    assert cli.main(["compare", "rolit", "--games", "0"]) == 2
    assert cli.main(["compare", "chess"]) == 2
