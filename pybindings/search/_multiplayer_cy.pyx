# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Searches for games of n players, over the game protocol: compiled twin of ``_multiplayer_py``.

Max^n with and without shallow pruning, paranoid and Best-Reply Search, in C-level code
over the cdef methods of ``GameCore``, on the alpha-beta ``Searcher``'s transposition
table, limits and clock (this class inherits them). The same nodes in the same order as
the pure twin: see ``python/gamecore/search/_multiplayer_py.py`` for the algorithms, the
tie-break, the pruning rule, the move order and the table's use.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from gamecore._game_cy cimport GameCore, MOVE_BUFFER, PLAYER_BUFFER
from gamecore.search._alphabeta_cy cimport C_MAX_PLY, ERROR_SCORE, TTEntry, Searcher, sort_by_key
from interrupt cimport gc_raise_pending

cdef extern from "gamecore_clock.h":
    double gc_monotonic_seconds() noexcept nogil

from gamecore.errors import ConcurrentUseError

__all__ = ["MULTIPLAYER_ALGORITHMS", "MultiSearcher", "NO_HORIZON", "brs_code", "brs_move", "brs_player"]

MULTIPLAYER_ALGORITHMS = ("maxn", "maxn-plain", "paranoid", "brs")
NO_HORIZON = 4
FRAME_BYTES = 4 * 128 + 8 * 128 + 4 * 4

cdef enum:
    C_INFINITY = 2000000000
    C_EXACT = 1
    C_LOWER = 2
    C_UPPER = 3
    C_NO_HORIZON = 4
    NO_MOVE = -2
    # A BRS MIN layer holds the moves of up to PLAYER_BUFFER - 1 opponents.
    REPLY_BUFFER = MOVE_BUFFER * (PLAYER_BUFFER - 1)
    ALG_MAXN = 0
    ALG_MAXN_PLAIN = 1
    ALG_PARANOID = 2
    ALG_BRS = 3

