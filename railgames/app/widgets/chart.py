"""A small text chart: one sparkline per player and measure, on a shared scale.

The figures (first → last) are never cut: when the width is short, the sparklines
give way, each drawn from evenly spaced turns (always the first and the last).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from railgames.app.palette import player_style

BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[int], low: int, high: int) -> str:
    if not values:
        return ""
    span = max(high - low, 1)
    return "".join(BARS[min(len(BARS) - 1, (v - low) * (len(BARS) - 1) // span)] for v in values)


def thinned(values: Sequence[int], width: int) -> list[int]:
    """At most ``width`` of ``values``, evenly spaced, the first and last kept."""
    if width <= 0:
        return []
    if len(values) <= width:
        return list(values)
    if width == 1:
        return [values[-1]]
    last = len(values) - 1
    return [values[round(i * last / (width - 1))] for i in range(width)]


class HistoryChart:
    """``history[turn][seat] = (income, cash)`` -> a table of sparklines, one row per player."""

    def __init__(self, names: Sequence[str], history: Sequence[Sequence[tuple[int, int]]]) -> None:
        self.names = list(names)
        self.history = history

    def table(self, width: int | None = None) -> Table:
        names, history = self.names, self.history
        table = Table(box=None, padding=(0, 1), show_edge=False)
        for header in ("", "Income", "", "Cash", ""):
            table.add_column(header, no_wrap=True)
        if not history:
            return table
        incomes = [[turn[s][0] for turn in history] for s in range(len(names))]
        cash = [[turn[s][1] for turn in history] for s in range(len(names))]
        i_figs = [f"{row[0]}→{row[-1]}" for row in incomes]
        c_figs = [f"${row[0]}→${row[-1]}" for row in cash]
        fixed = (max(map(len, names)) + max(map(len, i_figs)) + max(map(len, c_figs))
                 + 5 * 2)  # a space each side of each of the five columns
        spark = len(history) if width is None else max(1, min(len(history), (width - fixed) // 2))
        i_low, i_high = min(map(min, incomes)), max(map(max, incomes))
        c_low, c_high = min(map(min, cash)), max(map(max, cash))
        for seat, name in enumerate(names):
            style = player_style(seat)
            table.add_row(
                Text(name, style=style),
                Text(sparkline(thinned(incomes[seat], spark), i_low, i_high), style=style),
                Text(i_figs[seat], style="dim"),
                Text(sparkline(thinned(cash[seat], spark), c_low, c_high), style=style),
                Text(c_figs[seat], style="dim"),
            )
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.table(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Any:
        return self.table(options.max_width).__rich_measure__(console, options)


def history_chart(names: Sequence[str], history: Sequence[Sequence[tuple[int, int]]]) -> HistoryChart:
    return HistoryChart(names, history)
