"""The Paris Connection board: the hex map of France drawn as text with the Line API.

Each row of hexes is one line of text, each hex three cells of it with a wall
between two hexes, odd rows shifted half a hex to the right (pointy tops), so
that the whole of France fits beside the game's panels at 120x40. After the
rows the map file lists in ``spaced_rows`` a line is left free, where cities
are named and checkered sides between two rows are marked (see
``CompactHexLayout`` and, for the names, ``PCLayout``)::

     LIL↓     REI↓
     (2)│ · │(R)│Y G│ ·  BRE (2)│ ·
       · │ · # · │ ·

Everything that carries meaning has a glyph or a letter as well as a colour, so
the board reads in 16 colours, with NO_COLOR, and for colour-blind players:

* ``(2)``  a city (brackets) worth 2; the digit is the city's class: 1 beige,
  2 purple, 3 red, 4 Marseille (blue). ``(R)``: with a red locomotive
* ``LIL↓``  a city's name (its id) on the line above it, the arrow over its middle
  (``↑LIL`` under it), or ``LIL`` beside it on its own row, in its class colour;
  the full name is on the cursor line under the board
* ``·``    an empty rural (or Paris) hex
* ``Y G``  a rural (or Paris) hex with a yellow and a green locomotive
* ``R Y B G K W``  the six companies' locomotives, each its colour and letter
* ``▲``    the Eiffel Tower, which never holds a locomotive
* ``#``    a checkered hex side: the two hexes are not neighbours
* ``+``    where a locomotive of the company being built may go now
* reverse video: the board cursor

Hexes are known to the program by ``"column,row"``, as actions give them; that
string is the ``city`` the board's ``CityChosen`` and ``CursorMoved`` messages
carry. Players never see it: the cursor line names a hex as ``places`` does.

Rendered rows are cached. A state change recomputes the cells of the board,
compares them with the cached rows and refreshes only the spans that changed;
a cursor move touches only the lines of the two hexes involved.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from railgames.app.palette import named
from railgames.app.widgets.board_base import (
    CURSOR,
    STYLE,
    BoardBase,
    BoardPanel,
    Cell,
    Row,
    blank_safe,
)
from railgames.app.widgets.quiet import QuietStatic
from railgames.core.hexgrid import Hex
from railgames.games.paris_connection.board_layout import PCLayout
from railgames.games.paris_connection.rules import ParisConnectionRules
from railgames.games.paris_connection.state import PCState

CHECKERED_GLYPH = "#"
TOWER_GLYPH = "▲"
LEGAL_MARK = "+"
EMPTY_HEX = "·"
WALL_GLYPH = "│"

# Company colour -> style of its locomotive chip (16 ANSI colours only, see ``named``).
COMPANY_STYLES: dict[str, str] = {company: named(style) for company, style in {
    "red": "bold bright_white on red",
    "yellow": "bold black on bright_yellow",
    "blue": "bold bright_white on blue",
    "green": "bold black on bright_green",
    "black": "bold bright_white on black",
    "white": "bold black on bright_white",
}.items()}
# City class colour -> style of its brackets and value digit.
CITY_STYLES: dict[str, str] = {colour: named(style) for colour, style in {
    "beige": "yellow",
    "purple": "bold magenta",
    "red": "bold bright_red",
    "blue": "bold bright_blue",
}.items()}


def company_style(company: str) -> str:
    return COMPANY_STYLES.get(company, "bold reverse")


def city_style(colour: str) -> str:
    return CITY_STYLES.get(colour, "bold")


# ------------------------------------------------------------------- styles

DIM = Style(dim=True)
PLAIN = Style()
BOLD = Style(bold=True)
LEGAL = Style(bold=True)
CHECKERED = Style.parse(named("bold bright_red on bright_white"))


def _under_cursor(style: Style) -> Style:
    """A cell's style under the cursor: reverse video; a locomotive also underlined.

    A locomotive chip has both colours set, which the terminal's reverse would only
    swap back into another chip, so its colours are swapped here and it is underlined.
    """
    if style.bgcolor is not None and style.color is not None:
        return style + Style(color=style.bgcolor, bgcolor=style.color, underline=True)
    return style + CURSOR


def make_strip(cells: Row, base: Style) -> Strip:
    """One row of cells as a strip, with runs of the same style joined."""
    segments: list[Segment] = []
    run: list[str] = []
    run_style: Style | None = None
    for ch, style in cells:
        if ch == " " and run_style is not None and blank_safe(style) and blank_safe(run_style):
            run.append(ch)
            continue
        if style is not run_style and style != run_style:
            if run:
                segments.append(Segment("".join(run), base + run_style if run_style else base))
            run, run_style = [], style
        run.append(ch)
    if run:
        segments.append(Segment("".join(run), base + run_style if run_style else base))
    return Strip(segments, len(cells))


# ------------------------------------------------------------------- widget


class ParisConnectionBoard(BoardBase):
    """The map of France, with a hex cursor.

    Its cities are hexes, by id ("column,row"); ``set_highlight`` marks the hexes
    where a locomotive may go now.
    """

    DEFAULT_CSS = """
    ParisConnectionBoard {
        scrollbar-size: 1 1;
    }
    """
    SCREEN_CSS = """
    /* its hex map is 77 columns wide, so the side panel
       gives it room; on a narrow screen the score track keeps to its first lines */
    GameScreen.game-paris-connection #side { width: 40; }
    GameScreen.game-paris-connection.wide #board-box { width: 81; }
    GameScreen.game-paris-connection.wide #side { width: 1fr; }
    GameScreen.game-paris-connection.narrow #side { width: 100%; }
    GameScreen.game-paris-connection.narrow #pc-track { border-top: none; padding: 0; }
    GameScreen.game-paris-connection.narrow #pc-supply { display: none; }
    GameScreen.game-paris-connection.narrow #pc-cursor { display: none; }
    /* the viewer (demo, history) gives the whole map its width too, the narration
       taking what is left */
    ViewerScreen.game-paris-connection #board-box { width: 81; }
    ViewerScreen.game-paris-connection #v-side { width: 1fr; }
    ViewerScreen.game-paris-connection.narrow #board-box { width: 100%; }
    ViewerScreen.game-paris-connection.narrow #v-side { width: 100%; }
    /* in the viewer too, on a narrow screen the same panels give way */
    ViewerScreen.narrow #pc-supply { display: none; }
    ViewerScreen.narrow #pc-cursor { display: none; }
    ViewerScreen.narrow #pc-track { border-top: none; padding: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Choose hex"),
    ]

    layout_: PCLayout
    state: PCState | None
    ruleset: ParisConnectionRules

    def __init__(self, ruleset: ParisConnectionRules, *, id: str | None = None) -> None:
        layout = board_layout(ruleset)
        super().__init__(ruleset, layout, layout.id_of[ruleset.map.tower], id=id)
        self._home_x = self.layout_.centre[self.cursor_hex][0]

    # ------------------------------------------------------------ public API
    @property
    def cursor_hex(self) -> Hex:
        return self.layout_.hex_of[self._cursor]

    def move_cursor_to(self, city: str, *, scroll: bool = True, home: bool = True) -> None:
        """Put the cursor on the hex ``city`` ("column,row"); posts CursorMoved when it moves."""
        h = self.layout_.hex_of.get(city)
        if h is None:
            raise KeyError(f"no hex '{city}' on this board")
        if home:
            self._home_x = self.layout_.centre[h][0]
        super().move_cursor_to(city, scroll=scroll)

    def city_region(self, city: str) -> Region:
        """The hex's three cells and, for a city, its name, in board (virtual) coordinates."""
        h = self.layout_.hex_of[city]
        region = self.layout_.region(h)
        name = self.layout_.label_region(h)
        return region if name is None else region.union(name)

    def label_regions(self) -> dict[str, Region]:
        """Each city's marks: its brackets (with its worth or locomotive between) and its
        name, in board (virtual) coordinates; no two may touch."""
        lay = self.layout_
        regions: dict[str, Region] = {}
        for h in lay.map.city_at:
            regions[lay.id_of[h]] = lay.region(h)
            name = lay.label_region(h)
            if name is not None:
                regions[f"{lay.id_of[h]} name"] = name
        return regions

    def hex_text(self, city: str) -> str:
        """The three cells of a hex, as drawn."""
        x, y = self.layout_.centre[self.layout_.hex_of[city]]
        return "".join(ch for ch, _ in self._rows[y][x - 1:x + 2])

    def name_text(self, city: str) -> str:
        """The name drawn for a city hex (empty for other hexes)."""
        spot = self.layout_.label_at.get(self.layout_.hex_of[city])
        if spot is None:
            return ""
        x0, y, text = spot
        return "".join(ch for ch, _ in self._rows[y][x0:x0 + len(text)])

    # ------------------------------------------------------------ input
    def action_move_cursor(self, direction: str) -> None:
        target = self.layout_.step(self.cursor_hex, direction, self._home_x)
        if target is not None:
            self.move_cursor_to(self.layout_.id_of[target],
                                home=direction in ("left", "right"))

    def _city_at(self, cell: Cell) -> str | None:
        h = self.layout_.hex_at(cell)
        return None if h is None else self.layout_.id_of[h]

    # ------------------------------------------------------------ drawing
    def _make_strip(self, cells: Row, base: Style) -> Strip:
        return make_strip(cells, base)

    def _cursor_rows(self, city: str) -> Iterable[int]:
        return self.layout_.rows_of(self.layout_.hex_of[city])

    def _cursor_columns(self, row: int) -> Sequence[int]:
        x, y = self.layout_.centre[self.cursor_hex]
        return (x - 1, x, x + 1) if row == y else ()

    def _cursor_style(self, style: Style) -> Style:
        return _under_cursor(style)

    def _build_scene(self) -> None:
        """Every cell of the board for the current state and highlights (cursor aside)."""
        lay = self.layout_
        m = lay.map
        chars = [[" "] * lay.width for _ in range(lay.height)]
        styles = [[PLAIN] * lay.width for _ in range(lay.height)]
        for x, y in lay.walls:
            chars[y][x], styles[y][x] = WALL_GLYPH, DIM
        for x, y in lay.marked_cells:
            chars[y][x], styles[y][x] = CHECKERED_GLYPH, CHECKERED
        board = self.state.board if self.state is not None else {
            m.hex_of(*c.start): [c.id] for c in m.companies}
        letters = {c.id: c.letter for c in m.companies}
        highlighted = {lay.hex_of[i] for i in self.highlighted if i in lay.hex_of}
        city_at, tower = m.city_at, m.tower
        for h, (x, y) in lay.centre.items():
            here = board.get(h, ())
            legal = h in highlighted
            middle = chars[y]
            paint = styles[y]
            city = city_at.get(h)
            if h == tower:
                middle[x], paint[x] = TOWER_GLYPH, BOLD
                continue
            if city is not None:
                cstyle = STYLE(city_style(city.colour))
                middle[x - 1], middle[x + 1] = "(", ")"
                paint[x - 1] = paint[x + 1] = cstyle
                if here:
                    middle[x], paint[x] = letters.get(here[0], "?"), STYLE(company_style(here[0]))
                elif legal:
                    middle[x], paint[x] = LEGAL_MARK, LEGAL
                else:
                    middle[x], paint[x] = str(m.city_values[city.colour]), cstyle
                x0, ly, text = lay.label_at[h]
                for i, ch in enumerate(text):
                    chars[ly][x0 + i], styles[ly][x0 + i] = ch, cstyle
                continue
            slots: list[tuple[str, Style]] = [
                (letters.get(c, "?"), STYLE(company_style(c))) for c in here[:2]]
            if legal:
                slots.append((LEGAL_MARK, LEGAL))
            if not slots:
                middle[x], paint[x] = EMPTY_HEX, DIM
            elif len(slots) == 1:
                middle[x], paint[x] = slots[0]
            else:
                (middle[x - 1], paint[x - 1]), (middle[x + 1], paint[x + 1]) = slots[:2]
        self._scene = [list(zip(cr, sr, strict=True)) for cr, sr in zip(chars, styles, strict=True)]


