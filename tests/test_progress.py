"""The progress helper of long commands (gamecore._progress), on a fake clock and stream."""

from __future__ import annotations

import io

import pytest

from gamecore._progress import Progress, format_duration


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
