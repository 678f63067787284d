"""Fuzzing the public API (issue 10): random call sequences on every game and search.

Each example plays a random program on a position (Othello, Tetralath, Rolit with 2 to 4
players): moves (legal, illegal, malformed and other games' move objects), take-backs,
``play()``, copies, pickles, text round trips, the read-only calls of the position layer,
searches whose evaluation function re-enters the engine, changes its position, raises or
sleeps, Rolit's Max^n / paranoid / BRS searches, MCTS searches and exact solves. After every call:
no crash, every error is a gamecore error (or the evaluation's own exception passed
through), a call that failed left the position as it was, a move returned is legal.
A short run in the default suite; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import copy
import pickle
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamecore import Engine, Othello, Rolit, Tetralath, search, solve
from gamecore.errors import GamecoreError
from gamecore.games.base import Position
from gamecore.search.mcts import MCTS

GAMES: dict[str, Callable[[str], Position[Any]]] = {
    "othello4": lambda backend: Othello(4, backend=backend),
    "othello6": lambda backend: Othello(6, backend=backend),
    "tetralath": lambda backend: Tetralath(backend=backend),
    "rolit4": lambda backend: Rolit(backend=backend),
    "rolit3": lambda backend: Rolit("RYG", first="G", backend=backend),
    "rolit2": lambda backend: Rolit(players=2, compulsory_capture=False, tie_rule=False, backend=backend),
}
CALLBACKS = ("none", "reenter", "mutate", "raise", "sleep", "bad-value")
# Othello and Rolit share square names: a move object of another game or board size is foreign.
BAD_MOVES = (
    "z9",
    "²",
    "9" * 5000 + " 1",
    None,
    1.5,
    -3,
    10**30,
    "pass",
    (0, 99),
    True,
    "",
    "e5e5",
    Othello.Move("d3"),
    Othello.Move(0, size=4),
    Othello.Move("pass", size=6),
    Tetralath.Move(0),
    Rolit.Move(19),
)
MULTIPLAYER = ("maxn", "maxn-plain", "paranoid", "brs")


class Boom(Exception):
    """What the raising evaluation throws: it must come out of the search unchanged."""


actions = st.one_of(
    st.tuples(st.just("push"), st.integers(0, 200)),
    st.tuples(st.just("push-bad"), st.sampled_from(BAD_MOVES)),
    st.tuples(st.just("pop"), st.just(0)),
    st.tuples(st.just("search"), st.tuples(st.integers(1, 3), st.sampled_from(CALLBACKS))),
    st.tuples(st.just("search-limits"), st.sampled_from([0, -1, float("inf"), float("nan"), 2**64, "3", None])),
    st.tuples(st.just("msearch"), st.tuples(st.sampled_from(MULTIPLAYER), st.integers(1, 3), st.integers(0, 400))),
    st.tuples(st.just("mcts"), st.integers(1, 40)),
    st.tuples(st.just("play"), st.integers(0, 200)),
    st.tuples(st.just("inspect"), st.just(0)),
    st.tuples(st.just("text"), st.just(0)),
    st.tuples(st.just("solve"), st.integers(1, 2000)),
    st.tuples(st.just("copy"), st.sampled_from(["copy", "deepcopy", "pickle"])),
)


def snapshot(position):
    return position.to_text(), [str(m) for m in position.move_stack], position.zobrist_hash()


def inspect(position) -> None:
    """The read-only calls agree with each other (the position layer's and the game's)."""
    legal = position.legal_moves()
    stack = position.move_stack
    assert position.peek() == (stack[-1] if stack else None)
    assert position.is_game_over() == (position.outcome() is not None)
    assert position.is_game_over() == (not legal)
    assert position.result() == ("*" if legal else position.outcome().result())
    assert position.turn in type(position).Color
    assert all(position.is_legal(m) for m in legal)
    if stack:  # pop() gives back the last move; push() of it restores the position
        before = snapshot(position)
        move = position.pop()
        assert move == stack[-1]
        position.push(move)
        assert snapshot(position) == before


def make_callback(kind: str, holder: dict):
    def callback(p):
        if kind == "reenter":
            return holder["engine"].search(p, depth=1).score
        if kind == "mutate":
            if p.move_stack:
                p.pop()
            legal = p.legal_moves()
            if legal:
                p.push(legal[-1])
            return len(legal)
        if kind == "raise":
            raise Boom("evaluation failed")
        if kind == "sleep":
            time.sleep(0.0001)
            return 1
        if kind == "bad-value":
            return 2.5
        return len(p.legal_moves())

    return callback


def run_program(backend: str, game_name: str, program: list) -> None:
    position = GAMES[game_name](backend)
    mcts = MCTS(seed=1, max_nodes=500)
    result: Any  # a search's result, of whichever search ran
    for action, arg in program:
        before = snapshot(position)
        try:
            if action == "push":
                legal = position.legal_moves()
                if legal:
                    position.push(legal[arg % len(legal)])
                continue
            if action == "push-bad":
                position.push(arg)
                continue
            if action == "pop":
                if position.move_stack:
                    position.pop()
                else:
                    with pytest.raises(GamecoreError):
                        position.pop()
                continue
            if action == "play":
                legal = position.legal_moves()
                if legal:
                    child = position.play(legal[arg % len(legal)])
                    assert snapshot(position) == before
                    assert child.move_stack == position.move_stack + [legal[arg % len(legal)]]
                    child.pop()
                    assert snapshot(child) == before
                continue
            if action == "inspect":
                inspect(position)
                assert snapshot(position) == before
                continue
            if action == "text":
                board = type(position).from_text(position.to_text(), backend=backend)
                assert board.to_text() == position.to_text() and board.turn == position.turn
                continue
            if action == "copy":
                clone = {
                    "copy": copy.copy,
                    "deepcopy": copy.deepcopy,
                    "pickle": lambda p: pickle.loads(pickle.dumps(p)),
                }[arg](position)
                assert snapshot(clone) == before
                if clone.legal_moves():
                    clone.push(clone.legal_moves()[0])
                assert snapshot(position) == before
                continue
            if action == "search":
                depth, kind = arg
                holder: dict = {}
                engine = holder["engine"] = Engine(make_callback(kind, holder), tt_mb=1)
                result = engine.search(position, depth=depth)
            elif action == "search-limits":
                result = Engine(tt_mb=1).search(position, depth=2, nodes=arg)
            elif action == "msearch":
                algorithm, depth, nodes = arg
                result = search(position, algorithm=algorithm, depth=depth, nodes=nodes or None, tt_mb=1)
            elif action == "mcts":
                result = mcts.search(position, iterations=arg)
            else:
                if not isinstance(position, Othello):
                    continue
                result = solve(position, nodes=arg)
                if not result.completed:
                    assert result.move is None
                    continue
        except Boom:
            assert snapshot(position) == before
            continue
        except GamecoreError:
            assert snapshot(position) == before
            continue
        assert snapshot(position) == before
        legal = position.legal_moves()
        if legal:
            assert result.move in legal, (action, arg, result)
        else:
            assert result.move is None


program_strategy = st.lists(actions, min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_name=st.sampled_from(sorted(GAMES)), program=program_strategy)
def test_random_call_sequences(backend, game_name, program):
    run_program(backend.name, game_name, program)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_name=st.sampled_from(sorted(GAMES)), program=st.lists(actions, min_size=1, max_size=40))
def test_random_call_sequences_long(backend, game_name, program):
    run_program(backend.name, game_name, program)
