"""The games: each one a public position class over a pure-Python core (``_<game>_py``)
and its compiled twin (``pybindings/gamecore/games/_<game>_cy.pyx``, kernel in ``pyx/<game>.pxd``).

``GAMES`` maps each game's name to its class (``gamecore play <name>``): a game class
registers itself by its ``name`` when it is defined, with every fact the other layers read
(sizes, seats, players; see :class:`Position`).
"""

from .base import GAMES, Color, Core, Outcome, Position, Termination
from .othello import Othello
from .rolit import Rolit
from .tetralath import Tetralath

__all__ = ["GAMES", "Othello", "Rolit", "Tetralath", "Position", "Core", "Color", "Outcome", "Termination"]
