"""Every bad option or limit is a gamecore error of the right kind, on both backends (issue 19,
section 4): ``InvalidOptionError`` for what names or tunes something, ``InvalidLimitError``
for how much to search, never a plain ``ValueError``, and never ``InvalidPositionError`` for a
time or a seed. Both are ``ValueError`` too, so older ``except ValueError`` clauses still
catch them. Bad MCTS options fail when the object is made, not at its first search.

Also here: the result names (``SearchResult.score`` of a proven result is the margin and
``proven`` says so; ``nodes`` is the states explored in every result) and the twins' shared
checks (``search/_options.py``, ``search/_mcts_rules.py``, ``games/_rolit_rules.py``,
``games/_othello_rules.py``, ``games/_tetralath_rules.py``,
``_protocol.py``): both twins use them, neither writes one of their names out again, and the
C constants the compiled twins keep (``_C_COPIES``) equal them.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import re
from pathlib import Path

import pytest

from gamecore import Engine, Othello, Rolit, Tetralath, _backend, search, solve
from gamecore.errors import (
    GamecoreError,
    IllegalMoveError,
    InvalidEvaluationError,
    InvalidLimitError,
    InvalidOptionError,
    InvalidPositionError,
)
from gamecore.games import _othello_rules, _rolit_rules, _tetralath_rules
from gamecore.players import make_player
from gamecore.search import _mcts_rules, _options, _results
from gamecore.search._options import SearchLimits
from gamecore.search.mcts import MCTS

GAMES = {"othello": lambda b: Othello(6, backend=b), "tetralath": lambda b: Tetralath(backend=b), "rolit": Rolit}


def _raises(kind, call, *args, **kwargs):
    """``call`` raises exactly a ``kind`` (a GamecoreError and a ValueError)."""
    with pytest.raises(kind) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, GamecoreError) and isinstance(info.value, ValueError), info.value
    return info.value


BAD_ENGINE_OPTIONS = [
    ({"algorithm": "negascout"}, InvalidOptionError),
    ({"algorithm": 3}, InvalidOptionError),
    ({"tt_mb": -1}, InvalidOptionError),
    ({"tt_mb": 5000}, InvalidOptionError),
    ({"tt_mb": True}, InvalidOptionError),
    ({"tt_mb": "16"}, InvalidOptionError),
    ({"evaluation": "clever"}, InvalidOptionError),
    ({"evaluation": 3}, InvalidOptionError),
    ({"algorithm": "mcts", "evaluation": len}, InvalidOptionError),
    ({"endgame_empties": -1}, InvalidOptionError),
    ({"clock": "sundial"}, InvalidOptionError),
    ({"algorithm": "mcts", "exploration": -1}, InvalidOptionError),
    ({"algorithm": "mcts", "exploration": math.inf}, InvalidOptionError),
    ({"algorithm": "mcts", "max_nodes": 0}, InvalidOptionError),
    ({"algorithm": "mcts", "greedy": 2}, InvalidOptionError),
    ({"algorithm": "mcts", "history": -1}, InvalidOptionError),
    ({"algorithm": "mcts", "seed": "x"}, InvalidOptionError),
]


@pytest.mark.parametrize(("options", "kind"), BAD_ENGINE_OPTIONS, ids=[str(o) for o, _ in BAD_ENGINE_OPTIONS])
def test_a_bad_engine_option_fails_at_construction(options, kind):
    _raises(kind, Engine, **options)


@pytest.mark.parametrize(
    "options",
    [
        {"exploration": -1},
        {"exploration": 0},
        {"exploration": math.nan},
        {"max_nodes": 0},
        {"max_nodes": 1.5},
        {"greedy": -0.1},
        {"history": math.inf},
        {"seed": 1.5},
        {"clock": "wall-ish"},
    ],
)
def test_bad_mcts_options_fail_at_construction(backend, options):
    _raises(InvalidOptionError, MCTS, backend=backend.name, **options)
    _raises(InvalidOptionError, MCTS, **options)  # before any tree or backend exists
    if "clock" not in options:  # the trees of both backends check through the same function
        _raises(InvalidOptionError, backend.mcts.MCTSTree, **options)


BAD_LIMITS = [
    {},  # no limit at all
    {"depth": 0},
    {"depth": 100},
    {"depth": 2.5},
    {"nodes": 0},
    {"nodes": -5},
    {"time_limit": 0},
    {"time_limit": math.inf},
    {"time_limit": math.nan},
    {"time_limit": "1"},
]


@pytest.mark.parametrize("game", ["othello", "tetralath"])
@pytest.mark.parametrize("limits", BAD_LIMITS, ids=[str(x) for x in BAD_LIMITS])
def test_a_bad_search_limit_is_an_invalid_limit(backend, game, limits):
    position = GAMES[game](backend.name)
    _raises(InvalidLimitError, search, position, **limits)
    _raises(InvalidLimitError, Engine().search, position, **limits)


def test_bad_limits_of_the_other_searches(backend):
    rolit = Rolit(backend=backend.name)
    _raises(InvalidLimitError, search, rolit, algorithm="mcts", depth=3)  # MCTS counts iterations
    _raises(InvalidLimitError, MCTS().search, rolit)
    _raises(InvalidLimitError, MCTS().search, rolit, iterations=0)
    _raises(InvalidLimitError, solve, Othello(4, backend=backend.name), nodes=0)
    for depth in (-1, 2**31, 1.0, True, None):
        for position in (Othello(4, backend=backend.name), Tetralath(backend=backend.name), rolit):
            _raises(InvalidLimitError, position.perft, depth)
            _raises(InvalidLimitError, position.core.perft, depth)  # the core's own check, once in its base


def test_bad_evaluations_and_root_moves(backend):
    game = Othello(6, backend=backend.name)
    _raises(InvalidEvaluationError, search, game, depth=1, evaluation={"nonsense": 1})
    _raises(InvalidEvaluationError, search, game, depth=1, evaluation={"discs": 10**6})
    _raises(InvalidOptionError, search, Tetralath(backend=backend.name), depth=1, evaluation="learned")
    _raises(IllegalMoveError, search, game, depth=1, moves=["a1"])
    _raises(InvalidOptionError, search, game, depth=1, moves=[])
    _raises(InvalidOptionError, Engine(evaluation=len).evaluation_weights, game)
    _raises(InvalidPositionError, solve, Tetralath(backend=backend.name))  # no exact solver for it
    _raises(InvalidPositionError, search, "not a position", depth=1)


def test_the_backends_searchers_refuse_the_same_options_alike(backends):
    # Differential: the same bad call gets the same error class and message from both twins.
    py, cy = backends
    calls = [
        lambda b: b.alphabeta.Searcher(tt_mb=-1),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, SearchLimits(2), algorithm="maxn"),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, SearchLimits(200)),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, SearchLimits(2), weights=[1] * 17),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, SearchLimits(2, seconds=-1)),
        lambda b: b.alphabeta.Searcher(1).search(Othello(4, backend=b.name).core, SearchLimits(2), root_moves=[200]),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(Rolit(backend=b.name).core, [1], SearchLimits(2), "x"),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(
            Rolit(backend=b.name).core, [1] * 17, SearchLimits(2), "maxn"
        ),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(Rolit(backend=b.name).core, [1], SearchLimits(0), "maxn"),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(
            Rolit(backend=b.name).core, [1], SearchLimits(2, -1), "maxn"
        ),
        lambda b: b.multiplayer.MultiSearcher(1).search_multi(
            Rolit(backend=b.name).core, [1], SearchLimits(2), "maxn", root_moves=[-3]
        ),
        lambda b: b.mcts.MCTSTree(0, -1.0),
        lambda b: b.rolit.RolitCore().count_leaves(-1) and b.rolit.RolitCore().perft(-1),
        lambda b: b.rolit.RolitCore().playouts(-1, 0),
        lambda b: b.rolit.RolitCore().playouts(1, "seed"),
    ]
    for call in calls:
        errors = []
        for b in (py, cy):
            with pytest.raises(GamecoreError) as info:
                call(b)
            assert isinstance(info.value, ValueError)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1]


def test_player_and_ui_options(backend):
    _raises(InvalidOptionError, make_player, "wizard")
    _raises(InvalidOptionError, make_player, "engine:colour=red")
    _raises(InvalidOptionError, make_player, "engine:depth=deep")
    _raises(InvalidLimitError, make_player, "engine:depth=0")
    _raises(InvalidLimitError, make_player, "mcts:iterations=0")
    _raises(InvalidOptionError, Othello(backend=backend.name).render, style="gothic")
    _raises(InvalidOptionError, Tetralath(backend=backend.name).render, lang="fr")
    _raises(InvalidOptionError, Tetralath, swap="yes", backend=backend.name)


def test_the_rolit_terminal_game_says_time_and_seed_are_not_positions():
    from gamecore.ui import rolit as ui  # noqa: PLC0415

    _raises(InvalidLimitError, ui.play, time=0)
    _raises(InvalidLimitError, ui.play, time=math.inf)
    _raises(InvalidOptionError, ui.play, seed="x")
    _raises(InvalidOptionError, ui.make_engine, "alphabeta-ish")


def test_a_proven_result_reads_as_the_solvers_disc_score(backend):
    # 4x4, 10 empties: the search solves it and reports the margin solve() gives, proven.
    game = Othello.from_moves("a2 a1 b1 c1 d1 a3", size=4, backend=backend.name)
    exact = solve(game)
    assert exact.completed and exact.exact
    for result in (
        search(game, time_limit=5.0, endgame_empties=16),  # the endgame solver under search()
        search(game, depth=12, endgame_empties=0),  # alpha-beta to the end, no solver
    ):
        assert result.score == exact.score and abs(result.score) <= 16
        assert result.proven == ("win" if exact.score > 0 else "loss" if exact.score < 0 else "draw")
        assert result.values[result.player] == result.score
    assert search(game, depth=2, endgame_empties=0).proven is None  # an evaluation, not proven


def test_nodes_are_states_explored_in_every_result(backend):
    game = Othello(6, backend=backend.name)
    mcts = MCTS(seed=3, backend=backend.name)
    found = mcts.search(game, iterations=50)
    # Each iteration plays at least one move into the tree or a playout: states >= iterations;
    # the tree has its own name, and grows by at most one node per iteration beyond the root's children.
    assert found.nodes == mcts.tree.states >= 50
    assert found.tree_size == mcts.tree.node_count
    assert found.tree_size <= 1 + len(game.legal_moves()) * 50
    result = Engine(algorithm="mcts", seed=3).search(game, nodes=50)
    assert result.nodes >= result.iterations == 50


def test_the_options_module_is_what_both_twins_use(backends):
    # The constants and checks live once: both twins hand out the very same objects.
    py, cy = backends
    for name in ("check_evaluation", "check_weights", "WIN", "MAX_PLY", "MAX_WEIGHT", "TT_ENTRY_BYTES"):
        assert getattr(py.alphabeta, name) is getattr(cy.alphabeta, name) is getattr(_options, name)
    assert py.multiplayer.check_values is cy.multiplayer.check_values is _options.check_values
    assert py.multiplayer.MULTIPLAYER_SEARCHES is cy.multiplayer.MULTIPLAYER_SEARCHES is _options.MULTIPLAYER_SEARCHES
    # The games' rules modules and MCTS's: every shared name a twin exports is the shared object
    # itself. (An int up to 256 or a short str is one object wherever it is written: the source
    # checks below catch those written out again.)
    for twin, shared, least in (
        ("mcts", _mcts_rules, 6),
        ("rolit", _rolit_rules, 6),
        ("othello", _othello_rules, 4),
        ("tetralath", _tetralath_rules, 20),
    ):
        exported = [name for name in getattr(py, twin).__all__ if hasattr(shared, name)]
        assert len(exported) >= least, (twin, exported)
        for name in exported:
            assert getattr(getattr(py, twin), name) is getattr(getattr(cy, twin), name) is getattr(shared, name)
    for name in (
        "NEIGHBOURS",
        "FOUR_WINDOWS",
        "FULL_MASK",
        "cell_index",
        "check_weights",
        "check_bitboard",
        "check_cell",
    ):
        assert getattr(py.tetralath, name) is getattr(cy.tetralath, name) is getattr(_tetralath_rules, name)
    # The searches' constants that were written in both twins (alpha-beta's history bounds
    # are C copies in the compiled twin: see _C_COPIES).
    for twin, names in (
        ("endgame", ("SHALLOW_EMPTIES", "ENDGAME_TT_BITS")),
        ("multiplayer", ("NO_HORIZON", "FRAME_BYTES", "MAXN_ENTRY_BYTES")),
    ):
        for name in names:
            assert getattr(getattr(py, twin), name) is getattr(getattr(cy, twin), name) is getattr(_options, name)
    assert py.endgame.NO_MOVE is cy.endgame.NO_MOVE is _results.NO_MOVE
    for name in ("check_mcts_limits", "position_state", "reached_state"):
        assert getattr(py.mcts, name) is getattr(cy.mcts, name) is getattr(_mcts_rules, name)
    for name in ("check_colours", "check_weights", "check_balls", "TURN_CHANGE", "START_BALLS"):
        assert getattr(py.rolit, name) is getattr(cy.rolit, name) is getattr(_rolit_rules, name)


#: The modules that hold what both twins share, by the name the twins import them under.
SHARED_MODULES = (
    "gamecore._protocol",
    "gamecore.search._options",
    "gamecore.search._results",
    "gamecore.search._mcts_rules",
    "gamecore.games._rolit_rules",
    "gamecore.games._othello_rules",
    "gamecore.games._tetralath_rules",
)
SOURCE_ROOT = Path(__file__).resolve().parents[1]


def _shared_names_used_by(pure_twin) -> dict[str, set[str]]:
    """The shared modules the pure twin imports from, each with the public names it holds."""
    tree = ast.parse(inspect.getsource(pure_twin))
    package = pure_twin.__name__.rsplit(".", 1)[0]
    used = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            module = f"{base}.{node.module}" if node.module else base
            if module in SHARED_MODULES:
                used[module] = set(importlib.import_module(module).__all__)
    return used


def _defined_at_top(source: str) -> set[str]:
    """Names a Python module binds itself at its top level (assignments, functions, classes)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names |= {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _written_in_pyx(source: str, name: str) -> bool:
    """``name`` assigned (``NAME =``, ``cdef T NAME =``, an enum member) or defined (``def`` /
    ``cdef``/``cpdef`` function) anywhere in a .pyx source."""
    word = re.escape(name)
    # (``NAME = NAME``, a class handing out the shared value, is no copy.)
    assigned = rf"^\s*(?:cdef\s+[\w\s\*]*?\s)?{word}\s*=(?!=)(?!\s*{word}\s*$)"
    defined = rf"^\s*(?:def|cp?def\s+[\w\*]+(?:\s+[\w\*]+)*?)\s+{word}\s*\("
    return re.search(assigned, source, re.M) is not None or re.search(defined, source, re.M) is not None


@pytest.mark.parametrize("name", sorted(_backend.MODULES))
def test_no_pure_twin_writes_out_a_shared_name(name):
    # What a twin imports from a shared module it must not define again beside it (a second
    # copy would drift): read from the installed pure twin's source.
    pure = importlib.import_module(_backend.MODULES[name] + "_py")
    used = _shared_names_used_by(pure)
    if name in ("mcts", "rolit", "othello", "tetralath", "alphabeta", "endgame", "multiplayer"):
        assert used, f"the pure {name} twin imports no shared module"
    for module, names in used.items():
        written = sorted(names & _defined_at_top(inspect.getsource(pure)))
        assert not written, f"{pure.__name__} writes out {written}, which {module} holds"


@pytest.mark.parametrize("name", sorted(_backend.MODULES))
def test_no_compiled_twin_writes_out_a_shared_name(name):
    # The same for the .pyx source (a source checkout: the installed package has no .pyx).
    # A C copy a compiled twin needs has a name of its own (C_REWARD_UNIT) and is in _C_COPIES.
    sources = SOURCE_ROOT / "pybindings"
    if not sources.is_dir():
        pytest.skip("no source checkout: the installed package has no .pyx")
    path = sources / (_backend.MODULES[name].replace(".", "/") + "_cy.pyx")
    assert path.exists(), f"{path} is not where the compiled twin's source is"
    source = path.read_text(encoding="utf-8")
    pure = importlib.import_module(_backend.MODULES[name] + "_py")
    for module, names in _shared_names_used_by(pure).items():
        assert f"from {module} import" in source, f"{path.name} does not import {module} as its pure twin does"
        written = sorted(n for n in names if _written_in_pyx(source, n))
        assert not written, f"{path.name} writes out {written}, which {module} holds"


def test_the_source_checks_see_a_name_written_out_again():
    # The two readers above find a redefinition in each of the forms a twin could use.
    assert {"REWARD_UNIT", "greedy_threshold", "Tree"} <= _defined_at_top(
        "from x import y\nREWARD_UNIT = 12\ndef greedy_threshold(g, p):\n    pass\nclass Tree: pass\n"
    )
    for pyx in (
        "REWARD_UNIT = 12\n",
        "cdef int REWARD_UNIT = 12\n",
        "cdef enum:\n    REWARD_UNIT = 12\n",
        "def REWARD_UNIT(x):\n    pass\n",
        "cdef inline long long REWARD_UNIT(int x) noexcept nogil:\n    pass\n",
    ):
        assert _written_in_pyx(pyx, "REWARD_UNIT"), pyx
    for pyx in (
        "from m import REWARD_UNIT\n",
        "x = REWARD_UNIT\n",
        "C_REWARD_UNIT = 12\n",
        "if REWARD_UNIT == 1:\n",
        "    REWARD_UNIT = REWARD_UNIT\n",
    ):
        assert not _written_in_pyx(pyx, "REWARD_UNIT"), pyx


def test_the_compiled_twins_c_copies_equal_the_shared_values(backends):
    # A C constant that must be known at compile time (an array size, an enum) keeps its own
    # literal; each is listed in its module's _C_COPIES under the shared name it copies.
    py, cy = backends
    checked = {}
    for name in sorted(_backend.MODULES):
        copies = getattr(getattr(cy, name), "_C_COPIES", None)
        if copies is None:
            continue
        shared = [importlib.import_module(m) for m in _shared_names_used_by(getattr(py, name))]
        for copied, value in copies.items():
            holders = [module for module in shared if hasattr(module, copied)]
            assert holders, f"{name}: _C_COPIES names {copied}, which no shared module it uses holds"
            assert value == getattr(holders[0], copied), (name, copied, value)
            checked[f"{name}.{copied}"] = value
    for expected in (
        "mcts.REWARD_UNIT",
        "mcts.HISTORY_MOVES",
        "rolit.TURN_CHANGE",
        "rolit.NUM_FEATURES",
        "rolit.EDGES",
        "alphabeta.WIN",
        "alphabeta.HISTORY_MAX",
        "multiplayer.NO_MOVE",
        "multiplayer.NO_HORIZON",
        "multiplayer.MAXN_ENTRY_BYTES",
        "othello.PASS",
        "tetralath.FULL_MASK",
        "tetralath.NEIGHBOURS",
        "tetralath.FOUR_WINDOWS",
        "endgame.SHALLOW_EMPTIES",
        "endgame.ENDGAME_TT_BITS",
        "endgame.ETC_EMPTIES",
        "multiplayer.MULTIPLAYER_SALTS",
    ):
        assert expected in checked, expected


def test_the_clashing_names_are_renamed_and_the_old_ones_still_read():
    # #32: MAX_WEIGHTS was 16 (alpha-beta's evaluation) and 64 (MCTS's implicit minimax), two
    # check_weights, two MULTIPLAYER_ALGORITHMS (with and without MCTS). One name, one meaning now.
    from gamecore.search import engine  # noqa: PLC0415

    assert (_options.MAX_WEIGHTS, _mcts_rules.MAX_MCTS_WEIGHTS) == (16, 64)
    assert "MAX_WEIGHTS" not in _mcts_rules.__all__ and "check_weights" not in _mcts_rules.__all__
    assert len(_mcts_rules.check_mcts_weights([1, 2])) == 64 and len(_options.check_weights([1, 2])) == 2
    assert engine.MULTIPLAYER_ALGORITHMS == (*_options.MULTIPLAYER_SEARCHES, "mcts")
    assert "MULTIPLAYER_ALGORITHMS" not in _options.__all__
    # the old spellings, kept for one version, each read with a DeprecationWarning naming the new one
    from gamecore.report import compare  # noqa: PLC0415

    for module, old, new in [
        (_mcts_rules, "MAX_WEIGHTS", "MAX_MCTS_WEIGHTS"),
        (_mcts_rules, "check_weights", "check_mcts_weights"),
        (_options, "MULTIPLAYER_ALGORITHMS", "MULTIPLAYER_SEARCHES"),
        (compare, "GameRecord", "ComparisonGame"),
    ]:
        with pytest.warns(DeprecationWarning, match=f"{old} is deprecated; use {module.__name__}.{new}"):
            assert getattr(module, old) is getattr(module, new)
    with pytest.raises(AttributeError):
        _options.NO_SUCH_NAME  # noqa: B018  # an unknown name is still an AttributeError


def test_a_search_takes_its_limits_as_one_object(backends):
    # #32 §5: search_multi takes a SearchLimits (depth, nodes, seconds, clock), not four
    # positional numbers; anything else is one error in both twins.
    found = []
    for b in backends:
        searcher = b.multiplayer.MultiSearcher(1)
        # no weights: every one 0 in both twins (the pure one crashed on a short list before)
        found.append(searcher.search_multi(Rolit(backend=b.name).core, [], SearchLimits(2, nodes=50), "maxn"))
        _raises(InvalidLimitError, searcher.search_multi, Rolit(backend=b.name).core, [], 2, "maxn")
    assert found[0] == found[-1] and found[0].depth >= 1  # node for node
    assert SearchLimits(3).checked() == (3, 0, 0.0)
    assert SearchLimits().depth == _options.MAX_PLY - 1  # no depth asked: as deep as a search goes
    _raises(InvalidLimitError, SearchLimits(3, seconds=-1.0).checked)


def test_every_searcher_takes_the_same_limits(backends):
    # #32 §5: alpha-beta and MCTS take the engine's SearchLimits too (were max_depth=,
    # node_limit=, time_limit=, cpu_clock= keywords and MCTS's four positionals), node for
    # node the same in both twins; a bare number is refused alike.
    two, rolit = [], []
    for b in backends:
        core = Othello(6, backend=b.name).core
        outcome = b.alphabeta.Searcher(1).search(core, SearchLimits(6, nodes=300), weights=[1])
        two.append((outcome.move, outcome.nodes, outcome.depth, outcome.pv))
        _raises(InvalidLimitError, b.alphabeta.Searcher(1).search, core, 3)
        tree = b.mcts.MCTSTree(seed=3)
        done = tree.search(Rolit(backend=b.name).core, SearchLimits(nodes=120))
        rolit.append((done, tree.best_move(), tree.root_visits))
        _raises(InvalidLimitError, tree.search, Rolit(backend=b.name).core, 120)
        _raises(InvalidLimitError, tree.search, Rolit(backend=b.name).core, SearchLimits(nodes=-1))
    assert two[0] == two[-1] and two[0][1] <= 300 + 1
    assert rolit[0] == rolit[-1] and rolit[0][0] == 120
