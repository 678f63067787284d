# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Monte-Carlo tree search (UCT) for n players over the game protocol: the compiled twin of ``_mcts_py``.

The same steps in the same order as the pure twin (see ``python/gamecore/search/_mcts_py.py``
for the full description: rewards, selection, max^n backups, tree reuse), on C arrays and
the cdef methods of the game core: for the same seed and iteration budget both backends
return the same move, visit counts, rewards and number of iterations.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from bits cimport gc_splitmix64
from gamecore._game_cy cimport GameCore, MOVE_BUFFER, PLAYER_BUFFER
from interrupt cimport gc_poll_signals, gc_raise_pending

cdef extern from "gamecore_clock.h":
    double gc_clock_seconds(int cpu) noexcept nogil

from gamecore._rng import MASK64
from gamecore.errors import ConcurrentUseError, GameOverError
from gamecore.search._mcts_rules import (
    DEFAULT_EXPLORATION, DEFAULT_MAX_NODES, HISTORY_MOVES, MULTIPLAYER_GREEDY, MULTIPLAYER_HISTORY, PROGRESS_INTERVAL,
    REWARD_UNIT, check_mcts_limits, greedy_threshold, history_weight, position_state, reached_state, reward_shares,
    MAX_MCTS_WEIGHTS, TAU_BYTES, check_implicit, check_mcts_weights, implicit_bounds, implicit_weight,
    MAST_PRIOR_REWARD, MAST_PRIOR_VISITS, check_mast, mast_on, MAST_GREEDY, MAST_FROM_SECONDS, MULTIPLAYER_MAST,
)
from gamecore.search._options import check_mcts_options

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

# The constants and the pure helpers are in _mcts_rules, shared with _mcts_py; the C copies
# below are set from them, or checked against them (_C_COPIES, in tests/test_options.py).
cdef double C_PROGRESS_INTERVAL = PROGRESS_INTERVAL

cdef enum:
    # Deeper than any game's length (10x10 Othello: 96 moves and at most as many passes).
    MAX_PATH = 1024
    C_SIGNAL_CHECK_EVERY = 16  # iterations between looks for Ctrl-C
    C_HISTORY_MOVES = 128  # HISTORY_MOVES: sizes the history tables
    # An iteration's (player, move) pairs: its tree path and its playout (no game is longer).
    MAX_TRAIL = 2 * MAX_PATH
    C_REWARD_UNIT = 12  # REWARD_UNIT
    C_MAX_MCTS_WEIGHTS = 64  # MAX_MCTS_WEIGHTS: sizes the weights buffer
    C_TIE_BITS = 0x7FF  # TIE_BITS: the random bits that break a greedy playout move's tie
    C_MAST_PRIOR_VISITS = 2  # MAST_PRIOR_VISITS
    C_MAST_PRIOR_REWARD = 12  # MAST_PRIOR_REWARD
    # iterate()'s failures, raised once the GIL is back.
    FAILED_MEMORY = -1
    FAILED_PATH = -2


#: The C constants that copy a shared one, by its name in _mcts_rules (compared in the tests).
_C_COPIES = {"REWARD_UNIT": C_REWARD_UNIT, "HISTORY_MOVES": C_HISTORY_MOVES, "PROGRESS_INTERVAL": C_PROGRESS_INTERVAL,
             "MAX_MCTS_WEIGHTS": C_MAX_MCTS_WEIGHTS, "TIE_BITS": C_TIE_BITS,
             "MAST_PRIOR_VISITS": C_MAST_PRIOR_VISITS, "MAST_PRIOR_REWARD": C_MAST_PRIOR_REWARD}


ctypedef struct Node:
    uint64_t key      # Zobrist key of the node's position, set on its first visit
    int move          # the move from the parent (unused for the root)
    int first         # index of the first child, -1 while not expanded
    int count         # number of children (0 once expanded: the game is over there)
    int visits
# A node's rewards (one long long per player) live in a parallel array, `players` a node.


