"""Charts and the one-page PDF of ``gamecore compare GAME`` (needs matplotlib: the ``report`` extra).

Uses matplotlib's object API (``Figure``), never ``pyplot``: no global state, no display.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from typing import Any

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from .table import COLUMNS, SHORT, cell, findings, heading, method

__all__ = ["write_charts"]

COLOURS = {"maxn": "#c0392b", "maxn-plain": "#e6a09a", "paranoid": "#2471a3", "brs": "#229954", "mcts": "#b7950b"}
MB = 2**20


def typeset(text: str) -> str:
    """``Max^n`` with a real superscript (matplotlib's mathtext), for any text drawn here."""
    return text.replace("Max^n", "Max$^n$")


def _short(name: str) -> str:
    return typeset(SHORT[name])


def short_number(value: float) -> str:
    """3 significant digits, thousands as k and millions as M: 0.0123, 4.25k, 1.3M."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= limit:
            return f"{value / limit:.3g}{suffix}"
    return f"{value:.3g}"


def _axes(ax: Any, title: str) -> None:
    ax.set_title(title, fontsize=8.5)
    ax.tick_params(labelsize=6.5)
    ax.tick_params(axis="x", labelrotation=30)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _pos: short_number(value)))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda _value, _pos: ""))


def _bars(ax: Any, names: list[str], values: Sequence[float], title: str, log: bool = False) -> None:
    bars = ax.bar([_short(n) for n in names], values, color=[COLOURS[n] for n in names])
    if log and min(values) > 0 and max(values) > 20 * min(values):
        ax.set_yscale("log")
        title += " (log)"
    _axes(ax, title)
    ax.bar_label(bars, labels=[short_number(v) for v in values], fontsize=6, padding=1)
    ax.margins(y=0.2)


def _panels(figure: Any, run: Any) -> None:
    """Six small panels: the bonus's three measures, the budget used and the win rates."""
    names = list(run.stats)
    rows = {name: entry.row(run.budget) for name, entry in run.stats.items()}
    axes = figure.subplots(2, 3)
    _bars(axes[0][0], names, [rows[n]["states_per_game"] for n in names], "states explored per game", log=True)

    ax = axes[0][1]
    width = 0.4
    xs = range(len(names))
    used = [rows[n]["peak_memory_bytes"] / MB for n in names]
    rss = [(rows[n]["peak_rss_bytes"] or 0) / MB for n in names]
    bars = ax.bar([x - width / 2 for x in xs], used, width, color=[COLOURS[n] for n in names], label="search's count")
    ax.bar_label(bars, labels=[short_number(v) for v in used], fontsize=5.5, padding=1)
    bars = ax.bar(
        [x + width / 2 for x in xs], rss, width, color="white", edgecolor="grey", hatch="///", label="peak RSS growth"
    )
    ax.bar_label(bars, labels=[short_number(v) for v in rss], fontsize=5.5, padding=1)
    ax.set_xticks(list(xs), [_short(n) for n in names])
    _axes(ax, "peak memory (MB)")
    # one row above the tallest bar and its label, so that it covers no label
    ax.legend(fontsize=5.5, loc="upper center", ncol=2, frameon=False)
    ax.set_ylim(0, max([*used, *rss, 1e-9]) * 1.6)

    ax = axes[0][2]
    _bars(ax, names, [rows[n]["cpu_seconds_per_move"] for n in names], "CPU seconds per move")
    if run.budget.seconds is not None:
        ax.axhline(run.budget.seconds, color="grey", linewidth=0.8, linestyle="--")
        ax.text(-0.5, run.budget.seconds, "budget", fontsize=6, ha="left", va="bottom", color="grey")

    _bars(axes[1][0], names, [rows[n]["cpu_seconds_per_game"] for n in names], "CPU seconds per game")

    ax = axes[1][1]
    means = [100 * (rows[n]["budget_share_mean"] or 0) for n in names]
    highs = [100 * (rows[n]["budget_share_max"] or 0) for n in names]
    bars = ax.bar([_short(n) for n in names], means, color=[COLOURS[n] for n in names])
    ax.bar_label(bars, labels=[f"{v:.0f}" for v in means], fontsize=6, label_type="center", color="white")
    ax.plot(range(len(names)), highs, "_", color="black", markersize=9, markeredgewidth=1.5)
    _axes(ax, "budget used (%): mean, dash = largest")
    ax.axhspan(90, 100, color="#d5f5e3", zorder=0)
    ax.set_ylim(0, max(110, *highs) * 1.08)

    ax = axes[1][2]
    seated = [n for n in names if rows[n]["wins"] != ""]
    rates = [100 * rows[n]["win_rate"] for n in seated]
    below = [rate - 100 * rows[n]["win_low"] for n, rate in zip(seated, rates)]
    above = [100 * rows[n]["win_high"] - rate for n, rate in zip(seated, rates)]
    games = rows[seated[0]]["games"] if seated else 0
    ax.bar([_short(n) for n in seated], rates, color=[COLOURS[n] for n in seated])
    ax.errorbar(range(len(seated)), rates, yerr=[below, above], fmt="none", ecolor="black", capsize=3, linewidth=0.8)
    for x, name in enumerate(seated):
        wins = f"{rows[name]['wins']}/{rows[name]['games']}"
        ax.text(x, 100 * rows[name]["win_high"] + 2, wins, ha="center", va="bottom", fontsize=6)
    ax.axhline(25, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 100)
    _axes(ax, f"win rate (%), 95 % CI; {games} games each")


def write_charts(run: Any, out: str) -> list[str]:
    """``charts.png`` (the six panels) and ``report.pdf`` (one A4 page); returns their paths."""
    paths = []
    figure = Figure(figsize=(8, 5))
    _panels(figure, run)
    figure.tight_layout()
    path = os.path.join(out, "charts.png")
    figure.savefig(path, dpi=120)
    paths.append(path)

    page = Figure(figsize=(8.27, 11.69))  # A4
    page.text(
        0.5,
        0.975,
        typeset(heading(run)),
        ha="center",
        va="top",
        size=13,
        weight="bold",
    )
    page.text(
        0.5,
        0.952,
        f"states explored, space used and time, per whole game - {len(run.records)} games, {run.budget.describe()}",
        ha="center",
        va="top",
        size=9.5,
    )
    charts: Any = page.subfigures(1, 1)
    charts.subplots_adjust(left=0.08, right=0.98, top=0.915, bottom=0.585, wspace=0.35, hspace=0.6)
    _panels(charts, run)

    table_ax = page.add_axes((0.03, 0.415, 0.94, 0.11))
    table_ax.axis("off")
    cells = [
        [_short(name)] + [cell(key, entry.row(run.budget)) for key, _ in COLUMNS[1:]]
        for name, entry in run.stats.items()
    ]
    table = table_ax.table(
        cellText=cells, colLabels=[textwrap.fill(title, 11) for _, title in COLUMNS], loc="center", cellLoc="center"
    )
    widths = {"algorithm": 0.09, "games": 0.05, "wins": 0.14, "budget_share_mean": 0.1}
    for (_row, column), entry in table.get_celld().items():
        entry.set_width(widths.get(COLUMNS[column][0], 0.086))
    table.auto_set_font_size(False)
    table.set_fontsize(6)
    table.scale(1, 1.45)
    for (row, _column), entry in table.get_celld().items():
        if row == 0:
            entry.set_text_props(weight="bold")
            entry.set_height(entry.get_height() * 2.2)

    y = 0.378
    if run.pairs:
        names = [name for name in run.stats if run.stats[name].seated]
        page.text(
            0.06,
            y,
            "Two against two (row's team won / games; each algorithm two seats, all 6 seatings):",
            size=8,
            va="top",
        )
        pair_ax = page.add_axes((0.2, y - 0.088, 0.6, 0.075))
        pair_ax.axis("off")
        grid = [
            [_short(a)] + [(lambda g: f"{g[1]}/{g[0]}" if g[0] else "")(run.pairs.get((a, b), (0, 0))) for b in names]
            for a in names
        ]
        pairs = pair_ax.table(
            cellText=grid, colLabels=[""] + [_short(n) for n in names], loc="center", cellLoc="center"
        )
        pairs.auto_set_font_size(False)
        pairs.set_fontsize(6.5)
        y -= 0.1

    page.text(0.06, y, "Findings", size=10, va="top", weight="bold")
    text = typeset("\n".join(textwrap.fill(sentence, 120) for sentence in findings(run)))
    page.text(0.06, y - 0.018, text, size=7.5, va="top")
    y -= 0.07
    page.text(0.06, y, "How each figure was measured", size=10, va="top", weight="bold")
    text = typeset(
        "\n".join(textwrap.fill(line, 135, initial_indent="- ", subsequent_indent="  ") for line in method(run))
    )
    page.text(0.06, y - 0.018, text, size=6.5, va="top", linespacing=1.3)
    path = os.path.join(out, "report.pdf")
    with PdfPages(path) as pdf:
        pdf.savefig(page)
    paths.append(path)
    return paths
