"""The searches: minimax = alpha-beta, the table changes no score, both backends agree
node for node, limits hold, bad evaluations are refused."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore import Othello, Rolit, Tetralath, errors, solve
from gamecore.search import Engine, search


def random_position(size: int, plies: int, seed: int, backend: str) -> Othello:
    """A position reached by ``plies`` random legal moves from the start."""
    rng = random.Random(seed)
    game = Othello(size, backend=backend)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


positions = st.tuples(st.sampled_from([6, 8, 10]), st.integers(0, 40), st.integers(0, 2**32))


def disc_margin(position: Othello) -> int:
    """A user evaluation: disc difference for the side to move."""
    black, white = position.score()
    return black - white if position.turn == 0 else white - black


@settings(max_examples=15, deadline=None)
@given(spec=positions, depth=st.integers(1, 3))
def test_minimax_and_alphabeta_agree_on_the_root_score(backend, spec, depth):
    size, plies, seed = spec
    game = random_position(size, plies, seed, backend.name)
    before = game.to_text()
    plain = search(game, depth=depth, algorithm="minimax", evaluation="positional")
    pruned = search(game, depth=depth, algorithm="alphabeta", evaluation="positional")
    assert plain.score == pruned.score
    assert game.to_text() == before


def test_pruning_saves_nodes(backend):
    # Null-window re-searches may cost a few nodes on tiny trees; on a real one pruning wins.
    game = random_position(8, 12, 11, backend.name)
    plain = search(game, depth=4, algorithm="minimax")
    pruned = search(game, depth=4)
    assert plain.score == pruned.score
    assert pruned.nodes * 3 < plain.nodes


@settings(max_examples=15, deadline=None)
@given(spec=positions, depth=st.integers(1, 4))
def test_transposition_table_changes_no_score(backend, spec, depth):
    size, plies, seed = spec
    game = random_position(size, plies, seed, backend.name)
    with_table = search(game, depth=depth, tt_mb=1)
    without = search(game, depth=depth, tt_mb=0)
    assert with_table.score == without.score
    assert without.tt_hits == 0


@settings(max_examples=20, deadline=None)
@given(
    spec=st.tuples(st.sampled_from([4, 6, 8, 10]), st.integers(0, 50), st.integers(0, 2**32)),
    depth=st.integers(1, 3),
    aspiration=st.booleans(),
    evaluation=st.sampled_from(["standard", "discs", "mobility", "stability", {"corners": 3, "parity": 1}]),
)
def test_backends_agree_node_for_node(backends, spec, depth, aspiration, evaluation):
    size, plies, seed = spec
    results = []
    for backend in backends:
        game = random_position(size, plies, seed, backend.name)
        r = search(game, depth=depth, evaluation=evaluation, aspiration=aspiration, tt_mb=1)
        results.append((r.move, r.score, r.depth, r.pv, r.nodes, r.tt_hits))
    assert results[0] == results[1]


@settings(max_examples=10, deadline=None)
@given(spec=positions, budget=st.integers(1, 3000))
def test_backends_agree_under_a_node_budget(backends, spec, budget):
    size, plies, seed = spec
    results = []
    for backend in backends:
        game = random_position(size, plies, seed, backend.name)
        r = search(game, nodes=budget, tt_mb=1)
        results.append((r.move, r.score, r.depth, r.pv, r.nodes, r.tt_hits))
        if r.move is not None:
            assert r.move in game.legal_moves()
            assert r.nodes <= budget + 1
    assert results[0] == results[1]


@settings(max_examples=8, deadline=None)
@given(spec=positions, depth=st.integers(1, 3))
def test_backends_agree_with_a_python_evaluation(backends, spec, depth):
    size, plies, seed = spec
    results = []
    for backend in backends:
        game = random_position(size, plies, seed, backend.name)
        r = search(game, depth=depth, evaluation=disc_margin, tt_mb=1)
        results.append((r.move, r.score, r.pv, r.nodes))
        # The greedy built-in is the same function: the same search.
        builtin = search(game, depth=depth, evaluation="discs", tt_mb=1)
        assert (builtin.move, builtin.score, builtin.pv, builtin.nodes) == results[-1]
    assert results[0] == results[1]


def play_game(first, second, size: int) -> list[str]:
    """Play a whole game; each player is f(position) -> move."""
    game = Othello(size)
    players = (first, second)
    record = []
    while not game.is_game_over():
        move = players[game.turn](game)
        game.push(move.name)
        record.append(move.name)
    return record


def test_engines_of_both_backends_play_the_same_game(backends):
    records = []
    for backend in backends:
        engine = Engine("standard", tt_mb=1)
        opponent = Engine("positional", tt_mb=1)

        def ours(position, engine=engine, name=backend.name):
            mine = Othello.from_text(position.to_text(), backend=name)
            return engine.search(mine, depth=3).move

        def theirs(position, opponent=opponent):
            return opponent.search(Othello.from_text(position.to_text(), backend="python"), depth=2).move

        records.append(play_game(ours, theirs, 6))
    assert records[0] == records[1]
    assert len(records[0]) >= 28  # a 6x6 game fills (nearly) 32 squares


def test_time_limit_is_kept_over_a_whole_game(backend):
    # In CPU time: the search uses its limit whole, and on a loaded machine the wall clock
    # also counts the moments other processes hold the CPU (test_search_budget.py).
    limit = 0.2
    rng = random.Random(7)
    engine = Engine(clock="cpu")
    game = Othello(8, backend=backend.name)
    slowest = 0.0
    while not game.is_game_over():
        if game.turn == 0:
            start = time.thread_time()
            result = engine.search(game, time_limit=limit)
            took = time.thread_time() - start
            slowest = max(slowest, took)
            assert took < limit, f"answer took {took:.3f} s for a {limit} s limit"
            assert result.move in game.legal_moves()
            game.push(result.move)
        else:
            game.push(rng.choice(game.legal_moves()))
    assert slowest > limit / 4  # the engine used its time: the test measured something


def test_a_tiny_budget_still_gives_a_legal_move(backend):
    game = random_position(8, 10, 3, backend.name)
    result = search(game, nodes=1)
    assert result.depth == 0
    assert result.move in game.legal_moves()


def test_engine_keeps_its_table_between_searches(backend):
    game = random_position(8, 12, 5, backend.name)
    engine = Engine(tt_mb=1)
    first = engine.search(game, depth=4)
    again = engine.search(game, depth=4)
    assert again.score == first.score
    assert again.nodes < first.nodes  # the root's children are cut by the stored scores
    engine.clear()
    assert engine.search(game, depth=4).nodes == first.nodes


def test_proven_win_is_reported(backend):
    # Black to move takes the last empty square and wins every disc: a proven win.
    game = Othello.from_text("X" * 62 + "O-" + " X", backend=backend.name)
    result = search(game, depth=3)
    assert result.move.name == "h8"
    assert result.proven == "win"
    assert result.score == 64  # the final disc margin, as solve() gives it, not WIN + 64


def test_pass_is_searched_as_a_move(backend):
    # White has no move and must pass; black then plays.
    game = Othello.from_text("X" * 62 + "O-" + " O", backend=backend.name)
    assert [m.name for m in game.legal_moves()] == ["pass"]
    result = search(game, depth=2)
    assert result.move.is_pass


@pytest.mark.parametrize(
    "bad",
    [lambda p: 1.5, lambda p: True, lambda p: None, lambda p: "3", lambda p: 10**7, lambda p: -(10**6)],
)
def test_garbage_from_an_evaluation_is_refused_and_changes_nothing(backend, bad):
    game = random_position(8, 6, 1, backend.name)
    before = (game.to_text(), game.zobrist_hash(), game.move_stack)
    with pytest.raises(errors.InvalidEvaluationError):
        search(game, depth=2, evaluation=bad)
    assert (game.to_text(), game.zobrist_hash(), game.move_stack) == before


def test_an_evaluation_that_raises_propagates_and_changes_nothing(backend):
    game = random_position(8, 6, 1, backend.name)
    before = game.to_text()
    calls = []

    def broken(position):
        calls.append(1)
        if len(calls) > 5:
            raise RuntimeError("student bug")
        return 0

    with pytest.raises(RuntimeError, match="student bug"):
        search(game, depth=3, evaluation=broken)
    assert game.to_text() == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"depth": 0},
        {"depth": -1},
        {"depth": 2.5},
        {"depth": True},
        {"time_limit": 0},
        {"time_limit": "1"},
        {"nodes": -5},
        {"depth": 2, "evaluation": "no-such"},
        {"depth": 2, "evaluation": {"no-such": 1}},
        {"depth": 2, "evaluation": {"discs": 1.5}},
        {"depth": 2, "algorithm": "negascout"},
        {"depth": 2, "tt_mb": -1},
        {"depth": 500},
    ],
)
def test_bad_search_arguments_raise_value_error(backend, kwargs):
    game = Othello(backend=backend.name)
    with pytest.raises(ValueError):
        search(game, **kwargs)


def test_search_of_a_finished_game_returns_no_move(backend):
    game = Othello.from_text("X" * 64 + " O", backend=backend.name)
    result = search(game, depth=2)
    assert result.move is None
    assert (result.score, result.proven) == (-64, "loss")


@pytest.mark.parametrize("tt_mb", [0, 0.001, 1, 3, 16])
def test_table_size_is_a_power_of_two_within_the_budget(backend, tt_mb):
    searcher = backend.alphabeta.Searcher(tt_mb)
    entries = searcher.tt_entries
    assert searcher.tt_bytes() == entries * 16 <= tt_mb * 2**20
    if entries:
        assert entries & (entries - 1) == 0
        assert entries * 2 * 16 > tt_mb * 2**20  # the largest power of two that fits
    if backend.name == "python":  # the pure table really is that big, not a growing dict
        assert (
            searcher._keys.itemsize * len(searcher._keys) + searcher._data.itemsize * len(searcher._data)
            == searcher.tt_bytes()
        )


def test_backends_use_tables_of_the_same_size(backends):
    py, cy = backends
    for tt_mb in (0.5, 1, 7, 16, 64):
        assert py.alphabeta.Searcher(tt_mb).tt_entries == cy.alphabeta.Searcher(tt_mb).tt_entries


def test_search_hands_over_to_the_exact_solver_near_the_end(backend):
    game = random_position(8, 200, 21, backend.name)
    while game.is_game_over() or 64 - sum(game.score()) > 8:
        game = random_position(8, 52 + len(game.move_stack) % 3, len(game.move_stack) + 1, backend.name)
    result = search(game, time_limit=1.0)
    exact = solve(game)
    assert result.exact and result.algorithm == "endgame"
    assert result.score == exact.score  # the solver's disc score, not WIN + margin
    assert result.proven == ("win" if exact.score > 0 else "loss" if exact.score < 0 else "draw")
    # A fixed depth keeps the plain search (comparable node counts across backends).
    assert not search(game, depth=2).exact


def test_a_result_says_the_unit_of_its_score(backend):
    game = Othello(8, backend=backend.name)
    assert search(game, depth=2).score_unit == "hundredths of a disc (learned evaluation)"
    assert search(game, depth=2, evaluation="standard").score_unit == "points of the standard evaluation"
    assert search(game, depth=2, evaluation={"mobility": 1}).score_unit == "points of the given feature weights"
    assert search(Othello(4, backend=backend.name), depth=2).score_unit == "points of the standard evaluation"
    # 4x4 to the end: proven, so the score is the final margin in discs (as solve() gives it)
    proven = search(Othello(4, backend=backend.name), depth=20)
    assert proven.proven is not None and proven.score_unit == "discs: the final margin"
    assert search(Rolit(backend=backend.name), nodes=50).score_unit == "per mille: the win rate"
    assert search(Tetralath(backend=backend.name), depth=1).score_unit == "points of the standard evaluation"
