"""The learning-framework adapters (gamecore.rl, the ``rl`` extra): PettingZoo, Gymnasium, OpenSpiel.

Each adapter is checked by its framework's own checker (PettingZoo's ``api_test`` and
``seed_test``, Gymnasium's ``check_env``, OpenSpiel's ``random_sim_test``), move for move
against the slow oracles beside these tests (which share no code with gamecore) and, for
8x8 Othello, against OpenSpiel's own C++ Othello; on both backends.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

import othello_oracle
import rolit_oracle
import tetralath_oracle
from gamecore import (
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Othello,
    Rolit,
    Tetralath,
    solve,
)
from gamecore.bench import rl as bench_rl
from gamecore.cli import main
from gamecore.players import MCTSPlayer, RandomPlayer

_EXTRA = 'the rl extra: pip install ".[rl]"'
np = pytest.importorskip("numpy", reason=_EXTRA)
pettingzoo_test = pytest.importorskip("pettingzoo.test", reason=_EXTRA)
gym = pytest.importorskip("gymnasium", reason=_EXTRA)
pyspiel = pytest.importorskip("pyspiel", reason=_EXTRA)

from gymnasium.utils.env_checker import check_env  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, mcts, minimax  # noqa: E402

from gamecore.rl import LearnerGame, gymnasium_env, openspiel_game  # noqa: E402
from gamecore.rl.pettingzoo_env import GamecoreEnv, env  # noqa: E402

GAMES = [
    pytest.param("othello", {"size": 4}, id="othello4"),
    pytest.param("othello", {"size": 6}, id="othello6"),
    pytest.param("othello", {"size": 8}, id="othello8"),
    pytest.param("othello", {"size": 10}, id="othello10"),
    pytest.param("rolit", {"players": 2}, id="rolit2"),
    pytest.param("rolit", {"players": 3}, id="rolit3"),
    pytest.param("rolit", {"players": 4, "reward": "balls"}, id="rolit4-balls"),
    pytest.param("tetralath", {}, id="tetralath"),
    pytest.param("tetralath", {"swap": True}, id="tetralath-swap"),
]
# PettingZoo's advice for environments it does not know by name: dict observations (as its
# own board games have) and agent names of the form player_0 (ours are the colours).
_ADVICE = ("Observation is not a NumPy array", "Observation space for each agent probably", "We recommend agents")


def _random_legal(mask: Any, rng: random.Random) -> int:  # a numpy array
    return rng.choice(np.flatnonzero(mask).tolist())


# -- PettingZoo ------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_pettingzoo_api_test_passes(backend, game, options):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(game, backend=backend.name, **options), num_cycles=200)
    other = [str(w.message) for w in caught if not str(w.message).startswith(_ADVICE)]
    assert other == []


@pytest.mark.parametrize(("game", "options"), [GAMES[2], GAMES[5], GAMES[7]])
def test_pettingzoo_seed_test_passes(backend, game, options):
    pettingzoo_test.seed_test(lambda render_mode=None: env(game, backend=backend.name, **options), num_cycles=50)


def _othello_oracle_view(grid, player, to_move, n):
    own = [[int(v == player) for v in row] for row in grid]
    other = [[int(v == 1 - player) for v in row] for row in grid]
    turn = [[int(player == to_move)] * n for _ in range(n)]
    return np.stack([own, other, turn], axis=-1)


@pytest.mark.parametrize("size", [4, 6, 8, 10])
def test_pettingzoo_othello_agrees_with_the_oracle(backend, size):
    rng = random.Random(size)
    for _ in range(3):
        e = env("othello", size=size, backend=backend.name)
        e.reset()
        grid, player = othello_oracle.start(size), 0
        while e.agents:
            agent = e.agent_selection
            observation, reward, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            assert e.possible_agents.index(agent) == player
            legal = [
                size * size if m == othello_oracle.PASS else m for m in othello_oracle.moves_with_pass(grid, player)
            ]
            assert np.flatnonzero(observation["action_mask"]).tolist() == legal
            for viewer in (0, 1):  # both agents see the board, each its own colour first
                seen = e.observe(e.possible_agents[viewer])["observation"]
                assert (seen == _othello_oracle_view(grid, viewer, player, size)).all()
            action = rng.choice(legal)
            e.step(action)
            grid = othello_oracle.play(grid, player, othello_oracle.PASS if action == size * size else action)
            player = 1 - player
            if othello_oracle.game_over(grid):
                black = sum(row.count(othello_oracle.BLACK) for row in grid)
                white = sum(row.count(othello_oracle.WHITE) for row in grid)
                expected = (black > white) - (black < white)
                assert e.rewards == {"black": expected, "white": -expected}
                assert all(e.terminations.values())


def _tie_ruled_places(history: list[dict[str, int]], colours: str) -> list[float]:
    """Place rewards worked out from the oracle's counts after every ply (index 0: the start)."""
    final = history[-1]
    top = max(final[c] for c in colours)
    tied = [c for c in colours if final[c] == top]
    reached = {c: next(p for p, counts in enumerate(history) if counts[c] >= top) for c in tied}
    first = min(reached.values())
    leaders = [c for c in tied if reached[c] == first]
    winner = leaders[0] if len(leaders) == 1 else None

    def beats(a: str, b: str) -> bool:
        return a == winner or (b != winner and final[a] > final[b])

    n = len(colours)
    return [sum(beats(a, b) - beats(b, a) for b in colours if b != a) / (n - 1) for a in colours]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_rolit_agrees_with_the_oracle(backend, players):
    rng = random.Random(players)
    colours = {2: "RG", 3: "RYG", 4: "RBYG"}[players]
    for _ in range(3):
        e = env("rolit", players=players, backend=backend.name)
        e.reset()
        grid, player = rolit_oracle.start_grid(), 0
        history = [rolit_oracle.counts(grid)]
        while not all(e.terminations.values()):
            observation = e.observe(e.agent_selection)
            mover = colours[player]
            assert e.agent_selection[0].upper() == mover
            legal = rolit_oracle.legal_moves(grid, mover)
            assert np.flatnonzero(observation["action_mask"]).tolist() == legal
            planes = observation["observation"]
            # plane 0 the mover's balls, then the others in play order, then the neutral colours
            order = colours[player:] + colours[:player] + "".join(c for c in "RBYG" if c not in colours)
            for plane, colour in enumerate(order):
                assert planes[:, :, plane].tolist() == [[int(v == colour) for v in row] for row in grid]
            assert planes[:, :, -1].all()
            action = rng.choice(legal)
            e.step(action)
            grid = rolit_oracle.play(grid, mover, action)
            history.append(rolit_oracle.counts(grid))
            player = (player + 1) % players
        assert len(history) == 61
        places = _tie_ruled_places(history, colours)
        assert [e.rewards[a] for a in e.possible_agents] == pytest.approx(places)
        assert sum(places) == pytest.approx(0)


