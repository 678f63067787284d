"""``gamecore bench othello api``: the speed a student sees, programming against the public API.

The courses gamecore serves make students write their own perft, minimax or alpha-beta in
Python on top of a board class. This benchmark times that code, not the built-in kernels:

- a perft loop over ``legal_moves()`` / ``push()`` / ``pop()`` (the last ply bulk-counted,
  as every fast perft does), and the same loop with ``play()`` (a new position per move);
- the same loop on peer libraries when they are installed (``pip install ".[bench]"``):
  rust-reversi (Rust, ``get_child_boards`` and ``clone`` + ``do_move``), creversi-python
  (pure Python) and OpenSpiel (C++, ``child()``);
- a plain negamax alpha-beta in Python with a Python evaluation (disc difference), nodes/s.

Every loop counts the same tree (8x8 from the start, a pass is a ply, a finished game one
leaf), and the counts are checked against the published perft values. Runs are alternated
round robin between the loops and the median CPU time is reported (the machines are shared), with each loop's ratio to
gamecore's compiled push/pop loop taken in the same run. The pure backend is timed as its
users get it, pure position layer included: in a child process with
``GAMECORE_BACKEND=python`` when this process runs the compiled layer.
"""

from __future__ import annotations

import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from .. import _backend
from ..games.base import Position
from ..games.othello import Othello

__all__ = ["bench_api", "PERFT_8X8", "student_perft", "student_perft_play", "student_alphabeta"]

#: Published 8x8 perft counts (a pass is a ply): the check every loop must pass.
PERFT_8X8 = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092, 8: 390216, 9: 3005288}
#: Depth of the student alpha-beta (a few thousand nodes).
ALPHABETA_DEPTH = 8


# -- the student's code, on gamecore's public API -----------------------------------------


def student_perft(position: Othello, depth: int) -> int:
    """Leaves ``depth`` plies below ``position``: push/pop, the last ply counted in bulk."""
    moves = position.legal_moves()
    if not moves:
        return 1  # the game is over: one leaf
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.push(move)
        total += student_perft(position, depth - 1)
        position.pop()
    return total


def student_perft_count(position: Othello, depth: int) -> int:
    """The push/pop loop, the last ply counted by ``count_legal_moves()`` (no move objects)."""
    if depth == 1:
        return position.count_legal_moves() or 1  # 0: the game is over, one leaf
    moves = position.legal_moves()
    if not moves:
        return 1
    total = 0
    for move in moves:
        position.push(move)
        total += student_perft_count(position, depth - 1)
        position.pop()
    return total


def student_perft_play(position: Othello, depth: int) -> int:
    """The same count with ``play()``: a new position per move, nothing undone."""
    moves = position.legal_moves()
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(student_perft_play(position.play(move), depth - 1) for move in moves)


def student_alphabeta(position: Othello, depth: int, alpha: int, beta: int, counter: list[int]) -> int:
    """Negamax alpha-beta with the disc difference as evaluation, as a course would write it;
    ``counter[0]`` counts the nodes visited."""
    counter[0] += 1
    if depth == 0 or position.is_game_over():
        black, white = position.score()
        return (black - white) if position.turn == 0 else (white - black)
    best = -1000
    for move in position.legal_moves():
        position.push(move)
        value = -student_alphabeta(position, depth - 1, -beta, -alpha, counter)
        position.pop()
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


# -- peers (optional) --------------------------------------------------------------------


def _optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _rust_children(board: Any, depth: int) -> int:
    if board.is_game_over():
        return 1
    if board.is_pass():
        child = board.clone()
        child.do_pass()
        return 1 if depth == 1 else _rust_children(child, depth - 1)
    children = board.get_child_boards()
    if depth == 1:
        return len(children)
    return sum(_rust_children(child, depth - 1) for child in children)


def _rust_clone(board: Any, depth: int) -> int:
    if board.is_game_over():
        return 1
    if board.is_pass():
        child = board.clone()
        child.do_pass()
        return 1 if depth == 1 else _rust_clone(child, depth - 1)
    moves = board.get_legal_moves_vec()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = board.clone()
        child.do_move(move)
        total += _rust_clone(child, depth - 1)
    return total


def _rust_popcount(board: Any, depth: int) -> int:
    """rust-reversi's own idiom: the last ply counted as the popcount of its move bitboard."""
    if board.is_game_over():
        return 1
    if board.is_pass():
        child = board.clone()
        child.do_pass()
        return 1 if depth == 1 else _rust_popcount(child, depth - 1)
    if depth == 1:
        return int(board.get_legal_moves()).bit_count()
    total = 0
    for move in board.get_legal_moves_vec():
        child = board.clone()
        child.do_move(move)
        total += _rust_popcount(child, depth - 1)
    return total


def _creversi(board: Any, depth: int) -> int:
    if board.is_game_over():
        return 1
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = board.copy()
        child.move(move)
        total += _creversi(child, depth - 1)
    return total


def _spiel(state: Any, depth: int) -> int:
    if state.is_terminal():
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(_spiel(state.child(action), depth - 1) for action in actions)


