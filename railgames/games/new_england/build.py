"""New England Railways' building: the dice decide whether a link bought is built.

The buyer of a link rolls two dice against its value at once (``roll_to_build``): as
much or more builds it; less leaves it short by the difference, which the buyer may
pay to finish it now (``Building``, when the cash is there) or leave it unfinished
until the start of next turn (``complete_unfinished``), carrying no cubes till then.
"""

from __future__ import annotations

from typing import Any

from railgames.core.engine import Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.actions import FinishLink
from railgames.games.new_england.base import NewEnglandBase, expect
from railgames.games.new_england.state import NEState, PendingFinish, Railway, Step


def can_pay(r: Railway, shortfall: int) -> bool:
    """Whether ``r`` has the cash to finish a link ``shortfall`` short."""
    return r.cash >= shortfall


def roll_to_build(rules: NewEnglandBase, state: NEState, seat: int, link: str, price: int,
                  log: EventLog) -> None:
    """The build roll of ``link``, just won by ``seat`` for ``price``."""
    r = state.railways[seat]
    dice = state.chance.roll(2)
    roll, value = sum(dice), rules.link_value(link)
    head = (f"{r.name} wins {rules.link_name(link)} for ${price}, "
            f"rolls {roll} ({dice[0]}+{dice[1]}) against {value}")
    data: dict[str, Any] = {"seat": seat, "cash": -price, "link": link, "roll": roll}
    if roll >= value:
        state.built.add(link)
        log.add(f"{head}: built at once.", "win", rule=(R.AUCTION, R.BUILD_ROLL), chance=True, **data)
    elif can_pay(r, value - roll):
        state.finish = PendingFinish(seat=seat, link=link, roll=roll, shortfall=value - roll)
        state.step = Step.FINISH
        log.add(f"{head}: ${value - roll} short.", "win", rule=(R.AUCTION, R.BUILD_ROLL), chance=True, **data)
    else:
        state.unfinished.append(link)
        log.add(f"{head}: ${value - roll} short, more than {r.name}'s ${r.cash}; "
                "it will be completed next turn.", "win", rule=(R.AUCTION, R.BUILD_ROLL), chance=True, **data)


class Building(Phase[NewEnglandBase, NEState]):
    """After a short build roll: pay the shortfall to finish the link now, or wait.

    Either way the auctions go on afterwards: the rules' flow opens the next one.
    """

    actions = (FinishLink,)

    def prompt(self, state: NEState) -> Prompt:
        rules = self.rules
        f = state.finish
        assert f is not None
        return Prompt(
            seat=f.seat, step="Build roll",
            text=f"{rules.railway_name(state, f.seat)} rolled {f.roll} against "
                 f"{rules.link_value(f.link)} for "
                 f"{rules.link_name(f.link)}: pay ${f.shortfall} to finish it now?",
            choices=[rules.listed(FinishLink, f.seat, True), rules.listed(FinishLink, f.seat, False)],
            help="Unfinished links are completed at the start of next turn, "
                 "but cannot carry cubes until then.",
        )

    def validate(self, state: NEState, action: Any) -> None:
        expect(state.step, Step.FINISH, "pay to finish a link")
        r = state.railways[action.seat]
        f = state.finish
        assert f is not None
        if action.pay and not can_pay(r, f.shortfall):
            raise IllegalAction(f"{r.name} has ${r.cash}; finishing needs ${f.shortfall}")

    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        seat = action.seat
        r = state.railways[seat]
        f = state.finish
        assert f is not None
        name = self.rules.link_name(f.link)
        if action.pay:
            r.cash -= f.shortfall
            state.built.add(f.link)
            log.add(f"{r.name} pays ${f.shortfall} to finish {name} now.",
                    "finish_pay", rule=R.PAY_TO_FINISH, seat=seat, cash=-f.shortfall, link=f.link)
        else:
            state.unfinished.append(f.link)
            log.add(f"{r.name} leaves {name} unfinished; it will be completed "
                    "next turn.", "finish_wait", rule=R.UNFINISHED, seat=seat, link=f.link)
        state.finish = None
        state.step = Step.AUCTION


def complete_unfinished(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    """Complete Unfinished Links: last turn's short links are built for their owners."""
    for link in state.unfinished:
        state.built.add(link)
        log.add(f"{rules.link_name(link)} is completed for "
                f"{rules.railway_name(state, state.owner[link])}.", "complete", rule=R.UNFINISHED, link=link)
    state.unfinished = []