def test_pettingzoo_rolit_rewards_by_place_and_by_balls():
    # Hand-counted full boards: red 30, yellow 20, green 14 -> places +1, 0, -1; balls (n - 64/3) / 64.
    rows = ["R" * 8] * 3 + ["RRRRRRYY"] + ["Y" * 8] * 2 + ["YY" + "G" * 6] + ["G" * 8]
    cells = [[{"R": 0, "Y": 2, "G": 3}[c] for c in row] for row in rows]
    position = Rolit.from_cells(cells, colours="RYG")
    assert position.score() == {Rolit.RED: 30, Rolit.YELLOW: 20, Rolit.GREEN: 14}
    assert LearnerGame("rolit", players=3).returns(position) == [1.0, 0.0, -1.0]
    balls = LearnerGame("rolit", players=3, reward="balls").returns(position)
    assert balls == pytest.approx([(30 - 64 / 3) / 64, (20 - 64 / 3) / 64, (14 - 64 / 3) / 64])
    # Red and yellow level at 25 from the start (no history to break the tie): a draw at the top.
    rows = ["R" * 8] * 3 + ["R" + "Y" * 7] + ["Y" * 8] * 2 + ["YY" + "G" * 6] + ["G" * 8]
    cells = [[{"R": 0, "Y": 2, "G": 3}[c] for c in row] for row in rows]
    level = Rolit.from_cells(cells, colours="RYG")
    assert level.outcome().winner is None
    assert LearnerGame("rolit", players=3).returns(level) == [0.5, 0.5, -1.0]


