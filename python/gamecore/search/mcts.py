"""Monte-Carlo tree search (UCT) for users: a tree that follows a game move by move.

>>> from gamecore import Othello
>>> from gamecore.search.mcts import MCTS
>>> mcts = MCTS(seed=7)
>>> result = mcts.search(Othello(6), iterations=200)
>>> result.iterations, result.move in Othello(6).legal_moves()
(200, True)

The work is done by the backend's ``MCTSTree`` (``_mcts_py`` or ``_mcts_cy``); see
``gamecore/search/_mcts_py.py`` for the algorithm, the random generator and the reuse rule.
For the same seed and iteration budget both backends give the same result.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic

from .. import _backend
from ..errors import ConcurrentUseError, GameOverError, InvalidLimitError, InvalidOptionError, InvalidPositionError
from ..games.base import MoveT, Position
from . import _mcts_rules
from ._mcts_rules import check_implicit, check_mast
from ._options import SearchLimits, check_mcts_options

__all__ = ["MCTS", "MCTSResult", "DEFAULT_EXPLORATION"]

#: UCT's exploration constant (sqrt 2), the default of the trees of both backends.
DEFAULT_EXPLORATION: float = _mcts_rules.DEFAULT_EXPLORATION


@dataclass
class MCTSResult(Generic[MoveT]):
    """What one MCTS search found.

    ``score`` is the chosen move's win rate for the side to move, in per mille
    (draws count half; with more players a tie shares the point); ``values`` the
    root's win rate of every player in per mille (index = player); ``depth`` the
    deepest ply selection reached; ``nodes`` the states explored (positions played into,
    in selection and simulation, as ``SearchResult.nodes``); ``tree_size`` the tree's
    nodes; ``visits`` the root visit count of every legal move; ``reused_visits`` the visits the root already
    had from earlier searches (tree reuse); ``memory`` the tree's bytes.
    """

    move: MoveT
    score: int
    depth: int
    pv: list[MoveT]
    nodes: int
    iterations: int
    elapsed: float
    visits: dict[MoveT, int] = field(default_factory=dict)
    memory: int = 0
    values: list[int] = field(default_factory=list)
    reused_visits: int = 0
    tree_size: int = 0


#: What a time limit is measured on: the wall clock, or the searching thread's CPU time.
CLOCKS = ("wall", "cpu")


def clock_function(clock: str) -> Callable[[], float]:
    """The seconds of ``clock`` (one of ``CLOCKS``) as a function, or InvalidOptionError."""
    if clock == "wall":
        return time.perf_counter
    if clock == "cpu":
        return time.thread_time
    raise InvalidOptionError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")


def _standard_weights(position: Position[Any]) -> list[int]:
    """The weights of ``position``'s ``features()`` in its ``standard`` evaluation (implicit minimax's)."""
    table = type(position).EVALUATIONS.get("standard", {})
    return [table.get(name, 0) for name in position.features()]


def _to_move(position: Position[MoveT], code: int) -> MoveT:
    return position.move_from_code(code)


class MCTS:
    """A UCT search tree kept between the moves of a game (tree reuse), for any number of
    players (a reward per player in every node, max^n backups).

    :param seed: seed of the random generator (splitmix64).
    :param exploration: the UCB1 constant (default sqrt 2).
    :param max_nodes: bound on the tree's size.
    :param greedy: the share of greedy playout moves (the game's best move by its ordering
        heuristic, or with ``mast`` by the search's history, instead of a random one; among
        moves level at the top, one at random); None: 0 with two players, with more 0.5 when
        MAST is on and 0.25 when it is off.
    :param backend: ``"cython"`` or ``"python"``; default: the backend of the first position searched.
    :param history: progressive history's weight (Nijssen & Winands 2010: a move's mean
        reward over the search, for the player who makes it, steers selection while its
        node has few visits); None: 0 with two players, 5 with more.
    :param clock: what ``time_limit`` measures: ``"wall"`` (the wall clock) or ``"cpu"`` (the
        searching thread's CPU time, so that a budget means the same work on a loaded
        machine); the result's ``elapsed`` is on the same clock. The search runs until one
        more iteration would end past the limit.
    :param implicit: implicit minimax backups' weight alpha (Lanctot et al. 2014), 0 (off) to
        1; None: 0 with two players, 0.6 (``MULTIPLAYER_IMPLICIT``) with more in a search of at
        least 0.3 s (``IMPLICIT_FROM_SECONDS``) or with no time limit, else 0. Each node also keeps the max^n value of the game's ``standard``
        evaluation over the tree below it (every new leaf evaluated, values backed up as
        max^n), and selection mixes it in: ``(1 - alpha) * win rate + alpha * value share``.
    :param mast: the Move-Average Sampling Technique (Finnsson & Björnsson 2008) in the
        playouts: a greedy playout move (``greedy``) is the move with the best mean reward so
        far in this search for the player making it (untried moves first), then the game's
        ordering heuristic; ``None``: off with two players, on with more in a search of at least
        0.3 s (``MAST_FROM_SECONDS``) or with no time limit, where ``greedy=None`` is then 0.5
        (``MAST_GREEDY``). In four-player Rolit at 1 s a move it took the default engine from 53
        wins of 144 against Max^n, paranoid and BRS to 48 of 96 (docs/performance.md).

    One search at a time: a second thread searching with the same object gets
    :class:`~gamecore.errors.ConcurrentUseError` (give each thread its own ``MCTS``); a
    result is read inside its own search. Copies (``copy.deepcopy``, pickle) keep the
    settings and the generator state, not the tree.
    """

    def __init__(
        self,
        seed: int = 0,
        exploration: float = DEFAULT_EXPLORATION,
        max_nodes: int = 1_000_000,
        backend: str | None = None,
        greedy: float | None = None,
        clock: str = "wall",
        history: float | None = None,
        implicit: float | None = None,
        mast: bool | None = None,
    ) -> None:
        self._clock = clock_function(clock)
        self.clock = clock
        # Checked here, so that a bad option fails at construction, not at the first search.
        self.seed, self.exploration, self.max_nodes, self.greedy, self.history = check_mcts_options(
            seed, exploration, max_nodes, greedy, history
        )
        self.implicit = check_implicit(implicit)
        self.mast = check_mast(mast)
        self._backend_name = backend
        self._tree: Any = None
        self._lock = threading.Lock()
        if backend is not None:
            self._tree = self._make_tree(backend)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_lock"], state["_clock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state.setdefault("clock", "wall")
        state.setdefault("history", None)
        state.setdefault("implicit", None)
        state.setdefault("mast", None)
        self.__dict__.update(state)
        self._clock = clock_function(self.clock)
        self._lock = threading.Lock()

    def _make_tree(self, backend: str) -> Any:
        return _backend.load(backend).mcts.MCTSTree(
            self.seed, self.exploration, self.max_nodes, self.greedy, self.history, self.implicit, self.mast
        )

    @property
    def backend(self) -> str | None:
        """The backend its tree runs on (``None`` until the first search when none was given)."""
        return self._backend_name

    @property
    def tree(self) -> Any:
        """The backend's ``MCTSTree`` (``None`` before the first search)."""
        return self._tree

    def search(
        self,
        position: Position[MoveT],
        iterations: int | None = None,
        time_limit: float | None = None,
        progress: Callable[[MCTSResult[MoveT]], Any] | None = None,
    ) -> MCTSResult[MoveT]:
        """Search ``position`` (left unchanged) for ``iterations`` iterations and/or ``time_limit`` seconds.

        ``None`` is the only "no limit"; ``time_limit`` is a finite number of seconds.
        ``progress(result)``, when given, is called from the searching thread about every 0.1
        s of its clock with what the search found so far (``move``, ``score``, ``depth``,
        ``pv``, ``nodes``, ``iterations``, ``elapsed``; ``visits`` and ``values`` empty); a
        true return value ends the search there. :meth:`stop` ends it from another thread.

        :raises GameOverError: the game is over.
        :raises InvalidLimitError: neither limit given, or a limit out of range.
        :raises ConcurrentUseError: this object is searching in another thread.
        """
        if iterations is None and time_limit is None:
            raise InvalidLimitError("give iterations or time_limit")
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise InvalidLimitError(f"iterations must be an int >= 1, got {iterations!r}")
        if time_limit is not None and (
            isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit < math.inf
        ):
            raise InvalidLimitError(
                f"time_limit must be a finite number of seconds > 0 (None: no limit), got {time_limit!r}"
            )
        if not self._lock.acquire(blocking=False):
            raise ConcurrentUseError("this MCTS is already searching: give each thread its own MCTS")
        try:
            return self._search(position, iterations, time_limit, progress)
        finally:
            self._lock.release()

    def stop(self) -> None:
        """Make a search running in another thread return after its current iteration, with
        the most visited move so far. Does nothing when no search runs."""
        if self._tree is not None:
            self._tree.stop()

    def _search(
        self,
        position: Position[MoveT],
        iterations: int | None,
        time_limit: float | None,
        progress: Callable[[MCTSResult[MoveT]], Any] | None,
    ) -> MCTSResult[MoveT]:
        if position.is_game_over():
            raise GameOverError("the game is over: there is no move to search")
        backend = position.backend
        if self._tree is None:
            self._tree = self._make_tree(backend)
            self._backend_name = backend
        elif backend != self._backend_name:
            raise InvalidPositionError(
                f"this MCTS tree runs on the {self._backend_name} backend, the position is {backend}"
            )
        core = position.core.copy()
        start = self._clock()
        report = None
        if progress is not None:

            def report(done: int, depth: int, score: int, pv: list[int], states: int) -> Any:
                if not pv:  # no root move visited yet: nothing to show
                    return False
                moves = [_to_move(position, m) for m in pv]
                elapsed = self._clock() - start
                return progress(MCTSResult(moves[0], score, depth, moves, states, done, elapsed))

        weights = _standard_weights(position)
        limits = SearchLimits(nodes=iterations or 0, seconds=float(time_limit or 0.0), cpu_clock=self.clock == "cpu")
        done = self._tree.search(core, limits, report, weights)
        elapsed = self._clock() - start
        best = self._tree.best_move()
        unit = self._tree.REWARD_UNIT
        visits = {_to_move(position, move): count for move, count, _ in self._tree.root_children()}
        root_visits, root_rewards = self._tree.node_rewards()
        values = [(r * 1000) // (unit * root_visits) for r in root_rewards]
        return MCTSResult(
            move=_to_move(position, best),
            score=self._tree.best_score(),
            depth=self._tree.max_depth,
            pv=[_to_move(position, m) for m in self._tree.principal_variation()],
            nodes=self._tree.states,
            iterations=done,
            elapsed=elapsed,
            visits=visits,
            memory=self._tree.memory_bytes(),
            values=values,
            reused_visits=self._tree.reused_visits,
            tree_size=self._tree.node_count,
        )

    def reset(self) -> None:
        """Forget the tree (a new game); the random generator continues."""
        if self._tree is not None:
            self._tree.reset()
