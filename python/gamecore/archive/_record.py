"""The one record every archive reader returns: :class:`ArchiveGame`."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import ArchiveError, GamecoreError
from ..games.othello import PASS, Othello, OthelloMove


@dataclass(frozen=True)
class ArchiveGame:
    """One Othello game as an archive records it.

    ``moves`` are square names (``"f5"``); passes are not listed, :meth:`replay` plays the
    forced ones. Every other field is what the archive says, ``None`` (or ``""``) when it
    says nothing; nothing is recomputed from the moves.
    """

    moves: tuple[str, ...]
    size: int = 8
    black: str = ""
    white: str = ""
    tournament: str = ""
    year: int | None = None
    #: Black's final disc count as recorded (WTHOR gives the empty squares to the winner).
    black_discs: int | None = None
    #: Black's disc count with perfect play from move ``60 - theoretical_depth`` on (WTHOR).
    theoretical_black: int | None = None
    theoretical_depth: int | None = None
    #: Black's disc difference as recorded (GGF ``RE``; a transcript's number outside -1..1).
    margin: int | None = None
    #: Black's result as recorded or implied: 1 won, 0 drew, -1 lost.
    result: int | None = None
    #: The starting position (``Othello.to_text()``) when it is not the standard one (GGF ``BO``).
    start: str | None = None
    #: Where the game was read: the file name (or ``"<text>"``) and its 0-based index there.
    source: tuple[str, int] | None = None
    #: WTHOR's tournament, black and white ids (the writer needs them to write the game back).
    wthor_ids: tuple[int, int, int] | None = None
    #: Any other tags of a GGF record (place, date, time control...), in file order.
    tags: tuple[tuple[str, str], ...] = ()

    def where(self) -> str:
        """``"WTH_1977.wtb, game 3"``: how error messages name this game."""
        if self.source is None:
            return "the game"
        return f"{self.source[0]}, game {self.source[1]}"

    def start_position(self, backend: str | None = None) -> Othello:
        """The position the first move is played on."""
        try:
            if self.start is not None:
                return Othello.from_text(self.start, backend=backend)
            return Othello(self.size, backend=backend)
        except GamecoreError as exc:
            raise ArchiveError(f"{self.where()}: bad starting position: {exc}") from exc

    def positions(self, backend: str | None = None) -> Iterator[tuple[Othello, OthelloMove]]:
        """Each recorded move with the position it was played on (a copy the caller may keep).

        Forced passes are played between them and are not yielded themselves.

        :raises ArchiveError: a move the rules forbid (the message names the game and move).
        """
        game = self.start_position(backend)
        for move in self._play_each(game):
            yield game.copy(), move

    def replay(self, backend: str | None = None) -> Othello:
        """The final position, every move checked by gamecore's rules (forced passes played).

        :raises ArchiveError: a move the rules forbid (the message names the game and move).
        """
        game = self.start_position(backend)
        for _ in self._play_each(game):
            pass
        return game

    def _play_each(self, game: Othello) -> Iterator[OthelloMove]:
        """Yield each move just before it is played on ``game``, then play it (after a
        forced pass where the archive left one out)."""
        squares = _square_moves(game.size)
        core = game.core
        for number, name in enumerate(self.moves, 1):
            if core.legal_moves() == [PASS]:
                core.push(PASS)
            move = squares.get(name)
            if move is None:
                raise ArchiveError(
                    f"{self.where()}: move {number} ({name!r}) is no square of a {game.size}x{game.size} board"
                )
            yield move
            try:
                game.push(move)
            except GamecoreError as exc:
                raise ArchiveError(f"{self.where()}: move {number} ({name}) cannot be played: {exc}") from exc


@functools.cache
def _square_moves(size: int) -> dict[str, OthelloMove]:
    """Every square's move on a board of ``size``, by name."""
    return {move.name: move for move in (OthelloMove(index, size) for index in range(size * size))}


def result_of(margin: int | None) -> int | None:
    """1, 0 or -1 from black's disc difference (``None`` stays ``None``)."""
    if margin is None:
        return None
    return (margin > 0) - (margin < 0)
