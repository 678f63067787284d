"""Terminal games: one loop (:mod:`gamecore.ui.play`) and a small piece per game."""

from .othello import OthelloUI
from .play import GAME_UIS, GameUI, Session
from .rolit import RolitUI
from .tetralath import TetralathUI

__all__ = ["GAME_UIS", "GameUI", "Session"]

# The games' own UIs register themselves for their game classes when they are defined.
_OWN_UIS = (OthelloUI, RolitUI, TetralathUI)
