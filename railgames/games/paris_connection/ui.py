"""How Paris Connection is presented in the app: labels, the build and trade choice
trees, the players panel and the final scores.

Everything shown comes from the state the screen passes in, which for this game
is always a seat's view: other players' holdings are None there, and this module
only ever prints holdings it can see. Legality comes from the rules' prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from railgames.app.gameui import Choice, GameUI, Highlight, Hotkey, append_seat
from railgames.app.palette import player_letters, player_style
from railgames.app.widgets.hex_layout import hex_id
from railgames.core.engine import Prompt
from railgames.games.paris_connection.actions import Build, EndBuild, Trade
from railgames.games.paris_connection.board import city_style, company_style
from railgames.games.paris_connection.rules import (
    HOLDING_LIMIT,
    MAX_BUILD,
    PENALTY_PER_EXTRA,
    ParisConnectionRules,
)
from railgames.games.paris_connection.state import Step

END_KEY = "end"
TRADE_KEY = "trade"
BUILD_PREFIX = "build:"
GIVE_PREFIX = "give:"


def holdings_line(rules: ParisConnectionRules, shares: dict[str, int]) -> Text:
    """``R3 Y2 B1``: each company held, its letter (on its colour) and how many."""
    text = Text()
    for company in rules.map.companies:
        count = shares.get(company.id, 0)
        if not count:
            continue
        if text:
            text.append(" ")
        text.append(company.letter, style=company_style(company.id))
        text.append(f"{count}")
    if not text:
        text.append("nothing", style="dim")
    return text


class ParisConnectionUI(GameUI):
    ruleset: ParisConnectionRules
    # Folded away on a small screen with the players: the company values.
    folding = (*GameUI.folding, "#pc-values")

    # ------------------------------------------------------------ labels
    def letter(self, company: str) -> str:
        return self.ruleset.map.company_by_id[company].letter

    def hex_label(self, offset: tuple[int, int]) -> str:
        rules = self.ruleset
        h = rules.hex_at(*offset)
        assert h is not None
        name = rules.hex_name(h)
        value = rules.hex_value(h)
        return f"{name}  +{value}" if value else name

    def describe(self, state: Any, action: Any, names: Sequence[str]) -> str:
        if isinstance(action, Build):
            return (f"Place a {action.company} locomotive ({self.letter(action.company)}) on "
                    f"{self.hex_label(action.hex)}")
        if isinstance(action, EndBuild):
            return "End the build"
        if isinstance(action, Trade):
            taken = "one" if action.count == 1 else "two"
            return f"Trade: return a {action.give} locomotive, take {taken} {action.take}"
        return super().describe(state, action, names)

    # ------------------------------------------------------------ choice trees
    def choices(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Choice]:
        out: list[Choice] = []
        if state.step is Step.BUILD:
            for action in prompt.choices:
                if isinstance(action, Build):
                    out.append(Choice([hex_id(*action.hex)], [self.hex_label(action.hex)], action))
                elif isinstance(action, EndBuild):
                    out.append(Choice([END_KEY], ["End the build  (e)"], action))
            return out
        builds: dict[str, int] = {}
        for action in prompt.choices:
            if isinstance(action, Build):
                builds[action.company] = builds.get(action.company, 0) + 1
        shares = state.players[prompt.seat].shares or {}
        for action in prompt.choices:
            if isinstance(action, Build):
                company = action.company
                count = builds[company]
                out.append(Choice(
                    [BUILD_PREFIX + company, hex_id(*action.hex)],
                    [f"Build {company} ({self.letter(company)})  value {state.value[company]}, "
                     f"{count} hex{'es' if count != 1 else ''}",
                     self.hex_label(action.hex)],
                    action,
                ))
            elif isinstance(action, Trade):
                held = shares.get(action.give, 0)
                taken = "one" if action.count == 1 else "two"
                out.append(Choice(
                    [TRADE_KEY, GIVE_PREFIX + action.give, f"{action.take}:{action.count}"],
                    ["Trade: return one, take one or two",
                     f"Return a {action.give} ({self.letter(action.give)}), you hold {held}",
                     f"Take {taken} {action.take} ({self.letter(action.take)})  value "
                     f"{state.value[action.take]}"],
                    action,
                ))
        return out

    def level_title(self, state: Any, prompt: Prompt, prefix: list[str]) -> str:
        if state.step is Step.BUILD:
            placed = f"{len(state.placed)}/{MAX_BUILD} {state.building} placed"
            if any(isinstance(a, Build) for a in prompt.choices):
                return f"{placed}: next hex, or end"
            return f"{placed}: end the build"
        depth = len(prefix)
        if depth == 0:
            return "Build or trade?"
        if prefix[0].startswith(BUILD_PREFIX):
            company = prefix[0][len(BUILD_PREFIX):]
            return f"{company.capitalize()} ({self.letter(company)}): where? (the + hexes)"
        if depth == 1:
            return "Trade: return which?"
        give = prefix[1][len(GIVE_PREFIX):]
        return f"Return a {give}; take what?"

    def board_level(self, state: Any, prompt: Prompt, prefix: list[str]) -> bool:
        if state.step is Step.BUILD:  # the hexes, unless only the end of the build is left
            return not prefix and any(isinstance(a, Build) for a in prompt.choices)
        return len(prefix) == 1 and prefix[0].startswith(BUILD_PREFIX)

    def highlight(self, state: Any, prompt: Prompt, prefix: list[str], option: str | None) -> Highlight:
        company: str | None = None
        if state.step is Step.BUILD:
            company = state.building
        elif prefix and prefix[0].startswith(BUILD_PREFIX):
            company = prefix[0][len(BUILD_PREFIX):]
        elif not prefix and option and option.startswith(BUILD_PREFIX):
            company = option[len(BUILD_PREFIX):]  # a preview of where that build could go
        if company is None:
            return Highlight()
        return Highlight(cities=[hex_id(*a.hex) for a in prompt.choices
                                 if isinstance(a, Build) and a.company == company])

    def hotkeys(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Hotkey]:
        return [Hotkey("e", "End build", a) for a in prompt.choices if isinstance(a, EndBuild)]

    # ------------------------------------------------------------ state as text
    def players_table(self, state: Any, names: Sequence[str], kinds: Sequence[str],
                      to_move: int | None) -> RenderableType:
        """Each player's count of locomotives (public) and the holdings this view may see."""
        rules = self.ruleset
        letters = player_letters(names)
        limit = HOLDING_LIMIT[len(state.players)]
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
        table.add_column("Player", no_wrap=True, ratio=1)
        table.add_column(f"Locos (≤{limit})", justify="right", no_wrap=True)
        secrets: list[Text] = []
        visible = [p for p in state.players if p.shares is not None]
        yours = len(visible) == 1 and state.step is not Step.OVER
        for seat, player in enumerate(state.players):
            mark = "▶" if seat == to_move else " "
            name = Text(f"{mark}", style="bold")
            name.append(f" {letters[seat]} ", style="reverse " + player_style(seat))
            append_seat(name, player.name, kinds[seat], player_style(seat))
            held = Text(str(player.held), style="bold red" if player.held > limit else "")
            table.add_row(name, held)
            if player.shares is not None:
                line = Text("Yours: " if yours else f"{player.name}: ", style="bold")
                line.append_text(holdings_line(rules, player.shares))
                line.append(f"  worth {rules.score_of(state, seat)['total']}",
                            style="dim")
                secrets.append(line)
        if not secrets:
            return table
        return Group(table, *secrets)

    def preview(self, width: int = 44, height: int = 12) -> Text:
        """The map in miniature: a dot for each hex, a city's value digit, the tower."""
        m = self.ruleset.map
        cells: dict[tuple[int, int], tuple[str, str]] = {}
        for h, terrain in m.terrain.items():
            col, row = m.offset_of(h)
            city = m.city_at.get(h)
            if city is not None:
                cells[(col, row)] = (str(m.city_values[city.colour]), city_style(city.colour))
            elif terrain == "eiffel_tower":
                cells[(col, row)] = ("▲", "bold")
            else:
                cells[(col, row)] = ("·", "dim")
        rows = max(r for _, r in cells) + 1
        cols = max(c for c, _ in cells) + 1
        text = Text()
        for row in range(rows):
            line = Text(" " if row & 1 else "")
            for col in range(cols):
                ch, style = cells.get((col, row), (" ", ""))
                line.append(ch, style=style)
                line.append(" ")
            line.rstrip()
            text.append_text(line)
            if row < rows - 1:
                text.append("\n")
        return text

    def board_extras(self) -> list[Any]:
        from railgames.games.paris_connection.board import ParisConnectionTrack

        return [ParisConnectionTrack(self.ruleset, id="pc-track")]

    def final_scores(self, state: Any, names: Sequence[str]) -> RenderableType | None:
        """Every player's holdings by company, the company values, the penalty and the total."""
        if state.final is None:
            return None
        rules = self.ruleset
        limit = HOLDING_LIMIT[len(state.players)]
        table = Table(expand=False, padding=(0, 1))
        table.add_column("Player")
        for company in rules.map.companies:
            table.add_column(Text(f" {company.letter} ", style=company_style(company.id)),
                             justify="right")
        table.add_column("Held", justify="right")
        table.add_column("Penalty", justify="right")
        table.add_column("Total", justify="right")
        values = [Text(f"×{state.value[c.id]}", style="bold") for c in rules.map.companies]
        table.add_row(Text("Value", style="bold"), *values, Text(f"≤{limit}", style="dim"),
                      "", "")
        result = rules.result(state)
        winners = set(result.winners) if result else set()
        order = sorted(range(len(state.players)),
                       key=lambda s: -state.final[state.players[s].name]["total"])
        for seat in order:
            player = state.players[seat]
            parts = state.final[player.name]
            shares = player.shares or {}
            star = "★ " if player.name in winners else "  "
            cells: list[RenderableType] = []
            for company in rules.map.companies:
                count = shares.get(company.id, 0)
                cells.append(Text(f"{count}={parts[company.id]}" if count else "-",
                                  style="" if count else "dim"))
            penalty = parts["penalty"]
            table.add_row(Text(star + player.name, style=player_style(seat)), *cells,
                          str(player.held), str(penalty) if penalty else "-",
                          Text(str(parts["total"]), style="bold"))
        note = Text(f"Each cell: locomotives held = points (held × company value). "
                    f"{PENALTY_PER_EXTRA} points off for each locomotive above {limit}.",
                    style="dim")
        if state.end_reason:
            note.append(f"\nThe game ended because {state.end_reason}.")
        return Group(table, note)

    def why_not(self, state: Any, prompt: Prompt, prefix: list[str], key: str) -> str:
        company: str | None = None
        if state.step is Step.BUILD:
            company = state.building
        elif prefix and prefix[0].startswith(BUILD_PREFIX):
            company = prefix[0][len(BUILD_PREFIX):]
        try:
            col, row = (int(n) for n in key.split(","))
        except ValueError:
            return super().why_not(state, prompt, prefix, key)
        h = self.ruleset.hex_at(col, row)
        if company is None or h is None:
            return super().why_not(state, prompt, prefix, key)
        name = self.ruleset.hex_name(h)
        reason = self.rules_refusal(state, Build(seat=prompt.seat, company=company, hex=(col, row)))
        if reason is None:
            return f"a {company} locomotive cannot go on {name} now"
        return f"{name}: {reason}"
