"""Gymnasium environments: one learner against gamecore's built-in players.

Importing this module registers ``gamecore/Othello-4x4-v0`` to ``gamecore/Othello-10x10-v0``,
``gamecore/Rolit-2p-v0`` to ``gamecore/Rolit-4p-v0`` and ``gamecore/Tetralath-v0``:

>>> import gymnasium as gym
>>> import gamecore.rl.gymnasium_env
>>> env = gym.make("gamecore/Othello-6x6-v0", opponent="greedy")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum())
((6, 6, 3), 4)

The observation is the learner's planes (:class:`gamecore.rl.LearnerGame`: its own colour
first, the last plane all ones, as it is always the learner's turn); ``info["action_mask"]``
marks the legal actions. ``step`` plays the learner's action, then the opponents' moves
until it is the learner's turn again or the game is over. The reward comes at the end
(:meth:`LearnerGame.returns` of the learner). An illegal action ends the episode with
reward -1 and ``info["illegal_action"] = True`` (the position is left as it was); an action
outside the action space, or a step after the end, raises a gamecore error.
"""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..errors import GameOverError, IllegalMoveError, InvalidOptionError
from ..games import GAMES
from ..players import Player, make_player
from ._common import RENDER_MODES, LearnerGame

__all__ = ["GamecoreGymEnv", "ENV_IDS", "register_envs"]

#: Reward for an illegal action (it also ends the episode).
ILLEGAL_ACTION_REWARD = -1.0


class GamecoreGymEnv(gym.Env):  # type: ignore[misc, unused-ignore]  # Any when Gymnasium is absent
    """One learner against built-in opponents in a gamecore game.

    :param game: ``"othello"``, ``"rolit"`` or ``"tetralath"``.
    :param opponent: a player spec of :func:`gamecore.players.make_player` (``"random"``,
        ``"greedy"``, ``"mcts:iterations=200"``, ``"engine:depth=2"``...), one player per
        other seat. Players that take a seed get one drawn from the environment's
        generator at each ``reset`` (a spec's own ``seed=`` wins), so ``reset(seed=s)``
        replays the same games.
    :param learner: the learner's seat, 0 (moves first, the default) to players - 1.
    :param render_mode: ``None``, ``"human"`` (prints the board) or ``"rgb_array"``.
    :param options: :class:`LearnerGame`'s (``size``, ``players``, ``swap``, ``reward``, ``backend``).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        game: str = "othello",
        *,
        opponent: str = "random",
        learner: int = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode not in (None, *RENDER_MODES):
            raise InvalidOptionError(f"render_mode must be None, 'human' or 'rgb_array', got {render_mode!r}")
        self.game = LearnerGame(game, **options)
        if isinstance(learner, bool) or not isinstance(learner, int) or not 0 <= learner < self.game.num_players:
            raise InvalidOptionError(f"learner must be a seat from 0 to {self.game.num_players - 1}, got {learner!r}")
        make_player(opponent, game=game)  # a bad spec fails here, not at the first reset
        self.opponent = opponent
        self.learner = learner
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 1, self.game.shape, dtype=np.int8)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.position = self.game.new_position()
        self._opponents: dict[int, Player] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, the opponents' first moves played when the learner does not move first:
        ``(observation, {"action_mask": ...})``."""
        super().reset(seed=seed)
        base = int(self.np_random.integers(2**62))
        self._opponents = {
            seat: make_player(self.opponent, game=self.game.name, seed=base + seat)
            for seat in range(self.game.num_players)
            if seat != self.learner
        }
        #: The gamecore position being played.
        self.position = self.game.new_position()
        self._reply()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's action and the opponents' replies: ``(observation, reward, terminated,
        truncated, info)``, ``truncated`` always false (every game ends)."""
        core = self.position.core
        if core.is_game_over():
            raise GameOverError("the episode is over: call reset()")
        try:
            self.game.push(core, action)
        except IllegalMoveError:
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), ILLEGAL_ACTION_REWARD, True, False, info
        self._reply()
        over = core.is_game_over()
        reward = self.game.returns(self.position)[self.learner] if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def _reply(self) -> None:
        """The opponents' moves until it is the learner's turn or the game is over."""
        position = self.position
        core = position.core
        while core.turn != self.learner and not core.is_game_over():
            position.push(self._opponents[core.turn].choose_move(position))

    def _observation(self) -> np.ndarray:
        return self.game.planes(self.position.core, self.learner)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game.action_mask(self.position.core)}

    def render(self) -> np.ndarray | None:
        """The picture (``"rgb_array"``), or print the board (``"human"``)."""
        if self.render_mode == "rgb_array":
            return self.game.picture(self.position.core)
        if self.render_mode == "human":
            print(self.position.render(), flush=True)
        return None


def _env_ids() -> dict[str, dict[str, Any]]:
    """An id for each game registered by now and each value of its tagged options
    (``gamecore/Othello-6x6-v0``, ``gamecore/Rolit-3p-v0``, ``gamecore/Tetralath-v0``)."""
    ids: dict[str, dict[str, Any]] = {}
    for name, cls in GAMES.items():
        tagged = [option for option in cls.game_options() if option.tag]
        for values in itertools.product(*(option.choices for option in tagged)):
            tags = "".join("-" + option.tag.format(value) for option, value in zip(tagged, values, strict=True))
            ids[f"gamecore/{cls.__name__}{tags}-v0"] = {"game": name, **{o.name: v for o, v in zip(tagged, values)}}
    return ids


#: The registered ids and the keyword arguments each stands for.
ENV_IDS = _env_ids()


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (done on import; registering twice is harmless)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=f"{__name__}:GamecoreGymEnv", kwargs=kwargs)


register_envs()
