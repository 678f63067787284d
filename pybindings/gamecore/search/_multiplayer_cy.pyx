# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Searches for games of n players, over the game protocol: compiled twin of ``_multiplayer_py``.

Max^n with and without shallow pruning, paranoid and Best-Reply Search, in C-level code
over the cdef methods of ``GameCore``, on the alpha-beta ``Searcher``'s transposition
table, limits and clock (this class inherits them). The same nodes in the same order as
the pure twin: see ``python/gamecore/search/_multiplayer_py.py`` for the algorithms, the
tie-break, the pruning rule, the move order, the tables' use and the user evaluation.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from gamecore._game_cy cimport GameCore, MOVE_BUFFER, PLAYER_BUFFER
from gamecore.search._alphabeta_cy cimport C_MAX_PLY, ERROR_SCORE, TTEntry, Searcher, sort_by_key
from interrupt cimport gc_raise_pending

cdef extern from "gamecore_clock.h":
    double gc_clock_seconds(int cpu) noexcept nogil

from gamecore.errors import ConcurrentUseError, InvalidEvaluationError, InvalidOptionError, InvalidPositionError
from gamecore.search._options import (
    FRAME_BYTES, MAXN_ENTRY_BYTES, MULTIPLAYER_SEARCHES, NO_HORIZON, check_algorithm, check_root_moves, check_values, check_weights, require_limits,
)
from gamecore.search._results import MultiOutcome

__all__ = [
    "MULTIPLAYER_SEARCHES",
    "MAXN_ENTRY_BYTES",
    "MultiSearcher",
    "NO_HORIZON",
    "brs_code",
    "brs_move",
    "brs_player",
    "check_values",
]

# NO_HORIZON, FRAME_BYTES and MAXN_ENTRY_BYTES are in _options, shared with _multiplayer_py.

cdef enum:
    C_INFINITY = 2000000000  # the C copies of _options' and _results' constants (see _C_COPIES)
    C_EXACT = 1
    C_LOWER = 2
    C_UPPER = 3
    C_NO_HORIZON = 4
    C_NO_MOVE = -2  # search/_results.NO_MOVE, as a C constant for the nogil search
    # A BRS MIN layer holds the moves of up to PLAYER_BUFFER - 1 opponents.
    REPLY_BUFFER = MOVE_BUFFER * (PLAYER_BUFFER - 1)
    ALG_MAXN = 0
    ALG_MAXN_PLAIN = 1
    ALG_PARANOID = 2
    ALG_BRS = 3

# _options.MULTIPLAYER_SALTS and MULTIPLAYER_SALT_STEP, for the nogil search.
cdef uint64_t SALT_PARANOID = 0x6A09E667F3BCC908ULL
cdef uint64_t SALT_BRS = 0xBB67AE8584CAA73BULL
cdef uint64_t SALT_STEP = 0x3C6EF372FE94F82BULL

#: The C constants that copy a shared one, by its name in _options / _results (compared in the tests).
_C_COPIES = {"INFINITY": C_INFINITY, "EXACT": C_EXACT, "LOWER": C_LOWER, "UPPER": C_UPPER, "NO_MOVE": C_NO_MOVE,
             "NO_HORIZON": C_NO_HORIZON, "MAXN_ENTRY_BYTES": sizeof(MaxnEntry),
             "MULTIPLAYER_SALTS": {"paranoid": SALT_PARANOID, "brs": SALT_BRS}, "MULTIPLAYER_SALT_STEP": SALT_STEP}

ctypedef struct MaxnEntry:
    uint64_t key
    int32_t values[PLAYER_BUFFER]
    int16_t move
    int8_t depth
    int8_t flag       # 0: empty slot


cdef inline int c_brs_code(int player, int move) noexcept nogil:
    return (player << 8) | (move + 2)


cdef inline int c_brs_move(int code) noexcept nogil:
    return (code & 0xFF) - 2


def brs_code(int player, int move):
    """A BRS move: the player who makes it and the move."""
    return c_brs_code(player, move)


def brs_move(int code):
    return c_brs_move(code)


def brs_player(int code):
    return code >> 8


