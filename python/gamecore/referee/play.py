"""One game of a table of bots, each in its own sandboxed host: :func:`play_game`.

A task is a plain dict (picklable, JSON-able: it travels to Dask workers with the bots' files),
:class:`~gamecore.referee.rules.Task`: the game, its size and seed, a bot per seat, the
:class:`~gamecore.referee.rules.Rules` (limits) as a dict and the paths the bots must not see.
The :class:`~gamecore.referee.rules.GameRecord` it returns is what the database,
``games.json`` and the HTML replay hold.

Timing. A move is on time when its reply reaches the referee within ``time`` seconds of the
request, plus what is left of the bot's time bank (``bank``, seconds a game, spent by the
moves that go over ``time``), plus ``grace``: the grace absorbs the referee's own overhead
and the scheduler's jitter, it is not thinking time a bot should plan on. Start-up (loading
the bot, its imports, its constructor) has its own, longer limit ``startup``. A forced pass is
played by the referee without asking the bot.

Start-up. Every seat's host is started, sent ``start``, and all are awaited together under one
deadline (``startup`` seconds from the last host's start), so a bot that never answers cannot
eat into another seat's start-up. A bot whose submission was refused (see
:mod:`gamecore.referee.bots`) is never started: it forfeits with reason ``refused``.

The referee's own failures. A sandbox the referee cannot build (:class:`SandboxError` from
:class:`BotProcess`, or a host that reports ``{"type": "error", "reason": "setup"}`` before it
announced its sandbox with ``{"type": "sandboxed"}``, that is before any code of the bot ran)
is not the bot's doing: :func:`play_game` raises :class:`SandboxError` naming the game, and
no record is made. A ``setup`` error after the announcement can only be the bot's own
forgery: it forfeits (``protocol``).

In process. :func:`play_in_process` plays a task of built-in players only (gamecore's own
code, never a submission) through :func:`gamecore.runner.run_game`, with the seeds the hosts
would give them, and returns the same :class:`~gamecore.referee.rules.GameRecord`
(:func:`record_of_played`): what the runner's record holds, in the referee's words. Both
paths keep the runner's :class:`~gamecore.runner.PlayedGame` and store it through
:func:`record_of_played`.
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import GamecoreError
from ..games import Position
from ..players import make_player
from ..runner import MoveRecord as RunnerMove
from ..runner import PlayedGame, Seat, run_game, seat_letters
from .games import game_class, seat_scores, start_position
from .rules import DEFAULT_RULES, Forfeit, GameRecord, MoveRecord, MoveRequest, Rules, StartRequest, Task
from .sandbox import BotProcess, Limits, ReplyError, SandboxError

__all__ = ["play_game", "play_in_process", "record_of_played", "FORFEIT_REASONS"]

#: Why a bot can lose a game without finishing it, and what each means.
FORFEIT_REASONS = {
    "timeout": "no move within the time per move (+ bank + grace)",
    "startup_timeout": "not ready within the start-up limit",
    "load_error": "the bot could not be loaded or constructed",
    "crash": "the bot's process died or closed its channel",
    "exception": "the bot raised an exception",
    "exit": "the bot called sys.exit()",
    "memory": "the bot ran out of its memory cap",
    "bad_return": "the bot returned something that is not a move",
    "illegal_move": "the bot returned a move the rules forbid",
    "protocol": "the bot broke the JSON-lines protocol",
    "refused": "the submission breaks the rules for submissions (only regular files, within the limits)",
}


def _rules(task: Task) -> Rules:
    """The task's limits; what it leaves out is the default."""
    return Rules(**{**DEFAULT_RULES.as_dict(), **task["rules"]})  # type: ignore[arg-type]


def _limits(rules: Rules, moves_per_game: int) -> Limits:
    per_move = float(rules.time) + float(rules.grace)
    # The CPU cap is a backstop for a bot the clock could not stop: every second it may
    # legitimately use, plus 10 s of the host's own start-up.
    cpu = int(float(rules.startup) + float(rules.bank) + moves_per_game * per_move) + 10
    return Limits(memory_mb=int(rules.memory_mb), cpu_s=cpu, disk_mb=int(rules.disk_mb))


def _known(reason: object, default: str) -> str:
    """A reason a bot reported, if it is one of ours (a bot's reply is untrusted data)."""
    return reason if isinstance(reason, str) and reason in FORFEIT_REASONS else default


