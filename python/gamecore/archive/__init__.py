"""Othello game archives: WTHOR databases, GGF records and plain transcripts.

Every reader returns :class:`ArchiveGame` records and replays each game with gamecore's
rules as it reads (``check=False`` skips that): a damaged file or an illegal move is one
:class:`~gamecore.errors.ArchiveError` naming the file and the game, never a shortened game.

>>> from gamecore.archive import read_transcripts
>>> [game] = read_transcripts("f5d6c3d3c4 1")
>>> game.moves[:3], game.result
(('f5', 'd6', 'c3'), 1)
>>> game.replay().score()
(6, 3)
"""

from ..errors import ArchiveError
from ._record import ArchiveGame
from .text import read_ggf, read_transcripts, write_ggf, write_transcript
from .wthor import (
    read_wthor,
    read_wthor_players,
    read_wthor_tournaments,
    write_wthor,
    write_wthor_players,
    write_wthor_tournaments,
)

__all__ = [
    "ArchiveGame",
    "ArchiveError",
    "read_wthor",
    "read_wthor_players",
    "read_wthor_tournaments",
    "write_wthor",
    "write_wthor_players",
    "write_wthor_tournaments",
    "read_transcripts",
    "write_transcript",
    "read_ggf",
    "write_ggf",
]
