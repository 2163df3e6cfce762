"""The American Rails board: the hex map of the eastern United States drawn as text.

Two drawings of the same map; the board takes the roomier one its width allows.

*Compact* (62 by 36, what 120x40 shows whole): each hex two cells wide and two
rows tall, three columns apart, odd rows shifted one column to the right; a city
also takes the blank cell either side of it, for its code over its values::

     ♣ PIT ▲  ♣
       53AN
    AN    L

*Roomy* (83 by 36, from about 140 columns): each hex three cells wide, four
columns apart, odd rows shifted two columns, with the values apart::

     ♣  NYC     ▲
    A N 8■5AN   L

Every mark has a glyph, a letter or a text style as well as a colour, so the
board reads in 16 colours, with NO_COLOR and for colour-blind players:

* ``PIT``  a city, by its code (its id in the map file); the cursor line names it
* ``53`` (``5/3``)  under the code, the city's values: what it adds to the income
  of a company alone there, and of each of two or more. Compact: underlined
  once developed (the marker is a house), italic if it is never developed.
  Roomy: ``5^3`` once developed, ``8■5`` never developed. Then its cubes
* ``.``  plains, ``♣`` forest, ``▲`` mountain
* ``A N C M L R``  the companies' cubes, each its colour and letter; a hex
  with more cubes than fit shows the first letter(s) and how many more
  (``A2``: an A cube and two others)
* reverse video on a hex's top row (a city's code): a place the current step lets
  the player choose; while expanding it shows the price of a cube of that company
  there (``$5``, paid from its treasury; ``12`` from $10 in the compact drawing), in
  a city in place of its values
* reverse video over a whole hex: the board cursor

The line about the hex under the cursor (``AmericanRailsTrack``, in the side
panel) says all of it in words: name, values, state, every cube, the price; the
help's "Reading the board" is the key to the marks.

Hexes are named ``"column,row"``; that string is the ``city`` the board's
``CityChosen`` and ``CursorMoved`` messages carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.widgets import Static

from railgames.app.palette import named, player_letters, player_style
from railgames.app.widgets.board_base import CURSOR, STYLE, BoardBase, BoardPanel, Cell
from railgames.app.widgets.hex_layout import hex_id
from railgames.app.widgets.quiet import QuietStatic
from railgames.core.hexgrid import Hex
from railgames.games.american_rails.board_map import AmericanRailsMap
from railgames.games.american_rails.places import place_name
from railgames.games.american_rails.rules import (
    ACTION_TRACK,
    DEVELOP_FULL,
    DEVELOP_SHARED,
    AmericanRailsRules,
)
from railgames.games.american_rails.state import ARState, Step

TERRAIN_GLYPHS = {"plains": ".", "forest": "♣", "mountain": "▲"}
# Colours as the palette's RGB values, so a 16-colour terminal keeps their names
# (the theme's own red would come out magenta there).
TERRAIN_STYLES = {t: named(s) for t, s in {"plains": "dim", "forest": "green", "mountain": "yellow"}.items()}
DEVELOPED_MARK = "^"
NEVER_MARK = "■"
VALUE_MARK = "/"

# Company colour -> style of its cube chip (16 ANSI colours only).
COMPANY_STYLES: dict[str, str] = {colour: named(style) for colour, style in {
    "white": "bold black on bright_white",
    "grey": "bold bright_white on bright_black",
    "green": "bold black on bright_green",
    "yellow": "bold black on bright_yellow",
    "red": "bold bright_white on red",
    "blue": "bold bright_white on blue",
}.items()}

PLAIN = Style()
# A place the current step lets the player choose (with its price while expanding).
LEGAL = Style(bold=True, reverse=True)
CITY = Style(bold=True)
VALUES = Style(bold=True)
# The compact drawing has no room for a mark between the values: a style tells.
DEVELOPED_CITY = Style(bold=True, underline=True)
NEVER_CITY = Style(bold=True, italic=True)


def city_code(city: str) -> str:
    """The short code a city is marked with on the board: its id ("PIT")."""
    return city.upper()[:3]


def company_chip(rules: AmericanRailsRules, company: str) -> Text:
    c = rules.map.company_by_id[company]
    return Text(c.letter, style=COMPANY_STYLES.get(c.colour, "bold reverse"))


def city_mark(rules: AmericanRailsRules, state: ARState | None, city: str) -> str:
    c = rules.map.city_by_id[city]
    if c.never_develop:
        sep = NEVER_MARK
    elif state is not None and city in state.developed:
        sep = DEVELOPED_MARK
    else:
        sep = VALUE_MARK
    return f"{c.full}{sep}{c.shared}"


def city_state(rules: AmericanRailsRules, state: ARState | None, city: str) -> str:
    """What a city's values mean, in words: "$7 alone/$4 shared (developed)" (the board
    shows them as ``53``, ``5/3`` or ``5^3``: the values before development)."""
    c = rules.map.city_by_id[city]
    full, shared = c.full, c.shared
    note = ""
    if c.never_develop:
        note = " (never developed)"
    elif state is not None and city in state.developed:
        full, shared = full + DEVELOP_FULL, shared + DEVELOP_SHARED
        note = " (developed)"
    return f"${full} alone/${shared} shared{note}"


class HexLayout:
    """Where each hex goes on the text grid; no Textual.

    ``pitch`` columns from one hex to the next along a row, ``cells`` of them
    drawn (the rest stay blank, so no two hexes ever touch), odd rows shifted
    ``shift`` columns to the right; each hex takes two rows.
    """

    def __init__(self, game_map: AmericanRailsMap, *, pitch: int, cells: int, shift: int) -> None:
        self.map = game_map
        self.pitch, self.cells, self.shift = pitch, cells, shift
        self.compact = cells < 3
        # The left cell of each hex's two rows.
        self.origin: dict[Hex, Cell] = {}
        # Across the map in half hexes (doubled offset columns): moving the cursor
        # works on these, so it moves alike in both drawings.
        self.across: dict[Hex, int] = {}
        for h in game_map.terrain:
            col, row = game_map.offset_of(h)
            self.origin[h] = (pitch * col + (shift if row & 1 else 0), 2 * row)
            self.across[h] = 2 * col + (row & 1)
        # A city at the left edge needs the blank cell before it for its code.
        if any(x == 0 for h, (x, _) in self.origin.items() if h in game_map.city_at):
            self.origin = {h: (x + 1, y) for h, (x, y) in self.origin.items()}
        self.height = max(y for _, y in self.origin.values()) + 2
        self.id_of: dict[Hex, str] = {h: hex_id(*game_map.offset_of(h)) for h in game_map.terrain}
        self.hex_of: dict[str, Hex] = {i: h for h, i in self.id_of.items()}
        self.owner: dict[Cell, Hex] = {}
        for h, (x, y) in self.origin.items():
            for dx in range(cells):
                for dy in (0, 1):
                    self.owner[(x + dx, y + dy)] = h
        # A city takes the blank cells either side of it where they are free: its code
        # on the top row, its values and cubes under it (``span``: first cell, width).
        self.span: dict[Hex, tuple[int, int]] = {h: (x, cells) for h, (x, _) in self.origin.items()}
        for h in sorted(game_map.city_at, key=lambda h: self.origin[h][::-1]):
            x, y = self.origin[h]
            left = x - 1 if (x - 1, y) not in self.owner else x
            right = x + cells if (x + cells, y) not in self.owner else x + cells - 1
            self.span[h] = (left, right - left + 1)
            for cx in range(left, right + 1):
                for dy in (0, 1):
                    self.owner[(cx, y + dy)] = h
        self.width = max(left + w for left, w in self.span.values())
        self.hexes_on_row: dict[int, list[Hex]] = {}
        for h, (_, y) in sorted(self.origin.items(), key=lambda kv: kv[1]):
            self.hexes_on_row.setdefault(y, []).append(h)

    @classmethod
    def roomy(cls, game_map: AmericanRailsMap) -> HexLayout:
        return cls(game_map, pitch=4, cells=3, shift=2)

    @classmethod
    def narrow(cls, game_map: AmericanRailsMap) -> HexLayout:
        return cls(game_map, pitch=3, cells=2, shift=1)

    def region(self, h: Hex) -> Region:
        (x, width), y = self.span[h], self.origin[h][1]
        return Region(x, y, width, 2)

    def step(self, origin: Hex, direction: str, home: int) -> Hex | None:
        """The hex a cursor move lands on: along the row, or the nearest hex a row up or
        down (``home``: where across the map the last move along a row left the cursor)."""
        x, y = self.across[origin], self.origin[origin][1]
        if direction in ("left", "right"):
            sign = 1 if direction == "right" else -1
            row = [h for h in self.hexes_on_row[y] if (self.across[h] - x) * sign > 0]
            return min(row, key=lambda h: abs(self.across[h] - x), default=None)
        sign = 1 if direction == "down" else -1
        best: tuple[int, int, Hex] | None = None
        for h, (_, hy) in self.origin.items():
            hx = self.across[h]
            rows = (hy - y) * sign // 2
            if rows <= 0 or abs(hx - x) > rows + 1:
                continue
            key = (rows, abs(hx - home), h)
            if best is None or key[:2] < best[:2]:
                best = key
        return best[2] if best else None


class AmericanRailsBoard(BoardBase):
    """The map of the eastern United States, with a hex cursor."""

    DEFAULT_CSS = """
    AmericanRailsBoard {
        scrollbar-size: 1 1;
    }
    """
    SCREEN_CSS = """
    /* its map is 62 by 36 in the compact drawing (83 by 36 in the
       roomy one, which the board takes where it fits across): at 120x40 it is seen whole,
       unframed, with the cursor line in the side panel over the investors' choices */
    GameScreen.game-american-rails #side { width: 56; }
    GameScreen.game-american-rails #board-box { border: none; padding: 0 1; }
    GameScreen.game-american-rails.wide #board-box { width: 86; }
    GameScreen.game-american-rails.wide #side { width: 1fr; }
    GameScreen.game-american-rails.narrow #side { width: 100%; }
    GameScreen.game-american-rails.narrow #board-box { height: 6; padding: 0; }
    GameScreen.game-american-rails.narrow #ar-track-panel { padding: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Choose hex"),
    ]

    layout_: HexLayout
    state: ARState | None
    ruleset: AmericanRailsRules

    def __init__(self, ruleset: AmericanRailsRules, *, id: str | None = None) -> None:
        self.layouts = (HexLayout.roomy(ruleset.map), HexLayout.narrow(ruleset.map))
        layout = self.layouts[1]
        start = layout.id_of[ruleset.map.city_hex["PIT"]] if "PIT" in ruleset.map.city_hex else \
            next(iter(layout.hex_of))
        # The company whose legal hexes are highlighted (their prices are drawn on them).
        self.expanding: str | None = None
        super().__init__(ruleset, layout, start, id=id)
        self._home = self.layout_.across[self.cursor_hex]

    @property
    def cursor_hex(self) -> Hex:
        return self.layout_.hex_of[self._cursor]

    # ------------------------------------------------------------ the drawing that fits
    def layout_for(self, size: Size) -> HexLayout:
        """The roomy drawing where it fits across (beside a scrollbar if it must scroll
        up and down), the compact one otherwise."""
        roomy = self.layouts[0]
        needed = roomy.width + (1 if size.height < roomy.height else 0)
        return roomy if size.width >= needed else self.layouts[1]

    def use_layout(self, layout: HexLayout) -> None:
        if layout is self.layout_:
            return
        self.layout_ = layout
        self._build_scene()
        self._rows = [self._with_cursor(r) for r in range(layout.height)]
        self._strips.clear()
        self.virtual_size = Size(layout.width, layout.height)
        self.refresh()
        for listener in self.cursor_listeners:  # the key under the cursor line follows the drawing
            listener(self._cursor)

    def on_resize(self) -> None:
        self.use_layout(self.layout_for(self.size))
        super().on_resize()

    # ------------------------------------------------------------ cursor and highlights
    def move_cursor_to(self, city: str, *, scroll: bool = True, home: bool = True) -> None:
        h = self.layout_.hex_of.get(city)
        if h is None:
            raise KeyError(f"no hex '{city}' on this board")
        if home:
            self._home = self.layout_.across[h]
        super().move_cursor_to(city, scroll=scroll)

    def set_highlight(self, cities: Iterable[str] = (), path: Sequence[str] = ()) -> None:
        """Mark the hexes the current step lets the player choose; ``path`` names the
        company being expanded (its prices are drawn on the marked hexes)."""
        expanding = path[0] if path else None
        changed = expanding != self.expanding
        self.expanding = expanding
        if changed:
            self.highlighted = frozenset(("·",))  # force a redraw with the new prices
        super().set_highlight(cities, ())
        if changed:
            for listener in self.cursor_listeners:
                listener(self._cursor)

    def city_region(self, city: str) -> Region:
        return self.layout_.region(self.layout_.hex_of[city])

    def label_regions(self) -> dict[str, Region]:
        """Each hex's drawn cells (both rows), in board (virtual) coordinates; the blank
        columns between hexes keep any two from touching."""
        lay = self.layout_
        return {lay.id_of[h]: lay.region(h) for h in lay.origin}

    def hex_text(self, city: str) -> str:
        """The two rows of a hex (a city with the blank cells it takes), as drawn,
        joined by '|'."""
        r = self.city_region(city)
        top = "".join(ch for ch, _ in self._rows[r.y][r.x:r.right])
        bottom = "".join(ch for ch, _ in self._rows[r.y + 1][r.x:r.right])
        return f"{top}|{bottom}"

    def hex_styles(self, city: str, row: int = 0) -> list[Style]:
        """The styles of a hex's top (or, ``row=1``, bottom) row, as drawn (the cursor aside)."""
        r = self.city_region(city)
        return [style for _, style in self._scene[r.y + row][r.x:r.right]]

    def action_move_cursor(self, direction: str) -> None:
        target = self.layout_.step(self.cursor_hex, direction, self._home)
        if target is not None:
            self.move_cursor_to(self.layout_.id_of[target], home=direction in ("left", "right"))

    def _city_at(self, cell: Cell) -> str | None:
        h = self.layout_.owner.get(cell)
        return None if h is None else self.layout_.id_of[h]

    def _cursor_rows(self, city: str) -> Iterable[int]:
        y = self.layout_.origin[self.layout_.hex_of[city]][1]
        return (y, y + 1)

    def _cursor_columns(self, row: int) -> Sequence[int]:
        r = self.layout_.region(self.cursor_hex)
        return range(r.x, r.right) if row in (r.y, r.y + 1) else ()

    def _cursor_style(self, style: Style) -> Style:
        if style.bgcolor is not None and style.color is not None:
            return style + Style(color=style.bgcolor, bgcolor=style.color, underline=True)
        if style.reverse:  # a place to choose: the cursor's block shows it the other way
            return style + Style(reverse=False)
        return style + CURSOR

    # ------------------------------------------------------------ drawing
    def _top(self, h: Hex, highlighted: set[Hex]) -> list[tuple[str, Style]]:
        """A hex's top row: its price while expanding, or its terrain."""
        lay = self.layout_
        state = self.state
        cells = lay.cells
        if h in highlighted and self.expanding and state is not None:
            return [(ch, LEGAL) for ch in self._price(h, cells).ljust(cells)]
        terrain = lay.map.terrain[h]
        glyph = TERRAIN_GLYPHS.get(terrain, "?")
        style = LEGAL if h in highlighted else STYLE(TERRAIN_STYLES.get(terrain, ""))
        top = [(" ", PLAIN)] * cells
        # In the compact drawing the glyph stands over a hex's first cube; in the roomy
        # one, in the middle.
        top[0 if lay.compact else 1] = (glyph, style)
        return top

    def _price(self, h: Hex, room: int) -> str:
        """What a cube of the company being expanded costs here, in ``room`` cells
        ("$5"; "12" from $10 in two cells)."""
        assert self.state is not None
        price = self.ruleset.cube_cost(self.state, h)
        return f"${price}" if len(f"${price}") <= room else f"{price}"[-room:]

    def _cubes(self, here: Sequence[str], room: int) -> list[tuple[str, Style]]:
        """A hex's cubes in ``room`` cells: their letters, or the first ones and how many
        more (the cursor line names them all)."""
        m = self.layout_.map
        chip = {c.id: (c.letter, STYLE(COMPANY_STYLES.get(c.colour, "bold reverse"))) for c in m.companies}
        if len(here) <= room:
            out = [chip[c] for c in here]
        else:
            shown = here[:room - 1]
            out = [chip[c] for c in shown]
            out.append((f"{len(here) - len(shown)}"[-1], STYLE("bold")))
        return out + [(" ", PLAIN)] * (room - len(out))

    def _city_rows(self, h: Hex, highlighted: set[Hex]) -> tuple[list[tuple[str, Style]], ...]:
        """A city's two rows across the cells it takes: its code over its values
        ("PIT" over "53", "5/3" in the roomy drawing) followed by its cubes. While
        expanding, a city a cube may go to shows the price in place of the values."""
        lay = self.layout_
        state = self.state
        city = lay.map.city_at[h]
        width = lay.span[h][1]
        code = city_code(city.id)
        code_style = CITY + LEGAL if h in highlighted else CITY
        top = [(ch, code_style) for ch in code[:width]]
        top += [(" ", PLAIN)] * (width - len(top))
        developed = state is not None and city.id in state.developed
        if h in highlighted and self.expanding and state is not None:
            room = 2 if lay.compact else 3
            values = [(ch, LEGAL) for ch in self._price(h, room).ljust(room)]
        elif lay.compact:
            style = NEVER_CITY if city.never_develop else (DEVELOPED_CITY if developed else VALUES)
            values = [(ch, style) for ch in f"{city.full}{city.shared}"]
        else:
            style = STYLE(named("bold bright_white") if developed else "bold")
            values = [(ch, style) for ch in city_mark(self.ruleset, state, city.id)]
        here = state.hexes.get(h, []) if state is not None else []
        return top, values + self._cubes(here, max(1, width - len(values)))[:width - len(values)]

    def _build_scene(self) -> None:
        lay = self.layout_
        m = lay.map
        state = self.state
        cells = lay.cells
        chars = [[" "] * lay.width for _ in range(lay.height)]
        styles = [[PLAIN] * lay.width for _ in range(lay.height)]
        board = state.hexes if state is not None else {}
        highlighted = {lay.hex_of[i] for i in self.highlighted if i in lay.hex_of}
        for h, (x, y) in lay.origin.items():
            if h in m.city_at:
                x = lay.span[h][0]
                rows = self._city_rows(h, highlighted)
            else:
                rows = (self._top(h, highlighted), self._cubes(board.get(h, []), cells))
            for dy, row in enumerate(rows):
                for i, (ch, style) in enumerate(row):
                    chars[y + dy][x + i], styles[y + dy][x + i] = ch, style
        self._scene = [list(zip(cr, sr, strict=True)) for cr, sr in zip(chars, styles, strict=True)]


