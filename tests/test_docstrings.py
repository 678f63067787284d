"""The entry points read well in ``help()`` (#33): their own docstrings carry no reST field
lists, roles or double backticks, which pydoc prints as they are; Sphinx reads the same text
through napoleon (``Args:``/``Raises:``) and ``default_role = "literal"`` (docs/conf.py)."""

from __future__ import annotations

import inspect
import pydoc
import re

import pytest

import gamecore
from gamecore.games.base import Position
from gamecore.players import make_player

ENTRY_POINTS = {
    "gamecore": gamecore,
    "Othello": gamecore.Othello,
    "Rolit": gamecore.Rolit,
    "Tetralath": gamecore.Tetralath,
    "Position": Position,
    "search": gamecore.search,
    "solve": gamecore.solve,
    "make_player": make_player,
    "rolit": gamecore.rolit,
}
RAW_REST = re.compile(r"``|:(param|raises|returns|rtype|class|func|meth|data|attr|mod)[ :`]")


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_an_entry_point_reads_without_rest_markup(name):
    doc = inspect.getdoc(ENTRY_POINTS[name]) or ""
    assert len(doc.splitlines()) >= 3  # it says something
    assert RAW_REST.findall(doc) == [], doc


def test_help_of_othello_starts_with_plain_arguments():
    text = pydoc.render_doc(gamecore.Othello, renderer=pydoc.plaintext)
    top = text[: text.index("Method resolution order")]
    assert "Args:\n |      size: even board size from 4 to 10" in top and "Raises:" in top
    assert RAW_REST.search(top) is None
