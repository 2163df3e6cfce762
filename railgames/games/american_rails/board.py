"""The American Rails board: the hex map of the eastern United States drawn as text.

Each hex is three cells wide and two rows tall, four columns apart, odd rows
shifted two columns to the right (pointy tops, like the printed board)::

    4/2  ♣    8■5     ▲
    C     A   A N    $5

Every mark has a glyph or a letter as well as a colour, so the board reads in 16
colours, with NO_COLOR and for colour-blind players:

* ``4/2``  a city: full value / shared value; ``4^2`` once developed (the
  marker is a house); ``8■5`` a city that is never developed
* ``.``  plains, ``♣`` forest, ``▲`` mountain
* ``A N C M L R``  the companies' cubes, each its colour and letter; a hex
  with more than three shows two letters and the count
* ``$5``  on a highlighted hex: a cube of the company being expanded may go
  there now, for that price (paid from its treasury)
* reverse video: the board cursor

Hexes are named ``"column,row"``; that string is the ``city`` the board's
``CityChosen`` and ``CursorMoved`` messages carry.
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
from railgames.app.widgets.quiet import QuietStatic
from railgames.core.hexgrid import Hex
from railgames.games.american_rails.board_map import AmericanRailsMap
from railgames.games.american_rails.rules import ACTION_TRACK, AmericanRailsRules
from railgames.games.american_rails.state import ARState, Step

HEX_WIDTH = 4
TERRAIN_GLYPHS = {"plains": ".", "forest": "♣", "mountain": "▲"}
TERRAIN_STYLES = {"plains": "dim", "forest": "green", "mountain": "yellow"}
DEVELOPED_MARK = "^"
NEVER_MARK = "■"
VALUE_MARK = "/"

# Company colour -> style of its cube chip (16 ANSI colours only).
COMPANY_STYLES: dict[str, str] = {
    "white": "bold black on bright_white",
    "grey": "bold bright_white on bright_black",
    "green": "bold black on bright_green",
    "yellow": "bold black on bright_yellow",
    "red": "bold bright_white on red",
    "blue": "bold bright_white on blue",
}

PLAIN = Style()
LEGAL = Style(bold=True, underline=True)


def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


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


class HexLayout:
    """Where each hex goes on the text grid; no Textual."""

    def __init__(self, game_map: AmericanRailsMap) -> None:
        self.map = game_map
        self.centre: dict[Hex, Cell] = {}
        for h in game_map.terrain:
            col, row = game_map.offset_of(h)
            self.centre[h] = (HEX_WIDTH * col + 1 + (2 if row & 1 else 0), 2 * row)
        self.width = max(x for x, _ in self.centre.values()) + 2
        self.height = max(y for _, y in self.centre.values()) + 2
        self.id_of: dict[Hex, str] = {h: hex_id(*game_map.offset_of(h)) for h in game_map.terrain}
        self.hex_of: dict[str, Hex] = {i: h for h, i in self.id_of.items()}
        self.owner: dict[Cell, Hex] = {}
        for h, (x, y) in self.centre.items():
            for dx in (-1, 0, 1):
                for dy in (0, 1):
                    self.owner[(x + dx, y + dy)] = h
        self.hexes_on_row: dict[int, list[Hex]] = {}
        for h, (_, y) in sorted(self.centre.items(), key=lambda kv: kv[1]):
            self.hexes_on_row.setdefault(y, []).append(h)

    def region(self, h: Hex) -> Region:
        x, y = self.centre[h]
        return Region(x - 1, y, 3, 2)

    def step(self, origin: Hex, direction: str, home_x: int) -> Hex | None:
        """The hex a cursor move lands on: along the row, or the nearest hex a row up or down."""
        x, y = self.centre[origin]
        if direction in ("left", "right"):
            sign = 1 if direction == "right" else -1
            row = [h for h in self.hexes_on_row[y] if (self.centre[h][0] - x) * sign > 0]
            return min(row, key=lambda h: abs(self.centre[h][0] - x), default=None)
        sign = 1 if direction == "down" else -1
        best: tuple[int, int, Hex] | None = None
        for h, (hx, hy) in self.centre.items():
            rows = (hy - y) * sign // 2
            if rows <= 0 or abs(hx - x) > 2 * rows + 2:
                continue
            key = (rows, abs(hx - home_x), h)
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

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Choose hex"),
    ]

    layout_: HexLayout
    state: ARState | None
    ruleset: AmericanRailsRules

    def __init__(self, ruleset: AmericanRailsRules, *, id: str | None = None) -> None:
        layout = HexLayout(ruleset.map)
        start = layout.id_of[ruleset.map.city_hex["PIT"]] if "PIT" in ruleset.map.city_hex else \
            next(iter(layout.hex_of))
        super().__init__(ruleset, layout, start, id=id)
        self._home_x = self.layout_.centre[self.cursor_hex][0]
        # The company whose legal hexes are highlighted (their prices are drawn on them).
        self.expanding: str | None = None

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

    def hex_text(self, city: str) -> str:
        """The two lines of a hex, as drawn, joined by '|'."""
        x, y = self.layout_.centre[self.layout_.hex_of[city]]
        top = "".join(ch for ch, _ in self._rows[y][x - 1:x + 2])
        bottom = "".join(ch for ch, _ in self._rows[y + 1][x - 1:x + 2])
        return f"{top}|{bottom}"

    def action_move_cursor(self, direction: str) -> None:
        target = self.layout_.step(self.cursor_hex, direction, self._home_x)
        if target is not None:
            self.move_cursor_to(self.layout_.id_of[target], home=direction in ("left", "right"))

    def _city_at(self, cell: Cell) -> str | None:
        h = self.layout_.owner.get(cell)
        return None if h is None else self.layout_.id_of[h]

    def _cursor_rows(self, city: str) -> Iterable[int]:
        y = self.layout_.centre[self.layout_.hex_of[city]][1]
        return (y, y + 1)

    def _cursor_columns(self, row: int) -> Sequence[int]:
        x, y = self.layout_.centre[self.cursor_hex]
        return (x - 1, x, x + 1) if row in (y, y + 1) else ()

    def _cursor_style(self, style: Style) -> Style:
        if style.bgcolor is not None and style.color is not None:
            return style + Style(color=style.bgcolor, bgcolor=style.color, underline=True)
        return style + CURSOR

    def _build_scene(self) -> None:
        lay = self.layout_
        rules = self.ruleset
        m = lay.map
        state = self.state
        chars = [[" "] * lay.width for _ in range(lay.height)]
        styles = [[PLAIN] * lay.width for _ in range(lay.height)]
        board = state.hexes if state is not None else {}
        letters = {c.id: c.letter for c in m.companies}
        chip = {c.id: STYLE(COMPANY_STYLES.get(c.colour, "bold reverse")) for c in m.companies}
        highlighted = {lay.hex_of[i] for i in self.highlighted if i in lay.hex_of}
        for h, (x, y) in lay.centre.items():
            terrain = m.terrain[h]
            city = m.city_at.get(h)
            top: list[tuple[str, Style]]
            if h in highlighted and self.expanding and state is not None:
                price = f"${rules.cube_cost(state, h)}"
                top = [(ch, LEGAL) for ch in price.ljust(3)[:3]]
            elif city is not None:
                mark = city_mark(rules, state, city.id)
                developed = state is not None and city.id in state.developed
                style = STYLE("bold bright_white" if developed else "bold")
                top = [(ch, style) for ch in mark]
                if h in highlighted:
                    top = [(ch, LEGAL) for ch in mark]
            else:
                glyph = TERRAIN_GLYPHS.get(terrain, "?")
                style = LEGAL if h in highlighted else STYLE(TERRAIN_STYLES.get(terrain, ""))
                top = [(" ", PLAIN), (glyph, style), (" ", PLAIN)]
            here = board.get(h, [])
            if len(here) <= 3:
                bottom = [(letters[c], chip[c]) for c in here]
            else:
                bottom = [(letters[here[0]], chip[here[0]]), (letters[here[1]], chip[here[1]]),
                          (f"{len(here) - 2}"[-1], STYLE("bold"))]
            bottom += [(" ", PLAIN)] * (3 - len(bottom))
            for i in range(3):
                chars[y][x - 1 + i], styles[y][x - 1 + i] = top[i]
                chars[y + 1][x - 1 + i], styles[y + 1][x - 1 + i] = bottom[i]
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
    """Under the board: the hex under the cursor, and, while expanding, what a cube of
    the company being expanded would cost there and how it would change incomes."""

    DEFAULT_CSS = """
    AmericanRailsTrack {
        height: auto;
        padding: 0 1;
        border-top: solid $panel;
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
        parent = self.parent
        boards = list(parent.query(AmericanRailsBoard)) if parent is not None else []
        self.board = boards[0] if boards else None
        super().on_mount()

    @property
    def expanding(self) -> str | None:
        return self.board.expanding if self.board is not None else None

    def compose(self) -> Any:
        yield QuietStatic(id="ar-cursor")

    def update_state(self, state: ARState) -> None:
        self.state = state
        self.names = [p.name for p in state.players]
        if not self.is_mounted:
            return
        self._show_cursor()

    def _show_cursor(self) -> None:
        if self.state is not None and self.cursor is not None and self.is_mounted:
            self.query_one("#ar-cursor", Static).update(self.hex_line(self.state, self.cursor))

    def hex_line(self, state: ARState, city: str) -> Text:
        rules = self.ruleset
        m = rules.map
        col, row = (int(p) for p in city.split(","))
        h = m.hex_of(col, row)
        text = Text("Cursor ", style="bold")
        if h not in m.terrain:
            return text
        place = m.city_at.get(h)
        if place is not None:
            text.append(place.name, style="bold")
            text.append(f" {city_mark(rules, state, place.id)}")
            if place.never_develop:
                text.append(" (never developed)", style="dim")
            elif place.id in state.developed:
                text.append(" (developed)")
        else:
            text.append(f"{m.terrain[h]} [{city}]")
        for c in state.hexes.get(h, []):
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
