"""The NBoard protocol: gamecore as an engine for the NBoard GUI, and any NBoard engine
(Edax, gamecore itself...) as a gamecore player.

The protocol is lines of text. The GUI sends ``nboard VERSION``, ``set depth N``,
``set game GGF`` (the game so far, a GGF record), ``set contempt N``, ``move SQUARE[/EVAL/TIME]``
(``PA`` a pass), ``go`` (play a move), ``hint N`` (the N best moves with their values),
``ping N``, ``learn`` and ``quit``. The engine answers ``set myname NAME``, ``pong N``,
``status TEXT`` while it works, ``nodestats NODES SECONDS``, ``=== SQUARE/EVAL/TIME`` for its
move and, for hints, ``search PV EVAL 0 DEPTH`` lines, a value a legal move, best first.
Values are discs for the side to move (an exact margin once the engine sees the end).

``gamecore nboard`` runs :func:`serve` on standard input and output; ``nboard:CMD ARGS`` in
a player spec (``make_player("nboard:edax -nboard")``) is :class:`NBoardPlayer`.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, TextIO

from .archive import ArchiveError, ArchiveGame, read_ggf, write_ggf
from .errors import GamecoreError, GameOverError, InvalidOptionError, NBoardError
from .games.othello import Othello
from .players.base import Player
from .search.engine import Engine

__all__ = ["serve", "NBoardEngine", "NBoardPlayer", "game_record"]

NAME = "gamecore"
#: Evaluation units of a disc in gamecore's Othello evaluations.
UNITS_PER_DISC = 100


def _discs(score: int, exact: bool) -> str:
    value = score if exact else score / UNITS_PER_DISC
    return f"{value:+.2f}"


def game_record(position: Othello) -> str:
    """The GGF record of ``position``'s game: its starting board and every move played."""
    start = position.copy()
    played = []
    while start.move_stack:
        played.append(start.pop())
    names = tuple(move.name for move in reversed(played) if not move.is_pass)
    text = start.to_text()
    game = ArchiveGame(moves=names, size=position.size, start=None if start == Othello(start.size) else text)
    return write_ggf(game)


