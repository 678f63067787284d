"""The n-player searches and MCTS use their whole time budget, on the wall clock or in CPU time.

- With a time limit in CPU time (``clock="cpu"``) every n-player algorithm and MCTS uses
  between 90 % and 100 % of the limit, measured by the test with the thread's own CPU clock.
- A search stopped half-way through an iteration answers with that iteration's best root
  move so far only when it is sound: the move then has, searched alone to the stopped
  iteration's depth, a value at least that of the last finished iteration's move (both
  searched alone to that depth, the independent truth), and ``depth`` stays the finished one.
- ``clock="cpu"`` measures the searching thread's CPU time: with a CPU-burning thread on the
  same core, a search uses about its budget in CPU time and clearly more in wall time.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import threading
import time

import pytest

from gamecore import Othello, Rolit, _backend, search
from gamecore.players import RandomPlayer
from gamecore.search._options import SearchLimits
from gamecore.search.engine import Engine
from gamecore.search.mcts import MCTS

ALGORITHMS = ("maxn", "maxn-plain", "paranoid", "brs", "mcts")


def _position(backend_name, plies, seed):
    game = Rolit(backend=backend_name)
    player = RandomPlayer(seed)
    for _ in range(plies):
        game.push(player.choose_move(game))
    return game


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_cpu_time_limit_is_used_whole_and_never_overrun(backend, algorithm):
    limit = 0.2
    for plies, seed in ((4, 1), (30, 2)):
        game = _position(backend.name, plies, seed)
        engine = Engine(algorithm=algorithm, clock="cpu", tt_mb=4)
        before = time.thread_time()
        result = engine.search(game, time_limit=limit)
        used = time.thread_time() - before
        assert not result.exact and result.move in game.legal_moves()
        assert 0.9 * limit <= used <= limit, (algorithm, plies, used)
        assert result.elapsed <= used  # reported on the same (CPU) clock


def test_a_wall_clock_limit_is_used_whole(backend):
    game = _position(backend.name, 10, 3)
    for algorithm in ALGORITHMS:
        start = time.perf_counter()
        result = Engine(algorithm=algorithm, tt_mb=4).search(game, time_limit=0.2)
        assert time.perf_counter() - start >= 0.9 * 0.2 and not result.exact, algorithm


# (algorithm, plies, seed, depth): positions where the next iteration changes its mind, so
# that some node limits stop it after a better move than the last iteration's was found.
PARTIAL_CASES = [
    ("maxn", 9, 1, 3),
    ("maxn-plain", 9, 1, 3),
    ("paranoid", 9, 1, 3),
    ("brs", 25, 2, 3),
    ("brs", 40, 3, 2),
]


@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain", "paranoid", "brs"])
def test_a_stopped_iteration_answers_only_what_it_has_proved(backend, algorithm):
    taken = 0
    for name, plies, seed, depth in PARTIAL_CASES:
        if name != algorithm:
            continue
        game = _position(backend.name, plies, seed)
        finished = search(game, algorithm=algorithm, depth=depth, tt_mb=1)
        deeper = search(game, algorithm=algorithm, depth=depth + 1, tt_mb=1)
        last_value = search(game, algorithm=algorithm, depth=depth + 1, moves=[finished.move], tt_mb=1).score
        step = max(1, (deeper.nodes - finished.nodes) // 12)
        for nodes in range(finished.nodes + 1, deeper.nodes, step):
            stopped = search(game, algorithm=algorithm, nodes=nodes, tt_mb=1)
            assert stopped.depth == depth and stopped.pv[0] == stopped.move
            if stopped.move == finished.move:
                continue
            taken += 1
            alone = search(game, algorithm=algorithm, depth=depth + 1, moves=[stopped.move], tt_mb=1)
            assert stopped.score == alone.score >= last_value, (plies, nodes)
    assert taken > 0  # the cases do exercise the stopped iteration's answer


def test_backends_agree_on_a_stopped_iteration(backends):
    for algorithm, plies, seed, _ in PARTIAL_CASES:
        for nodes in (700, 1500, 3000):
            py, cy = (search(_position(mods.name, plies, seed), algorithm=algorithm, nodes=nodes) for mods in backends)
            assert (py.move, py.score, py.values, py.pv, py.depth, py.nodes) == (
                cy.move,
                cy.score,
                cy.values,
                cy.pv,
                cy.depth,
                cy.nodes,
            )


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity (Linux)")
@pytest.mark.parametrize("algorithm", ["brs", "mcts"])
def test_cpu_clock_counts_only_the_searching_threads_time(backend, algorithm):
    """A busy thread shares the one core the process is pinned to: the search gets about half
    of it, so it uses its CPU budget in about twice the wall time."""
    game = _position(backend.name, 12, 5)
    engine = Engine(algorithm=algorithm, clock="cpu", tt_mb=4)
    saved = os.sched_getaffinity(0)
    stop = threading.Event()

    def burn():
        while not stop.is_set():
            sum(range(1000))

    os.sched_setaffinity(0, {min(saved)})
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.001)  # the pure backend holds the GIL: hand it over often
    burner = threading.Thread(target=burn)
    burner.start()
    try:
        time.sleep(0.01)
        wall, cpu = time.perf_counter(), time.thread_time()
        result = engine.search(game, time_limit=0.2)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
    finally:
        stop.set()
        burner.join()
        sys.setswitchinterval(switch)
        os.sched_setaffinity(0, saved)
    assert 0.9 * 0.2 <= cpu <= 0.2 and result.elapsed <= cpu
    assert wall >= 1.3 * cpu, (wall, cpu)


def test_clock_is_checked(backend):
    for bad in ("CPU", "process", None, 1):
        with pytest.raises(ValueError):
            Engine(algorithm="brs", clock=bad)
        with pytest.raises(ValueError):
            MCTS(clock=bad)
    mcts = MCTS(clock="cpu", seed=3)
    result = mcts.search(_position(backend.name, 0, 0), time_limit=0.05)
    assert result.iterations >= 1 and 0.9 * 0.05 <= result.elapsed < 0.06  # the stop: the mean iteration
    assert copy.deepcopy(mcts).clock == "cpu" and pickle.loads(pickle.dumps(mcts)).clock == "cpu"


@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain", "paranoid", "brs"])
def test_memory_used_counts_the_table_entries_filled(backends, algorithm):
    """``tt_used`` against a scan of the pure table; both backends fill as many entries."""
    py, cy = backends
    filled = []
    for mods in backends:
        game = _position(mods.name, 20, 4)
        engine = Engine(algorithm=algorithm, tt_mb=1)
        first = engine.search(game, depth=3)
        second = engine.search(game.copy().play(first.move), depth=3)
        searcher = engine._searcher(mods)
        used = searcher.tt_used(algorithm)
        filled.append(used)
        entry = mods.multiplayer.MAXN_ENTRY_BYTES if algorithm.startswith("maxn") else 16
        assert 0 < used * entry < second.memory_used < second.memory
        assert second.memory_used - used * entry == second.memory - second.tt_bytes  # the recursion buffers
        if mods is py:
            if algorithm.startswith("maxn"):
                scanned = sum(entry is not None for entry in searcher._maxn_table)
            else:
                scanned = sum(1 for data in searcher._data if data & 0xFF)
            assert used == scanned
        engine.clear()
        assert searcher.tt_used(algorithm) == 0
    assert filled[0] == filled[1]
    mcts = Engine(algorithm="mcts").search(_position(cy.name, 0, 0), nodes=100)
    assert mcts.memory_used == mcts.memory > 0


_FIRST_SEARCH = """
import os, sys
from gamecore import Rolit, _backend
from gamecore.search.engine import Engine

