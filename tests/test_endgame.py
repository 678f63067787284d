"""The exact endgame solver ``solve_exact`` (``gamecore.search._endgame_*``) in both backends.

- FFO #40 (20 empties) solved with its published score and a best move (Cython, default run);
- small endgames (up to 12 empties) against a plain minimax to the end written here, on a
  square-by-square board of its own (so it shares no code with the solver);
- agreement of the two backends on move, score and node count for hypothesis-generated
  positions (sizes 4, 6, 8 and a few 10x10), also under a node limit;
- windows, passes, game over, limits and argument checks.
"""

from __future__ import annotations

import functools
import math
import random
import threading
import time
from array import array
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore import _backend
from gamecore.games import _othello_py as pure
from gamecore.search._options import STATS_FIELDS

# The FFO suite as gamecore ships it (the benchmark reads the same file).
DATA = resources.files("gamecore").joinpath("data/ffo-40-59.obf")


# -- helpers ---------------------------------------------------------------------------------


def read_ffo() -> dict[int, tuple[int, int, int, dict[int, int]]]:
    """FFO number -> (black, white, turn, {square: exact score}) from the OBF file."""
    positions = {}
    for number, line in enumerate(DATA.read_text().splitlines(), start=40):
        board, rest = line.split(None, 1)
        fields = [f.strip() for f in rest.split(";")]
        black = sum(1 << i for i, c in enumerate(board) if c == "X")
        white = sum(1 << i for i, c in enumerate(board) if c == "O")
        scores = {}
        for field in fields[1:]:
            if field:
                name, value = field.split(":")
                scores[(int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0])] = int(value)
        positions[number] = (black, white, 0 if fields[0] == "X" else 1, scores)
    return positions


FFO = read_ffo()


def solve_exact(core, **kwargs):
    """The solver of the core's own backend."""
    backend = "cython" if type(core).__module__.endswith("_cy") else "python"
    return _backend.load(backend).endgame.solve_exact(core, **kwargs)


def core_from(mod, size, black, white, turn):
    core = mod.OthelloCore(size)
    core.set_board(black, white, turn)
    return core


def empties(core) -> int:
    return core.size * core.size - sum(core.counts())


DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def minimax(black: int, white: int, turn: int, n: int) -> int:
    """Exact final disc difference for the side to move: every line of play to the end,
    memoised, on a board of tuples and square-by-square flipping (no bitboard tricks)."""
    cells = tuple(1 if black >> i & 1 else 2 if white >> i & 1 else 0 for i in range(n * n))

    @functools.cache
    def value(cells: tuple, me: int, passed: bool) -> int:
        you = 3 - me
        best = None
        for sq in range(n * n):
            if cells[sq]:
                continue
            r0, c0 = divmod(sq, n)
            flipped = []
            for dr, dc in DIRECTIONS:
                run = []
                r, c = r0 + dr, c0 + dc
                while 0 <= r < n and 0 <= c < n and cells[r * n + c] == you:
                    run.append(r * n + c)
                    r, c = r + dr, c + dc
                if run and 0 <= r < n and 0 <= c < n and cells[r * n + c] == me:
                    flipped += run
            if flipped:
                child = list(cells)
                for i in flipped + [sq]:
                    child[i] = me
                score = -value(tuple(child), you, False)
                best = score if best is None else max(best, score)
        if best is not None:
            return best
        if not passed:
            return -value(cells, you, True)
        mine, theirs, free = cells.count(me), cells.count(you), cells.count(0)
        return mine - theirs + (free if mine > theirs else -free if mine < theirs else 0)

    return value(cells, 1 if turn == 0 else 2, False)


def random_endgame(mod, size: int, target: int, rng: random.Random, start=None):
    """Play random legal moves (from the start, or from ``start``) down to ``target`` empties."""
    core = mod.OthelloCore(size)
    if start is not None:
        core.set_board(*start)
    while empties(core) > target and core.legal_moves():
        core.push(rng.choice(core.legal_moves()))
    black, white = core.bitboards()
    return core_from(mod, size, black, white, core.turn)


@st.composite
def endgames(draw, sizes=(4, 6, 8), max_empties=10):
    """A position with few empties: a random game played down to them (reachable positions,
    passes included), or an arbitrary filling of the board (any pattern, game overs too)."""
    size = draw(st.sampled_from(sizes))
    target = draw(st.integers(0, max_empties))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    if draw(st.booleans()):
        core = random_endgame(pure, size, target, rng)
        black, white = core.bitboards()
        turn = core.turn
    else:
        squares = list(range(size * size))
        rng.shuffle(squares)
        black = white = 0
        for sq in squares[target:]:
            if rng.random() < 0.5:
                black |= 1 << sq
            else:
                white |= 1 << sq
        turn = draw(st.integers(0, 1))
    return size, black, white, turn


