"""``gamecore compare rolit``: the report's numbers against what the games and searches did."""

from __future__ import annotations

import csv
import importlib.util
import io
import itertools
import os
import re
from collections import Counter

import pytest

from gamecore import Rolit, _progress, cli
from gamecore.errors import InvalidOptionError
from gamecore.report import cli as report_cli
from gamecore.report import compare
from gamecore.report.compare import Budget, pair_seatings, peak_rss, play_game, seatings, wilson
from gamecore.report.table import ALGORITHMS
from gamecore.search.engine import Engine
from test_game_registry import small_othello  # noqa: F401  # the fixture of the fourth game

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
STATES = 60  # a move: small, so that a whole cycle is quick on either backend
#: The table searches count the node at which they find their node limit reached (nodes=N
#: returns N + 1 states); the report shows what they return.
LIMIT_NODE = 1


def _pdf_pages(path):
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", path.read_bytes()))


def _rows(path):
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # By hand: the bounds are the roots p of (k/n - p)^2 = z^2 p (1 - p) / n, z = 1.96.
        (28, 48, 0.4428, 0.7115),  # the 0.2 s row of docs/performance.md: 58 %, CI 44-71 %
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 24, 0.0074, 0.2024),
    ],
)
def test_wilson_interval_matches_hand_computed_bounds(wins, games, low, high):
    assert wilson(wins, games) == pytest.approx((low, high), abs=5e-5)


def test_a_cycle_seats_each_algorithm_in_each_seat_and_after_each_other_equally():
    cycle = seatings()
    assert len(cycle) == 24 and len(set(cycle)) == 24
    names = set(compare.ALGORITHMS)
    assert all(set(seating) == names for seating in cycle)
    in_seat = Counter((seat, name) for seating in cycle for seat, name in enumerate(seating))
    assert set(in_seat.values()) == {6} and len(in_seat) == 16  # 4 algorithms x 4 seats
    # The player before seat 0 is the one in seat 3: play goes round.
    after = Counter((seating[seat - 1], name) for seating in cycle for seat, name in enumerate(seating))
    assert set(after.values()) == {8} and len(after) == 12  # every ordered pair of different algorithms


def test_a_head_to_head_cycle_is_every_seating_of_two_each():
    cycle = pair_seatings("maxn", "mcts")
    assert len(set(cycle)) == 6 and all(Counter(s) == {"maxn": 2, "mcts": 2} for s in cycle)
    assert all(sum(s[seat] == "maxn" for s in cycle) == 3 for seat in range(4))


def test_budget_needs_exactly_one_limit():
    for bad in (
        {},
        {"seconds": 0.1, "states": 5},
        {"seconds": 0},
        {"states": 0},
        {"states": 1.5},
        {"seconds": 1, "clock": "x"},
    ):
        with pytest.raises(ValueError):
            Budget(**bad)


@pytest.fixture(scope="module")
def cycle_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    status = cli.main(
        ["compare", "rolit", "--states", str(STATES), "--head-to-head", "--no-rss", "--out", str(out), "--seed", "3"]
    )
    assert status == 0
    return out


def test_games_csv_holds_the_games_played(cycle_report):
    games = _rows(cycle_report / "games.csv")
    assert len(games) == 24 * 4
    by_game: dict[str, list[dict]] = {}
    for row in games:
        by_game.setdefault(row["game"], []).append(row)
    assert [tuple(r["algorithm"] for r in rows) for rows in by_game.values()] == seatings()
    for rows in by_game.values():
        assert sum(int(r["balls"]) for r in rows) == 64
        assert all(int(r["moves"]) == 15 for r in rows)  # 60 plies, 4 seats
        assert sum(int(r["won"]) for r in rows) == 1  # one winner a game by the tie rule
        winner = next(r for r in rows if r["won"] == "1")
        assert int(winner["balls"]) == max(int(r["balls"]) for r in rows)
        assert [r["colour"] for r in rows] == [str(c.initial) for c in Rolit().colours]


