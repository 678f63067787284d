"""Rolit under the referee: the compliance check of a bot (a game in each of the four seats)
and the colours of the HTML replay (each ball its colour, none the colour of the board)."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from gamecore import Rolit, cli
from gamecore.referee.check import check_bot
from gamecore.referee.report import html_page
from gamecore.referee.tournament import TournamentConfig
from referee_bots import needs_sandbox

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the referee's sandbox is Linux-only")

# A bot in another language: requests on stdin, replies on fd 3 with MOVE (the first legal
# move when MOVE is the sed expression below).
SHELL_BOT = r"""#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    *'"type":"start"'*) echo '{"type":"ready","name":"sh"}' >&3 ;;
    *'"type":"move"'*) m=$(printf '%s' "$line" | sed 's/.*"legal":\["\([^"]*\)".*/\1/')
                       printf '{"type":"move","move":"%s"}\n' MOVE >&3 ;;
    *) exit 0 ;;
  esac
done
"""


def _shell_bot(tmp_path, name, move):
    path = tmp_path / name
    path.write_text(SHELL_BOT.replace("MOVE", move))
    path.chmod(0o755)
    return str(path)


@needs_sandbox
def test_check_plays_the_bot_in_each_of_the_four_seats(tmp_path):
    out = io.StringIO()
    assert check_bot(_shell_bot(tmp_path, "firstmove", '"$m"'), game="rolit", time_limit=1.0, out=out) == 0
    text = out.getvalue()
    games = re.findall(r"^  game (\d) \((\w+)\): (\d+) moves, (\w+) against 3 random players", text, re.M)
    assert [(g, colour, moves) for g, colour, moves, _ in games] == [
        ("1", "red", "15"),
        ("2", "blue", "15"),
        ("3", "yellow", "15"),
        ("4", "green", "15"),
    ]
    assert "OK: nothing would forfeit" in text


@needs_sandbox
def test_check_names_the_colour_a_rolit_bot_forfeits_as(tmp_path):
    out = io.StringIO()
    corner = _shell_bot(tmp_path, "cornerbot", "a1")  # a1 is never legal early in Rolit
    assert check_bot(corner, game="rolit", time_limit=1.0, games=2, out=out) == 1
    text = out.getvalue()
    assert "FORFEIT (illegal_move:" in text and "as red player" in text and "as blue player" in text


@needs_sandbox
def test_tournament_check_command_takes_game_rolit(tmp_path, capsys):
    bot = _shell_bot(tmp_path, "firstmove", '"$m"')
    out = io.StringIO()
    status = cli.main(["tournament", "check", bot, "--game", "rolit", "--time", "1"], out=out)
    assert status == 0, capsys.readouterr().err
    assert "at rolit 8" in out.getvalue() and out.getvalue().count("against 3 random players") == 4


def _hex(colour):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def test_html_replay_draws_each_colour_apart_from_the_board(tmp_path):
    config = TournamentConfig([f"random:seed={i}" for i in range(4)], game="rolit", db=str(tmp_path / "t.sqlite"))
    config.resolve()
    names = [b["name"] for b in config.bots]
    refused = {  # a game lost before its first move: the page shows the start
        **{"key": "rolit/8/0-1-2-3/g0", "game": "rolit", "size": 8, "players": names, "first": names[0]},
        **{"moves": [], "places": [1, 0, 0, 0], "score": [1, 1, 1, 1], "winner": None, "termination": "forfeit"},
        **{"reason": "refused", "forfeits": [{"seat": 0, "reason": "refused", "detail": "", "player": names[0]}]},
    }
    page = html_page(config, [refused])
    css = dict(re.findall(r"\.rolit \.(s\d|cell)\{background:(#[0-9a-f]{6})", page))
    balls = {colour: _hex(css[f"s{int(colour)}"]) for colour in Rolit.Color}
    # Each ball is its colour (the replay's cells hold the colour numbers of Rolit.cells()).
    red, green, blue = (0, 1, 2), (1, 0, 2), (2, 0, 1)  # (main channel, the other two)
    for colour, (main, a, b) in ((Rolit.RED, red), (Rolit.GREEN, green), (Rolit.BLUE, blue)):
        rgb = balls[colour]
        assert rgb[main] > rgb[a] + 40 and rgb[main] > rgb[b] + 40, (colour, rgb)
    r, g, b = balls[Rolit.YELLOW]
    assert r > 200 and g > 180 and b < 100

    # No ball is near the colour of the squares it sits on (green balls on green squares
    # were invisible), nor near another ball.
    def far(x, y):
        return sum((p - q) ** 2 for p, q in zip(x, y, strict=True)) ** 0.5 > 100

    for colour, rgb in balls.items():
        assert far(rgb, _hex(css["cell"])), colour
        assert all(far(rgb, other) for c, other in balls.items() if c != colour)
    # The page draws the cells' colour numbers: the start is d4 red, e4 yellow, d5 blue, e5 green.
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S).group(1))
    start = data["games"][0]["boards"][0]
    assert data["games"][0]["rows"] == [8] * 8
    assert start[3 * 8 + 3 : 3 * 8 + 5] == f"{Rolit.RED:d}{Rolit.YELLOW:d}"
    assert start[4 * 8 + 3 : 4 * 8 + 5] == f"{Rolit.BLUE:d}{Rolit.GREEN:d}"
