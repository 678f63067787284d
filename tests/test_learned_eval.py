"""The learned Othello evaluation (patterns), its training pipeline and ``gamecore bench othello strength``.

- The two backends compute the same pattern indices and the same integer score on random
  positions of every size (shipped weights, and random tables installed for the test).
- Pattern indices against hand-read boards; the symmetric configurations training ties.
- The shipped weights of each size (6x6, 8x8, 10x10): their SHA-256 is the one recorded beside
  them, both backends score positions with them alike and as the definition says, the start
  position's value is pinned; they are the engine's default there ("standard" elsewhere).
- Training: the fit recovers weights that generated its data; a tiny run end to end, and the
  same run twice gives the same bytes (another seed other ones).
- The strength statistics against hand-computed values; a tiny match.
"""

from __future__ import annotations

import functools
import io
import json
import math
import random
from array import array
from importlib import resources

import pytest

from gamecore import Engine, Othello, Tetralath, search
from gamecore.adapters import ctu, ufrj
from gamecore.bench import strength
from gamecore.cli import main
from gamecore.errors import CorruptDataError, InvalidOptionError
from gamecore.games import _othello_patterns as patterns
from gamecore.players import make_player
from gamecore.train import othello as train
from othello_helpers import score_by_hand

LEARNED = [0, 0, 0, 0, 0, 0, 1]
#: The shipped weights' SHA-256 per size, and the start position's value with them (for black).
SHIPPED_SHA256 = {
    6: "15cca2c6ec4bd4dfe967f25ff829c7cde9cd69ec1c7e56a0aee1e17f6000f027",
    8: "ca98d78e2358b8d8a605ff12b66bd04b77af9c6a8a7a242b80ec85ca6e1cf341",
    10: "aaf6cff2e036d35483a83950c3e01f9e5df1e7f1f61c80e8e3774e7bd75162ae",
}
START_VALUE = {6: 261, 8: 176, 10: 6}
#: The sizes whose shipped weights are a whole run of the self-play command (8x8's are
#: fitted to recorded games: test_eval_training.py).
COMPLETE = {6, 10}


def random_board(n: int, rng: random.Random) -> tuple[int, int]:
    squares = list(range(n * n))
    rng.shuffle(squares)
    me = opp = 0
    for square in squares[: rng.randint(0, n * n)]:
        if rng.random() < 0.5:
            me |= 1 << square
        else:
            opp |= 1 << square
    return me, opp


@functools.cache
def random_table(n: int) -> array:
    ps = patterns.pattern_set(n)
    return array("h", array("b", random.Random(n).randbytes(ps.stride * ps.stages)))


@pytest.fixture
def random_tables(backends):
    """Random weights (-128..127) installed for 6x6, 8x8 and 10x10 in both backends; the
    shipped ones (or none) put back afterwards."""
    for n in (6, 8, 10):
        table = random_table(n)
        for b in backends:
            b.othello.set_pattern_weights(n, table)
    yield
    for n in (6, 8, 10):
        for b in backends:
            b.othello.set_pattern_weights(n, patterns.load_table(n))


@pytest.mark.parametrize("n", [6, 8, 10])
def test_both_backends_compute_the_same_pattern_indices_and_score(backends, random_tables, n):
    py, cy = backends
    rng = random.Random(n)
    for _ in range(200):
        me, opp = random_board(n, rng)
        assert py.othello.pattern_indices(me, opp, n) == cy.othello.pattern_indices(me, opp, n)
        assert py.othello.pattern_score(me, opp, n) == cy.othello.pattern_score(me, opp, n)


