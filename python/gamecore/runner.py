"""One in-process game runner and its record: what ``gamecore compare`` and the strength
benchmarks play through (``bench othello strength``, ``bench rolit strength``).

A seat is anything that answers ``seat(position) -> (move, result)``: a player of
:mod:`gamecore.players` (:func:`player_seat`) or an engine searching within a budget; ``result``
is the search's result (``SearchResult``, ``MCTSResult``) or ``None``. :func:`run_game` plays
the seats in turn from a position to the end and keeps one :class:`PlayedGame`: every move with
who chose it, its CPU and wall time and what the search counted, the forfeit if a seat failed,
and the outcome.

>>> from gamecore import Othello
>>> from gamecore.players import GreedyPlayer, RandomPlayer
>>> record = run_game(Othello(4), [player_seat(RandomPlayer(1)), player_seat(GreedyPlayer())], ["random", "greedy"])
>>> record.forfeit is None and record.outcome is not None and len(record.codes) == len(record.final.move_stack)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import GamecoreError
from .games.base import Outcome, Position

__all__ = ["MoveRecord", "PlayedGame", "Seat", "player_seat", "run_game", "seat_letters"]

#: A seat: ``seat(position) -> (move, search result or None)``; it never changes ``position``.
Seat = Callable[[Any], tuple[Any, Any]]


@dataclass
class MoveRecord:
    """One choice of a move: who chose it at which ply, what it cost and what its search counted."""

    ply: int  #: moves played before it
    player: str  #: who chose it (the seat's name: a player spec, an algorithm)
    colour: str  #: the letter of the colour it chose for (``colour_styles()``: ``X``, ``R``...)
    move: str
    nodes: int = 0  #: positions its search visited (0: no search)
    cpu_seconds: float = 0.0  #: CPU time of the choosing thread
    wall_seconds: float = 0.0
    depth: int = 0  #: the depth its search finished (0: no search)
    exact: bool = False  #: solved to the end of the game (it may stop before its budget)
    memory: int = 0  #: bytes its search's structures hold
    played: bool = True  #: its move was played (False: a shadow's search of the same position)


@dataclass
class PlayedGame:
    """A game played by :func:`run_game`: the seats' names in order of play, the start, every
    choice (:class:`MoveRecord`, shadows' included), the forfeit and the outcome."""

    seats: tuple[str, ...]
    start: str  #: the start position's text (``to_text()``)
    moves: list[MoveRecord] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)  #: the move codes played, in order
    #: ``(seat, reason)`` when a seat failed (an illegal move, an error): the game stopped there.
    forfeit: tuple[int, str] | None = None
    outcome: Outcome | None = None  #: ``None`` if it did not end (a forfeit)
    final: Any = None  #: the position reached

    @property
    def played(self) -> list[MoveRecord]:
        """The choices whose move was played (no shadows')."""
        return [move for move in self.moves if move.played]


def seat_letters(position: Position[Any]) -> list[str]:
    """The letter of each seat's colour, in order of play (``colour_styles()``: ``X``, ``O``;
    Rolit's ``R``, ``G``...): how a :class:`MoveRecord` names its colour."""
    letters = {style.number: style.letter for style in position.colour_styles()}
    return [letters[int(colour)] for colour in position.colors]


def player_seat(player: Any) -> Seat:
    """A player of :mod:`gamecore.players` as a seat: its ``choose_move``, and its
    ``last_result`` when it keeps one (``EnginePlayer``, ``MCTSPlayer``)."""

    def choose(position: Any) -> tuple[Any, Any]:
        move = player.choose_move(position)
        return move, getattr(player, "last_result", None)

    return choose


def run_game(
    position: Position[Any],
    seats: Sequence[Seat],
    names: Sequence[str],
    *,
    shadows: Mapping[int, Sequence[tuple[str, Seat]]] | None = None,
) -> PlayedGame:
    """Play ``seats`` (one a player, in order of play) from a copy of ``position`` to the end.

    ``names`` name the seats in the record. ``shadows[seat]`` are ``(name, seat)`` pairs that
    choose in each position of that seat before it does, their moves recorded, not played
    (``gamecore compare``'s shadow searches). A seat that raises a gamecore error or answers an
    illegal move forfeits: the game stops there, the record says who and why.
    """
    game = position.copy()
    colours = seat_letters(game)
    record = PlayedGame(tuple(names), game.to_text())

    def choose(name: str, seat: Seat, played: bool) -> Any:
        cpu, wall = time.thread_time(), time.perf_counter()
        move, result = seat(game)
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        record.moves.append(
            MoveRecord(
                len(record.codes),
                name,
                colours[game.player],
                str(move),
                int(getattr(result, "nodes", 0) or 0),
                cpu,
                wall,
                int(getattr(result, "depth", 0) or 0),
                bool(getattr(result, "exact", False)),
                int(getattr(result, "memory_used", 0) or 0),
                played,
            )
        )
        return move

    while not game.is_game_over():
        seat = game.player
        try:
            for name, shadow in (shadows or {}).get(seat, ()):
                choose(name, shadow, played=False)
            move = game.parse_move(choose(names[seat], seats[seat], played=True))
            game.push(move)
        except (GamecoreError, ValueError) as exc:
            record.forfeit = (seat, f"{names[seat]}: {exc}")
            break
        record.codes.append(move.index)
    record.outcome = game.outcome()
    record.final = game
    return record
