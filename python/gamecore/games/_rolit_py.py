"""Rolit (Othello for 2 to 4 players) on 8x8: the pure-Python core (twin of ``_rolit_cy``).

Colours are numbered in the course handout's play order: 0 red, 1 blue, 2 yellow, 3 green
(the default order of play; any other may be given). Bit layout as in
Othello: square ``(row, col)`` is bit ``row * 8 + col``, ``a1`` the top-left corner. The
start is the same whoever plays: d4 red, e4 yellow, d5 blue, e5 green.

Players and colours. The colours that play are kept in the order given, which is the play
order; player ``i`` (the protocol's player number, ``to_move()``) is the i-th of them. Any playing colour may move
first; the turn then goes round in play order. The balls of the colours that do not play
are neutral: they can be captured, never move and never score.

Moves. A move that captures (brackets balls of other colours, neutral ones included, up to
the nearest own ball along any of the 8 lines, no empty square between; every bracketed
line is recoloured) is compulsory when one exists. Otherwise -- also when the mover has no
ball left -- the ball goes on any empty square 8-adjacent to any ball. With
``compulsory=False`` every empty square next to a ball may be played (it still captures
what it brackets). There is no pass: the game ends when the board is full, after exactly
60 plies from the start.

Values. ``terminal_values()`` is each player's number of balls (their sum is at most 64:
neutral balls count for nobody). ``evaluate_players(weights)`` is each player's *projected*
number of balls: its balls now plus a share of the empty squares proportional to its
heuristic strength ``max(0, sum(weights[k] * feature_k))`` over ``FEATURES`` (every feature
is >= 0 for every player; with no strength anywhere the empties are shared equally,
rounded down). So every value is >= 0, the values add up to at most 64, and a full board
evaluates to its terminal values: ``value_bounds()`` is ``(0, 64)`` for both. For the side
to move, ``terminal_value()`` and ``evaluate()`` are its value minus the best opponent's,
so two-player Rolit is zero-sum and negamax applies.

Tie rule (the course handout's: among the colours level at the top, the one that first
reached that final score wins). Precisely: let S be the top final count. A tied colour
*reaches* S at the first ply p (0 = the position the history starts from, p = moves
played) after which it has at least S balls. Only the mover's count can grow in a ply, so
two colours never reach S at the same ply p >= 1; the one with the smaller p wins. If
several tied colours already had S balls at ply 0 (a position set up mid-game) the rule
cannot tell them apart among those, and the game is a draw between them.
``count_history()`` gives the counts after every ply, which is all the rule needs.
"""

from __future__ import annotations

from typing import Any

