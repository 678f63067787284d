# cython: language_level=3, embedsignature=True
"""The game protocol every search runs on (compiled twin of ``_game_py``).

The cdef methods here are abstract: every game core overrides them. See
``python/gamecore/_game_py.py`` for what each one means.
"""
from libc.stdint cimport uint64_t

from bits cimport gc_splitmix64

from gamecore._protocol import MAX_MOVES, MAX_PLAYERS, ZERO_SUM_BOUNDS, check_perft_depth
from gamecore.errors import EmptyHistoryError

__all__ = ["GameCore", "MAX_MOVES", "MAX_PLAYERS", "ZERO_SUM_BOUNDS", "bit_indices", "splitmix64"]


def bit_indices(bitboard):
    """The indices of the set bits of ``bitboard``, ascending (squares or cells of a board)."""
    out = []
    while bitboard:
        bit = bitboard & -bitboard
        bitboard ^= bit
        out.append(bit.bit_length() - 1)
    return out


cdef class GameCore:
    """Abstract base of the game cores (documentation of the protocol)."""

    cdef int gen_moves(self, int* moves) noexcept nogil:
        return 0

    def legal_move_objects(self, tuple table not None):
        """The legal moves as ``table[code]`` in ``gen_moves`` order: the public positions'
        ``legal_moves()``, one list of the game's interned move objects (a negative code
        counts from the end of ``table``)."""
        cdef int buf[MOVE_BUFFER]
        cdef int count = self.gen_moves(buf)
        return [table[buf[i]] for i in range(count)]

    def count_legal_moves(self):
        """``len(gen_moves())`` (a forced pass counts 1); a game may count without the list."""
        cdef int buf[MOVE_BUFFER]
        return self.gen_moves(buf)

    cdef int search_moves(self, int* moves, int depth) noexcept nogil:
        return self.gen_moves(moves)

    cdef void make_move(self, int move) noexcept nogil:
        pass

    cdef void unmake_move(self) noexcept nogil:
        pass

    cdef int num_players(self) noexcept nogil:
        return 2

    cdef int to_move(self) noexcept nogil:
        return 0

    cdef bint is_terminal(self) noexcept nogil:
        return True

    cdef int terminal_value(self) noexcept nogil:
        return 0

    cdef int evaluate(self, const int* weights) noexcept nogil:
        return 0

    cdef int leaf_value(self, int move, const int* weights, bint* over) noexcept nogil:
        # The position after `move` as a search's leaf, the position itself left as it is:
        # `over` set and terminal_value() there when the game is over, else evaluate(weights).
        # A game may compute it without playing the move (the compiled searches' depth-1 nodes).
        cdef int value
        self.make_move(move)
        over[0] = self.is_terminal()
        value = self.terminal_value() if over[0] else self.evaluate(weights)
        self.unmake_move()
        return value

    cdef int begin_search(self, const int* weights) except -1:
        # The search's own copy may prepare for evaluating with these weights; by default nothing.
        return 0

    cdef void terminal_values(self, int* out) noexcept nogil:
        # Two-player default: the side-to-move value and its negation.
        cdef int value = self.terminal_value(), mover = self.to_move()
        out[mover] = value
        out[1 - mover] = -value

    cdef void evaluate_players(self, const int* weights, int* out) noexcept nogil:
        cdef int value = self.evaluate(weights), mover = self.to_move()
        out[mover] = value
        out[1 - mover] = -value

    cdef void value_bounds(self, int* lowest, int* highest_sum) noexcept nogil:
        lowest[0] = -(1 << 30)
        highest_sum[0] = 0

    cdef bint set_turn(self, int player) noexcept nogil:
        # A pushed turn change for Best-Reply Search; by default the game cannot.
        return False

    cdef int order_key(self, int move) noexcept nogil:
        return 0

    cdef uint64_t key(self) noexcept nogil:
        return 0

    cdef int num_empty(self) noexcept nogil:
        return 0

    # -- the move stack: each core says how many moves it holds and which ------------------

    cdef int ply_count(self) noexcept nogil:
        return 0

    cdef int move_at(self, int ply) noexcept nogil:
        return 0

    def pop(self):
        """Take back the last move and return it."""
        cdef int plies = self.ply_count()
        if plies == 0:
            raise EmptyHistoryError("no move to take back")
        cdef int move = self.move_at(plies - 1)
        self.unmake_move()
        return move

    def history(self):
        """The moves played since the position was set, oldest first."""
        return [self.move_at(i) for i in range(self.ply_count())]

    def perft(self, depth):
        """Leaves of the game tree ``depth`` plies deep (a pass is a ply where the game has
        one; a finished game is one leaf); the depth checked here for every core, the
        counting done by its ``count_leaves``."""
        depth = check_perft_depth(depth)
        return 1 if depth == 0 else self.count_leaves(depth)

    def count_leaves(self, depth):
        """``perft`` for a checked ``depth`` >= 1."""
        raise NotImplementedError


def splitmix64(state):
    """One step of splitmix64: ``(next_state, output)``, both 64-bit (``state`` is taken modulo
    2**64); the compiled generator of MCTS, here to check it against ``gamecore._rng``."""
    cdef uint64_t s = <uint64_t>(state & 0xFFFFFFFFFFFFFFFF)
    cdef uint64_t out = gc_splitmix64(&s)
    return s, out
