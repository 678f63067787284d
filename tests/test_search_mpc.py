"""Multi-ProbCut in alpha-beta (``_alphabeta_py`` / ``_alphabeta_cy``, ``Engine(mpc=)``) and its fit
(``gamecore.train.mpc``): both backends cut the same nodes; off, nothing changes; the fit
recovers known parameters; the shipped fit belongs to the shipped weights."""

from __future__ import annotations

import random
import shutil

import pytest

from gamecore import Engine, Othello, Tetralath, search
from gamecore.errors import InvalidOptionError
from gamecore.games import _othello_patterns as patterns
from gamecore.search import _mpc
from gamecore.search._options import MPC_DEPTHS, MPC_EMPTIES, MPC_MIN_DEPTH, MPC_SCALE, SearchLimits, check_mpc
from gamecore.train import mpc as train_mpc


def _fit(a: float = 0.9, b: float = 10.0, sigma: float = 150.0, t: float = 1.5) -> dict:
    return {
        "t": t,
        "fits": [
            {"empties": [1, 64], "depth": d, "shallow": _mpc.shallow_depth(d), "a": a, "b": b, "sigma": sigma}
            for d in range(MPC_MIN_DEPTH, 12)
        ],
    }


def _position(plies: int, seed: int, backend: str, size: int = 8) -> Othello:
    rng = random.Random(seed)
    game = Othello(size, backend=backend)
    for _ in range(plies):
        if game.is_game_over():
            break
        game.push(rng.choice(game.legal_moves()))
    return game


def _searcher(backend_module, tt_mb: float = 1):
    return backend_module.alphabeta.Searcher(tt_mb)


def _run(backend_module, game, depth, table, tt_mb=1, node_limit=0):
    weights = Engine("learned").evaluation_weights(game)
    found = _searcher(backend_module, tt_mb).search(
        game.core, SearchLimits(depth, node_limit), weights=weights, mpc=table
    )
    return found.move, found.score, found.pv, found.nodes, found.depth


@pytest.mark.parametrize("plies", [8, 20, 30, 44])
def test_both_backends_cut_the_same_nodes(backends, plies):
    py, cy = backends
    table = _mpc.mpc_table(_fit())
    for tt_mb in (0, 1):
        results = []
        for module, name in ((py, "python"), (cy, "cython")):
            game = _position(plies, plies, name)
            results.append(_run(module, game, 5, table, tt_mb))
        assert results[0] == results[1]


def test_both_backends_agree_with_the_shipped_fit_and_a_node_limit(backends):
    py, cy = backends
    table = _mpc.table_for(8)
    assert table is not None
    for plies, limit in ((14, 0), (26, 3000), (36, 777)):
        results = [
            _run(module, _position(plies, 100 + plies, name), 6, table, 1, limit)
            for module, name in ((py, "python"), (cy, "cython"))
        ]
        assert results[0] == results[1]


def test_probes_prune_and_a_huge_threshold_changes_no_score(backend):
    # With the fit's threshold some nodes are cut; with t = 90 sigmas no probe can succeed
    # (a heuristic score stays within the evaluation's range), so the search returns what
    # the full-width one does, having spent the probes' nodes on top.
    module = backend
    pruned = 0
    for seed in range(6):
        game = _position(12 + 4 * seed, seed, backend.name)
        full = _run(module, game, 5, None)
        tight = _run(module, game, 5, _mpc.mpc_table(_fit(t=1.0)))
        loose = _run(module, game, 5, _mpc.mpc_table(_fit(t=90.0, sigma=900.0)))
        assert loose[:2] == full[:2]  # (the probes' table entries may change the line's tail)
        assert loose[3] > full[3]
        pruned += tight[3] < full[3]
    assert pruned >= 4


def test_mpc_off_changes_nothing(backend):
    # Engine(mpc=False), the default engine and a search without a table visit the same nodes.
    game = _position(20, 7, backend.name)
    plain = _run(backend, game, 5, None)
    for engine in (Engine("learned", mpc=False, tt_mb=1), Engine("learned", tt_mb=1)):
        result = engine.search(game, depth=5)
        assert result.move.index == plain[0]
        assert (result.score, result.nodes) == (plain[1], plain[3])