def test_pettingzoo_tetralath_agrees_with_the_oracle(backend):
    rng = random.Random(7)
    for _ in range(5):
        e = env("tetralath", backend=backend.name)
        e.reset()
        board, player = [-1] * 61, 0
        while e.agents:
            observation, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            legal = [cell for cell in range(61) if board[cell] < 0]
            assert np.flatnonzero(observation["action_mask"]).tolist() == legal
            planes = observation["observation"]
            # the hexagon's cells in the 9x9 grid, row by row
            cells = [
                planes[r, c]
                for r in range(9)
                for c in range(9)
                if max(0, 4 - r) <= c < max(0, 4 - r) + tetralath_oracle.LENS[r]
            ]
            assert [tuple(v) for v in cells] == [(int(b == player), int(b == 1 - player), 1) for b in board]
            assert planes.sum() == sum(b >= 0 for b in board) + 81
            action = rng.choice(legal)
            e.step(action)
            board[action] = player
            over, winner, _ = tetralath_oracle.oracle_after_move(board, player)
            if over:
                expected = [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]
                assert [e.rewards[a] for a in e.possible_agents] == expected
                assert all(e.terminations.values())
            player = 1 - player


def test_pettingzoo_othello_passes_and_scores_a_known_game(backend):
    # A 4x4 game with a forced pass: black passes after a3 (no legal move), white wins 10-6.
    e = env("othello", size=4, backend=backend.name)
    e.reset()
    for name in ["b1", "a1", "a2", "c1", "d1", "a3", "a4", "d2", "d3", "b4", "c4", "d4"]:
        mask = e.observe(e.agent_selection)["action_mask"]
        if mask[16]:
            assert mask.tolist() == [0] * 16 + [1]  # the pass, alone
            e.step(16)
        e.step(Othello.Move(name, size=4).index)
    assert e.position.outcome().scores == {Othello.BLACK: 6, Othello.WHITE: 10}
    assert e.rewards == {"black": -1.0, "white": 1.0}
    assert all(e.terminations.values())


def test_pettingzoo_refuses_bad_actions_and_changes_nothing(backend):
    e = env("othello", backend=backend.name)
    e.reset()
    before = e.position.to_text()
    for action, error in [
        (0, IllegalMoveError),
        (64, IllegalMoveError),
        (65, InvalidMoveError),
        (-1, InvalidMoveError),
        ("d3", InvalidMoveError),
        (1.5, InvalidMoveError),
        (True, InvalidMoveError),
    ]:
        with pytest.raises(error):
            e.step(action)
        assert e.position.to_text() == before and e.agent_selection == "black"
    e.step(np.int64(19))  # numpy integers are actions
    assert e.agent_selection == "white"
    with pytest.raises(IllegalMoveError):
        env("rolit", backend=backend.name).step(0)


def test_options_are_checked():
    with pytest.raises(InvalidOptionError, match="unknown game"):
        LearnerGame("chess")
    with pytest.raises(InvalidOptionError, match="unknown reward .balls. for othello"):
        LearnerGame("othello", reward="balls")
    with pytest.raises(InvalidOptionError, match="rolit takes no option .size."):
        LearnerGame("rolit", size=6)
    with pytest.raises(InvalidOptionError, match="players must be one of 2, 3, 4"):
        LearnerGame("rolit", players=5)
    with pytest.raises(InvalidOptionError, match="size must be one of 4, 6, 8, 10"):
        LearnerGame("othello", size=7)
    with pytest.raises(InvalidOptionError, match="render_mode"):
        GamecoreEnv("othello", render_mode="ansi")


def test_renders_the_board(backend, capsys):
    e = env("rolit", players=2, render_mode="rgb_array", backend=backend.name)
    e.reset()
    picture = e.render()
    assert picture.shape == (256, 256, 3) and picture.dtype == np.uint8
    # d4 (row 3, col 3) holds red, e4 yellow: the centres of their squares have those colours,
    # the web board's (#d62828, #f2c200)
    assert picture[3 * 32 + 16, 3 * 32 + 16].tolist() == [214, 40, 40]
    assert picture[3 * 32 + 16, 4 * 32 + 16].tolist() == [242, 194, 0]
    assert picture[0 * 32 + 16, 0 * 32 + 16].tolist() == [70, 70, 80]  # an empty square
    tetralath = env("tetralath", render_mode="rgb_array", backend=backend.name)
    tetralath.reset()
    tetralath.step(30)  # e5, the centre, white
    assert tetralath.render()[16 + 4 * 28, 16 + 4 * 32].tolist() == [244, 244, 244]  # #f4f4f4
    human = env("othello", size=6, render_mode="human", backend=backend.name)
    human.reset()
    human.step(8)
    assert capsys.readouterr().out.strip() == Othello.from_moves("c2", size=6).render().strip()


