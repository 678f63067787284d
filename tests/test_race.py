"""Several threads solving one position on one shared table (``gamecore solve --threads N``,
:class:`~gamecore.search.race.ProbeRace`), in both backends.

- the race gives what one ``solve_exact`` gives: the exact value inside the window with an
  optimal move, a fail-soft bound outside it, from any guess (right, far off, out of the window)
  and any number of threads;
- ``perfect_line(threads=2)`` and ``gamecore solve --threads 2`` prove the value of one thread
  and a line whose every move keeps it;
- a race stops when asked (Ctrl-C's path) or at its time limit, and says it did not finish.
"""

from __future__ import annotations

import io
import threading
import time

import pytest

from gamecore.cli import main
from gamecore.errors import InvalidOptionError
from gamecore.games.othello import Othello
from gamecore.search.perfect import RACE_MIN_EMPTIES, perfect_line
from gamecore.search.race import ProbeRace
from gamecore.ui.othello import load_record
from othello_helpers import assert_keeps_the_value

#: Feinstein's perfect 6x6 line (see test_solve.py): white wins 20-16 all along it.
FEINSTEIN = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1"


def line_position(plies: int, backend: str) -> Othello:
    game = Othello(6, backend=backend)
    load_record(game, FEINSTEIN[: 2 * plies])
    return game


def positions(backend: str) -> list[Othello]:
    """Positions off the perfect line (the children of one of its positions), of other values."""
    game = line_position(18 if backend == "cython" else 22, backend)
    found = []
    for move in game.legal_moves():
        child = game.copy()
        child.push(move)
        found.append(child)
    return found


def optimal(endgame, game: Othello, move: int, value: int) -> bool:
    child = game.copy()
    child.push(game.move_from_code(move))
    return -endgame.solve_exact(child.core.copy())[1] == value


@pytest.mark.parametrize("threads", [2, 3])
def test_a_race_gives_what_one_solve_gives(backend, threads):
    endgame = backend.endgame
    for game in positions(backend.name):
        _, value, _, _ = endgame.solve_exact(game.core.copy())
        for alpha, beta in [
            (-36, 36),
            (value - 1, value + 1),
            (value - 9, value + 3),
            (value + 2, 36),
            (-36, value - 2),
        ]:
            alpha, beta = max(-36, alpha), min(36, beta)
            if alpha >= beta:
                continue
            for guess in (value, value + 12, -value, 36, -36):
                race = ProbeRace(endgame, endgame.EndgameTable(16), threads)
                move, score, completed = race.solve(game.core, alpha, beta, guess)
                assert completed and race.nodes > 0
                if alpha < value < beta:
                    assert score == value, (alpha, beta, guess)
                    assert optimal(endgame, game, move, value)
                elif value <= alpha:
                    assert value <= score <= alpha, (alpha, beta, guess)  # fail low: an upper bound
                    assert move in game.core.legal_moves(), (alpha, beta, guess)  # as solve_exact: a move to play
                else:
                    assert beta <= score <= value, (alpha, beta, guess)  # fail high: a lower bound
                    assert move is not None and optimal_at_least(endgame, game, move, beta)


def optimal_at_least(endgame, game: Othello, move: int, bound: int) -> bool:
    child = game.copy()
    child.push(game.move_from_code(move))
    return -endgame.solve_exact(child.core.copy())[1] >= bound


def test_a_race_needs_two_threads_or_more(backend):
    table = backend.endgame.EndgameTable(16)
    for threads in (0, 1, True, 2.0, "2", 65):
        with pytest.raises(InvalidOptionError):
            ProbeRace(backend.endgame, table, threads)
    for threads in (0, -1, True, 2.0, "2"):
        with pytest.raises(InvalidOptionError):
            perfect_line(Othello(4, backend=backend.name), threads=threads)


def test_threads_prove_the_value_of_one_thread_and_a_perfect_line(backend):
    game = line_position(12 if backend.name == "cython" else 18, backend.name)  # 20 / 14 empty squares
    assert 36 - sum(game.score()) > RACE_MIN_EMPTIES or backend.name == "python"
    alone = perfect_line(game)
    raced = perfect_line(game, threads=2)
    assert alone.value == raced.value == -4 and raced.completed
    assert_keeps_the_value(backend.endgame, game, raced.line, -4)


