"""The course adapters, exercised by harnesses written here that reproduce each framework's
calling convention as the course frameworks document it.

- UFRJ tabuleiro-othello: the player file is run with ``exec`` (no ``__file__``) and the
  last name it defines is the class, called with the colour ``'○'``/``'●'``; ``play``
  gets a copy of the 10x10 board bordered with ``'?'`` and must return one of the
  objects that ``valid_moves`` handed out.
- CTU Reversi: ``MyPlayer(my_color, opponent_color, board_size=8)``, ``move`` and
  ``select_move`` return a tuple of two ints; list-of-lists boards of sizes 6/8/10 with
  -1 empty, and either colour on either centre diagonal.

The harnesses know the rules on their own (square by square), so a move is checked
against an independent truth.
"""

from __future__ import annotations

import copy
import inspect
import os
import random
import re
import subprocess
import sys
import textwrap
import time

import pytest

from gamecore.adapters import ctu, ufrj
from gamecore.errors import InvalidLimitError, InvalidOptionError, InvalidPositionError, InvalidSizeError
from gamecore.games.othello import Othello
from gamecore.players import GreedyPlayer, RandomPlayer

DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]


@pytest.fixture
def backend(backend):
    """The name of the backend under test (the shared conftest fixture gives its modules)."""
    return backend.name


# -- a UFRJ-style framework --------------------------------------------------------------


class FrameworkMove:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class FrameworkBoard:
    EMPTY, BLACK, WHITE, OUTER = ".", "○", "●", "?"

    def __init__(self, board=None):
        if board is None:
            self.board = [[self.OUTER] * 10 for _ in range(10)]
            for i in range(1, 9):
                for j in range(1, 9):
                    self.board[i][j] = self.EMPTY
            self.board[4][4], self.board[4][5] = self.WHITE, self.BLACK
            self.board[5][4], self.board[5][5] = self.BLACK, self.WHITE
        else:
            self.board = copy.deepcopy(board)
        self.handed_out = []

    def _opponent(self, color):
        return self.WHITE if color == self.BLACK else self.BLACK

    def _flips(self, x, y, color):
        flips = []
        for dx, dy in DIRECTIONS:
            run = []
            i, j = x + dx, y + dy
            while self.board[i][j] == self._opponent(color):
                run.append((i, j))
                i, j = i + dx, j + dy
            if run and self.board[i][j] == color:
                flips += run
        return flips

    def valid_moves(self, color):
        moves = []
        for i in range(1, 9):
            for j in range(1, 9):
                if self.board[i][j] == self.EMPTY and self._flips(i, j, color):
                    moves.append(FrameworkMove(i, j))
        self.handed_out += moves
        return moves

    def play(self, move, color):
        for i, j in self._flips(move.x, move.y, color):
            self.board[i][j] = color
        self.board[move.x][move.y] = color

    def get_clone(self):
        return FrameworkBoard(self.board)

    def score(self):
        flat = [v for row in self.board for v in row]
        return [flat.count(self.WHITE), flat.count(self.BLACK)]


class FrameworkRandomPlayer:
    def __init__(self, color, seed=0):
        self.color = color
        self.rng = random.Random(seed)

    def play(self, board):
        return self.rng.choice(board.valid_moves(self.color))


def load_ufrj_player(path, color):
    """As the framework does: exec the file's text, take the last name it defined, call it with the colour."""
    namespace = {}
    with open(path, encoding="utf-8") as fh:
        exec(fh.read(), namespace)
    return namespace[list(namespace.keys())[-1]](color)


