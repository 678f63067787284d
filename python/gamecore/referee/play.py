"""One game of a table of bots, each in its own sandboxed host: :func:`play_game`.

A task is a plain dict (picklable, JSON-able: it travels to Dask workers with the bots' files)::

    {"key": "othello/6/0-1/g0", "game": "othello", "size": 6, "seed": 123,
     "bots": [bot_seat0, bot_seat1],          # see gamecore.referee.bots
     "rules": {"time": 5.0, "grace": 0.5, "startup": 20.0, "bank": 0.0,
               "isolation": "auto", "memory_mb": 1024, "disk_mb": 64},
     "hide": [paths the bots must not see]}

The record it returns is what the database, ``games.json`` and the HTML replay hold.

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
"""

from __future__ import annotations

import time
from typing import Any

from .games import rules_for
from .sandbox import BotProcess, Limits, ReplyError, SandboxError

__all__ = ["play_game", "FORFEIT_REASONS"]

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


def _limits(rules: dict, moves_per_game: int) -> Limits:
    per_move = float(rules["time"]) + float(rules.get("grace", 0.5))
    cpu = int(float(rules.get("startup", 20.0)) + float(rules.get("bank", 0.0)) + moves_per_game * per_move) + 10
    return Limits(memory_mb=int(rules.get("memory_mb", 1024)), cpu_s=cpu, disk_mb=int(rules.get("disk_mb", 64)))


def _known(reason: object, default: str) -> str:
    """A reason a bot reported, if it is one of ours (a bot's reply is untrusted data)."""
    return reason if isinstance(reason, str) and reason in FORFEIT_REASONS else default


class _Forfeit(Exception):
    def __init__(self, seat: int, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.seat = seat
        self.reason = reason
        self.detail = detail


def _start(bots: list[BotProcess], task: dict) -> list[_Forfeit | None]:
    """Send ``start`` to every seat, then await all of them under one deadline."""
    rules = task["rules"]
    deadline = max(bot.started for bot in bots) + float(rules.get("startup", 20.0))
    failures: list[_Forfeit | None] = [None] * len(bots)
    for seat, bot in enumerate(bots):
        try:
            bot.send(
                {
                    "type": "start",
                    "game": task["game"],
                    "size": task["size"],
                    "seat": seat,
                    "seats": len(bots),
                    "time": float(rules["time"]),
                    "seed": task["seed"] + seat,
                }
            )
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


def _ask(bot: BotProcess, seat: int, position: Any, task: dict, bank_left: float) -> tuple[Any, float]:
    rules = task["rules"]
    per_move = float(rules["time"])
    grace = float(rules.get("grace", 0.5))
    legal = position.legal_moves()
    request = {
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


def play_game(task: dict, *, on_move: Any = None) -> dict:
    """Play one game of ``task`` and return its record (the bots are always killed).

    :raises SandboxError: the referee could not build a bot's sandbox (the message names the
        game); nothing of the game is to be stored.
    """
    rules_of_game = rules_for(task["game"])
    size = rules_of_game.check_size(task["size"])
    position = rules_of_game.new(size)
    seats = rules_of_game.seats
    specs = task["bots"]
    if len(specs) != seats:
        raise ValueError(f"{task['game']} is played by {seats} bots, the task has {len(specs)}")
    rules = task["rules"]
    limits = _limits(rules, len(position.cells()) * len(position.cells()[0]))
    started = time.time()
    bots: list[BotProcess] = []
    moves: list[dict] = []
    forfeits: list[dict] = []
    forfeits += [
        {"seat": seat, "reason": "refused", "detail": spec["refused"]}
        for seat, spec in enumerate(specs)
        if spec.get("refused")
    ]
    try:
        if not forfeits:
            for spec in specs:
                bots.append(
                    BotProcess(spec, isolation=rules.get("isolation", "auto"), limits=limits, hide=task.get("hide"))
                )
            for failure in _start(bots, task):
                if failure:
                    forfeits.append({"seat": failure.seat, "reason": failure.reason, "detail": failure.detail})
            for bot in bots:
                bot.pause()  # each bot runs again only on its own turn (_ask)
        banks = [float(rules.get("bank", 0.0))] * seats
        while not forfeits and not position.is_game_over():
            seat = position.player  # the index in the order of play (a Rolit colour number need not be)
            legal = position.legal_moves()
            if len(legal) == 1 and getattr(legal[0], "is_pass", False):
                position.push(legal[0])
                moves.append({"seat": seat, "move": legal[0].name, "time": 0.0})
                continue
            try:
                move, elapsed = _ask(bots[seat], seat, position, task, banks[seat])
            except _Forfeit as failure:
                forfeits.append({"seat": failure.seat, "reason": failure.reason, "detail": failure.detail})
                break
            banks[seat] = max(0.0, banks[seat] - max(0.0, elapsed - float(rules["time"])))
            position.push(move)
            moves.append({"seat": seat, "move": move.name, "time": round(elapsed, 4)})
            if on_move:
                on_move(moves[-1])
    except SandboxError as exc:
        raise SandboxError(f"game {task['key']}: {exc}") from exc
    finally:
        printed = [bot.printed for bot in bots]
        for bot in bots:
            bot.close()
    names = [spec["name"] for spec in specs]
    if forfeits:
        lost = {f["seat"] for f in forfeits}
        places = [1 if seat in lost else 0 for seat in range(seats)]
        termination = "forfeit"
        reason = forfeits[0]["reason"]
    else:
        places = rules_of_game.places(position)
        termination = "normal"
        outcome = position.outcome()
        ended = getattr(outcome, "termination", None)
        reason = getattr(outcome, "reason", None) or getattr(ended, "value", None) or "neither side can move"
    winners = [names[s] for s in range(seats) if places[s] == 0 and places.count(0) < seats]
    for f in forfeits:
        f["player"] = names[f["seat"]]
    return {
        "key": task["key"],
        "game": task["game"],
        "size": size,
        "players": names,
        "first": names[0],
        "moves": moves,
        "places": places,
        "score": rules_of_game.score(position),
        "winner": winners[0] if len(winners) == 1 else None,
        "termination": termination,
        "reason": reason,
        "forfeits": forfeits,
        "printed": printed + [0] * (seats - len(printed)),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "duration": round(time.time() - started, 3),
    }
