"""Solving from a few plies down: the top of the tree searched here, the subtrees below it
solved as jobs by the exact solver (``solve_exact`` of the position's backend), in this
process or on a Dask cluster.

The top ``plies`` plies are a fail-soft negamax with principal-variation search: the first
child of a node gets the node's window, the others a null window just above the best so far
(a proof that they are no better, far cheaper than their value), and only a child that
fails high is solved again with the open window. Two things make this cheaper than one
solve of the root:

- **Symmetry.** Positions that one of the board's eight symmetries maps onto each other have
  the same value, so of the children that are images of each other only the first is
  searched: the four first moves of the 6x6 or 8x8 start are one, and so are many replies a
  few plies down. The solver's table cannot see this (it keys exact discs).
- **Ordering.** The children are tried in the order of a short search with the learned
  evaluation (:data:`ORDER_DEPTH` plies), best first: the first child is then almost always
  the best and the others fail low at the price of a proof.

The jobs share bounds through their windows: each is given the window its parent has reached
when it starts (narrower as the search goes on). On a cluster (:class:`DaskJobs`) the first
child of every node a ply above the jobs is solved first, then all its siblings' null-window
jobs at once (young brothers wait); a worker lost mid-job is survived because Dask runs its
jobs again elsewhere, and a ``journal`` file keeps the jobs done, so that a restarted solve
does not do them again.
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .. import _backend
from ..errors import InvalidOptionError
from ..games.othello import Othello
from .engine import Engine

__all__ = [
    "ORDER_DEPTH",
    "symmetries",
    "canonical",
    "is_symmetric",
    "SplitStopped",
    "TreeSplit",
    "Journal",
    "solve_job",
    "DaskJobs",
    "ThreadJobs",
]

#: Plies of the learned-evaluation search that orders the children of a split node.
ORDER_DEPTH = 4
_PASS = -1


@functools.cache
def symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The eight symmetries of the n x n board as square permutations (``perm[square]`` is the
    square's image); the identity first."""
    perms = []
    for transpose in (False, True):
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                perm = []
                for square in range(n * n):
                    r, c = divmod(square, n)
                    if transpose:
                        r, c = c, r
                    if flip_rows:
                        r = n - 1 - r
                    if flip_cols:
                        c = n - 1 - c
                    perm.append(r * n + c)
                perms.append(tuple(perm))
    return tuple(perms)


def _transform(bits: int, perm: tuple[int, ...]) -> int:
    image = 0
    while bits:
        low = bits & -bits
        image |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return image


def canonical(black: int, white: int, turn: int, n: int) -> tuple[int, int, int]:
    """The smallest of the position's eight symmetric images, ``(black, white, turn)``: two
    positions have the same one exactly when a symmetry maps one onto the other (then their
    values are the same)."""
    b, w = min((_transform(black, p), _transform(white, p)) for p in symmetries(n))
    return b, w, turn


def empties_of(core: Any) -> int:
    """Empty squares of an Othello core (either backend)."""
    return int(core.size * core.size - sum(core.counts()))


def final_value(core: Any) -> int:
    """The final disc difference of a finished game for the side to move, empty squares to
    the winner."""
    black, white = (int(x) for x in core.counts())
    diff = black - white if core.turn == 0 else white - black
    empty = core.size * core.size - black - white
    return diff + (empty if diff > 0 else -empty if diff < 0 else 0)


def is_symmetric(core: Any) -> bool:
    """True when a symmetry of the board other than the identity maps the position onto itself
    (then some of its moves are equivalent)."""
    black, white = core.bitboards()
    return any(
        _transform(black, perm) == black and _transform(white, perm) == white for perm in symmetries(core.size)[1:]
    )


class SplitStopped(Exception):
    """A job stopped before its end (time limit, Ctrl-C, a stop request): nothing proven above it."""


#: A job: (move, score, completed) of the solver for a core and a window, as ``solve_exact``.
Leaf = Callable[[Any, int, int], tuple[int | None, int, bool]]