cdef void stable_sort_desc(int* codes, long long* keys, int count) noexcept nogil:
    """Insertion sort by `keys`, high first, equal keys keeping their order (for lists
    longer than sort_by_key's buffers: the replies of several opponents)."""
    cdef int a, b, code
    cdef long long key
    for a in range(1, count):
        code = codes[a]
        key = keys[a]
        b = a - 1
        while b >= 0 and keys[b] < key:
            codes[b + 1] = codes[b]
            keys[b + 1] = keys[b]
            b -= 1
        codes[b + 1] = code
        keys[b + 1] = key


cdef void bring_to_front(int* moves, int count, int first) noexcept nogil:
    """Move `first` (the table's move), when present, to the front; the others keep their order."""
    cdef int i, j
    if first == C_NO_MOVE:
        return
    for j in range(count):
        if moves[j] == first:
            i = j
            while i > 0:
                moves[i] = moves[i - 1]
                i -= 1
            moves[0] = first
            return


cdef class MultiSearcher(Searcher):
    """Max^n, paranoid and Best-Reply Search over the alpha-beta ``Searcher``'s table and limits.

    :param tt_mb: transposition-table size in megabytes (0 disables it); Max^n's table of
        vectors takes as much again, made at its first search.
    """

    cdef int players
    cdef int root
    cdef int deepest
    cdef int lowest
    cdef int highest_sum
    cdef long long sum_rest
    cdef long long max_single
    cdef uint64_t salt
    cdef MaxnEntry* maxn_table
    cdef uint64_t maxn_mask
    cdef Py_ssize_t maxn_filled
    # last_best, last_best_searched, root_score: the alpha-beta Searcher's (_alphabeta_cy.pxd).

    def __cinit__(self):
        self.maxn_table = NULL
        self.maxn_mask = 0

    def __init__(self, tt_mb=16):
        Searcher.__init__(self, tt_mb)
        free(self.maxn_table)
        self.maxn_table = NULL
        self.maxn_filled = 0

    def __dealloc__(self):
        free(self.maxn_table)

    def clear(self):
        """Empty the transposition tables."""
        Searcher.clear(self)
        if self.maxn_table != NULL:
            memset(self.maxn_table, 0, self.maxn_entries() * sizeof(MaxnEntry))
        self.maxn_filled = 0

    cdef Py_ssize_t maxn_entries(self):
        return self.tt_entries // 2 if self.tt_entries >= 2 else 0

    def maxn_tt_bytes(self):
        """Memory of Max^n's table (allocated by ``make_maxn_table`` or the first Max^n search)."""
        return self.maxn_entries() * MAXN_ENTRY_BYTES

    def make_maxn_table(self):
        """Allocate Max^n's table, if it is not yet, and touch every page of it (see the pure twin)."""
        if self.busy:
            raise ConcurrentUseError("cannot make a table while the searcher searches")
        if self.maxn_table != NULL or self.maxn_entries() == 0:
            return
        self.maxn_table = <MaxnEntry*>calloc(self.maxn_entries(), sizeof(MaxnEntry))
        if self.maxn_table == NULL:
            raise MemoryError("cannot allocate the Max^n transposition table")
        self.maxn_mask = self.maxn_entries() - 1
        memset(self.maxn_table, 0, self.maxn_entries() * sizeof(MaxnEntry))

    def tt_used(self, algorithm):
        """Entries of the table ``algorithm`` uses that hold a position (see the pure twin)."""
        return self.maxn_filled if algorithm in ("maxn", "maxn-plain") else self.tt_filled

    def search_multi(self, core, weights, limits, algorithm, root_moves=None, evaluator=None, wrap=None, progress=None):
        """Search ``core``; return a ``MultiOutcome`` (move codes).

        ``score`` is the root player's value; ``values`` the vector of every player (Max^n;
        paranoid and BRS know only the root player's: None for the others); ``depth`` the last
        finished iteration (0: none, the move is then the first in move order); ``exact`` True
        when that iteration reached the end of the game on every line; ``memory`` the bytes of
        the search structures (tables and recursion buffers). ``move`` is ``NO_MOVE`` when the
        game is over. ``evaluator(wrap(core))``, when given, replaces ``evaluate_players(weights)`` at
        the horizon (see the pure twin). ``limits`` (``SearchLimits``): the deepest iteration, the node
        and time limits, and which clock. ``core`` is not touched: the search runs on a copy of
        it. Like ``Searcher.search``, a second call while one runs (from the evaluation, or from
        another thread) raises ConcurrentUseError, and Ctrl-C stops it within a fraction of a second.
        ``progress`` and :meth:`stop` as for ``Searcher.search``.
        """
        if self.busy:
            raise ConcurrentUseError(
                "this searcher (Engine) is already searching: an evaluation function may not call "
                "it again, and two threads may not share it (give each its own Engine)"
            )
        require_limits(limits)
        cpu_clock = bool(limits.cpu_clock)
        # The clock starts here: copying the position and making the table are in the time.
        cdef double entered = gc_clock_seconds(cpu_clock)
        if not isinstance(core, GameCore):
            raise TypeError(f"core must be a compiled game core, got {type(core).__name__}")
        check_algorithm(algorithm, MULTIPLAYER_SEARCHES)
        weights = check_weights(weights)
        max_depth, node_limit, time_limit = limits.checked()
        root_moves = check_root_moves(root_moves)
        if evaluator is not None and not (callable(evaluator) and callable(wrap)):
            raise InvalidEvaluationError("an evaluation function and a position wrapper must be callables")
        cdef GameCore game = <GameCore>core.copy()
        cdef int players = game.num_players()
        if not 2 <= players <= PLAYER_BUFFER:
            raise InvalidPositionError(f"the searches handle 2 to {PLAYER_BUFFER} players, the game has {players}")
        cdef int alg = MULTIPLAYER_SEARCHES.index(algorithm)
        if alg == ALG_BRS and players > 2:
            if not game.set_turn(game.to_move()):
                raise InvalidOptionError("Best-Reply Search needs a game that lets a player move out of turn (set_turn)")
            game.unmake_move()
        cdef bint maxn = alg == ALG_MAXN or alg == ALG_MAXN_PLAIN
        cdef bint use_tt = self.tt_entries > 0 if not maxn else self.maxn_entries() > 0
        if maxn and use_tt and self.maxn_table == NULL:
            # calloc: zero pages mapped lazily, like the pure twin's list made at the first search
            # (the Engine makes it beforehand: make_maxn_table).
            self.maxn_table = <MaxnEntry*>calloc(self.maxn_entries(), sizeof(MaxnEntry))
            if self.maxn_table == NULL:
                raise MemoryError("cannot allocate the Max^n transposition table")
            self.maxn_mask = self.maxn_entries() - 1
        cdef int i, m
        self.root_filtered = root_moves is not None
        self.root_allowed[0] = self.root_allowed[1] = 0
        if root_moves is not None:
            for m in root_moves:  # checked: codes -2..125
                m += 2
                self.root_allowed[m >> 6] |= (<uint64_t>1) << (m & 63)
        for i in range(16):
            self.weights[i] = weights[i] if i < len(weights) else 0
        self.core = game
        self.evaluator = evaluator
        self.has_evaluator = evaluator is not None
        self.view = wrap
        self.nodes = 0
        self.tt_hits = 0
        self.node_limit = node_limit
        self.cpu_clock = bool(cpu_clock)
        self.start = entered
        self.deadline = self.start + time_limit if time_limit > 0 else 0.0
        self.aborted = False
        self.interrupted = False
        self.stop_requested = False
        self.next_poll = 0.0
        self.poll_signals = True
        self.deepest = 0
        for i in range(C_MAX_PLY):
            self.pv_len[i] = 0
        self.players = players
        self.root = game.to_move()
        cdef int lowest = 0, highest_sum = 0
        game.value_bounds(&lowest, &highest_sum)
        self.lowest = lowest
        self.highest_sum = highest_sum
        self.sum_rest = <long long>highest_sum - (players - 2) * <long long>lowest
        self.max_single = <long long>highest_sum - (players - 1) * <long long>lowest
        self.salt = (SALT_PARANOID if alg == ALG_PARANOID else SALT_BRS if alg == ALG_BRS else 0) + \
            <uint64_t>self.root * SALT_STEP
        cdef int root_list[MOVE_BUFFER]
        cdef int values[PLAYER_BUFFER]
        cdef int count = self.root_moves(root_list, game.gen_moves(root_list))
        cdef int score = 0, best_score = 0, depth, done_depth = 0
        cdef bint exact = False
        self.busy = True
        try:
            if count == 0:
                game.terminal_values(values)
                vector = [values[i] for i in range(players)]
                return MultiOutcome(C_NO_MOVE, vector[self.root], vector, 0, [], 0, 0, True, 0)
            self.order(root_list, count, False)
            best_move = root_list[0]
            best_pv = [best_move]
            best_values = [None] * players
            for depth in range(1, max_depth + 1):
                self.hit_horizon = False
                self.last_best = best_move
                self.last_best_searched = False
                # Without a Python evaluation no node touches a Python object: other
                # threads run meanwhile (Ctrl-C is still polled through enter()).
                if maxn:
                    if self.has_evaluator:
                        self.maxn(depth, 0, 0, False, alg == ALG_MAXN, use_tt, values)
                    else:
                        with nogil:
                            self.maxn(depth, 0, 0, False, alg == ALG_MAXN, use_tt, values)
                    score = values[self.root]
                elif self.has_evaluator:
                    score = self.coalition(depth, -C_INFINITY, C_INFINITY, 0, use_tt, alg == ALG_BRS)
                else:
                    with nogil:
                        score = self.coalition(depth, -C_INFINITY, C_INFINITY, 0, use_tt, alg == ALG_BRS)
                if self.interrupted:
                    gc_raise_pending()
                if self.aborted and not self.last_best_searched:
                    break
                # A finished iteration, or a stopped one's best so far (the pure twin's docstring).
                # Max^n's root vector is in `values` (copied from each better child that finished).
                best_score = values[self.root] if maxn else score if not self.aborted else self.root_score
                if maxn:
                    best_values = [values[i] for i in range(players)]
                else:
                    best_values = [best_score if i == self.root else None for i in range(players)]
                best_pv = [self.pv[0][i] for i in range(self.pv_len[0])]
                if not maxn:
                    best_pv = [c_brs_move(code) for code in best_pv]
                best_move = best_pv[0]
                if self.aborted:
                    break
                done_depth = depth
                exact = not self.hit_horizon
                if progress is not None and progress(depth, best_score, list(best_pv), self.nodes):
                    break
                if exact:
                    break  # every line reached the end of the game: deeper is the same
            table = 0 if not use_tt else self.maxn_tt_bytes() if maxn else self.tt_bytes()
            memory = table + (self.deepest + 1) * FRAME_BYTES
            return MultiOutcome(best_move, best_score, best_values, done_depth, best_pv, self.nodes, self.tt_hits, exact, memory)
        finally:
            self.core = None
            self.evaluator = None
            self.has_evaluator = False
            self.view = None
            self.poll_signals = False
            self.busy = False

    # -- the pieces every node needs ---------------------------------------

    cdef int open(self, int depth, int ply, int* moves) except -2 nogil:
        """Count the node; -1 at a leaf (horizon or end of the game), else the number of
        moves to search, in `moves`. 0 with the abort flag when a limit is reached."""
        cdef int count
        if self.enter():
            return 0
        self.pv_len[ply] = 0
        if ply > self.deepest:
            self.deepest = ply
        if depth == 0 or ply >= C_MAX_PLY - 1:
            if not self.core.is_terminal():
                self.hit_horizon = True
            return -1
        count = self.core.gen_moves(moves) if ply == 0 else self.core.search_moves(moves, depth)
        if count == 0:
            return -1
        return self.root_moves(moves, count) if ply == 0 else count

    cdef int leaf_values(self, int* out) except -1 nogil:
        cdef int i
        if self.core.is_terminal():
            self.core.terminal_values(out)
        elif not self.has_evaluator:
            self.core.evaluate_players(self.weights, out)
        else:
            with gil:
                # A copy: the evaluation may do what it likes with it, the search is unharmed.
                checked = check_values(self.evaluator(self.view(self.core.copy())), self.players, self.lowest,
                                       self.highest_sum)
                for i in range(self.players):
                    out[i] = checked[i]
        return 0

    cdef int leaf_score(self) except? ERROR_SCORE nogil:
        cdef int values[PLAYER_BUFFER]
        self.leaf_values(values)
        return values[self.root]

    # -- Max^n ---------------------------------------------------------------

    cdef int maxn(self, int depth, int ply, int limit, bint has_limit, bint pruned, bint use_tt,
                  int* best) except -1 nogil:
        """The value vector of the node in `best`; `limit`: the best value the parent's mover
        already has (when `has_limit`)."""
        cdef int moves[MOVE_BUFFER]
        cdef int values[PLAYER_BUFFER]
        cdef int count, i, mover, best_move = C_NO_MOVE
        cdef bint found = False, cut = False, probe, horizon_above, below
        cdef uint64_t key = 0
        cdef MaxnEntry* entry = NULL
        count = self.open(depth, ply, moves)
        if self.aborted:
            return 0
        if count < 0:
            self.leaf_values(best)
            return 0
        probe = use_tt and ply > 0
        if probe:
            key = self.core.key()
            entry = &self.maxn_table[key & self.maxn_mask]
            if entry.flag != 0 and entry.key == key:
                self.tt_hits += 1
                if entry.depth == depth:
                    if not entry.flag & C_NO_HORIZON:
                        self.hit_horizon = True
                    self.pv[ply][0] = entry.move
                    self.pv_len[ply] = 1
                    for i in range(self.players):
                        best[i] = entry.values[i]
                    return 0
        mover = self.core.to_move()
        horizon_above = self.hit_horizon
        self.hit_horizon = False
        self.order(moves, count, False)
        for i in range(count):
            self.core.make_move(moves[i])
            self.maxn(depth - 1, ply + 1, best[mover], pruned and found, pruned, use_tt, values)
            self.core.unmake_move()
            if self.aborted:
                return 0
            if ply == 0 and moves[i] == self.last_best:
                self.last_best_searched = True
            if not found or values[mover] > best[mover]:
                found = True
                memcpy(best, values, self.players * sizeof(int))
                best_move = moves[i]
                self.update_pv(ply, moves[i])
                if pruned:
                    if best[mover] >= self.max_single:
                        break  # nothing can be strictly better for the mover: still exact
                    if has_limit and self.sum_rest - best[mover] <= limit:
                        cut = True  # shallow pruning: the parent's mover cannot gain here
                        break
        below = self.hit_horizon
        self.hit_horizon = below or horizon_above
        if probe and not cut and (entry.flag == 0 or entry.key != key or depth >= entry.depth):
            self.maxn_filled += entry.flag == 0
            entry.key = key
            for i in range(self.players):
                entry.values[i] = best[i]
            entry.move = best_move
            entry.depth = depth
            entry.flag = C_EXACT | (0 if below else C_NO_HORIZON)
        return 0

    # -- paranoid and Best-Reply Search ----------------------------------------

    cdef int probe(self, int ply, int depth, int alpha, int beta, bint use_tt, int* tt_move,
                   TTEntry** slot) noexcept nogil:
        """The table's move in `tt_move`, the slot in `slot`; 1 when the table settles the
        node (its score is then in the slot), else 0."""
        cdef TTEntry* entry
        cdef uint64_t key
        cdef int bound
        tt_move[0] = C_NO_MOVE
        slot[0] = NULL
        if not use_tt:
            return 0
        key = self.core.key() ^ self.salt
        entry = self.tt_probe(key)
        slot[0] = entry
        if entry.flag == 0 or entry.key != key:
            return 0
        tt_move[0] = entry.move
        bound = entry.flag & 3
        if entry.depth == depth and ply > 0:
            if bound == C_EXACT or (bound == C_LOWER and entry.score >= beta) or (bound == C_UPPER and entry.score <= alpha):
                if not entry.flag & C_NO_HORIZON:
                    self.hit_horizon = True
                self.pv[ply][0] = entry.move
                self.pv_len[ply] = 1
                return 1
        return 0

    cdef int layer(self, int* moves, int count, int depth, bint opponents, int* codes, long long* keys) noexcept nogil:
        """A layer's moves, coded, with their order keys: the side to move's (`moves`), or with
        `opponents` (BRS's MIN layer) every opponent's, in playing order after the root
        player. Their number."""
        cdef int own[MOVE_BUFFER]
        cdef int step, player, mover = self.core.to_move(), n = 0, i, own_count
        if not opponents:
            for i in range(count):
                codes[i] = c_brs_code(mover, moves[i])
                keys[i] = self.core.order_key(moves[i])
            return count
        for step in range(1, self.players):
            player = (self.root + step) % self.players
            if player == mover:
                for i in range(count):
                    codes[n] = c_brs_code(player, moves[i])
                    keys[n] = self.core.order_key(moves[i])
                    n += 1
                continue
            self.core.set_turn(player)
            own_count = self.core.search_moves(own, depth)
            for i in range(own_count):
                codes[n] = c_brs_code(player, own[i])
                keys[n] = self.core.order_key(own[i])
                n += 1
            self.core.unmake_move()
        return n

    cdef int coalition(self, int depth, int alpha, int beta, int ply, bint use_tt, bint best_reply) except? ERROR_SCORE nogil:
        """Fail-soft alpha-beta on the root player's value against the coalition of the
        others: paranoid, or with `best_reply` BRS (see the pure twin's ``_coalition``)."""
        cdef int moves[MOVE_BUFFER]
        cdef int codes[REPLY_BUFFER]
        cdef long long keys[REPLY_BUFFER]
        cdef int count, n, i, j, score, best, best_move = C_NO_MOVE, tt_move, alpha_orig = alpha, beta_orig = beta
        cdef int player, move, pushed, root = self.root, flag
        cdef bint maximizing, horizon_above, below
        cdef TTEntry* slot
        count = self.open(depth, ply, moves)
        if self.aborted:
            return 0
        if count < 0:
            return self.leaf_score()
        if self.probe(ply, depth, alpha, beta, use_tt, &tt_move, &slot):
            return slot.score
        maximizing = self.core.to_move() == root
        n = self.layer(moves, count, depth, best_reply and not maximizing, codes, keys)
        stable_sort_desc(codes, keys, n)
        bring_to_front(codes, n, tt_move)
        horizon_above = self.hit_horizon
        self.hit_horizon = False
        best = -C_INFINITY if maximizing else C_INFINITY
        for i in range(n):
            player = codes[i] >> 8
            move = c_brs_move(codes[i])
            pushed = 1
            if self.core.to_move() != player:
                self.core.set_turn(player)
                pushed += 1
            self.core.make_move(move)
            if best_reply and not maximizing and self.core.to_move() != root:
                self.core.set_turn(root)
                pushed += 1
            score = self.coalition(depth - 1, alpha, beta, ply + 1, use_tt, best_reply)
            for j in range(pushed):
                self.core.unmake_move()
            if self.aborted:
                return 0
            if ply == 0 and move == self.last_best:
                self.last_best_searched = True
            if (score > best) if maximizing else (score < best):
                best = score
                best_move = codes[i]
                if maximizing and score > alpha:
                    alpha = score
                    self.update_pv(ply, codes[i])
                    if ply == 0:
                        self.root_score = score
                elif not maximizing and score < beta:
                    beta = score
                    self.update_pv(ply, codes[i])
                if alpha >= beta:
                    break
        if best_move != C_NO_MOVE and self.pv_len[ply] == 0:
            self.pv[ply][0] = best_move  # every move failed: the best found, without a line
            self.pv_len[ply] = 1
        below = self.hit_horizon
        self.hit_horizon = below or horizon_above
        if slot != NULL:
            flag = C_UPPER if best <= alpha_orig else (C_LOWER if best >= beta_orig else C_EXACT)
            self.tt_store(slot, self.core.key() ^ self.salt, best, best_move, depth, flag | (0 if below else C_NO_HORIZON))
        return best