# -- Gymnasium --------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", list(gymnasium_env.ENV_IDS))
def test_gymnasium_check_env_passes(backend, env_id):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gym.make(env_id, backend=backend.name).unwrapped)
        check_env(gym.make(env_id, opponent="mcts:iterations=10", learner=1, backend=backend.name).unwrapped)
    assert [str(w.message) for w in caught] == []


def _gym_game(environment, seed: int) -> tuple[list[int], float]:
    rng = random.Random(seed)
    _, info = environment.reset(seed=seed)
    while True:
        _, reward, terminated, truncated, info = environment.step(_random_legal(info["action_mask"], rng))
        if terminated or truncated:
            return [m.index for m in environment.unwrapped.position.move_stack], reward


def test_gymnasium_seeded_opponents_replay(backend):
    make = lambda: gym.make("gamecore/Rolit-3p-v0", opponent="random", learner=1, backend=backend.name)  # noqa: E731
    first, second = _gym_game(make(), 5), _gym_game(make(), 5)
    assert first == second
    assert _gym_game(make(), 6)[0] != first[0]


def test_gymnasium_plays_the_learner_against_the_opponent(backend):
    # The opponent's moves are those a RandomPlayer with the drawn seed makes in the same position.
    environment = gym.make("gamecore/Othello-6x6-v0", opponent="random:seed=11", learner=1, backend=backend.name)
    observation, info = environment.reset(seed=0)
    position = environment.unwrapped.position
    assert [m.index for m in position.move_stack] == [RandomPlayer(seed=11).choose_move(Othello(6)).index]
    assert observation[:, :, 2].all()  # the learner's turn, always
    assert np.flatnonzero(info["action_mask"]).tolist() == [m.index for m in position.legal_moves()]
    moves, reward = _gym_game(environment, 0)
    final = Othello.from_moves([Othello.Move(m, size=6) if m >= 0 else "pass" for m in moves], size=6)
    black, white = final.score()
    assert reward == (white > black) - (white < black)


def test_gymnasium_illegal_action_loses_and_changes_nothing(backend):
    environment = gym.make("gamecore/Othello-8x8-v0", backend=backend.name)
    observation, _ = environment.reset(seed=0)
    again, reward, terminated, truncated, info = environment.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert (again == observation).all() and environment.unwrapped.position == Othello(backend=backend.name)
    with pytest.raises(InvalidMoveError):
        environment.step(65)
    with pytest.raises(InvalidOptionError, match="learner"):
        gym.make("gamecore/Othello-8x8-v0", learner=2)
    with pytest.raises(InvalidOptionError, match="unknown player"):
        gym.make("gamecore/Tetralath-v0", opponent="greedy")


def test_gymnasium_vector_env_batches_boards(backend):
    vector = gym.make_vec("gamecore/Othello-8x8-v0", num_envs=4, vectorization_mode="sync", backend=backend.name)
    observations, infos = vector.reset(seed=1)
    assert observations.shape == (4, 8, 8, 3) and infos["action_mask"].shape == (4, 65)
    actions = [int(np.flatnonzero(mask)[0]) for mask in infos["action_mask"]]
    observations, rewards, *_ = vector.step(np.array(actions))
    assert observations.shape == (4, 8, 8, 3) and rewards.tolist() == [0.0] * 4


# -- OpenSpiel --------------------------------------------------------------------------------

SPIEL_GAMES = [
    "gamecore_othello(size=4)",
    "gamecore_othello(size=6)",
    "gamecore_othello",
    "gamecore_othello(size=10)",
    "gamecore_rolit(players=2)",
    "gamecore_rolit(players=3)",
    "gamecore_rolit",
    "gamecore_rolit(players=3,reward=balls)",
    "gamecore_tetralath",
    "gamecore_tetralath(swap=true)",
]


