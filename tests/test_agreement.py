"""Move-for-move agreement: the compiled and the pure core, checked against each other and the oracle.

Random legal games are played on both backends at once, on every even size 4-10, and
compared after every move; push/pop must restore everything; the module-level kernels
``legal_moves_mask`` and ``flips`` must agree with each other and with the square-by-square
oracle; and a stateful machine interleaves moves, undos, copies and text round trips.
"""

from __future__ import annotations

import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import othello_oracle as oracle
from gamecore import Othello
from gamecore.games.othello import Move
from othello_helpers import SIZES, core_state, oracle_grid, play_picks, snapshot
from othello_strategies import cycle, full_games, games, sizes


def public_state(game):
    return (
        game.legal_moves(),
        game.cells(),
        game.core.bitboards(),
        game.zobrist_hash(),
        game.score(),
        game.turn,
        game.is_game_over(),
        game.outcome(),
        game.move_stack,
        game.to_text(),
    )


@given(full_games())
def test_random_games_agree_after_every_move(backends, game):
    size, picks = game
    py = Othello(size, backend="python")
    cy = Othello(size, backend="cython")
    for k in cycle(picks):
        assert public_state(py) == public_state(cy)
        assert core_state(py.core) == core_state(cy.core)
        legal = py.legal_moves()
        if not legal:
            break
        move = legal[k % len(legal)]
        py.push(move)
        cy.push(move)
    note(py.to_text())
    assert py.is_game_over() and cy.is_game_over()
    assert py.outcome() == cy.outcome()


@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_with_the_oracle(backends, size):
    # A fixed spread of games per size (the hypothesis test above covers the rest):
    # every move the backends list is legal for the oracle and vice versa, and the boards match.
    for seed in range(3):
        py = Othello(size, backend="python")
        cy = Othello(size, backend="cython")
        grid, player = oracle.start(size), oracle.BLACK
        ply = 0
        while True:
            expected = oracle.moves_with_pass(grid, player)
            assert [m.index for m in py.legal_moves()] == expected
            assert [m.index for m in cy.legal_moves()] == expected
            assert py.cells() == cy.cells() == grid
            assert py.turn == cy.turn == player
            if not expected:
                break
            move = expected[(seed * 7 + ply * 13) % len(expected)]
            py.push(Move(move, size))
            cy.push(Move(move, size))
            grid, player = oracle.play(grid, player, move), 1 - player
            ply += 1
        assert py.is_game_over() and cy.is_game_over() and oracle.game_over(grid)


@given(games())
def test_push_then_pop_restores_everything(backends, game):
    size, picks = game
    for name in ("python", "cython"):
        position = play_picks(Othello(size, backend=name), picks)
        before = snapshot(position)
        before_core = core_state(position.core)
        for move in position.legal_moves():
            position.push(move)
            assert position.move_stack[-1] == move
            assert position.pop() == move
            assert snapshot(position) == before
            assert core_state(position.core) == before_core
        # Two plies deep, then back.
        for first in position.legal_moves()[:3]:
            position.push(first)
            for second in position.legal_moves()[:3]:
                position.push(second)
                position.pop()
            position.pop()
        assert snapshot(position) == before
        # Undo all the way to the start.
        while position.move_stack:
            position.pop()
        assert position == Othello(size, backend=name)
        assert position.zobrist_hash() == Othello(size, backend=name).zobrist_hash()


@given(games())
def test_kernels_agree_with_each_other_and_the_oracle(backends, game):
    py, cy = backends
    size, picks = game
    position = play_picks(Othello(size, backend="python"), picks)
    note(position.to_text())
    black, white = position.core.bitboards()
    grid = oracle_grid(position)
    for player, me, opp in ((oracle.BLACK, black, white), (oracle.WHITE, white, black)):
        mask = py.othello.legal_moves_mask(me, opp, size)
        assert cy.othello.legal_moves_mask(me, opp, size) == mask
        assert mask == sum(1 << i for i in oracle.legal_moves(grid, player))
        for square in range(size * size):
            r, c = divmod(square, size)
            expected = 0
            if grid[r][c] == oracle.EMPTY:
                expected = sum(1 << (fr * size + fc) for fr, fc in oracle.flipped_squares(grid, player, r, c))
                assert py.othello.flips(me, opp, square, size) == expected
            # On an occupied square the result means nothing, but both kernels must still agree.
            assert cy.othello.flips(me, opp, square, size) == py.othello.flips(me, opp, square, size)
            assert bool(expected) == bool(mask >> square & 1)


@st.composite
def disjoint_boards(draw):
    """Any two disjoint bitboards on a board (not necessarily reachable): stresses the edge masks."""
    size = draw(sizes)
    nsq = size * size
    edge = [0, (1 << nsq) - 1] + [1 << i for i in (0, size - 1, nsq - size, nsq - 1)]
    bits = st.one_of(st.integers(0, (1 << nsq) - 1), st.sampled_from(edge))
    a = draw(bits)
    b = draw(bits) & ~a
    return size, a, b


@given(disjoint_boards())
def test_kernels_agree_on_arbitrary_boards(backends, boards):
    py, cy = backends
    size, me, opp = boards
    grid = oracle.from_bitboards(me, opp, size)
    mask = cy.othello.legal_moves_mask(me, opp, size)
    assert mask == py.othello.legal_moves_mask(me, opp, size)
    assert mask == sum(1 << i for i in oracle.legal_moves(grid, oracle.BLACK))
    for square in range(size * size):
        r, c = divmod(square, size)
        flipped = cy.othello.flips(me, opp, square, size)
        assert flipped == py.othello.flips(me, opp, square, size)
        if grid[r][c] == oracle.EMPTY:
            assert flipped == sum(1 << (fr * size + fc) for fr, fc in oracle.flipped_squares(grid, oracle.BLACK, r, c))


