"""The package as a whole: every module imports alone, every pure/compiled pair mirrors.

- Each module of gamecore imports in a fresh interpreter on its own (``python -I -W error``),
  so no module depends on another having been imported first and no import cycle hides.
- Every core module exists in both backends (``pybindings/gamecore/<path>_cy.pyx`` and
  ``python/gamecore/<path>_py.py``), and each pair exports the same public names.
- A compiled module that others ``cimport`` has its ``.pxd`` beside its ``.pyx``, and the
  Python package holds none.
"""

from __future__ import annotations

import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import gamecore
from conftest import cython_required
from gamecore import _backend


def all_modules() -> list[str]:
    """Every module of the installed package that Python can import (compiled ones included)."""
    names = ["gamecore"]
    for info in pkgutil.walk_packages(gamecore.__path__, "gamecore."):
        names.append(info.name)
    return sorted(names)


def test_the_package_lists_its_modules():
    names = all_modules()
    for expected in ("gamecore.games.othello", "gamecore.search.engine", "gamecore.cli", "gamecore.players"):
        assert expected in names


# Modules whose import is allowed to fail for a documented reason (optional extras).
#: Modules that need an optional extra, and the modules whose absence may stop their import.
RL = ("numpy",)
OPTIONAL = {
    "gamecore.report.pdf": ("matplotlib",),
    "gamecore.web.app": ("starlette",),
    "gamecore.web.bench": ("httpx2", "starlette"),
    "gamecore.rl": RL,
    "gamecore.rl._common": RL,
    "gamecore.rl.pettingzoo_env": (*RL, "pettingzoo"),
    "gamecore.rl.gymnasium_env": (*RL, "gymnasium"),
    "gamecore.rl.openspiel_game": (*RL, "pyspiel"),
}


@pytest.mark.parametrize("module", all_modules())
def test_every_module_imports_alone(module):
    if module.endswith("_cy") and not cython_required():
        try:
            _backend.load("cython")
        except ImportError:
            pytest.skip("compiled backend not installed")
    env = dict(os.environ)
    env.setdefault("GAMECORE_BACKEND", "auto")
    # -I ignores PYTHONPATH: in a source checkout the package is found through it, so keep it.
    flags = ["-W", "error"] if env.get("PYTHONPATH") else ["-I", "-W", "error"]
    run = subprocess.run([sys.executable, *flags, "-c", f"import {module}"], capture_output=True, text=True, env=env)
    missing = [name for name in OPTIONAL.get(module, ()) if f"No module named '{name}" in run.stderr]
    if run.returncode and missing:
        pytest.skip(f"{module} needs the optional {missing[0]}")
    assert run.returncode == 0, run.stderr[-2000:]


@pytest.mark.parametrize("name", sorted(_backend.MODULES))
def test_twins_export_the_same_public_names(backends, name):
    py, cy = backends
    pure, compiled = getattr(py, name), getattr(cy, name)
    assert pure.__name__.endswith("_py") and compiled.__name__.endswith("_cy")
    assert pure.__name__[:-3] == compiled.__name__[:-3] == _backend.MODULES[name]
    assert sorted(pure.__all__) == sorted(compiled.__all__), name
    for public in pure.__all__:
        assert hasattr(pure, public) and hasattr(compiled, public), (name, public)


@pytest.mark.parametrize("name", sorted(_backend.MODULES))
def test_twins_agree_on_every_constant_they_export(backends, name):
    # Every int, float, str, bytes or tuple of those in __all__ must have the same value. All of
    # them come from one shared module (tests/test_options.py checks that no twin writes those
    # out again); this catches a twin that stops importing one and exports its own.
    py, cy = backends
    pure, compiled = getattr(py, name), getattr(cy, name)
    plain = (bool, int, float, str, bytes, tuple)
    compared = []
    for public in pure.__all__:
        value = getattr(pure, public)
        if isinstance(value, plain) and not callable(value):
            assert getattr(compiled, public) == value, (name, public, value, getattr(compiled, public))
            compared.append(public)
    if name in ("othello", "alphabeta", "mcts", "rolit", "tetralath"):
        assert compared, f"{name} exports no constants: the test compared nothing"


# The compiled sources, when the tests run beside them (CI copies them next to its copy of tests/).
COMPILED_SOURCES = Path(__file__).resolve().parents[1] / "pybindings" / "gamecore"


def compiled_sources() -> Path:
    if not COMPILED_SOURCES.is_dir():
        pytest.skip("the compiled sources (pybindings/gamecore) are not beside the tests")
    return COMPILED_SOURCES


def module_of(source: Path) -> str:
    """pybindings/gamecore/games/_othello_cy.pyx -> gamecore.games._othello_cy"""
    return ".".join(source.relative_to(COMPILED_SOURCES.parent).with_suffix("").parts)


def test_each_compiled_twin_sits_at_its_pure_twins_path():
    # pybindings/gamecore/<path>_cy.pyx and gamecore/<path>_py.py, for every module of _backend.MODULES.
    sources = compiled_sources()
    package = Path(gamecore.__file__).resolve().parent
    found = {module_of(p) for p in sources.rglob("*.pyx")}
    assert found == {f"{path}_cy" for path in _backend.MODULES.values()}
    for path in _backend.MODULES.values():
        pure = package.joinpath(*path.split(".")[1:]).with_name(path.rsplit(".", 1)[1] + "_py.py")
        assert pure.is_file(), pure


def test_each_module_pxd_sits_beside_the_pyx_it_declares():
    sources = compiled_sources()
    # It makes the folder a package for Cython, ahead of any installed gamecore on sys.path.
    assert (sources / "__init__.pxd").is_file()
    declared = {p for p in sources.rglob("*.pxd") if p.name != "__init__.pxd"}
    for pxd in declared:
        assert pxd.with_suffix(".pyx").is_file(), f"{pxd.name} declares no .pyx beside it"
    # Every `cimport gamecore.X` of the compiled sources is one of them.
    cimport = re.compile(r"^\s*(?:from\s+(gamecore\.[\w.]+)\s+cimport|cimport\s+(gamecore\.[\w.]+))", re.MULTILINE)
    cimported = set()
    for source in [*sources.rglob("*.pyx"), *declared]:
        cimported |= {"".join(names) for names in cimport.findall(source.read_text(encoding="utf-8"))}
    assert cimported and cimported <= {module_of(p) for p in declared}, cimported
    # None is left in (or shipped with) the Python package: the .pxd files are build inputs.
    assert not sorted(Path(gamecore.__file__).resolve().parent.rglob("*.pxd"))


def test_the_all_extra_installs_every_other_extra():
    # README's quick start: pip install ".[all]" once, instead of one compile per extra.
    tomllib = pytest.importorskip("tomllib", reason="tomllib comes with Python 3.11")
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("the tests run outside the source tree: no pyproject.toml beside them")
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]

    def name(requirement: str) -> str:
        return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower()

    others = {name(r) for extra, requirements in extras.items() if extra != "all" for r in requirements}
    assert {name(r) for r in extras["all"]} == others
