"""``count_legal_moves()``: ``len(legal_moves())`` without building the move objects, on both
backends, against the square-by-square oracle and against perft."""

from __future__ import annotations

import random

import pytest

import othello_oracle as oracle
from gamecore import Othello, Rolit, Tetralath
from othello_helpers import oracle_grid, read_perft_data

GAMES = {
    "othello4": lambda b: Othello(4, backend=b),
    "othello6": lambda b: Othello(6, backend=b),
    "othello8": lambda b: Othello(8, backend=b),
    "othello10": lambda b: Othello(10, backend=b),
    "tetralath": lambda b: Tetralath(backend=b),
    "rolit4": lambda b: Rolit(backend=b),
}


@pytest.mark.parametrize("name", GAMES)
def test_count_is_the_number_of_legal_moves_along_random_games(backend, name):
    rng = random.Random(name)
    for _ in range(3):
        game = GAMES[name](backend.name)
        while True:
            moves = game.legal_moves()
            assert game.count_legal_moves() == len(moves)
            if name.startswith("othello"):  # the independent truth: the oracle's moves, pass included
                assert game.count_legal_moves() == len(oracle.moves_with_pass(oracle_grid(game), int(game.turn)))
            if not moves:
                break
            game.push(rng.choice(moves))
        assert game.is_game_over() and game.count_legal_moves() == 0


def test_the_backends_count_alike(backends):
    py, cy = backends
    rng = random.Random(7)
    for size in (6, 8, 10):
        pure, compiled = Othello(size, backend=py.name), Othello(size, backend=cy.name)
        while not pure.is_game_over():
            assert pure.count_legal_moves() == compiled.count_legal_moves()
            move = rng.choice(pure.legal_moves())
            pure.push(move)
            compiled.push(move.name)
        assert compiled.count_legal_moves() == 0


def test_a_forced_pass_counts_one(backend):
    # Black has no move but white has: gamecore lists [pass], so the count is 1.
    game = Othello(4, backend=backend.name)
    game.core.set_board(0b0000_0000_0000_0001, 0b0000_0000_0000_0110, 0)  # X . . . on a1, O b1 c1
    assert [m.name for m in game.legal_moves()] == ["d1"]
    game.core.set_board(0b0000_0000_0000_0110, 0b0000_0000_0000_0001, 0)  # black b1 c1, white a1
    assert [m.is_pass for m in game.legal_moves()] == [True]
    assert game.count_legal_moves() == 1


def _perft_counting_the_last_ply(game, depth):
    if depth == 1:
        return game.count_legal_moves() or 1  # a finished game is one leaf
    moves = game.legal_moves()
    if not moves:
        return 1
    total = 0
    for move in moves:
        game.push(move)
        total += _perft_counting_the_last_ply(game, depth - 1)
        game.pop()
    return total


@pytest.mark.parametrize(("size", "depth"), [(6, 5), (8, 4)])
def test_a_perft_that_counts_its_last_ply_matches_the_published_counts(backend, size, depth):
    assert _perft_counting_the_last_ply(Othello(size, backend=backend.name), depth) == read_perft_data()[size, depth]
