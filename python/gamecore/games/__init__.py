"""The games: each one a public position class over a pure-Python core (``_<game>_py``)
and its compiled twin (``pybindings/games/_<game>_cy.pyx``, kernel in ``pyx/<game>.pxd``).

``GAMES`` maps each game's command-line name to its class (``gamecore play <name>``).
"""

from .base import Color, Outcome, Position, Termination
from .othello import Othello
from .rolit import Rolit
from .tetralath import Tetralath

__all__ = ["GAMES", "Othello", "Rolit", "Tetralath", "Position", "Color", "Outcome", "Termination"]

#: Every game by its name on the command line.
GAMES: dict[str, type[Position]] = {"othello": Othello, "tetralath": Tetralath, "rolit": Rolit}
