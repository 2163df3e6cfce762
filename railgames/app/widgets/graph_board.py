"""What the boards of graph maps share: lines between labels, a city cursor, cached rows.

A graph map's grid is the picture; a board draws each link as a line of cells
between the middles of two labels (through the link's ``via`` points, over
blank cells only), then what the game puts on top. ``GraphLayout`` holds the
geometry (no Textual), ``GraphBoard`` is the widget: a ScrollView drawn with
the Line API, with a cursor that jumps from city to city, ``CityChosen`` and
``CursorMoved`` messages in the ``board`` namespace, and a cache of rendered
rows so that a change repaints only the spans that differ.

A game's board subclasses both: its layout decides where its own marks go,
and its widget's ``_build_scene`` fills in every cell for the current state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from railgames.core.maps import GraphMap

Cell = tuple[int, int]  # (column, row)
Row = list[tuple[str, Style]]


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

    @property
    def middle(self) -> int:
        return len(self.cells) // 2


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


# ------------------------------------------------------------------- styles

CURSOR = Style(reverse=True)


class StyleCache:
    """Rich styles parsed once per style string."""

    def __init__(self) -> None:
        self._parsed: dict[str, Style] = {}

    def __call__(self, text: str) -> Style:
        style = self._parsed.get(text)
        if style is None:
            style = self._parsed[text] = Style.parse(text)
        return style


STYLE = StyleCache()


def blank_safe(style: Style) -> bool:
    """Whether a blank cell drawn in ``style`` looks like a plain blank."""
    return not (style.bgcolor or style.reverse or style.underline or style.strike
                or style.overline or style.underline2)


def make_strip(cells: Row, base: Style) -> Strip:
    """One row of cells as a Strip, with as few style changes as looks the same."""
    segments: list[Segment] = []
    run: list[str] = []
    run_style: Style | None = None
    pending_spaces = 0  # leading blanks, waiting to join the first styled run
    for ch, style in cells:
        if ch == " " and blank_safe(style) and (run_style is None or blank_safe(run_style)):
            # A blank looks the same in any style without background or lines, so it
            # joins the run in progress: fewer style changes, fewer bytes on the wire.
            if run_style is None:
                pending_spaces += 1
            else:
                run.append(ch)
            continue
        if style is not run_style and style != run_style:
            if run:
                segments.append(Segment("".join(run), base + run_style))
            run, run_style = [], style
            if pending_spaces and blank_safe(style):
                run.append(" " * pending_spaces)
                pending_spaces = 0
            elif pending_spaces:
                segments.append(Segment(" " * pending_spaces, base))
                pending_spaces = 0
        run.append(ch)
    if pending_spaces:
        segments.append(Segment(" " * pending_spaces, base))
    if run:
        segments.append(Segment("".join(run), base + run_style))
    return Strip(segments, len(cells))


# ------------------------------------------------------------------- widget


class GraphBoard(ScrollView, can_focus=True):
    """A graph map with a city cursor; subclasses draw the cells in ``_build_scene``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor('up')", "Cursor up", show=False),
        Binding("down,j", "move_cursor('down')", "Cursor down", show=False),
        Binding("left,h", "move_cursor('left')", "Cursor left", show=False),
        Binding("right,l", "move_cursor('right')", "Cursor right", show=False),
        Binding("enter", "choose", "Choose city"),
    ]

    class CityChosen(Message, namespace="board"):
        """The player chose the city under the cursor (Enter or a click)."""

        def __init__(self, board: GraphBoard, city: str) -> None:
            super().__init__()
            self.board = board
            self.city = city

        @property
        def control(self) -> GraphBoard:
            return self.board

    class CursorMoved(Message, namespace="board"):
        """The board cursor moved to another city."""

        def __init__(self, board: GraphBoard, city: str) -> None:
            super().__init__()
            self.board = board
            self.city = city

        @property
        def control(self) -> GraphBoard:
            return self.board

    def __init__(self, ruleset: Any, layout: GraphLayout, places: dict[str, LabelPlace],
                 *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ruleset = ruleset
        self.layout_ = layout
        self.places = places  # where the cursor sits for each city
        self.state: Any = None
        self.highlighted: frozenset[str] = frozenset()
        self.path: tuple[str, ...] = ()
        self._cursor = next(iter(places))
        self._scene: list[Row] = []  # cells without the cursor
        self._rows: list[Row] = []  # cells as drawn
        self._strips: dict[int, Strip] = {}
        self._strip_base: Style | None = None
        self._build_scene()
        self._rows = [self._with_cursor(r) for r in range(self.layout_.height)]
        self.virtual_size = Size(self.layout_.width, self.layout_.height)

    # ------------------------------------------------------------ public API
    @property
    def cursor_city(self) -> str:
        return self._cursor

    @cursor_city.setter
    def cursor_city(self, city: str) -> None:
        self.move_cursor_to(city)

    def move_cursor_to(self, city: str, *, scroll: bool = True) -> None:
        """Put the cursor on ``city`` (posts CursorMoved when it moves)."""
        if city not in self.places:
            raise KeyError(f"no city '{city}' on this board")
        if city == self._cursor:
            return
        old, self._cursor = self._cursor, city
        self._redraw_rows({self.places[old].row, self.places[city].row})
        if scroll and self.is_mounted:
            self._keep_in_view(city)
        self.post_message(self.CursorMoved(self, city))

    def _keep_in_view(self, city: str) -> None:
        # Scrolling repaints the whole board, so when the cursor leaves the view the
        # view jumps to centre it, and the next few moves need no scrolling.
        region = self.city_region(city)
        view = Region(*self.scroll_offset, *self.scrollable_content_region.size)
        if not view.contains_region(region):
            self.scroll_to_region(region, animate=False, center=True, immediate=True)

    def update_state(self, state: Any) -> None:
        """Show ``state``; only the rows whose content changed are repainted."""
        self.state = state
        self._build_scene()
        self._redraw_rows(range(self.layout_.height))

    def set_highlight(self, cities: Iterable[str] = (), path: Sequence[str] = ()) -> None:
        """Mark the cities the current step lets the player choose, and a path to draw."""
        cities, path = frozenset(cities), tuple(path)
        if cities == self.highlighted and path == self.path:
            return
        self.highlighted, self.path = cities, path
        self._build_scene()
        self._redraw_rows(range(self.layout_.height))

    def city_region(self, city: str) -> Region:
        """The cells of a city's label and its marks, in board (virtual) coordinates."""
        place = self.places[city]
        return Region(place.col0, place.row, place.col1 - place.col0, 1)

    def row_text(self, row: int) -> str:
        """The plain text of a board row (as drawn, ignoring scrolling)."""
        return "".join(ch for ch, _ in self._rows[row])

    def board_text(self) -> str:
        return "\n".join(self.row_text(r) for r in range(self.layout_.height))

    # ------------------------------------------------------------ input
    def action_move_cursor(self, direction: str) -> None:
        target = self.layout_.nearest(self._cursor, direction)
        if target is not None:
            self.move_cursor_to(target)

    def action_choose(self) -> None:
        self.post_message(self.CityChosen(self, self._cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = (offset.x + self.scroll_offset.x, offset.y + self.scroll_offset.y)
        city = self._city_at(cell)
        if city is None:
            return
        event.stop()
        self.move_cursor_to(city, scroll=False)
        self.post_message(self.CityChosen(self, city))

    def _city_at(self, cell: Cell) -> str | None:
        return self.layout_.label_owner.get(cell)

    # ------------------------------------------------------------ drawing
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if base != self._strip_base:
            self._strips.clear()
            self._strip_base = base
        if not 0 <= row < len(self._rows):
            return Strip.blank(width, base)
        strip = self._strips.get(row)
        if strip is None:
            strip = self._strips[row] = make_strip(self._rows[row], base)
        return strip.crop_extend(scroll_x, scroll_x + width, base).apply_offsets(scroll_x, row)

    def _redraw_rows(self, rows: Iterable[int]) -> None:
        """Recompute ``rows`` (scene + cursor) and refresh the spans that changed."""
        scroll_x, scroll_y = self.scroll_offset
        for row in rows:
            new = self._with_cursor(row)
            old = self._rows[row]
            if new == old:
                continue
            first = next(i for i in range(len(new)) if new[i] != old[i])
            last = next(i for i in range(len(new) - 1, -1, -1) if new[i] != old[i])
            self._rows[row] = new
            self._strips.pop(row, None)
            self.refresh(Region(first - scroll_x, row - scroll_y, last - first + 1, 1))

    def _with_cursor(self, row: int) -> Row:
        cells = self._scene[row]
        place = self.places[self._cursor]
        if place.row != row:
            return cells
        cells = list(cells)
        for col in range(place.col0, place.col1):
            ch, style = cells[col]
            cells[col] = (ch, style + CURSOR)
        return cells

    def _build_scene(self) -> None:
        """Every cell of the board for the current state and highlights (cursor aside)."""
        self._scene = [[(ch, Style()) for ch in row] for row in self.layout_.chars]