class NBoardEngine:
    """gamecore's side of the protocol: one command line in, its answer lines to ``send``
    (status lines as the search goes, not at its end)."""

    def __init__(
        self, send: Callable[[str], Any], *, depth: int = 12, time_limit: float = 5.0, backend: str | None = None
    ) -> None:
        self.send = send
        self.depth, self.time_limit, self.backend = depth, time_limit, backend
        self.contempt = 0
        self.position = Othello(backend=backend)
        self.engine = Engine()

    def handle(self, line: str) -> bool:
        """Carry out one command and send its answer; ``False`` once told to quit.

        :raises NBoardError: a command that cannot be read or carried out (the caller
            reports it and goes on, as the protocol asks).
        """
        command, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if command == "quit":
            return False
        if command == "nboard":
            self.send(f"set myname {NAME}")
        elif command == "ping":
            self.send(f"pong {rest}")
        elif command == "set":
            self._set(rest)
        elif command == "move":
            self._move(rest)
        elif command == "go":
            self._go()
        elif command == "hint":
            self._hint(_number(rest, "hint", 1, 64))
        elif command == "learn":
            self.send(f"status {NAME} keeps no book: nothing learned")
        elif command:
            raise NBoardError(f"unknown command {command!r}")
        return True

    def _set(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        if key == "depth":
            self.depth = _number(value, "set depth", 1, 60)
            self.send(f"set myname {NAME}")
        elif key == "contempt":
            self.contempt = _number(value, "set contempt", -6400, 6400)
            self.send(f"status contempt {self.contempt} noted: gamecore's search does not use it")
        elif key == "game":
            try:
                [game] = read_ggf(value.strip())
                self.position = game.replay(backend=self.backend)
                if not self.position.is_game_over() and self.position.legal_moves()[0].is_pass:
                    self.position.push("pass")  # the record's last pass, which the reader leaves out
            except (ArchiveError, ValueError) as exc:
                raise NBoardError(f"set game: {exc}") from exc
        else:
            raise NBoardError(f"unknown setting {key!r}")

    def _move(self, text: str) -> None:
        square = text.split("/", 1)[0].strip().lower()
        try:
            self.position.push("pass" if square == "pa" else square)
        except GamecoreError as exc:
            raise NBoardError(f"move {text}: {exc}") from exc

    def _status(self, found: Any) -> None:
        """A status line after each finished depth, while the search goes on."""
        if found.move is not None:
            self.send(f"status depth {found.depth}: {found.move.name.upper()} {_discs(found.score, found.exact)}")

    def _go(self) -> None:
        if self.position.is_game_over():
            raise NBoardError("go: the game is over")
        self.send(f"status {NAME} is thinking")
        start = time.perf_counter()
        result = self.engine.search(self.position, depth=self.depth, time_limit=self.time_limit, progress=self._status)
        elapsed = time.perf_counter() - start
        move = result.move
        assert move is not None  # the game is not over
        name = "PA" if move.is_pass else move.name.upper()
        self.send(f"nodestats {result.nodes} {elapsed:.2f}")
        self.send(f"=== {name}/{_discs(result.score, result.exact)}/{elapsed:.2f}")
        self.send("status")

    def _hint(self, count: int) -> None:
        if self.position.is_game_over():
            self.send("status the game is over")
            return
        self.send(f"status {NAME} is thinking")
        moves = self.position.legal_moves()
        budget = self.time_limit / len(moves)
        found = []
        for move in moves:  # each move searched alone: its own value, its own line
            result = self.engine.search(self.position, depth=self.depth, time_limit=budget, moves=[move])
            found.append((result, move))
        found.sort(key=lambda pair: -pair[0].score)
        for result, move in found[:count]:
            pv = "".join("PA" if m.is_pass else m.name.upper() for m in result.pv or [move])
            depth = "100%" if result.exact else str(result.depth)
            self.send(f"search {pv} {_discs(result.score, result.exact)} 0 {depth}")
        self.send("status")


def _number(text: str, what: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise NBoardError(f"{what}: {text!r} is not a whole number") from None
    if not low <= value <= high:
        raise NBoardError(f"{what}: {value} is not in {low}..{high}")
    return value


def serve(stdin: TextIO, out: TextIO, *, depth: int = 12, time_limit: float = 5.0, err: TextIO | None = None) -> int:
    """Answer NBoard commands from ``stdin`` on ``out`` until ``quit`` or the end of input;
    a command that fails is reported on ``err`` (standard error) and the engine goes on."""
    err = sys.stderr if err is None else err

    def send(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    engine = NBoardEngine(send, depth=depth, time_limit=time_limit)
    for line in stdin:
        try:
            if not engine.handle(line):
                break
        except NBoardError as exc:
            print(f"{NAME} nboard: {exc}", file=err, flush=True)
    return 0


# -- an NBoard engine as a gamecore player ------------------------------------------------


class NBoardPlayer(Player):
    """A player that asks an NBoard engine, run as a subprocess, for each move.

    ``command`` is the engine's command line (``"edax -nboard"``, ``"gamecore nboard"``);
    ``depth``, when given, is sent as ``set depth`` (else the engine keeps its own). Each move waits at most the move's time budget (or
    ``time`` seconds) plus ``grace``: an engine that says nothing by then, that exits, or that
    answers with an illegal move is stopped and :class:`~gamecore.errors.NBoardError` raised;
    the next move starts it again. :meth:`close` (also at exit) ends it: ``quit``, then a kill.
    """

    name = "nboard"

    def __init__(self, command: str, *, depth: int | None = None, time: float = 5.0, grace: float = 2.0) -> None:
        words = shlex.split(command)
        if not words:
            raise InvalidOptionError("nboard: give the engine's command, as in 'nboard:edax -nboard'")
        self.command, self.words = command, words
        self.depth, self.time, self.grace = depth, time, grace
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ping = 0
        self.engine_name = ""

    def __repr__(self) -> str:
        return f"NBoardPlayer({self.command!r})"

    # the subprocess ------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        try:
            process = subprocess.Popen(
                self.words,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise NBoardError(f"cannot start the engine {self.command!r}: {exc.strerror or exc}") from exc
        self._process, self._lines = process, queue.Queue()
        threading.Thread(target=_read_lines, args=(process.stdout, self._lines), daemon=True).start()
        self._finalizer = weakref.finalize(self, _stop, process)
        self._send("nboard 2" if self.depth is None else f"nboard 2\nset depth {self.depth}")
        self._sync(self.time + self.grace)
        return process

    def _send(self, text: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(text + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self.close()
            raise NBoardError(f"the engine {self.command!r} stopped reading: {exc}") from exc

    def _read(self, deadline: float) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.close()
            raise NBoardError(f"the engine {self.command!r} did not answer in time") from None
        if line is None:
            self.close()
            raise NBoardError(f"the engine {self.command!r} exited")
        return line

    def _sync(self, seconds: float) -> None:
        """Ping and read up to the pong: the engine has read all that came before."""
        self._ping += 1
        self._send(f"ping {self._ping}")
        deadline = time.monotonic() + seconds
        while True:
            line = self._read(deadline)
            if line.startswith("set myname "):
                self.engine_name = line[len("set myname ") :].strip()
            if line.strip() == f"pong {self._ping}":
                return

    def close(self) -> None:
        """Stop the engine: ``quit``, a second to go, then killed."""
        process, self._process = self._process, None
        if process is not None:
            _stop(process)

    # the player ------------------------------------------------------------------------

    def new_game(self) -> None:
        """Nothing to forget: each move sends the whole game."""

    def choose_move(self, position: Any, time_budget: float | None = None) -> Any:
        if not isinstance(position, Othello):
            raise InvalidOptionError("an NBoard engine plays Othello only")
        legal = position.legal_moves()
        if not legal:
            raise GameOverError("the game is over: there is no move to choose")
        if legal[0].is_pass:  # a forced pass is not the engine's to choose (nor asked, by NBoard's GUI)
            return legal[0]
        seconds = (time_budget if time_budget is not None else self.time) + self.grace
        self._start()
        self._send(f"set game {game_record(position)}")
        self._sync(seconds)
        self._send("go")
        deadline = time.monotonic() + seconds
        while True:
            line = self._read(deadline)
            if line.startswith("==="):
                break
        text = line[3:].strip().split()[0] if line[3:].strip() else ""
        square = text.split("/", 1)[0].lower()
        try:
            move = position.parse_move("pass" if square == "pa" else square)
            if move not in position.legal_moves():
                raise NBoardError(f"{square!r} is not a legal move here")
        except (GamecoreError, NBoardError) as exc:
            self.close()
            raise NBoardError(f"the engine {self.command!r} answered {line.strip()!r}: {exc}") from exc
        return move


def _read_lines(stream: Any, lines: queue.Queue[str | None]) -> None:
    """Copy an engine's output lines into a queue, ``None`` at its end (a thread of its own)."""
    with contextlib.suppress(ValueError, OSError):
        for line in stream:
            lines.put(line.rstrip("\n"))
    lines.put(None)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(OSError, ValueError):
        assert process.stdin is not None
        process.stdin.write("quit\n")
        process.stdin.flush()
        process.stdin.close()
    try:
        process.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
