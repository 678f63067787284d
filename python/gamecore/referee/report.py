"""Standings, ratings, crosstable and every game's record, as CSV, JSON, Markdown and HTML.

Scoring (the CTU rules by default): a match is the games of one table at one size. A bot that
forfeits any game of a match (timeout, illegal move, crash, ...) loses that match; when both
forfeit, both lose it. Otherwise the bot with more game points wins the match (a game gives a
bot 1 point for each opponent placed behind it and 1/2 for each level with it: for two
players win 1, draw 1/2); equal game points draw it. Match points are ``points`` = (win,
draw, loss), default (2, 1, 0). With more seats (Rolit, four), match points go by place: the
first gets the win's points, the last none, the places between linearly (4 seats, 2 points:
2, 4/3, 2/3, 0); tied bots share the places they span; a forfeiting bot gets the loss's
points. Only complete matches count. The crosstable adds up, for each pair, the match points
the row bot took in the matches where it met the column bot.

Ratings are Elo-style, fitted to the *games* (a forfeited game is lost by the forfeiter, a
game both forfeit counts as a draw; a game of k seats counts as its pairwise results) by maximum likelihood under the Bradley-Terry/Elo model
``P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))``, with one virtual win and one virtual
loss against a reference player of rating 0 each (so a perfect score still has a finite
rating), shown relative to the field's mean; the 95 % interval is +-1.96 standard errors from
the inverse of the likelihood's curvature (the Fisher information).
"""

from __future__ import annotations

import csv
import html
import itertools
import json
import math
import os
from collections import defaultdict
from typing import Any

from .games import rules_for

__all__ = ["standings", "ratings", "crosstable", "write_reports", "STANDINGS_COLUMNS"]

STANDINGS_COLUMNS = ["player", "points", "matches_won", "matches_drawn", "matches_lost", "forfeits"]
_ELO = 400.0 / math.log(10.0)


def _table_of(record: dict) -> str:
    return record["key"].split("/")[2]


