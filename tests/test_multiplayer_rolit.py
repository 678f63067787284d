"""The n-player searches and MCTS on Rolit (2, 3 and 4 players).

- Max^n with shallow pruning returns plain Max^n's move and vector at the same depth,
  exploring fewer states;
- near the end of the game (few empties) paranoid, BRS and Max^n equal plain exhaustive
  recursions written here over the pure core (``set_turn`` lets BRS's opponents move out
  of turn);
- both backends visit the same nodes, and MCTS gives the same visits and rewards for the
  same seed and iterations;
- MCTS tree reuse: after our move and the three replies, the kept node's visits and
  rewards are the new root's.
"""

from __future__ import annotations

import io

import pytest

from gamecore import Rolit, search
from gamecore.bench.multiplayer import bench_multiplayer
from gamecore.errors import InvalidPositionError
from gamecore.players import RandomPlayer, make_player
from gamecore.search._options import SearchLimits
from gamecore.search.engine import Engine

COLOURS = ["RYGB", "RYG", "RG"]


def _position(backend_name, colours, plies, seed):
    game = Rolit(colours=colours, backend=backend_name)
    player = RandomPlayer(seed)
    for _ in range(plies):
        game.push(player.choose_move(game))
    return game


def _multi(backend, position, algorithm, depth, nodes=0):
    weights = Engine()._weights(position)[0]
    searcher = backend.multiplayer.MultiSearcher(1)
    return searcher.search_multi(position.core.copy(), weights, SearchLimits(depth, nodes), algorithm)


POSITIONS = [(colours, plies, seed) for colours in COLOURS for plies, seed in ((0, 0), (9, 1), (25, 2), (40, 3))]


def test_shallow_pruning_same_result_fewer_states(backend):
    saved = 0
    for colours, plies, seed in POSITIONS:
        game = _position(backend.name, colours, plies, seed)
        for depth in (2, 3, 4) if backend.name == "cython" else (2, 3):
            pruned = _multi(backend, game, "maxn", depth)
            plain = _multi(backend, game, "maxn-plain", depth)
            assert pruned[:5] == plain[:5], (colours, plies, depth)
            assert pruned[5] <= plain[5]
            saved += plain[5] - pruned[5]
    assert saved > 0


@pytest.mark.parametrize("algorithm", ["maxn", "maxn-plain", "paranoid", "brs"])
def test_backends_agree_node_for_node(backends, algorithm):
    py, cy = backends
    for colours, plies, seed in POSITIONS:
        for depth in (1, 2, 3):
            results = [_multi(mods, _position(mods.name, colours, plies, seed), algorithm, depth) for mods in (py, cy)]
            assert results[0] == results[1], (colours, plies, depth)
    # A node-limited deep search stops at the same node.
    results = [_multi(mods, _position(mods.name, "RYGB", 20, 7), algorithm, 8, nodes=3000) for mods in (py, cy)]
    assert results[0] == results[1]


# -- exhaustive oracles over the pure core, near the end of the game ---------------------


def _paranoid(core, root):
    moves = core.gen_moves()
    if not moves:
        return core.terminal_values()[root]
    scores = []
    for move in moves:
        core.make_move(move)
        scores.append(_paranoid(core, root))
        core.unmake_move()
    return max(scores) if core.to_move() == root else min(scores)


def _maxn(core):
    moves = core.gen_moves()
    if not moves:
        return core.terminal_values()
    mover, best = core.to_move(), None
    for move in sorted(moves, key=lambda m: -core.order_key(m)):
        core.make_move(move)
        values = _maxn(core)
        core.unmake_move()
        if best is None or values[mover] > best[mover]:
            best = values
    return best


def _brs(core, root, ply=0):
    moves = core.gen_moves()
    if not moves:
        return core.terminal_values()[root]
    scores = []
    if ply % 2 == 0:
        for move in moves:
            core.make_move(move)
            scores.append(_brs(core, root, ply + 1))
            core.unmake_move()
        return max(scores)
    for step in range(1, core.num_players()):
        player = (root + step) % core.num_players()
        assert core.set_turn(player)
        for move in core.gen_moves():
            core.make_move(move)
            assert core.set_turn(root)
            scores.append(_brs(core, root, ply + 1))
            core.unmake_move()
            core.unmake_move()
        core.unmake_move()
    return min(scores)


@pytest.mark.parametrize("colours,seed", [("RYGB", 11), ("RYGB", 12), ("RYG", 13), ("RG", 14)])
def test_endgame_equals_exhaustive_oracles(backend, colours, seed):
    empties = 6
    game = _position(backend.name, colours, 60 - empties, seed)
    pure = _position("python", colours, 60 - empties, seed).core
    root = pure.to_move()
    before = pure.key()
    paranoid = _paranoid(pure, root)
    maxn = _maxn(pure)
    brs = _brs(pure, root)
    assert pure.key() == before
    for algorithm, expected in (("paranoid", paranoid), ("brs", brs), ("maxn", maxn[root]), ("maxn-plain", maxn[root])):
        move, score, values, depth, pv, nodes, hits, exact, memory = _multi(backend, game, algorithm, 30)
        assert exact and score == expected, algorithm
        if algorithm.startswith("maxn"):
            assert values == maxn
    # Through the public API: the final ball counts, marked exact.
    result = search(game, algorithm="paranoid", depth=30)
    assert result.exact and result.score == paranoid and result.depth <= empties


