"""Errors raised by gamecore, the same classes from both backends.

Everything a caller can get wrong is a subclass of :class:`ValueError`, so
``except ValueError`` catches bad input of any kind. After any of these errors
the position it was raised on is unchanged.
"""

__all__ = [
    "GamecoreError",
    "InvalidSizeError",
    "InvalidSquareError",
    "InvalidMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "GameOverError",
    "EmptyHistoryError",
    "BackendUnavailableError",
    "InvalidEvaluationError",
    "InvalidLimitError",
    "InvalidOptionError",
    "InvalidBoardError",
    "ConcurrentUseError",
    "CorruptDataError",
    "ArchiveError",
    "NBoardError",
]


class GamecoreError(Exception):
    """Base class of every gamecore error."""


class InvalidSizeError(GamecoreError, ValueError):
    """A board size the game does not support (Othello: even, 4 to 10)."""


class InvalidMoveError(GamecoreError, ValueError):
    """Something that cannot be read as a move at all (wrong type, bad text)."""


class InvalidSquareError(InvalidMoveError):
    """A square that is malformed (``"z9"``, ``"d"``, ``1.5``) or off the board.

    A kind of :class:`InvalidMoveError`: a move that names a bad square cannot be read.
    """


class IllegalMoveError(GamecoreError, ValueError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(GamecoreError, ValueError):
    """A position text of the wrong length, with stray characters or impossible content."""


class GameOverError(IllegalMoveError):
    """A move asked of a game that has already ended."""


class EmptyHistoryError(GamecoreError, IndexError):
    """``pop()`` with no move to take back."""


class BackendUnavailableError(GamecoreError, ImportError):
    """``GAMECORE_BACKEND=cython`` was asked for but the compiled module is missing."""


class InvalidEvaluationError(GamecoreError, ValueError):
    """A user evaluation function returned something that is not an int in range."""


class InvalidLimitError(GamecoreError, ValueError):
    """A search limit that is not a positive int (depth, nodes, iterations) or a finite
    positive number of seconds (``time_limit``: ``None`` is the only "no limit")."""


class InvalidOptionError(GamecoreError, ValueError):
    """An option that names nothing the callee knows or is out of its range: an algorithm,
    evaluation, clock, style or player name, a table size, an MCTS constant, a seed.

    Limits on how much to search (depth, nodes, time) are :class:`InvalidLimitError`
    instead; both are :class:`ValueError`, as every bad argument is."""


class InvalidBoardError(InvalidPositionError):
    """A board handed to an adapter (CTU, UFRJ) with a malformed cell, row or border; the
    message names the cell."""


class ConcurrentUseError(GamecoreError, RuntimeError):
    """A search object (``Engine``, ``MCTS``) used again while it searches: from its own
    evaluation function, or from a second thread. Give each thread its own object."""


class CorruptDataError(GamecoreError, OSError):
    """A data file shipped in the package (the learned Othello weights,
    ``gamecore/data/othello{size}.patterns``) is truncated, empty or of the wrong size for
    its board; the message names the file. Reinstall gamecore to repair it."""


class ArchiveError(GamecoreError, ValueError):
    """A game archive (WTHOR ``.wtb``/``.jou``/``.trn``, GGF, a transcript) that cannot be
    read: a truncated or damaged file, a header whose count disagrees with the file, a byte
    that is no square, or a recorded move the rules forbid. The message names the file and
    the game (its 0-based index in the file); nothing is silently dropped or shortened."""


class NBoardError(GamecoreError, RuntimeError):
    """An NBoard exchange that failed: a command ``gamecore nboard`` cannot read or carry
    out, or an external engine (``nboard:CMD``) that could not start, exited, said nothing in
    its time (it is then stopped) or answered with an illegal move."""