def test_engine_mpc_on_uses_the_shipped_fit(backend):
    game = _position(18, 3, backend.name)
    depth = 7 if backend.name == "cython" else 5
    on = Engine("learned", mpc=True, tt_mb=1).search(game, depth=depth)
    off = Engine("learned", mpc=False, tt_mb=1).search(game, depth=depth)
    assert on.nodes < off.nodes
    assert on.move in game.legal_moves()
    # the searcher with the shipped table is what the engine runs
    direct = _run(backend, game, depth, _mpc.table_for(8))
    assert (on.move.index, on.nodes) == (direct[0], direct[3])
    # a timed search with it answers with a legal move
    timed = Engine(mpc=True, clock="cpu").search(game, time_limit=0.05)
    assert timed.move in game.legal_moves()


def test_mpc_options_are_checked(backend, tmp_path):
    with pytest.raises(InvalidOptionError):
        Engine(mpc="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError):
        Engine(mpc_t=-1)
    game = _position(10, 1, backend.name)
    with pytest.raises(InvalidOptionError, match="learned"):
        Engine("standard", mpc=True).search(game, depth=3)
    for suffix in ("patterns", "json"):  # the shipped 10x10 weights without their fit beside them
        shutil.copy(patterns.data_path(patterns.data_name(10, suffix)), tmp_path)
    with pytest.raises(InvalidOptionError):
        Engine(weights=str(tmp_path / "othello10.patterns"), mpc=True).search(
            Othello(10, backend=backend.name), depth=2
        )
    with pytest.raises(InvalidOptionError):
        Engine(mpc=True).search(Tetralath(backend=backend.name), depth=2)
    # other evaluations, sizes and games search as before with mpc None or False
    assert Engine("standard", mpc=False).search(game, depth=3).move in game.legal_moves()
    assert search(game, depth=3, evaluation="standard").move in game.legal_moves()


def test_bad_tables_are_refused(backends):
    good = _mpc.mpc_table(_fit())
    assert check_mpc(good) == good
    shallow, slope, high, low = good
    bad_tables = [
        (shallow[:-1], slope, high, low),
        ([0, 0, 0, 3] + shallow[4:], slope, high, low),  # probe depth not below the node's
        (shallow, [-1] + slope[1:], high, low),
        (shallow, slope, [1.5] + high[1:], low),
        (shallow, slope, high, low[:-1]),
        "table",
        (shallow, slope, high),
    ]
    for module in backends:
        game = _position(10, 1, "python" if module is backends[0] else "cython")
        for table in bad_tables:
            with pytest.raises(InvalidOptionError):
                module.alphabeta.Searcher(1).search(game.core, SearchLimits(3), mpc=table)


def test_table_layout():
    fit = _fit(a=0.8, b=20.0, sigma=100.0, t=2.0)
    fit["fits"] = [f for f in fit["fits"] if f["depth"] != 7] + [
        {"empties": [40, 50], "depth": 7, "shallow": 3, "a": 1.0, "b": -5.0, "sigma": 50.0},
        {"empties": [51, 60], "depth": 7, "shallow": 3, "a": -0.1, "b": 0.0, "sigma": 50.0},
    ]
    shallow, slope, high, low = _mpc.mpc_table(fit)
    assert shallow[:MPC_MIN_DEPTH] == [0] * MPC_MIN_DEPTH
    assert shallow[3:12] == [1, 2, 3, 2, 3, 4, 5, 4, 5]
    assert shallow[12:] == [0] * (MPC_DEPTHS - 12)
    slot = 30 * MPC_DEPTHS + 5
    assert (slope[slot], high[slot], low[slot]) == (round(0.8 * MPC_SCALE), 200 - 20, -200 - 20)
    assert (slope[45 * MPC_DEPTHS + 7], high[45 * MPC_DEPTHS + 7], low[45 * MPC_DEPTHS + 7]) == (1024, 105, -95)
    assert slope[10 * MPC_DEPTHS + 7] == 1024  # below the fitted stages: the nearest one
    assert slope[55 * MPC_DEPTHS + 7] == 0  # a slope that is not positive: no probe
    assert slope[(MPC_EMPTIES - 1) * MPC_DEPTHS + 12] == 0  # no fit at depth 12


def test_the_fit_recovers_known_parameters():
    rng = random.Random(11)
    xs = [rng.gauss(0, 800) for _ in range(4000)]
    ys = [0.85 * x + 40 + rng.gauss(0, 120) for x in xs]
    a, b, sigma = train_mpc.fit_line(xs, ys)
    assert abs(a - 0.85) < 0.01
    assert abs(b - 40) < 6
    assert abs(sigma - 120) < 5
    with pytest.raises(ValueError):
        train_mpc.fit_line([1.0, 1.0, 1.0], [1.0, 2.0, 3.0])
    # per stage and depth, from values at every depth
    values = []
    for _ in range(600):
        empties = rng.randint(13, 36)
        v = {1: round(rng.gauss(0, 500)), 2: round(rng.gauss(0, 500))}
        for depth in range(3, 9):
            slope, noise = (0.9, 60) if empties <= 24 else (1.1, 200)
            v[depth] = round(slope * v[_mpc.shallow_depth(depth)] + 15 + rng.gauss(0, noise))
        values.append((empties, v))
    fits = train_mpc.fit_pairs(values, 8, 8)
    assert {f["depth"] for f in fits} == set(range(MPC_MIN_DEPTH, 9))
    for f in fits:
        low, high = f["empties"]
        assert high - low + 1 == patterns.STAGE_WIDTH[8]
        slope, noise = (0.9, 60) if high <= 24 else (1.1, 200)
        assert f["shallow"] == _mpc.shallow_depth(f["depth"])
        assert f["pairs"] >= train_mpc.MIN_PAIRS
        assert abs(f["a"] - slope) < 0.1, f
        assert abs(f["sigma"] - noise) < 0.3 * noise, f


#: The sizes with a shipped Multi-ProbCut fit (gamecore/data/othello{size}.mpc.json).
SHIPPED_FITS = (6, 8, 10)


@pytest.mark.parametrize("n", SHIPPED_FITS)
def test_the_shipped_fit_is_for_the_shipped_weights(n):
    fit = _mpc.load_fit(n)
    assert fit is not None and fit["size"] == n
    with open(patterns.data_path(patterns.data_name(n, "patterns")), "rb") as f:
        assert fit["weights_sha256"] == patterns.sha256(f.read())
    assert fit["t"] in train_mpc.T_CANDIDATES
    assert fit["command"] == f"gamecore train othello-mpc --size {n} --out DIR"  # the defaults: rebuildable
    assert check_mpc(_mpc.table_for(n)) is not None
    for entry in fit["fits"]:
        assert entry["shallow"] == _mpc.shallow_depth(entry["depth"])
        assert entry["sigma"] > 0 and entry["pairs"] >= train_mpc.MIN_PAIRS
    # The shipped weights come with it, and the timed engine of that size prunes with it.
    shipped = patterns.shipped_weights(n)
    assert shipped is not None and shipped.source == "shipped"
    game = _position(6, 4, "python", size=n)
    assert Engine()._mpc_table(game, Engine().evaluation_weights(game), None, True) is _mpc.table_for(n)


def test_sizes_without_a_fit_have_none():
    for n in {4, 6, 8, 10} - set(SHIPPED_FITS):
        assert _mpc.load_fit(n) is None and _mpc.table_for(n) is None


def test_a_tiny_fit_run(tmp_path):
    options = train_mpc.MPCOptions(size=8, games=10, per_stage=30, max_depth=4, seed=2)
    record = train_mpc.fit(options, str(tmp_path))
    assert (tmp_path / "othello8.mpc.json").exists()
    assert record["t"] in train_mpc.T_CANDIDATES
    assert record["fits"] and {f["depth"] for f in record["fits"]} == {3, 4}
    assert record["command"] == (
        "gamecore train othello-mpc --size 8 --out DIR --games 10 --per-stage 30 --max-depth 4 --seed 2"
    )
    again = train_mpc.fit(options, str(tmp_path / "again"))
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in record.items() if k != "seconds"}


def test_by_default_only_searches_limited_by_time_alone_prune(backend):
    # Fixed-depth and node-limited searches stay full width (exact alpha-beta at their depth);
    # a timed search of the learned evaluation with a shipped fit gets the table.
    game = _position(20, 4, backend.name)
    engine = Engine()
    weights = engine.evaluation_weights(game)
    assert engine._mpc_table(game, weights, None, True) is _mpc.table_for(8)
    assert engine._mpc_table(game, weights, None, False) is None
    assert Engine(mpc=False)._mpc_table(game, weights, None, True) is None
    assert Engine(mpc=True)._mpc_table(game, weights, None, False) is _mpc.table_for(8)
    assert Engine("standard")._mpc_table(game, Engine("standard").evaluation_weights(game), None, True) is None
    four = _position(6, 4, backend.name, size=4)
    assert Engine()._mpc_table(four, Engine().evaluation_weights(four), None, True) is None  # no 4x4 fit
    plain = Engine(tt_mb=1).search(game, depth=6)
    full = Engine(mpc=False, tt_mb=1).search(game, depth=6)
    assert (plain.move, plain.score, plain.nodes) == (full.move, full.score, full.nodes)
