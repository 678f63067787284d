"""The referee against hostile submissions and databases (issue 18): submissions are data, the
referee never blocks on a bot, its own set-up failures are never stored, one referee per
database, damaged databases and hostile names give clear results. Each test names its row."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import threading
import unicodedata
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from gamecore.errors import GamecoreError
from gamecore.referee import play as play_module
from gamecore.referee.bots import MAX_FILES, resolve
from gamecore.referee.db import ResultsDB
from gamecore.referee.play import play_game
from gamecore.referee.report import markdown, write_reports
from gamecore.referee.rules import DEFAULT_RULES, Rules, RulesDict
from gamecore.referee.sandbox import BASIC_WARNING, BotProcess, SandboxError
from gamecore.referee.scoring import elo_text, standings
from gamecore.referee.tournament import TournamentConfig, run_tournament
from referee_bots import HONEST, needs_sandbox, stray_processes, write_bot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's sandbox is Linux-only")

PYTHON_DIR = str(Path(str(__import__("gamecore").__file__)).resolve().parent.parent)
FAST: dict[str, Any] = dict(time=1.0, grace=0.7, startup=20.0, progress=False, workers=2)


def _task(bots: list[dict], size: int = 6, **rules: float) -> dict:
    return {
        "key": f"t/{size}/0-1/g0",
        "game": "othello",
        "size": size,
        "seed": 0,
        "bots": bots,
        "rules": {"time": 1.0, "grace": 0.7, "startup": 20.0} | rules,
    }


def _finishes(function, seconds: float = 60.0):
    """``function()``'s result, or a failed test if it is still running after ``seconds``
    (the old referee hung forever on these bots: the test must fail, not hang)."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = function()
        except BaseException as exc:  # handed to the test thread
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds:g} s: the referee blocked"
    if "error" in box:
        raise box["error"]
    return box["value"]


def _bot(folder: Path, name: str) -> str:
    """An honest CTU bot in ``folder/name``; returns that folder."""
    path = folder / name
    path.mkdir(parents=True)
    (path / "player.py").write_text(HONEST)
    return str(path)


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = PYTHON_DIR + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _referee(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [sys.executable, "-m", "gamecore.referee", *args], env=_env(), capture_output=True, text=True, timeout=300
    )
    # built-in players run without the sandbox too, saying so first (as root without bubblewrap)
    result.stderr = result.stderr.replace(BASIC_WARNING + "\n", "")
    return result


# -- rows 5, 6, 7, 16, 19: submissions are data ---------------------------------------------------