def test_the_learned_evaluation_is_the_pattern_score(backend, random_tables):
    # A depth-1 search with evaluation "learned" scores each move by the pattern score of
    # the position it leads to, for the opponent: the search's score is the best negation.
    rng = random.Random(3)
    for _ in range(20):
        game = Othello(8, backend=backend.name)
        for _ in range(rng.randint(0, 40)):
            if game.is_game_over() or game.legal_moves()[0].is_pass:
                break
            game.push(rng.choice(game.legal_moves()))
        if game.is_game_over() or game.legal_moves()[0].is_pass:
            continue
        expected = []
        for move in game.legal_moves():
            game.push(move)
            black, white = game.core.bitboards()
            me, opp = (black, white) if game.turn == 0 else (white, black)
            if not game.is_game_over():
                expected.append(-backend.othello.pattern_score(me, opp, 8))
            game.pop()
        result = search(game, depth=1, evaluation="learned", algorithm="minimax")
        if len(expected) == len(game.legal_moves()):
            assert result.score == max(expected)
        doubled = search(game, depth=1, evaluation={"patterns": 3}, algorithm="minimax")
        assert doubled.score == 3 * result.score or result.proven


def test_pattern_indices_read_the_board_in_base_3(backend):
    # The start position, black to move: row 4 (squares 24..31) reads 0 0 0 2 1 0 0 0
    # (d4 white: the opponent's; e4 black: the mover's).
    ps = patterns.pattern_set(8)
    game = Othello(8)
    black, white = game.core.bitboards()
    indices = backend.othello.pattern_indices(black, white, 8)
    by_squares = {squares: index for (_, squares), index in zip(ps.instances, indices)}
    assert by_squares[tuple(range(24, 32))] == 2 * 3**4 + 1 * 3**3
    # The edge a1..h1 with b2 and g2: all empty.
    assert by_squares[(0, 1, 2, 3, 4, 5, 6, 7, 9, 14)] == 0
    # The main diagonal a1..h8 (either direction): d4 and e5 are white's, the second digit... of 8.
    diagonal = next(index for squares, index in by_squares.items() if set(squares) == {0, 9, 18, 27, 36, 45, 54, 63})
    assert diagonal == 2 * 3**4 + 2 * 3**3


def test_every_pattern_instance_is_a_board_symmetry_of_its_shape():
    for n in (6, 8, 10):
        ps = patterns.pattern_set(n)
        counts = [sum(1 for shape, _ in ps.instances if shape == s) for s in range(len(ps.shapes))]
        for name, count in zip(ps.shapes, counts):
            # Corner regions and edges have 4 placements (8 for the 2x5 and 2x4 blocks and
            # 10x10's corner+edge piece), rows 4, the main diagonal 2 (4 on 10x10, read as
            # two pieces of 9), every other diagonal 4.
            expected = 8 if name in ("corner2x5", "corner2x4", "edge8+x") else 2 if name == f"diagonal{n}" else 4
            assert count == expected, name
        assert all(len(set(squares)) == len(squares) for _, squares in ps.instances)


