"""MCTS (UCT): the two backends agree iteration for iteration, and the search is sound."""

from __future__ import annotations

import time

import pytest

from gamecore import _backend
from gamecore.errors import GameOverError, InvalidLimitError
from gamecore.games.othello import Othello
from gamecore.players import MCTSPlayer, RandomPlayer
from gamecore.search._options import SearchLimits
from gamecore.search.mcts import MCTS


@pytest.fixture
def backend(backend):
    """The name of the backend under test (the shared conftest fixture gives its modules)."""
    return backend.name


@pytest.fixture
def both(backends):
    return backends


def _othello_core(mods, size, record=()):
    core = mods.othello.OthelloCore(size)
    for move in record:
        core.push(move)
    return core


def _snapshot(tree):
    return (
        tree.iterations,
        tree.root_children(),
        tree.best_move(),
        tree.principal_variation(),
        tree.node_count,
        tree.root_visits,
        tree.max_depth,
        tree.rng_state,
    )


# -- the generator ----------------------------------------------------------------------


def test_splitmix64_reference_values(both):
    # Reference outputs of splitmix64 seeded with 0 (Vigna's splitmix64.c).
    expected = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    for mods in both:
        state, out = 0, []
        for _ in range(3):
            state, value = mods.game.splitmix64(state)
            out.append(value)
        assert out == expected, mods.name


# -- agreement between the backends ------------------------------------------------------