def test_row5_links_in_a_submission_are_refused_never_followed(tmp_path):
    bob = _bot(tmp_path, "bob")
    alice = _bot(tmp_path, "alice")
    os.symlink("/etc/shadow", os.path.join(alice, "shadow"))
    os.symlink("/proc/self/environ", os.path.join(alice, "env"))
    os.symlink("../bob/player.py", os.path.join(alice, "b.py"))
    bot = resolve(alice)
    assert bot["files"] == {}  # nothing of what the links point at was read
    assert bot["refused"] == "alice/b.py is a symbolic link: a submission holds regular files and folders only"
    # a link to a folder is refused too, not walked; so is a link at the player's own name
    carol = tmp_path / "carol"
    carol.mkdir()
    (carol / "player.py").symlink_to(Path(bob) / "player.py")
    assert "player.py is a symbolic link" in resolve(str(carol))["refused"]
    dave = Path(_bot(tmp_path, "dave"))
    (dave / "lib").symlink_to("/etc")
    assert (
        resolve(str(dave))["refused"]
        == "dave/lib is a symbolic link: a submission holds regular files and folders only"
    )
    # the refused bot forfeits with the rule, unstarted; its opponent is not charged anything
    record = play_game(_task([bot, resolve(bob)]))
    assert [(f["player"], f["reason"], f["detail"]) for f in record["forfeits"]] == [
        ("alice", "refused", bot["refused"])
    ]
    assert record["winner"] == "bob" and record["moves"] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_row6_devices_fifos_and_proc_links_never_hang_the_referee(tmp_path):
    kmsg = Path(_bot(tmp_path, "kmsg"))
    (kmsg / "log").symlink_to("/proc/kmsg")  # reading it blocks until the kernel logs something
    fifo = Path(_bot(tmp_path, "fifo"))
    os.mkfifo(fifo / "pipe")  # opening it for reading blocks until a writer comes
    device = Path(_bot(tmp_path, "device"))
    os.mknod(device / "null", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    refused = _finishes(lambda: [resolve(str(p))["refused"] for p in (kmsg, fifo, device)], 20)
    assert refused == [
        "kmsg/log is a symbolic link: a submission holds regular files and folders only",
        "fifo/pipe is a FIFO: a submission holds regular files and folders only",
        "device/null is a character device: a submission holds regular files and folders only",
    ]
    # a one-file player that is itself a FIFO or a link is refused alike
    os.mkfifo(tmp_path / "lonely_player.py")
    assert "is a FIFO" in _finishes(lambda: resolve(str(tmp_path / "lonely_player.py"))["refused"], 20)


@needs_sandbox
def test_row7_the_digest_is_stable_run_to_run(tmp_path):
    bot = Path(_bot(tmp_path, "statlink"))
    (bot / "stat").symlink_to("/proc/self/stat")  # its content changes with every read
    digests = {resolve(str(bot))["digest"] for _ in range(3)}
    fresh = subprocess.run(
        [sys.executable, "-c", f"from gamecore.referee.bots import resolve; print(resolve({str(bot)!r})['digest'])"],
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    digests.add(fresh.stdout.strip())
    assert len(digests) == 1
    # so its tournament resumes: the same command on the same database plays nothing again
    db = str(tmp_path / "t.sqlite")
    first = run_tournament(TournamentConfig(["random", str(bot)], sizes=[4], db=db, **FAST))
    again = run_tournament(TournamentConfig(["random", str(bot)], sizes=[4], db=db, **FAST))
    assert again == first and {f["reason"] for r in first for f in r["forfeits"]} == {"refused"}


@needs_sandbox
def test_row16_file_count_and_byte_limits_with_options(tmp_path):
    many = Path(_bot(tmp_path, "many"))
    for i in range(MAX_FILES):  # with player.py: one more than the default limit
        (many / f"empty{i:05d}").touch()
    bot = resolve(str(many))
    assert bot["refused"].endswith(
        f": the submission holds more than {MAX_FILES} files and folders (the limit is --submission-files)"
    )
    assert len(resolve(str(many), max_files=MAX_FILES + 1)["files"]) == MAX_FILES + 1
    big = Path(_bot(tmp_path, "big"))
    (big / "weights.bin").write_bytes(b"\0" * (1 << 20))
    assert resolve(str(big))["files"]["weights.bin"] == b"\0" * (1 << 20)
    assert resolve(str(big), max_bytes=1 << 20)["refused"] == (
        f"big/weights.bin: the submission holds more than {1 << 20} bytes (the limit is --submission-mb)"
    )
    # the command-line options, and a refused bot does not stop the tournament
    out = tmp_path / "out"
    run = _referee("random", "greedy", str(many), "--sizes", "4", "--no-progress", "--out", str(out))
    assert run.returncode == 0, run.stderr
    games = json.loads((out / "games.json").read_text())
    assert len(games) == 6
    assert [g["reason"] for g in games if "many" in g["players"]] == ["many: refused"] * 4
    assert [g["termination"] for g in games if "many" not in g["players"]] == ["normal"] * 2
    limited = _referee(
        "random", str(big), "--sizes", "4", "--no-progress", "--submission-mb", "0.5", "--db", str(tmp_path / "b.db")
    )
    assert limited.returncode == 0 and "refused 2" in limited.stdout, limited.stdout + limited.stderr
    roomy = _referee(
        "random",
        str(many),
        "--sizes",
        "4",
        "--no-progress",
        "--submission-files",
        "2000",
        "--db",
        str(tmp_path / "m.db"),
    )
    assert roomy.returncode == 0 and "forfeits" not in roomy.stdout, roomy.stdout + roomy.stderr


@needs_sandbox
def test_row19_a_folder_and_files_named_in_no_utf8_play_normally(tmp_path):
    root = os.fsencode(tmp_path)
    folder = os.path.join(root, b"\xe9l\xe8ve")  # Latin-1, as Windows zip tools write names
    os.makedirs(folder)
    with open(os.path.join(folder, b"player.py"), "w") as fh:
        fh.write("with open('donn\\udce9es.txt', 'rb') as fh:\n    TABLE = fh.read()\n" + HONEST)
    with open(os.path.join(folder, b"donn\xe9es.txt"), "wb") as fh:
        fh.write(b"\xff\x00 table")
    bot = resolve(os.fsdecode(folder))
    assert bot["name"] == "\\xe9l\\xe8ve" and "refused" not in bot
    assert {os.fsencode(path): data for path, data in bot["files"].items()}[b"donn\xe9es.txt"] == b"\xff\x00 table"
    config = TournamentConfig(
        ["random", "greedy", os.fsdecode(folder)],
        sizes=[4],
        db=str(tmp_path / "t.sqlite"),
        out=str(tmp_path / "out"),
        **FAST,
    )
    records = run_tournament(config)
    assert [r["forfeits"] for r in records] == [[]] * 6
    write_reports(config, records, str(tmp_path / "out"))
    assert "\\xe9l\\xe8ve" in (tmp_path / "out" / "standings.csv").read_text(encoding="utf-8")


# -- rows 8 and 18: the referee never blocks on a bot --------------------------------------------

PIPE_SHRINKER = r"""#!/usr/bin/env python3
# Shrinks its request pipe to one page, then answers every request it sees without reading it:
# it peeks at its standard input with tee(2), so the pipe only fills up.
import ctypes, fcntl, json, os, time
F_SETPIPE_SZ = 1031
libc = ctypes.CDLL(None, use_errno=True)
peek_r, peek_w = os.pipe()
fcntl.fcntl(peek_w, F_SETPIPE_SZ, 1 << 20)
answered = 0
seen = b""
while True:
    copied = libc.tee(0, peek_w, 1 << 20, 2)  # SPLICE_F_NONBLOCK
    if copied > 0:
        seen = os.read(peek_r, 1 << 20)
    lines = seen.split(b"\n")[:-1]
    for line in lines[answered:]:
        request = json.loads(line)
        if request["type"] == "start":
            os.write(3, b'{"type":"ready","name":"shrinker"}\n')
            try:
                fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
            except OSError:
                pass
        elif request["type"] == "move":
            os.write(3, json.dumps({"type": "move", "move": request["legal"][0]}).encode() + b"\n")
    answered = len(lines)
    time.sleep(0.01)
"""


@needs_sandbox
def test_row8_a_bot_that_never_reads_times_out_and_the_game_is_stored(tmp_path):
    shrinker = tmp_path / "shrinker"
    shrinker.write_text(PIPE_SHRINKER)
    shrinker.chmod(0o755)
    config = TournamentConfig([str(shrinker), "random"], sizes=[10], games=1, db=str(tmp_path / "t.sqlite"), **FAST)
    records = _finishes(lambda: run_tournament(config), 120)
    [record] = records
    assert [(f["player"], f["reason"]) for f in record["forfeits"]] == [("shrinker", "timeout")]
    assert len(record["moves"]) >= 4  # it played while the requests still fit in its pipe
    with sqlite3.connect(tmp_path / "t.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    assert stray_processes() == []


SILENT_START = """
import os, time


def since_start():  # seconds since this process began (the referee started it then)
    with open("/proc/self/stat") as fh:
        began = int(fh.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime") as fh:
        return float(fh.read().split()[0]) - began


time.sleep(max(0.0, STALL - since_start()))
os.closerange(3, 1024)  # the channel closes while the host lives on: the referee reads EOF
time.sleep(60)
"""


@needs_sandbox
def test_row18_a_silent_seat_0_cannot_make_seat_1_forfeit(tmp_path):
    silent = tmp_path / "silent"
    silent.mkdir()
    # Seat 0's channel closes just before the start-up deadline and the referee spends 0.5 s
    # learning how its process ended: seat 1's reply, long in the pipe, must still count.
    (silent / "player.py").write_text("STALL = 3.7\n" + SILENT_START + HONEST)
    honest = write_bot(tmp_path, "honest")
    record = play_game(_task([resolve(str(silent)), resolve(honest)], startup=4.0))
    # (a wrapper process may hold the channel open: then seat 0 simply never answers)
    assert [f["player"] for f in record["forfeits"]] == ["silent"], record["forfeits"]
    assert record["forfeits"][0]["reason"] in ("crash", "startup_timeout")
    assert stray_processes() == []


# -- the referee's own set-up failures ------------------------------------------------------------


def test_a_sandbox_the_referee_cannot_build_stops_the_tournament_and_is_never_stored(tmp_path, monkeypatch):
    db = str(tmp_path / "t.sqlite")
    real = BotProcess
    started = []

    def failing(spec, **kwargs):
        started.append(spec["name"])
        if spec["name"] == "corner" and len(started) > 6:
            raise SandboxError("the cgroup could not be made (a stand-in failure)")
        return real(spec, **kwargs)

    monkeypatch.setattr(play_module, "BotProcess", failing)
    players = ["random:seed=3", "greedy", "corner"]
    config = TournamentConfig(players, sizes=[4], db=db, **(FAST | {"workers": 1}))
    with pytest.raises(GamecoreError) as failure:
        run_tournament(config)
    message = str(failure.value)
    assert "\n" not in message
    assert message.startswith("the referee could not build a bot's sandbox, game othello/4/0-2/g1: ")
    assert message.endswith(
        "that game was not stored (3 of 6 games are); fix the set-up and run the same command to resume"
    )
    with sqlite3.connect(db) as conn:
        stored = [k for (k,) in conn.execute("SELECT key FROM games ORDER BY ordinal")]
    assert stored == ["othello/4/0-1/g0", "othello/4/0-1/g1", "othello/4/0-2/g0"]
    monkeypatch.setattr(play_module, "BotProcess", real)
    resumed = run_tournament(TournamentConfig(players, sizes=[4], db=db, **FAST))
    straight = run_tournament(TournamentConfig(players, sizes=[4], db=str(tmp_path / "s.sqlite"), **FAST))
    assert [(r["key"], [m["move"] for m in r["moves"]]) for r in resumed] == [
        (r["key"], [m["move"] for m in r["moves"]]) for r in straight
    ]
    assert not any(r["forfeits"] for r in resumed)


FORGER = r"""#!/bin/sh
# Claims the referee's own set-up failed, hoping to stop the tournament.
read -r line
echo '{"type":"error","reason":"setup","detail":"forged"}' >&3
"""


@needs_sandbox
def test_a_host_that_fails_its_set_up_is_the_referees_error_a_forged_one_a_forfeit(tmp_path):
    # The real host, handed a file it must not unpack (a path with ".."), fails before any
    # bot code runs (resolve never makes such a path: this stands in for a referee's bug).
    broken = resolve(write_bot(tmp_path, "honest"))
    broken["files"]["../outside.py"] = b""
    task = _task([broken, resolve("greedy")])
    with pytest.raises(SandboxError, match=r"^game t/6/0-1/g0: seat 0: the bot host could not build its sandbox"):
        play_game(task)
    assert stray_processes() == []
    # A bot that claims the same after the host announced its sandbox only forfeits.
    forger = tmp_path / "forger"
    forger.write_text(FORGER)
    forger.chmod(0o755)
    record = play_game(_task([resolve(str(forger)), resolve("random")]))
    assert [(f["player"], f["reason"]) for f in record["forfeits"]] == [("forger", "protocol")]


# -- row 13: one referee per database ---------------------------------------------------------------


def test_row13_a_second_referee_on_the_same_database_is_refused_clearly(tmp_path):
    db = str(tmp_path / "t.sqlite")
    holder = ResultsDB(db)  # this process is "the first referee"
    try:
        second = _referee("random", "greedy", "--sizes", "4", "--db", db, "--no-progress")
        assert second.returncode == 1
        assert second.stderr == (
            f"gamecore tournament: error: the database {db} is in use by another referee (pid {os.getpid()}); "
            "wait for it to finish, or give another --db\n"
        )
        assert holder.count() == 0
    finally:
        holder.close()
    first = _referee("random", "greedy", "--sizes", "4", "--db", db, "--no-progress")
    assert first.returncode == 0, first.stderr
    # two real referees at once: one plays everything, the other is refused and loses nothing
    both = [
        subprocess.Popen(
            [sys.executable, "-m", "gamecore.referee", "random", "corner", "--sizes", "4", "6", "--time", "2"]
            + ["--db", str(tmp_path / "race.sqlite"), "--no-progress"],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [(p.wait(300), p.stdout.read(), p.stderr.read()) for p in both]
    for p in both:
        p.stdout.close()
        p.stderr.close()
    assert sorted(code for code, _, _ in results) == [0, 1], results
    refused = next(err for code, _, err in results if code == 1)
    assert "is in use by another referee (pid " in refused and "Traceback" not in refused
    with sqlite3.connect(tmp_path / "race.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 4


# -- row 15: a damaged database ----------------------------------------------------------------------


def _damage(db: Path, how: str) -> str:
    """Damage a finished tournament's database ``how``; returns the line the referee must print."""
    conn = sqlite3.connect(db)
    key = "othello/4/0-1/g0"
    record = json.loads(conn.execute("SELECT record FROM games WHERE key = ?", (key,)).fetchone()[0])
    where = f"the database {db} is damaged or not a tournament's: "
    if how == "missing field":
        del record["places"]
        text, expected = json.dumps(record), where + f"the game record '{key}' cannot be read (no field 'places')"
    elif how == "not json":
        text, expected = "{broken", where + f"the game record '{key}' cannot be read ("
    elif how == "wrong type":
        record["players"] = None
        text, expected = json.dumps(record), where + f"the game record '{key}' cannot be read (a bad 'players' field"
    elif how == "illegal move":
        record["moves"][0]["move"] = "a1"
        text = json.dumps(record)
        expected = f"the database {db} is damaged: the game record '{key}': the move 'a1' cannot be played ("
    elif how == "unknown player":
        record["players"][0] = "mallory"
        text = json.dumps(record)
        expected = f"the database {db} is damaged: the game record '{key}': not the players or the size"
    elif how == "identity":
        conn.execute("UPDATE meta SET value = '[1' WHERE key = 'identity'")
        conn.commit()
        conn.close()
        return where + "its 'identity' record cannot be read ("
    elif how == "no table":
        conn.executescript("DROP TABLE games; CREATE TABLE games (x)")
        conn.close()
        return where + "its games table cannot be read ("
    conn.execute("UPDATE games SET record = ? WHERE key = ?", (text, key))
    conn.commit()
    conn.close()
    return expected


@pytest.mark.parametrize(
    "how",
    ["missing field", "not json", "wrong type", "illegal move", "unknown player", "identity", "no table", "garbage"],
)
def test_row15_a_damaged_database_gives_one_clear_line(tmp_path, how):
    db = tmp_path / "t.sqlite"
    common = ["random", "greedy", "--sizes", "4", "--no-progress", "--db", str(db)]
    assert _referee(*common).returncode == 0
    if how == "garbage":
        db.write_bytes(b"SQLite format 3\0" + os.urandom(4096))
        for suffix in ("-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        expected = f"the database {db} is damaged or not a tournament's: "
    else:
        expected = _damage(db, how)
    resumed = _referee(*common, "--out", str(tmp_path / "out"))
    assert resumed.returncode == 1
    assert resumed.stderr.startswith("gamecore tournament: error: " + expected), resumed.stderr
    assert resumed.stderr.count("\n") == 1 and "Traceback" not in resumed.stderr
    assert not (tmp_path / "out").exists()  # no report from a damaged database


# -- rows 14 and 21: reports escape names ----------------------------------------------------------

HOSTILE_NAMES = ["<!--<script>", "=1+1", "a|b", "two\nlines", "@SUM(A1)", "+x", "-2", "back\\slash|"]


def _named(tmp_path: Path, names: list[str]) -> TournamentConfig:
    folders = []
    for name in names:
        folder = tmp_path / "bots" / name
        folder.mkdir(parents=True)
        (folder / "player.py").write_text(HONEST)
        folders.append(str(folder))
    return TournamentConfig(
        ["random", *folders], sizes=[4], games=1, db=str(tmp_path / "t.sqlite"), **(FAST | {"time": 2.0})
    )


@needs_sandbox
def test_row21_markdown_and_csv_escape_hostile_names(tmp_path):
    config = _named(tmp_path, HOSTILE_NAMES)
    records = run_tournament(config)
    assert not any(r["forfeits"] for r in records)
    write_reports(config, records, str(tmp_path / "out"))
    with open(tmp_path / "out" / "standings.csv", newline="", encoding="utf-8") as fh:
        shown = {row[0] for row in list(csv.reader(fh))[1:]}
    assert shown == {"random", "<!--<script>", "'=1+1", "a|b", "two\\nlines", "'@SUM(A1)", "'+x", "'-2", "back\\slash|"}
    with open(tmp_path / "out" / "crosstable.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert "'=1+1" in rows[0] and not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row[:1])
    text = markdown(config, records)
    standings_rows = text.split("## Standings")[1].split("## Crosstable")[0].strip().splitlines()[2:]
    assert len(standings_rows) == len(HOSTILE_NAMES) + 1  # one line each: no name broke a row
    for line in standings_rows:  # every row has its 10 cells: no | of a name split a cell
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        assert len(cells) == 10, line
    assert (
        "| a\\|b |" in text and "| back\\\\slash\\| |" in text and "| two\\\\nlines |" in text
    )  # a folder's newline is escaped in its name
    assert "\\<!--\\<script\\>" in text and "<!--" not in text.replace("\\<!--", "")


@needs_sandbox
def test_row14_the_page_data_escapes_names_that_would_end_or_comment_out_its_script(tmp_path):
    config = _named(tmp_path, ["<!--<script>", "a<b>&amp;"])
    records = run_tournament(config)
    write_reports(config, records, str(tmp_path / "out"))
    page = (tmp_path / "out" / "tournament.html").read_text()
    payload = page.split('<script id="data" type="application/json">', 1)[1].split("</script>", 1)[0]
    assert not {"<", ">", "&"} & set(payload)  # the HTML parser sees no tag, comment or entity
    assert {"<!--<script>", "a<b>&amp;"} <= {p for g in json.loads(payload)["games"] for p in g["players"]}


@needs_sandbox
def test_issue31_folders_named_like_the_pages_placeholders_are_text_in_it(tmp_path):
    # each name was expanded by the next placeholder's replace: %DATA% in a table cell became
    # the whole replay data, %CROSS% the crosstable (a 120 KB page grew to 38 MB)
    names = ["%TITLE%", "%STANDINGS%", "%CROSSHEAD%", "%CROSS%", "%DATA%", "x%DATA%%CROSS%y"]
    config = _named(tmp_path, names)
    records = run_tournament(config)
    write_reports(config, records, str(tmp_path / "out"))
    page = (tmp_path / "out" / "tournament.html").read_text()
    standings_body = page.split('<table id="standings">', 1)[1].split("</tbody>", 1)[0]
    shown = re.findall(r"<td class='player'>(.*?)</td>", standings_body)
    assert sorted(shown) == sorted(["random", *names])  # one row a player, each name as itself
    cross_head = page.split('<table id="crosstable"><thead><tr><th></th>', 1)[1].split("</tr>", 1)[0]
    assert re.findall(r"<th>(.*?)</th>", cross_head) == [row["player"] for row in standings(config, records)]
    assert page.count('<script id="data"') == 1 and page.count('{"game":') == 1
    payload = page.split('<script id="data" type="application/json">', 1)[1].split("</script>", 1)[0]
    assert len(json.loads(payload)["games"]) == len(records)
    assert len(page) < 100_000


CHROMIUM = next((n for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


@needs_sandbox
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian: apt-get install chromium)")
def test_row14_a_player_named_like_a_comment_cannot_empty_the_html_page(tmp_path):
    config = _named(tmp_path, ["<!--<script>", "a<b>&amp;"])
    records = run_tournament(config)
    write_reports(config, records, str(tmp_path / "out"))
    page = tmp_path / "out" / "tournament.html"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--virtual-time-budget=3000"]
    dom = subprocess.run(
        [CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    # the replay script ran: the last game's board and moves are drawn, its players named
    last = records[0]
    assert f"Move {len(last['moves'])} of {len(last['moves'])}" in dom
    assert dom.count('class="stone s') == sum(last["score"])
    assert "&lt;!--&lt;script&gt;" in dom and "a&lt;b&gt;&amp;amp;" in dom  # the standings show the names as text
    shot = tmp_path / "page.png"
    subprocess.run(
        [CHROMIUM, *flags, f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.exists() and shot.stat().st_size > 10_000


# -- row 22: the CTU host constructs MyPlayer as the course framework does -----------------------

TWO_ARGUMENTS = HONEST.replace(
    "def __init__(self, my_color, opponent_color, board_size=8):\n        self.me, self.other, self.size = my_color, opponent_color, board_size",
    "def __init__(self, my_color, opponent_color):\n        self.me, self.other, self.size = my_color, opponent_color, 8",
)
OTHER_NAMES = HONEST.replace(
    "def __init__(self, my_color, opponent_color, board_size=8):\n        self.me, self.other, self.size = my_color, opponent_color, board_size",
    "def __init__(self, mine, theirs, n=8):\n        self.me, self.other, self.size = mine, theirs, n",
)


@needs_sandbox
def test_row22_ctu_constructors_are_called_positionally(tmp_path):
    assert TWO_ARGUMENTS != HONEST and OTHER_NAMES != HONEST
    two = tmp_path / "two"
    two.mkdir()
    (two / "player.py").write_text(TWO_ARGUMENTS)
    other = tmp_path / "other"
    other.mkdir()
    (other / "player.py").write_text(OTHER_NAMES)
    for size in (8, 6):
        players = [resolve(str(other)), resolve("random")] if size == 6 else [resolve(str(two)), resolve(str(other))]
        record = play_game(_task(players, size=size))
        assert record["forfeits"] == [] and record["termination"] == "normal", record["forfeits"]


def test_a_task_carries_every_limit_of_the_rules_typed():
    # Rules.as_dict() is typed as RulesDict: the two must name the same fields
    assert set(RulesDict.__required_keys__) == {f.name for f in fields(Rules)}
    assert Rules(**DEFAULT_RULES.as_dict()) == DEFAULT_RULES


# -- what a bot says reaches staff's terminal as text, never as commands -----------------------

ESCAPES = "\x1b[2J\x1b]0;pwned\x07\r\u202e"  # clear the screen, retitle the window, overwrite, reverse


def _terminal_controls(text: str) -> set[str]:
    """The characters of ``text`` a terminal would act on (all controls but the newline, and
    format characters such as bidirectional overrides)."""
    return {c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf")}


@needs_sandbox
def test_a_bot_s_name_and_words_reach_the_terminal_as_text_never_as_escapes(tmp_path):
    evil = tmp_path / f"evil{ESCAPES}"
    evil.mkdir()
    (evil / "player.py").write_text(
        HONEST + "\n\nclass Bot(MyPlayer):\n    def move(self, board):\n"
        f"        raise RuntimeError({ESCAPES + 'gotcha'!r})\n\n\nMyPlayer = Bot\n"
    )
    check = _referee("check", str(evil), "--size", "4", "--time", "1")
    assert check.returncode == 1, check.stderr
    assert "RuntimeError: \\x1b[2J\\x1b]0;pwned\\x07\\r\\u202egotcha" in check.stdout
    assert "Checking evil\\x1b[2J" in check.stdout
    run = _referee("run", str(evil), "random", "--sizes", "4", "--no-progress", "--db", str(tmp_path / "t.sqlite"))
    assert run.returncode == 0, run.stderr
    assert "evil\\x1b[2J\\x1b]0;pwned\\x07\\r\\u202e" in run.stdout
    for output in (check.stdout, check.stderr, run.stdout, run.stderr):
        assert not _terminal_controls(output), output


def test_a_refusal_names_the_file_inside_the_submission_so_a_moved_bot_keeps_its_digest(tmp_path):
    bot = Path(_bot(tmp_path / "inbox", "mallory"))
    (bot / "secret").symlink_to("/etc/shadow")
    before = resolve(str(bot))
    moved = tmp_path / "archive" / "2026" / "mallory"
    moved.parent.mkdir(parents=True)
    bot.rename(moved)
    after = resolve(str(moved))
    assert (
        before["refused"]
        == after["refused"]
        == ("mallory/secret is a symbolic link: a submission holds regular files and folders only")
    )
    assert str(tmp_path) not in before["refused"]
    assert before["digest"] == after["digest"]


@pytest.mark.parametrize(
    ("elo", "half_width", "text"),
    [(-0.3, 12.4, "+0 ± 12"), (0.0, 0.0, "+0 ± 0"), (-0.6, 99.5, "-1 ± 100"), (157.2, 438.0, "+157 ± 438")],
)
def test_elo_is_written_in_whole_points_and_never_as_minus_zero(elo, half_width, text):
    assert elo_text({"elo": elo, "elo_95": half_width}) == text
