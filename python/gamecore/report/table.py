"""The table of ``gamecore compare rolit``: its columns, cells, Markdown and findings."""

from __future__ import annotations

from typing import Any

__all__ = ["ALGORITHMS", "LABELS", "COLUMNS", "cell", "findings", "markdown"]

#: The algorithms compared, and how the report names them.
ALGORITHMS = ("maxn", "paranoid", "brs", "mcts")
LABELS = {"maxn": "Max^n (shallow pruning)", "paranoid": "Paranoid", "brs": "Best-Reply Search", "mcts": "MCTS (UCT)"}

COLUMNS = (
    ("algorithm", "algorithm"),
    ("games", "games"),
    ("wins", "wins"),
    ("win_rate", "win rate"),
    ("ties_at_top", "ties at top"),
    ("average_balls", "avg balls"),
    ("states_per_game", "states/game"),
    ("states_per_move", "states/move"),
    ("peak_memory_bytes", "peak memory"),
    ("seconds_per_move", "s/move"),
    ("seconds_per_game", "s/game"),
)


def cell(key: str, value: Any) -> str:
    if key == "algorithm":
        return LABELS.get(value, value)
    if key == "win_rate":
        return f"{value:.0%}"
    if key == "peak_memory_bytes":
        return _bytes(value)
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _bytes(value: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024  # type: ignore[assignment]
    return str(value)


def findings(stats: dict[str, Any]) -> list[str]:
    """Three sentences read from the figures."""
    rows = [s.row() for s in stats.values()]
    best = max(rows, key=lambda r: (r["win_rate"], r["average_balls"]))
    busiest = max(rows, key=lambda r: r["states_per_move"])
    lightest = min(rows, key=lambda r: r["peak_memory_bytes"])
    games = rows[0]["games"]
    return [
        f"{LABELS[best['algorithm']]} won {best['win_rate']:.0%} of its {games} games "
        f"(25% is chance) with {best['average_balls']} balls on average.",
        f"{LABELS[busiest['algorithm']]} explored the most states, {busiest['states_per_move']:,} a move"
        + (
            ", and won the most."
            if busiest is best
            else f", {LABELS[best['algorithm']]} {best['states_per_move']:,}: more states did not by themselves win."
        ),
        f"{LABELS[lightest['algorithm']]} needed the least memory ({_bytes(lightest['peak_memory_bytes'])}); "
        "the table searches carry their transposition table and MCTS its tree.",
    ]


def markdown(stats: dict[str, Any], time_limit: float, games: int) -> str:
    lines = [
        "# Rolit, four players: Max^n vs paranoid vs Best-Reply Search vs MCTS",
        "",
        f"{games} games, seats rotated (every algorithm plays every colour in turn), "
        f"{time_limit:g} s a move, wins by the tie rule.",
        "",
        "| " + " | ".join(title for _, title in COLUMNS) + " |",
        "|" + "|".join("---" for _ in COLUMNS) + "|",
    ]
    for entry in stats.values():
        row = entry.row()
        lines.append("| " + " | ".join(cell(key, row[key]) for key, _ in COLUMNS) + " |")
    lines += ["", *findings(stats), ""]
    return "\n".join(lines)
