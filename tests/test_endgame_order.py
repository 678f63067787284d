"""The exact solver's evaluated move ordering (``EVAL_ORDER``, ``_endgame_py.shallow_value``).

On boards with learned weights, deep_search adds a shallow search's value of each move (the
learned evaluation) to its fastest-first key. It may only change the order, never a score:

- the twins visit the same nodes with it (defaults, and low thresholds that make it busy on
  small positions; 6x6, 8x8, and 10x10 with random weights for the wide layout);
- its scores are those of the fastest-first ordering alone and of minimax;
- sizes without weights (4x4 as shipped, 8x8 with its weights removed) solve exactly
  as without it;
- ``shallow_value`` is the negamax value of the learned evaluation written here without
  alpha-beta; it engages on FFO #40 (fewer nodes than without it);
- bad ``_eval_order`` values are refused.
"""

from __future__ import annotations

import functools
import random
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.errors import InvalidOptionError
from gamecore.games import _othello_patterns as patterns
from gamecore.games import _othello_py as pure
from gamecore.search import _endgame_py
from gamecore.search._options import EVAL_ORDER
from test_endgame import FFO, core_from, empties, minimax, random_endgame, solve_exact

#: The fastest-first ordering alone: the evaluated ordering from more empties than any board has.
OFF = (128, 128, 128, 128, 0, 0)


@st.composite
def orders(draw):
    """An evaluated ordering busy from few empties (deep_search runs from 6)."""
    start = draw(st.integers(6, 10))
    depth1 = draw(st.integers(start, 12))
    depth2 = draw(st.integers(depth1, 14))
    depth3 = draw(st.integers(depth2, 16))
    return start, depth1, depth2, depth3, draw(st.sampled_from([0, 1, 64, 128, 1000])), draw(st.integers(0, 2))


def endgame(mod, size: int, target: int, seed: int):
    rng = random.Random(seed)
    if size == 8:
        black, white, turn, _ = FFO[40 + seed % 20]
        return random_endgame(mod, 8, target, rng, start=(black, white, turn))
    return random_endgame(mod, size, target, rng)


@given(st.sampled_from([6, 8]), st.integers(8, 13), st.integers(0, 2**16), orders())
@settings(max_examples=25, deadline=None)
def test_twins_agree_with_the_evaluated_ordering(backends, size, target, seed, order):
    py, cy = backends
    core = endgame(py.othello, size, target, seed)
    a = solve_exact(core, _eval_order=order)
    b = solve_exact(core_from(cy.othello, size, *core.bitboards(), core.turn), _eval_order=order)
    assert a == b
    assert a[1] == solve_exact(core, _eval_order=OFF)[1]


def test_twins_agree_at_the_defaults_from_ffo(backends):
    """The default ordering, busy from 16 empties (depth 1 from 18): the first 40,000 nodes
    of a 20-empty FFO position and a solve of 16 empties."""
    py, cy = backends
    black, white, turn, _ = FFO[40]
    for core in (
        core_from(py.othello, 8, black, white, turn),
        random_endgame(py.othello, 8, 16, random.Random(3), start=(black, white, turn)),
    ):
        assert empties(core) >= EVAL_ORDER[0]
        a = solve_exact(core, node_limit=40_000)
        b = solve_exact(core_from(cy.othello, 8, *core.bitboards(), core.turn), node_limit=40_000)
        assert a == b


@pytest.mark.parametrize("size,target", [(6, 10), (8, 9)])
def test_scores_are_minimax(backend, size, target):
    order = (6, 7, 8, 9, 128, 1)  # every deep node evaluates, three plies from 9 empties, one more in PV nodes
    for seed in range(4):
        core = endgame(backend.othello, size, target, seed)
        move, score, _, done = solve_exact(core, _eval_order=order)
        assert done
        assert score == minimax(*core.bitboards(), core.turn, size)
        if not core.is_game_over():
            child = core.copy()
            child.push(move)
            assert -solve_exact(child, _eval_order=order)[1] == score


@pytest.mark.parametrize("size", [4])  # the one size that ships no weights (6, 8 and 10 do)
def test_sizes_without_weights_solve_as_before(backend, size):
    """No learned weights (as shipped): the ordering is fastest-first alone, node for node."""
    if patterns.load_table(size) is not None:
        pytest.skip(f"{size}x{size} ships weights now")
    for seed in range(3):
        core = endgame(backend.othello, size, 12 if size == 4 else 9, seed)
        assert solve_exact(core, _eval_order=(6, 6, 6, 6, 128, 2)) == solve_exact(core, _eval_order=OFF)


