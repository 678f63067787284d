"""The n-player searches (Max^n with and without shallow pruning, paranoid, Best-Reply Search).

Truths they are held to:
- two-player Othello and Tetralath: Max^n, paranoid and BRS are negamax there, so they
  return the scores of the existing minimax / alpha-beta at the same depth (a free oracle);
- a synthetic game tree of 3 and 4 players (written below, pure Python) searched by plain
  recursive oracles of Max^n, paranoid and BRS written in the obvious way;
- Max^n with shallow pruning returns the move and vector of plain Max^n, with fewer states;
- both backends visit the same nodes (same move, values, principal variation, node count).
Rolit's cases live in test_multiplayer_rolit.py.
"""

from __future__ import annotations

import pytest

from gamecore import Othello, Tetralath, search
from gamecore.search import _multiplayer_py as mp
from gamecore.search._options import SearchLimits
from gamecore.search._results import NO_MOVE, MultiOutcome
from gamecore.search.engine import Engine

OTHELLO_OPENINGS = [[], [37], [37, 43, 34], [37, 43, 18, 19, 26], [19, 18, 17, 29, 21, 20]]


def _othello(backend_name, moves, size=8):
    game = Othello(size, backend=backend_name)
    for move in moves:
        game.core.push(move)
    return game


def _weights(position):
    return Engine()._weights(position)[0]


def _multi(backend, position, algorithm, depth, tt_mb=1, nodes=0):
    searcher = backend.multiplayer.MultiSearcher(tt_mb)
    return searcher.search_multi(position.core.copy(), _weights(position), SearchLimits(depth, nodes), algorithm)


def _negamax(backend, position, algorithm, depth):
    searcher = backend.alphabeta.Searcher(1)
    return searcher.search(position.core.copy(), SearchLimits(depth), weights=_weights(position), algorithm=algorithm)


def test_search_multi_returns_a_named_record(backend):
    game = _othello(backend.name, [37, 43, 34])
    found = _multi(backend, game, "paranoid", 3)
    assert type(found) is MultiOutcome
    assert found.depth == 3 and found.pv[0] == found.move and found.values[game.turn] == found.score
    assert found.nodes > 0 and found.memory > 0 and found.exact is False
    over = Othello.from_text("X" * 64 + " O", backend=backend.name)
    ended = _multi(backend, over, "maxn", 2)
    assert (ended.move, ended.score, ended.values, ended.pv, ended.exact) == (NO_MOVE, -64, [64, -64], [], True)


# -- two players: equal to negamax -------------------------------------------------------


@pytest.mark.parametrize("moves", OTHELLO_OPENINGS)
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_two_player_othello_equals_negamax(backend, moves, depth):
    game = _othello(backend.name, moves)
    minimax = _negamax(backend, game, "minimax", depth)
    alphabeta = _negamax(backend, game, "alphabeta", depth)
    assert minimax[1] == alphabeta[1]
    player = game.turn
    for algorithm in ("maxn", "maxn-plain"):
        move, score, values, done, pv, *_ = _multi(backend, game, algorithm, depth)
        # Same tie-break as minimax (first best in move order): same move, score and line.
        assert (move, score, done, pv) == minimax[:4]
        assert values[player] == score and values[1 - player] == -score
    for algorithm in ("paranoid", "brs"):
        move, score, values, done, *_ = _multi(backend, game, algorithm, depth)
        assert (score, done) == (minimax[1], depth)
        # The move may be another of equal value: its own value must be the best.
        after = game.play(game.move_from_code(move))
        assert -_negamax(backend, after, "minimax", depth - 1)[1] == score if depth > 1 else True
        assert values[player] == score and values[1 - player] is None


def test_two_player_tetralath_equals_negamax(backend):
    game = Tetralath(backend=backend.name)
    for move in ("e5", "d4", "f5"):
        game.push(move)
    for depth in (1, 2):
        minimax = _negamax(backend, game, "minimax", depth)
        maxn = _multi(backend, game, "maxn", depth)
        assert (maxn[0], maxn[1]) == (minimax[0], minimax[1])
        for algorithm in ("paranoid", "brs"):
            assert _multi(backend, game, algorithm, depth)[1] == minimax[1]


@pytest.mark.parametrize("moves", OTHELLO_OPENINGS)
def test_shallow_pruning_same_result_fewer_states_othello(backend, moves):
    game = _othello(backend.name, moves)
    for depth in (3, 4, 5):
        pruned = _multi(backend, game, "maxn", depth)
        plain = _multi(backend, game, "maxn-plain", depth)
        assert pruned[:5] == plain[:5]
        assert pruned[5] < plain[5]


