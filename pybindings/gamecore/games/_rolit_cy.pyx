# cython: language_level=3, embedsignature=True, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Rolit (Othello for 2 to 4 players) on 8x8: the compiled core (twin of ``_rolit_py``).

Same names, signatures and behaviour as ``python/gamecore/games/_rolit_py.py``, which
documents the colours, the rules, the values and the tie rule. The searches use the
``cdef`` methods of :class:`RolitCore` (no Python object on their path); Python code uses
the checked ``def`` methods, which validate everything before it reaches C.
"""
from libc.stdint cimport uint64_t, int64_t
from libc.string cimport memcpy

from bits cimport gc_ctz64, gc_popcount64, gc_splitmix64
cimport othello
from othello cimport Geometry
cimport rolit as kernel
from rolit cimport ROLIT_COLOURS, ROLIT_SQUARES

from gamecore._game_cy cimport GameCore
from interrupt cimport gc_poll_signals, gc_raise_pending

from gamecore._zobrist import SQUARE_KEYS, TURN_KEYS
from gamecore.errors import GameOverError, IllegalMoveError, InvalidPositionError, InvalidSquareError
from gamecore.games._rolit_rules import (
    COLOURS, FEATURES, NUM_COLOURS, NUM_FEATURES, NUM_SQUARES, START, START_BALLS, TURN_CHANGE, VALUE_BOUNDS,
    check_balls, check_colours, check_compulsory, check_player, check_playouts, check_weights, replayable_history,
)

__all__ = [
    "COLOURS",
    "NUM_COLOURS",
    "NUM_SQUARES",
    "START",
    "FEATURES",
    "VALUE_BOUNDS",
    "neighbours",
    "moves_mask",
    "move_flips",
    "RolitCore",
]

# The constants and the checks of what callers hand the core are in _rolit_rules, shared with
# _rolit_py; the C constants below copy some of them (checked: _C_COPIES, tests/test_options.py).

cdef enum:
    NFEATURES = 5  # NUM_FEATURES: sizes the weight and feature buffers
    # Every move fills a square (60 at most); Best-Reply Search adds at most two turn
    # changes per opponent move and one per search on top of them.
    MAX_PLIES = 192
    C_TURN_CHANGE = -16  # TURN_CHANGE: stack_move of a turn change is C_TURN_CHANGE - the player it took the turn from
    # perft's subtrees this deep go to the kernel in one call (a few ms; Ctrl-C is polled between).
    PERFT_KERNEL_DEPTH = 5

cdef uint64_t C_CORNERS = (<uint64_t>1) | ((<uint64_t>1) << 7) | ((<uint64_t>1) << 56) | ((<uint64_t>1) << 63)
cdef uint64_t C_EDGES = ((<uint64_t>0xFF) | ((<uint64_t>0xFF) << 56) | (<uint64_t>0x0101010101010101)
                         | ((<uint64_t>0x0101010101010101) << 7))

#: The C constants that copy a shared one, by its name in _rolit_rules (compared in the tests).
_C_COPIES = {"NUM_COLOURS": ROLIT_COLOURS, "NUM_SQUARES": ROLIT_SQUARES, "NUM_FEATURES": NFEATURES,
             "TURN_CHANGE": C_TURN_CHANGE, "CORNERS": C_CORNERS, "EDGES": C_EDGES}
cdef uint64_t SQUARE_KEY[4][64]
cdef uint64_t TURN_KEY[4]
cdef Geometry G


cdef uint64_t perft_split(uint64_t* balls, const int* colours, int nplayers, int player, int depth,
                          bint compulsory, double* next_poll, bint* interrupted) noexcept nogil:
    """perft: the top plies here, the subtrees by the kernel; 0 with `interrupted` set when a
    signal handler raised (Ctrl-C)."""
    cdef uint64_t moves, bit, total = 0
    cdef uint64_t saved[4]
    cdef int colour = colours[player], nxt = player + 1 if player + 1 < nplayers else 0
    if depth <= PERFT_KERNEL_DEPTH:
        if gc_poll_signals(next_poll):
            interrupted[0] = True
            return 0
        return kernel.perft(balls, colours, nplayers, player, depth, compulsory, &G)
    moves = kernel.moves_mask(balls[colour], balls[0] | balls[1] | balls[2] | balls[3], compulsory, &G)
    if not moves:
        return 1
    memcpy(saved, balls, sizeof(saved))
    while moves and not interrupted[0]:
        bit = moves & (~moves + 1)
        moves ^= bit
        kernel.play(balls, colour, gc_ctz64(bit), &G)
        total += perft_split(balls, colours, nplayers, nxt, depth - 1, compulsory, next_poll, interrupted)
        memcpy(balls, saved, sizeof(saved))
    return 0 if interrupted[0] else total


def _init_tables():
    cdef int c, i
    for c in range(ROLIT_COLOURS):
        for i in range(ROLIT_SQUARES):
            SQUARE_KEY[c][i] = SQUARE_KEYS[c][i]
        TURN_KEY[c] = TURN_KEYS[c]
    othello.geometry_init(&G, 8)


_init_tables()


cdef uint64_t _bitboard(object x, str name) except? 0:
    if type(x) is not int or x < 0 or x >> 64:
        raise InvalidPositionError(f"{name} must be an int bitboard of the 8x8 board")
    return <uint64_t>x


def neighbours(x):
    """The squares 8-adjacent to a ball of ``x`` (and ``x`` itself)."""
    return kernel.neighbours(_bitboard(x, "x"))


def moves_mask(own, occupied, compulsory=True):
    """Squares where the owner of ``own`` may play (see ``_rolit_py``)."""
    cdef uint64_t o = _bitboard(own, "own"), occ = _bitboard(occupied, "occupied")
    if o & ~occ:
        raise InvalidPositionError("own balls must be occupied squares")
    return kernel.moves_mask(o, occ, bool(compulsory), &G)


def move_flips(own, occupied, square):
    """Balls of the other colours that a ball of ``own`` on ``square`` captures (0 if none)."""
    cdef uint64_t o = _bitboard(own, "own"), occ = _bitboard(occupied, "occupied")
    if o & ~occ:
        raise InvalidPositionError("own balls must be occupied squares")
    if type(square) is not int or not 0 <= square < ROLIT_SQUARES:
        raise InvalidSquareError(f"square must be an int from 0 to 63, got {square!r}")
    return kernel.move_flips(o, occ, square, &G)


cdef inline int stable_count(uint64_t own) noexcept nogil:
    return gc_popcount64(othello.stable_edges[uint64_t](own, &G))


cdef class RolitCore(GameCore):
    """Mutable Rolit position with a move stack (the compiled core).

    :param colours: the colour numbers that play (2 to 4 of 0..3, in play order).
    :param first: the colour that moves first (default: the first that plays).
    :param compulsory: a capture must be played when one exists (the rules); False lifts it.
    """

    cdef uint64_t balls[4]
    cdef int player_colour[4]       # the colour of each player
    cdef int nplayers
    cdef readonly int turn
    cdef readonly bint compulsory
    cdef uint64_t zhash
    cdef int sp
    cdef int stack_move[MAX_PLIES]
    cdef uint64_t stack_balls[MAX_PLIES][4]
    cdef uint64_t stack_hash[MAX_PLIES]
    cdef uint64_t start_balls[4]
    cdef int start_colour

    def __cinit__(self):
        # A core made by __new__ alone is a valid (empty, finished) two-player board.
        self.nplayers = 2
        self.player_colour[0] = 0
        self.player_colour[1] = 3  # red and green
        self.compulsory = True

    def __init__(self, colours=(0, 1, 2, 3), first=None, compulsory=True):
        cdef int i
        ordered = check_colours(colours)
        compulsory = check_compulsory(compulsory)
        first = ordered[0] if first is None else first
        if isinstance(first, bool) or not isinstance(first, int) or first not in ordered:
            raise InvalidPositionError(f"the colour to move must be one that plays ({ordered}), got {first!r}")
        self.nplayers = len(ordered)
        for i in range(self.nplayers):
            self.player_colour[i] = ordered[i]
        self.compulsory = compulsory
        self._set(START_BALLS, first)

    cdef int _player_of(self, object colour) except -1:
        cdef int i
        if not isinstance(colour, bool) and isinstance(colour, int):
            for i in range(self.nplayers):
                if self.player_colour[i] == colour:
                    return i
        raise InvalidPositionError(f"the colour to move must be one that plays ({self.colours}), got {colour!r}")

    cdef _set(self, balls, colour_to_move):
        cdef int c, i
        cdef uint64_t h
        self.turn = self._player_of(colour_to_move)
        h = TURN_KEY[<int>colour_to_move]
        for c in range(ROLIT_COLOURS):
            self.balls[c] = <uint64_t>balls[c]
            self.start_balls[c] = self.balls[c]
            for i in range(ROLIT_SQUARES):
                if (self.balls[c] >> i) & 1:
                    h ^= SQUARE_KEY[c][i]
        self.zhash = h
        self.sp = 0
        self.start_colour = colour_to_move

    @property
    def colours(self):
        """The colour numbers that play, in play order (player i plays ``colours[i]``)."""
        return tuple([self.player_colour[i] for i in range(self.nplayers)])

    def set_board(self, balls, colour_to_move):
        """Set the balls (four bitboards, red blue yellow green) and the colour to move;
        clears the move history. The board must hold at least one ball."""
        balls = check_balls(balls)
        self._player_of(colour_to_move)
        self._set(balls, colour_to_move)

    def bitboards(self):
        """The balls of red, blue, yellow and green (four bitboards)."""
        return (self.balls[0], self.balls[1], self.balls[2], self.balls[3])

    def counts(self):
        """Balls of red, blue, yellow and green (neutral colours included)."""
        return tuple([gc_popcount64(self.balls[c]) for c in range(ROLIT_COLOURS)])

    def colour_to_move(self):
        """The colour number of the side to move."""
        return self.player_colour[self.turn]

    def copy(self):
        """An independent copy, history included."""
        cdef RolitCore other = RolitCore.__new__(RolitCore)
        memcpy(other.balls, self.balls, sizeof(self.balls))
        memcpy(other.player_colour, self.player_colour, sizeof(self.player_colour))
        memcpy(other.start_balls, self.start_balls, sizeof(self.start_balls))
        other.nplayers = self.nplayers
        other.turn = self.turn
        other.compulsory = self.compulsory
        other.zhash = self.zhash
        other.sp = self.sp
        other.start_colour = self.start_colour
        memcpy(other.stack_move, self.stack_move, self.sp * sizeof(int))
        memcpy(other.stack_balls, self.stack_balls, self.sp * sizeof(self.stack_balls[0]))
        memcpy(other.stack_hash, self.stack_hash, self.sp * sizeof(uint64_t))
        return other

    def __reduce__(self):
        start = tuple([self.start_balls[c] for c in range(ROLIT_COLOURS)])
        history = replayable_history(self.history(), self.turn, self.nplayers)
        return _rebuild, (self.colours, bool(self.compulsory), start, self.start_colour, history)

    def replay(self, moves):
        """Play a history as ``__reduce__`` gives it (``replayable_history``): squares with
        ``push`` (checked), turn changes with ``set_turn``. On an error (or Ctrl-C) what was
        played is taken back: nothing changes."""
        start = self.sp
        try:
            for move in moves:
                if type(move) is int and move <= TURN_CHANGE:
                    player = TURN_CHANGE - move
                    if not (player < len(self.colours) and self.set_turn(player)):
                        raise InvalidPositionError(f"no player {player} to give the turn to")
                else:
                    self.push(move)
        except BaseException:
            while self.sp > start:
                self.unmake_move()
            raise

    # -- the game protocol -------------------------------------------------

    cdef inline uint64_t _occupied(self) noexcept nogil:
        return self.balls[0] | self.balls[1] | self.balls[2] | self.balls[3]

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef uint64_t moves = kernel.moves_mask(self.balls[self.player_colour[self.turn]], self._occupied(),
                                                self.compulsory, &G)
        cdef int count = 0
        while moves:
            out[count] = gc_ctz64(moves)
            count += 1
            moves &= moves - 1
        return count

    cdef void make_move(self, int move) noexcept nogil:
        cdef int colour = self.player_colour[self.turn], c, square
        cdef uint64_t taken = kernel.move_flips(self.balls[colour], self._occupied(), move, &G)
        cdef uint64_t h = self.zhash ^ SQUARE_KEY[colour][move], lost
        self.stack_move[self.sp] = move
        memcpy(self.stack_balls[self.sp], self.balls, sizeof(self.balls))
        self.stack_hash[self.sp] = self.zhash
        self.sp += 1
        if taken:
            for c in range(ROLIT_COLOURS):
                lost = self.balls[c] & taken
                if lost:
                    self.balls[c] ^= lost
                    while lost:
                        square = gc_ctz64(lost)
                        h ^= SQUARE_KEY[colour][square] ^ SQUARE_KEY[c][square]
                        lost &= lost - 1
        self.balls[colour] |= taken | ((<uint64_t>1) << move)
        self.turn += 1
        if self.turn == self.nplayers:
            self.turn = 0
        self.zhash = h ^ TURN_KEY[colour] ^ TURN_KEY[self.player_colour[self.turn]]

    cdef int ply_count(self) noexcept nogil:
        return self.sp

    cdef int move_at(self, int ply) noexcept nogil:
        return self.stack_move[ply]

    cdef void unmake_move(self) noexcept nogil:
        self.sp -= 1
        self.zhash = self.stack_hash[self.sp]
        if self.stack_move[self.sp] <= C_TURN_CHANGE:
            self.turn = C_TURN_CHANGE - self.stack_move[self.sp]
            return
        memcpy(self.balls, self.stack_balls[self.sp], sizeof(self.balls))
        self.turn = (self.turn if self.turn else self.nplayers) - 1

    cdef bint set_turn(self, int player) noexcept nogil:
        # A pushed turn change for Best-Reply Search (see the game protocol).
        if self.sp >= MAX_PLIES or not 0 <= player < self.nplayers:
            return False
        self.stack_move[self.sp] = C_TURN_CHANGE - self.turn
        self.stack_hash[self.sp] = self.zhash
        self.sp += 1
        self.zhash ^= TURN_KEY[self.player_colour[self.turn]] ^ TURN_KEY[self.player_colour[player]]
        self.turn = player
        return True

    cdef int num_players(self) noexcept nogil:
        return self.nplayers

    cdef int to_move(self) noexcept nogil:
        return self.turn

    cdef bint is_terminal(self) noexcept nogil:
        return kernel.moves_mask(self.balls[self.player_colour[self.turn]], self._occupied(), self.compulsory,
                                 &G) == 0

    cdef void terminal_values(self, int* out) noexcept nogil:
        cdef int i
        for i in range(self.nplayers):
            out[i] = gc_popcount64(self.balls[self.player_colour[i]])

    cdef int _relative(self, const int* values) noexcept nogil:
        # The side to move's value less the best opponent's.
        cdef int i, best = -(1 << 30)
        for i in range(self.nplayers):
            if i != self.turn and values[i] > best:
                best = values[i]
        return values[self.turn] - best

    cdef int terminal_value(self) noexcept nogil:
        cdef int values[4]
        self.terminal_values(values)
        return self._relative(values)

    cdef void _features(self, int player, int* f) noexcept nogil:
        cdef uint64_t own = self.balls[self.player_colour[player]]
        f[0] = gc_popcount64(own)
        f[1] = gc_popcount64(own & C_CORNERS)
        f[2] = stable_count(own)
        f[3] = gc_popcount64(own & C_EDGES)
        f[4] = gc_popcount64(othello.legal_moves_mask[uint64_t](own, self._occupied() ^ own, &G)) if own else 0

    cdef void evaluate_players(self, const int* weights, int* out) noexcept nogil:
        cdef int64_t strengths[4]
        cdef int64_t total = 0, strength
        cdef int f[NFEATURES]
        cdef int i, k, empties = ROLIT_SQUARES - gc_popcount64(self._occupied())
        for i in range(self.nplayers):
            self._features(i, f)
            strength = 0
            for k in range(NFEATURES):
                if weights[k]:
                    strength += <int64_t>weights[k] * f[k]
            if strength < 0:
                strength = 0
            strengths[i] = strength
            total += strength
        self.terminal_values(out)
        for i in range(self.nplayers):
            if total == 0:
                out[i] += empties // self.nplayers
            else:
                out[i] += <int>((empties * strengths[i]) // total)

    cdef int evaluate(self, const int* weights) noexcept nogil:
        cdef int values[4]
        self.evaluate_players(weights, values)
        return self._relative(values)

    cdef void value_bounds(self, int* lowest, int* highest_sum) noexcept nogil:
        lowest[0] = 0
        highest_sum[0] = ROLIT_SQUARES

    cdef int order_key(self, int move) noexcept nogil:
        return G.square_weight[move]

    cdef uint64_t key(self) noexcept nogil:
        return self.zhash

    cdef int num_empty(self) noexcept nogil:
        return ROLIT_SQUARES - gc_popcount64(self._occupied())

    # -- checked operations for the public API -----------------------------

    def legal_moves(self):
        """The legal moves in ascending order; ``[]`` once the board is full."""
        cdef int buf[64]
        cdef int count = self.gen_moves(buf)
        return [buf[i] for i in range(count)]

    def push(self, move):
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        legal = self.legal_moves()
        if not legal:
            raise GameOverError("the game is over: the board is full")
        if move not in legal:
            raise IllegalMoveError(self._illegal_reason(move))
        if self.sp >= MAX_PLIES:  # unreachable (every move fills a square); guards the C stack
            raise IllegalMoveError("move history is full")
        self.make_move(move)

    def _illegal_reason(self, move):
        if not 0 <= move < ROLIT_SQUARES:
            return f"square index {move} is off the 8x8 board"
        cdef uint64_t occupied = self._occupied()
        if (occupied >> <int>move) & 1:
            return "that square is already taken"
        if not (kernel.neighbours(occupied) >> <int>move) & 1:
            return "a ball must go next to a ball already on the board"
        return "a capture is compulsory and that move captures nothing"

    def count_history(self):
        """Balls of each colour (red, blue, yellow, green) after each ply: entry 0 is the
        position the history starts from, the last one the current position (the tie rule)."""
        rows = [tuple([gc_popcount64(self.stack_balls[p][c]) for c in range(ROLIT_COLOURS)]) for p in range(self.sp)]
        rows.append(self.counts())
        return rows

    def is_game_over(self):
        """True when the board is full (or, set up by hand, holds no ball)."""
        return self.is_terminal()

    def zobrist(self):
        """64-bit Zobrist hash of the balls and the colour to move."""
        return self.zhash

    def values(self):
        """``terminal_values()``."""
        cdef int out[4]
        self.terminal_values(out)
        return [out[i] for i in range(self.nplayers)]

    def heuristic(self, weights):
        """``evaluate_players(weights)``."""
        cdef int w[NFEATURES]
        cdef int out[4]
        checked = check_weights(weights)
        for k in range(NFEATURES):
            w[k] = checked[k]
        self.evaluate_players(w, out)
        return [out[i] for i in range(self.nplayers)]

    def side_values(self, weights):
        """``(terminal_value(), evaluate(weights))`` for the side to move."""
        cdef int w[NFEATURES]
        checked = check_weights(weights)
        for k in range(NFEATURES):
            w[k] = checked[k]
        return self.terminal_value(), self.evaluate(w)

    def feature_values(self, player):
        """``features(player)``, the player checked."""
        cdef int f[NFEATURES]
        self._features(check_player(player, self.nplayers), f)
        return tuple([f[k] for k in range(NFEATURES)])

    def count_leaves(self, int depth):
        """Perft (``GameCore.perft`` checks the depth); a finished game is one leaf."""
        if depth < 1:  # perft() checks the depth; this keeps a direct call safe
            return 1
        cdef int d = depth
        cdef uint64_t leaves
        cdef uint64_t balls[4]
        cdef double next_poll = 0.0
        cdef bint interrupted = False
        memcpy(balls, self.balls, sizeof(balls))
        with nogil:
            leaves = perft_split(balls, self.player_colour, self.nplayers, self.turn, d, self.compulsory,
                                 &next_poll, &interrupted)
        if interrupted:
            gc_raise_pending()
        return leaves

    def playouts(self, games, seed):
        """Play ``games`` uniformly random games to the end from here and take them back:
        ``(plies played, XOR of the final Zobrist keys)`` (see ``_rolit_py``)."""
        games, seed = check_playouts(games, seed)
        cdef uint64_t state = <uint64_t>seed, z, keys = 0, plies = 0
        cdef int moves[64]
        cdef int count, depth
        cdef long g, n = games
        cdef double next_poll = 0.0
        cdef bint interrupted = False
        with nogil:
            for g in range(n):
                if gc_poll_signals(&next_poll):
                    interrupted = True
                    break
                depth = 0
                while True:
                    count = self.gen_moves(moves)
                    if count == 0:
                        break
                    z = gc_splitmix64(&state)
                    self.make_move(moves[z % <uint64_t>count])
                    depth += 1
                plies += depth
                keys ^= self.zhash
                while depth:
                    self.unmake_move()
                    depth -= 1
        if interrupted:
            gc_raise_pending()
        return plies, keys


def _rebuild(colours, compulsory, balls, colour_to_move, moves):
    """A core from its start, settings and moves (pickling)."""
    core = RolitCore(colours, compulsory=compulsory)
    core.set_board(balls, colour_to_move)
    core.replay(moves)
    return core
