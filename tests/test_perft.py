"""Perft: the move generator counted against published numbers, the oracle and the other backend.

A pass is a ply and a game that ends before the full depth is one leaf.
The default run goes to depth 9 on cython and 6 on python for 8x8; deeper cases are
marked ``slow``.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given, note, settings

import gamecore
import othello_oracle as oracle
from gamecore import Othello, search
from gamecore.bench.api import PERFT_8X8, student_alphabeta, student_perft, student_perft_play
from othello_helpers import oracle_grid, play_picks, read_perft_data
from othello_strategies import games

PERFT = read_perft_data()
# Deepest depth of the default run, per backend; the data file's deeper lines up to
# SLOW_DEPTH are marked slow.
DEFAULT_DEPTH = {"cython": 9, "python": 6}
SLOW_DEPTH = {"cython": 11, "python": 8}


def test_data_file_has_the_published_8x8_sequence():
    # OEIS A124004: guards against a damaged copy of the data file.
    published = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800]
    assert [PERFT[8, d] for d in range(1, 12)] == published
    assert {size for size, _ in PERFT} == {4, 6, 8, 10}


def _cases(sizes):
    cases = []
    for (size, depth), leaves in sorted(PERFT.items()):
        if size not in sizes:
            continue
        for name, tag in (("cython", "cy"), ("python", "py")):
            if depth > SLOW_DEPTH[name]:
                continue
            marks = [pytest.mark.cython] if name == "cython" else []
            if depth > DEFAULT_DEPTH[name]:
                marks.append(pytest.mark.slow)
            cases.append(pytest.param(name, size, depth, leaves, marks=marks, id=f"{tag}-{size}x{size}-d{depth}"))
    return cases


@pytest.mark.parametrize(("backend", "size", "depth", "leaves"), _cases({4, 6, 8, 10}), indirect=["backend"])
def test_perft_from_start_matches_data_file(backend, size, depth, leaves):
    game = Othello(size, backend=backend.name)
    assert game.backend == backend.name
    assert game.perft(depth) == leaves
    assert gamecore.perft(game, depth) == leaves
    # Counting leaves must not change the position.
    assert game == Othello(size, backend=backend.name)
    assert game.move_stack == []


@pytest.mark.parametrize("size", [4, 6, 8, 10])
def test_perft_depth_zero_and_one(backend, size):
    game = Othello(size, backend=backend.name)
    assert game.perft(0) == 1
    assert game.perft(1) == 4


@pytest.mark.parametrize(("size", "depth"), [(4, 8), (6, 6), (8, 5), (10, 5)])
def test_backends_and_oracle_agree_from_start(backends, size, depth):
    py, cy = backends
    expected = oracle.perft(oracle.start(size), oracle.BLACK, depth)
    assert expected == PERFT[size, depth]
    assert Othello(size, backend="python").perft(depth) == expected
    assert Othello(size, backend="cython").perft(depth) == expected
    # Straight from the cores too (what the CLI benchmark calls).
    assert py.othello.OthelloCore(size).perft(depth) == cy.othello.OthelloCore(size).perft(depth) == expected


@pytest.mark.parametrize("depth", [10, 12])
def test_4x4_deep_perft_with_passes_and_endings(backends, depth):
    # On 4x4 most lines end within 12 plies, so these depths count passes and finished
    # games as leaves heavily; the oracle walks the same tree square by square.
    expected = oracle.perft(oracle.start(4), oracle.BLACK, depth)
    assert Othello(4, backend="python").perft(depth) == expected
    assert Othello(4, backend="cython").perft(depth) == expected


@pytest.mark.slow
def test_4x4_whole_game_tree(backends):
    # Past depth 16 every line of 4x4 has ended: the count stops growing.
    full = oracle.perft(oracle.start(4), oracle.BLACK, 20)
    assert oracle.perft(oracle.start(4), oracle.BLACK, 16) == full
    for name in ("python", "cython"):
        game = Othello(4, backend=name)
        assert game.perft(16) == game.perft(20) == game.perft(40) == full


def test_perft_of_a_forced_pass(backend):
    # Black (to move) has no move; white can take c1. The pass is a ply.
    text = "OX" + "-" * 62 + " X"
    game = Othello.from_text(text, backend=backend.name)
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    assert game.perft(1) == 1
    assert game.perft(2) == 1  # pass, then white's only move c1
    assert game.perft(3) == 1  # ... after which the game is over: one leaf
    assert game.perft(7) == 1
    grid = oracle_grid(game)
    assert [oracle.perft(grid, oracle.BLACK, d) for d in (1, 2, 3)] == [1, 1, 1]


def test_perft_of_a_pass_into_several_moves(backend):
    # 4x4, black to move:   a b c d
    #                     1 O X - -     white's a1 is a corner, so black can bracket
    #                     2 X - - -     nothing and must pass; white then has c1 and a3.
    text = "OX--X----------- X"
    game = Othello.from_text(text, backend=backend.name)
    grid = oracle_grid(game)
    assert oracle.moves_with_pass(grid, oracle.BLACK) == [oracle.PASS]
    assert oracle.legal_moves(grid, oracle.WHITE) == [2, 8]  # c1, a3
    assert [str(m) for m in game.legal_moves()] == ["pass"]
    assert game.perft(1) == 1
    assert game.perft(2) == 2
    for depth in range(1, 8):
        assert game.perft(depth) == oracle.perft(grid, oracle.BLACK, depth)


def test_perft_of_a_finished_game(backend):
    # Two lone discs: neither side can move, the game is over, every depth counts one leaf.
    game = Othello.from_text("X" + "-" * 62 + "O X", backend=backend.name)
    assert game.is_game_over()
    assert [game.perft(d) for d in range(0, 5)] == [1, 1, 1, 1, 1]


@given(games(max_moves=60))
def test_perft_agrees_on_reachable_positions(backends, game):
    size, picks = game
    py_game = play_picks(Othello(size, backend="python"), picks)
    cy_game = play_picks(Othello(size, backend="cython"), picks)
    note(py_game.to_text())
    assert py_game == cy_game
    grid = oracle_grid(py_game)
    player = py_game.turn
    for depth in (1, 2):
        assert py_game.perft(depth) == cy_game.perft(depth) == oracle.perft(grid, player, depth)
    assert py_game.perft(3) == cy_game.perft(3)


@settings(max_examples=10)
@given(games(size=8, max_moves=40))
def test_perft_agrees_deeper_on_8x8_positions(backends, game):
    size, picks = game
    py_game = play_picks(Othello(size, backend="python"), picks)
    cy_game = play_picks(Othello(size, backend="cython"), picks)
    note(py_game.to_text())
    assert py_game.perft(4) == cy_game.perft(4)
    assert cy_game.perft(3) == oracle.perft(oracle_grid(cy_game), cy_game.turn, 3)


@settings(max_examples=10)
@given(games(size=10, max_moves=96))
def test_perft_agrees_deeper_on_10x10_positions(backends, game):
    # Late 10x10 positions reach the edges, passes and game ends in the last two plies,
    # which the 10x10 kernel counts without visiting.
    size, picks = game
    py_game = play_picks(Othello(size, backend="python"), picks)
    cy_game = play_picks(Othello(size, backend="cython"), picks)
    note(py_game.to_text())
    assert py_game.perft(3) == cy_game.perft(3) == oracle.perft(oracle_grid(cy_game), cy_game.turn, 3)
    assert py_game.perft(4) == cy_game.perft(4)


def test_perft_rejects_bad_depths(backend):
    game = Othello(6, backend=backend.name)
    for depth in (-1, -(2**70), 1.5, 2.0, None, "3", True, [2]):
        with pytest.raises(ValueError):
            game.perft(depth)
    if backend.name == "cython":
        # Too deep to count, but must raise rather than wrap around (the pure backend
        # would simply walk the whole game tree, which takes forever).
        for depth in (2**31, 2**64, 2**200):
            with pytest.raises((OverflowError, ValueError)):
                game.perft(depth)
    assert game == Othello(6, backend=backend.name)


def test_student_perft_loops_count_the_published_tree(backend):
    # The loops `gamecore bench othello api` times: the public API, bulk-counted last ply.
    for depth in (1, 2, 3, 4):
        assert student_perft(Othello(backend=backend.name), depth) == PERFT_8X8[depth]
        assert student_perft_play(Othello(backend=backend.name), depth) == PERFT_8X8[depth]


def test_student_alphabeta_matches_the_engine_minimax(backend):
    game = Othello(backend=backend.name)
    for depth in (1, 2, 3):
        counter = [0]
        value = student_alphabeta(game, depth, -1000, 1000, counter)
        assert value == search(game, depth=depth, evaluation="discs", algorithm="minimax").score
        assert counter[0] > 0


@pytest.mark.cython
def test_portable_kernel_without_simd_matches_data_file(backend):
    """GAMECORE_NO_SIMD=1 keeps the compiled perft on its portable kernel (the one a CPU
    without AVX2 runs): it must count the same as the published numbers."""
    if backend.name != "cython":
        pytest.skip("compiled kernel only")
    cases = [(6, 8), (8, 8), (4, 10), (10, 8)]
    code = f"from gamecore import Othello; print([Othello(n, backend='cython').perft(d) for n, d in {cases!r}])"
    env = dict(os.environ, GAMECORE_NO_SIMD="1", GAMECORE_BACKEND="cython")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    expected = [
        PERFT[size, depth] if (size, depth) in PERFT else oracle.perft(oracle.start(size), oracle.BLACK, depth)
        for size, depth in cases
    ]
    assert out.stdout.strip() == str(expected)
