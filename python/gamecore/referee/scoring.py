"""The tournament's scoring: matches, standings, Elo ratings and the crosstable, from the game records.

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

The reports (CSV, JSON, Markdown, HTML) are rendered from these by :mod:`gamecore.referee.report`.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from typing import TYPE_CHECKING, Literal, TypedDict

from .rules import GameRecord

if TYPE_CHECKING:
    from .tournament import TournamentConfig

__all__ = ["Match", "StandingsRow", "matches", "standings", "ratings", "crosstable", "elo_text"]

#: How a bot came out of a match.
MatchResult = Literal["won", "drawn", "lost"]


class Match(TypedDict):
    """A complete match (the games of one table at one size), as :func:`matches` scores it."""

    size: int
    #: The bots of the table, in the order of the match's first game.
    players: list[str]
    #: ``won``, ``drawn`` or ``lost`` of each bot.
    result: dict[str, MatchResult]
    #: Match points of each bot.
    points: dict[str, float]
    #: Game points of each bot (1 for each opponent placed behind it in a game, 1/2 each level).
    game_points: dict[str, float]


class StandingsRow(TypedDict):
    """One bot's line of the standings (``standings.json`` holds a list of them)."""

    player: str
    points: float
    matches_won: int
    matches_drawn: int
    matches_lost: int
    forfeits: int
    #: Forfeits by their reason (``timeout``, ``illegal``, ``crash``...).
    forfeits_by_reason: dict[str, int]
    games: int
    games_won: int
    games_drawn: int
    games_lost: int
    #: Elo rating relative to the field's mean, and the half-width of its 95 % interval.
    elo: float
    elo_95: float


_ELO = 400.0 / math.log(10.0)


def _table_of(record: GameRecord) -> str:
    return record["key"].split("/")[2]


def matches(config: TournamentConfig, records: list[GameRecord]) -> list[Match]:
    """The complete matches, scored (see the module docs)."""
    groups: dict[tuple[int, str], list[GameRecord]] = defaultdict(list)
    for r in records:
        groups[(r["size"], _table_of(r))].append(r)
    win, draw, loss = config.points
    out: list[Match] = []
    for (size, _), games in sorted(groups.items(), key=lambda kv: (kv[0][0], min(g["key"] for g in kv[1]))):
        if len(games) < (config.games or 0):  # resolve() sets games
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
        result: dict[str, MatchResult] = {}
        points: dict[str, float] = {}
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


def elo_text(row: StandingsRow) -> str:
    """A standings row's Elo and the half-width of its 95 % interval, as whole points: ``+12 ± 40``
    (rounded before the sign is chosen, so a rating of -0.3 reads ``+0``, never ``-0``)."""
    return f"{round(row['elo']):+d} ± {round(row['elo_95'])}"


def ratings(names: list[str], records: list[GameRecord]) -> dict[str, tuple[float, float]]:
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


def standings(config: TournamentConfig, records: list[GameRecord], *, rated: bool = True) -> list[StandingsRow]:
    """One row per player, best first (points, then rating, then name); ``rated=False`` skips
    the ratings (the progress bar's quick look at the leader)."""
    names = [b["name"] for b in config.bots]
    rows: dict[str, StandingsRow] = {
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
            "elo": 0.0,
            "elo_95": 0.0,
        }
        for n in names
    }
    for m in matches(config, records):
        for n in m["players"]:
            row = rows[n]
            row["points"] += m["points"][n]
            if m["result"][n] == "won":
                row["matches_won"] += 1
            elif m["result"][n] == "drawn":
                row["matches_drawn"] += 1
            else:
                row["matches_lost"] += 1
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


def crosstable(config: TournamentConfig, records: list[GameRecord]) -> dict[str, dict[str, float]]:
    """``table[a][b]``: match points ``a`` took from its matches with ``b`` (all sizes)."""
    names = [b["name"] for b in config.bots]
    table = {a: {b: 0.0 for b in names if b != a} for a in names}
    for m in matches(config, records):
        for a in m["players"]:
            for b in m["players"]:
                if a != b:
                    table[a][b] += m["points"][a]
    return table
