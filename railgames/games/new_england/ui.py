"""How New England Railways is presented in the app: labels, the shipping choice tree,
the players table. Everything offered here comes from the rules layer's prompt and
``shipments()``; nothing is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from railgames.app.gameui import Choice, GameUI, Highlight, Hotkey, append_seat, seat_column_width
from railgames.app.palette import commodity_letter, player_letters, player_style
from railgames.core.engine import Prompt
from railgames.games.new_england.actions import (
    Bid,
    Borrow,
    FinishLink,
    PassBid,
    PassShip,
    Retire,
    Ship,
)
from railgames.games.new_england.rules import NewEnglandRules, service_due
from railgames.games.new_england.state import NEState, Step

PASS_KEY = "·pass"
FIRST = " ★1st"  # after the name of the First Player card's holder


class NewEnglandUI(GameUI):
    ruleset: NewEnglandRules

    # ------------------------------------------------------------ labels
    def earnings(self, state: NEState, path: list[str], names: Sequence[str]) -> str:
        split = self.ruleset.income_split(state, path)
        return ", ".join(f"{names[s]} +{g}" for s, g in sorted(split.items()))

    def route_text(self, path: list[str]) -> str:
        return " → ".join(self.ruleset.city_name(c) for c in path)

    def describe(self, state: Any, action: Any, names: Sequence[str]) -> str:
        rules = self.ruleset
        if isinstance(action, Borrow):
            return f"Borrow ${action.amount}" if action.amount else "Take no loan"
        if isinstance(action, Retire):
            return f"Retire ${action.amount} of debt" if action.amount else "Keep the debt"
        if isinstance(action, Bid):
            return f"Bid ${action.amount}"
        if isinstance(action, PassBid):
            link = state.auction.link if state.auction else None
            return f"Pass on {rules.link_name(link)}" if link else "Pass"
        if isinstance(action, FinishLink):
            f = state.finish
            if action.pay:
                return f"Yes: pay ${f.shortfall} and finish it now" if f else "Pay to finish now"
            return "No: it will be completed next turn"
        if isinstance(action, Ship):
            return (f"Ship {action.colour} {self.route_text(action.path)} "
                    f"({self.earnings(state, action.path, names)})")
        if isinstance(action, PassShip):
            return "Pass: ship nothing"
        return super().describe(state, action, names)

    # ------------------------------------------------------------ choice trees
    def choices(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Choice]:
        if state.step is not Step.SHIP:
            return super().choices(state, prompt, names)
        rules = self.ruleset
        out: list[Choice] = []
        for action in prompt.choices:
            if isinstance(action, PassShip):
                out.append(Choice([PASS_KEY], ["Pass: ship nothing this round"], action))
                continue
            origin, colour, dest = action.path[0], action.colour, action.path[-1]
            waiting = state.cubes.get(origin, {})
            tags = " ".join(commodity_letter(c) * n for c, n in sorted(waiting.items()))
            links = len(action.path) - 1
            out.append(Choice(
                [origin, colour, dest, "|".join(action.path)],
                [
                    f"{rules.city_name(origin)}  [{tags}]",
                    f"{colour} cube ({commodity_letter(colour)})",
                    f"{rules.city_name(dest)}",
                    f"{self.route_text(action.path)}  {links} link{'s' if links > 1 else ''}: "
                    f"{self.earnings(state, action.path, names)}",
                ],
                action,
            ))
        return out

    def level_title(self, state: Any, prompt: Prompt, prefix: list[str]) -> str:
        if state.step is not Step.SHIP:
            if state.step is Step.FINISH:
                return "Pay to finish the link now?"
            return "Choose:"
        rules = self.ruleset
        depth = len(prefix)
        if depth == 0:
            return "Ship from which city? (cities with a cube that can move)"
        origin = rules.city_name(prefix[0])
        if depth == 1:
            return f"From {origin}: which cube?"
        if depth == 2:
            return f"{prefix[1].capitalize()} cube from {origin}: to which city?"
        return f"{prefix[1].capitalize()} cube {origin} → {rules.city_name(prefix[2])}: which way?"

    def board_level(self, state: Any, prompt: Prompt, prefix: list[str]) -> bool:
        return state.step is Step.SHIP and len(prefix) in (0, 2)

    def highlight(self, state: Any, prompt: Prompt, prefix: list[str], option: str | None) -> Highlight:
        if state.step is not Step.SHIP:
            link = state.auction.link if state.auction else (state.finish.link if state.finish else None)
            if link:
                a, b = self.ruleset.link_ends(link)
                return Highlight(cities=[a, b], path=[a, b])
            return Highlight()
        ships = [a for a in prompt.choices if isinstance(a, Ship)]
        depth = len(prefix)
        if depth == 0:
            return Highlight(cities=sorted({a.path[0] for a in ships}))
        mine = [a for a in ships if a.path[0] == prefix[0] and (depth < 2 or a.colour == prefix[1])]
        if depth == 1:
            return Highlight(cities=[prefix[0]])
        if depth == 2:
            return Highlight(cities=sorted({a.path[-1] for a in mine}))
        if option:
            return Highlight(cities=[prefix[0], prefix[2]], path=option.split("|"))
        return Highlight(cities=[prefix[0], prefix[2]])

    def hotkeys(self, state: Any, prompt: Prompt, names: Sequence[str]) -> list[Hotkey]:
        keys: list[Hotkey] = []
        for action in prompt.choices:
            if isinstance(action, PassBid | PassShip):
                keys.append(Hotkey("p", "Pass", action))
            elif isinstance(action, FinishLink):
                keys.append(Hotkey("y" if action.pay else "n", "Pay now" if action.pay else "Wait", action))
        return keys

    def amount_context(self, state: Any, prompt: Prompt, names: Sequence[str]) -> str:
        rules = self.ruleset
        r = state.railways[prompt.seat]
        if state.step is Step.AUCTION and state.auction:
            a = state.auction
            high = f"${a.high_bid} by {names[a.high_seat]}" if a.high_seat is not None else "none yet"
            still = ", ".join(names[s] for s in a.bidders)
            return (f"{rules.link_name(a.link)}: card value {rules.link_value(a.link)}\n"
                    f"High bid: {high}.  Still in: {still}.\n"
                    f"{names[prompt.seat]} has ${r.cash}.")
        if state.step is Step.LOANS:
            return (f"Cash ${r.cash}, debt ${r.debt}; service due next: "
                    f"20% of the debt (now ${service_due(r.debt)}).")
        if state.step is Step.RETIRE:
            return f"Cash ${r.cash}, debt ${r.debt} (service ${service_due(r.debt)} a turn)."
        return ""

    # ------------------------------------------------------------ state as text
    def players_table(self, state: Any, names: Sequence[str], kinds: Sequence[str],
                      to_move: int | None) -> RenderableType:
        letters = player_letters(names)
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False)
        # In a narrow panel the links' note gives way (cut at its end), never the names.
        table.add_column("Player", no_wrap=True, ratio=3, min_width=seat_column_width(names, FIRST))
        table.add_column("Cash", justify="right")
        table.add_column("Loans", justify="right")
        table.add_column("Inc", justify="right")
        table.add_column("Links", justify="right", no_wrap=True, ratio=2)
        for seat, r in enumerate(state.railways):
            mark = "▶" if seat == to_move else " "
            name = Text(f"{mark}", style="bold")
            name.append(f" {letters[seat]} ", style="reverse " + player_style(seat))
            append_seat(name, r.name, kinds[seat], player_style(seat),
                        after=FIRST if seat == state.first else "")
            unfinished = sum(1 for link in r.links if link in state.unfinished)
            links = str(len(r.links)) + (" +new" if r.bought_this_turn else "")
            if unfinished:
                links += f" ({unfinished} unbuilt)"
            table.add_row(name, f"${r.cash}", f"${r.debt}" if r.debt else "-", str(r.income), links)
        return table

    def board_extras(self) -> list[Any]:
        from railgames.games.new_england.board import NewEnglandSlots

        return [NewEnglandSlots(self.ruleset, id="board-slots")]

    def why_not(self, state: Any, prompt: Prompt, prefix: list[str], key: str) -> str:
        rules = self.ruleset
        name = rules.city_name(key)
        if state.step is not Step.SHIP or len(prefix) not in (0, 2):
            return super().why_not(state, prompt, prefix, key)
        if not prefix:
            waiting = {c: n for c, n in state.cubes.get(key, {}).items() if n}
            if not waiting:
                return f"{name} has no commodity cube waiting to be shipped"
            if key not in rules.built_neighbours(state):
                return f"no built railway link reaches {name}, so its cubes cannot leave"
            return (f"no cube waiting in {name} can reach a city that demands its colour "
                    f"(a cube travels at most 5 built links and stops at the first such city)")
        origin, colour = rules.city_name(prefix[0]), prefix[1]
        demand = rules.map.demand_of[key]
        if key == prefix[0]:
            return f"the {colour} cube starts in {name}; it cannot end there"
        if demand != colour:
            return (f"{name} demands {demand}, not {colour}; a {colour} cube must end where "
                    f"{colour} is demanded")
        return (f"no way along built links takes the {colour} cube from {origin} to {name} "
                f"within 5 links without first reaching another city that demands {colour}")
