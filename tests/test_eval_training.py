"""Weights of one's own, the training from recorded games and the evaluation check.

- ``Engine(weights=PATH)`` / ``OthelloCore.use_weights``: a core given weights of its own
  scores every position as the definition says with them (stages of any width), on both
  backends alike, and a search with them equals a search with the same table installed
  for the whole size; damaged files, a wrong size and a missing file are one clear error;
  the shipped file loaded by path plays exactly as the default engine.
- The training data: positions and labels of a hand-checked game; symmetric positions merge.
- The fit: its numpy scoring (``table_score``) is the engine's pattern score, position by
  position, on both backends; a tiny training from a tiny archive writes weights that load
  and predict the held-out games better than no weights.
- ``gamecore bench othello eval``: the check set's exact values are the solver's; the gate
  passes the shipped weights against themselves and stops a worse table.
"""

from __future__ import annotations

import io
import json
import random
from array import array
from pathlib import Path

import pytest

from gamecore import Engine, Othello
from gamecore.archive.stats import read_archive
from gamecore.bench import evaluation
from gamecore.cli import main
from gamecore.errors import CorruptDataError, InvalidOptionError, InvalidSizeError
from gamecore.games import _othello_patterns as patterns
from gamecore.games.othello import parse_square
from gamecore.players import make_player
from gamecore.search.engine import solve
from othello_helpers import score_by_hand


@pytest.fixture(scope="module")
def training():
    """``(dataset, fit)``: the training modules, whose extra (numpy, scipy) may be missing."""
    for name in ("numpy", "scipy"):
        pytest.importorskip(name, reason='the training needs numpy and scipy: pip install ".[train]"')
    from gamecore.train import dataset, fit  # noqa: PLC0415

    return dataset, fit


def random_weights(n: int, width: int, seed: int = 0) -> patterns.Weights:
    ps = patterns.pattern_set(n)
    raw = random.Random(seed).randbytes(ps.stride * patterns.stages_for(n, width))
    return patterns.Weights(n, width, array("h", array("b", raw)), "test")


def random_game_positions(n: int, count: int, seed: int, backend: str) -> list[Othello]:
    rng = random.Random(seed)
    found: list[Othello] = []
    while len(found) < count:
        game = Othello(n, backend=backend)
        for _ in range(rng.randint(0, n * n - 5)):
            if game.is_game_over():
                break
            game.push(rng.choice(game.legal_moves()))
        if not game.is_game_over():
            found.append(game)
    return found


@pytest.mark.parametrize("n,width", [(8, 3), (6, 5), (10, 7)])
def test_a_core_with_weights_of_its_own_scores_as_the_definition_says(backend, n, width):
    weights = random_weights(n, width, seed=n)
    for game in random_game_positions(n, 40, seed=width, backend=backend.name):
        core = game.core.copy()
        core.use_weights(weights)
        black, white = core.bitboards()
        me, opp = (black, white) if core.turn == 0 else (white, black)
        assert core.feature_values()[-1] == score_by_hand(me, opp, weights)
        assert core.copy().feature_values() == core.feature_values()  # copies keep them
        core.use_weights(None)  # the shipped ones again
        assert core.feature_values()[-1] == backend.othello.pattern_score(me, opp, n)
        # ... which no core with weights of its own changed, in either twin.
        shipped = patterns.shipped_weights(n)
        assert shipped is not None
        assert backend.othello.pattern_score(me, opp, n) == score_by_hand(me, opp, shipped)
        assert Othello(n, backend=backend.name).core.feature_values()[-1] == score_by_hand(
            *Othello(n).core.bitboards(), shipped
        )


def test_use_weights_refuses_another_size_and_changes_nothing(backend):
    core = Othello(8, backend=backend.name).core
    before = core.feature_values()
    for bad in (random_weights(6, 4), "weights", 3):
        with pytest.raises(InvalidSizeError):
            core.use_weights(bad)
        assert core.feature_values() == before


