"""Render the docs' board pictures (docs/images/svg-*.png) with cairosvg: run from the
repository's root as ``python docs/make_board_images.py docs/images``."""

import sys

import cairosvg

from gamecore import Othello, Rolit, Tetralath, solve
from gamecore.archive import read_wthor


def exact_values(position):
    """Each legal move's exact final disc difference for the side to move (the endgame solver)."""
    found = {}
    for move in position.legal_moves():
        child = position.play(move)
        score = solve(child).score
        found[move] = score if child.turn == position.turn else -score
    return found


def main(folder):
    # The first game of WTHOR 1977 (Inoue - Heiberg), 14 empty squares before the end:
    # every legal move labelled with its exact value, an arrow from the best to its best reply.
    othello, _ = list(read_wthor("tests/data/archive/WTH_1977.wtb")[0].positions())[46]
    labels = {move: f"{value:+d}" for move, value in exact_values(othello).items()}
    best = max(labels, key=lambda move: int(labels[move]))
    rolit = Rolit()
    for _ in range(6):
        moves = rolit.legal_moves()
        rolit.push(moves[len(moves) // 2])
    pictures = {
        "othello": othello.svg(labels=labels, arrows=[(best, solve(othello.play(best)).move)]),
        "othello-10x10": Othello.from_moves("g6e7d8", size=10).svg(),
        "rolit": rolit.svg(),
        "tetralath": Tetralath.from_moves("e5 e4 d4 f5 d3").svg(),
    }
    for name, picture in pictures.items():
        cairosvg.svg2png(bytestring=str(picture).encode(), write_to=f"{folder}/svg-{name}.png")


if __name__ == "__main__":
    main(sys.argv[1])