def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

game = Rolit(backend=sys.argv[1])
Engine(algorithm="paranoid", tt_mb=0).search(game, depth=2)  # modules loaded, caches warm
engine = Engine(algorithm=sys.argv[2], tt_mb=16)
before = resident()
engine.search(game, nodes=int(sys.argv[3]))
print(resident() - before, engine._searcher(_backend.load(game.backend)).maxn_tt_bytes())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain"])
def test_a_max_n_engine_makes_its_table_before_the_clock_starts(backend, algorithm):
    """The first Max^n search of an engine touches no new table memory: it was made, every
    page touched, with the engine. (It was made at the first search, whose page faults came
    between two readings of the clock: 2 of ~600 searches of a report ran 2 % over.)
    A fresh process, so that no freed memory is reused."""
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_SEARCH, backend.name, algorithm, "50000" if backend.name == "cython" else "3000"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GAMECORE_BACKEND": backend.name},
    )
    grown, table = map(int, done.stdout.split())
    assert table == 16 << 20  # as much as the alpha-beta table: half as many entries, twice the size
    assert grown < table // 8, (grown, table)


_FIRST_IMPORTS = """
import sys
from gamecore import Rolit
from gamecore.search.engine import Engine
engine = Engine(algorithm=sys.argv[1], clock="cpu", tt_mb=1)
before = set(sys.modules)
engine.search(Rolit(backend="cython"), time_limit=0.02)
print(" ".join(sorted(name for name in set(sys.modules) - before if name.startswith("gamecore"))))
"""