class TreeSplit:
    """The top ``plies`` plies of a solve searched here, the positions below by ``leaf``.

    ``leaf(core, alpha, beta)`` solves one job (``(move, score, completed)`` as
    ``solve_exact``); ``batch`` (optional) solves several at once: ``batch([(core, alpha,
    beta), ...])`` yields ``(index, score)`` as they finish (a cluster). ``size`` and
    ``backend`` are the position's; ``order_depth`` the ordering search's plies (0: the
    moves in square order). ``min_empties``: a position with no more empty squares than this
    is always one job. ``nodes`` counts the split's own nodes (the jobs count theirs).
    """

    def __init__(
        self,
        size: int,
        backend: str,
        plies: int,
        leaf: Leaf,
        *,
        batch: Callable[[list[tuple[Any, int, int]]], Iterator[tuple[int, int]]] | None = None,
        order_depth: int = ORDER_DEPTH,
        min_empties: int = 12,
    ) -> None:
        if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= 16:
            raise InvalidOptionError(f"split plies must be an int from 0 to 16, got {plies!r}")
        self.size = size
        self.backend = backend
        self.plies = plies
        self.leaf = leaf
        self.batch = batch
        self.order_depth = order_depth
        self.min_empties = min_empties
        self.nodes = 0
        self.jobs = 0
        self._engine: Any = None

    # -- the tree -------------------------------------------------------------------------

    def solve(self, core: Any, alpha: int, beta: int) -> tuple[int | None, int]:
        """``(best move, score)`` of ``core`` in the window, fail-soft as ``solve_exact``
        (the move None at game over, -1 for a forced pass, and only meaningful with a score
        inside the window). Raises :class:`SplitStopped` when a job stops early."""
        return self._search(core, alpha, beta, self.plies)

    def _job(self, core: Any, alpha: int, beta: int) -> tuple[int | None, int]:
        self.jobs += 1
        move, score, completed = self.leaf(core, alpha, beta)
        if not completed:
            raise SplitStopped
        return move, score

    def _search(self, core: Any, alpha: int, beta: int, plies: int) -> tuple[int | None, int]:
        if core.is_game_over():
            self.nodes += 1
            return None, final_value(core)
        if plies <= 0 or empties_of(core) <= self.min_empties:
            return self._job(core, alpha, beta)
        self.nodes += 1
        moves = core.legal_moves()
        if moves == [_PASS]:
            child = core.copy()
            child.push(_PASS)
            return _PASS, -self._search(child, -beta, -alpha, plies)[1]
        children = self._children(core, moves)
        if plies == 1 and self.batch is not None and len(children) > 1:
            return self._search_batch(children, alpha, beta)
        best, best_move = -(self.size * self.size) - 1, None
        for i, (move, child) in enumerate(children):
            if i == 0:
                score = -self._search(child, -beta, -alpha, plies - 1)[1]
            else:
                score = -self._search(child, -alpha - 1, -alpha, plies - 1)[1]
                if alpha < score < beta:  # at least `score`: its value
                    score = -self._search(child, -beta, -(score - 1), plies - 1)[1]
            if score > best:
                best, best_move = score, move
                if best >= beta:
                    break
                alpha = max(alpha, best)
        return best_move, best

    def _search_batch(self, children: list[tuple[int, Any]], alpha: int, beta: int) -> tuple[int | None, int]:
        """The last ply above the jobs on a cluster: the first child alone (its value sets the
        window), then every other child's null-window job at once; one that fails high is
        solved again in the window reached by then."""
        assert self.batch is not None
        first_move, first = children[0]
        best, best_move = -self._job(first, -beta, -alpha)[1], first_move
        if best >= beta:
            return best_move, best
        alpha = max(alpha, best)
        probe_alpha = alpha
        rest = children[1:]
        self.jobs += len(rest)
        failed_high = []
        for index, score in self.batch([(child, -probe_alpha - 1, -probe_alpha) for _, child in rest]):
            score = -score
            if score > probe_alpha:
                failed_high.append((index, score))
            elif score > best:  # an upper bound above the best (the window was above it)
                best, best_move = score, rest[index][0]
        for index, score in sorted(failed_high):
            move, child = rest[index]
            if score < beta:  # at least `score`: its value in the window reached by now
                low = max(alpha, score - 1)
                score = -self._job(child, -beta, -low)[1]
            if score > best:
                best, best_move = score, move
                if best >= beta:
                    break
                alpha = max(alpha, best)
        return best_move, best

    # -- children: one per symmetry class, best first -------------------------------------

    def _children(self, core: Any, moves: list[int]) -> list[tuple[int, Any]]:
        seen = set()
        children = []
        for move in moves:
            child = core.copy()
            child.push(move)
            black, white = child.bitboards()
            key = canonical(black, white, child.turn, self.size)
            if key in seen:
                continue
            seen.add(key)
            children.append((move, child))
        if self.order_depth > 0 and len(children) > 1:
            scores = [self._estimate(child) for _, child in children]
            order = sorted(range(len(children)), key=lambda i: (scores[i], children[i][0]))
            children = [children[i] for i in order]
        return children

    def _estimate(self, child: Any) -> int:
        """The child's value for the side to move there by a short search (lower: better for
        the parent)."""
        if self._engine is None:
            self._engine = Engine(tt_mb=4)
        position = Othello(self.size, backend=self.backend)
        black, white = child.bitboards()
        position.core.set_board(black, white, child.turn)
        if position.is_game_over():
            return final_value(position.core) * 10_000
        return int(self._engine.search(position, depth=self.order_depth).score)


