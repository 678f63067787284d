"""What the backends' searchers return: two records and one constant, shared by
``_alphabeta_py`` / ``_alphabeta_cy`` (and embedded in standalone CTU players) and by
``_multiplayer_py`` / ``_multiplayer_cy``.

This is plain data, not hot code, so it is written once rather than twinned.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["NO_MOVE", "MultiOutcome", "SearchOutcome"]

#: The move code a searcher returns when there is no move: the game is already over.
#: (Move codes are square indices from 0 and a game's special moves from -1 down.)
NO_MOVE = -2


class SearchOutcome(NamedTuple):
    """The result of ``Searcher.search``, in move codes (the engine turns it into a
    :class:`~gamecore.search.engine.SearchResult` of move objects)."""

    move: int  #: best move code; NO_MOVE when the game is over
    score: int  #: for the side to move; beyond WIN a proven win, below -WIN a proven loss
    depth: int  #: last fully searched depth (0: no iteration finished, move from ordering)
    pv: list[int]  #: principal variation, ``move`` first
    nodes: int  #: positions visited
    tt_hits: int  #: transposition-table probes that found the position


class MultiOutcome(NamedTuple):
    """The result of ``MultiSearcher.search_multi`` (Max^n, paranoid, Best-Reply Search), in
    move codes (the engine turns it into a :class:`~gamecore.search.engine.SearchResult`)."""

    move: int  #: best move code; NO_MOVE when the game is over
    score: int  #: the value of the player to move at the root
    values: list[int | None]  #: every player's value (paranoid and BRS know the root player's only: None)
    depth: int  #: last fully searched depth (0: no iteration finished, move from ordering)
    pv: list[int]  #: principal variation, ``move`` first
    nodes: int  #: positions visited
    tt_hits: int  #: transposition-table probes that found the position
    exact: bool  #: that depth reached the end of the game on every line
    memory: int  #: bytes of the search structures (tables and recursion buffers)
