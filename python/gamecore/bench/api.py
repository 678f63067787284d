"""``gamecore bench api``: the speed a student sees, programming against the public API.

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
round robin between the loops and the median is reported, with each loop's ratio to
gamecore's compiled push/pop loop taken in the same run.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TextIO

from .. import _backend
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


def _peer_loops() -> dict[str, tuple[Callable[[int], int], bool]]:
    """The installed peers' perft loops by name, each with whether it is pure Python."""
    loops: dict[str, tuple[Callable[[int], int], bool]] = {}
    rust = _optional("rust_reversi")
    if rust is not None:
        loops["rust-reversi get_child_boards"] = (lambda d: _rust_children(rust.Board(), d), False)
        loops["rust-reversi clone+do_move"] = (lambda d: _rust_clone(rust.Board(), d), False)
    creversi = _optional("creversi")
    if creversi is not None:
        loops["creversi-python (pure)"] = (lambda d: _creversi(creversi.Board(), d), True)
    spiel = _optional("pyspiel")
    if spiel is not None:
        game = spiel.load_game("othello")
        loops["OpenSpiel child()"] = (lambda d: _spiel(game.new_initial_state(), d), False)
    return loops


# -- the benchmark -----------------------------------------------------------------------


def _from_start(loop: Callable[[Othello, int], int], backend: str, depth: int) -> int:
    return loop(Othello(backend=backend), depth)


def _rounds(loops: dict[str, Callable[[], int]], runs: int) -> dict[str, tuple[float, int]]:
    """Median seconds and the leaf count of each loop, timed round robin ``runs`` times."""
    times: dict[str, list[float]] = {name: [] for name in loops}
    counts: dict[str, int] = {}
    for _ in range(runs):
        for name, loop in loops.items():
            start = time.perf_counter()
            counts[name] = loop()
            times[name].append(time.perf_counter() - start)
    return {name: (statistics.median(times[name]), counts[name]) for name in loops}


def bench_api(out: TextIO, runs: int = 3, depth: int | None = None, backend: str | None = None) -> int:
    """Print leaves/s of the student perft loops (gamecore's backends and installed peers),
    their ratios to gamecore's compiled push/pop loop, and student alpha-beta nodes/s.

    Compiled loops (gamecore's compiled backend, rust-reversi, OpenSpiel) count perft(8) and
    pure-Python ones (gamecore's pure backend, creversi-python) perft(6), unless ``depth``
    sets both."""
    names = [backend] if backend else _backend.available()
    deep, shallow = depth or 8, depth or 6
    loops: dict[str, Callable[[], int]] = {}
    for name in names:
        d = deep if name == "cython" else shallow
        loops[f"gamecore {name} push/pop (d{d})"] = partial(_from_start, student_perft, name, d)
        loops[f"gamecore {name} play (d{d})"] = partial(_from_start, student_perft_play, name, d)
    for name, (loop, pure) in _peer_loops().items():
        d = shallow if pure else deep
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
        counter = [0]
        start = time.perf_counter()
        student_alphabeta(Othello(backend=name), ALPHABETA_DEPTH, -1000, 1000, counter)
        seconds = time.perf_counter() - start
        print(
            f"  gamecore {name:<7} {counter[0]:>8,} nodes {seconds:8.3f} s {counter[0] / seconds:>11,.0f} nodes/s",
            file=out,
        )
    return 0
