"""What the boards of graph maps share: lines between labels, a city cursor, cached rows.

A graph map's grid is the picture; a board draws each link as a line of cells
between the middles of two labels (through the link's ``via`` points, over
blank cells only), then what the game puts on top. ``GraphLayout`` holds the
geometry (no Textual), ``GraphBoard`` is the widget: a board (see
``board_base``: Line API, ``CityChosen`` and ``CursorMoved`` messages in the
``board`` namespace, cached rows) whose cursor jumps from label to label.

A game's board subclasses both: its layout decides where its own marks go,
and its widget's ``_build_scene`` fills in every cell for the current state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.style import Style
from textual.geometry import Region

from railgames.app.widgets.board_base import BoardBase, Cell
from railgames.core.maps import GraphMap

# ------------------------------------------------------------------- geometry


def bresenham(a: Cell, b: Cell) -> list[Cell]:
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    out = []
    while True:
        out.append((x0, y0))
        if (x0, y0) == (x1, y1):
            return out
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def line_direction(prev: Cell, nxt: Cell) -> int:
    """Index into a glyph tuple (horizontal, vertical, rising, falling) for a line's direction."""
    dx, dy = nxt[0] - prev[0], nxt[1] - prev[1]
    if dy == 0:
        return 0
    if dx == 0:
        return 1
    return 3 if (dx > 0) == (dy > 0) else 2


@dataclass
class LinkPath:
    """The drawable cells of one link, in order from end ``a`` to end ``b``."""

    cells: list[Cell]
    directions: list[int]
    mark: int | None = None  # where a number on the line goes (see GraphLayout.place_marks)

    @property
    def middle(self) -> int:
        """The index of the cell that carries the link's number or letter."""
        return self.mark if self.mark is not None else len(self.cells) // 2


@dataclass
class LabelPlace:
    """Where a city's label is: its row and columns (last column + 1)."""

    row: int
    col0: int
    col1: int


class GraphLayout:
    """The grid of a graph map as cells, with its labels, anchors and line tracing.

    ``right_margin`` widens the board so that marks written after a label touching
    the right edge still fit.
    """

    def __init__(self, game_map: GraphMap, right_margin: int = 0) -> None:
        self.map = game_map
        lines = game_map.grid_lines
        spans = game_map.label_spans
        base_width, self.height = game_map.grid_size
        self.width = max([base_width] + [c1 + right_margin for _, _, c1 in spans.values()])
        self.chars: list[list[str]] = [list(line.ljust(self.width)) for line in lines]
        self.label_owner: dict[Cell, str] = {}
        for cid, (row, c0, c1) in spans.items():
            for col in range(c0, c1):
                self.label_owner[(col, row)] = cid
        self.anchors = game_map.anchors

    def trace(self, points: list[Cell], avoid: set[Cell]) -> LinkPath:
        """The blank cells of the straight lines through ``points``, skipping ``avoid``."""
        raw: list[Cell] = []
        for p, q in zip(points, points[1:], strict=False):
            segment = bresenham(p, q)
            raw.extend(segment[1:] if raw else segment)
        cells: list[Cell] = []
        directions: list[int] = []
        seen: set[Cell] = set()
        for i, cell in enumerate(raw):
            col, row = cell
            if cell in seen or cell in avoid:
                continue
            if not (0 <= row < self.height and 0 <= col < self.width):
                continue
            if self.chars[row][col] != " ":
                continue
            seen.add(cell)
            cells.append(cell)
            directions.append(line_direction(raw[max(i - 1, 0)], raw[min(i + 1, len(raw) - 1)]))
        return LinkPath(cells, directions)

    @staticmethod
    def beside(cells: set[Cell]) -> set[Cell]:
        """The cells just left and right of ``cells``: a letter there would read as part of them."""
        return {(col + dc, row) for col, row in cells for dc in (-1, 1)} - cells

    def place_marks(self, links: dict[str, LinkPath], taken: set[Cell],
                    rather_not: set[Cell] = frozenset()) -> None:  # type: ignore[assignment]
        """Put each link's number on the cell nearest its middle with no label beside it,
        so that a digit never reads as part of a name (``2○Memphis``); cells beside
        ``rather_not`` only when there is no other."""
        for path in links.values():
            middle = len(path.cells) // 2
            clear = [i for i, (col, row) in enumerate(path.cells)
                     if (col - 1, row) not in taken and (col + 1, row) not in taken]
            best = [i for i in clear if (path.cells[i][0] - 1, path.cells[i][1]) not in rather_not
                    and (path.cells[i][0] + 1, path.cells[i][1]) not in rather_not] or clear
            path.mark = min(best, key=lambda i: (abs(i - middle), i)) if best else None

    def nearest(self, origin: str, direction: str) -> str | None:
        """The closest city from ``origin`` in a direction (up, down, left, right)."""
        ox, oy = self.anchors[origin]
        best: tuple[float, str] | None = None
        for cid, (x, y) in self.anchors.items():
            if cid == origin:
                continue
            # A row is about twice as tall as a column is wide.
            dx, dy = x - ox, (y - oy) * 2
            if direction == "right":
                along, across = dx, dy
            elif direction == "left":
                along, across = -dx, dy
            elif direction == "down":
                along, across = dy, dx
            else:
                along, across = -dy, dx
            if along <= 0:
                continue
            # Prefer cities inside the 45-degree cone, and straight lines to slanted ones.
            cost = along + 3 * abs(across)
            if abs(across) >= along:
                cost += 1000
            if best is None or cost < best[0]:
                best = (cost, cid)
        return best[1] if best else None


# ------------------------------------------------------------------- widget


class GraphBoard(BoardBase):
    """A graph map with a city cursor; subclasses draw the cells in ``_build_scene``."""

    layout_: GraphLayout

    def __init__(self, ruleset: Any, layout: GraphLayout, places: dict[str, LabelPlace],
                 *, id: str | None = None) -> None:
        self.places = places  # where the cursor sits for each city
        super().__init__(ruleset, layout, next(iter(places)), id=id)

    def move_cursor_to(self, city: str, *, scroll: bool = True) -> None:
        """Put the cursor on ``city`` (posts CursorMoved when it moves)."""
        if city not in self.places:
            raise KeyError(f"no city '{city}' on this board")
        super().move_cursor_to(city, scroll=scroll)

    def city_region(self, city: str) -> Region:
        """The cells of a city's label and its marks, in board (virtual) coordinates."""
        place = self.places[city]
        return Region(place.col0, place.row, place.col1 - place.col0, 1)

    def label_regions(self) -> dict[str, Region]:
        """Each city's label with its marks, and whatever else the board writes to name
        or describe a place, in board (virtual) coordinates; no two may touch."""
        return {city: self.city_region(city) for city in self.places}

    # ------------------------------------------------------------ input
    def action_move_cursor(self, direction: str) -> None:
        target = self.layout_.nearest(self._cursor, direction)
        if target is not None:
            self.move_cursor_to(target)

    def _city_at(self, cell: Cell) -> str | None:
        return self.layout_.label_owner.get(cell)

    # ------------------------------------------------------------ drawing
    def _cursor_rows(self, city: str) -> Iterable[int]:
        return (self.places[city].row,)

    def _cursor_columns(self, row: int) -> Sequence[int]:
        place = self.places[self._cursor]
        return range(place.col0, place.col1) if place.row == row else ()

    def _build_scene(self) -> None:
        """Every cell of the board for the current state and highlights (cursor aside)."""
        self._scene = [[(ch, Style()) for ch in row] for row in self.layout_.chars]
