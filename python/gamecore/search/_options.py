"""The search layer's constants and the checks of its options and limits, written once for
both backends (``_alphabeta_py`` / ``_alphabeta_cy``, ``_multiplayer_*``, ``_mcts_*``, and the
public ``Engine``, ``MCTS`` and ``search``).

They run once per call, not in the search, so they need no compiling: as ``_results.py``,
this module is plain Python shared by the twins rather than written out in each. The
compiled twins keep ``cdef enum`` copies of the constants their C code needs at compile
time (``C_WIN`` ..., listed in their ``_C_COPIES``); ``tests/test_options.py`` checks them against these.

A bad option raises :class:`~gamecore.errors.InvalidOptionError`, a bad limit
:class:`~gamecore.errors.InvalidLimitError`, bad evaluation weights
:class:`~gamecore.errors.InvalidEvaluationError`: all of them ``ValueError`` too.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Any

from .._deprecated import renamed
from ..errors import InvalidEvaluationError, InvalidLimitError, InvalidMoveError, InvalidOptionError

__all__ = [
    "WIN",
    "INFINITY",
    "MAX_PLY",
    "TT_ENTRY_BYTES",
    "TT_MIN_DEPTH",
    "EXACT",
    "LOWER",
    "UPPER",
    "ASPIRATION_WINDOW",
    "MAX_WEIGHTS",
    "MAX_WEIGHT",
    "MAX_NODE_LIMIT",
    "MAX_TT_MB",
    "MULTIPLAYER_SEARCHES",
    "SearchLimits",
    "require_limits",
    "HISTORY_OFFSET",
    "HISTORY_SIZE",
    "HISTORY_MAX",
    "NO_HORIZON",
    "FRAME_BYTES",
    "MAXN_ENTRY_BYTES",
    "MULTIPLAYER_SALTS",
    "MULTIPLAYER_SALT_STEP",
    "SHALLOW_EMPTIES",
    "ENDGAME_TT_BITS",
    "ODD_BONUS",
    "ETC_EMPTIES",
    "EVAL_ORDER",
    "MIN_TABLE_BITS",
    "MAX_TABLE_BITS",
    "STATS_FIELDS",
    "check_eval_order",
    "check_table_bits",
    "check_stats",
    "check_evaluation",
    "check_weights",
    "check_search_limits",
    "check_tt_mb",
    "check_algorithm",
    "check_values",
    "check_root_moves",
    "check_solve_args",
    "check_greedy",
    "check_history",
    "check_mcts_options",
    "MPC_DEPTHS",
    "MPC_EMPTIES",
    "MPC_SCALE",
    "MPC_MIN_DEPTH",
    "MPC_MAX_LEVEL",
    "check_mpc",
]

#: Score of a won game before the margin is added: every evaluation stays below it.
WIN = 1_000_000
INFINITY = 2_000_000_000
#: Deepest ply a search may reach (bounds the principal-variation table).
MAX_PLY = 128
TT_ENTRY_BYTES = 16
#: Alpha-beta's nodes with less remaining depth than this neither look up nor store the table:
#: at depth 1 a lookup (a cache miss, most of the time) costs more than the leaves it saves.
TT_MIN_DEPTH = 2
#: Transposition-table bound flags (0 marks an empty slot in the compiled table).
EXACT, LOWER, UPPER = 1, 2, 3
ASPIRATION_WINDOW = 50
#: At most this many evaluation weights, each within +-MAX_WEIGHT: any weighted sum of the
#: features of a game stays far inside a C int (and a heuristic score is clamped below WIN).
MAX_WEIGHTS = 16
MAX_WEIGHT = 10_000
#: Node limits above this (2**63 - 1) mean the same as this: no limit that can be reached.
MAX_NODE_LIMIT = 2**63 - 1
#: The n-player tree searches of ``_multiplayer_*`` (MCTS aside: the engine's
#: ``MULTIPLAYER_ALGORITHMS`` adds it).
MULTIPLAYER_SEARCHES = ("maxn", "maxn-plain", "paranoid", "brs")
# MULTIPLAYER_ALGORITHMS, the name before #32 (it clashed with the engine's, which holds MCTS
# too): kept for one version, with a warning (__getattr__ at the end).
#: The largest transposition table, in megabytes.
MAX_TT_MB = 4096
#: Alpha-beta's history scores are kept for move codes -2..125 (square indices and special moves).
HISTORY_OFFSET = 2
HISTORY_SIZE = 128
#: History scores saturate here (the compiled search packs them below an order key).
HISTORY_MAX = (1 << 40) - 1
#: Flag bit of a multi-player table entry whose subtree reached the end of the game on every line.
NO_HORIZON = 4
#: Bytes of one recursion frame's buffers in the compiled multi-player search (moves, their keys, values).
FRAME_BYTES = 4 * 128 + 8 * 128 + 4 * 4
#: Bytes of a Max^n table entry (key, four int32 values, move, depth, flag, padding).
MAXN_ENTRY_BYTES = 32
#: Multi-player table-key salts: one per algorithm, plus the root player times the step
#: (paranoid and BRS values depend on the root player; Max^n's do not).
MULTIPLAYER_SALTS = {"paranoid": 0x6A09E667F3BCC908, "brs": 0xBB67AE8584CAA73B}
MULTIPLAYER_SALT_STEP = 0x3C6EF372FE94F82B
#: Empty squares from which the Othello solver's shallow search takes over from the deep one.
SHALLOW_EMPTIES = 5
#: The solver's transposition table holds ``2 ** ENDGAME_TT_BITS`` entries (16 bytes each compiled).
ENDGAME_TT_BITS = 20
#: An ``EndgameTable`` (a table successive solves share) holds 2**bits entries, bits in this range.
MIN_TABLE_BITS = 10
MAX_TABLE_BITS = 28
#: The solver's measurement counters (``solve_exact(..., _stats=)``) for each number of empty
#: squares, in this order: deep and shallow search nodes, table hits, the table's bounds
#: answering alone, stability or enhanced transposition cut-offs, fail-highs, fail-highs on
#: the first move tried.
STATS_FIELDS = 6
#: The solver's move_key bonus for a move in a quadrant with an odd number of empty squares.
ODD_BONUS = 4
#: The solver's enhanced transposition cut-offs, in nodes with this many empties or more.
ETC_EMPTIES = 12
#: The solver's evaluated ordering on boards with learned weights: ``(from, depth1, depth2,
#: depth3, weight, pv_extra)``. In nodes with at least ``from`` empty squares, deep_search adds
#: ``weight`` times a shallow search's value of each move (the learned evaluation, hundredths
#: of a disc, for the replier) to the move's fastest-first key; that search is 0 plies deep
#: (the evaluation of the move's position), 1 from ``depth1`` empties, 2 from ``depth2``, 3
#: from ``depth3``, and ``pv_extra`` plies deeper in a node entered with an open window (the
#: root, PV nodes).
EVAL_ORDER = (16, 18, 20, 99, 128, 1)
#: Multi-ProbCut (alpha-beta's selective search, ``_alphabeta_py``): its table has a row per
#: number of empty squares (``num_empty()``, 0..MPC_EMPTIES - 1) and a column per remaining
#: depth (0..MPC_DEPTHS - 1); the slope ``a`` of its linear fits is in 1/MPC_SCALE.
MPC_DEPTHS = 32
MPC_EMPTIES = 128
MPC_SCALE = 1024
#: No probe in nodes of less remaining depth than this (a probe would cost what it saves).
MPC_MIN_DEPTH = 3
#: Probes nest at most this deep (a probe's own nodes probe again, as in Edax, but not further).
MPC_MAX_LEVEL = 2


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_evaluation(value: Any) -> int:
    """A user evaluation's result as an int inside the evaluation range, or a clear error."""
    if isinstance(value, (bool, float)):
        raise InvalidEvaluationError(f"an evaluation function must return an int, got {type(value).__name__} {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise InvalidEvaluationError(
            f"an evaluation function must return an int, got {type(value).__name__} {value!r}"
        ) from None
    if not -WIN < value < WIN:
        raise InvalidEvaluationError(f"an evaluation must lie strictly between -{WIN} and {WIN}, got {value}")
    return int(value)


