"""The auction of control markers.

The holder of the Active Player marker puts a company up, opening the bidding,
or passes the marker on; bids go round until one bidder is left, who pays the
cubes into the company, controls it this turn and takes a share. The phase
ends when every company has been auctioned or the marker has gone round the
table without one being put up.
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.auctions import next_bidder
from railgames.core.engine import AmountInput, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.actions import Bid, PassBid, PassMarker, PutUp
from railgames.games.steel_driver.phases.common import SteelDriverPhase
from railgames.games.steel_driver.state import Auction, Player, SDState, Step
from railgames.games.steel_driver.terms import cubes

STEP = "Auction control markers"
MARKER_STEPS = (Step.AUCTION,)
BID_STEPS = (Step.OPENING, Step.BIDDING)


def bid_range(a: Auction, p: Player) -> tuple[int, int]:
    """The bids ``p`` may make: more than the high bid (none before the opening bid),
    and no more than the cubes in hand."""
    return a.high_bid + 1, p.cubes


class AuctionPhase(SteelDriverPhase):
    actions: ClassVar[tuple[type, ...]] = (PutUp, PassMarker, Bid, PassBid)

    def begin(self, state: SDState, log: EventLog) -> None:
        for c in state.companies.values():
            c.controller = None
            c.auctioned = False
        state.step = Step.AUCTION
        state.marker_passes = 0
        state.last_offerer = None
        state.auction = None
        log.add(f"Auctions: {self.rules.player_name(state, state.active)} holds the Active Player marker.",
                "auctions", rule=R.MARKER, seat=state.active)

    # ------------------------------------------------------------ prompts
    def prompt(self, state: SDState) -> Prompt:
        if state.step is Step.AUCTION:
            return self._marker_prompt(state)
        a = state.auction
        assert a is not None
        company = self.rules.company_name(a.company)
        if state.step is Step.OPENING:
            p = state.players[a.offered_by]
            low, high = bid_range(a, p)
            return Prompt(
                seat=a.offered_by, step=STEP,
                text=f"{p.name} opens the bidding for the {company} company "
                     f"(holds {cubes(p.cubes)})",
                amount=AmountInput(action_type="bid", label="Opening bid", min=low,
                                   max=high, default=low, unit="cubes"),
                help="You put this company up, so you make the first bid: 1 cube or more.",
            )
        p = state.players[a.to_act]
        assert a.high_seat is not None
        low, high = bid_range(a, p)
        return Prompt(
            seat=a.to_act, step=STEP,
            text=f"{company} company: high bid {cubes(a.high_bid)} by "
                 f"{self.rules.player_name(state, a.high_seat)} — {p.name} (holds {cubes(p.cubes)}) "
                 "to bid or pass",
            choices=[self.rules.made(PassBid, seat=a.to_act)],
            amount=AmountInput(action_type="bid", label="Bid", min=low,
                               max=high, default=low, unit="cubes"),
            help="Bid more cubes than the high bid, or pass and leave this auction for good.",
        )

    def _marker_prompt(self, state: SDState) -> Prompt:
        seat = state.active
        p = state.players[seat]
        left = self.rules.player_name(state, (seat + 1) % len(state.players))
        choices: list[Any] = [self.rules.made(PutUp, seat=seat, company=c)
                                for c in self.rules.available(state)]
        choices.append(self.rules.made(PassMarker, seat=seat))
        return Prompt(
            seat=seat, step=STEP,
            text=f"{p.name} holds the Active Player marker ({cubes(p.cubes)}): put a "
                 f"company up for auction, or pass the marker to {left}",
            choices=choices,
            help="Putting a company up means opening the bidding at 1 cube or more. The "
                 "winner pays the cubes into the company, controls it this turn and takes "
                 "one of its shares.",
        )

    # ------------------------------------------------------------ checks
    def validate(self, state: SDState, action: Any) -> None:
        rules = self.rules
        if isinstance(action, PutUp):
            rules.expect(state, MARKER_STEPS, "put a company up for auction")
            why = rules.put_up_refusal(state, rules.known_company(action.company))
            if why is not None:
                raise IllegalAction(why)
            if state.players[action.seat].cubes < 1:
                raise IllegalAction("putting a company up means bidding at least 1 cube, "
                                    "and you have none")
        elif isinstance(action, PassMarker):
            rules.expect(state, MARKER_STEPS, "pass the Active Player marker")
        elif isinstance(action, Bid):
            rules.expect(state, BID_STEPS, "bid")
            a = state.auction
            assert a is not None
            p = state.players[action.seat]
            low, high = bid_range(a, p)
            if action.amount < low:
                raise IllegalAction(f"a bid must beat the high bid of {cubes(a.high_bid)}; "
                                    f"{action.amount} does not")
            if action.amount > high:
                raise IllegalAction(f"{p.name} holds {cubes(p.cubes)}; a bid of "
                                    f"{action.amount} needs {action.amount - p.cubes} more")
        else:
            rules.expect(state, BID_STEPS, "pass in an auction")
            if state.step is Step.OPENING:
                raise IllegalAction("you put this company up, so you must make the opening bid")

    # ------------------------------------------------------------ execution
    def execute(self, state: SDState, action: Any, log: EventLog) -> None:
        seat = action.seat
        name = self.rules.player_name(state, seat)
        if isinstance(action, PutUp):
            n = len(state.players)
            bidders = [(seat + i) % n for i in range(n)]
            state.auction = Auction(company=action.company, offered_by=seat, bidders=bidders,
                                    to_act=seat)
            state.step = Step.OPENING
            log.add(f"{name} puts the {self.rules.company_name(action.company)} company up for auction.",
                    "put_up", rule=R.MARKER, seat=seat, company=action.company)
        elif isinstance(action, PassMarker):
            log.add(f"{name} passes the Active Player marker.", "pass_marker", rule=R.MARKER, seat=seat)
            self._pass_marker(state)
        elif isinstance(action, Bid):
            a = state.auction
            assert a is not None
            a.high_bid, a.high_seat = action.amount, seat
            opening = state.step is Step.OPENING
            state.step = Step.BIDDING
            log.add(f"{name} {'opens with' if opening else 'bids'} {cubes(action.amount)} for "
                    f"the {self.rules.company_name(a.company)} company.", "bid", rule=R.AUCTION, seat=seat,
                    company=a.company, amount=action.amount)
            self._next_bidder(state, seat, log)
        else:
            a = state.auction
            assert a is not None
            a.bidders.remove(seat)
            log.add(f"{name} passes and is out of this auction.", "pass_bid", rule=R.AUCTION, seat=seat)
            self._next_bidder(state, seat, log)

    def settle(self, state: SDState, log: EventLog) -> bool:
        """Pass the marker for a holder with no cubes; end the auctions when they are over.

        True when the marker's holder must decide; False once the auctions are over.
        """
        while True:
            if not self.rules.available(state) or state.marker_passes >= len(state.players):
                self._end(state, log)
                return False
            p = state.players[state.active]
            if p.cubes > 0:
                return True
            log.add(f"{p.name} has no investment cubes and passes the Active Player marker.",
                    "pass_marker", rule=R.MARKER, seat=state.active, forced=True)
            self._pass_marker(state)

    # ------------------------------------------------------------ the marker and the bidding
    @staticmethod
    def _pass_marker(state: SDState) -> None:
        state.marker_passes += 1
        state.active = (state.active + 1) % len(state.players)

    def _next_bidder(self, state: SDState, after: int, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        seat = next_bidder(after, len(state.players), a.bidders, a.high_seat)
        if seat is not None:
            a.to_act = seat
        self._settle_bidding(state, log)

    def _settle_bidding(self, state: SDState, log: EventLog) -> None:
        """Drop bidders who cannot top the high bid; award the company once one bidder is left."""
        a = state.auction
        assert a is not None
        n = len(state.players)
        while [s for s in a.bidders if s != a.high_seat]:
            seat = a.to_act
            p = state.players[seat]
            if p.cubes > a.high_bid:
                return
            a.bidders.remove(seat)
            log.add(f"{p.name} cannot top the high bid of {a.high_bid} (holds {cubes(p.cubes)}) "
                    "and is out of this auction.", "pass_bid", rule=R.AUCTION, seat=seat, forced=True)
            for i in range(1, n + 1):
                nxt = (seat + i) % n
                if nxt in a.bidders and nxt != a.high_seat:
                    a.to_act = nxt
                    break
        self._award(state, log)

    def _award(self, state: SDState, log: EventLog) -> None:
        a = state.auction
        assert a is not None and a.high_seat is not None
        seat, bid = a.high_seat, a.high_bid
        p = state.players[seat]
        c = state.companies[a.company]
        p.cubes -= bid
        c.cubes += bid
        c.controller = seat
        c.last_controller = seat
        c.auctioned = True
        c.shares_left -= 1
        p.shares[c.id] = p.shares.get(c.id, 0) + 1
        name = self.rules.company_name(c.id)
        log.add(f"{p.name} wins control of the {name} company for {cubes(bid)}, paid into "
                f"its box, and takes a {name} share ({c.shares_left} left).", "win", rule=R.CONTROL, seat=seat,
                company=c.id, cubes=-bid, company_cubes=bid)
        state.auction = None
        state.step = Step.AUCTION
        state.last_offerer = a.offered_by
        state.marker_passes = 0
        state.active = (a.offered_by + 1) % len(state.players)

    def _end(self, state: SDState, log: EventLog) -> None:
        if state.last_offerer is not None:
            state.active = (state.last_offerer + 1) % len(state.players)
        unsold = [self.rules.company_name(c) for c in self.rules.available(state)]
        rest = f"; nobody bought {', '.join(unsold)}" if unsold else ""
        log.add(f"The auctions are over{rest}. {self.rules.player_name(state, state.active)} now holds the "
                "Active Player marker.", "auctions_over", rule=R.END_AUCTIONS, seat=state.active)
