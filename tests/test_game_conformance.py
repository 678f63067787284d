"""Every registered game, the same through every front end (issue 32, OpenSpiel's random
simulation test in spirit).

For each game of ``GAMES`` -- and the fourth game that ``test_game_registry.py`` defines in a
test, which no front end names -- a seeded random game is played to its end on both backends,
and at every ply the core, the position, the learning adapters' encoding (``LearnerGame``),
PettingZoo, OpenSpiel, Gymnasium and the web board's API must agree on the legal moves, the
board (the observation planes decoded through the game's geometry), whose turn it is, and at
the end on the outcome and the rewards. The front ends read everything from the game's class:
a game they do not know by name must work the same.

Also here: no front end compares a game's name (counted in the source, each one left listed
with its reason).
"""

from __future__ import annotations

import ast
import pathlib
import random
import re

import pytest

import gamecore
from gamecore import GAMES
from gamecore.players import RandomPlayer
from test_game_registry import NAME as FOURTH
from test_game_registry import small_othello  # noqa: F401  # the fixture of the fourth game

_RL = 'the rl extra: pip install ".[rl]"'
_WEB = 'the web extra and httpx2: pip install ".[web]" httpx2'


@pytest.fixture(params=[*GAMES, FOURTH])
def game_class(request):
    """Each registered game's class, and the fourth game's (registered only while it runs)."""
    if request.param == FOURTH:
        return request.getfixturevalue("small_othello")
    return GAMES[request.param]


def _start(cls, backend):
    """The game at its default options on ``backend``, and a variant of its first start option
    (another size, number of players or rule) so that more than the defaults are checked."""
    position, options = cls.from_options({}, backend=backend.name)
    return position, {k: v for k, v in options.items() if k in position.start_options()}


def _random_line(position, seed):
    """The moves of a seeded random game from ``position`` to its end (the position is left as it was)."""
    player, trial, line = RandomPlayer(seed), position.copy(), []
    while not trial.is_game_over():
        move = player.choose_move(trial)
        line.append(move)
        trial.push(move)
    return line


def _owners(position):
    """The colour number on each cell, in cell order (-1 empty)."""
    return [value for row in position.cells() for value in row]


def test_core_position_and_outcome_agree(game_class, backend):
    position, _ = _start(game_class, backend)
    geometry = position.geometry()
    assert len(geometry.centres) == len(geometry.grid_index) == len(_owners(position))
    assert len(set(geometry.grid_index)) == geometry.num_cells
    assert all(0 <= i < geometry.grid[0] * geometry.grid[1] for i in geometry.grid_index)
    assert [style.number for style in game_class.colour_styles()] == [int(c) for c in game_class.Color]
    for seed in range(3):
        trial = position.copy()
        line = _random_line(position, seed)
        for move in line:
            assert [m.index for m in trial.legal_moves()] == trial.core.legal_moves()
            assert trial.player == trial.colors.index(trial.turn)
            assert move.index in trial.extra_moves() or 0 <= move.index < geometry.num_cells
            assert move.is_pass is (move.index < 0)  # every game's moves say it (Othello's pass is -1)
            trial.push(move)
        assert len(line) <= trial.max_game_length()
        outcome = trial.outcome()
        places = trial.places()
        assert list(trial.scores().values()) == list(outcome.scores.values())
        if outcome.winner is not None:
            assert places[trial.colors.index(outcome.winner)] == 0 and places.count(0) == 1


