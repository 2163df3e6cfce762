"""The New England Railways board: the map file's text grid, drawn with the Line API.

The map file's grid is the picture. On top of it the board draws each Railway
Link as a line between its two cities (through the link's ``via`` points, over
blank cells only, never over a label), each city's demand colour and the cubes
waiting there, the board cursor, and the cities or path the current step
highlights.

Everything that carries meaning has a letter or a glyph as well as a colour,
so the board reads in 16 colours, with NO_COLOR, and for colour-blind players:

* ``··········``  a link nobody owns yet (faint dots)
* ``━━━1━━━``     offered in this turn's auction, slot 1, 2, ...
* ``╌╌╌a╌╌╌``     publicised for next turn, slot a, b, ...
* ``A═A═A═A``     built, owned by the player whose letter is A (slanted: ``A╱A``)
* ``A╌╌A╌╌A``     bought by A but not built yet (slanted: ``A⋰⋰A``)

An owned link always carries its owner's letter, a link of one or two cells
too (on the cell a slot number would take, clear of the labels).
* ``Boston·R``    Boston demands red cubes; ``[BBP]`` under it: cubes waiting there
* ``▸Boston``     a city the current step lets you choose (also underlined)

Rendered rows are cached. A state change recomputes the cells of the board,
compares them with the cached rows and refreshes only the spans that changed;
a cursor move touches only the two labels involved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.widgets import Static

from railgames.app.palette import (
    commodity_letter,
    commodity_style,
    player_letters,
    player_style,
)
from railgames.app.widgets.board_base import STYLE, BoardPanel, Cell
from railgames.app.widgets.graph_board import (
    GraphBoard,
    GraphLayout,
    LabelPlace,
    LinkPath,
)
from railgames.app.widgets.quiet import QuietStatic
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.rules import NewEnglandRules
from railgames.games.new_england.state import NEState

# Line glyphs by direction: horizontal, vertical, rising (/), falling (\).
OFFERED_GLYPHS = ("━", "┃", "╱", "╲")
# Dashed where not built yet: slanted too, so a slanted built link (solid) is told from
# one still to be built without its colour (NO_COLOR, a 16-colour terminal).
NEXT_GLYPHS = ("╌", "╎", "⋰", "⋱")
BUILT_GLYPHS = ("═", "║", "╱", "╲")
UNFINISHED_GLYPHS = ("╌", "╎", "⋰", "⋱")
UNBUILT_GLYPH = "·"
HIGHLIGHT_MARK = "▸"
DEMAND_SEPARATOR = "·"
MAX_CUBE_LETTERS = 6  # beyond this a city's cubes are shown as counts: [B3 P2 R2]
MIN_CUBE_ROOM = 8  # room wanted under (or over) a label for its cubes

NEXT_SLOT_MARKS = "abcdefghij"


def slot_mark(index: int) -> str:
    """Mark on the board for the link in this turn's slot ``index`` (0-based)."""
    return str(index + 1) if index < 9 else "+"


def next_slot_mark(index: int) -> str:
    """Mark for a link publicised for next turn, slot ``index`` (0-based)."""
    return NEXT_SLOT_MARKS[index] if index < len(NEXT_SLOT_MARKS) else "+"


def cube_text(cubes: dict[str, int], room: int = 99) -> str:
    """``[BBP]`` for a few cubes, ``[B3 P2 R2]`` for many, ``[7]`` when even that is too long.

    Empty when there are none.
    """
    counts = [(commodity_letter(colour), n) for colour, n in sorted(cubes.items()) if n > 0]
    total = sum(n for _, n in counts)
    if not total:
        return ""
    letters = "[" + "".join(letter * n for letter, n in counts) + "]"
    if total <= MAX_CUBE_LETTERS and len(letters) <= room:
        return letters
    grouped = "[" + " ".join(f"{letter}{n}" for letter, n in counts) + "]"
    if len(grouped) <= room:
        return grouped
    tight = "[" + "".join(f"{letter}{n}" for letter, n in counts) + "]"
    if len(tight) <= room:
        return tight
    return f"[{total}]"[:room] if room >= 3 else str(min(total, 9))[:room]


# ------------------------------------------------------------------- geometry


@dataclass
class CityPlace(LabelPlace):
    demand_cells: list[Cell] = field(default_factory=list)  # '·' and the demand letter
    marker: Cell | None = None  # where the highlight mark goes, left of the label
    cube_row: int | None = None  # row where waiting cubes are listed, from col0
    cube_cols: tuple[int, int] = (0, 0)  # first column, last column + 1 usable for cubes


