"""A slow, obviously correct Tetralath judge, for the tests only.

It shares no code with gamecore's cores: it rebuilds the board from Susan notation alone
in "doubled" coordinates ``(row, 2 * number + indent)`` (the position of a cell in the
drawing), enumerates every full line of the three axes, and judges positions by scanning
each line cell by cell. Boards are lists of 61 ints: -1 empty, 0 white, 1 black.
"""

from __future__ import annotations

from gamecore._zobrist import SQUARE_KEYS, TURN_KEYS

ROWS = "abcdefghi"
LENS = (5, 6, 7, 8, 9, 8, 7, 6, 5)
NAMES = [f"{ROWS[r]}{k + 1}" for r in range(9) for k in range(LENS[r])]
POS = [(r, abs(4 - r) + 2 * k) for r in range(9) for k in range(LENS[r])]
AT = {p: i for i, p in enumerate(POS)}
AXES = ((0, 2), (1, 1), (1, -1))


def _lines() -> list[list[int]]:
    lines = []
    for dr, dc in AXES:
        for r, c in POS:
            if (r - dr, c - dc) in AT:
                continue  # not the first cell of its line
            line = []
            while (r, c) in AT:
                line.append(AT[(r, c)])
                r, c = r + dr, c + dc
            lines.append(line)
    return lines


LINES = _lines()


def oracle_runs(board: list[int], player: int) -> list[list[int]]:
    """Maximal runs of three or more of ``player``'s stones, scanning every line."""
    runs = []
    for line in LINES:
        run: list[int] = []
        for cell in line + [-1]:
            if cell >= 0 and board[cell] == player:
                run.append(cell)
            else:
                if len(run) >= 3:
                    runs.append(run)
                run = []
    return runs


def oracle_after_move(board: list[int], mover: int) -> tuple[bool, int | None, str]:
    """(over, winner, reason) once ``mover`` has made the last move on ``board``."""
    assert not oracle_runs(board, 1 - mover), "the waiting side cannot have a line"
    runs = oracle_runs(board, mover)
    if any(len(r) >= 4 for r in runs):
        return True, mover, "four in a row"
    if runs:
        return True, 1 - mover, "three in a row"
    if all(v >= 0 for v in board):
        return True, None, "full board"
    return False, None, ""


def oracle_hash(board: list[int], turn: int) -> int:
    h = TURN_KEYS[turn]
    for i, v in enumerate(board):
        if v >= 0:
            h ^= SQUARE_KEYS[v][i]
    return h


def board_of(core) -> list[int]:
    white, black = core.bitboards()
    return [0 if white >> i & 1 else 1 if black >> i & 1 else -1 for i in range(61)]


def oracle_cells(board: list[int], player: int) -> tuple[int, int]:
    """(win cells, losing-three cells) of ``player``: empty cells where its stone would make
    four, or three and no four, found by trying each cell and scanning every line."""
    win = lose = 0
    for i in range(61):
        if board[i] >= 0:
            continue
        board[i] = player
        runs = [r for r in oracle_runs(board, player) if i in r]
        board[i] = -1
        if any(len(r) >= 4 for r in runs):
            win |= 1 << i
        elif runs:
            lose |= 1 << i
    return win, lose


LINES_THROUGH = [[line for line in LINES if cell in line] for cell in range(61)]


def oracle_makes(board: list[int], player: int, cell: int) -> int:
    """The longest run of ``player`` through ``cell`` if it put a stone there (the cell
    must be empty), scanning the three lines through it cell by cell."""
    saved = board[cell]
    board[cell] = player
    best = 0
    for line in LINES_THROUGH[cell]:
        run = 0
        for c in line:
            if board[c] == player:
                run += 1
            else:
                run = 0
            if c == cell:
                through = run
        # extend past the cell
        i = line.index(cell) + 1
        while i < len(line) and board[line[i]] == player:
            through += 1
            i += 1
        best = max(best, through)
    board[cell] = saved
    return best


def oracle_is_forced_win_in_two(board: list[int], mover: int, cell: int) -> bool:
    """True when ``mover`` playing ``cell`` wins by force within its next move: the move
    wins at once, or it does not lose and after every reply the game is won (the reply
    makes three, or ``mover`` then has a cell that makes four)."""
    length = oracle_makes(board, mover, cell)
    if length >= 4:
        return True
    if length == 3:
        return False
    board[cell] = mover
    try:
        empties = [i for i in range(61) if board[i] < 0]
        for reply in empties:
            made = oracle_makes(board, 1 - mover, reply)
            if made >= 4:
                return False
            if made == 3:
                continue  # the reply loses
            board[reply] = 1 - mover
            won = any(oracle_makes(board, mover, c) >= 4 for c in empties if board[c] < 0)
            board[reply] = -1
            if not won:
                return False
        return True
    finally:
        board[cell] = -1
