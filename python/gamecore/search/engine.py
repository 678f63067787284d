"""Searching positions: ``search``, ``solve`` and the ``Engine`` that keeps its table between moves.

>>> from gamecore import Othello, search
>>> result = search(Othello(), depth=4)
>>> result.move in Othello().legal_moves(), result.depth
(True, 4)

The searches themselves live in the backends (``_alphabeta_*``, ``_multiplayer_*``,
``_mcts_*``), written once over the game protocol, so they run on every game. Scores are
integers for the side to move. With ``alphabeta`` and ``minimax`` a result the search proved
reads as the final margin (Othello: discs, as :func:`solve` gives it) and ``proven`` says
``"win"`` or ``"loss"``; the searchers themselves score a finished game as ``WIN + margin``.

Games of more than two players (Rolit) take the n-player algorithms: ``maxn`` (Max^n with
shallow pruning), ``maxn-plain``, ``paranoid``, ``brs`` (Best-Reply Search) and ``mcts``;
they run on two-player games too. Their ``score`` is the value of the player to move
(its final count at the end of the game, the game's heuristic before: ``exact`` tells
which), ``values`` the value of every player where the algorithm knows it.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic

from .. import _backend
from ..errors import (
    IllegalMoveError,
    InvalidEvaluationError,
    InvalidLimitError,
    InvalidOptionError,
    InvalidPositionError,
)
from ..games import GAMES
from ..games import _othello_patterns as patterns
from ..games.base import MoveT, Position
from . import _mpc, _options
from ._mcts_rules import check_implicit, check_mast
from ._options import MAX_WEIGHT, WIN, SearchLimits, check_algorithm, check_tt_mb
from ._results import NO_MOVE
from .mcts import DEFAULT_EXPLORATION, MCTS, clock_function

__all__ = [
    "search",
    "solve",
    "Engine",
    "SearchResult",
    "SolveResult",
    "WIN",
    "ALGORITHMS",
    "TWO_PLAYER_ALGORITHMS",
    "MULTIPLAYER_ALGORITHMS",
]

# WIN: the searchers score a finished game as WIN + its margin (SearchResult takes it off).
TWO_PLAYER_ALGORITHMS = ("alphabeta", "minimax")
#: The searches for any number of players (two included).
MULTIPLAYER_ALGORITHMS = (*_options.MULTIPLAYER_SEARCHES, "mcts")
ALGORITHMS = (*TWO_PLAYER_ALGORITHMS, *MULTIPLAYER_ALGORITHMS)
#: What :func:`search` runs when no algorithm is named, by the number of players.
DEFAULT_MULTIPLAYER_ALGORITHM = "mcts"
#: Deepest iteration the iterative deepening goes to when only time or nodes limit it.
MAX_DEPTH = 100
#: The most table a one-shot timed ``search()`` makes per second of its limit: more than the
#: compiled search stores in that time (16 bytes a node, a few million nodes a second).
TT_MB_PER_SECOND = 64

Evaluation = str | Mapping[str, int] | Callable[[Any], int]


@dataclass
class SearchResult(Generic[MoveT]):
    """What a search found, with honest counts for comparing algorithms (a
    ``SearchResult[OthelloMove]`` for an Othello position)."""

    move: MoveT | None  #: best move (a game move object); None when the game is already over
    #: for the side to move: alpha-beta its evaluation, or when ``proven`` the final margin
    #: (Othello: discs, empty squares to the winner, as :func:`solve`); n-player searches:
    #: its value (MCTS: its win rate in per mille)
    score: int
    depth: int  #: last fully searched depth (0: no iteration finished, move from ordering; MCTS: deepest selection)
    pv: list[MoveT] = field(default_factory=list)  #: principal variation, ``move`` first
    #: states explored, in every algorithm: positions visited (MCTS: positions played into, in
    #: selection and simulation; its tree's size is not counted here)
    nodes: int = 0
    elapsed: float = 0.0  #: seconds
    tt_hits: int = 0  #: transposition-table probes that found the position
    #: solved to the end of the game: by the endgame solver, or (n-player searches) every
    #: line of the last iteration reached the end, so ``score`` and ``values`` are final
    exact: bool = False
    tt_bytes: int = 0  #: memory of the transposition table
    algorithm: str = "alphabeta"
    backend: str = ""
    #: value of every player (index = player) where the algorithm knows it: Max^n its
    #: vector, MCTS the root's win rates in per mille; paranoid and BRS only the searcher's
    #: (``None`` for the others); alpha-beta the two-player pair
    values: list[int | None] = field(default_factory=list)
    player: int = 0  #: the player to move at the root (whose ``score`` it is)
    memory: int = 0  #: peak bytes of the search structures (table, tree, recursion buffers)
    #: n-player searches and MCTS: bytes those structures hold, not allocate: the table's
    #: entries filled (since the engine's table was made or cleared) times their size, plus
    #: the recursion buffers; MCTS its tree (as ``memory``); 0 for alpha-beta
    memory_used: int = 0
    iterations: int = 0  #: MCTS iterations
    reused: int = 0  #: MCTS tree reuse: visits the root already had from earlier searches
    time_limit: float | None = None  #: the time limit the search was given (seconds on its clock)
    #: two-player searches: ``"win"`` or ``"loss"`` when the search proved the result (then
    #: ``score`` is the final margin: exact when ``exact``, else at least that much), ``"draw"``
    #: for a solved draw; ``None`` when ``score`` is an evaluation
    proven: str | None = None
    #: what ``score`` counts, in words: ``"hundredths of a disc (learned evaluation)"``,
    #: ``"points of the standard evaluation"``, ``"discs: the final margin"`` (proven),
    #: ``"per mille: the win rate"`` (MCTS); set by :meth:`Engine.search`
    score_unit: str = ""

    @property
    def time_share(self) -> float:
        """The share of ``time_limit`` the search used (``elapsed / time_limit``; 0 without one)."""
        return self.elapsed / self.time_limit if self.time_limit else 0.0

    @property
    def nps(self) -> float:
        """Nodes per second."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class SolveResult(Generic[MoveT]):
    """An exact endgame result: ``score`` is the final disc difference for the side to move."""

    move: MoveT | None  #: a best move; None when the game is already over
    score: int
    nodes: int
    elapsed: float
    completed: bool = True  #: False when a limit stopped the solver (then score means nothing)
    backend: str = ""

    @property
    def exact(self) -> bool:
        """``completed``, under the name ``SearchResult`` gives it: the score is exact."""
        return self.completed