def play_ufrj_game(black, white, budget):
    board = FrameworkBoard()
    players = {FrameworkBoard.BLACK: black, FrameworkBoard.WHITE: white}
    color = FrameworkBoard.BLACK
    passes = 0
    slowest = 0.0
    while passes < 2:
        legal = {(m.x, m.y) for m in board.valid_moves(color)}
        if legal:
            clone = board.get_clone()
            start = time.thread_time()  # CPU time: a loaded machine stretches the wall clock, not this
            move = players[color].play(clone)
            elapsed = time.thread_time() - start
            if not isinstance(players[color], FrameworkRandomPlayer):
                slowest = max(slowest, elapsed)
                assert any(move is m for m in clone.handed_out), "not one of the framework's Move objects"
            assert (move.x, move.y) in legal
            board.play(move, color)
            passes = 0
        else:
            passes += 1
        color = board._opponent(color)
    # The player stops on the wall clock, so it spends at most its budget of CPU time, whatever
    # the load; a player that ignored its time would take seconds.
    assert slowest < budget + 0.25, slowest
    white, black = board.score()
    return black, white


def test_ufrj_converters(backend):
    game = Othello(backend=backend)
    for seed in range(5):
        player = RandomPlayer(seed)
        for _ in range(10 + seed * 7):
            if not game.is_game_over():
                game.push(player.choose_move(game))
        grid = ufrj.position_to_board(game)
        assert len(grid) == 10 and all(len(r) == 10 for r in grid)
        assert set(grid[0]) == {"?"} and all(r[0] == r[9] == "?" for r in grid)
        colour = "○" if game.turn == 0 else "●"
        back = ufrj.board_to_position(grid, colour, backend=backend)
        assert back.to_text() == game.to_text()
        # The framework's own move generator agrees with gamecore on the converted board.
        board = FrameworkBoard(grid)
        theirs = sorted((m.x - 1, m.y - 1) for m in board.valid_moves(colour))
        ours = sorted((m.row, m.col) for m in game.legal_moves() if not m.is_pass)
        assert theirs == ours
    with pytest.raises(InvalidPositionError):
        ufrj.board_to_position(FrameworkBoard(), "x")
    bad = FrameworkBoard()
    bad.board[3][3] = "#"
    with pytest.raises(InvalidPositionError):
        ufrj.board_to_position(bad, "○")


def test_ufrj_export_loads_like_the_framework(tmp_path):
    path = tmp_path / "models" / "players" / "gamecore_player.py"
    ufrj.export_player(str(path), time=0.2, depth=None, evaluation="standard")
    text = path.read_text(encoding="utf-8")
    assert "__file__" not in text and "from ." not in text
    player = load_ufrj_player(str(path), "●")
    assert type(player).__name__ == "GamecorePlayer" and player.color == "●"
    for seed in range(2):
        ours = load_ufrj_player(str(path), "○" if seed == 0 else "●")
        rival = FrameworkRandomPlayer("●" if seed == 0 else "○", seed)
        pair = (ours, rival) if seed == 0 else (rival, ours)
        black, white = play_ufrj_game(*pair, budget=0.2)
        assert black + white <= 64


def test_ufrj_player_full_games(backend):
    wins = 0
    for seed in range(3):
        ours_black = seed % 2 == 0
        ours = ufrj.UFRJPlayer("○" if ours_black else "●", time=0.1, backend=backend)
        rival = FrameworkRandomPlayer("●" if ours_black else "○", seed)
        black, white = play_ufrj_game(*((ours, rival) if ours_black else (rival, ours)), budget=0.1)
        wins += (black > white) if ours_black else (white > black)
    assert wins >= 2


def test_ufrj_player_accepts_any_gamecore_player(backend):
    ours = ufrj.UFRJPlayer("○", player=GreedyPlayer(), backend=backend)
    play_ufrj_game(ours, FrameworkRandomPlayer("●", 1), budget=1.0)


# -- a CTU-style framework ------------------------------------------------------------------


def ctu_start(size, first_diagonal_color):
    """The start: ``first_diagonal_color`` on the top-left/bottom-right centre squares."""
    board = [[-1] * size for _ in range(size)]
    h = size // 2
    other = 1 - first_diagonal_color
    board[h - 1][h - 1] = board[h][h] = first_diagonal_color
    board[h - 1][h] = board[h][h - 1] = other
    return board


