"""Every bad option or limit is a gamecore error of the right kind, on both backends (issue 19,
section 4): ``InvalidOptionError`` for what names or tunes something, ``InvalidLimitError``
for how much to search, never a plain ``ValueError``, and never ``InvalidPositionError`` for a
time or a seed. Both are ``ValueError`` too, so older ``except ValueError`` clauses still
catch them. Bad MCTS options fail when the object is made, not at its first search.

Also here: the result names (``SearchResult.score`` of a proven result is the margin and
``proven`` says so; ``nodes`` is the states explored in every result) and the twins' shared
checks (``search/_options.py``, ``_protocol.py``).
"""

from __future__ import annotations

import math

import pytest

from gamecore import Engine, Othello, Rolit, Tetralath, search, solve
from gamecore.errors import (
    GamecoreError,
    IllegalMoveError,
    InvalidEvaluationError,
    InvalidLimitError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamecore.players import make_player
from gamecore.search import _options
from gamecore.search.mcts import MCTS

GAMES = {"othello": lambda b: Othello(6, backend=b), "tetralath": lambda b: Tetralath(backend=b), "rolit": Rolit}


def _raises(kind, call, *args, **kwargs):
    """``call`` raises exactly a ``kind`` (a GamecoreError and a ValueError)."""
    with pytest.raises(kind) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, GamecoreError) and isinstance(info.value, ValueError), info.value
    return info.value


BAD_ENGINE_OPTIONS = [
    ({"algorithm": "negascout"}, InvalidOptionError),
    ({"algorithm": 3}, InvalidOptionError),
    ({"tt_mb": -1}, InvalidOptionError),
    ({"tt_mb": 5000}, InvalidOptionError),
    ({"tt_mb": True}, InvalidOptionError),
    ({"tt_mb": "16"}, InvalidOptionError),
    ({"evaluation": "clever"}, InvalidOptionError),
    ({"evaluation": 3}, InvalidOptionError),
    ({"algorithm": "mcts", "evaluation": len}, InvalidOptionError),
    ({"endgame_empties": -1}, InvalidOptionError),
    ({"clock": "sundial"}, InvalidOptionError),
    ({"algorithm": "mcts", "exploration": -1}, InvalidOptionError),
    ({"algorithm": "mcts", "exploration": math.inf}, InvalidOptionError),
    ({"algorithm": "mcts", "max_nodes": 0}, InvalidOptionError),
    ({"algorithm": "mcts", "greedy": 2}, InvalidOptionError),
    ({"algorithm": "mcts", "history": -1}, InvalidOptionError),
    ({"algorithm": "mcts", "seed": "x"}, InvalidOptionError),
]


@pytest.mark.parametrize(("options", "kind"), BAD_ENGINE_OPTIONS, ids=[str(o) for o, _ in BAD_ENGINE_OPTIONS])
def test_a_bad_engine_option_fails_at_construction(options, kind):
    _raises(kind, Engine, **options)


@pytest.mark.parametrize(
    "options",
    [
        {"exploration": -1},
        {"exploration": 0},
        {"exploration": math.nan},
        {"max_nodes": 0},
        {"max_nodes": 1.5},
        {"greedy": -0.1},
        {"history": math.inf},
        {"seed": 1.5},
        {"clock": "wall-ish"},
    ],
)
def test_bad_mcts_options_fail_at_construction(backend, options):
    _raises(InvalidOptionError, MCTS, backend=backend.name, **options)
    _raises(InvalidOptionError, MCTS, **options)  # before any tree or backend exists
    if "clock" not in options:  # the trees of both backends check through the same function
        _raises(InvalidOptionError, backend.mcts.MCTSTree, **options)


BAD_LIMITS = [
    {},  # no limit at all
    {"depth": 0},
    {"depth": 100},
    {"depth": 2.5},
    {"nodes": 0},
    {"nodes": -5},
    {"time_limit": 0},
    {"time_limit": math.inf},
    {"time_limit": math.nan},
    {"time_limit": "1"},
]


@pytest.mark.parametrize("game", ["othello", "tetralath"])
@pytest.mark.parametrize("limits", BAD_LIMITS, ids=[str(x) for x in BAD_LIMITS])
def test_a_bad_search_limit_is_an_invalid_limit(backend, game, limits):
    position = GAMES[game](backend.name)
    _raises(InvalidLimitError, search, position, **limits)
    _raises(InvalidLimitError, Engine().search, position, **limits)


def test_bad_limits_of_the_other_searches(backend):
    rolit = Rolit(backend=backend.name)
    _raises(InvalidLimitError, search, rolit, algorithm="mcts", depth=3)  # MCTS counts iterations
    _raises(InvalidLimitError, MCTS().search, rolit)
    _raises(InvalidLimitError, MCTS().search, rolit, iterations=0)
    _raises(InvalidLimitError, solve, Othello(4, backend=backend.name), nodes=0)
    for depth in (-1, 2**31, 1.0, True, None):
        for position in (Othello(4, backend=backend.name), Tetralath(backend=backend.name), rolit):
            _raises(InvalidLimitError, position.perft, depth)
            _raises(InvalidLimitError, position.core.perft, depth)  # the core's own check, once in its base