cdef inline void c_reward_shares(const int* values, int players, long long* out) noexcept nogil:
    """REWARD_UNIT shared equally among the players with the highest value."""
    cdef int p, top = values[0], tied = 0
    for p in range(1, players):
        if values[p] > top:
            top = values[p]
    for p in range(players):
        if values[p] == top:
            tied += 1
    for p in range(players):
        out[p] = C_REWARD_UNIT // tied if values[p] == top else 0


cdef class MCTSTree:
    """A UCT search tree for n players that lives across the moves of one game.

    :param seed: seed of the splitmix64 generator (any int; taken modulo 2**64).
    :param exploration: the UCB1 exploration constant (> 0).
    :param max_nodes: the largest number of nodes the tree may hold (>= 1; the root's
        children are always made).
    :param greedy: the share of playout moves taken greedily (see the pure twin); None: 0
        with two players, ``MULTIPLAYER_GREEDY`` with more (``MAST_GREEDY`` when the search
        uses MAST: ``greedy_threshold``).
    :param history: progressive history's weight W (see the pure twin); None: 0 with two
        players, ``MULTIPLAYER_HISTORY`` with more.
    :param implicit: implicit minimax backups' weight alpha, 0 (off) to 1 (see the pure
        twin); None: 0 with two players, ``MULTIPLAYER_IMPLICIT`` with more (in a search of at
        least ``IMPLICIT_FROM_SECONDS`` or with no time limit: ``implicit_weight``).
    :param mast: greedy playout moves by the history table (MAST, see the pure twin); None:
        ``mast_on``'s default by the number of players and the time limit.

    One search at a time: calling the tree while it searches (from a signal handler, or
    another thread) raises :class:`~gamecore.errors.ConcurrentUseError`. A tree made by
    ``__new__`` alone is a valid empty tree; copies (deepcopy, pickle) keep the settings
    and the generator state, not the tree (a cache).
    """

    REWARD_UNIT = REWARD_UNIT

    cdef readonly object seed
    cdef readonly double exploration
    cdef readonly int max_nodes
    cdef readonly object greedy
    cdef readonly object history
    cdef readonly object implicit
    cdef readonly object mast
    cdef double alpha                # implicit's weight in the tree (implicit_weight of its last search)
    cdef int weights[C_MAX_MCTS_WEIGHTS]  # of the search under way (implicit minimax's evaluation)
    cdef long long tau_low, tau_span  # of the search under way (implicit_bounds)
    cdef int* tau                    # implicit minimax values, PLAYER_BUFFER a node (with implicit only)
    cdef uint64_t rng
    cdef uint64_t threshold   # of the search under way (greedy_threshold)
    cdef double history_w     # of the search under way (history_weight)
    cdef bint use_mast        # of the search under way (mast_on)
    cdef bint recording       # the search keeps the history table (progressive history or MAST)
    # Progressive history of the search under way: visits and reward per (player, move).
    cdef long long history_visits[PLAYER_BUFFER * C_HISTORY_MOVES]
    cdef long long history_reward[PLAYER_BUFFER * C_HISTORY_MOVES]
    cdef int trail[MAX_TRAIL]  # the iteration's history indexes
    cdef int trail_len
    cdef readonly int iterations
    cdef readonly int max_depth
    cdef readonly long long reused_visits
    cdef readonly long long states
    cdef double c2
    cdef int players
    cdef int root_mover
    cdef Node* nodes
    cdef long long* rewards
    cdef int size
    cdef int capacity
    cdef bint busy
    cdef bint stop_requested  # set by stop(), read between iterations without the GIL
    cdef object root_state    # the exact position at the root (see find)
    cdef object root_core     # a copy of it, to replay moves on

    def __cinit__(self):
        self.nodes = NULL
        self.rewards = NULL
        self.tau = NULL
        self.implicit = None
        self.mast = None
        self.use_mast = False
        self.recording = False
        self.alpha = 0.0
        self.tau_low = 0
        self.tau_span = 1
        memset(self.weights, 0, sizeof(self.weights))
        self.size = 0
        self.capacity = 0
        self.players = 2
        self.busy = False
        self.stop_requested = False
        self.seed = 0
        self.exploration = DEFAULT_EXPLORATION
        self.c2 = DEFAULT_EXPLORATION * DEFAULT_EXPLORATION
        self.max_nodes = DEFAULT_MAX_NODES
        self.greedy = None
        self.history = None
        self.threshold = 0
        self.history_w = 0.0
        self.add_node(0)

    def __init__(self, seed=0, exploration=DEFAULT_EXPLORATION, max_nodes=DEFAULT_MAX_NODES, greedy=None,
                 history=None, implicit=None, mast=None):
        self.check_idle()
        seed, exploration, max_nodes, greedy, history = check_mcts_options(seed, exploration, max_nodes, greedy,
                                                                           history)
        self.implicit = check_implicit(implicit)
        self.mast = check_mast(mast)
        if max_nodes > 0x7FFFFFFF // 2:
            max_nodes = 0x7FFFFFFF // 2
        self.seed = seed & MASK64
        self.exploration = exploration
        self.max_nodes = max_nodes
        self.greedy = greedy
        self.history = history
        self.c2 = exploration * exploration
        self.rng = <uint64_t>self.seed
        self.iterations = 0
        self.max_depth = 0
        self.reused_visits = 0
        self.states = 0
        self.root_mover = 0
        self.clear_tree()

    def __dealloc__(self):
        free(self.nodes)
        free(self.rewards)
        free(self.tau)

    def __reduce__(self):
        return type(self), (self.seed, self.exploration, self.max_nodes, self.greedy, self.history,
                            self.implicit, self.mast), self.rng

    def __setstate__(self, rng):
        self.rng = <uint64_t>(rng & MASK64)

    cdef int check_idle(self) except -1:
        if self.busy:
            raise ConcurrentUseError("this MCTS tree is searching: it cannot be used until the search returns")
        return 0

    # -- tree storage: an array of nodes and one of rewards, node 0 is the root ---

    cdef int reserve(self, int wanted) except -1:
        if self.grow(wanted) < 0:
            raise MemoryError("MCTS tree: out of memory")
        return 0

    cdef int grow(self, int wanted) noexcept nogil:
        """Room for `wanted` nodes; -1 when memory runs out (the tree intact)."""
        cdef int capacity
        cdef Node* grown
        cdef long long* grown_rewards
        cdef int* grown_tau
        if wanted <= self.capacity:
            return 0
        capacity = self.capacity * 2 if self.capacity else 1024
        while capacity < wanted:
            capacity *= 2
        grown = <Node*>realloc(self.nodes, capacity * sizeof(Node))
        if grown == NULL:
            return -1
        self.nodes = grown
        grown_rewards = <long long*>realloc(self.rewards, capacity * PLAYER_BUFFER * sizeof(long long))
        if grown_rewards == NULL:
            return -1
        self.rewards = grown_rewards
        if self.alpha != 0.0:
            grown_tau = <int*>realloc(self.tau, capacity * PLAYER_BUFFER * sizeof(int))
            if grown_tau == NULL:
                return -1
            self.tau = grown_tau
        self.capacity = capacity
        return 0

    cdef inline int add_node(self, int move) except -1:
        cdef int i = self.size
        if i >= self.capacity:
            self.reserve(i + 1)
        self.init_node(i, move)
        return i

    cdef inline void init_node(self, int i, int move) noexcept nogil:
        """Node `i` (room for it reserved) as a fresh leaf, the tree one node larger."""
        self.nodes[i].key = 0
        self.nodes[i].move = move
        self.nodes[i].first = -1
        self.nodes[i].count = 0
        self.nodes[i].visits = 0
        memset(&self.rewards[i * self.players], 0, self.players * sizeof(long long))
        if self.alpha != 0.0:
            memset(&self.tau[i * self.players], 0, self.players * sizeof(int))
        self.size = i + 1

    cdef int clear_tree(self) except -1:
        self.size = 0
        self.root_state = None
        self.root_core = None
        self.add_node(0)
        return 0

    def _clear(self):
        self.check_idle()
        self.clear_tree()

    def reset(self):
        """Forget the tree (the generator keeps its state)."""
        self.check_idle()
        self.clear_tree()

    @property
    def rng_state(self):
        return self.rng

    @property
    def node_count(self):
        """Nodes in the tree."""
        return self.size

    @property
    def root_visits(self):
        self.check_idle()
        return self.nodes[0].visits

    @property
    def num_players(self):
        """Players of the game the tree was last searched on."""
        return self.players

    def memory_bytes(self):
        """Bytes of the tree: 24 a node and 8 per player of its rewards, 4 more per player with
        ``implicit`` (the arrays grow by doubling; this counts the nodes in use, as the pure
        twin does)."""
        cdef int per_player = sizeof(long long) + (sizeof(int) if self.alpha != 0.0 else 0)
        return (sizeof(Node) + per_player * self.players) * self.size

    # -- tree reuse ------------------------------------------------------------

    cdef int find(self, GameCore core) except -2:
        """The node to keep for `core`: the one whose Zobrist key matches and whose position
        is exactly `core`'s (same game, size and stones), or -1."""
        cdef Node* nodes = self.nodes
        cdef uint64_t key = core.key()
        cdef int depth, node, child, f
        cdef list level, below
        if nodes[0].visits == 0 or self.root_core is None:
            return -1
        if nodes[0].key == key:
            return 0 if self.root_state == position_state(core) else -1
        level = [(0, ())]
        for depth in range(self.players):
            below = []
            for node, path in level:
                f = nodes[node].first
                if f < 0:
                    continue
                for child in range(f, f + nodes[node].count):
                    if nodes[child].visits == 0:
                        continue
                    if nodes[child].key == key:
                        if reached_state(self.root_core, path + (nodes[child].move,)) == position_state(core):
                            return child
                        return -1
                    below.append((child, path + (nodes[child].move,)))
            level = below
        return -1

    cdef int reroot(self, int root) except -1:
        cdef Node* old
        cdef Node* new
        cdef long long* old_rewards
        cdef long long* new_rewards
        cdef int* new_tau = NULL
        cdef int* queue_old
        cdef int* queue_new
        cdef int head = 0, tail = 1, size = 1, o, n, f, child, players = self.players
        if root == 0:
            return 0
        old = self.nodes
        old_rewards = self.rewards
        new = <Node*>malloc(self.capacity * sizeof(Node))
        new_rewards = <long long*>malloc(self.capacity * PLAYER_BUFFER * sizeof(long long))
        queue_old = <int*>malloc(self.size * sizeof(int))
        queue_new = <int*>malloc(self.size * sizeof(int))
        if self.alpha != 0.0:
            new_tau = <int*>malloc(self.capacity * PLAYER_BUFFER * sizeof(int))
        if (new == NULL or new_rewards == NULL or queue_old == NULL or queue_new == NULL
                or (self.alpha != 0.0 and new_tau == NULL)):
            free(new_tau)
            free(new)
            free(new_rewards)
            free(queue_old)
            free(queue_new)
            raise MemoryError("MCTS tree: out of memory")
        new[0] = old[root]
        new[0].first = -1
        memcpy(new_rewards, &old_rewards[root * players], players * sizeof(long long))
        if new_tau != NULL:
            memcpy(new_tau, &self.tau[root * players], players * sizeof(int))
        queue_old[0] = root
        queue_new[0] = 0
        while head < tail:
            o = queue_old[head]
            n = queue_new[head]
            head += 1
            f = old[o].first
            if f < 0:
                continue
            new[n].first = size
            for child in range(f, f + old[o].count):
                queue_old[tail] = child
                queue_new[tail] = size
                tail += 1
                new[size] = old[child]
                new[size].first = -1
                memcpy(&new_rewards[size * players], &old_rewards[child * players], players * sizeof(long long))
                if new_tau != NULL:
                    memcpy(&new_tau[size * players], &self.tau[child * players], players * sizeof(int))
                size += 1
        free(old)
        free(old_rewards)
        free(queue_old)
        free(queue_new)
        self.nodes = new
        self.rewards = new_rewards
        if new_tau != NULL:
            free(self.tau)
            self.tau = new_tau
        self.size = size
        return 0

    # -- the search --------------------------------------------------------------

    def search(self, GameCore core not None, limits, progress=None, weights=None):
        """Run iterations from the position of ``core`` (not touched: the search runs on a
        copy); return how many ran.

        ``limits`` (``SearchLimits``, its depth unused): ``nodes`` > 0 caps the count of
        iterations, ``seconds`` > 0 the seconds, of the wall clock or with ``cpu_clock`` of this
        thread's CPU time (see the pure twin: the search
        runs until the next iteration would end past the limit); at least one must be set.
        At least one iteration runs. Ctrl-C stops it (KeyboardInterrupt; the tree is emptied).
        The iterations run without the GIL: other Python threads keep running meanwhile;
        ``progress`` is called with the GIL (see the pure twin: Progress and stop). ``weights``:
        implicit minimax's evaluation weights (see the pure twin).
        """
        cdef int i
        iterations, time_limit = check_mcts_limits(limits)
        checked = check_mcts_weights(weights)
        self.check_idle()
        for i in range(C_MAX_MCTS_WEIGHTS):
            self.weights[i] = checked[i]
        self.busy = True
        self.stop_requested = False
        try:
            return self.run(core.copy(), iterations, time_limit, bool(limits.cpu_clock), progress)
        except BaseException:
            self.clear_tree()  # as the pure twin: a search that raised leaves no tree
            raise
        finally:
            self.busy = False

    def stop(self):
        """Make the running search return after the iteration under way (from another
        thread: a stop button), with the tree it has grown. Does nothing when no search runs."""
        if self.busy:
            self.stop_requested = True

    cdef long long run(self, GameCore core, long long iterations, double time_limit, bint cpu_clock,
                       object progress) except -1:
        cdef double next_poll = 0.0
        cdef bint reporting = progress is not None
        cdef bint ended = False
        cdef double next_report
        cdef int players = core.num_players()
        if not 1 <= players <= PLAYER_BUFFER:
            raise ValueError(f"MCTS handles 1 to {PLAYER_BUFFER} players, the game has {players}")
        cdef double start = gc_clock_seconds(cpu_clock)
        cdef double deadline = start + <double>time_limit
        cdef double now, first_iteration
        cdef long long budget = iterations
        cdef bint timed = time_limit > 0.0
        cdef uint64_t key = core.key()
        cdef int root = self.find(core) if players == self.players else -1
        cdef double alpha = implicit_weight(self.implicit, players, time_limit)
        cdef int* grown_tau
        cdef long long done = 0
        cdef int failed = 0
        cdef bint interrupted = False
        cdef int low = 0, highest_sum = 0
        core.value_bounds(&low, &highest_sum)
        self.tau_low, self.tau_span = implicit_bounds(low, highest_sum, players)
        if alpha != self.alpha:
            root = -1  # the tree holds no implicit values, or holds them for nothing
            self.alpha = 0.0  # (the tree is cleared below, with the values' array if needed)
        if alpha != 0.0:
            grown_tau = <int*>realloc(self.tau, self.capacity * PLAYER_BUFFER * sizeof(int))
            if grown_tau == NULL:
                raise MemoryError("MCTS tree: out of memory")
            self.tau = grown_tau
        self.alpha = alpha
        self.use_mast = mast_on(self.mast, players, time_limit)
        self.threshold = greedy_threshold(self.greedy, players, self.use_mast)
        self.history_w = history_weight(self.history, players)
        self.recording = self.history_w != 0.0 or self.use_mast
        memset(self.history_visits, 0, sizeof(self.history_visits))
        memset(self.history_reward, 0, sizeof(self.history_reward))
        self.players = players
        if root < 0:
            self.clear_tree()
        else:
            self.reroot(root)
        self.root_state = position_state(core)
        self.root_core = core.copy()
        self.nodes[0].key = key
        self.root_mover = core.to_move()
        self.reused_visits = self.nodes[0].visits
        self.max_depth = 0
        self.states = 0
        with nogil:
            first_iteration = gc_clock_seconds(cpu_clock)
            next_report = first_iteration + C_PROGRESS_INTERVAL
            while True:
                failed = self.iterate(core)
                if failed:
                    break
                done += 1
                if budget and done >= budget or self.stop_requested:
                    break
                if timed or reporting:
                    now = gc_clock_seconds(cpu_clock)
                    if timed and now + (now - first_iteration) / done >= deadline:
                        break
                    if reporting and now >= next_report:
                        next_report = now + C_PROGRESS_INTERVAL
                        with gil:
                            ended = bool(progress(done, self.max_depth, self.c_best_score(), self.pv_codes(),
                                                  self.states))
                        if ended:
                            break
                if done % C_SIGNAL_CHECK_EVERY == 0 and gc_poll_signals(&next_poll):
                    interrupted = True
                    break
        self.iterations = done
        if interrupted or failed:
            self.clear_tree()  # an iteration stopped half-way: the counts no longer add up
        if interrupted:
            gc_raise_pending()  # Ctrl-C
        if failed == FAILED_MEMORY:
            raise MemoryError("MCTS tree: out of memory")
        if failed == FAILED_PATH:
            raise RuntimeError("MCTS: the game is longer than the search can follow")
        return done

    cdef int iterate(self, GameCore core) noexcept nogil:
        """One iteration; 0, or FAILED_MEMORY / FAILED_PATH with `core` as it was."""
        cdef int path[MAX_PATH]
        cdef int legal[MOVE_BUFFER]
        cdef int values[PLAYER_BUFFER]
        cdef long long result[PLAYER_BUFFER]
        cdef int node = 0, depth = 0, n, f, child, chosen, i, p, mover, players = self.players, index
        cdef double log_n, score, best_score, c2 = self.c2, weight = self.history_w
        cdef double alpha = self.alpha, keep = 1.0 - self.alpha, span = <double>self.tau_span
        cdef long long low = self.tau_low
        cdef long long won, v
        cdef Node* nodes
        cdef long long* rewards
        path[0] = 0
        self.trail_len = 0
        while True:
            nodes = self.nodes
            if nodes[node].first < 0:
                # The tree full: simulate from here (the root's children are always made).
                if node and self.size >= self.max_nodes:
                    self.rollout(core, result)
                    break
                n = core.gen_moves(legal)
                if node and self.size + n > self.max_nodes:
                    self.rollout(core, result)
                    break
                if self.grow(self.size + n) < 0:
                    while depth > 0:  # the position back as it was
                        core.unmake_move()
                        depth -= 1
                    return FAILED_MEMORY
                nodes = self.nodes
                nodes[node].first = self.size
                nodes[node].count = n
                for i in range(n):
                    self.init_node(self.size, legal[i])
            n = nodes[node].count
            if n == 0:  # the game is over here: no simulation
                core.terminal_values(values)
                c_reward_shares(values, players, result)
                break
            f = nodes[node].first
            chosen = -1
            for child in range(f, f + n):
                if nodes[child].visits == 0:
                    chosen = child
                    break
            if chosen >= 0:
                if self.recording:
                    self.record(core.to_move(), nodes[chosen].move)
                core.make_move(nodes[chosen].move)
                nodes[chosen].key = core.key()
                if alpha != 0.0:  # the new leaf's evaluation: its first implicit minimax value
                    core.evaluate_players(self.weights, &self.tau[chosen * players])
                depth += 1
                path[depth] = chosen
                self.rollout(core, result)
                break
            log_n = log(<double>nodes[node].visits)
            mover = core.to_move()
            rewards = self.rewards
            best_score = -1.0
            for child in range(f, f + n):
                v = nodes[child].visits
                won = rewards[child * players + mover]
                if alpha != 0.0:
                    score = ((keep * <double>won) / <double>(C_REWARD_UNIT * v)
                             + (alpha * <double>(self.tau[child * players + mover] - low)) / span
                             + sqrt(c2 * log_n / <double>v))
                else:
                    score = <double>won / (C_REWARD_UNIT * <double>v) + sqrt(c2 * log_n / <double>v)
                if weight != 0.0:
                    index = mover * C_HISTORY_MOVES + nodes[child].move + 2
                    if self.history_visits[index]:
                        score = score + (weight * <double>self.history_reward[index]) / <double>(
                            self.history_visits[index] * (C_REWARD_UNIT * (v + 1) - won))
                if score > best_score:
                    best_score = score
                    chosen = child
            if depth + 1 >= MAX_PATH:
                while depth > 0:  # the position back as it was
                    core.unmake_move()
                    depth -= 1
                return FAILED_PATH
            if self.recording:
                self.record(mover, nodes[chosen].move)
            core.make_move(nodes[chosen].move)
            depth += 1
            path[depth] = chosen
            node = chosen
        self.states += depth
        if depth > self.max_depth:
            self.max_depth = depth
        # Max^n backup: every node of the path adds every player's reward.
        nodes = self.nodes
        rewards = self.rewards
        i = depth
        while i >= 0:
            node = path[i]
            nodes[node].visits += 1
            for p in range(players):
                rewards[node * players + p] += result[p]
            if alpha != 0.0 and i < depth:
                self.back_up_tau(node, core.to_move())
            if i:
                core.unmake_move()
            i -= 1
        for i in range(self.trail_len):
            index = self.trail[i]
            self.history_visits[index] += 1
            self.history_reward[index] += result[index // C_HISTORY_MOVES]
        return 0

    cdef void back_up_tau(self, int node, int mover) noexcept nogil:
        """Implicit minimax (max^n): `node`'s values become those of its visited child with the
        highest value for `mover`, the player to move there (the first on ties)."""
        cdef int f = self.nodes[node].first, child, best = -1, best_value = 0, players = self.players, p
        if f < 0:
            return
        for child in range(f, f + self.nodes[node].count):
            if self.nodes[child].visits and (best < 0 or self.tau[child * players + mover] > best_value):
                best = child
                best_value = self.tau[child * players + mover]
        if best >= 0:
            for p in range(players):
                self.tau[node * players + p] = self.tau[best * players + p]

    cdef inline void record(self, int player, int move) noexcept nogil:
        """Note (player, move) in the iteration's trail for progressive history."""
        if self.trail_len < MAX_TRAIL:
            self.trail[self.trail_len] = player * C_HISTORY_MOVES + move + 2
            self.trail_len += 1

    cdef int mast_move(self, GameCore core, const int* legal, int n, uint64_t r) noexcept nogil:
        """The MAST greedy move (the pure twin's ``_mast_moves`` and its pick): of the moves with
        the mover's highest mean reward in the history table (with its prior), then the highest
        ``order_key``, the ((r & C_TIE_BITS) mod ties)-th in move order. Means are compared
        exactly, by cross products of the integer counts."""
        cdef int top[MOVE_BUFFER]
        cdef int ties = 0, i, move, key, best_key = 0
        cdef int base = core.to_move() * C_HISTORY_MOVES + 2
        cdef long long v, w, side, best_visits = 0, best_reward = 0
        for i in range(n):
            move = legal[i]
            v = self.history_visits[base + move] + C_MAST_PRIOR_VISITS
            w = self.history_reward[base + move] + C_MAST_PRIOR_REWARD
            key = core.order_key(move)
            if ties == 0:
                side = 1
            else:
                side = w * best_visits - best_reward * v
                if side == 0:
                    side = key - best_key
            if side > 0:
                ties = 0
                best_reward = w
                best_visits = v
                best_key = key
            if side >= 0:
                top[ties] = move
                ties += 1
        return top[(r & C_TIE_BITS) % <uint64_t>ties]

    cdef void rollout(self, GameCore core, long long* result) noexcept nogil:
        """Playout moves to the end and back; the reward of each player in `result`."""
        cdef int legal[MOVE_BUFFER]
        cdef int values[PLAYER_BUFFER]
        cdef int plies = 0, n, i, move, key, best_key
        cdef uint64_t r, threshold = self.threshold
        while True:
            n = core.gen_moves(legal)
            if n == 0:
                break
            r = gc_splitmix64(&self.rng)
            if threshold and (r >> 11) < threshold:
                if self.use_mast:  # the best history mean, then order_key; ties by r's low bits
                    move = self.mast_move(core, legal, n, r)
                else:  # greedy: the highest order_key, the first in move order on ties
                    move = legal[0]
                    best_key = core.order_key(move)
                    for i in range(1, n):
                        key = core.order_key(legal[i])
                        if key > best_key:
                            best_key = key
                            move = legal[i]
            else:
                move = legal[r % <uint64_t>n]
            if self.recording:
                self.record(core.to_move(), move)
            core.make_move(move)
            plies += 1
        self.states += plies
        core.terminal_values(values)
        c_reward_shares(values, self.players, result)
        while plies > 0:
            core.unmake_move()
            plies -= 1

    # -- reading the tree ----------------------------------------------------------

    cdef int node_at(self, path) except -1:
        """The node reached from the root by the moves of ``path`` (as the pure twin's ``_node_at``)."""
        cdef int node = 0, f, child, found
        for m in path:
            f = self.nodes[node].first
            found = -1
            if f >= 0:
                for child in range(f, f + self.nodes[node].count):
                    if self.nodes[child].move == m:
                        found = child
                        break
            if found < 0:
                raise ValueError(f"move {m!r} is not in the tree at this node")
            node = found
        return node

    def node_implicit(self, path=()):
        """The implicit minimax values of the node reached by the moves of ``path`` (see the
        pure twin); empty when implicit minimax is off.

        :raises ValueError: a move of ``path`` is not a child in the tree.
        """
        cdef int p
        self.check_idle()
        cdef int node = self.node_at(path)
        if self.alpha == 0.0:
            return []
        return [self.tau[node * self.players + p] for p in range(self.players)]

    def history_table(self):
        """Progressive history of the last search: ``(visits, reward)``, indexed as in the pure twin."""
        self.check_idle()
        cdef int n = self.players * C_HISTORY_MOVES, i
        return [self.history_visits[i] for i in range(n)], [self.history_reward[i] for i in range(n)]

    def root_children(self):
        """``(move, visits, reward)`` of every root child, in move order; ``reward`` is that
        of the player to move at the root, in reward units (``REWARD_UNIT`` per point)."""
        self.check_idle()
        cdef int f = self.nodes[0].first, c
        if f < 0:
            return []
        return [(self.nodes[c].move, self.nodes[c].visits, self.rewards[c * self.players + self.root_mover])
                for c in range(f, f + self.nodes[0].count)]

    def node_rewards(self, path=()):
        """``(visits, reward per player)`` of the node reached from the root by the moves
        of ``path`` (the root for an empty path).

        :raises ValueError: a move of ``path`` is not a child in the tree.
        """
        cdef int p
        self.check_idle()
        cdef int node = self.node_at(path)
        return self.nodes[node].visits, [self.rewards[node * self.players + p] for p in range(self.players)]

    cdef int best_child(self, int node) noexcept:
        cdef int f = self.nodes[node].first, child, best = -1, best_visits = 0
        if f < 0:
            return -1
        for child in range(f, f + self.nodes[node].count):
            if self.nodes[child].visits > best_visits:
                best = child
                best_visits = self.nodes[child].visits
        return best

    def best_move(self):
        """The most visited root move (the first in move order on ties).

        :raises GameOverError: nothing has been searched, or the root's game is over.
        """
        self.check_idle()
        cdef int best = self.best_child(0)
        if best < 0:
            raise GameOverError("the tree has no visited root move: search a position that is not over first")
        return self.nodes[best].move

    def best_score(self):
        """The most visited root move's reward for the player to move at the root, per mille
        of ``REWARD_UNIT`` (its win rate: draws count half); 0 before any search."""
        self.check_idle()
        return self.c_best_score()

    cdef long long c_best_score(self):
        cdef int best = self.best_child(0)
        if best < 0:
            return 0
        return (self.rewards[best * self.players + self.root_mover] * 1000) // (C_REWARD_UNIT * self.nodes[best].visits)

    def principal_variation(self):
        """The moves of the most visited path from the root."""
        self.check_idle()
        return self.pv_codes()

    cdef list pv_codes(self):
        cdef list pv = []
        cdef int node = self.best_child(0)
        while node >= 0:
            pv.append(self.nodes[node].move)
            node = self.best_child(node)
        return pv

