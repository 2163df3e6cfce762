"""New England Railways' auctions: each link on offer is sold to the highest bidder.

Links are auctioned one at a time in the order they sit on the table
(``open_next``). A railway that bought a link this turn sits the rest out; the
others bid in turn, each bid above the last and within the bidder's cash, or pass
and leave that auction (``Auctioning``). A bidder who cannot top the high bid drops
out by itself (``settle``). The last one in buys the link and rolls to build it
(build.py); a link nobody bids on is set aside for good.
"""

from __future__ import annotations

from typing import Any

from railgames.core.auctions import next_bidder
from railgames.core.engine import AmountInput, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.actions import Bid, PassBid
from railgames.games.new_england.base import NewEnglandBase, expect
from railgames.games.new_england.build import roll_to_build
from railgames.games.new_england.state import Auction, NEState, Step


def lowest_bid(a: Auction) -> int:
    """The least the next bid in ``a`` may be: one more than the high bid."""
    return a.high_bid + 1


class Auctioning(Phase[NewEnglandBase, NEState]):
    """The auction of one link: bid or pass."""

    actions = (Bid, PassBid)

    def prompt(self, state: NEState) -> Prompt:
        rules = self.rules
        a = state.auction
        assert a is not None
        r = state.railways[a.to_act]
        high = (f"high bid ${a.high_bid} by {rules.railway_name(state, a.high_seat)}"
                if a.high_seat is not None else "no bids yet")
        return Prompt(
            seat=a.to_act, step="Auction",
            text=f"Auction: {rules.link_name(a.link)} (value {rules.link_value(a.link)}), {high} — "
                 f"{r.name} to bid or pass",
            choices=[rules.listed(PassBid, a.to_act)],
            amount=AmountInput(action_type="bid", label="Bid", min=lowest_bid(a),
                               max=r.cash, step=1, default=lowest_bid(a)),
            help="Bid more than the high bid, up to your cash, or pass and leave this auction.",
        )

    def validate(self, state: NEState, action: Any) -> None:
        expect(state.step, Step.AUCTION, "bid")
        if isinstance(action, Bid):
            r = state.railways[action.seat]
            a = state.auction
            assert a is not None
            if action.amount < lowest_bid(a):
                raise IllegalAction(
                    f"a bid must beat the high bid of ${a.high_bid}; ${action.amount} does not")
            if action.amount > r.cash:
                raise IllegalAction(f"{r.name} has ${r.cash}; a bid of ${action.amount} needs "
                                    f"${action.amount - r.cash} more")

    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        seat = action.seat
        r = state.railways[seat]
        a = state.auction
        assert a is not None
        if isinstance(action, Bid):
            a.high_bid, a.high_seat = action.amount, seat
            log.add(f"{r.name} bids ${action.amount} for {self.rules.link_name(a.link)}.", "bid",
                    rule=R.AUCTION, seat=seat, amount=action.amount)
        else:
            a.bidders.remove(seat)
            log.add(f"{r.name} passes on {self.rules.link_name(a.link)}.", "pass_bid",
                    rule=R.AUCTION, seat=seat)
        self._next_bidder(state, seat, log)

    def open_next(self, state: NEState, log: EventLog) -> None:
        """Open the auctions of the links still on offer, in turn, until one waits for a
        bid (or a build-roll decision does)."""
        rules = self.rules
        state.auction = None
        while state.auction_slot < len(state.current):
            link = state.current[state.auction_slot]
            state.auction_slot += 1
            order = state.seat_order()
            skipped = [s for s in order if state.railways[s].bought_this_turn is not None]
            bidders = [s for s in order if s not in skipped]
            log.add(f"Auction of {rules.link_name(link)} (value {rules.link_value(link)}) opens.",
                    "auction", rule=R.AUCTION, link=link)
            for s in skipped:
                log.add(f"{rules.railway_name(state, s)} already bought a link this turn and sits out.",
                        "sit_out", rule=R.ONE_LINK, seat=s)
            if not bidders:
                self._set_aside(state, link, log)
                continue
            state.auction = Auction(link=link, bidders=bidders, to_act=bidders[0])
            if self.settle(state, log):
                return
        state.auction = None

    def _next_bidder(self, state: NEState, after: int, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        seat = next_bidder(after, len(state.railways), a.bidders, a.high_seat)
        if seat is not None:
            a.to_act = seat
        if not self.settle(state, log) and state.step is Step.AUCTION:
            self.open_next(state, log)

    def settle(self, state: NEState, log: EventLog) -> bool:
        """Drop bidders who cannot top the high bid; resolve the auction when it is decided.

        Returns True while the auction still waits for a decision.
        """
        a = state.auction
        assert a is not None
        n = len(state.railways)
        while True:
            others = [s for s in a.bidders if s != a.high_seat]
            if not others:
                break
            seat = a.to_act
            if state.railways[seat].cash >= lowest_bid(a):
                return True
            a.bidders.remove(seat)
            log.add(f"{self.rules.railway_name(state, seat)} cannot top the high bid of ${a.high_bid} "
                    f"(cash ${state.railways[seat].cash}) and drops out.", "pass_bid", rule=R.AUCTION, seat=seat)
            for i in range(1, n + 1):
                nxt = (seat + i) % n
                if nxt in a.bidders and nxt != a.high_seat:
                    a.to_act = nxt
                    break
        if a.high_seat is None:
            self._set_aside(state, a.link, log)
            state.auction = None
            return False
        self._award(state, a, log)
        return state.step is Step.FINISH

    def _set_aside(self, state: NEState, link: str, log: EventLog) -> None:
        state.set_aside.append(link)
        log.add(f"Nobody buys {self.rules.link_name(link)}; it is set aside for good.", "set_aside",
                rule=R.SET_ASIDE, link=link)

    def _award(self, state: NEState, a: Auction, log: EventLog) -> None:
        seat = a.high_seat
        assert seat is not None
        r = state.railways[seat]
        r.cash -= a.high_bid
        r.links.append(a.link)
        r.bought_this_turn = a.link
        state.owner[a.link] = seat
        state.auction = None
        roll_to_build(self.rules, state, seat, a.link, a.high_bid, log)
