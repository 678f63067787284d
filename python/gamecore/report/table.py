"""The tables of ``gamecore compare GAME``: names, cells, Markdown and findings."""

from __future__ import annotations

from typing import Any

from ..games import GAMES

__all__ = [
    "ALGORITHMS",
    "COLUMNS",
    "MEASURED",
    "SHADOWS",
    "LABELS",
    "SHORT",
    "cell",
    "fmt_bytes",
    "findings",
    "markdown",
    "method",
]

#: The algorithms seated in the games.
ALGORITHMS = ("maxn", "paranoid", "brs", "mcts")
#: Algorithms measured on the positions of a seated one, their moves not played.
SHADOWS = {"maxn-plain": "maxn"}
#: Every algorithm the report measures, in the order it shows them.
MEASURED = ("maxn", "maxn-plain", "paranoid", "brs", "mcts")
LABELS = {
    "maxn": "Max^n (shallow pruning)",
    "maxn-plain": "Max^n (no pruning)",
    "paranoid": "Paranoid",
    "brs": "Best-Reply Search",
    "mcts": "MCTS (UCT)",
}
SHORT = {"maxn": "Max^n", "maxn-plain": "Max^n plain", "paranoid": "Paranoid", "brs": "BRS", "mcts": "MCTS"}

#: The Markdown table: (summary key, title).
COLUMNS = (
    ("algorithm", "algorithm"),
    ("games", "games"),
    ("wins", "wins (95 % CI)"),
    ("states_per_game", "states per game"),
    ("states_per_move", "states per move"),
    ("peak_memory_bytes", "peak search memory"),
    ("peak_rss_bytes", "peak RSS growth"),
    ("cpu_seconds_per_move", "CPU s per move"),
    ("cpu_seconds_per_game", "CPU s per game"),
    ("budget_share_mean", "budget used (mean, max)"),
    ("average_depth", "average depth"),
)


def fmt_bytes(value: Any) -> str:
    if value == "" or value is None:
        return "-"
    value = float(value)
    for unit in ("B", "KB", "MB"):
        if abs(value) < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def cell(key: str, row: dict[str, Any]) -> str:
    value = row[key]
    if key == "algorithm":
        return str(LABELS.get(value, value))
    if key == "wins":
        if value == "":
            return "not seated"
        return f"{value} ({row['win_rate']:.0%}; {row['win_low']:.0%}-{row['win_high']:.0%})"
    if key in ("peak_memory_bytes", "peak_rss_bytes"):
        return fmt_bytes(value)
    if key == "budget_share_mean":
        return "-" if value == "" else f"{value:.0%}, {row['budget_share_max']:.0%}"
    if key.startswith("cpu_seconds"):
        return f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def method(run: Any) -> list[str]:
    """How each figure was measured (the page's and the Markdown's footnotes)."""
    budget = run.budget
    memory = (
        "the search's own count at its peak over a game (SearchResult.memory_used): table entries filled "
        "(the table is kept from move to move) x entry size plus recursion frames; MCTS tree nodes x node size"
    )
    return [
        f"Budget: {budget.describe()} for every algorithm"
        + (
            " (Engine(clock='cpu'): the same work on a loaded machine)."
            if budget.clock == "cpu" and budget.seconds
            else "."
        )
        + f" Machine: {run.cpus} CPUs, load {run.load[0]:.1f} at the start and {run.load[1]:.1f} at the end "
        f"(1-minute average); backend {run.backend}; seed {run.seed}.",
        f"Games: {len(run.records)} ({cycle_text(run)}). Wins as the game's outcome says (Rolit: the course's tie "
        f"rule); 95 % Wilson intervals; {chance(run)} is chance.",
        "States: SearchResult.nodes of every search (positions visited; MCTS: positions played into in "
        "selection and simulation), summed over the algorithm's moves of a game. Max^n without pruning "
        "searched every position Max^n searched, with the same budget (its move not played).",
        f"Space: {memory}. Peak RSS growth: a fresh process replays game 1's positions with that "
        "algorithm alone searching them; the growth of its peak resident set from just before its Engine was made "
        "(the compiled Engine touches its 16 MB alpha-beta table when made; Max^n's own table comes on top; "
        "MCTS's engine is given none).",
        "Time: the searching thread's CPU time around each Engine.search call, per move and summed per game; "
        "budget used = that time (or the states, with a budget of states) over the budget, mean and "
        "largest, over the searches not solved to the end of the game.",
    ]


