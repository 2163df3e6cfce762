"""How American Rails is presented in the app: labels, choice trees, the players panel
and the final scores.

Everything offered comes from the rules layer's prompt; costs and income changes
come from the rules (``cube_cost``, ``cube_outcome``), never worked out here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from railgames.app.gameui import Choice, GameUI, Highlight, Hotkey, append_seat
from railgames.app.palette import player_letters, player_style
from railgames.core.engine import Prompt
from railgames.games.american_rails.actions import (
    Develop,
    EndAction,
    ExpandTwo,
    Fund,
    OfferShare,
    PassBid,
    PlaceCube,
    PlaceStart,
    TakeSpace,
    TakeTwo,
)
from railgames.games.american_rails.board import (
    COMPANY_STYLES,
    city_code,
    city_mark,
    companies_compact,
    companies_text,
    company_chip,
    hex_id,
    track_compact,
    track_text,
)
from railgames.games.american_rails.places import place_name
from railgames.games.american_rails.rules import AmericanRailsRules
from railgames.games.american_rails.state import ARState, Step

END_KEY = "end"
END_WORD = "End action"  # the footer's word for e (game.py), in every step that offers it
COMPANY_PREFIX = "co:"


class SideBySide:
    """The investors over the companies and the action track, or, where the panel is as
    wide as the screen (and so short), the three side by side in compact form."""

    WIDE_ENOUGH = 76

    def __init__(self, players: Table, stacked: RenderableType, compact: list[Text]) -> None:
        self.players, self.stacked, self.compact = players, stacked, compact

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width < self.WIDE_ENOUGH:
            yield Group(self.players, self.stacked)
            return
        grid = Table.grid(padding=(0, 2), expand=True)
        grid.add_column(ratio=1)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_row(self.players, *self.compact)
        yield grid


class AmericanRailsUI(GameUI):
    ruleset: AmericanRailsRules
    players_title = "Investors"

    def __init__(self, ruleset: AmericanRailsRules) -> None:
        super().__init__(ruleset)
        # The company whose hexes the player last opened while expanding: the next cube
        # of the same action offers it first, so Enter goes straight back to the board.
        self.last_company: str | None = None

    # ------------------------------------------------------------ labels
    def company(self, company: str) -> str:
        c = self.ruleset.map.company_by_id[company]
        return f"{c.name} ({c.letter})"

    def city(self, city: str) -> str:
        rules = self.ruleset
        return f"{rules.city_name(city)} ({city_code(city)}) {city_mark(rules, None, city)}"

    def describe(self, state: Any, action: Any, names: Sequence[str]) -> str:
        rules = self.ruleset
        if isinstance(action, TakeSpace):
            return rules.space_label(action.space)
        if isinstance(action, OfferShare):
            c = state.companies[action.company]
            where = f"income ${c.income}" if c.on_map else "off the map"
            return f"{self.company(action.company)}: {where}, {c.shares_left}/{c.shares} unsold"
        if isinstance(action, PlaceStart):
            return f"Start on {self.city(action.city)}"
        if isinstance(action, Develop):
            here = state.hexes.get(rules.map.city_hex[action.city], [])
            gain = "+$2" if len(here) == 1 else "+$1 each"
            return f"Develop {self.city(action.city)} ({', '.join(rules.company_name(c) for c in here)} {gain})"
        if isinstance(action, Fund):
            c = state.companies[action.company]
            return f"Fund {self.company(action.company)}: treasury ${c.treasury} -> ${c.treasury + 5}"
        if isinstance(action, TakeTwo):
            return ("Take $2 from the bank" if action.source == "bank"
                    else "Every other player pays $2 to the bank")
        if isinstance(action, ExpandTwo):
            return "Expand 2 instead"
        if isinstance(action, PlaceCube):
            h = rules.map.hex_of(*action.hex)
            outcome = rules.cube_outcome(state, action.company, h)
            changes = ", ".join(f"{rules.company_name(k)} {'+' if v >= 0 else '-'}${abs(v)}"
                                for k, v in outcome.income.items() if v)
            tail = f"; income {changes}" if changes else ""
            where = place_name(rules.map, h)
            return f"{where[0].upper()}{where[1:]}: ${outcome.cost}{tail}"
        if isinstance(action, EndAction):
            # The footer, the key line and this entry all say "End action" (the game's key word).
            return (f"{END_WORD}: stop placing cubes" if state.step is Step.EXPAND
                    else f"{END_WORD}: leave it undone")
        if isinstance(action, PassBid):
            return "Pass (out of this auction)"
        return super().describe(state, action, names)

    # ------------------------------------------------------------ choice trees
    def choices(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Choice]:
        rules = self.ruleset
        out: list[Choice] = []
        listed = list(prompt.choices)
        if state.step is Step.EXPAND and state.expand_placed and self.last_company is not None:
            last = self.last_company
            listed.sort(key=lambda a: not (isinstance(a, PlaceCube) and a.company == last))
        for action in listed:
            label = self.describe(state, action, names)
            if isinstance(action, (PlaceStart, Develop)):
                h = rules.map.city_hex[action.city]
                out.append(Choice([hex_id(*rules.map.offset_of(h))], [label], action))
            elif isinstance(action, PlaceCube):
                c = state.companies[action.company]
                count = sum(1 for a in prompt.choices
                            if isinstance(a, PlaceCube) and a.company == action.company)
                out.append(Choice(
                    [COMPANY_PREFIX + action.company, hex_id(*action.hex)],
                    [f"{self.company(action.company)}: treasury ${c.treasury}, {c.supply} cubes, "
                     f"{count} hex{'es' if count != 1 else ''}", label],
                    action))
            elif isinstance(action, EndAction):
                out.append(Choice([END_KEY], [label + "  (e)"], action))
            elif isinstance(action, TakeSpace):
                out.append(Choice([action.space], [label], action))
            else:
                key = action.model_dump_json()
                out.append(Choice([key], [label], action))
        return out

    def level_title(self, state: Any, prompt: Prompt, prefix: list[str]) -> str:
        step = state.step
        if step is Step.EXPAND:
            if prefix:
                return f"{self.company(prefix[0][len(COMPANY_PREFIX):])}: where? (hexes with a price)"
            return f"{prompt.step}: cube {state.expand_placed + 1}, which company?"
        if step is Step.CHOOSE:
            return f"Column {state.phase + 1}: which action?"
        if step is Step.START:
            return "Which empty city? (cursor and Enter)"
        if step is Step.DEVELOP:
            return "Develop which city?"
        return prompt.step + ":"

    def board_level(self, state: Any, prompt: Prompt, prefix: list[str]) -> bool:
        if state.step is Step.EXPAND:
            return len(prefix) == 1
        return state.step in (Step.START, Step.DEVELOP) and not prefix

    def highlight(self, state: Any, prompt: Prompt, prefix: list[str], option: str | None) -> Highlight:
        rules = self.ruleset
        if state.step is Step.EXPAND:
            company = None
            if prefix:
                company = prefix[0][len(COMPANY_PREFIX):]
            elif option and option.startswith(COMPANY_PREFIX):
                company = option[len(COMPANY_PREFIX):]
            if company is None:
                return Highlight()
            if prefix:
                self.last_company = company
            return Highlight(cities=[hex_id(*a.hex) for a in prompt.choices
                                     if isinstance(a, PlaceCube) and a.company == company],
                             path=[company])
        if state.step in (Step.START, Step.DEVELOP):
            return Highlight(cities=[hex_id(*rules.map.offset_of(rules.map.city_hex[a.city]))
                                     for a in prompt.choices if isinstance(a, (PlaceStart, Develop))])
        return Highlight()

    def why_not(self, state: Any, prompt: Prompt, prefix: list[str], key: str) -> str:
        """The rules' reason a hex picked on the board is not a choice (board keys are
        hexes, "column,row", not city ids)."""
        rules = self.ruleset
        try:
            col, row = (int(p) for p in key.split(","))
        except ValueError:
            return f"{key} is not one of the choices here: choose a highlighted place"
        h = rules.map.hex_of(col, row)
        if h not in rules.map.terrain:
            return "That place is not on the map"
        name = rules.hex_name(h)
        reason: str | None = None
        city = rules.map.city_at.get(h)
        if state.step is Step.EXPAND and prefix:
            reason = rules.placement_refusal(state, prefix[0][len(COMPANY_PREFIX):], h)
        elif state.step in (Step.START, Step.DEVELOP) and city is None:
            reason = f"{name} is not a city"
        elif state.step is Step.START and city is not None:
            reason = self.rules_refusal(state, PlaceStart(seat=prompt.seat, city=city.id))
        elif state.step is Step.DEVELOP and city is not None:
            reason = self.rules_refusal(state, Develop(seat=prompt.seat, city=city.id))
        if reason:
            return reason[0].upper() + reason[1:]
        return f"{name[0].upper()}{name[1:]} is not one of the choices here: choose a highlighted place"

    def hotkeys(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Hotkey]:
        keys: list[Hotkey] = []
        for action in prompt.choices:
            if isinstance(action, EndAction):
                keys.append(Hotkey("e", END_WORD, action))
            elif isinstance(action, PassBid):
                keys.append(Hotkey("p", "Pass", action))
        return keys

    def amount_context(self, state: Any, prompt: Prompt, names: Sequence[str]) -> str:
        a = state.auction
        if a is None:
            return ""
        c = state.companies[a.company]
        me = state.players[prompt.seat]
        lines = [f"{self.company(a.company)}: income ${c.income}, "
                 f"{'on the map' if c.on_map else 'starts on an empty city'}."]
        if a.high_seat is not None:
            lines.append(f"High bid ${a.high_bid} ({names[a.high_seat]}). Still in: "
                         + ", ".join(names[s] for s in a.bidders) + ".")
        lines.append(f"You have ${me.money}; the bid goes into the company's treasury.")
        return "\n".join(lines)

    # ------------------------------------------------------------ state as text
    def shares_text(self, shares: dict[str, int]) -> Text:
        text = Text()
        for cid in self.ruleset.companies:
            k = shares.get(cid, 0)
            if k:
                if text:
                    text.append(" ")
                text.append_text(company_chip(self.ruleset, cid))
                text.append(str(k))
        return text if text else Text("-", style="dim")

    def players_table(self, state: Any, names: Sequence[str], kinds: Sequence[str],
                      to_move: int | None) -> RenderableType:
        letters = player_letters(names)
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
        table.add_column("Player", no_wrap=True, ratio=3)
        table.add_column("Money", justify="right", no_wrap=True)
        table.add_column("Shares", no_wrap=True)
        for seat, p in enumerate(state.players):
            mark = "▶" if seat == to_move else " "
            name = Text(mark, style="bold")
            name.append(f" {letters[seat]} ", style="reverse " + player_style(seat))
            append_seat(name, p.name, kinds[seat], player_style(seat))
            table.add_row(name, f"${p.money}", self.shares_text(p.shares))
        return SideBySide(table, Group(companies_text(self.ruleset, state), track_text(state, names)),
                          [companies_compact(self.ruleset, state), track_compact(state, names)])

    def preview(self, width: int = 44, height: int = 12) -> Text:
        """The map in miniature: a city's full value where it stands, terrain as dots."""
        m = self.ruleset.map
        text = Text(no_wrap=True, overflow="crop")
        rows = max(m.offset_of(h)[1] for h in m.terrain) + 1
        cols = max(m.offset_of(h)[0] for h in m.terrain) + 1
        cells = {m.offset_of(h): h for h in m.terrain}
        step = max(1, rows // height + (1 if rows % height else 0))
        for row in range(0, rows, step):
            line = Text(" " if row & 1 else "")
            for col in range(cols):
                h = cells.get((col, row))
                if h is None:
                    line.append("  ")
                    continue
                city = m.city_at.get(h)
                if city is not None:
                    line.append(str(city.full), style="bold")
                else:
                    line.append("·" if m.terrain[h] == "plains" else
                                ("♣" if m.terrain[h] == "forest" else "▲"), style="dim")
                line.append(" ")
            line.rstrip()
            line.truncate(width)
            text.append_text(line)
            text.append("\n")
        text.rstrip()
        return text

    def side_extras(self) -> list[Any]:
        # The cursor line goes beside the map, which needs every row of a 40-row screen.
        from railgames.games.american_rails.board import AmericanRailsTrack

        return [AmericanRailsTrack(self.ruleset, id="ar-track-panel")]

    def final_scores(self, state: Any, names: Sequence[str]) -> RenderableType | None:
        s: ARState = state
        final = s.final
        if final is None:
            return None
        result = self.ruleset.result(s)
        winners = set(result.winners) if result else set()
        table = Table(expand=False, padding=(0, 1))
        for head in ("Player", "Start", "Dividends", "Take $2", "Shares bought", "Money"):
            table.add_column(head, justify="left" if head == "Player" else "right")
        order = sorted(range(len(s.players)), key=lambda i: -final[s.players[i].name]["total"])
        for seat in order:
            p = s.players[seat]
            parts = final[p.name]
            star = "★ " if p.name in winners else "  "
            table.add_row(Text(star + p.name, style=player_style(seat)), f"${parts['start']}",
                          f"${parts['dividends']}", f"{parts['take_two']:+d}", f"-${-parts['shares']}",
                          Text(f"${parts['total']}", style="bold"))
        note = Text(f"The game ended because {s.end_reason}. Most money wins; ties share.",
                    style="dim")
        return Group(table, note)


__all__ = ["AmericanRailsUI", "COMPANY_STYLES"]