def test_weights_removed_solve_as_before(backends):
    """8x8 with its weights removed (set_pattern_weights(8, None)) orders fastest-first alone."""
    core = endgame(backends[0].othello, 8, 12, 5)
    with_weights = [
        solve_exact(core_from(b.othello, 8, *core.bitboards(), core.turn), _eval_order=(6, 8, 10, 12, 128, 1))
        for b in backends
    ]
    try:
        for b in backends:
            b.othello.set_pattern_weights(8, None)
        without = [
            solve_exact(core_from(b.othello, 8, *core.bitboards(), core.turn), _eval_order=(6, 8, 10, 12, 128, 1))
            for b in backends
        ]
    finally:
        for b in backends:
            b.othello.set_pattern_weights(8, patterns.load_table(8))
    off = solve_exact(core, _eval_order=OFF)
    assert without == [off, off]
    assert with_weights[0] == with_weights[1] != off  # the weights were in use before
    assert with_weights[0][1] == off[1]


@functools.cache
def random_table(n: int) -> array:
    ps = patterns.pattern_set(n)
    return array("h", array("b", random.Random(n).randbytes(ps.stride * ps.stages)))


def test_ten_by_ten_with_weights(backends):
    """10x10 (the compiled wide layout) with random weights installed: the twins agree."""
    py, cy = backends
    try:
        for b in backends:
            b.othello.set_pattern_weights(10, random_table(10))
        for seed in range(3):
            core = endgame(py.othello, 10, 9, seed)
            a = solve_exact(core, _eval_order=(6, 7, 8, 9, 100, 2))
            b = solve_exact(core_from(cy.othello, 10, *core.bitboards(), core.turn), _eval_order=(6, 7, 8, 9, 100, 2))
            assert a == b
            assert a[1] == solve_exact(core, _eval_order=OFF)[1]
    finally:
        for b in backends:
            b.othello.set_pattern_weights(10, patterns.load_table(10))


def negamax(player: int, opponent: int, depth: int, n: int) -> int:
    """The learned evaluation's negamax value, every line searched (no alpha-beta)."""
    if depth == 0:
        return pure.pattern_score(player, opponent, n)
    moves = pure.legal_moves_mask(player, opponent, n)
    if not moves:
        if not pure.legal_moves_mask(opponent, player, n):
            return patterns.SCALE * pure.final_score(player, opponent, n * n)
        return -negamax(opponent, player, depth - 1, n)
    values = []
    for sq in range(n * n):
        if moves >> sq & 1:
            f = pure.flips(player, opponent, sq, n)
            values.append(-negamax(opponent ^ f, player | f | (1 << sq), depth - 1, n))
    return max(values)


@pytest.mark.parametrize("size", [6, 8])
def test_shallow_value_is_negamax(size):
    rng = random.Random(size)
    bound = patterns.MAX_PATTERN_SCORE + 1
    for _ in range(6):
        core = random_endgame(pure, size, rng.randint(6, size * size - 12), rng)
        solver = _endgame_py.EndgameSolver(size)
        player, opponent = core.bitboards() if core.turn == 0 else core.bitboards()[::-1]
        moves = pure.legal_moves_mask(player, opponent, size)
        for depth in (0, 1, 2, 3):
            before = solver.nodes
            assert solver.shallow_value(player, opponent, moves, depth, -bound, bound) == negamax(
                player, opponent, depth, size
            )
            assert solver.nodes > before  # each evaluation counts


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_it_engages_on_ffo_40(backend):
    """The default ordering solves FFO #40 (20 empties) right, fastest-first alone in
    15,733,166 nodes; with the 8x8 weights shipped before 0.2 (``engine:v2``'s) in
    12,159,851, with today's in 16,104,799 (#40 is one the new weights order worse: on
    #40-#45 they take 578 M nodes against 636 M, docs/learned-evaluation.md; with
    ETC_EMPTIES 10 these were 15,511,312, 11,987,299 and 15,820,103). Pinned: a change of
    EVAL_ORDER, the learned weights or the solver changes them; update knowingly."""
    black, white, turn, scores = FFO[40]
    core = core_from(backend.othello, 8, black, white, turn)
    move, score, nodes, done = solve_exact(core)
    off = solve_exact(core, _eval_order=OFF)
    assert off[2] == 15_733_166
    assert done and score == off[1] == 38 and scores.get(move) == 38
    assert nodes == 16_104_799
    core.use_weights(patterns.load_weights(patterns.data_path("othello8-v2.patterns")))
    move, score, nodes, done = solve_exact(core)
    assert done and score == 38 and scores.get(move) == 38
    assert nodes == 12_159_851 < off[2]


