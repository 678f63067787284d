"""The pure twin's generated Othello kernels: checked against the plain reference loops,
readable in tracebacks, and printable.

``games/_othello_py.py`` writes one move generator and one flip function per square for each
board size and compiles them (twice as fast in CPython as loops). ``reference_moves`` and
``reference_flips`` are the plain version a student reads; these tests hold the two equal.
(The compiled backend's C kernels are compared with the pure twin by tests/test_agreement.py.)
"""

from __future__ import annotations

import linecache
import traceback

from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.games import _othello_py as pure

SIZES = (4, 6, 8, 10)


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, int, int]:
    """A size and two disjoint disc sets: any occupancy, not only reachable positions."""
    size = draw(st.sampled_from(SIZES))
    cells = draw(st.lists(st.sampled_from((0, 1, 2)), min_size=size * size, max_size=size * size))
    player = sum(1 << i for i, cell in enumerate(cells) if cell == 1)
    opponent = sum(1 << i for i, cell in enumerate(cells) if cell == 2)
    return size, player, opponent


def test_the_reference_finds_the_four_opening_moves() -> None:
    g = pure.geometry_of(8)
    black = 1 << 28 | 1 << 35  # e4, d5
    white = 1 << 27 | 1 << 36  # d4, e5
    names = {19: "d3", 26: "c4", 37: "f5", 44: "e6"}
    moves = pure.reference_moves(black, white, g)
    assert {sq for sq in range(64) if moves >> sq & 1} == set(names)
    assert pure.reference_flips(black, white, 19, g) == 1 << 27  # d3 flips d4


@settings(max_examples=300, deadline=None)
@given(boards())
def test_generated_kernels_agree_with_the_reference(board: tuple[int, int, int]) -> None:
    size, player, opponent = board
    g = pure.geometry_of(size)
    assert g.moves(player, opponent) == pure.reference_moves(player, opponent, g)
    for square in range(g.nsq):
        if not (player | opponent) >> square & 1:
            assert g.flippers[square](player, opponent) == pure.reference_flips(player, opponent, square, g), square


def test_generated_code_is_printable_and_named_in_tracebacks() -> None:
    g = pure.geometry_of(6)
    assert g.kernel_source.startswith("def moves(P, O):\n")
    assert "def flips_35(P, O):" in g.kernel_source
    code = g.moves.__code__
    assert code.co_filename == "<othello 6x6 kernels>"
    assert linecache.getline(code.co_filename, code.co_firstlineno) == "def moves(P, O):\n"
    try:
        g.moves("not a board", 0)  # type: ignore[arg-type]
    except TypeError as exc:
        frames = traceback.extract_tb(exc.__traceback__)
        assert frames[-1].filename == "<othello 6x6 kernels>"
        assert frames[-1].line  # the generated line itself, not an empty "<string>" frame
    else:
        raise AssertionError("a str board did not fail")
