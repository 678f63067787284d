"""A slow, obvious Rolit: the board as an 8x8 grid of letters, rules checked square by square.

Shares no code with gamecore. Cells are ``"."`` (empty) or a colour's initial (``"R"``,
``"B"``, ``"Y"``, ``"G"``); ``colours`` is a string of the colours that play, in play order,
and ``mover`` a colour's initial.
"""

from __future__ import annotations

N = 8
EMPTY = "."
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def start_grid() -> list[list[str]]:
    """DESIGN.md's start, whoever plays: d4 red, e4 yellow, d5 blue, e5 green."""
    grid = [[EMPTY] * N for _ in range(N)]
    grid[3][3] = "R"  # d4
    grid[3][4] = "Y"  # e4
    grid[4][3] = "B"  # d5
    grid[4][4] = "G"  # e5
    return grid


def captured(grid: list[list[str]], mover: str, row: int, col: int) -> list[tuple[int, int]]:
    """Balls a ball of ``mover`` on the empty square (row, col) captures."""
    out = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = row + dr, col + dc
        while 0 <= r < N and 0 <= c < N and grid[r][c] not in (EMPTY, mover):
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < N and 0 <= c < N and grid[r][c] == mover:
            out.extend(run)
    return out


def next_to_a_ball(grid: list[list[str]], row: int, col: int) -> bool:
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        if 0 <= r < N and 0 <= c < N and grid[r][c] != EMPTY:
            return True
    return False


def legal_moves(grid: list[list[str]], mover: str, compulsory: bool = True) -> list[int]:
    """Square indices (row * 8 + col), ascending."""
    empties = [(r, c) for r in range(N) for c in range(N) if grid[r][c] == EMPTY]
    if compulsory:
        captures = [r * N + c for r, c in empties if captured(grid, mover, r, c)]
        if captures:
            return captures
    return [r * N + c for r, c in empties if next_to_a_ball(grid, r, c)]


def play(grid: list[list[str]], mover: str, square: int) -> list[list[str]]:
    """A new grid with the move played."""
    row, col = divmod(square, N)
    new = [list(line) for line in grid]
    for r, c in captured(grid, mover, row, col):
        new[r][c] = mover
    new[row][col] = mover
    return new


def counts(grid: list[list[str]]) -> dict[str, int]:
    """Balls of each colour, by initial."""
    return {colour: sum(line.count(colour) for line in grid) for colour in "RBYG"}


def perft(grid: list[list[str]], colours: str, player: int, depth: int, compulsory: bool = True) -> int:
    """Leaves ``depth`` plies deep; a finished game is one leaf. ``player`` indexes ``colours``."""
    moves = legal_moves(grid, colours[player], compulsory)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    following = (player + 1) % len(colours)
    return sum(perft(play(grid, colours[player], m), colours, following, depth - 1, compulsory) for m in moves)


def grid_of(bitboards: tuple[int, ...], initials: str) -> list[list[str]]:
    """A grid from one bitboard per colour, ``initials[k]`` naming the colour of ``bitboards[k]``."""
    grid = [[EMPTY] * N for _ in range(N)]
    for colour, bb in zip(initials, bitboards, strict=True):
        for square in range(64):
            if bb >> square & 1:
                grid[square // N][square % N] = colour
    return grid