def ctu_flips(board, r, c, color):
    n = len(board)
    if board[r][c] != -1:
        return []
    flips = []
    for dr, dc in DIRECTIONS:
        run = []
        i, j = r + dr, c + dc
        while 0 <= i < n and 0 <= j < n and board[i][j] == 1 - color:
            run.append((i, j))
            i, j = i + dr, j + dc
        if run and 0 <= i < n and 0 <= j < n and board[i][j] == color:
            flips += run
    return flips


def ctu_legal(board, color):
    n = len(board)
    return [(r, c) for r in range(n) for c in range(n) if ctu_flips(board, r, c, color)]


def play_ctu_game(players, size, first_color, diagonal_color, budget, seed=0):
    """Alternate from ``first_color``; a side without a move is skipped; ends when neither can move."""
    board = ctu_start(size, diagonal_color)
    rng = random.Random(seed)
    color = first_color
    passes = 0
    while passes < 2:
        legal = ctu_legal(board, color)
        if not legal:
            passes += 1
            color = 1 - color
            continue
        passes = 0
        player = players[color]
        if player is None:
            move = rng.choice(legal)
        else:
            method = player.move if rng.random() < 0.5 else player.select_move
            start = time.thread_time()  # CPU time, as in play_ufrj_game
            move = method([row[:] for row in board])
            elapsed = time.thread_time() - start
            assert type(move) is tuple and len(move) == 2 and all(type(v) is int for v in move), move
            assert move in legal
            # A shared machine may deschedule the process for a moment; a player that ignored
            # its time would overshoot by far more than this slack.
            assert elapsed < budget + 0.1, elapsed
        for i, j in ctu_flips(board, move[0], move[1], color):
            board[i][j] = color
        board[move[0]][move[1]] = color
        color = 1 - color
    flat = [v for row in board for v in row]
    return flat.count(0), flat.count(1)


def test_ctu_signature():
    params = inspect.signature(ctu.MyPlayer.__init__).parameters
    assert list(params) == ["self", "my_color", "opponent_color", "board_size"]
    assert params["board_size"].default == 8
    player = ctu.MyPlayer(my_color=1, opponent_color=0, board_size=6)
    assert (player.my_color, player.opponent_color, player.board_size) == (1, 0, 6)


def test_ctu_converters(backend):
    board = ctu_start(8, 1)
    pos = ctu.board_to_position(board, 0, 1, backend=backend)
    assert pos.turn == 0  # my colour is to move, as gamecore's black
    ours = sorted((m.row, m.col) for m in pos.legal_moves())
    assert ours == sorted(ctu_legal(board, 0))
    assert ctu.position_to_board(pos, colors=(0, 1)) == board
    pos = ctu.board_to_position(board, 1, 0, backend=backend)
    assert sorted((m.row, m.col) for m in pos.legal_moves()) == sorted(ctu_legal(board, 1))
    with pytest.raises(InvalidPositionError):
        ctu.board_to_position([[-1, 2], [0, 1]], 0, 1)
    with pytest.raises(InvalidPositionError):
        ctu.board_to_position(board, 0, 0)
    with pytest.raises(InvalidSizeError):
        ctu.board_to_position([[-1] * 5 for _ in range(5)], 0, 1)
    with pytest.raises(InvalidSizeError):
        ctu.MyPlayer(0, 1, board_size=7)


@pytest.mark.parametrize("size", [6, 8, 10])
def test_ctu_every_start_orientation(backend, size):
    # Either colour moves first, either colour on the main centre diagonal, ours either colour.
    for first in (0, 1):
        for diagonal in (0, 1):
            for mine in (0, 1):
                player = ctu.CTUPlayer(mine, 1 - mine, size, time=0.3, backend=backend)
                board = ctu_start(size, diagonal)
                # Whoever is to move: the harness asks only the side to move.
                if mine == first:
                    move = player.move([row[:] for row in board])
                    assert type(move) is tuple and all(type(v) is int for v in move)
                    assert move in ctu_legal(board, mine)


