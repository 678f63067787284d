"""The learned evaluation's pattern indices kept up to date move by move (issue #35, speed).

A search with the learned evaluation has the compiled core track the indices of every pattern
instance as moves are made and undone, instead of reading the board at each evaluated node
(``_othello_cy.pyx``, ``pyx/gamecore_patterns.h``); the pure core reads the board (the
reference). The tracked score must be the definition's (``score_by_hand``) after every push,
pop, pass and ``set_board``, with the shipped weights and with weights of its own; and
searches with the learned evaluation must visit the same nodes in both backends.
"""

from __future__ import annotations

import random
from array import array

import pytest

from gamecore import Engine, Othello
from gamecore.games import _othello_patterns as patterns
from othello_helpers import score_by_hand


def random_weights(n: int, width: int, seed: int) -> patterns.Weights:
    ps = patterns.pattern_set(n)
    raw = random.Random(seed).randbytes(ps.stride * patterns.stages_for(n, width))
    return patterns.Weights(n, width, array("h", array("b", raw)), "test")


def learned_score(core, weights: patterns.Weights) -> int:
    black, white = core.bitboards()
    me, opp = (black, white) if core.turn == 0 else (white, black)
    return score_by_hand(me, opp, weights)


@pytest.mark.parametrize("n,width", [(6, 4), (8, 4), (8, 3), (10, 12), (10, 7)])
def test_tracked_indices_score_as_the_definition_after_every_move_undo_and_pass(backends, n, width):
    _, cy = backends
    shipped = patterns.shipped_weights(n)
    assert shipped is not None
    weights = shipped if width == shipped.stage_width else random_weights(n, width, seed=n + width)
    rng = random.Random(n * width)
    passes = 0
    for _ in range(6):
        core = cy.othello.OthelloCore(n)
        if weights is not shipped:
            core.use_weights(weights)
        assert core._track_patterns()
        while core.legal_moves():
            assert core.feature_values()[-1] == learned_score(core, weights)
            move = rng.choice(core.legal_moves())
            passes += move == -1
            core.push(move)
            if rng.random() < 0.25:  # undo, check, redo
                core.pop()
                assert core.feature_values()[-1] == learned_score(core, weights)
                core.push(move)
        assert core.feature_values()[-1] == learned_score(core, weights)
        # Back to the start, move by move; then a board set afresh is read again.
        while core.history():
            core.pop()
        assert core.feature_values()[-1] == learned_score(core, weights)
        black, white = core.bitboards()
        core.set_board(white, black, 1)
        assert core.feature_values()[-1] == learned_score(core, weights)
    assert passes > 0 or n == 10  # the tracked frame is copied over a pass


def test_a_size_without_weights_is_not_tracked(backends):
    _, cy = backends
    core = cy.othello.OthelloCore(4)
    assert not core._track_patterns()
    assert core.feature_values()[-1] == 0


def late_positions(n: int, count: int, seed: int) -> list[Othello]:
    """Positions of random games with 8 to 14 empty squares: passes and finished games in the tree."""
    rng = random.Random(seed)
    found: list[Othello] = []
    while len(found) < count:
        game = Othello(n, backend="python")
        while not game.is_game_over() and n * n - sum(game.core.counts()) > rng.randint(8, 14):
            game.push(rng.choice(game.legal_moves()))
        if not game.is_game_over():
            found.append(game)
    return found


@pytest.mark.parametrize("n", [6, 8, 10])
def test_learned_searches_visit_the_same_nodes_in_both_backends(backends, n):
    # Midgame positions and late ones (passes inside the tree), the shipped weights and a
    # table of another stage width: the compiled search tracks, the pure one reads the board.
    games = [Othello.from_moves("f5d6c3d3c4" if n == 8 else "", size=n, backend="python")]
    games += late_positions(n, 3, seed=n)
    own = random_weights(n, 5, seed=n)
    for game in games:
        for weights in (None, own):
            found = [
                Engine(weights=weights, endgame_empties=0, mpc=False).search(game.with_backend(b.name), depth=4)
                for b in backends
            ]
            assert [(r.move, r.score, r.nodes, r.pv) for r in found[:1]] == [
                (r.move, r.score, r.nodes, r.pv) for r in found[1:]
            ]
