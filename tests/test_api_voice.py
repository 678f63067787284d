"""One API voice for every game: colours, outcomes, moves and text read the same way
in Othello and Tetralath (python-chess is the model)."""

from __future__ import annotations

import pickle

import pytest

import gamecore
from gamecore import GAMES, Engine, Othello, Outcome, Termination, Tetralath
from gamecore.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidSquareError
from gamecore.games.base import Color


def test_colours_are_named_on_their_game():
    assert int(Othello.BLACK) == 0 and int(Othello.WHITE) == 1
    assert int(Tetralath.WHITE) == 0 and int(Tetralath.BLACK) == 1
    assert repr(Othello.BLACK) == "Othello.BLACK" and str(Tetralath.WHITE) == "white"
    assert isinstance(Othello.WHITE, Color) and isinstance(Tetralath.BLACK, Color)
    assert Othello.BLACK is not Tetralath.BLACK


def test_turn_is_the_colour(backend):
    game = Othello(backend=backend.name)
    assert game.turn is Othello.BLACK
    game.push("d3")
    assert game.turn is Othello.WHITE and repr(game.turn) == "Othello.WHITE"
    assert Tetralath(backend=backend.name).turn is Tetralath.WHITE


def test_ambiguous_root_names_point_to_the_game():
    for name in ("BLACK", "WHITE", "PASS", "Move"):
        with pytest.raises(AttributeError, match="belong to a game"):
            getattr(gamecore, name)
    assert set(GAMES) >= {"othello", "tetralath"}


def test_one_outcome_shape(backend):
    othello = Othello.from_moves("b1a1a2c1d1a3a4d2d3b4c4d4", size=4, backend=backend.name)
    tetralath = Tetralath.from_moves("e1 a1 e2 a2 e3", backend=backend.name)
    a, b = othello.outcome(), tetralath.outcome()
    assert type(a) is type(b) is Outcome
    # Hand-checked: the 4x4 game ends full with 6 black and 10 white discs.
    assert a == Outcome(Othello.WHITE, Termination.FULL_BOARD, {Othello.BLACK: 6, Othello.WHITE: 10})
    assert str(a) == "white wins 10-6 (full board)" and a.result() == othello.result() == "0-1"
    # White's e1 e2 e3 is three in a row: black wins.
    assert b == Outcome(Tetralath.BLACK, Termination.THREE_IN_A_ROW, {Tetralath.WHITE: 3, Tetralath.BLACK: 2})
    assert str(b) == "black wins 3-2 (white made three in a row)" and b.result() == "0-1"
    assert Othello(backend=backend.name).outcome() is None and Othello().result() == "*"


def test_moves_from_text_and_index():
    assert Othello.Move("d3") == Othello.Move(19) == Othello.Move.parse("D3")
    assert Othello.Move("pass").is_pass and Othello.Move("e10", size=10).index == 94
    assert str(Othello.Move("d3")) == "d3" and repr(Othello.Move("d3")) == "Othello.Move('d3')"
    assert len({Othello.Move("d3"), Othello.Move(19)}) == 1
    assert Tetralath.Move("e5") == Tetralath.Move(30) == Tetralath.Move.parse("E5")
    assert Tetralath.Move("swap") == Tetralath.SWAP and Tetralath.SWAP.is_swap
    assert repr(Tetralath.Move("e5")) == "Tetralath.Move('e5')"
    for bad in ("z9", "d", 64, True, "e10"):
        with pytest.raises((InvalidSquareError, InvalidMoveError)):
            Othello.Move(bad)
    for bad in ("j1", "a6", 62, True):
        with pytest.raises((InvalidSquareError, InvalidMoveError)):
            Tetralath.Move(bad)
    assert pickle.loads(pickle.dumps(Othello.Move("d3"))) == Othello.Move("d3")


def test_legal_moves_are_move_objects_and_is_legal_reads_text(backend):
    for game, text in ((Othello(backend=backend.name), "d3"), (Tetralath(backend=backend.name), "e5")):
        move = game.parse_move(text)
        assert move in game.legal_moves() and type(move) is type(game).Move
        assert game.is_legal(text) and game.is_legal(move)
        assert text not in game.legal_moves()  # a move does not equal its text: is_legal reads text
        assert not game.is_legal("zz")


def test_othello_from_moves_like_tetralath(backend):
    game = Othello.from_moves("f5d6c3", backend=backend.name)
    assert [str(m) for m in game.move_stack] == ["f5", "d6", "c3"]
    assert Othello.from_moves(["f5", "d6", "c3"], backend=backend.name) == game
    with pytest.raises(IllegalMoveError):
        Othello.from_moves("f5f5", backend=backend.name)
    with pytest.raises(InvalidMoveError):
        Othello.from_moves("f5?", backend=backend.name)


def test_swap_is_a_word_not_a_hidden_index(backend):
    game = Tetralath(backend=backend.name)
    with pytest.raises(InvalidSquareError):
        game.push(61)
    with pytest.raises(InvalidSquareError):
        Othello(backend=backend.name).push(-1)  # nor is the pass: it is "pass"
    swap = Tetralath(swap=True, backend=backend.name)
    swap.push("e5")
    assert swap.is_legal("swap") and swap.is_legal(Tetralath.SWAP) and not swap.is_legal(61)
    swap.push(Tetralath.SWAP)
    assert swap.peek() is not None and swap.peek().is_swap


def test_tetralath_reads_its_portuguese_drawing(backend):
    game = Tetralath.from_moves("e5 d4 c3", backend=backend.name)
    drawing = game.render(lang="pt")
    assert "P" in drawing and "vez das pretas" in drawing
    assert Tetralath.from_text(drawing, backend=backend.name) == game
    assert Tetralath.from_text(str(game), backend=backend.name) == game
    # Without a status line the stone counts say whose turn it is.
    body = "\n".join(drawing.splitlines()[:-1])
    assert Tetralath.from_text(body, backend=backend.name) == game
    with pytest.raises(InvalidPositionError):
        Tetralath.from_text(body.replace("P", "Q"), backend=backend.name)


def test_finished_games_say_so(backend):
    othello = Othello.from_moves("b1a1a2c1d1a3a4d2d3b4c4d4", size=4, backend=backend.name)
    assert "game over: white wins 10-6" in str(othello) and "to move" not in str(othello)
    assert Othello.from_text(str(othello), backend=backend.name).cells() == othello.cells()
    tetralath = Tetralath.from_moves("e1 a1 e2 a2 e3", backend=backend.name)
    assert str(tetralath).splitlines()[-1] == "game over: black wins 3-2 (white made three in a row)"
    assert Tetralath.from_text(str(tetralath), backend=backend.name).cells() == tetralath.cells()


def test_ufrj_drawing_uses_its_symbols_and_reads_back(backend):
    game = Othello(backend=backend.name)
    status = game.render(style="ufrj").splitlines()[-1]
    assert status.startswith("○ to move") and "X" not in status
    assert Othello.from_text(game.render(style="ufrj"), backend=backend.name) == game


def test_engine_refuses_an_unknown_evaluation_at_once():
    with pytest.raises(ValueError, match="unknown evaluation 'nope'"):
        Engine("nope")
    Engine("threats")  # Tetralath's
    Engine("positional")  # Othello's
