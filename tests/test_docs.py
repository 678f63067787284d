"""Every code example a user reads runs: the ```python blocks of README.md and docs/*.md,
the ``.. code-block:: python`` blocks of docs/*.rst, and the doctests of every module.

A README block right after a line ``<!-- slow -->`` runs only without ``-m "not slow"``.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import gamecore

ROOT = Path(__file__).resolve().parents[1]
_FENCED = re.compile(r"(<!-- slow -->\s*\n)?```python\n(.*?)```", re.S)
_RST = re.compile(r"\.\. code-block:: python\n\n((?:   .*\n|\s*\n)+)")


def _examples() -> list:
    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if path.exists():
            for number, match in enumerate(_FENCED.finditer(path.read_text(encoding="utf-8")), 1):
                marks = [pytest.mark.slow] if match.group(1) else []
                out.append(pytest.param(match.group(2), id=f"{path.name}-{number}", marks=marks))
    for path in sorted((ROOT / "docs").glob("*.rst")):
        for number, match in enumerate(_RST.finditer(path.read_text(encoding="utf-8")), 1):
            code = "\n".join(line[3:] for line in match.group(1).splitlines())
            out.append(pytest.param(code, id=f"{path.name}-{number}"))
    return out


EXAMPLES = _examples()


@pytest.mark.skipif(not EXAMPLES, reason="README.md and docs/ are not beside the tests")
@pytest.mark.parametrize("code", EXAMPLES)
def test_documented_example_runs(code, capsys):
    try:
        exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in EXTRA_PACKAGES:
            pytest.skip(f"the example needs {exc.name}, an optional extra's")
        raise


# The packages of the optional extras (pyproject.toml); CI installs them all, so there the
# examples that use them run.
EXTRA_PACKAGES = {"matplotlib", "dask", "distributed", "numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel"}


# Modules that import an optional extra at their top: module -> the package they need.
OPTIONAL = {
    "gamecore.report.pdf": "matplotlib",
    "gamecore.rl": "numpy",
    "gamecore.rl._common": "numpy",
    "gamecore.rl.pettingzoo_env": "pettingzoo",
    "gamecore.rl.gymnasium_env": "gymnasium",
    "gamecore.rl.openspiel_game": "pyspiel",
    "gamecore.web.app": "starlette",
    "gamecore.web.bench": "httpx2",
}


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(gamecore.__path__, "gamecore."):
        leaf = info.name.rsplit(".", 1)[-1]
        if leaf.endswith("_cy") or leaf == "__main__":
            continue
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_module_doctests(name):
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name], reason=f"{name} needs an optional extra")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) of {name} failed (run python -m pytest -k {name})"
