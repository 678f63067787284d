"""What ``gamecore export ufrj|ctu`` shares: the check of a player file's settings and the
writing of the file."""

from __future__ import annotations

import os
from typing import Any

from ..errors import InvalidLimitError, InvalidOptionError
from ..games.othello import Othello

__all__ = ["check_export_options", "write_player"]


def check_export_options(time: Any, depth: Any, evaluation: Any, *, most_seconds: float, framework: str) -> None:
    """Refuse settings the written player could not play with, before anything is written.

    :raises InvalidLimitError: ``time`` not in (0, ``most_seconds``], ``depth`` not an int >= 1.
    :raises InvalidOptionError: ``evaluation`` not the name of a built-in Othello evaluation.
    """
    if isinstance(time, bool) or not isinstance(time, (int, float)) or not 0 < time <= most_seconds:
        raise InvalidLimitError(
            f"the {framework} framework allows above 0 and at most {most_seconds:g} s a move; got time={time!r}"
        )
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise InvalidLimitError(f"depth must be an int >= 1, got {depth!r}")
    known = ["default", *sorted(Othello.EVALUATIONS)]
    if not isinstance(evaluation, str) or evaluation not in known:
        raise InvalidOptionError(
            f"an exported player's evaluation is a built-in name ({', '.join(known)}), got {evaluation!r}"
        )


def write_player(path: str, text: str) -> str:
    """Write a player file (making its folder); returns ``path``."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
