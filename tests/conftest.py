"""Shared fixtures for gamecore's tests: both backends, hypothesis profiles, test helpers.

Fixtures (use them from any test file, every game):

``backend``
    Session-scoped, parametrised over the two backends: ids ``cy`` (marked ``cython``)
    and ``py``. The value is ``gamecore._backend.load(name)``: a namespace with
    ``.name`` (``"cython"``/``"python"``) and one attribute per core module
    (``.othello``, ``.tetralath``, ``.mcts``, ...). A test that takes ``backend`` runs
    once per backend; build public objects with ``Othello(size, backend=backend.name)``.
    To pick backends per case (e.g. deeper perft on cython only), parametrise it
    indirectly: ``@pytest.mark.parametrize("backend", ["cython"], indirect=True)``.

``backends``
    ``(py, cy)``: both namespaces at once, for agreement tests.

If the compiled backend does not load, the tests marked ``cython`` are deselected and the
report says why once, with the real ``ImportError`` text (other tests that ask for it are
skipped with that text) -- unless ``GAMECORE_BACKEND=cython``, where they fail: in that
mode a missing extension is an error, never a skip.

Hypothesis profiles: ``dev`` (default, quick) and ``ci`` (more examples), chosen with
``HYPOTHESIS_PROFILE=ci``. Neither has a deadline: these machines are shared and noisy.

The tests folder is put on ``sys.path`` so that test files can import the helpers beside
them (``othello_oracle``, ``othello_helpers``, ``othello_strategies``, ``tetralath_oracle``,
``rolit_oracle``) under ``--import-mode=importlib``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

TESTS_DIR = Path(__file__).resolve().parent
DATA_DIR = TESTS_DIR / "data"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

settings.register_profile(
    "dev",
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def cython_required() -> bool:
    """True when ``GAMECORE_BACKEND=cython``: the compiled backend must be present."""
    return (os.environ.get("GAMECORE_BACKEND") or "").strip().lower() == "cython"


def load_backend(name: str):
    """``gamecore._backend.load(name)``, or skip/fail the test as the module docstring says."""
    try:
        # Imported here: with GAMECORE_BACKEND=cython, importing gamecore itself raises when
        # the compiled modules are missing, and that must become a skip or a failure.
        from gamecore import _backend  # noqa: PLC0415

        return _backend.load(name)
    except ImportError as exc:
        if name == "cython":
            message = f"compiled backend not available: {type(exc).__name__}: {exc}"
            if cython_required():
                pytest.fail("GAMECORE_BACKEND=cython but " + message, pytrace=False)
            pytest.skip(message)
        raise


@pytest.fixture(
    scope="session",
    params=[
        pytest.param("cython", id="cy", marks=pytest.mark.cython),
        pytest.param("python", id="py"),
    ],
)
def backend(request):
    """One backend's modules (see the module docstring)."""
    return load_backend(request.param)


@pytest.fixture(scope="session")
def backends():
    """``(py, cy)``: both backends' modules, for agreement tests."""
    return load_backend("python"), load_backend("cython")


def compiled_backend_missing() -> str | None:
    """Why the compiled backend does not load (the skip reason), or None when it does."""
    try:
        load_backend("cython")
    except pytest.skip.Exception as exc:
        return str(exc.msg)
    return None


#: The quick run, ``pytest -m quick`` (about a minute on 2 cores; README "Running the tests"):
#: each game's rules, perft and both backends' agreement, the searches, the command line.
QUICK_FILES = {
    "test_othello.py",
    "test_perft.py",
    "test_tetralath.py",
    "test_rolit.py",
    "test_agreement.py",
    "test_search.py",
    "test_count_legal_moves.py",
    "test_progress.py",
    "test_cli.py",
}


def pytest_collection_modifyitems(config, items):
    """Tests that take ``backends`` need the compiled backend too: mark them ``cython``,
    so that ``-m "not cython"`` runs the pure backend alone. Without the compiled backend
    (and unless it is required) those tests are deselected, with one line saying why
    rather than one skip line per test. The tests of ``QUICK_FILES`` that are not ``slow``
    are marked ``quick``."""
    for item in items:
        if "backends" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.cython)
        if item.path.name in QUICK_FILES and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.quick)
    if cython_required():
        return
    missing = compiled_backend_missing()
    if missing is None:
        return
    dropped = [item for item in items if item.get_closest_marker("cython")]
    if dropped:
        items[:] = [item for item in items if not item.get_closest_marker("cython")]
        config.hook.pytest_deselected(items=dropped)
        config.stash[_deselected_key] = (missing, len(dropped))


_deselected_key = pytest.StashKey[tuple]()


def pytest_terminal_summary(terminalreporter, config):
    if _deselected_key in config.stash:
        missing, count = config.stash[_deselected_key]
        terminalreporter.write_line(f"{count} tests of the compiled backend deselected: {missing}")