@pytest.mark.parametrize("name", SPIEL_GAMES)
def test_openspiel_random_sim_test_passes(backend, name):
    game = pyspiel.load_game(
        name.replace(")", f",backend={backend.name})") if "(" in name else f"{name}(backend={backend.name})"
    )
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_othello_agrees_with_openspiel_cpp_othello(backend):
    ours = pyspiel.load_game(f"gamecore_othello(backend={backend.name})")
    theirs = pyspiel.load_game("othello")
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == 65
    rng = random.Random(3)
    for _ in range(4):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            assert a.current_player() == b.current_player()
            assert a.legal_actions() == b.legal_actions()
            action = rng.choice(b.legal_actions())
            assert a.action_to_string(action) == b.action_to_string(action).split(" ")[-1].lower() or action == 64
            a.apply_action(action)
            b.apply_action(action)
        assert a.is_terminal() and a.returns() == b.returns()


@pytest.mark.parametrize("size", [4, 6, 10])
def test_openspiel_othello_sizes_agree_with_the_oracle(backend, size):
    # The sizes OpenSpiel's own Othello lacks, move for move against the oracle: the legal
    # actions (the pass as action size * size), the player to move, the end and the returns.
    game = pyspiel.load_game(f"gamecore_othello(size={size},backend={backend.name})")
    rng = random.Random(size)
    for _ in range(2):
        state, grid, player = game.new_initial_state(), othello_oracle.start(size), 0
        while not othello_oracle.game_over(grid):
            assert not state.is_terminal() and state.current_player() == player
            legal = [
                size * size if m == othello_oracle.PASS else m for m in othello_oracle.moves_with_pass(grid, player)
            ]
            assert state.legal_actions() == legal == state.legal_actions(player)
            assert state.legal_actions(1 - player) == []
            action = rng.choice(legal)
            state.apply_action(action)
            grid = othello_oracle.play(grid, player, othello_oracle.PASS if action == size * size else action)
            player = 1 - player
        black = sum(row.count(othello_oracle.BLACK) for row in grid)
        white = sum(row.count(othello_oracle.WHITE) for row in grid)
        sign = (black > white) - (black < white)
        assert state.is_terminal() and state.returns() == [sign, -sign]


