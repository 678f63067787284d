"""The games: each one a public position class over a pure-Python core (``_<game>_py``)
and its compiled twin (``pybindings/games/_<game>_cy.pyx``, kernel in ``pyx/<game>.pxd``)."""

from .othello import Othello
from .rolit import Rolit
from .tetralath import Tetralath

__all__ = ["Othello", "Rolit", "Tetralath"]
