"""OpenSpiel games over gamecore's cores, and a gamecore player around any OpenSpiel bot.

Importing this module registers three Python games with OpenSpiel:

- ``gamecore_othello(size=8)``: Othello n x n (size 4 to 10), the pass is action ``size * size``;
- ``gamecore_rolit(players=4,reward=place)``: Rolit for 2 to 4 players (the default colours of
  :class:`gamecore.Rolit`), returns by place or ``reward=balls``;
- ``gamecore_tetralath(swap=false)``: Tetralath, the swap rule's swap is action 61.

>>> import pyspiel
>>> import gamecore.rl.openspiel_game
>>> game = pyspiel.load_game("gamecore_othello(size=6)")
>>> state = game.new_initial_state()
>>> state.legal_actions(), [state.action_to_string(a) for a in state.legal_actions()]
([8, 13, 22, 27], ['c2', 'b3', 'e4', 'd5'])

Actions, observations (channels first: ``observation_tensor`` is the planes of
:class:`gamecore.rl.LearnerGame` as ``(planes, height, width)``) and returns are those of
:class:`gamecore.rl.LearnerGame`; the state holds a gamecore position and plays on its core,
so OpenSpiel's algorithms (MCTS, evaluators, AlphaZero) run at gamecore's speed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ..errors import GameOverError, IllegalMoveError, InvalidOptionError, InvalidPositionError
from ..games import GAMES
from ..games.base import Position
from ..players.base import Player, legal_moves_or_raise
from ._common import LearnerGame

__all__ = ["GAME_NAMES", "PARAMETERS", "GamecoreGame", "GamecoreState", "OpenSpielPlayer", "game_of", "state_of"]


def _open_spiel_name(game: str) -> str:
    return "gamecore_" + game.replace("-", "_")


def _parameters(game: str) -> dict[str, Any]:
    """A game's OpenSpiel parameters and their defaults: its start options, ``reward`` when it
    has more than one, and ``backend`` (``"cython"``, ``"python"`` or ``"default"``:
    :data:`gamecore.BACKEND`)."""
    cls = GAMES[game]
    parameters = {option.name: option.default for option in cls.game_options() if option.start}
    if len(cls.rewards) > 1:
        parameters["reward"] = cls.rewards[0]
    return {**parameters, "backend": "default"}


def _game_type(game: str) -> pyspiel.GameType:
    cls = GAMES[game]
    counts = cls.player_counts()
    return pyspiel.GameType(
        short_name=_open_spiel_name(game),
        long_name=f"gamecore {cls.__name__}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


class GamecoreGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel (C++) ships no types: its Game is Any
    """A gamecore game as an OpenSpiel game (made by ``pyspiel.load_game``; its parameters
    are :class:`LearnerGame`'s ``size``, ``players``, ``reward`` or ``swap``)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = {**_parameters(self.game_name), **(params or {})}
        backend = options["backend"]
        #: Actions, planes and returns (:class:`gamecore.rl.LearnerGame`).
        self.learner = LearnerGame(
            self.game_name,
            **{k: v for k, v in options.items() if k != "backend"},
            backend=None if backend == "default" else backend,
        )
        learner = self.learner
        info = pyspiel.GameInfo(
            num_distinct_actions=learner.num_actions,
            max_chance_outcomes=0,
            num_players=learner.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=learner.max_game_length,
        )
        super().__init__(_game_type(self.game_name), info, options)
        self._start = learner.new_position()  # copied for each new state (clone() makes one too)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[str]]:
        # pyspiel's own pickling rebuilds the C++ game without running __init__ (no
        # ``learner``): load it again by its name and parameters, as OpenSpiel's AlphaZero
        # does in its actor processes.
        return _game_from_string, (str(self),)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return self.__reduce_ex__(2)

    def new_initial_state(self, position: Position[Any] | None = None) -> GamecoreState:
        """The start, or a state around a copy of a gamecore ``position`` of this game."""
        return GamecoreState(self, position)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _BoardObserver(self.learner, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class GamecoreState(pyspiel.State):  # type: ignore[misc]  # pyspiel (C++) ships no types: its State is Any
    """An OpenSpiel state holding a gamecore position (``state.position``)."""

    def __init__(self, game: GamecoreGame, position: Position[Any] | None = None) -> None:
        super().__init__(game)
        self._learner = game.learner
        if position is None:
            position = game._start
        else:
            game.learner.check_position(position)
        #: The gamecore position (OpenSpiel's clone() copies it: a core copy, no deep copy).
        self.position = position.copy()

    def current_player(self) -> int:
        core = self.position.core
        return pyspiel.PlayerId.TERMINAL if core.is_game_over() else core.turn

    def _legal_actions(self, player: int) -> list[int]:
        return self._learner.legal_actions(self.position.core)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the player to move), ascending; none for a
        player not to move. OpenSpiel's C++ side asks ``_legal_actions``, with the same answers:
        this shortcut spares Python callers (OpenSpiel's Python MCTS, a learner's loop) the
        round trip through C++ (a few calls back into Python each)."""
        core = self.position.core
        if core.is_game_over() or (player is not None and player != core.turn):
            return []
        return self._learner.legal_actions(core)

    def _player(self, player: int | None) -> int:
        core = self.position.core
        if player is None:
            if core.is_game_over():
                raise GameOverError("the game is over: name the player to observe")
            return int(core.turn)
        players = self._learner.num_players
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < players:
            raise InvalidOptionError(f"player must be from 0 to {players - 1}, got {player!r}")
        return int(player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The planes seen by ``player`` (default: the player to move), channels first, flat,
        as floats: what OpenSpiel's C++ side gets through the observer, without the crossing
        into C++ and back (a tenth of the time from Python)."""
        values: list[float] = self._learner.planes_first(self.position.core, self._player(player)).ravel().tolist()
        return values

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal action of ``player`` (default: the player to move), else 0."""
        player = self._player(player)
        mask = [0] * self._learner.num_actions
        if player == self.position.core.turn and not self.position.core.is_game_over():
            for action in self._learner.legal_actions(self.position.core):
                mask[action] = 1
        return mask

    def _apply_action(self, action: int) -> None:
        self._learner.push(self.position.core, action)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.position.move_from_code(self._learner.action_to_code(action)))

    def is_terminal(self) -> bool:
        return self.position.core.is_game_over()

    def returns(self) -> list[float]:
        return self._learner.returns(self.position)

    def __str__(self) -> str:
        return self.position.to_text()


class _BoardObserver:
    """OpenSpiel's observer: the planes channels first, and the position's text."""

    def __init__(self, learner: LearnerGame, params: Any) -> None:
        if params:
            raise InvalidOptionError(f"the observer takes no parameters, got {params}")
        self._learner = learner
        height, width, planes = learner.shape
        self.tensor = np.zeros(planes * height * width, np.float32)
        self.dict = {"observation": self.tensor.reshape(planes, height, width)}

    def set_from(self, state: GamecoreState, player: int) -> None:
        self.dict["observation"][:] = self._learner.planes_first(state.position.core, player)

    def string_from(self, state: GamecoreState, player: int) -> str:
        return state.position.to_text()


def register(game: str) -> str:
    """Register a gamecore game (a name in :data:`gamecore.GAMES`) with OpenSpiel, once, and
    return its OpenSpiel name (``"gamecore_othello"``). Importing this module registers every
    game registered by then; :func:`game_of` registers a game defined later."""
    name = _open_spiel_name(game)
    if name not in GAME_NAMES.values():
        # One class per game, at module level (``GamecoreOthelloGame``) so that pickle finds it.
        cls_name = f"Gamecore{GAMES[game].__name__}Game"
        game_class = type(cls_name, (GamecoreGame,), {"game_name": game, "__doc__": f"``{name}``."})
        game_class.__module__ = __name__
        globals()[cls_name] = game_class
        if name not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(game), game_class)
        GAME_NAMES[game] = name
        PARAMETERS[game] = _parameters(game)
    return name


#: OpenSpiel's name of each gamecore game registered here.
GAME_NAMES: dict[str, str] = {}
#: Each game's parameters and their defaults; ``backend`` is ``"cython"``, ``"python"`` or
#: ``"default"`` (:data:`gamecore.BACKEND`).
PARAMETERS: dict[str, dict[str, Any]] = {}
for _game in list(GAMES):
    register(_game)


def _game_from_string(text: str) -> pyspiel.Game:
    """A pickled game, loaded again (importing this module registered the games)."""
    return pyspiel.load_game(text)


@functools.cache
def _load(name: str, parameters: tuple[tuple[str, object], ...]) -> pyspiel.Game:
    return pyspiel.load_game(name, dict(parameters))


def game_of(position: Position[Any]) -> pyspiel.Game:
    """The OpenSpiel game (one per start options: board size, number of players...) of a gamecore position."""
    if GAMES.get(position.name) is not type(position):
        raise InvalidPositionError(f"{position!r} is not a position of a game OpenSpiel has here")
    options = tuple(position.start_options().items())
    return _load(register(position.name), (*options, ("backend", position.backend)))


def state_of(position: Position[Any]) -> GamecoreState:
    """An OpenSpiel state of a copy of ``position`` (its history before it is not replayed)."""
    state: GamecoreState = game_of(position).new_initial_state(position)  # a GamecoreGame's
    return state


class OpenSpielPlayer(Player):
    """A gamecore player that asks an OpenSpiel bot for its moves.

    :param bot: a ``pyspiel.Bot`` (or any object with ``step(state) -> action``) made for
        the game played, or a function ``bot(game, player) -> bot`` that makes one for an
        OpenSpiel game (:func:`game_of` the position) and a player number; made once per game
        and seat, kept between moves (``new_game()`` restarts them).

    ``time_budget`` is not passed on: the bot's own settings (simulations...) rule its time.
    """

    name = "openspiel"

    def __init__(self, bot: Any) -> None:
        if not callable(getattr(bot, "step", None)) and not callable(bot):
            raise TypeError(f"bot must be an OpenSpiel bot or a function (game, player) -> bot, got {bot!r}")
        self._bot = bot
        self._bots: dict[tuple[int, int], Any] = {}

    def _bot_for(self, game: pyspiel.Game, player: int) -> Any:
        if callable(getattr(self._bot, "step", None)):
            return self._bot
        key = (id(game), player)
        if key not in self._bots:
            self._bots[key] = self._bot(game, player)
        return self._bots[key]

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        legal_moves_or_raise(position)
        game = game_of(position)
        action = self._bot_for(game, position.player).step(game.new_initial_state(position))
        move = position.move_from_code(game.learner.action_to_code(action))
        if not position.is_legal(move):
            raise IllegalMoveError(f"the OpenSpiel bot chose {move}, which is not legal here")
        return move

    def new_game(self) -> None:
        for bot in [self._bot, *self._bots.values()]:
            restart: Callable[[], None] | None = getattr(bot, "restart", None)
            if callable(restart) and callable(getattr(bot, "step", None)):
                restart()

    def __repr__(self) -> str:
        return f"OpenSpielPlayer({self._bot!r})"