# ------------------------------------------------------------------- companies and the action track


def companies_text(rules: AmericanRailsRules, state: ARState) -> Text:
    """One line per company: letter, name, income, treasury, cubes in supply, shares unsold."""
    text = Text()
    text.append(f"{state.year} Company      Income Treasury Cubes Unsold", style="bold")
    for c in state.company_list():
        text.append("\n")
        text.append_text(company_chip(rules, c.id))
        text.append(f" {rules.company_name(c.id):<12}")
        income = f"${c.income}" if c.on_map else "off map"
        text.append(f"{income:>7} {'$' + str(c.treasury):>7} {c.supply:>5} "
                    f"{c.shares_left:>3}/{c.shares}")
    return text


def track_text(state: ARState, names: Sequence[str]) -> Text:
    """The action track as a grid: a column per space, a row per action phase, the
    markers' letters where they stand; ``·`` a free space of the column in play."""
    letters = player_letters(names)
    text = Text()
    text.append("Phase", style="bold")
    for space in ACTION_TRACK:
        text.append(f" {space.short:<5}", style="bold")
    for phase in range(3):
        column = state.columns[phase] if phase < len(state.columns) else {}
        current = not state.prep and phase == state.phase and state.step is not Step.OVER
        text.append(f"\n{'▶' if current else ' '} {phase + 1}  ", style="bold" if current else "")
        for space in ACTION_TRACK:
            seat = column.get(space.id)
            text.append("   ")
            if seat is None:
                text.append("·", style="" if current else "dim")
            else:
                text.append(letters[seat], style="reverse " + player_style(seat))
            text.append("  ")
    text.append(f"\nTurn order: {' '.join(letters[s] for s in state.turn_order) or '-'}   "
                f"Development markers: {state.dev_supply}", style="dim")
    return text