def test_the_learning_encoding_and_the_three_adapters_agree(game_class, backend):
    np = pytest.importorskip("numpy", reason=_RL)
    pettingzoo = pytest.importorskip("gamecore.rl.pettingzoo_env", reason=_RL)
    openspiel = pytest.importorskip("gamecore.rl.openspiel_game", reason=_RL)
    gymnasium_env = pytest.importorskip("gamecore.rl.gymnasium_env", reason=_RL)
    learner_game = pytest.importorskip("gamecore.rl", reason=_RL).LearnerGame

    position, options = _start(game_class, backend)
    learner = learner_game(game_class.name, backend=backend.name, **options)
    zoo = pettingzoo.env(game_class.name, backend=backend.name, **options)
    zoo.reset()
    state = openspiel.state_of(position)
    assert state.get_game().num_distinct_actions() == learner.num_actions
    assert state.get_game().max_game_length() == position.max_game_length()
    trial = position.copy()
    grid = np.array(position.geometry().grid_index)
    for move in _random_line(position, 7):
        core = trial.core
        codes = core.legal_moves()
        actions = learner.legal_actions(core)
        assert sorted(learner.action_to_code(a) for a in actions) == sorted(codes)
        assert actions == state.legal_actions()
        assert learner.action_mask(core).nonzero()[0].tolist() == actions
        owners = np.array(_owners(trial))
        for player, colour in enumerate(trial.colors):
            planes = learner.planes(core, player).reshape(-1, learner.num_planes)
            assert (planes[grid, 0] == (owners == int(colour))).all()  # plane 0: the player's own
            assert planes[grid, :-1].sum() == (owners >= 0).sum()  # every disc on one plane
            assert (planes[:, -1] == (player == trial.player)).all()  # the last: the player to move
            assert state.observation_tensor(player) == learner.planes_first(core, player).ravel().tolist()
        agent = zoo.agent_selection
        assert agent == str(trial.turn)
        observed = zoo.observe(agent)
        assert (observed["observation"] == learner.planes(core, trial.player)).all()
        assert (observed["action_mask"] == learner.action_mask(core)).all()
        action = learner.code_to_action(move.index)
        zoo.step(action)
        state.apply_action(action)
        trial.push(move)
    returns = learner.returns(trial)
    assert state.is_terminal() and state.returns() == returns
    assert [zoo.rewards[str(c)] for c in trial.colors] == returns
    assert abs(sum(returns)) < 1e-9
    outcome = trial.outcome()
    if outcome.winner is not None:
        assert returns[trial.colors.index(outcome.winner)] == max(returns) > min(returns)
    else:
        assert len(set(returns)) == 1 or len(trial.colors) > 2

    gym = gymnasium_env.GamecoreGymEnv(game_class.name, opponent="random", backend=backend.name, **options)
    observation, info = gym.reset(seed=3)
    over = False
    while not over:
        assert (observation == learner.planes(gym.position.core, 0)).all()
        assert (info["action_mask"] == learner.action_mask(gym.position.core)).all()
        action = random.Random(len(gym.position.move_stack)).choice(info["action_mask"].nonzero()[0].tolist())
        observation, reward, over, _, info = gym.step(action)
    assert reward == learner.returns(gym.position)[0]


def test_the_web_board_agrees(game_class, backend):
    pytest.importorskip("starlette", reason=_WEB)
    pytest.importorskip("httpx2", reason=_WEB)
    test_client = pytest.importorskip("starlette.testclient", reason=_WEB).TestClient
    create_app = pytest.importorskip("gamecore.web.app", reason=_WEB).create_app
    position, options = _start(game_class, backend)
    with test_client(create_app(backend=backend.name), base_url="http://127.0.0.1:8765") as client:
        menu = {game["game"]: game for game in client.get("/api/games").json()["games"]}
        assert menu[game_class.name]["players"] == list(game_class.players)
        sid = client.post("/api/sessions", json={}).json()["id"]
        seats = [{"player": "human"}] * position.num_players
        body = {"game": game_class.name, "options": options, "seats": seats}
        state = client.post(f"/api/sessions/{sid}/new", json=body).json()
        assert state["game"] == game_class.name and len(state["geometry"]["cells"]) == position.geometry().num_cells
        assert state["fills"] == {str(s.number): s.display for s in game_class.colour_styles()}
        trial = position.copy()
        for move in _random_line(position, 11):
            legal = trial.legal_moves()
            assert state["legal"] == [m.index for m in legal if m.index not in trial.extra_moves()]
            assert state["special"] == [str(m) for m in legal if m.index in trial.extra_moves()]
            assert state["cells"] == _owners(trial) and state["turn"] == int(trial.turn)
            state = client.post(f"/api/sessions/{sid}/move", json={"move": str(move)}).json()
            trial.push(move)
        outcome = trial.outcome()
        assert state["turn"] is None and state["cells"] == _owners(trial)
        assert state["result"]["winner"] == (None if outcome.winner is None else int(outcome.winner))
        # a seat may take every player of the game's list
        for name in game_class.players:
            seat = [{"player": name, "time": 0.05}] + [{"player": "human"}] * (position.num_players - 1)
            answer = client.post(f"/api/sessions/{sid}/new", json={**body, "seats": seat})
            assert answer.status_code == 200, answer.text


# -- no front end asks a game's name ----------------------------------------------------------

# The package the tests run against (a checkout's python/gamecore, or an installed one: CI).
PACKAGE = pathlib.Path(gamecore.__file__).resolve().parent
#: The comparisons with a game's name left outside ``games/``, each with its reason.
LEFT = {
    "cli.py": (
        5,
        "the table of the benchmarks written for one game (bench othello perft, bench rolit core...), "
        "the three that parse their own options (bench othello strength|perfect, bench rolit strength), "
        "and the short command gamecore tetralath",
    ),
    "_backend.py": (1, "the compiled module of each game's core (the backend loader's table)"),
    "archive/text.py": (1, "a GGF record's GM tag says the game in the file format's own word (#34)"),
    "nboard.py": (1, "the NBoard protocol is Othello's: its player refuses another game (#34)"),
    "players/__init__.py": (1, "the NBoard player of a spec plays Othello only (#34)"),
    "search/perfect.py": (1, "the perfect-play solver solves Othello only (#36)"),
    "referee/bots.py": (1, "the course framework's bots play Othello only (issue 31's referee)"),
    "referee/course_bots.py": (1, "the course framework's bots play Othello only (issue 31's referee)"),
}


