"""American Rails: the dividend phase that closes each round, and the end of the game.

Nobody decides anything here: after the third action phase each company pays its
income out over the shares players hold, then the game ends if one of its end
conditions holds (ruling "the end of the game"), else the action track starts the
next year.
"""

from __future__ import annotations

from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.american_rails import rule_texts as R
from railgames.games.american_rails.common import (
    LAST_YEAR,
    LOW_SUPPLY,
    STARTING_MONEY,
    AmericanRailsBase,
)
from railgames.games.american_rails.state import ARState, Step


class DividendPhase(Phase[AmericanRailsBase, ARState]):
    """Dividends, the end conditions checked after them, and the final scores."""

    def pay(self, state: ARState, log: EventLog) -> None:
        rules = self.rules
        paid = [0] * len(state.players)
        for c in state.company_list():
            per_share = rules.dividend(state, c.id)
            if per_share <= 0:
                continue
            held = sum(p.shares.get(c.id, 0) for p in state.players)
            for seat, p in enumerate(state.players):
                k = p.shares.get(c.id, 0)
                if k:
                    p.money += k * per_share
                    p.dividends += k * per_share
                    paid[seat] += k * per_share
                    state.bank_out += k * per_share
            log.add(f"{rules.company_name(c.id)} pays ${per_share} a share (income ${c.income} "
                    f"over {held} share{'s' if held != 1 else ''} held): " + ", ".join(
                        f"{p.name} ${p.shares[c.id] * per_share}" for p in state.players
                        if p.shares.get(c.id)) + ".", "dividend", rule=R.DIVIDEND, company=c.id,
                    per_share=per_share)
        state.history.append([(paid[s], p.money) for s, p in enumerate(state.players)])

    def end_reason(self, state: ARState) -> str | None:
        """Why the game ends after this dividend phase, or None."""
        n = len(state.players)
        if state.year >= LAST_YEAR:
            return f"the year is {LAST_YEAR}"
        if all(c.shares_left == 0 for c in state.company_list()):
            return "every share has been sold or removed"
        low = self.rules.low_supplies(state)
        if low >= n:
            return f"{low} supplies are down to {LOW_SUPPLY} or fewer"
        return None

    def finish(self, state: ARState, reason: str, log: EventLog) -> None:
        state.step = Step.OVER
        state.end_reason = reason
        n = len(state.players)
        start = STARTING_MONEY[n]
        state.final = {
            p.name: {"start": start, "dividends": p.dividends, "take_two": p.take_two,
                     "shares": -p.bids, "total": p.money}
            for p in state.players
        }
        result = self.rules.result(state)
        assert result is not None
        log.add(f"The game ends: {reason}. " + result.summary("$"), "game_over", rule=R.GAME_END)