class _TinyAlphaZeroNet:
    """A policy and value network as OpenSpiel's AlphaZero evaluator calls it (``inference(obs,
    mask) -> (value, policy)``), here one random linear layer in numpy (its AlphaZero needs JAX)."""

    def __init__(self, observation_size: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.policy = rng.normal(0, 0.1, (observation_size, actions))
        self.value = rng.normal(0, 0.1, observation_size)

    def inference(self, observation, mask):
        logits = np.where(mask, observation @ self.policy, -np.inf)
        policy = np.exp(logits - logits.max())
        return float(np.tanh(observation @ self.value)), policy / policy.sum()


class _AlphaZeroStyleEvaluator(mcts.Evaluator):
    """OpenSpiel's AlphaZeroEvaluator's calls on the state, as it makes them: the flat
    ``observation_tensor()`` and ``legal_actions_mask()`` of the player to move."""

    def __init__(self, game, net) -> None:
        game_type = game.get_type()
        assert game.num_players() == 2  # AlphaZero's own checks on the game
        assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        self.net = net

    def _inference(self, state):
        return self.net.inference(np.asarray(state.observation_tensor()), np.asarray(state.legal_actions_mask()))

    def evaluate(self, state):
        value, _ = self._inference(state)
        return np.array([value, -value])

    def prior(self, state):
        _, policy = self._inference(state)
        return [(action, policy[action]) for action in state.legal_actions()]


@pytest.mark.parametrize("name", ["gamecore_othello(size=6)", "gamecore_tetralath", "gamecore_rolit(players=2)"])
def test_openspiel_alphazero_style_search_runs_on_the_games(backend, name):
    # What OpenSpiel's AlphaZero asks of a game (two players, terminal rewards, sequential; a
    # flat observation of observation_tensor_shape(); the legal actions mask), through its MCTS
    # with an AlphaZero evaluator and a (random) network, a whole game.
    game = pyspiel.load_game(
        name.replace(")", f",backend={backend.name})") if "(" in name else f"{name}(backend={backend.name})"
    )
    shape = game.observation_tensor_shape()
    net = _TinyAlphaZeroNet(int(np.prod(shape)), game.num_distinct_actions(), 1)
    bot = mcts.MCTSBot(
        game, 2.0, 16, _AlphaZeroStyleEvaluator(game, net), solve=False, random_state=np.random.RandomState(2)
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        assert len(state.observation_tensor()) == int(np.prod(shape))
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions() and np.flatnonzero(mask).tolist() == state.legal_actions()
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0 and len(state.history()) <= game.max_game_length()


def test_openspiel_rolit_and_tetralath_agree_with_the_oracles(backend):
    rng = random.Random(11)
    game = pyspiel.load_game(f"gamecore_rolit(players=3,backend={backend.name})")
    state, grid = game.new_initial_state(), rolit_oracle.start_grid()
    while not state.is_terminal():
        mover = "RYG"[state.current_player()]
        assert state.legal_actions() == rolit_oracle.legal_moves(grid, mover)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        grid = rolit_oracle.play(grid, mover, action)
    assert sum(state.returns()) == pytest.approx(0) and len(state.history()) == 60
    game = pyspiel.load_game(f"gamecore_tetralath(backend={backend.name})")
    state, board = game.new_initial_state(), [-1] * 61
    while not state.is_terminal():
        player = state.current_player()
        assert state.legal_actions() == [c for c in range(61) if board[c] < 0]
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        board[action] = player
        over, winner, _ = tetralath_oracle.oracle_after_move(board, player)
        assert state.is_terminal() == over
    expected = [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]
    assert state.returns() == expected


def test_openspiel_clone_is_independent_and_observes_planes(backend):
    game = pyspiel.load_game(f"gamecore_othello(size=6,backend={backend.name})")
    state = game.new_initial_state()
    state.apply_action(8)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history() == [8] and len(clone.history()) == 2
    assert str(state) == Othello.from_moves("c2", size=6).to_text()
    tensor = np.array(state.observation_tensor(1)).reshape(3, 6, 6)
    planes = LearnerGame("othello", size=6).planes(Othello.from_moves("c2", size=6).core, 1)
    assert (tensor == planes.transpose(2, 0, 1)).all()
    assert tensor[2].all()  # white, player 1, is to move
    with pytest.raises(IllegalMoveError):
        state.apply_action(0)
    assert state.history() == [8] and str(state) == Othello.from_moves("c2", size=6).to_text()
    with pytest.raises(InvalidPositionError):
        game.new_initial_state(Othello(8))


@pytest.mark.parametrize("name", SPIEL_GAMES)
def test_openspiel_python_shortcuts_answer_as_the_cpp_side(backend, name):
    # observation_tensor / legal_actions_mask answered in Python give what OpenSpiel's C++
    # side gets through the observer and _legal_actions, for every player, all game long.
    game = pyspiel.load_game(
        name.replace(")", f",backend={backend.name})") if "(" in name else f"{name}(backend={backend.name})"
    )
    rng = random.Random(5)
    state = game.new_initial_state()
    while True:
        for player in range(game.num_players()):
            assert state.observation_tensor(player) == pyspiel.State.observation_tensor(state, player)
            assert state.legal_actions_mask(player) == pyspiel.State.legal_actions_mask(state, player)
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        if state.is_terminal():
            break
        assert state.observation_tensor() == state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(GameOverError):
        state.observation_tensor()  # no player to move to observe for
    for bad in (-1, game.num_players(), 1.0, True, "0"):
        with pytest.raises(InvalidOptionError):
            state.observation_tensor(bad)
        with pytest.raises(InvalidOptionError):
            state.legal_actions_mask(bad)


def test_openspiel_games_and_states_pickle(backend):
    # OpenSpiel's AlphaZero sends the game to its actor processes by pickle.
    import pickle  # noqa: PLC0415

    for name in ("gamecore_othello(size=6", "gamecore_rolit(players=3", "gamecore_tetralath(swap=true"):
        game = pyspiel.load_game(f"{name},backend={backend.name})")
        again = pickle.loads(pickle.dumps(game))
        assert type(again) is type(game) and str(again) == str(game)
        assert again.new_initial_state().legal_actions() == game.new_initial_state().legal_actions()
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[0])
        copy = pickle.loads(pickle.dumps(state))
        assert copy.history() == state.history() and str(copy) == str(state)
        assert copy.legal_actions() == state.legal_actions()


def test_openspiel_state_of_any_rolit_colours(backend):
    # Green moves first, red second: the observer's own colour is plane 0, the neutral ones last.
    position = Rolit("GR", backend=backend.name)
    state = openspiel_game.state_of(position)
    assert state.current_player() == 0 and state.legal_actions() == [m.index for m in position.legal_moves()]
    planes = np.array(state.observation_tensor(0)).reshape(5, 8, 8)
    cells = np.array(position.cells())
    for plane, colour in enumerate([Rolit.GREEN, Rolit.RED, Rolit.BLUE, Rolit.YELLOW]):
        assert (planes[plane] == (cells == colour)).all()
    assert planes[4].all()
    with pytest.raises(InvalidPositionError):
        pyspiel.load_game("gamecore_rolit(players=3)").new_initial_state(position)


def test_openspiel_alpha_beta_solves_4x4_othello_as_gamecore_does(backend):
    # OpenSpiel's own alpha-beta over the game's rules, against gamecore's exact solver.
    game = pyspiel.load_game(f"gamecore_othello(size=4,backend={backend.name})")
    value, action = minimax.alpha_beta_search(game, maximum_depth=40, maximizing_player_id=0)
    solved = solve(Othello(4, backend=backend.name))
    assert solved.completed and solved.score == -10 and solved.move.name == "b1"
    assert (value, action) == (-1.0, solved.move.index)


def test_openspiel_cpp_bots_play_the_python_games(backend):
    game = pyspiel.load_game(f"gamecore_rolit(players=3,backend={backend.name})")
    bots = [pyspiel.make_uniform_random_bot(player, 7 + player) for player in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 0.0, 1.0]  # three different places (no tie at the top here)


def _openspiel_mcts(game, player):
    rng = np.random.RandomState(player)
    return mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def test_openspiel_mcts_bot_plays_rolit_as_a_gamecore_player(backend):
    players = [openspiel_game.OpenSpielPlayer(_openspiel_mcts), MCTSPlayer(iterations=20, seed=1)]
    position = Rolit(players=2, backend=backend.name)
    while not position.is_game_over():
        before = position.copy()
        move = players[position.player].choose_move(position)
        assert position == before and position.is_legal(move)
        position.push(move)
    assert len(position.move_stack) == 60
    players[0].new_game()  # restarts the bots it made (MCTSBot.restart)
    # the bot finds a win in one: in Tetralath white (a1, a2, a4) makes four with a3
    tetralath = Tetralath.from_moves(["a1", "e1", "a2", "e3", "a4", "i1"], backend=backend.name)
    searching = openspiel_game.OpenSpielPlayer(
        lambda game, player: mcts.MCTSBot(game, 2.0, 300, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    )
    assert searching.choose_move(tetralath).name == "a3"


def test_openspiel_player_checks_its_bot(backend):
    with pytest.raises(TypeError):
        openspiel_game.OpenSpielPlayer(42)
    cheat = openspiel_game.OpenSpielPlayer(lambda game, player: _AlwaysZero())
    with pytest.raises(IllegalMoveError, match="not legal"):
        cheat.choose_move(Othello(backend=backend.name))


class _AlwaysZero:
    def step(self, state):
        return 0


# -- gamecore bench rl ------------------------------------------------------------------------


def test_bench_loops_play_the_same_games(backend):
    # The same seed picks the same action in each loop (legal actions ascending everywhere),
    # so the three loops play the same random 8x8 games: equal ply counts.
    games = 3
    pz = bench_rl.pettingzoo_plies(env("othello", backend=backend.name), games, 5)
    ours = bench_rl.openspiel_plies(pyspiel.load_game(f"gamecore_othello(backend={backend.name})"), games, 5)
    theirs = bench_rl.openspiel_plies(pyspiel.load_game("othello"), games, 5)
    learner = bench_rl.openspiel_learner_plies(pyspiel.load_game(f"gamecore_othello(backend={backend.name})"), games, 5)
    learner_cpp = bench_rl.openspiel_learner_plies(pyspiel.load_game("othello"), games, 5)
    assert pz == ours == theirs == learner == learner_cpp and pz > games * 50


def test_bench_rl_command(backend, capsys):
    assert main(["bench", "rl", "--quick", "--runs", "1", "--backend", backend.name]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith(("pettingzoo ", "openspiel"))]
    assert len(rows) == 9 and all(float(row[-1].replace(",", "")) > 0 for row in rows)
    assert f"loop, othello 8x8: gamecore ({backend.name}) / OpenSpiel's C++ othello" in out
    assert f"observations, othello 8x8: gamecore ({backend.name}) / OpenSpiel's C++ othello" in out
