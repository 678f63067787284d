"""Learning frameworks on gamecore's games (the optional extra ``pip install "gamecore[rl]"``).

- :mod:`gamecore.rl.pettingzoo_env`: PettingZoo AEC environments, every player an agent;
- :mod:`gamecore.rl.gymnasium_env`: Gymnasium environments, one learner against built-in
  players, registered as ``gamecore/Othello-8x8-v0`` and the like;
- :mod:`gamecore.rl.openspiel_game`: OpenSpiel games (``gamecore_othello``, ``gamecore_rolit``,
  ``gamecore_tetralath``) and a gamecore player around any OpenSpiel bot.

All three number actions, draw observation planes and score finished games the same way:
:class:`gamecore.rl.LearnerGame`. Importing this package needs only numpy; each module
imports its framework.
"""

from ._common import GAMES, REWARDS, LearnerGame

__all__ = ["GAMES", "REWARDS", "LearnerGame"]