class _Forfeit(Exception):
    def __init__(self, seat: int, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.seat = seat
        self.reason = reason
        self.detail = detail


def _start(bots: list[BotProcess], task: Task, rules: Rules) -> list[_Forfeit | None]:
    """Send ``start`` to every seat, then await all of them under one deadline."""
    deadline = max(bot.started for bot in bots) + float(rules.startup)
    failures: list[_Forfeit | None] = [None] * len(bots)
    for seat, bot in enumerate(bots):
        start: StartRequest = {
            "type": "start",
            "game": task["game"],
            "size": task["size"],
            "seat": seat,
            "seats": len(bots),
            "time": float(rules.time),
            "seed": task["seed"] + seat,
        }
        try:
            bot.send(start)
        except ReplyError as exc:
            failures[seat] = _Forfeit(seat, exc.reason, exc.detail)
    for seat, bot in enumerate(bots):
        if failures[seat]:
            continue
        try:  # what is already in a pipe is read even once the deadline has passed
            reply = bot.receive(max(0.0, deadline - time.perf_counter()))
        except ReplyError as exc:
            reason = "startup_timeout" if exc.reason == "timeout" else exc.reason
            failures[seat] = _Forfeit(seat, reason, exc.detail)
            continue
        if reply.get("type") == "error" and reply.get("reason") == "setup" and not getattr(bot, "sandboxed", False):
            raise SandboxError(
                f"seat {seat}: the bot host could not build its sandbox: {str(reply.get('detail', ''))[-500:]}"
            )
        if reply.get("type") == "error":
            reason = _known(reply.get("reason"), "load_error" if reply.get("reason") != "setup" else "protocol")
            failures[seat] = _Forfeit(
                seat, "load_error" if reason == "exception" else reason, str(reply.get("detail", ""))[-2000:]
            )
        elif reply.get("type") != "ready":
            failures[seat] = _Forfeit(seat, "protocol", f"expected a ready reply, got {str(reply)[:120]}")
    return failures


def _ask(
    bot: BotProcess, seat: int, position: Position[Any], task: Task, rules: Rules, bank_left: float
) -> tuple[Any, float]:
    per_move = float(rules.time)
    grace = float(rules.grace)
    legal = position.legal_moves()
    request: MoveRequest = {
        "type": "move",
        "game": task["game"],
        "size": task["size"],
        "seat": seat,
        "turn": int(position.turn),
        "board": position.cells(),
        "legal": [m.name for m in legal],
        "history": [m.name for m in position.move_stack],
        "time": per_move,
        "bank": round(bank_left, 6),
    }
    bot.resume()  # frozen since its last reply (full isolation): its turn has come
    sent = time.perf_counter()
    try:
        bot.send(request)
        reply = bot.receive(per_move + bank_left + grace)
    except ReplyError as exc:
        raise _Forfeit(seat, exc.reason, exc.detail) from None
    finally:
        bot.pause()
    elapsed = time.perf_counter() - sent
    if elapsed > per_move + bank_left + grace:
        raise _Forfeit(seat, "timeout", f"the reply came after {elapsed:.3f} s")
    if reply.get("type") == "error":
        raise _Forfeit(seat, _known(reply.get("reason"), "exception"), str(reply.get("detail", ""))[-2000:])
    text = reply.get("move")
    if reply.get("type") != "move" or not isinstance(text, str):
        raise _Forfeit(
            seat, "bad_return" if reply.get("type") == "move" else "protocol", f"not a move: {str(reply)[:120]}"
        )
    try:
        move = position.parse_move(text)
    except ValueError as exc:
        raise _Forfeit(seat, "illegal_move", f"{text[:40]!r} is not a move here ({exc})") from None
    if move not in legal:
        raise _Forfeit(seat, "illegal_move", f"{move} is not legal here (legal: {' '.join(m.name for m in legal)})")
    return move, elapsed


def play_game(task: Task, *, on_move: Any = None) -> GameRecord:
    """Play one game of ``task`` and return its record (the bots are always killed).

    :raises SandboxError: the referee could not build a bot's sandbox (the message names the
        game); nothing of the game is to be stored.
    """
    size = task["size"]
    position = start_position(task["game"], size)
    seats = game_class(task["game"]).seats
    specs = task["bots"]
    if len(specs) != seats:
        raise GamecoreError(f"{task['game']} is played by {seats} bots, the task has {len(specs)}")
    rules = _rules(task)
    limits = _limits(rules, sum(len(row) for row in position.cells()))  # a move a cell at most (Tetralath: 61)
    started = time.time()
    bots: list[BotProcess] = []
    # The runner's record, as play_in_process keeps it: one MoveRecord a move, its wall time.
    played = PlayedGame(tuple(spec["name"] for spec in specs), position.to_text(), final=position)
    letters = seat_letters(position)
    forfeits: list[Forfeit] = []
    forfeits += [
        {"seat": seat, "reason": "refused", "detail": spec["refused"]}
        for seat, spec in enumerate(specs)
        if spec.get("refused")
    ]
    try:
        if not forfeits:
            for spec in specs:
                bots.append(BotProcess(spec, isolation=rules.isolation, limits=limits, hide=task.get("hide")))
            for failure in _start(bots, task, rules):
                if failure:
                    forfeits.append({"seat": failure.seat, "reason": failure.reason, "detail": failure.detail})
            for bot in bots:
                bot.pause()  # each bot runs again only on its own turn (_ask)
        banks = [float(rules.bank)] * seats
        while not forfeits and not position.is_game_over():
            seat = position.player  # the index in the order of play (a Rolit colour number need not be)
            legal = position.legal_moves()
            forced = len(legal) == 1 and legal[0].is_pass  # played without asking the bot
            if forced:
                move, elapsed = legal[0], 0.0
            else:
                try:
                    move, elapsed = _ask(bots[seat], seat, position, task, rules, banks[seat])
                except _Forfeit as failure:
                    forfeits.append({"seat": failure.seat, "reason": failure.reason, "detail": failure.detail})
                    break
                banks[seat] = max(0.0, banks[seat] - max(0.0, elapsed - float(rules.time)))
            played.moves.append(
                RunnerMove(len(played.codes), played.seats[seat], letters[seat], move.name, wall_seconds=elapsed)
            )
            played.codes.append(move.index)
            position.push(move)
            if on_move and not forced:
                on_move(_referee_move(played.moves[-1], letters))
    except SandboxError as exc:
        raise SandboxError(f"game {task['key']}: {exc}") from exc
    finally:
        printed = [bot.printed for bot in bots]
        for bot in bots:
            bot.close()
    played.outcome = position.outcome()
    return record_of_played(task, played, started, forfeits=forfeits, printed=printed)


def _referee_move(move: RunnerMove, letters: list[str]) -> MoveRecord:
    """A runner's move record in the referee's words: the seat, the move, its wall time."""
    return {"seat": letters.index(move.colour), "move": move.move, "time": round(move.wall_seconds, 4)}


def play_in_process(task: Task) -> GameRecord:
    """Play ``task`` in this process through :func:`gamecore.runner.run_game`: for built-in
    players only (``kind`` ``builtin``: gamecore's own code), each made as its host makes it
    (``make_player(spec, seed=task seed + seat)``) and given the time per move. A submission is
    never run here: a task with one raises :class:`~gamecore.errors.GamecoreError` before any
    move.
    """
    outside = [spec["name"] for spec in task["bots"] if spec.get("kind") != "builtin"]
    if outside:
        raise GamecoreError(f"only built-in players play in process; {', '.join(outside)} must run in a sandbox")
    position = start_position(task["game"], task["size"])
    seats = game_class(task["game"]).seats
    if len(task["bots"]) != seats:
        raise GamecoreError(f"{task['game']} is played by {seats} bots, the task has {len(task['bots'])}")
    budget = float(_rules(task).time)
    players = [make_player(spec["spec"], seed=task["seed"] + seat) for seat, spec in enumerate(task["bots"])]
    started = time.time()
    played = run_game(position, [_given(p, budget) for p in players], [spec["name"] for spec in task["bots"]])
    return record_of_played(task, played, started)


def _given(player: Any, budget: float) -> Seat:
    """A player's seat as its host serves it: given the time per move (``choose_move(position,
    time)``), never asked for a forced pass."""

    def choose(position: Any) -> tuple[Any, Any]:
        legal = position.legal_moves()
        if len(legal) == 1 and legal[0].is_pass:  # a forced pass: played without asking, as play_game does
            return legal[0], None
        return player.choose_move(position, budget), getattr(player, "last_result", None)

    return choose


def record_of_played(
    task: Task,
    played: PlayedGame,
    started: float | None = None,
    *,
    forfeits: list[Forfeit] | None = None,
    printed: list[int] | None = None,
) -> GameRecord:
    """The referee's record of a game played for ``task`` (its seats in order of play), from the
    runner's record (:class:`~gamecore.runner.PlayedGame`, stopped at its ``final`` position:
    over, or at the first forfeit), what both paths store: each played move with its seat and
    wall time; places, scores, winner and termination read from the position and the forfeits.
    ``forfeits`` are the sandboxed hosts' (a reason of :data:`FORFEIT_REASONS`); the runner's own
    forfeit is an ``illegal_move``. ``printed``: the characters each bot printed (0 in process)."""
    position = played.final
    letters = seat_letters(position)
    moves = [
        _referee_move(m, letters) for m in played.played[: len(played.codes)]
    ]  # a forfeiting answer was never played
    forfeits = list(forfeits or [])
    if played.forfeit is not None:
        seat, detail = played.forfeit
        forfeits.append({"seat": seat, "reason": "illegal_move", "detail": detail[-2000:]})
    printed = list(printed or [])
    if started is None:
        started = time.time()
    seats = game_class(task["game"]).seats
    names = [spec["name"] for spec in task["bots"]]
    if forfeits:
        lost = {f["seat"] for f in forfeits}
        places = [1 if seat in lost else 0 for seat in range(seats)]
        termination = "forfeit"
        reason = forfeits[0]["reason"]
    else:
        places = position.places()
        termination = "normal"
        outcome = position.outcome()
        assert outcome is not None  # the loop ends at the end of the game
        reason = outcome.termination.value
    winners = [names[s] for s in range(seats) if places[s] == 0 and places.count(0) < seats]
    for f in forfeits:
        f["player"] = names[f["seat"]]
    return {
        "key": task["key"],
        "game": task["game"],
        "size": task["size"],
        "players": names,
        "first": names[0],
        "moves": moves,
        "places": places,
        "score": seat_scores(position),
        "winner": winners[0] if len(winners) == 1 else None,
        "termination": termination,
        "reason": reason,
        "forfeits": forfeits,
        "printed": printed + [0] * (seats - len(printed)),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "duration": round(time.time() - started, 3),
    }
