"""Build gamecore: the pure-Python package, plus the Cython extensions when possible.

``GAMECORE_BACKEND`` means the same here as at run time:
- ``auto`` (default): build the extensions; if compiling fails (no compiler), install pure Python;
- ``cython``: build them and fail loudly if that is impossible;
- ``python``: build no extension (a pure wheel).

The extensions are plain ``setuptools.Extension`` objects with ``.pyx`` sources: setuptools
hands them to Cython's ``build_ext`` itself, and ``optional=True`` is what makes a missing
compiler a fallback instead of an error (``cythonize()`` would drop ``optional``).

The build uses every core: Cython translates all the ``.pyx`` files at once in a process pool,
then the C compiler runs one job per core (``build_ext --parallel``; ``-j N`` overrides it). A
later ``pip install ".[extra]"`` from the same checkout compiles nothing again when neither the
sources nor the compiler settings changed (``build/`` keeps the objects; a stamp there records
the settings, and a change of them rebuilds everything).
"""

import glob
import json
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
    # -g0: Python's own CFLAGS ask for debug information (-g), which took a quarter of the C
    # compile time (README "How it is built") and changes no instruction of the code.
    args = ["-O3", "-g0"]
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


def build_settings():
    """What decides the compiled code besides the sources: when it changes, compile afresh."""
    names = ("CC", "CFLAGS", "CPPFLAGS", "LDSHARED", "LDFLAGS", "GAMECORE_CFLAGS", "GAMECORE_BACKEND")
    return {
        "env": {name: os.environ.get(name) for name in names},
        "compile_args": compile_args(),
        "python": sys.version,
        "cython": _cython_version(),
    }


def _cython_version():
    try:
        import Cython  # noqa: PLC0415 (only a build with extensions needs it)
    except ImportError:
        return None
    return Cython.__version__


def c_file(source):
    return os.path.splitext(source)[0] + ".c"


def translations_current(extensions):
    """Every extension's .c exists and is newer than every Cython source of the project."""
    sources = glob.glob(os.path.join("pybindings", "**", "*.p[yx][xd]"), recursive=True)
    sources += glob.glob(os.path.join("pyx", "*"))
    newest = max(os.path.getmtime(path) for path in sources)
    translated = [c_file(source) for ext in extensions for source in ext.sources]
    return all(os.path.exists(path) and os.path.getmtime(path) > newest for path in translated)


class build_ext_with_report(build_ext):
    """setuptools' build_ext on every core, plus one line afterwards saying what was built.

    Errors are not caught here: ``optional=True`` alone decides whether a failed
    extension is fatal (``GAMECORE_BACKEND=cython``) or a fallback (``auto``).
    """

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:  # one C compiler job per core, unless -j says otherwise
            self.parallel = os.cpu_count() or 1

    def run(self):
        if not self.inplace:
            # pip builds in the same build/ directory every time. An extension compiled by an
            # earlier install is reused only when the settings are the same: one compiled
            # under other settings must not survive a build that cannot compile (CC=false),
            # or the "pure" wheel would ship the old .so. Then remove it and compile afresh.
            stamp = os.path.join(self.build_temp, "gamecore-build-settings.json")
            settings = build_settings()
            try:
                with open(stamp) as f:
                    same = json.load(f) == settings
            except (OSError, ValueError):
                same = False
            if not same:
                self.force = True
                for ext in self.extensions:
                    stale = self.get_ext_fullpath(ext.name)
                    if os.path.exists(stale):
                        os.remove(stale)
                os.makedirs(self.build_temp, exist_ok=True)
                with open(stamp, "w") as f:
                    json.dump(settings, f)
        self.cythonize_all()
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

    def cythonize_all(self):
        """Translate every .pyx to C at once, one process per core (Cython is Python: the
        compile threads of ``--parallel`` would run it one module at a time); the extensions
        then list their .c files, and the C compiles run in parallel."""
        if not self.extensions:
            return
        if not self.inplace and not self.force and translations_current(self.extensions):
            # Same settings as the last build (the stamp) and no project source newer than the
            # .c files: reuse them. Cython's own check would translate everything again under
            # pip, whose fresh build environment gives Cython's bundled .pxd files new dates.
            for ext in self.extensions:
                ext.sources = [c_file(source) for source in ext.sources]
            return
        from Cython.Build import cythonize  # noqa: PLC0415 (only a build with extensions needs it)

        translated = cythonize(
            self.extensions,
            nthreads=self.parallel if self.parallel is not True else (os.cpu_count() or 1),
            force=self.force,
            quiet=True,
            include_path=["pyx", "pybindings"],
        )
        for ext, done in zip(self.extensions, translated):
            ext.sources = done.sources


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
            "data/*.book",
            "web/static/*",
        ]
    },
    ext_modules=extensions,
)
