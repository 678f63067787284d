"""GAMECORE_BACKEND at run time: which backend is in use, and that "cython" means compiled.

Each value is tried in a fresh interpreter (the selector reads the variable once, at
import). The child imports the same gamecore as this test process (installed or source).

When the tests themselves run with ``GAMECORE_BACKEND=cython`` (as CI does), a missing or
non-compiled extension is a failure here, never a skip.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

import gamecore
from gamecore import Othello, _backend

EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
PACKAGE_PARENT = str(Path(gamecore.__file__).resolve().parent.parent)

REPORT = """
import json, sys
import gamecore
from gamecore import Othello, _backend
names = _backend.MODULES
backend = _backend.selected()
print(json.dumps({
    "BACKEND": gamecore.BACKEND,
    "files": {m: getattr(backend, m).__file__ for m in names},
    "core_module": type(Othello().core).__module__,
    "loaded": sorted(m for m in sys.modules if m.startswith("gamecore._")),
    "perft4": Othello().perft(4),
}))
"""

# Makes every compiled gamecore module unimportable, as on a machine where the build failed.
BLOCK_EXTENSIONS = """
import sys
class _NoExtensions:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("gamecore.") and name.endswith("_cy"):
            raise ImportError(f"no module named {name!r} (blocked by the test)")
        return None
sys.meta_path.insert(0, _NoExtensions())
"""


def run_child(code: str, value: str | None, *, prelude: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("GAMECORE_BACKEND", None)
    if value is not None:
        env["GAMECORE_BACKEND"] = value
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    script = textwrap.dedent(prelude) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)


def report(value: str | None, *, prelude: str = "") -> dict:
    result = run_child(REPORT, value, prelude=prelude)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def is_extension(path: str) -> bool:
    return path.endswith(EXTENSION_SUFFIXES) and not path.endswith(".py")


def cython_required() -> bool:
    return (os.environ.get("GAMECORE_BACKEND") or "").strip().lower() == "cython"


@pytest.mark.parametrize("value", ["python", "PYTHON", " python "])
def test_python_backend(value):
    info = report(value)
    assert info["BACKEND"] == "python"
    assert info["core_module"] == "gamecore.games._othello_py"
    assert all(path.endswith(".py") for path in info["files"].values())
    # "python" imports no extension at all.
    assert not [m for m in info["loaded"] if m.endswith("_cy")], info["loaded"]
    assert info["perft4"] == 244


@pytest.mark.cython
def test_cython_backend_is_really_compiled():
    result = run_child(REPORT, "cython")
    if result.returncode != 0:
        message = f"GAMECORE_BACKEND=cython does not import: {result.stderr.strip().splitlines()[-1:]}"
        if cython_required():
            pytest.fail(message)
        pytest.skip(message)
    info = json.loads(result.stdout.strip().splitlines()[-1])
    assert info["BACKEND"] == "cython"
    assert info["core_module"] == "gamecore.games._othello_cy"
    for module, path in info["files"].items():
        assert is_extension(path), f"gamecore._{module}_cy is not a compiled extension: {path}"
    assert info["perft4"] == 244


def test_cython_is_strict_when_the_extension_is_missing():
    result = run_child("import gamecore\nprint(gamecore.BACKEND)", "cython", prelude=BLOCK_EXTENSIONS)
    assert result.returncode != 0, result.stdout
    assert "BackendUnavailableError" in result.stderr
    assert "gamecore._" in result.stderr and "_cy" in result.stderr


@pytest.mark.parametrize("value", [None, "", "auto", "AUTO"])
def test_auto_falls_back_to_python_without_the_extension(value):
    info = report(value, prelude=BLOCK_EXTENSIONS)
    assert info["BACKEND"] == "python"
    assert info["perft4"] == 244


@pytest.mark.parametrize("value", [None, "", "auto"])
def test_auto_uses_the_extension_when_present(value):
    try:
        _backend.load("cython")
    except ImportError as exc:
        if cython_required():
            pytest.fail(f"GAMECORE_BACKEND=cython but the extension does not load: {exc}")
        info = report(value)
        assert info["BACKEND"] == "python"
        return
    info = report(value)
    assert info["BACKEND"] == "cython"
    assert all(is_extension(path) for path in info["files"].values())


@pytest.mark.parametrize("value", ["fast", "cy", "pure", "1", "cython,python"])
def test_invalid_value_is_a_clear_error(value):
    result = run_child("import gamecore", value)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("gamecore.errors.InvalidOptionError"), last  # a ValueError too
    assert "GAMECORE_BACKEND" in last and "auto" in last and "cython" in last and "python" in last
    assert repr(value.strip().lower()) in last


def test_this_process_uses_the_requested_backend():
    """In-process: the backend the tests run under is the one GAMECORE_BACKEND asked for."""
    requested = (os.environ.get("GAMECORE_BACKEND") or "auto").strip().lower()
    game = Othello()
    if requested == "cython":
        assert gamecore.BACKEND == "cython"
        module = _backend.selected().othello
        assert module.__name__ == "gamecore.games._othello_cy"
        assert is_extension(module.__file__), module.__file__
        assert type(game.core).__module__ == "gamecore.games._othello_cy"
        assert game.backend == "cython"
    elif requested == "python":
        assert gamecore.BACKEND == "python"
        assert type(game.core).__module__ == "gamecore.games._othello_py"
    else:
        assert gamecore.BACKEND in ("cython", "python")
        assert game.backend == gamecore.BACKEND


def test_load_gives_both_backends_in_one_process():
    py = _backend.load("python")
    assert py.name == "python" and py.othello.__name__ == "gamecore.games._othello_py"
    assert _backend.load("python") is py
    with pytest.raises(ValueError):
        _backend.load("fast")
    try:
        cy = _backend.load("cython")
    except ImportError as exc:
        if cython_required():
            pytest.fail(f"GAMECORE_BACKEND=cython but the extension does not load: {exc}")
        pytest.skip(f"compiled backend not available: {exc}")
    assert cy.name == "cython" and is_extension(cy.othello.__file__)


@pytest.mark.skipif(not os.environ.get("GAMECORE_TEST_INSTALLED"), reason="set GAMECORE_TEST_INSTALLED=1 to check")
def test_the_installed_package_is_under_test():
    """CI sets GAMECORE_TEST_INSTALLED=1: the tests must import gamecore from site-packages."""
    package = Path(gamecore.__file__).resolve()
    roots = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    assert any(root in package.parents for root in roots), f"{package} is not under {roots}"