@pytest.mark.parametrize("algorithm", ["maxn", "brs", "mcts"])
def test_the_first_compiled_search_imports_nothing(backends, algorithm):
    """An engine's first compiled search loads no module inside its time: it loaded the whole
    pure backend to read two entry sizes, which without a bytecode cache compiled 8 modules,
    10 % past a 0.2 s CPU limit (a first Max^n search took 0.219 s). A fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_IMPORTS, algorithm],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GAMECORE_BACKEND": "cython"},
    )
    assert done.stdout.split() == []


def test_the_clock_starts_before_the_position_is_copied(monkeypatch):
    """Work the searcher does before its first node (copying the position, making a table)
    is in its time: a copy that takes the whole limit leaves the search no more than one
    stretch between two readings of the clock. (Pure twin only: a compiled core's copy
    cannot be slowed down from Python; the compiled twin reads its clock first the same way.)"""
    pure = _backend.load("python")
    core = _position("python", 10, 5).core
    plain_copy = type(core).copy

    def slow_copy(self):
        end = time.thread_time() + 0.05
        while time.thread_time() < end:
            pass
        return plain_copy(self)

    monkeypatch.setattr(type(core), "copy", slow_copy)
    weights = Engine()._weights(_position("python", 10, 5))[0]
    found = pure.multiplayer.MultiSearcher(0).search_multi(
        core, weights, SearchLimits(30, 0, 0.05, cpu_clock=True), "maxn"
    )
    assert found.nodes <= pure.alphabeta.CLOCK_INTERVAL  # it was about 1,000


@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain", "paranoid", "brs", "alphabeta"])
def test_a_budget_of_n_states_explores_n_at_most(backend, algorithm):
    """``nodes=N`` explores N states, never N + 1: a search that needs more stops at N, and
    the budget a depth took exactly finishes that depth (one fewer does not)."""
    game = Othello(backend=backend.name) if algorithm == "alphabeta" else _position(backend.name, 12, 6)
    for budget in (1, 2, 17, 1000):
        assert search(game, algorithm=algorithm, nodes=budget, tt_mb=1).nodes == budget
    exact = search(game, algorithm=algorithm, depth=3, tt_mb=1)
    assert not exact.exact and exact.depth == 3
    enough = search(game, algorithm=algorithm, nodes=exact.nodes, tt_mb=1)
    assert (enough.nodes, enough.depth, enough.move) == (exact.nodes, 3, exact.move)
    short = search(game, algorithm=algorithm, nodes=exact.nodes - 1, tt_mb=1)
    assert short.nodes == exact.nodes - 1 and short.depth == 2
