"""What the three adapters share: one gamecore game as a learner sees it.

:class:`LearnerGame` numbers the actions, draws the observation planes and the action mask
straight from the core's bitboards, turns a finished game into returns, and paints the
board as a picture. Every adapter (PettingZoo, Gymnasium, OpenSpiel) goes through it, so
they agree on every number.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from ..games import GAMES
from ..games.base import Core, Position
from ..games.metadata import rgb

__all__ = ["GAMES", "REWARDS", "LearnerGame"]

# GAMES (gamecore.GAMES, re-exported): the games the adapters offer, every registered one.


#: What ``render()`` can draw: the terminal board (printed) or a picture (returned).
RENDER_MODES = ("human", "rgb_array")
#: How a finished game may be scored (see :meth:`LearnerGame.returns`; each game says which it takes).
REWARDS = ("place", "balls")

_CELL = 32  # pixels per cell of the pictures


class LearnerGame:
    """A gamecore game described for learning frameworks, read from its class (any game in
    :data:`gamecore.GAMES`: its geometry, extra moves, colours and options).

    :param game: a game's name (``"othello"``, ``"rolit"``, ``"tetralath"``...).
    :param reward: ``"place"`` (default) or a game's own (Rolit's ``"balls"``); see :meth:`returns`.
    :param backend: ``"cython"`` or ``"python"``; default :data:`gamecore.BACKEND`.
    :param options: the game's start options (:meth:`gamecore.games.Position.game_options`):
        Othello's ``size`` (4 to 10, default 8), Rolit's ``players`` (2, 3 or 4: the default
        colours of :class:`Rolit`), Tetralath's ``swap`` (adds the swap action, number 61).
    :raises InvalidOptionError: an unknown game or reward, an option the game does not take,
        or a value not among the option's choices.

    Actions are the core's move codes for the cells: the square index (``row * size + col``)
    in Othello and Rolit, the cell index 0..60 in Tetralath (row by row, ``a1`` = 0), then the
    game's moves that take no cell (:meth:`~gamecore.games.Position.extra_moves`): Othello's
    pass (``size * size``), Tetralath's swap (61).

    Observation planes, shape ``(height, width, colours + 1)``, ``int8`` 0/1, seen by one
    player: plane 0 holds that player's discs (balls, stones), the next planes the other
    colours in order of play after it (Rolit: then the colours that do not play, in colour
    order), and the last plane is all ones when that player is to move. The cells sit in the
    grid of the game's geometry: Othello and Rolit are ``size x size``; Tetralath's hexagon
    sits in a 9x9 grid in axial coordinates (row ``r`` of the board starts at column
    ``max(0, 4 - r)``), the 20 squares outside it always 0.
    """

    def __init__(
        self, game: str = "othello", *, reward: str = "place", backend: str | None = None, **options: Any
    ) -> None:
        cls = GAMES.get(game) if isinstance(game, str) else None
        if cls is None:
            raise InvalidOptionError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
        if reward not in cls.rewards:
            raise InvalidOptionError(f"unknown reward {reward!r} for {game}; choose one of {', '.join(cls.rewards)}")
        starts = [option.name for option in cls.game_options() if option.start]
        for name in options:
            if name not in starts:
                raise InvalidOptionError(f"{game} takes no option {name!r}; its options: {', '.join(starts) or 'none'}")
        self.name = game
        self.reward = reward
        sample, _ = cls.from_options(options, backend=backend)  # checks the options (and the backend)
        self._options: dict[str, Any] = {**sample.start_options(), "backend": backend}
        #: The gamecore class of the positions (``Othello``, ``Rolit`` or ``Tetralath``).
        self.position_class = type(sample)
        self.num_players = sample.num_players
        #: Agent names in order of play: the colours (``"black"``, ``"white"``; ``"red"``, ...).
        self.agents = tuple(str(colour) for colour in sample.colors)
        self.size = sample.size
        geometry = self.geometry = sample.geometry()
        self.height, self.width = geometry.grid
        self.num_cells = geometry.num_cells
        #: The moves that take no cell (core codes), numbered after the cells.
        self._extra_moves: tuple[int, ...] = sample.extra_moves()
        self.num_actions = self.num_cells + len(self._extra_moves)
        self._grid: slice | np.ndarray = (
            slice(None)  # the cells are the grid, in order
            if geometry.grid_index == tuple(range(self.height * self.width))
            else np.array(geometry.grid_index, dtype=np.intp)
        )
        #: The pass action (Othello), else ``None``.
        self.pass_action = self.code_to_action(-1) if -1 in self._extra_moves else None
        self.max_game_length = sample.max_game_length()
        boards = len(sample.core.bitboards())
        self.num_planes = boards + 1
        self.shape = (self.height, self.width, self.num_planes)
        self._bytes = (self.num_cells + 7) // 8
        self._boards = boards
        # The bitboards in plane order for each player's view, per order of play of the
        # colours (Rolit's colours can be any, in any order: ``Rolit("GR")``); a
        # two-player game's bitboards are its players'.
        self._plane_orders: dict[tuple[int, ...] | None, list[tuple[int, ...]]] = {}
        self._stone_rgb = tuple(rgb(style.display) for style in self.position_class.colour_styles())
        self._picture: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self._options.items() if k != "backend")
        return f"LearnerGame({self.name!r}, {options}, reward={self.reward!r})".replace(", , ", ", ")

    # Its tables never change once made (the plane orders are a cache): copies (OpenSpiel's
    # clone() deep-copies a state's attributes) share it instead of copying them.
    def __copy__(self) -> LearnerGame:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> LearnerGame:
        return self

    @property
    def options(self) -> dict[str, Any]:
        """The options the game was made with (its start options: ``size``, ``players`` or
        ``swap``; ``backend``)."""
        return dict(self._options)

    def new_position(self) -> Position[Any]:
        """A new gamecore position at the start."""
        options = {k: v for k, v in self._options.items() if k != "backend"}
        position, _ = self.position_class.from_options(options, backend=self._options["backend"])
        return position

    def check_position(self, position: Any) -> None:
        """Raise :class:`gamecore.InvalidPositionError` unless ``position`` is a position of this
        game (the same game and start options: board size, number of players, swap rule; any backend)."""
        options = {k: v for k, v in self._options.items() if k != "backend"}
        if not isinstance(position, self.position_class) or position.start_options() != options:
            raise InvalidPositionError(f"{position!r} is not a position of {self!r}")

    # -- actions ---------------------------------------------------------------------------

    def action_to_code(self, action: Any) -> int:
        """The core move code of an action (Othello's pass is the core's -1).

        :raises InvalidMoveError: not an integer from 0 to ``num_actions - 1``.
        """
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidMoveError(f"an action is an int from 0 to {self.num_actions - 1}, got {action!r}")
        number = int(action)
        if not 0 <= number < self.num_actions:
            raise InvalidMoveError(f"action {number} is outside 0..{self.num_actions - 1}")
        return number if number < self.num_cells else self._extra_moves[number - self.num_cells]

    def code_to_action(self, code: int) -> int:
        """The action of a core move code."""
        return code if 0 <= code < self.num_cells else self.num_cells + self._extra_moves.index(code)

    def legal_actions(self, core: Core) -> list[int]:
        """The legal actions in ascending order (none once the game is over)."""
        codes = core.legal_moves()
        if codes and not (codes[0] >= 0 and codes[-1] < self.num_cells):  # a move that takes no cell
            return sorted(map(self.code_to_action, codes))
        return codes

    def action_mask(self, core: Core) -> np.ndarray:
        """``int8`` 0/1 of length ``num_actions``: 1 for each legal action."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.legal_actions(core)] = 1
        return mask

    def push(self, core: Core, action: Any) -> None:
        """Play an action on a core.

        :raises InvalidMoveError: not an action; :raises IllegalMoveError: not legal here (the
            core is unchanged either way).
        """
        core.push(self.action_to_code(action))

    # -- observations ----------------------------------------------------------------------

    def planes(self, core: Core, player: int) -> np.ndarray:
        """The observation planes of ``core`` seen by ``player`` (see the class)."""
        flat = np.zeros((self.height * self.width, self.num_planes), dtype=np.int8)
        flat[self._grid, :-1] = self._bits(core, player).T
        if core.turn == player:
            flat[:, -1] = 1
        return flat.reshape(self.shape)

    def planes_first(self, core: Core, player: int) -> np.ndarray:
        """The same planes channels first, ``float32`` of shape ``(planes, height, width)``
        (OpenSpiel's ``observation_tensor``)."""
        flat = np.zeros((self.num_planes, self.height * self.width), dtype=np.float32)
        flat[:-1, self._grid] = self._bits(core, player)
        if core.turn == player:
            flat[-1] = 1
        return flat.reshape(self.num_planes, self.height, self.width)

    def _bits(self, core: Core, player: int) -> np.ndarray:
        """Every colour's bitboard as bits in one go, in ``player``'s plane order: a row of
        ``num_cells`` bits (``uint8`` 0/1) per plane but the last, square order."""
        boards = core.bitboards()
        size = self._bytes
        playing = _playing(core)
        orders = self._plane_orders.get(playing) or self._plane_orders_of(playing)
        raw = b"".join([boards[board].to_bytes(size, "little") for board in orders[player]])
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little").reshape(-1, size * 8)
        return bits[:, : self.num_cells]

    def _plane_orders_of(self, playing: tuple[int, ...] | None) -> list[tuple[int, ...]]:
        order = list(range(self._boards)) if playing is None else list(playing)
        rest = [board for board in range(self._boards) if board not in order]
        orders = self._plane_orders[playing] = [tuple(order[p:] + order[:p] + rest) for p in range(len(order))]
        return orders

    # -- results ---------------------------------------------------------------------------

    def returns(self, position: Position[Any]) -> list[float]:
        """Each player's reward (in order of play) for a finished game; zeros before the end.

        ``"place"``: ``(players it beat - players that beat it) / (players - 1)``, so +1 / 0 /
        -1 in a two-player game: a player beats those it finished above
        (:meth:`~gamecore.games.Position.places`: the winner beats everyone; in Rolit the
        others rank by their balls, the winner above those level with it by the tie rule).
        ``"balls"`` (Rolit): ``(own balls - mean balls of the players) / cells``.
        Both sum to 0 over the players.
        """
        outcome = position.outcome()
        n = self.num_players
        if outcome is None:
            return [0.0] * n
        if self.reward == "balls":
            scores = [outcome.scores[c] for c in position.colors]
            mean = sum(scores) / n
            return [(s - mean) / self.num_cells for s in scores]
        places = position.places()
        return [sum((places[i] < places[j]) - (places[j] < places[i]) for j in range(n)) / (n - 1) for i in range(n)]

    # -- pictures --------------------------------------------------------------------------

    def picture(self, core: Core) -> np.ndarray:
        """The board as an RGB picture, ``uint8``, 32 pixels a cell, in the display colours of
        the game (:meth:`~gamecore.games.Position.colour_styles`), cells where its geometry draws them."""
        background, centres, disc = self._picture or self._make_picture()
        image: np.ndarray = background.copy()
        radius = disc.shape[0] // 2
        for index, board in enumerate(core.bitboards()):
            while board:
                low = board & -board
                cell = low.bit_length() - 1
                board ^= low
                y, x = centres[cell]
                image[y - radius : y + radius, x - radius : x + radius][disc] = self._stone_rgb[index]
        return image

    def _make_picture(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        radius = _CELL * 2 // 5
        ys, xs = np.mgrid[-radius:radius, -radius:radius] + 0.5
        disc = ys * ys + xs * xs <= radius * radius
        geometry = self.geometry
        board, marks = (rgb(colour) for colour in self.position_class.board_display)
        centres = np.array([(round(y * _CELL), round(x * _CELL)) for x, y in geometry.centres])
        background = np.empty(
            (math.ceil(geometry.height * _CELL), math.ceil(geometry.width * _CELL), 3), dtype=np.uint8
        )
        background[:] = board
        if geometry.shape == "square":  # the grid lines
            background[::_CELL, :] = marks
            background[:, ::_CELL] = marks
            background[-1, :] = marks
            background[:, -1] = marks
        else:  # a hole for each cell
            for y, x in centres:
                background[y - radius : y + radius, x - radius : x + radius][disc] = marks
        self._picture = (background, centres, disc)
        return self._picture


def _playing(core: Core) -> tuple[int, ...] | None:
    """A Rolit core's colours in order of play (any colours, any order: ``Rolit("GR")``), read
    from the core itself since the compiled cores are not the pure twin's class; ``None`` for
    Othello's and Tetralath's cores, whose bitboards are their two players'."""
    colours: tuple[int, ...] | None = getattr(core, "colours", None)
    return colours
