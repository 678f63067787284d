"""What the two MCTS twins (``_mcts_py`` / ``_mcts_cy``) share: their constants, the check of
a search's limits, how ``greedy`` and ``history`` default by the number of players, the
reward rule of a finished game, and the exact identity of a position a tree is reused for.

All of it runs once per search or once per finished tree walk outside the compiled loop, so
it needs no compiling: as ``_options.py``, it is plain Python written once rather than in each
twin (``_mcts_py.py`` documents the algorithm). The compiled twin keeps the C copies its
loop needs (``C_REWARD_UNIT``, ``C_HISTORY_MOVES`` as ``cdef enum`` for its array sizes,
``C_PROGRESS_INTERVAL`` set from ``PROGRESS_INTERVAL``); ``tests/test_options.py`` checks
them against these.
"""

from __future__ import annotations

import math
from typing import Any

from .._deprecated import renamed
from ..errors import InvalidLimitError, InvalidOptionError
from ._options import require_limits

__all__ = [
    "MAST_PRIOR_VISITS",
    "MAST_PRIOR_REWARD",
    "MULTIPLAYER_MAST",
    "MAST_FROM_SECONDS",
    "MAST_GREEDY",
    "check_mast",
    "mast_on",
    "TIE_BITS",
    "DEFAULT_EXPLORATION",
    "DEFAULT_MAX_NODES",
    "MULTIPLAYER_GREEDY",
    "MULTIPLAYER_HISTORY",
    "HISTORY_MOVES",
    "REWARD_UNIT",
    "MAX_ITERATIONS",
    "NODE_BYTES",
    "REWARD_BYTES",
    "PROGRESS_INTERVAL",
    "greedy_threshold",
    "history_weight",
    "reward_shares",
    "check_mcts_limits",
    "check_implicit",
    "implicit_weight",
    "MULTIPLAYER_IMPLICIT",
    "IMPLICIT_FROM_SECONDS",
    "check_mcts_weights",
    "implicit_bounds",
    "TAU_BYTES",
    "MAX_MCTS_WEIGHTS",
    "position_state",
    "reached_state",
]

#: The classic UCB1 constant sqrt(2) (results are win rates in [0, 1]).
DEFAULT_EXPLORATION = 1.4142135623730951
#: The share of greedy playout moves in games of more than two players (``greedy=None``).
MULTIPLAYER_GREEDY = 0.25
#: The low bits of a MAST playout move's random number (its high 53 decide that it is greedy)
#: that pick one of the moves level at the top: the ``(r & TIE_BITS) mod ties``-th in move
#: order, so that no square wins every tie by coming first (a plain greedy move takes the first).
TIE_BITS = 0x7FF
#: MAST (``mast``): a greedy playout move is the one whose (player, move) entry of the history
#: table has the highest mean reward, counted with this prior -- as if it had already been
#: played twice and won once (optimistic: untried moves come first) -- then the highest
#: ``order_key``, then the tie-break of ``TIE_BITS``.
MAST_PRIOR_VISITS = 2
MAST_PRIOR_REWARD = 12
#: ``mast=None`` with more than two players (two players: off), in searches of at least
#: ``MAST_FROM_SECONDS`` or with no time limit: in four-player Rolit at 1 s a move (CPU) the
#: default with MAST and ``MAST_GREEDY`` won 48 of 96 fresh games against Max^n, paranoid and
#: BRS (Wilson 95 %: 40-60 %), where the default without it had won 53 of 144 (docs/performance.md).
MULTIPLAYER_MAST = True
#: ... only in searches of at least this many seconds (or with no time limit): at 0.2 s the
#: measured default is the one without it.
MAST_FROM_SECONDS = 0.3
#: ``greedy=None``'s share of greedy playout moves when MAST is on (more than two players).
MAST_GREEDY = 0.5
#: Progressive history's weight W in games of more than two players (``history=None``).
MULTIPLAYER_HISTORY = 5.0
#: Implicit minimax backups' weight alpha in games of more than two players (``implicit=None``):
#: in four-player Rolit it won 19 of 48 at 1 s a move against Max^n, paranoid and BRS (16 of 48
#: without it) and 16 of 24 at 0.5 s (alpha 0.3: 10, alpha 1: 1 of 12 at 1 s, alpha 0.8: 3 of 10);
#: the default with it has won 53 of 144 at 1 s (``gamecore bench rolit strength``); docs/performance.md.
MULTIPLAYER_IMPLICIT = 0.6
#: ... but only in searches of at least this many seconds (or with no time limit): at 0.2 s a
#: move the plain search won 30 of 48 and alpha 0.6 22 of 48. A 1 s move whose last squares
#: Max^n could not solve leaves MCTS about half of it, which stays above this line.
IMPLICIT_FROM_SECONDS = 0.3
#: Moves per player in the history table (move codes -2 to 125).
HISTORY_MOVES = 128
#: Default bound on the tree's size (about 40 MB in the compiled backend for two players).
DEFAULT_MAX_NODES = 1_000_000
#: Reward units one finished game pays out (divisible by 1, 2, 3 and 4 tied winners).
REWARD_UNIT = 12
#: Iteration budgets above this mean the same as this (none is reached).
MAX_ITERATIONS = 2**62
#: Bytes a node takes in the compiled tree: 24 for the node, 8 per player for its rewards.
NODE_BYTES = 24
REWARD_BYTES = 8
#: Bytes a node's implicit minimax values take in the compiled tree, per player (one int each),
#: when ``implicit`` is on.
TAU_BYTES = 4
#: The most evaluation weights an MCTS tree takes for implicit minimax (the compiled twin's
#: buffer; no game has more features). Not alpha-beta's ``_options.MAX_EVALUATION_WEIGHTS``.
MAX_MCTS_WEIGHTS = 64
#: Seconds of the search's clock between two calls of its ``progress`` (at most 10 a second).
PROGRESS_INTERVAL = 0.1


