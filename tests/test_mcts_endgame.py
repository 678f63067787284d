"""The default n-player engine's endgame: MCTS hands the last moves to an exact Max^n search.

- Near the end, with a time limit, ``Engine(algorithm="mcts")`` plays the move and vector of
  an exhaustive Max^n recursion written over the pure core (``test_multiplayer_rolit``),
  marked exact, on both backends.
- Farther from the end, with ``endgame_empties=0``, with a budget of iterations, or with two
  players it is MCTS alone; an exact search that does not finish in its half of the time
  leaves MCTS the rest, and the states it spent are counted.
- The size of the endgame grows with the budget and the backend's speed.
"""

from __future__ import annotations

import pytest

from gamecore import Rolit
from gamecore.players import RandomPlayer
from gamecore.search.engine import Engine, empty_squares, mcts_endgame_empties
from test_multiplayer_rolit import _maxn


def _position(backend_name, empties, seed, colours=None):
    game = Rolit(backend=backend_name) if colours is None else Rolit(colours=colours, backend=backend_name)
    player = RandomPlayer(seed)
    while empty_squares(game) > empties:
        game.push(player.choose_move(game))
    return game


def _oracle(core):
    """Exhaustive Max^n: the root's vector and its move (the first best in ``order_key`` order)."""
    mover, best, best_move = core.to_move(), None, None
    for move in sorted(core.gen_moves(), key=lambda m: -core.order_key(m)):
        core.make_move(move)
        values = _maxn(core)
        core.unmake_move()
        if best is None or values[mover] > best[mover]:
            best, best_move = values, move
    return best, best_move


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_mcts_plays_the_exact_maxn_move_near_the_end(backend, seed):
    game = _position(backend.name, 6, seed)
    values, move = _oracle(_position("python", 6, seed).core)
    result = Engine(algorithm="mcts", clock="cpu").search(game, time_limit=1.0)
    assert result.exact and result.algorithm == "mcts"
    assert result.move == game.move_from_code(move)
    assert result.values == values and result.score == values[game.player]
    assert result.iterations == 0 and result.depth == 6


def test_mcts_alone_when_asked_or_limited_by_iterations_or_with_two_players(backend):
    game = _position(backend.name, 5, 24)
    for engine, limits in (
        (Engine(algorithm="mcts", endgame_empties=0), {"time_limit": 0.05}),
        (Engine(algorithm="mcts"), {"nodes": 200}),
    ):
        result = engine.search(game, **limits)
        assert not result.exact and result.iterations > 0
    two = _position(backend.name, 5, 25, colours="RG")
    result = Engine(algorithm="mcts").search(two, time_limit=0.05)
    assert not result.exact and result.iterations > 0


def test_an_unfinished_endgame_search_leaves_mcts_the_rest(backend):
    # 40 empty squares cannot be solved in half of 0.1 s: MCTS plays, and the states the
    # exact search spent are counted in the result's.
    game = _position(backend.name, 40, 26)
    engine = Engine(algorithm="mcts", endgame_empties=64, clock="cpu")
    result = engine.search(game, time_limit=0.1)
    assert not result.exact and result.iterations > 0
    assert result.nodes > engine._mcts.tree.states
    assert result.move in game.legal_moves()


def test_the_endgame_grows_with_the_budget_and_the_backend():
    # Half of the budget at the measured exact-search rates: 11 empties at 1 s compiled
    # (3.5 M states affordable, about 3 M needed), 10 at 0.2 s, 7 at 1 s in pure Python.
    assert mcts_endgame_empties("cython", 0.98) == 11
    assert mcts_endgame_empties("cython", 0.196) == 10
    assert mcts_endgame_empties("python", 0.98) == 7
    sizes = [mcts_endgame_empties(b, t) for b in ("python", "cython") for t in (0.01, 0.1, 1, 10)]
    assert sizes[:4] == sorted(sizes[:4]) and sizes[4:] == sorted(sizes[4:])
    assert all(mcts_endgame_empties("cython", t) >= mcts_endgame_empties("python", t) for t in (0.01, 0.1, 1, 10))


def test_empty_squares_counts_every_colour():
    game = Rolit()
    assert empty_squares(game) == 60
    game.push(game.legal_moves()[0])
    assert empty_squares(game) == 59
