"""The Steel Driver board: the map of the United States, drawn with the Line API.

The map file's grid is the picture. On top of it the board draws each route as
a line between the middles of two names, each location's mark, value and
colour, the track the companies have built, the goods cubes of the final
phase, the board cursor, and what the current step highlights.

Everything that carries meaning has a letter or a glyph as well as a colour,
so the board reads in 16 colours, with NO_COLOR, and for colour-blind players:

* ``⬡CHI50w``   a starting location (hexagon) worth $50, white; a location is
  marked by its three-letter code (Chicago), its full name is on the cursor line
* ``○PIT40r``   a regular location (circle) worth $40, red; the colour
  letters, small so that they never read as a company's, are w white,
  o orange, s silver, k black, r red
* ``····3····``    a route nobody has built yet, costing 3 investment cubes
* ``R═R═R``        track of the company lettered R (Red); B Blue, G Green,
  Y Yellow, K Black, P Purple
* reversed line   the route (or routes) the current step points at; the place
  it would reach shows ``+40``, the profit the link would add
* reversed mark   a location the current step lets you choose (name underlined)
* ``[k]``          in the final phase, the goods cube waiting at a location

Rendered rows are cached. A state change recomputes the cells of the board,
compares them with the cached rows and refreshes only the spans that changed;
a cursor move touches only the two labels involved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.geometry import Region
from textual.widgets import Static

from railgames.app.gameui import short_name
from railgames.app.palette import named, player_letters, player_style
from railgames.app.widgets.board_base import STYLE, BoardPanel, Cell
from railgames.app.widgets.graph_board import (
    GraphBoard,
    GraphLayout,
    LabelPlace,
    LinkPath,
    line_direction,
)
from railgames.app.widgets.quiet import QuietStatic
from railgames.games.steel_driver.board_map import SteelDriverMap
from railgames.games.steel_driver.rules import (
    TRANSCONTINENTAL_BUILDER,
    TRANSCONTINENTAL_OTHERS,
    TURNS,
    SteelDriverRules,
    set_value,
)
from railgames.games.steel_driver.state import SDState, Step

# Line glyphs by direction: horizontal, vertical, rising (/), falling (\).
TRACK_GLYPHS = ("═", "║", "╱", "╲")
ROUTE_GLYPH = "·"
STARTING_MARK = "⬡"
REGULAR_MARK = "○"
VALUE_CELLS = 3  # "40r": the value's two digits and the colour letter
ROUTE_TARGET = ">"  # in a highlighted route: "ROUTE>PLACE>GAIN"

# Location (goods) colours: a letter each, and a 16-colour style.
COLOUR_LETTERS: dict[str, str] = {
    "white": "w", "orange": "o", "silver": "s", "black": "k", "red": "r",
}
COLOUR_STYLES: dict[str, str] = {key: named(style) for key, style in {
    "white": "bold bright_white",
    "orange": "bold yellow",
    "silver": "bold white",
    "black": "bold bright_black",
    "red": "bold red",
}.items()}
# Companies: the style of their track and of their letter chips.
COMPANY_STYLES: dict[str, str] = {key: named(style) for key, style in {
    "red": "bold bright_red",
    "blue": "bold bright_blue",
    "green": "bold bright_green",
    "yellow": "bold bright_yellow",
    "black": "bold bright_black",
    "purple": "bold bright_magenta",
}.items()}
COMPANY_CHIPS: dict[str, str] = {key: named(style) for key, style in {
    "red": "bold bright_white on red",
    "blue": "bold bright_white on blue",
    "green": "bold black on bright_green",
    "yellow": "bold black on bright_yellow",
    "black": "bold bright_white on bright_black",
    "purple": "bold bright_white on magenta",
}.items()}


def colour_letter(colour: str) -> str:
    return COLOUR_LETTERS.get(colour, colour[:1].lower())


def colour_style(colour: str) -> str:
    return COLOUR_STYLES.get(colour, "bold")


def company_style(company: str) -> str:
    return COMPANY_STYLES.get(company, "bold")


def company_chip(company: str) -> str:
    return COMPANY_CHIPS.get(company, "bold reverse")


def route_mark(route: str, target: str | None = None, gain: int | None = None) -> str:
    """A highlighted route for ``set_highlight``'s path: the route, the place it would
    reach and the profit it would add (both optional)."""
    if target is None:
        return route
    return f"{route}{ROUTE_TARGET}{target}{ROUTE_TARGET}{gain if gain is not None else ''}"


def parse_route_mark(mark: str) -> tuple[str, str | None, int | None]:
    route, _, rest = mark.partition(ROUTE_TARGET)
    target, _, gain = rest.partition(ROUTE_TARGET)
    return route, target or None, int(gain) if gain else None


def goods_letters(goods: dict[str, int]) -> str:
    """``w2 o1 k1``: goods cubes by colour letter."""
    parts = [f"{colour_letter(c)}{k}" for c, k in goods.items() if k]
    return " ".join(parts)


# ------------------------------------------------------------------- geometry


@dataclass
class LocationPlace(LabelPlace):
    mark: Cell | None = None  # the hexagon or circle, left of the name
    value_cells: list[Cell] = field(default_factory=list)  # value and colour letter, after it


class SteelDriverLayout(GraphLayout):
    """Where everything goes on the text grid; computed once per map, no Textual."""

    map: SteelDriverMap

    def __init__(self, game_map: SteelDriverMap) -> None:
        super().__init__(game_map, right_margin=VALUE_CELLS)
        self.places: dict[str, LocationPlace] = {}
        reserved: set[Cell] = set(self.label_owner)
        for cid, (row, c0, c1) in game_map.label_spans.items():
            place = LocationPlace(row, c0, c1)
            if c0 > 0 and (c0 - 1, row) not in self.label_owner:
                place.mark = (c0 - 1, row)
            cells = [(c1 + i, row) for i in range(VALUE_CELLS)]
            if all(cell not in self.label_owner for cell in cells):
                place.value_cells = cells
            self.places[cid] = place
            if place.mark is not None:
                reserved.add(place.mark)
            reserved.update(place.value_cells)
        self.reserved = reserved

        # Cells that belong to a location, for clicks: its mark, name and value.
        self.city_at: dict[Cell, str] = dict(self.label_owner)
        for cid, place in self.places.items():
            for cell in [*([place.mark] if place.mark else []), *place.value_cells]:
                self.city_at.setdefault(cell, cid)

        # Routes keep one blank cell from each location's marks where they can, so
        # a company's letter never reads as part of a name or a value.
        spaced = set(reserved)
        for place in self.places.values():
            if place.mark is not None and place.mark[0] > 0:
                spaced.add((place.mark[0] - 1, place.row))
            after = place.value_cells[-1][0] + 1 if place.value_cells else place.col1
            spaced.add((after, place.row))
        self.links: dict[str, LinkPath] = {}
        for route in game_map.links:
            points = [self.anchors[route.a], *route.via, self.anchors[route.b]]
            path = self.trace(points, spaced)
            self.links[route.id] = path if path.cells else self.trace(points, reserved)
        # Two places side by side leave no blank cell on the straight line between
        # them; such a route goes round, over the nearest blank cells above or below.
        used = {cell for path in self.links.values() for cell in path.cells}
        for route in game_map.links:
            if not self.links[route.id].cells:
                # Best with a blank either side, so the cost reads apart from other routes.
                beside = {(c + dc, r) for c, r in used for dc in (-1, 1)}
                detour = (self._detour(route.a, route.b, reserved | used | beside)
                          or self._detour(route.a, route.b, reserved | used))
                if detour is not None:
                    self.links[route.id] = detour
                    used.update(detour.cells)
        self.place_marks(self.links, reserved)
        self.near_labels = self.beside(reserved)  # no company's letter here

    def _extent(self, loc: str) -> set[Cell]:
        """A location's cells: mark, name and value."""
        place = self.places[loc]
        cells = {(col, place.row) for col in range(place.col0, place.col1)}
        if place.mark is not None:
            cells.add(place.mark)
        cells.update(place.value_cells)
        return cells

    def _detour(self, a: str, b: str, avoid: set[Cell], longest: int = 8) -> LinkPath | None:
        """The shortest run of blank cells touching ``a`` at one end and ``b`` at the other."""

        def free(cell: Cell) -> bool:
            col, row = cell
            return (0 <= row < self.height and 0 <= col < self.width
                    and cell not in avoid and self.chars[row][col] == " ")

        def around(cells: set[Cell]) -> set[Cell]:
            return {(c + dc, r + dr) for c, r in cells for dc in (-1, 0, 1) for dr in (-1, 0, 1)}

        goal = around(self._extent(b))
        (ax, ay), (bx, by) = self.anchors[a], self.anchors[b]
        mid = ((ax + bx) / 2, (ay + by) / 2)
        starts = sorted((c for c in around(self._extent(a)) if free(c)),
                        key=lambda c: abs(c[0] - mid[0]) + 2 * abs(c[1] - mid[1]))
        previous: dict[Cell, Cell | None] = {c: None for c in starts}
        frontier = list(starts)
        for _ in range(longest):
            found = [c for c in frontier if c in goal]
            if found:
                cells = [found[0]]
                while (back := previous[cells[-1]]) is not None:
                    cells.append(back)
                cells.reverse()
                ends = [self.anchors[a], *cells, self.anchors[b]]
                directions = [line_direction(ends[i], ends[i + 2]) for i in range(len(cells))]
                return LinkPath(cells, directions)
            nxt: list[Cell] = []
            for col, row in frontier:
                for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)):
                    cell = (col + dc, row + dr)
                    if cell not in previous and free(cell):
                        previous[cell] = (col, row)
                        nxt.append(cell)
            frontier = nxt
        return None


