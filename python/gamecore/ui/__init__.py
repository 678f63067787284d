"""Terminal games: one loop (:mod:`gamecore.ui.play`) and a small piece per game."""

from .othello import OthelloUI
from .play import GAME_UIS, GameUI, Session
from .rolit import RolitUI
from .tetralath import TetralathUI

__all__ = ["GAME_UIS", "GameUI", "Session"]

GAME_UIS.update({"othello": OthelloUI(), "tetralath": TetralathUI(), "rolit": RolitUI()})