def test_moves_csv_is_every_search_and_sums_to_the_summary(cycle_report):
    moves = _rows(cycle_report / "moves.csv")
    games = _rows(cycle_report / "games.csv")
    seat_of = {(r["game"], r["colour"]): r["algorithm"] for r in games}
    played = [m for m in moves if m["played"] == "1"]
    assert Counter(m["game"] for m in played) == {str(g): 60 for g in range(24)}
    for game in range(24):
        plies = [int(m["ply"]) for m in played if m["game"] == str(game)]
        assert plies == list(range(60))
    assert all(seat_of[m["game"], m["colour"]] == m["algorithm"] for m in played)
    # Max^n without pruning searched exactly the positions where Max^n moved.
    shadow = {(m["game"], m["ply"]) for m in moves if m["played"] == "0"}
    assert all(m["algorithm"] == "maxn-plain" for m in moves if m["played"] == "0")
    assert shadow == {(m["game"], m["ply"]) for m in played if m["algorithm"] == "maxn"}
    # Equal states: MCTS never over the budget; the table searches use all of it (and the node
    # that finds the limit) unless they solved the game.
    for m in moves:
        if m["algorithm"] == "mcts":
            assert STATES - 60 < int(m["states"]) <= STATES  # short of it by less than one playout
        elif m["exact"] == "0":
            assert int(m["states"]) in (STATES, STATES + LIMIT_NODE)
        else:
            assert 0 < int(m["states"]) <= STATES + LIMIT_NODE
    summary = {row["algorithm"]: row for row in _rows(cycle_report / "summary.csv")}
    assert list(summary) == ["maxn", "maxn-plain", "paranoid", "brs", "mcts"]
    for name, row in summary.items():
        mine = [int(m["states"]) for m in moves if m["algorithm"] == name]
        assert int(row["games"]) == 24 and int(row["moves"]) == len(mine) == 24 * 15
        assert int(row["states_per_game"]) == round(sum(mine) / 24)
        if name != "maxn-plain":
            assert sum(int(r["states"]) for r in games if r["algorithm"] == name) == sum(mine)
            wins = sum(int(r["won"]) for r in games if r["algorithm"] == name)
            assert int(row["wins"]) == wins
            assert (float(row["win_low"]), float(row["win_high"])) == pytest.approx(wilson(wins, 24), abs=1e-4)
    assert sum(int(row["wins"]) for row in summary.values() if row["wins"]) == 24
    # Space used: the peak of the searches' own counts. A table search holds at most one entry
    # (32 bytes at most) per state it explored so far in the game, besides its recursion frames;
    # MCTS's tree at most one node (24 bytes and 8 per player) per state, and its root.
    for name, row in summary.items():
        assert int(row["peak_memory_bytes"]) == max(int(m["memory"]) for m in moves if m["algorithm"] == name)
    explored: Counter = Counter()
    for m in moves:
        so_far = explored[m["game"], m["algorithm"], m["colour"]] = explored[
            m["game"], m["algorithm"], m["colour"]
        ] + int(m["states"])
        bound = 56 * (so_far + 1) if m["algorithm"] == "mcts" else 32 * so_far + 128 * 2048
        assert 0 < int(m["memory"]) <= bound
    assert summary["maxn-plain"]["wins"] == ""  # not seated


def test_states_a_game_are_the_nodes_the_searches_return(cycle_report):
    """Game 0 replayed from its recorded moves: fresh engines searching its positions return,
    move by move, the states and moves the report recorded (the table searches are
    deterministic at a budget of states)."""
    game0 = [m for m in _rows(cycle_report / "moves.csv") if m["game"] == "0"]
    seating = seatings()[0]
    engines = {seat: Engine(algorithm=name) for seat, name in enumerate(seating) if name != "mcts"}
    plain = Engine(algorithm="maxn-plain")
    recorded: Counter = Counter()
    returned: Counter = Counter()
    for m in game0:
        recorded[m["algorithm"]] += int(m["states"])
    position = Rolit()
    for m in game0:
        if m["played"] == "0":
            continue
        seat = position.player
        if seat in engines:
            result = engines[seat].search(position, nodes=STATES)
            returned[seating[seat]] += result.nodes
            assert str(result.move) == m["move"]
            if seating[seat] == "maxn":
                returned["maxn-plain"] += plain.search(position, nodes=STATES).nodes
        position.push(m["move"])
    assert position.is_game_over()
    for name in ("maxn", "maxn-plain", "paranoid", "brs"):
        assert returned[name] == recorded[name] > 0


def test_head_to_head_counts_the_two_against_two_games(cycle_report):
    rows = _rows(cycle_report / "head_to_head.csv")
    assert len(rows) == 12  # ordered pairs of the four seated algorithms
    table = {(r["algorithm"], r["against"]): (int(r["games"]), int(r["wins"])) for r in rows}
    for (a, b), (games, wins) in table.items():
        assert games == 6
        assert wins + table[b, a][1] == 6  # one of the two teams wins every game


def test_report_page_and_markdown(cycle_report):
    text = (cycle_report / "report.md").read_text()
    assert "24 games, 60 states a move" in text and "Two against two" in text
    assert "| Max^n (no pruning) | 24 | not seated |" in text
    if not HAVE_MATPLOTLIB:
        pytest.skip("matplotlib is not installed: no charts nor PDF")
    assert (cycle_report / "charts.png").read_bytes().startswith(b"\x89PNG")
    pdf = cycle_report / "report.pdf"
    assert pdf.read_bytes().startswith(b"%PDF") and _pdf_pages(pdf) == 1