def test_the_10x10_set_is_small_and_covers_the_edges_and_diagonals_in_pieces(backend):
    ps = patterns.pattern_set(10)
    # At most 9 squares a shape, 64 instances (the compiled table's limit), 3 MB at most.
    assert max(ps.lengths) == 9 and len(ps.instances) == 64
    assert 2 * ps.stride * ps.stages < 3_000_000 and ps.stages == 8
    assert ps.stride == sum(3**length for length in ps.lengths) + patterns.EXTRA_WEIGHTS
    by_shape: dict[str, list[set[int]]] = {}
    for shape, squares in ps.instances:
        by_shape.setdefault(ps.shapes[shape], []).append(set(squares))
    # The top edge a1..j1 with its X-squares b2 and i2 (squares 11, 18): two overlapping
    # pieces of a corner, 7 more edge squares and the corner's X-square.
    top = [piece for piece in by_shape["edge8+x"] if piece <= set(range(10)) | {11, 18}]
    assert sorted(map(sorted, top)) == [[0, 1, 2, 3, 4, 5, 6, 7, 11], [2, 3, 4, 5, 6, 7, 8, 9, 18]]
    # The main diagonal a1..j10 (squares 0, 11, ..., 99) in two pieces of 9 from its corners.
    main = {11 * i for i in range(10)}
    assert sorted(map(sorted, (p for p in by_shape["diagonal10/9"] if p <= main))) == [
        [11 * i for i in range(9)],
        [11 * i for i in range(1, 10)],
    ]
    # Row 2 without its ends: b2..i2 (the X-squares' row).
    assert set(range(11, 19)) in by_shape["row2/8"]
    # The start position, black to move: e5 and f6 white (the opponent's), f5 and e6 black
    # (the mover's). Row 5 b5..i5 reads 0 0 0 2 1 0 0 0; the diagonal j1..b9 (squares 9, 18,
    # ..., 81) has f5 and e6 as its 5th and 6th digits, the diagonal a1..i9 e5 and f6.
    black, white = Othello(10).core.bitboards()
    assert white >> 44 & 1 and white >> 55 & 1 and black >> 45 & 1 and black >> 54 & 1
    indices = backend.othello.pattern_indices(black, white, 10)
    by_squares = {squares: index for (_, squares), index in zip(ps.instances, indices)}
    assert by_squares[tuple(range(41, 49))] == 2 * 3**4 + 1 * 3**3
    assert by_squares[tuple(range(9, 82, 9))] == 1 * 3**4 + 1 * 3**3
    assert by_squares[tuple(range(0, 89, 11))] == 2 * 3**4 + 2 * 3**3


def test_training_ties_a_configuration_to_its_mirror_image():
    canonical = train.canonical_tables(8)
    ps = patterns.pattern_set(8)
    corner = ps.shapes.index("corner3x3")
    # Squares in order a1 b1 c1 / a2 b2 c2 / a3 b3 c3: a disc on b1 (digit 7) and its
    # mirror across the a1-h8 diagonal, on a2 (digit 5).
    assert canonical[corner][3**7] == canonical[corner][3**5] == 3**5
    block = ps.shapes.index("corner2x5")
    assert ps.mirrors[block] == ()  # no symmetry maps the 2x5 block onto itself
    assert canonical[block][3**7] == 3**7


def test_fit_recovers_the_weights_that_made_the_data():
    rng = random.Random(5)
    stride = 40
    truth = [rng.uniform(-3, 3) for _ in range(stride - 4)] + [0.5, 0.3, 0.2, 1.0]
    samples = []
    for _ in range(3000):
        slots = rng.sample(range(stride - 4), 5)
        extras = (1, rng.randint(-8, 8), rng.randint(-20, 20), rng.choice((-1, 1)))
        target = sum(truth[s] for s in slots) + sum(truth[stride - 4 + k] * v for k, v in enumerate(extras))
        samples.append((slots, extras, target))
    spread = math.sqrt(sum(t * t for _, _, t in samples) / len(samples))
    _, error = train.fit_stage(samples, stride, train.TrainOptions(epochs=40, learning_rate=0.01), rng)
    assert error < 0.05 * spread


@pytest.mark.parametrize("n", [6, 10])
def test_a_tiny_training_run_writes_weights_that_load(tmp_path, backends, n):
    options = train.TrainOptions(size=n, games=12, per_stage=25, depth=2, exact=8, epochs=3, seed=4)
    record = train.train(options, str(tmp_path))
    ps = patterns.pattern_set(n)
    assert record["complete"] and len(record["stage_results"]) == ps.stages
    blob = (tmp_path / f"othello{n}.patterns").read_bytes()
    assert json.loads((tmp_path / f"othello{n}.json").read_text())["sha256"] == patterns.sha256(blob)
    table = patterns.decode_table(blob, n)
    assert any(table)
    lines = (tmp_path / f"othello{n}-positions.txt").read_text().splitlines()
    assert len(lines) == sum(s["positions"] for s in record["stage_results"])
    # The run put the shipped weights (or none) back.
    rng = random.Random(1)
    for b in backends:
        me, opp = random_board(n, rng)
        shipped = patterns.load_table(n)
        b.othello.set_pattern_weights(n, table)
        mine = b.othello.pattern_score(me, opp, n)
        b.othello.set_pattern_weights(n, shipped)
        assert mine == _score_by_hand(me, opp, n, table)
        assert b.othello.pattern_score(me, opp, n) == (_score_by_hand(me, opp, n, shipped) if shipped else 0)


