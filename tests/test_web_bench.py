"""The concurrency bench of the web board, in its quick form (python -m gamecore.web.bench
gives the figure): many engine games think while a person's requests are answered."""

from __future__ import annotations

import pytest

WEB_EXTRA = 'the web extra and httpx2: pip install ".[web]" httpx2'
pytest.importorskip("starlette", reason=WEB_EXTRA)
pytest.importorskip("uvicorn", reason=WEB_EXTRA)
pytest.importorskip("httpx2", reason=WEB_EXTRA)

from gamecore.web.bench import main, run_bench  # noqa: E402


def test_requests_are_answered_while_twenty_engine_games_think():
    # 20 sessions of engine against engine while a person's tab asks for the page, its
    # script, a game's state and moves: every request is answered (200), the engines play on.
    found = run_bench(sessions=20, requests=40, move_time=0.1)
    assert found["requests"] == 40 and found["statuses"] == {200: 40}
    assert found["engine_moves"] >= 10  # the engines played meanwhile
    assert 0 < found["median_ms"] <= found["p95_ms"] <= found["max_ms"]


def test_the_command_prints_its_figure(capsys):
    assert main(["--sessions", "2", "--requests", "4", "--time", "0.2"]) == 0
    line = capsys.readouterr().out
    assert "2 sessions of engine vs engine" in line and "latency median" in line and "ms" in line
