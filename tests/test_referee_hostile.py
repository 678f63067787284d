"""The referee against hostile bots (issue 12): every misbehaviour loses its own match with the
right reason, nuisances get nowhere and go unpunished, honest results stay intact, and no
process is left behind."""

from __future__ import annotations

import os
import socket
import sys
import tempfile
from pathlib import Path

import pytest

from gamecore import Othello
from gamecore.errors import GamecoreError
from gamecore.referee.bots import resolve
from gamecore.referee.play import play_game
from gamecore.referee.report import matches, standings
from gamecore.referee.sandbox import full_isolation_missing, namespaces_available
from gamecore.referee.tournament import TournamentConfig, run_tournament
from referee_bots import EXPECTED_REASON, NUISANCES, needs_sandbox, stray_processes, write_bot

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's sandbox is Linux-only")
needs_namespaces = pytest.mark.skipif(
    not namespaces_available(), reason=f"needs --isolation full: {full_isolation_missing() or 'root'}"
)

FAST = dict(time=0.5, grace=0.7, startup=20.0, sizes=[6], progress=False, workers=2)


def _replays_legally(record: dict) -> bool:
    game = Othello(record["size"])
    for move in record["moves"]:
        game.push(move["move"])
    return record["termination"] == "forfeit" or game.is_game_over()


# The default run plays one game a match (every pair still meets); the CTU two-game matches are slow.
@needs_sandbox
@pytest.mark.parametrize("games", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_forfeits_are_attributed_with_their_reasons(tmp_path, games):
    bots = [write_bot(tmp_path / "bots", name) for name in EXPECTED_REASON]
    honest = write_bot(tmp_path / "bots", "honest")
    config = TournamentConfig(
        ["random", honest] + bots, db=str(tmp_path / "t.sqlite"), memory_mb=512, games=games, **FAST
    )
    records = run_tournament(config)
    assert len(records) == 45 * games  # every pair of the ten meets
    for record in records:
        assert _replays_legally(record)
        for forfeit in record["forfeits"]:
            assert forfeit["reason"] == EXPECTED_REASON[forfeit["player"]], (record["key"], forfeit)
        for seat, name in enumerate(record["players"]):
            moved = any(m["seat"] == seat and m["move"] != "pass" for m in record["moves"])
            if name in EXPECTED_REASON and moved is False and not record["forfeits"]:
                pytest.fail(f"{name} never had to move in {record['key']}")  # pragma: no cover
    rows = {r["player"]: r for r in standings(config, records)}
    for name, reason in EXPECTED_REASON.items():
        row = rows[name]
        assert row["forfeits_by_reason"] == {reason: row["forfeits"]} and row["forfeits"] >= games
        # a hostile bot loses every match against an honest one
        assert row["matches_won"] <= len(EXPECTED_REASON) - 1
    # The honest bots lost nothing to the hostile ones and were never charged a forfeit.
    for name in ("random", "honest"):
        assert rows[name]["forfeits"] == 0
        assert rows[name]["matches_won"] >= len(EXPECTED_REASON)
    # honest vs honest: the same result as the two playing with nobody else around
    alone = TournamentConfig(["random", honest], db=str(tmp_path / "alone.sqlite"), games=games, **FAST)
    alone_records = run_tournament(alone)
    pair = [r for r in records if set(r["players"]) == {"random", "honest"}]
    assert [(r["players"], r["moves"] and [m["move"] for m in r["moves"]], r["places"]) for r in pair] == [
        (r["players"], [m["move"] for m in r["moves"]], r["places"]) for r in alone_records
    ]
    assert stray_processes() == []


@needs_namespaces
@pytest.mark.parametrize("games", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_nuisances_get_nowhere_and_are_not_punished(tmp_path, games):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.01)
    port = server.getsockname()[1]
    # Everything in a folder any user may enter (pytest's own are root-only, which would hide
    # the files by themselves): the database and the other bots' folders must be fenced off
    # by the sandbox, not by the folder's permissions.
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    for folder in [open_dir, *open_dir.parents]:
        if folder == Path(tempfile.gettempdir()):
            break
        folder.chmod(folder.stat().st_mode | 0o005)
    db = open_dir / "t.sqlite"
    bots_dir = open_dir / "bots"
    honest = write_bot(bots_dir, "honest")
    (Path(honest) / "player.py").chmod(0o644)
    marker = open_dir / "escaped.txt"
    open_dir.chmod(0o777)  # the bot could write here, were it not fenced off
    constants = {
        "PORT": port,
        "SECRETS": [str(db), str(honest) + "/player.py", "/root/.bashrc", "/etc/shadow"],
        "MARKER": str(marker),
    }
    bots = [write_bot(bots_dir, name, **constants) for name in NUISANCES]
    config = TournamentConfig(["random", honest] + bots, db=str(db), games=games, **FAST)
    records = run_tournament(config)
    assert len(records) == 28 * games
    assert all(r["forfeits"] == [] for r in records), [r["forfeits"] for r in records if r["forfeits"]]
    assert all(_replays_legally(r) for r in records)
    spammer_printed = [r["printed"][r["players"].index("spammer")] for r in records if "spammer" in r["players"]]
    assert min(spammer_printed) > 10_000
    assert not marker.exists()
    assert oct(db.stat().st_mode & 0o777) == "0o600"
    with pytest.raises(socket.timeout):
        server.accept()
    server.close()
    # the board writer changed only its copy: its games replay move by move from the rules
    assert stray_processes() == []


@needs_namespaces
def test_fork_bot_children_exist_during_the_game_and_die_with_it(tmp_path):
    forker = resolve(write_bot(tmp_path, "forker"))
    seen = []
    task = {
        "key": "t/6/0-1/g0",
        "game": "othello",
        "size": 6,
        "seed": 0,
        "bots": [forker, resolve("random")],
        "rules": {"time": 0.5, "grace": 0.3, "startup": 20.0},
    }
    record = play_game(
        task, on_move=lambda move: seen.append(len([p for p in stray_processes() if p.endswith("sleep 987")]))
    )
    assert record["forfeits"] == []
    assert max(seen) == 3  # the three setsid grandchildren were alive
    assert stray_processes() == []


@pytest.mark.parametrize("isolation", ["basic", pytest.param("auto", marks=needs_sandbox)])
def test_no_stray_process_in_either_isolation(tmp_path, isolation):
    bots = [write_bot(tmp_path, name) for name in ("forker", "hang", "crasher")]
    config = TournamentConfig(
        bots + ["random"], db=str(tmp_path / f"{isolation}.sqlite"), isolation=isolation, games=1, **FAST
    )
    if isolation == "basic" and os.geteuid() == 0:  # issue 18 row 12: no submitted bot runs as root
        with pytest.raises(GamecoreError, match="refusing to run submitted bots"):
            run_tournament(config)
        return
    records = run_tournament(config)
    reasons = {f["player"]: f["reason"] for r in records for f in r["forfeits"]}
    assert reasons == {"hang": "timeout", "crasher": "crash"}
    assert stray_processes() == []
    rows = {r["player"]: r for r in standings(config, records)}
    assert rows["forker"]["forfeits"] == 0
    assert all(len(m["players"]) == 2 for m in matches(config, records))
