"""A slow, obviously correct Othello/Reversi written square by square, for the tests only.

It shares no code and no idea with gamecore's bitboard kernels: the board is a list of
rows, each cell ``EMPTY``, ``BLACK`` or ``WHITE``, and a move walks the 8 directions one
square at a time. Both gamecore backends are checked against it, so a bug the two
backends share (they port one algorithm) still shows up.

Conventions: ``a1`` is ``(0, 0)``, the top-left corner; square index
``row * n + col``; white on d4/e5 and black on e4/d5 at the start (the four centre
squares for any n); black moves first; no move means a pass (a ply in perft); a game
that ends before the full depth is one leaf.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = -1, 0, 1
PASS = -1
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

__all__ = [
    "EMPTY",
    "BLACK",
    "WHITE",
    "PASS",
    "start",
    "from_bitboards",
    "to_bitboards",
    "flipped_squares",
    "legal_moves",
    "moves_with_pass",
    "play",
    "game_over",
    "perft",
]


def start(n: int) -> list[list[int]]:
    """The start position of an n x n board."""
    grid = [[EMPTY] * n for _ in range(n)]
    h = n // 2
    grid[h - 1][h - 1] = WHITE  # d4 on 8x8
    grid[h][h] = WHITE  # e5
    grid[h - 1][h] = BLACK  # e4
    grid[h][h - 1] = BLACK  # d5
    return grid


def from_bitboards(black: int, white: int, n: int) -> list[list[int]]:
    grid = [[EMPTY] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            i = r * n + c
            if (black >> i) & 1:
                grid[r][c] = BLACK
            if (white >> i) & 1:
                assert grid[r][c] == EMPTY, "a square with two discs"
                grid[r][c] = WHITE
    return grid


def to_bitboards(grid: list[list[int]]) -> tuple[int, int]:
    n = len(grid)
    black = white = 0
    for r in range(n):
        for c in range(n):
            if grid[r][c] == BLACK:
                black |= 1 << (r * n + c)
            elif grid[r][c] == WHITE:
                white |= 1 << (r * n + c)
    return black, white


def flipped_squares(grid: list[list[int]], player: int, row: int, col: int) -> list[tuple[int, int]]:
    """The discs ``player`` would flip by moving on the empty square ``(row, col)``."""
    n = len(grid)
    other = 1 - player
    result = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < n and 0 <= c < n and grid[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        # The run counts only if it is closed by one of the player's own discs.
        if line and 0 <= r < n and 0 <= c < n and grid[r][c] == player:
            result.extend(line)
    return result


def legal_moves(grid: list[list[int]], player: int) -> list[int]:
    """Square indices where ``player`` may move, ascending (no pass)."""
    n = len(grid)
    moves = []
    for r in range(n):
        for c in range(n):
            if grid[r][c] == EMPTY and flipped_squares(grid, player, r, c):
                moves.append(r * n + c)
    return moves


def moves_with_pass(grid: list[list[int]], player: int) -> list[int]:
    """Legal moves as gamecore lists them: ``[PASS]`` for a forced pass, ``[]`` at the end."""
    moves = legal_moves(grid, player)
    if moves:
        return moves
    return [PASS] if legal_moves(grid, 1 - player) else []


def play(grid: list[list[int]], player: int, move: int) -> list[list[int]]:
    """A new grid with ``move`` played (a pass changes nothing on the board)."""
    new = [row[:] for row in grid]
    if move == PASS:
        return new
    n = len(grid)
    r, c = divmod(move, n)
    flips = flipped_squares(grid, player, r, c)
    assert grid[r][c] == EMPTY and flips, "illegal move given to the oracle"
    new[r][c] = player
    for fr, fc in flips:
        new[fr][fc] = player
    return new


def game_over(grid: list[list[int]]) -> bool:
    return not legal_moves(grid, BLACK) and not legal_moves(grid, WHITE)


def perft(grid: list[list[int]], player: int, depth: int) -> int:
    """Leaves ``depth`` plies below the position; a pass is a ply, a finished game one leaf."""
    if depth == 0:
        return 1
    moves = moves_with_pass(grid, player)
    if not moves:
        return 1
    return sum(perft(play(grid, player, m), 1 - player, depth - 1) for m in moves)
