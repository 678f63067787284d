"""What the two Othello cores (``_othello_py`` / ``_othello_cy``) share: the game's constants.

They need no compiling: as ``_rolit_rules.py``, this module is plain Python written once rather
than in each twin (``_othello_py.py`` documents the rules). The compiled core keeps the C
constant its ``nogil`` code needs (``C_PASS``, listed in its ``_C_COPIES``);
``tests/test_options.py`` checks it against these.
"""

from __future__ import annotations

__all__ = ["PASS", "MIN_SIZE", "MAX_SIZE", "FEATURES"]

#: The move code of a pass.
PASS = -1
#: The board sizes: even, from MIN_SIZE to MAX_SIZE.
MIN_SIZE = 4
MAX_SIZE = 10
#: Evaluation features, in the order of the ``weights`` passed to ``evaluate``; "patterns" is
#: the learned evaluation (``_othello_patterns``), in hundredths of a disc.
FEATURES = ("discs", "positional", "mobility", "corners", "stability", "parity", "patterns")
