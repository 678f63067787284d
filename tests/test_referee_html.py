"""The tournament's HTML page in a real headless browser (Chromium from the distribution):
a screenshot is taken and the standings and the replay are read back from the rendered page."""

from __future__ import annotations

import csv
import html
import re
import shutil
import subprocess
import sys

import pytest

from gamecore.referee.report import write_reports
from gamecore.referee.tournament import TournamentConfig, run_tournament
from referee_bots import needs_sandbox, write_bot

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's sandbox is Linux-only"),
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian: apt-get install chromium)"),
    needs_sandbox,
]


def _chromium(*args: str) -> subprocess.CompletedProcess:
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--virtual-time-budget=3000",
    ]
    return subprocess.run([str(CHROMIUM), *flags, *args], capture_output=True, text=True, timeout=120)


def test_html_page_in_headless_chromium(tmp_path):
    raiser = write_bot(tmp_path, "raiser")
    config = TournamentConfig(
        ["random", "greedy", raiser], sizes=[4, 6], time=1.0, db=str(tmp_path / "t.sqlite"), progress=False, workers=2
    )
    records = run_tournament(config)
    out = tmp_path / "out"
    write_reports(config, records, str(out))
    page = (out / "tournament.html").as_uri()

    shot = tmp_path / "page.png"
    result = _chromium(f"--screenshot={shot}", "--window-size=1200,1600", page)
    assert shot.exists() and shot.stat().st_size > 10_000, result.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    dom = _chromium("--dump-dom", page).stdout
    body = re.search(r'<table id="standings">.*?<tbody>(.*?)</tbody>', dom, re.S).group(1)
    shown = [
        [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]
    with open(out / "standings.csv", newline="", encoding="utf-8") as fh:
        expected = list(csv.reader(fh))[1:]
    assert [(r[1], r[2], r[3], r[4], r[5], r[6]) for r in shown] == [tuple(e) for e in expected]
    assert "raiser" in shown[-1][1] and "exception" in shown[-1][7]
    # The script ran: the replay shows the last game's final board and its moves.
    last = records[0]
    assert dom.count('class="cell') >= last["size"] ** 2
    assert f"Move {len(last['moves'])} of {len(last['moves'])}" in dom
    assert dom.count('class="stone s') == sum(last["score"])
    # Coordinates along the edges (a corner, a letter a column, a number a row), the move's time.
    assert dom.count('class="label"') == 2 * last["size"] + 1
    assert re.search(r"Move \d+ of \d+ \([0-9.]+ s of 1 s\)\.", dom)
    assert "<h1>Tournament: Othello 4x4 and 6x6, 1 s a move</h1>" in dom
