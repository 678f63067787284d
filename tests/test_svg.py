"""gamecore.svg: every game's board as well-formed SVG whose pieces, dots, marks, labels and
arrows are the position's, counted here from the position itself."""

import xml.etree.ElementTree as ET

import pytest

from gamecore import GAMES, Othello, Tetralath
from gamecore.errors import InvalidOptionError, InvalidSquareError
from gamecore.svg import SVG, board

NS = "{http://www.w3.org/2000/svg}"


def parsed(picture):
    root = ET.fromstring(str(picture))
    assert root.tag == f"{NS}svg"
    return root


def of_class(root, kind):
    return [e for e in root.iter() if e.get("class") == kind]


def occupied(position):
    return sum(value >= 0 for row in position.cells() for value in row)


def played(position, plies):
    """The position after the first legal move, ``plies`` times."""
    for _ in range(plies):
        position.push(position.legal_moves()[0])
    return position


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_draws_its_pieces_and_legal_moves(name, backend):
    position = played(GAMES[name].for_size(backend=backend.name), 5)
    root = parsed(position._repr_svg_())
    pieces = of_class(root, "piece")
    assert len(pieces) == occupied(position)
    colours = {e.get("fill") for e in pieces}
    assert colours <= set(position.colour_display)
    placements = [m for m in position.legal_moves() if 0 <= m.index < position.geometry().num_cells]
    empty = position.geometry().num_cells - occupied(position)
    dots = of_class(root, "legal")
    assert len(dots) == (0 if len(placements) == empty else len(placements))
    assert len(of_class(root, "last")) == 1


@pytest.mark.parametrize("size", [4, 6, 8, 10])
def test_othello_any_size_has_its_coordinates(size):
    root = parsed(board(Othello(size)))
    names = [e.text for e in of_class(root, "coordinate")]
    assert names == list("abcdefghij"[:size]) + [str(k) for k in range(1, size + 1)]
    assert len(of_class(root, "legal")) == 4 and not of_class(root, "last")
    assert not of_class(parsed(board(Othello(size), coordinates=False)), "coordinate")


def test_tetralath_is_a_hexagon_of_61_named_cells():
    position = Tetralath.from_moves("e5 e4")
    root = parsed(position.svg(labels={"a1": "7"}))
    assert len(of_class(root, "cell")) == 61
    names = {e.text for e in of_class(root, "coordinate")}
    assert "i5" in names and "e5" not in names and "a1" not in names  # occupied, labelled
    assert not of_class(root, "legal")  # every empty cell is legal: no dots


def test_labels_arrows_and_last_move_sit_on_their_squares():
    game = Othello.from_moves("f5d6")
    root = parsed(game.svg(labels={"c3": "+2", 37: "<b>"}, arrows=[("f5", "d6"), ("a1", "h8")], last_move="e4"))
    texts = {e.text for e in of_class(root, "label")}
    assert texts == {"+2", "<b>"}  # escaped in the file, read back as written
    assert len(of_class(root, "arrow")) == 2
    [last] = of_class(root, "last")
    [e4] = [e for e in of_class(root, "piece") if (e.get("cx"), e.get("cy")) == (last.get("cx"), last.get("cy"))]
    assert e4 is not None
    labelled = [e for e in of_class(root, "label") if e.text == "+2"][0]
    dots = {(e.get("cx"), e.get("cy")) for e in of_class(root, "legal")}
    assert (labelled.get("x"), labelled.get("y")) not in dots  # the label replaces c3's dot
    assert len(dots) == len(game.legal_moves()) - 1


def test_default_last_move_is_the_positions():
    game = Othello.from_moves("f5")
    [last] = of_class(parsed(game.svg()), "last")
    [f5] = [e for e in of_class(parsed(game.svg(last_move="f5")), "last")]
    assert (last.get("cx"), last.get("cy")) == (f5.get("cx"), f5.get("cy"))
    assert not of_class(parsed(game.svg(last_move=None)), "last")
    assert not of_class(parsed(game.svg(legal_moves=False)), "legal")


def test_svg_is_a_string_jupyter_shows():
    picture = Othello().svg(size=200)
    assert isinstance(picture, SVG) and picture._repr_svg_() == str(picture)
    assert parsed(picture).get("width") == "200"


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"labels": {"z9": "1"}}, InvalidSquareError),
        ({"arrows": [("a1", "pass")]}, InvalidSquareError),
        ({"last_move": 64}, InvalidSquareError),
        ({"size": 10}, InvalidOptionError),
        ({"size": True}, InvalidOptionError),
    ],
)
def test_bad_options_are_clear_errors(options, error):
    with pytest.raises(error):
        board(Othello(), **options)


def _luminance(display):
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(display.lstrip("#")[k : k + 2], 16) / 255 for k in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a, b):
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_legal_dots_stand_out_on_the_board_for_every_colour(name):
    # issue 33: black's dots were dark green on Othello's green (a 0.55-opaque black dot)
    position = GAMES[name].for_size()
    seen = set()
    while not position.is_game_over() and len(seen) < position.num_players:
        dots = of_class(parsed(board(position)), "legal")
        if dots:
            seen.add(int(position.turn))
            background = position.board_display[0]
            best = max(_contrast(dots[0].get(part), background) for part in ("fill", "stroke"))
            assert best >= 4.5, (position.turn, dots[0].attrib, background)
        position.push(position.legal_moves()[0])
    assert len(seen) == position.num_players or name == "tetralath"  # Tetralath shows no dots


@pytest.mark.parametrize("name", sorted(GAMES))
def test_clickable_cells_say_their_name_owner_and_legality(name, backend):
    position = played(GAMES[name].for_size(backend=backend.name), 3)
    targets = of_class(parsed(board(position, clickable=True)), "hit")
    cells = [value for row in position.cells() for value in row]
    assert [t.get("data-cell") for t in targets] == [str(position.move_from_code(i)) for i in range(len(cells))]
    assert [int(t.get("data-owner")) for t in targets] == cells
    legal = {m.index for m in position.legal_moves()}
    assert {i for i, t in enumerate(targets) if t.get("data-legal") == "1"} == legal & set(range(len(cells)))
    assert [i for i, t in enumerate(targets) if t.get("data-last")] == [position.peek().index]
    assert not of_class(parsed(board(position)), "hit")  # only when asked


def test_flipped_rings_the_discs_the_last_move_turned():
    game = Othello.from_moves("f5 d6 c3")  # c3 turns d4 over
    rings = of_class(parsed(game.svg(flipped=True)), "flipped")
    [d4] = [e for e in of_class(parsed(game.svg(labels={"d4": "x"})), "label")]
    assert [(r.get("cx"), r.get("cy")) for r in rings] == [(d4.get("x"), d4.get("y"))]
    assert not of_class(parsed(Othello().svg(flipped=True)), "flipped")  # no move yet
    assert not of_class(parsed(Tetralath.from_moves("e5").svg(flipped=True)), "flipped")  # nothing turns
