"""The tree split of ``gamecore solve`` (:mod:`gamecore.search.split`), in both backends.

- the board's symmetries: eight distinct permutations, a position and its images share one
  canonical form, and symmetric positions have the same value (the solver's);
- the split's value and best move against one solve of the root (every window, both
  backends), and the twins agree on the nodes of a split solve;
- the perfect line through the split keeps the value move by move;
- a Dask LocalCluster gives the value and the line of one process, with a worker killed
  during the run, and a journal that a rerun reads instead of solving again (skipped naming
  the extra when Dask is missing).
"""

from __future__ import annotations

import threading
import time

import pytest

from gamecore.cli import main
from gamecore.games.othello import Othello
from gamecore.search.perfect import perfect_line
from gamecore.search.split import (
    DaskJobs,
    Journal,
    SplitStopped,
    ThreadJobs,
    TreeSplit,
    canonical,
    solve_job,
    symmetries,
)
from gamecore.ui.othello import load_record

#: Feinstein's perfect 6x6 line (see test_solve.py): its positions have known values.
FEINSTEIN = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1"


def position_after(moves: int, backend: str) -> Othello:
    game = Othello(6, backend=backend)
    load_record(game, FEINSTEIN[: 2 * moves])
    return game


def test_symmetries_are_the_eight_of_the_square():
    perms = symmetries(6)
    assert len(set(perms)) == 8 and perms[0] == tuple(range(36))
    for perm in perms:
        assert sorted(perm) == list(range(36))
    # The corners go to corners, and every symmetry maps the start onto a start.
    corners = {0, 5, 30, 35}
    assert all({perm[c] for c in corners} == corners for perm in perms)


def test_symmetric_positions_share_the_canonical_form_and_the_value(backend):
    start = Othello(6, backend=backend.name)
    children = []
    for move in start.legal_moves():  # the four first moves are images of one another
        child = start.copy()
        child.push(move)
        children.append(child)
    keys = {canonical(*child.core.bitboards(), child.core.turn, 6) for child in children}
    assert len(keys) == 1
    # 24 plies down (12 empty squares: cheap to solve): every image of a position has its value.
    game = position_after(24, backend.name)
    black, white = game.core.bitboards()
    solve = game._backend.endgame.solve_exact
    values = set()
    for perm in symmetries(6):
        image = Othello(6, backend=backend.name)
        image.core.set_board(
            *(sum(1 << perm[sq] for sq in range(36) if bits >> sq & 1) for bits in (black, white)), game.core.turn
        )
        values.add(solve(image.core)[1])
    assert values == {-4}  # Feinstein's line keeps white's 20-16


@pytest.mark.parametrize("window", [(-36, 36), (-5, -3), (-4, 36), (-36, -4), (0, 2)])
def test_split_agrees_with_one_solve(backend, window):
    game = position_after(16, backend.name)  # 16 empty squares
    solve = game._backend.endgame.solve_exact
    alpha, beta = window
    move, score, _, _ = solve(game.core.copy(), alpha, beta)
    jobs = []

    def leaf(core, a, b):
        jobs.append((a, b))
        m, s, _, completed = solve(core, a, b)
        return m, s, completed

    tree = TreeSplit(6, backend.name, 2, leaf, order_depth=2, min_empties=8)
    split_move, split_score = tree.solve(game.core.copy(), alpha, beta)
    if alpha < score < beta:
        assert split_score == score == -4
        assert split_move == move or solve(_after(game, split_move).core)[1] == 4
    elif score <= alpha:
        assert split_score <= alpha
    else:
        assert split_score >= beta
    assert jobs and tree.nodes > 0


def _after(game: Othello, move: int) -> Othello:
    child = game.copy()
    child.push(game.move_from_code(move))
    return child


def test_split_line_keeps_the_value(backend):
    game = position_after(18, backend.name)  # 14 empty squares
    result = perfect_line(game, split_plies=2)
    assert result.completed and result.value == -4 and result.describe() == "white wins 20-16"
    solve = game._backend.endgame.solve_exact
    position, value = game.copy(), result.value
    for move in result.line:
        position.push(move)
        value = -value
        if not position.is_game_over():
            assert solve(position.core.copy())[1] == value, f"{move} does not keep the value"