@given(disjoint_boards(), st.integers(0, 1))
def test_boards_cross_the_python_boundary_unchanged(backends, boards, turn):
    """The compiled core keeps 10x10 boards in its own (interleaved) layout: whatever goes
    in through set_board comes back out of bitboards() bit for bit, with the same hash,
    counts and moves as the twin."""
    py, cy = backends
    size, black, white = boards
    cores = [mod.othello.OthelloCore(size) for mod in (py, cy)]
    for core in cores:
        core.set_board(black, white, turn)
    assert [core.bitboards() for core in cores] == [(black, white)] * 2
    assert cores[0].zobrist() == cores[1].zobrist()
    assert cores[0].counts() == cores[1].counts() == (bin(black).count("1"), bin(white).count("1"))
    assert cores[0].legal_moves() == cores[1].legal_moves()


def mixed_perft(moves_fn, flips_fn, me, opp, depth, size):
    """Perft with the move generator of one backend and the flips of the other (cross-composition)."""
    if depth == 0:
        return 1
    moves = moves_fn(me, opp, size)
    if not moves:
        if moves_fn(opp, me, size):
            return mixed_perft(moves_fn, flips_fn, opp, me, depth - 1, size)
        return 1
    total = 0
    for square in range(size * size):
        if moves >> square & 1:
            f = flips_fn(me, opp, square, size)
            total += mixed_perft(moves_fn, flips_fn, opp ^ f, me | f | (1 << square), depth - 1, size)
    return total


@pytest.mark.parametrize(("size", "depth"), [(4, 7), (6, 5), (8, 4), (10, 4)])
def test_cross_composed_kernels(backends, size, depth):
    py, cy = backends
    core = py.othello.OthelloCore(size)
    black, white = core.bitboards()
    expected = core.perft(depth)
    assert mixed_perft(cy.othello.legal_moves_mask, py.othello.flips, black, white, depth, size) == expected
    assert mixed_perft(py.othello.legal_moves_mask, cy.othello.flips, black, white, depth, size) == expected


def test_module_constants_and_names_agree(backends):
    py, cy = backends
    for name in ("PASS", "MIN_SIZE", "MAX_SIZE", "FEATURES"):
        assert getattr(py.othello, name) == getattr(cy.othello, name)
    assert sorted(py.othello.__all__) == sorted(cy.othello.__all__)
    for name in py.othello.__all__:
        assert hasattr(cy.othello, name), name
    for size in SIZES:
        for r in range(size):
            for c in range(size):
                assert py.othello.square_weight(r, c, size) == cy.othello.square_weight(r, c, size)


class TwinMachine(RuleBasedStateMachine):
    """One position per backend; every rule is applied to both and every invariant compares them."""

    def __init__(self, py, cy):
        super().__init__()
        self.py_name, self.cy_name = py.name, cy.name
        self.py = self.cy = None
        self.saved = []

    @initialize(size=sizes)
    def start(self, size):
        self.py = Othello(size, backend=self.py_name)
        self.cy = Othello(size, backend=self.cy_name)

    @precondition(lambda self: self.py.legal_moves())
    @rule(k=st.integers(0, 255))
    def push(self, k):
        legal = self.py.legal_moves()
        move = legal[k % len(legal)]
        self.py.push(move)
        self.cy.push(move)

    @precondition(lambda self: self.py.move_stack)
    @rule()
    def pop(self):
        assert self.py.pop() == self.cy.pop()

    @rule(k=st.integers(0, 255))
    def play_is_pure(self, k):
        legal = self.cy.legal_moves()
        if legal:
            before = snapshot(self.cy)
            child = self.cy.play(legal[k % len(legal)])
            assert snapshot(self.cy) == before
            assert child.move_stack[:-1] == self.cy.move_stack

    @rule()
    def save_copies(self):
        self.saved.append((self.py.copy(), self.cy.copy(), snapshot(self.py)))

    @precondition(lambda self: self.saved)
    @rule()
    def restore_copy(self):
        py, cy, snap = self.saved.pop()
        assert snapshot(py) == snap  # copies are independent of later moves
        self.py, self.cy = py, cy

    @rule()
    def text_round_trip(self):
        # Reading back the text of one backend in the other gives the same position
        # (without the history, which the text does not carry).
        assert Othello.from_text(self.py.to_text(), backend=self.cy_name) == self.cy
        shown = Othello.from_text(str(self.cy), backend=self.py_name)
        if self.py.is_game_over():
            # The drawing of a finished game says how it ended, not whose turn it would be
            # (from_text reads it as black's): the same discs, the same end.
            assert shown.cells() == self.py.cells() and shown.outcome() == self.py.outcome()
        else:
            assert shown == self.py

    @rule(bad=st.sampled_from(["z9", "a1", "pass", None, 1.5, -1, 2**70, "d4"]))
    def bad_move(self, bad):
        before = snapshot(self.py), snapshot(self.cy)
        for game in (self.py, self.cy):
            try:
                game.push(bad)
            except ValueError:
                pass
            else:  # only a move that happens to be legal here may pass, and then it is undone
                assert game.move_stack[-1] == game.parse_move(bad)
                game.pop()
        assert (snapshot(self.py), snapshot(self.cy)) == before

    @invariant()
    def agree(self):
        if self.py is None:
            return
        assert public_state(self.py) == public_state(self.cy)
        assert core_state(self.py.core) == core_state(self.cy.core)
        assert self.py == self.cy


def test_state_machine(backends):
    py, cy = backends
    run_state_machine_as_test(lambda: TwinMachine(py, cy))