def board_layout(ruleset: ParisConnectionRules) -> PCLayout:
    """The board's layout, worked out once per map (the names' places take a search)."""
    m = ruleset.map
    layout = _LAYOUTS.get(m.id)
    if layout is None or layout.map is not m:
        names = {m.hex_of(c.col, c.row): c.id for c in m.cities}
        layout = _LAYOUTS[m.id] = PCLayout(m, m.checkered, m.spaced_rows, names)
    return layout


_LAYOUTS: dict[str, PCLayout] = {}


# ------------------------------------------------------------------- the score track


class ParisConnectionTrack(BoardPanel):
    """The score track: each company's value and supply; and what is under the board cursor.

    Three lines, each its own widget, so a cursor move repaints one line only and a
    narrow screen can keep just the values.
    """

    DEFAULT_CSS = """
    ParisConnectionTrack {
        height: auto;
        padding: 0 1;
        border-top: solid $panel;
    }
    ParisConnectionTrack Static { height: 1; }
    """

    BOARD_CLASS = ParisConnectionBoard

    ruleset: ParisConnectionRules
    state: PCState | None

    def compose(self) -> Any:
        yield QuietStatic(id="pc-values")
        yield QuietStatic(id="pc-supply")
        yield QuietStatic(id="pc-cursor")

    def update_state(self, state: PCState) -> None:
        self.state = state
        if not self.is_mounted:
            return
        self.query_one("#pc-values", Static).update(self.values_line(state))
        self.query_one("#pc-supply", Static).update(self.supply_line(state))
        self._show_cursor()

    def _show_cursor(self) -> None:
        if self.state is not None and self.cursor is not None and self.is_mounted:
            self.query_one("#pc-cursor", Static).update(self.hex_line(self.state, self.cursor))

    def values_line(self, state: PCState) -> Text:
        text = Text()
        text.append("Value  ", style="bold")
        for i, company in enumerate(self.ruleset.map.companies):
            if i:
                text.append(" ")
            text.append(f" {company.letter} ", style=company_style(company.id))
            text.append(f"{state.value[company.id]:>3}", style="bold")
        return text

    def supply_line(self, state: PCState) -> Text:
        text = Text()
        text.append("Supply ", style="bold")
        for i, company in enumerate(self.ruleset.map.companies):
            if i:
                text.append(" ")
            text.append(f" {company.letter} ", style=company_style(company.id))
            left = state.supply[company.id]
            text.append(f"{left:>3}", style="" if left else "dim")
        return text

    def describe(self, state: PCState) -> Text:
        """The three lines as one text."""
        text = Text("\n").join([self.values_line(state), self.supply_line(state)])
        if self.cursor is not None:
            text.append("\n")
            text.append_text(self.hex_line(state, self.cursor))
        return text

    def hex_line(self, state: PCState, city: str) -> Text:
        """One line about the hex under the cursor: its name, worth and locomotives."""
        rules = self.ruleset
        m = rules.map
        col, row = (int(p) for p in city.split(","))
        h = rules.hex_at(col, row)
        text = Text("Cursor ", style="bold")
        if h is None:
            return text
        place = m.city_at.get(h)
        if h == m.tower:
            text.append("the Eiffel Tower: never holds a locomotive")
            return text
        if place is not None:
            text.append(place.name, style="bold")
            text.append(f" ({place.id})")  # as the board labels it
            value = m.city_values[place.colour]
            text.append(f"  {place.colour} city, +{value}", style=city_style(place.colour))
        elif h in m.paris:
            text.append(rules.hex_name(h), style="bold")
        else:
            text.append(rules.hex_name(h))
        here = state.board.get(h, [])
        if here:
            text.append("  ")
            for c in here:
                text.append(f" {m.company_by_id[c].letter} ", style=company_style(c))
        return text
