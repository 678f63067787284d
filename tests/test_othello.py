"""The public Othello API, on both backends: positions, moves, notation, text, errors.

Every test that takes ``backend`` runs once on the compiled and once on the pure core.
Bad input must raise the documented class from ``gamecore.errors`` and leave the
position exactly as it was (text, hash, history, legal moves, rendering).
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, note

import gamecore
import othello_oracle as oracle
from gamecore import Othello, Outcome, Termination
from gamecore._zobrist import SQUARE_KEYS, TURN_KEYS
from gamecore.errors import (
    BackendUnavailableError,
    EmptyHistoryError,
    GamecoreError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSizeError,
    InvalidSquareError,
)
from gamecore.games.othello import BLACK, PASS, WHITE, Move, parse_move_list, parse_square
from othello_helpers import SIZES, oracle_grid, play_picks, snapshot
from othello_strategies import cycle, full_games, games

START_8X8 = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X"
# FFO endgame position #40 as Edax's OBF line: board, side to move, then "; move:score" notes.
FFO_40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;"


def names(moves):
    return [str(m) for m in moves]


# -- the start ------------------------------------------------------------------------------


def test_start_position_8x8(backend):
    game = Othello(backend=backend.name)
    assert game.size == 8
    assert game.backend == backend.name
    assert game.turn == BLACK
    assert game.score() == (2, 2)
    assert game.to_text() == START_8X8
    cells = game.cells()
    assert (cells[3][3], cells[4][4]) == (WHITE, WHITE)  # d4, e5
    assert (cells[3][4], cells[4][3]) == (BLACK, BLACK)  # e4, d5
    assert sum(v != -1 for row in cells for v in row) == 4
    assert names(game.legal_moves()) == ["d3", "c4", "f5", "e6"]
    assert game.move_stack == []
    assert game.peek() is None
    assert not game.is_game_over()
    assert game.outcome() is None


@pytest.mark.parametrize("size", SIZES)
def test_start_position_every_size(backend, size):
    game = Othello(size, backend=backend.name)
    assert game.size == size
    assert game.turn == BLACK
    assert game.score() == (2, 2)
    assert game.cells() == oracle.start(size)
    assert [m.index for m in game.legal_moves()] == oracle.legal_moves(oracle.start(size), oracle.BLACK)
    assert len(game.legal_moves()) == 4
    assert game.to_text() == game.to_text().split()[0] + " X"
    assert len(game.to_text().split()[0]) == size * size


def test_default_backend_is_the_selected_one():
    assert Othello().backend == gamecore.BACKEND


# -- moves: push, pop, peek, play, copy ---------------------------------------------------


def test_push_pop_peek_move_stack(backend):
    game = Othello(backend=backend.name)
    start = snapshot(game)
    game.push("d3")
    assert game.turn == WHITE
    assert game.score() == (4, 1)
    assert game.peek() == Move(19)
    assert game.move_stack == [Move(19)]
    assert names(game.legal_moves()) == ["c3", "e3", "c5"]
    game.push("c5")
    assert game.move_stack == [Move(19), Move(34)]
    assert game.score() == (3, 3)
    assert game.pop() == Move(34)
    assert game.pop() == Move(19)
    assert snapshot(game) == start


def test_play_returns_a_new_position(backend):
    game = Othello(backend=backend.name)
    before = snapshot(game)
    child = game.play("f5")
    assert snapshot(game) == before
    assert child.move_stack == [Move(37)]
    assert child.score() == (4, 1)
    assert child.backend == backend.name
    grandchild = child.play("d6")
    assert child.move_stack == [Move(37)]
    assert grandchild.move_stack == [Move(37), Move(43)]


def test_copy_is_independent_and_keeps_history(backend):
    game = Othello(backend=backend.name)
    game.push("d3")
    twin = game.copy()
    assert twin == game
    assert twin.move_stack == game.move_stack
    assert twin.zobrist_hash() == game.zobrist_hash()
    twin.push("c5")
    assert game.move_stack == [Move(19)]
    assert twin.pop() == Move(34)
    assert twin.pop() == Move(19)  # the copied history can be undone
    assert game.move_stack == [Move(19)]
    game.pop()
    assert twin == game


def test_is_legal(backend):
    game = Othello(backend=backend.name)
    assert game.is_legal("d3") and game.is_legal((3, 2)) and game.is_legal(Move(37))
    assert not game.is_legal("a1")  # flips nothing
    assert not game.is_legal("d4")  # occupied
    assert not game.is_legal("z9")  # malformed
    assert not game.is_legal("pass")
    assert not game.is_legal(None)


# -- squares and Move objects ------------------------------------------------------------------


@pytest.mark.parametrize("square", ["d3", "D3", " d3 ", (2, 3), 19, "3 4", "3,4", Move(19)])
def test_square_forms_all_mean_d3(backend, square):
    game = Othello(backend=backend.name)
    assert game.parse_move(square) == Move(19)
    game.push(square)
    assert game.move_stack == [Move(19)]
    assert game == Othello(backend=backend.name).play("d3")


@pytest.mark.parametrize(
    ("square", "size", "index"),
    [
        ("a1", 8, 0),
        ("h8", 8, 63),
        ("h1", 8, 7),
        ("a8", 8, 56),
        ("j10", 10, 99),
        ("J10", 10, 99),
        ("b4", 4, 13),
        ((9, 9), 10, 99),
        ("10 10", 10, 99),
        ("1 10", 10, 9),
        (35, 6, 35),
    ],
)
def test_parse_square(square, size, index):
    assert parse_square(square, size) == index


def test_move_objects():
    move = Move(19)
    assert (move.row, move.col, move.name, str(move)) == (2, 3, "d3", "d3")
    assert repr(move) == "Othello.Move('d3')"
    assert repr(Move(99, 10)) == "Othello.Move('j10', size=10)"
    assert not move.is_pass
    assert Move(19) == Move(19, 8) and Move(19) != Move(19, 10)
    assert len({Move(19), Move(19), Move(20)}) == 2
    p = Move(PASS)
    assert p.is_pass and p.name == "pass" and str(p) == "pass"
    with pytest.raises(InvalidMoveError):
        _ = p.row
    with pytest.raises(InvalidMoveError):
        _ = p.col
    with pytest.raises(AttributeError):
        move.index = 3  # frozen


def test_parse_move_list():
    assert parse_move_list("f5d6c3") == [37, 43, 18]
    assert parse_move_list("F5 d6, pass c3") == [37, 43, PASS, 18]
    assert parse_move_list("a1j10", size=10) == [0, 99]
    for bad in ("f5z9", "f5d", "f9", "xx"):
        with pytest.raises((InvalidMoveError, InvalidSquareError)):
            parse_move_list(bad)


# -- passes, the end of the game, outcomes ------------------------------------------------------


def forced_pass(backend_name):
    """Black to move with no move (white's a1 is a corner behind black's b1); white can take c1."""
    return Othello.from_text("OX" + "-" * 62 + " X", backend=backend_name)


def test_explicit_pass(backend):
    game = forced_pass(backend.name)
    assert game.legal_moves() == [Move(PASS)]
    assert game.legal_moves()[0].is_pass
    assert not game.is_game_over()
    assert game.outcome() is None
    before = snapshot(game)
    for move in ("c1", "d3", (0, 2), 2):
        with pytest.raises(IllegalMoveError):
            game.push(move)
        assert snapshot(game) == before
    game.push("pass")
    assert game.turn == WHITE
    assert game.peek() == Move(PASS)
    assert game.cells() == Othello.from_text("OX" + "-" * 62 + " O").cells()
    assert game.zobrist_hash() == Othello.from_text("OX" + "-" * 62 + " O").zobrist_hash()
    assert game.pop() == Move(PASS)
    assert snapshot(game) == before
    game.push(Move(PASS))
    game.push("c1")
    # White now holds a1, b1, c1 and black has no disc: the game is over.
    assert game.is_game_over()
    assert game.legal_moves() == []
    assert game.score() == (0, 3)
    assert game.outcome() == Outcome(WHITE, Termination.NO_MOVES, {BLACK: 0, WHITE: 3})
    assert str(game.outcome()) == "white wins 3-0 (neither side can move)"
    assert game.move_stack == [Move(PASS), Move(2)]


def test_no_pass_while_a_move_exists(backend):
    game = Othello(backend=backend.name)
    before = snapshot(game)
    for move in ("pass", Move(PASS), "PASS", "--"):
        with pytest.raises(IllegalMoveError):
            game.push(move)
        assert snapshot(game) == before


def test_game_over_draw_and_win(backend):
    draw = Othello.from_text("X" + "-" * 62 + "O O", backend=backend.name)
    assert draw.is_game_over()
    assert draw.legal_moves() == []
    assert draw.outcome() == Outcome(None, Termination.NO_MOVES, {BLACK: 1, WHITE: 1})
    assert draw.outcome().winner is None and draw.outcome().scores == {BLACK: 1, WHITE: 1}
    assert str(draw.outcome()) == "draw 1-1 (neither side can move)"
    full = Othello.from_text("XXXXXXXXXXOOOOOO X", backend=backend.name)
    assert full.is_game_over()
    assert full.outcome() == Outcome(BLACK, Termination.FULL_BOARD, {BLACK: 10, WHITE: 6})
    assert str(full.outcome()) == "black wins 10-6 (full board)"


def test_a_board_without_discs_is_refused(backend):
    # No game reaches it and nothing can be played on it: a typing mistake, said clearly.
    with pytest.raises(InvalidPositionError, match="no disc"):
        Othello.from_text("-" * 64 + " X", backend=backend.name)
    with pytest.raises(InvalidPositionError, match="no disc"):
        Othello.from_cells([[-1] * 6 for _ in range(6)], backend=backend.name)


@given(full_games())
def test_random_games_end_with_a_consistent_outcome(backend, game):
    size, picks = game
    position = play_picks(Othello(size, backend=backend.name), cycle(picks))
    note(position.to_text())
    assert position.is_game_over()
    assert position.legal_moves() == []
    black, white = position.score()
    outcome = position.outcome()
    assert outcome.scores == {BLACK: black, WHITE: white}
    assert outcome.winner == (None if black == white else BLACK if black > white else WHITE)
    grid = oracle_grid(position)
    assert oracle.game_over(grid)
    # Every ply of the record is legal for the oracle too, passes included.
    replay, player = oracle.start(size), oracle.BLACK
    for move in position.move_stack:
        assert move.index in oracle.moves_with_pass(replay, player)
        replay, player = oracle.play(replay, player, move.index), 1 - player
    assert replay == grid
    # Moves after the end are refused and change nothing.
    before = snapshot(position)
    for move in ("pass", Move(0, size), 0, "a1"):
        with pytest.raises(GameOverError):
            position.push(move)
        assert snapshot(position) == before


# -- text -----------------------------------------------------------------------------------------


def test_from_text_start_and_variants(backend):
    start = Othello(backend=backend.name)
    assert Othello.from_text(START_8X8, backend=backend.name) == start
    assert Othello.from_text(START_8X8.replace("-", "."), backend=backend.name) == start
    assert Othello.from_text(START_8X8.replace("X", "*"), backend=backend.name) == start
    assert Othello.from_text(START_8X8.lower(), backend=backend.name) == start
    assert Othello.from_text("  " + START_8X8 + " ;  a comment\n", backend=backend.name) == start
    white_to_move = Othello.from_text(START_8X8[:-1] + "O", backend=backend.name)
    assert white_to_move.turn == WHITE and white_to_move != start


def test_from_text_edax_obf_line(backend):
    game = Othello.from_text(FFO_40, backend=backend.name)
    assert game.turn == BLACK
    assert game.to_text() == FFO_40.split(";")[0]
    assert game.score() == (FFO_40.count("X") - 1, FFO_40.count("O"))  # minus the side letter
    assert "a2" in names(game.legal_moves())  # the listed best move is legal
    assert game.move_stack == []


def test_readable_board_round_trip(backend):
    game = Othello(10, backend=backend.name)
    for move in ("d5", "d4", "d3"):
        game.push(move)
    text = str(game)
    assert "a b c d e f g h i j" in text
    assert "O to move" in text
    assert " x " in text.splitlines()[3]  # d3, the last move, in lower case on row 3
    assert text.splitlines()[10].split()[0] == "10"
    assert Othello.from_text(text, backend=backend.name) == game
    assert Othello.from_text(text, backend=backend.name).to_text() == game.to_text()


@given(games())
def test_text_round_trips(backend, game):
    size, picks = game
    position = play_picks(Othello(size, backend=backend.name), picks)
    note(position.to_text())
    for text in (position.to_text(), str(position), repr(position).split("'")[1]):
        again = Othello.from_text(text, backend=backend.name)
        if position.is_game_over() and text == str(position):
            # The drawing of a finished game says "game over", not whose turn it would be.
            assert again.cells() == position.cells() and again.is_game_over()
            continue
        assert again == position
        assert again.to_text() == position.to_text()
        assert again.zobrist_hash() == position.zobrist_hash()
        assert again.legal_moves() == position.legal_moves()
    assert Othello.from_cells(position.cells(), turn=position.turn, backend=backend.name) == position
    # The readable form names whose turn it is and the score.
    black, white = position.score()
    assert f"X: {black}  O: {white}" in str(position)


# -- hashes and equality ---------------------------------------------------------------------------


def test_zobrist_known_value_and_incremental_update(backend):
    game = Othello(backend=backend.name)
    expected = SQUARE_KEYS[0][28] ^ SQUARE_KEYS[0][35] ^ SQUARE_KEYS[1][27] ^ SQUARE_KEYS[1][36] ^ TURN_KEYS[0]
    assert game.zobrist_hash() == expected
    assert 0 <= game.zobrist_hash() < 2**64
    hashes = {game.zobrist_hash()}
    for move in ("f5", "d6", "c3", "d3", "c4"):
        game.push(move)
        # Updated move by move, it equals the hash computed from scratch for the same position.
        assert game.zobrist_hash() == Othello.from_text(game.to_text(), backend=backend.name).zobrist_hash()
        hashes.add(game.zobrist_hash())
    assert len(hashes) == 6
    side_swapped = Othello.from_text(game.to_text()[:-1] + "XO"[1 - game.turn], backend=backend.name)
    assert side_swapped.zobrist_hash() != game.zobrist_hash()


def test_zobrist_equal_across_backends(backends):
    for size in SIZES:
        py = Othello(size, backend="python")
        cy = Othello(size, backend="cython")
        assert py.zobrist_hash() == cy.zobrist_hash()
        for k in range(12):
            move = py.legal_moves()[k % len(py.legal_moves())]
            py.push(move)
            cy.push(move)
            assert py.zobrist_hash() == cy.zobrist_hash()


def test_equality(backend):
    a = Othello(backend=backend.name)
    b = Othello(backend=backend.name)
    assert a == b and not (a != b)
    b.push("d3")
    assert a != b
    b.pop()
    assert a == b
    assert Othello(6, backend=backend.name) != Othello(8, backend=backend.name)
    assert a != START_8X8 and a != 0 and a != None  # noqa: E711
    # Same discs, other side to move: a different position.
    assert Othello.from_text(START_8X8[:-1] + "O", backend=backend.name) != a
    # Equality is about the position, not how it was reached.
    transposed_1 = Othello(backend=backend.name)
    for move in ("f5", "f6", "e6", "f4"):
        transposed_1.push(move)
    assert transposed_1 == Othello.from_text(transposed_1.to_text(), backend=backend.name)
    with pytest.raises(TypeError):
        hash(a)


def test_equality_across_backends(backends):
    py = Othello(backend="python").play("d3")
    cy = Othello(backend="cython").play("d3")
    assert py == cy and cy == py
    assert py != Othello(backend="cython")


# -- bad input ----------------------------------------------------------------------------------------


MALFORMED = ["z9", "d", "", " ", "dd", "3", "d33", "3d", "d-3", "d 3 4", "a0", "k1", "3,", "pass3", "d3d4"]
OFF_BOARD_8X8 = [
    "i1",
    "a9",
    "j10",
    (8, 0),
    (0, 8),
    (-1, 0),
    (0, -1),
    64,
    -1,
    100,
    2**200,
    -(2**70),
    "9 1",
    "0 1",
    "1 0",
]
WRONG_TYPES = [
    1.5,
    3.0,
    float("nan"),
    True,
    False,
    b"d3",
    [2, 3],
    {},
    object(),
    (2.0, 3),
    (2, 3, 4),
    (True, 3),
    ("d", 3),
    19.0,
]


def assert_refused(game, move, error):
    before = snapshot(game)
    with pytest.raises(error):
        game.push(move)
    assert snapshot(game) == before
    with pytest.raises(error):
        game.play(move)
    assert snapshot(game) == before


@pytest.mark.parametrize("move", MALFORMED, ids=repr)
def test_malformed_square(backend, move):
    assert_refused(Othello(backend=backend.name), move, InvalidSquareError)


@pytest.mark.parametrize("move", OFF_BOARD_8X8, ids=repr)
def test_off_board_square(backend, move):
    assert_refused(Othello(backend=backend.name), move, InvalidSquareError)


@pytest.mark.parametrize("move", ["g1", "a7", (6, 0), 36, "7 1", Move(40)])
def test_off_board_square_6x6(backend, move):
    error = InvalidMoveError if isinstance(move, Move) else InvalidSquareError
    assert_refused(Othello(6, backend=backend.name), move, error)


@pytest.mark.parametrize("move", WRONG_TYPES, ids=repr)
def test_wrong_type_of_move(backend, move):
    # errors.py: a wrong type is "something that cannot be read as a move"; the parser
    # reports it as a bad square. Either is a ValueError from gamecore.errors.
    assert_refused(Othello(backend=backend.name), move, (InvalidMoveError, InvalidSquareError))


def test_none_is_not_a_move(backend):
    assert_refused(Othello(backend=backend.name), None, InvalidMoveError)


def test_move_for_another_board_size(backend):
    assert_refused(Othello(backend=backend.name), Move(19, 10), InvalidMoveError)


@pytest.mark.parametrize("move", ["a1", "h8", "d4", "e4", (3, 3), 27, "b2", "d6", Move(0)])
def test_illegal_moves(backend, move):
    # a1/h8/b2/d6 flip nothing; d4/e4/(3,3)/27 are occupied.
    assert_refused(Othello(backend=backend.name), move, IllegalMoveError)


def test_illegal_move_reasons(backend):
    game = Othello(backend=backend.name)
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.push("d4")
    with pytest.raises(IllegalMoveError, match="flips no disc"):
        game.push("a1")


def test_bad_input_does_not_break_the_position(backend):
    game = Othello(backend=backend.name)
    game.push("f5")
    for bad in MALFORMED + OFF_BOARD_8X8 + WRONG_TYPES + [None, "a1", "pass"]:
        with pytest.raises(ValueError):
            game.push(bad)
    game.push("d6")
    game.push("c3")
    assert names(game.move_stack) == ["f5", "d6", "c3"]
    assert game == Othello.from_text(game.to_text(), backend=backend.name)


def test_pop_on_empty_history(backend):
    game = Othello(backend=backend.name)
    before = snapshot(game)
    with pytest.raises(EmptyHistoryError):
        game.pop()
    with pytest.raises(IndexError):
        game.pop()
    assert snapshot(game) == before
    # A position read from text has no history either.
    read = Othello.from_text(FFO_40, backend=backend.name)
    with pytest.raises(EmptyHistoryError):
        read.pop()


def test_move_after_game_over(backend):
    game = Othello.from_text("X" + "-" * 62 + "O X", backend=backend.name)
    for move in ("b1", "pass", Move(PASS), 1):
        assert_refused(game, move, GameOverError)
    with pytest.raises(IllegalMoveError):
        game.push("pass")


@pytest.mark.parametrize("size", [7, 3, 12, 2, 0, -8, 11, 9, 1, 14, 2**64, "8", 8.0, True, None, [8]], ids=repr)
def test_bad_size(backend, size):
    with pytest.raises(InvalidSizeError):
        Othello(size, backend=backend.name)


BAD_TEXTS = [
    START_8X8[1:],  # 63 squares
    "-" + START_8X8,  # 65 squares
    "-" * 49 + " X",  # 7x7
    "-" * 144 + " X",  # 12x12
    START_8X8.replace("-", "Z", 1),  # stray character
    START_8X8.replace("-", "1", 1),
    START_8X8.replace("-", "#", 1),
    START_8X8[:-2],  # no side to move
    START_8X8[:-1] + "Q",  # bad side to move
    START_8X8 + " X",  # three fields
    START_8X8.replace(" ", ""),  # no space before the side
    "",
    "   \n  ",
    "; X",
    "a b\nc d\n",  # multi-line without a turn line
]


@pytest.mark.parametrize("text", BAD_TEXTS, ids=range(len(BAD_TEXTS)))
def test_bad_position_text(backend, text):
    with pytest.raises(InvalidPositionError):
        Othello.from_text(text, backend=backend.name)


def test_bad_readable_board(backend):
    good = str(Othello(6, backend=backend.name))
    assert Othello.from_text(good, backend=backend.name) == Othello(6, backend=backend.name)
    lines = good.splitlines()
    for broken in (
        "\n".join(lines[:2] + lines[3:]),  # a row missing
        "\n".join(lines[:-1]),  # no turn line
        good.replace("X", "Y", 1),  # stray character
        "\n".join(lines[:3] + [lines[3] + " -"] + lines[4:]),  # a row too long
    ):
        with pytest.raises((InvalidPositionError, InvalidSizeError)):
            Othello.from_text(broken, backend=backend.name)


@pytest.mark.parametrize("text", [None, b"-" * 64 + b" X", 64, ["-" * 64, "X"]], ids=repr)
def test_position_text_of_wrong_type(backend, text):
    with pytest.raises(InvalidPositionError):
        Othello.from_text(text, backend=backend.name)


def test_bad_cells(backend):
    good = Othello(4, backend=backend.name).cells()
    assert Othello.from_cells(good, backend=backend.name) == Othello(4, backend=backend.name)
    cases = [
        ([row[:3] for row in good], InvalidPositionError),  # not square
        (good[:3], InvalidPositionError),
        ([[2] * 4] * 4, InvalidPositionError),  # bad cell value
        ([[True] * 4] * 4, InvalidPositionError),
        ([[0.0] * 4] * 4, InvalidPositionError),
        ([[-1] * 5] * 5, InvalidSizeError),  # odd size
        ([[-1] * 12] * 12, InvalidSizeError),
        ([[-1] * 2] * 2, InvalidSizeError),
        (None, InvalidPositionError),
        ([1, 2, 3, 4], InvalidPositionError),
    ]
    for rows, error in cases:
        with pytest.raises(error):
            Othello.from_cells(rows, backend=backend.name)
    for turn in (2, -1, None, True, "X", 0.0):
        with pytest.raises(InvalidPositionError):
            Othello.from_cells(good, turn=turn, backend=backend.name)


def test_error_classes():
    for error in (
        InvalidSizeError,
        InvalidSquareError,
        InvalidMoveError,
        IllegalMoveError,
        InvalidPositionError,
        GameOverError,
    ):
        assert issubclass(error, ValueError) and issubclass(error, GamecoreError)
    assert issubclass(GameOverError, IllegalMoveError)
    assert issubclass(EmptyHistoryError, IndexError) and not issubclass(EmptyHistoryError, ValueError)
    assert issubclass(BackendUnavailableError, ImportError)
    assert gamecore.IllegalMoveError is IllegalMoveError


# -- the compiled core's boundary --------------------------------------------------------------------

HUGE = [2**63, 2**64, 2**64 + 1, 2**100, 2**128, 2**200, -(2**63) - 1, -(2**200), -1]


def test_core_constructor_garbage(backend):
    Core = backend.othello.OthelloCore
    for size in HUGE + [9, 7, 12, 0, 2, 8.0, 8.5, None, "8", True, [8], 2**31, -(2**31)]:
        with pytest.raises(InvalidSizeError):
            Core(size)
    core = Core(8)
    state = core.bitboards(), core.turn, core.zobrist()
    with pytest.raises(InvalidSizeError):
        core.__init__(2**200)  # re-initialising with garbage keeps the position
    assert (core.bitboards(), core.turn, core.zobrist()) == state


@pytest.mark.parametrize("size", SIZES)
def test_core_push_garbage(backend, size):
    core = backend.othello.OthelloCore(size)
    state = core.bitboards(), core.turn, core.zobrist(), core.history()
    for move in HUGE + [
        2**31,
        2**32,
        -(2**31) - 1,
        size * size,
        127,
        128,
        255,
        256,
        -2,
        3.0,
        19.5,
        None,
        "d3",
        True,
        False,
        (2, 3),
        object(),
    ]:
        with pytest.raises(IllegalMoveError):
            core.push(move)
        assert (core.bitboards(), core.turn, core.zobrist(), core.history()) == state
    with pytest.raises(EmptyHistoryError):
        core.pop()


@pytest.mark.parametrize("size", SIZES)
def test_core_set_board_garbage(backend, size):
    core = backend.othello.OthelloCore(size)
    state = core.bitboards(), core.turn, core.zobrist()
    nsq = size * size
    too_big = [b for b in HUGE + [1 << 64, 1 << 127] if not 0 <= b < 1 << nsq]
    bad_boards = too_big + [1 << nsq, (1 << nsq) - 1 + (1 << 127), 1.0, None, "1", True, 1 + 0j]
    for bb in bad_boards:
        for args in ((bb, 0, 0), (0, bb, 0)):
            with pytest.raises(InvalidPositionError):
                core.set_board(*args)
            assert (core.bitboards(), core.turn, core.zobrist()) == state
    for turn in (2, -1, 2**64, 2**200, None, True, 0.0, "X"):
        with pytest.raises(InvalidPositionError):
            core.set_board(1, 2, turn)
    with pytest.raises(InvalidPositionError):
        core.set_board(3, 2, 0)  # a square with two discs
    assert (core.bitboards(), core.turn, core.zobrist()) == state
    # The largest legal bitboards are accepted and read back unchanged.
    full = (1 << nsq) - 1
    core.set_board(full, 0, 1)
    assert core.bitboards() == (full, 0) and core.counts() == (nsq, 0) and core.is_game_over()
    core.set_board(0, full, 0)
    assert core.bitboards() == (0, full) and core.legal_moves() == []


def test_compiled_module_functions_garbage(backends):
    _, cy = backends
    m = cy.othello
    for bb in [b for b in HUGE if not 0 <= b < 2**64] + [1.0, None, "1", True]:
        with pytest.raises(ValueError):
            m.legal_moves_mask(bb, 0, 8)
        with pytest.raises(ValueError):
            m.flips(0, bb, 3, 8)
    for size in (9, 12, 0, None, 8.0, 2**64, -8):
        with pytest.raises(ValueError):
            m.legal_moves_mask(1, 2, size)
        with pytest.raises(ValueError):
            m.flips(1, 2, 3, size)
    for square in (-1, 64, 100, 2**64, 2**200, 3.0, None, "d3"):
        with pytest.raises(ValueError):
            m.flips(1, 2, square, 8)
    for row in (2**64, 2**200, -(2**200)):
        with pytest.raises(OverflowError):
            m.square_weight(row, 0, 8)
    with pytest.raises(TypeError):
        m.square_weight(None, 0, 8)


def test_core_copy_pickle_do_not_crash(backend):
    core = backend.othello.OthelloCore(8)
    core.push(19)
    twin = core.copy()
    assert twin.bitboards() == core.bitboards() and twin.history() == core.history()
    for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
        try:
            result = attempt(core)
        except TypeError:
            continue  # refusing is fine; crashing or a half-made object is not
        if attempt is pickle.dumps:
            result = pickle.loads(result)
        assert result.bitboards() == core.bitboards()
        assert result.history() == core.history()


UNINITIALISED_CORE = """
import sys
from gamecore import _backend
Core = _backend.load(sys.argv[1]).othello.OthelloCore
core = Core.__new__(Core)
for name, args in [("legal_moves", ()), ("bitboards", ()), ("counts", ()), ("zobrist", ()),
                   ("is_game_over", ()), ("history", ()), ("push", (19,)), ("pop", ()),
                   ("perft", (3,)), ("copy", ()), ("set_board", (1, 2, 0))]:
    try:
        getattr(core, name)(*args)
    except Exception:
        pass
print("survived")
"""


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param("cython", id="cy", marks=pytest.mark.cython),
        pytest.param("python", id="py"),
    ],
    indirect=True,
)
def test_uninitialised_core_does_not_crash(backend):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(gamecore.__file__))] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    env.pop("GAMECORE_BACKEND", None)
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(UNINITIALISED_CORE), backend.name],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, f"interpreter died (exit {result.returncode}): {result.stderr[-500:]}"
    assert result.stdout.strip() == "survived"
