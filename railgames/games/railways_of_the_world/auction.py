"""Railways of the World: who plays first each turn, by the auction for the First
Player marker (or, as a variant, in seat order on the first turn).

The auction phase lists the bids, checks them and carries them out; when it is
settled it sets the order of play and the first round of actions begins.
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.engine import Prompt
from railgames.core.events import EventLog
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import Bid, PassBid
from railgames.games.railways_of_the_world.base import RotwPhase
from railgames.games.railways_of_the_world.state import Auction, RotwState, Step
from railgames.games.railways_of_the_world.terms import (
    BID_STEP,
    BOND,
    MAX_BID,
    MIN_BID,
    bid_amount,
    money,
    quick_prompt,
)


def start_actions(state: RotwState) -> None:
    """The order is set: the first round of actions begins with its first seat."""
    state.step = Step.ACTION
    state.round = 1
    state.cursor = 0


class AuctionPhase(RotwPhase):
    """Bids for the First Player marker, and the order of play they settle."""

    actions: ClassVar[tuple[type, ...]] = (Bid, PassBid)

    def begin_turn(self, state: RotwState, log: EventLog, opener: int) -> None:
        rules = self.rules
        n = len(state.players)
        log.add(f"Turn {state.turn} begins.", "turn", rule=R.TURN_START, turn=state.turn)
        if state.turn == 1 and rules._option(state, "first_turn_fixed"):
            # Variant: no auction on the first turn; later seats are paid for waiting.
            state.first = 0
            state.order = list(range(n))
            for place, seat in enumerate(state.order[1:], start=1):
                p = state.players[seat]
                p.cash += place * 1000
                p.earned += place * 1000
                log.add(f"{p.name} plays in place {place + 1} and receives {money(place * 1000)}.",
                        "place_money", rule=R.FIRST_TURN_FIXED, seat=seat,
                        amount=place * 1000)
            start_actions(state)
            return
        bidders = [(opener + i) % n for i in range(n)]
        state.auction = Auction(bidders=bidders, to_act=0)
        state.step = Step.AUCTION
        state.opener = opener

    def prompt(self, state: RotwState) -> Prompt | None:
        rules = self.rules
        seat = state.to_act()
        auction = state.auction
        assert auction is not None
        low = max(MIN_BID, auction.high_bid + BID_STEP)
        high = f"high bid {money(auction.high_bid)} by {rules._name(state, auction.high_seat)}" \
            if auction.high_seat is not None else "no bid yet"
        return quick_prompt(
            seat=seat, step="Auction",
            text=f"{rules._name(state, seat)}: bid for the First Player marker ({high}) "
                 "or pass for good",
            choices=[rules._pass_bid_of[seat]],
            amount=bid_amount(low),
            help=f"You have {money(state.players[seat].cash)}; bonds of {money(BOND)} are issued "
                 "at the end if the winner cannot pay. Higher bids than those listed may be typed.",
        )

    def refusal(self, state: RotwState, a: Any) -> str | None:
        if state.step is not Step.AUCTION:
            return "there is no auction under way"
        if isinstance(a, Bid):
            auction = state.auction
            assert auction is not None
            low = max(MIN_BID, auction.high_bid + BID_STEP)
            if a.amount < low:
                return f"a bid must be at least {money(low)}"
            if a.amount % BID_STEP:
                return f"bids are in whole thousands of dollars, not {money(a.amount)}"
            if a.amount > MAX_BID:
                return (f"bids stop at {money(MAX_BID)}: the bonds to pay more would cost "
                        "far more points than anyone can score")
        return None

    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        seat = action.seat
        auction = state.auction
        assert auction is not None
        name = self.rules._name(state, seat)
        if isinstance(action, Bid):
            auction.high_bid, auction.high_seat = action.amount, seat
            auction.bids[seat] = action.amount
            log.add(f"{name} bids {money(action.amount)}.", "bid", rule=R.AUCTION,
                    seat=seat, amount=action.amount)
            auction.to_act = (auction.to_act + 1) % len(auction.bidders)
        else:
            log.add(f"{name} passes.", "pass_bid", rule=R.AUCTION, seat=seat)
            index = auction.bidders.index(seat)
            auction.bidders.remove(seat)
            auction.dropped.append(seat)
            if auction.bidders:
                auction.to_act = index % len(auction.bidders)
        self._settle(state, log)

    def _settle(self, state: RotwState, log: EventLog) -> None:
        """When one bidder is left with the high bid, or none: the marker is taken and
        the order of play set (the variant's drop-outs paying half their bids)."""
        rules = self.rules
        auction = state.auction
        assert auction is not None
        left = auction.bidders
        if left and not (len(left) == 1 and auction.high_seat == left[0]):
            return
        n = len(state.players)
        half = rules._option(state, "pass_pays_half")
        if auction.high_seat is not None:
            first = auction.high_seat
            rules.pay(state, first, auction.high_bid, log, "the First Player marker")
            log.add(f"{rules._name(state, first)} wins the auction and pays "
                    f"{money(auction.high_bid)}.", "auction_won", rule=R.AUCTION, seat=first,
                    amount=auction.high_bid)
        else:
            opener = state.opener
            first = (opener + 1) % n if not half else auction.dropped[-1]
            previous = opener
            log.add(f"Everyone passes: {rules._name(state, first)} takes the First Player marker"
                    + ("" if half else f" (left of {rules._name(state, previous)})") + ".",
                    "auction_all_pass", rule=R.ALL_PASS, seat=first)
        if half:
            # Variant: each player who drops out pays half their bid; order is the reverse
            # of dropping out, after the winner.
            for seat in auction.dropped:
                owe = -(-auction.bids.get(seat, 0) // 2000) * 1000
                if owe:
                    rules.pay(state, seat, owe, log, "a dropped bid")
                    log.add(f"{rules._name(state, seat)} pays {money(owe)}, half the last bid.",
                            "half_bid", rule=R.PASS_PAYS_HALF, seat=seat, amount=owe)
            order = [first] + [s for s in reversed(auction.dropped) if s != first]
        else:
            order = [(first + i) % n for i in range(n)]
        state.first = first
        state.order = order
        state.auction = None
        log.add("Order of play: " + ", ".join(rules._name(state, s) for s in order) + ".",
                "order", rule=R.ORDER, order=order)
        start_actions(state)