cdef uint64_t SALT_PARANOID = 0x6A09E667F3BCC908ULL
cdef uint64_t SALT_BRS = 0xBB67AE8584CAA73BULL
cdef uint64_t SALT_STEP = 0x3C6EF372FE94F82BULL


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
    if first == NO_MOVE:
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

    :param tt_mb: transposition-table size in megabytes (0 disables it; Max^n uses none).
    """

    cdef int players
    cdef int root
    cdef int deepest
    cdef long long sum_rest
    cdef long long max_single
    cdef uint64_t salt

    def search_multi(self, core, weights, max_depth, node_limit, time_limit, algorithm, root_moves=None):
        """Search ``core``; return ``(move, score, values, depth, pv, nodes, tt_hits, exact, memory)``.

        ``score`` is the root player's value; ``values`` the vector of every player (Max^n;
        paranoid and BRS know only the root player's: None for the others); ``depth`` the last finished iteration (0: none, the move
        is then the first in move order); ``exact`` True when that iteration reached the end
        of the game on every line; ``memory`` the bytes of the search structures (table and
        recursion buffers). ``move`` is -2 when the game is over. ``core`` is not touched: the
        search runs on a copy of it. Like ``Searcher.search``, a second call while one runs (from
        another thread) raises ConcurrentUseError, and Ctrl-C stops it within a fraction of a second.
        """
        if self.busy:
            raise ConcurrentUseError(
                "this searcher (Engine) is already searching: two threads may not share it "
                "(give each its own Engine)"
            )
        if not isinstance(core, GameCore):
            raise TypeError(f"core must be a compiled game core, got {type(core).__name__}")
        if algorithm not in MULTIPLAYER_ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}")
        if len(weights) > 16:
            raise ValueError("at most 16 evaluation weights")
        if type(max_depth) is not int or not 1 <= max_depth < C_MAX_PLY:
            raise ValueError(f"max_depth must be an int from 1 to {C_MAX_PLY - 1}")
        cdef GameCore game = <GameCore>core.copy()
        cdef int players = game.num_players()
        if not 2 <= players <= PLAYER_BUFFER:
            raise ValueError(f"the searches handle 2 to {PLAYER_BUFFER} players, the game has {players}")
        cdef int alg = MULTIPLAYER_ALGORITHMS.index(algorithm)
        if alg == ALG_BRS and players > 2:
            if not game.set_turn(game.to_move()):
                raise ValueError("Best-Reply Search needs a game that lets a player move out of turn (set_turn)")
            game.unmake_move()
        cdef int i, m
        self.root_filtered = root_moves is not None
        self.root_allowed[0] = self.root_allowed[1] = 0
        if root_moves is not None:
            for m in root_moves:
                m += 2
                if 0 <= m < 128:
                    self.root_allowed[m >> 6] |= (<uint64_t>1) << (m & 63)
        for i in range(16):
            self.weights[i] = weights[i] if i < len(weights) else 0
        self.core = game
        self.evaluator = None
        self.view = None
        self.nodes = 0
        self.tt_hits = 0
        self.node_limit = node_limit
        self.start = gc_monotonic_seconds()
        self.deadline = self.start + time_limit if time_limit > 0 else 0.0
        self.aborted = False
        self.interrupted = False
        self.next_poll = 0.0
        self.poll_signals = True
        self.deepest = 0
        for i in range(C_MAX_PLY):
            self.pv_len[i] = 0
        self.players = players
        self.root = game.to_move()
        cdef int lowest = 0, highest_sum = 0
        game.value_bounds(&lowest, &highest_sum)
        self.sum_rest = <long long>highest_sum - (players - 2) * <long long>lowest
        self.max_single = <long long>highest_sum - (players - 1) * <long long>lowest
        self.salt = (SALT_PARANOID if alg == ALG_PARANOID else SALT_BRS if alg == ALG_BRS else 0) + \
            <uint64_t>self.root * SALT_STEP
        cdef bint use_tt = (alg == ALG_PARANOID or alg == ALG_BRS) and self.tt_entries > 0
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
                return NO_MOVE, vector[self.root], vector, 0, [], 0, 0, True, 0
            self.order(root_list, count, False)
            best_move = root_list[0]
            best_pv = [best_move]
            best_values = [None] * players
            for depth in range(1, max_depth + 1):
                self.hit_horizon = False
                if alg == ALG_MAXN or alg == ALG_MAXN_PLAIN:
                    self.maxn(depth, 0, 0, False, alg == ALG_MAXN, values)
                    score = values[self.root]
                elif alg == ALG_PARANOID:
                    score = self.paranoid(depth, -C_INFINITY, C_INFINITY, 0, use_tt)
                else:
                    score = self.brs(depth, -C_INFINITY, C_INFINITY, 0, use_tt)
                if self.interrupted:
                    gc_raise_pending()
                if self.aborted:
                    break
                best_score = score
                if alg <= ALG_MAXN_PLAIN:
                    best_values = [values[i] for i in range(players)]
                else:
                    best_values = [score if i == self.root else None for i in range(players)]
                best_pv = [self.pv[0][i] for i in range(self.pv_len[0])]
                if alg == ALG_BRS:
                    best_pv = [c_brs_move(code) for code in best_pv]
                best_move = best_pv[0]
                done_depth = depth
                exact = not self.hit_horizon
                if exact:
                    break  # every line reached the end of the game: deeper is the same
                if self.deadline > 0 and self.out_of_time_for_next():
                    break
            memory = (self.tt_bytes() if use_tt else 0) + (self.deepest + 1) * FRAME_BYTES
            return best_move, best_score, best_values, done_depth, best_pv, self.nodes, self.tt_hits, exact, memory
        finally:
            self.core = None
            self.poll_signals = False
            self.busy = False

    # -- the pieces every node needs ---------------------------------------

    cdef int open(self, int depth, int ply, int* moves) except -2:
        """Count the node; -1 at a leaf (horizon or end of the game), else the number of
        moves to search, in `moves`. 0 with the abort flag when a limit is reached."""
        cdef GameCore core = self.core
        cdef int count
        if self.enter():
            return 0
        self.pv_len[ply] = 0
        if ply > self.deepest:
            self.deepest = ply
        if depth == 0 or ply >= C_MAX_PLY - 1:
            if not core.is_terminal():
                self.hit_horizon = True
            return -1
        count = core.gen_moves(moves) if ply == 0 else core.search_moves(moves, depth)
        if count == 0:
            return -1
        return self.root_moves(moves, count) if ply == 0 else count

    cdef void leaf_values(self, int* out) noexcept:
        cdef GameCore core = self.core
        if core.is_terminal():
            core.terminal_values(out)
        else:
            core.evaluate_players(self.weights, out)

    cdef int leaf_score(self) noexcept:
        cdef int values[PLAYER_BUFFER]
        self.leaf_values(values)
        return values[self.root]

    # -- Max^n ---------------------------------------------------------------

    cdef int maxn(self, int depth, int ply, int limit, bint has_limit, bint pruned, int* best) except -1:
        """The value vector of the node in `best`; `limit`: the best value the parent's mover
        already has (when `has_limit`)."""
        cdef GameCore core = self.core
        cdef int moves[MOVE_BUFFER]
        cdef int values[PLAYER_BUFFER]
        cdef int count, i, mover
        cdef bint found = False
        count = self.open(depth, ply, moves)
        if self.aborted:
            return 0
        if count < 0:
            self.leaf_values(best)
            return 0
        mover = core.to_move()
        self.order(moves, count, False)
        for i in range(count):
            core.make_move(moves[i])
            self.maxn(depth - 1, ply + 1, best[mover], pruned and found, pruned, values)
            core.unmake_move()
            if self.aborted:
                return 0
            if not found or values[mover] > best[mover]:
                found = True
                memcpy(best, values, self.players * sizeof(int))
                self.update_pv(ply, moves[i])
                if pruned and (best[mover] >= self.max_single or (has_limit and self.sum_rest - best[mover] <= limit)):
                    break  # shallow pruning: the parent's mover cannot gain here
        return 0

    # -- paranoid ------------------------------------------------------------

    cdef int probe(self, int ply, int depth, int alpha, int beta, bint use_tt, int* tt_move,
                   TTEntry** slot) noexcept:
        """The table's move in `tt_move`, the slot in `slot`; 1 when the table settles the
        node (its score is then in `tt_move`'s place: see the caller), else 0."""
        cdef TTEntry* entry
        cdef uint64_t key
        cdef int bound
        tt_move[0] = NO_MOVE
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

    cdef void finish(self, int ply, int depth, int best, int best_move, int alpha_orig, int beta_orig,
                     bint horizon_above, TTEntry* slot) noexcept:
        """After a node's moves: its principal variation when every move failed, the table
        entry, and the horizon flag of the lines searched before it restored."""
        cdef bint below = self.hit_horizon
        cdef int flag
        if best_move != NO_MOVE and self.pv_len[ply] == 0:
            self.pv[ply][0] = best_move
            self.pv_len[ply] = 1
        self.hit_horizon = below or horizon_above
        if slot != NULL:
            flag = C_UPPER if best <= alpha_orig else (C_LOWER if best >= beta_orig else C_EXACT)
            self.tt_store(slot, self.core.key() ^ self.salt, best, best_move, depth, flag | (0 if below else C_NO_HORIZON))

    cdef int paranoid(self, int depth, int alpha, int beta, int ply, bint use_tt) except? ERROR_SCORE:
        cdef GameCore core = self.core
        cdef int moves[MOVE_BUFFER]
        cdef int count, i, score, best, best_move = NO_MOVE, tt_move, alpha_orig = alpha, beta_orig = beta
        cdef bint maximizing, horizon_above
        cdef TTEntry* slot
        count = self.open(depth, ply, moves)
        if self.aborted:
            return 0
        if count < 0:
            return self.leaf_score()
        if self.probe(ply, depth, alpha, beta, use_tt, &tt_move, &slot):
            return slot.score
        maximizing = core.to_move() == self.root
        horizon_above = self.hit_horizon
        self.hit_horizon = False
        best = -C_INFINITY if maximizing else C_INFINITY
        self.order(moves, count, False)
        bring_to_front(moves, count, tt_move)
        for i in range(count):
            core.make_move(moves[i])
            score = self.paranoid(depth - 1, alpha, beta, ply + 1, use_tt)
            core.unmake_move()
            if self.aborted:
                return 0
            if (score > best) if maximizing else (score < best):
                best = score
                best_move = moves[i]
                if maximizing and score > alpha:
                    alpha = score
                    self.update_pv(ply, moves[i])
                elif not maximizing and score < beta:
                    beta = score
                    self.update_pv(ply, moves[i])
                if alpha >= beta:
                    break
        self.finish(ply, depth, best, best_move, alpha_orig, beta_orig, horizon_above, slot)
        return best

    # -- Best-Reply Search ---------------------------------------------------

    cdef int replies(self, int* moves, int count, int depth, int* codes, long long* keys) noexcept:
        """The MIN layer's moves, coded, with their order keys: every opponent's, in playing
        order after the root player (`moves` are those of the side to move). Their number."""
        cdef GameCore core = self.core
        cdef int own[MOVE_BUFFER]
        cdef int step, player, mover = core.to_move(), n = 0, i, own_count
        for step in range(1, self.players):
            player = (self.root + step) % self.players
            if player == mover:
                for i in range(count):
                    codes[n] = c_brs_code(player, moves[i])
                    keys[n] = core.order_key(moves[i])
                    n += 1
                continue
            core.set_turn(player)
            own_count = core.search_moves(own, depth)
            for i in range(own_count):
                codes[n] = c_brs_code(player, own[i])
                keys[n] = core.order_key(own[i])
                n += 1
            core.unmake_move()
        return n

    cdef int brs(self, int depth, int alpha, int beta, int ply, bint use_tt) except? ERROR_SCORE:
        cdef GameCore core = self.core
        cdef int moves[MOVE_BUFFER]
        cdef int codes[REPLY_BUFFER]
        cdef long long keys[REPLY_BUFFER]
        cdef int count, n, i, j, score, best, best_move = NO_MOVE, tt_move, alpha_orig = alpha, beta_orig = beta
        cdef int player, move, pushed, root = self.root
        cdef bint maximizing = ply % 2 == 0, horizon_above
        cdef TTEntry* slot
        count = self.open(depth, ply, moves)
        if self.aborted:
            return 0
        if count < 0:
            return self.leaf_score()
        if self.probe(ply, depth, alpha, beta, use_tt, &tt_move, &slot):
            return slot.score
        if maximizing:
            for i in range(count):
                codes[i] = c_brs_code(root, moves[i])
                keys[i] = core.order_key(moves[i])
            n = count
        else:
            n = self.replies(moves, count, depth, codes, keys)
        stable_sort_desc(codes, keys, n)
        bring_to_front(codes, n, tt_move)
        horizon_above = self.hit_horizon
        self.hit_horizon = False
        best = -C_INFINITY if maximizing else C_INFINITY
        for i in range(n):
            player = codes[i] >> 8
            move = c_brs_move(codes[i])
            pushed = 1
            if core.to_move() != player:
                core.set_turn(player)
                pushed += 1
            core.make_move(move)
            if not maximizing and core.to_move() != root:
                core.set_turn(root)
                pushed += 1
            score = self.brs(depth - 1, alpha, beta, ply + 1, use_tt)
            for j in range(pushed):
                core.unmake_move()
            if self.aborted:
                return 0
            if (score > best) if maximizing else (score < best):
                best = score
                best_move = codes[i]
                if maximizing and score > alpha:
                    alpha = score
                    self.update_pv(ply, codes[i])
                elif not maximizing and score < beta:
                    beta = score
                    self.update_pv(ply, codes[i])
                if alpha >= beta:
                    break
        self.finish(ply, depth, best, best_move, alpha_orig, beta_orig, horizon_above, slot)
        return best
