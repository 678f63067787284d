"""The public positions' hot methods (``games/_position_py.py`` and its compiled twin).

``legal_moves()``, ``push()``, ``pop()``, ``play()``, ``copy()``, ``is_game_over()``,
``peek()`` and ``move_stack`` take a fast path for the game's interned move objects; the
checks here compare it with the slow path (the core's own move codes, fresh move objects,
``parse_move`` then the core's checked ``push``) along random games of every game, on both
cores, and compare the pure and the compiled ``PositionBase`` in child processes.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import gamecore
from gamecore import Othello, Tetralath, _backend
from gamecore.errors import GamecoreError
from gamecore.games.othello import Move
from gamecore.games.rolit import Rolit, RolitMove
from gamecore.games.tetralath import TetralathMove

PACKAGE_PARENT = str(Path(gamecore.__file__).resolve().parent.parent)


def fresh_move(position, code):
    """The move of ``code`` built anew (not the interned object)."""
    if isinstance(position, Othello):
        return Move(code, position.size)
    if isinstance(position, Tetralath):
        return TetralathMove(code)
    return RolitMove(code)


def positions(name):
    return {
        "othello4": lambda b: Othello(4, backend=b),
        "othello6": lambda b: Othello(6, backend=b),
        "othello8": lambda b: Othello(8, backend=b),
        "othello10": lambda b: Othello(10, backend=b),
        "tetralath": lambda b: Tetralath(backend=b),
        "rolit2": lambda b: Rolit("RG", backend=b),
        "rolit4": lambda b: Rolit(backend=b),
    }[name]


GAMES = ["othello4", "othello6", "othello8", "othello10", "tetralath", "rolit2", "rolit4"]


def state(position):
    return position.zobrist_hash(), position.core.history(), position.is_game_over()


@pytest.mark.parametrize("game", GAMES)
def test_fast_path_matches_the_core_along_random_games(backend, game):
    rng = random.Random(f"{game}-{backend.name}")
    for _ in range(3):
        position = positions(game)(backend.name)
        while True:
            codes = position.core.legal_moves()
            moves = position.legal_moves()
            assert [m.index for m in moves] == codes
            assert moves == [fresh_move(position, c) for c in codes]
            assert all(m is position.move_from_code(c) for m, c in zip(moves, codes))  # interned
            assert position.legal_moves() is not moves  # a new list each call
            assert position.is_game_over() == position.core.is_game_over() == (not moves)
            if not moves:
                break
            move = rng.choice(moves)
            # Every form of the move gives the same position: interned, fresh, text.
            children = [position.play(move)]
            for form in (fresh_move(position, move.index), str(move)):
                child = position.copy()
                child.push(form)
                children.append(child)
            assert len({repr(state(child)) for child in children}) == 1
            assert position.core.history() == children[0].core.history()[:-1]  # play left it alone
            assert children[0].peek() is move
            assert children[0].move_stack[-1] is move
            position.push(move)
            assert state(position) == state(children[0])
        # Undo everything: pop hands back the interned objects, newest first.
        stack = position.move_stack
        popped = [position.pop() for _ in stack]
        assert popped == stack[::-1]
        assert all(a is b for a, b in zip(popped, stack[::-1]))
        assert position.peek() is None and position.move_stack == []


def slow_push(position, move):
    """What ``push`` did before the fast path: parse, then the core's checked push."""
    position.core.push(position.parse_move(move).index)


def outcome_of(action, position, move):
    before = state(position)
    try:
        action(position, move)
    except GamecoreError as exc:
        assert state(position) == before, "nothing changes on error"
        return type(exc), str(exc)
    return None, state(position)


