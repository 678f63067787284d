"""The progress helper of long commands (gamecore._progress), on a fake clock and stream."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gamecore import bench, cli
from gamecore._progress import Progress, format_duration
from gamecore.train import mpc as train_mpc
from gamecore.train import othello as train_othello


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def screen(text: str) -> str:
    """What a terminal shows after the carriage returns: the last state of each line."""
    return "\n".join(line.split("\r")[-1] for line in text.split("\n"))


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0 s"), (7.4, "7 s"), (59.6, "1 min 00 s"), (125, "2 min 05 s"), (3780, "1 h 03 min")]
)
def test_format_duration(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


def test_terminal_line_shows_done_of_total_eta_and_what() -> None:
    clock, stream = FakeClock(), Terminal()
    progress = Progress(4, "games", label="compare rolit", stream=stream, clock=clock)
    progress.doing("game 1: maxn vs mcts")
    assert stream.getvalue() == "\rcompare rolit: 0/4 games (0 %) - game 1: maxn vs mcts"
    clock.now += 30  # the first game took 30 s: three left, about 90 s
    progress.advance(doing="game 2")
    assert screen(stream.getvalue()) == "compare rolit: 1/4 games (25 %) about 1 min 30 s left - game 2"
    clock.now += 10
    progress.advance(doing="g3")  # 2 done in 40 s: 40 s left; the shorter line blanks the longer one
    last = stream.getvalue().split("\r")[-1]
    assert last.startswith("compare rolit: 2/4 games (50 %) about 40 s left - g3")
    assert len(last) == len("compare rolit: 1/4 games (25 %) about 1 min 30 s left - game 2")
    clock.now += 20
    progress.update(4)
    progress.finish()
    assert stream.getvalue().endswith("\n")
    assert screen(stream.getvalue()).split("\n")[0].rstrip() == "compare rolit: 4/4 games (100 %) in 1 min 00 s"


def test_terminal_redraws_at_most_five_times_a_second_but_always_the_last() -> None:
    clock, stream = FakeClock(), Terminal()
    progress = Progress(100, stream=stream, clock=clock)
    for _ in range(99):
        progress.advance()  # no time passes: only the first is drawn
    assert stream.getvalue().count("\r") == 1
    progress.advance()  # the last unit is always drawn
    assert stream.getvalue().count("\r") == 2
    assert "100/100 (100 %)" in stream.getvalue()


def test_plain_lines_now_and_then_when_not_a_terminal() -> None:
    clock, stream = FakeClock(), io.StringIO()
    progress = Progress(10, "stages", label="train", stream=stream, clock=clock, every=15)
    for _ in range(3):
        clock.now += 4
        progress.advance(doing="fitting")
    assert stream.getvalue() == ""  # 12 s: nothing yet, a short run stays silent
    clock.now += 4
    progress.advance(doing="fitting stage 5")
    assert stream.getvalue() == "train: 4/10 stages (40 %) about 24 s left - fitting stage 5\n"
    clock.now += 4
    progress.advance()
    assert stream.getvalue().count("\n") == 1  # 4 s after the last line: none
    clock.now += 11
    progress.advance()
    assert stream.getvalue().count("\n") == 2
    assert "\r" not in stream.getvalue()
    progress.update(10)
    progress.finish()
    assert stream.getvalue().splitlines()[-1] == "train: 10/10 stages (100 %) in 31 s"


def test_short_run_off_a_terminal_prints_nothing_at_all() -> None:
    clock, stream = FakeClock(), io.StringIO()
    with Progress(3, stream=stream, clock=clock) as progress:
        for _ in range(3):
            clock.now += 1
            progress.advance()
    assert stream.getvalue() == ""


@pytest.mark.parametrize("terminal", [True, False])
def test_quiet_prints_nothing(terminal: bool) -> None:
    clock = FakeClock()
    stream = Terminal() if terminal else io.StringIO()
    with Progress(5, stream=stream, clock=clock, quiet=True) as progress:
        for _ in range(5):
            clock.now += 100
            progress.advance(doing="x")
        progress.finish("done")
    assert stream.getvalue() == ""


def test_resumed_units_do_not_enter_the_estimate() -> None:
    clock, stream = FakeClock(), Terminal()
    progress = Progress(10, stream=stream, clock=clock, done=6)  # 6 done by an earlier run
    assert progress.seconds_left() is None
    clock.now += 5
    progress.advance()
    assert progress.seconds_left() == pytest.approx(15.0)  # 5 s a unit, 3 left


def test_without_a_total_counts_and_the_doing_callable_is_lazy() -> None:
    clock, stream = FakeClock(), Terminal()
    calls: list[int] = []

    def leader() -> str:
        calls.append(1)
        return "leader: alice"

    progress = Progress(None, "positions", stream=stream, clock=clock)
    progress.advance(doing=leader)
    for _ in range(10):
        progress.advance(doing=leader)  # within 0.2 s: not drawn, not called
    assert len(calls) == 1
    assert screen(stream.getvalue()) == "1 positions - leader: alice"
    assert progress.seconds_left() is None


def test_terminal_line_is_cut_to_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    stream = Terminal()
    Progress(3, stream=stream, clock=FakeClock()).doing("x" * 100)
    line = stream.getvalue().split("\r")[-1]
    assert len(line) == 39 and line.endswith("…")


def test_an_error_leaves_the_line_and_ends_it() -> None:
    stream = Terminal()
    with pytest.raises(RuntimeError), Progress(3, stream=stream, clock=FakeClock()) as progress:
        progress.doing("working")
        raise RuntimeError("boom")
    assert stream.getvalue() == "\r0/3 (0 %) - working\n"


def test_bad_total_is_refused() -> None:
    with pytest.raises(ValueError, match="total"):
        Progress(-1)


def test_a_log_line_is_printed_above_the_terminal_line() -> None:
    clock, stream = FakeClock(), Terminal()
    progress = Progress(2, "stages", stream=stream, clock=clock)
    progress.doing("stage 0")
    progress.note("stage 0: fitted", stream)
    assert screen(stream.getvalue()).split("\n") == ["stage 0: fitted", "0/2 stages (0 %) - stage 0"]
    quiet_log = io.StringIO()
    Progress(2, stream=io.StringIO(), clock=clock).note("a log line", quiet_log)  # not a terminal: just the line
    assert quiet_log.getvalue() == "a log line\n"


def test_what_comes_after_a_log_line_shows_at_once() -> None:
    clock, stream = FakeClock(), Terminal()
    progress = Progress(3, "positions", stream=stream, clock=clock)
    progress.doing("FFO #40")
    progress.advance()
    progress.note("40 solved", stream)
    progress.doing("FFO #41")  # no time has passed, yet it is drawn: a log line came between
    assert screen(stream.getvalue()).split("\n")[-1].startswith("1/3 positions (33 %) about 0 s left - FFO #41")


# -- the long commands draw it -------------------------------------------------------------


def _last_lines(stream: io.StringIO) -> list[str]:
    """Each finished progress line (the state each was left in)."""
    return [line.split("\r")[-1].rstrip() for line in stream.getvalue().split("\n") if line]


def test_training_shows_self_play_then_labelling(tmp_path: Path) -> None:
    shown, log = Terminal(), io.StringIO()
    options = train_othello.TrainOptions(size=6, games=4, per_stage=6, depth=2, exact=8, epochs=1, seed=1)
    record = train_othello.train(options, str(tmp_path), log=log, progress=shown)
    finished = _last_lines(shown)
    assert finished[0].startswith("train: self-play: 4/4 games (100 %) in ")
    labelled = sum(stage["positions"] for stage in record["stage_results"])
    assert finished[-1].startswith(f"train: labelling: {labelled}/{labelled} positions (100 %) in ")
    assert "stage 0 (of 0-7), " in shown.getvalue()  # what is being done
    assert "stage 7:" in log.getvalue()  # the log still has its lines


def test_the_mpc_fit_counts_its_searches(tmp_path: Path) -> None:
    shown = Terminal()
    options = train_mpc.shipped_mpc_options(6, games=2, per_stage=2, max_depth=6)
    train_mpc.fit(options, str(tmp_path), progress=shown)
    finished = _last_lines(shown)
    assert finished[0].startswith("train othello-mpc: self-play: 2/2 games (100 %) in ")
    assert re.match(r"train othello-mpc: (\d+)/\1 steps \(100 %\) in ", finished[-1])
    assert "t = 2.5: Multi-ProbCut searches" in shown.getvalue()


@pytest.mark.parametrize("backend", ["cython"], indirect=True)  # the pure solver takes minutes
def test_the_endgame_bench_shows_each_position(backend, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "othello", "endgame", "--ffo", "40", "--backend", backend.name]) == 0
    out, err = capsys.readouterr()
    assert " 40    20   +38   +38   a2" in out
    # not a terminal: plain lines only (one every 15 s, none on an idle machine: it takes 1 s)
    assert "\r" not in err and all(line.startswith("bench endgame: ") for line in err.splitlines())
    shown = Terminal()
    assert bench.bench_endgame(io.StringIO(), "40", backend=backend.name, progress=shown) == 0
    assert "bench endgame: 0/1 positions (0 %) - FFO #40, 20 empty squares" in shown.getvalue()
    assert _last_lines(shown)[-1].startswith("bench endgame: 1/1 positions (100 %) in ")
