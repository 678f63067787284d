"""PettingZoo AEC environments: Othello (4x4 to 10x10), Rolit (2 to 4 players), Tetralath.

>>> from gamecore.rl.pettingzoo_env import env
>>> e = env("othello", size=6)
>>> e.reset(seed=1)
>>> e.agent_selection, e.possible_agents
('black', ['black', 'white'])
>>> e.observe("black")["observation"].shape, int(e.action_space("black").n)
((6, 6, 3), 37)

Agents are the colours, in order of play. Each observation is a dict: ``"observation"``,
the planes of :class:`gamecore.rl.LearnerGame` seen by that agent (``int8``, its own colour
first, the last plane all ones on its turn), and ``"action_mask"`` (``int8``, the legal
actions of the agent to move, all zeros for the others). Othello's pass is an action
(``size * size``), the only legal one when the side to move must pass. Rewards come at the
end (:meth:`LearnerGame.returns`: +1 / 0 / -1, Rolit by place or ``reward="balls"``).

An action that is not legal raises :class:`gamecore.IllegalMoveError` (not an action at
all: :class:`gamecore.InvalidMoveError`) and changes nothing. The games have no chance:
``reset(seed=...)`` seeds the action spaces' ``sample()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import InvalidOptionError
from ._common import RENDER_MODES, LearnerGame

__all__ = ["GamecoreEnv", "env"]


class GamecoreEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no types: its AECEnv is Any
    """A gamecore game as a PettingZoo AEC environment.

    :param game: ``"othello"``, ``"rolit"`` or ``"tetralath"``.
    :param render_mode: ``None``, ``"human"`` (prints the board after each move, as
        ``gamecore play`` draws it) or ``"rgb_array"`` (``render()`` returns the picture).
    :param options: :class:`LearnerGame`'s (``size``, ``players``, ``swap``, ``reward``, ``backend``).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "gamecore_v0", "is_parallelizable": False}

    def __init__(self, game: str = "othello", *, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, *RENDER_MODES):
            raise InvalidOptionError(f"render_mode must be None, 'human' or 'rgb_array', got {render_mode!r}")
        self.game = LearnerGame(game, **options)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"gamecore_{game}_v0"}
        self.possible_agents = list(self.game.agents)
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, self.game.shape, dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (self.game.num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(self.game.num_actions) for agent in self.possible_agents}
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``Dict(observation=Box(0, 1, planes), action_mask=Box(0, 1, (actions,)))``, ``int8``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(actions)``."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the action spaces' ``sample()`` (the games have no chance)."""
        if seed is not None:
            for offset, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + offset)
        #: The gamecore position being played (read it; play through ``step``).
        self.position = self.game.new_position()
        self._core = self.position.core
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._core.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": planes seen by agent, "action_mask": its legal actions}``."""
        player = self._index[agent]
        core = self._core
        if player == core.turn:
            mask = self.game.action_mask(core)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": self.game.planes(core, player), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the selected agent's action (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        core = self._core
        self.game.push(core, action)  # raises, changing nothing, on a bad or illegal action
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if core.is_game_over():
            for name, value in zip(self.possible_agents, self.game.returns(self.position)):
                self.rewards[name] = value
                self.terminations[name] = True
        self.agent_selection = self.possible_agents[core.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> np.ndarray | None:
        """The picture (``"rgb_array"``), or print the board (``"human"``)."""
        if self.render_mode == "rgb_array":
            return self.game.picture(self._core)
        if self.render_mode == "human":
            print(self.position.render(), flush=True)
        return None

    def close(self) -> None:
        """Nothing to release."""


def env(game: str = "othello", **options: Any) -> GamecoreEnv:
    """The environment, as PettingZoo's ``env()`` functions name it. No wrapper is added:
    the environment already refuses illegal actions with a gamecore error."""
    return GamecoreEnv(game, **options)
