# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Monte-Carlo tree search (UCT) over the game protocol: the compiled twin of ``_mcts_py``.

The same steps in the same order as the pure twin (see ``python/gamecore/_mcts_py.py``
for the full description), on C arrays and the cdef methods of the game core: for the
same seed and iteration budget both backends return the same move, visit counts and
number of iterations.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc

from bits cimport gc_splitmix64
from gamecore._game_cy cimport GameCore, MOVE_BUFFER

import math
import time

__all__ = ["MCTSTree", "DEFAULT_EXPLORATION", "DEFAULT_MAX_NODES"]

DEFAULT_EXPLORATION = 1.4142135623730951
DEFAULT_MAX_NODES = 1_000_000
TIME_CHECK_EVERY = 16
REUSE_DEPTH = 2

cdef enum:
    # Deeper than any game's length (10x10 Othello: 96 moves and at most as many passes).
    MAX_PATH = 1024
    C_TIME_CHECK_EVERY = 16
    C_REUSE_DEPTH = 2


ctypedef struct Node:
    uint64_t key      # Zobrist key of the node's position, set on its first visit
    int move          # the move from the parent (unused for the root)
    int first         # index of the first child, -1 while not expanded
    int count         # number of children (0 once expanded: the game is over there)
    int visits
    long long wins    # half points for the player who made the node's move