def greedy_threshold(greedy: float | None, players: int, mast: bool = False) -> int:
    """The playout rule's integer threshold: ``greedy`` (None: 0 with two players,
    ``MULTIPLAYER_GREEDY`` with more, ``MAST_GREEDY`` when the search uses MAST) as a fraction
    of 2**53."""
    if greedy is None:
        greedy = 0.0 if players <= 2 else MAST_GREEDY if mast else MULTIPLAYER_GREEDY
    return int(greedy * 9007199254740992.0)


def history_weight(history: float | None, players: int) -> float:
    """Progressive history's weight for a search: ``history`` (None: 0 with two players,
    ``MULTIPLAYER_HISTORY`` with more)."""
    if history is None:
        return MULTIPLAYER_HISTORY if players > 2 else 0.0
    return history


def check_mast(mast: Any) -> bool | None:
    """``mast`` checked: True, False or None (the default by the number of players, ``mast_on``)."""
    if mast is not None and not isinstance(mast, bool):
        raise InvalidOptionError(f"mast must be True, False or None, got {mast!r}")
    return mast


def mast_on(mast: bool | None, players: int, time_limit: float = 0.0) -> bool:
    """Whether a search of ``time_limit`` seconds (0: none) has its greedy playout moves follow
    the history table (MAST): ``mast``, or for None ``MULTIPLAYER_MAST`` with more than two
    players in a search of at least ``MAST_FROM_SECONDS`` or with no time limit, else False."""
    if mast is None:
        timed_short = 0.0 < time_limit < MAST_FROM_SECONDS
        return MULTIPLAYER_MAST and players > 2 and not timed_short
    return mast


def reward_shares(values: list[int] | tuple[int, ...]) -> list[int]:
    """The reward of each player for a finished game with ``terminal_values() == values``:
    ``REWARD_UNIT`` shared equally among the players with the highest value."""
    top = max(values)
    share = REWARD_UNIT // values.count(top)
    return [share if v == top else 0 for v in values]


def check_implicit(implicit: Any) -> float | None:
    """Implicit minimax backups' weight ``alpha`` checked: ``None`` (the default by the number
    of players, ``implicit_weight``) or a number from 0 (off) to 1."""
    if implicit is None:
        return None
    if isinstance(implicit, bool) or not isinstance(implicit, (int, float)) or not 0.0 <= implicit <= 1.0:
        raise InvalidOptionError(f"implicit must be a number from 0 to 1 (0: off) or None, got {implicit!r}")
    return float(implicit)


