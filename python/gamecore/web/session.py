"""One browser tab's game: the position, its line of moves (for undo, redo and the move
list), a player per seat, and the engine thinking in a worker thread.

Everything here runs on the server's event loop except ``choose_move``, which runs in a
worker thread on a copy of the position; its progress and its move come back to the loop
with ``call_soon_threadsafe``. A move found after the game moved on (undo, new game) is
dropped: every change of the position bumps ``generation``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..errors import GamecoreError
from ..games import GAMES
from ..games.base import Color
from ..players import EnginePlayer, MCTSPlayer, Player
from ..referee.games import game_class, start_position
from ..svg import board
from ..ui import GAME_UIS
from ..ui.play import MESSAGES, describe_score, evaluation_scale, playing_colours, result_line
from .games import (
    BadRequest,
    board_geometry,
    colour_fills,
    default_seats,
    flat_cells,
    make_seat_player,
    new_position,
    seat_players,
)

__all__ = ["GameSession", "MAX_RECORD_CHARS"]

MAX_RECORD_CHARS = 20_000
MAX_PACE = 30.0
#: The board picture's width in pixels (the page scales it to fit; a round number keeps it sharp).
BOARD_PIXELS = 560
#: The players whose search shows live thinking and obeys the stop button.
SEARCHING_PLAYERS = (EnginePlayer, MCTSPlayer)


def _push_record_move(position: Any, move: Any) -> None:
    """Push a recorded move; a pass the record leaves out is played when it is forced."""
    parsed = position.parse_move(move)
    legal = position.legal_moves()
    if not parsed.is_pass and len(legal) == 1 and legal[0].is_pass:
        position.push(legal[0])
    position.push(parsed)


def _move_list(texts: list[str]) -> str:
    """Moves in a line: ``d3 c5``, or ``4 6, 3 6`` for moves said in two words (Rolit)."""
    return (", " if any(" " in t for t in texts) else " ").join(texts)


class GameSession:
    """A game in one tab. ``notify()`` wakes the tab's event stream."""

    def __init__(self, executor: Executor, backend: str | None = None) -> None:
        self.id = secrets.token_urlsafe(16)
        self.executor = executor
        self.backend = backend
        self.touched = time.monotonic()
        self.version = 0
        self.generation = 0
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.thinker: Any = None
        self.thinking: dict[str, Any] | None = None
        self.message = ""
        self.replay: dict[str, Any] | None = None
        self.closed = False
        self.streams = 0  # open event streams (the server caps them)
        self._stop_asked = -1  # the generation whose search the stop button ended
        self._view: tuple[int, dict[str, Any]] | None = None
        self.game_number = 0  # games started in this tab (the page and its tests tell games apart)
        self.new_game("othello", {}, None)

    # -- changes (event loop only) ---------------------------------------------------------

    def notify(self) -> None:
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    def _moved(self) -> None:
        """The position changed: drop a running search's answer, stop it, redraw."""
        self.generation += 1
        self._stop_thinking()
        self.thinking = None
        self.notify()

    def _stop_thinking(self) -> None:
        if isinstance(self.thinker, SEARCHING_PLAYERS):
            self.thinker.stop()

    def new_game(self, game: Any, options: Any, seats: Any, *, replay: dict[str, Any] | None = None) -> None:
        position, checked = new_position(game, options, self.backend)
        colours = playing_colours(position)
        if seats is None:
            seats = default_seats(position)
        players = self._seat_players(game, colours, seats)
        self.game, self.options, self.position = game, checked, position
        self.ui = GAME_UIS[game]
        self.colours = colours
        self.seats, self.players = players
        self.start = position.copy()
        self.line: list[Any] = []
        self.replay = replay
        self.paused = False
        self.message = ""
        self.last_thought: dict[str, Any] | None = None
        self.game_number += 1
        self._moved()

    def _seat_players(
        self, game: str, colours: tuple[Color, ...], seats: Any
    ) -> tuple[list[dict[str, Any]], dict[Color, Player | None]]:
        if not isinstance(seats, list) or len(seats) != len(colours):
            raise BadRequest(f"seats must be a list of {len(colours)} players, one per colour in the order of play")
        chosen: list[dict[str, Any]] = []
        players: dict[Color, Player | None] = {}
        for k, (colour, spec) in enumerate(zip(colours, seats)):
            seat, player = make_seat_player(game, spec, seed=secrets.randbelow(1 << 30) + k)
            chosen.append(seat)
            players[colour] = player
        return chosen, players

    def set_seats(self, seats: Any) -> None:
        self.seats, self.players = self._seat_players(self.game, self.colours, seats)
        self.replay = None
        self._moved()

    @property
    def ply(self) -> int:
        return len(self.position.move_stack)

    def _is_engine(self, colour: Any) -> bool:
        return self.players.get(colour) is not None

    def _engine_to_move(self) -> bool:
        return not self.position.is_game_over() and self._is_engine(self.position.turn)

    def play(self, text: Any) -> None:
        """A human's move (a name like ``d3``, ``e5``, ``pass``, ``swap``)."""
        if not isinstance(text, str) or not 0 < len(text) <= 10:
            raise BadRequest("move must be a move's name, e.g. d3")
        if self.position.is_game_over():
            raise BadRequest("the game is over", 409)
        if self._engine_to_move():
            raise BadRequest(f"it is {self._name(self.position.turn)}'s turn, and an engine plays it", 409)
        try:
            move = self.position.parse_move(text)
        except (ValueError, GamecoreError) as exc:
            raise BadRequest(f"cannot read the move {text!r}: {exc}") from None
        if move not in self.position.legal_moves():
            raise BadRequest(f"{move} is not a legal move here", 409)
        self._push(move)
        self.paused = False

    def _push(self, move: Any) -> None:
        ply = self.ply
        if ply < len(self.line) and self.line[ply] == move:
            self.position.push(move)  # the line goes on as before (redo)
        else:
            self.line = self.line[:ply] + [move]
            self.position.push(move)
        self.message = ""
        self._moved()

    def undo(self) -> None:
        """Back to the last position where a human is to move (with only engines: one move)."""
        if not self.ply:
            raise BadRequest("there is no move to take back", 409)
        humans = any(p is None for p in self.players.values())
        self.position.pop()
        while humans and self.ply and (self._is_engine(self.position.turn) or self._forced_pass()):
            self.position.pop()
        self._after_jump()

    def _forced_pass(self) -> bool:
        legal = self.position.legal_moves()
        return len(legal) == 1 and legal[0].is_pass

    def redo(self) -> None:
        if self.ply >= len(self.line):
            raise BadRequest("there is no move to redo", 409)
        self.position.push(self.line[self.ply])
        self._after_jump()

    def goto(self, ply: Any) -> None:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self.line):
            raise BadRequest(f"ply must be a whole number from 0 to {len(self.line)}")
        while self.ply > ply:
            self.position.pop()
        while self.ply < ply:
            self.position.push(self.line[self.ply])
        self._after_jump()

    def _after_jump(self) -> None:
        # Looking back through a game: an engine to move waits for "play".
        self.paused = self._engine_to_move()
        self.message = ""
        self._moved()

    def set_paused(self, paused: Any) -> None:
        if not isinstance(paused, bool):
            raise BadRequest("paused must be true or false")
        self.paused = paused
        self.notify()

    def set_pace(self, pace: Any) -> None:
        if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not 0 <= pace <= MAX_PACE:
            raise BadRequest(f"pace must be a number of seconds from 0 to {MAX_PACE:g}")
        self.options = {**self.options, "pace": float(pace)}
        self.notify()

    def stop(self) -> None:
        """The stop button: the thinking engine plays the best move it has found now."""
        if self.task is None or self.thinker is None:
            raise BadRequest("no engine is thinking", 409)
        if not isinstance(self.thinker, SEARCHING_PLAYERS):
            raise BadRequest(f"a {self.thinker.name} player does not search: it cannot be stopped", 409)
        # a search waiting for a free thread has nothing to stop yet: its first report ends it
        self._stop_asked = self.generation
        self.thinker.stop()

    def import_record(self, text: Any) -> None:
        """Replace the game by the position after a move record (the ``from_moves`` text)."""
        if not isinstance(text, str) or len(text) > MAX_RECORD_CHARS:
            raise BadRequest(f"record must be a text of at most {MAX_RECORD_CHARS} characters")
        trial = self.start.copy()
        try:
            self.ui.load_record(trial, text)
        except (ValueError, GamecoreError) as exc:
            raise BadRequest(f"cannot read the record: {exc}") from None
        self.position = trial
        self.line = list(trial.move_stack)
        self.replay = None
        self._after_jump()

    def load_replay(self, record: Any, title: str) -> None:
        """A tournament game from its record: every seat shows, none plays; step with redo."""
        if not isinstance(record, dict):
            raise BadRequest("a game record is a JSON object")
        game = record.get("game")
        if game not in GAMES:
            raise BadRequest(f"cannot replay a game of {str(game)[:40]!r}")
        moves = record.get("moves")
        if not isinstance(moves, list) or len(moves) > 1000:
            raise BadRequest("the record's moves must be a list")
        names = [m.get("move") if isinstance(m, dict) else m for m in moves]
        try:
            trial = start_position(game, record.get("size", game_class(game).default_size))
            for name in names:
                _push_record_move(trial, name)
        except (ValueError, TypeError, GamecoreError) as exc:
            raise BadRequest(f"the record's moves cannot be replayed: {exc}") from None
        options = trial.start_options()
        players = [str(p)[:80] for p in record.get("players", [])] if isinstance(record.get("players"), list) else []
        summary = {
            "title": title[:200],
            "players": players,
            "result": str(record.get("reason") or record.get("termination") or "")[:200],
        }
        self.new_game(game, options, [{"player": "human"}] * len(playing_colours(trial)), replay=summary)
        self.line = list(trial.move_stack)
        self.notify()

    # -- the engines --------------------------------------------------------------------------

    def step(self) -> None:
        """Start the engine of the side to move, when one is to move and none thinks."""
        if self.closed or self.task is not None or self.paused or not self._engine_to_move():
            return
        self.task = asyncio.get_running_loop().create_task(self._engine_move(self.generation))
        self.task.add_done_callback(self._engine_done)

    def _engine_done(self, task: asyncio.Task[None]) -> None:
        self.task = None
        self.thinker = None
        if not task.cancelled() and task.exception() is not None:
            self.message = f"the engine failed: {task.exception()}"
            self.paused = True
            self.notify()
        self.step()

    async def _engine_move(self, generation: int) -> None:
        pace = self.options.get("pace", 0.0)
        if pace:
            await asyncio.sleep(pace)
            if generation != self.generation or self.paused:
                return
        colour = self.position.turn
        player = self.players[colour]
        if player is None:  # a human's seat: only a computer's turn starts this task
            return
        loop = asyncio.get_running_loop()
        position = self.position.copy()
        self.thinker = player
        self.thinking = {
            "colour": int(colour),
            "waiting": True,  # for a free engine thread: engines think at most `threads` at once
            "depth": 0,
            "iterations": 0,
            "score": "",
            "pv": "",
            "nodes": 0,
            "nps": 0,
        }
        self.notify()
        scale = evaluation_scale(position, player)
        if isinstance(player, SEARCHING_PLAYERS):
            player.progress = self._progress_hook(loop, generation, colour, scale)
        started = time.perf_counter()
        move = await loop.run_in_executor(self.executor, self._search, loop, generation, player, position)
        if generation != self.generation:
            return
        result = getattr(player, "last_result", None)
        thought = self._thought(colour, result, scale) if result is not None else None
        if thought is not None:
            thought["elapsed"] = round(time.perf_counter() - started, 2)
        self._push(move)
        self.last_thought = thought

    def _search(self, loop: Any, generation: int, player: Player, position: Any) -> Any:
        """In a worker thread: say the search has started (it may have waited for a thread), search."""
        loop.call_soon_threadsafe(self._search_started, generation)
        return player.choose_move(position)

    def _search_started(self, generation: int) -> None:
        if generation == self.generation and self.task is not None and self.thinking is not None:
            self.thinking = {**self.thinking, "waiting": False}
            self.notify()

    def _progress_hook(self, loop: Any, generation: int, colour: Any, scale: int) -> Callable[[Any], bool]:
        def progress(result: Any) -> bool:
            # In the search's thread: hand the numbers to the loop; a stale or stopped search ends.
            if generation != self.generation or self.closed or self._stop_asked == generation:
                return True
            loop.call_soon_threadsafe(self._show_progress, generation, self._thought(colour, result, scale))
            return False

        return progress

    def _show_progress(self, generation: int, thought: dict[str, Any]) -> None:
        if generation == self.generation and self.task is not None:
            self.thinking = thought
            self.notify()

    def _thought(self, colour: Any, result: Any, scale: int = 1) -> dict[str, Any]:
        """What a search found, for the page; ``scale``: :func:`evaluation_scale` of its player."""
        lang = self.options["lang"]
        score = describe_score(result, colour, self._name, MESSAGES[lang], self.ui.proven_margin, scale)
        nodes = int(getattr(result, "nodes", 0))
        elapsed = float(getattr(result, "elapsed", 0.0))
        return {
            "colour": int(colour),
            "depth": int(getattr(result, "depth", 0)),
            "iterations": int(getattr(result, "iterations", 0)),
            "score": score,
            "pv": _move_list([self.ui.move_text(m) for m in getattr(result, "pv", [])[:12]]),
            "nodes": nodes,
            "nps": int(nodes / elapsed) if elapsed > 0 else 0,
        }

    def close(self) -> None:
        self.closed = True
        self._moved()
        if self.task is not None:
            self.task.cancel()

    # -- the view ---------------------------------------------------------------------------

    def _name(self, colour: Any) -> str:
        return self.ui.colour_name(colour, self.options["lang"]).lower()

    def state(self) -> dict[str, Any]:
        """Everything the page draws, as JSON-able data."""
        if self._view is None or self._view[0] != self.generation:
            self._view = (self.generation, self._board_view())
        view = dict(self._view[1])
        view.update(
            version=self.version,
            thinking=self.thinking if self.task is not None else None,
            last_thought=self.last_thought,
            paused=self.paused,
            message=self.message,
            seats=self.seats,
            options=self.options,
        )
        return view

    def _board_view(self) -> dict[str, Any]:
        position, game, lang = self.position, self.game, self.options["lang"]
        cells = flat_cells(position)
        last = position.peek()
        flipped: list[int] = []
        if last is not None:
            before = position.copy()
            before.pop()
            flipped = [i for i, (a, b) in enumerate(zip(flat_cells(before), cells)) if a != b and a != -1]
        legal = [] if position.is_game_over() else position.legal_moves()
        board_moves = [m for m in legal if 0 <= m.index < len(cells)]
        scores = position.scores()
        fills = colour_fills(position)
        counted = self.ui.proven_margin
        outcome = position.outcome()
        result = None
        if outcome is not None:
            result = {
                "text": result_line(self.ui, outcome, lang, self._name),
                "winner": None if outcome.winner is None else int(outcome.winner),
                "termination": outcome.termination.value,
            }
        movers, trial = [], self.start.copy()
        for move in self.line:
            movers.append(int(trial.turn))
            trial.push(move)
        return {
            "id": self.id,
            "game": game,
            "game_number": self.game_number,
            "geometry": board_geometry(position),
            "cells": cells,
            "fills": {str(number): fill for number, fill in fills.items()},
            "colours": [
                # a count of pieces only where the count decides the game (not Tetralath's stones)
                {
                    "index": int(c),
                    "name": self._name(c),
                    "score": scores.get(c, 0) if counted else None,
                    "fill": fills[int(c)],
                }
                for c in self.colours
            ],
            "turn": None if outcome is not None else int(position.turn),
            "turn_name": None if outcome is not None else self._name(position.turn),
            "legal": [m.index for m in board_moves],
            "legal_names": [str(m) for m in board_moves],
            "special": [str(m) for m in legal if not 0 <= m.index < len(cells)],
            "names": [str(position.move_from_code(i)) for i in range(len(cells))],
            "last": None if last is None or not 0 <= last.index < len(cells) else last.index,
            "last_name": None if last is None else self.ui.move_text(last),
            "flipped": flipped,
            "ply": self.ply,
            "moves": [{"colour": c, "text": self.ui.move_text(m)} for c, m in zip(movers, self.line)],
            "result": result,
            "record": self.ui.format_record(position),
            "replay": self.replay,
            "engine_to_move": self._engine_to_move(),
            "players": list(seat_players(game)),
            # the board as the library draws it everywhere (gamecore.svg), with a target per cell
            "board_svg": self.board_svg(),
        }

    def board_svg(self, size: int = BOARD_PIXELS) -> str:
        """The position as :func:`gamecore.svg.board` draws it: last move, flips, legal moves,
        and a clickable target on each cell."""
        return str(board(self.position, size=size, flipped=True, clickable=True))