cdef class MCTSTree:
    """A UCT search tree that lives across the moves of one game.

    :param seed: seed of the splitmix64 generator (any int; taken modulo 2**64).
    :param exploration: the UCB1 exploration constant (> 0).
    :param max_nodes: the largest number of nodes the tree may hold (>= 1).
    """

    cdef readonly object seed
    cdef readonly double exploration
    cdef readonly int max_nodes
    cdef uint64_t rng
    cdef readonly int iterations
    cdef readonly int max_depth
    cdef double c2
    cdef Node* nodes
    cdef int size
    cdef int capacity

    def __cinit__(self):
        self.nodes = NULL
        self.size = 0
        self.capacity = 0

    def __init__(self, seed=0, exploration=DEFAULT_EXPLORATION, max_nodes=DEFAULT_MAX_NODES):
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {type(seed).__name__}")
        exploration = float(exploration)
        if not exploration > 0.0 or math.isinf(exploration):
            raise ValueError(f"exploration must be a positive finite number, got {exploration!r}")
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise ValueError(f"max_nodes must be an int >= 1, got {max_nodes!r}")
        if max_nodes > 0x7FFFFFFF // 2:
            max_nodes = 0x7FFFFFFF // 2
        self.seed = seed & 0xFFFFFFFFFFFFFFFF
        self.exploration = exploration
        self.max_nodes = max_nodes
        self.c2 = exploration * exploration
        self.rng = <uint64_t>self.seed
        self.iterations = 0
        self.max_depth = 0
        self._clear()

    def __dealloc__(self):
        free(self.nodes)

    # -- tree storage: an array of nodes, node 0 is the root ------------------

    cdef int reserve(self, int wanted) except -1:
        cdef int capacity
        cdef Node* grown
        if wanted <= self.capacity:
            return 0
        capacity = self.capacity * 2 if self.capacity else 1024
        while capacity < wanted:
            capacity *= 2
        grown = <Node*>realloc(self.nodes, capacity * sizeof(Node))
        if grown == NULL:
            raise MemoryError("MCTS tree: out of memory")
        self.nodes = grown
        self.capacity = capacity
        return 0

    cdef inline int add_node(self, int move) except -1:
        cdef int i = self.size
        if i >= self.capacity:
            self.reserve(i + 1)
        self.nodes[i].key = 0
        self.nodes[i].move = move
        self.nodes[i].first = -1
        self.nodes[i].count = 0
        self.nodes[i].visits = 0
        self.nodes[i].wins = 0
        self.size = i + 1
        return i

    def _clear(self):
        self.size = 0
        self.add_node(0)

    def reset(self):
        """Forget the tree (the generator keeps its state)."""
        self._clear()

    @property
    def rng_state(self):
        return self.rng

    @property
    def node_count(self):
        """Nodes in the tree."""
        return self.size

    @property
    def root_visits(self):
        return self.nodes[0].visits

    def memory_bytes(self):
        """Bytes allocated for the tree (32 a node; the array grows by doubling)."""
        return self.capacity * sizeof(Node)

    # -- tree reuse ------------------------------------------------------------

    cdef int find(self, uint64_t key) except -2:
        cdef Node* nodes = self.nodes
        cdef int depth, node, child, f
        cdef list level, below
        if nodes[0].visits == 0:
            return -1
        if nodes[0].key == key:
            return 0
        level = [0]
        for depth in range(C_REUSE_DEPTH):
            below = []
            for node in level:
                f = nodes[node].first
                if f < 0:
                    continue
                for child in range(f, f + nodes[node].count):
                    if nodes[child].visits == 0:
                        continue
                    if nodes[child].key == key:
                        return child
                    below.append(child)
            level = below
        return -1

    cdef int reroot(self, int root) except -1:
        cdef Node* old
        cdef Node* new
        cdef int* queue_old
        cdef int* queue_new
        cdef int head = 0, tail = 1, size = 1, o, n, f, child
        if root == 0:
            return 0
        old = self.nodes
        new = <Node*>malloc(self.capacity * sizeof(Node))
        queue_old = <int*>malloc(self.size * sizeof(int))
        queue_new = <int*>malloc(self.size * sizeof(int))
        if new == NULL or queue_old == NULL or queue_new == NULL:
            free(new)
            free(queue_old)
            free(queue_new)
            raise MemoryError("MCTS tree: out of memory")
        new[0] = old[root]
        new[0].first = -1
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
                size += 1
        free(old)
        free(queue_old)
        free(queue_new)
        self.nodes = new
        self.size = size
        return 0

    # -- the search --------------------------------------------------------------

    def search(self, GameCore core not None, iterations=0, time_limit=0.0):
        """Run iterations from the position of ``core`` (restored afterwards); return how many ran.

        ``iterations`` > 0 caps the count, ``time_limit`` > 0 caps the wall-clock seconds
        (the clock is read every ``TIME_CHECK_EVERY`` iterations); at least one must be set.
        At least one iteration runs.
        """
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
            raise ValueError(f"iterations must be an int >= 0, got {iterations!r}")
        time_limit = float(time_limit)
        if not time_limit >= 0.0:
            raise ValueError(f"time_limit must be >= 0, got {time_limit!r}")
        if iterations == 0 and time_limit == 0.0:
            raise ValueError("give an iteration budget or a time limit")
        cdef double start = time.perf_counter()
        cdef double deadline = start + <double>time_limit
        cdef long long budget = iterations
        cdef bint timed = time_limit > 0.0
        cdef uint64_t key = core.key()
        cdef int root = self.find(key)
        cdef long long done = 0
        if root < 0:
            self._clear()
        else:
            self.reroot(root)
        self.nodes[0].key = key
        self.max_depth = 0
        while True:
            self.iterate(core)
            done += 1
            if budget and done >= budget:
                break
            if timed and done % C_TIME_CHECK_EVERY == 0 and time.perf_counter() >= deadline:
                break
        self.iterations = done
        return done

    cdef int iterate(self, GameCore core) except -1:
        cdef int path[MAX_PATH]
        cdef int legal[MOVE_BUFFER]
        cdef int node = 0, depth = 0, n, f, child, chosen, i, value, result
        cdef double log_n, score, best_score, c2 = self.c2
        cdef Node* nodes
        path[0] = 0
        while True:
            nodes = self.nodes
            if nodes[node].first < 0:
                if self.size >= self.max_nodes:
                    result = self.rollout(core)  # tree full: simulate from here
                    break
                n = core.gen_moves(legal)
                if self.size + n > self.max_nodes:
                    result = self.rollout(core)
                    break
                self.reserve(self.size + n)
                nodes = self.nodes
                nodes[node].first = self.size
                nodes[node].count = n
                for i in range(n):
                    self.add_node(legal[i])
            n = nodes[node].count
            if n == 0:  # the game is over here: no simulation
                value = core.terminal_value()
                result = (value > 0) - (value < 0)
                break
            f = nodes[node].first
            chosen = -1
            for child in range(f, f + n):
                if nodes[child].visits == 0:
                    chosen = child
                    break
            if chosen >= 0:
                core.make_move(nodes[chosen].move)
                nodes[chosen].key = core.key()
                depth += 1
                path[depth] = chosen
                result = self.rollout(core)
                break
            log_n = log(<double>nodes[node].visits)
            best_score = -1.0
            for child in range(f, f + n):
                score = <double>nodes[child].wins / (2.0 * <double>nodes[child].visits) + sqrt(c2 * log_n / <double>nodes[child].visits)
                if score > best_score:
                    best_score = score
                    chosen = child
            core.make_move(nodes[chosen].move)
            depth += 1
            if depth >= MAX_PATH:
                raise RuntimeError("MCTS: the game is longer than the search can follow")
            path[depth] = chosen
            node = chosen
        if depth > self.max_depth:
            self.max_depth = depth
        nodes = self.nodes
        i = depth
        while i >= 0:
            node = path[i]
            nodes[node].visits += 1
            nodes[node].wins += 1 - result
            result = -result
            if i:
                core.unmake_move()
            i -= 1
        return 0

    cdef int rollout(self, GameCore core) noexcept:
        """Random moves to the end and back; the result (+1/0/-1) for the side to move now."""
        cdef int legal[MOVE_BUFFER]
        cdef int plies = 0, n, value, result
        cdef bint odd
        cdef uint64_t r
        while True:
            n = core.gen_moves(legal)
            if n == 0:
                break
            r = gc_splitmix64(&self.rng)
            core.make_move(legal[r % <uint64_t>n])
            plies += 1
        value = core.terminal_value()
        result = (value > 0) - (value < 0)
        odd = plies & 1
        while plies > 0:
            core.unmake_move()
            plies -= 1
        return -result if odd else result

    # -- reading the tree ----------------------------------------------------------

    def root_children(self):
        """``(move, visits, half-point wins)`` of every root child, in move order."""
        cdef int f = self.nodes[0].first, c
        if f < 0:
            return []
        return [(self.nodes[c].move, self.nodes[c].visits, self.nodes[c].wins) for c in range(f, f + self.nodes[0].count)]

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

        :raises ValueError: nothing has been searched, or the root's game is over.
        """
        cdef int best = self.best_child(0)
        if best < 0:
            raise ValueError("the tree has no visited root move: search a position that is not over first")
        return self.nodes[best].move

    def principal_variation(self):
        """The moves of the most visited path from the root."""
        cdef list pv = []
        cdef int node = self.best_child(0)
        while node >= 0:
            pv.append(self.nodes[node].move)
            node = self.best_child(node)
        return pv