@pytest.mark.parametrize(
    "order",
    [
        [16, 18, 20, 99, 128, 0],
        (16, 18, 20, 99, 128),
        (16, 18, 20, 99, 128, 0, 0),
        (16, 18, 20, 99, 1001, 0),
        (-1, 18, 20, 99, 128, 0),
        (16, 18, 20, 129, 1, 0),
        (16, 18, 20, 99, 128, 5),
        (16.0, 18, 20, 99, 128, 0),
        (16, 18, 20, 99, 128, True),
        "x",
    ],
)
def test_bad_eval_order(backend, order):
    core = core_from(backend.othello, 8, *FFO[40][:3])
    with pytest.raises(InvalidOptionError):
        solve_exact(core, _eval_order=order)


def test_node_limit_is_checked_inside_the_ordering(backends):
    """The root of FFO #40 evaluates hundreds of positions to order its moves (three plies at
    20 empties in an open window): a node limit stops it there, in both twins alike."""
    py, cy = backends
    black, white, turn, _ = FFO[40]
    found = [solve_exact(core_from(b.othello, 8, black, white, turn), node_limit=1) for b in (py, cy)]
    assert found[0] == found[1]
    move, score, nodes, done = found[0]
    assert (move, score, done) == (None, 0, False)
    assert 1 < nodes < 60


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_node_limit_holds_inside_ten_by_ten_shallow_searches(backends, seed):
    """On 10x10 one shallow search of the evaluated ordering (two plies, three in an open
    window, at 24 empties) evaluates hundreds to thousands of positions: the limits are
    checked inside it, so a node limit of 1 or 50 stops the solve a few dozen nodes past it
    (1311 nodes for a limit of 1 when they were checked only between the root's moves), in
    both twins alike. The time limit and Ctrl-C are read by the same check."""
    py, cy = backends
    for limit in (1, 50):
        found = [solve_exact(endgame(b.othello, 10, 24, seed), node_limit=limit) for b in (py, cy)]
        assert found[0] == found[1]
        move, score, nodes, done = found[0]
        assert (move, score, done) == (None, 0, False)
        assert limit < nodes <= limit + 40


def test_twins_agree_at_the_defaults_on_ten_by_ten(backends):
    """The default ordering with the shipped 10x10 weights (the other 10x10 test installs
    random ones and its own thresholds): the first 5,000 nodes from 20 empties and a solve
    of 16, node for node."""
    py, cy = backends
    for target, limit in ((20, 5_000), (16, 0)):
        core = endgame(py.othello, 10, target, 5)
        assert empties(core) >= EVAL_ORDER[0]
        a = solve_exact(core, node_limit=limit)
        b = solve_exact(core_from(cy.othello, 10, *core.bitboards(), core.turn), node_limit=limit)
        assert a == b


def test_engine_stop_reaches_the_exact_solver(backend):
    """Engine.stop() from another thread ends an exact solve the engine started (10x10 at
    20 empties with the evaluated ordering: seconds of CPU in C, far longer in pure Python)
    at the solver's next look at its clock, and the search answers with its fallback (not
    exact). Before, the solver ran on to its end: 1.5 s after stop() in the compiled backend.
    The flag set before a solve stops it at its first look."""
    import threading  # noqa: PLC0415

    from gamecore import Engine, Othello  # noqa: PLC0415

    name = "cython" if backend.othello.__name__.endswith("_cy") else "python"
    rng = random.Random(3)
    game = Othello(10, backend=name)
    while 100 - sum(game.score()) > 20:
        game.push(rng.choice(list(game.legal_moves())))
    assert not game.is_game_over()
    move, score, nodes, done = solve_exact(game.core.copy(), _stop=bytearray(b"\x01"))
    assert (move, score, done) == (None, 0, False) and nodes <= 4096 + 100
    engine = Engine(endgame_empties=20)
    found = {}
    thread = threading.Thread(target=lambda: found.setdefault("r", engine.search(game, time_limit=600)))
    thread.start()
    while engine._endgame_stop is None and thread.is_alive():
        threading.Event().wait(0.01)
    engine.stop()
    thread.join(60)
    assert not thread.is_alive()
    assert not found["r"].exact