# ------------------------------------------------------------------- styles

DIM = Style(dim=True)
PLAIN = Style()
BOLD = Style(bold=True)
COST = Style(bold=True)
CHOOSABLE_MARK = Style(bold=True, reverse=True)
HIGHLIGHTED = Style(bold=True, underline=True)
PATH = Style(bold=True, reverse=True)
GAIN = Style(bold=True, reverse=True)


# ------------------------------------------------------------------- widget


class SteelDriverBoard(GraphBoard):
    """The map of the United States, with a location cursor.

    ``set_highlight(cities, path)``: ``cities`` are the locations the current step
    lets the player choose; ``path`` holds routes (see ``route_mark``), each
    optionally with the location it would reach and the profit it would add.
    """

    DEFAULT_CSS = """
    SteelDriverBoard {
        scrollbar-size: 1 1;
    }
    """
    SCREEN_CSS = """
    /* its map is 60 by 31, seen whole from 120x40 with the company
       boxes in the side panel and the cursor lines under the map; on a narrow screen the
       company boxes and the cursor lines give way to the one-line order of play */
    GameScreen.game-steel-driver #side { width: 56; }
    GameScreen.game-steel-driver.wide #side { width: 64; }
    GameScreen.game-steel-driver.narrow #side { width: 100%; }
    GameScreen.game-steel-driver #sd-order { display: none; }
    GameScreen.game-steel-driver.narrow #sd-order { display: block; }
    GameScreen.game-steel-driver.narrow #sd-boxes { display: none; }
    GameScreen.game-steel-driver.narrow #sd-cursor { display: none; }
    GameScreen.game-steel-driver.narrow #sd-companies { border-top: none; padding: 0; }
    /* in the viewer too, the order of play stands in for the boxes on a narrow screen */
    ViewerScreen #sd-order { display: none; }
    ViewerScreen.narrow #sd-order { display: block; }
    ViewerScreen.narrow #sd-boxes { display: none; }
    ViewerScreen.narrow #sd-cursor { display: none; }
    ViewerScreen.narrow #sd-companies { border-top: none; padding: 0; }
    """

    layout_: SteelDriverLayout
    state: SDState | None
    ruleset: SteelDriverRules

    def __init__(self, ruleset: SteelDriverRules, *, id: str | None = None) -> None:
        layout = SteelDriverLayout(ruleset.map)
        super().__init__(ruleset, layout, dict(layout.places), id=id)

    def on_mount(self) -> None:
        # The cursor starts on the first starting location in the middle of the map.
        middle = self.layout_.width // 2
        starts = [loc.id for loc in self.ruleset.map.cities if loc.starting]
        if starts:
            home = min(starts, key=lambda c: abs(self.layout_.anchors[c][0] - middle))
            self.move_cursor_to(home, scroll=False)
        self.call_after_refresh(lambda: self._keep_in_view(self.cursor_city))

    def city_region(self, city: str) -> Region:
        """The cells of a location's mark, name and value, in board (virtual) coordinates."""
        place = self.layout_.places[city]
        x0 = place.mark[0] if place.mark else place.col0
        x1 = place.value_cells[-1][0] + 1 if place.value_cells else place.col1
        return Region(x0, place.row, x1 - x0, 1)

    def _city_at(self, cell: Cell) -> str | None:
        return self.layout_.city_at.get(cell)

    def route_text(self, route: str) -> str:
        """The drawn text of a route's cells, from end ``a`` to end ``b``."""
        return "".join(self._rows[row][col][0] for col, row in self.layout_.links[route].cells)

    def value_text(self, city: str) -> str:
        """What is drawn after a location's name: its value and colour, a profit or a cube."""
        place = self.layout_.places[city]
        return "".join(self._rows[row][col][0] for col, row in place.value_cells)

    def _build_scene(self) -> None:
        """Every cell of the board for the current state and highlights (cursor aside)."""
        lay = self.layout_
        chars = [list(row) for row in lay.chars]
        styles: list[list[Style]] = [
            [PLAIN if ch == " " else DIM for ch in row] for row in chars
        ]
        state = self.state
        track: dict[str, str] = state.track if state is not None else {}
        letters = {c.id: c.letter for c in lay.map.companies}

        for route in lay.map.links:
            path = lay.links[route.id]
            owner = track.get(route.id)
            if owner is None:
                for col, row in path.cells:
                    chars[row][col] = ROUTE_GLYPH
                    styles[row][col] = DIM
                if path.cells:
                    col, row = path.cells[path.middle]
                    chars[row][col] = str(route.cost)
                    styles[row][col] = COST
                continue
            line = STYLE(company_style(owner))
            chip = STYLE(company_chip(owner))
            for i, ((col, row), d) in enumerate(zip(path.cells, path.directions, strict=True)):
                if i % 2 == 0 and (col, row) not in lay.near_labels:
                    chars[row][col], styles[row][col] = letters[owner], chip
                else:
                    chars[row][col], styles[row][col] = TRACK_GLYPHS[d], line

        # Highlighted routes in reverse video; the places they reach, with the profit.
        gains: dict[str, int | None] = {}
        for mark in self.path:
            rid, target, gain = parse_route_mark(mark)
            if rid not in lay.links:
                continue
            for col, row in lay.links[rid].cells:
                styles[row][col] = styles[row][col] + PATH
            if target is not None:
                gains[target] = gain

        goods_on: dict[str, str] = state.goods_on if state is not None else {}
        final = state is not None and state.step in (Step.CLAIM, Step.OVER)
        # Locations last: nothing is ever drawn over them.
        for loc in lay.map.cities:
            place = lay.places[loc.id]
            row = place.row
            colour = STYLE(colour_style(loc.colour))
            name_style = colour
            if loc.id in self.highlighted or loc.id in gains:
                name_style = colour + HIGHLIGHTED
            for col in range(place.col0, place.col1):
                styles[row][col] = name_style
            if place.mark is not None:
                col, _ = place.mark
                chars[row][col] = STARTING_MARK if loc.starting else REGULAR_MARK
                styles[row][col] = colour + CHOOSABLE_MARK if loc.id in self.highlighted else colour
            if not place.value_cells:
                continue
            cells = place.value_cells
            if loc.id in gains:
                gain = gains[loc.id]
                text = f"+{gain}" if gain is not None else "+"
                text = text[:VALUE_CELLS].ljust(VALUE_CELLS)
                for (col, _), ch in zip(cells, text, strict=True):
                    chars[row][col], styles[row][col] = ch, GAIN
                continue
            if loc.id in goods_on:
                cube = colour_letter(goods_on[loc.id])
                for (col, _), ch in zip(cells, f"[{cube}]", strict=True):
                    chars[row][col] = ch
                    styles[row][col] = STYLE(colour_style(goods_on[loc.id]))
                continue
            value = f"{loc.value:>2}"[-2:]
            # The value in the location's colour: mark, name, value and letter are one
            # piece of one colour (white digits cost two colour changes a location).
            digits_style = DIM if final else colour
            for (col, _), ch in zip(cells[:2], value, strict=True):
                chars[row][col], styles[row][col] = ch, digits_style
            col, _ = cells[2]
            chars[row][col] = colour_letter(loc.colour)
            styles[row][col] = DIM if final else colour

        self._scene = [list(zip(cr, sr, strict=True)) for cr, sr in zip(chars, styles, strict=True)]


