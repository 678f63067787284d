"""Tetralath rules, notation, text and core protocol, on both backends.

The oracle (tests/tetralath_oracle.py) is independent of the cores: it rebuilds the board
from Susan notation alone and judges positions by scanning every line cell by cell.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecore.errors import (
    EmptyHistoryError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSquareError,
)
from gamecore.games.base import Termination
from gamecore.games.tetralath import Tetralath, TetralathMove, cell_name, parse_cell
from tetralath_oracle import (
    AT,
    LENS,
    LINES,
    NAMES,
    POS,
    board_of,
    oracle_after_move,
    oracle_cells,
    oracle_hash,
    oracle_runs,
)

# -- backends ---------------------------------------------------------------
# ``backend`` (one backend's modules, parametrised) and ``backends`` ((py, cy)) come from
# conftest.py; the cython case skips when the extension is missing, unless
# GAMECORE_BACKEND=cython, where it fails.


# -- geometry and notation --------------------------------------------------


def test_notation_fixed_points():
    assert parse_cell("a1") == 0
    assert parse_cell("e1") == 26
    assert parse_cell("e5") == 30
    assert parse_cell("i5") == 60
    assert parse_cell("E5") == 30
    assert [parse_cell(n) for n in NAMES] == list(range(61))
    assert [cell_name(i) for i in range(61)] == NAMES
    assert TetralathMove(30).name == "e5" and TetralathMove(30).row == 4 and TetralathMove(30).number == 5


def test_oracle_line_counts_match_the_design():
    assert sum(max(0, len(line) - 2) for line in LINES) == 129
    assert sum(max(0, len(line) - 3) for line in LINES) == 102


def _oracle_windows(n: int) -> set[int]:
    out = set()
    for line in LINES:
        for s in range(len(line) - n + 1):
            out.add(sum(1 << c for c in line[s : s + n]))
    return out


def test_windows_match_the_oracle(backend):
    core = backend.tetralath
    assert len(core.THREE_WINDOWS) == 129 and len(core.FOUR_WINDOWS) == 102
    assert set(core.THREE_WINDOWS) == _oracle_windows(3)
    assert set(core.FOUR_WINDOWS) == _oracle_windows(4)


def test_neighbours_are_adjacent_hexes(backend):
    core = backend.tetralath
    for i in range(61):
        r, c = POS[i]
        expected = {
            AT[(r + dr, c + dc)]
            for dr, dc in ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
            if (r + dr, c + dc) in AT
        }
        got = {n for n in core.NEIGHBOURS[i] if n >= 0}
        assert got == expected
        for d in range(3):  # d + 3 is the opposite direction
            n = core.NEIGHBOURS[i][d]
            if n >= 0:
                assert core.NEIGHBOURS[n][d + 3] == i


def test_geometry_identical_in_both_backends(backends):
    py, cy = (b.tetralath for b in backends)
    for name in (
        "CELL_XY",
        "NEIGHBOURS",
        "FOUR_WINDOWS",
        "THREE_WINDOWS",
        "CENTRALITY",
        "FEATURES",
        "DEFAULT_WEIGHTS",
        "FULL_MASK",
        "SWAP",
        "REASONS",
        "DIRECTIONS",
        "ROW_STARTS",
    ):
        assert getattr(py, name) == getattr(cy, name), name
    assert py.CENTRALITY[30] == 4 and py.CENTRALITY[0] == 0 and py.CENTRALITY[60] == 0


# -- the checked cases of the rules -------------------------------------------


def play(backend, moves: str, swap: bool = False) -> Tetralath:
    return Tetralath.from_moves(moves, swap=swap, backend=backend.name)


def test_white_three_in_a_row_loses(backend):
    game = play(backend, "e1 a1 e2 a3 e3")
    outcome = game.outcome()
    assert (
        outcome is not None and outcome.winner == Tetralath.BLACK and outcome.termination is Termination.THREE_IN_A_ROW
    )
    assert game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.push("i1")


def test_four_in_a_row_wins(backend):
    game = play(backend, "e1 a1 e2 a3 e4 a5")
    assert not game.is_game_over()  # e1 e2 _ e4 is no three
    game.push("e3")
    assert game.outcome().winner == Tetralath.WHITE
    assert game.outcome().termination is Termination.FOUR_IN_A_ROW


def test_filling_the_gap_of_five_wins(backend):
    game = play(backend, "e1 a1 e2 a3 e4 a5 e5 i1")
    assert not game.is_game_over()
    game.push("e3")
    assert (game.outcome().winner, game.outcome().termination) == (Tetralath.WHITE, Termination.FOUR_IN_A_ROW)
    assert [len(r) for r in oracle_runs(board_of(game.core), 0)] == [5]


def test_four_with_a_simultaneous_three_wins(backend):
    game = play(backend, "e1 a1 e2 a3 e4 a5 d3 i1 f2 i3")
    assert not game.is_game_over()
    game.push("e3")
    runs = sorted(len(r) for r in oracle_runs(board_of(game.core), 0))
    assert runs == [3, 4]  # the diagonal d3 e3 f2 is a three, row e a four
    assert (game.outcome().winner, game.outcome().termination) == (Tetralath.WHITE, Termination.FOUR_IN_A_ROW)
    assert backend.tetralath.terminal_value(game.core) == -(1 + 61 - 11)  # black, to move, has lost: -(1 + empties)


def test_black_can_lose_and_win_too(backend):
    lost = play(backend, "a1 e1 a3 e2 a5 e3")
    assert (lost.outcome().winner, lost.outcome().termination) == (Tetralath.WHITE, Termination.THREE_IN_A_ROW)
    won = play(backend, "a1 e1 a3 e2 i1 e4 i3 e3")
    assert (won.outcome().winner, won.outcome().termination) == (Tetralath.BLACK, Termination.FOUR_IN_A_ROW)


FULL_DRAW = "WWBWW/WBWWBW/BWWBWWB/WWBWWBWW/WBWWBBWBB/BWBBWBBW/BBWBBWB/WBBWBB/BWBBW"


def test_full_board_is_a_draw(backend):
    cells = [0 if ch == "W" else 1 for ch in FULL_DRAW.replace("/", "")]
    assert not oracle_runs(cells, 0) and not oracle_runs(cells, 1)
    whites = [i for i, v in enumerate(cells) if v == 0]
    blacks = [i for i, v in enumerate(cells) if v == 1]
    assert len(whites) == 31 and len(blacks) == 30
    game = Tetralath(backend=backend.name)
    for ply in range(61):
        assert not game.is_game_over()
        game.push(whites[ply // 2] if ply % 2 == 0 else blacks[ply // 2])
    outcome = game.outcome()
    assert outcome.winner is None and outcome.termination is Termination.FULL_BOARD
    assert str(outcome) == "draw 31-30 (full board)"
    assert backend.tetralath.terminal_value(game.core) == 0 and game.legal_moves() == []
    assert game.to_text() == FULL_DRAW + " B"


# -- both backends agree with each other and with the oracle -----------------


@settings(max_examples=60, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=61), swap=st.booleans())
def test_random_games_agree_with_each_other_and_the_oracle(backends, choices, swap):
    py, cy = (b.tetralath for b in backends)
    a, b = py.TetralathCore(swap), cy.TetralathCore(swap)
    board = [-1] * 61
    for choice in choices:
        legal = a.legal_moves()
        assert legal == b.legal_moves()
        if not legal:
            break
        move = legal[choice % len(legal)]
        mover = a.turn
        a.push(move)
        b.push(move)
        if move == py.SWAP:
            cell = board.index(0)
            board[cell] = 1
        else:
            board[move] = mover
        assert board_of(a) == board == board_of(b)
        assert a.zobrist() == b.zobrist() == oracle_hash(board, 1 - mover)
        over, winner, reason = oracle_after_move(board, mover)
        for core in (a, b):
            assert core.turn == 1 - mover
            assert core.is_game_over() == over
            assert core.winner() == winner and core.reason() == reason
        assert a.features() == b.features()
        assert py.evaluate(a) == cy.evaluate(b)
        assert py.num_empty(a) == cy.num_empty(b) == board.count(-1)
        empties = board.count(-1)
        expected = 0 if winner is None else (1 + empties if winner == 1 - mover else -(1 + empties))
        assert py.terminal_value(a) == cy.terminal_value(b) == expected
        if not over:
            assert [py.order_key(a, m) for m in a.legal_moves()] == [cy.order_key(b, m) for m in b.legal_moves()]
    history = a.history()
    assert history == b.history()
    for move in reversed(history):
        assert a.pop() == move == b.pop()
        assert a.zobrist() == b.zobrist()
    assert a.bitboards() == b.bitboards() == (0, 0) and a.zobrist() == b.zobrist() == 0


@settings(max_examples=25, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10**6), min_size=0, max_size=40))
def test_threat_cells_match_the_oracle(backends, choices):
    py, cy = (b.tetralath for b in backends)
    core = py.TetralathCore()
    for choice in choices:
        legal = core.legal_moves()
        if not legal:
            break
        core.push(legal[choice % len(legal)])
    if core.is_game_over():
        core.pop()
    board = board_of(core)
    me, opp = core.turn, 1 - core.turn
    win_me, lose_me = oracle_cells(board, me)
    win_opp, lose_opp = oracle_cells(board, opp)
    stones = core.bitboards()
    for module in (py, cy):
        cells = module.threat_cells(stones[me], stones[opp])
        assert cells[:4] == (win_me, win_opp, lose_me, lose_opp)
    f = core.features()
    assert f[0] == (1 if win_me else 0)
    assert f[1] == win_opp.bit_count()
    assert f[2] == (1 if win_opp.bit_count() >= 2 or win_opp & lose_me else 0)
    assert f[3] == lose_opp.bit_count() - lose_me.bit_count()
    # the order key: a winning four first, a losing three last, a block in between
    for move in core.legal_moves():
        key = py.order_key(core, move)
        bit = 1 << move
        if win_me & bit:
            assert key == 1000
        elif lose_me & bit:
            assert key == -1000
        elif win_opp & bit:
            assert key == 500
        else:
            # 4 * centrality, plus per four-window through the cell what its stones say
            expected = 4 * py.CENTRALITY[move]
            for w in py.FOUR_WINDOWS:
                if w & bit:
                    a, b = (stones[me] & w).bit_count(), (stones[opp] & w).bit_count()
                    expected += (1, 3, 10)[a] if not b else (0, 1, 4)[b] if not a else 0
            assert key == expected < 500


def test_features_on_a_hand_built_position(backend):
    # White e1 e2 _ e4: a four threat on e3; black must block it.
    game = play(backend, "e1 a1 e2 a3 e4")
    f = game.core.features()  # black to move
    names = backend.tetralath.FEATURES
    values = dict(zip(names, f))
    assert values["win_now"] == 0
    assert values["forced_blocks"] == 1
    assert values["cannot_block"] == 0
    game.push("i1")  # black ignores it: white to move can win
    values = dict(zip(names, game.core.features()))
    assert values["win_now"] == 1
    weights = backend.tetralath.DEFAULT_WEIGHTS
    evaluate = backend.tetralath.evaluate
    assert evaluate(game.core) == sum(w * v for w, v in zip(weights, game.core.features()))
    assert evaluate(game.core, [0, 0, 0, 0, 0, 0, 1]) == values["centre"]


def test_cannot_block_a_double_threat(backend):
    # Two separate white threats: e3 (after e1 e2 _ e4) and i3 (after i1 i2 _ i4).
    game = play(backend, "e1 a1 e2 a3 e4 a5 i1 c1 i2 c5 i4")
    values = dict(zip(backend.tetralath.FEATURES, game.core.features()))
    assert values["forced_blocks"] == 2 and values["cannot_block"] == 1


def test_perft_agrees_with_a_brute_force_count(backends):
    py, cy = (b.tetralath for b in backends)
    moves = "e1 a1 e2 a3 e4 a5 d3 i1 f2 i3".split()
    a, b = py.TetralathCore(), cy.TetralathCore()
    for m in moves:
        a.push(parse_cell(m))
        b.push(parse_cell(m))
    board = board_of(a)

    def brute(board: list[int], turn: int, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        empties = [i for i in range(61) if board[i] < 0]
        for cell in empties:
            board[cell] = turn
            over = oracle_after_move(board, turn)[0]
            total += 1 if over or depth == 1 else brute(board, 1 - turn, depth - 1)
            board[cell] = -1
        return total

    expected = brute(board, a.turn, 2)
    assert a.perft(2) == b.perft(2) == expected
    assert py.TetralathCore().perft(3) == cy.TetralathCore().perft(3) == 61 * 60 * 59


# -- push, pop, copy ---------------------------------------------------------


def test_push_pop_restores_everything(backend):
    game = Tetralath(backend=backend.name)
    start_text, start_hash = game.to_text(), game.zobrist_hash()
    seen = []
    for name in "e5 d4 c3 f5 g2 a1 b2 h4".split():
        seen.append((game.to_text(), game.zobrist_hash(), game.turn))
        game.push(name)
    for name in reversed("e5 d4 c3 f5 g2 a1 b2 h4".split()):
        assert game.pop().name == name
        assert (game.to_text(), game.zobrist_hash(), game.turn) == seen.pop()
    assert game.to_text() == start_text and game.zobrist_hash() == start_hash == 0
    with pytest.raises(EmptyHistoryError):
        game.pop()


def test_copy_and_play_are_independent(backend):
    game = play(backend, "e5 d4")
    other = game.copy()
    child = game.play("c3")
    assert game.move_stack == other.move_stack == [TetralathMove(30), parse_move_index("d4")]
    assert child.move_stack[-1].name == "c3" and game.cell("c3") == -1 and child.cell("c3") == 0
    other.push("a1")
    assert game.cell("a1") == -1 and len(game.move_stack) == 2
    assert other.pop().name == "a1" and other == game


def parse_move_index(name: str) -> TetralathMove:
    return TetralathMove(parse_cell(name))


# -- bad input: clear errors, nothing changed -------------------------------


@pytest.mark.parametrize(
    "move, error",
    [
        ("z9", InvalidSquareError),
        ("a6", InvalidSquareError),
        ("e10", InvalidSquareError),
        ("", InvalidSquareError),
        (61 + 1, InvalidSquareError),
        (-1, InvalidSquareError),
        (2**70, InvalidSquareError),
        (True, InvalidMoveError),
        (None, InvalidMoveError),
        (3.0, InvalidMoveError),
        ("e5", IllegalMoveError),  # occupied
        ("swap", IllegalMoveError),  # swap rule off
        (61, InvalidSquareError),  # the swap's code is no cell: the swap is written "swap"
        (Tetralath.SWAP, IllegalMoveError),
    ],
)
def test_bad_moves_raise_and_change_nothing(backend, move, error):
    game = play(backend, "e5")
    before = (game.to_text(), game.zobrist_hash(), game.move_stack, game.turn)
    with pytest.raises(error):
        game.push(move)
    assert (game.to_text(), game.zobrist_hash(), game.move_stack, game.turn) == before
    assert not game.is_legal(move)


@pytest.mark.parametrize("move", [-1, 62, 2**64, 2**200, "e5", 3.5, None, True])
def test_core_push_rejects_anything_not_legal(backend, move):
    core = backend.tetralath.TetralathCore()
    core.push(30)
    with pytest.raises(IllegalMoveError):
        core.push(move)
    assert core.history() == [30] and core.bitboards() == (1 << 30, 0)


def test_after_the_end_every_move_is_game_over(backend):
    game = play(backend, "e1 a1 e2 a3 e3")
    before = game.to_text()
    for move in ("i5", 60, "a2"):
        with pytest.raises(GameOverError):
            game.push(move)
    assert game.to_text() == before


@pytest.mark.parametrize(
    "white, black, turn",
    [
        (-1, 0, 0),
        (1 << 61, 0, 0),
        (2**200, 0, 0),
        (1, 1, 1),  # overlap
        (0, 0, 2),
        (0, 0, True),
        (0, 0, None),
        (1.0, 0, 0),
        (0b11, 0, 0),  # two white stones, white to move
        (0b1, 0, 0),  # one white stone, but white to move
        (0, 0b1, 0),  # black stone first, without the swap rule
        # white has three in a row but black made the last move: impossible
        ((1 << 26) | (1 << 27) | (1 << 28), (1 << 0) | (1 << 2) | (1 << 4), 0),
        # black to move with white lines in two places that do not share a stone
        (
            (1 << 26) | (1 << 27) | (1 << 28) | (1 << 56) | (1 << 57) | (1 << 58),
            sum(1 << c for c in (0, 2, 4, 11, 13)),
            1,
        ),
    ],
)
def test_set_board_rejects_bad_positions(backend, white, black, turn):
    core = backend.tetralath.TetralathCore()
    core.push(30)
    with pytest.raises(InvalidPositionError):
        core.set_board(white, black, turn)
    assert core.history() == [30] and core.bitboards() == (1 << 30, 0) and core.turn == 1


def test_set_board_reads_the_status(backends):
    for module in (b.tetralath for b in backends):
        core = module.TetralathCore()
        white = (1 << 26) | (1 << 27) | (1 << 28)
        black = (1 << 0) | (1 << 2)
        core.set_board(white, black, 1)
        assert core.is_game_over() and core.winner() == 1 and core.reason() == "three in a row"
        assert core.legal_moves() == [] and core.history() == []


@pytest.mark.parametrize(
    "module_function, args",
    [
        ("move_status", (-1, 0)),
        ("move_status", (0, 61)),
        ("threat_cells", (2**64, 0)),
        ("features", (0, None)),
        ("board_status", (0, 1 << 61)),
    ],
)
def test_module_functions_validate(backend, module_function, args):
    module = backend.tetralath
    with pytest.raises(ValueError):
        getattr(module, module_function)(*args)


@pytest.mark.parametrize("weights", [None, [1, 2], [1] * 8, [1.0] * 7, [2**40] * 7, "abcdefg", 5])
def test_evaluation_weights_are_checked(backend, weights):
    core = backend.tetralath.TetralathCore()
    evaluate = backend.tetralath.evaluate
    if weights is None:
        assert evaluate(core) == evaluate(core, list(backend.tetralath.DEFAULT_WEIGHTS))
        return
    with pytest.raises(ValueError):
        evaluate(core, weights)


# -- the swap rule ------------------------------------------------------------


def test_swap_rule(backend):
    game = Tetralath(swap=True, backend=backend.name)
    assert "swap" not in [m.name for m in game.legal_moves()]
    game.push("b2")
    assert game.legal_moves()[-1].name == "swap" and len(game.legal_moves()) == 61
    game.push("swap")
    assert game.turn == Tetralath.WHITE and game.cell("b2") == Tetralath.BLACK and game.counts() == (0, 1)
    assert game.zobrist_hash() == oracle_hash(board_of(game.core), 0)
    with pytest.raises(IllegalMoveError):
        game.push("b2")
    game.push("e5")
    assert "swap" not in [m.name for m in game.legal_moves()]
    with pytest.raises(IllegalMoveError):
        game.push("swap")
    game.pop()
    assert game.pop().is_swap and game.cell("b2") == Tetralath.WHITE and game.turn == Tetralath.BLACK
    text = play(backend, "b2 swap", swap=True).to_text()
    assert Tetralath.from_text(text, swap=True, backend=backend.name).counts() == (0, 1)
    with pytest.raises(InvalidPositionError):
        Tetralath.from_text(text, backend=backend.name)  # no swap rule: black cannot have moved first


# -- text --------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10**6), max_size=61))
def test_text_round_trips(backend, choices):
    game = Tetralath(backend=backend.name)
    for choice in choices:
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[choice % len(legal)])
    for text in (game.to_text(), str(game), game.to_text().replace("/", "")):
        back = Tetralath.from_text(text, backend=backend.name)
        assert back == game
        assert back.zobrist_hash() == game.zobrist_hash()
        assert back.is_game_over() == game.is_game_over()
        assert back.outcome() == game.outcome()


def test_drawing_has_coordinates_and_marks_the_last_move(backend):
    game = play(backend, "e5 a1")
    text = str(game)
    lines = text.splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5"] and lines[10] == lines[0]
    assert lines[1].split()[0] == "a" and lines[5].split()[0] == "e" and lines[9].split()[0] == "i"
    assert "(B)" in lines[1] and lines[1].split()[-1] == "6"
    assert lines[5].split()[5] == "W" and "(" not in lines[5]
    assert lines[-1] == "W to move"
    coloured = game.render(colour=True)
    assert "\x1b[" in coloured and "(" in coloured
    assert [len(row) for row in game.cells()] == list(LENS)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "W",
        "..... W",
        "." * 61,
        "." * 61 + " X?",
        "." * 60 + "Z W",
        "...../....../......./......../........./......../......./....../.... W",
        "W" + "." * 60 + " W",  # white moved, but white to move
        "WWW" + "." * 55 + "BBB B",  # lines on both sides
        "\n".join(["a . . . . .", "W to move"]),
    ],
)
def test_from_text_rejects_bad_text(backend, text):
    with pytest.raises(InvalidPositionError):
        Tetralath.from_text(text, backend=backend.name)


def test_from_text_rejects_non_strings(backend):
    with pytest.raises(InvalidPositionError):
        Tetralath.from_text(None, backend=backend.name)  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_compiled_core_made_without_init_is_a_usable_start(backend):
    # C fields start zeroed: an empty board, white to move; nothing can crash the interpreter.
    cls = backend.tetralath.TetralathCore
    core = cls.__new__(cls)
    assert len(core.legal_moves()) == 61 and core.zobrist() == 0 and core.history() == []
    core.push(30)
    assert core.pop() == 30
    with pytest.raises(EmptyHistoryError):
        core.pop()
