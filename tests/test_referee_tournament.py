"""The referee's tournament: resume after SIGKILL, refusing a changed command, workers and Dask
giving the same results, course-framework bots and external programs taking part, the CLI and
its reports, the compliance check, ratings."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamecore import _progress
from gamecore._progress import Progress
from gamecore.adapters import ctu, ufrj
from gamecore.errors import GamecoreError
from gamecore.referee.bots import resolve
from gamecore.referee.check import check_bot
from gamecore.referee.cluster import dask_available, local_cluster
from gamecore.referee.play import play_game
from gamecore.referee.report import ratings, standings, write_reports
from gamecore.referee.scoring import Match, StandingsRow, matches
from gamecore.referee.tournament import TournamentConfig, run_tournament
from referee_bots import EXPECTED_REASON, needs_sandbox, stray_processes, write_bot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's sandbox is Linux-only")

PYTHON_DIR = str(Path(str(__import__("gamecore").__file__)).resolve().parent.parent)
DETERMINISTIC = ["random:seed=3", "greedy", "corner"]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _referee(*args, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "gamecore.referee", *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        **kwargs,
    )


def _summary(records):
    return [(r["key"], r["players"], [m["move"] for m in r["moves"]], r["places"], r["forfeits"]) for r in records]


def _rows(path):
    return list(csv.reader(open(path, newline="", encoding="utf-8")))


def test_resume_after_sigkill_loses_and_repeats_nothing(tmp_path):
    common = [*DETERMINISTIC, "--sizes", "4", "--time", "2", "--workers", "1", "--no-progress"]
    total = 3 * 2
    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecore.referee", *common, "--db", str(db)],
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    done = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        if db.exists():
            try:
                with sqlite3.connect(db) as conn:
                    done = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            except sqlite3.OperationalError:
                continue
            if done >= 2:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 2 <= done < total, "the referee should have been killed mid-tournament"
    with sqlite3.connect(db) as conn:
        before = dict(conn.execute("SELECT key, record FROM games"))
    # bots die with the referee (parent-death signal, PID namespace)
    for _ in range(100):
        if not stray_processes(proc.pid):
            break
        time.sleep(0.1)
    assert stray_processes(proc.pid) == []
    resumed = _referee(*common, "--db", str(db), "--out", str(tmp_path / "resumed"))
    assert resumed.returncode == 0, resumed.stderr
    with sqlite3.connect(db) as conn:
        keys = [k for (k,) in conn.execute("SELECT key FROM games")]
        after = dict(conn.execute("SELECT key, record FROM games"))
    assert len(keys) == len(set(keys)) == total
    assert all(after[k] == v for k, v in before.items())  # finished games kept as they were, not replayed
    straight = _referee(*common, "--db", str(tmp_path / "straight.sqlite"), "--out", str(tmp_path / "straight"))
    assert straight.returncode == 0, straight.stderr
    assert _rows(tmp_path / "resumed" / "standings.csv") == _rows(tmp_path / "straight" / "standings.csv")
    resumed_games = json.loads((tmp_path / "resumed" / "games.json").read_text())
    straight_games = json.loads((tmp_path / "straight" / "games.json").read_text())
    assert [(g["key"], [m["move"] for m in g["moves"]]) for g in resumed_games] == [
        (g["key"], [m["move"] for m in g["moves"]]) for g in straight_games
    ]


def test_a_changed_command_is_refused(tmp_path):
    db = str(tmp_path / "t.sqlite")
    first = _referee("random", "greedy", "--sizes", "4", "--time", "1", "--db", db, "--no-progress")
    assert first.returncode == 0, first.stderr
    changed = _referee("random", "greedy", "--sizes", "4", "--time", "2", "--db", db, "--no-progress")
    assert changed.returncode == 1
    assert "holds a different tournament" in changed.stderr and "time" in changed.stderr
    again = _referee("random", "greedy", "--sizes", "4", "--time", "1", "--db", db, "--no-progress", "--workers", "2")
    assert again.returncode == 0  # the same tournament (workers do not change results): resumes, nothing to play
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2


def _play(tmp_path, name, **kwargs):
    config = TournamentConfig(
        DETERMINISTIC, sizes=[4], time=2.0, db=str(tmp_path / f"{name}.sqlite"), progress=False, **kwargs
    )
    records = run_tournament(config)
    return standings(config, records), _summary(records)


def test_standings_and_matches_are_the_typed_rows_they_declare(tmp_path):
    config = TournamentConfig(
        DETERMINISTIC, sizes=[4], time=2.0, db=str(tmp_path / "typed.sqlite"), progress=False, workers=1
    )
    records = run_tournament(config)
    rows = standings(config, records)
    assert rows and all(list(row) == list(StandingsRow.__annotations__) for row in rows)
    played = matches(config, records)
    assert played and all(set(m) == set(Match.__annotations__) for m in played)
    for row in rows:  # the counts agree with the matches and games they come from
        mine = [m["result"][row["player"]] for m in played if row["player"] in m["players"]]
        assert (row["matches_won"], row["matches_drawn"], row["matches_lost"]) == (
            mine.count("won"),
            mine.count("drawn"),
            mine.count("lost"),
        )
        assert row["games"] == sum(row["player"] in r["players"] for r in records)


def test_two_workers_and_dask_give_the_same_results_as_one(tmp_path):
    one = _play(tmp_path, "one", workers=1)
    assert _play(tmp_path, "two", workers=2) == one
    if not dask_available():
        pytest.skip('Dask distributed is not installed (pip install "gamecore[cluster]")')
    with local_cluster(2) as address:  # a scheduler reached by its address, as on a cluster
        assert address.startswith("tcp://")
        assert _play(tmp_path, "dask", scheduler=address) == one


UFRJ_RANDOM = """
import random


