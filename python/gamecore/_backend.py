"""The backend selector: the only module that imports the ``_<name>_cy`` / ``_<name>_py`` pairs.

``GAMECORE_BACKEND`` (read once, at import) is ``auto`` (default), ``cython`` or
``python``; it means the same as at build time. ``cython`` is strict: a missing
compiled module raises :class:`~gamecore.errors.BackendUnavailableError`.
``auto`` uses the compiled modules when all of them import, else pure Python.

:func:`load` gives the modules of either backend, so one process can hold both
(the agreement tests compare them).
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
from types import SimpleNamespace

from .errors import BackendUnavailableError, InvalidOptionError

__all__ = ["BACKEND", "BACKENDS", "MODULES", "available", "fallback_notice", "load", "position_base", "selected"]

BACKENDS = ("cython", "python")
#: Core modules that exist in both backends: short name -> module path without the
#: ``_cy`` / ``_py`` suffix (``pybindings/gamecore/<path>_cy.pyx`` and ``python/gamecore/<path>_py.py``).
MODULES = {
    "game": "gamecore._game",
    "othello": "gamecore.games._othello",
    "tetralath": "gamecore.games._tetralath",
    "rolit": "gamecore.games._rolit",
    "position": "gamecore.games._position",
    "alphabeta": "gamecore.search._alphabeta",
    "endgame": "gamecore.search._endgame",
    "mcts": "gamecore.search._mcts",
    "multiplayer": "gamecore.search._multiplayer",
}

_loaded: dict[str, SimpleNamespace] = {}


def load(name: str) -> SimpleNamespace:
    """The core modules of backend ``name`` (``"cython"`` or ``"python"``) as attributes.

    :raises BackendUnavailableError: ``name == "cython"`` and a compiled module is missing.
    """
    if name not in BACKENDS:
        raise InvalidOptionError(f"backend must be one of {', '.join(BACKENDS)}, got {name!r}")
    if name in _loaded:
        return _loaded[name]
    suffix = "cy" if name == "cython" else "py"
    modules = {}
    for module, path in MODULES.items():
        try:
            modules[module] = importlib.import_module(f"{path}_{suffix}")
        except ImportError as exc:
            if name == "cython":
                raise BackendUnavailableError(
                    f"the compiled module {path}_cy is not available ({exc}); "
                    "reinstall with a C compiler, e.g. GAMECORE_BACKEND=cython pip install ."
                ) from exc
            raise
    namespace = _loaded[name] = SimpleNamespace(name=name, **modules)
    return namespace


def _requested() -> str:
    requested = (os.environ.get("GAMECORE_BACKEND") or "auto").strip().lower()
    if requested not in ("auto",) + BACKENDS:
        raise InvalidOptionError(f"GAMECORE_BACKEND must be one of auto, cython, python; got {requested!r}")
    return requested


def position_base() -> type:
    """The ``PositionBase`` the public position classes inherit (their hot methods): the
    compiled one unless pure Python is asked for or it is missing. Both work over either
    backend's cores. It is called while the backend is being selected (the game modules
    import during :func:`load`), so it reads ``GAMECORE_BACKEND`` itself."""
    path = MODULES["position"]
    requested = _requested()
    if requested != "python" and platform.python_implementation() == "CPython":
        try:
            compiled: type = importlib.import_module(f"{path}_cy").PositionBase
            return compiled
        except ImportError as exc:
            if requested == "cython":
                raise BackendUnavailableError(f"the compiled module {path}_cy is not available ({exc})") from exc
    pure: type = importlib.import_module(f"{path}_py").PositionBase
    return pure


def _select() -> str:
    requested = _requested()
    if requested == "auto":
        if platform.python_implementation() != "CPython":
            return "python"
        try:
            load("cython")
        except BackendUnavailableError:
            return "python"
        return "cython"
    load(requested)
    return requested


def _running_the_command() -> bool:
    """True when this import is the ``gamecore`` command starting (script or ``-m gamecore``)."""
    argv0 = os.path.basename(sys.argv[0]) if sys.argv else ""
    if argv0 in ("gamecore", "gamecore.exe"):
        return True
    orig = getattr(sys, "orig_argv", [])
    return "-m" in orig and orig.index("-m") + 1 < len(orig) and orig[orig.index("-m") + 1] == "gamecore"


#: ``"cython"`` or ``"python"``: the backend this process uses by default.
try:
    BACKEND = _select()
except (BackendUnavailableError, ValueError) as exc:
    if not _running_the_command():
        raise
    # A user's setting, not a bug: one line for the command, no traceback.
    sys.stderr.write(f"gamecore: error: {exc}\n")
    raise SystemExit(1) from None


def available() -> list[str]:
    """The backends that load in this installation (``"python"`` always)."""
    names = []
    for name in BACKENDS:
        try:
            load(name)
        except BackendUnavailableError:
            continue
        names.append(name)
    return names


def fallback_notice() -> str:
    """One line saying the pure backend is in use because no compiled module was built,
    or ``""`` when the compiled backend is in use or pure Python was asked for."""
    requested = (os.environ.get("GAMECORE_BACKEND") or "auto").strip().lower()
    if BACKEND == "python" and requested == "auto":
        return (
            "gamecore: running the pure-Python backend (no compiled extension is installed; "
            "reinstall with a C compiler for a 100x faster engine)"
        )
    return ""


def selected() -> SimpleNamespace:
    """The modules of the backend in use (:data:`BACKEND`)."""
    return load(BACKEND)
