"""What a user's type checker sees: real move types, not ``Any``, for every game.

The package itself is checked by ``mypy`` in CI; this runs mypy on a user's script and reads
its ``reveal_type`` notes, so a change that loses the types (``legal_moves() -> list``) fails.
"""

from __future__ import annotations

import textwrap

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy is in the lint extra")

SCRIPT = """
from gamecore import Othello, Rolit, Tetralath, search, solve
from gamecore.search import MCTS

reveal_type(Othello().legal_moves())
reveal_type(Tetralath().legal_moves())
reveal_type(Rolit().legal_moves())
reveal_type(Othello().pop())
reveal_type(Othello().play("d3"))
reveal_type(search(Othello(), depth=1).move)
reveal_type(search(Tetralath(), depth=1).pv)
reveal_type(solve(Othello()).move)
reveal_type(MCTS().search(Rolit(), iterations=10).move)
reveal_type(Othello().core)
reveal_type(Tetralath().core.gen_moves())
reveal_type(search(Othello(), depth=1).proven)
"""

EXPECTED = [
    "list[gamecore.games.othello.OthelloMove]",
    "list[gamecore.games.tetralath.TetralathMove]",
    "list[gamecore.games.rolit.RolitMove]",
    "gamecore.games.othello.OthelloMove",
    "gamecore.games.othello.Othello",
    "gamecore.games.othello.OthelloMove | None",
    "list[gamecore.games.tetralath.TetralathMove]",
    "gamecore.games.othello.OthelloMove | None",
    "gamecore.games.rolit.RolitMove",
    "gamecore.games._othello_py.OthelloCore",
    "list[int]",
    "str | None",
]


def test_positions_and_results_are_typed_by_the_game(tmp_path):
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    out, err, status = mypy_api.run(
        [
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--python-version",
            "3.10",
            str(script),
        ]
    )
    revealed = [line.split('Revealed type is "', 1)[1].rstrip('"') for line in out.splitlines() if "Revealed" in line]
    assert revealed == EXPECTED, out + err
    assert "error" not in out, out
