"""Build gamecore: the pure-Python package, plus the Cython extensions when possible.

``GAMECORE_BACKEND`` means the same here as at run time:
- ``auto`` (default): build the extensions; if compiling fails (no compiler), install pure Python;
- ``cython``: build them and fail loudly if that is impossible;
- ``python``: build no extension (a pure wheel).

The extensions are plain ``setuptools.Extension`` objects with ``.pyx`` sources: setuptools
hands them to Cython's ``build_ext`` itself, and ``optional=True`` is what makes a missing
compiler a fallback instead of an error (``cythonize()`` would drop ``optional``).
"""

import glob
import os
import platform
import sys

from setuptools import Extension, setup

MODES = ("auto", "cython", "python")
mode = (os.environ.get("GAMECORE_BACKEND") or "auto").strip().lower()
if mode not in MODES:
    sys.exit(f"GAMECORE_BACKEND must be one of {', '.join(MODES)}, got {mode!r}")
if mode == "auto" and platform.python_implementation() != "CPython":
    mode = "python"


def compile_args():
    if os.environ.get("GAMECORE_CFLAGS"):
        return os.environ["GAMECORE_CFLAGS"].split()
    if sys.platform == "win32":
        return ["/O2"]
    args = ["-O3"]
    # popcount is the hottest instruction of the kernel; every x86-64 CPU since 2009 has it.
    if platform.machine().lower() in ("x86_64", "amd64"):
        args.append("-mpopcnt")
    return args


extensions = []
if mode != "python":
    for source in sorted(glob.glob(os.path.join("pybindings", "_*_cy.pyx"))):
        name = os.path.splitext(os.path.basename(source))[0]
        extensions.append(
            Extension(
                f"gamecore.{name}",
                [source],
                include_dirs=["pyx", "python"],
                extra_compile_args=compile_args(),
                optional=(mode != "cython"),
            )
        )
    print(
        f"gamecore: GAMECORE_BACKEND={mode}: building {len(extensions)} Cython extensions"
        + (" (if compiling fails, gamecore installs as pure Python)" if mode == "auto" else ""),
        file=sys.stderr,
    )
else:
    print("gamecore: GAMECORE_BACKEND=python: pure-Python install, no extension built", file=sys.stderr)

setup(
    package_dir={"": "python"},
    packages=["gamecore", "gamecore.adapters"],
    package_data={"gamecore": ["py.typed", "*.pyi", "*.pxd"]},
    ext_modules=extensions,
)
