"""Max^n's transposition table and user evaluations in the n-player searches.

Truths:
- Max^n (with and without shallow pruning) returns at a fixed depth the same move, vector
  and principal variation with its table as without, and explores fewer states over a set
  of Rolit positions (the table settles transpositions; it keeps only exact vectors);
- a user evaluation is used at the horizon: the root value equals plain depth-limited
  recursions written here with that evaluation; one that returns the built-in values gives
  the built-in search node for node; both backends agree;
- the guards of the two-player search: the evaluation gets a copy (vandalising it changes
  nothing), a bad return is InvalidEvaluationError, its exceptions propagate, calling the
  engine from inside it is ConcurrentUseError, and the engine is usable afterwards.
"""

from __future__ import annotations

import pytest

from gamecore import Engine, Rolit, search
from gamecore.errors import ConcurrentUseError, InvalidEvaluationError
from gamecore.players import RandomPlayer
from gamecore.search._options import SearchLimits


def _position(backend_name, colours, plies, seed):
    game = Rolit(colours=colours, backend=backend_name)
    player = RandomPlayer(seed)
    for _ in range(plies):
        game.push(player.choose_move(game))
    return game


def _weights(position):
    return Engine().evaluation_weights(position)


def _multi(backend, position, algorithm, depth, tt_mb=1, **options):
    searcher = backend.multiplayer.MultiSearcher(tt_mb)
    return searcher.search_multi(position.core.copy(), _weights(position), SearchLimits(depth), algorithm, **options)


POSITIONS = [(c, plies, seed) for c in ("RYGB", "RYG", "RG") for plies, seed in ((4, 1), (20, 2), (44, 3))]


@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain"])
def test_maxn_table_same_result_fewer_states(backend, algorithm):
    # Four players transpose only from depth 5 (one player moving twice): too slow in pure Python.
    fast = backend.name == "cython"
    depths = (3, 4, 5) if fast else (3, 4)
    with_table = without = 0
    for colours, plies, seed in POSITIONS if fast else [p for p in POSITIONS if p[0] != "RYGB"]:
        game = _position(backend.name, colours, plies, seed)
        for depth in depths:
            plain = _multi(backend, game, algorithm, depth, tt_mb=0)
            tabled = _multi(backend, game, algorithm, depth, tt_mb=1)
            # move, score, values, depth, principal variation: the same
            assert tabled[:5] == plain[:5], (colours, plies, depth)
            assert plain[6] == 0 and tabled[5] <= plain[5]
            with_table += tabled[5]
            without += plain[5]
    assert with_table < without


def test_maxn_table_reports_its_memory_and_hits(backend):
    game = _position(backend.name, "RYGB", 20, 2)
    result = search(game, algorithm="maxn", depth=4, tt_mb=1)
    assert result.tt_hits > 0 and result.tt_bytes == 1 << 20  # half the entries, twice their size
    assert result.memory >= result.tt_bytes
    assert search(game, algorithm="maxn", depth=4, tt_mb=0).memory < 1 << 16


def test_maxn_table_backends_agree(backends):
    py, cy = backends
    for colours, plies, seed in POSITIONS:
        results = [_multi(mods, _position(mods.name, colours, plies, seed), "maxn", 3) for mods in (py, cy)]
        assert results[0] == results[1]


# -- user evaluations ----------------------------------------------------------------------


def balls(position):
    """Each player's balls now: an evaluation within Rolit's bounds (each >= 0, sum <= 64)."""
    return list(position.score().values())


def _limited(game, depth, root, kind):
    """Plain depth-limited recursions on a pure-Python position with the ``balls``
    evaluation: paranoid's and BRS's value for ``root``."""
    if game.is_game_over() or depth == 0:
        return balls(game)[root]
    if kind == "paranoid" or game.player == root:
        scores = [_limited(game.play(move), depth - 1, root, kind) for move in game.legal_moves()]
        return max(scores) if game.player == root else min(scores)
    # BRS's MIN layer: every opponent's moves, each followed by the root player's turn.
    scores = []
    for step in range(1, game.num_players):
        player = (root + step) % game.num_players
        base = game.core.copy()
        if base.to_move() != player:
            assert base.set_turn(player)
        for move in base.gen_moves():
            child = base.copy()
            child.make_move(move)
            if child.to_move() != root:
                assert child.set_turn(root)
            scores.append(_limited(type(game)._wrap(child, game._backend), depth - 1, root, kind))
    return min(scores)


