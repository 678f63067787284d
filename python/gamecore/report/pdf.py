"""Charts and the one-page PDF of ``gamecore compare rolit`` (needs matplotlib: the ``report`` extra).

Uses matplotlib's object API (``Figure``), never ``pyplot``: no global state, no display.
"""

from __future__ import annotations

import os
import textwrap
from typing import Any

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from .table import COLUMNS, LABELS, cell, findings

__all__ = ["write_charts"]

COLOURS = ("#c0392b", "#2471a3", "#229954", "#b7950b")
SHORT = {"maxn": "Max^n", "paranoid": "Paranoid", "brs": "BRS", "mcts": "MCTS"}


def _bars(ax: Any, names: list[str], values: list[float], title: str, log: bool = False) -> None:
    ax.bar(names, values, color=COLOURS[: len(names)])
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    if log and all(v > 0 for v in values):
        ax.set_yscale("log")


def write_charts(stats: dict[str, Any], out: str, time_limit: float, games: int, seed: int) -> list[str]:
    """``charts.png`` (win rate, states a move, time a move, peak memory), ``win_rate.png`` and
    ``report.pdf`` (one page); returns their paths."""
    names = [entry.algorithm for entry in stats.values()]
    rows = [entry.row() for entry in stats.values()]
    paths = []

    figure = Figure(figsize=(8, 6))
    axes = figure.subplots(2, 2)
    _bars(axes[0][0], names, [r["win_rate"] * 100 for r in rows], "win rate (%), 25% is chance")
    axes[0][0].axhline(25, color="grey", linewidth=0.8, linestyle="--")
    _bars(axes[0][1], names, [r["states_per_move"] for r in rows], "states explored per move (log)", log=True)
    _bars(axes[1][0], names, [r["seconds_per_move"] for r in rows], "seconds per move")
    _bars(axes[1][1], names, [r["peak_memory_bytes"] / 2**20 for r in rows], "peak memory of the search (MB)")
    figure.tight_layout()
    path = os.path.join(out, "charts.png")
    figure.savefig(path, dpi=120)
    paths.append(path)

    figure = Figure(figsize=(5, 3.2))
    ax = figure.subplots()
    _bars(ax, names, [r["win_rate"] * 100 for r in rows], "win rate (%) in four-player Rolit")
    ax.axhline(25, color="grey", linewidth=0.8, linestyle="--")
    figure.tight_layout()
    path = os.path.join(out, "win_rate.png")
    figure.savefig(path, dpi=120)
    paths.append(path)

    # The one-page report: what, how, the table, one chart, three findings.
    page = Figure(figsize=(8.27, 11.69))  # A4
    page.text(0.5, 0.96, "Rolit for four players: Max^n, paranoid, Best-Reply Search and MCTS", ha="center", size=13)
    how = (
        "What: four search algorithms of gamecore, each in a seat of a four-player Rolit game (8x8, capture\n"
        "compulsory, 60 plies, most balls wins; ties go to the colour that reached the top score first).\n"
        f"How: {games} games, seats rotated so that every algorithm plays every colour in turn, {time_limit:g} s a move\n"
        "for every algorithm, iterative deepening with a transposition table (paranoid, BRS), shallow pruning\n"
        "(Max^n), UCT with a reward per player and tree reuse (MCTS); the same evaluation (projected balls)\n"
        f"for the three tree searches. States = positions a search visited. Seed {seed}."
    )
    page.text(0.06, 0.90, how, size=8.5, va="top", family="monospace")
    table_ax = page.add_axes((0.04, 0.62, 0.92, 0.16))
    table_ax.axis("off")
    keys = [key for key, _ in COLUMNS]
    cells = [[SHORT[row["algorithm"]]] + [cell(key, row[key]) for key in keys[1:]] for row in rows]
    table = table_ax.table(cellText=cells, colLabels=[title for _, title in COLUMNS], loc="center", cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(6.5)
    table.scale(1, 1.6)
    chart = page.add_axes((0.15, 0.28, 0.7, 0.28))
    _bars(chart, [LABELS[n] for n in names], [r["win_rate"] * 100 for r in rows], "win rate (%), 25% is chance")
    chart.axhline(25, color="grey", linewidth=0.8, linestyle="--")
    page.text(0.06, 0.20, "Findings", size=11, va="top")
    text = "\n".join(textwrap.fill(sentence, 105) for sentence in findings(stats))
    page.text(0.06, 0.17, text, size=8.5, va="top")
    path = os.path.join(out, "report.pdf")
    with PdfPages(path) as pdf:
        pdf.savefig(page)
    paths.append(path)
    return paths