# ------------------------------------------------------------------- company boxes


def company_chip_text(rules: SteelDriverRules, company: str, pad: str = " ") -> Text:
    """The company's letter on its colour (as a span, so text appended after it is plain)."""
    letter = rules.map.company_by_id[company].letter
    return Text().append(f"{pad}{letter}{pad}", style=company_chip(company))


class SteelDriverCompanies(BoardPanel):
    """Under the board: a line about the location under the board cursor (with its
    routes), and on a narrow screen the one-line order of play.

    The company boxes are in the side panel (``SteelDriverBoxes``), so that the map
    above keeps its rows. Each part is its own widget, so a cursor move repaints
    the cursor lines only.
    """

    DEFAULT_CSS = """
    SteelDriverCompanies {
        height: auto;
        padding: 0 1;
        border-top: solid $panel;
    }
    SteelDriverCompanies #sd-order { height: 1; }
    SteelDriverCompanies #sd-cursor { height: 3; }
    """

    BOARD_CLASS = SteelDriverBoard

    ruleset: SteelDriverRules
    state: SDState | None

    def compose(self) -> Any:
        yield QuietStatic(id="sd-order")
        yield QuietStatic(id="sd-cursor")

    def update_state(self, state: SDState) -> None:
        self.state = state
        if not self.is_mounted:
            return
        self.query_one("#sd-order", Static).update(self.order_line(state))
        self._show_cursor()

    def _show_cursor(self) -> None:
        if self.state is not None and self.cursor is not None and self.is_mounted:
            line = self.query_one("#sd-cursor", Static)
            width = line.content_region.width or None
            line.update(self.location_line(self.state, self.cursor, width))

    def on_resize(self) -> None:
        self._show_cursor()

    # ------------------------------------------------------------ text
    def chip(self, company: str, pad: str = " ") -> Text:
        return company_chip_text(self.ruleset, company, pad)

    def order_line(self, state: SDState) -> Text:
        """``Order ▶R B G Y K P  Passed: G R``: this turn's order, the active company,
        and the Pass row (next turn's order)."""
        text = Text()
        text.append(f"Turn {min(state.turn, TURNS)}/{TURNS} ", style="bold")
        text.append("Order ", style="bold")
        acting = state.step in (Step.BUILD, Step.CLAIM)
        for i, cid in enumerate(state.order):
            active = acting and i == state.cursor and cid not in state.passed
            text.append("▶" if active else " ", style="bold")
            text.append_text(self.chip(cid))
        text.append("  Passed ", style="bold")
        if not state.passed:
            text.append("none", style="dim")
        for cid in state.passed:
            text.append_text(self.chip(cid))
            text.append(" ")
        return text

    def location_line(self, state: SDState, city: str, width: int | None = None) -> Text:
        """The location under the cursor: kind, value, colour, who reached it, and its
        routes with their costs and owners.

        With a ``width``, the text wraps between two of its parts, never inside one
        (``Memphis 3`` stays on one line); without, the routes start a second line."""
        rules = self.ruleset
        loc = rules.map.location_by_id[city]
        head = Text()
        head.append(STARTING_MARK if loc.starting else REGULAR_MARK, style=colour_style(loc.colour))
        head.append(f"{loc.name} ", style="bold")
        kind = " starting location" if loc.starting else ""
        head.append(f"${loc.value} {loc.colour}{kind}", style=colour_style(loc.colour))
        parts = [head]
        if city in state.goods_on:
            parts.append(Text(f"{state.goods_on[city]} cube waiting"))
        reached = [cid for cid in rules.companies if city in state.companies[cid].reached]
        if reached:
            part = Text("reached by ")
            for cid in reached:
                part.append_text(self.chip(cid, pad=""))
            parts.append(part)
        routes: list[Text] = []
        for route in rules.map.routes_at[city]:
            other = route.b if route.a == city else route.a
            item = Text(f"{rules.location_name(other)} {route.cost}")
            owner = state.track.get(route.id)
            if owner is not None:
                item.append(" ")
                item.append_text(self.chip(owner, pad=""))
            routes.append(item)
        for part in parts[:-1]:
            part.append(";")
        parts[-1].append(".")
        if routes:
            routes[0] = Text("Routes: ", style="bold").append_text(routes[0])
            for item in routes[:-1]:
                item.append(",")
        text = Text()
        line = 0  # cells on the current line
        for i, part in enumerate([*parts, *routes]):
            if i == len(parts) and width is None:
                text.append("\n")
                line = 0
            elif i and width is not None and line + 1 + part.cell_len > width:
                text.append("\n")
                line = 0
            elif i:
                text.append(" ")
                line += 1
            text.append_text(part)
            line += part.cell_len
        return text

    def describe(self, state: SDState) -> Text:
        """The order of play and the location line as one text (for tests)."""
        text = self.order_line(state)
        if self.cursor is not None:
            text.append("\n")
            text.append_text(self.location_line(state, self.cursor))
        return text


