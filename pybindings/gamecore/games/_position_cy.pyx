# cython: language_level=3, boundscheck=False, wraparound=False
"""The hot methods of every public position: the compiled twin of ``_position_py``.

The public position classes inherit from this ``PositionBase`` when the compiled backend
is selected, so a student's ``legal_moves()`` / ``push()`` / ``pop()`` / ``play()`` /
``copy()`` / ``is_game_over()`` runs in C. On a compiled core the calls go straight to its
C methods (``gen_moves``, ``make_move``, ``is_terminal``); on a pure core (a position
made with ``backend="python"``) they call the core's Python methods, as the twin does.
Errors are never raised here: an illegal move goes to the core's checked ``push``, which
says why and changes nothing, exactly as in the twin.
"""

cimport cython
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM

from gamecore._game_cy cimport GameCore, MOVE_BUFFER

__all__ = ["PositionBase"]


@cython.auto_pickle(False)
cdef class PositionBase:
    """A core (``_core``), the backend's modules (``_backend``) and the interned moves."""

    cdef object core_
    cdef GameCore compiled_  # the same core when it is compiled, else None
    cdef public object _backend
    cdef tuple moves_  # interned move objects, or None until first use
    cdef object move_type_
    cdef tuple colors_  # turn by player number, or None until first use

    @property
    def _core(self):
        return self.core_

    @_core.setter
    def _core(self, core):
        self.core_ = core
        self.compiled_ = core if isinstance(core, GameCore) else None
        self.moves_ = None
        self.colors_ = None

    @property
    def _moves(self):
        return self._table()

    # -- hooks of each game --------------------------------------------------------------

    def _interned_moves(self):
        """One move object per core code of this board (negative codes count from the end)."""
        raise NotImplementedError

    def parse_move(self, move):
        """A move object from what a user passes (checks the form, not legality)."""
        raise NotImplementedError

    def _interned_colors(self):
        """The value of ``turn`` for each player number of the core (``core.turn``)."""
        raise NotImplementedError

    # -- the hot methods -----------------------------------------------------------------

    cdef tuple _table(self):
        if self.moves_ is None:
            moves = self._interned_moves()
            if type(moves) is not tuple or not moves:
                raise TypeError("_interned_moves() must return a non-empty tuple")
            self.moves_ = moves
            self.move_type_ = type(moves[0])
        return self.moves_

    cdef inline object _move_of(self, tuple table, int code):
        cdef Py_ssize_t n = len(table)
        cdef Py_ssize_t i = code + n if code < 0 else code
        if not 0 <= i < n:
            raise IndexError(f"move code {code} has no move object")
        return <object>PyTuple_GET_ITEM(table, i)

    @property
    def turn(self):
        """The colour to move (player 0 moves first), a member of the game's ``Color``."""
        if self.colors_ is None:
            colors = self._interned_colors()
            if type(colors) is not tuple:
                raise TypeError("_interned_colors() must return a tuple")
            self.colors_ = colors
        cdef Py_ssize_t player = self.compiled_.to_move() if self.compiled_ is not None else self.core_.turn
        if not 0 <= player < len(self.colors_):
            raise IndexError(f"player {player} has no colour")
        return <object>PyTuple_GET_ITEM(self.colors_, player)

    def legal_moves(self):
        """The legal moves in the core's order; ``[]`` once the game is over."""
        cdef int buf[MOVE_BUFFER]
        cdef int count, i
        cdef tuple table = self._table()
        if self.compiled_ is None:
            return self.core_.legal_move_objects(table)
        count = self.compiled_.gen_moves(buf)
        cdef list out = PyList_New(count)
        for i in range(count):
            move = self._move_of(table, buf[i])
            Py_INCREF(move)
            PyList_SET_ITEM(out, i, move)
        return out

    def count_legal_moves(self):
        """``len(legal_moves())`` without building the list: a perft that counts its last ply
        (a forced pass counts 1; 0 once the game is over)."""
        if self.compiled_ is None:
            return self.core_.count_legal_moves()
        return self.compiled_.count_legal_moves()

    def push(self, move):
        """Play a move in place.

        :raises InvalidMoveError: something that cannot be read as a move
            (``InvalidSquareError`` for a malformed or off-board square).
        :raises IllegalMoveError: the rules forbid it (``GameOverError`` after the end).
            Nothing changes on error.
        """
        cdef int buf[MOVE_BUFFER]
        cdef int count, i, code
        cdef Py_ssize_t n, k
        cdef tuple table = self._table()
        if type(move) is self.move_type_:
            # One of this board's moves (interned or equal to one): no parsing.
            index = move.index
            n = len(table)
            if type(index) is int and -n <= index < n:
                k = index
                known = <object>PyTuple_GET_ITEM(table, k + n if k < 0 else k)
                if known is move or known == move:
                    code = <int>k
                    if self.compiled_ is not None:
                        count = self.compiled_.gen_moves(buf)
                        for i in range(count):
                            if buf[i] == code:
                                self.compiled_.make_move(code)
                                return
                    self.core_.push(index)  # a pure core, or illegal: the core says why
                    return
        self.core_.push(self.parse_move(move).index)

    def pop(self):
        """Take back the last move and return it (:class:`EmptyHistoryError` if there is none)."""
        cdef tuple table = self._table()
        return self._move_of(table, self.core_.pop())

    def play(self, move):
        """A new position with ``move`` played; this one is unchanged."""
        child = self.copy()
        child.push(move)
        return child

    def copy(self):
        """An independent copy, history included."""
        cdef PositionBase other = PositionBase.__new__(type(self))
        other.core_ = self.core_.copy()
        other.compiled_ = other.core_ if self.compiled_ is not None else None
        other._backend = self._backend
        other.moves_ = self._table()
        other.move_type_ = self.move_type_
        other.colors_ = self.colors_
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()  # the core's copy shares nothing mutable

    def is_game_over(self):
        """True once the game has ended."""
        if self.compiled_ is not None:
            return self.compiled_.is_terminal()
        return self.core_.is_game_over()

    def peek(self):
        """The last move played, or ``None``."""
        history = self.core_.history()
        return self._move_of(self._table(), history[len(history) - 1]) if history else None  # no wraparound here

    @property
    def move_stack(self):
        """Moves played since the start (or since the position was set), oldest first."""
        cdef tuple table = self._table()
        return [self._move_of(table, code) for code in self.core_.history()]
