"""Win/loss/draw first, just beyond the exact solver's limit (``Engine``, ``WLD_EMPTIES``).

A timed move with one or two more empty squares than the solver's limit for its time first
tries to prove a win or a draw. Checked against exact solves of the positions and of the
moves played (``gamecore.solve``), on both backends:

- every result the engine calls proven is right: a "win" plays a move that still wins, its
  score is at least 1 and, when it says exact, the position's value; a "draw" keeps the draw;
- most of these small positions are proven within the second (the test measures something);
- a fixed-depth search and an engine given ``endgame_empties`` do not take the new path.
"""

from __future__ import annotations

import random

import pytest

from gamecore import Engine, Othello
from gamecore.search import engine as engine_module
from gamecore.search.engine import solve

#: The exact solver's limit for a timed move of 1 s on each backend (Engine._try_endgame).
LIMIT = {"cython": 18, "python": 8}


def positions_with(empties: int, count: int, backend: str, seed: int = 5) -> list[Othello]:
    """``count`` positions of random games with ``empties`` empty squares and a move to play."""
    rng = random.Random(seed)
    found: list[Othello] = []
    while len(found) < count:
        game = Othello(backend=backend)
        while not game.is_game_over() and 64 - sum(game.score()) > empties:
            game.push(rng.choice(game.legal_moves()))
        if 64 - sum(game.score()) == empties and not game.is_game_over() and not game.legal_moves()[0].is_pass:
            found.append(game)
    return found


@pytest.mark.parametrize("beyond", [1, 2])
def test_proven_results_are_right(backend, beyond):
    assert engine_module.WLD_EMPTIES >= beyond
    empties = LIMIT[backend.name] + beyond
    proven = 0
    for game in positions_with(empties, 4, backend.name, seed=beyond):
        result = Engine(clock="cpu").search(game, time_limit=1.0)
        value = solve(game).score
        child = game.copy()
        child.push(result.move)
        played = -solve(child).score
        if result.proven == "win":
            assert value > 0 and played > 0 and result.score >= 1
            assert not result.exact or result.score == value == played
        elif result.proven == "draw":
            assert value == 0 and played == 0 and result.score == 0
        proven += result.proven is not None  # (alpha-beta may reach the end by itself too)
    assert proven >= 2


def test_fixed_depth_and_a_given_limit_keep_the_plain_search(backend):
    game = positions_with(LIMIT[backend.name] + 1, 1, backend.name)[0]
    assert Engine().search(game, depth=3).proven is None
    given = Engine(clock="cpu", endgame_empties=LIMIT[backend.name]).search(game, time_limit=0.3)
    assert given.algorithm == "alphabeta"


def test_the_solver_keeps_a_cpu_budget_on_a_shared_cpu(backend):
    """``_cpu_clock``: the deadline is the solving thread's CPU time. With a busy thread on the
    same single CPU the solver gets about half of it, so a CPU budget lasts about twice as long
    on the wall clock as a wall budget does."""
    import os  # noqa: PLC0415
    import threading  # noqa: PLC0415
    import time  # noqa: PLC0415

    if not hasattr(os, "sched_setaffinity"):
        pytest.skip("needs os.sched_setaffinity (Linux) to share one CPU")
    game = positions_with(28, 1, backend.name)[0]  # seconds to minutes to solve: never within 0.3 s
    solve_exact = game.exact_solver()
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    done = threading.Event()

    def busy() -> None:
        while not done.is_set():
            sum(range(1000))

    spinner = threading.Thread(target=busy)
    spinner.start()
    try:
        took = {}
        for cpu in (False, True):
            start = time.perf_counter()
            *_, completed = solve_exact(game.core.copy(), time_limit=0.3, _cpu_clock=cpu)
            took[cpu] = time.perf_counter() - start
            assert not completed
    finally:
        done.set()
        spinner.join()
        os.sched_setaffinity(0, before)
    assert took[False] < 0.45 and took[True] > 1.5 * took[False], took