def test_the_command_with_threads_says_what_one_thread_says(backend):
    args = ["solve", "--size", "6", "--moves", FEINSTEIN[:24], "--progress", "0", "--backend", backend.name]
    if backend.name == "python":
        args[4] = FEINSTEIN[:36]
    out_one, out_two = io.StringIO(), io.StringIO()
    assert main([*args, "--threads", "1"], out=out_one) == 0
    assert main([*args, "--threads", "2"], out=out_two) == 0
    value_line = [line for line in out_one.getvalue().splitlines() if line.startswith("value:")]
    assert value_line and value_line[0] in out_two.getvalue().splitlines()
    assert "white wins 20-16" in value_line[0]


def test_the_command_races_by_default_where_threads_run_at_once(monkeypatch):
    pytest.importorskip(
        "gamecore.search._endgame_cy", reason="the default race needs the compiled backend: pip install ."
    )
    from gamecore.search import perfect  # noqa: PLC0415

    seen = []
    real = perfect.perfect_line

    def spy(*args, **kwargs):
        seen.append(kwargs["threads"])
        return real(*args, **kwargs)

    monkeypatch.setattr(perfect, "perfect_line", spy)
    monkeypatch.setattr(perfect.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    for backend, extra, expected in [("cython", [], 2), ("python", [], 1), ("cython", ["--split", "1"], 1)]:
        args = ["solve", "--size", "4", "--progress", "0", "--backend", backend, *extra]
        assert main(args, out=io.StringIO()) == 0
        assert seen.pop() == expected, (backend, extra)
    monkeypatch.setattr(perfect.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert main(["solve", "--size", "4", "--progress", "0", "--backend", "cython"], out=io.StringIO()) == 0
    assert seen.pop() == 1


def test_a_race_stops_when_asked_and_at_its_time_limit():
    pytest.importorskip("gamecore.search._endgame_cy", reason="a long race needs the compiled backend: pip install .")
    game = Othello(6, backend="cython")  # the start: about a minute of two threads
    endgame = game._backend.endgame
    race = ProbeRace(endgame, endgame.EndgameTable(20), 2)
    timer = threading.Timer(0.5, race.stop_all)
    timer.start()
    started = time.perf_counter()
    move, score, completed = race.solve(game.core, -36, 36, 0)
    assert not completed and move is None and time.perf_counter() - started < 5
    started = time.perf_counter()
    assert ProbeRace(endgame, endgame.EndgameTable(20), 2).solve(game.core, -36, 36, 0, time_limit=0.5)[2] is False
    assert time.perf_counter() - started < 5
    raced = perfect_line(game, threads=2, time_limit=0.5)
    assert not raced.completed and raced.value is None


class SlowProbes:
    """A stand-in solver: the whole window never finishes within its time, each null window
    takes ``pause`` seconds and fails low by one (an MTD(f) chain of 32 probes on 4x4), or
    raises ``error``."""

    def __init__(self, pause: float, error: BaseException | None = None) -> None:
        self.pause, self.error = pause, error

    def solve_exact(self, core, alpha, beta, time_limit=0.0, *, table=None, _stop=None, _progress=None):
        if beta - alpha > 1:  # the whole window: runs out its time (or until stopped)
            end = time.perf_counter() + (time_limit or 60)
            while time.perf_counter() < end and not _stop[0]:
                time.sleep(0.01)
            return None, 0, 1, False
        if self.error is not None:
            raise self.error
        time.sleep(self.pause)
        return 0, alpha, 1, True


def test_a_race_keeps_one_time_limit_for_all_its_probes():
    core = Othello(4).core
    started = time.perf_counter()
    move, score, completed = ProbeRace(SlowProbes(0.2), None, 2).solve(core, -16, 16, 16, time_limit=0.5)
    assert not completed and time.perf_counter() - started < 2  # not 32 probes of 0.2 s each


def test_an_error_in_a_racing_thread_is_raised_and_stops_the_others():
    core = Othello(4).core
    started = time.perf_counter()
    with pytest.raises(RuntimeError, match="boom"):
        ProbeRace(SlowProbes(0.0, RuntimeError("boom")), None, 2).solve(core, -16, 16, 0, time_limit=30)
    assert time.perf_counter() - started < 5  # the whole-window thread was stopped, not waited for
