"""The searches' progress hook and stop(): what the web board's live thinking reads."""

from __future__ import annotations

import threading

import pytest

from gamecore import Engine, Othello, Rolit, Tetralath
from gamecore.players import EnginePlayer


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
