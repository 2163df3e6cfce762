"""The Railways of the World board: a hex map drawn as text with the Line API.

Each hex is a cell four columns wide and two rows tall, odd rows shifted half a
hex to the right (pointy tops), drawn with its outline::

     RBK ╱ ╲ ╱ ╲
    │(R)A A│ ^ │
     ╲ ╱ ╲ ╱ ╲ ╱

Everything that carries meaning has a glyph or a letter as well as a colour, so
the board reads in 16 colours, with NO_COLOR, and for colour-blind players:

* ``.`` open country, ``~`` water, ``^`` mountain, ``x`` a partial hex (no track)
* ``(R)`` a city: R red, Y yellow, B blue, K black, P purple, G gray; its goods
  cubes are letters above it (and below it past three), each in its colour;
  ``0`` under an empty city is its empty-city marker
* ``#`` a ridge on a hex side
* a player's letter on a hex side: their track leaves the hex there (so a
  track reads as the letters on the sides it passes); in the hex's middle the
  letter of each track in it (two for a crossing)
* ``+`` where the choice under way may go (a tile, a city); reverse video: the cursor

Hexes are named as the rules name them, ``"column,row"``; that string is the
``city`` the board's ``CityChosen`` and ``CursorMoved`` messages carry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Static

from railgames.app.palette import player_letters, player_style
from railgames.app.widgets.board_base import CURSOR, STYLE, BoardBase, BoardPanel, Cell
from railgames.app.widgets.hex_layout import HexLayout, hex_id
from railgames.app.widgets.quiet import QuietStatic
from railgames.core.hexgrid import Hex
from railgames.games.railways_of_the_world.board_map import GRAY
from railgames.games.railways_of_the_world.rules import RailwaysOfTheWorldRules, money
from railgames.games.railways_of_the_world.state import RotwState

RIDGE_GLYPH = "#"
LEGAL_MARK = "+"

TERRAIN_GLYPHS: dict[str, tuple[str, str]] = {
    "open": (".", "green"),
    "water": ("~", "bright_blue"),
    "mountain": ("^", "yellow"),
    "partial": ("x", "dim"),
}
CITY_LETTERS = {"red": "R", "yellow": "Y", "blue": "B", "black": "K", "purple": "P", GRAY: "G"}
CITY_STYLES = {
    "red": "bold bright_red", "yellow": "bold bright_yellow", "blue": "bold bright_blue",
    "black": "bold bright_white on black", "purple": "bold magenta", GRAY: "bold white",
}
CUBE_STYLES = {
    "red": "bold bright_red", "yellow": "bold bright_yellow", "blue": "bold bright_blue",
    "black": "bold bright_white on black", "purple": "bold magenta",
}



def city_letter(colour: str) -> str:
    return CITY_LETTERS.get(colour, "?")


def cube_text(cubes: dict[str, int]) -> Text:
    """``RRK``: one letter per goods cube, in its colour."""
    text = Text()
    for colour, count in cubes.items():
        text.append(city_letter(colour) * count, style=CUBE_STYLES.get(colour, "bold"))
    if not text:
        text.append("none", style="dim")
    return text



DIM = Style(dim=True)
PLAIN = Style()
LEGAL = Style(bold=True, reverse=True)
RIDGE = Style.parse("bold yellow")


class RotwBoard(BoardBase):
    """The map, with a hex cursor; ``set_highlight`` marks the hexes a choice may take."""

    DEFAULT_CSS = """
    RotwBoard {
        scrollbar-size: 1 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Choose hex"),
    ]

    layout_: HexLayout
    state: RotwState | None
    ruleset: RailwaysOfTheWorldRules

    def __init__(self, ruleset: RailwaysOfTheWorldRules, *, id: str | None = None) -> None:
        layout = HexLayout(ruleset.map, ruleset.map.ridges)
        first = ruleset.map.cities[0]
        self.letters: list[str] = []
        super().__init__(ruleset, layout, hex_id(first.col, first.row), id=id)
        self._home_x = self.layout_.centre[self.cursor_hex][0]

    @property
    def cursor_hex(self) -> Hex:
        return self.layout_.hex_of[self._cursor]

    def move_cursor_to(self, city: str, *, scroll: bool = True, home: bool = True) -> None:
        h = self.layout_.hex_of.get(city)
        if h is None:
            raise KeyError(f"no hex '{city}' on this board")
        if home:
            self._home_x = self.layout_.centre[h][0]
        super().move_cursor_to(city, scroll=scroll)

    def city_region(self, city: str) -> Region:
        return self.layout_.region(self.layout_.hex_of[city])

    def update_state(self, state: Any) -> None:
        if state is not None and len(self.letters) != len(state.players):
            self.letters = player_letters([p.name for p in state.players])
        super().update_state(state)

    # ------------------------------------------------------------ input
    def action_move_cursor(self, direction: str) -> None:
        target = self.layout_.step(self.cursor_hex, direction, self._home_x)
        if target is not None:
            self.move_cursor_to(self.layout_.id_of[target], home=direction in ("left", "right"))

    def _city_at(self, cell: Cell) -> str | None:
        h = self.layout_.owner.get(cell)
        return None if h is None else self.layout_.id_of[h]

    # ------------------------------------------------------------ drawing
    def _cursor_rows(self, city: str) -> Iterable[int]:
        return self.layout_.rows_of(self.layout_.hex_of[city])

    def _cursor_columns(self, row: int) -> Sequence[int]:
        x, y = self.layout_.centre[self.cursor_hex]
        if row == y:
            return (x - 1, x, x + 1)
        if row in (y - 1, y + 1):
            return (x,)
        return ()

    def _cursor_style(self, style: Style) -> Style:
        if style.bgcolor is not None and style.color is not None:
            return style + Style(color=style.bgcolor, bgcolor=style.color, underline=True)
        return style + CURSOR

    def _letter(self, seat: int) -> tuple[str, Style]:
        letter = self.letters[seat] if seat < len(self.letters) else str(seat + 1)
        return letter, STYLE(player_style(seat))

    def _build_scene(self) -> None:
        lay = self.layout_
        m = lay.map
        state = self.state
        chars = [[" "] * lay.width for _ in range(lay.height)]
        styles = [[PLAIN] * lay.width for _ in range(lay.height)]
        for (x, y), (glyph, ridge) in lay.edges.items():
            chars[y][x], styles[y][x] = (RIDGE_GLYPH, RIDGE) if ridge else (glyph, DIM)
        highlighted = {lay.hex_of[i] for i in self.highlighted if i in lay.hex_of}
        path = [lay.hex_of[i] for i in self.path if i in lay.hex_of]
        for h, (x, y) in lay.centre.items():
            terrain = m.terrain[h]
            city = m.city_at.get(h)
            if city is not None:
                colour = state.colour[city.id] if state is not None else city.colour
                cstyle = STYLE(CITY_STYLES.get(colour, "bold"))
                chars[y][x - 1], chars[y][x], chars[y][x + 1] = "(", city_letter(colour), ")"
                styles[y][x - 1] = styles[y][x] = styles[y][x + 1] = cstyle
                if state is None and city.cubes:
                    chars[y - 1][x], styles[y - 1][x] = str(min(city.cubes, 9)), STYLE("bold")
                if state is not None and city.id in state.markers:
                    chars[y + 1][x], styles[y + 1][x] = "0", STYLE("bold red")
                if h in highlighted:
                    styles[y][x] = cstyle + LEGAL
                continue
            glyph, tstyle = TERRAIN_GLYPHS.get(terrain, ("?", "bold"))
            chars[y][x], styles[y][x] = glyph, STYLE(tstyle)
        if state is not None:
            for link in state.links.values():
                letter, pstyle = self._letter(link.owner)
                hexes = [self.ruleset.city_hex(link.start), *link.tiles, link.toward]
                for a, b in zip(hexes, hexes[1:], strict=False):
                    cell = lay.side_cell.get((a, b) if a <= b else (b, a))
                    if cell is not None:
                        chars[cell[1]][cell[0]] = letter
                        styles[cell[1]][cell[0]] = pstyle + Style(underline=not link.complete)
                for h in link.tiles:
                    x, y = lay.centre[h]
                    here = state.hex_links.get(h, [])
                    if len(here) > 1:
                        slot = x - 1 if here[0] == link.id else x + 1
                        chars[y][slot], styles[y][slot] = letter, pstyle
                        chars[y][x], styles[y][x] = "┼", DIM
                    else:
                        chars[y][x], styles[y][x] = letter, pstyle
        if state is not None:
            self._draw_cubes(state, chars, styles)
        for h in highlighted:
            if h in m.city_at:
                continue
            x, y = lay.centre[h]
            chars[y][x + 1], styles[y][x + 1] = LEGAL_MARK, LEGAL
        for h in path:
            if h in lay.centre and h not in m.city_at:
                x, y = lay.centre[h]
                chars[y][x - 1], styles[y][x - 1] = "*", STYLE("bold")
        self._scene = [list(zip(cr, sr, strict=True)) for cr, sr in zip(chars, styles, strict=True)]


    def _draw_cubes(self, state: RotwState, chars: list[list[str]],
                    styles: list[list[Style]]) -> None:
        """A city's goods cubes as letters above it (three) and below it (three more).

        They cover the hex's upper and lower sides; a track leaving a city there still
        shows in the hex next to it. More than six cubes: the sixth cell says '+'.
        """
        lay = self.layout_
        for h, city in lay.map.city_at.items():
            x, y = lay.centre[h]
            letters = [(city_letter(c), STYLE(CUBE_STYLES.get(c, "bold")))
                       for c, k in state.cubes[city.id].items() for _ in range(k)]
            if len(letters) > 6:
                letters = [*letters[:5], ("+", STYLE("bold"))]
            top, bottom = letters[:3], letters[3:6]
            for i, (ch, st) in enumerate(top):
                chars[y - 1][x - 1 + i], styles[y - 1][x - 1 + i] = ch, st
            for i, (ch, st) in enumerate(bottom):
                chars[y + 1][x - 1 + i], styles[y + 1][x - 1 + i] = ch, st