def _score_by_hand(me: int, opp: int, n: int, table) -> int:
    """The pattern score read straight from the definition, with the size's stage width."""
    return score_by_hand(me, opp, patterns.Weights(n, patterns.STAGE_WIDTH[n], table, "test"))


def test_bad_pattern_weights_are_refused_and_change_nothing(backend):
    me, opp = Othello(8).core.bitboards()
    before = backend.othello.pattern_score(me, opp, 8)
    ps = patterns.pattern_set(8)
    for bad in ([1, 2, 3], [70_000] * (ps.stride * ps.stages), "weights"):
        with pytest.raises(ValueError):
            backend.othello.set_pattern_weights(8, bad)
    assert backend.othello.pattern_score(me, opp, 8) == before


# -- the shipped weights -----------------------------------------------------------------


def shipped(n: int) -> tuple[bytes, dict]:
    root = resources.files("gamecore").joinpath("data")
    return root.joinpath(f"othello{n}.patterns").read_bytes(), json.loads(root.joinpath(f"othello{n}.json").read_text())


@pytest.mark.parametrize("n", sorted(SHIPPED_SHA256))
def test_the_shipped_weights_are_the_recorded_ones(n):
    blob, record = shipped(n)
    ps = patterns.pattern_set(n)
    assert patterns.sha256(blob) == record["sha256"] == SHIPPED_SHA256[n]
    assert record["stride"] == ps.stride
    assert len(blob) == 2 * ps.stride * ps.stages < 6_000_000
    if "sources" in record and isinstance(record["sources"], list):  # fitted to recorded games
        assert record["stage_width"] == patterns.STAGE_WIDTH[n] and record["stages"] == ps.stages
        assert record["command"].startswith(f"gamecore train othello --size {n} ") and "--from" in record["command"]
        assert len(record["held_out"]) == ps.stages
        return
    fitted = [s["stage"] for s in record["stage_results"]]
    copied = sorted(int(s) for s in record.get("copied_stages", {}))
    assert sorted(fitted + copied) == list(range(ps.stages)) and record["complete"] == (not copied)
    if n in COMPLETE:
        assert record["command"] == f"gamecore train othello --size {n} --out DIR"
        assert train.shipped_options(n) == train.TrainOptions(**record["options"])


@pytest.mark.parametrize("n", sorted(SHIPPED_SHA256))
def test_the_start_position_has_its_pinned_learned_value(backend, n):
    game = Othello(n, backend=backend.name)
    me, opp = game.core.bitboards()
    assert backend.othello.pattern_score(me, opp, n) == START_VALUE[n]
    assert _score_by_hand(me, opp, n, patterns.load_table(n)) == START_VALUE[n]


@pytest.mark.parametrize("n", sorted(SHIPPED_SHA256))
def test_both_backends_score_alike_with_the_shipped_weights(backends, n):
    # Positions of real games (random moves), every stage, scored by both backends and by
    # the definition read straight from _othello_patterns.
    py, cy = backends
    table = patterns.load_table(n)
    rng = random.Random(n)
    scored = set()
    for _ in range(12):
        game = Othello(n, backend="python")
        while not game.is_game_over():
            black, white = game.core.bitboards()
            me, opp = (black, white) if game.turn == 0 else (white, black)
            expected = _score_by_hand(me, opp, n, table)
            assert py.othello.pattern_score(me, opp, n) == cy.othello.pattern_score(me, opp, n) == expected
            scored.add(patterns.stage_of(n * n - (me | opp).bit_count(), n))
            game.push(rng.choice(game.legal_moves()))
    assert scored == set(range(patterns.pattern_set(n).stages))