def test_a_timed_game_records_cpu_time_and_states():
    record = play_game(0, seatings()[5], Budget(seconds=0.002), seed=1)
    assert len([m for m in record.moves if m.played]) == 60
    assert all(m.nodes > 0 and m.cpu_seconds > 0 and m.wall_seconds > 0 for m in record.moves)


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="peak RSS reset is Linux's")
def test_peak_rss_sees_the_tables_the_searches_were_given():
    """The compiled Engine makes and touches its 16 MB alpha-beta table when it is made (its
    docstring), Max^n's included: Max^n's fresh process grows by at least that. The pure table
    is an anonymous mapping, resident only where written. MCTS's engine is given no table."""
    record = play_game(0, seatings()[0], Budget(states=STATES), shadows=False)
    grown = peak_rss(record, Budget(states=STATES))
    assert grown["maxn"] > grown["mcts"] > 0
    if Rolit().backend == "cython":
        assert grown["maxn"] >= 16 * 2**20


def test_cli_rejects_bad_options():
    assert cli.main(["compare", "rolit", "--cycles", "0"]) == 2
    assert cli.main(["compare", "rolit", "--time", "0.1", "--states", "5"]) == 2
    assert cli.main(["compare", "rolit", "--time", "inf"]) == 2
    assert cli.main(["compare", "chess"]) == 2


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_cycle_shows_its_progress_on_a_terminal_and_nothing_when_quiet(tmp_path, monkeypatch):
    real_game = compare.play_game

    def two_games_then_stop(number, *args, **kwargs):
        if number == 2:
            raise KeyboardInterrupt  # the progress line is left on screen, ended by a newline
        return real_game(number, *args, **kwargs)

    monkeypatch.setattr(compare, "play_game", two_games_then_stop)
    monkeypatch.setattr(_progress, "REDRAW_SECONDS", 0.0)  # draw every update, however fast the games
    for quiet in (False, True):
        shown = _Terminal()
        with pytest.raises(KeyboardInterrupt):
            compare.compare_rolit(Budget(states=2), str(tmp_path), rss=False, stream=shown, quiet=quiet)
        if quiet:
            assert shown.getvalue() == ""
            continue
        lines = shown.getvalue().split("\r")
        assert lines[1].startswith("compare rolit: 0/24 games (0 %) - maxn vs paranoid vs brs vs mcts")
        assert re.match(
            r"compare rolit: 2/24 games \(8 %\) about \d+ s left - \w+ vs \w+ vs \w+ vs \w+\s*\n$", lines[-1]
        )


def test_the_old_games_option_still_works_with_a_warning(monkeypatch, capsys):
    asked = []

    def stop(game, budget, out, cycles, **_):
        asked.append(cycles)
        raise KeyboardInterrupt  # enough: the command stops here with status 130

    monkeypatch.setattr(report_cli, "compare_game", stop)
    assert cli.main(["compare", "rolit", "--games", "30"]) == 130
    assert asked == [2]  # 30 games: two cycles of 24
    err = capsys.readouterr().err
    assert "--games is deprecated" in err and "--games 30 plays 48 games: use --cycles 2" in err
    assert cli.main(["compare", "rolit", "--games", "24", "--cycles", "1"]) == 1
    assert "give one of them" in capsys.readouterr().err


def test_compare_plays_any_game_from_its_class(small_othello, tmp_path):  # noqa: F811  # the fixture
    # The fourth game of test_game_registry, 4x4 by default: two seats, so a cycle is every
    # ordered pair of the four algorithms (12 games), and nothing in compare names the game.
    run = compare.compare_game(small_othello.name, Budget(states=20), str(tmp_path), rss=False, quiet=True)
    assert (run.game, run.seats, len(run.records)) == (small_othello.name, 2, 12)
    assert [tuple(s.algorithm for s in r.seats) for r in run.records] == seatings(seats=2)
    assert sorted(seatings(seats=2)) == sorted(itertools.permutations(ALGORITHMS, 2))
    for record in run.records:
        assert {s.colour for s in record.seats} == {"X", "O"}  # the game's letters, from its colour styles
        assert sum(s.balls for s in record.seats) <= 16 and record.winner in ("X", "O", "")
        assert all(move.nodes <= 20 for move in record.moves)  # the budget of states held
    assert {name for name, entry in run.stats.items() if entry.seated} == set(ALGORITHMS)
    text = (tmp_path / "report.md").read_text()
    assert text.startswith("# SmallOthello, two players: Max^n, paranoid, Best-Reply Search and MCTS")
    assert "50 % is chance" in text and "1 cycle(s) of 12: every ordered choice of 2 of the 4 algorithms" in text
    assert pair_seatings("maxn", "mcts", 2) == [("maxn", "mcts"), ("mcts", "maxn")]
    with pytest.raises(InvalidOptionError, match="unknown game 'chess'"):
        compare.start_position("chess")
