"""A slow, obvious Rolit: the board as an 8x8 grid, rules checked square by square.

Shares no code with gamecore. Cells are -1 (empty) or a colour 0..3 (red, yellow, green,
blue); ``colours`` are the colours that play, in play order, and ``mover`` is a colour.
"""

from __future__ import annotations

N = 8
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def start_grid() -> list[list[int]]:
    grid = [[-1] * N for _ in range(N)]
    grid[3][3] = 0  # d4 red
    grid[3][4] = 1  # e4 yellow
    grid[4][3] = 3  # d5 blue
    grid[4][4] = 2  # e5 green
    return grid


def captured(grid: list[list[int]], mover: int, row: int, col: int) -> list[tuple[int, int]]:
    """Balls a ball of ``mover`` on the empty square (row, col) captures."""
    out = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = row + dr, col + dc
        while 0 <= r < N and 0 <= c < N and grid[r][c] not in (-1, mover):
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < N and 0 <= c < N and grid[r][c] == mover:
            out.extend(run)
    return out


def next_to_a_ball(grid: list[list[int]], row: int, col: int) -> bool:
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        if 0 <= r < N and 0 <= c < N and grid[r][c] != -1:
            return True
    return False


def legal_moves(grid: list[list[int]], mover: int, compulsory: bool = True) -> list[int]:
    """Square indices (row * 8 + col), ascending."""
    empties = [(r, c) for r in range(N) for c in range(N) if grid[r][c] == -1]
    if compulsory:
        captures = [r * N + c for r, c in empties if captured(grid, mover, r, c)]
        if captures:
            return captures
    return [r * N + c for r, c in empties if next_to_a_ball(grid, r, c)]


def play(grid: list[list[int]], mover: int, square: int) -> list[list[int]]:
    """A new grid with the move played."""
    row, col = divmod(square, N)
    new = [list(line) for line in grid]
    for r, c in captured(grid, mover, row, col):
        new[r][c] = mover
    new[row][col] = mover
    return new


def counts(grid: list[list[int]]) -> list[int]:
    """Balls of red, yellow, green, blue."""
    return [sum(line.count(colour) for line in grid) for colour in range(4)]


def perft(grid: list[list[int]], colours: list[int], player: int, depth: int, compulsory: bool = True) -> int:
    """Leaves ``depth`` plies deep; a finished game is one leaf. ``player`` indexes ``colours``."""
    moves = legal_moves(grid, colours[player], compulsory)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    following = (player + 1) % len(colours)
    return sum(perft(play(grid, colours[player], m), colours, following, depth - 1, compulsory) for m in moves)


def grid_of(bitboards: tuple[int, int, int, int]) -> list[list[int]]:
    grid = [[-1] * N for _ in range(N)]
    for colour, bb in enumerate(bitboards):
        for square in range(64):
            if bb >> square & 1:
                grid[square // N][square % N] = colour
    return grid