def test_the_default_evaluation_is_the_learned_one_where_weights_are_shipped(backend):
    standard = Engine("standard")
    for n in (4, 6, 8, 10):
        game = Othello(n, backend=backend.name)
        expected = LEARNED if n in SHIPPED_SHA256 else standard.evaluation_weights(game)
        assert game.default_evaluation() == ("learned" if n in SHIPPED_SHA256 else "standard")
        assert Engine().evaluation_weights(game) == expected
        assert strength.player_from_spec("engine:depth=1")._engine_for("alphabeta").evaluation_weights(game) == expected
    assert Engine().evaluation == "default"
    assert Engine().evaluation_weights(Tetralath()) == Engine("standard").evaluation_weights(Tetralath())
    # The default search is the learned one's, node for node.
    game = Othello.from_moves("f5d6c3d3c4", backend=backend.name)
    default, learned = search(game, depth=3), search(game, depth=3, evaluation="learned")
    assert (default.move, default.score, default.nodes) == (learned.move, learned.score, learned.nodes)


def test_the_learned_evaluation_searches_alike_in_both_backends(backends):
    game = Othello.from_moves("f5d6c3d3c4", size=8)
    found = [
        search(Othello.from_moves("f5d6c3d3c4", size=8, backend=b.name), depth=4, evaluation="learned")
        for b in backends
    ]
    assert found[0].move == found[1].move and found[0].score == found[1].score and found[0].nodes == found[1].nodes
    assert found[0].move in game.legal_moves()
    assert Engine("learned").evaluation_weights(game) == LEARNED


# -- bench othello strength ----------------------------------------------------------------------


def test_elo_and_its_interval_by_hand():
    # 6 wins, 2 draws, 2 losses: score 0.7, variance of the game scores 0.16, half-width
    # 1.96 * sqrt(0.016) = 0.24792; Elo = -400 log10(1/p - 1).
    rating, low, high = strength.elo_interval([1] * 6 + [0.5] * 2 + [0] * 2)
    assert rating == pytest.approx(147.19, abs=0.01)
    assert low == pytest.approx(-33.40, abs=0.01)
    assert high == pytest.approx(504.05, abs=0.01)
    assert strength.elo(0.5) == 0 and strength.elo(1.0) == math.inf and strength.elo(0.0) == -math.inf
    result = strength.StrengthResult([5, 0, -3, 12])
    assert (result.wins, result.draws, result.losses) == (2, 1, 1)
    assert "W-D-L 2-1-1 in 4 games, score 62.5 %, mean disc margin +3.50" in result.summary()


def test_the_shipped_openings_are_legal_and_distinct():
    for n, count in ((6, 20), (8, 50), (10, 20)):
        openings = strength.load_openings(n)
        assert len(openings) == count == len(set(openings))
        for line in openings:
            game = Othello.from_moves(line, size=n)
            assert 4 <= len(game.move_stack) <= 8 and not game.is_game_over()


def test_a_tiny_match_counts_from_the_players_side():
    result = strength.play_match("engine:depth=3", "greedy", size=6, games=4)
    assert len(result.margins) == 4
    # Game 1: the player black from the first opening; game 2: the same opening, colours
    # swapped (the margin is the player's, so the negation of black's).
    engine, greedy = strength.player_from_spec("engine:depth=3"), strength.player_from_spec("greedy")
    opening = strength.load_openings(6)[0]
    assert strength.play_game(opening, engine, greedy, 6) == result.margins[0]
    assert -strength.play_game(opening, greedy, engine, 6) == result.margins[1]
    final = Othello.from_moves(opening, size=6)
    while not final.is_game_over():
        final.push((engine if final.turn == 0 else greedy).choose_move(final))
    black, white = final.score()
    assert result.margins[0] == black - white + (36 - black - white) * ((black > white) - (black < white))