def matches(config: Any, records: list[dict]) -> list[dict]:
    """Complete matches: ``{"size", "players", "points": {name: match points}, "result": {name: w/d/l}}``."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        groups[(r["size"], _table_of(r))].append(r)
    win, draw, loss = config.points
    out = []
    for (size, _), games in sorted(groups.items(), key=lambda kv: (kv[0][0], min(g["key"] for g in kv[1]))):
        if len(games) < config.games:
            continue
        names = sorted(set(games[0]["players"]), key=games[0]["players"].index)
        seats = len(names)
        forfeited = {f["player"] for g in games for f in g["forfeits"]}
        # A game gives a player 1 for each opponent placed behind it and 1/2 for each level with it.
        game_points = dict.fromkeys(names, 0.0)
        for g in games:
            for s, n in enumerate(g["players"]):
                mine = g["places"][s]
                game_points[n] += sum(
                    1.0 if p > mine else 0.5 if p == mine else 0.0 for t, p in enumerate(g["places"]) if t != s
                )
        ranked = [n for n in names if n not in forfeited]
        place = {n: sum(1 for m in ranked if game_points[m] > game_points[n]) for n in ranked}
        result, points = {}, {}
        for n in names:
            if n in forfeited:
                result[n], points[n] = "lost", loss
                continue
            level = sum(1 for m in ranked if place[m] == place[n])
            result[n] = "lost" if place[n] else ("won" if level == 1 else "drawn")
            if seats == 2:
                points[n] = {"won": win, "drawn": draw, "lost": loss}[result[n]]
            else:  # by place: first gets the win's points, last none, linearly; a tie shares the places it spans
                points[n] = win * (seats - 1 - (place[n] + (level - 1) / 2)) / (seats - 1)
        out.append({"size": size, "players": names, "result": result, "points": points, "game_points": game_points})
    return out


def ratings(names: list[str], records: list[dict]) -> dict[str, tuple[float, float]]:
    """``{name: (elo, half-width of its 95 % interval)}`` from the games (see the module docs)."""
    index = {n: i for i, n in enumerate(names)}
    n = len(names)
    pairs = []  # (i, j, score of i)
    for r in records:  # a game of k seats counts as its k(k-1)/2 pairwise results
        for u, v in itertools.combinations(range(len(r["players"])), 2):
            a, b = index[r["players"][u]], index[r["players"][v]]
            pa, pb = r["places"][u], r["places"][v]
            pairs.append((a, b, 1.0 if pa < pb else 0.0 if pa > pb else 0.5))
    rating = [0.0] * n
    cov = [[0.0] * n for _ in range(n)]
    for _ in range(100):
        grad = [0.0] * n
        info = [[0.0] * n for _ in range(n)]
        for i in range(n):  # the virtual win and loss against the reference player (rating 0)
            p = 1.0 / (1.0 + math.exp(-rating[i]))
            grad[i] += 1.0 - 2.0 * p
            info[i][i] += 2.0 * p * (1.0 - p)
        for i, j, s in pairs:
            p = 1.0 / (1.0 + math.exp(rating[j] - rating[i]))
            grad[i] += s - p
            grad[j] -= s - p
            w = p * (1.0 - p)
            info[i][i] += w
            info[j][j] += w
            info[i][j] -= w
            info[j][i] -= w
        cov = _inverse(info)
        step = [sum(cov[i][k] * grad[k] for k in range(n)) for i in range(n)]
        rating = [r + s for r, s in zip(rating, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-9:
            break
    mean = sum(rating) / n if n else 0.0
    return {
        name: (_ELO * (rating[i] - mean), 1.96 * _ELO * math.sqrt(max(0.0, cov[i][i]))) for name, i in index.items()
    }


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse of a small symmetric positive definite matrix."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        div = a[col][col]
        a[col] = [v / div for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def standings(config: Any, records: list[dict], *, rated: bool = True) -> list[dict]:
    """One row per player, best first (points, then rating, then name); ``rated=False`` skips
    the ratings (the progress bar's quick look at the leader)."""
    names = [b["name"] for b in config.bots]
    rows = {
        n: {
            "player": n,
            "points": 0.0,
            "matches_won": 0,
            "matches_drawn": 0,
            "matches_lost": 0,
            "forfeits": 0,
            "forfeits_by_reason": {},
            "games": 0,
            "games_won": 0,
            "games_drawn": 0,
            "games_lost": 0,
        }
        for n in names
    }
    for m in matches(config, records):
        for n in m["players"]:
            rows[n]["points"] += m["points"][n]
            rows[n]["matches_" + m["result"][n]] += 1
    for r in records:
        best = min(r["places"])
        top = [p for p in r["places"] if p == best]
        for seat, n in enumerate(r["players"]):
            rows[n]["games"] += 1
            if r["places"][seat] != best:
                rows[n]["games_lost"] += 1
            elif len(top) == 1:
                rows[n]["games_won"] += 1
            else:
                rows[n]["games_drawn"] += 1
        for f in r["forfeits"]:
            row = rows[f["player"]]
            row["forfeits"] += 1
            row["forfeits_by_reason"][f["reason"]] = row["forfeits_by_reason"].get(f["reason"], 0) + 1
    fitted = ratings(names, records) if rated else dict.fromkeys(names, (0.0, 0.0))
    for n, (elo, ci) in fitted.items():
        rows[n]["elo"] = round(elo, 1)
        rows[n]["elo_95"] = round(ci, 1)
    return sorted(rows.values(), key=lambda r: (-r["points"], -r["elo"], r["player"]))


def crosstable(config: Any, records: list[dict]) -> dict[str, dict[str, float]]:
    """``table[a][b]``: match points ``a`` took from its matches with ``b`` (all sizes)."""
    names = [b["name"] for b in config.bots]
    table = {a: {b: 0.0 for b in names if b != a} for a in names}
    for m in matches(config, records):
        for a in m["players"]:
            for b in m["players"]:
                if a != b:
                    table[a][b] += m["points"][a]
    return table


def _result_text(record: dict) -> str:
    if record["winner"]:
        text = f"{record['winner']} wins"
    elif min(record["places"]) == max(record["places"]):
        text = "draw" if not record["forfeits"] else "both forfeit"
    else:
        text = "-"
    score = "-".join(str(s) for s in record["score"])
    return f"{text} ({score})"


def _reason(record: dict) -> str:
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


def markdown(config: Any, records: list[dict]) -> str:
    rows = standings(config, records)
    names = [r["player"] for r in rows]
    cross = crosstable(config, records)
    lines = [
        f"# Tournament: {config.game}, sizes {', '.join(map(str, config.sizes))}, {config.time:g} s a move",
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
            f"{r['elo']:+.0f} ± {r['elo_95']:.0f} |"
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
        "| game | size | players (first to move first) | result | termination | moves |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in records:
        lines.append(
            f"| {_md(r['key'])} | {r['size']} | {_md(' vs '.join(r['players']))} | "
            f"{_md(_result_text(r))} | {_md(_reason(r))} | {_md(' '.join(m['move'] for m in r['moves']))} |"
        )
    return "\n".join(lines) + "\n"


def _initial_boards(config: Any) -> dict:
    rules = rules_for(config.game)
    return {str(size): rules.new(size).cells() for size in config.sizes}


#: Games whose moves the page's script replays itself (placing, and flipping for Othello).
_DRAWN_IN_THE_PAGE = ("othello", "tetralath")


def _boards(game: str, record: dict) -> list[list[int]]:
    """The flat board before the first move and after each move of a game."""
    position = rules_for(game).new(record["size"])
    boards = [[v for row in position.cells() for v in row]]
    for move in record["moves"]:
        position.push(move["move"])
        boards.append([v for row in position.cells() for v in row])
    return boards


def html_page(config: Any, records: list[dict]) -> str:
    rows = standings(config, records)
    names = [r["player"] for r in rows]
    cross = crosstable(config, records)
    esc = html.escape
    standing_rows = "".join(
        f"<tr><td>{i}</td><td class='player'>{esc(r['player'])}</td><td class='points'>{_fmt(r['points'])}</td>"
        f"<td>{r['matches_won']}</td><td>{r['matches_drawn']}</td><td>{r['matches_lost']}</td><td>{r['forfeits']}</td>"
        f"<td>{esc(', '.join(f'{k} {v}' for k, v in sorted(r['forfeits_by_reason'].items())) or '-')}</td>"
        f"<td>{r['elo']:+.0f} &plusmn; {r['elo_95']:.0f}</td></tr>"
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
        "initial": _initial_boards(config),
        "games": [
            {
                "key": r["key"],
                "players": r["players"],
                "size": r["size"],
                "moves": [m["move"] for m in r["moves"]],
                "times": [m["time"] for m in r["moves"]],
                "result": _result_text(r),
                "reason": _reason(r),
            }
            for r in records
        ],
    }
    if config.game not in _DRAWN_IN_THE_PAGE:  # other rules are not in the page's script: the boards go in
        for game, r in zip(data["games"], records, strict=True):
            game["boards"] = _boards(config.game, r)
    payload = _script_json(data)
    title = f"Tournament: {config.game}, sizes {', '.join(map(str, config.sizes))}"
    return (
        _HTML.replace("%TITLE%", esc(title))
        .replace("%STANDINGS%", standing_rows)
        .replace("%CROSSHEAD%", "".join(f"<th>{esc(n)}</th>" for n in names))
        .replace("%CROSS%", cross_rows)
        .replace("%DATA%", payload)
    )


def write_reports(config: Any, records: list[dict], out: str) -> list[str]:
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
const HEX = [5,6,7,8,9,8,7,6,5]; let game = null, ply = 0;
function cellIndex(name, size) {
  const letter = name.charCodeAt(0) - 97, num = parseInt(name.slice(1), 10);
  if (D.game === 'tetralath') { let s = 0; for (let r = 0; r < letter; r++) s += HEX[r]; return s + num - 1; }
  return (num - 1) * size + letter;
}
function boardAt(g, upto) {
  if (g.boards) return g.boards[upto];
  const n = g.size, first = D.initial[String(n)];
  const cells = [].concat(...first); let turn = 0;
  for (let k = 0; k < upto; k++) {
    const m = g.moves[k];
    if (m !== 'pass' && m !== 'swap') {
      const idx = cellIndex(m, n); cells[idx] = turn;
      if (D.game === 'othello') {
        const r0 = Math.floor(idx / n), c0 = idx % n;
        for (const [dr, dc] of [[-1,-1],[-1,0],[-1,1],[0,-1],[0,1],[1,-1],[1,0],[1,1]]) {
          let r = r0 + dr, c = c0 + dc; const run = [];
          while (r >= 0 && r < n && c >= 0 && c < n && cells[r * n + c] === 1 - turn) { run.push(r * n + c); r += dr; c += dc; }
          if (run.length && r >= 0 && r < n && c >= 0 && c < n && cells[r * n + c] === turn) run.forEach(i => cells[i] = turn);
        }
      }
    }
    turn = 1 - turn;
  }
  return cells;
}
function draw() {
  const g = game, cells = boardAt(g, ply), b = document.getElementById('board');
  const last = ply > 0 && g.moves[ply - 1] !== 'pass' ? cellIndex(g.moves[ply - 1], g.size) : -1;
  b.innerHTML = ''; b.className = D.game === 'tetralath' ? 'hex' : D.game;
  const rows = D.game === 'tetralath' ? HEX : Array(g.size).fill(g.size); let i = 0;
  for (const len of rows) { const row = document.createElement('div'); row.className = D.game === 'tetralath' ? 'hexrow' : 'row';
    for (let k = 0; k < len; k++, i++) { const c = document.createElement('div'); c.className = 'cell' + (i === last ? ' last' : '');
      if (cells[i] >= 0) { const s = document.createElement('div'); s.className = 'stone s' + cells[i]; c.appendChild(s); }
      row.appendChild(c); }
    b.appendChild(row); }
  document.getElementById('info').textContent = g.players.join(' vs ') + ' (in playing order), size ' + g.size +
    ': ' + g.result + '; ' + g.reason + '. Move ' + ply + ' of ' + g.moves.length + '.';
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
