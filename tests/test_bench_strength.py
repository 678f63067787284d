"""``gamecore bench othello strength``'s match driver: games played in several processes are the
games one process plays, in the same order; bad input is one error line."""

from __future__ import annotations

import io
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from gamecore import cli
from gamecore.bench import strength


def test_a_match_in_two_processes_is_the_match_in_one(backend):
    # Fixed-depth players are deterministic, so both runs must give the same margins in order.
    args = ("engine:depth=2", "positional")
    one_out, two_out = io.StringIO(), io.StringIO()
    one = strength.play_match(*args, size=6, games=4, backend=backend.name, out=one_out)
    two = strength.play_match(*args, size=6, games=4, backend=backend.name, out=two_out, jobs=2)
    assert one.margins == two.margins
    assert one_out.getvalue() == two_out.getvalue()
    assert [line.split(":")[0] for line in two_out.getvalue().splitlines()] == [f"game {n:3d}" for n in range(1, 5)]
    # The lines give the player's colour alternately and its margin, as the result has them.
    assert [int(line.rsplit(":", 1)[1]) for line in two_out.getvalue().splitlines()] == two.margins


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "6", "--games", "41"], "at most 40 games"),
        (["--size", "6", "--games", "2", "--player", "bogus"], "unknown player 'bogus'"),
        (["--size", "6", "--games", "2", "--opponent", "engine:depth=-1"], "depth"),
    ],
)
def test_bad_input_is_one_error_line_and_no_game(argv, message, capsys):
    out = io.StringIO()
    assert cli.main(["bench", "othello", "strength", *argv], out=out) == 1
    err = capsys.readouterr().err
    assert err.startswith("gamecore bench othello strength: error: ") and message in err
    assert "Traceback" not in err and out.getvalue() == ""


@pytest.mark.parametrize("jobs", ["0", "-1", "x"])
def test_a_bad_jobs_count_is_a_usage_error(jobs, capsys):
    assert cli.main(["bench", "othello", "strength", "--jobs", jobs], out=io.StringIO()) == 2
    assert "--jobs" in capsys.readouterr().err


def test_play_match_refuses_a_bad_jobs_value():
    for jobs in (0, True, 1.5):
        with pytest.raises(ValueError, match="jobs"):
            strength.play_match("random", "random", size=6, games=2, jobs=jobs)  # type: ignore[arg-type]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT to one process: POSIX")
def test_ctrl_c_to_the_match_process_alone_stops_every_worker():
    """SIGINT sent to the command's process only (an IDE's stop button, ``kill -INT``; a
    terminal's Ctrl-C reaches the whole group) ends a ``--jobs 2`` match: exit status 130,
    one line "interrupted" and no traceback, and no worker left playing (before: the
    command kept waiting for the workers to play all the games, then printed a traceback)."""
    command = [sys.executable, "-m", "gamecore", "bench", "othello", "strength", "--size", "6", "--games", "40"]
    command += ["--player", "engine:time=1", "--opponent", "engine:v1,time=1", "--jobs", "2"]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Ctrl-C's default action, whatever this test run inherited: a script's background job
        # (`nohup ... &`) starts with SIGINT ignored, and Python then leaves it ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        time.sleep(4)  # the workers start and play (40 games of 1 s moves: minutes)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "interrupted" in err and "Traceback" not in err
        for _ in range(100):  # the workers (and multiprocessing's resource tracker) go at once
            if not _group_alive(proc.pid):
                break
            time.sleep(0.1)
        assert not _group_alive(proc.pid)
    finally:
        if _group_alive(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_an_even_match_is_elo_plus_zero_never_minus_zero():
    # A 1-0-1 match: -400 * log10(1) is -0.0, printed "Elo -0" before.
    summary = strength.StrengthResult(margins=[7, -7]).summary()
    assert "Elo +0 (95 %: -inf .. +inf)" in summary, summary
    assert strength.StrengthResult(margins=[2, -2, 1, -1, 0]).summary().count("-0 ") == 0


def _running_in_group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` that are not zombies (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_no_worker_plays_on_when_the_match_process_is_killed(how):
    """SIGKILL or SIGTERM to the command's process (no cleanup runs there): its ``--jobs 2``
    workers end too, within seconds (before: they played on for nobody, orphaned)."""
    command = [sys.executable, "-m", "gamecore", "bench", "othello", "strength", "--size", "6", "--games", "40"]
    command += ["--player", "engine:time=1", "--opponent", "engine:v1,time=1", "--jobs", "2"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(200):  # the command, its two workers and multiprocessing's resource tracker
            if len(_running_in_group(proc.pid)) >= 4:
                break
            time.sleep(0.1)
        workers = [pid for pid in _running_in_group(proc.pid) if pid != proc.pid]
        assert len(workers) >= 2
        proc.send_signal(how)
        proc.wait(timeout=30)
        for _ in range(100):
            if not _running_in_group(proc.pid):
                break
            time.sleep(0.1)
        assert _running_in_group(proc.pid) == []
    finally:
        if _running_in_group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


def test_each_match_in_one_process_has_players_of_its_own():
    # Two matches with the same specs: the second must not play on with the first's engines.
    strength.play_match("engine:depth=1", "random:seed=1", size=6, games=1)
    first = strength._PLAYERS["engine:depth=1", "random:seed=1"]
    strength.play_match("engine:depth=1", "random:seed=1", size=6, games=1)
    second = strength._PLAYERS["engine:depth=1", "random:seed=1"]
    assert first[0] is not second[0] and first[1] is not second[1]


def test_a_clean_sweep_has_a_finite_lower_bound():
    # 4 wins of 4: the Wilson interval of a score of 1 over 4 games (z = 1.96) has its lower
    # end at (1 + z^2/8 - z * sqrt(z^2/64)) / (1 + z^2/4) = 0.5101, Elo -400 log10(1/0.5101 - 1).
    rating, low, high = strength.elo_interval([1.0] * 4)
    z = 1.96
    wilson_low = (1 + z * z / 8 - z * (z * z / 64) ** 0.5) / (1 + z * z / 4)
    assert rating == high == float("inf")
    assert low == pytest.approx(-400 * math.log10(1 / wilson_low - 1)) and 6 < low < 8
    assert "Elo +inf (95 %: +7 .. +inf)" in strength.StrengthResult(margins=[3, 1, 64, 2]).summary()
    assert strength.elo_interval([0.0] * 4)[1:] == (float("-inf"), pytest.approx(-low))
    # More games of wins only: a higher lower bound.
    assert strength.elo_interval([1.0] * 40)[1] > 300


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_match_shows_its_progress_and_is_silent_with_quiet(capsys):
    shown = _Terminal()
    result = strength.play_match("random:seed=1", "random:seed=2", size=6, games=2, progress=shown)
    last = shown.getvalue().rstrip("\n").split("\r")[-1]
    assert last.startswith("strength: 2/2 games (100 %) in ")
    assert "random:seed=1 vs random:seed=2, W-D-L so far" in shown.getvalue()
    assert len(result.margins) == 2
    argv = ["bench", "othello", "strength", "--size", "6", "--games", "2", "--player", "random", "--opponent", "greedy"]
    assert cli.main([*argv, "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("random against greedy, 6x6: W-D-L ")
