"""``gamecore bench rl``: the speed of the learning adapters (needs ``pip install ".[rl]"``).

Prints plies per second of uniformly random games, per backend:

- a PettingZoo loop (``env.last()``, a random legal action from the mask, ``env.step``: an
  observation and a mask each ply, as a learner's loop has) on Othello 8x8, Rolit for four
  and Tetralath;
- an OpenSpiel loop (``state.legal_actions()``, a random one, ``state.apply_action``) on the
  gamecore games, and on OpenSpiel's own C++ Othello under the same Python loop, with the
  ratio of gamecore's 8x8 Othello to it;
- the same OpenSpiel loop as a learner runs it (``observation_tensor()`` and
  ``legal_actions_mask()`` of the player to move each ply too) on 8x8 Othello, gamecore's
  and OpenSpiel's C++ one, with their ratio.

Every figure is the median of ``runs`` samples in CPU seconds of this process (the machines
are shared); the games are seeded, so each run plays the same plies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from ..errors import GamecoreError
from . import _backends, alternated_medians

__all__ = ["bench_rl", "pettingzoo_plies", "openspiel_plies", "openspiel_learner_plies"]

#: Games per sample, per backend (``quick``: a tenth, at least one).
GAMES = {"cython": 20, "python": 4}
#: The games timed: a label, the PettingZoo / LearnerGame options and the OpenSpiel name.
CASES = (
    ("othello 8x8", {"game": "othello", "size": 8}, "gamecore_othello(size=8,backend={})"),
    ("rolit 4 players", {"game": "rolit", "players": 4}, "gamecore_rolit(players=4,backend={})"),
    ("tetralath", {"game": "tetralath"}, "gamecore_tetralath(backend={})"),
)


def _extra() -> tuple[Any, Any]:
    try:
        import pyspiel  # noqa: PLC0415  (the rl extra, optional)

        from ..rl import openspiel_game, pettingzoo_env  # noqa: PLC0415, F401  (openspiel_game registers the games)
    except ImportError as exc:
        raise GamecoreError(f'gamecore bench rl needs the rl extra (pip install "gamecore[rl]"): {exc}') from None
    return pyspiel, pettingzoo_env


def pettingzoo_plies(environment: Any, games: int, seed: int) -> int:
    """Plies of ``games`` uniformly random games in a PettingZoo AEC environment."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        environment.reset()
        for _agent in environment.agent_iter():
            observation, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(rng.choice(observation["action_mask"].nonzero()[0]))
            plies += 1
    return plies


def openspiel_plies(game: Any, games: int, seed: int) -> int:
    """Plies of ``games`` uniformly random games of an OpenSpiel game."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies


def openspiel_learner_plies(game: Any, games: int, seed: int) -> int:
    """Plies of ``games`` uniformly random games of an OpenSpiel game, reading the mover's
    observation tensor and legal actions mask each ply, as a learner does."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.observation_tensor(player)
            state.legal_actions_mask(player)
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies


def bench_rl(out: TextIO, runs: int = 5, backend: str | None = None, quick: bool = False) -> None:
    """Random-game plies/s of the PettingZoo and OpenSpiel adapters, and of OpenSpiel's C++ Othello."""
    pyspiel, pettingzoo_env = _extra()
    print(f"Random games through the learning adapters: plies/s (median of {runs} runs, CPU time)", file=out)
    print(f"{'loop':<14} {'game':<16} {'backend':<13} {'games':>5} {'plies/s':>10}", file=out)
    cpp_othello = pyspiel.load_game("othello")
    for name in _backends(backend):
        games = max(1, GAMES[name] // (10 if quick else 1))
        works: dict[str, Callable[[], int]] = {}
        for label, options, spiel_name in CASES:
            environment = pettingzoo_env.env(**options, backend=name)
            works[f"pettingzoo {label}"] = partial(pettingzoo_plies, environment, games, 1)
            works[f"openspiel {label}"] = partial(openspiel_plies, pyspiel.load_game(spiel_name.format(name)), games, 1)
        works["openspiel othello 8x8 C++"] = partial(openspiel_plies, cpp_othello, games, 1)
        ours = pyspiel.load_game(CASES[0][2].format(name))
        works["openspiel+obs othello 8x8"] = partial(openspiel_learner_plies, ours, games, 1)
        works["openspiel+obs othello 8x8 C++"] = partial(openspiel_learner_plies, cpp_othello, games, 1)
        medians = alternated_medians(works, runs)
        rates = {work: plies / seconds for work, (seconds, plies) in medians.items()}
        for work, rate in rates.items():
            loop, _, label = work.partition(" ")
            shown = "OpenSpiel C++" if label.endswith("C++") else name
            print(f"{loop:<14} {label.removesuffix(' C++'):<16} {shown:<13} {games:>5} {rate:>10,.0f}", file=out)
        ratio = rates["openspiel othello 8x8"] / rates["openspiel othello 8x8 C++"]
        print(f"OpenSpiel loop, othello 8x8: gamecore ({name}) / OpenSpiel's C++ othello = {ratio:.2f}x", file=out)
        ratio = rates["openspiel+obs othello 8x8"] / rates["openspiel+obs othello 8x8 C++"]
        print(
            f"OpenSpiel loop with observations, othello 8x8: gamecore ({name}) / OpenSpiel's C++ othello = {ratio:.2f}x",
            file=out,
        )