@pytest.mark.parametrize("size,seed,iterations", [(4, 0, 300), (6, 1, 800), (8, 2, 600), (8, 99, 257), (10, 3, 300)])
def test_backends_agree_on_othello(both, size, seed, iterations):
    py, cy = both
    snaps = []
    for mods in (py, cy):
        tree = mods.mcts.MCTSTree(seed=seed)
        core = _othello_core(mods, size)
        assert tree.search(core, SearchLimits(nodes=iterations)) == iterations
        first = _snapshot(tree)
        # Our move, the opponent's reply, then a second search reusing the subtree.
        core.push(tree.best_move())
        core.push(core.legal_moves()[-1])
        tree.search(core, SearchLimits(nodes=iterations // 2))
        snaps.append((first, _snapshot(tree)))
    assert snaps[0] == snaps[1]


def test_backends_agree_on_tetralath(both):
    py, cy = both
    if not hasattr(py, "tetralath"):
        pytest.skip("no Tetralath core in this build")
    snaps = []
    for mods in (py, cy):
        tree = mods.mcts.MCTSTree(seed=5, exploration=0.9)
        core = mods.tetralath.TetralathCore()
        tree.search(core, SearchLimits(nodes=400))
        first = _snapshot(tree)
        core.push(tree.best_move())
        core.push(core.legal_moves()[0])
        tree.search(core, SearchLimits(nodes=200))
        snaps.append((first, _snapshot(tree)))
    assert snaps[0] == snaps[1]


def test_public_wrapper_agrees(both):
    results = []
    for mods in both:
        game = Othello(6, backend=mods.name)
        game.push("b3")
        r = MCTS(seed=11, backend=mods.name).search(game, iterations=500)
        results.append((r.move, r.score, r.depth, r.pv, r.nodes, r.iterations, r.visits))
    assert results[0] == results[1]


# -- soundness ------------------------------------------------------------------------------


def test_visit_accounting(backend):
    mods = _backend.load(backend)
    tree = mods.mcts.MCTSTree(seed=3)
    core = _othello_core(mods, 6)
    before = core.zobrist(), core.history()
    tree.search(core, SearchLimits(nodes=500))
    assert (core.zobrist(), core.history()) == before  # the position is restored
    children = tree.root_children()
    assert [m for m, _, _ in children] == core.legal_moves()
    assert tree.root_visits == 500
    assert sum(v for _, v, _ in children) == 500  # every iteration goes through one root move
    assert all(0 <= w <= tree.REWARD_UNIT * v for _, v, w in children)
    best = max(children, key=lambda c: c[1])
    assert tree.best_move() == best[0]


def test_tree_reuse_keeps_the_subtree(backend):
    mods = _backend.load(backend)
    tree = mods.mcts.MCTSTree(seed=4)
    core = _othello_core(mods, 6)
    tree.search(core, SearchLimits(nodes=2000))
    best = tree.best_move()
    core.push(best)
    # The child's own visits: search one ply down with 1 iteration and compare.
    tree.search(core, SearchLimits(nodes=1))
    kept = tree.root_visits - 1
    assert kept > 100  # most of the best move's subtree survived
    reply = tree.best_move()
    grandchild_visits = dict((m, v) for m, v, _ in tree.root_children())[reply]
    core.push(reply)
    tree.search(core, SearchLimits(nodes=10))
    assert tree.root_visits == grandchild_visits + 10
    # An unrelated position starts a fresh tree.
    other = _othello_core(mods, 6)
    other.push(other.legal_moves()[0])
    other.push(other.legal_moves()[0])
    other.push(other.legal_moves()[0])
    if other.zobrist() != core.zobrist():
        tree.search(other, SearchLimits(nodes=10))
        assert tree.root_visits == 10


def _exact_value(game):
    """+1/0/-1 for the side to move under perfect play, by brute force (an independent truth)."""
    if game.is_game_over():
        b, w = game.score()
        return (b > w) - (b < w) if game.turn == 0 else (w > b) - (w < b)
    return max(-_exact_value(game.play(m)) for m in game.legal_moves())


def _endgames(backend, count, empties):
    """4x4 positions a few empties from the end where the choice of move matters."""
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = Othello(4, backend=backend)
        player = RandomPlayer(seed)
        while not game.is_game_over() and 16 - sum(game.score()) > empties:
            game.push(player.choose_move(game))
        if game.is_game_over() or game.legal_moves()[0].is_pass:
            continue
        values = {m: -_exact_value(game.play(m)) for m in game.legal_moves()}
        if len(set(values.values())) > 1:
            found.append((game, values))
    return found


def test_picks_the_best_move_in_small_endgames(backend):
    for game, values in _endgames(backend, 5, 6):
        result = MCTS(seed=2).search(game, iterations=2000)
        assert values[result.move] == max(values.values()), (game.to_text(), values, result.visits)


def test_node_budget_is_respected(backend):
    mods = _backend.load(backend)
    tree = mods.mcts.MCTSTree(seed=1, max_nodes=200)
    core = _othello_core(mods, 8)
    tree.search(core, SearchLimits(nodes=1000))
    assert tree.node_count <= 200
    assert tree.root_visits == 1000


def test_time_limit(backend):
    game = Othello(8, backend=backend)
    start = time.perf_counter()
    result = MCTS(seed=1).search(game, time_limit=0.2)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.2 + 0.15
    assert result.iterations >= 1
    assert result.move in game.legal_moves()


def test_errors(backend):
    mods = _backend.load(backend)
    tree = mods.mcts.MCTSTree()
    core = _othello_core(mods, 4)
    with pytest.raises(ValueError):
        tree.search(core, SearchLimits())  # no budget
    with pytest.raises(InvalidLimitError):
        tree.search(core, 10)  # a count, not a SearchLimits
    with pytest.raises(ValueError):
        tree.search(core, SearchLimits(nodes=-1))
    with pytest.raises(ValueError):
        mods.mcts.MCTSTree(exploration=0)
    with pytest.raises(ValueError):
        tree.best_move()  # nothing searched yet
    over = Othello.from_text("XXXXXXXXXXXXXXXX X", backend=backend)
    with pytest.raises(GameOverError):
        MCTS().search(over, iterations=10)
    with pytest.raises(ValueError):
        MCTS().search(Othello(4, backend=backend))


def test_mcts_beats_random(backend):
    wins = 0
    games = 4
    for seed in range(games):
        game = Othello(6, backend=backend)
        players = [MCTSPlayer(iterations=150, seed=seed), RandomPlayer(seed=seed + 100)]
        if seed % 2:
            players.reverse()
        while not game.is_game_over():
            game.push(players[game.turn].choose_move(game))
        outcome = game.outcome()
        mcts_side = 0 if seed % 2 == 0 else 1
        wins += outcome.winner == mcts_side
    assert wins >= 3


def test_reused_subtree_carries_visits_and_rewards(both):
    """After our move and the reply, the kept node's visits and per-player rewards are the
    new root's, on both backends alike."""
    seen = []
    for mods in both:
        tree = mods.mcts.MCTSTree(seed=6)
        core = _othello_core(mods, 6)
        tree.search(core, SearchLimits(nodes=1500))
        ours = tree.best_move()
        core.push(ours)
        replies = core.legal_moves()
        stats = {m: tree.node_rewards([ours, m]) for m in replies if _in_tree(tree, [ours, m])}
        reply = max(stats, key=lambda m: stats[m][0])
        kept_visits, kept_rewards = stats[reply]
        core.push(reply)
        tree.search(core, SearchLimits(nodes=1))
        assert tree.reused_visits == kept_visits > 0
        visits, rewards = tree.node_rewards()
        assert visits == kept_visits + 1
        assert sum(rewards) - sum(kept_rewards) == tree.REWARD_UNIT  # one more finished game paid out
        seen.append((ours, reply, kept_visits, kept_rewards, rewards))
    assert seen[0] == seen[1]


def _in_tree(tree, path):
    try:
        tree.node_rewards(path)
    except ValueError:
        return False
    return True
