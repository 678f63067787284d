"""One ``EndgameTable`` shared by the threads of a solve (``gamecore solve --threads N``), in both
backends.

- solves in several threads at once on one table give the values of solves alone, whatever
  the interleaving (many rounds, windows of every kind, positions that share subtrees);
- a table in use can be shared (no refusal) but not cleared, and is free again afterwards;
- two threads on one table do fewer nodes than the same two solves on tables of their own;
- ``--threads 2`` (:class:`~gamecore.search.split.ThreadJobs`, one table for its threads) gives
  the value of one process and a perfect line, on shipped-book positions of known value.
"""

from __future__ import annotations

import threading
import time

from gamecore.games.othello import Othello
from gamecore.search.book import opening_book
from gamecore.search.perfect import perfect_line
from gamecore.search.split import ThreadJobs
from gamecore.ui.othello import load_record
from othello_helpers import assert_keeps_the_value

#: Feinstein's perfect 6x6 line (see test_solve.py): white wins 20-16 all along it.
FEINSTEIN = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1"


def line_position(plies: int, backend: str) -> Othello:
    game = Othello(6, backend=backend)
    load_record(game, FEINSTEIN[: 2 * plies])
    return game


def positions_near(plies: int, backend: str) -> list[Othello]:
    """The position after ``plies`` moves of the line and each of its children: subtrees that
    overlap, so that concurrent solves meet in the table's buckets."""
    game = line_position(plies, backend)
    positions = [game]
    for move in game.legal_moves():
        child = game.copy()
        child.push(move)
        positions.append(child)
    return positions


def in_threads(*work):
    """Run the callables in threads of their own, all started together; their results."""
    results: list = [None] * len(work)
    errors: list[BaseException] = []
    start = threading.Barrier(len(work))

    def run(i):
        try:
            start.wait()
            results[i] = work[i]()
        except BaseException as exc:  # noqa: BLE001 (reported by the test)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return results


def agrees(score: int, value: int, alpha: int, beta: int) -> bool:
    """Whether a fail-soft score in (alpha, beta) is right about the exact value."""
    if score <= alpha:
        return value <= score
    if score >= beta:
        return value >= score
    return score == value


def test_concurrent_solves_on_one_table_are_exact(backend):
    endgame = backend.endgame
    rounds = 12 if backend.name == "cython" else 2
    # 18 empty squares and their children (the twin, slow: 12)
    positions = positions_near(14 if backend.name == "cython" else 20, backend.name)
    values = [endgame.solve_exact(p.core.copy())[1] for p in positions]  # alone, each its own table
    windows = [(-36, 36), (-1, 1), (-5, -3), (0, 36), (-36, 0), (3, 5)]

    def solver(order: list[int], table, shift: int):
        def work():
            found = []
            for k, i in enumerate(order):
                alpha, beta = windows[(k + shift) % len(windows)]
                move, score, _, completed = endgame.solve_exact(positions[i].core.copy(), alpha, beta, table=table)
                found.append((i, alpha, beta, move, score, completed))
            return found

        return work

    forward = list(range(len(positions)))
    for round_ in range(rounds):
        table = endgame.EndgameTable(12 if round_ % 2 else 16)  # small: many collisions and overwrites
        for found in in_threads(solver(forward, table, round_), solver(forward[::-1], table, round_ + 1)):
            for i, alpha, beta, move, score, completed in found:
                assert completed
                assert agrees(score, values[i], alpha, beta), (round_, i, alpha, beta, score, values[i])
                if alpha < score < beta and move is not None:  # an exact score: its move keeps it
                    child = positions[i].core.copy()
                    child.push(move)
                    assert -endgame.solve_exact(child)[1] == values[i]


def test_a_table_in_use_is_shared_but_not_cleared(backend):
    endgame = backend.endgame
    table = endgame.EndgameTable(14)
    game = line_position(12, backend.name)  # 24 empty squares: long enough to meet it running
    stop = bytearray(1)
    seen: dict[str, object] = {}

    def long_solve():
        return endgame.solve_exact(game.core.copy(), table=table, _stop=stop)

    small = line_position(26, backend.name)
    value = endgame.solve_exact(small.core.copy())[1]

    def meanwhile():
        deadline = time.monotonic() + 30
        while table.users == 0 and time.monotonic() < deadline:  # the long solve has started
            time.sleep(0.001)
        assert table.users == 1
        seen["value"] = endgame.solve_exact(small.core.copy(), table=table)[1]  # no refusal
        try:
            table.clear()
        except RuntimeError as exc:
            seen["clear"] = str(exc)
        stop[0] = 1

    in_threads(long_solve, meanwhile)
    assert seen["value"] == value
    assert "in use" in str(seen.get("clear"))
    assert table.users == 0
    table.clear()  # free again once the solves are done


def test_a_thread_finds_another_threads_entries(backend):
    endgame = backend.endgame
    game = line_position(14 if backend.name == "cython" else 20, backend.name)  # 18 empty squares, 12
    alone = endgame.solve_exact(game.core.copy(), table=endgame.EndgameTable(18))
    assert alone[1] == -4
    table = endgame.EndgameTable(18)
    first = in_threads(lambda: endgame.solve_exact(game.core.copy(), table=table))[0]
    second = in_threads(lambda: endgame.solve_exact(game.core.copy(), table=table))[0]
    assert first[1] == second[1] == -4 and first[3] and second[3]
    assert first[2] == alone[2]  # a fresh table: the same search
    # The second thread reads what the first stored (a table of its own would redo it all).
    # Run one after the other: two at once may race through the same nodes before either
    # stores them, so how many they share there depends on the scheduling.
    assert second[2] < 0.1 * alone[2]


def book_positions(empties: int, indices: list[int]) -> list[tuple[tuple[int, int, int], int]]:
    """Shipped-book positions of ``empties`` empty squares (those at ``indices`` in key order)
    and their values."""
    book = opening_book(6)
    assert book is not None
    found = [
        (key, value)
        for key, (value, _) in sorted(book.entries.items())
        if 36 - key[0].bit_count() - key[1].bit_count() == empties
    ]
    return [found[i] for i in indices]


def test_threads_give_the_value_of_one_process_and_a_perfect_line(backend):
    empties = 24 if backend.name == "cython" else 14
    if backend.name == "cython":
        cases = book_positions(24, [24])  # 24 empty squares solved in two seconds
    else:
        game = line_position(18, "python")
        cases = [((*game.core.bitboards(), game.core.turn), -4)]
    for (black, white, turn), value in cases:
        game = Othello(6, backend=backend.name)
        game.core.set_board(black, white, turn)
        assert 36 - sum(game.score()) == empties
        alone = perfect_line(game)
        jobs = ThreadJobs(2, 6, backend.name, 18)
        try:
            threaded = perfect_line(game, split_plies=2, jobs=jobs)
        finally:
            jobs.close()
        assert alone.value == threaded.value == value
        assert_keeps_the_value(backend.endgame, game, threaded.line, value)
