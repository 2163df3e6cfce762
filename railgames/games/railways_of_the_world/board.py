"""The Railways of the World board: a hex map drawn as text with the Line API.

Each row of hexes is one line of text and each hex three cells of it, odd rows
shifted half a hex to the right (pointy tops), so that the whole of the Eastern
United States (23 hexes by 24 rows) is in view at 120x40 with the game's panels
under it (see ``CompactHexLayout``)::

        .   .   .   ~       .   .   . DETp  ~  ╱B╱  x       ~
      .   ~   .   . CHIyk─B ─ B ─ B ─ B╱    CLE0      ~   .
        ~   .   .   .   ~   .   .   .   .   .   .   .   .   ^_  ~
      .   .   .   .   .   .   .   . PITk…╌a ╌ a ╌ .+  ^_# ^

Everything that carries meaning has a glyph or a letter as well as a colour, so
the board reads in 16 colours and with NO_COLOR (a city's colour, which only
its chip shows, is also on the cursor line):

* ``.`` open country, ``~`` water, ``^`` mountain, ``x`` a partial hex (no track)
* ``CHIyb`` a city: its three-letter code as a chip of its colour, in reverse
  video (its full name is on the cursor line), then its goods cubes as small
  letters, each in its colour (r red, y yellow, b blue, k black, p purple;
  ``…`` after one when there are more than two); ``CHI0``: the city was
  emptied and holds an empty-city marker
* ``#`` a ridge on the side between two hexes of a row; ``_`` (or an
  underline) a ridge on the side below it, between two rows
* a player's letter in a hex: their track tile; ``─`` (between two hexes of a
  row, or into a city beside it), ``╱`` and ``╲`` (up or down a row): the way
  the track leaves the hex, so that a link can be followed from city to city;
  ``<`` or ``>`` two ways out on one side; two letters: a crossing. A link not
  finished yet is dotted (``╌ ⋰ ⋱``) and its letter small and underlined
* ``+`` where the choice under way may go (a tile, a city); ``*`` the tile
  being laid, or the route of a delivery; reverse video: the cursor

The full detail of the hex under the cursor (the city's name and cubes, the
terrain and its cost, the ridges, whose links pass) is on the line under the
board, and the map's legend is drawn in its sea where there is room (else
beside it).

Hexes are named as the rules name them, ``"column,row"``; that string is the
``city`` the board's ``CityChosen`` and ``CursorMoved`` messages carry.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.widgets import Static

from railgames.app.palette import named, player_letters, player_style
from railgames.app.widgets.board_base import CURSOR, STYLE, BoardBase, BoardPanel, Cell
from railgames.app.widgets.hex_layout import CompactHexLayout, hex_id
from railgames.app.widgets.quiet import QuietStatic
from railgames.core.hexgrid import Hex
from railgames.games.railways_of_the_world.board_map import GRAY
from railgames.games.railways_of_the_world.rules import RailwaysOfTheWorldRules, money
from railgames.games.railways_of_the_world.state import RotwState
from railgames.games.railways_of_the_world.terms import turn_and_round

RIDGE_GLYPH = "#"
RIDGE_BELOW_GLYPH = "_"
LEGAL_MARK = "+"
PATH_MARK = "*"
WALL_GLYPH = " "
SIDE_TRACK_GLYPH = "─"
CROSSING_GLYPH = "┼"
# Track between two hexes: (in a row, up-right or down-left, up-left or down-right, two
# ways out of one side of a hex) for a finished link, and dotted for one being built,
# so that the two differ with no colour at all.
COMPLETE_GLYPHS = ("─", "╱", "╲")
INCOMPLETE_GLYPHS = ("╌", "⋰", "⋱")
FORK_GLYPHS = {-1: "<", 1: ">"}
MORE_CUBES = "…"
EMPTIED_MARK = "0"

TERRAIN_GLYPHS: dict[str, tuple[str, str]] = {
    "open": (".", named("green")),
    "water": ("~", named("bright_blue")),
    "mountain": ("^", named("yellow")),
    "partial": ("x", "dim"),
}
TERRAIN_COSTS = {"open": 2000, "water": 3000, "mountain": 4000}
CITY_LETTERS = {"red": "R", "yellow": "Y", "blue": "B", "black": "K", "purple": "P", GRAY: "G"}
# A city's letter and the name of its colour as text (the cursor line, the lists).
CITY_STYLES = {colour: named(style) for colour, style in {
    "red": "bold bright_red", "yellow": "bold bright_yellow", "blue": "bold bright_blue",
    "black": "bold bright_white on black", "purple": "bold magenta", GRAY: "bold white",
}.items()}
# A city on the map: its letter as a chip of its colour, in reverse video so that it
# stays a chip with no colour at all (NO_COLOR keeps reverse video).
CITY_CHIPS = {colour: named(style) for colour, style in {
    "red": "bold reverse bright_red on black", "yellow": "bold reverse bright_yellow on black",
    "blue": "bold reverse bright_blue on black", "black": "bold reverse black on bright_white",
    "purple": "bold reverse magenta on bright_white", GRAY: "bold reverse white on black",
}.items()}
CUBE_STYLES = {colour: named(style) for colour, style in {
    "red": "bold bright_red", "yellow": "bold bright_yellow", "blue": "bold bright_blue",
    "black": "bold bright_white on black", "purple": "bold magenta",
}.items()}


def _words(name: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    words = ("".join(ch for ch in w if ch.isalpha()).upper() for w in plain.split())
    return [w for w in words if w]


def _code_candidates(name: str) -> Iterable[str]:
    """Three-letter codes for a name, the likeliest first: CHI, STL, NYO, SLP, MEX."""
    words = _words(name)
    letters = "".join(words) or "XXX"
    if len(words) >= 3:
        yield "".join(w[0] for w in words[:3])
    if len(words) == 2:
        a, b = words
        if a == "ST":  # St. Louis
            yield a + b[0]
        if b != "CITY":  # Mexico City is MEX
            yield a[0] + b[:2]
        yield a[:3]
    yield (letters + "XX")[:3]
    for i, j in combinations(range(1, len(letters)), 2):
        yield letters[0] + letters[i] + letters[j]


def city_codes(names: Sequence[str]) -> dict[str, str]:
    """A three-letter code for each name, no two alike: names of two words or more
    pick first (their codes are the least obvious), then the rest in the order given."""
    codes: dict[str, str] = {}
    for name in sorted(names, key=lambda n: len(_words(n)) < 2):
        code = next((c for c in _code_candidates(name) if c not in codes.values()), None)
        n = 1
        while code is None:  # more alike names than letters: number them
            code = f"{_words(name)[0][:1] or 'X'}{n:02d}"
            code = None if code in codes.values() else code
            n += 1
        codes[name] = code
    return codes


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
PATH = Style(bold=True)
RIDGE = Style.parse(named("bold yellow"))
UNDERLINE = Style(underline=True)
EMPTIED = Style.parse(named("bold bright_red"))


def _chip_style(colour: str) -> Style:
    return STYLE(CITY_CHIPS.get(colour, "bold reverse"))


# ------------------------------------------------------------------- layout


class RotwLayout(CompactHexLayout):
    """The compact hex layout with this game's marks: a city takes its two walls too
    (its code and two cubes need five cells; the cells either side, which its
    neighbours leave free, join track into it), ridges between two rows are marked
    in the upper hex's cell over the side, and a legend goes in the sea."""

    def __init__(self, game_map: Any) -> None:
        row_of = {h: game_map.offset_of(h)[1] for h in game_map.terrain}
        in_row = {s for s in game_map.ridges if row_of[s[0]] == row_of[s[1]]}
        super().__init__(game_map, in_row)
        self.ridge_cells = set(self.marked_cells)
        # A ridge between two rows: the cell of the upper hex over the side.
        self.ridge_below: set[Cell] = set()
        for a, b in game_map.ridges:
            if row_of[a] == row_of[b]:
                continue
            upper, lower = (a, b) if row_of[a] < row_of[b] else (b, a)
            ux, uy = self.centre[upper]
            self.ridge_below.add((ux + (1 if self.centre[lower][0] > ux else -1), uy))
        # A city's cells: its walls, its code and two cube slots.
        self.city_cells: dict[Hex, Region] = {}
        for h in game_map.city_at:
            x, y = self.centre[h]
            self.city_cells[h] = Region(x - 2, y, 5, 1)
        codes = city_codes([c.name for c in game_map.cities])
        self.code_of: dict[Hex, str] = {h: codes[c.name] for h, c in game_map.city_at.items()}
        self.city_of_cell: dict[Cell, Hex] = {
            (x, r.y): h for h, r in self.city_cells.items() for x in range(r.x, r.right)}
        # The legend goes in the sea, or else beside the map.
        self.legend_at = self._find_room(LEGEND_WIDTH, len(LEGEND))
        if self.legend_at is None:
            self.legend_at = (self.width + 1, 0)
            self.width += LEGEND_WIDTH + 1
            self.height = max(self.height, len(LEGEND))

    def _find_room(self, width: int, height: int) -> tuple[int, int] | None:
        """The top left of a free block of the sea, a cell clear of the map all round
        (the lowest and rightmost there is), or None."""
        taken: set[Cell] = set(self.owner) | self.walls | set(self.city_of_cell)
        busy = [[False] * (self.width + 2) for _ in range(self.height + 2)]
        for x, y in taken:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if 0 <= y + dy < self.height and 0 <= x + dx < self.width:
                        busy[y + dy][x + dx] = True
        best = None
        for y in range(self.height - height, -1, -1):
            for x in range(self.width - width, -1, -1):
                if all(not busy[yy][xx] for yy in range(y, y + height)
                       for xx in range(x, x + width)):
                    best = (x, y)
                    break
            if best:
                break
        return best

    def side_neighbour_is_city(self, h: Hex, side: int) -> bool:
        """Whether the hex next to ``h`` in its row (side -1 left, +1 right) is a city."""
        x, y = self.centre[h]
        return (x + 2 * side, y) in self.city_of_cell


