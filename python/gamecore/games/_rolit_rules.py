"""What the two Rolit cores (``_rolit_py`` / ``_rolit_cy``) share: the game's constants and
the checks of what a caller hands them (colours, rules, balls, weights, a player, playouts).

They run once per call, before anything reaches the board, so they need no compiling: as
``search/_options.py``, this module is plain Python written once rather than in each twin
(``_rolit_py.py`` documents the rules). The compiled core keeps the C constants its
``nogil`` code needs (``ROLIT_COLOURS``, ``ROLIT_SQUARES``, ``NFEATURES``, ``C_TURN_CHANGE``);
``tests/test_options.py`` checks them against these.
"""

from __future__ import annotations

from typing import TypeGuard

from .._rng import MASK64
from ..errors import InvalidEvaluationError, InvalidLimitError, InvalidOptionError, InvalidPositionError
from ..search._options import MAX_WEIGHT

__all__ = [
    "COLOURS",
    "NUM_COLOURS",
    "NUM_SQUARES",
    "START",
    "START_BALLS",
    "CORNERS",
    "EDGES",
    "FEATURES",
    "NUM_FEATURES",
    "VALUE_BOUNDS",
    "TURN_CHANGE",
    "MAX_PLAYOUTS",
    "check_colours",
    "check_compulsory",
    "check_balls",
    "check_weights",
    "check_player",
    "check_playouts",
    "replayable_history",
]

#: Colour initials by colour number 0..3 (the handout's play order).
COLOURS = "RBYG"
NUM_COLOURS = 4
NUM_SQUARES = 64
#: The start position, whatever the number of players: ``{square: colour}``.
START = {27: 0, 28: 2, 35: 1, 36: 3}  # d4 red, e4 yellow, d5 blue, e5 green
#: ``START`` as four bitboards (red, blue, yellow, green).
START_BALLS = tuple(sum(1 << square for square, c in START.items() if c == colour) for colour in range(NUM_COLOURS))
#: The four corner squares and the 28 edge squares, as bitboards (the features "corners" and "edges").
CORNERS = 1 | (1 << 7) | (1 << 56) | (1 << 63)
EDGES = 0xFF | (0xFF << 56) | 0x0101010101010101 | (0x0101010101010101 << 7)
#: Per-player heuristic features (each >= 0), in the order of ``evaluate_players``' weights:
#: own balls, own corners, own balls on an edge held by an own corner through own edge balls,
#: own balls on the edge, own capturing moves (as if it were to move).
FEATURES = ("balls", "corners", "stable", "edges", "mobility")
NUM_FEATURES = len(FEATURES)
#: ``value_bounds()``: every value >= 0, the values of all players add up to at most 64.
VALUE_BOUNDS = (0, NUM_SQUARES)
#: Move-stack code of a turn change (``set_turn``): TURN_CHANGE minus the player it took the turn from.
TURN_CHANGE = -16
#: Most random games one ``playouts`` call plays.
MAX_PLAYOUTS = 2**62


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_colours(colours: object) -> tuple[int, ...]:
    """The colours that play, in play order: 2 to 4 different colour numbers 0..3."""
    if not isinstance(colours, (tuple, list)) or not all(_is_int(c) and 0 <= c < NUM_COLOURS for c in colours):
        raise InvalidPositionError(f"colours must be a sequence of colour numbers 0..3, got {colours!r}")
    ordered = tuple(colours)  # the order given is the play order
    if len(set(ordered)) != len(ordered) or not 2 <= len(ordered) <= NUM_COLOURS:
        raise InvalidPositionError(f"2 to 4 different colours must play, got {colours!r}")
    return ordered


def check_compulsory(compulsory: object) -> bool:
    """The capture rule's switch: True or False."""
    if not isinstance(compulsory, bool):
        raise InvalidPositionError(f"compulsory must be True or False, got {compulsory!r}")
    return compulsory


def check_balls(balls: object) -> tuple[int, int, int, int]:
    """Four bitboards (red, blue, yellow, green) within the board, no square held twice, at
    least one ball in all."""
    if not isinstance(balls, (tuple, list)) or len(balls) != NUM_COLOURS:
        raise InvalidPositionError("balls must be four bitboards: red, blue, yellow, green")
    seen = 0
    for colour, bb in enumerate(balls):
        if not _is_int(bb) or bb < 0 or bb >> NUM_SQUARES:
            raise InvalidPositionError(f"the {COLOURS[colour]} bitboard must be an int within the 8x8 board")
        if bb & seen:
            raise InvalidPositionError("a square cannot hold two balls")
        seen |= bb
    if not seen:
        raise InvalidPositionError("the board must hold at least one ball")
    return tuple(int(bb) for bb in balls)  # type: ignore[return-value]


def check_weights(weights: object) -> list[int]:
    """The evaluation weights: one int per feature of ``FEATURES``, each within +-MAX_WEIGHT."""
    if not isinstance(weights, (list, tuple)) or len(weights) != NUM_FEATURES:
        raise InvalidEvaluationError(f"weights must be {NUM_FEATURES} ints (one per feature of {FEATURES})")
    for w in weights:
        if not _is_int(w) or not -MAX_WEIGHT <= w <= MAX_WEIGHT:
            raise InvalidEvaluationError(f"each weight must be an int from -{MAX_WEIGHT} to {MAX_WEIGHT}, got {w!r}")
    return list(weights)


def check_player(player: object, players: int) -> int:
    """A player number of a game of ``players`` players."""
    if not _is_int(player) or not 0 <= player < players:
        raise InvalidOptionError(f"player must be an int from 0 to {players - 1}, got {player!r}")
    return int(player)


def check_playouts(games: object, seed: object) -> tuple[int, int]:
    """``playouts``' arguments: a number of games from 0 to MAX_PLAYOUTS and an int seed,
    returned as ``(games, seed modulo 2**64)``."""
    if not _is_int(games) or not 0 <= games <= MAX_PLAYOUTS:
        raise InvalidLimitError(f"games must be an int from 0 to 2**62, got {games!r}")
    if not _is_int(seed):
        raise InvalidOptionError(f"seed must be an int, got {seed!r}")
    return int(games), seed & MASK64


def replayable_history(history: list[int], turn: int, players: int) -> list[int]:
    """``history`` as ``replay`` takes it: each turn change names the player it gave the turn
    to (``TURN_CHANGE - player``), where the move stack keeps the one it took the turn from
    (what ``unmake_move`` needs). Worked out backwards from ``turn``, the player to move now."""
    out = list(history)
    for i in range(len(out) - 1, -1, -1):
        code = out[i]
        if code <= TURN_CHANGE:
            out[i] = TURN_CHANGE - turn
            turn = TURN_CHANGE - code
        else:
            turn = (turn if turn else players) - 1  # the player before (no C modulo of a negative)
    return out
