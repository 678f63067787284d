"""gamecore archive stats: openings named through symmetries and move orders, figures
checked against the WTHOR fixture's bytes read here independently."""

import io
import json
import shutil
import struct
from pathlib import Path

import pytest

from gamecore.archive import read_transcripts, read_wthor
from gamecore.archive.stats import archive_stats, margin_bin, opening_name, position_key
from gamecore.cli import main
from gamecore.games.othello import Othello

DATA = Path(__file__).parent / "data" / "archive"
WTB = DATA / "WTH_1977.wtb"


def named(moves, size=8):
    return opening_name(read_transcripts(moves, size=size)[0])


@pytest.mark.parametrize(
    ("moves", "name"),
    [
        ("f5d6c3d3c4", "Tiger"),
        ("e6f4c3c4d3", "Tiger"),  # transposed: e6 first
        ("d3c5f6f5e6", "Tiger"),  # the anti-diagonal mirror: d3 first
        ("c4e3f6e6f5", "Tiger"),  # half a turn: c4 first
        ("f5d6c3d3c4f4f6g5e3", "No-Kung"),  # the last named position on the way
        ("f5f6e6f4e3", "Cow"),  # listed as f5f6e6d6c5: the same position mirrored
        ("f5d6", "Perpendicular"),
        ("f5f4", "Parallel"),
        ("f5", None),
    ],
)
def test_openings_are_named_by_position(moves, name):
    assert named(moves) == name


def test_no_name_off_8x8_or_from_another_start():
    assert named("c2b2", size=6) is None


def test_position_key_is_the_same_for_every_mirror_image():
    keys = {position_key(Othello.from_moves(m)) for m in ("f5d6c3", "e6f4c3", "d3c5f6", "c4e3f6")}
    assert len(keys) == 1
    assert position_key(Othello.from_moves("f5d6c3")) != position_key(Othello.from_moves("f5d6c5"))


@pytest.mark.parametrize(("margin", "bin_"), [(0, 0), (1, 1), (8, 1), (9, 9), (64, 57), (-1, -1), (-8, -1), (-9, -9)])
def test_margin_bins_keep_draws_apart(margin, bin_):
    assert margin_bin(margin) == bin_


def raw_1977():
    """(black id, white id, black discs) of each game, read straight from the bytes."""
    data = WTB.read_bytes()
    return [struct.unpack_from("<HHHB", data, 16 + 68 * i)[1:] for i in range((len(data) - 16) // 68)]


def test_stats_of_the_1977_file_agree_with_its_bytes():
    raw = raw_1977()
    stats = archive_stats(read_wthor(WTB))
    assert stats.games == len(raw) == 12
    assert stats.results[1] == sum(discs > 32 for *_, discs in raw)
    assert stats.results[-1] == sum(discs < 32 for *_, discs in raw)
    assert stats.results[0] == sum(discs == 32 for *_, discs in raw)
    assert len(stats.players) == len({p for b, w, _ in raw for p in (b, w)}) == 5
    inoue = stats.players["Inoue Hiroshi"]  # id 346
    assert inoue.games == sum(346 in (b, w) for b, w, _ in raw)
    assert inoue.wins == sum((b == 346 and d > 32) or (w == 346 and d < 32) for b, w, d in raw)
    assert stats.theoretical == 12 and sum(stats.margins.values()) == 12
    assert sum(stats.openings.values()) <= 12 and stats.years == {1977: 12}


def run(*argv):
    out = io.StringIO()
    return main(["archive", "stats", *map(str, argv)], out=out), out.getvalue()


def test_cli_report_and_json(tmp_path):
    status, text = run(WTB, DATA / "games.ggf")
    assert status == 0
    assert "games: 15" in text and "Inoue Hiroshi" in text and "most played openings" in text
    assert "boards: 6x6 1, 8x8 14" in text
    status, text = run(WTB, "--json", "--top", "3")
    figures = json.loads(text)
    assert figures["games"] == 12 and figures["players"] == 5 and len(figures["most_games"]) == 3
    assert figures["years"] == [1977, 1977]
    transcript = tmp_path / "games.txt"
    transcript.write_text("f5d6c3d3c4 1\ne6f4c3c4d3 -1\n")
    status, text = run(transcript)
    assert status == 0 and "Tiger" in text and "black won 1 (50.0 %)" in text


def test_cli_damaged_file_is_one_error_line(tmp_path, capsys):
    broken = tmp_path / "WTH_1977.wtb"
    shutil.copy(WTB, broken)
    broken.write_bytes(broken.read_bytes()[:-5])
    status, text = run(broken)
    assert status == 1 and text == ""
    assert "gamecore: error: WTH_1977.wtb:" in capsys.readouterr().err