def test_backends_agree_on_a_split_solve(backends):
    results = [perfect_line(position_after(20, b.name), split_plies=2) for b in backends]
    assert len({(r.value, tuple(str(m) for m in r.line), r.nodes) for r in results}) == 1


def test_threads_give_the_value_and_a_perfect_line():
    game = position_after(14, "cython")  # 22 empty squares
    jobs = ThreadJobs(2, 6, "cython", 16)
    try:
        result = perfect_line(game, split_plies=2, jobs=jobs)
    finally:
        jobs.close()
    assert result.completed and result.value == -4 and jobs.nodes > 0
    solve = game._backend.endgame.solve_exact
    position, value = game.copy(), -4
    for move in result.line[:6]:  # the split's moves: each keeps the value
        position.push(move)
        value = -value
        assert solve(position.core.copy())[1] == value


def test_closing_the_threads_stops_a_running_job():
    jobs = ThreadJobs(1, 6, "cython", 16)
    black, white = Othello(6).core.bitboards()
    running = jobs.pool.submit(solve_job, 6, black, white, 0, -36, 36, "cython", 16, jobs.stop)  # a minute's job
    time.sleep(0.3)
    start = time.monotonic()
    jobs.close()  # what Ctrl-C or a time limit does: the job stops at its next clock reading
    assert time.monotonic() - start < 5
    assert isinstance(running.exception(), SplitStopped)


def test_command_threads_and_journal_errors(capsys):
    assert main(["solve", "--size", "6", "--moves", "c2b4c5d2e4e3d1c1b1d5", "--progress", "0", "--threads", "2"]) == 0
    assert "white wins 20-16" in capsys.readouterr().out
    assert main(["solve", "--size", "4", "--journal", "x.jsonl"]) != 0
    assert "--journal" in capsys.readouterr().err


def test_journal_round_trip(tmp_path):
    path = tmp_path / "jobs.jsonl"
    journal = Journal(path)
    key = Journal.key(6, 1, 2, 0, -1, 1)
    assert journal.get(key) is None
    journal.add(key, 7, -4)
    assert Journal(path).get(key) == (7, -4)


def test_dask_local_cluster_survives_a_killed_worker(tmp_path):
    distributed = pytest.importorskip(
        "distributed", reason='Dask distributed is not installed (pip install "gamecore[cluster]")'
    )
    game = position_after(16, "cython")  # 20 empty squares: jobs of a few ms each
    one = perfect_line(game, split_plies=0)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = distributed.Client(cluster)
    try:
        journal = tmp_path / "jobs.jsonl"
        jobs = DaskJobs(client, 6, "cython", 16, Journal(journal))
        killed = []

        def kill_a_worker():  # once jobs run: the first worker's process exits (its nanny restarts it)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not killed:
                busy = [w for w, tasks in client.processing().items() if tasks]
                if busy:
                    try:
                        client.run(lambda: __import__("os")._exit(1), workers=busy[:1], wait=False)
                    except Exception:  # noqa: BLE001 - the worker may already be gone
                        pass
                    killed.append(busy[0])
                time.sleep(0.005)

        killer = threading.Thread(target=kill_a_worker)
        killer.start()
        result = perfect_line(game, split_plies=2, jobs=jobs)
        killer.join()
        assert killed, "no job was seen running"
        assert result.completed and result.value == one.value == -4
        # The same line as one process splitting the same way.
        local = perfect_line(game, split_plies=2)
        assert [str(m) for m in result.line] == [str(m) for m in local.line]
        # A rerun with the journal solves none of the value's jobs again.
        before = len(Journal(journal).done)
        assert before > 0
        again = perfect_line(game, split_plies=2, jobs=DaskJobs(client, 6, "cython", 16, Journal(journal)))
        assert again.value == -4 and len(Journal(journal).done) == before
    finally:
        client.close()
        cluster.close()
