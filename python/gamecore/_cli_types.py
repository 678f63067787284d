"""The argparse types and options every ``gamecore`` subcommand shares.

One option means one thing everywhere: ``--time S`` is seconds a move, above 0 and at most
:data:`MAX_SECONDS`; ``--backend`` picks ``cython`` or ``python``; ``--seed N`` seeds every
random choice of the command; ``--game NAME`` names a game where a command takes several
(``gamecore play GAME`` and ``gamecore bench GAME`` name it as a word). A new subcommand
(``gamecore serve``, ``gamecore bench rl``...) takes its options from here::

    from gamecore import _cli_types as types

    p = sub.add_parser("serve", help="...")
    types.add_time(p, default=1.0)
    types.add_backend(p)
    p.add_argument("--port", type=types.count, default=8000)

Bad values are refused by argparse itself (exit status 2, ``gamecore X: error: ...``), with
one wording per kind of value.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import _backend

__all__ = [
    "MAX_SECONDS",
    "seconds",
    "seconds_or_zero",
    "count",
    "plies",
    "at_least",
    "board_size",
    "add_time",
    "add_backend",
    "add_seed",
    "add_game",
    "DeprecatedAlias",
]

#: The longest ``--time`` any command takes: an hour a move.
MAX_SECONDS = 3600.0


def _number(kind: Callable[[str], Any], text: str, what: str) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
    return value


def seconds(text: str) -> float:
    """Seconds a move (``--time``): above 0, at most :data:`MAX_SECONDS`."""
    value = _number(float, text, "a finite number of seconds")
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected seconds above 0 and at most {MAX_SECONDS:g}, got {text!r}")
    return float(value)


def seconds_or_zero(text: str) -> float:
    """Extra seconds (a grace, a time bank): 0 or more, at most :data:`MAX_SECONDS`."""
    value = _number(float, text, "a finite number of seconds")
    if not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to {MAX_SECONDS:g}, got {text!r}")
    return float(value)


def count(text: str) -> int:
    """A whole number of things (runs, games, iterations, a depth): 1 or more."""
    return int(at_least(int, 1, "a whole number")(text))


def plies(text: str) -> int:
    """A depth in plies that may be 0 (``perft --depth``): 0 or more, below 2**31."""
    value = int(at_least(int, 0, "a whole number of plies")(text))
    if value >= 2**31:
        raise argparse.ArgumentTypeError(f"expected a whole number of plies below 2**31, got {text!r}")
    return value


def at_least(kind: Callable[[str], Any], low: float, what: str) -> Callable[[str], Any]:
    """A type for numbers of ``kind`` (``int``, ``float``) of at least ``low``, e.g. megabytes."""

    def parse(text: str) -> Any:
        value = _number(kind, text, what)
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what} of at least {low:g}, got {text!r}")
        return value

    parse.__name__ = what.replace(" ", "_")  # argparse names the type in its messages
    return parse


def board_size(text: str) -> int:
    """An Othello board size (``--size``): one of ``Othello.sizes``."""
    from .games.othello import Othello  # noqa: PLC0415 - the games import this module's users

    value = _number(int, text, "a board size")
    if value not in Othello.sizes:
        sizes = ", ".join(map(str, Othello.sizes))
        raise argparse.ArgumentTypeError(f"the board size must be one of {sizes}; got {text!r}")
    return int(value)


def add_time(parser: argparse.ArgumentParser, *, default: float | None, what: str = "a move") -> None:
    """``--time S``: seconds ``what`` (default ``default``; ``None``: the command decides)."""
    shown = "" if default is None else f" (default {default:g})"
    parser.add_argument(
        "--time", type=seconds, default=default, metavar="S", help=f"seconds {what}, at most {MAX_SECONDS:g}{shown}"
    )


def add_backend(parser: argparse.ArgumentParser, *, every: bool = False) -> None:
    """``--backend cython|python``; ``every``: the command runs every installed one by default."""
    default = "every installed one" if every else "the fastest installed"
    parser.add_argument("--backend", choices=_backend.BACKENDS, help=f"cython or python (default: {default})")


def add_seed(parser: argparse.ArgumentParser, *, of: str = "the random choices") -> None:
    """``--seed N``: the seed of every random choice the command makes (default 0)."""
    parser.add_argument("--seed", type=int, default=0, metavar="N", help=f"seed of {of} (default 0)")


#: The game a command plays unless told (``gamecore play``, ``perft``, ``tournament``).
DEFAULT_GAME = "othello"


def add_game(parser: argparse.ArgumentParser, *, default: str | None = DEFAULT_GAME, games: Sequence[str] = ()) -> None:
    """``--game NAME``, for a command that takes several games (default: every game there is)."""
    if not games:
        from .games import GAMES  # noqa: PLC0415 - the registry, read when the parser is built

        games = tuple(GAMES)
    shown = f" (default {default})" if default else ""
    parser.add_argument("--game", choices=tuple(games), default=default, help=f"the game: {', '.join(games)}{shown}")


class DeprecatedAlias(argparse.Action):
    """An old option name kept for a while: it does what ``dest`` does and says so on
    standard error.

    ``parser.add_argument("--color", dest="ansi", action=DeprecatedAlias, new="--ansi")``;
    ``convert`` maps the old value onto the new option's (default: unchanged).
    """

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        *,
        new: str,
        convert: Callable[[Any], Any] | None = None,
        **kwargs: Any,
    ) -> None:
        self.new = new
        self.convert = convert
        kwargs.setdefault("help", argparse.SUPPRESS)
        kwargs.setdefault("default", argparse.SUPPRESS)  # the new option's default stands
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> None:
        print(f"{parser.prog}: warning: {option} is deprecated; use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, self.convert(values) if self.convert else values)
