"""How Railways of the World is presented in the app: labels, choice trees, panels.

Building goes hex by hex: the board highlights the hexes the next tile may go
on; after one is picked the list offers its ways out, each with its cost
(ridges included) and the bonds it would issue. Delivering lists the cities
with cubes on the board, then the cube's colour, then every legal route with
who earns what. Legality comes from the rules' prompt only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from railgames.app.gameui import Choice, GameUI, Highlight, Hotkey, append_seat
from railgames.app.palette import player_letters, player_style
from railgames.core.engine import Prompt
from railgames.games.railways_of_the_world.actions import (
    Cancel,
    Choose,
    Deliver,
    EndBuild,
    LayTrack,
    PassAction,
    PassBid,
    UpgradeEngine,
    Urbanize,
)
from railgames.games.railways_of_the_world.board import (
    CITY_STYLES,
    RotwTrack,
    city_letter,
    cube_text,
    hex_id,
)
from railgames.games.railways_of_the_world.rules import (
    MAX_TILES,
    URBANIZE_COST,
    RailwaysOfTheWorldRules,
    money,
    plural,
)
from railgames.games.railways_of_the_world.state import RotwState, Step

END_KEY = "end"
CANCEL_KEY = "cancel"


class RotwUI(GameUI):
    ruleset: RailwaysOfTheWorldRules
    players_title = "Railroads"
    # Folded away on a small screen with the players: the markers' line
    # (empty cities, the bag, the new cities).
    folding = (*GameUI.folding, "#rotw-markers")

    # ------------------------------------------------------------ labels
    def hex_name(self, offset: Sequence[int]) -> str:
        h = self.ruleset.hex_at(offset[0], offset[1])
        return "off the board" if h is None else self.ruleset.hex_name(h)

    def bonds_note(self, state: RotwState, seat: int, cost: int) -> str:
        bonds = self.ruleset.bonds_needed(state, seat, cost)
        return f", issues {plural(bonds, 'bond')}" if bonds else ""

    def tile_cost(self, state: RotwState, a: LayTrack) -> tuple[int, int]:
        rules = self.ruleset
        h, entry, exit_ = (rules.hex_at(*a.hex), rules.hex_at(*a.entry), rules.hex_at(*a.exit))
        assert h is not None and entry is not None and exit_ is not None
        new_link = entry in rules.map.city_at
        return rules.lay_cost(entry, h, exit_, new_link)

    def lay_label(self, state: RotwState, a: LayTrack) -> str:
        cost, ridges = self.tile_cost(state, a)
        ridge = f" incl. {plural(ridges, 'ridge')}" if ridges else ""
        rules = self.ruleset
        h, entry, exit_ = (rules.hex_at(*a.hex), rules.hex_at(*a.entry), rules.hex_at(*a.exit))
        assert h is not None and entry is not None and exit_ is not None
        ends = " (completes the link)" if exit_ in rules.map.city_at else ""
        return (f"{rules.side_name(h, entry)}, {rules.way_name(h, exit_)}{ends}: "
                f"{money(cost)}{ridge}{self.bonds_note(state, a.seat, cost)}")

    def route_label(self, state: RotwState, a: Deliver, names: Sequence[str]) -> str:
        rules = self.ruleset
        city = a.city
        stops = []
        gains: dict[int, int] = {}
        for link_id in a.links:
            link = state.links[link_id]
            city = link.end if city == link.start else link.start  # type: ignore[assignment]
            stops.append(rules.city_name(city))
            gains[link.owner] = gains.get(link.owner, 0) + 1
        earn = ", ".join(f"{names[s]} +{k}" for s, k in sorted(gains.items()))
        return f"→ {' → '.join(stops)}  ({earn})"

    def describe(self, state: Any, action: Any, names: Sequence[str]) -> str:
        if isinstance(action, LayTrack):
            return f"Lay track on {self.hex_name(action.hex)} {self.lay_label(state, action)}"
        if isinstance(action, Deliver):
            return (f"Deliver a {action.colour} cube from {self.ruleset.city_name(action.city)} "
                    + self.route_label(state, action, names))
        if isinstance(action, Urbanize):
            return (f"Urbanize {self.ruleset.city_name(action.city)} with a {action.colour} "
                    f"tile, {money(URBANIZE_COST)}"
                    f"{self.bonds_note(state, action.seat, URBANIZE_COST)}")
        if isinstance(action, UpgradeEngine):
            cost = self.ruleset.map.engine_costs[action.level]
            return (f"Upgrade the engine to level {action.level}, {money(cost)}"
                    f"{self.bonds_note(state, action.seat, cost)}")
        if isinstance(action, Choose):
            if action.action == "urbanize":
                return (f"Urbanize a gray city, {money(URBANIZE_COST)}"
                        f"{self.bonds_note(state, action.seat, URBANIZE_COST)}")
            return {"build": "Build track", "deliver": "Deliver a goods cube"}[action.action]
        if isinstance(action, PassAction):
            return "Pass this round"
        if isinstance(action, PassBid):
            return "Pass (out of this auction)"
        if isinstance(action, EndBuild):
            return "End the build (the link stays unfinished)"
        if isinstance(action, Cancel):
            return "Cancel: choose another action"
        return super().describe(state, action, names)

    # ------------------------------------------------------------ choice trees
    def choices(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Choice]:
        """Every place is chosen on the board: a tile's hex, then the hex it heads
        into; a delivery's city, its cube (a list), then the city it goes to. A list
        of the ways that end alike follows only where there is more than one (a tile
        that two links could take; two routes to one city)."""
        out: list[Choice] = []
        lays = [a for a in prompt.choices if isinstance(a, LayTrack)]
        ways: dict[tuple[str, str], int] = {}
        for a in lays:
            pair = (hex_id(*a.hex), hex_id(*a.exit))
            ways[pair] = ways.get(pair, 0) + 1
        routes: dict[tuple[str, str, str], int] = {}
        for a in prompt.choices:
            if isinstance(a, Deliver):
                ends = (a.city, a.colour, self._destination(state, a))
                routes[ends] = routes.get(ends, 0) + 1
        for a in prompt.choices:
            if isinstance(a, LayTrack):
                pair = (hex_id(*a.hex), hex_id(*a.exit))
                label = self.lay_label(state, a)
                keys, labels = list(pair), [f"Tile on {self.hex_name(a.hex)}", label]
                if ways[pair] > 1:
                    keys.append(hex_id(*a.entry))
                    labels.append(label)
                out.append(Choice(keys, labels, a))
            elif isinstance(a, Urbanize):
                c = self.ruleset.map.city_by_id[a.city]
                left = state.tiles_left[a.colour]
                out.append(Choice([hex_id(c.col, c.row), a.colour],
                                  [f"{c.name} (gray)", f"{a.colour} New City tile ({left} left)"], a))
            elif isinstance(a, Deliver):
                c = self.ruleset.map.city_by_id[a.city]
                here = "".join(city_letter(k) * n for k, n in state.cubes[a.city].items())
                to = self._destination(state, a)
                route = self.route_label(state, a, names)
                keys = [hex_id(c.col, c.row), a.colour, self._city_hex(to)]
                labels = [f"{c.name}, cubes {here}", f"a {a.colour} cube ({city_letter(a.colour)})",
                          route]
                if routes[(a.city, a.colour, to)] > 1:
                    keys.append(",".join(a.links))
                    labels.append(route)
                out.append(Choice(keys, labels, a))
            elif isinstance(a, EndBuild):
                out.append(Choice([END_KEY], ["End the build  (e)"], a))
            elif isinstance(a, Cancel):
                out.append(Choice([CANCEL_KEY], [self.describe(state, a, names)], a))
            elif isinstance(a, PassAction | PassBid):
                out.append(Choice(["pass"], [self.describe(state, a, names) + "  (p)"], a))
            else:
                key = a.action if isinstance(a, Choose) else a.type
                out.append(Choice([key], [self.describe(state, a, names)], a))
        return out

    def level_title(self, state: Any, prompt: Prompt, prefix: list[str]) -> str:
        if state.step is Step.BUILD:
            b = state.building
            so_far = f"{b.laid}/{MAX_TILES} tiles, {money(b.cost)}" if b else ""
            if len(prefix) > 1:
                return f"Build ({so_far}): which link does the tile carry on?"
            if prefix:
                return f"Build ({so_far}): which way does the tile go? Point at a + hex"
            return f"Build ({so_far}): the next tile goes on a + hex"
        if state.step is Step.URBANIZE:
            return "Urbanize: which gray city?" if not prefix else "Which New City tile?"
        if state.step is Step.DELIVER:
            return ["Deliver from which city?", "Which cube?", "To which city? Point at a + city",
                    "Which route?"][min(len(prefix), 3)]
        p = state.players[prompt.seat]
        return (f"Round {state.round}: {money(p.cash)}, {plural(p.bonds, 'bond')}, "
                f"engine {p.engine}")

    def board_level(self, state: Any, prompt: Prompt, prefix: list[str]) -> bool:
        # The places: a tile's hex and the hex it heads into, a gray city, the city a
        # cube leaves and the city it goes to.
        if state.step is Step.BUILD:
            return len(prefix) < 2 and any(isinstance(a, LayTrack) for a in prompt.choices)
        if state.step is Step.URBANIZE:
            return not prefix
        if state.step is Step.DELIVER:
            return len(prefix) in (0, 2)
        return False

    def highlight(self, state: Any, prompt: Prompt, prefix: list[str], option: str | None) -> Highlight:
        rules = self.ruleset
        if state.step is Step.BUILD:
            lays = [a for a in prompt.choices if isinstance(a, LayTrack)]
            if not prefix:
                return Highlight(cities=sorted({hex_id(*a.hex) for a in lays}))
            picked = [a for a in lays if hex_id(*a.hex) == prefix[0]]
            return Highlight(cities=sorted({hex_id(*a.exit) for a in picked}), path=[prefix[0]])
        if state.step is Step.URBANIZE and not prefix:
            return Highlight(cities=sorted({self._city_hex(a.city) for a in prompt.choices
                                            if isinstance(a, Urbanize)}))
        if state.step is Step.DELIVER:
            dels = [a for a in prompt.choices if isinstance(a, Deliver)]
            if not prefix:
                return Highlight(cities=sorted({self._city_hex(a.city) for a in dels}))
            if len(prefix) >= 2:
                routes = [a for a in dels if self._city_hex(a.city) == prefix[0]
                          and a.colour == prefix[1]]
                ends = {self._city_hex(self._destination(state, a)) for a in routes}
                if len(prefix) > 2:  # one of the routes to the city pointed at
                    routes = [a for a in routes
                              if self._city_hex(self._destination(state, a)) == prefix[2]]
                path: list[str] = []
                for a in routes:
                    if option in (",".join(a.links), self._city_hex(self._destination(state, a))):
                        path = [hex_id(*rules.offset(h)) for k in a.links
                                for h in state.links[k].tiles]
                        break
                return Highlight(cities=sorted(ends), path=path)
        return Highlight()

    def _city_hex(self, city: str) -> str:
        c = self.ruleset.map.city_by_id[city]
        return hex_id(c.col, c.row)

    @staticmethod
    def _destination(state: RotwState, a: Deliver) -> str:
        city = a.city
        for link_id in a.links:
            link = state.links[link_id]
            city = link.end if city == link.start else link.start  # type: ignore[assignment]
        return city

    def hotkeys(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Hotkey]:
        keys: list[Hotkey] = []
        for a in prompt.choices:
            if isinstance(a, PassAction | PassBid):
                keys.append(Hotkey("p", "Pass", a))
            elif isinstance(a, EndBuild):
                keys.append(Hotkey("e", "End build", a))
        return keys

    def amount_context(self, state: Any, prompt: Prompt, names: Sequence[str]) -> str:
        a = state.auction
        if a is None:
            return ""
        me = state.players[prompt.seat]
        high = (f"High bid {money(a.high_bid)} by {names[a.high_seat]}."
                if a.high_seat is not None else "No bid yet.")
        still = ", ".join(names[s] for s in a.bidders)
        low = prompt.amount.min if prompt.amount else 0
        return (f"{high} Still in: {still}.\nYou have {money(me.cash)}; winning at "
                f"{money(low)} would issue {plural(self.ruleset.bonds_needed(state, prompt.seat, low), 'bond')}.")

    # ------------------------------------------------------------ state as text
    def players_table(self, state: Any, names: Sequence[str], kinds: Sequence[str],
                      to_move: int | None) -> RenderableType:
        letters = player_letters(names)
        # One space between columns: the table keeps to 34 columns under the map.
        table = Table(box=None, expand=True, padding=(0, 1), collapse_padding=True,
                      show_edge=False)
        table.add_column("Player", no_wrap=True, ratio=3)
        table.add_column("Cash", justify="right", no_wrap=True)
        table.add_column("Bd", justify="right", no_wrap=True)
        table.add_column("Inc", justify="right", no_wrap=True)
        table.add_column("Eng", justify="right", no_wrap=True)
        for seat, p in enumerate(state.players):
            mark = "▶" if seat == to_move else " "
            name = Text(mark, style="bold")
            name.append(f" {letters[seat]} ", style="reverse " + player_style(seat))
            append_seat(name, p.name, kinds[seat], player_style(seat))
            if seat == state.first:
                name.append(" ★", style="bold")
            table.add_row(name, money(p.cash), str(p.bonds), str(p.income), str(p.engine))
        return table

    def preview(self, width: int = 40, height: int = 12) -> Text:
        """The map in miniature: a character per hex, every other row, cities by letter."""
        m = self.ruleset.map
        cells: dict[tuple[int, int], tuple[str, str]] = {}
        for h, terrain in m.terrain.items():
            col, row = m.offset_of(h)
            city = m.city_at.get(h)
            if city is not None:
                cells[(col, row)] = (city_letter(city.colour), CITY_STYLES.get(city.colour, ""))
            elif terrain != "partial":
                cells[(col, row)] = ({"mountain": "^", "water": "~"}.get(terrain, "·"), "dim")
        rows = max(r for _, r in cells) + 1
        cols = min(max(c for c, _ in cells) + 1, width)
        step = max(1, -(-rows // height))
        text = Text(no_wrap=True, overflow="crop")
        lines = []
        for row in range(0, rows, step):
            line = Text()
            for col in range(cols):
                # A city in the skipped rows still shows.
                picks = [cells.get((col, r)) for r in range(row, min(row + step, rows))]
                named = next((p for p in picks if p and p[0].isalpha()), None)
                ch, style = named or picks[0] or (" ", "")
                line.append(ch, style=style)
            line.rstrip()
            lines.append(line)
        text.append_text(Text("\n").join(lines))
        return text

    def board_extras(self) -> list[Any]:
        return [RotwTrack(self.ruleset, id="rotw-track")]

    def legend(self) -> RenderableType | None:
        """The key drawn on the map, as lines under it: at 80 columns the map's own is
        off to the side of the view."""
        from railgames.games.railways_of_the_world.board import LEGEND

        table = Table.grid(padding=(0, 2), expand=False)
        for _ in range(3):
            table.add_column(no_wrap=True)
        width = max(len(glyph) for glyph, _, _ in LEGEND) + 1  # a space after the longest
        cells = [Text.assemble((glyph.ljust(width), style), (text, "dim"))
                 for glyph, style, text in LEGEND]
        for row in range(0, len(cells), 3):
            table.add_row(*cells[row:row + 3])
        return table

    def final_scores(self, state: Any, names: Sequence[str]) -> RenderableType | None:
        if state.final is None:
            return None
        result = self.ruleset.result(state)
        winners = set(result.winners) if result else set()
        table = Table(expand=False, padding=(0, 1))
        for col in ("Player", "Income", "Bonds", "Points", "Links", "Cash"):
            table.add_column(col, justify="left" if col == "Player" else "right")
        order = sorted(range(len(state.players)),
                       key=lambda s: [-v for v in (state.final[state.players[s].name]["total"],
                                                   state.final[state.players[s].name]["links"],
                                                   state.final[state.players[s].name]["cash"])])
        for seat in order:
            p = state.players[seat]
            parts = state.final[p.name]
            star = "★ " if p.name in winners else "  "
            table.add_row(Text(star + p.name, style=player_style(seat)), str(parts["income"]),
                          str(parts["bonds"]), Text(str(parts["total"]), style="bold"),
                          str(parts["links"]), money(parts["cash"]))
        note = Text("Points are the income space less one per bond; ties go to more "
                    "complete links, then more money.", style="dim")
        return Group(table, note)

    def cubes_of(self, state: RotwState, city: str) -> Text:
        return cube_text(state.cubes[city])