def test_engine_v1_is_the_standard_evaluation():
    player = strength.player_from_spec("engine:v1,depth=2")
    assert player.evaluation == "standard" and player.depth == 2
    # A match on CPU time (the same work for both on a loaded machine).
    timed = strength.player_from_spec("engine:v1,time=0.2,clock=cpu")
    assert timed.clock == "cpu" == timed._engine_for("alphabeta").clock
    with pytest.raises(ValueError):
        strength.player_from_spec("engine:clock=sundial")
    with pytest.raises(ValueError):
        strength.play_match("engine:depth=1", "engine:v1,depth=1", size=6, games=41)


def test_an_engine_spec_turns_multi_probcut_on_or_off():
    # the player's own options, so a spec says it as any other option (and make_player takes it)
    assert strength.player_from_spec("engine:v1,mpc=off,time=0.2")._engine_for("alphabeta").mpc is False
    on = strength.player_from_spec("engine:mpc=on,mpc_t=1.5,time=0.2")._engine_for("alphabeta")
    assert (on.mpc, on.mpc_t) == (True, 1.5)
    assert strength.player_from_spec("engine:time=0.2")._engine_for("alphabeta").mpc is None
    assert make_player("engine:mpc=no")._engine_for("alphabeta").mpc is False
    with pytest.raises(InvalidOptionError, match="on or off"):
        strength.player_from_spec("engine:mpc=maybe")
    with pytest.raises(InvalidOptionError):
        make_player("engine:mpc_t=-1")


def test_the_same_training_run_gives_the_same_bytes(tmp_path):
    # What reproducing the shipped weights rests on, on a tiny run: the same options and seed
    # give the same weights; another seed other positions, so other weights.
    runs = {}
    for name, seed in (("a", 7), ("b", 7), ("c", 8)):
        options = train.TrainOptions(size=6, games=10, per_stage=20, depth=4, exact=8, epochs=2, seed=seed)
        train.train(options, str(tmp_path / name))
        runs[name] = (tmp_path / name / "othello6.patterns").read_bytes()
    assert runs["a"] == runs["b"] != runs["c"]


def test_the_training_command_defaults_to_the_shipped_options():
    assert train.shipped_options(8) == train.TrainOptions(size=8, games=6000, per_stage=20000)
    assert train.shipped_options(10) == train.TrainOptions(size=10, games=1500, per_stage=10000)
    assert train.command_of(train.shipped_options(10)) == "gamecore train othello --size 10 --out DIR"
    assert train.command_of(train.shipped_options(8)) == "gamecore train othello --size 8 --out DIR"
    changed = train.shipped_options(6, games=5, seed=2)
    assert train.command_of(changed) == "gamecore train othello --size 6 --out DIR --games 5 --seed 2"