def _peer_loops() -> dict[str, tuple[Callable[[int], int], tuple[bool, ...]]]:
    """The installed peers' perft loops by name, each with the depths it runs at: compiled
    (``False``: the compiled loops' depth) and/or pure (``True``: the pure loops' depth).
    OpenSpiel's loop is Python over C++ states: it runs at both, so that the pure backend is
    compared with it on the same tree."""
    loops: dict[str, tuple[Callable[[int], int], tuple[bool, ...]]] = {}
    rust = _optional("rust_reversi")
    if rust is not None:
        loops["rust-reversi get_child_boards"] = (lambda d: _rust_children(rust.Board(), d), (False,))
        loops["rust-reversi clone+do_move"] = (lambda d: _rust_clone(rust.Board(), d), (False,))
        loops["rust-reversi clone+do_move+popcount"] = (lambda d: _rust_popcount(rust.Board(), d), (False,))
    creversi = _optional("creversi")
    if creversi is not None:
        loops["creversi-python (pure)"] = (lambda d: _creversi(creversi.Board(), d), (True,))
    spiel = _optional("pyspiel")
    if spiel is not None:
        game = spiel.load_game("othello")
        loops["OpenSpiel child()"] = (lambda d: _spiel(game.new_initial_state(), d), (False, True))
    return loops


# -- the benchmark -----------------------------------------------------------------------


_LOOPS = {"push/pop": student_perft, "push/pop+count": student_perft_count, "play": student_perft_play}
# The child runs the loop once untimed first: the loops timed in this process are warm from
# their earlier runs (first-use tables built, the interpreter's specialised code in place).
_CHILD = """
import json, sys, time
from gamecore.bench import api
args = json.loads(sys.argv[1])
api._timed(*args)
print(json.dumps(api._timed(*args)))
"""


def _timed(kind: str, backend: str, depth: int) -> tuple[int, float]:
    """One run in this process: (leaves or nodes, seconds)."""
    position = Othello(backend=backend)
    start = time.process_time()
    if kind == "alphabeta":
        counter = [0]
        student_alphabeta(position, depth, -1000, 1000, counter)
        count = counter[0]
    else:
        count = _LOOPS[kind](position, depth)
    return count, time.process_time() - start


def _pure_layer_here() -> bool:
    layer: type = Position.__mro__[1]  # PositionBase of the layer this process selected
    return layer.__module__.endswith("_py")


def _run(kind: str, backend: str, depth: int) -> tuple[int, float]:
    """A timed run as a user of ``backend`` gets it. The position layer (``PositionBase``) is
    chosen per process, so the pure backend is timed in a child process that selects it
    (``GAMECORE_BACKEND=python``) when this one runs the compiled layer."""
    if backend == "cython" or _pure_layer_here():
        return _timed(kind, backend, depth)
    env = dict(os.environ, GAMECORE_BACKEND="python")
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(_backend.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    args = json.dumps([kind, backend, depth])
    result = subprocess.run([sys.executable, "-c", _CHILD, args], capture_output=True, text=True, env=env, check=True)
    count, seconds = json.loads(result.stdout.strip().splitlines()[-1])
    return count, seconds


def _rounds(loops: dict[str, Callable[[], Any]], runs: int) -> dict[str, tuple[float, int]]:
    """Median seconds and the leaf count of each loop, timed round robin ``runs`` times (a
    loop returning ``(count, seconds)`` timed itself)."""
    times: dict[str, list[float]] = {name: [] for name in loops}
    counts: dict[str, int] = {}
    for _ in range(runs):
        for name, loop in loops.items():
            start = time.process_time()
            result = loop()
            seconds = time.process_time() - start
            if isinstance(result, tuple):
                result, seconds = result
            counts[name] = result
            times[name].append(seconds)
    return {name: (statistics.median(times[name]), counts[name]) for name in loops}


def bench_api(out: TextIO, runs: int = 3, depth: int | None = None, backend: str | None = None) -> int:
    """Print leaves/s of the student perft loops (gamecore's backends and installed peers),
    their ratios to gamecore's compiled push/pop loop, and student alpha-beta nodes/s.

    Compiled loops (gamecore's compiled backend, rust-reversi, OpenSpiel) count perft(8) and
    pure-Python ones (gamecore's pure backend, creversi-python, and OpenSpiel again) perft(7),
    unless ``depth`` sets both."""
    names = [backend] if backend else _backend.available()
    deep, shallow = depth or 8, depth or 7
    loops: dict[str, Callable[[], Any]] = {}
    for name in names:
        d = deep if name == "cython" else shallow
        for kind in _LOOPS:
            loops[f"gamecore {name} {kind} (d{d})"] = partial(_run, kind, name, d)
    for name, (loop, kinds) in _peer_loops().items():
        for d in sorted({shallow if pure else deep for pure in kinds}, reverse=True):
            loops[f"{name} (d{d})"] = partial(loop, d)
    print(f"student perft loops from the 8x8 start, median of {runs} alternated runs", file=out)
    results = _rounds(loops, runs)
    reference = next((k for k in results if k.startswith("gamecore cython push/pop")), None)
    for label, (seconds, leaves) in results.items():
        d = int(label.rsplit("(d", 1)[1].rstrip(")"))
        status = "" if leaves == PERFT_8X8[d] else f"  WRONG COUNT (published {PERFT_8X8[d]})"
        rate = leaves / seconds
        ratio = f"  {rate / (results[reference][1] / results[reference][0]):6.2f}x" if reference else ""
        print(f"  {label:<44} {leaves:>9,} leaves {seconds:8.3f} s {rate:>13,.0f} leaves/s{ratio}{status}", file=out)
    if reference:
        print("  (ratio: leaves/s relative to gamecore's compiled push/pop loop, same run)", file=out)
    print(f"student alpha-beta (negamax, Python evaluation), depth {ALPHABETA_DEPTH} from the start", file=out)
    for name in names:
        nodes, seconds = _run("alphabeta", name, ALPHABETA_DEPTH)
        print(f"  gamecore {name:<7} {nodes:>8,} nodes {seconds:8.3f} s {nodes / seconds:>11,.0f} nodes/s", file=out)
    return 0