def check_weights(weights: Any) -> list[int]:
    """The evaluation weights as a list of at most MAX_WEIGHTS ints within +-MAX_WEIGHT, or a clear error."""
    try:
        values = list(weights)
    except TypeError:
        raise InvalidEvaluationError(f"evaluation weights must be a sequence of ints, got {weights!r}") from None
    if len(values) > MAX_WEIGHTS:
        raise InvalidEvaluationError(f"at most {MAX_WEIGHTS} evaluation weights, got {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not -MAX_WEIGHT <= value <= MAX_WEIGHT:
            raise InvalidEvaluationError(
                f"an evaluation weight must be an int from -{MAX_WEIGHT} to {MAX_WEIGHT}, got {value!r}"
            )
    return [int(v) for v in values]


@dataclass(frozen=True)
class SearchLimits:
    """What one search may spend, as the engine hands it to every searcher (alpha-beta and
    minimax, Max^n, paranoid and BRS, MCTS; both twins): the deepest iteration (default: as
    deep as a search goes; MCTS has none), positions (MCTS: iterations; 0: no limit), seconds
    (0: no limit) of the wall clock or, with ``cpu_clock``, of the searching thread's CPU
    time. Checked by the search (:func:`check_search_limits`; MCTS's
    ``check_mcts_limits``), so a bad value is the same error in both twins."""

    depth: int = MAX_PLY - 1
    nodes: int = 0
    seconds: float = 0.0
    cpu_clock: bool = False

    def checked(self) -> tuple[int, int, float]:
        """``(depth, nodes, seconds)`` checked, or :class:`InvalidLimitError`."""
        return check_search_limits(self.depth, self.nodes, self.seconds)


def require_limits(limits: Any) -> SearchLimits:
    """``limits`` if it is a :class:`SearchLimits`, or :class:`InvalidLimitError` (the
    searchers' first check, the same in both twins)."""
    if not isinstance(limits, SearchLimits):
        raise InvalidLimitError(f"limits must be a SearchLimits, got {type(limits).__name__}")
    return limits


def check_search_limits(max_depth: Any, node_limit: Any, time_limit: Any) -> tuple[int, int, float]:
    """``(max_depth, node_limit, time_limit)`` checked: node_limit an int >= 0 (capped at
    MAX_NODE_LIMIT), time_limit a finite number of seconds >= 0 (0: none)."""
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or not 1 <= max_depth < MAX_PLY:
        raise InvalidLimitError(f"max_depth must be an int from 1 to {MAX_PLY - 1}, got {max_depth!r}")
    if isinstance(node_limit, bool) or not isinstance(node_limit, int) or node_limit < 0:
        raise InvalidLimitError(f"node_limit must be an int >= 0 (0: none), got {node_limit!r}")
    if not _is_number(time_limit) or not 0 <= time_limit < math.inf:
        raise InvalidLimitError(f"time_limit must be a finite number of seconds >= 0 (0: none), got {time_limit!r}")
    return int(max_depth), min(int(node_limit), MAX_NODE_LIMIT), float(time_limit)


def check_tt_mb(tt_mb: Any) -> float:
    """The transposition table's size in megabytes: a number from 0 (no table) to MAX_TT_MB."""
    if not _is_number(tt_mb) or not 0 <= tt_mb <= MAX_TT_MB:
        raise InvalidOptionError(f"tt_mb must be a number from 0 to {MAX_TT_MB}, got {tt_mb!r}")
    return float(tt_mb)


def check_algorithm(algorithm: Any, known: tuple[str, ...]) -> str:
    """``algorithm`` if it is one of ``known``."""
    if not isinstance(algorithm, str) or algorithm not in known:
        raise InvalidOptionError(f"algorithm must be one of {', '.join(known)}, got {algorithm!r}")
    return algorithm


def check_history(history: Any) -> float | None:
    """MCTS's progressive-history weight checked: None, or a finite number >= 0."""
    if history is None:
        return None
    if not _is_number(history) or not 0.0 <= history < math.inf:
        raise InvalidOptionError(f"history must be a finite number >= 0 or None, got {history!r}")
    return float(history)


def check_values(values: Any, players: int, lowest: int, highest_sum: int) -> list[int]:
    """A user evaluation's result: ``players`` ints, each >= ``lowest`` and inside +-WIN,
    adding up to at most ``highest_sum`` (the game's ``value_bounds()``), or InvalidEvaluationError."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)) or len(values) != players:
        raise InvalidEvaluationError(
            f"an n-player evaluation function must return a list of {players} ints (one per player), got {values!r}"
        )
    checked = []
    for value in values:
        if isinstance(value, (bool, float)):
            raise InvalidEvaluationError(f"an evaluation value must be an int, got {type(value).__name__} {value!r}")
        try:
            checked.append(operator.index(value))
        except TypeError:
            raise InvalidEvaluationError(
                f"an evaluation value must be an int, got {type(value).__name__} {value!r}"
            ) from None
    if min(checked) < lowest or sum(checked) > highest_sum or max(abs(v) for v in checked) >= WIN:
        raise InvalidEvaluationError(
            f"evaluation values must each be >= {lowest}, strictly between -{WIN} and {WIN}, and add up to at "
            f"most {highest_sum} (the game's value_bounds), got {checked}"
        )
    return checked


def check_root_moves(root_moves: Any) -> list[int] | None:
    """The move codes a search's root may play (None: every legal move), each an int from -2
    (``NO_MOVE``) to 125, the codes the searches' bitsets and history tables hold."""
    if root_moves is None:
        return None
    codes = list(root_moves)
    for m in codes:
        if type(m) is not int or not -2 <= m < 126:
            raise InvalidMoveError(f"root moves must be move codes from -2 to 125, got {m!r}")
    return codes


def check_solve_args(alpha: Any, beta: Any, node_limit: Any, time_limit: Any, nsq: int) -> tuple[int, int, int, float]:
    """``solve_exact``'s ``(alpha, beta, node_limit, time_limit)`` checked, on a board of ``nsq``
    squares: a window of ints within +-nsq (None: the whole), a node limit >= 0 and a finite
    time limit >= 0 (0: none)."""
    alpha = -nsq if alpha is None else alpha
    beta = nsq if beta is None else beta
    for name, value in (("alpha", alpha), ("beta", beta)):
        if type(value) is not int or not -nsq <= value <= nsq:
            raise InvalidOptionError(f"{name} must be None or an int from {-nsq} to {nsq}, got {value!r}")
    if alpha >= beta:
        raise InvalidOptionError(f"alpha must be below beta, got alpha={alpha}, beta={beta}")
    if type(node_limit) is not int or node_limit < 0:
        raise InvalidLimitError(f"node_limit must be an int >= 0 (0: no limit), got {node_limit!r}")
    if type(time_limit) not in (int, float) or not 0.0 <= time_limit < math.inf:
        raise InvalidLimitError(f"time_limit must be a finite number of seconds >= 0 (0: no limit), got {time_limit!r}")
    return alpha, beta, node_limit, float(time_limit)


def check_table_bits(bits: Any) -> int:
    """An ``EndgameTable``'s size checked: an int from MIN_TABLE_BITS to MAX_TABLE_BITS."""
    if type(bits) is not int or not MIN_TABLE_BITS <= bits <= MAX_TABLE_BITS:
        raise InvalidOptionError(
            f"table bits must be an int from {MIN_TABLE_BITS} to {MAX_TABLE_BITS} (2**bits entries), got {bits!r}"
        )
    return bits


def check_stats(stats: Any, progress: Any, nsq: int) -> None:
    """``solve_exact``'s measurement arrays checked: None, or ``array('Q')`` of at least
    ``STATS_FIELDS * (nsq + 1)`` counters (``_stats``), ``array('q')`` of at least three
    (``_progress``)."""
    for name, value, code, length in (
        ("_stats", stats, "Q", STATS_FIELDS * (nsq + 1)),
        ("_progress", progress, "q", 3),
    ):
        if value is not None and (getattr(value, "typecode", None) != code or len(value) < length):
            raise InvalidOptionError(f"{name} must be None or an array({code!r}) of at least {length} counters")


def check_eval_order(order: Any) -> tuple[int, int, int, int, int, int]:
    """The solver's evaluated ordering (tests and measurements: ``solve_exact(..., _eval_order=)``)
    checked: ``(from_empties, depth1_from, depth2_from, depth3_from, weight, pv_extra)``, ints,
    the empties from 0 to 128, the weight from 0 to 1000, pv_extra from 0 to 4; None: the
    defaults (``EVAL_ORDER``)."""
    if order is None:
        return EVAL_ORDER
    if (
        not isinstance(order, tuple)
        or len(order) != 6
        or any(type(x) is not int for x in order)
        or not all(0 <= x <= 128 for x in order[:4])
        or not 0 <= order[4] <= 1000
        or not 0 <= order[5] <= 4
    ):
        raise InvalidOptionError(
            "_eval_order must be None or (from_empties, depth1_from, depth2_from, depth3_from, weight, "
            f"pv_extra), ints, got {order!r}"
        )
    return order[0], order[1], order[2], order[3], order[4], order[5]


def check_greedy(greedy: Any) -> float | None:
    """MCTS's share of greedy playout moves checked: None, or a number from 0 to 1."""
    if greedy is None:
        return None
    if not _is_number(greedy) or not 0.0 <= greedy <= 1.0:
        raise InvalidOptionError(f"greedy must be a number from 0 to 1 or None, got {greedy!r}")
    return float(greedy)


def check_mcts_options(
    seed: Any, exploration: Any, max_nodes: Any, greedy: Any, history: Any
) -> tuple[int, float, int, float | None, float | None]:
    """An MCTS tree's options checked, as ``(seed, exploration, max_nodes, greedy, history)``:
    an int seed (any, taken modulo 2**64 by the generator), a positive finite exploration
    constant, a tree bound of at least one node, and ``check_greedy``/``check_history``."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"seed must be an int, got {type(seed).__name__}")
    if not _is_number(exploration) or not 0.0 < exploration < math.inf:
        raise InvalidOptionError(f"exploration must be a positive finite number, got {exploration!r}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
        raise InvalidOptionError(f"max_nodes must be an int >= 1, got {max_nodes!r}")
    return int(seed), float(exploration), int(max_nodes), check_greedy(greedy), check_history(history)


#: A checked Multi-ProbCut table: ``(shallow, slope, high, low)``. ``shallow[d]`` is the depth
#: of the probe of a node of remaining depth ``d`` (0: no probe); the others are flat lists of
#: ``MPC_EMPTIES * MPC_DEPTHS`` ints, index ``empties * MPC_DEPTHS + d``: ``slope`` the fit's
#: ``a`` in 1/MPC_SCALE (0: no probe there), ``high`` = ``t * sigma - b`` and ``low`` =
#: ``-t * sigma - b`` rounded, so that a probe proves ``v_deep >= beta`` when the shallow
#: search reaches ``ceil((beta + high) * MPC_SCALE / slope)`` and ``v_deep <= alpha`` when it
#: stays at or below ``floor((alpha + low) * MPC_SCALE / slope)``.
MPCTable = tuple[list[int], list[int], list[int], list[int]]


def check_mpc(mpc: Any) -> MPCTable | None:
    """A Multi-ProbCut table (``MPCTable``) checked, or None (no selective search)."""
    if mpc is None:
        return None
    size = MPC_EMPTIES * MPC_DEPTHS
    try:
        shallow, slope, high, low = (list(part) for part in mpc)
    except (TypeError, ValueError):
        raise InvalidOptionError("mpc must be None or a (shallow, slope, high, low) table") from None
    if len(shallow) != MPC_DEPTHS or len(slope) != size or len(high) != size or len(low) != size:
        raise InvalidOptionError(f"an mpc table has {MPC_DEPTHS} shallow depths and {size} entries per list")
    for d, s in enumerate(shallow):
        if type(s) is not int or not (s == 0 or 0 < s < d):
            raise InvalidOptionError(f"mpc shallow depth of depth {d} must be 0 or from 1 to {d - 1}, got {s!r}")
    for name, values, lo, hi in (
        ("slope", slope, 0, 64 * MPC_SCALE),
        ("high", high, -WIN // 4, WIN // 4),
        ("low", low, -WIN // 4, WIN // 4),
    ):
        for v in values:
            if type(v) is not int or not lo <= v <= hi:
                raise InvalidOptionError(f"mpc {name} values must be ints from {lo} to {hi}, got {v!r}")
    return shallow, slope, high, low


__getattr__ = renamed(__name__, {"MULTIPLAYER_ALGORITHMS": ("MULTIPLAYER_SEARCHES", MULTIPLAYER_SEARCHES)})
