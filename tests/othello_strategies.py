"""Hypothesis strategies for Othello positions reachable by legal play."""

from __future__ import annotations

from hypothesis import strategies as st

from othello_helpers import SIZES

sizes = st.sampled_from(SIZES)


@st.composite
def games(draw, size=None, max_moves=None):
    """``(size, picks)``: a board size and move choices for :func:`othello_helpers.play_picks`.

    The number of picks is drawn first, up to a whole game, so openings, middle games and
    endings (with passes) all turn up; each pick is reduced modulo the number of legal moves.
    """
    n = draw(sizes) if size is None else size
    limit = n * n if max_moves is None else max_moves
    count = draw(st.integers(0, limit))
    picks = draw(st.lists(st.integers(0, 255), min_size=count, max_size=count))
    return n, picks


@st.composite
def full_games(draw, size=None):
    """``(size, picks)`` long enough to play a game to its end (picks are reused cyclically)."""
    n = draw(sizes) if size is None else size
    picks = draw(st.lists(st.integers(0, 255), min_size=1, max_size=n * n))
    return n, picks


def cycle(picks, length=400):
    """``picks`` repeated up to ``length`` items (more than any game lasts)."""
    return [picks[i % len(picks)] for i in range(length)]
