"""Every public name has an entry in the built API reference.

Builds ``docs/`` with Sphinx (the ``docs`` extra) and reads the object inventory it writes
(``objects.inv``: the index a reader's search and cross-references use). A name counts as
documented when the reference has it where it is defined, or on a public class it inherits
from (``Othello.push`` is documented once, on ``Position``).
"""

from __future__ import annotations

import importlib
import inspect
import zlib
from pathlib import Path

import pytest

import gamecore

sphinx_build = pytest.importorskip("sphinx.cmd.build", reason='the reference needs Sphinx: pip install ".[docs]"')

DOCS = Path(__file__).resolve().parents[1] / "docs"

#: Modules whose ``__all__`` a user imports from, besides the package itself.
PUBLIC_MODULES = ["gamecore", "gamecore.errors", "gamecore.players", "gamecore.referee", "gamecore.report"]

#: Names in ``__all__`` that are data, documented with ``py:data`` under the package.
DATA = {"__version__", "BACKEND", "GAMES"}


def _inventory(path: Path) -> set[str]:
    """The object names of a Sphinx ``objects.inv`` (version 2: four header lines, then
    zlib-compressed lines ``name domain:role priority uri dispname``)."""
    raw = path.read_bytes()
    lines = raw.split(b"\n", 4)
    assert lines[0].startswith(b"# Sphinx inventory version 2"), lines[0]
    body = zlib.decompress(lines[4]).decode("utf-8")
    return {line.split(" ", 1)[0] for line in body.splitlines() if " py:" in line}


@pytest.fixture(scope="module")
def documented(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    if not (DOCS / "conf.py").exists():
        pytest.skip("docs/ is not beside the tests")
    out = tmp_path_factory.mktemp("reference")
    status = sphinx_build.build_main(["-q", "-W", "--keep-going", "-b", "html", str(DOCS), str(out)])
    assert status == 0, "sphinx-build -W failed: see the warnings above"
    return _inventory(out / "objects.inv")


def _where(obj: object) -> str | None:
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else None


def _public_classes(cls: type) -> list[str]:
    """``cls`` and the classes it inherits from whose module path is public."""
    names = []
    for base in inspect.getmro(cls):
        where = _where(base)
        if where and base is not object and not any(part.startswith("_") for part in where.split(".")):
            names.append(where)
    return names


def _missing_members(cls: type, documented: set[str]) -> list[str]:
    places = _public_classes(cls)
    missing = []
    for name, value in vars_of(cls).items():
        if name.startswith("_") or isinstance(value, (int, str)) and not callable(value):
            continue  # colours and constants are documented as members of their enum
        if name == "Color":
            continue  # each game's colour class is documented as itself (OthelloColor, ...): docs/conf.py
        if not any(f"{place}.{name}" in documented for place in places):
            missing.append(f"{cls.__qualname__}.{name}")
    return missing


def vars_of(cls: type) -> dict[str, object]:
    """Public attributes of ``cls`` and of the classes it inherits from (the first wins)."""
    found: dict[str, object] = {}
    for base in inspect.getmro(cls):
        if base is object:
            continue
        for name, value in vars(base).items():
            found.setdefault(name, value)
    return found


def test_the_inventory_reader_reads_a_known_entry(documented: set[str]) -> None:
    # The reader is not vacuous: a class every page build documents is found, a made-up one is not.
    assert "gamecore.games.othello.Othello" in documented
    assert "gamecore.games.othello.Othello.no_such_member" not in documented


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_public_name_is_in_the_reference(documented: set[str], module_name: str) -> None:
    module = importlib.import_module(module_name)
    missing = []
    for name in module.__all__:
        obj = getattr(module, name)
        # Documented where it is defined, or where this module re-exports it.
        places = {f"{module_name}.{name}"}
        if not (module_name == "gamecore" and name in DATA) and _where(obj):
            places.add(str(_where(obj)))
        if not places & documented:
            missing.append(f"{module_name}.{name} (or {', '.join(sorted(places))})")
    assert not missing, f"not in the API reference: {missing}"


@pytest.mark.parametrize("game", ["Othello", "Tetralath", "Rolit"])
def test_every_public_member_of_each_game_is_in_the_reference(documented: set[str], game: str) -> None:
    # Includes what every game inherits: legal_moves, push, pop, play, copy, is_game_over,
    # peek, move_stack, turn.
    missing = _missing_members(getattr(gamecore, game), documented)
    assert not missing, f"not in the API reference: {missing}"


@pytest.mark.parametrize("name", ["Engine", "SearchResult", "SolveResult"])
def test_every_public_member_of_the_search_types_is_in_the_reference(documented: set[str], name: str) -> None:
    missing = _missing_members(getattr(gamecore, name), documented)
    assert not missing, f"not in the API reference: {missing}"
