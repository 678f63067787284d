"""One API voice for every game: colours, outcomes, moves and text read the same way
in Othello and Tetralath (python-chess is the model)."""

from __future__ import annotations

import ast
import enum
import inspect
import pathlib
import pickle
import random

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


# -- the same members on every game (issue "one voice") ------------------------------------

GAME_CLASSES = (Othello, Tetralath, gamecore.Rolit)

#: Members that differ between the games on purpose: name -> why. Anything else that differs
#: (a member missing from a game, or other parameters) fails the test below.
INTENDED = {
    # Each game's colours by name.
    "BLACK": "Othello's and Tetralath's colours",
    "WHITE": "Othello's and Tetralath's colours",
    "RED": "Rolit's colours",
    "BLUE": "Rolit's colours",
    "YELLOW": "Rolit's colours",
    "GREEN": "Rolit's colours",
    # Rules that only one game has.
    "SWAP": "Tetralath's swap move (the swap rule)",
    "swap_rule": "Tetralath's swap rule",
    "colours": "Rolit: the older name of colors (the API spells colour as its Color class does)",
    "compulsory_capture": "Rolit's capture rule",
    "tie_rule": "Rolit's tie rule",
    "reached_at": "Rolit's tie rule: the ply each colour reached its score",
    # Older names, kept as documented aliases of scores() for existing code and the adapters.
    "score": "older name of scores(): Othello a (black, white) tuple, Rolit the same dict",
    "counts": "Tetralath: older (white, black) tuple; Rolit: all four colours, neutral ones too",
    "feature_values": "Rolit takes the colour (n players); the two-player games give the side to move's",
    # The same member with each game's own options (all keyword-only).
    "from_cells": "game options: Tetralath swap=, Rolit colors=/turn=/rule flags (and the older colours=/to_move=)",
    "from_text": "game options: Tetralath swap=, Rolit colors=/turn=/rule flags (and the older colours=/to_move=)",
    "from_moves": "game options: Othello size=, Tetralath swap=, Rolit the options of Rolit() (and the older colours=)",
    "render": "game options: Othello style=, Tetralath color=/lang=, Rolit status=; Rolit marks the last move only "
    "when given (str() is the handout's board, which bots read)",
}


def _shape(cls: type, name: str) -> str:
    """How a member looks from outside: 'property', 'data', or its parameters ('*' before a
    keyword-only one)."""
    raw = inspect.getattr_static(cls, name)
    if isinstance(raw, property) or type(raw).__name__ == "getset_descriptor":
        return "property"
    member = getattr(cls, name)
    if not callable(member) or isinstance(member, type) or isinstance(raw, enum.Enum):
        return "data"
    parameters = inspect.signature(member).parameters.values()
    return (
        "("
        + ", ".join(("*" if p.kind is p.KEYWORD_ONLY else "") + p.name for p in parameters if p.name != "self")
        + ")"
    )


def test_every_game_has_the_same_public_members():
    table = {}
    for name in sorted({n for cls in GAME_CLASSES for n in dir(cls) if not n.startswith("_")}):
        table[name] = tuple(_shape(cls, name) if hasattr(cls, name) else "-" for cls in GAME_CLASSES)
    differing = {name: row for name, row in table.items() if len(set(row)) > 1}
    unexplained = {name: row for name, row in differing.items() if name not in INTENDED}
    assert not unexplained, f"members that differ between Othello, Tetralath and Rolit: {unexplained}"
    stale = sorted(set(INTENDED) - set(differing))
    assert not stale, f"listed as differing but now the same (remove from INTENDED): {stale}"
    for name in ("scores", "player", "size", "perft", "from_cells", "with_backend", "render", "legal_moves"):
        assert all(hasattr(cls, name) for cls in GAME_CLASSES), name
    # Every option after the first argument is keyword-only.
    for name in ("from_cells", "from_text", "from_moves", "render"):
        for shape in table[name]:
            later = shape.strip("()").split(", ")[1:]
            assert all(p.startswith("*") for p in later), (name, shape)