def companies_compact(rules: AmericanRailsRules, state: ARState) -> Text:
    """The companies in 24 columns: letter, income, treasury, cubes, shares unsold."""
    text = Text()
    text.append(f"{state.year} Inc. Treas Cub Sh", style="bold")
    for c in state.company_list():
        text.append("\n")
        text.append_text(company_chip(rules, c.id))
        income = f"${c.income}" if c.on_map else "off"
        text.append(f" {income:>5} {'$' + str(c.treasury):>5} {c.supply:>3} {c.shares_left}/{c.shares}")
    return text


def track_compact(state: ARState, names: Sequence[str]) -> Text:
    """The action track upright in 13 columns: a row per space, a column per phase."""
    letters = player_letters(names)
    text = Text()
    text.append("Track  1 2 3", style="bold")
    for space in ACTION_TRACK:
        text.append(f"\n{space.short:<6}")
        for phase in range(3):
            column = state.columns[phase] if phase < len(state.columns) else {}
            seat = column.get(space.id)
            text.append(" ")
            if seat is None:
                current = not state.prep and phase == state.phase
                text.append("·", style="" if current else "dim")
            else:
                text.append(letters[seat], style="reverse " + player_style(seat))
    return text


# ------------------------------------------------------------------- under the board


class AmericanRailsTrack(BoardPanel):
    """In the side panel, above the choices: the hex under the board cursor in words
    (name, values and state, every cube), and, while expanding, what a cube of the
    company being expanded would cost there and how it would change incomes.

    It sits beside the map rather than under it, so the map keeps every row."""

    DEFAULT_CSS = """
    AmericanRailsTrack {
        height: auto;
        padding: 0 1;
    }
    AmericanRailsTrack Static { height: auto; }
    """

    BOARD_CLASS = AmericanRailsBoard

    ruleset: AmericanRailsRules
    state: ARState | None

    def __init__(self, ruleset: AmericanRailsRules, *, id: str | None = None) -> None:
        super().__init__(ruleset, id=id)
        self.names: list[str] = []
        self.board: AmericanRailsBoard | None = None

    def on_mount(self) -> None:
        boards = list(self.screen.query(AmericanRailsBoard))
        self.board = boards[0] if boards else None
        if self.board is not None:
            self.board.cursor_listeners.append(self.show_cursor)
            self.cursor = self.board.cursor_city
        if self.state is not None:
            self.update_state(self.state)

    @property
    def expanding(self) -> str | None:
        return self.board.expanding if self.board is not None else None

    def compose(self) -> Any:
        yield QuietStatic(id="ar-cursor")
        yield QuietStatic(id="ar-key")

    def key_line(self) -> Text:
        """What the marks under a city's code mean, drawn as the board draws them."""
        compact = self.board is None or self.board.layout_.compact
        # The compact drawing tells a city's state by its style, the wide one by a sign.
        marks = ([("53", VALUES), ("53", DEVELOPED_CITY), ("85", NEVER_CITY)] if compact
                 else [("5/3", VALUES), ("5^3", VALUES), ("8■5", VALUES)])
        text = Text("Key ", style="dim")
        for (mark, style), words in zip(marks, (": $5 alone, $3 shared · ", " developed · ",
                                                " never"), strict=True):
            text.append(mark, style=style)
            text.append(words, style="dim")
        return text

    def update_state(self, state: ARState) -> None:
        self.state = state
        self.names = [p.name for p in state.players]
        if not self.is_mounted:
            return
        self._show_cursor()

    def _show_cursor(self) -> None:
        if self.state is not None and self.cursor is not None and self.is_mounted:
            self.query_one("#ar-cursor", Static).update(self.hex_line(self.state, self.cursor))
            self.query_one("#ar-key", Static).update(self.key_line())

    def hex_line(self, state: ARState, city: str) -> Text:
        """"Cursor PIT Pittsburgh: $7 alone/$4 shared (developed), cubes A N" and,
        while expanding, the price and the changes of income a cube there would bring."""
        rules = self.ruleset
        m = rules.map
        col, row = (int(p) for p in city.split(","))
        h = m.hex_of(col, row)
        text = Text("Cursor ", style="bold")
        if h not in m.terrain:
            return text
        place = m.city_at.get(h)
        if place is not None:
            text.append(f"{city_code(place.id)} {place.name}", style="bold")
            text.append(f": {city_state(rules, state, place.id)}")
        else:
            name = place_name(m, h)
            text.append(f"{name[0].upper()}{name[1:]}")
        here = state.hexes.get(h, [])
        text.append(", cube" + ("s" if len(here) > 1 else "") if here else ", no cubes")
        for c in here:
            text.append(" ")
            text.append_text(company_chip(rules, c))
        company = self.expanding
        if company is not None and state.step is Step.EXPAND:
            refusal = rules.placement_refusal(state, company, h)
            if refusal is None:
                outcome = rules.cube_outcome(state, company, h)
                text.append(f"  {rules.company_name(company)} here: ${outcome.cost}", style="bold")
                changes = [f"{rules.company_name(k)} {'+' if v >= 0 else '-'}${abs(v)}"
                           for k, v in outcome.income.items() if v]
                if changes:
                    text.append(", income " + ", ".join(changes), style="bold")
        return text