LEGEND: list[tuple[str, str, str]] = [
    # glyph, its style, what it means
    (".", TERRAIN_GLYPHS["open"][1], "open      $2,000"),
    ("~", TERRAIN_GLYPHS["water"][1], "water     $3,000"),
    ("^", TERRAIN_GLYPHS["mountain"][1], "mountain  $4,000"),
    ("x", "dim", "no track"),
    ("# _", named("bold yellow"), "ridge   +$4,000"),
    ("ABCyb", "", "city: y b cubes"),
    ("ABCy…", "", "y and more cubes"),
    ("ABC0", "", "emptied city"),
    ("A─A", "", "track of A"),
    ("a╌a", "", "A's, unfinished"),
    ("+", "bold reverse", "may go here"),
]
LEGEND_GLYPHS = 6  # the glyph column
LEGEND_WIDTH = max(LEGEND_GLYPHS + len(text) for _, _, text in LEGEND)

_LAYOUTS: dict[str, RotwLayout] = {}


def board_layout(ruleset: RailwaysOfTheWorldRules) -> RotwLayout:
    """The board's layout, worked out once per map."""
    m = ruleset.map
    layout = _LAYOUTS.get(m.id)
    if layout is None or layout.map is not m:
        layout = _LAYOUTS[m.id] = RotwLayout(m)
    return layout