def test_searches_with_weights_agree_across_backends_and_with_the_installed_table(backends):
    py, cy = backends
    weights = random_weights(8, 4, seed=5)
    for game in random_game_positions(8, 6, seed=11, backend="python"):
        results = []
        for b in (py, cy):
            position = game.with_backend(b.name)
            results.append(Engine(weights=weights, endgame_empties=0).search(position, depth=3))
        assert (results[0].move, results[0].score, results[0].nodes) == (
            results[1].move,
            results[1].score,
            results[1].nodes,
        )
    # The same table in the shipped layout, given by path or installed for the size, plays alike.
    shipped = patterns.shipped_weights(8)
    assert shipped is not None
    game = random_game_positions(8, 1, seed=2, backend="cython")[0]
    by_path = Engine(weights=patterns.data_path("othello8.patterns"), mpc=False).search(game, depth=5)
    default = Engine(mpc=False).search(game, depth=5)
    assert (by_path.move, by_path.score, by_path.nodes) == (default.move, default.score, default.nodes)


def test_bad_weight_files_are_one_clear_error(tmp_path):
    good = open(patterns.data_path("othello8.patterns"), "rb").read()
    cases = {
        "empty.patterns": b"",
        "odd.patterns": good[:-1],
        "short.patterns": good[:1000],
        "long.patterns": good + b"\0\0",
    }
    for name, blob in cases.items():
        (tmp_path / name).write_bytes(blob)
        with pytest.raises(CorruptDataError, match=name):
            Engine(weights=str(tmp_path / name))
    with pytest.raises(InvalidOptionError, match="cannot read"):
        Engine(weights=str(tmp_path / "missing.patterns"))
    (tmp_path / "x.patterns").write_bytes(good)
    (tmp_path / "x.json").write_text(json.dumps({"size": 6, "stage_width": 4}))
    with pytest.raises(CorruptDataError, match="not a learned"):
        Engine(weights=str(tmp_path / "x.patterns"))
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(CorruptDataError, match="record"):
        Engine(weights=str(tmp_path / "x.patterns"))
    engine = Engine(weights=patterns.data_path("othello8.patterns"))
    with pytest.raises(InvalidOptionError, match="8x8"):
        engine.search(Othello(6), depth=1)


def test_engine_v2_is_the_previous_weights():
    player = make_player("engine:weights=v2,depth=2", game="othello")
    weights = player._engine_for("alphabeta").weights
    assert weights.stage_width == 6 and weights.mpc is not None
    assert patterns.sha256(patterns.table_bytes(list(weights.table)))[:12] == "2d684bad37d9"


# The first game of Egaroucid's self-play record 0000067.txt (T. Yamana, MIT licence; see
# docs/learned-evaluation.md): 60 moves, black (first to move) wins.
GAME = "f5f4e3d2e2f6d3c5d6c3e6c6b3c4b4f3b5c2b6f1b2a5a4a6e1d1g4f2g3a3e7d7b1g5f7e8c1h5h3a1a2g6c7d8b7h4b8h2h6h7c8g7h8g8h1a7a8f8g1g2"


def test_positions_from_a_record_carry_the_mover_side_and_final_margin(training):
    dataset, _ = training
    positions = dataset.positions_from_records([GAME])
    replay = Othello.from_moves(GAME)
    black, white = replay.score()
    assert replay.is_game_over() and len(positions) == 60 and black > white
    margin = black - white
    # Row 0 is black to move at the start, row 1 white to move: labels alternate sign.
    assert positions.label[0] == margin and positions.label[1] == -margin
    assert positions.empties.tolist() == list(range(60, 0, -1))
    # The start position from black's side: d4 and e5 the opponent's (2), e4 and d5 black's (1).
    assert positions.cells[0].reshape(8, 8)[3].tolist() == [0, 0, 0, 2, 1, 0, 0, 0]
    assert positions.mobility[0] == 0
    # With a theoretical value from 24 empties on: the rows up to it take it, the later ones
    # the final margin (row i has 60 - i empties).
    movers = []
    game = Othello()
    for name in (GAME[i : i + 2] for i in range(0, len(GAME), 2)):
        if game.legal_moves()[0].is_pass:
            game.push(game.legal_moves()[0])
        movers.append(1 if game.turn == 0 else -1)
        game.push(name)
    valued = dataset.positions_from_records([GAME], values=[(10, 24)])
    assert all(valued.label[i] * movers[i] == 10 for i in range(0, 37))
    assert all(valued.label[i] * movers[i] == margin for i in range(37, 60))