@pytest.mark.parametrize("colours,plies,seed", [("RYGB", 8, 1), ("RYG", 30, 2), ("RG", 50, 3)])
def test_user_evaluation_equals_plain_recursion(backend, colours, plies, seed):
    game = _position(backend.name, colours, plies, seed)
    oracle = _position("python", colours, plies, seed)
    before = game.to_text(), list(game.move_stack)
    root = game.player
    for algorithm in ("paranoid", "brs"):
        for depth in (1, 2, 3):
            result = search(game, algorithm=algorithm, depth=depth, evaluation=balls)
            assert result.score == _limited(oracle, depth, root, algorithm), (algorithm, depth)
    # Max^n at depth 1: the mover's most balls after its move, the first such in move order.
    result = search(game, algorithm="maxn", depth=1, evaluation=balls)
    best = max(balls(game.play(m))[root] for m in game.legal_moves())
    assert result.values[root] == best == result.score
    assert result.values == balls(game.play(result.move))
    assert (game.to_text(), list(game.move_stack)) == before


@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain", "paranoid", "brs"])
def test_user_evaluation_of_builtin_values_is_the_builtin_search(backend, algorithm):
    game = _position(backend.name, "RYGB", 16, 4)
    weights = _weights(game)

    def builtin(position):
        core = Rolit.from_text(position.to_text(), backend="python").core  # the pure twin computes them
        return core.terminal_values() if core.is_terminal() else core.evaluate_players(weights)

    def wrap(core):
        return Rolit._wrap(core, game._backend)

    for depth in (2, 3):
        expected = _multi(backend, game, algorithm, depth)
        got = _multi(backend, game, algorithm, depth, evaluator=builtin, wrap=wrap)
        assert got == expected


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_user_evaluation_backends_agree(backends, algorithm):
    results = []
    for mods in backends:
        game = _position(mods.name, "RYGB", 12, 6)
        result = search(game, algorithm=algorithm, depth=3, evaluation=balls)
        results.append((result.move, result.score, result.values, result.pv, result.nodes))
    assert results[0] == results[1]


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_user_evaluation_gets_a_copy_it_may_change(backend, algorithm):
    game = _position(backend.name, "RYGB", 10, 7)

    def vandal(position):
        value = balls(position)
        while position.move_stack:
            position.pop()
        position.push(position.legal_moves()[-1])
        return value

    expected = search(game, algorithm=algorithm, depth=3, evaluation=balls)
    got = search(game, algorithm=algorithm, depth=3, evaluation=vandal)
    assert (got.move, got.score, got.values, got.nodes, got.pv) == (
        expected.move,
        expected.score,
        expected.values,
        expected.nodes,
        expected.pv,
    )
    assert len(game.move_stack) == 10


BAD_RETURNS = [
    7,  # not a list
    [1, 2, 3],  # one value short
    [1, 2, 3, 4, 5],
    [1.0, 2, 3, 4],
    [True, 2, 3, 4],
    ["1", 2, 3, 4],
    [-1, 2, 3, 4],  # below Rolit's lowest value
    [40, 20, 10, 0],  # more than 64 in all
    None,
]


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_bad_evaluation_results_are_refused(backend, algorithm):
    game = _position(backend.name, "RYGB", 6, 8)
    before = game.to_text()
    engine = Engine(lambda p: [16, 16, 16, 16], algorithm=algorithm)
    for bad in BAD_RETURNS:
        engine.evaluation = lambda p, bad=bad: bad
        with pytest.raises(InvalidEvaluationError):
            engine.search(game, depth=2)
    assert game.to_text() == before
    engine.evaluation = balls
    assert engine.search(game, depth=2).move in game.legal_moves()


@pytest.mark.parametrize("algorithm", ["maxn", "paranoid", "brs"])
def test_evaluation_exceptions_propagate_and_reentry_is_refused(backend, algorithm):
    game = _position(backend.name, "RYGB", 6, 9)

    def boom(position):
        raise ZeroDivisionError("from the evaluation")

    engine = Engine(boom, algorithm=algorithm)
    with pytest.raises(ZeroDivisionError, match="from the evaluation"):
        engine.search(game, depth=2)
    engine.evaluation = lambda p: engine.search(p, depth=1).values
    with pytest.raises(ConcurrentUseError):
        engine.search(game, depth=2)
    engine.evaluation = balls  # not left busy
    assert engine.search(game, depth=2).move in game.legal_moves()


def test_mcts_still_refuses_an_evaluation_function():
    with pytest.raises(ValueError, match="mcts"):
        Engine(balls, algorithm="mcts")
