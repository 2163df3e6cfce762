"""American Rails: share auctions, in the preparation round and from the action track.

The preparation round auctions one share of each company, the winner of each
picking the next; later a player on the track's auction space may put up one
share. Bids go round until all but the high bidder have passed; the winner pays
the company's treasury, and a company new to the map starts on an empty city of
the winner's choice. Then the turn goes back to the action track, or, once every
company has been offered in the preparation round, the first year begins.
"""

from __future__ import annotations

from typing import Any

from railgames.core.auctions import next_bidder
from railgames.core.engine import AmountInput, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.american_rails import rule_texts as R
from railgames.games.american_rails.actions import (
    Bid,
    EndAction,
    OfferShare,
    PassBid,
    PlaceStart,
)
from railgames.games.american_rails.common import MINIMUM_BID, AmericanRailsBase, article
from railgames.games.american_rails.state import ARState, Auction, Step
from railgames.games.american_rails.track import TrackPhase

# Why a share may not go up for auction, by what ``AuctionPhase.offer_bar`` finds.
OFFER_BARS = {
    "out": "the {company} company is not in this game",
    "offered": "{a_company} share has already been up for auction in the preparation round",
    "sold": "the {company} company has no shares left to sell",
}


class AuctionPhase(Phase[AmericanRailsBase, ARState]):
    """Offering a share, bidding, and starting a company won at auction."""

    actions = (OfferShare, Bid, PassBid, PlaceStart)

    def __init__(self, rules: AmericanRailsBase, track: TrackPhase) -> None:
        super().__init__(rules)
        self.track = track

    # ------------------------------------------------------------ what may be done
    @staticmethod
    def offer_bar(state: ARState, company: str) -> str | None:
        """What stops a share of ``company`` going up for auction now, as a key of
        ``OFFER_BARS``, or None."""
        c = state.companies[company]
        if not c.in_game:
            return "out"
        if state.prep and c.offered_in_prep:
            return "offered"
        if c.shares_left <= 0:
            return "sold"
        return None

    def offerable(self, state: ARState) -> list[str]:
        return [c.id for c in state.company_list() if self.offer_bar(state, c.id) is None]

    @staticmethod
    def minimum_bid(a: Auction) -> int:
        return max(MINIMUM_BID, a.high_bid + 1)

    def bid_refusal(self, state: ARState, seat: int, amount: int) -> str | None:
        a = state.auction
        assert a is not None
        p = state.players[seat]
        low = self.minimum_bid(a)
        if amount < low:
            why = (f"the high bid is ${a.high_bid}" if a.high_seat is not None
                   else f"the minimum bid is ${MINIMUM_BID}")
            return f"a bid of ${amount} is too low: {why}, so bid ${low} or more"
        if amount > p.money:
            return f"{p.name} has ${p.money}; a bid of ${amount} needs ${amount - p.money} more"
        return None

    # ------------------------------------------------------------ prompts
    def prompt(self, state: ARState) -> Prompt | None:
        rules = self.rules
        step = state.step
        seat = state.acting
        name = rules._name(state, seat)
        money = state.players[seat].money
        if step is Step.OFFER:
            choices: list[Any] = [rules.made(OfferShare, seat=seat, company=c) for c in self.offerable(state)]
            if state.prep:
                return Prompt(
                    seat=seat, step="Preparation round",
                    text=f"{name} (${money}): choose the company whose first share goes up for auction",
                    choices=choices,
                    help="You then bid first ($10 or more) or pass. The winner pays the company, "
                         "starts it on an empty city and picks the next company.")
            choices.append(rules.made(EndAction, seat=seat))
            return Prompt(seat=seat, step="Auction a share",
                          text=f"{name} (${money}): choose a company's share to auction, or none",
                          choices=choices,
                          help="The winner pays the company's treasury. A company not yet on the "
                               "map starts on an empty city of the winner's choice.")
        if step is Step.BID:
            a = state.auction
            assert a is not None
            bidder = state.players[a.to_act]
            company = rules.company_name(a.company)
            high = (f"high bid ${a.high_bid} by {rules._name(state, a.high_seat)}"
                    if a.high_seat is not None else "no bid yet")
            low = self.minimum_bid(a)
            return Prompt(
                seat=a.to_act, step="Auction",
                text=f"{bidder.name} (${bidder.money}): {article(company)} share is up ({high}); bid or pass",
                choices=[rules.made(PassBid, seat=a.to_act)],
                amount=AmountInput(action_type="bid", label="Bid", min=low, max=bidder.money,
                                   default=low),
                help="Bid more than the high bid (the first bid $10 or more), or pass: a player "
                     "who passes is out of this auction.")
        # START
        company = state.auction.company if state.auction else ""
        return Prompt(
            seat=seat, step="Place the first cube",
            text=f"{name}: place the {rules.company_name(company)} company's first cube on an "
                 "empty city",
            choices=[rules.made(PlaceStart, seat=seat, city=c) for c in rules.empty_cities(state)],
            help="The company's income starts at that city's full value.")

    # ------------------------------------------------------------ checks
    def validate(self, state: ARState, action: Any) -> None:
        rules = self.rules
        refusal: str | None = None
        if isinstance(action, OfferShare):
            rules._expect(state, (Step.OFFER,), "put a share up for auction")
            bar = self.offer_bar(state, action.company)
            if bar is not None:
                name = rules.company_name(action.company)
                refusal = OFFER_BARS[bar].format(company=name, a_company=article(name))
        elif isinstance(action, Bid):
            rules._expect(state, (Step.BID,), "bid")
            refusal = self.bid_refusal(state, action.seat, action.amount)
        elif isinstance(action, PassBid):
            rules._expect(state, (Step.BID,), "pass in an auction")
        else:  # PlaceStart
            rules._expect(state, (Step.START,), "place a company's first cube")
            if not rules.city_is_empty(state, action.city):
                refusal = (f"{rules.city_name(action.city)} already has track; a company starts "
                           "on an empty city")
        if refusal is not None:
            raise IllegalAction(refusal)

    # ------------------------------------------------------------ execution
    def execute(self, state: ARState, action: Any, log: EventLog) -> None:
        seat = action.seat
        name = self.rules._name(state, seat)
        if isinstance(action, OfferShare):
            self.open_auction(state, seat, action.company, log)
        elif isinstance(action, Bid):
            a = state.auction
            assert a is not None
            a.high_bid, a.high_seat = action.amount, seat
            log.add(f"{name} bids ${action.amount} for the {self.rules.company_name(a.company)} share.",
                    "bid", rule=R.AUCTION, seat=seat, amount=action.amount)
            self._next_bidder(state, seat, log)
        elif isinstance(action, PassBid):
            a = state.auction
            assert a is not None
            a.bidders.remove(seat)
            a.last_pass = seat
            log.add(f"{name} passes and is out of this auction.", "pass_bid", rule=R.AUCTION, seat=seat)
            self._next_bidder(state, seat, log)
        else:  # PlaceStart
            a = state.auction
            assert a is not None
            self.place_first_cube(state, a.company, action.city, seat, log)
            state.auction = None
            self._after_sale(state, seat, log)

    def open_auction(self, state: ARState, seat: int, company: str, log: EventLog) -> None:
        n = len(state.players)
        c = state.companies[company]
        if state.prep:
            c.offered_in_prep = True
        state.auction = Auction(company=company, auctioneer=seat,
                                bidders=[(seat + i) % n for i in range(n)], to_act=seat)
        state.step = Step.BID
        log.add(f"{self.rules._name(state, seat)} puts {article(self.rules.company_name(company))} share "
                f"up for auction (minimum bid ${MINIMUM_BID}).", "offer", rule=R.AUCTION, seat=seat,
                company=company)
        self._settle(state, log)

    def _next_bidder(self, state: ARState, after: int, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        seat = next_bidder(after, len(state.players), a.bidders, a.high_seat)
        if seat is not None:
            a.to_act = seat
        self._settle(state, log)

    def _settle(self, state: ARState, log: EventLog) -> None:
        """Pass for bidders who cannot top the high bid; close the auction once it is decided."""
        a = state.auction
        assert a is not None
        n = len(state.players)
        while True:
            waiting = [s for s in a.bidders if s != a.high_seat]
            if not waiting:
                break
            p = state.players[a.to_act]
            if p.money >= self.minimum_bid(a):
                return
            a.bidders.remove(a.to_act)
            a.last_pass = a.to_act
            log.add(f"{p.name} has ${p.money}, less than a bid of ${self.minimum_bid(a)}, and "
                    "passes.", "pass_bid", rule=R.AUCTION, seat=a.to_act, forced=True)
            for i in range(1, n + 1):
                nxt = (a.to_act + i) % n
                if nxt in a.bidders and nxt != a.high_seat:
                    a.to_act = nxt
                    break
        if a.high_seat is None:
            self._no_sale(state, log)
        else:
            self._sell(state, log)

    def _no_sale(self, state: ARState, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        c = state.companies[a.company]
        c.shares_left -= 1
        c.shares_removed += 1
        log.add(f"Nobody bids: the {self.rules.company_name(c.id)} share is removed from the game "
                f"({c.shares_left} left).", "share_removed", rule=R.AUCTION, company=c.id)
        state.auction = None
        if state.prep:
            # The last player to pass picks the next company.
            picker = a.last_pass if a.last_pass is not None else a.auctioneer
            self._next_prep_offer(state, picker, log)
        else:
            self.track.end_turn(state, log)

    def _sell(self, state: ARState, log: EventLog) -> None:
        a = state.auction
        assert a is not None and a.high_seat is not None
        seat, bid = a.high_seat, a.high_bid
        p = state.players[seat]
        c = state.companies[a.company]
        name = self.rules.company_name(c.id)
        if not c.on_map and not self.rules.empty_cities(state):
            # Ruling "no empty city": the sale does not happen, so no money changes hands.
            removed = c.shares_left
            c.shares_removed += removed
            c.shares_left = 0
            log.add(f"{p.name} wins the {name} share, but no city is empty for the company to "
                    f"start on: that share and the rest of the {name} shares ({removed} in all) "
                    "are removed from the game.", "shares_removed", rule=R.AUCTION, seat=seat, company=c.id,
                    shares=removed)
            state.auction = None
            self._after_sale(state, seat, log)
            return
        p.money -= bid
        p.bids += bid
        c.treasury += bid
        c.shares_left -= 1
        p.shares[c.id] = p.shares.get(c.id, 0) + 1
        log.add(f"{p.name} buys the {name} share for ${bid}, paid into its treasury.", "sale", rule=R.AUCTION,
                seat=seat, company=c.id, cash=-bid, treasury=bid)
        if c.on_map:
            state.auction = None
            self._after_sale(state, seat, log)
            return
        state.step = Step.START
        state.acting = seat

    def place_first_cube(self, state: ARState, company: str, city: str, seat: int,
                         log: EventLog) -> None:
        rules = self.rules
        c = state.companies[company]
        h = rules._city_hex[city]
        c.supply -= 1
        c.hexes.append(h)
        state.hexes.setdefault(h, []).append(company)
        c.income = rules._city[city].full
        log.add(f"{rules._name(state, seat)} starts the {rules.company_name(company)} company in "
                f"{rules.city_name(city)}: income ${c.income}.", "start", rule=R.FIRST_CUBE, seat=seat,
                company=company, city=city, income=c.income)

    def _after_sale(self, state: ARState, winner: int, log: EventLog) -> None:
        if state.prep:
            if winner not in state.turn_order:
                state.turn_order.append(winner)
                log.add(f"{self.rules._name(state, winner)} takes space {len(state.turn_order)} of the "
                        "turn order track.", "turn_order", rule=R.PREP, seat=winner,
                        position=len(state.turn_order))
            self._next_prep_offer(state, winner, log)
        else:
            self.track.end_turn(state, log)

    def _next_prep_offer(self, state: ARState, picker: int, log: EventLog) -> None:
        if self.offerable(state):
            state.step = Step.OFFER
            state.acting = picker
            state.turn += 1
            return
        name = self.rules._name
        n = len(state.players)
        rest = [s for s in range(n) if s not in state.turn_order]  # clockwise from the banker
        for s in rest:
            state.turn_order.append(s)
        if rest:
            log.add("Players without shares take the last turn order spaces: "
                    + ", ".join(name(state, s) for s in rest) + ".", "turn_order_rest", rule=R.PREP,
                    seats=rest)
        state.prep = False
        log.add("The preparation round is over. Turn order: "
                + ", ".join(name(state, s) for s in state.turn_order) + ".", "prep_over", rule=R.PREP)
        self.track.begin_round(state, log)
