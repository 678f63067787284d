"""Othello at the terminal (``gamecore play othello``): its options, drawing and record format.

>>> import io
>>> from gamecore.cli import main
>>> main(["play", "othello", "--size", "4", "--black", "random", "--white", "greedy", "--quiet"], out=io.StringIO())
0
"""

from __future__ import annotations

import argparse
from typing import Any

from .._cli_types import board_size
from ..errors import GamecoreError
from ..games.base import Position
from ..games.othello import PASS, STYLES, Othello, parse_move_list
from .play import GameUI

__all__ = ["OthelloUI", "format_record", "load_record"]


def format_record(game: Othello) -> str:
    """The moves played as one word like ``f5d6c3d3`` (passes left out, as in most Othello tools)."""
    return "".join(str(m) for m in game.move_stack if not m.is_pass)


def load_record(game: Othello, text: str) -> int:
    """Play the moves of a record (``f5d6c3...``, passes written or not) on ``game``.

    Returns the number of moves read. On a bad record raises a ``GamecoreError`` and leaves
    ``game`` as it was.
    """
    body = " ".join(line.split("#", 1)[0] for line in text.splitlines())
    moves = parse_move_list(body, game.size)
    trial = game.copy()
    for number, index in enumerate(moves, 1):
        legal = trial.legal_moves()
        if legal and legal[0].is_pass and index != PASS:
            trial.push(legal[0])  # the record leaves the pass out
        move = Othello.Move(index, game.size)
        try:
            trial.push(move)
        except ValueError as exc:
            raise GamecoreError(f"move {number} of the record ({move}) cannot be played: {exc}") from None
    for move in trial.move_stack[len(game.move_stack) :]:
        game.push(move)
    return len(moves)


class OthelloUI(GameUI):
    game = Othello
    summary = "Othello/Reversi on a 4x4 to 10x10 board"
    default_players = {"black": "human", "white": "engine"}
    quick_players = {"black": "random", "white": "greedy"}
    default_time = 1.0

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--size", type=board_size, default=8, help="board size: 4, 6, 8 or 10 (default 8)")
        parser.add_argument(
            "--style",
            choices=tuple(STYLES),
            default="letters",
            help="board drawing: letters (X black, O white; the default) or ufrj (the UFRJ handout's ○ ● and ? frame)",
        )

    def title(self, position: Position[Any], args: argparse.Namespace) -> str:
        return f"Othello {args.size}x{args.size} ({position.backend} backend)"

    def draw(self, position: Position[Any], args: argparse.Namespace, last_move: Any = None) -> str:
        assert isinstance(position, Othello)
        board = position.render(style=args.style, last_move=last_move)
        if position.is_game_over():  # the loop says the result in its own line: once, not twice
            return board.rsplit("\n", 1)[0]
        return board

    def format_record(self, position: Position[Any]) -> str:
        assert isinstance(position, Othello)
        return format_record(position)

    def load_record(self, position: Position[Any], text: str) -> int:
        assert isinstance(position, Othello)
        return load_record(position, text)