def test_the_commands_run_from_the_cli(tmp_path):
    out = io.StringIO()
    argv = ["train", "othello", "--size", "6", "--out", str(tmp_path), "--games", "6", "--per-stage", "8"]
    assert main([*argv, "--depth", "1", "--exact", "6", "--epochs", "1"], out=out) == 0
    assert "8 of 8 stages fitted" in out.getvalue() and (tmp_path / "othello6.json").exists()
    out = io.StringIO()
    argv = [
        "bench",
        "othello",
        "strength",
        "--size",
        "6",
        "--games",
        "2",
        "--player",
        "engine:depth=1",
        "--opponent",
        "random",
    ]
    assert main(argv, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("game   1: b3b4e5b2") and "in 2 games" in lines[-1]
    assert main(["bench", "othello", "strength", "--games", "0"], out=io.StringIO()) == 2


def test_exported_players_default_to_the_learned_evaluation_unless_standalone(tmp_path):
    # A player that imports gamecore has the weights; the standalone CTU file (1 MB at most)
    # does not, and keeps the standard evaluation.
    assert "EVALUATION = 'default'" in ctu.player_source()
    assert "\"evaluation\": 'default'" in ufrj.player_source()
    installed = ctu.export_player(str(tmp_path / "player.py"))
    standalone = ctu.export_player(str(tmp_path / "flat.py"), standalone=True)
    assert "EVALUATION = 'default'" in open(installed).read()
    assert "evaluation 'standard'" in open(standalone).read()
    player = ctu.CTUPlayer(0, 1, 8, depth=1)
    assert player.player.evaluation == "default"


_DAMAGED_WEIGHTS_PROBE = """
import sys
from gamecore import Engine, Othello
from gamecore.errors import CorruptDataError
from gamecore.games import _othello_patterns as patterns
patterns.data_path = lambda name: sys.argv[1]
try:
    Engine().search(Othello(10, backend=sys.argv[2]), depth=2)
except CorruptDataError as error:
    print("CorruptDataError", error)
"""


@pytest.mark.parametrize("damage", ["empty", "one byte", "short", "odd", "one weight more"])
def test_damaged_shipped_weights_are_a_gamecore_error(tmp_path, backend, damage):
    """A weight file that is empty, truncated (to an even or odd number of bytes) or too long
    is one CorruptDataError naming the file, in both backends, on first use of the size
    (before: ValueError or TypeError from the table check or the memoryview cast)."""
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    blob = resources.files("gamecore").joinpath("data/othello10.patterns").read_bytes()
    damaged = {"empty": b"", "one byte": b"\x01", "short": blob[:1000], "odd": blob[:1001]}.get(damage, blob + b"\0\0")
    path = tmp_path / "othello10.patterns"
    path.write_bytes(damaged)
    with pytest.raises(CorruptDataError, match="reinstall gamecore"):
        _load_from(path)
    name = "cython" if backend.othello.__name__.endswith("_cy") else "python"
    probe = subprocess.run(
        [sys.executable, "-c", _DAMAGED_WEIGHTS_PROBE, str(path), name], capture_output=True, text=True, timeout=120
    )
    assert probe.stdout.startswith("CorruptDataError"), probe.stderr
    assert str(path) in probe.stdout and "Traceback" not in probe.stderr


def _load_from(path):
    """``load_table(10)`` reading ``path`` (the cache and the data path restored after)."""
    saved = patterns.data_path
    patterns.load_table.cache_clear()
    patterns.data_path = lambda name: str(path)
    try:
        return patterns.load_table(10)
    finally:
        patterns.data_path = saved
        patterns.load_table.cache_clear()


@pytest.mark.parametrize(
    "option,value",
    [
        ("--exact", "100"),  # exact solves of 10x10 positions with up to 100 empties: days
        ("--exact", "-1"),
        ("--depth", "0"),  # used to fail only after the self-play, seconds to hours in
        ("--play-depth", "99"),
        ("--random-share", "2"),
        ("--learning-rate", "nan"),
        ("--learning-rate", "0"),
        ("--epochs", "0"),
        ("--per-stage", "0"),  # used to write an all-zero table: "0 of 8 stages fitted"
        ("--games", "0"),
        ("--random-plies", "1000"),
        ("--stop-after", "-5"),
        ("--stop-after", "nan"),
    ],
)
def test_training_options_out_of_range_are_one_error_line_before_any_work(tmp_path, capsys, option, value):
    """``gamecore train othello --size 10`` with an option out of range: status 1, one line
    naming the option, nothing written (before: each ran for minutes or hours, or wrote
    weights, or failed with a traceback after the self-play)."""
    out_dir = tmp_path / "out"
    argv = ["train", "othello", "--size", "10", "--out", str(out_dir), option, value]
    assert main(argv, out=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.startswith("gamecore: error: " + option) and err.count("\n") == 1
    assert not out_dir.exists()
    with pytest.raises(InvalidOptionError):
        train.check_option(option[2:].replace("-", "_"), float(value) if "." in value or value == "nan" else int(value))