# -- jobs on a cluster ---------------------------------------------------------------------


class Journal:
    """The jobs done, kept in a file (one JSON object a line) so that a solve started again
    with the same file does not solve them again. Thread-safe."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = path
        self.done: dict[str, tuple[int | None, int]] = {}
        self._lock = threading.Lock()
        if path is not None and os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    if line.strip():
                        entry = json.loads(line)
                        self.done[entry["job"]] = (entry["move"], int(entry["score"]))

    @staticmethod
    def key(size: int, black: int, white: int, turn: int, alpha: int, beta: int) -> str:
        return f"{size}:{black:x}:{white:x}:{turn}:{alpha}:{beta}"

    def get(self, key: str) -> tuple[int | None, int] | None:
        """``(move, score)`` of a job done, else None."""
        with self._lock:
            return self.done.get(key)

    def add(self, key: str, move: int | None, score: int) -> None:
        with self._lock:
            self.done[key] = (move, score)
            if self.path is not None:
                with open(self.path, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps({"job": key, "move": move, "score": score}) + "\n")


#: Per process (a cluster's worker): the table of the jobs of each backend and size, shared by
#: the worker's threads (the solver's tables are lock-free).
_WORKER_TABLES: dict[tuple[str, int], Any] = {}
_WORKER_LOCK = threading.Lock()


def worker_table(backend: str, table_bits: int) -> Any:
    """This process's ``EndgameTable`` of ``2 ** table_bits`` entries for the backend, made at
    its first job and kept: a later job starts from what the earlier ones proved."""
    with _WORKER_LOCK:
        table = _WORKER_TABLES.get((backend, table_bits))
        if table is None:
            table = _backend.load(backend).endgame.EndgameTable(table_bits)
            _WORKER_TABLES[(backend, table_bits)] = table
        return table


def solve_job(
    size: int,
    black: int,
    white: int,
    turn: int,
    alpha: int,
    beta: int,
    backend: str,
    table_bits: int,
    stop: bytearray | None = None,
    table: Any = None,
) -> tuple[int | None, int, int]:
    """One job on a worker: ``(move, score, nodes)`` of the position in the window (fail-soft),
    solved with ``table`` (an ``EndgameTable`` of the backend), by default the worker's
    (:func:`worker_table`), which the jobs running meanwhile in the worker's other threads
    share: each finds what the others proved. ``stop`` (threads of one process): a nonzero
    byte stops the job (:class:`SplitStopped`)."""
    game = Othello(size, backend=backend)
    game.core.set_board(black, white, turn)
    if table is None:
        table = worker_table(backend, table_bits)
    move, score, nodes, completed = game._backend.endgame.solve_exact(game.core, alpha, beta, table=table, _stop=stop)
    if not completed:  # stopped by `stop`: no other limit is given to a job
        raise SplitStopped
    return move, int(score), int(nodes)


@dataclass
class DaskJobs:
    """Jobs on a Dask cluster: ``client`` a ``distributed.Client``. ``leaf`` and ``batch`` are
    :class:`TreeSplit`'s; ``nodes`` adds up the jobs' nodes."""

    client: Any
    size: int
    backend: str
    table_bits: int
    journal: Journal
    nodes: int = 0

    def _args(self, core: Any, alpha: int, beta: int) -> tuple[Any, ...]:
        black, white = core.bitboards()
        return self.size, black, white, core.turn, alpha, beta

    def _submit(self, args: tuple[Any, ...]) -> Any:
        # pure=False: a job run again after a worker's death is a new run, never a cached failure
        return self.client.submit(solve_job, *args, self.backend, self.table_bits, pure=False, retries=2)

    def _as_completed(self, futures: list[Any]) -> Iterator[Any]:
        from dask.distributed import as_completed  # noqa: PLC0415 (optional extra)

        return iter(as_completed(futures))

    def leaf(self, core: Any, alpha: int, beta: int) -> tuple[int | None, int, bool]:
        for _, move, score in self._run([(core, alpha, beta)]):
            return move, score, True
        return None, 0, False  # pragma: no cover

    def batch(self, jobs: list[tuple[Any, int, int]]) -> Iterator[tuple[int, int]]:
        for index, _, score in self._run(jobs):
            yield index, score

    def _run(self, jobs: list[tuple[Any, int, int]]) -> Iterator[tuple[int, int | None, int]]:
        """``(index, move, score)`` of each job as it finishes (from the journal if done before)."""
        futures = {}
        for index, (core, alpha, beta) in enumerate(jobs):
            args = self._args(core, alpha, beta)
            key = Journal.key(*args)
            done = self.journal.get(key)
            if done is not None:
                yield index, done[0], done[1]
                continue
            futures[self._submit(args)] = (index, key)
        try:
            for future in self._as_completed(list(futures)):
                move, score, nodes = future.result()
                index, key = futures[future]
                self.nodes += nodes
                self.journal.add(key, move, score)
                yield index, move, score
        finally:
            for future in futures:
                future.cancel()


class ThreadJobs(DaskJobs):
    """Jobs on ``threads`` threads of this process (the compiled solver runs without the GIL):
    the cluster's scheme on one machine's cores, all the threads on one ``table`` (an
    ``EndgameTable`` of ``2 ** table_bits`` entries, lock-free), made for these jobs: the elder
    brother's job fills it before its brothers' null-window jobs start, which then find its
    entries and each other's."""

    def __init__(self, threads: int, size: int, backend: str, table_bits: int) -> None:
        super().__init__(None, size, backend, table_bits, Journal(None))
        self.table = _backend.load(backend).endgame.EndgameTable(table_bits)
        self.pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="gamecore-solve")
        self.stop = bytearray(1)  # set by close: the jobs still running stop (Ctrl-C, a time limit)

    def _submit(self, args: tuple[Any, ...]) -> Any:
        size, black, white, turn, alpha, beta = args
        return self.pool.submit(
            solve_job, size, black, white, turn, alpha, beta, self.backend, self.table_bits, self.stop, self.table
        )

    def _as_completed(self, futures: list[Any]) -> Iterator[Any]:
        return concurrent.futures.as_completed(futures)

    def close(self) -> None:
        self.stop[0] = 1
        self.pool.shutdown(wait=True, cancel_futures=True)