def test_set_turn_is_undone(backend):
    core = _position("python", "RYGB", 10, 5).core
    key, turn, board = core.key(), core.to_move(), core.bitboards()
    assert core.set_turn((turn + 2) % 4)
    assert core.to_move() == (turn + 2) % 4 and core.key() != key and core.bitboards() == board
    core.make_move(core.gen_moves()[0])
    core.unmake_move()
    core.unmake_move()
    assert (core.key(), core.to_move(), core.bitboards()) == (key, turn, board)
    assert not core.set_turn(4)


# -- MCTS --------------------------------------------------------------------------------


def _snapshot(tree):
    return (
        tree.iterations,
        tree.root_children(),
        tree.node_rewards(),
        tree.best_move(),
        tree.principal_variation(),
        tree.node_count,
        tree.max_depth,
        tree.rng_state,
        tree.states,
    )


@pytest.mark.parametrize("colours", COLOURS)
def test_mcts_backends_agree(backends, colours):
    snaps = []
    for mods in backends:
        game = _position(mods.name, colours, 4, 21)
        tree = mods.mcts.MCTSTree(seed=9)
        core = game.core.copy()
        tree.search(core, SearchLimits(nodes=700))
        first = _snapshot(tree)
        core.push(tree.best_move())
        for _ in range(len(colours) - 1):
            core.push(core.legal_moves()[0])
        tree.search(core, SearchLimits(nodes=300))
        snaps.append((first, _snapshot(tree)))
    assert snaps[0] == snaps[1]


def test_mcts_tree_reuse_after_the_other_players(backend):
    game = _position(backend.name, "RYGB", 8, 30)
    tree = backend.mcts.MCTSTree(seed=2)
    core = game.core.copy()
    tree.search(core, SearchLimits(nodes=1500))
    assert tree.num_players == 4
    path = [tree.best_move()]
    core.push(path[0])
    # The replies of the three others: the most visited child each time.
    for _ in range(3):
        children = [(tree.node_rewards([*path, m])[0], m) for m in core.legal_moves() if _known(tree, [*path, m])]
        reply = max(children)[1]
        path.append(reply)
        core.push(reply)
    kept_visits, kept_rewards = tree.node_rewards(path)
    assert kept_visits > 0
    tree.search(core, SearchLimits(nodes=50))
    assert tree.reused_visits == kept_visits
    visits, rewards = tree.node_rewards()
    assert visits == kept_visits + 50
    assert sum(rewards) == sum(kept_rewards) + 50 * tree.REWARD_UNIT


def _known(tree, path):
    try:
        tree.node_rewards(path)
    except ValueError:
        return False
    return True


def test_mcts_rewards_share_ties(backend):
    assert backend.mcts.reward_shares([10, 30, 30, 4]) == [0, 6, 6, 0]
    assert backend.mcts.reward_shares([16, 16, 16, 16]) == [3, 3, 3, 3]
    assert backend.mcts.reward_shares([40, 24]) == [12, 0]


def test_bench_multiplayer_prints_its_figures(backends):
    out = io.StringIO()
    bench_multiplayer(out, runs=1, backend="cython", quick=True)
    text = out.getvalue()
    for word in ("maxn", "paranoid", "brs", "iterations/s", "shallow pruning, RG"):
        assert word in text


def test_result_names_the_player_by_index(backend):
    # Red-green: green moves second, so it is player 1 although its colour number is 2.
    game = Rolit(colours="RG", backend=backend.name)
    game.push(game.legal_moves()[0])
    for algorithm in ("maxn", "paranoid", "brs"):
        result = search(game, algorithm=algorithm, depth=2)
        assert result.player == 1 and result.values[1] == result.score and len(result.values) == 2
    assert search(game, algorithm="mcts", nodes=50).player == 1


@pytest.mark.parametrize("colours", ["RYGB", "RYG"])
def test_two_player_searches_refuse_more_players(backend, colours):
    # Negamax's "my value is minus the next mover's" holds only with two players.
    game = Rolit(colours=colours, backend=backend.name)
    before = game.move_stack
    for algorithm in ("alphabeta", "minimax"):
        with pytest.raises(InvalidPositionError, match=f"two-player search.*{len(colours)} players"):
            Engine(algorithm=algorithm).search(game, depth=2)
    assert game.move_stack == before and game.num_players == len(colours)
    # The function picks the n-player default when no algorithm is named.
    result = search(game, nodes=200)
    assert result.algorithm == "mcts" and len(result.values) == len(colours)
    assert result.move in game.legal_moves()
    # The alpha-beta player takes alpha-beta's n-player form, paranoid.
    player = make_player("engine:depth=2")
    assert player.choose_move(game) in game.legal_moves() and player.last_result.algorithm == "paranoid"


def test_two_colour_rolit_keeps_alphabeta(backend):
    game = Rolit(colours="RG", backend=backend.name)
    result = search(game, depth=3)
    assert result.algorithm == "alphabeta" and game.num_players == 2
    assert result.score == search(game, algorithm="minimax", depth=3).score