# ------------------------------------------------------------------- board


class RotwBoard(BoardBase):
    """The map, with a hex cursor; ``set_highlight`` marks the hexes a choice may take."""

    DEFAULT_CSS = """
    RotwBoard {
        scrollbar-size: 1 1;
    }
    """
    SCREEN_CSS = """
    /* a line per row of hexes, so the map (95 by 24 at
       most) takes the whole width on top and the panels go under it side by side; on a
       narrow screen they stack under it as in every game, and the map scrolls */
    GameScreen.game-railways-of-the-world #game-main { layout: vertical; }
    GameScreen.game-railways-of-the-world #board-box { width: 100%; height: auto; border: none; }
    GameScreen.game-railways-of-the-world #board { height: auto; max-height: 70vh; }
    GameScreen.game-railways-of-the-world #rotw-track { border-top: none; }
    GameScreen.game-railways-of-the-world #side { width: 100%; height: 1fr; layout: horizontal; }
    GameScreen.game-railways-of-the-world #players { width: 36; height: 100%; }
    GameScreen.game-railways-of-the-world #actions { width: 1fr; height: 100%; }
    GameScreen.game-railways-of-the-world #log { width: 28; height: 100%; }
    /* the list of choices takes what the panel has left, so its highlighted line shows */
    GameScreen.game-railways-of-the-world #ap-options { height: 1fr; max-height: 100%; }
    GameScreen.game-railways-of-the-world.short #board { max-height: 50vh; }
    GameScreen.game-railways-of-the-world.wide #log { width: 1fr; }
    GameScreen.game-railways-of-the-world.narrow #board-box { height: 1fr; }
    GameScreen.game-railways-of-the-world.narrow #board { height: 1fr; max-height: 100%; }
    GameScreen.game-railways-of-the-world.narrow #rotw-track { border-top: solid $panel; }
    GameScreen.game-railways-of-the-world.narrow #side { height: auto; layout: vertical; }
    GameScreen.game-railways-of-the-world.narrow #players,
    GameScreen.game-railways-of-the-world.narrow #actions,
    GameScreen.game-railways-of-the-world.narrow #log { width: 100%; height: auto; }
    GameScreen.game-railways-of-the-world.narrow #log { height: 3; }
    GameScreen.game-railways-of-the-world.narrow #ap-options { height: auto; max-height: 8; }
    GameScreen.game-railways-of-the-world.narrow.short #ap-options { max-height: 4; }
    /* the demo and the history viewers: the whole map on top as well (beside the
       narration it was cut at its right), the players and the narration under it */
    ViewerScreen.game-railways-of-the-world #v-main { layout: vertical; }
    ViewerScreen.game-railways-of-the-world #board-box { width: 100%; height: auto;
                                                         max-height: 75%; border: none; }
    ViewerScreen.game-railways-of-the-world #board { height: auto; max-height: 100%; }
    ViewerScreen.game-railways-of-the-world #rotw-track { border-top: none; }
    ViewerScreen.game-railways-of-the-world #v-side { width: 100%; height: 1fr;
                                                      layout: horizontal; }
    ViewerScreen.game-railways-of-the-world #v-players { width: 54; height: 100%; }
    ViewerScreen.game-railways-of-the-world #v-narration { width: 1fr; height: 100%; }
    ViewerScreen.game-railways-of-the-world.narrow #board-box { height: 1fr; max-height: 100%; }
    ViewerScreen.game-railways-of-the-world.narrow #board { height: 1fr; }
    ViewerScreen.game-railways-of-the-world.narrow #v-side { height: 9; layout: vertical; }
    ViewerScreen.game-railways-of-the-world.narrow #v-players { width: 100%; }
    ViewerScreen.game-railways-of-the-world.narrow #v-narration { width: 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Choose hex"),
    ]

    layout_: RotwLayout
    state: RotwState | None
    ruleset: RailwaysOfTheWorldRules

    def __init__(self, ruleset: RailwaysOfTheWorldRules, *, id: str | None = None) -> None:
        layout = board_layout(ruleset)
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
        h = self.layout_.hex_of[city]
        return self.layout_.city_cells.get(h) or self.layout_.region(h)

    def label_regions(self) -> dict[str, Region]:
        """The marks that must not touch another: each city (its letter and cubes, with
        its walls) and each line of the legend, in board (virtual) coordinates."""
        lay = self.layout_
        regions = {lay.id_of[h]: r for h, r in lay.city_cells.items()}
        if lay.legend_at is not None:
            x0, y0 = lay.legend_at
            for i, (_, _, text) in enumerate(LEGEND):
                regions[f"legend {i}"] = Region(x0, y0 + i, LEGEND_GLYPHS + len(text), 1)
        return regions

    def hex_text(self, city: str) -> str:
        """The cells of a hex as drawn (five for a city, three for another hex)."""
        r = self.city_region(city)
        return "".join(ch for ch, _ in self._rows[r.y][r.x:r.right])

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
        lay = self.layout_
        h = lay.city_of_cell.get(cell) or lay.owner.get(cell)
        return None if h is None else lay.id_of[h]

    # ------------------------------------------------------------ drawing
    def _cursor_rows(self, city: str) -> Iterable[int]:
        return self.layout_.rows_of(self.layout_.hex_of[city])

    def _cursor_columns(self, row: int) -> Sequence[int]:
        h = self.cursor_hex
        x, y = self.layout_.centre[h]
        if row != y:
            return ()
        if h in self.layout_.city_cells:
            return (x - 2, x - 1, x, x + 1, x + 2)
        return (x - 1, x, x + 1)

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
        for x, y in lay.walls:
            chars[y][x], styles[y][x] = WALL_GLYPH, DIM
        for x, y in lay.ridge_cells:
            chars[y][x], styles[y][x] = RIDGE_GLYPH, RIDGE
        highlighted = {lay.hex_of[i] for i in self.highlighted if i in lay.hex_of}
        path = {lay.hex_of[i] for i in self.path if i in lay.hex_of}
        # The track in each hex, in the order it was laid, and the sides it crosses.
        tracks: dict[Hex, list[tuple[str, Style]]] = {}
        conns: dict[Hex, dict[int, tuple[str, Style]]] = {}
        if state is not None:
            for link in state.links.values():
                self._link_sides(link, conns, chars, styles)
            for h, ids in state.hex_links.items():
                tracks[h] = []
                for i in ids:
                    letter, pstyle = self._letter(state.links[i].owner)
                    # A link being built: its owner's letter small and underlined.
                    tracks[h].append((letter, pstyle) if state.links[i].complete
                                     else (letter.lower(), pstyle + UNDERLINE))
        for h in lay.centre:
            if h not in m.city_at:
                self._draw_hex(h, tracks.get(h, []), conns.get(h, {}), h in highlighted,
                               h in path, chars, styles)
        for h in m.city_at:
            self._draw_city(h, h in highlighted, chars, styles)
        for x, y in lay.ridge_below:
            if chars[y][x] == " ":
                chars[y][x], styles[y][x] = RIDGE_BELOW_GLYPH, RIDGE
            else:
                styles[y][x] = styles[y][x] + UNDERLINE
        if lay.legend_at is not None:
            self._draw_legend(lay.legend_at, chars, styles)
        self._scene = [list(zip(cr, sr, strict=True)) for cr, sr in zip(chars, styles, strict=True)]

    def _link_sides(self, link: Any, conns: dict[Hex, dict[int, tuple[str, Style]]],
                    chars: list[list[str]], styles: list[list[Style]]) -> None:
        """Where a link crosses from hex to hex: the wall between two tiles of a row, or
        the cell of a tile toward its neighbour (into a city, or up or down a row).

        The city a link starts or ends in is joined to it by the cell of the tile next
        to it; at the open end of a link being built only its last tile shows the way.
        """
        lay = self.layout_
        cities = lay.map.city_at
        _, pstyle = self._letter(link.owner)
        glyphs = COMPLETE_GLYPHS if link.complete else INCOMPLETE_GLYPHS

        def put(h: Hex, dx: int, glyph: str) -> None:
            here = conns.setdefault(h, {})
            old = here.get(dx)
            if old is not None and old[0] != glyph:
                glyph = FORK_GLYPHS[dx]
            here[dx] = (glyph, pstyle)

        hexes = [self.ruleset.city_hex(link.start), *link.tiles, link.toward]
        for a, b in zip(hexes, hexes[1:], strict=False):
            if a is None or b is None:
                continue
            (ax, ay), (bx, by) = lay.centre[a], lay.centre[b]
            if ay == by and a not in cities and b not in cities:
                cell = lay.side_cell.get((a, b) if a <= b else (b, a))
                if cell is not None and cell in lay.walls:
                    chars[cell[1]][cell[0]], styles[cell[1]][cell[0]] = glyphs[0], pstyle
                continue
            for h, (hx, hy), (ox, oy) in ((a, (ax, ay), (bx, by)), (b, (bx, by), (ax, ay))):
                if h in cities or (h == link.toward and h not in link.tiles):
                    continue
                dx = 1 if ox > hx else -1
                if oy == hy:
                    put(h, dx, glyphs[0])
                else:
                    put(h, dx, glyphs[1] if (dx == 1) == (oy < hy) else glyphs[2])

    def _draw_hex(self, h: Hex, here: list[tuple[str, Style]],
                  conn: dict[int, tuple[str, Style]], legal: bool, on_path: bool,
                  chars: list[list[str]], styles: list[list[Style]]) -> None:
        """A hex that is not a city: its terrain or track in the middle, the ways its
        track goes out either side, marks where there is room.

        A cell next to a city's walls never takes a letter or a mark, so nothing runs
        into the city: the letters of a crossing and the marks move to the middle.
        Only the track into the city is drawn there.
        """
        lay = self.layout_
        x, y = lay.centre[h]
        glyph, tstyle = TERRAIN_GLYPHS.get(lay.map.terrain[h], ("?", "bold"))
        cells: dict[int, tuple[str, Style]] = {x: (glyph, STYLE(tstyle))}
        free = [c for c, side in ((x + 1, 1), (x - 1, -1))
                if not lay.side_neighbour_is_city(h, side)]
        if len(here) == 1:
            cells[x] = here[0]
        elif len(here) > 1:
            if len(free) == 2:
                cells[x - 1], cells[x + 1] = here[0], here[1]
                cells[x] = (CROSSING_GLYPH, DIM)
                free = []
            elif free:
                cells[x], cells[free[0]] = here[0], here[1]
                free = []
            else:
                cells[x] = here[0]
        for dx, way in conn.items():
            if x + dx not in cells:
                cells[x + dx] = way
                if x + dx in free:
                    free.remove(x + dx)
        for mark, wanted, style in ((LEGAL_MARK, legal, LEGAL), (PATH_MARK, on_path, PATH)):
            if not wanted:
                continue
            if free:
                cells[free.pop(0)] = (mark, style)
            else:
                ch, st = cells[x]
                cells[x] = (ch, st + (LEGAL if mark == LEGAL_MARK else UNDERLINE))
        for cx, (ch, st) in cells.items():
            chars[y][cx], styles[y][cx] = ch, st

    def _draw_city(self, h: Hex, legal: bool, chars: list[list[str]],
                   styles: list[list[Style]]) -> None:
        """``CHIyb``: the city's code as a chip of its colour, then its goods cubes
        (``…`` after one when there are more than two); ``+`` beside it where it may
        be chosen."""
        lay = self.layout_
        city = lay.map.city_at[h]
        state = self.state
        x, y = lay.centre[h]
        colour = state.colour[city.id] if state is not None else city.colour
        chip = _chip_style(colour)
        for i, ch in enumerate(lay.code_of[h]):
            chars[y][x - 2 + i], styles[y][x - 2 + i] = ch, chip
        if legal:
            spot = next((c for c in (x - 3, x + 3) if 0 <= c < lay.width
                         and chars[y][c] == " "), None)
            if spot is not None:
                chars[y][spot], styles[y][spot] = LEGAL_MARK, LEGAL
            else:
                for c in range(x - 2, x + 1):
                    styles[y][c] = styles[y][c] + UNDERLINE
        slots: list[tuple[str, Style]]
        if state is None:
            slots = [(str(min(city.cubes, 9)), STYLE("bold"))] if city.cubes else []
        else:
            slots = [(city_letter(c).lower(), STYLE(CUBE_STYLES.get(c, "bold")))
                     for c, k in state.cubes[city.id].items() for _ in range(k)]
            if len(slots) > 2:
                slots = [slots[0], (MORE_CUBES, STYLE("bold"))]
            if not slots and city.id in state.markers:
                slots = [(EMPTIED_MARK, EMPTIED)]
        for i, (ch, st) in enumerate(slots):
            chars[y][x + 1 + i], styles[y][x + 1 + i] = ch, st

    def _draw_legend(self, at: tuple[int, int], chars: list[list[str]],
                     styles: list[list[Style]]) -> None:
        x0, y0 = at
        for i, (glyph, gstyle, text) in enumerate(LEGEND):
            y = y0 + i
            cells: list[tuple[str, Style]] = []
            red = _chip_style("red")
            if glyph == "ABCyb":
                cells = [(ch, red) for ch in "ABC"] + [
                    ("y", STYLE(CUBE_STYLES["yellow"])), ("b", STYLE(CUBE_STYLES["blue"]))]
            elif glyph == "ABCy…":
                cells = [(ch, red) for ch in "ABC"] + [
                    ("y", STYLE(CUBE_STYLES["yellow"])), (MORE_CUBES, STYLE("bold"))]
            elif glyph == "ABC0":
                cells = [(ch, red) for ch in "ABC"] + [(EMPTIED_MARK, EMPTIED)]
            elif glyph in ("A─A", "a╌a"):
                pstyle = STYLE(player_style(0))
                ends = pstyle if glyph == "A─A" else pstyle + UNDERLINE
                cells = [(glyph[0], ends), (glyph[1], pstyle), (glyph[2], ends)]
            else:
                cells = [(ch, STYLE(gstyle) if ch != " " else PLAIN) for ch in glyph]
            cells += [(" ", PLAIN)] * (LEGEND_GLYPHS - len(cells))
            cells += [(ch, DIM) for ch in text]
            for dx, (ch, st) in enumerate(cells):
                chars[y][x0 + dx], styles[y][x0 + dx] = ch, st


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
        text.append(f"  {turn_and_round(state)}  Bag {sum(state.bag.values())}")
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
        place = m.city_at.get(h)
        if place is not None:
            colour = state.colour[place.id]
            text.append(board_layout(rules).code_of[h], style=_chip_style(colour))
            text.append(" ")
            text.append(place.name, style="bold")
            text.append(f", {colour} city", style=CITY_STYLES.get(colour, ""))
            cubes = [c for c, k in state.cubes[place.id].items() for _ in range(k)]
            if cubes:
                text.append(": cubes ")
                for i, c in enumerate(cubes):
                    text.append(", " if i else "")
                    text.append(c, style=CUBE_STYLES.get(c, "bold"))
            elif place.id in state.markers:
                text.append(": emptied (an empty-city marker)")
            elif colour == GRAY:
                text.append(": no cubes; may be urbanized")
            else:
                text.append(": no cubes")
            return text
        terrain = m.terrain[h]
        cost = TERRAIN_COSTS.get(terrain)
        text.append(rules.hex_name(h))
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