class BoardLayout(GraphLayout):
    """Where everything goes on the text grid; computed once per map, no Textual."""

    map: NewEnglandMap

    def __init__(self, game_map: NewEnglandMap) -> None:
        # Room for the demand marker of a label touching the right edge.
        super().__init__(game_map, right_margin=2)
        spans = game_map.label_spans

        self.places: dict[str, CityPlace] = {}
        reserved: set[Cell] = set(self.label_owner)
        for cid, (row, c0, c1) in spans.items():
            place = CityPlace(row, c0, c1)
            cells = [(c1, row), (c1 + 1, row)]
            if all(cell not in self.label_owner for cell in cells):
                place.demand_cells = cells
            if c0 > 0 and (c0 - 1, row) not in self.label_owner:
                place.marker = (c0 - 1, row)
            self.places[cid] = place
            reserved.update(place.demand_cells)
        self.reserved = reserved
        for place in self.places.values():
            self._place_cubes(place)

        # Cells that belong to a city, for clicks: its label, demand marker and cube list.
        self.city_at: dict[Cell, str] = dict(self.label_owner)
        for cid, place in self.places.items():
            for cell in place.demand_cells:
                self.city_at.setdefault(cell, cid)

        # Links keep one blank cell from each label and demand mark, so an owner's
        # letter never reads as part of a name; on a cramped grid they may touch.
        spaced = set(reserved)
        for place in self.places.values():
            if place.marker is not None:
                spaced.add(place.marker)
            after = place.demand_cells[-1][0] + 1 if place.demand_cells else place.col1
            spaced.add((after, place.row))
        self.links: dict[str, LinkPath] = {}
        for link in game_map.links:
            points = [self.anchors[link.a], *link.via, self.anchors[link.b]]
            path = self.trace(points, spaced)
            self.links[link.id] = path if path.cells else self.trace(points, reserved)
        marked = set(reserved)
        for place in self.places.values():
            if place.marker is not None:
                marked.add(place.marker)
        # Numbers on the links keep clear of labels and of where cubes are listed.
        cube_starts = {(col, place.cube_row) for place in self.places.values()
                       if place.cube_row is not None
                       for col in range(place.cube_cols[0], min(place.cube_cols[1], place.cube_cols[0] + 4))}
        self.place_marks(self.links, reserved, cube_starts)
        self.near_labels = self.beside(marked)  # no owner's letter here
        # Cubes are listed again, now keeping a blank short of every link's number.
        self.numbers = {path.cells[path.middle] for path in self.links.values() if path.cells}
        for place in self.places.values():
            place.cube_row, place.cube_cols = None, (0, 0)
            self._place_cubes(place)

    def _place_cubes(self, place: CityPlace) -> None:
        """Cubes are listed under the label, else above it, over blanks, coast and borders only."""
        best: tuple[int, int, int] | None = None
        for row in (place.row + 1, place.row - 1):
            if not 0 <= row < self.height:
                continue
            start = end = place.col0
            if start > 0 and (start - 1, row) in self.reserved:
                continue  # right after another city's name, the cubes would read as its own
            while end < self.width and not self._blocks_cubes(end, row):
                end += 1
            if end - start >= MIN_CUBE_ROOM:
                place.cube_row, place.cube_cols = row, (start, end)
                return
            if best is None or end - start > best[2] - best[1]:
                best = (row, start, end)
        if best is not None and best[2] > best[1]:
            place.cube_row, place.cube_cols = best[0], (best[1], best[2])

    def _blocks_cubes(self, col: int, row: int) -> bool:
        # Labels, demand marks, links' numbers and the grid's own words stay readable.
        numbers = getattr(self, "numbers", ())
        return ((col, row) in self.reserved or self.chars[row][col].isalnum()
                or (col, row) in numbers or (col + 1, row) in numbers)


# ------------------------------------------------------------------- styles

DIM = Style(dim=True)
PLAIN = Style()
BOLD = Style(bold=True)
OFFERED = Style(bold=True)
OFFERED_MARK = Style(bold=True, reverse=True)
NEXT = Style(italic=True)
NEXT_MARK = Style(italic=True, reverse=True)
HIGHLIGHTED = Style(bold=True, underline=True)
PATH = Style(bold=True, reverse=True)


# ------------------------------------------------------------------- widget


