"""A plain text board, used for a game whose own board widget is not available.

It shows the map's text grid with the cities marked and offers the same small
interface as a game's board (cursor, highlight, CityChosen), so the game
screen works the same with either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.message import Message
from textual.widgets import Static


class TextBoard(ScrollableContainer, can_focus=True):
    BINDINGS = [
        Binding("left,h", "move(-1,0)", "Cursor", show=False),
        Binding("right,l", "move(1,0)", "Cursor", show=False),
        Binding("up,k", "move(0,-1)", "Cursor", show=False),
        Binding("down,j", "move(0,1)", "Cursor", show=False),
        Binding("enter", "choose", "Choose city", show=False),
    ]

    class CityChosen(Message, namespace="board"):
        def __init__(self, city: str) -> None:
            super().__init__()
            self.city = city

    class CursorMoved(Message, namespace="board"):
        def __init__(self, city: str) -> None:
            super().__init__()
            self.city = city

    def __init__(self, ruleset: Any, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ruleset = ruleset
        self.map = ruleset.map
        self.spans: dict[str, tuple[int, int, int]] = dict(getattr(self.map, "label_spans", {}))
        self.cursor_city: str = next(iter(self.spans), "")
        self._highlight: set[str] = set()
        self._path: list[str] = []
        self._state: Any = None

    def compose(self) -> Any:
        yield Static(self._render_grid(), id="text-board-grid")

    def update_state(self, state: Any) -> None:
        self._state = state
        self._redraw()

    def set_highlight(self, cities: Iterable[str] = (), path: Sequence[str] = ()) -> None:
        self._highlight = set(cities)
        self._path = list(path)
        self._redraw()

    def _redraw(self) -> None:
        if self.is_mounted:
            self.query_one("#text-board-grid", Static).update(self._render_grid())

    def _render_grid(self) -> Text:
        lines = list(self.map.grid_lines)
        text = Text()
        by_row: dict[int, list[tuple[int, int, str]]] = {}
        for cid, (row, c0, c1) in self.spans.items():
            by_row.setdefault(row, []).append((c0, c1, cid))
        cubes = getattr(self._state, "cubes", {}) if self._state is not None else {}
        for r, line in enumerate(lines):
            pos = 0
            for c0, c1, cid in sorted(by_row.get(r, [])):
                text.append(line[pos:c0], style="dim")
                style = "bold"
                if cid in self._highlight or cid in self._path:
                    style = "bold reverse"
                if cid == self.cursor_city:
                    style += " underline"
                text.append(line[c0:c1], style=style)
                here = cubes.get(cid, {})
                pos = c1
                if here:
                    tag = "".join(c[:1].upper() * n for c, n in sorted(here.items()))
                    text.append(f"[{tag}]", style="yellow")
                    pos = min(len(line), c1 + len(tag) + 2)
            text.append(line[pos:] + "\n", style="dim")
        text.rstrip()
        return text

    def action_move(self, dx: int, dy: int) -> None:
        if self.cursor_city not in self.spans:
            return
        row, c0, c1 = self.spans[self.cursor_city]
        x0, y0 = (c0 + c1) / 2, row * 2.5
        best, best_d = None, float("inf")
        for cid, (r, a, b) in self.spans.items():
            if cid == self.cursor_city:
                continue
            x, y = (a + b) / 2 - x0, r * 2.5 - y0
            along = x * dx + y * dy
            if along <= 0:
                continue
            d = along + 2 * abs(x * dy + y * dx)
            if d < best_d:
                best, best_d = cid, d
        if best is not None:
            self.cursor_city = best
            self._redraw()
            self.post_message(self.CursorMoved(best))

    def action_choose(self) -> None:
        if self.cursor_city:
            self.post_message(self.CityChosen(self.cursor_city))