class RandomPlayer:
    def __init__(self, color):
        self.color = color
        self.rng = random.Random(7)

    def play(self, board):
        return self.rng.choice(board.valid_moves(self.color))
"""

SHELL_BOT = r"""#!/bin/sh
# A bot in another language: requests on stdin, replies on fd 3 (the first legal move).
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*) echo "printing is harmless"; echo '{"type":"ready","name":"sh"}' >&3 ;;
    *'"type":"move"'*) m=$(printf '%s' "$line" | sed 's/.*"legal":\["\([^"]*\)".*/\1/')
                       printf '{"type":"move","move":"%s"}\n' "$m" >&3 ;;
    *) exit 0 ;;
  esac
done
"""


@needs_sandbox
def test_course_framework_bots_exports_and_programs_take_part(tmp_path):
    ctu.export_player(str(tmp_path / "exported" / "player.py"), time=0.2, depth=2)
    ctu.export_player(str(tmp_path / "standalone" / "player.py"), time=0.2, depth=2, standalone=True)
    ufrj.export_player(str(tmp_path / "ufrj" / "gamecore_player.py"), time=0.2, depth=2)
    (tmp_path / "ufrj" / "random_player.py").write_text(UFRJ_RANDOM)
    honest = write_bot(tmp_path, "honest")
    shell = tmp_path / "shbot"
    shell.write_text(SHELL_BOT)
    shell.chmod(0o755)
    players = [
        str(tmp_path / "exported"),
        str(tmp_path / "standalone" / "player.py"),
        str(tmp_path / "ufrj" / "gamecore_player.py"),
        str(tmp_path / "ufrj" / "random_player.py"),
        honest,
        str(shell),
    ]
    config = TournamentConfig(
        players, sizes=[6], time=1.0, grace=0.5, games=1, db=str(tmp_path / "t.sqlite"), progress=False, workers=2
    )
    records = run_tournament(config)
    names = [b["name"] for b in config.bots]
    assert names == ["exported", "standalone", "gamecore_player.py", "random_player.py", "honest", "shbot"]
    assert [b["kind"] for b in config.bots] == ["ctu", "ctu", "ufrj", "ufrj", "ctu", "external"]
    assert len(records) == 15
    assert [r["forfeits"] for r in records if r["forfeits"]] == []
    rows = {r["player"]: r for r in standings(config, records)}
    assert rows["shbot"]["games"] == 5
    # the searching exports beat the random UFRJ player
    assert all(
        r["winner"] != "random_player.py"
        for r in records
        if "random_player.py" in r["players"] and {"exported", "standalone"} & set(r["players"])
    )


def test_tetralath_tournament(tmp_path):
    config = TournamentConfig(
        ["random:seed=1", "random:seed=2", "engine:depth=2"],
        game="tetralath",
        time=2.0,
        db=str(tmp_path / "t.sqlite"),
        progress=False,
        workers=2,
    )
    records = run_tournament(config)
    assert len(records) == 6 and all(r["size"] == 61 and not r["forfeits"] for r in records)
    assert all(r["reason"] in ("four in a row", "three in a row", "full board") for r in records)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("this is not json", "protocol"),
        ('{"type":"move","move":["d3"],"printed":"lots"}', "bad_return"),
        ('{"type":"error","reason":["unhashable"],"detail":{"a":1}}', "exception"),
        ('{"type":"move","move":"z99"}', "illegal_move"),
        ("[" * 60000, "protocol"),
    ],
)
@needs_sandbox
def test_garbage_replies_forfeit_without_hurting_the_referee(tmp_path, reply, reason):
    bot = tmp_path / "garbage"
    bot.write_text(SHELL_BOT.replace("""printf '{"type":"move","move":"%s"}\\n' "$m" >&3""", f"echo '{reply}' >&3"))
    bot.chmod(0o755)
    task = {
        "key": "t/6/0-1/g0",
        "game": "othello",
        "size": 6,
        "seed": 0,
        "bots": [resolve(str(bot)), resolve("random")],
        "rules": {"time": 1.0, "grace": 0.7, "startup": 20.0},
    }
    record = play_game(task)
    assert [(f["player"], f["reason"]) for f in record["forfeits"]] == [("garbage", reason)]


@needs_sandbox
def test_rolit_four_seat_tables(tmp_path):
    corner = tmp_path / "cornerbot"
    corner.write_text(SHELL_BOT.replace("%s", "a1"))  # a1 is never legal early in Rolit
    corner.chmod(0o755)
    config = TournamentConfig(
        ["random:seed=1", "random:seed=2", "random:seed=3", str(corner)],
        game="rolit",
        time=2.0,
        db=str(tmp_path / "t.sqlite"),
        progress=False,
        workers=2,
    )
    records = run_tournament(config)
    assert config.games == 4 and len(records) == 4  # one table, every bot in every seat
    assert sorted(r["players"].index("cornerbot") for r in records) == [0, 1, 2, 3]
    assert all(r["forfeits"] and {f["player"] for f in r["forfeits"]} == {"cornerbot"} for r in records)
    assert {f["reason"] for r in records for f in r["forfeits"]} == {"illegal_move"}
    rows = {r["player"]: r for r in standings(config, records)}
    assert rows["cornerbot"]["points"] == 0 and rows["cornerbot"]["matches_lost"] == 1
    # the three others drew every game: they share the first three places' points (2, 4/3, 2/3)
    assert [rows[f"random:seed={i}"]["points"] for i in (1, 2, 3)] == [pytest.approx(4 / 3)] * 3
    honest = TournamentConfig(
        [f"random:seed={i}" for i in range(1, 5)],
        game="rolit",
        time=2.0,
        db=str(tmp_path / "h.sqlite"),
        progress=False,
        workers=2,
    )
    played = run_tournament(honest)
    assert all(len(r["moves"]) == 60 and not r["forfeits"] and r["reason"] == "full board" for r in played)
    table = standings(honest, played)
    assert sum(r["points"] for r in table) == pytest.approx(2 + 4 / 3 + 2 / 3)
    write_reports(honest, played, str(tmp_path / "out"))
    page = (tmp_path / "out" / "tournament.html").read_text()
    assert '"boards":' in page and ".rolit .s3" in page


@needs_sandbox
def test_cli_reports(tmp_path):
    out = tmp_path / "out"
    bot = write_bot(tmp_path, "raiser")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecore",
            "tournament",
            "random",
            "champ=greedy",
            bot,
            "--sizes",
            "4",
            "6",
            "--time",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "games" not in result.stderr  # no progress bar when not on a terminal
    rows = _rows(out / "standings.csv")
    assert rows[0] == ["player", "points", "matches_won", "matches_drawn", "matches_lost", "forfeits"]
    table = {r[0]: r for r in rows[1:]}
    assert table["raiser"][1:] == ["0", "0", "0", "4", "8"]  # it raises in all eight games: four matches lost
    assert float(table["champ"][1]) + float(table["random"][1]) == 2 * 4 + 2 * 2  # their own 2 matches + 4 won
    games = json.loads((out / "games.json").read_text())
    assert len(games) == 12
    for g in games:
        assert {"players", "size", "first", "moves", "result", "termination", "reason"} <= set(g)
        assert g["first"] == g["players"][0]
    assert {g["reason"] for g in games if g["termination"] == "forfeit"} == {"raiser: exception"}
    assert (out / "tournament.sqlite").exists() and oct((out / "tournament.sqlite").stat().st_mode & 0o777) == "0o600"
    assert "| 1 |" in (out / "tournament.md").read_text()
    html_text = (out / "tournament.html").read_text()
    assert "<script" in html_text and "src=" not in html_text  # self-contained


@needs_sandbox
def test_compliance_check_flags_each_hostile_bot(tmp_path, capsys):
    for name, reason in EXPECTED_REASON.items():
        out = io.StringIO()
        code = check_bot(write_bot(tmp_path, name), size=6, time_limit=0.5, grace=0.7, games=1, memory_mb=512, out=out)
        assert code == 1 and f"FORFEIT ({reason}:" in out.getvalue(), out.getvalue()
    out = io.StringIO()
    assert check_bot(write_bot(tmp_path, "spammer"), size=6, time_limit=0.5, grace=0.7, games=1, out=out) == 0
    assert "OK: nothing would forfeit" in out.getvalue() and "WARNING: it printed" in out.getvalue()
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "gamecore",
            "tournament",
            "check",
            write_bot(tmp_path, "honest"),
            "--size",
            "6",
            "--time",
            "1",
        ],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert cli.returncode == 0 and "OK: nothing would forfeit" in cli.stdout, cli.stdout + cli.stderr
    assert stray_processes() == []


def test_bad_players_are_refused_clearly(tmp_path):
    for players, message in (
        (["random"], "at least 2"),
        (["random", "nosuchplayer"], "unknown player"),
        (["random", "random"], "called random"),
        (["random", str(tmp_path / "x.py")], "no such file"),
    ):
        with pytest.raises(GamecoreError, match=message):
            TournamentConfig(players, db=str(tmp_path / "t.sqlite")).resolve()


def _likelihood_root(wins: float, games: int) -> float:
    """The rating difference (natural units) of two players, one scoring ``wins`` of ``games``
    against the other, each with a virtual win and loss against a reference at 0: solved by
    bisection on the symmetric solution r, -r of the likelihood equations."""
    lo, hi = -20.0, 20.0
    for _ in range(200):
        r = (lo + hi) / 2
        p_ab = 1 / (1 + math.exp(-2 * r))
        p_ref = 1 / (1 + math.exp(-r))
        grad = (wins - games * p_ab) + (1 - 2 * p_ref)
        lo, hi = (r, hi) if grad > 0 else (lo, r)
    return 2 * r


def test_ratings_match_the_likelihood_equations():
    records = [{"players": ["a", "b"], "places": [0, 1]}] * 3 + [{"players": ["b", "a"], "places": [0, 1]}]
    result = ratings(["a", "b"], records)
    expected = _likelihood_root(3, 4) * 400 / math.log(10)
    assert result["a"][0] - result["b"][0] == pytest.approx(expected, abs=1e-6)
    assert result["a"][0] == pytest.approx(-result["b"][0])
    assert result["a"][1] == pytest.approx(result["b"][1]) and result["a"][1] > 0


def test_progress_bar_shows_games_leader_and_time_left(monkeypatch):
    # the tournament's line is gamecore._progress's (its own tests: tests/test_progress.py)
    monkeypatch.setattr(_progress, "REDRAW_SECONDS", 0.0)
    stream = io.StringIO()
    bar = Progress(10, "games", label="tournament", stream=stream, tty=True, done=2)
    bar.update(2, lambda: "leader: nobody yet")
    bar.update(5, lambda: "leader: greedy (4 pts)")
    bar.finish()
    text = stream.getvalue()
    assert "2/10 games" in text and "5/10 games" in text and "leader: greedy (4 pts)" in text
    assert re.search(r"about \d+ s left", text) and text.endswith("\n")
    quiet = io.StringIO()
    Progress(10, stream=quiet).update(1, lambda: "x")  # not a terminal, and no time has passed
    assert quiet.getvalue() == ""
