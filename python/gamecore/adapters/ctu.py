"""The CTU "Reversi" course framework: board converters and a drop-in ``MyPlayer``.

The framework's conventions:

- the module ``player.py`` holds ``MyPlayer(my_color, opponent_color, board_size=8)``
  with exactly those parameter names;
- ``move(board)`` and ``select_move(board)`` both return a ``tuple`` of two Python
  ints ``(row, col)``, 0-based; the board is a list of lists, ``-1`` empty and the
  two colours ``0``/``1``; sizes 6, 8 and 10; 1 to 5 s a move;
- nothing says which colour sits on which centre diagonal at the start, so the
  player never assumes it: when ``move`` is called, ``my_color`` is to move.

Because of the last point, :func:`board_to_position` puts the player to move on
gamecore's black side (``X``): the searches only care about who is to move.

>>> from gamecore.adapters.ctu import MyPlayer
>>> board = [[-1] * 6 for _ in range(6)]
>>> board[2][2] = board[3][3] = 1
>>> board[2][3] = board[3][2] = 0
>>> player = MyPlayer(0, 1, board_size=6)
>>> move = player.move(board)
>>> type(move) is tuple and all(type(v) is int for v in move)
True
"""

from __future__ import annotations

import ast
import os
import time as _time
from collections.abc import Sequence
from typing import Any

from .._version import __version__
from ..errors import GamecoreError, InvalidBoardError, InvalidPositionError, InvalidSizeError
from ..games.othello import BLACK, WHITE, Othello
from ..players import EnginePlayer, Player
from ..search.engine import MAX_DEPTH, Engine
from ._export import check_export_options, write_player

__all__ = [
    "EMPTY",
    "board_to_position",
    "position_to_board",
    "CTUPlayer",
    "MyPlayer",
    "player_source",
    "standalone_source",
    "export_player",
    "STANDALONE_MODULES",
]

EMPTY = -1
DEFAULT_TIME = 1.0