class NewEnglandBoard(GraphBoard):
    """The New England Railways map, with a city cursor."""

    DEFAULT_CSS = """
    NewEnglandBoard {
        scrollbar-size: 1 1;
    }
    """
    SCREEN_CSS = """
    /* from 160 columns its 96-column map is shown whole (no
       scrolling as the cursor moves), the side panel taking what is left */
    GameScreen.game-new-england.roomy #board-box { width: 98; }
    GameScreen.game-new-england.roomy #side { width: 1fr; }
    """

    layout_: BoardLayout
    state: NEState | None
    _cube_texts: dict[str, str]  # each city's cube list as drawn (for clicks)

    def __init__(self, ruleset: NewEnglandRules, *, id: str | None = None) -> None:
        layout = BoardLayout(ruleset.map)
        super().__init__(ruleset, layout, dict(layout.places), id=id)

    def city_region(self, city: str) -> Region:
        """The cells of a city's label and annotations, in board (virtual) coordinates."""
        place = self.layout_.places[city]
        x0 = place.marker[0] if place.marker else place.col0
        x1 = place.demand_cells[-1][0] + 1 if place.demand_cells else place.col1
        return Region(x0, place.row, x1 - x0, 1)

    def label_regions(self) -> dict[str, Region]:
        """Each city's label with its marks, and the list of cubes waiting there."""
        regions = {}
        for cid, place in self.layout_.places.items():
            region = self.city_region(cid)
            if place.marker is not None and cid not in self.highlighted:
                region = Region(region.x + 1, region.y, region.width - 1, 1)  # a blank cell
            regions[cid] = region
        for cid, text in self._cube_texts.items():
            place = self.layout_.places[cid]
            if place.cube_row is not None:
                regions[f"{cid} cubes"] = Region(place.cube_cols[0], place.cube_row, len(text), 1)
        return regions

    def _city_at(self, cell: Cell) -> str | None:
        city = self.layout_.city_at.get(cell)
        if city is not None:
            return city
        col, row = cell
        for cid, place in self.layout_.places.items():
            if place.cube_row == row and place.col0 <= col < place.cube_cols[1]:
                text = self._cube_texts.get(cid, "")
                if col < place.col0 + len(text):
                    return cid
        return None

    def _build_scene(self) -> None:
        """Every cell of the board for the current state and highlights (cursor aside)."""
        lay = self.layout_
        chars = [list(row) for row in lay.chars]
        styles: list[list[Style]] = [
            [PLAIN if ch == " " else DIM for ch in row] for row in chars
        ]
        state = self.state
        # Cubes waiting in each city (worked out first: no owner's letter may touch them).
        self._cube_texts = {}
        cube_cells: set[Cell] = set()
        if state is not None:
            for cid, here in state.cubes.items():
                place = lay.places[cid]
                start, end = place.cube_cols
                text = cube_text(here, end - start)
                if text and place.cube_row is not None:
                    self._cube_texts[cid] = text
                    cube_cells.update((start + i, place.cube_row) for i in range(len(text)))
        # (A letter under a city's cubes would be drawn over: those cells take none either.)
        near = lay.near_labels | lay.beside(cube_cells) | cube_cells

        def draw(link: str, glyphs: tuple[str, ...] | None, style: Style,
                 letter: str | None = None, every: int = 2,
                 mark: str | None = None, mark_style: Style | None = None) -> None:
            path = lay.links[link]
            lettered = False
            for i, ((col, row), d) in enumerate(zip(path.cells, path.directions, strict=True)):
                if glyphs is None:
                    ch = UNBUILT_GLYPH
                elif letter is not None and i % every == 0 and (col, row) not in near:
                    ch, lettered = letter, True
                else:
                    ch = glyphs[d]
                chars[row][col] = ch
                styles[row][col] = style
            if letter is not None and not lettered and path.cells:
                # A short link squeezed between labels: its owner's letter goes where a
                # slot number would, the cell chosen to keep clear of the labels.
                col, row = path.cells[path.middle]
                chars[row][col] = letter
            if mark is not None and path.cells:
                col, row = path.cells[path.middle]
                chars[row][col] = mark
                styles[row][col] = mark_style or style

        owner: dict[str, int] = state.owner if state else {}
        letters = player_letters([r.name for r in state.railways]) if state else []
        current = state.current if state else []
        future = state.future if state else []
        hidden = set(state.set_aside) if state else set()
        special = set(owner) | set(current) | set(future) | hidden
        for link in lay.links:
            if link not in special:
                draw(link, None, DIM)
        for i, link in enumerate(future):
            if link not in owner:
                draw(link, NEXT_GLYPHS, NEXT, mark=next_slot_mark(i), mark_style=NEXT_MARK)
        for link, seat in owner.items():
            style = STYLE(player_style(seat))
            if state is not None and link not in state.built:
                draw(link, UNFINISHED_GLYPHS, style + Style(bold=False), letters[seat], every=3)
            else:
                draw(link, BUILT_GLYPHS, style, letters[seat], every=2)
        for i, link in enumerate(current):
            if link not in owner and link not in hidden:
                draw(link, OFFERED_GLYPHS, OFFERED, mark=slot_mark(i), mark_style=OFFERED_MARK)

        # A highlighted path shows in reverse video over whatever links it follows.
        for a, b in zip(self.path, self.path[1:], strict=False):
            link_obj = lay.map.link_between.get(frozenset((a, b)))
            if link_obj is None:
                continue
            for col, row in lay.links[link_obj.id].cells:
                styles[row][col] = styles[row][col] + PATH

        # Cubes waiting in each city.
        if state is not None:
            for cid, text in self._cube_texts.items():
                place = lay.places[cid]
                here = state.cubes[cid]
                start, cube_row = place.cube_cols[0], place.cube_row
                if cube_row is None:
                    continue
                colour_of = {commodity_letter(c): c for c in here}
                for i, ch in enumerate(text):
                    chars[cube_row][start + i] = ch
                    colour = colour_of.get(ch)
                    styles[cube_row][start + i] = STYLE(commodity_style(colour)) if colour else PLAIN

        # Labels last: nothing is ever drawn over them.
        on_path = set(self.path)
        for city in lay.map.cities:
            place = lay.places[city.id]
            row = place.row
            style = STYLE(commodity_style(city.demand))
            if city.id in self.highlighted or city.id in on_path:
                style = style + HIGHLIGHTED
            for col in range(place.col0, place.col1):
                styles[row][col] = style
            if place.demand_cells:
                (c1, _), (c2, _) = place.demand_cells
                # The separator in the demand's colour: name, dot and letter are one
                # piece of one colour (a grey dot cost two colour changes a city).
                chars[row][c1] = DEMAND_SEPARATOR
                chars[row][c2] = commodity_letter(city.demand)
                styles[row][c1] = styles[row][c2] = STYLE(commodity_style(city.demand))
            if place.marker is not None and city.id in self.highlighted:
                col, _ = place.marker
                chars[row][col] = HIGHLIGHT_MARK
                styles[row][col] = BOLD

        self._scene = [list(zip(cr, sr, strict=True)) for cr, sr in zip(chars, styles, strict=True)]


