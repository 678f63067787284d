"""Implicit minimax backups in MCTS (Lanctot, Winands, Pepels & Sturtevant 2014), on both backends.

- For the same seed, iterations and weights both backends grow the same tree: the same
  visits, rewards, implicit values, states and memory, also across a reused tree.
- Against an independent truth: every visited node whose children are all unvisited holds
  the game's ``evaluate_players`` of its own position (replayed on a fresh copy), and every
  node with a visited child holds the values of the visited child best for the player to
  move there (max^n, the first in move order on ties).
- ``implicit=0`` (the default) is the search as before: the same tree as without the
  option, no values kept, the same memory; any other value changes the search and counts
  4 bytes per player a node.
- Bad values are refused with InvalidOptionError; the engine and ``MCTS`` pass the option
  and the game's standard weights.
"""

from __future__ import annotations

import pickle

import pytest

from gamecore import Othello, Rolit
from gamecore.errors import InvalidOptionError
from gamecore.search import _mcts_rules
from gamecore.search._options import SearchLimits
from gamecore.search.engine import Engine
from gamecore.search.mcts import MCTS, _standard_weights
from rolit_helpers import rolit_after


def _run(mods, position, iterations, weights=None, **options):
    tree = mods.mcts.MCTSTree(11, **options)
    tree.search(position.core.copy(), SearchLimits(nodes=iterations), weights=weights)
    return tree


def _snapshot(tree, position, depth=2):
    """Visits, rewards and implicit values of every node down to ``depth`` plies, by path."""
    found = {}

    def walk(path, game):
        try:
            found[tuple(path)] = (tree.node_rewards(path), tree.node_implicit(path))
        except ValueError:
            return
        if len(path) < depth and not game.is_game_over():
            for move in game.legal_moves():
                game.push(move)
                walk([*path, move.index], game)
                game.pop()

    walk([], position.copy())
    return found


@pytest.mark.parametrize("case", ["rolit-0.4", "rolit-1.0-reused", "othello-0.5"])
def test_backends_agree_with_implicit_minimax(backends, case):
    results = []
    for mods in backends:
        alpha = float(case.split("-")[1])
        position = rolit_after(mods.name) if case.startswith("rolit") else Othello(6, backend=mods.name)
        weights = _standard_weights(position)
        tree = _run(mods, position, 500, weights, implicit=alpha)
        if case.endswith("reused"):
            for _ in range(position.num_players):  # a round later: the tree is reused
                position.push(position.legal_moves()[0])
            tree.search(position.core.copy(), SearchLimits(nodes=300), weights=weights)
            assert tree.reused_visits > 0
        results.append(
            (
                tree.root_children(),
                _snapshot(tree, position),
                tree.node_count,
                tree.states,
                tree.memory_bytes(),
                tree.best_move(),
            )
        )
    assert results[0] == results[1]


def test_the_values_are_evaluations_backed_up_as_max_n(backend):
    position = rolit_after(backend.name, plies=10)
    weights = _standard_weights(position)
    tree = _run(backend, position, 800, weights, implicit=0.5)
    checked_leaves = checked_inner = 0

    def check(path, game):
        nonlocal checked_leaves, checked_inner
        visits, _ = tree.node_rewards(path)
        values = tree.node_implicit(path)
        assert len(values) == 4
        children = []
        for move in game.legal_moves():
            try:
                child_visits, _ = tree.node_rewards([*path, move.index])
            except ValueError:
                continue
            if child_visits:
                children.append(move)
        if not children:
            if path:  # the root was never a new leaf
                assert values == game.core.evaluate_players(weights)
                checked_leaves += 1
            return
        mover = game.core.to_move()
        best = None
        for move in children:  # in move order: the first wins ties
            value = tree.node_implicit([*path, move.index])
            if best is None or value[mover] > best[mover]:
                best = value
        assert values == best
        checked_inner += 1
        for move in children:
            game.push(move)
            check([*path, move.index], game)
            game.pop()

    check([], _python_copy(position))
    assert checked_leaves > 50 and checked_inner > 20


def _python_copy(position):
    """The same position on the pure backend: the truth is computed by the pure core."""
    game = Rolit(backend="python")
    for move in position.move_stack:
        game.push(move.index)
    return game


#: A four-player Rolit search (seed 11, 400 iterations, 6 random plies of RandomPlayer(2)) by
#: the code before implicit minimax (main at 381c7c3, both backends): (root children, nodes,
#: states). MAST off (on by default with four players and no time limit, it came later).
BEFORE = ([(10, 116, 420), (42, 73, 192), (44, 110, 390), (46, 101, 336)], 827, 21600)


