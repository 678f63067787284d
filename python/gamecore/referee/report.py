"""The tournament's reports: standings, crosstable and every game's record, as CSV, JSON,
Markdown and an HTML page with a replay of every game. The scores come from
:mod:`gamecore.referee.scoring` (the rules of scoring are written there).

The page draws the boards the referee computed for every move (``boards``, one string a ply:
``.`` empty, else the colour's number), so it knows no game's rules: any game the referee runs
is replayed. Rows of different lengths (Tetralath's hexagon) are centred.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
from typing import TYPE_CHECKING, Any

from .games import game_class, start_position
from .rules import GameRecord
from .scoring import crosstable, elo_text, matches, ratings, standings

if TYPE_CHECKING:
    from .tournament import TournamentConfig

__all__ = [
    "standings",
    "ratings",
    "crosstable",
    "matches",
    "write_reports",
    "markdown",
    "html_page",
    "STANDINGS_COLUMNS",
]

STANDINGS_COLUMNS = ["player", "points", "matches_won", "matches_drawn", "matches_lost", "forfeits"]


def _result_text(record: GameRecord) -> str:
    if record["winner"]:
        text = f"{record['winner']} wins"
    elif min(record["places"]) == max(record["places"]):
        text = "draw" if not record["forfeits"] else "both forfeit"
    else:
        text = "-"
    score = "-".join(str(s) for s in record["score"])
    return f"{text} ({score})"


def _reason(record: GameRecord) -> str:
    if record["forfeits"]:
        return "; ".join(f"{f['player']}: {f['reason']}" for f in record["forfeits"])
    return record.get("reason") or "game over"


def _fmt(value: float) -> str:
    return f"{round(value, 3):g}"


#: Characters a Markdown table cell must not take literally: the cell separator, the escape
#: character itself, inline code, emphasis, links and raw HTML.
_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\|`*_[]<>&"})


def _md(text: str) -> str:
    """A name (or any text) for one Markdown table cell: one line, nothing taken as markup."""
    return " ".join(str(text).split()).translate(_MARKDOWN_SPECIAL)


def _csv(text: str) -> str:
    """A name for a CSV cell: a leading ``= + - @`` (or tab, carriage return) would make a
    spreadsheet read it as a formula, so such a name gets a leading apostrophe (OWASP's advice)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _script_json(data: Any) -> str:
    """JSON to put inside a ``<script>`` element: ``<``, ``>`` and ``&`` as ``\\u`` escapes, so no
    name can close the element or open a comment (``<!--<script>``) that swallows the page."""
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _board_words(game: str, size: int) -> str:
    """A board as people say it: ``8x8`` for a square one, else its cells (``61 cells``)."""
    rows = start_position(game, size).cells()
    return f"{len(rows)}x{len(rows)}" if all(len(row) == len(rows) for row in rows) else f"{sum(map(len, rows))} cells"


def title(config: TournamentConfig) -> str:
    """``Tournament: Othello 8x8, 1 s a move`` (the boards named when the game has several sizes)."""
    cls = game_class(config.game)
    sizes = list(config.sizes or cls.sizes)
    boards = " and ".join(_board_words(config.game, size) for size in sizes) if len(cls.sizes) > 1 else ""
    return f"Tournament: {' '.join(filter(None, (cls.__name__, boards)))}, {config.time:g} s a move"


def markdown(config: TournamentConfig, records: list[GameRecord]) -> str:
    rows = standings(config, records)
    names = [r["player"] for r in rows]
    cross = crosstable(config, records)
    lines = [
        f"# {_md(title(config))}",
        "",
        "## Standings",
        "",
        "| # | player | points | won | drawn | lost | forfeits | by reason | games W-D-L | Elo (95 %) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for place, r in enumerate(rows, 1):
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(r["forfeits_by_reason"].items())) or "-"
        lines.append(
            f"| {place} | {_md(r['player'])} | {_fmt(r['points'])} | {r['matches_won']} | {r['matches_drawn']} | "
            f"{r['matches_lost']} | {r['forfeits']} | {reasons} | {r['games_won']}-{r['games_drawn']}-{r['games_lost']} | "
            f"{elo_text(r)} |"
        )
    lines += [
        "",
        "## Crosstable (match points of the row against the column)",
        "",
        "| | " + " | ".join(_md(n) for n in names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for a in names:
        lines.append(f"| {_md(a)} | " + " | ".join("x" if a == b else _fmt(cross[a][b]) for b in names) + " |")
    lines += [
        "",
        "## Games",
        "",
        "| game | size | players (first to move first) | result | termination | moves | seconds (all moves) |",
        "|---|---|---|---|---|---|---|",
    ]
    for game in records:
        lines.append(
            f"| {_md(game['key'])} | {game['size']} | {_md(' vs '.join(game['players']))} | "
            f"{_md(_result_text(game))} | {_md(_reason(game))} | {_md(' '.join(m['move'] for m in game['moves']))} | "
            f"{sum(m['time'] for m in game['moves']):.2f} |"
        )
    return "\n".join(lines) + "\n"


def _board_text(position: Any) -> str:
    """A board as the page takes it: one character a cell, ``.`` empty, else the colour's number."""
    return "".join("." if v < 0 else str(v) for row in position.cells() for v in row)


def _replay(game: str, record: GameRecord) -> dict[str, Any]:
    """What the page needs to replay a game: the length of each row, the board before the first
    move and after each move, and the cell each move filled (-1: a pass or a swap)."""
    position = start_position(game, record["size"])
    boards = [_board_text(position)]
    filled = []
    for move in record["moves"]:
        position.push(move["move"])
        boards.append(_board_text(position))
        before, after = boards[-2], boards[-1]
        filled.append(next((i for i, (a, b) in enumerate(zip(before, after)) if a == "." != b), -1))
    geometry = position.geometry()
    return {
        "rows": [len(row) for row in position.cells()],
        "boards": boards,
        "filled": filled,
        # coordinates: along the edges of a square board, else each empty cell's own name
        "columns": list(geometry.column_labels),
        "row_labels": list(geometry.row_labels),
        "names": [] if geometry.column_labels else [str(position.move_from_code(i)) for i in range(len(boards[0]))],
    }


def html_page(config: TournamentConfig, records: list[GameRecord]) -> str:
    rows = standings(config, records)
    names = [r["player"] for r in rows]
    cross = crosstable(config, records)
    esc = html.escape
    standing_rows = "".join(
        f"<tr><td>{i}</td><td class='player'>{esc(r['player'])}</td><td class='points'>{_fmt(r['points'])}</td>"
        f"<td>{r['matches_won']}</td><td>{r['matches_drawn']}</td><td>{r['matches_lost']}</td><td>{r['forfeits']}</td>"
        f"<td>{esc(', '.join(f'{k} {v}' for k, v in sorted(r['forfeits_by_reason'].items())) or '-')}</td>"
        f"<td>{esc(elo_text(r))}</td></tr>"
        for i, r in enumerate(rows, 1)
    )
    cross_rows = "".join(
        f"<tr><th>{esc(a)}</th>"
        + "".join("<td>&times;</td>" if a == b else f"<td>{_fmt(cross[a][b])}</td>" for b in names)
        + "</tr>"
        for a in names
    )
    data = {
        "game": config.game,
        "time": config.time,
        "games": [
            {
                "key": r["key"],
                "players": r["players"],
                "size": r["size"],
                "moves": [m["move"] for m in r["moves"]],
                "times": [m["time"] for m in r["moves"]],
                "result": _result_text(r),
                "reason": _reason(r),
                **_replay(config.game, r),
            }
            for r in records
        ],
    }
    payload = _script_json(data)
    parts = {
        "TITLE": esc(title(config)),
        "STANDINGS": standing_rows,
        "CROSSHEAD": "".join(f"<th>{esc(n)}</th>" for n in names),
        "CROSS": cross_rows,
        "DATA": payload,
    }
    # one pass over the template: what is put in (a bot named %DATA%...) is never read again
    return _PLACEHOLDER.sub(lambda found: parts[found.group(1)], _HTML)


def write_reports(config: TournamentConfig, records: list[GameRecord], out: str) -> list[str]:
    """Write standings.csv/.json, crosstable.csv, games.json, tournament.md and tournament.html."""
    os.makedirs(out, exist_ok=True)
    rows = standings(config, records)
    written = []

    def path(name: str) -> str:
        written.append(os.path.join(out, name))
        return written[-1]

    with open(path("standings.csv"), "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(STANDINGS_COLUMNS)
        for r in rows:
            writer.writerow(
                [
                    _csv(r["player"]),
                    _fmt(r["points"]),
                    r["matches_won"],
                    r["matches_drawn"],
                    r["matches_lost"],
                    r["forfeits"],
                ]
            )
    with open(path("standings.json"), "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=1)
    cross = crosstable(config, records)
    names = [r["player"] for r in rows]
    with open(path("crosstable.csv"), "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["player"] + [_csv(n) for n in names])
        for a in names:
            writer.writerow([_csv(a)] + ["" if a == b else _fmt(cross[a][b]) for b in names])
    games = [
        {
            "key": r["key"],
            "game": r["game"],
            "size": r["size"],
            "players": r["players"],
            "first": r["first"],
            "moves": r["moves"],
            "result": {"winner": r["winner"], "places": r["places"], "score": r["score"]},
            "termination": r["termination"],
            "reason": _reason(r),
            "forfeits": r["forfeits"],
            "printed": r.get("printed"),
            "started": r.get("started"),
            "duration": r.get("duration"),
        }
        for r in records
    ]
    with open(path("games.json"), "w", encoding="utf-8") as fh:
        json.dump(games, fh, indent=1)
    with open(path("tournament.md"), "w", encoding="utf-8") as fh:
        fh.write(markdown(config, records))
    with open(path("tournament.html"), "w", encoding="utf-8") as fh:
        fh.write(html_page(config, records))
    return written


_PLACEHOLDER = re.compile(r"%(TITLE|STANDINGS|CROSSHEAD|CROSS|DATA)%")
_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>%TITLE%</title>
<style>
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #bbb;padding:.25em .6em;text-align:center}
td.player{text-align:left;font-weight:bold}
#board{display:inline-block;margin:.5em 0;padding:6px;background:#2e7d32;border-radius:6px}
.row{display:flex}.hexrow{display:flex;justify-content:center}
.cell{width:34px;height:34px;margin:1px;background:#43a047;display:flex;align-items:center;justify-content:center}
.hex .cell{border-radius:50%;background:#c8b88a}
.stone{width:28px;height:28px;border-radius:50%}.s0{background:#111}.s1{background:#f5f5f5;border:1px solid #999}
.hex .s0{background:#fafafa;border:1px solid #777}.hex .s1{background:#222}
#board.rolit{background:#5d4037}.rolit .cell{background:#d7ccc8}.rolit .stone{border:1px solid #333}
.rolit .s0{background:#d32f2f}.rolit .s1{background:#1e88e5}.rolit .s2{background:#fdd835}.rolit .s3{background:#2e7d32}
.last{outline:3px solid #e53935}
.label{width:34px;height:34px;margin:1px;display:flex;align-items:center;justify-content:center;color:#fff;font-size:13px}
.name{font-size:10px;color:#6d5d3a}
#moves span{cursor:pointer;padding:0 .2em}#moves span.now{background:#ffe082}
</style></head><body>
<h1>%TITLE%</h1>
<h2>Standings</h2>
<table id="standings"><thead><tr><th>#</th><th>player</th><th>points</th><th>won</th><th>drawn</th><th>lost</th>
<th>forfeits</th><th>by reason</th><th>Elo (95 %)</th></tr></thead><tbody>%STANDINGS%</tbody></table>
<h2>Crosstable</h2><p>Match points of the row player against the column player, all sizes.</p>
<table id="crosstable"><thead><tr><th></th>%CROSSHEAD%</tr></thead><tbody>%CROSS%</tbody></table>
<h2>Replay</h2>
<p><select id="game"></select> <button id="first">&laquo;</button> <button id="prev">&#x25C0;</button>
<button id="next">&#x25B6;</button> <button id="last">&raquo;</button></p>
<p id="info"></p><div id="board"></div><p id="moves"></p>
<script id="data" type="application/json">%DATA%</script>
<script>
const D = JSON.parse(document.getElementById('data').textContent);
const sel = document.getElementById('game');
D.games.forEach((g, i) => { const o = document.createElement('option'); o.value = i;
  o.textContent = g.key + ': ' + g.players.join(' vs ') + ' - ' + g.result; sel.appendChild(o); });
let game = null, ply = 0;
function draw() {
  const g = game, cells = g.boards[ply], b = document.getElementById('board');
  const last = ply > 0 ? g.filled[ply - 1] : -1, uneven = new Set(g.rows).size > 1;
  b.innerHTML = ''; b.className = D.game + (uneven ? ' hex' : ''); let i = 0;
  const label = (text) => { const l = document.createElement('div'); l.className = 'label'; l.textContent = text; return l; };
  const edge = () => { const row = document.createElement('div'); row.className = 'row'; row.appendChild(label(''));
    g.columns.forEach((c) => row.appendChild(label(c))); return row; };
  if (g.columns.length) b.appendChild(edge());
  g.rows.forEach((len, r) => { const row = document.createElement('div'); row.className = uneven ? 'hexrow' : 'row';
    if (g.row_labels.length) row.appendChild(label(g.row_labels[r]));
    for (let k = 0; k < len; k++, i++) { const c = document.createElement('div'); c.className = 'cell' + (i === last ? ' last' : '');
      if (cells[i] !== '.') { const s = document.createElement('div'); s.className = 'stone s' + cells[i]; c.appendChild(s); }
      else if (g.names.length) { const n = document.createElement('span'); n.className = 'name'; n.textContent = g.names[i]; c.appendChild(n); }
      row.appendChild(c); }
    b.appendChild(row); });
  const spent = ply > 0 ? ' (' + g.times[ply - 1] + ' s of ' + D.time + ' s)' : '';
  document.getElementById('info').textContent = g.players.join(' vs ') + ' (in playing order), size ' + g.size +
    ': ' + g.result + '; ' + g.reason + '. Move ' + ply + ' of ' + g.moves.length + spent + '.';
  const mv = document.getElementById('moves'); mv.innerHTML = '';
  g.moves.forEach((m, k) => { const s = document.createElement('span'); s.textContent = (k + 1) + '.' + m + ' (' + g.times[k] + ' s)';
    if (k + 1 === ply) s.className = 'now'; s.onclick = () => { ply = k + 1; draw(); }; mv.appendChild(s); mv.appendChild(document.createTextNode(' ')); });
}
function pick() { game = D.games[sel.value]; ply = game ? game.moves.length : 0; if (game) draw(); }
sel.onchange = pick;
document.getElementById('first').onclick = () => { ply = 0; draw(); };
document.getElementById('prev').onclick = () => { ply = Math.max(0, ply - 1); draw(); };
document.getElementById('next').onclick = () => { ply = Math.min(game.moves.length, ply + 1); draw(); };
document.getElementById('last').onclick = () => { ply = game.moves.length; draw(); };
if (D.games.length) pick();
</script></body></html>
"""