def _check_colors(my_color: Any, opponent_color: Any) -> None:
    for name, value in (("my_color", my_color), ("opponent_color", opponent_color)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidPositionError(f"{name} must be a colour number (0 or 1), got {value!r}")
    if my_color == opponent_color:
        raise InvalidPositionError("my_color and opponent_color must differ")


def board_to_position(
    board: Sequence[Sequence[int]], my_color: int, opponent_color: int, *, backend: str | None = None
) -> Othello:
    """The gamecore position of a CTU board with ``my_color`` to move.

    The side to move is gamecore's black (``X``), the other colour white: the CTU board
    does not say which colour started, and the search needs only who is to move.

    :raises InvalidBoardError: a non-square board or a cell that is not exactly the int -1 or
        one of the colours (the message names the cell); the board is only read.
    :raises InvalidSizeError: a size other than 4, 6, 8 or 10.
    """
    _check_colors(my_color, opponent_color)
    if isinstance(board, (str, bytes)) or not isinstance(board, Sequence):
        raise InvalidBoardError(f"a CTU board is a list of lists of ints (-1 empty, 0/1 colours), got {board!r:.60}")
    mapping = {EMPTY: -1, my_color: BLACK, opponent_color: WHITE}
    n = len(board)
    cells = []
    for r, row in enumerate(board):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != n:
            raise InvalidBoardError(f"row {r} of the CTU board is not a list of {n} cells: {row!r:.60}")
        out = []
        for c, v in enumerate(row):
            # Exactly an int (numpy integers too): not 0.9, True or "1".
            if isinstance(v, bool) or not hasattr(type(v), "__index__") or v not in mapping:
                raise InvalidBoardError(
                    f"cell ({r}, {c}) of the CTU board is {v!r}: expected the int -1, {my_color} or {opponent_color}"
                )
            out.append(mapping[int(v)])
        cells.append(out)
    return Othello.from_cells(cells, turn=BLACK, backend=backend)


def position_to_board(position: Othello, colors: tuple[int, int] = (0, 1)) -> list[list[int]]:
    """The CTU list of lists of a gamecore position: ``colors[BLACK]`` for black discs,
    ``colors[WHITE]`` for white ones, -1 for empty squares."""
    values = {-1: EMPTY, BLACK: colors[0], WHITE: colors[1]}
    return [[values[v] for v in row] for row in position.cells()]


class CTUPlayer:
    """A gamecore player with the CTU interface and gamecore's options.

    :param time: seconds a move (kept with a safety margin).
    :param player: any gamecore player (default: the alpha-beta engine with ``depth``/``evaluation``).
    """

    def __init__(
        self,
        my_color: int,
        opponent_color: int,
        board_size: int = 8,
        *,
        time: float = DEFAULT_TIME,
        depth: int | None = None,
        evaluation: Any = "default",
        player: Player | None = None,
        backend: str | None = None,
    ) -> None:
        _check_colors(my_color, opponent_color)
        if (
            isinstance(board_size, bool)
            or not isinstance(board_size, int)
            or board_size % 2
            or not 4 <= board_size <= 10
        ):
            raise InvalidSizeError(f"board_size must be 4, 6, 8 or 10, got {board_size!r}")
        self.name = "gamecore"
        self.my_color = my_color
        self.opponent_color = opponent_color
        self.board_size = board_size
        self.time = time
        self.backend = backend
        self.player = player if player is not None else EnginePlayer(depth=depth, time=time, evaluation=evaluation)

    def move(self, board: Sequence[Sequence[int]]) -> tuple[int, int] | None:
        """``(row, col)`` of the move to play, or ``None`` when ``my_color`` has no legal move."""
        start = _time.perf_counter()
        position = board_to_position(board, self.my_color, self.opponent_color, backend=self.backend)
        legal = position.legal_moves()
        if not legal or legal[0].is_pass:
            return None
        if len(legal) == 1:
            move = legal[0]
        else:
            budget = max(0.02, self.time - (_time.perf_counter() - start))
            move = self.player.choose_move(position, budget)
        return (int(move.row), int(move.col))

    def select_move(self, board: Sequence[Sequence[int]]) -> tuple[int, int] | None:
        """The same as :meth:`move` (the framework calls one or the other)."""
        return self.move(board)


class MyPlayer(CTUPlayer):
    """The CTU entry point: ``MyPlayer(my_color, opponent_color, board_size=8)``, 1 s a move."""

    def __init__(self, my_color: int, opponent_color: int, board_size: int = 8) -> None:
        super().__init__(my_color, opponent_color, board_size)


# -- export ------------------------------------------------------------------------------

_PLAYER_TEMPLATE = '''\
"""A gamecore player for the CTU Reversi framework.

Written by `gamecore export ctu` (gamecore {version}); needs gamecore installed in the same
Python (from a gamecore source checkout: pip install .). For a file without that dependency, export with --standalone.

Settings: {time:g} s a move, depth {depth}, evaluation {evaluation!r}.
"""

TIME_PER_MOVE = {time!r}
DEPTH = {depth!r}
EVALUATION = {evaluation!r}


class MyPlayer:
    """gamecore's alpha-beta engine behind the CTU interface."""

    def __init__(self, my_color, opponent_color, board_size=8):
        from gamecore.adapters.ctu import CTUPlayer

        self.name = "gamecore"
        self.my_color = my_color
        self.opponent_color = opponent_color
        self.board_size = board_size
        self._player = CTUPlayer(
            my_color, opponent_color, board_size, time=TIME_PER_MOVE, depth=DEPTH, evaluation=EVALUATION
        )

    def move(self, board):
        return self._player.move(board)

    def select_move(self, board):
        return self._player.select_move(board)
'''


def player_source(*, time: float = DEFAULT_TIME, depth: int | None = None, evaluation: str = "default") -> str:
    """The text of a CTU ``player.py`` that uses the installed gamecore."""
    check_export_options(time, depth, evaluation, most_seconds=60, framework="CTU")
    return _PLAYER_TEMPLATE.format(version=__version__, time=float(time), depth=depth, evaluation=evaluation)


#: The pure-Python modules the standalone player starts from (dotted paths inside the
#: gamecore package); the ones they import (relative imports, found by reading their
#: source) are added automatically.
STANDALONE_MODULES = ("games._othello_py", "search._alphabeta_py", "search._endgame_py")
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STANDALONE_PACKAGE = "_gamecore_standalone"


def _module_source(name: str) -> str:
    with open(os.path.join(_PACKAGE_DIR, *name.split(".")) + ".py", encoding="utf-8") as fh:
        return fh.read()


def _relative_imports(name: str, source: str) -> list[str]:
    """Modules of the gamecore package that module ``name`` imports with relative imports
    (``from .x import ...``, ``from ..x import ...``, ``from . import x``), as dotted paths."""
    package = name.split(".")[:-1]
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level:
            if node.level - 1 > len(package):
                raise ValueError("the standalone export takes only modules of the gamecore package itself")
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                names.append(".".join(base + node.module.split(".")))
            else:
                names.extend(".".join(base + [alias.name]) for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "gamecore":
                    raise ValueError("a module of the standalone export imports gamecore by absolute name")
    return names


def _standalone_modules() -> dict[str, str]:
    """Source of every module the standalone player needs, dependencies first."""
    ordered: dict[str, str] = {}
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in ordered or name in visiting:
            return
        visiting.add(name)
        source = _module_source(name)
        for dep in _relative_imports(name, source):
            visit(dep)
        ordered[name] = source

    for name in STANDALONE_MODULES:
        visit(name)
    return ordered


def _evaluation_weights(evaluation: str, size: int) -> list[int]:
    """The feature weights the installed gamecore uses for evaluation ``evaluation`` on ``size``."""
    return Engine(evaluation).evaluation_weights(Othello(size, backend="python"))


_STANDALONE_HEAD = '''\
"""A gamecore player for the CTU Reversi framework: one self-contained file.

Written by `gamecore export ctu --standalone` (gamecore {version}). Pure Python, no
dependency: the gamecore modules it needs ({modules}) are embedded below, unchanged, and
loaded as the private package {package!r}. Iterative-deepening alpha-beta with a
transposition table; {time:g} s a move with a safety margin, depth {depth}, evaluation {evaluation!r}.
"""

import sys as _sys
import time as _time
import types as _types

TIME_PER_MOVE = {time!r}
MAX_DEPTH = {max_depth!r}
#: Safety margin: the search gets TIME_PER_MOVE * (1 - MARGIN) - 0.02 s, less what reading the board took.
MARGIN = 0.15
TT_MB = 16
#: Solve exactly at this many empty squares or fewer.
ENDGAME_EMPTIES = 8
#: Evaluation weights per board size (features: {features}).
WEIGHTS = {weights!r}

_SOURCES = {{}}
'''

_STANDALONE_TAIL = '''

def _load_gamecore():
    """Load the embedded modules as the package {package!r} (once per process)."""
    name = {package!r}
    if name in _sys.modules:
        return _sys.modules[name]
    root = _types.ModuleType(name)
    root.__path__ = []
    _sys.modules[name] = root
    for module in {order!r}:
        parent = root
        for part in module.split(".")[:-1]:  # subpackages (games, search), made on first use
            child = getattr(parent, part, None)
            if child is None:
                child = _types.ModuleType(parent.__name__ + "." + part)
                child.__path__ = []
                _sys.modules[child.__name__] = child
                setattr(parent, part, child)
            parent = child
        mod = _types.ModuleType(name + "." + module)
        mod.__package__ = parent.__name__
        _sys.modules[mod.__name__] = mod
        exec(compile(_SOURCES[module], "<gamecore/" + module.replace(".", "/") + ".py>", "exec"), mod.__dict__)
        setattr(parent, module.split(".")[-1], mod)
    return root


class MyPlayer:
    """gamecore's alpha-beta engine behind the CTU interface (my_color is the side to move)."""

    def __init__(self, my_color, opponent_color, board_size=8):
        self.name = "gamecore"
        self._gc = _load_gamecore()
        for value in (my_color, opponent_color):
            if type(value) is bool or not hasattr(type(value), "__index__") or value < 0:
                raise self._gc.errors.InvalidPositionError("a colour is an int >= 0, got %r" % (value,))
        if my_color == opponent_color:
            raise self._gc.errors.InvalidPositionError("my_color and opponent_color must differ")
        self.my_color = my_color
        self.opponent_color = opponent_color
        self.board_size = board_size
        self._searcher = self._gc.search._alphabeta_py.Searcher(TT_MB)

    def _bitboards(self, board):
        """(mine, theirs) of a square board of exactly -1 / my_color / opponent_color ints."""
        bad = self._gc.errors.InvalidBoardError
        n = len(board)
        if n not in (4, 6, 8, 10):
            raise bad("a board of 4, 6, 8 or 10 rows, got %d" % n)
        mine = theirs = 0
        for r in range(n):
            row = board[r]
            if len(row) != n:
                raise bad("row %d of the board has %d cells, expected %d" % (r, len(row), n))
            for c in range(n):
                v = row[c]
                if type(v) is bool or not hasattr(type(v), "__index__"):
                    v = None  # not 0.9, True or "1"
                if v == self.my_color:
                    mine |= 1 << (r * n + c)
                elif v == self.opponent_color:
                    theirs |= 1 << (r * n + c)
                elif v != -1:
                    raise bad("cell (%d, %d) of the board is %r: expected the int -1, %r or %r"
                              % (r, c, row[c], self.my_color, self.opponent_color))
        return n, mine, theirs

    def move(self, board):
        start = _time.perf_counter()
        n, mine, theirs = self._bitboards(board)
        core = self._gc.games._othello_py.OthelloCore(n)
        core.set_board(mine, theirs, 0)
        legal = core.gen_moves()
        if not legal or legal[0] < 0:
            return None  # no legal move: the framework passes for us
        if len(legal) == 1:
            move = legal[0]
        else:
            budget = max(0.01, TIME_PER_MOVE * (1.0 - MARGIN) - 0.02 - (_time.perf_counter() - start))
            move = None
            if core.num_empty() <= ENDGAME_EMPTIES:
                solved = self._gc.search._endgame_py.solve_exact(core.copy(), node_limit=0, time_limit=budget)
                if solved[3]:  # completed in time: a perfect move
                    move = solved[0]
            if move is None:
                budget = max(0.01, TIME_PER_MOVE * (1.0 - MARGIN) - 0.02 - (_time.perf_counter() - start))
                limits = self._gc.search._options.SearchLimits(MAX_DEPTH, seconds=budget)
                move = self._searcher.search(core, limits, weights=WEIGHTS[n]).move
            if move not in legal:
                move = legal[0]
        return (int(move // n), int(move % n))

    def select_move(self, board):
        return self.move(board)
'''


def _string_literal(text: str) -> str:
    """A literal for ``text``: a readable raw triple-quoted string when that is exact, else ``repr``."""
    if "'''" not in text and not text.endswith("\\") and "\r" not in text:
        literal = "r'''" + text + "'''"
        if ast.literal_eval(literal) == text:
            return literal
    return repr(text)


def standalone_source(*, time: float = DEFAULT_TIME, depth: int | None = None, evaluation: str = "standard") -> str:
    """The text of a standalone CTU ``player.py``: pure Python, no gamecore needed.

    It embeds the pure-Python twins (``STANDALONE_MODULES`` and what they import) as they
    are in this installation, so it always plays like ``gamecore`` with the python backend.
    """
    check_export_options(time, depth, evaluation, most_seconds=60, framework="CTU")
    modules = _standalone_modules()
    weights = {size: _evaluation_weights(evaluation, size) for size in (4, 6, 8, 10)}
    max_depth = depth if depth is not None else MAX_DEPTH - 1
    parts = [
        _STANDALONE_HEAD.format(
            version=__version__,
            modules=", ".join(modules),
            package=_STANDALONE_PACKAGE,
            time=float(time),
            depth=depth if depth is not None else "unlimited",
            evaluation=evaluation,
            max_depth=max_depth,
            features=", ".join(Othello(backend="python").features()),
            weights=weights,
        )
    ]
    for name, source in modules.items():
        parts.append(f"\n_SOURCES[{name!r}] = {_string_literal(source)}\n")
    parts.append(_STANDALONE_TAIL.format(package=_STANDALONE_PACKAGE, order=tuple(modules)))
    return "".join(parts)


def export_player(
    path: str,
    *,
    time: float = DEFAULT_TIME,
    depth: int | None = None,
    evaluation: str | None = None,
    standalone: bool = False,
) -> str:
    """Write a CTU ``player.py`` to ``path``; with ``standalone`` one flat pure-Python file
    that needs no gamecore. Returns the path. ``evaluation`` ``None``: the engine's default
    (the learned one on 6x6, 8x8 and 10x10), or ``"standard"`` standalone (the learned weights, 1.4-3.3 MB
    a size, do not fit the CTU upload limit of 1 MB)."""
    if evaluation is None:
        evaluation = "standard" if standalone else "default"
    text = (standalone_source if standalone else player_source)(time=time, depth=depth, evaluation=evaluation)
    if standalone and len(text.encode("utf-8")) >= 1_000_000:  # pragma: no cover - guarded by a test
        raise GamecoreError("the standalone player grew over 1 MB, the CTU upload limit")
    return write_player(path, text)