def test_off_is_the_search_as_before(backend):
    position = rolit_after(backend.name)
    zero = _run(backend, position, 400, _standard_weights(position), implicit=0.0, mast=False)
    on = _run(backend, position, 400, _standard_weights(position), implicit=0.3, mast=False)
    assert zero.implicit == 0.0 and zero.node_implicit() == []
    assert (zero.root_children(), zero.node_count, zero.states) == BEFORE
    assert zero.memory_bytes() == (24 + 8 * 4) * zero.node_count
    assert on.root_children() != zero.root_children()
    assert on.memory_bytes() == (24 + 12 * 4) * on.node_count
    copy = pickle.loads(pickle.dumps(on))
    assert copy.implicit == 0.3 and copy.rng_state == on.rng_state
    assert backend.mcts.MCTSTree(1).implicit is None


def test_bad_values_are_refused(backend):
    for bad in (-0.1, 1.5, float("nan"), float("inf"), "0.5", True):
        with pytest.raises(InvalidOptionError):
            backend.mcts.MCTSTree(1, implicit=bad)
        with pytest.raises(InvalidOptionError):
            MCTS(implicit=bad)
    tree = backend.mcts.MCTSTree(1, implicit=0.5)
    core = Rolit(backend=backend.name).core.copy()
    for bad in ([1] * 65, "12345", [1, 2.5], [True], [2**40]):
        with pytest.raises(InvalidOptionError):
            tree.search(core, SearchLimits(nodes=10), weights=bad)


def test_engine_and_mcts_pass_the_option(backend):
    position = rolit_after(backend.name)
    engine = Engine(algorithm="mcts", seed=3, implicit=0.5)
    result = engine.search(position, nodes=300)
    assert result.move in position.legal_moves()
    tree = engine._mcts.tree
    assert tree.implicit == 0.5 and len(tree.node_implicit()) == 4
    # The weights are the game's standard evaluation, in the order of its features.
    table = Rolit.EVALUATIONS["standard"]
    assert _standard_weights(position) == [table.get(name, 0) for name in position.features()]
    assert any(_standard_weights(position))


def test_the_default_depends_on_the_players_and_a_tree_follows_it(backends, monkeypatch):
    assert _mcts_rules.implicit_weight(None, 2) == 0.0
    assert _mcts_rules.implicit_weight(None, 4) == _mcts_rules.MULTIPLAYER_IMPLICIT
    assert _mcts_rules.implicit_weight(0.25, 2) == 0.25
    monkeypatch.setattr(_mcts_rules, "MULTIPLAYER_IMPLICIT", 0.5)
    seen = []
    for mods in backends:
        tree = mods.mcts.MCTSTree(5)  # implicit=None: by the number of players
        steps = []
        for position in (rolit_after(mods.name), Othello(6, backend=mods.name), Rolit(players=3, backend=mods.name)):
            tree.search(position.core.copy(), SearchLimits(nodes=200), weights=_standard_weights(position))
            players = position.num_players
            values = tree.node_implicit()
            assert len(values) == (players if players > 2 else 0)
            per_player = 12 if players > 2 else 8
            assert tree.memory_bytes() == (24 + per_player * players) * tree.node_count
            steps.append((tree.root_children(), values, tree.node_count))
        seen.append(steps)
    assert seen[0] == seen[1]


def test_the_default_is_off_in_short_searches_where_it_played_worse():
    # 0.2 s a move: the plain search won 30 of 48, alpha 0.6 22 of 48; 0.5 s and 1 s: alpha 0.6
    # played better (docs/performance.md). A 1 s move's MCTS after an unfinished exact endgame
    # gets about half of it, above the line.
    short, line = 0.2, _mcts_rules.IMPLICIT_FROM_SECONDS
    assert _mcts_rules.implicit_weight(None, 4, short) == 0.0
    assert _mcts_rules.implicit_weight(None, 4, line) == _mcts_rules.MULTIPLAYER_IMPLICIT
    assert _mcts_rules.implicit_weight(None, 4, 0.48) == _mcts_rules.MULTIPLAYER_IMPLICIT
    assert _mcts_rules.implicit_weight(None, 4, 0.0) == _mcts_rules.MULTIPLAYER_IMPLICIT  # no time limit
    assert _mcts_rules.implicit_weight(None, 2, 5.0) == 0.0
    assert _mcts_rules.implicit_weight(0.25, 4, short) == 0.25  # a weight asked for is a weight kept


def test_a_short_timed_search_keeps_no_implicit_values_and_a_long_one_does(backends):
    for mods in backends:
        for time_limit, expected in ((0.1, 0), (30.0, 4)):
            tree = mods.mcts.MCTSTree(3)
            position = rolit_after(mods.name)
            tree.search(
                position.core.copy(), SearchLimits(nodes=300, seconds=time_limit), weights=_standard_weights(position)
            )
            assert len(tree.node_implicit()) == expected, (mods.name, time_limit)
