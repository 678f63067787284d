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


def _check(tmp_path, source: str) -> tuple[list[str], list[str], str]:
    """mypy --strict on a user's script: its revealed types, its error lines (``LINE: message``)
    and the whole output."""
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(source))
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
    errors = [line.split(":", 1)[1].replace(" error:", "") for line in out.splitlines() if ": error:" in line]
    return revealed, errors, out + err


def test_positions_and_results_are_typed_by_the_game(tmp_path):
    revealed, errors, output = _check(tmp_path, SCRIPT)
    assert revealed == EXPECTED, output
    assert errors == [], output


# Code written for any game reads the members every core has (gamecore.games.Core); a member
# only some cores have is read through the game's own class.
CORE_RIGHT = """
from typing import Any

from gamecore import Othello, Rolit, Tetralath
from gamecore.games import Core, Position


def mobility(position: Position[Any]) -> int:
    core: Core = position.core
    return len(core.legal_moves()) + core.turn + sum(core.counts()) + len(core.bitboards())


def swap_rule(position: Position[Any]) -> bool:
    reveal_type(position.core)
    return isinstance(position, Tetralath) and position.core.swap_rule


reveal_type(Othello().core.copy())
reveal_type(Rolit().core.colours)
reveal_type(mobility(Rolit()))
"""

CORE_RIGHT_EXPECTED = [
    "gamecore.games.base.Core",
    "gamecore.games._othello_py.OthelloCore",
    "tuple[int, ...]",
    "int",
]

CORE_WRONG = """
from typing import Any

from gamecore import Othello
from gamecore.games import Position


def wrong(position: Position[Any]) -> None:
    position.core.colours
    position.core.push("d3")
    Othello().core.swap_rule
"""

CORE_WRONG_ERRORS = [
    '9: "Core" has no attribute "colours"  [attr-defined]',
    '10: Argument 1 to "push" of "Core" has incompatible type "str"; expected "int"  [arg-type]',
    '11: "OthelloCore" has no attribute "swap_rule"  [attr-defined]',
]


def test_position_core_is_typed_for_any_game(tmp_path):
    revealed, errors, output = _check(tmp_path, CORE_RIGHT)
    assert errors == [], output
    assert revealed == CORE_RIGHT_EXPECTED, output


def test_a_member_only_some_cores_have_fails_the_check(tmp_path):
    revealed, errors, output = _check(tmp_path, CORE_WRONG)
    assert errors == CORE_WRONG_ERRORS, output
