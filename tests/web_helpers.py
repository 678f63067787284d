"""Shared by the web board's tests: tournament-like game records, and a real server."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager

from gamecore import Othello, Rolit, Tetralath
from gamecore.players import RandomPlayer
from gamecore.referee.db import ResultsDB

GAMES = {"othello": lambda: Othello(6), "rolit": Rolit, "tetralath": Tetralath}


def played_record(game: str, seed: int, key: str) -> tuple[dict, object]:
    """A finished random game as the referee records it, and its final position."""
    position = GAMES[game]()
    players = [RandomPlayer(seed + k) for k in range(position.num_players)]
    moves = []
    while not position.is_game_over():
        mover = position.player
        move = players[mover].choose_move(position)
        moves.append({"seat": mover, "move": str(move), "time": 0.01})
        position.push(move)
    names = [f"bot{k}" for k in range(position.num_players)]
    outcome = position.outcome()
    assert outcome is not None  # played to the end
    record = {
        "key": key,
        "game": game,
        "size": position.size,  # as the referee records it (Tetralath: 61)
        "players": names,
        "first": names[0],
        "moves": moves,
        "places": [0] * len(names),
        "score": [0] * len(names),
        "winner": None,
        "termination": outcome.termination.name.lower(),
        "reason": outcome.termination.value,
        "forfeits": [],
    }
    return record, position


def write_games_json(path, records) -> None:
    path.write_text(json.dumps(records), encoding="utf-8")


def write_database(path, records) -> None:
    db = ResultsDB(str(path))
    try:
        for ordinal, record in enumerate(records):
            db.add(ordinal, record)
    finally:
        db.close()


@contextmanager
def running_server(**options):
    """The web board on a free port of 127.0.0.1, in a thread: yields its base URL."""
    import uvicorn  # noqa: PLC0415 -- the optional extra, only where a test uses it

    from gamecore.web.app import create_app  # noqa: PLC0415 -- imports starlette (the extra)

    server = uvicorn.Server(uvicorn.Config(create_app(**options), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