def test_symmetric_positions_merge_with_the_mean_label(training):
    dataset, _ = training
    # The four first moves lead to one position up to symmetry; f5-f6 and f5-d6 do not.
    records = ["f5d6", "d3c3", "c4e3", "e6f6"]
    merged = dataset.merge_symmetric(dataset.positions_from_records(records))
    assert len(merged) == 2  # the start (to move: black) and the position after the first move
    assert merged.weight.tolist() == [4.0, 4.0] and merged.empties.tolist() == [60, 59]
    three = dataset.merge_symmetric(dataset.positions_from_records(["f5d6c3", "f5f6e6", "d3c5f6"]))
    assert sorted(three.weight.tolist()) == [1.0, 2.0, 3.0, 3.0]  # f5d6 and d3c5 alike (a diagonal mirror), f5f6 not
    labels = dataset.positions_from_records(["f5d6", "d3c3"])
    labels.label[:] = [1, 2, 3, 4]  # the mean of the merged rows' labels
    assert sorted(dataset.merge_symmetric(labels).label.tolist()) == [2.0, 3.0]


def test_the_numpy_score_is_the_engine_pattern_score(backend, training):
    dataset, fit = training
    weights = random_weights(8, 6, seed=9)
    positions = dataset.positions_from_records([GAME], backend=backend.name)
    scores = fit.table_score(weights.table, positions, 6)
    game = Othello(8, backend=backend.name)
    for row, name in enumerate(GAME[i : i + 2] for i in range(0, len(GAME), 2)):
        if game.legal_moves()[0].is_pass:
            game.push(game.legal_moves()[0])
        core = game.core.copy()
        core.use_weights(weights)
        black, white = core.bitboards()
        me, opp = (black, white) if core.turn == 0 else (white, black)
        assert scores[row] == score_by_hand(me, opp, weights) == core.feature_values()[-1]
        game.push(name)


def test_a_tiny_training_from_transcripts_writes_weights_that_load_and_predict(tmp_path, training):
    rng = random.Random(4)
    lines = []
    for _ in range(120):
        game = Othello(6)
        names = []
        while not game.is_game_over():
            moves = game.legal_moves()
            move = rng.choice(moves)
            game.push(move)
            if not move.is_pass:
                names.append(move.name)
        lines.append("".join(names))
    (tmp_path / "games.txt").write_text("\n".join(lines) + "\n")
    out = io.StringIO()
    code = main(
        [
            "train",
            "othello",
            "--size",
            "6",
            "--from",
            str(tmp_path / "games.txt"),
            "--out",
            str(tmp_path / "w"),
            "--ridge",
            "5",
            "--iterations",
            "50",
            "--held-out",
            "0.2",
        ],
        out=out,
    )
    assert code == 0, out.getvalue()
    record = json.loads((tmp_path / "w" / "othello6.json").read_text())
    assert record["size"] == 6 and record["sources"][0]["games"] == 120
    weights = patterns.load_weights(tmp_path / "w" / "othello6.patterns")
    assert weights.size == 6 and patterns.sha256(patterns.table_bytes(list(weights.table))) == record["sha256"]
    # Better than nothing on the held-out games: the mean error below the labels' own spread.
    for stage in record["held_out"]:
        if stage["rows"] >= 50 and stage["empties"][0] <= 12:
            assert stage["correlation"] > 0.3, stage
    Engine(weights=str(tmp_path / "w" / "othello6.patterns")).search(Othello(6), depth=2)


@pytest.mark.parametrize("check_set", sorted(evaluation.CHECK_SETS))
def test_the_check_set_values_are_exact(backend, check_set):
    positions = evaluation.check_positions(8, check_set)
    assert len(positions) >= 100
    games = {"WTH_2021.wtb"} if check_set == "tournament" else {f"{i:07d}.txt" for i in range(70)}
    assert {p.source.split("#")[0] for p in positions} <= games
    # A few of the smallest (the pure twin solves 14 empty squares in seconds).
    for position in [p for p in positions if p.empties <= 14][: 3 if backend.name == "cython" else 1]:
        game = Othello.from_text(position.text, backend=backend.name)
        assert solve(game).score == position.exact