@pytest.mark.parametrize("size", [6, 8, 10])
def test_ctu_full_games_against_random(backend, size):
    wins = 0
    games = 2
    for seed in range(games):
        mine = seed % 2
        player = ctu.CTUPlayer(mine, 1 - mine, size, time=0.04, backend=backend)
        players = {mine: player, 1 - mine: None}
        # The budget leaves room for a busy shared machine; a player that ignored its time
        # limit would search on for seconds and still fail it.
        scores = play_ctu_game(
            players, size, first_color=seed % 2, diagonal_color=(seed // 2) % 2, budget=0.04 + 0.25, seed=seed
        )
        wins += scores[mine] > scores[1 - mine]
    assert wins >= 1


def test_ctu_my_player_one_second():
    player = ctu.MyPlayer(0, 1)
    board = ctu_start(8, 1)
    rng = random.Random(3)
    color = 0
    for _ in range(12):  # a few random plies to reach a midgame
        legal = ctu_legal(board, color)
        r, c = rng.choice(legal)
        for i, j in ctu_flips(board, r, c, color):
            board[i][j] = color
        board[r][c] = color
        color = 1 - color
    if color != 0:
        board = [[1 - v if v >= 0 else v for v in row] for row in board]
    start = time.perf_counter()
    move = player.select_move(board)
    assert time.perf_counter() - start < 1.0
    assert move in ctu_legal(board, 0)


def test_ctu_no_legal_move_returns_none():
    board = [[-1] * 6 for _ in range(6)]
    board[0][0] = 0
    board[2][2] = board[2][3] = 1  # white can move (a pass for us), we cannot
    assert ctu_legal(board, 0) == [] and ctu_legal(board, 1) == []
    board[2][4] = 0
    board[0][0] = -1
    board[2][2] = -1  # now: 0 at (2,4), 1 at (2,3): we can play (2,2); opponent can play (2,5)
    assert ctu_legal(board, 0) == [(2, 2)]
    assert ctu.MyPlayer(0, 1, board_size=6).move(board) == (2, 2)
    board[2][2] = 1
    board[2][3] = -1
    board[2][4] = 1
    board[5][5] = 0  # 0 has a lone disc and no move
    assert ctu_legal(board, 0) == []
    assert ctu.MyPlayer(0, 1, board_size=6).move(board) is None


def test_ctu_export_with_gamecore(tmp_path):
    path = tmp_path / "player.py"
    ctu.export_player(str(path), time=0.2)
    namespace = {"__name__": "player"}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    player = namespace["MyPlayer"](1, 0, board_size=6)
    play_ctu_game({1: player, 0: None}, 6, first_color=0, diagonal_color=1, budget=0.2)


# -- the standalone CTU file ------------------------------------------------------------------------

_VENV_SCRIPT = textwrap.dedent(
    """
    import importlib.util, random, sys, time
    assert importlib.util.find_spec("gamecore") is None, "gamecore must not be importable here"
    sys.path.insert(0, sys.argv[1])
    import player as submission
    assert "gamecore" not in sys.modules

    DIRS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]

    def flips(board, r, c, color):
        n = len(board)
        if board[r][c] != -1:
            return []
        out = []
        for dr, dc in DIRS:
            run, i, j = [], r + dr, c + dc
            while 0 <= i < n and 0 <= j < n and board[i][j] == 1 - color:
                run.append((i, j)); i += dr; j += dc
            if run and 0 <= i < n and 0 <= j < n and board[i][j] == color:
                out += run
        return out

    def legal(board, color):
        n = len(board)
        return [(r, c) for r in range(n) for c in range(n) if flips(board, r, c, color)]

    budget = float(sys.argv[2])
    wins = games = 0
    slowest = 0.0
    for seed, size in enumerate([int(s) for s in sys.argv[3].split(",")]):
        rng = random.Random(seed)
        mine = seed % 2
        bot = submission.MyPlayer(mine, 1 - mine, size)
        board = [[-1] * size for _ in range(size)]
        h = size // 2
        d = (seed // 2) % 2
        board[h - 1][h - 1] = board[h][h] = d
        board[h - 1][h] = board[h][h - 1] = 1 - d
        color, passes = rng.randrange(2), 0
        while passes < 2:
            moves = legal(board, color)
            if not moves:
                passes += 1; color = 1 - color; continue
            passes = 0
            if color == mine:
                start = time.thread_time()
                move = bot.move([row[:] for row in board])
                slowest = max(slowest, time.thread_time() - start)
                assert type(move) is tuple and all(type(v) is int for v in move) and move in moves, move
            else:
                move = rng.choice(moves)
            for i, j in flips(board, move[0], move[1], color):
                board[i][j] = color
            board[move[0]][move[1]] = color
            color = 1 - color
        flat = [v for row in board for v in row]
        games += 1
        wins += flat.count(mine) > flat.count(1 - mine)
    print(wins, games, round(slowest, 3))
    """
)


def test_standalone_ctu_player_in_a_fresh_venv(tmp_path):
    out_dir = tmp_path / "submission"
    path = ctu.export_player(str(out_dir / "player.py"), time=0.1, standalone=True)
    text = open(path, encoding="utf-8").read()
    assert len(text.encode("utf-8")) < 1_000_000
    assert "import gamecore" not in text and "from gamecore" not in text
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
    script = tmp_path / "referee.py"
    script.write_text(_VENV_SCRIPT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "GAMECORE_BACKEND")}
    proc = subprocess.run(
        [str(python), "-I", str(script), str(out_dir), "0.1", "6,6,6,6,6,8"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    wins, games, slowest = proc.stdout.split()
    assert int(games) == 6
    assert int(wins) >= 4, proc.stdout
    assert float(slowest) < 0.1 + 0.1  # CPU time of a move: a loaded machine does not stretch it


@pytest.mark.parametrize(
    ("export", "options", "error"),
    [
        (ufrj.export_player, {"time": 10.5}, InvalidLimitError),  # the UFRJ framework allows 10 s
        (ufrj.export_player, {"time": 0}, InvalidLimitError),
        (ufrj.export_player, {"depth": 0}, InvalidLimitError),
        (ufrj.export_player, {"evaluation": "nope"}, InvalidOptionError),
        (ctu.export_player, {"time": 61}, InvalidLimitError),
        (ctu.export_player, {"time": True}, InvalidLimitError),
        (ctu.export_player, {"depth": 2.5}, InvalidLimitError),
        (ctu.export_player, {"evaluation": 3}, InvalidOptionError),
        (ctu.export_player, {"evaluation": "nope", "standalone": True}, InvalidOptionError),
    ],
)
def test_export_refuses_bad_settings_with_a_gamecore_error_and_writes_nothing(export, options, error, tmp_path):
    path = tmp_path / "x_player.py"
    with pytest.raises(error):
        export(str(path), **options)
    assert not path.exists()
    # The same settings within range write a file.
    assert os.path.exists(export(str(tmp_path / "ok_player.py"), time=1, depth=2, evaluation="standard"))


def test_the_readme_states_the_standalone_files_size(tmp_path):
    readme = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")
    if not os.path.exists(readme):
        pytest.skip("the tests run outside the source tree: no README.md beside them")
    with open(readme, encoding="utf-8") as f:
        stated = re.search(r"`--standalone` writes a single flat file of about (\d+) KB", f.read())
    assert stated, "README's CTU section no longer states the standalone file's size"
    size = os.path.getsize(ctu.export_player(str(tmp_path / "player.py"), standalone=True))
    assert abs(size / 1000 - int(stated.group(1))) <= 0.15 * int(stated.group(1)), size