#: Node limits above this mean the same as this (no search reaches it).
MAX_NODES = 2**63 - 1


def _check_limit(name: str, value: Any, kind: type) -> None:
    """A limit is ``None`` (no limit: the only way to say so) or a positive int, for
    ``time_limit`` a positive finite number of seconds (``inf`` and ``nan`` are refused)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
        raise InvalidLimitError(f"{name} must be a positive {kind.__name__} or None, got {value!r}")
    if not 0 < value < math.inf:
        raise InvalidLimitError(f"{name} must be positive and finite (None for no limit), got {value!r}")


def time_budget(time_limit: float) -> float:
    """The part of ``time_limit`` the search may use: the rest is a safety margin for
    returning, and for the clock being looked at only every few nodes."""
    margin = min(0.03 + 0.05 * time_limit, 0.5 * time_limit)
    return time_limit - margin


#: Exact Max^n states per CPU second in four-player Rolit endgames (no table), by backend,
#: and the states such a search needs with 10 squares empty, growing about 5 times an empty
#: square (measured: docs/performance.md), for ``mcts_endgame_empties``.
MAXN_ENDGAME_RATE = {"cython": 7_000_000, "python": 20_000}
MAXN_ENDGAME_STATES_AT_10 = 600_000


def mcts_endgame_empties(backend: str, budget: float) -> int:
    """The most empty squares at which n-player MCTS with ``budget`` seconds hands the move to
    an exact Max^n search: the most whose expected search fits in half the budget."""
    affordable = MAXN_ENDGAME_RATE.get(backend, MAXN_ENDGAME_RATE["python"]) * budget / 2
    empties, needed = 10, float(MAXN_ENDGAME_STATES_AT_10)
    while needed > affordable and empties > 0:
        empties, needed = empties - 1, needed / 5
    while needed * 5 <= affordable:
        empties, needed = empties + 1, needed * 5
    return empties


def empty_squares(position: Any) -> int:
    """Squares no piece stands on."""
    taken = 0
    for board in position.core.bitboards():
        taken |= board
    return int(position.size * position.size - taken.bit_count())


def whole_budget(time_limit: float, clock: str = "cpu") -> float:
    """The part of ``time_limit`` the searches use, to the end: they stop within a few nodes
    of their deadline (MCTS: before an iteration that would end past it), so the margin is
    only for that and for returning: 3 ms and 2 % of CPU time; on the ``"wall"`` clock 10 ms
    and 3 %, for the moments other processes hold the CPU (a loaded machine)."""
    margin = 0.003 + 0.02 * time_limit if clock == "cpu" else 0.01 + 0.03 * time_limit
    return time_limit - min(margin, 0.5 * time_limit)


#: The evaluation an engine uses when given none: each position's
#: ``default_evaluation()`` (Othello's learned evaluation on a size with shipped weights,
#: else the game's "standard").
DEFAULT_EVALUATION = "default"
#: Whether alpha-beta prunes by Multi-ProbCut when ``mpc`` is None, a fit applies and the
#: search is limited by time alone (docs/performance.md has the games that decided it).
MPC_DEFAULT = True
#: A timed move with up to this many empty squares beyond the exact solver's limit first
#: tries to prove a win or a draw (win/loss/draw: the window -1..1), in at most
#: ``WLD_SHARE`` of its time; a proven loss, or no proof in time, leaves the rest to the search.
WLD_EMPTIES = 2
WLD_SHARE = 0.5


def _load_weights(weights: Any) -> patterns.Weights | None:
    """``Engine(weights=...)``: a path read and checked now, or a ``Weights`` as it is."""
    if weights is None or isinstance(weights, patterns.Weights):
        return weights
    if not isinstance(weights, (str, os.PathLike)):
        raise InvalidOptionError(f"weights must be the path of a weights file, got {weights!r:.80}")
    try:
        return patterns.load_weights(weights)
    except (FileNotFoundError, IsADirectoryError, PermissionError) as error:
        raise InvalidOptionError(f"cannot read the weights file: {error}") from None


class Engine:
    """A search engine (alpha-beta, the n-player searches or MCTS: ``algorithm``) that keeps its
    tables between the moves of a game.

    :param evaluation: ``"default"`` (the position's ``default_evaluation()``: Othello's
        ``"learned"`` on 6x6, 8x8 and 10x10, else ``"standard"``), a built-in evaluation's name
        (see the game's ``EVALUATIONS``: ``"standard"`` (gamecore 1's default),
        ``"learned"``, ``"discs"`` (greedy), ``"positional"``, ``"mobility"``, ...), a
        mapping of feature names to integer weights, or a function ``f(position) -> int``
        scoring a position for the side to move. The n-player searches (``maxn``,
        ``maxn-plain``, ``paranoid``, ``brs``) take instead ``f(position) -> list[int]``, one
        value per player (index = player, as ``SearchResult.values``), within the game's
        ``value_bounds()`` (Rolit: each >= 0, adding up to at most 64), else
        :class:`~gamecore.errors.InvalidEvaluationError`. Either kind is handed a copy of
        each position, and its exceptions propagate.
    :param tt_mb: transposition-table size in megabytes.
    :param algorithm: ``"alphabeta"``, ``"minimax"`` (plain, for teaching; no table), or
        one of the n-player searches: ``"maxn"`` (Max^n with shallow pruning),
        ``"maxn-plain"``, ``"paranoid"``, ``"brs"`` (Best-Reply Search), ``"mcts"``
        (UCT with a reward per player; ``nodes`` is then its iteration budget, and its
        tree is reused from move to move).
    :param aspiration: search each iteration first in a narrow window around the last score.
    :param endgame_empties: solve exactly (Othello) when this many squares or fewer are
        empty; ``None`` picks a size from the backend and the time limit (compiled: 20 from
        2 s a move; on 6x6, whose solves are cheaper, 24 from 4 s and 22 from 2 s). The solver obeys
        the search's limits: it gets the ``nodes`` budget (alpha-beta the rest when it does
        not finish) and is skipped when ``depth`` is below the number of empty squares.
        MCTS with more than two players (Rolit's default engine) takes it too: with a time
        limit and this many squares or fewer empty, an exact Max^n search to the end of the
        game gets half the time, and its move is played when it finishes (``exact``; MCTS
        runs in the time left when it does not); ``None``: ``mcts_endgame_empties``, 0: never.
    :param book: Othello: play the move of the shipped opening book
        (:mod:`gamecore.search.book`, exact values: ``gamecore/data/othello6.book``) where it
        holds the position; ``None`` (the default): for the searches limited by time alone
        (fixed-depth and node-limited searches stay comparable), ``True`` for every search,
        ``False`` never. Its result is ``exact`` with ``algorithm`` ``"book"``.
    :param seed: MCTS: seed of its random generator.
    :param exploration: MCTS: the UCB1 constant.
    :param max_nodes: MCTS: bound on the tree's size.
    :param greedy: MCTS: the share of playout moves that take the greedy move (the game's
        best by its ordering heuristic, or with ``mast`` by the search's history) instead of a
        random one; ``None``: 0 (random playouts) with two players, with more 0.5 when MAST is
        on and 0.25 when it is off (measured stronger in four-player Rolit: docs/performance.md).
    :param history: MCTS: progressive history's weight (``MCTS``); ``None``: 0 with two
        players, 5 with more.
    :param implicit: MCTS: implicit minimax backups' weight (``MCTS``), 0 (off) to 1; ``None``: 0
        with two players, 0.6 with more in a search of 0.3 s or more (or with no time limit).
    :param mast: MCTS: greedy playout moves by the search's history table (``MCTS``); ``None``:
        off with two players, on with more in a search of 0.3 s or more (or with no time limit).
    :param mpc: alpha-beta's Multi-ProbCut (selective search: ``_alphabeta_py``): ``True``
        on, ``False`` off, ``None`` (the default) on for the searches limited by time alone
        (``MPC_DEFAULT``: it plays stronger, docs/performance.md), off for those given a
        ``depth`` or ``nodes``, which stay full width (their result at a depth is exact
        alpha-beta, as minimax's). It applies to the ``"learned"``
        Othello evaluation on a size with a shipped fit (``gamecore/data/othello{size}.mpc.json``,
        made by ``gamecore train othello-mpc``); ``True`` elsewhere raises
        :class:`~gamecore.errors.InvalidOptionError` at the search.
    :param mpc_t: Multi-ProbCut's cut threshold in standard deviations (``None``: the fit's).
    :param weights: the learned Othello evaluation's weights to use instead of the shipped
        ones: the path of a file written by ``gamecore train othello`` (``othello8.patterns``,
        its record ``othello8.json`` and a Multi-ProbCut fit ``othello8.mpc.json`` read from
        beside it when there) or a loaded ``_othello_patterns.Weights``. Read and checked
        here: a damaged file is :class:`~gamecore.errors.CorruptDataError`, a missing one
        :class:`~gamecore.errors.InvalidOptionError`; searching a board of another size than
        the weights' is :class:`~gamecore.errors.InvalidOptionError`. Multi-ProbCut uses
        the fit beside the file, and is off without one.
    :param clock: what ``time_limit`` measures: ``"wall"`` (the wall clock) or ``"cpu"``
        (the searching thread's CPU time: a budget then buys the same work on a loaded
        machine, and a search may take longer than its limit in wall time). Results'
        ``elapsed`` is on the same clock. (Othello's endgame solver, under alpha-beta,
        measures wall time either way.)

    With a time limit every search uses its time whole (:func:`whole_budget` of it): the
    iterative deepening searches go on until the deadline stops an iteration (the answer is
    then the last finished iteration's, or the stopped one's best root move where that is
    sound: ``_alphabeta_py``, ``_multiplayer_py``), MCTS until one more iteration would end
    past it. Alpha-beta stops sooner only when it has solved the position (every line
    reached the end of the game). ``SearchResult.time_share`` is the share of the limit used.

    The table of the default backend (Max^n's too) is allocated (and its memory touched) here, so that a
    timed search does not spend its time on it. One search at a time: using an engine from
    its own evaluation function or from two threads at once raises
    :class:`~gamecore.errors.ConcurrentUseError`. Copies (``copy.deepcopy``, pickle) get a
    fresh table of the same size.
    """

    def __init__(
        self,
        evaluation: Evaluation = DEFAULT_EVALUATION,
        *,
        tt_mb: float = 16,
        algorithm: str = "alphabeta",
        aspiration: bool = False,
        endgame_empties: int | None = None,
        seed: int = 0,
        exploration: float = DEFAULT_EXPLORATION,
        max_nodes: int = 1_000_000,
        greedy: float | None = None,
        clock: str = "wall",
        history: float | None = None,
        implicit: float | None = None,
        mast: bool | None = None,
        mpc: bool | None = None,
        mpc_t: float | None = None,
        weights: str | os.PathLike[str] | patterns.Weights | None = None,
        book: bool | None = None,
    ) -> None:
        self._now = clock_function(clock)  # InvalidOptionError for an unknown clock
        if book is not None and not isinstance(book, bool):
            raise InvalidOptionError(f"book must be True, False or None, got {book!r}")
        self.book = book
        self.weights = _load_weights(weights)
        self._weights_mpc: tuple[float | None, Any] | None = None  # (mpc_t, the table of the weights' own fit)
        if mpc is not None and not isinstance(mpc, bool):
            raise InvalidOptionError(f"mpc must be True, False or None, got {mpc!r}")
        if mpc_t is not None and (
            isinstance(mpc_t, bool) or not isinstance(mpc_t, (int, float)) or not 0 <= mpc_t <= 100
        ):
            raise InvalidOptionError(f"mpc_t must be a number from 0 to 100 or None, got {mpc_t!r}")
        check_algorithm(algorithm, ALGORITHMS)
        check_tt_mb(tt_mb)
        if not (isinstance(evaluation, (str, Mapping)) or callable(evaluation)):
            raise InvalidOptionError(
                f"evaluation must be a name, a mapping of weights or a function, got {evaluation!r}"
            )
        if algorithm == "mcts" and not isinstance(evaluation, (str, Mapping)):
            raise InvalidOptionError("mcts plays its games to the end: it takes no evaluation function")
        if isinstance(evaluation, str):
            known = {DEFAULT_EVALUATION}.union(*(game.EVALUATIONS for game in GAMES.values()))
            if evaluation not in known:
                raise InvalidOptionError(f"unknown evaluation {evaluation!r}; built in: {', '.join(sorted(known))}")
        if endgame_empties is not None and (
            isinstance(endgame_empties, bool) or not isinstance(endgame_empties, int) or endgame_empties < 0
        ):
            raise InvalidOptionError(f"endgame_empties must be an int >= 0 or None, got {endgame_empties!r}")
        self.evaluation = evaluation
        self.tt_mb = tt_mb
        self.algorithm = algorithm
        self.aspiration = aspiration
        self.endgame_empties = endgame_empties
        self.clock = clock
        self.mpc = mpc
        self.mpc_t = mpc_t
        self._searchers: dict[str, Any] = {}
        self._endgame_searchers: dict[str, Any] = {}  # n-player MCTS's exact Max^n, by backend
        self._endgame_stop: bytearray | None = None  # the stop flag of the exact solve running now
        self._endgame_stopped = False  # stop() came during the last solve
        if not isinstance(aspiration, bool):
            raise InvalidOptionError(f"aspiration must be True or False, got {aspiration!r}")
        if algorithm != "mcts":  # MCTS's options, unused by the other algorithms, are refused alike
            _options.check_mcts_options(seed, exploration, max_nodes, greedy, history)
            check_implicit(implicit)
            check_mast(mast)
        # Checked here, so that a bad value fails at construction rather than at the first search.
        self._mcts = (
            MCTS(
                seed,
                exploration,
                max_nodes,
                greedy=greedy,
                clock=clock,
                history=history,
                implicit=implicit,
                mast=mast,
            )
            if algorithm == "mcts"
            else None
        )
        self._searcher(_backend.selected())

    def __repr__(self) -> str:
        """``Engine('default', algorithm='alphabeta', tt_mb=16)``: the evaluation and the
        options that differ from their defaults (the algorithm and table size always)."""
        evaluation = self.evaluation
        shown = (
            repr(evaluation)
            if isinstance(evaluation, (str, Mapping))
            else getattr(evaluation, "__qualname__", type(evaluation).__name__)
        )
        parts = [shown, f"algorithm={self.algorithm!r}", f"tt_mb={self.tt_mb:g}"]
        for name, default in (
            ("aspiration", False),
            ("endgame_empties", None),
            ("clock", "wall"),
            ("mpc", None),
            ("book", None),
        ):
            if getattr(self, name) != default:
                parts.append(f"{name}={getattr(self, name)!r}")
        return f"Engine({', '.join(parts)})"

    def _searcher(self, backend: Any) -> Any:
        searcher = self._searchers.get(backend.name)
        if searcher is None:
            if self.algorithm in ("alphabeta", "minimax"):
                searcher = backend.alphabeta.Searcher(self.tt_mb)
            else:
                searcher = backend.multiplayer.MultiSearcher(self.tt_mb)
                if self.algorithm in ("maxn", "maxn-plain"):
                    searcher.make_maxn_table()  # its pages touched now, not in a timed search
            self._searchers[backend.name] = searcher
        return searcher

    def clear(self) -> None:
        """Forget the transposition table and the MCTS tree (a new game)."""
        for searcher in self._searchers.values():
            searcher.clear()
        if self._mcts is not None:
            self._mcts.reset()

    def tt_bytes(self, backend: str | None = None) -> int:
        """Memory of the transposition table this engine uses on ``backend`` (default: the
        selected one); it is allocated on first use of that backend."""
        return int(self._searcher(_backend.load(backend) if backend else _backend.selected()).tt_bytes())

    def evaluation_weights(self, position: Any) -> list[int]:
        """The weights of ``position``'s ``features()`` this engine's evaluation stands for
        (a built-in name or a mapping; a function evaluation has none: InvalidOptionError)."""
        weights, evaluator = self._weights(position)
        if evaluator is not None:
            raise InvalidOptionError("an evaluation function has no feature weights")
        return weights

    def evaluate(self, position: Position[Any]) -> int:
        """This engine's evaluation of ``position`` for its side to move, with no search: the
        value its searches give a leaf (the learned evaluation's units are 1/100 disc).

        :raises InvalidOptionError: weights of another size or game, an unknown evaluation.
        :raises InvalidPositionError: not a gamecore position.
        """
        if not isinstance(position, Position):
            raise InvalidPositionError(f"cannot evaluate a {type(position).__name__}: pass a gamecore position")
        target: Any = self._weighted(position) if self.weights is not None else position
        weights, evaluator = self._weights(target)
        if evaluator is not None:
            return int(evaluator(target))
        return sum(w * v for w, v in zip(weights, target.feature_values()))

    def _weights(self, position: Any) -> tuple[list[int], Callable[[Any], int] | None]:
        features = position.features()
        evaluation = self.evaluation
        if callable(evaluation) and not isinstance(evaluation, (str, Mapping)):
            return [0] * len(features), evaluation
        if isinstance(evaluation, str):
            if evaluation == DEFAULT_EVALUATION:
                evaluation = position.default_evaluation()
            table = type(position).EVALUATIONS
            if evaluation not in table:
                raise InvalidOptionError(
                    f"unknown evaluation {evaluation!r} for {type(position).__name__}; built in: {', '.join(table)}"
                )
            evaluation = table[evaluation]
        weights = [0] * len(features)
        for name, weight in evaluation.items():
            if name not in features:
                raise InvalidEvaluationError(f"unknown evaluation feature {name!r}; features: {', '.join(features)}")
            if isinstance(weight, bool) or not isinstance(weight, int) or not -MAX_WEIGHT <= weight <= MAX_WEIGHT:
                raise InvalidEvaluationError(
                    f"weight of {name!r} must be an int from -{MAX_WEIGHT} to {MAX_WEIGHT}, got {weight!r}"
                )
            weights[features.index(name)] = weight
        return weights, None

    def search(
        self,
        position: Position[MoveT],
        depth: int | None = None,
        time_limit: float | None = None,
        nodes: int | None = None,
        moves: Iterable[MoveT | str | int] | None = None,
        progress: Callable[[SearchResult[MoveT]], Any] | None = None,
    ) -> SearchResult[MoveT]:
        """Iterative-deepening search of ``position`` (left unchanged) within the limits.

        At least one limit is needed; ``None`` means no limit of that kind. With
        ``time_limit`` (seconds, finite) the answer comes back just before the limit, with the
        best move of the last finished iteration, or of the stopped one where that is sound. ``moves`` restricts the root to those moves; by
        default a game that knows its symmetries (Tetralath) searches one move of each set of
        equivalent ones. ``evaluation`` functions are given a copy of each position.

        ``progress(result)``, when given, is called after each finished iteration of the
        alpha-beta and n-player searches (not the endgame solvers) with what it found so far
        (``move``, ``score``, ``depth``, ``pv``, ``nodes``, ``elapsed``); for MCTS about every
        0.1 s of its clock, with ``iterations`` too and ``depth`` the deepest ply its
        selection has reached (as in its final result). A true return value ends the search
        there. :meth:`stop` ends it from another thread.
        """
        if depth is None and time_limit is None and nodes is None:
            raise InvalidLimitError("give at least one limit: depth, time_limit or nodes")
        _check_limit("depth", depth, int)
        _check_limit("time_limit", time_limit, float)
        _check_limit("nodes", nodes, int)
        if depth is not None and depth >= MAX_DEPTH:
            raise InvalidLimitError(f"depth must be below {MAX_DEPTH}, got {depth}")
        if not isinstance(position, Position):
            raise InvalidPositionError(f"cannot search a {type(position).__name__}: pass a gamecore position")
        if self.weights is not None:
            position = self._weighted(position)
        if self.algorithm in TWO_PLAYER_ALGORITHMS and position.num_players != 2:
            raise InvalidPositionError(
                f"{self.algorithm} is a two-player search and this {type(position).__name__} has "
                f"{position.num_players} players: use one of {', '.join(MULTIPLAYER_ALGORITHMS)} "
                f"(mcts is the default for more than two)"
            )
        if nodes is not None:
            nodes = min(int(nodes), MAX_NODES)
        # The clock starts here: loading a backend's modules and allocating its table on a
        # first search count in the caller's time too (CI saw 0.2003 s for a 0.2 s limit).
        start = self._now()
        backend = _backend.load(position.backend)
        searcher = self._searcher(backend)
        weights, evaluator = self._weights(position)
        root_moves = _root_moves(position, moves)
        report = None if progress is None else self._reporter(position, progress, start)

        budget = whole_budget(time_limit, self.clock) if time_limit is not None else 0.0
        if self.algorithm == "mcts":
            result = self._search_mcts(position, depth, budget, nodes, start, progress)
        elif self.algorithm in MULTIPLAYER_ALGORITHMS:
            result = self._search_multi(
                position, weights, evaluator, searcher, depth, budget, nodes, moves, start, time_limit, report
            )
        else:
            result = self._search_two(
                position,
                weights,
                evaluator,
                searcher,
                backend,
                depth,
                budget,
                nodes,
                root_moves,
                start,
                time_limit,
                report,
            )
        result.time_limit = time_limit
        result.score_unit = self._score_unit(position, result)
        return result

    def _score_unit(self, position: Position[Any], result: SearchResult[Any]) -> str:
        """What ``result.score`` counts (``SearchResult.score_unit``)."""
        if self.algorithm == "mcts":
            return "per mille: the win rate"
        if result.proven is not None or (result.exact and self.algorithm in TWO_PLAYER_ALGORITHMS):
            return position.final_score_unit
        evaluation = self.evaluation
        if isinstance(evaluation, str):
            if evaluation == DEFAULT_EVALUATION:
                evaluation = position.default_evaluation()
            return position.evaluation_units.get(evaluation, f"points of the {evaluation} evaluation")
        if isinstance(evaluation, Mapping):
            return "points of the given feature weights"
        return "the evaluation function's units"

    def _search_two(
        self,
        position: Any,
        weights: list[int],
        evaluator: Callable[[Any], int] | None,
        searcher: Any,
        backend: Any,
        depth: int | None,
        budget: float,
        nodes: int | None,
        root_moves: list[int] | None,
        start: float,
        time_limit: float | None,
        report: Callable[[int, int, list[int], int], Any] | None,
    ) -> SearchResult[Any]:
        """Alpha-beta or minimax (``_alphabeta_py`` / ``_alphabeta_cy``), after the exact
        endgame solver where it applies (and first the opening book)."""
        booked = self._try_book(position, budget, depth, nodes, root_moves, start)
        if booked is not None:
            return booked
        exact, solver_nodes = self._try_endgame(position, budget, depth, nodes, start)
        if exact is not None:
            return exact
        if nodes is not None:
            nodes = max(1, nodes - solver_nodes)
        # Multi-ProbCut's table (made on a first search) before the time left is read.
        mpc = self._mpc_table(position, weights, evaluator, depth is None and nodes is None)
        remaining = budget - (self._now() - start) if time_limit is not None else 0.0
        if time_limit is not None and remaining <= 0:
            remaining = 1e-9
        if self._endgame_stopped:  # stop() during the solve: the quickest answer now
            self._endgame_stopped = False
            remaining = 1e-9 if time_limit is not None else 0.0
            depth = 1 if time_limit is None else depth
        found = searcher.search(
            position.core,
            self._limits(depth, nodes, remaining),
            weights=weights,
            evaluator=evaluator,
            wrap=position.wrap_core if evaluator is not None else None,
            algorithm=self.algorithm,
            aspiration=self.aspiration,
            root_moves=root_moves,
            progress=report,
            mpc=mpc,
        )
        score, proven = _margin(found.score)
        return SearchResult(
            move=None if found.move == NO_MOVE else position.move_from_code(found.move),
            score=score,
            depth=found.depth,
            pv=[position.move_from_code(m) for m in found.pv],
            nodes=found.nodes + solver_nodes,
            elapsed=self._now() - start,
            tt_hits=found.tt_hits,
            tt_bytes=searcher.tt_bytes(),
            algorithm=self.algorithm,
            backend=backend.name,
            values=[score, -score] if _player_to_move(position) == 0 else [-score, score],
            player=_player_to_move(position),
            memory=searcher.tt_bytes() if self.algorithm == "alphabeta" else 0,
            proven=proven,
        )

    def _weighted(self, position: Any) -> Any:
        """A copy of ``position`` whose core evaluates with this engine's weights."""
        assert self.weights is not None
        size = getattr(position, "size", None)
        if "learned" not in getattr(type(position), "EVALUATIONS", {}) or size != self.weights.size:
            raise InvalidOptionError(
                f"this engine's weights are for {self.weights.size}x{self.weights.size} Othello, "
                f"not for {type(position).__name__}{f' {size}x{size}' if isinstance(size, int) else ''}"
            )
        position = position.copy()
        position.core.use_weights(self.weights)
        return position

    def _mpc_table(self, position: Any, weights: list[int], evaluator: Any, timed_only: bool) -> Any:
        """The Multi-ProbCut table alpha-beta gets (``mpc``), or None; ``timed_only``: the
        search has no depth or node limit."""
        if self.mpc is False or self.algorithm != "alphabeta":
            return None
        if self.mpc is None and not (MPC_DEFAULT and timed_only):
            return None
        table = None
        size = getattr(position, "size", None)
        learned = getattr(type(position), "EVALUATIONS", {}).get("learned")
        if evaluator is None and learned is not None and isinstance(size, int):
            features = position.features()
            if weights == [learned.get(name, 0) for name in features]:
                if self.weights is None:
                    table = _mpc.table_for(size, self.mpc_t)
                elif self.weights.mpc is not None:  # a fit made for these weights, or none
                    if self._weights_mpc is None or self._weights_mpc[0] != self.mpc_t:  # made once a threshold
                        self._weights_mpc = (self.mpc_t, _mpc.mpc_table(self.weights.mpc, self.mpc_t))
                    table = self._weights_mpc[1]
        if table is None and self.mpc:
            raise InvalidOptionError(
                "mpc=True: Multi-ProbCut is fitted only for the learned Othello evaluation, on "
                "the sizes with a shipped fit (gamecore/data/othello{size}.mpc.json)"
            )
        return table

    def _limits(self, depth: int | None, nodes: int | None, seconds: float) -> SearchLimits:
        """What a tree search may spend, as every searcher takes it (``None``: no limit)."""
        return SearchLimits(depth if depth is not None else MAX_DEPTH - 1, nodes or 0, seconds, self.clock == "cpu")

    def _search_multi(
        self,
        position: Any,
        weights: list[int],
        evaluator: Callable[[Any], Any] | None,
        searcher: Any,
        depth: int | None,
        budget: float,
        nodes: int | None,
        moves: Iterable[Any] | None,
        start: float,
        time_limit: float | None,
        report: Callable[[int, int, list[int], int], Any] | None,
    ) -> SearchResult[Any]:
        """Max^n, paranoid or Best-Reply Search (``_multiplayer_py`` / ``_multiplayer_cy``)."""
        core = position.core.copy()
        remaining = budget - (self._now() - start) if time_limit is not None else 0.0
        if time_limit is not None and remaining <= 0:
            remaining = 1e-9
        player = _player_to_move(position)
        found = searcher.search_multi(
            core,
            weights,
            self._limits(depth, nodes, remaining),
            self.algorithm,
            _root_moves(position, moves),
            evaluator,
            position.wrap_core if evaluator is not None else None,
            report,
        )
        maxn = self.algorithm in ("maxn", "maxn-plain")
        table_bytes = searcher.maxn_tt_bytes() if maxn else searcher.tt_bytes()
        # The entry sizes are the same in both backends (_options; loading the pure backend here
        # would import its modules inside the first timed search: up to 40 ms past a deadline).
        entry_bytes = _options.MAXN_ENTRY_BYTES if maxn else _options.TT_ENTRY_BYTES
        return SearchResult(
            move=None if found.move == NO_MOVE else position.move_from_code(found.move),
            score=found.score,
            depth=found.depth,
            pv=[position.move_from_code(m) for m in found.pv],
            nodes=found.nodes,
            elapsed=self._now() - start,
            tt_hits=found.tt_hits,
            exact=bool(found.exact),
            tt_bytes=table_bytes,
            algorithm=self.algorithm,
            backend=position.backend,
            values=list(found.values),
            player=player,
            memory=found.memory,
            memory_used=searcher.tt_used(self.algorithm) * entry_bytes + max(0, found.memory - table_bytes),
        )

    def _reporter(
        self, position: Any, progress: Callable[[SearchResult[Any]], Any], start: float
    ) -> Callable[[int, int, list[int], int], Any]:
        """The searchers' ``progress(depth, score, pv codes, nodes)`` as ``progress(SearchResult)``."""

        def report(depth: int, raw_score: int, pv: list[int], nodes: int) -> Any:
            moves = [position.move_from_code(code) for code in pv]
            score, proven = _margin(raw_score)
            return progress(
                SearchResult(
                    move=moves[0] if moves else None,
                    score=score,
                    proven=proven,
                    depth=depth,
                    pv=moves,
                    nodes=nodes,
                    elapsed=self._now() - start,
                    algorithm=self.algorithm,
                    backend=position.backend,
                    player=_player_to_move(position),
                )
            )

        return report

    def stop(self) -> None:
        """Make a search running in another thread return soon, with the answer it gives
        when its time runs out (MCTS: after its current iteration, with its most visited
        move). Does nothing when no search runs."""
        for searcher in (*self._searchers.values(), *self._endgame_searchers.values()):
            searcher.stop()
        flag = self._endgame_stop  # an exact Othello solve running now
        if flag is not None:
            flag[0] = 1
        if self._mcts is not None:
            self._mcts.stop()

    def _search_mcts(
        self,
        position: Any,
        depth: int | None,
        budget: float,
        nodes: int | None,
        start: float,
        progress: Callable[[SearchResult[Any]], Any] | None,
    ) -> SearchResult[Any]:
        """UCT for n players, its tree kept between the moves of a game (``nodes``: iterations)."""
        if depth is not None:
            raise InvalidLimitError("mcts has no depth limit: give time_limit or nodes (its iterations)")
        assert self._mcts is not None
        if position.is_game_over():
            return SearchResult(
                move=None,
                score=0,
                depth=0,
                algorithm="mcts",
                backend=position.backend,
                player=_player_to_move(position),
            )
        exact, solver_nodes = self._try_maxn_endgame(position, budget, nodes, start)
        if exact is not None:
            return exact
        time_left = budget - (self._now() - start) if budget else 0.0
        if budget and time_left <= 0:
            time_left = 1e-9

        def as_search_result(found: Any, **final: Any) -> SearchResult[Any]:
            return SearchResult(
                move=found.move,
                score=found.score,
                depth=found.depth,
                pv=found.pv,
                nodes=found.nodes + solver_nodes,
                elapsed=self._now() - start,
                algorithm="mcts",
                backend=position.backend,
                player=_player_to_move(position),
                iterations=found.iterations,
                **final,
            )

        report = None if progress is None else (lambda found: progress(as_search_result(found)))
        found = self._mcts.search(position, iterations=nodes, time_limit=time_left or None, progress=report)
        return as_search_result(
            found,
            values=list(found.values),
            memory=found.memory,
            memory_used=found.memory,
            reused=found.reused_visits,
        )

    def _try_maxn_endgame(
        self, position: Any, budget: float, nodes: int | None, start: float
    ) -> tuple[SearchResult[Any] | None, int]:
        """n-player MCTS near the end (``endgame_empties``): an exact Max^n search to the end of
        the game in half of ``budget`` (MCTS plays the last moves by sampling; the searches
        it meets play them exactly). ``(result, 0)``, or ``(None, states spent)``."""
        if not budget or nodes is not None or position.num_players <= 2:
            return None, 0  # node-limited searches stay MCTS alone, comparable by iterations
        empties = empty_squares(position)
        limit = self.endgame_empties
        if limit is None:
            limit = mcts_endgame_empties(position.backend, budget)
        if empties > limit:
            return None, 0
        backend = _backend.load(position.backend)
        solver = self._endgame_searchers.get(backend.name)
        if solver is None:  # no table: at these depths it costs more time than it saves
            solver = self._endgame_searchers[backend.name] = backend.multiplayer.MultiSearcher(0)
        time_left = budget / 2 - (self._now() - start)
        if time_left <= 0:
            return None, 0
        weights, _ = self._weights(position)
        limits = SearchLimits(empties, seconds=time_left, cpu_clock=self.clock == "cpu")
        found = solver.search_multi(position.core.copy(), weights, limits, "maxn")
        if not found.exact:
            return None, found.nodes
        return SearchResult(
            move=position.move_from_code(found.move),
            score=found.score,
            depth=found.depth,
            pv=[position.move_from_code(m) for m in found.pv],
            nodes=found.nodes,
            elapsed=self._now() - start,
            exact=True,
            algorithm="mcts",
            backend=position.backend,
            values=list(found.values),
            player=_player_to_move(position),
            memory=found.memory,
            memory_used=found.memory,
        ), 0

    def _try_book(
        self,
        position: Any,
        budget: float,
        depth: int | None,
        nodes: int | None,
        root_moves: list[int] | None,
        start: float,
    ) -> SearchResult[Any] | None:
        """The opening book's move and exact value (``book``), or None when it does not apply
        or does not hold the position."""
        if self.book is False or self.algorithm != "alphabeta":
            return None
        if self.book is None and (not budget or depth is not None or nodes is not None):
            return None
        book = position.opening_book()
        found = None if book is None else book.lookup(position.core)
        if found is None or (root_moves is not None and found[0] not in root_moves):
            return None
        move, value = found
        result = self._solved(position, move, value, True, 0, start)
        result.algorithm = "book"
        return result

    def _try_endgame(
        self, position: Any, budget: float, depth: int | None, nodes: int | None, start: float
    ) -> tuple[SearchResult[Any] | None, int]:
        """Solve exactly when few squares are empty, if the game has a solver and the limits
        allow: ``(result, 0)``, or ``(None, nodes the solver spent before giving up)``."""
        solve_exact = position.exact_solver()
        if solve_exact is None or self.algorithm != "alphabeta":
            return None, 0
        limit = self.endgame_empties
        if limit is None:
            if not budget or depth is not None or nodes is not None:
                return None, 0  # fixed-depth and node-limited searches stay comparable
            fast = position.backend == "cython"
            # The compiled solver finishes 20 empty squares within a second a move (bench
            # othello endgame --solve-limit 1): from 0.8 s, 18 leave the search time to spare.
            limit = (20 if budget >= 2 else 18 if budget >= 0.8 else 16) if fast else (10 if budget >= 2 else 8)
            if fast and position.size == 6:  # 6x6 solves cheaper: 24 empty squares in 0.6-6 s, 22 in 0.7-1.7 s
                limit += 4 if budget >= 4 else 2
        empties = position.size * position.size - sum(position.score())
        # Just beyond the exact limit of a timed move, win/loss/draw first: a proof that a
        # move wins (or draws) costs a fraction of the margin's, and is played when found.
        wld = self.endgame_empties is None and limit < empties <= limit + WLD_EMPTIES
        if (empties > limit and not wld) or position.is_game_over():
            return None, 0
        if depth is not None and depth < empties:
            return None, 0  # the solver would look deeper than the caller allowed
        time_left = budget - (self._now() - start) if budget else 0.0
        if budget and time_left <= 0:
            return None, 0
        if not wld:
            move, score, count, completed = self._solve(solve_exact, position, None, None, nodes, time_left)
            if not completed:
                return None, count
            return self._solved(position, move, score, True, count, start), count
        move, score, count, completed = self._solve(solve_exact, position, -1, 1, nodes, time_left * WLD_SHARE)
        if not completed or score < 0 or move is None:
            return None, count  # a proven loss, or no proof: the search gets the time left
        if score == 0:  # inside the window: an exact draw
            return self._solved(position, move, 0, True, count, start), count
        # A proven win: its margin in the time left (over 0: the window's other half is lost
        # anyway), else the winning move with a margin of at least 1.
        time_left = (budget - (self._now() - start)) * 0.9 if budget else 0.0  # room for a second solver's start
        if time_left > 0 and not self._endgame_stopped:
            best, margin, more, done = self._solve(solve_exact, position, 0, None, nodes, time_left)
            count += more
            if done and best is not None and margin > 0:
                return self._solved(position, best, margin, True, count, start), count
        return self._solved(position, move, 1, False, count, start), count

    def _solve(
        self, solve_exact: Any, position: Any, alpha: int | None, beta: int | None, nodes: int | None, seconds: float
    ) -> tuple[Any, int, int, bool]:
        """One exact-solver call that :meth:`stop` can end."""
        self._endgame_stop = bytearray(1)  # Engine.stop sets it; the solver reads it with its clock
        try:
            return solve_exact(  # type: ignore[no-any-return]
                position.core.copy(),
                alpha,
                beta,
                node_limit=nodes or 0,
                time_limit=seconds,
                _stop=self._endgame_stop,
                _cpu_clock=self.clock == "cpu",  # the budget's clock (was always the wall's)
            )
        finally:
            self._endgame_stopped = bool(self._endgame_stop[0])
            self._endgame_stop = None

    def _solved(self, position: Any, move: int, score: int, exact: bool, nodes: int, start: float) -> SearchResult[Any]:
        """The result of a solve: ``score`` the final margin, ``exact`` or at least that much."""
        return SearchResult(
            move=position.move_from_code(move),
            score=score,
            depth=position.size * position.size - sum(position.score()),
            pv=[position.move_from_code(move)],
            nodes=nodes,
            elapsed=self._now() - start,
            exact=exact,
            algorithm="endgame",
            backend=position.backend,
            values=[score, -score] if _player_to_move(position) == 0 else [-score, score],
            player=_player_to_move(position),
            proven="win" if score > 0 else "loss" if score < 0 else "draw",
        )


def _margin(score: int) -> tuple[int, str | None]:
    """A two-player searcher's score as ``(score, proven)``: beyond ``WIN`` the searchers
    score a finished game as ``WIN + margin`` (``-WIN - margin`` a loss); that reads as the
    margin, proven."""
    if score > WIN:
        return score - WIN, "win"
    if score < -WIN:
        return score + WIN, "loss"
    return score, None


def _player_to_move(position: Any) -> int:
    """The index of the player to move (Rolit's ``player``: its colour may not be its index)."""
    player = getattr(position, "player", None)
    return int(position.turn) if player is None else int(player)


def _root_moves(position: Any, moves: Iterable[Any] | None) -> list[int] | None:
    """Move codes the root may play: ``moves`` checked as legal, else one move per class of
    symmetric moves where the game knows its symmetries, else ``None`` (every move)."""
    if moves is not None:
        codes = []
        for move in moves:
            parsed = position.parse_move(move)
            if not position.is_legal(parsed):
                raise IllegalMoveError(f"root move {parsed} is not legal here")
            codes.append(parsed.index)
        if not codes:
            raise InvalidOptionError("moves must name at least one legal move")
        return codes
    distinct = position.distinct_moves()
    if len(distinct) == len(position.legal_moves()):
        return None  # nothing to leave out
    return [m.index for m in distinct]


def search(
    position: Position[MoveT],
    *,
    depth: int | None = None,
    time_limit: float | None = None,
    nodes: int | None = None,
    evaluation: Evaluation = DEFAULT_EVALUATION,
    algorithm: str | None = None,
    tt_mb: float = 16,
    aspiration: bool = False,
    endgame_empties: int | None = None,
    moves: Iterable[MoveT | str | int] | None = None,
    seed: int = 0,
    clock: str = "wall",
    mpc: bool | None = None,
) -> SearchResult[MoveT]:
    """Search `position` once with a fresh `Engine` (see there for the options).

    `algorithm=None` picks `"alphabeta"` for a two-player game and `"mcts"` (the
    strongest in four-player Rolit, docs/performance.md) for more players.

    With a `time_limit` the table is no larger than the search could fill in that time
    (`TT_MB_PER_SECOND` megabytes a second, at least 1 MB): making it is part of the time.
    """
    _check_limit("time_limit", time_limit, float)
    if time_limit is not None and isinstance(tt_mb, (int, float)) and not isinstance(tt_mb, bool):
        tt_mb = min(tt_mb, max(1.0, time_limit * TT_MB_PER_SECOND))
    if algorithm is None:
        two_players = getattr(position, "num_players", 2) == 2
        algorithm = "alphabeta" if two_players else DEFAULT_MULTIPLAYER_ALGORITHM
    engine = Engine(
        evaluation,
        tt_mb=tt_mb,
        algorithm=algorithm,
        aspiration=aspiration,
        endgame_empties=endgame_empties,
        seed=seed,
        clock=clock,
        mpc=mpc,
    )
    return engine.search(position, depth=depth, time_limit=time_limit, nodes=nodes, moves=moves)


def solve(
    position: Position[MoveT], *, time_limit: float | None = None, nodes: int | None = None
) -> SolveResult[MoveT]:
    """The exact result of an Othello position under perfect play.

    `score` is the final disc difference for the side to move (empty squares go to the
    winner); `move` a best move. With a limit the solver may stop early: then
    `completed` is False.
    """
    _check_limit("time_limit", time_limit, float)
    _check_limit("nodes", nodes, int)
    if nodes is not None:
        nodes = min(int(nodes), MAX_NODES)
    exact_solver = getattr(position, "exact_solver", None)
    solve_exact = exact_solver() if exact_solver is not None else None
    if solve_exact is None:
        raise InvalidPositionError(f"no exact solver for {type(position).__name__}")
    start = time.perf_counter()
    budget = time_budget(time_limit) if time_limit is not None else 0.0
    move, score, count, completed = solve_exact(position.core.copy(), node_limit=nodes or 0, time_limit=budget)
    return SolveResult(
        move=None if move is None or move == NO_MOVE else position.move_from_code(move),
        score=score,
        nodes=count,
        elapsed=time.perf_counter() - start,
        completed=bool(completed),
        backend=position.backend,
    )
