"""The hot methods of every public position: the pure-Python twin of ``_position_cy``.

A student's own search calls ``legal_moves()``, ``push()``, ``pop()``, ``play()``, ``copy()``
and ``is_game_over()`` at every node, so these live here, below the public
:class:`~gamecore.games.base.Position`, in a module the compiled backend replaces with C
(the public classes inherit from the selected backend's :class:`PositionBase`).

Move objects are interned: each game hands over, once per board, a tuple with one immutable
move per core code (``_interned_moves()``; a negative code such as Othello's pass counts
from the end), so ``legal_moves()`` builds one list of existing objects and ``push()`` of
such a move skips parsing. Anything else given to ``push()`` goes through the game's
``parse_move()`` as before, and every error comes from the same places as before.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PositionBase"]


class PositionBase:
    """A core (``_core``), the backend's modules (``_backend``) and the interned moves."""

    __slots__ = ("_core", "_backend", "_moves", "_colors")
    _core: Any
    _backend: Any
    _moves: tuple[Any, ...]
    _colors: tuple[Any, ...]

    # -- hooks of each game --------------------------------------------------------------

    def _interned_moves(self) -> tuple[Any, ...]:
        """One move object per core code of this board (negative codes count from the end)."""
        raise NotImplementedError

    def parse_move(self, move: Any) -> Any:
        """A move object from what a user passes (checks the form, not legality)."""
        raise NotImplementedError

    def _interned_colors(self) -> tuple[Any, ...]:
        """The value of ``turn`` for each player number of the core (``core.turn``)."""
        raise NotImplementedError

    # -- the hot methods -----------------------------------------------------------------

    def _table(self) -> tuple[Any, ...]:
        try:
            return self._moves
        except AttributeError:  # first use since the position was made
            moves = self._moves = self._interned_moves()
            return moves

    @property
    def turn(self) -> Any:
        """The colour to move (player 0 moves first), a member of the game's ``Color``."""
        try:
            colors = self._colors
        except AttributeError:  # first use since the position was made
            colors = self._colors = self._interned_colors()
        return colors[self._core.turn]

    def legal_moves(self) -> list[Any]:
        """The legal moves in the core's order; ``[]`` once the game is over."""
        try:
            table = self._moves
        except AttributeError:
            table = self._table()
        moves: list[Any] = self._core.legal_move_objects(table)
        return moves

    def count_legal_moves(self) -> int:
        """``len(legal_moves())`` without building the list: a perft that counts its last ply
        (a forced pass counts 1; 0 once the game is over)."""
        count: int = self._core.count_legal_moves()
        return count

    def push(self, move: Any) -> None:
        """Play a move in place.

        :raises InvalidMoveError: something that cannot be read as a move
            (``InvalidSquareError`` for a malformed or off-board square).
        :raises IllegalMoveError: the rules forbid it (``GameOverError`` after the end).
            Nothing changes on error.
        """
        try:
            table = self._moves
        except AttributeError:
            table = self._table()
        if type(move) is type(table[0]):
            # One of this board's moves (interned or equal to one): no parsing.
            code = move.index
            if type(code) is int and -len(table) <= code < len(table):
                known = table[code]
                if known is move or known == move:
                    self._core.push(code)
                    return
        self._core.push(self.parse_move(move).index)

    def pop(self) -> Any:
        """Take back the last move and return it (:class:`EmptyHistoryError` if there is none)."""
        code = self._core.pop()
        try:
            return self._moves[code]
        except AttributeError:
            return self._table()[code]

    def play(self, move: Any) -> Any:
        """A new position with ``move`` played; this one is unchanged."""
        child = self.copy()
        child.push(move)
        return child

    def copy(self) -> Any:
        """An independent copy, history included."""
        cls = type(self)
        other = cls.__new__(cls)
        other._core = self._core.copy()
        other._backend = self._backend
        other._moves = self._table()
        try:
            other._colors = self._colors
        except AttributeError:
            pass
        return other

    def __copy__(self) -> Any:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Any:
        return self.copy()  # the core's copy shares nothing mutable

    def is_game_over(self) -> bool:
        """True once the game has ended."""
        over: bool = self._core.is_game_over()
        return over

    def peek(self) -> Any | None:
        """The last move played, or ``None``."""
        history = self._core.history()
        return self._table()[history[-1]] if history else None

    @property
    def move_stack(self) -> list[Any]:
        """Moves played since the start (or since the position was set), oldest first."""
        table = self._table()
        return [table[code] for code in self._core.history()]