class SteelDriverBoxes(QuietStatic):
    """In the side panel: the company boxes in the order of play, the Pass row and
    the transcontinental link."""

    DEFAULT_CSS = """
    SteelDriverBoxes {
        height: auto;
        border: round $panel;
        padding: 0 1;
    }
    """

    def __init__(self, ruleset: SteelDriverRules, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ruleset = ruleset
        self.border_title = "Companies"

    def update_state(self, state: SDState) -> None:
        self.update(Group(self.boxes(state), self.notes(state)))

    def chip(self, company: str, pad: str = " ") -> Text:
        return company_chip_text(self.ruleset, company, pad)

    def boxes(self, state: SDState) -> Table:
        """One row per company, in the order of play: who runs it, its cubes, this turn's
        profit (the profit track), shares left and track; at the end its goods instead."""
        rules = self.ruleset
        names = [short_name(p.name) for p in state.players]
        letters = player_letters([p.name for p in state.players])
        final = state.step in (Step.CLAIM, Step.OVER)
        table = Table(box=None, expand=False, padding=(0, 1), show_edge=False,
                      pad_edge=False, collapse_padding=True)
        table.add_column("", no_wrap=True, min_width=2)
        table.add_column("Company", no_wrap=True, min_width=10)
        table.add_column("Run by", no_wrap=True, max_width=12)
        if final:
            table.add_column("Goods", no_wrap=True)
            table.add_column("Worth", justify="right", no_wrap=True)
        else:
            table.add_column("Cubes", justify="right", no_wrap=True)
            table.add_column("Profit", justify="right", no_wrap=True)
        table.add_column("Shares", justify="right", no_wrap=True)
        table.add_column("Track", no_wrap=True)
        acting = state.step in (Step.BUILD, Step.CLAIM)
        auction = state.auction.company if state.auction is not None else None
        for i, cid in enumerate(state.order):
            c = state.companies[cid]
            mark = Text(f" {i + 1}")
            if acting and i == state.cursor and cid not in state.passed:
                mark = Text(f"▶{i + 1}", style="bold")
            elif acting and cid in state.passed:
                mark = Text(f"✓{i + 1}", style="dim")
            elif cid == auction:
                mark = Text(f"?{i + 1}", style="bold")
            name = self.chip(cid)
            name.append(f" {rules.company_name(cid)}")
            if c.controller is not None:
                seat = c.controller
                control = Text().append(f" {letters[seat]} ", style="reverse " + player_style(seat))
                control.append(f" {names[seat]}", style=player_style(seat))
            elif cid == auction:
                control = Text("auction", style="bold")
            else:
                control = Text("-", style="dim")
            if final:
                worth = c.final_profit if c.final_profit is not None else set_value(c.goods)
                money = (goods_letters(c.goods) or "-", f"${worth}")
            else:
                money = (str(c.cubes), f"${c.profit}")
            track = f"{len(c.links)} {c.start}" if c.start is not None else "none"
            table.add_row(mark, name, control, *money, str(c.shares_left), track)
        return table

    def notes(self, state: SDState) -> Text:
        """Under the boxes: the Pass row (next turn's order) and the transcontinental link."""
        text = Text()
        text.append("Pass row ", style="bold")
        if not state.passed:
            text.append("empty", style="dim")
        for cid in state.passed:
            text.append_text(self.chip(cid))
            text.append(" ")
        text.append("  Transcontinental ", style="bold")
        made = state.transcontinental
        if made is None:
            text.append("not yet", style="dim")
            return text
        text.append(f"turn {made['turn']}: ")
        text.append_text(self.chip(made["builder"]))
        text.append(f" +${TRANSCONTINENTAL_BUILDER}")
        if made["others"]:
            text.append(", ")
            for cid in made["others"]:
                text.append_text(self.chip(cid))
            text.append(f" +${TRANSCONTINENTAL_OTHERS}")
        return text
