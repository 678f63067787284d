"""``gamecore tournament check player.py``: the compliance check a student runs before submitting.

It loads the bot exactly as the tournament does (same host, same sandbox, same limits), plays
a game in each seat against the built-in random player (Rolit: against three of them, the
bot red, then blue, yellow and green), and says in plain words what would forfeit a match
(and what merely deserves a warning, like printing).
"""

from __future__ import annotations

import time
from typing import TextIO

from ..errors import GamecoreError
from .bots import MAX_BYTES, MAX_FILES, printable, resolve
from .games import game_class, start_position
from .play import FORFEIT_REASONS, play_game
from .rules import DEFAULT_RULES, BotSpec, Rules, Task
from .sandbox import SandboxError, isolation_for

__all__ = ["check_bot"]

_ADVICE = {
    "timeout": "answer within the time per move (measure your search, keep a margin for the grace)",
    "startup_timeout": "load faster: do heavy set-up lazily or keep imports light",
    "load_error": "the file must load and MyPlayer(my_color, opponent_color) must construct (8x8; "
    "other sizes pass board_size third when the constructor takes it)",
    "crash": "do not exit the process or kill it; catch your own errors",
    "exception": "move() raised: see the traceback",
    "exit": "never call sys.exit()/exit() inside the bot",
    "memory": "stay under the memory cap",
    "bad_return": "return a tuple of two ints (row, col), or None only when you have no move",
    "illegal_move": "return only legal moves",
    "protocol": "speak the JSON-lines protocol exactly",
    "refused": "submit regular files only (no links, devices or FIFOs), within the size and file-count limits",
}


def check_bot(
    path: str,
    *,
    game: str = "othello",
    size: int | None = None,
    time_limit: float = DEFAULT_RULES.time,
    grace: float = DEFAULT_RULES.grace,
    startup: float = DEFAULT_RULES.startup,
    games: int | None = None,
    isolation: str = DEFAULT_RULES.isolation,
    memory_mb: int = DEFAULT_RULES.memory_mb,
    max_bytes: int = MAX_BYTES,
    max_files: int = MAX_FILES,
    out: TextIO,
) -> int:
    """Run the check; print the verdict to ``out``. Returns 0 when nothing would forfeit, else 1.

    ``games``: how many to play (default one in each seat); game ``g`` seats the bot at ``g``
    modulo the number of seats, the random player in the others."""
    rules = game_class(game)
    games = rules.seats if games is None else games
    size = size if size is not None else rules.tournament_sizes[len(rules.tournament_sizes) // 2]
    start_position(game, size)  # a size the game is not played on: one clear error now
    bot = resolve(path, game, max_bytes=max_bytes, max_files=max_files)
    opponent = resolve("random", game)
    isolation_for(isolation, [bot], out)
    print(
        f"Checking {bot['name']} ({bot['kind']} bot) at {game} {size}, {time_limit:g} s a move "
        f"(+{grace:g} s grace), start-up limit {startup:g} s.",
        file=out,
    )
    problems, warnings = [], []
    slowest = 0.0
    sides = _seat_names(game, size)
    against = "random" if rules.seats == 2 else f"{rules.seats - 1} random players"
    limits = Rules(time_limit, grace, startup, isolation=isolation, memory_mb=memory_mb).as_dict()
    for g in range(games):
        seat = g % rules.seats
        seats = [bot if k == seat else BotSpec({**opponent, "name": f"random{k + 1}"}) for k in range(rules.seats)]
        task: Task = {
            "key": f"check/{size}/g{g}",
            "game": game,
            "size": size,
            "seed": g,
            "bots": seats,
            "rules": limits,
        }
        start = time.perf_counter()
        try:
            record = play_game(task)
        except SandboxError as exc:
            raise GamecoreError(f"the referee could not build a bot's sandbox, {exc}") from None
        mine = [m for m in record["moves"] if m["seat"] == seat and m["move"] != "pass"]
        slowest = max([slowest] + [m["time"] for m in mine])
        side = sides[seat]
        for f in record["forfeits"]:
            if f["seat"] == seat:
                problems.append((f["reason"], f["detail"], side))
        if record["printed"][seat]:
            warnings.append(
                f"it printed {record['printed'][seat]} characters in the game as {side} player; "
                "prints are thrown away (they cannot hurt you, but they cost time)"
            )
        outcome = (
            "forfeited"
            if any(f["seat"] == seat for f in record["forfeits"])
            else ("won" if record["winner"] == bot["name"] else "drew" if record["winner"] is None else "lost")
        )
        print(
            f"  game {g + 1} ({side}): {len(mine)} moves, {outcome} against {against} "
            f"[{time.perf_counter() - start:.1f} s]",
            file=out,
        )
    if slowest > 0.8 * time_limit:
        warnings.append(
            f"its slowest move took {slowest:.2f} s of the {time_limit:g} s limit: a loaded machine could make it late"
        )
    for w in warnings:
        print(f"WARNING: {w}", file=out)
    if not problems:
        print(f"OK: nothing would forfeit (slowest move {slowest:.3f} s).", file=out)
        return 0
    for reason, detail, side in problems:
        # the last line of the bot's own words (its exception): printed, never obeyed by the terminal
        said = printable(detail.strip().split("\n")[-1])
        print(f"FORFEIT ({reason}: {FORFEIT_REASONS.get(reason, reason)}) as {side} player: {said}", file=out)
        print(f"  fix: {_ADVICE.get(reason, '')}", file=out)
    return 1


def _seat_names(game: str, size: int) -> list[str]:
    """How the verdict names each seat: first and second, or the colour (Rolit's red ... green)."""
    position = start_position(game, size)
    if position.num_players == 2:
        return ["first", "second"]
    return [str(colour) for colour in position.scores()]