def _name_branches(path: pathlib.Path) -> list[str]:
    """Comparisons with a game's name, ``isinstance`` on a game's class (not the type narrowing
    of an ``assert``) and tables keyed by game names, in one module."""
    names = set(GAMES)
    classes = {cls.__name__ for cls in GAMES.values()}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    narrowing = {id(n) for node in ast.walk(tree) if isinstance(node, ast.Assert) for n in ast.walk(node.test)}
    found = []

    def is_name(node: ast.AST) -> bool:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(is_name(e) for e in node.elts)
        return isinstance(node, ast.Constant) and node.value in names

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(is_name(n) for n in [node.left, *node.comparators]):
            found.append(f"{node.lineno}: comparison")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "isinstance"
            and id(node) not in narrowing
            and any(getattr(n, "id", None) in classes for n in [node.args[-1], *getattr(node.args[-1], "elts", [])])
        ):
            found.append(f"{node.lineno}: isinstance")
        elif isinstance(node, ast.Dict) and sum(k is not None and is_name(k) for k in node.keys) >= 2:
            found.append(f"{node.lineno}: a table by game")
    return found


def test_no_front_end_branches_on_a_games_name():
    counted = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("games/"):
            continue  # a game's own room
        branches = _name_branches(path)
        if branches:
            counted[relative] = branches
    assert {k: len(v) for k, v in counted.items()} == {k: n for k, (n, _) in LEFT.items()}, counted


def test_the_counter_sees_a_branch(tmp_path):
    module = tmp_path / "front.py"
    module.write_text('def f(game, p):\n    assert isinstance(p, Othello)\n    return game == "rolit"\n')
    assert _name_branches(module) == ["3: comparison"]


def _guessed_passes(path: pathlib.Path) -> list[int]:
    """The lines of ``getattr(x, "is_pass", ...)`` in a module: every move has ``is_pass`` (#32 §5)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "getattr"
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value == "is_pass"
    ]


def test_no_module_guesses_whether_a_move_is_a_pass(tmp_path):
    guessed = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := _guessed_passes(path))
    }
    assert guessed == {}
    module = tmp_path / "front.py"
    module.write_text('def f(move):\n    return getattr(move, "is_pass", False)\n')
    assert _guessed_passes(module) == [2]  # the counter sees one


def _page_names(text: str) -> list[str]:
    """The games a web page file names outside its comments (``//`` lines of script, ``/* */``
    of script and style, ``<!-- -->`` of HTML): any is a branch or a table by game."""
    text = re.sub(r"/\*.*?\*/|<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"(^|\s)//.*$", "", text, flags=re.M)
    words = {name.lower() for name in GAMES} | {cls.__name__.lower() for cls in GAMES.values()}
    return [w for w in re.findall(r"[a-z_]+", text.lower()) if w in words]


def test_the_web_page_names_no_game():
    # issue 32: app.js built its menus and seats from tables by game and drew by game; it now
    # reads GET /api/games and the library's SVG
    static = PACKAGE / "web" / "static"
    named = {path.name: _page_names(path.read_text(encoding="utf-8")) for path in sorted(static.iterdir())}
    assert len(named) >= 3 and {name: found for name, found in named.items() if found} == {}


def test_the_page_counter_sees_a_name():
    script = "// Rolit's colours come from the server\nif (game === 'rolit') draw(); /* othello */\n"
    assert _page_names(script) == ["rolit"]


def test_every_compiled_module_has_its_pure_twin():
    # docs/architecture.rst's twin rule: pybindings/gamecore/<dir>/_x_cy.pyx <-> python/gamecore/<dir>/_x_py.py
    compiled = pathlib.Path(__file__).resolve().parents[1] / "pybindings" / "gamecore"  # beside the tests
    if not compiled.is_dir():
        pytest.skip("no pybindings/ here (an installed wheel): run from a source checkout")
    twins = {
        p.relative_to(compiled).with_name(p.name[: -len("_cy.pyx")] + "_py.py") for p in compiled.rglob("_*_cy.pyx")
    }
    assert twins and sorted(str(t) for t in twins if not (PACKAGE / t).exists()) == []