def best_move_ok(mod, core, move, score) -> bool:
    """``move`` reaches ``score``: after it, the opponent's exact score is ``-score``."""
    child = core.copy()
    child.push(move)
    return -solve_exact(child)[1] == score


# -- FFO positions -----------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_ffo_40_published_score(backend):
    black, white, turn, scores = FFO[40]
    core = core_from(backend.othello, 8, black, white, turn)
    assert empties(core) == 20
    move, score, nodes, completed = solve_exact(core)
    assert completed
    assert score == max(scores.values()) == 38
    assert scores.get(move) == score  # any move listed with the best value
    assert nodes > 1000


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
@pytest.mark.parametrize(
    "number", [40, pytest.param(44, marks=pytest.mark.slow), pytest.param(47, marks=pytest.mark.slow)]
)
def test_ffo_windowed_around_published_score(backend, number):
    """A null window just below/above the published score proves it; 44 and 47 (white to
    move, several seconds each) are in the slow run."""
    black, white, turn, scores = FFO[number]
    exact = max(scores.values())
    core = core_from(backend.othello, 8, black, white, turn)
    _, low, _, done = solve_exact(core, alpha=exact - 1, beta=exact, time_limit=60.0)
    assert done and low >= exact
    _, high, _, done = solve_exact(core, alpha=exact, beta=exact + 1, time_limit=60.0)
    assert done and high <= exact


def test_ffo_move_scores_from_the_file(backend):
    """Play each listed move of FFO #40 and random moves after it down to 10 empties: the
    solver matches the file at 19 empties (Cython) and minimax further down."""
    black, white, turn, scores = FFO[40]
    mod = backend.othello
    root = core_from(mod, 8, black, white, turn)
    if backend.name == "cython":
        for move, value in list(scores.items())[:3]:
            child = root.copy()
            child.push(move)
            assert -solve_exact(child)[1] == value
    rng = random.Random(40)
    for _ in range(2):
        core = random_endgame(mod, 8, 10, rng, start=(black, white, turn))
        move, score, _, done = solve_exact(core)
        assert done
        assert score == minimax(*core.bitboards(), core.turn, 8)


# -- against minimax ----------------------------------------------------------------------------


@pytest.mark.parametrize("size,target,count", [(4, 12, 6), (6, 10, 6), (8, 9, 6), (10, 8, 3)])
def test_against_minimax(backend, size, target, count):
    rng = random.Random(size * 100 + target)
    for _ in range(count):
        core = random_endgame(backend.othello, size, rng.randint(max(0, target - 4), target), rng)
        move, score, nodes, done = solve_exact(core)
        assert done
        assert score == minimax(*core.bitboards(), core.turn, size)
        if core.is_game_over():
            assert move is None
        else:
            assert move in core.legal_moves()
            assert best_move_ok(backend.othello, core, move, score)


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_against_minimax_ten_empties_from_ffo(backend):
    """10 empties, reached by random moves from FFO positions (minimax is memoised)."""
    rng = random.Random(12)
    for number in (41, 45, 52):
        black, white, turn, _ = FFO[number]
        core = random_endgame(backend.othello, 8, 10, rng, start=(black, white, turn))
        _, score, _, done = solve_exact(core)
        assert done
        assert score == minimax(*core.bitboards(), core.turn, 8)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cython", "python"], indirect=True)
def test_against_minimax_twelve_empties_from_ffo(backend):
    """12 empties from FFO #45 (about half a minute of minimax)."""
    black, white, turn, _ = FFO[45]
    core = random_endgame(backend.othello, 8, 12, random.Random(45), start=(black, white, turn))
    assert empties(core) == 12
    _, score, _, done = solve_exact(core)
    assert done
    assert score == minimax(*core.bitboards(), core.turn, 8)


@given(endgames(max_empties=7))
@settings(max_examples=30)
def test_arbitrary_positions_against_minimax(position):
    size, black, white, turn = position
    core = core_from(pure, size, black, white, turn)
    _, score, _, done = solve_exact(core)
    assert done and score == minimax(black, white, turn, size)


# -- the two backends agree -------------------------------------------------------------------


@given(endgames())
def test_backends_agree(backends, position):
    py, cy = backends
    size, black, white, turn = position
    a = solve_exact(core_from(py.othello, size, black, white, turn))
    b = solve_exact(core_from(cy.othello, size, black, white, turn))
    assert a == b


@given(endgames(sizes=(10,), max_empties=8))
@settings(max_examples=6)
def test_backends_agree_10x10(backends, position):
    py, cy = backends
    size, black, white, turn = position
    a = solve_exact(core_from(py.othello, size, black, white, turn))
    b = solve_exact(core_from(cy.othello, size, black, white, turn))
    assert a == b


