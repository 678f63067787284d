"""One position solved by several threads on one shared table (``gamecore solve --threads N``).

The first thread searches the caller's whole window, as one thread alone would. The others
probe null windows from a guess of the value, MTD(f)'s way: the window ``(b - 1, b)``
answers only whether the value is at least ``b``, far more cheaply than the whole window;
the fail-soft bound it returns narrows the proven interval ``[lower, upper]`` and is the
next guess, until ``lower == upper``. All the threads share one ``EndgameTable`` (lock-free:
what one proves, the others find), so they do not repeat each other's work: each visits
about half the nodes it would alone. Whichever side proves the result first stops the other.

With more than two threads the extra ones run MTD(f) chains from guesses above and below the
first (``guess + step``, ``guess - step``, ...; ``step`` 2 on boards of an even number of
squares, where the values are even), sharing the proven interval. The compiled solver
releases the GIL; with the pure backend the threads take turns (the same values, no speed-up).
docs/solving.rst gives the figures.
"""

from __future__ import annotations

import threading
import time
from array import array
from typing import Any

from ..errors import InvalidOptionError

__all__ = ["ProbeRace", "MAX_THREADS"]

#: The most threads a race takes.
MAX_THREADS = 64


class ProbeRace:
    """Solves with ``threads`` (>= 2) threads on ``table`` (an ``EndgameTable`` of the
    ``endgame`` module's backend). ``nodes`` counts every thread's nodes, the stopped ones' too;
    :meth:`stop_all` stops a race in progress (Ctrl-C)."""

    def __init__(self, endgame: Any, table: Any, threads: int) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or not 2 <= threads <= MAX_THREADS:
            raise InvalidOptionError(f"a race needs 2 to {MAX_THREADS} threads, got {threads!r}")
        self.endgame = endgame
        self.table = table
        self.threads = threads
        self.nodes = 0
        self._stop = bytearray(1)
        self._counters: dict[int, array[int]] = {}  # the running searches' node counts, by id
        self._lock = threading.Lock()
        self._proven: dict[str, Any] = {"lower": None, "upper": None}

    def bounds(self) -> tuple[int | None, int | None]:
        """The interval the probes of the race in progress (or the last one) have proven so far:
        ``(lower, upper)``, None before any race."""
        with self._lock:
            return self._proven["lower"], self._proven["upper"]

    def running_nodes(self) -> int:
        """Nodes of the searches still running (for a progress line)."""
        with self._lock:
            return sum(int(counter[0]) for counter in self._counters.values())

    def stop_all(self) -> None:
        """Stop every thread of the race in progress."""
        self._stop[0] = 1

    def solve(
        self, core: Any, alpha: int, beta: int, guess: int, time_limit: float = 0.0
    ) -> tuple[int | None, int, bool]:
        """``(best move, score, completed)`` of ``core`` in the window ``(alpha, beta)``, fail-soft
        as ``solve_exact``: exact inside the window (with a best move), else a bound. ``guess``:
        where the probes start. ``time_limit`` > 0: stop after that many seconds of wall time
        from now, all the threads (then completed is False). An error in a thread stops the
        others and is raised here."""
        squares = core.size * core.size
        step = 2 if squares % 2 == 0 else 1
        self._stop[0] = 0
        # "low_move": a failing-low probe's best move, which a fail-low answer gives as
        # solve_exact's does (the perfect line of a lost position plays it: --wld's window).
        proven = self._proven = {"lower": -squares, "upper": squares, "move": None, "low_move": None}
        answer: list[tuple[int | None, int]] = []  # the first result proven, by either side
        failures: list[BaseException] = []  # a thread's error, raised here after the race
        deadline = time.perf_counter() + time_limit if time_limit > 0 else 0.0  # one for all probes

        def finish(move: int | None, score: int) -> None:
            with self._lock:
                if not answer:
                    answer.append((move, score))
                    self._stop[0] = 1

        def search(a: int, b: int) -> tuple[int | None, int, bool]:
            left = 0.0
            if deadline:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None, 0, False
            counter = array("q", [0, 0, 0])
            with self._lock:
                self._counters[id(counter)] = counter
            try:
                move, score, nodes, done = self.endgame.solve_exact(
                    core.copy(), a, b, time_limit=left, table=self.table, _stop=self._stop, _progress=counter
                )
            finally:
                with self._lock:
                    del self._counters[id(counter)]
            with self._lock:
                self.nodes += nodes
            return move, score, done

        def failing(work: Any) -> Any:
            """``work`` in a thread: an error stops the race and is raised by :meth:`solve`."""

            def run(*args: Any) -> None:
                try:
                    work(*args)
                except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
                    with self._lock:
                        failures.append(error)
                    self._stop[0] = 1

            return run

        def whole() -> None:
            move, score, done = search(alpha, beta)
            if done:
                finish(move, score)

        def probes(start: int) -> None:
            """MTD(f) from ``start``: null windows until the shared interval closes."""
            guess_here = start
            while not self._stop[0]:
                with self._lock:
                    lower, upper = proven["lower"], proven["upper"]
                if lower >= beta or upper <= alpha or lower == upper:
                    break
                b = min(max(guess_here, lower + 1), upper)  # the probe asks: value >= b?
                move, score, done = search(b - 1, b)
                if not done:
                    return
                with self._lock:
                    if score >= b:
                        if score > proven["lower"] or proven["move"] is None:
                            proven["lower"], proven["move"] = max(score, proven["lower"]), move
                    else:
                        proven["upper"] = min(proven["upper"], score)
                        proven["low_move"] = move
                guess_here = score
            with self._lock:
                lower, upper, move = proven["lower"], proven["upper"], proven["move"]
            if upper <= alpha:
                finish(proven["low_move"], upper)
            elif lower >= beta or (lower == upper and move is not None):
                finish(move, lower)

        offsets = [0] + [(k + 1) // 2 * step * (1 if k % 2 else -1) for k in range(1, self.threads - 1)]
        workers = [threading.Thread(target=failing(whole), name="gamecore-race-whole", daemon=True)]
        workers += [
            threading.Thread(target=failing(probes), args=(guess + offset,), name="gamecore-race-probes", daemon=True)
            for offset in offsets
        ]
        try:
            for worker in workers:
                worker.start()
            for worker in workers:
                while worker.is_alive():
                    worker.join(0.1)  # a timed join: Ctrl-C reaches this thread
        finally:
            self._stop[0] = 1
            for worker in workers:
                worker.join()
        if failures:
            raise failures[0]
        if not answer:
            return None, 0, False
        move, score = answer[0]
        return move, score, True