def bad_moves(position):
    """Moves that are illegal or unreadable here, interned or not."""
    legal = set(position.core.legal_moves())
    table = position._interned_moves()
    illegal = [m for m in table if m.index not in legal][:6]
    out = illegal + [fresh_move(position, m.index) for m in illegal[:2]]
    out += [None, True, 3.0, "zz9", (99, 99), 10**6, -5, "", object()]
    if isinstance(position, Othello):
        other = 6 if position.size == 8 else 8
        out += [Move(19, other), Move(-1, other), Move(-1, position.size), "pass"]
    if isinstance(position, Tetralath):
        out += [TetralathMove(61), "swap", 62]  # a TetralathMove(62) cannot be built
    if isinstance(position, Rolit):
        out += ["pass", "4 9", (8, 0), 64]  # a RolitMove(64) cannot be built
    return out


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_raises_what_the_slow_path_raises_and_changes_nothing(backend, game):
    rng = random.Random(game)
    position = positions(game)(backend.name)
    for ply in range(200):
        for move in bad_moves(position):
            fast = outcome_of(lambda p, m: p.push(m), position.copy(), move)
            slow = outcome_of(slow_push, position.copy(), move)
            assert fast == slow, (ply, move)
            if fast[0] is None:  # legal after all (e.g. a forced pass): both played it
                continue
            same = position.copy()
            with pytest.raises(fast[0]):
                same.play(move)
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))
    # After the end: every move is refused the same way.
    for move in position._interned_moves()[:3]:
        assert outcome_of(lambda p, m: p.push(m), position.copy(), move) == outcome_of(slow_push, position.copy(), move)
    empty = positions(game)(backend.name)
    with pytest.raises(GamecoreError) as fast_error:
        empty.pop()
    with pytest.raises(GamecoreError) as slow_error:
        empty.core.pop()
    assert (type(fast_error.value), str(fast_error.value)) == (type(slow_error.value), str(slow_error.value))


def test_forced_pass_goes_through_the_fast_path(backend):
    # Black's only empty square, d4, flips nothing for black but c3-b2 for white: black passes.
    position = Othello.from_text("OOOO" + "OXXO" + "OXXO" + "OOO- X", backend=backend.name)
    assert position.core.legal_moves() == [-1]
    (move,) = position.legal_moves()
    assert move.is_pass and move is position.move_from_code(-1) and move == Move(-1, 4)
    for form in (move, Move(-1, 4), "pass"):
        position.push(form)
        assert position.pop() is move
    with pytest.raises(GamecoreError) as error:
        position.push(Move(-1, 8))  # a pass of another board size
    assert "8x8" in str(error.value)


def test_copies_share_no_state(backend):
    game = Othello(backend=backend.name)
    game.push("d3")
    for twin in (game.copy(), copy.copy(game), copy.deepcopy(game), game.play("c3")):
        assert type(twin) is Othello and twin.backend == backend.name
        twin.push(twin.legal_moves()[0])
        assert game.move_stack == [Move(19)]


SESSION = """
import json
from gamecore import Othello, Tetralath
from gamecore.games.rolit import Rolit
from gamecore.games.base import Position
out = {"base": Position.__mro__[1].__module__}
for backend in ("python", "cython") if {cython} else ("python",):
    log = []
    for make in (lambda: Othello(6, backend=backend), lambda: Tetralath(backend=backend),
                 lambda: Rolit("RGB", backend=backend)):
        game = make()
        for step in range(30):
            moves = game.legal_moves()
            log.append([repr(m) for m in moves] + [game.is_game_over(), repr(game.peek())])
            for bad in (None, "zz", moves[0] if moves else None, 10**3):
                try:
                    game.copy().push(bad)
                    log.append("played")
                except Exception as exc:
                    log.append([type(exc).__name__, str(exc)])
            if not moves:
                break
            game = game.play(moves[(step * 7) % len(moves)]) if step % 2 else game
            if step % 2 == 0:
                game.push(moves[(step * 5) % len(moves)])
        log.append([repr(m) for m in game.move_stack] + [repr(game.pop())])
    out[backend] = log
print(json.dumps(out))
"""


def run_session(selection: str, cython: bool) -> dict:
    env = dict(os.environ, GAMECORE_BACKEND=selection)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    script = textwrap.dedent(SESSION).replace("{cython}", str(cython))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_pure_and_compiled_position_layers_agree():
    """The same session with the pure ``PositionBase`` and with the compiled one, over both
    backends' cores: same moves, same errors, same messages."""
    cython = "cython" in _backend.available()
    pure = run_session("python", cython)
    assert pure["base"] == "gamecore.games._position_py"
    if not cython:
        pytest.skip("the compiled backend is not built")
    compiled = run_session("cython", cython)
    assert compiled["base"] == "gamecore.games._position_cy"
    assert pure["python"] == compiled["python"]
    assert pure["cython"] == compiled["cython"] == compiled["python"]


@pytest.mark.parametrize("cls", [Othello, Tetralath, Rolit])
def test_hot_methods_come_from_the_position_layer(cls):
    """A method of the same name in a public class would hide the fast one (and its speed)."""
    base = _backend.position_base()
    assert issubclass(cls, base)
    hot = ("legal_moves", "push", "pop", "play", "is_game_over", "peek", "move_stack", "__copy__", "turn")
    for name in hot if cls is not Rolit else hot[:-1]:  # Rolit: turn is a colour of the seats in play
        assert getattr(cls, name) is getattr(base, name), name
