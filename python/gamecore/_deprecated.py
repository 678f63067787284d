"""Old names that still read, with a :class:`DeprecationWarning` (for one version).

A module keeps its renamed names in a table and gives Python its ``__getattr__``::

    __getattr__ = renamed(__name__, {"GameRecord": ("ComparisonGame", ComparisonGame)})

so importing ``GameRecord`` from ``gamecore.report.compare`` still works and says what to use instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["renamed"]


def renamed(module: str, old: Mapping[str, tuple[str, Any]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``old`` names: ``{old name: (new name, the object)}``."""

    def __getattr__(name: str) -> Any:
        if name not in old:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        new, value = old[name]
        warnings.warn(f"{module}.{name} is deprecated; use {module}.{new}", DeprecationWarning, stacklevel=2)
        return value

    return __getattr__
