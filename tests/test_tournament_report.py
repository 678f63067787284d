"""The tournament's Markdown and HTML reports, from records made here (no bot runs): the
Markdown tables are tables (a delimiter cell per header cell), the title names the board and
the time a move, and the replay carries its coordinates."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from gamecore.games import GAMES
from gamecore.referee.report import html_page, markdown
from gamecore.referee.tournament import TournamentConfig


def _record(game: str, size: int, names: list[str], plies: int) -> dict:
    """A game of ``plies`` first-legal moves (or to its end), as the referee stores it."""
    position = GAMES[game].for_size(size)
    moves: list[dict[str, Any]] = []
    while len(moves) < plies and not position.is_game_over():
        move = position.legal_moves()[0]
        moves.append({"seat": len(moves) % len(names), "move": str(move), "time": 0.25})
        position.push(move)
    return {
        **{"key": f"{game}/{size}/0-1/g0", "game": game, "size": size, "players": names, "first": names[0]},
        **{"moves": moves, "places": [0, 1], "score": [3, 1], "winner": names[0], "termination": "normal"},
        **{"reason": "neither side can move", "forfeits": []},
    }


def _config(tmp_path, game: str, sizes: list[int] | None) -> TournamentConfig:
    config = TournamentConfig(["random", "greedy"], game=game, sizes=sizes, time=1.5, db=str(tmp_path / "t.sqlite"))
    config.resolve()
    return config


def _tables(text: str) -> list[list[str]]:
    """Each Markdown table's lines."""
    return [block.splitlines() for block in re.findall(r"(?:^\|.*\|\n)+", text, re.M)]


def test_markdown_tables_have_a_delimiter_cell_per_header_cell(tmp_path):
    config = _config(tmp_path, "othello", [6, 8])
    names = [b["name"] for b in config.bots]
    text = markdown(config, [_record("othello", 6, names, 10), _record("othello", 8, names[::-1], 4)])
    assert text.splitlines()[0] == "# Tournament: Othello 6x6 and 8x8, 1.5 s a move"
    tables = _tables(text)
    assert len(tables) == 3  # standings, crosstable, games
    for table in tables:
        header, delimiter, *rows = table
        assert re.fullmatch(r"(\|---)+\|", delimiter)
        assert header.count("|") == delimiter.count("|") == rows[0].count("|"), table[:3]
    games = tables[2]
    assert games[0].endswith("| moves | seconds (all moves) |")
    assert games[2].endswith("| 2.50 |")  # ten moves of 0.25 s


@pytest.mark.parametrize(
    ("game", "sizes", "heading"),
    [("othello", [8], "Othello 8x8, 1.5 s a move"), ("tetralath", None, "Tetralath, 1.5 s a move")],
)
def test_the_html_page_names_board_and_time_and_carries_coordinates(tmp_path, game, sizes, heading):
    config = _config(tmp_path, game, sizes)
    names = [b["name"] for b in config.bots]
    size = GAMES[game].default_size
    page = html_page(config, [_record(game, size, names, 6)])
    assert f"<title>Tournament: {heading}</title>" in page and f"<h1>Tournament: {heading}</h1>" in page
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S).group(1))
    assert data["time"] == 1.5
    replay = data["games"][0]
    if game == "othello":  # a square board: letters along the top, numbers down the side
        assert replay["columns"] == list("abcdefgh") and replay["row_labels"] == [str(n) for n in range(1, 9)]
        assert replay["names"] == []
    else:  # a hexagon: every cell's own name, row by row
        assert replay["columns"] == [] and len(replay["names"]) == 61
        assert (replay["names"][0], replay["names"][30], replay["names"][60]) == ("a1", "e5", "i5")
    assert "g.times[ply - 1] + ' s of ' + D.time" in page  # the move's time beside the budget
