"""Railways of the World: the end of a turn, after its three rounds of actions.

Each railroad collects the income of its marker's space and pays interest on its
bonds; incomplete links are taken off the board; then either the game ends (the
last turn is over) or the next turn begins with its auction. No player decides
anything here: the phase takes no action and runs by itself.
"""

from __future__ import annotations

from railgames.core.events import EventLog
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.auction import AuctionPhase
from railgames.games.railways_of_the_world.base import RotwPhase, RotwRulesBase
from railgames.games.railways_of_the_world.state import Link, RotwState, Step
from railgames.games.railways_of_the_world.terms import INTEREST, money, plural


class IncomePhase(RotwPhase):
    """Income, interest, removing incomplete links, and the end of the game."""

    def __init__(self, rules: RotwRulesBase, auction: AuctionPhase) -> None:
        super().__init__(rules)
        self.auction = auction

    def run(self, state: RotwState, log: EventLog) -> None:
        rules = self.rules
        for seat, p in enumerate(state.players):
            pay = rules.map.income_for(p.income)
            p.cash += pay
            p.earned += pay
            owe = p.bonds * INTEREST
            text = f"{p.name} collects {money(pay)} (income space {p.income})"
            if owe:
                issued = rules.pay(state, seat, owe, log, "bond interest")
                text += f" and pays {money(owe)} interest on {plural(p.bonds - issued, 'bond')}"
            log.add(text + ".", "income", rule=(R.INCOME, R.INTEREST) if owe else R.INCOME,
                    seat=seat, income=pay, interest=owe)
        removed = [k for k in state.links.values() if not k.complete]
        if removed:
            remove_links(state, removed)
            log.add("Incomplete links are removed: "
                    + ", ".join(f"{k.id} of {rules._name(state, k.owner)}" for k in removed) + ".",
                    "links_removed", rule=R.REMOVE, links=[k.id for k in removed])
        if state.end_turn is not None and state.turn >= state.end_turn:
            self.end_game(state, log)
            return
        state.turn += 1
        self.auction.begin_turn(state, log, opener=state.first)

    def end_game(self, state: RotwState, log: EventLog) -> None:
        rules = self.rules
        state.step = Step.OVER
        state.final = {p.name: rules.score_of(state, s) for s, p in enumerate(state.players)}
        for name, parts in state.final.items():
            log.add(f"{name}: income space {parts['income']}, {plural(-parts['bonds'], 'bond')}: "
                    f"{parts['total']} points ({plural(parts['links'], 'link')}, "
                    f"{money(parts['cash'])}).", "final_score", rule=R.FINAL, player=name,
                    parts=dict(parts))
        result = rules.result(state)
        assert result is not None
        log.add(result.summary(), "game_over", rule=R.FINAL)


def remove_links(state: RotwState, links: list[Link]) -> None:
    """Take ``links`` off the board: their sides, their tracks in each hex, themselves."""
    ids = {link.id for link in links}
    sides = state.side_link
    for key in [k for k, v in sides.items() if v in ids]:
        del sides[key]
    for link in links:
        for h in link.tiles:
            here = state.hex_links[h]
            here.remove(link.id)
            if not here:
                del state.hex_links[h]
        del state.links[link.id]
