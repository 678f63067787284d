"""How quickly the web board answers while many engines think.

    python -m gamecore.web.bench --sessions 20 --requests 400

starts ``gamecore serve`` in a child process (the backend of ``GAMECORE_BACKEND``), opens
``--sessions`` games of engine against engine (Othello 8x8, ``--time`` seconds a move), and
while they think, times what a person's tab asks for: the page, its script, a game's state
and a move in a game of two humans. It prints the latency (median, 95th percentile, worst)
in wall-clock milliseconds, and how many moves the engines made meanwhile. These are
wall-clock figures of this machine under that load: compare them on one machine only.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx2 as httpx  # the client Starlette's tests now ask for (httpx's successor)

__all__ = ["run_bench", "main"]

ENGINES = [{"player": "engine", "time": 0.5}, {"player": "engine", "time": 0.5}]
HUMANS = [{"player": "human"}, {"player": "human"}]
#: Moves of a human game, played and taken back over and over.
MOVES = ("f5", "d6", "c3", "d3", "c4")


def _start_server(sessions: int) -> tuple[subprocess.Popen[str], str]:
    command = [
        sys.executable,
        "-m",
        "gamecore",
        "serve",
        "--no-browser",
        "--port",
        "0",
        "--sessions",
        # one client may hold half the sessions (web/app.py's per-client cap): the bench is one
        # client with its engine games and a person's tab
        str(2 * (sessions + 2)),
    ]
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=os.environ.copy()
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
    if not found:
        child.kill()
        raise RuntimeError(f"gamecore serve did not start: {line.strip()} {child.stdout.read()[:500]}")
    return child, found.group(1)


def run_bench(sessions: int = 20, requests: int = 400, move_time: float = 0.5) -> dict[str, Any]:
    """Measure; returns the latencies (ms), the requests' statuses and the engines' moves."""
    child, url = _start_server(sessions)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            seats = [dict(seat, time=move_time) for seat in ENGINES]
            thinking = []
            for _ in range(sessions):
                sid = client.post("/api/sessions", json={}).json()["id"]
                client.post(
                    f"/api/sessions/{sid}/new", json={"game": "othello", "options": {"size": 8}, "seats": seats}
                )
                thinking.append(sid)
            human = client.post("/api/sessions", json={}).json()["id"]
            client.post(f"/api/sessions/{human}/new", json={"game": "othello", "options": {"size": 8}, "seats": HUMANS})
            time.sleep(1.0)  # every engine under way
            latencies: list[float] = []
            statuses: dict[int, int] = {}
            for k in range(requests):
                kind = k % 4
                start = time.perf_counter()
                if kind == 0:
                    response = client.get("/")
                elif kind == 1:
                    response = client.get("/static/app.js")
                elif kind == 2:
                    response = client.get(f"/api/sessions/{thinking[k % sessions]}")
                else:
                    ply = (k // 4) % (len(MOVES) + 1)
                    action = ("move", {"move": MOVES[ply]}) if ply < len(MOVES) else ("goto", {"ply": 0})
                    response = client.post(f"/api/sessions/{human}/{action[0]}", json=action[1])
                latencies.append((time.perf_counter() - start) * 1000)
                statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
                time.sleep(0.01)
            moves = sum(client.get(f"/api/sessions/{sid}").json()["ply"] for sid in thinking)
            still = sum(1 for sid in thinking if client.get(f"/api/sessions/{sid}").json()["thinking"] is not None)
    finally:
        child.terminate()
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
    latencies.sort()
    return {
        "sessions": sessions,
        "requests": len(latencies),
        "statuses": statuses,
        "median_ms": statistics.median(latencies),
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
        "max_ms": latencies[-1],
        "engine_moves": moves,
        "thinking_at_end": still,
        "backend": os.environ.get("GAMECORE_BACKEND", "auto"),
        "cpus": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gamecore.web.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=20, help="games of engine against engine (default 20)")
    parser.add_argument("--requests", type=int, default=400, help="requests to time (default 400)")
    parser.add_argument("--time", type=float, default=0.5, help="the engines' seconds a move (default 0.5)")
    args = parser.parse_args(argv)
    found = run_bench(args.sessions, max(1, args.requests), args.time)
    print(
        f"{found['sessions']} sessions of engine vs engine (Othello 8x8, {args.time:g} s a move, backend "
        f"{found['backend']}, {found['cpus']} CPUs): {found['requests']} page requests while they thought, "
        f"statuses {found['statuses']}; latency median {found['median_ms']:.1f} ms, 95th percentile "
        f"{found['p95_ms']:.1f} ms, worst {found['max_ms']:.1f} ms; the engines made {found['engine_moves']} moves "
        f"({found['thinking_at_end']} thinking at the end)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
