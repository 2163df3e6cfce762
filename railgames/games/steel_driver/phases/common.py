"""What the Steel Driver phases share: their rules object, and going company by company."""

from __future__ import annotations

from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.base import SteelDriverBase
from railgames.games.steel_driver.state import SDState
from railgames.games.steel_driver.terms import ordinal


class SteelDriverPhase(Phase[SteelDriverBase, SDState]):
    """A phase of Steel Driver; ``rules`` answers the questions all phases ask."""


class CompanyPhase(SteelDriverPhase):
    """A phase the companies take in turn, in the order of play (building, claiming goods).

    A company that can do nothing passes and goes to the Pass row; the phase is
    over when every company has passed.
    """

    def refusal(self, state: SDState, company: str) -> str | None:
        """Why ``company`` can do nothing in this phase now, or None if it must act."""
        raise NotImplementedError

    def next_company(self, state: SDState, log: EventLog) -> bool:
        """Move the active-company marker to the next company that can act.

        Companies that cannot act pass (and go to the Pass row). Returns False
        when every company has passed.
        """
        n = len(state.order)
        name = self.rules.company_name
        while len(state.passed) < n:
            cid = state.order[state.cursor]
            if cid not in state.passed:
                why = self.refusal(state, cid)
                if why is None:
                    return True
                state.passed.append(cid)
                log.add(f"The {name(cid)} company passes ({why}); "
                        f"{ordinal(len(state.passed))} on the Pass row.", "pass_company", rule=R.MUST_BUILD,
                        company=cid, position=len(state.passed))
            state.cursor = (state.cursor + 1) % n
        return False

    def next_in_order(self, state: SDState) -> None:
        """The active-company marker moves on after a company acts."""
        state.cursor = (state.cursor + 1) % len(state.order)
