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

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

MODES = ("auto", "cython", "python")
mode = (os.environ.get("GAMECORE_BACKEND") or "auto").strip().lower()
if mode not in MODES:
    sys.exit(f"GAMECORE_BACKEND must be one of {', '.join(MODES)}, got {mode!r}")
if mode == "auto" and platform.python_implementation() != "CPython":
    mode = "python"


def compile_args():
    if os.environ.get("GAMECORE_CFLAGS"):
        return os.environ["GAMECORE_CFLAGS"].split()
    # The kernel needs GCC or Clang (unsigned __int128 for 10x10 boards); with another
    # compiler the build fails and "auto" installs pure Python.
    args = ["-O3"]
    # popcount is the hottest instruction of the kernel; every x86-64 CPU since 2009 has it.
    if platform.machine().lower() in ("x86_64", "amd64"):
        args.append("-mpopcnt")
    return args


extensions = []
if mode != "python":
    # pybindings/gamecore/<path>/_<name>_cy.pyx is the compiled twin of python/gamecore/<path>/_<name>_py.py;
    # its .pxd (when other modules cimport it) sits beside it, found through the include path
    # "pybindings" (`cimport gamecore.games._othello_cy`); "pyx" holds the kernel's .pxd and .h.
    for source in sorted(glob.glob(os.path.join("pybindings", "gamecore", "**", "_*_cy.pyx"), recursive=True)):
        module = os.path.splitext(os.path.relpath(source, "pybindings"))[0].replace(os.sep, ".")
        extensions.append(
            Extension(
                module,
                [source],
                include_dirs=["pyx", "pybindings"],
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


class build_ext_with_report(build_ext):
    """setuptools' build_ext, plus one line afterwards saying what was built.

    Errors are not caught here: ``optional=True`` alone decides whether a failed
    extension is fatal (``GAMECORE_BACKEND=cython``) or a fallback (``auto``).
    """

    def run(self):
        if not self.inplace:
            # pip builds in the same build/ directory every time: an extension compiled by an
            # earlier install must not survive a build that cannot compile it (CC=false), or
            # the "pure" wheel would ship the old .so. Remove it and compile afresh.
            self.force = True
            for ext in self.extensions:
                stale = self.get_ext_fullpath(ext.name)
                if os.path.exists(stale):
                    os.remove(stale)
        super().run()
        built = [ext.name for ext in self.extensions if os.path.exists(self.get_ext_fullpath(ext.name))]
        if self.extensions and not built:
            print(
                "gamecore: no extension could be compiled: installed as pure Python (slower, same behaviour)",
                file=sys.stderr,
            )
        elif len(built) < len(self.extensions):
            print(
                f"gamecore: only {len(built)} of {len(self.extensions)} extensions compiled; "
                "gamecore will run as pure Python",
                file=sys.stderr,
            )
        elif built:
            print(f"gamecore: compiled {len(built)} Cython extensions", file=sys.stderr)


setup(
    cmdclass={"build_ext": build_ext_with_report},
    package_dir={"": "python"},
    packages=find_packages("python"),
    # No .pxd in the wheel: they serve this build only (the sdist has them); gamecore offers no
    # Cython-level API, and its kernel's .pxd and .h files could not be cimported from a wheel.
    package_data={
        "gamecore": [
            "py.typed",
            "data/*.obf",
            "data/*.txt",
            "data/*.patterns",
            "data/*.json",
            "web/static/*",
        ]
    },
    ext_modules=extensions,
)