def test_endgame_reaches_exact_values(backend):
    # 4x4 Othello a few plies from the end: every search reaches the end; values are final.
    game = _othello(backend.name, [], size=4)
    while len(game.legal_moves()) and 16 - sum(game.score()) > 6:
        game.push(game.legal_moves()[0])
    minimax = _negamax(backend, game, "minimax", 20)
    for algorithm in mp.MULTIPLAYER_SEARCHES:
        move, score, values, done, pv, nodes, hits, exact, memory = _multi(backend, game, algorithm, 20)
        assert exact and done <= 8
        # Negamax scores a final result as WIN + margin; the n-player searches give the margin.
        assert backend.alphabeta.terminal_score(score) == minimax[1]


# -- agreement between the backends -------------------------------------------------------


@pytest.mark.parametrize("algorithm", mp.MULTIPLAYER_SEARCHES)
def test_backends_agree_node_for_node(backends, algorithm):
    py, cy = backends
    for moves in OTHELLO_OPENINGS:
        for depth in (1, 3, 5):
            results = [_multi(mods, _othello(mods.name, moves), algorithm, depth) for mods in (py, cy)]
            assert results[0] == results[1]
    for mods_results in [
        [_multi(mods, Tetralath(backend=mods.name).play("e5"), algorithm, 3, nodes=2000) for mods in (py, cy)],
        [_multi(mods, _othello(mods.name, [8], size=6), algorithm, 6, nodes=2000) for mods in (py, cy)],
    ]:
        assert mods_results[0] == mods_results[1]


# -- the public API -----------------------------------------------------------------------


def test_search_api_result(backend):
    game = Othello(backend=backend.name)
    for algorithm in ("maxn", "maxn-plain", "paranoid", "brs"):
        result = search(game, algorithm=algorithm, depth=3)
        assert result.algorithm == algorithm and result.backend == backend.name
        assert result.move in game.legal_moves() and result.depth == 3
        assert result.pv[0] == result.move and result.nodes > 0 and result.memory > 0
        assert result.player == 0 and result.values[0] == result.score
    assert search(game, algorithm="paranoid", depth=4).tt_hits > 0
    result = search(game, algorithm="mcts", nodes=300, seed=1)
    assert result.iterations == 300 and result.nodes >= 300 and result.move in game.legal_moves()
    assert len(result.values) == 2


def test_time_limit_and_node_limit(backend):
    game = Othello(backend=backend.name)
    for algorithm in ("maxn", "paranoid", "brs"):
        result = search(game, algorithm=algorithm, time_limit=0.3)
        assert result.move in game.legal_moves() and result.depth >= 1
        assert result.elapsed < 0.3 + 0.2
        limited = search(game, algorithm=algorithm, nodes=500)
        assert limited.nodes <= 501 and limited.move in game.legal_moves()


def test_errors(backend):
    game = Othello(backend=backend.name)
    with pytest.raises(ValueError):
        Engine(algorithm="nope")
    with pytest.raises(ValueError):
        Engine(lambda position: 0, algorithm="mcts")  # the n-player searches take one: test_multiplayer_evaluation
    with pytest.raises(ValueError):
        search(game, algorithm="mcts", depth=3)
    over = Othello.from_text("XXXXXXXXXXXXXXXX X", backend=backend.name)
    for algorithm in ("maxn", "paranoid", "brs", "mcts"):
        kw = {"nodes": 10} if algorithm == "mcts" else {"depth": 2}
        assert search(over, algorithm=algorithm, **kw).move is None


# -- a synthetic game of n players, against plain recursive oracles (pure backend) ----------


