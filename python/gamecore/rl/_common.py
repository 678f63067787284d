"""What the three adapters share: one gamecore game as a learner sees it.

:class:`LearnerGame` numbers the actions, draws the observation planes and the action mask
straight from the core's bitboards, turns a finished game into returns, and paints the
board as a picture. Every adapter (PettingZoo, Gymnasium, OpenSpiel) goes through it, so
they agree on every number.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidPositionError
from ..games.base import Color, Core, Position
from ..games.othello import Othello
from ..games.rolit import Rolit
from ..games.tetralath import ROW_LENGTHS, Tetralath

__all__ = ["GAMES", "REWARDS", "LearnerGame"]

#: The games the adapters offer.
GAMES = ("othello", "rolit", "tetralath")
#: What ``render()`` can draw: the terminal board (printed) or a picture (returned).
RENDER_MODES = ("human", "rgb_array")
#: How a finished game is scored (see :meth:`LearnerGame.returns`).
REWARDS = ("place", "balls")

_CELL = 32  # pixels per square of the pictures
_BOARD_RGB = {"othello": (0, 110, 60), "rolit": (70, 70, 80), "tetralath": (215, 185, 135)}
_LINE_RGB = (20, 40, 25)
_HOLE_RGB = (180, 150, 105)  # an empty Tetralath cell
# Disc colours by bitboard index: Othello (black, white), Tetralath (white, black),
# Rolit (red, blue, yellow, green).
_STONE_RGB = {
    "othello": ((20, 20, 20), (240, 240, 240)),
    "tetralath": ((240, 240, 240), (20, 20, 20)),
    "rolit": ((210, 40, 40), (40, 90, 220), (240, 210, 40), (40, 170, 70)),
}


class LearnerGame:
    """A gamecore game described for learning frameworks.

    :param game: ``"othello"``, ``"rolit"`` or ``"tetralath"``.
    :param size: Othello's board size (even, 4 to 10).
    :param players: Rolit's number of players (2, 3 or 4; the default colours of :class:`Rolit`).
    :param swap: Tetralath's swap rule (adds the swap action, number 61).
    :param reward: ``"place"`` (default) or, for Rolit only, ``"balls"``; see :meth:`returns`.
    :param backend: ``"cython"`` or ``"python"``; default :data:`gamecore.BACKEND`.
    :raises InvalidOptionError: an unknown game or reward, or an option the game does not take;
        gamecore's own errors for a bad size or number of players.

    Actions are the core's move codes: the square index (``row * size + col``) in Othello and
    Rolit, the cell index 0..60 in Tetralath (row by row, ``a1`` = 0), and one more action
    at the end where the game has one: Othello's pass (``size * size``), Tetralath's swap (61).

    Observation planes, shape ``(height, width, colours + 1)``, ``int8`` 0/1, seen by one
    player: plane 0 holds that player's discs (balls, stones), the next planes the other
    colours in order of play after it (Rolit: then the colours that do not play, in colour
    order), and the last plane is all ones when that player is to move. Othello and Rolit
    are ``size x size``; Tetralath's hexagon sits in a 9x9 grid in axial coordinates (row
    ``r`` of the board starts at column ``max(0, 4 - r)``), the 20 squares outside it always 0.
    """

    def __init__(
        self,
        game: str = "othello",
        *,
        size: int = 8,
        players: int = 4,
        swap: bool = False,
        reward: str = "place",
        backend: str | None = None,
    ) -> None:
        if game not in GAMES:
            raise InvalidOptionError(f"unknown game {game!r}; choose one of {', '.join(GAMES)}")
        if reward not in REWARDS:
            raise InvalidOptionError(f"unknown reward {reward!r}; choose one of {', '.join(REWARDS)}")
        if reward == "balls" and game != "rolit":
            raise InvalidOptionError("reward='balls' is Rolit's; Othello and Tetralath score +1 / 0 / -1")
        if game != "othello" and size != 8:
            raise InvalidOptionError(f"{game} has one board; size is Othello's option")
        if game != "rolit" and players != 4:
            raise InvalidOptionError(f"{game} is a two-player game; players is Rolit's option")
        if game != "tetralath" and swap:
            raise InvalidOptionError("swap is Tetralath's option")
        self.name = game
        self.reward = reward
        self._options: dict[str, Any] = {"backend": backend}
        if game == "othello":
            self._options["size"] = size
        elif game == "rolit":
            self._options["players"] = players
        else:
            self._options["swap"] = swap
        sample = self.new_position()  # checks the options (size, players, backend)
        #: The gamecore class of the positions (``Othello``, ``Rolit`` or ``Tetralath``).
        self.position_class = type(sample)
        self.num_players = sample.num_players
        #: Agent names in order of play: the colours (``"black"``, ``"white"``; ``"red"``, ...).
        self.agents = tuple(str(colour) for colour in _colours(sample))
        self.size = sample.size
        if game == "tetralath":
            self.height = self.width = 9
            self.num_cells = 61
            self.num_actions = 62 if swap else 61
            self._grid: slice | np.ndarray = np.array(
                [r * 9 + max(0, 4 - r) + i for r, n in enumerate(ROW_LENGTHS) for i in range(n)], dtype=np.intp
            )
        else:
            self.height = self.width = self.size
            self.num_cells = self.size * self.size
            self.num_actions = self.num_cells + (game == "othello")
            self._grid = slice(None)  # the squares are the grid, in order
        #: The pass action (Othello), else ``None``.
        self.pass_action = self.num_cells if game == "othello" else None
        boards = len(sample.core.bitboards())
        self.num_planes = boards + 1
        self.shape = (self.height, self.width, self.num_planes)
        self._bytes = (self.num_cells + 7) // 8
        # The bitboards in plane order for each player's view.
        self._boards = boards
        # The bitboards in plane order for each player's view, per order of play of the
        # colours (Rolit's colours can be any, in any order: ``Rolit("GR")``); a
        # two-player game's bitboards are its players'.
        self._plane_orders: dict[tuple[int, ...] | None, list[tuple[int, ...]]] = {}
        self._picture: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self._options.items() if k != "backend")
        return f"LearnerGame({self.name!r}, {options}, reward={self.reward!r})"

    # Its tables never change once made (the plane orders are a cache): copies (OpenSpiel's
    # clone() deep-copies a state's attributes) share it instead of copying them.
    def __copy__(self) -> LearnerGame:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> LearnerGame:
        return self

    @property
    def options(self) -> dict[str, Any]:
        """The options the game was made with (``size``, ``players`` or ``swap``; ``backend``)."""
        return dict(self._options)

    def new_position(self) -> Position[Any]:
        """A new gamecore position at the start."""
        if self.name == "othello":
            return Othello(**self._options)
        if self.name == "rolit":
            return Rolit(**self._options)
        return Tetralath(**self._options)

    def check_position(self, position: Any) -> None:
        """Raise :class:`gamecore.InvalidPositionError` unless ``position`` is a position of this
        game (the same game, board size, number of players and swap rule; any backend)."""
        if (
            not isinstance(position, self.position_class)
            or position.num_players != self.num_players
            or position.size != self.size
            or self._options.get("swap", False) != (isinstance(position, Tetralath) and position.core.swap_rule)
        ):
            raise InvalidPositionError(f"{position!r} is not a position of {self!r}")

    # -- actions ---------------------------------------------------------------------------

    def action_to_code(self, action: Any) -> int:
        """The core move code of an action (Othello's pass is the core's -1).

        :raises InvalidMoveError: not an integer from 0 to ``num_actions - 1``.
        """
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidMoveError(f"an action is an int from 0 to {self.num_actions - 1}, got {action!r}")
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise InvalidMoveError(f"action {action} is outside 0..{self.num_actions - 1}")
        return -1 if action == self.pass_action else action

    def code_to_action(self, code: int) -> int:
        """The action of a core move code."""
        return self.num_cells if code < 0 else code

    def legal_actions(self, core: Core) -> list[int]:
        """The legal actions in ascending order (none once the game is over)."""
        codes = core.legal_moves()
        if codes and codes[0] < 0:  # Othello's forced pass, the core's -1
            return [self.num_cells]
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
        code = self.action_to_code(action)
        if code < 0 and self.pass_action is None:  # (no game but Othello has -1)
            raise IllegalMoveError(f"{self.name} has no pass")
        core.push(code)

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
        -1 in a two-player game. The winner beats everyone; in Rolit the others rank by their
        balls (equal balls: neither beats the other), the winner above those level with it by
        the tie rule. ``"balls"`` (Rolit): ``(own balls - mean balls of the players) / 64``.
        Both sum to 0 over the players.
        """
        outcome = position.outcome()
        n = self.num_players
        if outcome is None:
            return [0.0] * n
        colours = _colours(position)
        scores = [outcome.scores[c] for c in colours]
        if self.reward == "balls":
            mean = sum(scores) / n
            return [(s - mean) / self.num_cells for s in scores]
        winner = None if outcome.winner is None else colours.index(outcome.winner)
        by_balls = self.name == "rolit"

        def beats(i: int, j: int) -> bool:
            return i == winner or (by_balls and j != winner and scores[i] > scores[j])

        return [sum(beats(i, j) - beats(j, i) for j in range(n) if j != i) / (n - 1) for i in range(n)]

    # -- pictures --------------------------------------------------------------------------

    def picture(self, core: Core) -> np.ndarray:
        """The board as an RGB picture, ``uint8`` of shape ``(height, width, 3)``, 32 pixels a square."""
        background, centres, disc = self._picture or self._make_picture()
        image: np.ndarray = background.copy()
        radius = disc.shape[0] // 2
        colours = _STONE_RGB[self.name]
        for index, board in enumerate(core.bitboards()):
            while board:
                low = board & -board
                cell = low.bit_length() - 1
                board ^= low
                y, x = centres[cell]
                image[y - radius : y + radius, x - radius : x + radius][disc] = colours[index]
        return image

    def _make_picture(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        radius = _CELL * 2 // 5
        ys, xs = np.mgrid[-radius:radius, -radius:radius] + 0.5
        disc = ys * ys + xs * xs <= radius * radius
        if self.name == "tetralath":
            rows = [(r, i) for r, n in enumerate(ROW_LENGTHS) for i in range(n)]
            step = round(_CELL * 0.87)  # rows of a hexagon are sqrt(3)/2 apart
            centres = np.array(
                [(_CELL // 2 + r * step, _CELL // 2 + (9 - ROW_LENGTHS[r]) * _CELL // 2 + i * _CELL) for r, i in rows]
            )
            background = np.empty((_CELL // 2 * 2 + 8 * step, 9 * _CELL, 3), dtype=np.uint8)
            background[:] = _BOARD_RGB[self.name]
            for y, x in centres:
                background[y - radius : y + radius, x - radius : x + radius][disc] = _HOLE_RGB
        else:
            n = self.size
            centres = np.array([(r * _CELL + _CELL // 2, c * _CELL + _CELL // 2) for r in range(n) for c in range(n)])
            background = np.empty((n * _CELL, n * _CELL, 3), dtype=np.uint8)
            background[:] = _BOARD_RGB[self.name]
            background[::_CELL, :] = _LINE_RGB
            background[:, ::_CELL] = _LINE_RGB
            background[-1, :] = _LINE_RGB
            background[:, -1] = _LINE_RGB
        self._picture = (background, centres, disc)
        return self._picture


def _playing(core: Core) -> tuple[int, ...] | None:
    """A Rolit core's colours in order of play (any colours, any order: ``Rolit("GR")``), read
    from the core itself since the compiled cores are not the pure twin's class; ``None`` for
    Othello's and Tetralath's cores, whose bitboards are their two players'."""
    colours: tuple[int, ...] | None = getattr(core, "colours", None)
    return colours


def _colours(position: Position[Any]) -> tuple[Color, ...]:
    """The colours that play, in order of play."""
    if isinstance(position, Rolit):
        return position.colours
    return tuple(position.Color)
