"""The searches' progress hook and stop(): what the web board's live thinking reads."""

from __future__ import annotations

import threading

import pytest

from gamecore import Engine, Othello, Rolit, Tetralath
from gamecore.players import EnginePlayer, MCTSPlayer
from gamecore.search._options import SearchLimits
from gamecore.search.mcts import MCTS


def _reports(engine, position, **limits):
    seen = []
    result = engine.search(position, progress=lambda r: seen.append(r), **limits)
    return seen, result


@pytest.mark.parametrize("algorithm", ["alphabeta", "minimax"])
def test_progress_reports_every_finished_iteration(backend, algorithm):
    position = Othello.from_moves("f5 d6 c3 d3 c4", backend=backend.name)
    seen, result = _reports(Engine(algorithm=algorithm), position, depth=4)
    assert [r.depth for r in seen] == [1, 2, 3, 4]
    last = seen[-1]
    # the last report is the answer: same move, score, principal variation and node count
    assert (last.move, last.score, last.pv, last.nodes) == (result.move, result.score, result.pv, result.nodes)
    assert all(r.pv and r.pv[0] == r.move and r.move in position.legal_moves() for r in seen)
    assert [r.nodes for r in seen] == sorted(r.nodes for r in seen)  # counted from the search's start
    assert position == Othello.from_moves("f5 d6 c3 d3 c4")  # untouched


def test_progress_is_the_same_in_both_backends(backends):
    found = []
    for module in backends:
        seen, _ = _reports(Engine(), Tetralath(backend=module.name).play("e5").play("d4"), depth=4)
        found.append([(r.depth, r.score, [str(m) for m in r.pv], r.nodes) for r in seen])
    assert found[0] == found[1]


def test_a_true_return_ends_the_deepening(backend):
    position = Othello(backend=backend.name)
    seen = []
    result = Engine().search(position, depth=6, progress=lambda r: seen.append(r.depth) or r.depth == 2)
    assert seen == [1, 2] and result.depth == 2


@pytest.mark.parametrize("algorithm", ["paranoid", "maxn", "brs"])
def test_progress_in_the_n_player_searches(backend, algorithm):
    position = Rolit("RBYG", backend=backend.name).play("f4")
    seen, result = _reports(Engine(algorithm=algorithm), position, depth=3)
    assert [r.depth for r in seen] == [1, 2, 3]
    assert (seen[-1].move, seen[-1].score, seen[-1].pv) == (result.move, result.score, result.pv)


def test_stop_from_another_thread_returns_the_last_finished_iteration(backend):
    # No time limit and depth 99: only stop() can end this search.
    player = EnginePlayer(depth=99)
    reported = threading.Event()
    depths = []

    def progress(result):
        depths.append(result.depth)
        reported.set()

    player.progress = progress
    position = Othello(backend=backend.name)
    chosen = []
    thread = threading.Thread(target=lambda: chosen.append(player.choose_move(position)))
    thread.start()
    assert reported.wait(60)
    player.stop()
    thread.join(60)
    assert not thread.is_alive(), "stop() did not end the search"
    assert chosen[0] in position.legal_moves()
    assert player.last_result.depth == depths[-1] >= 1


def test_stop_without_a_search_changes_nothing(backend):
    engine = Engine()
    engine.stop()  # nothing runs: the next search is not cut short
    assert engine.search(Othello(backend=backend.name), depth=3).depth == 3


# -- MCTS: reports at clock intervals, stop() between iterations ------------------------------

#: Iterations that take some 0.3 s or more on each backend: long enough for reports.
LONG_MCTS = {"cython": 80_000, "python": 1_000}


def _tree_snapshot(tree):
    return (tree.iterations, tree.root_children(), tree.principal_variation(), tree.node_count, tree.rng_state)


def test_mcts_progress_changes_no_iteration(backend):
    # The same seeded search with and without a progress hook: the same tree, step for step.
    iterations = LONG_MCTS[backend.name]
    snapshots, calls = [], []
    for progress in (None, lambda *report: calls.append(report)):
        tree = backend.mcts.MCTSTree(seed=7)
        core = backend.othello.OthelloCore(8)
        tree.search(core, SearchLimits(nodes=iterations), progress=progress)
        snapshots.append(_tree_snapshot(tree))
    assert snapshots[0] == snapshots[1] and calls
    done, depth, score, pv, states = calls[-1]
    assert 0 < done < iterations and 0 < depth and 0 <= score <= 1000 and pv and states >= done
    assert [c[0] for c in calls] == sorted({c[0] for c in calls})  # one report per interval


def test_mcts_progress_reports_what_the_search_found(backend):
    position = Rolit("RBYG", backend=backend.name).play("f4")
    seen = []
    result = MCTS(seed=3, backend=backend.name).search(
        position, iterations=10**9, progress=lambda r: seen.append(r) or len(seen) == 3
    )
    assert len(seen) == 3 and result.iterations == seen[-1].iterations
    assert [r.iterations for r in seen] == sorted(r.iterations for r in seen)
    for r in seen:
        assert r.pv[0] == r.move and r.move in position.legal_moves() and 0 <= r.score <= 1000
    # the last report is the answer the search returns
    assert (seen[-1].move, seen[-1].pv, seen[-1].nodes) == (result.move, result.pv, result.nodes)


def test_mcts_progress_that_raises_leaves_a_usable_tree(backend):
    mcts = MCTS(seed=1, backend=backend.name)
    position = Othello(6, backend=backend.name)

    def broken(result):
        raise ZeroDivisionError("the caller's hook")

    with pytest.raises(ZeroDivisionError):
        mcts.search(position, iterations=10**9, progress=broken)
    assert mcts.search(position, iterations=50).iterations == 50  # afresh, not half-counted


@pytest.mark.parametrize("via", ["mcts", "engine", "player"])
def test_mcts_stop_from_another_thread(backend, via):
    # No time limit and a budget of 10**9 iterations: only stop() can end these searches.
    position = Tetralath(backend=backend.name).play("e5")
    reported = threading.Event()
    seen = []

    def progress(result):
        seen.append(result.iterations)
        reported.set()

    if via == "mcts":
        searcher = MCTS(seed=2, backend=backend.name)
        run = lambda: searcher.search(position, iterations=10**9, progress=progress)  # noqa: E731
    elif via == "engine":
        searcher = Engine(algorithm="mcts", seed=2)
        run = lambda: searcher.search(position, nodes=10**9, progress=progress)  # noqa: E731
    else:
        searcher = MCTSPlayer(iterations=10**9, time=None, seed=2)
        searcher.progress = progress
        run = lambda: searcher.choose_move(position)  # noqa: E731
    answers = []
    thread = threading.Thread(target=lambda: answers.append(run()))
    thread.start()
    assert reported.wait(60)
    searcher.stop()
    thread.join(60)
    assert not thread.is_alive(), "stop() did not end the MCTS search"
    answer = answers[0]
    move = answer if via == "player" else answer.move
    assert move in position.legal_moves()
    if via != "player":
        assert seen[0] <= answer.iterations < 10**9
    # an old stop() does not cut the next search short
    if via == "mcts":
        assert searcher.search(position, iterations=30).iterations == 30
    elif via == "engine":
        assert searcher.search(position, nodes=30).iterations == 30
    else:
        searcher.iterations = 30
        searcher.choose_move(position)
        assert searcher.last_result.iterations == 30