from .._game_py import GameCore, bit_indices
from .._rng import splitmix64
from .._zobrist import SQUARE_KEYS, TURN_KEYS
from ..errors import GameOverError, IllegalMoveError, InvalidPositionError
from ._othello_py import flips as othello_flips
from ._othello_py import legal_moves_mask as othello_moves
from ._othello_py import square_weight as othello_square_weight
from ._rolit_rules import (
    COLOURS,
    CORNERS,
    EDGES,
    FEATURES,
    NUM_COLOURS,
    NUM_SQUARES,
    START,
    START_BALLS,
    TURN_CHANGE,
    VALUE_BOUNDS,
    check_balls,
    check_colours,
    check_compulsory,
    check_player,
    check_playouts,
    check_weights,
    replayable_history,
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

# The constants and the checks of what callers hand the core are in _rolit_rules, shared with _rolit_cy.
FULL = (1 << NUM_SQUARES) - 1
_COLUMN_A = 0x0101010101010101
#: Othello's positional weight of each square (the move order of the searches).
_SQUARE_WEIGHT = tuple(othello_square_weight(square // 8, square % 8, 8) for square in range(NUM_SQUARES))


def neighbours(x: int) -> int:
    """The squares 8-adjacent to a ball of ``x`` (and ``x`` itself)."""
    # A step east must not wrap into column a of the next row, a step west into column h.
    # (Masked to 64 bits before the vertical steps, as a uint64_t is in C.)
    row = (x | ((x << 1) & ~_COLUMN_A) | ((x >> 1) & ~(_COLUMN_A << 7))) & FULL
    return (row | (row << 8) | (row >> 8)) & FULL


def moves_mask(own: int, occupied: int, compulsory: bool = True) -> int:
    """Squares where the owner of ``own`` may play (see the module docstring)."""
    if compulsory and own:
        captures = othello_moves(own, occupied ^ own, 8)
        if captures:
            return captures
    return neighbours(occupied) & ~occupied


def move_flips(own: int, occupied: int, square: int) -> int:
    """Balls of the other colours that a ball of ``own`` on ``square`` captures (0 if none)."""
    if not own:
        return 0
    return othello_flips(own, occupied ^ own, square, 8)


def _stable_edges(own: int) -> int:
    stable = own & CORNERS
    along_rows = own & (0xFF | (0xFF << 56))
    along_cols = own & (_COLUMN_A | (_COLUMN_A << 7))
    while True:
        grown = stable | (along_rows & ((stable << 1) | (stable >> 1))) | (along_cols & ((stable << 8) | (stable >> 8)))
        if grown == stable:
            return stable
        stable = grown


class RolitCore(GameCore):
    """Mutable Rolit position with a move stack (the pure-Python core).

    :param colours: the colour numbers that play (2 to 4 of 0..3, in play order).
    :param first: the colour that moves first (default: the first that plays).
    :param compulsory: a capture must be played when one exists (the rules); False lifts it.
    """

    __slots__ = ("colours", "compulsory", "turn", "_balls", "_hash", "_stack", "_start")

    def __init__(self, colours: tuple[int, ...] = (0, 1, 2, 3), first: int | None = None, compulsory: bool = True):
        self.colours = check_colours(colours)
        self.compulsory = check_compulsory(compulsory)
        self._set(START_BALLS, self.colours[0] if first is None else first)

    def _player_of(self, colour: object) -> int:
        if isinstance(colour, bool) or not isinstance(colour, int) or colour not in self.colours:
            raise InvalidPositionError(f"the colour to move must be one that plays ({self.colours}), got {colour!r}")
        return self.colours.index(colour)

    def _set(self, balls: tuple[int, ...], colour_to_move: int) -> None:
        self.turn = self._player_of(colour_to_move)
        self._balls = list(balls)
        h = TURN_KEYS[colour_to_move]
        for colour, bb in enumerate(balls):
            for square in bit_indices(bb):
                h ^= SQUARE_KEYS[colour][square]
        self._hash = h
        self._stack: list[tuple[int, tuple[int, ...], int]] = []
        self._start = (tuple(balls), colour_to_move)

    def set_board(self, balls: tuple[int, int, int, int], colour_to_move: int) -> None:
        """Set the balls (four bitboards, red blue yellow green) and the colour to move;
        clears the move history. The board must hold at least one ball."""
        balls = check_balls(balls)
        self._player_of(colour_to_move)
        self._set(balls, colour_to_move)

    def bitboards(self) -> tuple[int, int, int, int]:
        """The balls of red, blue, yellow and green (four bitboards)."""
        return tuple(self._balls)  # type: ignore[return-value]

    def counts(self) -> tuple[int, int, int, int]:
        """Balls of red, blue, yellow and green (neutral colours included)."""
        return tuple(bb.bit_count() for bb in self._balls)  # type: ignore[return-value]

    def colour_to_move(self) -> int:
        """The colour number of the side to move."""
        return self.colours[self.turn]

    def copy(self) -> RolitCore:
        """An independent copy, history included."""
        other = RolitCore.__new__(RolitCore)
        other.colours = self.colours
        other.compulsory = self.compulsory
        other.turn = self.turn
        other._balls = list(self._balls)
        other._hash = self._hash
        other._stack = list(self._stack)
        other._start = self._start
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        history = replayable_history(self.history(), self.turn, len(self.colours))
        return _rebuild, (self.colours, self.compulsory, self._start[0], self._start[1], history)

    def replay(self, moves: list[int]) -> None:
        """Play a history as ``__reduce__`` gives it (``replayable_history``): squares with
        ``push`` (checked), turn changes with ``set_turn``. On an error (or Ctrl-C) what was
        played is taken back: nothing changes."""
        start = len(self._stack)
        try:
            for move in moves:
                if type(move) is int and move <= TURN_CHANGE:
                    player = TURN_CHANGE - move
                    if not (player < len(self.colours) and self.set_turn(player)):
                        raise InvalidPositionError(f"no player {player} to give the turn to")
                else:
                    self.push(move)
        except BaseException:
            while len(self._stack) > start:
                self.unmake_move()
            raise

    # -- the game protocol -------------------------------------------------

    def _occupied(self) -> int:
        b = self._balls
        return b[0] | b[1] | b[2] | b[3]

    def gen_moves(self) -> list[int]:
        """The legal moves (square indices) in ascending order; ``[]`` once the board is full."""
        own = self._balls[self.colours[self.turn]]
        return bit_indices(moves_mask(own, self._occupied(), self.compulsory))

    def make_move(self, move: int) -> None:
        """Play a move known to be legal (no checks)."""
        balls = self._balls
        before = tuple(balls)
        colour = self.colours[self.turn]
        taken = move_flips(balls[colour], self._occupied(), move)
        mine = SQUARE_KEYS[colour]
        h = self._hash ^ mine[move]
        for other in range(NUM_COLOURS):
            lost = balls[other] & taken
            if lost:
                balls[other] ^= lost
                theirs = SQUARE_KEYS[other]
                for square in bit_indices(lost):
                    h ^= mine[square] ^ theirs[square]
        balls[colour] |= taken | (1 << move)
        self._stack.append((move, before, self._hash))
        self.turn = (self.turn + 1) % len(self.colours)
        self._hash = h ^ TURN_KEYS[colour] ^ TURN_KEYS[self.colours[self.turn]]

    def unmake_move(self) -> None:
        """Take back the last move made, or turn change (no checks)."""
        move, before, h = self._stack.pop()
        self._hash = h
        if move <= TURN_CHANGE:
            self.turn = TURN_CHANGE - move
            return
        self._balls = list(before)
        self.turn = (self.turn - 1) % len(self.colours)

    def set_turn(self, player: int) -> bool:
        """Make ``player`` the side to move, as one entry of the move stack (Best-Reply Search)."""
        if not 0 <= player < len(self.colours):
            return False
        self._stack.append((TURN_CHANGE - self.turn, tuple(self._balls), self._hash))
        self._hash ^= TURN_KEYS[self.colours[self.turn]] ^ TURN_KEYS[self.colours[player]]
        self.turn = player
        return True

    def num_players(self) -> int:
        """How many colours play (2 to 4)."""
        return len(self.colours)

    def to_move(self) -> int:
        """The player to move: the index of its colour among the colours that play."""
        return self.turn

    def is_terminal(self) -> bool:
        """True when no move is left (the board is full)."""
        return not moves_mask(self._balls[self.colours[self.turn]], self._occupied(), self.compulsory)

    def terminal_values(self) -> list[int]:
        """Each player's balls (index = player)."""
        return [self._balls[c].bit_count() for c in self.colours]

    def _relative(self, values: list[int]) -> int:
        # The side to move's value less the best opponent's.
        mine = values[self.turn]
        return mine - max(v for i, v in enumerate(values) if i != self.turn)

    def terminal_value(self) -> int:
        """The side to move's balls less the most balls of an opponent."""
        return self._relative(self.terminal_values())

    def _features(self, player: int) -> tuple[int, ...]:
        """The values of ``FEATURES`` for ``player`` (each >= 0)."""
        balls = self._balls
        own = balls[self.colours[player]]
        occupied = self._occupied()
        mobility = othello_moves(own, occupied ^ own, 8).bit_count() if own else 0
        return (
            own.bit_count(),
            (own & CORNERS).bit_count(),
            _stable_edges(own).bit_count(),
            (own & EDGES).bit_count(),
            mobility,
        )

    def evaluate_players(self, weights: list[int]) -> list[int]:
        """Projected balls per player: balls now plus a share of the empty squares in
        proportion to ``max(0, sum(weights[k] * feature_k))`` (see the module docstring)."""
        n = len(self.colours)
        strengths = []
        for player in range(n):
            features = self._features(player)
            strength = 0
            for k in range(len(FEATURES)):
                if weights[k]:
                    strength += weights[k] * features[k]
            strengths.append(max(strength, 0))
        empties = self.num_empty()
        total = sum(strengths)
        counts = self.terminal_values()
        if total == 0:
            return [count + empties // n for count in counts]
        return [count + empties * strength // total for count, strength in zip(counts, strengths, strict=True)]

    def evaluate(self, weights: list[int]) -> int:
        """The side to move's projected balls less the best opponent's."""
        return self._relative(self.evaluate_players(weights))

    def value_bounds(self) -> tuple[int, int]:
        """``(0, 64)``: no value is negative and the players' values add up to at most 64."""
        return VALUE_BOUNDS

    def order_key(self, move: int) -> int:
        """Positional weight of the move's square, as in Othello (corners first)."""
        return _SQUARE_WEIGHT[move]

    def key(self) -> int:
        """64-bit Zobrist hash of the balls and the colour to move."""
        return self._hash

    def num_empty(self) -> int:
        """Empty squares left."""
        return NUM_SQUARES - self._occupied().bit_count()

    # -- checked operations for the public API -----------------------------

    def legal_moves(self) -> list[int]:
        """The legal moves in ascending order; ``[]`` once the board is full."""
        return self.gen_moves()

    def push(self, move: int) -> None:
        """Play ``move`` after checking it is legal; raises and changes nothing otherwise."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise IllegalMoveError(f"a move code must be an int, got {type(move).__name__}")
        legal = self.gen_moves()
        if not legal:
            raise GameOverError("the game is over: the board is full")
        if move not in legal:
            raise IllegalMoveError(self._illegal_reason(move))
        self.make_move(move)

    def _illegal_reason(self, move: int) -> str:
        if not 0 <= move < NUM_SQUARES:
            return f"square index {move} is off the 8x8 board"
        occupied = self._occupied()
        if occupied >> move & 1:
            return "that square is already taken"
        if not neighbours(occupied) >> move & 1:
            return "a ball must go next to a ball already on the board"
        return "a capture is compulsory and that move captures nothing"

    def count_history(self) -> list[tuple[int, int, int, int]]:
        """Balls of each colour (red, blue, yellow, green) after each ply: entry 0 is the
        position the history starts from, the last one the current position (the tie rule)."""
        rows = [tuple(bb.bit_count() for bb in entry[1]) for entry in self._stack]
        rows.append(self.counts())
        return rows  # type: ignore[return-value]

    def is_game_over(self) -> bool:
        """True when the board is full (or, set up by hand, holds no ball)."""
        return self.is_terminal()

    def zobrist(self) -> int:
        """64-bit Zobrist hash of the balls and the colour to move."""
        return self._hash

    # Python names of the protocol's per-player views (the compiled core has them as C
    # methods only): the tests and the tools compare the backends through these.
    def values(self) -> list[int]:
        """``terminal_values()``."""
        return self.terminal_values()

    def heuristic(self, weights: list[int]) -> list[int]:
        """``evaluate_players(weights)``."""
        return self.evaluate_players(check_weights(weights))

    def side_values(self, weights: list[int]) -> tuple[int, int]:
        """``(terminal_value(), evaluate(weights))`` for the side to move."""
        return self.terminal_value(), self.evaluate(check_weights(weights))

    def feature_values(self, player: int) -> tuple[int, ...]:
        """``features(player)``, the player checked."""
        return self._features(check_player(player, len(self.colours)))

    def count_leaves(self, depth: int) -> int:
        """Perft (``GameCore.perft`` checks the depth); a finished game is one leaf."""
        if depth < 1:  # perft() checks the depth; this keeps a direct call safe
            return 1
        return _perft(list(self._balls), self.colours, self.turn, depth, self.compulsory)

    def playouts(self, games: int, seed: int) -> tuple[int, int]:
        """Play ``games`` uniformly random games to the end from here and take them back:
        ``(plies played, XOR of the final Zobrist keys)``. The n-th move is
        ``moves[r % len(moves)]`` with r the n-th output of splitmix64 from ``seed``
        (the benchmark of make/unmake and move generation, and a differential check)."""
        games, state = check_playouts(games, seed)
        plies = 0
        keys = 0
        # Played on a copy: Ctrl-C may stop Python between any two steps of a move, and this
        # position stays as it was whatever step that is.
        board = self.copy()
        for _ in range(games):
            depth = 0
            while True:
                moves = board.gen_moves()
                if not moves:
                    break
                state, out = splitmix64(state)
                board.make_move(moves[out % len(moves)])
                depth += 1
            plies += depth
            keys ^= board._hash
            for _ in range(depth):
                board.unmake_move()
        return plies, keys


def _perft(balls: list[int], colours: tuple[int, ...], player: int, depth: int, compulsory: bool) -> int:
    colour = colours[player]
    occupied = balls[0] | balls[1] | balls[2] | balls[3]
    own = balls[colour]
    moves = moves_mask(own, occupied, compulsory)
    if not moves:
        return 1
    if depth == 1:
        return moves.bit_count()
    following = (player + 1) % len(colours)
    total = 0
    for square in bit_indices(moves):
        taken = move_flips(own, occupied, square)
        child = [bb & ~taken for bb in balls]
        child[colour] |= taken | (1 << square)
        total += _perft(child, colours, following, depth - 1, compulsory)
    return total


def _rebuild(
    colours: tuple[int, ...], compulsory: bool, balls: tuple[int, int, int, int], colour_to_move: int, moves: list[int]
) -> RolitCore:
    """A core from its start, settings and moves (pickling)."""
    core = RolitCore(colours, compulsory=compulsory)
    core.set_board(balls, colour_to_move)
    core.replay(moves)
    return core
