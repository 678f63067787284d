"""Rolit positions the MCTS tests search from (shared by test_mcts_history and test_mcts_implicit)."""

from __future__ import annotations

from gamecore import Rolit
from gamecore.players import RandomPlayer


def rolit_after(backend_name: str, plies: int = 6, seed: int = 2) -> Rolit:
    """Four-player Rolit after ``plies`` moves of a seeded random player."""
    game = Rolit(backend=backend_name)
    player = RandomPlayer(seed)
    for _ in range(plies):
        game.push(player.choose_move(game))
    return game