class RotwTrack(BoardPanel):
    """Under the board: markers placed and needed, the bag, and what is under the cursor."""

    DEFAULT_CSS = """
    RotwTrack {
        height: auto;
        padding: 0 1;
        border-top: solid $panel;
    }
    RotwTrack Static { height: 1; }
    """

    BOARD_CLASS = RotwBoard

    ruleset: RailwaysOfTheWorldRules
    state: RotwState | None

    def compose(self) -> Any:
        yield QuietStatic(id="rotw-markers")
        yield QuietStatic(id="rotw-cursor")

    def update_state(self, state: RotwState) -> None:
        self.state = state
        if not self.is_mounted:
            return
        self.query_one("#rotw-markers", Static).update(self.markers_line(state))
        self._show_cursor()

    def _show_cursor(self) -> None:
        if self.state is not None and self.cursor is not None and self.is_mounted:
            self.query_one("#rotw-cursor", Static).update(self.hex_line(self.state, self.cursor))

    def markers_line(self, state: RotwState) -> Text:
        needed = self.ruleset.markers_needed(state)
        text = Text("Empty cities ", style="bold")
        text.append(f"{len(state.markers)}/{needed}", style="bold red" if state.end_turn else "bold")
        if state.end_turn is not None:
            text.append(f" (turn {state.end_turn} is the last)", style="red")
        text.append(f"  Turn {state.turn}, round {state.round}  Bag {sum(state.bag.values())}")
        tiles = ", ".join(f"{city_letter(c)}{k}" for c, k in state.tiles_left.items() if k)
        text.append(f"  New cities {tiles or 'none'}", style="dim")
        return text

    def hex_line(self, state: RotwState, city: str) -> Text:
        rules = self.ruleset
        m = rules.map
        col, row = (int(p) for p in city.split(","))
        h = rules.hex_at(col, row)
        text = Text("Cursor ", style="bold")
        if h is None:
            return text
        text.append(f"{city}  ")
        place = m.city_at.get(h)
        if place is not None:
            colour = state.colour[place.id]
            text.append(place.name, style="bold")
            text.append(f" ({colour}) ", style=CITY_STYLES.get(colour, ""))
            text.append_text(cube_text(state.cubes[place.id]))
            return text
        terrain = m.terrain[h]
        cost = {"open": 2000, "water": 3000, "mountain": 4000}.get(terrain)
        text.append(terrain)
        if cost is not None:
            text.append(f" {money(cost)}", style="dim")
        ridges = sum(1 for k in m.ridges if h in k)
        if ridges:
            text.append(f", {ridges} ridge side{'s' if ridges > 1 else ''} (+$4,000 each)",
                        style="yellow")
        for link_id in state.hex_links.get(h, []):
            link = state.links[link_id]
            text.append(f"  {link.id} ", style=player_style(link.owner))
            text.append(f"{rules.city_name(link.start)}→"
                        f"{rules.city_name(link.end) if link.end else '…'}")
        return text