def test_bad_evaluations_and_root_moves(backend):
    game = Othello(6, backend=backend.name)
    _raises(InvalidEvaluationError, search, game, depth=1, evaluation={"nonsense": 1})
    _raises(InvalidEvaluationError, search, game, depth=1, evaluation={"discs": 10**6})
    _raises(InvalidOptionError, search, Tetralath(backend=backend.name), depth=1, evaluation="learned")
    _raises(IllegalMoveError, search, game, depth=1, moves=["a1"])
    _raises(InvalidOptionError, search, game, depth=1, moves=[])
    _raises(InvalidOptionError, Engine(evaluation=len).evaluation_weights, game)
    _raises(InvalidPositionError, solve, Tetralath(backend=backend.name))  # no exact solver for it
    _raises(InvalidPositionError, search, "not a position", depth=1)


def test_the_backends_searchers_refuse_the_same_options_alike(backends):
    # Differential: the same bad call gets the same error class and message from both twins.
    py, cy = backends
    calls = [
        lambda b: b.alphabeta.Searcher(tt_mb=-1),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, max_depth=2, algorithm="maxn"),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, max_depth=200),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, max_depth=2, weights=[1] * 17),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, max_depth=2, time_limit=-1),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, max_depth=2, root_moves=[200]),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(Rolit(backend=b.name).core, [1], 2, 0, 0.0, "x"),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(Rolit(backend=b.name).core, [1] * 17, 2, 0, 0.0, "maxn"),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(Rolit(backend=b.name).core, [1], 0, 0, 0.0, "maxn"),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(Rolit(backend=b.name).core, [1], 2, -1, 0.0, "maxn"),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(
            Rolit(backend=b.name).core, [1], 2, 0, 0.0, "maxn", root_moves=[-3]
        ),
        lambda b: b.mcts.MCTSTree(0, -1.0),
        lambda b: b.rolit.RolitCore().count_leaves(-1) and b.rolit.RolitCore().perft(-1),
        lambda b: b.rolit.RolitCore().playouts(-1, 0),
        lambda b: b.rolit.RolitCore().playouts(1, "seed"),
    ]
    for call in calls:
        errors = []
        for b in (py, cy):
            with pytest.raises(GamecoreError) as info:
                call(b)
            assert isinstance(info.value, ValueError)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1]


def test_player_and_ui_options(backend):
    _raises(InvalidOptionError, make_player, "wizard")
    _raises(InvalidOptionError, make_player, "engine:colour=red")
    _raises(InvalidOptionError, make_player, "engine:depth=deep")
    _raises(InvalidLimitError, make_player, "engine:depth=0")
    _raises(InvalidLimitError, make_player, "mcts:iterations=0")
    _raises(InvalidOptionError, Othello(backend=backend.name).render, style="gothic")
    _raises(InvalidOptionError, Tetralath(backend=backend.name).render, lang="fr")
    _raises(InvalidOptionError, Tetralath, swap="yes", backend=backend.name)


def test_the_rolit_terminal_game_says_time_and_seed_are_not_positions():
    from gamecore.ui import rolit as ui  # noqa: PLC0415

    _raises(InvalidLimitError, ui.play, time=0)
    _raises(InvalidLimitError, ui.play, time=math.inf)
    _raises(InvalidOptionError, ui.play, seed="x")
    _raises(InvalidOptionError, ui.make_engine, "alphabeta-ish")


def test_a_proven_result_reads_as_the_solvers_disc_score(backend):
    # 4x4, 10 empties: the search solves it and reports the margin solve() gives, proven.
    game = Othello.from_moves("a2 a1 b1 c1 d1 a3", size=4, backend=backend.name)
    exact = solve(game)
    assert exact.completed and exact.exact
    for result in (
        search(game, time_limit=5.0, endgame_empties=16),  # the endgame solver under search()
        search(game, depth=12, endgame_empties=0),  # alpha-beta to the end, no solver
    ):
        assert result.score == exact.score and abs(result.score) <= 16
        assert result.proven == ("win" if exact.score > 0 else "loss" if exact.score < 0 else "draw")
        assert result.values[result.player] == result.score
    assert search(game, depth=2, endgame_empties=0).proven is None  # an evaluation, not proven


def test_nodes_are_states_explored_in_every_result(backend):
    game = Othello(6, backend=backend.name)
    mcts = MCTS(seed=3, backend=backend.name)
    found = mcts.search(game, iterations=50)
    # Each iteration plays at least one move into the tree or a playout: states >= iterations;
    # the tree has its own name, and grows by at most one node per iteration beyond the root's children.
    assert found.nodes == mcts.tree.states >= 50
    assert found.tree_size == mcts.tree.node_count
    assert found.tree_size <= 1 + len(game.legal_moves()) * 50
    result = Engine(algorithm="mcts", seed=3).search(game, nodes=50)
    assert result.nodes >= result.iterations == 50


def test_the_options_module_is_what_both_twins_use(backends):
    # The constants and checks live once: both twins hand out the very same objects.
    py, cy = backends
    for name in ("check_evaluation", "check_weights", "WIN", "MAX_PLY", "MAX_WEIGHT", "TT_ENTRY_BYTES"):
        assert getattr(py.alphabeta, name) is getattr(cy.alphabeta, name) is getattr(_options, name)
    assert py.multiplayer.check_values is cy.multiplayer.check_values is _options.check_values
    assert py.multiplayer.MULTIPLAYER_ALGORITHMS is cy.multiplayer.MULTIPLAYER_ALGORITHMS
