"""Progress of long commands: one helper for every command that can run past a few seconds.

On a terminal it redraws one line: what is being done, done of total, an estimate of the time
left. When the stream is not a terminal (a pipe, a log file, a notebook cell) it prints a plain
line now and then instead (every ``every`` seconds), so a script sees that the work goes on;
with ``quiet`` it prints nothing::

    with Progress(24, "games", label="compare rolit", quiet=args.quiet) as progress:
        for seating in plan:
            progress.doing(f"{seating}")       # what the next unit of work is (optional)
            play(seating)
            progress.advance()

The time left is the mean time of the units done so far (since the helper was made) times the
units left; it is only an estimate when units differ in cost (the line says "about").
Output goes to ``stream`` (standard error by default), so standard output keeps only results.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

__all__ = ["Progress", "add_quiet_option", "format_duration"]

#: How often a terminal line is redrawn, and a plain line printed when not on a terminal (s).
REDRAW_SECONDS = 0.2
PLAIN_EVERY_SECONDS = 15.0


def format_duration(seconds: float) -> str:
    """``7 s``, ``2 min 05 s``, ``1 h 03 min``: a duration for a person to read."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def add_quiet_option(parser: argparse.ArgumentParser, what: str = "progress lines and log") -> None:
    """The ``--quiet`` option every long command shares."""
    parser.add_argument("--quiet", action="store_true", help=f"no {what}: only the results")


class Progress:
    """Done of ``total`` units (``total=None``: a count without a total), drawn on ``stream``.

    ``tty`` forces the terminal or the plain form (default: ``stream.isatty()``); ``clock`` is
    the time source (tests give a fake one); ``every`` is the seconds between plain lines.
    ``done`` counts units already done before (a resumed run): they do not enter the estimate.
    """

    def __init__(
        self,
        total: int | None,
        unit: str = "",
        *,
        label: str = "",
        stream: TextIO | None = None,
        quiet: bool = False,
        tty: bool | None = None,
        every: float = PLAIN_EVERY_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        done: int = 0,
    ) -> None:
        if total is not None and total < 0:
            raise ValueError(f"total must be >= 0 or None, got {total!r}")
        self.total = total
        self.unit = unit
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.quiet = quiet
        if tty is None:
            isatty = getattr(self.stream, "isatty", None)
            tty = bool(isatty and isatty())
        self.tty = tty
        self.every = every
        self.clock = clock
        self.done = done
        self._first = done
        self._started = clock()
        self._doing: str | Callable[[], str] = ""
        self._drawn_at: float | None = None  # when the last line was written (None: draw the next at once)
        self._drawn_any = False
        self._width = 0  # of the terminal line on screen, to blank what a shorter one leaves
        self._finished = False

    # -- what the command calls ------------------------------------------------------------

    def doing(self, what: str | Callable[[], str]) -> None:
        """Say what is being done now (a callable is called only when a line is drawn)."""
        self._doing = what
        self._show()

    def advance(self, units: int = 1, doing: str | Callable[[], str] | None = None) -> None:
        """``units`` more are done (and, optionally, say what comes next)."""
        self.update(self.done + units, doing)

    def update(self, done: int, doing: str | Callable[[], str] | None = None) -> None:
        """``done`` units are done in all."""
        self.done = done
        if doing is not None:
            self._doing = doing
        self._show(force=self.total is not None and done >= self.total)

    def note(self, text: str, file: TextIO) -> None:
        """Print ``text`` to ``file`` (a log line) without mixing it into a terminal line:
        the line is blanked first and drawn again below the text."""
        drawn = self.tty and not self.quiet and self._width > 0
        if drawn:
            self.stream.write("\r" + " " * self._width + "\r")
            self._width = 0
        print(text, file=file, flush=True)
        if drawn and not self._finished:
            self._write(self._line())
            self._drawn_at = None  # and the next change shows at once (often: what comes next)

    def finish(self, message: str = "") -> None:
        """End the line (terminal) or write the last plain line when any was written before;
        ``message`` (if given) replaces the usual last line."""
        if self._finished or self.quiet:
            self._finished = True
            return
        self._finished = True
        if self.tty:
            if self._drawn_any or message:
                self._write(self._line(final=True) if not message else message, final=True)
        elif self._drawn_any or message:
            # a script that saw lines go by sees the end too; a short run stays silent
            self._write(message or self._line(final=True), final=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is None:
            self.finish()
        elif self.tty and self._drawn_any and not self.quiet:
            self.stream.write("\n")  # leave the last drawn line on screen for the error below it
            self.stream.flush()
            self._finished = True

    # -- what is drawn ---------------------------------------------------------------------

    def elapsed(self) -> float:
        return self.clock() - self._started

    def seconds_left(self) -> float | None:
        """The estimate, or None before the first unit (or without a total)."""
        counted = self.done - self._first
        if self.total is None or counted <= 0:
            return None
        return self.elapsed() / counted * max(0, self.total - self.done)

    def _line(self, final: bool = False) -> str:
        parts = [f"{self.label}:" if self.label else ""]
        unit = f" {self.unit}" if self.unit else ""
        if self.total is None:
            parts.append(f"{self.done}{unit}")
        else:
            percent = 100 * self.done // self.total if self.total else 100
            parts.append(f"{self.done}/{self.total}{unit} ({percent} %)")
        if final:
            parts.append(f"in {format_duration(self.elapsed())}")
        else:
            left = self.seconds_left()
            if left is not None:
                parts.append(f"about {format_duration(left)} left")
            doing = self._doing() if callable(self._doing) else self._doing
            if doing:
                parts.append(f"- {doing}")
        return " ".join(part for part in parts if part)

    def _show(self, force: bool = False) -> None:
        if self.quiet or self._finished:
            return
        now = self.clock()
        if self.tty:
            if not force and self._drawn_at is not None and now - self._drawn_at < REDRAW_SECONDS:
                return
        elif now - (self._started if self._drawn_at is None else self._drawn_at) < self.every:
            return  # plain lines: the first after ``every`` seconds, so short runs say nothing
        self._drawn_at = now
        self._drawn_any = True
        self._write(self._line())

    def _write(self, line: str, final: bool = False) -> None:
        if self.tty:
            columns = shutil.get_terminal_size((100, 24)).columns - 1
            if len(line) > columns:
                line = line[: max(0, columns - 1)] + "…"
            pad = " " * max(0, self._width - len(line))
            self._width = len(line)
            self.stream.write(f"\r{line}{pad}" + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