class SyntheticGame:
    """A uniform game tree of ``players`` players, ``branching`` moves a node, ``length``
    plies; leaf values split ``TOTAL`` among the players from a hash of the path (the
    values sum to TOTAL: shallow pruning's bounds are tight). Supports ``set_turn``."""

    TOTAL = 12

    def __init__(self, players, branching, length, seed):
        self.players, self.branching, self.length, self.seed = players, branching, length, seed
        self.path = []  # (player, move) or (player, None) for a turn change
        self.turn = 0

    def copy(self):
        other = SyntheticGame(self.players, self.branching, self.length, self.seed)
        other.path, other.turn = list(self.path), self.turn
        return other

    def _hash(self, extra=0):
        h = self.seed * 0x9E3779B97F4A7C15 + extra
        for player, move in self.path:
            if move is not None:  # a position is the moves made and who made them
                h = (h * 1_000_003 + (player + 1) * 131 + move) & ((1 << 64) - 1)
        return h

    def _split(self, h):
        values = [0] * self.players
        for _ in range(self.TOTAL):
            h = (h * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
            values[(h >> 33) % self.players] += 1
        return values

    def plies(self):
        return sum(1 for _, move in self.path if move is not None)

    def gen_moves(self):
        return [] if self.plies() >= self.length else list(range(self.branching))

    def search_moves(self, depth):
        return self.gen_moves()

    def make_move(self, move):
        self.path.append((self.turn, move))
        self.turn = (self.turn + 1) % self.players

    def set_turn(self, player):
        self.path.append((self.turn, None))
        self.turn = player
        return True

    def unmake_move(self):
        player, _ = self.path.pop()
        self.turn = player

    def num_players(self):
        return self.players

    def to_move(self):
        return self.turn

    def is_terminal(self):
        return self.plies() >= self.length

    def terminal_values(self):
        return self._split(self._hash(1))

    def evaluate_players(self, weights):
        return self._split(self._hash(2))

    def value_bounds(self):
        return (0, self.TOTAL)

    def order_key(self, move):
        return (self._hash(move) >> 20) % 5

    def key(self):
        return self._hash(3 + self.turn) & ((1 << 64) - 1)


def _ordered(game, moves):
    return sorted(moves, key=lambda m: -game.order_key(m))


def _leaf(game):
    return game.terminal_values() if game.is_terminal() else game.evaluate_players([])


def oracle_maxn(game, depth):
    """Plain Max^n: the vector of the first child best for the mover."""
    moves = game.gen_moves()
    if depth == 0 or not moves:
        return _leaf(game)
    mover, best = game.to_move(), None
    for move in _ordered(game, moves):
        game.make_move(move)
        values = oracle_maxn(game, depth - 1)
        game.unmake_move()
        if best is None or values[mover] > best[mover]:
            best = values
    return best


def oracle_paranoid(game, depth, root):
    """Plain paranoid minimax: the root player maximises its value, everyone else minimises it."""
    moves = game.gen_moves()
    if depth == 0 or not moves:
        return _leaf(game)[root]
    scores = []
    for move in moves:
        game.make_move(move)
        scores.append(oracle_paranoid(game, depth - 1, root))
        game.unmake_move()
    return max(scores) if game.to_move() == root else min(scores)


def oracle_brs(game, depth, root, ply=0):
    """Plain Best-Reply Search: the root player's moves, then the one best reply of any opponent."""
    moves = game.gen_moves()
    if depth == 0 or not moves:
        return _leaf(game)[root]
    if ply % 2 == 0:
        scores = []
        for move in moves:
            game.make_move(move)
            scores.append(oracle_brs(game, depth - 1, root, ply + 1))
            game.unmake_move()
        return max(scores)
    scores = []
    for step in range(1, game.players):
        player = (root + step) % game.players
        game.set_turn(player)
        for move in game.gen_moves():
            game.make_move(move)
            game.set_turn(root)
            scores.append(oracle_brs(game, depth - 1, root, ply + 1))
            game.unmake_move()
            game.unmake_move()
        game.unmake_move()
    return min(scores)


SYNTHETIC = [(3, 3, 6, 1), (3, 4, 5, 2), (4, 3, 7, 3), (4, 2, 8, 4), (3, 5, 4, 5)]


@pytest.mark.parametrize("players,branching,length,seed", SYNTHETIC)
def test_synthetic_against_oracles(players, branching, length, seed):
    for depth in range(1, length + 1):
        game = SyntheticGame(players, branching, length, seed)
        plain = mp.MultiSearcher(1).search_multi(game, [], SearchLimits(depth), "maxn-plain")
        pruned = mp.MultiSearcher(1).search_multi(game, [], SearchLimits(depth), "maxn")
        assert plain[2] == oracle_maxn(game, depth)
        assert pruned[:5] == plain[:5]
        assert pruned[5] <= plain[5]
        assert mp.MultiSearcher(1).search_multi(game, [], SearchLimits(depth), "paranoid")[1] == oracle_paranoid(
            game, depth, 0
        )
        assert mp.MultiSearcher(1).search_multi(game, [], SearchLimits(depth), "brs")[1] == oracle_brs(game, depth, 0)
        assert game.path == []
    # Over the whole set, shallow pruning saves states.
    game = SyntheticGame(players, branching, length, seed)
    pruned = mp.MultiSearcher(0).search_multi(game, [], SearchLimits(length), "maxn")
    plain = mp.MultiSearcher(0).search_multi(game, [], SearchLimits(length), "maxn-plain")
    assert pruned[5] < plain[5]