def _play_out(game, seed: int):
    rng = random.Random(seed)
    while not game.is_game_over():
        game.push(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize(
    "make",
    [
        lambda b: Othello(6, backend=b),
        lambda b: Tetralath(backend=b),
        lambda b: gamecore.Rolit(backend=b),
        lambda b: gamecore.Rolit("RYG", backend=b),
    ],
    ids=["othello6", "tetralath", "rolit4", "rolit3"],
)
def test_scores_are_the_outcome_scores_in_play_order(backend, make):
    game = make(backend.name)
    start = game.scores()
    assert list(start) == [game.turn, *[c for c in start if c != game.turn]]  # the first to move first
    for seed in range(3):
        done = _play_out(game.copy(), seed)
        assert done.scores() == dict(done.outcome().scores)
        assert list(done.scores()) == list(start)  # the same colours in the same order
        cells = [v for row in done.cells() for v in row]
        for colour, count in done.scores().items():
            assert cells.count(int(colour)) == count


def test_othello_scores_and_score_agree(backend):
    game = Othello.from_moves("f5d6c3d3c4", backend=backend.name)
    assert game.scores() == {Othello.BLACK: 6, Othello.WHITE: 3}
    assert tuple(game.scores().values()) == game.score()


def test_player_is_the_number_of_the_side_to_move(backend):
    game = Othello(backend=backend.name)
    assert game.player == 0
    game.push("d3")
    assert game.player == 1 and int(game.turn) == 1
    assert Tetralath.from_moves("e5", backend=backend.name).player == 1


def test_from_cells_reads_what_cells_gives_on_every_game(backend):
    othello = Othello.from_moves("f5d6c3", backend=backend.name)
    assert Othello.from_cells(othello.cells(), turn=othello.player, backend=backend.name) == othello
    tetralath = Tetralath.from_moves("e5 d4 c3", backend=backend.name)
    copy = Tetralath.from_cells(tetralath.cells(), turn=tetralath.player, backend=backend.name)
    assert copy.cells() == tetralath.cells() and copy.turn == tetralath.turn
    rolit = gamecore.Rolit.from_moves("f4 d3", backend=backend.name)
    again = gamecore.Rolit.from_cells(rolit.cells(), to_move=rolit.turn, backend=backend.name)
    assert again.cells() == rolit.cells() and again.turn == rolit.turn and again.legal_moves() == rolit.legal_moves()
    with pytest.raises(InvalidPositionError):
        Tetralath.from_cells([[-1] * 5], backend=backend.name)
    with pytest.raises(InvalidPositionError):
        Tetralath.from_cells(tetralath.cells(), turn=2, backend=backend.name)
    with pytest.raises(InvalidPositionError):
        gamecore.Rolit.from_cells([[7] * 8] * 8, backend=backend.name)


def test_tetralath_perft_and_size(backend):
    game = Tetralath(backend=backend.name)
    assert game.size == 61
    assert game.perft(1) == 61 and game.perft(2) == 61 * 60


def test_with_backend_on_every_game(backends):
    py, cy = backends
    for game in (Othello.from_moves("f5d6", backend=py.name), Tetralath.from_moves("e5 a1", backend=py.name)):
        moved = game.with_backend(cy.name)
        assert moved.backend == cy.name and moved == game and moved.move_stack == game.move_stack
    with pytest.raises(ValueError):
        Othello().with_backend("fortran")


@pytest.mark.parametrize(
    "make",
    [lambda b: Othello(6, backend=b), lambda b: Tetralath(backend=b), lambda b: gamecore.Rolit("RYG", backend=b)],
)
def test_cell_distinct_moves_and_render_of_the_last_move_on_every_game(backend, make):
    game = _play_out(make(backend.name), 5)
    board = game.cells()
    flat = [value for row in board for value in row]
    for move in game.move_stack:  # every square played holds a ball, stone or disc
        if not 0 <= move.index < len(flat):
            continue  # a pass or a swap
        assert game.cell(move) == game.cell(move.name) == game.cell(move.index) == flat[move.index] >= 0
    empty = [i for i, value in enumerate(flat) if value < 0]
    if empty:
        assert game.cell(empty[0]) == -1
    with pytest.raises(gamecore.errors.InvalidSquareError):
        game.cell(len(flat))
    # Every game gives the engine's root moves; only Tetralath leaves symmetric ones out.
    fresh = make(backend.name)
    distinct = fresh.distinct_moves()
    assert set(distinct) <= set(fresh.legal_moves()) and distinct
    assert (len(distinct) < len(fresh.legal_moves())) == isinstance(fresh, Tetralath)
    # render(move) works everywhere and marks that move: lower case or parentheses.
    last = next(m for m in reversed(game.move_stack) if 0 <= m.index < len(flat))
    marked = game.render(last).splitlines()
    if isinstance(game, gamecore.Rolit):
        plain = game.render()
        changed = [a for a, b in zip(marked, plain.splitlines(), strict=True) if a != b]
        assert len(changed) == 1  # one row differs: the one with the last move
        assert sum(ch.islower() for ch in changed[0]) == 1


def test_othello_feature_values_are_what_the_evaluation_weighs(backend):
    game = Othello.from_moves("f5 d6 c3", backend=backend.name)  # white to move
    values = dict(zip(game.features(), game.feature_values(), strict=True))
    black, white = game.score()
    assert values["discs"] == white - black
    assert values["corners"] == 0
    assert values["parity"] == 1  # 57 empty squares: white would make the last move
    as_black = Othello.from_text(game.to_text()[:-1] + "X", backend=backend.name)
    assert values["mobility"] == len(game.legal_moves()) - len(as_black.legal_moves())
    assert game.feature_values() == game.with_backend("python").feature_values()


def test_rolit_turn_and_colors_keep_their_older_names(backend):
    game = gamecore.Rolit("RYG", backend=backend.name).play("f4")
    text = game.to_text()
    again = gamecore.Rolit.from_text(text, turn=game.turn, colors="RYG", backend=backend.name)
    older = gamecore.Rolit.from_text(text, to_move=game.turn, colours="RYG", backend=backend.name)
    assert again == older == game
    assert gamecore.Rolit(colors="RG").colors == gamecore.Rolit(colours="RG").colours
    assert game.feature_values(color="Y") == game.feature_values(colour="Y")
    with pytest.raises(gamecore.errors.InvalidOptionError):
        gamecore.Rolit(colors="RG", colours="RG")
    with pytest.raises(gamecore.errors.InvalidOptionError):
        gamecore.Rolit.from_text(text, turn="R", to_move="R")


def test_one_docstring_style():
    """Every docstring of the package writes its fields as reST (``:param x:``, ``:raises E:``),
    never Google's ``Args:`` or NumPy's underlined ``Parameters`` sections; the exception is
    the entry points a newcomer reads in ``help()`` (``test_docstrings.ENTRY_POINTS``), which
    use napoleon's ``Args:``/``Raises:`` because pydoc prints reST fields raw (#33)."""
    from test_docstrings import ENTRY_POINTS  # noqa: PLC0415

    plain = {inspect.getdoc(entry) for entry in ENTRY_POINTS.values()}
    root = pathlib.Path(gamecore.__file__).parent
    other = ("Args:", "Arguments:", "Returns:", "Raises:", "Yields:", "Parameters\n", "@param", ":rtype:")
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
                doc = ast.get_docstring(node) or ""
                if doc in plain:
                    continue
                found += [f"{path.relative_to(root)}: {word!r}" for word in other if word in doc]
    assert not found, found
    assert ":param" in inspect.getdoc(gamecore.Engine.search) or ":param" in inspect.getdoc(gamecore.Engine)


def test_the_root_perft_counts_every_game(backend):
    # Known counts: Othello 8x8 perft(3) = 56 (4, 12, 56, 244...); Tetralath's first two plies, 61 * 60;
    # Rolit's first ply: red's three captures (the compulsory-capture rule).
    assert gamecore.perft(Othello(backend=backend.name), 3) == 56
    assert gamecore.perft(Tetralath(backend=backend.name), 2) == 61 * 60
    assert gamecore.perft(gamecore.Rolit(backend=backend.name), 1) == 3