def implicit_weight(implicit: float | None, players: int, time_limit: float = 0.0) -> float:
    """Implicit minimax's weight alpha for a search of ``time_limit`` seconds (0: none):
    ``implicit``, or for None 0 with two players and ``MULTIPLAYER_IMPLICIT`` with more, in a
    search of at least ``IMPLICIT_FROM_SECONDS`` or with no time limit (0 in a shorter one)."""
    if implicit is None:
        timed_short = 0.0 < time_limit < IMPLICIT_FROM_SECONDS
        return MULTIPLAYER_IMPLICIT if players > 2 and not timed_short else 0.0
    return implicit


def check_mcts_weights(weights: Any) -> list[int]:
    """A tree's evaluation weights for implicit minimax: ``None`` (all 0) or at most
    ``MAX_MCTS_WEIGHTS`` ints, padded with zeros to ``MAX_MCTS_WEIGHTS``."""
    if weights is None:
        return [0] * MAX_MCTS_WEIGHTS
    if not isinstance(weights, (list, tuple)) or len(weights) > MAX_MCTS_WEIGHTS:
        raise InvalidOptionError(f"weights must be a list of at most {MAX_MCTS_WEIGHTS} ints, got {weights!r}")
    for w in weights:
        if isinstance(w, bool) or not isinstance(w, int) or not -(2**31) < w < 2**31:
            raise InvalidOptionError(f"weights must be ints of 32 bits, got {w!r}")
    return [int(w) for w in weights] + [0] * (MAX_MCTS_WEIGHTS - len(weights))


# The names before #32 (they clashed with alpha-beta's MAX_WEIGHTS and check_weights in
# _options): kept for one version for code that imports them, with a warning; not exported.
__getattr__ = renamed(
    __name__,
    {
        "MAX_WEIGHTS": ("MAX_MCTS_WEIGHTS", MAX_MCTS_WEIGHTS),
        "check_weights": ("check_mcts_weights", check_mcts_weights),
    },
)


def implicit_bounds(low: int, highest_sum: int, players: int) -> tuple[int, int]:
    """``(low, span)`` that map ``evaluate_players`` values to [0, 1] as ``(v - low) / span``,
    from the game's ``value_bounds()``: ``low`` its lowest value, ``span`` what the players'
    values can add up to above it (Rolit: 0 and 64, a share of the board's balls); at least 1."""
    span = highest_sum - players * low
    return int(low), int(span) if span > 0 else 1


def check_mcts_limits(limits: Any) -> tuple[int, float]:
    """A :class:`~gamecore.search._options.SearchLimits`' ``(iterations, time_limit)`` (its
    ``nodes`` and ``seconds``; MCTS has no depth) checked: an int >= 0 (capped at
    MAX_ITERATIONS) and a finite number of seconds >= 0, not both 0."""
    limits = require_limits(limits)
    iterations, time_limit = limits.nodes, limits.seconds
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise InvalidLimitError(f"iterations must be an int >= 0, got {iterations!r}")
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0.0 <= time_limit < math.inf:
        raise InvalidLimitError(f"time_limit must be a finite number of seconds >= 0, got {time_limit!r}")
    if iterations == 0 and time_limit == 0:
        raise InvalidLimitError("give an iteration budget or a time limit")
    return min(int(iterations), MAX_ITERATIONS), float(time_limit)


def position_state(core: Any) -> tuple[object, ...]:
    """What makes a position exactly itself, history aside: its game, board, side to move
    and legal moves (a tree is reused only for the very position it was grown on)."""
    return (
        type(core).__name__,
        getattr(core, "size", None),
        getattr(core, "swap_rule", None),
        core.bitboards(),
        core.turn,
        tuple(core.legal_moves()),
    )


def reached_state(root_core: Any, moves: Any) -> tuple[object, ...] | None:
    """position_state after playing ``moves`` from ``root_core`` (None if one is not legal)."""
    work = root_core.copy()
    try:
        for move in moves:
            work.push(move)
    except ValueError:
        return None
    return position_state(work)