def test_check_positions_are_picked_from_their_games_at_the_stages_asked():
    path = str(Path(__file__).parent / "data" / "archive" / "WTH_1977.wtb")  # 12 real games
    counts = {(20, 22): 3, (23, 26): 3}
    picked = evaluation.pick_check_positions(path, seed=5, counts=counts)
    assert picked == evaluation.pick_check_positions(path, seed=5, counts=counts)  # seeded
    assert len(picked) == 6 and len({index for index, _ in picked}) == 6  # one position a game
    empties = [64 - sum(position.score()) for _, position in picked]
    assert empties == sorted(empties) and sum(20 <= e <= 22 for e in empties) == 3
    for index, position in picked:  # the position is one its game reached, with a move to play
        replay = Othello()
        for name in read_archive(path)[index].moves:
            if replay.to_text() == position.to_text():
                break
            if replay.legal_moves()[0].is_pass:
                replay.push(replay.legal_moves()[0])
            replay.push(name)
        assert replay.to_text() == position.to_text() and not position.legal_moves()[0].is_pass


def test_the_engine_games_check_set_is_the_held_out_games_positions():
    """Its positions come from Egaroucid games that the shipped fit held out, as its header says
    (the game index of the fit: the games of the record's sources before, in their order)."""
    numpy = pytest.importorskip("numpy", reason='the held-out games are computed with numpy: pip install ".[train]"')
    from gamecore.train.supervised import held_out_games  # noqa: PLC0415

    with open(patterns.data_path("othello8.json"), encoding="utf-8") as f:
        record = json.load(f)
    first_game, offset = {}, 0
    for source in record["sources"]:
        first_game[source["file"]] = offset
        offset += source["games"]
    games = [p.source.split("#") for p in evaluation.check_positions(8, "engines")]
    indices = numpy.asarray([first_game[name] + int(index) for name, index in games])
    options = record["options"]
    assert held_out_games(indices, options["held_out"], options["seed"]).all()
    assert not held_out_games(indices + 1, options["held_out"], options["seed"]).all()


def test_the_gate_passes_the_shipped_weights_and_stops_a_worse_table(tmp_path):
    out = io.StringIO()
    shipped = patterns.data_path("othello8.patterns")
    args = ["bench", "othello", "eval", "--depths", "1", "--limit", "40", "--gate"]
    assert main([*args, "--weights", shipped], out=out) == 0, out.getvalue()
    assert "at least as good" in out.getvalue()
    ps = patterns.pattern_set(8)
    zero = array("h", [0] * (ps.stride * ps.stages))
    (tmp_path / "zero.patterns").write_bytes(patterns.table_bytes(zero))
    out = io.StringIO()
    assert main([*args, "--weights", str(tmp_path / "zero.patterns")], out=out) == 1
    assert "do not ship" in out.getvalue()


@pytest.mark.parametrize("weights", [None, "v2"])
def test_evaluate_is_what_a_one_ply_search_maximises(backend, weights):
    from gamecore.players import previous_weights  # noqa: PLC0415

    engine = Engine(weights=previous_weights(weights) if weights else None, endgame_empties=0, mpc=False, tt_mb=1)
    game = Othello(backend=backend.name)  # twenty plies into a real game (no pass so early)
    for i in range(0, 40, 2):
        game.push(game.move_from_code(parse_square(GAME[i : i + 2], 8)))
    children = []
    for move in game.legal_moves():
        child = game.copy()
        child.push(move)
        children.append(-engine.evaluate(child))
    assert engine.search(game, depth=1).score == max(children)
    assert engine.evaluate(game) != 0 and len(set(children)) > 1


def test_evaluate_refuses_what_is_not_a_position():
    from gamecore.errors import InvalidPositionError  # noqa: PLC0415

    for thing in ("f5", None, Othello().core):
        with pytest.raises(InvalidPositionError):
            Engine().evaluate(thing)


def test_an_engine_with_weights_of_another_size_is_refused_when_made(tmp_path):
    path = patterns.data_path(patterns.data_name(8, "patterns"))
    with pytest.raises(InvalidOptionError, match="weights are for 8x8, not 6x6"):
        make_player(f"engine:weights={path}", size=6)
    assert make_player(f"engine:weights={path}", size=8).weights_size == 8
    assert make_player("engine", size=6).weights_size is None