@given(endgames(sizes=(6, 8), max_empties=10), st.integers(1, 400), st.data())
@settings(max_examples=20)
def test_backends_agree_with_window_and_node_limit(backends, position, limit, data):
    py, cy = backends
    size, black, white, turn = position
    nsq = size * size
    alpha = data.draw(st.integers(-nsq, nsq - 1))
    beta = data.draw(st.integers(alpha + 1, nsq))
    for kwargs in ({"alpha": alpha, "beta": beta}, {"node_limit": limit}):
        a = solve_exact(core_from(py.othello, size, black, white, turn), **kwargs)
        b = solve_exact(core_from(cy.othello, size, black, white, turn), **kwargs)
        assert a == b


def test_backends_agree_on_sixteen_empties_from_ffo(backends):
    """Deeper trees (table, stability and fastest-first all busy): 16 empties of FFO #40."""
    py, cy = backends
    black, white, turn, _ = FFO[40]
    rng = random.Random(16)
    core = random_endgame(py.othello, 8, 16, rng, start=(black, white, turn))
    a = solve_exact(core, node_limit=60_000)
    b = solve_exact(core_from(cy.othello, 8, *core.bitboards(), core.turn), node_limit=60_000)
    assert a == b


def test_each_solve_starts_from_an_empty_table(backends):
    """The compiled solver keeps its table between calls (generation stamps): a solve after
    another, and solves in two threads at once (one gets a table of its own), visit exactly
    the nodes of the pure solver's fresh table."""
    py, cy = backends
    black, white, turn, _ = FFO[40]
    rng = random.Random(18)
    cores = [random_endgame(py.othello, 8, 14, rng, start=(black, white, turn)) for _ in range(3)]
    expected = [solve_exact(core) for core in cores]
    compiled = [core_from(cy.othello, 8, *core.bitboards(), core.turn) for core in cores]
    for _ in range(2):
        assert [solve_exact(core) for core in compiled] == expected
    found: dict[int, tuple] = {}

    def solve(i: int) -> None:
        found[i] = solve_exact(compiled[i % 3])

    threads = [threading.Thread(target=solve, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [found[i] for i in range(6)] == expected * 2


# -- windows, passes, game over -------------------------------------------------------------


@given(endgames(sizes=(4, 6, 8), max_empties=8), st.data())
@settings(max_examples=30)
def test_window_is_fail_soft(backend, position, data):
    size, black, white, turn = position
    nsq = size * size
    core = core_from(backend.othello, size, black, white, turn)
    _, exact, _, _ = solve_exact(core)
    alpha = data.draw(st.integers(-nsq, nsq - 1))
    beta = data.draw(st.integers(alpha + 1, nsq))
    move, score, _, done = solve_exact(core, alpha=alpha, beta=beta)
    assert done
    if score <= alpha:
        assert exact <= score
    elif score >= beta:
        assert exact >= score
    else:
        assert score == exact
        if not core.is_game_over():
            assert move in core.legal_moves()


def test_game_over_and_pass(backend):
    mod = backend.othello
    # Game over: black owns everything but one square nobody can use.
    full = (1 << 16) - 1
    core = core_from(mod, 4, full & ~1, 0, 1)
    assert core.is_game_over()
    assert solve_exact(core) == (None, -16, 1, True)
    assert solve_exact(core_from(mod, 4, full & ~1, 0, 0)) == (None, 16, 1, True)
    # A forced pass: white has no move, black then plays a1 (x . / with the rest).
    # Row 0: - O X X ; black to move can take a1? Build: white to move, must pass.
    black = 0b1100 | (0b1111 << 4) | (0b1111 << 8) | (0b1111 << 12)
    white = 0b0010
    core = core_from(mod, 4, black, white, 1)
    assert core.legal_moves() == [mod.PASS]
    move, score, nodes, done = solve_exact(core)
    assert (move, done) == (mod.PASS, True)
    assert score == minimax(black, white, 1, 4) == -16
    assert nodes >= 2


def test_solving_leaves_the_position_unchanged(backend):
    black, white, turn, _ = FFO[40]
    core = random_endgame(backend.othello, 8, 8, random.Random(3), start=(black, white, turn))
    before = (core.bitboards(), core.turn, core.zobrist(), core.history())
    solve_exact(core)
    solve_exact(core, node_limit=5)
    assert (core.bitboards(), core.turn, core.zobrist(), core.history()) == before


# -- limits -------------------------------------------------------------------------------------


def test_node_limit_stops(backend):
    black, white, turn, _ = FFO[40]
    core = core_from(backend.othello, 8, black, white, turn)
    move, score, nodes, done = solve_exact(core, node_limit=2000)
    assert not done
    assert (move, score) == (None, 0)
    # Limits are checked before every node with more than four empties: a few dozen over.
    assert 2000 < nodes < 2200


def test_node_limit_that_is_not_reached(backend):
    core = random_endgame(backend.othello, 6, 7, random.Random(6))
    assert empties(core) == 7 and core.legal_moves() != [backend.othello.PASS]
    full = solve_exact(core)
    assert full[3]
    assert solve_exact(core, node_limit=full[2]) == full
    # The root's first child has more than four empties: the limit is checked there.
    assert solve_exact(core, node_limit=1) == (None, 0, 2, False)


def test_time_limit_stops(backend):
    black, white, turn, _ = FFO[41]  # about 4 s on Cython, hours in pure Python
    core = core_from(backend.othello, 8, black, white, turn)
    start = time.perf_counter()
    move, score, nodes, done = solve_exact(core, time_limit=0.2)
    elapsed = time.perf_counter() - start
    assert not done and move is None
    assert nodes > 0
    assert elapsed < 1.5


# -- arguments ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"alpha": -65},
        {"beta": 65},
        {"alpha": 10, "beta": 10},
        {"alpha": 12, "beta": -4},
        {"alpha": 1.5},
        {"beta": "64"},
        {"alpha": True},
        {"node_limit": -1},
        {"node_limit": 1.0},
        {"node_limit": None},
        {"time_limit": -0.5},
        {"time_limit": math.nan},
        {"time_limit": math.inf},
        {"time_limit": "1"},
        {"time_limit": None},
    ],
)
def test_bad_arguments(backend, kwargs):
    black, white, turn, _ = FFO[40]
    core = core_from(backend.othello, 8, black, white, turn)
    with pytest.raises(ValueError):
        solve_exact(core, **kwargs)


