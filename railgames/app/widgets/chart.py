"""A small text chart: one sparkline per player and measure, on a shared scale."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from railgames.app.palette import player_style

BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[int], low: int, high: int) -> str:
    if not values:
        return ""
    span = max(high - low, 1)
    return "".join(BARS[min(len(BARS) - 1, (v - low) * (len(BARS) - 1) // span)] for v in values)


def history_chart(names: Sequence[str], history: Sequence[Sequence[tuple[int, int]]]) -> Table:
    """``history[turn][seat] = (income, cash)`` -> a table of sparklines, one row per player."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("Income", no_wrap=True)
    table.add_column("Cash", no_wrap=True)
    if not history:
        return table
    incomes = [[turn[s][0] for turn in history] for s in range(len(names))]
    cash = [[turn[s][1] for turn in history] for s in range(len(names))]
    i_low, i_high = min(map(min, incomes)), max(map(max, incomes))
    c_low, c_high = min(map(min, cash)), max(map(max, cash))
    for seat, name in enumerate(names):
        style = player_style(seat)
        inc = Text(sparkline(incomes[seat], i_low, i_high), style=style)
        inc.append(f" {incomes[seat][0]}→{incomes[seat][-1]}", style="dim")
        money = Text(sparkline(cash[seat], c_low, c_high), style=style)
        money.append(f" ${cash[seat][0]}→${cash[seat][-1]}", style="dim")
        table.add_row(Text(name, style=style), inc, money)
    return table