_NUMBERS = {2: "two", 3: "three", 4: "four"}


def heading(run: Any) -> str:
    """``Rolit, four players: Max^n, paranoid, Best-Reply Search and MCTS``."""
    name = GAMES[run.game].__name__
    return f"{name}, {_NUMBERS.get(run.seats, str(run.seats))} players: Max^n, paranoid, Best-Reply Search and MCTS"


def chance(run: Any) -> str:
    """The win rate of a player no better than the others: ``25 %`` of four seats."""
    return f"{100 / run.seats:.0f} %"


def cycle_text(run: Any) -> str:
    """What a cycle of seatings is, for the method."""
    per_cycle = len(run.records) // max(run.cycles, 1)
    if run.seats == len(ALGORITHMS):
        return (
            f"{run.cycles} cycle(s) of {per_cycle}: the {per_cycle // run.seats} cyclic orders of the "
            f"{_NUMBERS.get(run.seats, run.seats)} algorithms x {run.seats} rotations, so each sits in each seat and "
            "after each other one equally"
        )
    return (
        f"{run.cycles} cycle(s) of {per_cycle}: every ordered choice of {run.seats} of the {len(ALGORITHMS)} "
        "algorithms, so each sits in each seat against each other one equally"
    )


def findings(run: Any) -> list[str]:
    """Sentences read from the figures."""
    rows = {name: entry.row(run.budget) for name, entry in run.stats.items()}
    seated = [r for r in rows.values() if r["wins"] != ""]
    best = max(seated, key=lambda r: (r["win_rate"], r["average_balls"]))
    most = max(rows.values(), key=lambda r: r["states_per_game"])
    least = min(rows.values(), key=lambda r: r["peak_memory_bytes"])
    lines = [
        f"{LABELS[best['algorithm']]} won most: {best['wins']} of {best['games']} games "
        f"({best['win_rate']:.0%}, 95 % CI {best['win_low']:.0%}-{best['win_high']:.0%}; {chance(run)} is chance).",
        f"{LABELS[most['algorithm']]} explored the most states, {most['states_per_game']:,} a game; "
        f"{LABELS[least['algorithm']]} used the least search memory ({fmt_bytes(least['peak_memory_bytes'])}).",
    ]
    if "maxn" in rows and "maxn-plain" in rows:
        pruned, plain = rows["maxn"], rows["maxn-plain"]
        lines.append(
            f"On the same positions Max^n reached depth {pruned['average_depth']} on average with shallow pruning "
            f"and {plain['average_depth']} without."
        )
    return lines


def markdown(run: Any) -> str:
    rows = [entry.row(run.budget) for entry in run.stats.values()]
    lines = [
        f"# {heading(run)}",
        "",
        f"{len(run.records)} games, {run.budget.describe()}.",
        "",
        "| " + " | ".join(title for _, title in COLUMNS) + " |",
        "|" + "|".join("---" for _ in COLUMNS) + "|",
    ]
    lines += ["| " + " | ".join(cell(key, row) for key, _ in COLUMNS) + " |" for row in rows]
    if run.pairs:
        names = [name for name in run.stats if run.stats[name].seated]
        lines += ["", "Two against two (row's wins of the games against the column, two seats each):", ""]
        lines += ["| | " + " | ".join(SHORT[n] for n in names) + " |", "|---" * (len(names) + 1) + "|"]
        for a in names:
            cells = []
            for b in names:
                games, won = run.pairs.get((a, b), (0, 0))
                cells.append(f"{won}/{games}" if games else "")
            lines.append(f"| {SHORT[a]} | " + " | ".join(cells) + " |")
    lines += ["", *findings(run), "", "How it was measured:", "", *(f"- {line}" for line in method(run)), ""]
    return "\n".join(lines)
