"""The game protocol every search runs on (pure-Python twin of ``_game_cy``).

A game core is a mutable position with a move stack. The searches in ``gamecore.search``
use only these methods, so one search serves every game. Moves are small ints chosen by
the game (Othello: the square index, or ``PASS``).

Values are integers. A game has ``num_players()`` players (2 to ``MAX_PLAYERS``), numbered
from 0 in playing order; ``to_move()`` is the one whose turn it is. Two views of a value:

- for the side to move (``terminal_value``, ``evaluate``): the negamax fast path of
  two-player zero-sum games (alpha-beta);
- per player (``terminal_values``, ``evaluate_players``): one int per player, the form
  Max^n, paranoid, Best-Reply Search and multi-player MCTS need. Every value a player can
  get is at least ``value_bounds()[0]`` and the values of all players add up to at most
  ``value_bounds()[1]`` (Max^n's shallow pruning needs both bounds). For two players the
  default is the zero-sum pair ``(v, -v)`` of the side-to-move view.

Best-Reply Search lets one opponent move out of turn: ``set_turn(player)`` pushes a
turn change (a "null move" undone by ``unmake_move``). A game that cannot do that keeps the
default, which returns False and changes nothing; BRS then runs only on two-player games
(where the opponent always moves in turn).

Cython declares the same methods as ``cdef`` in ``pybindings/gamecore/_game_cy.pxd``; there
``gen_moves`` fills a C buffer and returns the count instead of returning a list.
"""

from __future__ import annotations

from typing import Any

from ._protocol import MAX_MOVES, MAX_PLAYERS, ZERO_SUM_BOUNDS, check_perft_depth
from ._rng import splitmix64
from .errors import EmptyHistoryError

__all__ = ["GameCore", "MAX_MOVES", "MAX_PLAYERS", "ZERO_SUM_BOUNDS", "bit_indices", "splitmix64"]


def bit_indices(bitboard: int) -> list[int]:
    """The indices of the set bits of ``bitboard``, ascending (squares or cells of a board)."""
    out = []
    while bitboard:
        bit = bitboard & -bitboard
        bitboard ^= bit
        out.append(bit.bit_length() - 1)
    return out


class GameCore:
    """Abstract base of the game cores (documentation of the protocol)."""

    __slots__ = ()
    #: The move stack every core keeps, one entry per move made, the move first (the
    #: compiled cores tell their stack through ``ply_count`` and ``move_at``).
    _stack: list[tuple[Any, ...]]

    def gen_moves(self) -> list[int]:
        """The legal moves in ascending order; ``[PASS]`` for a forced pass, ``[]`` at the end."""
        raise NotImplementedError

    def legal_move_objects(self, table: tuple[Any, ...]) -> list[Any]:
        """The legal moves as ``table[code]`` in ``gen_moves`` order: the public positions'
        ``legal_moves()``, one list of the game's interned move objects (a negative code
        counts from the end of ``table``)."""
        return [table[move] for move in self.gen_moves()]

    def count_legal_moves(self) -> int:
        """``len(gen_moves())`` (a forced pass counts 1); a game may count without the list."""
        return len(self.gen_moves())

    def search_moves(self, depth: int) -> list[int]:
        """The moves a search tries at a node with ``depth`` >= 1 plies left (the root excepted,
        which always gets ``gen_moves``): by default all the legal moves. A game may leave out
        moves that cannot change the node's value at that depth (e.g. moves that lose at once
        when a better one exists); ``[]`` only at the end of the game."""
        return self.gen_moves()

    def copy(self) -> GameCore:
        """An independent copy, history included (the searches run on a copy of the core
        they are given, so that nothing the caller holds changes)."""
        raise NotImplementedError

    def make_move(self, move: int) -> None:
        """Play a move known to be legal (no checks: the searches feed it their own moves)."""
        raise NotImplementedError

    def unmake_move(self) -> None:
        """Take back the last move made (no checks)."""
        raise NotImplementedError

    def pop(self) -> int:
        """Take back the last move and return it."""
        if not self._stack:
            raise EmptyHistoryError("no move to take back")
        move: int = self._stack[-1][0]
        self.unmake_move()
        return move

    def history(self) -> list[int]:
        """The moves played since the position was set, oldest first."""
        return [entry[0] for entry in self._stack]

    def perft(self, depth: int) -> int:
        """Leaves of the game tree ``depth`` plies deep (a pass is a ply where the game has
        one; a finished game is one leaf); the depth checked here for every core, the
        counting done by its ``count_leaves``."""
        depth = check_perft_depth(depth)
        return 1 if depth == 0 else self.count_leaves(depth)

    def count_leaves(self, depth: int) -> int:
        """``perft`` for a checked ``depth`` >= 1."""
        raise NotImplementedError

    def num_players(self) -> int:
        """How many players take turns (2 unless the game says otherwise)."""
        return 2

    def to_move(self) -> int:
        """The player whose turn it is, from 0 to ``num_players() - 1``."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        """True when the game is over."""
        raise NotImplementedError

    def terminal_value(self) -> int:
        """The final result for the side to move: >0 won, 0 drawn, <0 lost (its size is the margin)."""
        raise NotImplementedError

    def evaluate(self, weights: list[int]) -> int:
        """Heuristic value for the side to move: ``sum(weights[i] * feature_i)`` over the game's features."""
        raise NotImplementedError

    def leaf_value(self, move: int, weights: list[int]) -> tuple[int, bool]:
        """The position after ``move`` as a search's leaf, this position left as it is:
        ``(terminal_value(), True)`` there when the game is over, else ``(evaluate(weights),
        False)``. The searches' nodes of remaining depth 1 ask it for each child; a game may
        compute it without playing the move (the compiled Othello core does)."""
        self.make_move(move)
        try:
            over = self.is_terminal()
            return (self.terminal_value() if over else self.evaluate(weights)), over
        finally:
            self.unmake_move()

    def begin_search(self, weights: list[int]) -> None:
        """A search is about to run on this core (its own copy) and evaluate with ``weights``:
        a game may prepare state that makes ``evaluate`` cheaper, without changing a value
        (the compiled Othello core then keeps its pattern indices up to date move by move).
        Default: nothing."""

    def terminal_values(self) -> list[int]:
        """The final result per player (index = player), for a finished game. Two-player
        default: ``terminal_value()`` for the side to move, its negation for the other."""
        value, mover = self.terminal_value(), self.to_move()
        return [value, -value] if mover == 0 else [-value, value]

    def evaluate_players(self, weights: list[int]) -> list[int]:
        """Heuristic value per player (index = player). Two-player default: ``evaluate()``
        for the side to move, its negation for the other."""
        value, mover = self.evaluate(weights), self.to_move()
        return [value, -value] if mover == 0 else [-value, value]

    def value_bounds(self) -> tuple[int, int]:
        """``(lowest value of any player, highest sum over the players)`` for every value of
        ``terminal_values`` and ``evaluate_players``; zero-sum two-player games: sum 0."""
        return ZERO_SUM_BOUNDS

    def set_turn(self, player: int) -> bool:
        """Make ``player`` the side to move without playing a move, as one entry of the move
        stack (``unmake_move`` takes it back; the key changes with the side to move). For
        Best-Reply Search. Default: the game cannot, returns False and changes nothing."""
        return False

    def order_key(self, move: int) -> int:
        """Static move-ordering key: the search tries larger keys first."""
        raise NotImplementedError

    def key(self) -> int:
        """64-bit Zobrist hash of the position and side to move."""
        raise NotImplementedError

    def num_empty(self) -> int:
        """Empty cells left (drives the switch to an exact endgame solver)."""
        raise NotImplementedError
