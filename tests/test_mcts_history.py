"""Progressive history in MCTS (Nijssen & Winands 2010), on both backends.

- For the same seed and iterations both backends give the same visits, rewards and history
  table, with history on by default (four players) and asked for in a two-player game.
- The table counts every move of every iteration, tree and playout, once: its visits add
  up to the search's states explored, and each player's rewards to the rewards of the
  iterations' results it made moves in (checked from the tree's own root totals).
- The term changes the search (against ``history=0`` on the same seed), and the default
  weight is 0 with two players (the two-player pins keep their meaning) and 5 with more.
"""

from __future__ import annotations

import pytest

from gamecore import Othello
from gamecore.search._options import SearchLimits
from rolit_helpers import rolit_after

HISTORY_MOVES = 128


def _run(mods, position, iterations, **options):
    tree = mods.mcts.MCTSTree(11, **options)
    tree.search(position.core.copy(), SearchLimits(nodes=iterations))
    return tree


@pytest.mark.parametrize("case", ["rolit-default", "rolit-w2", "othello-w3"])
def test_backends_agree_with_history(backends, case):
    results = []
    for mods in backends:
        if case.startswith("rolit"):
            options = {} if case == "rolit-default" else {"history": 2.0, "exploration": 0.5}
            position = rolit_after(mods.name)
        else:
            options = {"history": 3.0}
            position = Othello(6, backend=mods.name)
        tree = _run(mods, position, 500, **options)
        results.append((tree.root_children(), tree.node_rewards(), tree.node_count, tree.states, tree.history_table()))
    assert results[0] == results[1]


def test_the_table_counts_every_move_of_every_iteration(backend):
    position = rolit_after(backend.name)
    tree = _run(backend, position, 400)
    visits, rewards = tree.history_table()
    assert sum(visits) == tree.states > 0
    # One iteration pays REWARD_UNIT in all; a player's table rewards are its results times
    # the moves it made in that iteration, so each lies between its root reward and 60 times it.
    root_visits, root_rewards = tree.node_rewards()
    assert root_visits == 400 and sum(root_rewards) == 400 * tree.REWARD_UNIT
    for player, total in enumerate(root_rewards):
        own = sum(rewards[player * HISTORY_MOVES : (player + 1) * HISTORY_MOVES])
        assert total <= own <= 60 * total
    assert all(count == 0 for count in visits[4 * HISTORY_MOVES :])


def test_history_steers_the_search_and_its_defaults(backend):
    position = rolit_after(backend.name)
    with_history = _run(backend, position, 500)
    without = _run(backend, position, 500, history=0.0)
    assert with_history.root_children() != without.root_children()
    assert sum(without.history_table()[0]) > 0  # MAST (on by default here) keeps the table
    neither = _run(backend, position, 500, history=0.0, mast=False)
    assert sum(neither.history_table()[0]) == 0  # no one reads it: it is not kept
    two = _run(backend, Othello(6, backend=backend.name), 300)
    assert sum(two.history_table()[0]) == 0  # off with two players unless asked
    assert backend.mcts.history_weight(None, 4) == 5.0 and backend.mcts.history_weight(None, 2) == 0.0
    for bad in (-1.0, float("inf"), float("nan"), "5", True):
        with pytest.raises(ValueError):
            backend.mcts.MCTSTree(1, history=bad)