def test_window_bound_is_the_board_size(backend):
    core = random_endgame(backend.othello, 6, 4, random.Random(1))
    with pytest.raises(ValueError):
        solve_exact(core, alpha=-37)
    assert solve_exact(core, alpha=-36, beta=36) == solve_exact(core)


# -- a table shared by solves, the measurement counters ------------------------------------------


def test_twins_agree_with_a_shared_table_and_counters(backends):
    """Solves sharing one EndgameTable (a narrow window, then the whole, then a child) visit
    the same nodes in both twins, with the same counters by empty squares; the shared table
    changes no score, and a cleared table is a fresh one."""
    py, cy = backends
    black, white, turn, _ = FFO[40]
    start = random_endgame(py.othello, 8, 12, random.Random(7), start=(black, white, turn))
    runs = []
    for mod in (py, cy):
        core = core_from(mod.othello, 8, *start.bitboards(), start.turn)
        table = mod.endgame.EndgameTable(14)
        stats, progress = array("Q", bytes(8 * STATS_FIELDS * 65)), array("q", [0, 0, 0])
        narrow = solve_exact(core, alpha=-1, beta=1, table=table, _stats=stats)
        whole = solve_exact(core, table=table, _stats=stats, _progress=progress)
        child = core.copy()
        child.push(whole[0])
        after = solve_exact(child, table=table)
        runs.append((narrow, whole, after, list(stats)))
        # The last node count written before the end (every 64 nodes pure, 4096 compiled); the
        # root's moves searched, the best of them (the whole window: the value).
        assert whole[2] - (64 if mod is py else 4096) <= progress[0] <= whole[2]
        assert progress[1] == len(core.legal_moves()) and progress[2] == whole[1]
        alone = solve_exact(core_from(mod.othello, 8, *start.bitboards(), start.turn))
        assert whole[1] == alone[1] and after[1] == -whole[1]
        table.clear()
        assert solve_exact(core, table=table) == solve_exact(core, table=mod.endgame.EndgameTable(14))
    assert runs[0] == runs[1]
    stats = runs[0][3]
    nodes = [stats[e * STATS_FIELDS] for e in range(65)]
    assert nodes[12] == 2 and sum(nodes) < runs[0][0][2] + runs[0][1][2]  # the roots; nodes <= 4 empties not counted


def test_shared_table_arguments(backend):
    core = random_endgame(backend.othello, 6, 8, random.Random(2))
    for bits in (9, 29, 1.5, None):
        with pytest.raises(ValueError):
            backend.endgame.EndgameTable(bits)
    with pytest.raises(ValueError):
        solve_exact(core, table={})
    with pytest.raises(ValueError):
        solve_exact(core, _stats=array("Q", [0]))
    with pytest.raises(ValueError):
        solve_exact(core, _progress=array("Q", [0, 0, 0]))
