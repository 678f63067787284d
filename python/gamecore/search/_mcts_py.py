"""Monte-Carlo tree search (UCT) for n players over the game protocol: the pure-Python twin of ``_mcts_cy``.

One tree serves every game of ``_game_py``, whatever its number of players. Every node
keeps, besides its visit count, a reward per player (the "max^n" backup policy of
multi-player MCTS: each player maximises its own share). The compiled twin runs the same
steps in the same order with the same integer bookkeeping and the same floating-point
formula, so for the same seed and iteration budget both return the same move, the same
visit counts and rewards and the same number of iterations.

Rewards
-------
A finished game pays ``REWARD_UNIT`` (12) reward units in all: the players whose
``terminal_values()`` are the highest share it equally (12 to a lone winner, 6 each to
two tied players, 4 to three, 3 to four), the others get 0. For two players this is
6 times the half points of a win/draw/loss. Rolit's tie rule (who first reached the top
score) is not used here: tied players share.

The steps of one iteration
--------------------------
1. *Selection.* From the root: a node not yet expanded is expanded (all its legal
   moves become children, in the game's ascending move order). If a child has never
   been visited, the first such child in move order is taken and selection stops.
   Otherwise the child with the largest UCB1 score is taken (the first one on ties)::

       score = reward / (REWARD_UNIT * visits) + sqrt(c2 * log(parent_visits) / visits)

   where ``reward`` is the child's reward of the player to move at the node (the one
   who chooses), and ``c2`` is the square of the exploration constant (written this way
   so that no compiler can fuse a multiply and an add into one FMA instruction and
   round differently from Python). With *progressive history* (Nijssen & Winands 2010;
   weight ``W = history`` > 0, the default with more than two players) a third term is
   added, the history score of the child's move for the player who makes it, fading as
   the child gets visits that did not win::

       score += (W * h_reward) / (h_visits * (REWARD_UNIT * (visits + 1) - reward))

   that is ``x_a * W / (n_i * (1 - x_i) + 1)`` with ``x_a = h_reward / (REWARD_UNIT *
   h_visits)`` the mean reward of every iteration of this search in which that player
   made that move (in the tree or the playout) and ``x_i`` the child's own mean; 0 while
   ``h_visits`` is 0. The denominator is an exact integer, converted once.
2. *Simulation.* From that node, playout moves until the game ends. Each takes the next
   output ``r`` of the splitmix64 generator: when ``r >> 11`` (53 random bits) is below
   the tree's threshold, ``greedy * 2**53``, the move is the greedy one -- the highest
   ``order_key`` (the game's move-ordering heuristic: in Othello and Rolit the square's
   positional weight, corners first), the first in move order on ties -- else it is
   ``moves[r % count]``, uniformly random. ``greedy`` 0 (two players, by default) is the
   classic random playout; with more players the default is ``MULTIPLAYER_GREEDY``
   (one move in four greedy): in four-player Rolit random playouts hand the corners to
   whoever comes by, and the greedy half lets MCTS see that corners are kept (measured:
   see docs/performance.md). With ``mast`` (on by default with more than two players in a
   search of at least ``MAST_FROM_SECONDS`` or with no time limit, where the default greedy
   share is then ``MAST_GREEDY``, one move in two; the Move-Average Sampling Technique of
   Finnsson & Björnsson, here as an epsilon-greedy playout) the greedy move is instead the
   one with the highest mean reward in the history table below (its player's entry for the
   move, counted as if it had had ``MAST_PRIOR_VISITS`` more visits and ``MAST_PRIOR_REWARD``
   more reward, so untried moves come first), then the highest ``order_key``; when several
   moves are level on both, the ``(r & TIE_BITS) % ties``-th of them in move order (the low
   bits of the same ``r``: untried moves are level at first, and the first square in move
   order would win every tie; the plain greedy move keeps the first, which measured
   stronger at 0.2 s a move: 30 of 48 against 22 of 48 for a random pick); the table is kept (the trail recorded) whenever ``mast`` is on, with or without
   progressive history's term in selection. A node reached that is already terminal is not simulated.
3. *Backup.* The reward vector of the finished game is added to every node of the
   path, and each node's visit count goes up by one. With progressive history, every
   (player, move) of the iteration, tree and playout, adds one visit and that player's
   reward to the history table (``HISTORY_MOVES`` moves per player, index ``move + 2``),
   which every search starts empty.

Implicit minimax backups
------------------------
With ``implicit`` = alpha > 0 (Lanctot, Winands, Pepels & Sturtevant, "Monte Carlo Tree Search
with Heuristic Evaluations using Implicit Minimax Backups", 2014; by default
``MULTIPLAYER_IMPLICIT`` = 0.6 with more than two players in searches of at least
``IMPLICIT_FROM_SECONDS``, 0 with two), every node also
keeps a value per player, ``tau``: a new leaf (the unvisited child an iteration plays into)
gets the game's ``evaluate_players(weights)`` of its position (in Rolit the projected
balls; ``MCTS`` hands the game's ``standard`` weights), and in the backup every node of the path with a visited child takes the
values of its visited child with the highest value for the player to move at the node (the
first in move order on ties): a max^n search over the tree grown so far. Selection then
mixes that value into the win rate::

    score = (keep * reward) / (REWARD_UNIT * visits) + (alpha * (tau - low)) / span
            + sqrt(c2 * log(parent_visits) / visits)  [+ the history term]

with ``keep = 1 - alpha``, ``tau`` the child's value for the player who chooses, and
``(low, span)`` from the game's ``value_bounds`` (``implicit_bounds``: Rolit 0 and 64, so
the value is the share of the board's balls). Every term ends in a division or a square
root, so no compiler can fuse a multiply and an add. With alpha 0 the formula and the
tree are exactly those above.

With two players the selection and the counts are those of the classic two-player
UCT (wins/draws in half points): ``reward / (12 * v)`` is the same double as
``half_points / (2 * v)`` because the two quotients are the same real number.

Memory is bounded by ``max_nodes``: when the tree is full, leaves stop being expanded
and iterations simulate from where selection ends.

Tree reuse
----------
Every visited node remembers the Zobrist key of its position. When ``search`` is
called again, the tree keeps the subtree whose key matches the new position (the
root itself, or a node up to ``num_players()`` plies below it -- our move and every
other player's reply -- searched breadth first in move order); everything else is
dropped, and the kept node's visits and rewards are the new root's. Otherwise (or
when the number of players changed) the tree starts afresh.

The random generator keeps its state across searches: the n-th search of a tree is
reproducible from the seed and the positions it was given.

Progress and stop
-----------------
``search(progress=...)`` calls ``progress(iterations, depth, score, pv, states)`` from the
searching thread about every ``PROGRESS_INTERVAL`` seconds of the search's clock, between
two iterations: the iterations so far, the deepest selection (``max_depth``), the most
visited root move's reward per mille (``best_score``), the principal variation's move
codes (its first move is ``best_move``) and the states so far. A true return value ends
the search there, as :meth:`MCTSTree.stop` does from another thread. Neither changes the
iterations that run before it: without them the search is the same, step for step.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from .._rng import MASK64, splitmix64
from ..errors import ConcurrentUseError, GameOverError
from ._mcts_rules import (
    DEFAULT_EXPLORATION,
    DEFAULT_MAX_NODES,
    HISTORY_MOVES,
    MAST_FROM_SECONDS,
    MAST_GREEDY,
    MAST_PRIOR_REWARD,
    MAST_PRIOR_VISITS,
    MULTIPLAYER_GREEDY,
    MULTIPLAYER_HISTORY,
    MULTIPLAYER_MAST,
    NODE_BYTES,
    PROGRESS_INTERVAL,
    REWARD_BYTES,
    REWARD_UNIT,
    TAU_BYTES,
    TIE_BITS,
    check_implicit,
    check_mast,
    check_mcts_limits,
    check_mcts_weights,
    greedy_threshold,
    history_weight,
    implicit_bounds,
    implicit_weight,
    mast_on,
    position_state,
    reached_state,
    reward_shares,
)
from ._options import SearchLimits, check_mcts_options

__all__ = [
    "MCTSTree",
    "DEFAULT_EXPLORATION",
    "DEFAULT_MAX_NODES",
    "MULTIPLAYER_GREEDY",
    "REWARD_UNIT",
    "greedy_threshold",
    "history_weight",
    "MULTIPLAYER_HISTORY",
    "HISTORY_MOVES",
    "PROGRESS_INTERVAL",
    "reward_shares",
    "mast_on",
    "MAST_GREEDY",
    "MAST_FROM_SECONDS",
    "MULTIPLAYER_MAST",
]

# The constants and the pure helpers above are in _mcts_rules, shared with _mcts_cy.


class MCTSTree:
    """A UCT search tree for n players that lives across the moves of one game.

    :param seed: seed of the splitmix64 generator (any int; taken modulo 2**64).
    :param exploration: the UCB1 exploration constant (> 0).
    :param max_nodes: the largest number of nodes the tree may hold (>= 1).
    :param greedy: the share of playout moves taken greedily (see the module docstring);
        None: 0 with two players, ``MULTIPLAYER_GREEDY`` with more (``MAST_GREEDY``
        when the search uses MAST: ``greedy_threshold``).
    :param history: progressive history's weight W (see the module docstring); None: 0
        with two players, ``MULTIPLAYER_HISTORY`` with more.
    :param implicit: implicit minimax backups' weight alpha, 0 (off) to 1 (see the module
        docstring); None: 0 with two players, ``MULTIPLAYER_IMPLICIT`` with more (in a search
        of at least ``IMPLICIT_FROM_SECONDS`` or with no time limit: ``implicit_weight``). The
        evaluation is the one whose weights ``search`` gets.
    :param mast: greedy playout moves by the history table (MAST, see the module docstring);
        None: ``mast_on``'s default by the number of players and the time limit.
    """

    REWARD_UNIT = REWARD_UNIT

    __slots__ = (
        "seed",
        "exploration",
        "max_nodes",
        "greedy",
        "history",
        "implicit",
        "mast",
        "_mast_on",
        "_recording",
        "_alpha",
        "_weights",
        "_tau",
        "_tau_low",
        "_tau_span",
        "_threshold",
        "_history_weight",
        "_history_visits",
        "_history_reward",
        "rng_state",
        "iterations",
        "max_depth",
        "reused_visits",
        "states",
        "_c2",
        "_players",
        "_root_mover",
        "_move",
        "_first",
        "_count",
        "_visits",
        "_reward",
        "_key",
        "_lock",
        "_stop_requested",
        "_root_state",
        "_root_core",
    )

    def __init__(
        self,
        seed: int = 0,
        exploration: float = DEFAULT_EXPLORATION,
        max_nodes: int = DEFAULT_MAX_NODES,
        greedy: float | None = None,
        history: float | None = None,
        implicit: float | None = None,
        mast: bool | None = None,
    ) -> None:
        lock = getattr(self, "_lock", None)
        if lock is not None and lock.locked():
            raise ConcurrentUseError("this MCTS tree is searching: it cannot be used until the search returns")
        self._lock = lock or threading.Lock()
        self._stop_requested = False
        seed, exploration, max_nodes, self.greedy, self.history = check_mcts_options(
            seed, exploration, max_nodes, greedy, history
        )
        self.implicit = check_implicit(implicit)
        self.mast = check_mast(mast)
        self._mast_on = False
        self._recording = False
        self._alpha = 0.0  # implicit's weight in the tree (implicit_weight of its last search)
        self._weights = check_mcts_weights(None)
        self._tau_low = 0
        self._tau_span = 1
        self._threshold = 0
        self._history_weight = 0.0
        self._history_visits = [0] * (2 * HISTORY_MOVES)
        self._history_reward = [0] * (2 * HISTORY_MOVES)
        self.seed = seed & MASK64
        self.exploration = exploration
        self.max_nodes = max_nodes
        self._c2 = exploration * exploration
        self.rng_state = self.seed
        #: Iterations run by the last call of :meth:`search`.
        self.iterations = 0
        #: Deepest ply below the root that selection reached in the last search.
        self.max_depth = 0
        #: Visits the last search found already in the (reused) root: 0 for a fresh tree.
        self.reused_visits = 0
        #: Positions the last search played into (selection and simulation moves): its states explored.
        self.states = 0
        self._players = 2
        self._root_mover = 0
        self._clear()

    # -- tree storage: one list per field, node 0 is the root --------------

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy has the same settings and generator state and an empty tree (a cache).
        return (
            type(self),
            (self.seed, self.exploration, self.max_nodes, self.greedy, self.history, self.implicit, self.mast),
            self.rng_state,
        )

    def __setstate__(self, rng: int) -> None:
        self.rng_state = rng & MASK64

    def _check_idle(self) -> None:
        if self._lock.locked():
            raise ConcurrentUseError("this MCTS tree is searching: it cannot be used until the search returns")

    def _clear(self) -> None:
        self._root_state: tuple[object, ...] | None = None
        self._root_core: Any = None
        self._move = [0]  # the move that leads from the parent to the node (unused for the root)
        self._first = [-1]  # index of the first child, -1 while not expanded
        self._count = [0]  # number of children (0 once expanded: the game is over there)
        self._visits = [0]
        self._reward = [0] * self._players  # reward units per player, node i at [i * players:]
        self._key = [0]  # Zobrist key of the node's position, set on its first visit
        # Implicit minimax values per player, node i at [i * players:] (with implicit only).
        self._tau: list[int] = [0] * self._players if self._alpha else []

    def reset(self) -> None:
        """Forget the tree (the generator keeps its state)."""
        self._check_idle()
        self._clear()

    @property
    def node_count(self) -> int:
        """Nodes in the tree."""
        return len(self._move)

    @property
    def root_visits(self) -> int:
        return self._visits[0]

    @property
    def num_players(self) -> int:
        """Players of the game the tree was last searched on."""
        return self._players

    def memory_bytes(self) -> int:
        """Size of the tree as the compiled twin stores it: 24 bytes a node and 8 per player
        (and 4 more per player with ``implicit``)."""
        per_player = REWARD_BYTES + (TAU_BYTES if self._alpha else 0)
        return (NODE_BYTES + per_player * self._players) * len(self._move)

    # -- tree reuse ----------------------------------------------------------

    def _find(self, core: Any) -> int:
        """Index of the node to keep for ``core``: the one whose Zobrist key matches and whose
        position is exactly ``core``'s (same game, size and stones), or -1."""
        key = core.key()
        if self._visits[0] == 0 or self._root_core is None:
            return -1
        if self._key[0] == key:
            return 0 if self._root_state == position_state(core) else -1
        level: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        for _depth in range(self._players):
            below = []
            for node, path in level:
                first = self._first[node]
                if first < 0:
                    continue
                for child in range(first, first + self._count[node]):
                    if self._visits[child] == 0:
                        continue
                    if self._key[child] == key:
                        reached = reached_state(self._root_core, (*path, self._move[child]))
                        return child if reached == position_state(core) else -1
                    below.append((child, (*path, self._move[child])))
            level = below
        return -1

    def _reroot(self, root: int) -> None:
        """Keep only the subtree under ``root`` (children stay contiguous, in the same order)."""
        if root == 0:
            return
        players = self._players
        old_move, old_first, old_count = self._move, self._first, self._count
        old_visits, old_reward, old_key, old_tau = self._visits, self._reward, self._key, self._tau
        move, first, count = [old_move[root]], [-1], [old_count[root]]
        visits, key = [old_visits[root]], [old_key[root]]
        reward = old_reward[root * players : (root + 1) * players]
        tau = old_tau[root * players : (root + 1) * players]
        queue = [(root, 0)]
        head = 0
        while head < len(queue):
            old, new = queue[head]
            head += 1
            f = old_first[old]
            if f < 0:
                continue
            first[new] = len(move)
            for child in range(f, f + old_count[old]):
                queue.append((child, len(move)))
                move.append(old_move[child])
                first.append(-1)
                count.append(old_count[child])
                visits.append(old_visits[child])
                reward.extend(old_reward[child * players : (child + 1) * players])
                key.append(old_key[child])
                tau.extend(old_tau[child * players : (child + 1) * players])
        self._move, self._first, self._count = move, first, count
        self._visits, self._reward, self._key, self._tau = visits, reward, key, tau

    # -- the search ------------------------------------------------------------

    def search(
        self,
        core: Any,
        limits: SearchLimits,
        progress: Callable[[int, int, int, list[int], int], Any] | None = None,
        weights: list[int] | None = None,
    ) -> int:
        """Run iterations from the position of ``core`` (not touched: the search runs on a
        copy); return how many ran.

        ``limits`` (:class:`~gamecore.search._options.SearchLimits`, its depth unused): ``nodes``
        > 0 caps the count of iterations, ``seconds`` > 0 the seconds, of the wall clock or with
        ``cpu_clock`` of this thread's CPU time; at least one must be set. The
        clock is read after every iteration, and the search stops when one more, as long as
        the mean iteration so far, would end past the limit: the budget is used whole, and
        not overrun by more than one iteration's spread about the mean.
        At least one iteration runs. Ctrl-C stops it (KeyboardInterrupt; the tree is emptied).
        ``progress`` and :meth:`stop` end it sooner (module docstring: Progress and stop).
        ``weights``: the evaluation weights of the game's ``evaluate_players`` that implicit
        minimax backups use (``None``: all 0); ignored when ``implicit`` is 0.
        """
        iterations, time_limit = check_mcts_limits(limits)
        checked = check_mcts_weights(weights)
        if not self._lock.acquire(blocking=False):
            raise ConcurrentUseError("this MCTS tree is already searching: give each thread its own")
        self._stop_requested = False
        try:
            clock = time.thread_time if limits.cpu_clock else time.perf_counter
            self._weights = checked
            return self._run(core.copy(), iterations, time_limit, clock, progress)
        except BaseException:
            self._clear()  # an iteration stopped half-way (Ctrl-C): the counts no longer add up
            raise
        finally:
            self._lock.release()

    def stop(self) -> None:
        """Make the running search return after the iteration under way (from another
        thread: a stop button), with the tree it has grown. Does nothing when no search runs."""
        if self._lock.locked():
            self._stop_requested = True

    def _run(self, core: Any, iterations: int, time_limit: float, clock: Any, progress: Any) -> int:
        start = clock()
        deadline = start + time_limit
        key = core.key()
        players = core.num_players()
        root = self._find(core) if players == self._players else -1
        alpha = implicit_weight(self.implicit, players, time_limit)
        if alpha != self._alpha:
            root = -1  # the tree holds no implicit values, or holds them for nothing
        self._alpha = alpha
        self._players = players
        self._mast_on = mast_on(self.mast, players, time_limit)
        self._threshold = greedy_threshold(self.greedy, players, self._mast_on)
        self._history_weight = history_weight(self.history, players)
        self._recording = bool(self._history_weight) or self._mast_on
        self._history_visits = [0] * (players * HISTORY_MOVES)
        self._history_reward = [0] * (players * HISTORY_MOVES)
        low, highest_sum = core.value_bounds()
        self._tau_low, self._tau_span = implicit_bounds(low, highest_sum, players)
        if root < 0:
            self._clear()
        else:
            self._reroot(root)
        self._root_state = position_state(core)
        self._root_core = core.copy()
        self._key[0] = key
        self._root_mover = core.to_move()
        self.reused_visits = self._visits[0]
        self.max_depth = 0
        self.states = 0
        done = 0
        first_iteration = clock()
        next_report = first_iteration + PROGRESS_INTERVAL
        while True:
            self._iterate(core)
            done += 1
            if iterations and done >= iterations or self._stop_requested:
                break
            if time_limit or progress is not None:
                now = clock()
                if time_limit and now + (now - first_iteration) / done >= deadline:
                    break
                if progress is not None and now >= next_report:
                    next_report = now + PROGRESS_INTERVAL
                    if progress(done, self.max_depth, self.best_score(), self.principal_variation(), self.states):
                        break
        self.iterations = done
        return done

    def _iterate(self, core: Any) -> None:
        move, first, count, visits, reward, keys = (
            self._move,
            self._first,
            self._count,
            self._visits,
            self._reward,
            self._key,
        )
        players = self._players
        node = 0
        path = [0]
        c2 = self._c2
        weight = self._history_weight
        history_visits, history_reward = self._history_visits, self._history_reward
        alpha = self._alpha
        keep = 1.0 - alpha
        tau, low, span = self._tau, self._tau_low, float(self._tau_span)
        # (player, move) of the iteration as history indexes (with progressive history only).
        trail: list[int] | None = [] if self._recording else None
        while True:
            if first[node] < 0:
                # The tree full: simulate from here (the root's children are always made).
                if node and len(move) >= self.max_nodes:
                    result = self._rollout(core, trail)  # tree full: simulate from here
                    break
                legal = core.gen_moves()
                if node and len(move) + len(legal) > self.max_nodes:
                    result = self._rollout(core, trail)
                    break
                first[node] = len(move)
                count[node] = len(legal)
                zeros = [0] * players
                for m in legal:
                    move.append(m)
                    first.append(-1)
                    count.append(0)
                    visits.append(0)
                    reward.extend(zeros)
                    keys.append(0)
                    if alpha:
                        tau.extend(zeros)
            n = count[node]
            if n == 0:  # the game is over here: no simulation
                result = reward_shares(core.terminal_values())
                break
            f = first[node]
            chosen = -1
            for child in range(f, f + n):
                if visits[child] == 0:
                    chosen = child
                    break
            if chosen >= 0:
                if trail is not None:
                    trail.append(core.to_move() * HISTORY_MOVES + move[chosen] + 2)
                core.make_move(move[chosen])
                keys[chosen] = core.key()
                if alpha:  # the new leaf's evaluation: its first implicit minimax value
                    tau[chosen * players : (chosen + 1) * players] = core.evaluate_players(self._weights)
                path.append(chosen)
                result = self._rollout(core, trail)
                break
            log_n = math.log(visits[node])
            mover = core.to_move()
            best_score = -1.0
            for child in range(f, f + n):
                v = visits[child]
                won = reward[child * players + mover]
                if alpha:
                    score = (
                        (keep * won) / (REWARD_UNIT * v)
                        + (alpha * (tau[child * players + mover] - low)) / span
                        + math.sqrt(c2 * log_n / v)
                    )
                else:
                    score = won / (REWARD_UNIT * v) + math.sqrt(c2 * log_n / v)
                if weight:
                    index = mover * HISTORY_MOVES + move[child] + 2
                    if history_visits[index]:
                        score += (weight * history_reward[index]) / float(
                            history_visits[index] * (REWARD_UNIT * (v + 1) - won)
                        )
                if score > best_score:
                    best_score = score
                    chosen = child
            if trail is not None:
                trail.append(mover * HISTORY_MOVES + move[chosen] + 2)
            core.make_move(move[chosen])
            path.append(chosen)
            node = chosen
        depth = len(path) - 1
        self.states += depth
        if depth > self.max_depth:
            self.max_depth = depth
        # Max^n backup: every node of the path adds every player's reward.
        for i in range(depth, -1, -1):
            node = path[i]
            visits[node] += 1
            base = node * players
            for p in range(players):
                reward[base + p] += result[p]
            if alpha and i < depth:
                self._back_up_tau(node, core.to_move())
            if i:
                core.unmake_move()
        if trail is not None:
            for index in trail:
                history_visits[index] += 1
                history_reward[index] += result[index // HISTORY_MOVES]

    def _back_up_tau(self, node: int, mover: int) -> None:
        """Implicit minimax (max^n): ``node``'s values become those of its visited child
        with the highest value for ``mover``, the player to move there (the first on ties)."""
        f = self._first[node]
        if f < 0:
            return
        players, tau, visits = self._players, self._tau, self._visits
        best, best_value = -1, 0
        for child in range(f, f + self._count[node]):
            if visits[child] and (best < 0 or tau[child * players + mover] > best_value):
                best, best_value = child, tau[child * players + mover]
        if best >= 0:
            tau[node * players : (node + 1) * players] = tau[best * players : (best + 1) * players]

    def _mast_move(self, core: Any, legal: list[int], r: int) -> int:
        """The MAST greedy move: of the moves of ``legal`` with the mover's highest mean reward
        in the history table (with its prior), then the highest ``order_key``, the
        ``(r & TIE_BITS) mod ties``-th in move order. Means are compared exactly, by cross
        products of the integer counts."""
        base = core.to_move() * HISTORY_MOVES + 2
        visits, reward = self._history_visits, self._history_reward
        top: list[int] = []
        best_reward = best_visits = best_key = 0
        for move in legal:
            v = visits[base + move] + MAST_PRIOR_VISITS
            w = reward[base + move] + MAST_PRIOR_REWARD
            key = core.order_key(move)
            if not top:
                side = 1
            else:
                side = w * best_visits - best_reward * v
                if side == 0:
                    side = key - best_key
            if side > 0:
                top, best_reward, best_visits, best_key = [], w, v, key
            if side >= 0:
                top.append(move)
        return top[(r & TIE_BITS) % len(top)]

    def _rollout(self, core: Any, trail: list[int] | None = None) -> list[int]:
        """Playout moves to the end and back; the reward of each player. ``trail`` gets
        each move's history index (progressive history)."""
        plies = 0
        threshold = self._threshold
        while True:
            legal = core.gen_moves()
            if not legal:
                break
            self.rng_state, r = splitmix64(self.rng_state)
            if threshold and (r >> 11) < threshold:
                if self._mast_on:  # the best history mean, then order_key; ties by r's low bits
                    move = self._mast_move(core, legal, r)
                else:  # greedy: the highest order_key, the first in move order on ties
                    move = legal[0]
                    best_key = core.order_key(move)
                    for other in legal[1:]:
                        key = core.order_key(other)
                        if key > best_key:
                            best_key, move = key, other
            else:
                move = legal[r % len(legal)]
            if trail is not None:
                trail.append(core.to_move() * HISTORY_MOVES + move + 2)
            core.make_move(move)
            plies += 1
        self.states += plies
        result = reward_shares(core.terminal_values())
        for _ in range(plies):
            core.unmake_move()
        return result

    # -- reading the tree ------------------------------------------------------

    def root_children(self) -> list[tuple[int, int, int]]:
        """``(move, visits, reward)`` of every root child, in move order; ``reward`` is that
        of the player to move at the root, in reward units (``REWARD_UNIT`` per point)."""
        f = self._first[0]
        if f < 0:
            return []
        players, mover = self._players, self._root_mover
        return [
            (self._move[c], self._visits[c], self._reward[c * players + mover]) for c in range(f, f + self._count[0])
        ]

    def _node_at(self, path: list[int] | tuple[int, ...]) -> int:
        """The node reached from the root by the moves of ``path`` (0, the root, for none).

        :raises ValueError: a move of ``path`` is not a child in the tree.
        """
        node = 0
        for m in path:
            f = self._first[node]
            found = -1
            if f >= 0:
                for child in range(f, f + self._count[node]):
                    if self._move[child] == m:
                        found = child
                        break
            if found < 0:
                raise ValueError(f"move {m!r} is not in the tree at this node")
            node = found
        return node

    def node_rewards(self, path: list[int] | tuple[int, ...] = ()) -> tuple[int, list[int]]:
        """``(visits, reward per player)`` of the node reached from the root by the moves
        of ``path`` (the root for an empty path).

        :raises ValueError: a move of ``path`` is not a child in the tree.
        """
        node = self._node_at(path)
        players = self._players
        return self._visits[node], self._reward[node * players : (node + 1) * players]

    def node_implicit(self, path: list[int] | tuple[int, ...] = ()) -> list[int]:
        """The implicit minimax values (one per player, in ``evaluate_players`` units) of the
        node reached from the root by the moves of ``path``; empty when implicit minimax is off.

        :raises ValueError: a move of ``path`` is not a child in the tree.
        """
        node = self._node_at(path)
        players = self._players
        return self._tau[node * players : (node + 1) * players]

    def history_table(self) -> tuple[list[int], list[int]]:
        """Progressive history of the last search: ``(visits, reward)``, each indexed
        ``player * HISTORY_MOVES + move + 2`` (all 0 when it was off)."""
        return list(self._history_visits), list(self._history_reward)

    def _best_child(self, node: int) -> int:
        f = self._first[node]
        if f < 0:
            return -1
        best, best_visits = -1, 0
        for child in range(f, f + self._count[node]):
            if self._visits[child] > best_visits:
                best, best_visits = child, self._visits[child]
        return best

    def best_move(self) -> int:
        """The most visited root move (the first in move order on ties).

        :raises GameOverError: nothing has been searched, or the root's game is over.
        """
        best = self._best_child(0)
        if best < 0:
            raise GameOverError("the tree has no visited root move: search a position that is not over first")
        return self._move[best]

    def best_score(self) -> int:
        """The most visited root move's reward for the player to move at the root, per mille
        of ``REWARD_UNIT`` (its win rate: draws count half); 0 before any search."""
        best = self._best_child(0)
        if best < 0:
            return 0
        return (self._reward[best * self._players + self._root_mover] * 1000) // (REWARD_UNIT * self._visits[best])

    def principal_variation(self) -> list[int]:
        """The moves of the most visited path from the root."""
        pv = []
        node = self._best_child(0)
        while node >= 0:
            pv.append(self._move[node])
            node = self._best_child(node)
        return pv