# ------------------------------------------------------------------- slots


class _AllOwned:
    """A state whose every link is owned (by the first seat): for the longest cursor lines."""

    def __init__(self, state: NEState) -> None:
        self.cubes = state.cubes
        self.railways = state.railways
        self.owner = _Everyone()


class _Everyone(dict[str, int]):
    def get(self, key: str, default: Any = None) -> int:  # type: ignore[override]
        return 0


class NewEnglandSlots(BoardPanel):
    """Under the board: the Railway Link slots (this turn's links and next turn's), a key
    to the board, and a line about the city under the board cursor, named in full.

    Each part is its own widget, so a cursor move repaints the cursor line only.
    """

    DEFAULT_CSS = """
    NewEnglandSlots {
        height: auto;
    }
    NewEnglandSlots Static { height: auto; }
    """

    BOARD_CLASS = NewEnglandBoard

    ruleset: NewEnglandRules
    state: NEState | None

    def __init__(self, ruleset: NewEnglandRules, *, show_key: bool = True,
                 id: str | None = None) -> None:
        super().__init__(ruleset, id=id)
        self.show_key = show_key
        self._cursor_rows = 0  # the cursor line's height at this width (0: not worked out)

    def compose(self) -> Any:
        yield QuietStatic(id="ne-slots")
        yield QuietStatic(id="ne-cursor")

    def update_state(self, state: NEState) -> None:
        self.state = state
        if not self.is_mounted:
            return
        self.query_one("#ne-slots", Static).update(self.describe(state))
        self._show_cursor()

    def _show_cursor(self) -> None:
        if self.state is not None and self.cursor is not None and self.is_mounted:
            line = self.city_line(self.state, self.cursor)
            widget = self.query_one("#ne-cursor", Static)
            self._make_room(widget, line)
            widget.update(line)

    def on_resize(self) -> None:
        self._cursor_rows = 0  # worked out again for the new width
        self._show_cursor()

    def _make_room(self, widget: Static, line: Text) -> None:
        """Keep the cursor line as tall as the longest city's needs at this width.

        A line whose height followed each city (one row here, three there) made every
        such cursor move lay out the screen again and redraw the board above it. The
        height is worked out once per width, for each city with all its links owned,
        and grows (once) if a city's cubes ever need more.
        """
        width = widget.content_region.width or self.content_region.width
        if not width or self.state is None:
            return
        console = self.app.console

        def rows(text: Text) -> int:
            return len(text.wrap(console, width))

        wanted = max(self._cursor_rows, rows(line))
        if not self._cursor_rows:
            owned = _AllOwned(self.state)
            wanted = max([wanted, *(rows(self.city_line(owned, c))  # type: ignore[arg-type]
                                    for c in self.ruleset.map.demand_of)])
        if wanted != self._cursor_rows:
            self._cursor_rows = wanted
            widget.styles.height = wanted

    def city_line(self, state: NEState, city: str) -> Text:
        """The city under the cursor, in full: what it wants, the cubes waiting, its links."""
        rules = self.ruleset
        game_map = rules.map
        letters = player_letters([r.name for r in state.railways])
        demand = game_map.demand_of[city]
        text = Text()
        text.append("Cursor ", style="bold")
        text.append(rules.city_name(city), style=commodity_style(demand) + " underline")
        text.append(" wants ")
        text.append(demand, style=commodity_style(demand))
        cubes = state.cubes.get(city, {})
        waiting = cube_text(cubes)
        text.append(" · cubes ")
        if waiting:
            for ch in waiting:
                colour = next((c for c in cubes if commodity_letter(c) == ch), None)
                text.append(ch, style=commodity_style(colour) if colour else "")
        else:
            text.append("none", style="dim")
        text.append(" · links ")
        at_city = [link for link in game_map.links if city in (link.a, link.b)]
        for i, link in enumerate(at_city):
            if i:
                text.append(", ")
            other = link.b if link.a == city else link.a
            text.append(f"{rules.city_name(other)} {link.value}")
            seat = state.owner.get(link.id)
            if seat is not None:
                text.append(f" {letters[seat]}", style=player_style(seat))
        return text

    def describe(self, state: NEState) -> Text:
        rules = self.ruleset
        letters = player_letters([r.name for r in state.railways])
        text = Text()
        text.append("Now: ", style="bold")
        if not state.current:
            text.append("no links on offer")
        auction_link = state.auction.link if state.auction else None
        for i, link in enumerate(state.current):
            if i:
                text.append("  ")
            if link == auction_link:
                text.append("▶", style="bold")
            text.append(f" {slot_mark(i)} ", style="bold reverse")
            text.append(f" {rules.link_name(link)} ({rules.link_value(link)})",
                        style="bold" if link == auction_link else "")
            seat = state.owner.get(link)
            if seat is not None:
                text.append(" → ")
                text.append(letters[seat], style=player_style(seat))
            elif link in state.set_aside:
                text.append(" set aside", style="dim")
        text.append("\n")
        text.append("Next: ", style="bold")
        if not state.future:
            text.append("to be drawn" if state.link_deck else "none", style="dim")
        for i, link in enumerate(state.future):
            if i:
                text.append("  ")
            text.append(f" {next_slot_mark(i)} ", style="italic reverse")
            text.append(f" {rules.link_name(link)} ({rules.link_value(link)})")
        text.append(f"   Deck: {len(state.link_deck)}", style="dim")
        if self.show_key:
            text.append("\n")
            text.append_text(board_key(letters[0] if letters else "A"))
        return text


def board_key(letter: str = "A") -> Text:
    """One line explaining the board's marks."""
    text = Text(style="dim")
    text.append("━1━", style="bold")
    text.append(" on offer  ")
    text.append("╌a╌", style="italic")
    text.append(" next turn  ")
    text.append(f"{letter}═{letter}", style="bold")
    text.append(" built  ")
    text.append(f"{letter}╌╌{letter}")
    text.append(" being built  ")
    text.append("···")
    text.append(" unowned  ")
    text.append("·R", style="bold")
    text.append(" demand  ")
    text.append("[BP]", style="bold")
    text.append(" cubes")
    return text
