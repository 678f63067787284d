"""Reports that compare gamecore's algorithms: ``gamecore compare rolit`` (:mod:`.compare`).

Markdown and CSV always; PNG charts and a one-page PDF with matplotlib (the ``report``
extra: ``pip install "gamecore[report]"``).
"""

from .compare import Budget, compare_rolit

__all__ = ["Budget", "compare_rolit"]
