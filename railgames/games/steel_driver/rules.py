"""Steel Driver: six railroad companies, controlled one turn at a time.

Each of the five turns runs: take investment cubes, auction control of the
companies (bids are paid in cubes, into the company), build track company by
company, take profits, end the turn. After the fifth turn the companies claim
goods cubes from the locations their track reaches and the sets of colours
they make decide what each share pays.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action and then runs every automatic step (forced passes, profits, the end of
a turn) until the next decision. Rulings on what the rulebook leaves open are
in docs/rulings/steel-driver.md; comments below name them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from railgames.core.auctions import next_bidder
from railgames.core.engine import AmountInput, Interned, Prompt, Result, Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.actions import (
    ACTION_ADAPTER,
    Bid,
    BuildTrack,
    ClaimGoods,
    PassBid,
    PassMarker,
    PutUp,
)
from railgames.games.steel_driver.board_map import COLOURS, Route, SteelDriverMap
from railgames.games.steel_driver.state import Auction, Company, Player, SDState, Step

CUBES_PER_TURN = {3: 10, 4: 8, 5: 7, 6: 6}
TURNS = 5
TRANSCONTINENTAL_BUILDER = 50
TRANSCONTINENTAL_OTHERS = 30
SHARERS_KEPT = 4096  # tracks whose transcontinental sharers are kept
# What a set of 1, 2, 3, 4 or 5 goods cubes of different colours is worth.
SET_VALUES = (0, 10, 30, 60, 100, 150)


def goods_sets(goods: dict[str, int]) -> list[list[str]]:
    """The best way to arrange goods cubes into sets of different colours.

    Ruling "arranging sets": a set is worth more the bigger it is, and each
    extra cube adds more than the one before (10, 20, 30, 40, 50), so the best
    arrangement puts one cube of every colour held in the first set, one of
    every colour still left in the second, and so on.
    """
    left = {c: k for c, k in goods.items() if k > 0}
    sets: list[list[str]] = []
    while left:
        layer = [c for c in COLOURS if c in left] + sorted(c for c in left if c not in COLOURS)
        sets.append(layer)
        for c in layer:
            left[c] -= 1
            if left[c] == 0:
                del left[c]
    return sets


def set_value(goods: dict[str, int]) -> int:
    return sum(SET_VALUES[len(s)] for s in goods_sets(goods))


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(frozen=True)
class BuildOutcome:
    """What a legal build brings: the place it reaches and the profit it adds."""

    target: str | None  # the location the company reaches for the first time; None for a loop
    gain: int  # that location's value, added to the company's profit
    bonus: int = 0  # the transcontinental bonus to the builder, when this build makes the link
    sharers: tuple[str, ...] = ()  # the other companies sharing that bonus, in company order
    links: int = 0  # the length of the transcontinental route, when made

    @property
    def profit(self) -> int:
        """All the profit the build adds to its own company."""
        return self.gain + self.bonus


@dataclass(frozen=True)
class ClaimOutcome:
    """What a legal claim takes, and the company's goods value before and after it."""

    colour: str
    before: int
    after: int


class SteelDriverRules(Ruleset[SDState]):
    id: ClassVar[str] = "steel-driver"
    title: ClassVar[str] = "Steel Driver"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "steel-driver"
    pitch: ClassVar[str] = (
        "Bid cubes for control of six railroads, race them across America, "
        "and collect goods of every colour."
    )
    play_time: ClassVar[str] = "60-90 min"
    map_model = SteelDriverMap
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here: the bots import these rules.
        from railgames.games.steel_driver.bots import GreedyBot, SteelDriverSearch

        return {"greedy": GreedyBot, "search": SteelDriverSearch.maker(self)}

    map: SteelDriverMap

    def __init__(self, game_map: SteelDriverMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        self.companies: list[str] = m.company_ids
        self._loc = m.location_by_id
        self._route = m.route_by_id
        self._routes_at = m.routes_at
        self._west, self._east = m.transcontinental
        # Legal choices, made once each (see engine.Interned).
        self._listed_build_track = Interned(BuildTrack).make
        self._listed_claim_goods = Interned(ClaimGoods).make
        self._sharers: dict[frozenset[tuple[str, str]], Any] = {}

    # ------------------------------------------------------------ names
    def location_name(self, loc: str) -> str:
        return self._loc[loc].name

    def city_name(self, loc: str) -> str:
        """The name the app shows for a place on the board (a location here)."""
        return self.location_name(loc)

    def route_name(self, route: str) -> str:
        r = self._route[route]
        return f"{self._loc[r.a].name}–{self._loc[r.b].name}"

    def company_name(self, company: str) -> str:
        return self.map.company_by_id[company].name

    def route(self, route: str) -> Route:
        return self._route[route]

    def value(self, loc: str) -> int:
        return self._loc[loc].value

    def colour(self, loc: str) -> str:
        return self._loc[loc].colour

    def is_starting(self, loc: str) -> bool:
        return self._loc[loc].starting

    @staticmethod
    def _name(state: SDState, seat: int) -> str:
        return state.players[seat].name

    @staticmethod
    def _cubes(count: int) -> str:
        return f"{count} cube{'s' if count != 1 else ''}"

    def stand_ins(self, state: SDState) -> int:
        """Goods cubes in use as investment cubes (once the white ones have run out)."""
        if state.step in (Step.CLAIM, Step.OVER):
            return 0
        return max(0, state.cubes_in_play() - self.map.investment_cubes)

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> SDState:
        n = len(record.players)
        m = self.map
        state = SDState(
            players=[Player(name=p.name) for p in record.players],
            companies={cid: Company(id=cid, shares_left=m.shares_per_company) for cid in self.companies},
            order=list(self.companies),
            turn=0,
            step=Step.AUCTION,
            active=0,
            pool=m.total_cubes,
            chance=chance,
        )
        log.add(f"Set-up: {len(self.companies)} companies of {m.shares_per_company} shares; "
                f"{m.investment_cubes} investment cubes and {sum(m.goods_cubes.values())} goods cubes "
                f"in the pool; each player takes {CUBES_PER_TURN[n]} cubes a turn for {TURNS} turns.",
                "setup", rule=R.SETUP)
        # Ruling "who starts": the youngest player is drawn from the seed.
        state.active = chance.randrange(n)
        log.add(f"{self._name(state, state.active)} is drawn to hold the Active Player marker.",
                "active_player", rule=R.SETUP, chance=True, seat=state.active)
        self._begin_turn(state, log)
        return state

    # ------------------------------------------------------------ prompts
    def to_move(self, state: SDState) -> int | None:
        step = state.step
        if step is Step.AUCTION:
            return state.active
        if step is Step.OPENING:
            assert state.auction is not None
            return state.auction.offered_by
        if step is Step.BIDDING:
            assert state.auction is not None
            return state.auction.to_act
        if step in (Step.BUILD, Step.CLAIM):
            return state.active_company().controller
        return None

    def turn_of(self, state: SDState) -> int:
        return state.turn

    def prompt(self, state: SDState) -> Prompt | None:
        step = state.step
        if step is Step.OVER:
            return None
        if step is Step.AUCTION:
            seat = state.active
            p = state.players[seat]
            left = self._name(state, (seat + 1) % len(state.players))
            choices: list[Any] = [PutUp(seat=seat, company=c) for c in self.available(state)]
            choices.append(PassMarker(seat=seat))
            return Prompt(
                seat=seat, step="Auction control markers",
                text=f"{p.name} holds the Active Player marker ({self._cubes(p.cubes)}): put a "
                     f"company up for auction, or pass the marker to {left}",
                choices=choices,
                help="Putting a company up means opening the bidding at 1 cube or more. The "
                     "winner pays the cubes into the company, controls it this turn and takes "
                     "one of its shares.",
            )
        if step in (Step.OPENING, Step.BIDDING):
            a = state.auction
            assert a is not None
            company = self.company_name(a.company)
            if step is Step.OPENING:
                p = state.players[a.offered_by]
                return Prompt(
                    seat=a.offered_by, step="Auction control markers",
                    text=f"{p.name} opens the bidding for the {company} company "
                         f"(holds {self._cubes(p.cubes)})",
                    amount=AmountInput(action_type="bid", label="Opening bid", min=1,
                                       max=p.cubes, default=1, unit="cubes"),
                    help="You put this company up, so you make the first bid: 1 cube or more.",
                )
            p = state.players[a.to_act]
            assert a.high_seat is not None
            return Prompt(
                seat=a.to_act, step="Auction control markers",
                text=f"{company} company: high bid {self._cubes(a.high_bid)} by "
                     f"{self._name(state, a.high_seat)} — {p.name} (holds {self._cubes(p.cubes)}) "
                     "to bid or pass",
                choices=[PassBid(seat=a.to_act)],
                amount=AmountInput(action_type="bid", label="Bid", min=a.high_bid + 1,
                                   max=p.cubes, default=a.high_bid + 1, unit="cubes"),
                help="Bid more cubes than the high bid, or pass and leave this auction for good.",
            )
        c = state.active_company()
        ctrl = c.controller
        assert ctrl is not None
        company = self.company_name(c.id)
        if step is Step.BUILD:
            what = "its first link, from a starting location" if not c.reached else "one track link"
            return Prompt(
                seat=ctrl, step="Build track",
                text=f"{company} company ({self._name(state, ctrl)}; {self._cubes(c.cubes)}, "
                     f"profit ${c.profit}): build {what}",
                choices=self.legal_builds(state, c.id),
                help="A company must build while it can pay for a link that joins its network; "
                     "it passes only when it cannot. A location adds its value the first time "
                     "the company reaches it.",
            )
        return Prompt(
            seat=ctrl, step="Final profit determination",
            text=f"{company} company ({self._name(state, ctrl)}; holds "
                 f"{self.goods_text(c.goods)}): claim one goods cube",
            choices=self.legal_claims(state, c.id),
            help="Take a cube from any location the company's track reaches. Sets of different "
                 "colours score 10, 30, 60, 100 or 150 for 1 to 5 cubes.",
        )

    def goods_text(self, goods: dict[str, int]) -> str:
        parts = [f"{goods[c]} {c}" for c in COLOURS if goods.get(c)]
        return ", ".join(parts) if parts else "no goods"

    # ------------------------------------------------------------ what can be done
    def available(self, state: SDState) -> list[str]:
        """Companies whose control can still be put up for auction this turn."""
        return [cid for cid in self.companies
                if not state.companies[cid].auctioned and state.companies[cid].shares_left > 0]

    def buildable_routes(self, state: SDState, company: str) -> list[Route]:
        """Unbuilt routes the company could build now, cubes aside."""
        c = state.companies[company]
        if not c.reached:
            return [r for r in self.map.links if r.id not in state.track
                    and (self.is_starting(r.a) or self.is_starting(r.b))]
        seen: set[str] = set()
        out: list[Route] = []
        for loc in c.reached:
            for r in self._routes_at[loc]:
                if r.id not in state.track and r.id not in seen:
                    seen.add(r.id)
                    out.append(r)
        return out

    def legal_builds(self, state: SDState, company: str) -> list[BuildTrack]:
        c = state.companies[company]
        seat = c.controller if c.controller is not None else 0
        # Built from routes this method has just checked, so validation is skipped.
        make = self._listed_build_track
        out: list[BuildTrack] = []
        for r in self.buildable_routes(state, company):
            if r.cost > c.cubes:
                continue
            if c.reached:
                out.append(make(seat, company, r.id, None))
            else:
                out.extend(make(seat, company, r.id, end)
                           for end in (r.a, r.b) if self.is_starting(end))
        return out

    def legal_claims(self, state: SDState, company: str) -> list[ClaimGoods]:
        c = state.companies[company]
        seat = c.controller if c.controller is not None else 0
        return [self._listed_claim_goods(seat, company, loc)
                for loc in c.reached if loc in state.goods_on]

    def target_of(self, state: SDState, action: BuildTrack) -> str | None:
        """The location a (legal) build reaches for the first time; None for a loop."""
        c = state.companies[action.company]
        r = self._route[action.route]
        if not c.reached:
            assert action.start is not None
            return r.b if action.start == r.a else r.a
        new = [end for end in (r.a, r.b) if end not in c.reached]
        return new[0] if new else None

    def gain_of(self, state: SDState, action: BuildTrack) -> int:
        """The profit a (legal) build adds, the transcontinental bonus aside."""
        target = self.target_of(state, action)
        return 0 if target is None else self.value(target)

    def build_outcome(self, state: SDState, action: BuildTrack) -> BuildOutcome:
        """What a (legal) build would bring, worked out without changing ``state``."""
        target = self.target_of(state, action)
        gain = 0 if target is None else self.value(target)
        if state.transcontinental is not None:
            return BuildOutcome(target, gain)
        found = self.transcontinental_sharers({**state.track, action.route: action.company})
        if found is None:
            return BuildOutcome(target, gain)
        groups, links = found
        sharers = set().union(*groups)
        others = tuple(c for c in self.companies if c in sharers and c != action.company)
        return BuildOutcome(target, gain, TRANSCONTINENTAL_BUILDER, others, links)

    def claim_outcome(self, state: SDState, action: ClaimGoods) -> ClaimOutcome:
        """The cube a (legal) claim takes and the company's goods value before and after."""
        goods = state.companies[action.company].goods
        colour = state.goods_on[action.location]
        after = dict(goods)
        after[colour] = after.get(colour, 0) + 1
        return ClaimOutcome(colour, set_value(goods), set_value(after))

    def share_payouts(self, state: SDState, seat: int) -> dict[str, int]:
        """What ``seat``'s shares pay at the end, by company (shares held × a share's worth).

        Companies in their order, only those the player holds shares of; a share
        is worth nothing before the final profit determination is over.
        """
        shares = state.players[seat].shares
        return {cid: shares[cid] * (state.companies[cid].final_profit or 0)
                for cid in self.companies if shares.get(cid)}

    # ------------------------------------------------------------ validation
    def validate(self, state: SDState, action: Any) -> None:
        if isinstance(action, PutUp):
            self._expect(state, (Step.AUCTION,), "put a company up for auction")
            cid = self._company(action.company)
            c = state.companies[cid]
            name = self.company_name(cid)
            if c.auctioned:
                raise IllegalAction(f"the {name} company has already been auctioned this turn")
            if c.shares_left == 0:
                raise IllegalAction(f"the {name} company has no shares left to issue")
            if state.players[action.seat].cubes < 1:
                raise IllegalAction("putting a company up means bidding at least 1 cube, "
                                    "and you have none")
        elif isinstance(action, PassMarker):
            self._expect(state, (Step.AUCTION,), "pass the Active Player marker")
        elif isinstance(action, Bid):
            self._expect(state, (Step.OPENING, Step.BIDDING), "bid")
            a = state.auction
            assert a is not None
            p = state.players[action.seat]
            if action.amount <= a.high_bid:
                raise IllegalAction(f"a bid must beat the high bid of {self._cubes(a.high_bid)}; "
                                    f"{action.amount} does not")
            if action.amount > p.cubes:
                raise IllegalAction(f"{p.name} holds {self._cubes(p.cubes)}; a bid of "
                                    f"{action.amount} needs {action.amount - p.cubes} more")
        elif isinstance(action, PassBid):
            self._expect(state, (Step.OPENING, Step.BIDDING), "pass in an auction")
            if state.step is Step.OPENING:
                raise IllegalAction("you put this company up, so you must make the opening bid")
        elif isinstance(action, BuildTrack):
            self._validate_build(state, action)
        elif isinstance(action, ClaimGoods):
            self._validate_claim(state, action)
        else:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")

    def _expect(self, state: SDState, steps: tuple[Step, ...], doing: str) -> None:
        if state.step not in steps:
            names = {
                Step.AUCTION: "the auction of control markers",
                Step.OPENING: "an opening bid", Step.BIDDING: "an auction",
                Step.BUILD: "track building", Step.CLAIM: "the final profit determination",
                Step.OVER: "the end of the game",
            }
            raise IllegalAction(f"you cannot {doing} now: the game is at {names[state.step]}")

    def _company(self, company: str) -> str:
        if company not in self.map.company_by_id:
            raise MalformedAction(f"'{company}' is not a company ({', '.join(self.companies)})")
        return company

    def _location(self, loc: str) -> str:
        if loc not in self._loc:
            raise MalformedAction(f"there is no location '{loc}' on this map")
        return loc

    def _active(self, state: SDState, company: str, doing: str) -> Company:
        cid = self._company(company)
        active = state.active_company()
        if cid != active.id:
            raise IllegalAction(f"it is the {self.company_name(active.id)} company's turn to "
                                f"{doing}, not the {self.company_name(cid)} company's")
        return active

    def _validate_build(self, state: SDState, action: BuildTrack) -> None:
        self._expect(state, (Step.BUILD,), "build track")
        r = self._route.get(action.route)
        if r is None:
            raise MalformedAction(f"there is no route '{action.route}' on this map")
        if action.start is not None:
            self._location(action.start)
        c = self._active(state, action.company, "build")
        name = self.company_name(c.id)
        route = self.route_name(r.id)
        owner = state.track.get(r.id)
        if owner is not None:
            raise IllegalAction(f"{route} already has a track link (the {self.company_name(owner)} "
                                "company's); only one link may be built along a route")
        if not c.reached:
            if action.start is None:
                raise IllegalAction(f"the {name} company's first link must name the starting "
                                    "location it is built from")
            if action.start not in (r.a, r.b):
                raise IllegalAction(f"{self.location_name(action.start)} is not an end of {route}")
            if not self.is_starting(action.start):
                raise IllegalAction(f"{self.location_name(action.start)} is not a starting "
                                    "location (a hexagon); a company's first link is built "
                                    "from one")
        else:
            if action.start is not None:
                raise IllegalAction(f"only a company's first link names a starting location; the "
                                    f"{name} company started from {self.location_name(c.start or '')}")
            if r.a not in c.reached and r.b not in c.reached:
                raise IllegalAction(f"track must be contiguous: {route} does not touch the {name} "
                                    "company's network")
        if r.cost > c.cubes:
            raise IllegalAction(f"the {name} company has {self._cubes(c.cubes)} and {route} costs "
                                f"{r.cost}; track is paid from the company's cubes only, never "
                                "from a player's own")

    def _validate_claim(self, state: SDState, action: ClaimGoods) -> None:
        self._expect(state, (Step.CLAIM,), "claim goods")
        loc = self._location(action.location)
        c = self._active(state, action.company, "claim a goods cube")
        where = self.location_name(loc)
        if loc not in c.reached:
            raise IllegalAction(f"{where} is not on the {self.company_name(c.id)} company's track")
        if loc not in state.goods_on:
            raise IllegalAction(f"no goods cube is left at {where}")

    # ------------------------------------------------------------ execution
    def execute(self, state: SDState, action: Any, log: EventLog) -> None:
        seat = action.seat
        name = self._name(state, seat)
        if isinstance(action, PutUp):
            n = len(state.players)
            bidders = [(seat + i) % n for i in range(n)]
            state.auction = Auction(company=action.company, offered_by=seat, bidders=bidders,
                                    to_act=seat)
            state.step = Step.OPENING
            log.add(f"{name} puts the {self.company_name(action.company)} company up for auction.",
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
            log.add(f"{name} {'opens with' if opening else 'bids'} {self._cubes(action.amount)} for "
                    f"the {self.company_name(a.company)} company.", "bid", rule=R.AUCTION, seat=seat,
                    company=a.company, amount=action.amount)
            self._next_bidder(state, seat, log)
        elif isinstance(action, PassBid):
            a = state.auction
            assert a is not None
            a.bidders.remove(seat)
            log.add(f"{name} passes and is out of this auction.", "pass_bid", rule=R.AUCTION, seat=seat)
            self._next_bidder(state, seat, log)
        elif isinstance(action, BuildTrack):
            self._build(state, action, log)
            state.cursor = (state.cursor + 1) % len(state.order)
        elif isinstance(action, ClaimGoods):
            c = state.companies[action.company]
            colour = state.goods_on.pop(action.location)
            c.goods[colour] = c.goods.get(colour, 0) + 1
            log.add(f"The {self.company_name(c.id)} company claims the {colour} cube at "
                    f"{self.location_name(action.location)}.", "claim", rule=R.CLAIM, seat=seat,
                    company=c.id, location=action.location, colour=colour)
            state.cursor = (state.cursor + 1) % len(state.order)
        self._advance(state, log)

    # ------------------------------------------------------------ the flow of a turn
    def _advance(self, state: SDState, log: EventLog) -> None:
        """Run automatic steps until a player must decide (or the game ends)."""
        while True:
            step = state.step
            if step is Step.AUCTION:
                if not self.available(state) or state.marker_passes >= len(state.players):
                    self._end_auctions(state, log)
                    continue
                p = state.players[state.active]
                if p.cubes == 0:
                    log.add(f"{p.name} has no investment cubes and passes the Active Player marker.",
                            "pass_marker", rule=R.MARKER, seat=state.active, forced=True)
                    self._pass_marker(state)
                    continue
                return
            if step is Step.BUILD:
                if self._next_company(state, log, self._build_refusal):
                    return
                self._take_profits(state, log)
                self._end_of_turn(state, log)
                continue
            if step is Step.CLAIM:
                if self._next_company(state, log, self._claim_refusal):
                    return
                self._final_payout(state, log)
                return
            return

    def _begin_turn(self, state: SDState, log: EventLog) -> None:
        state.turn += 1
        order = ", ".join(self.company_name(c) for c in state.order)
        log.add(f"Turn {state.turn} of {TURNS} begins. Order of play: {order}.", "turn", rule=R.TURN_ORDER,
                turn=state.turn)
        self._take_cubes(state, log)
        for c in state.companies.values():
            c.controller = None
            c.auctioned = False
        state.step = Step.AUCTION
        state.marker_passes = 0
        state.last_offerer = None
        state.auction = None
        log.add(f"Auctions: {self._name(state, state.active)} holds the Active Player marker.",
                "auctions", rule=R.MARKER, seat=state.active)

    def _take_cubes(self, state: SDState, log: EventLog) -> None:
        n = len(state.players)
        each = CUBES_PER_TURN[n]
        stand_ins_before = self.stand_ins(state)
        given = [0] * n
        if state.pool >= each * n:
            given = [each] * n
        else:
            # Ruling "empty pool": cubes go one at a time round the table from the
            # Active Player marker's holder until the pool is empty.
            left, seat = state.pool, state.active
            while left:
                given[seat] += 1
                left -= 1
                seat = (seat + 1) % n
        for seat, k in enumerate(given):
            state.players[seat].cubes += k
        state.pool -= sum(given)
        if all(k == each for k in given):
            log.add(f"Each player takes {self._cubes(each)} from the pool.", "take_cubes", rule=R.TAKE_CUBES,
                    given=given)
        else:
            log.add("The pool runs out: " + ", ".join(
                f"{self._name(state, s)} takes {k}" for s, k in enumerate(given))
                + f" (of {each} each).", "take_cubes", rule=R.TAKE_CUBES, given=given)
        stand_ins = self.stand_ins(state)
        if stand_ins > stand_ins_before:
            log.add(f"The white investment cubes have run out: {stand_ins} goods cubes now stand "
                    "in for them.", "stand_ins", rule=R.STAND_INS, count=stand_ins)

    # ------------------------------------------------------------ auctions
    def _pass_marker(self, state: SDState) -> None:
        state.marker_passes += 1
        state.active = (state.active + 1) % len(state.players)

    def _next_bidder(self, state: SDState, after: int, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        seat = next_bidder(after, len(state.players), a.bidders, a.high_seat)
        if seat is not None:
            a.to_act = seat
        self._settle_auction(state, log)

    def _settle_auction(self, state: SDState, log: EventLog) -> None:
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
            log.add(f"{p.name} cannot top the high bid of {a.high_bid} (holds {self._cubes(p.cubes)}) "
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
        name = self.company_name(c.id)
        log.add(f"{p.name} wins control of the {name} company for {self._cubes(bid)}, paid into "
                f"its box, and takes a {name} share ({c.shares_left} left).", "win", rule=R.CONTROL, seat=seat,
                company=c.id, cubes=-bid, company_cubes=bid)
        state.auction = None
        state.step = Step.AUCTION
        state.last_offerer = a.offered_by
        state.marker_passes = 0
        state.active = (a.offered_by + 1) % len(state.players)

    def _end_auctions(self, state: SDState, log: EventLog) -> None:
        if state.last_offerer is not None:
            state.active = (state.last_offerer + 1) % len(state.players)
        unsold = [self.company_name(c) for c in self.available(state)]
        rest = f"; nobody bought {', '.join(unsold)}" if unsold else ""
        log.add(f"The auctions are over{rest}. {self._name(state, state.active)} now holds the "
                "Active Player marker.", "auctions_over", rule=R.END_AUCTIONS, seat=state.active)
        state.step = Step.BUILD
        state.passed = []
        state.cursor = 0
        log.add("Track building, in the order " + ", ".join(
            self.company_name(c) for c in state.order) + ".", "build_phase", rule=R.BUILD)

    # ------------------------------------------------------------ building and claiming turns
    def _next_company(self, state: SDState, log: EventLog, refusal: Any) -> bool:
        """Move the active-company marker to the next company that can act.

        Companies that cannot act pass (and go to the Pass row). Returns False
        when every company has passed.
        """
        n = len(state.order)
        while len(state.passed) < n:
            cid = state.order[state.cursor]
            if cid not in state.passed:
                why = refusal(state, cid)
                if why is None:
                    return True
                state.passed.append(cid)
                log.add(f"The {self.company_name(cid)} company passes ({why}); "
                        f"{ordinal(len(state.passed))} on the Pass row.", "pass_company", rule=R.MUST_BUILD,
                        company=cid, position=len(state.passed))
            state.cursor = (state.cursor + 1) % n
        return False

    def _build_refusal(self, state: SDState, company: str) -> str | None:
        """Why ``company`` cannot build now, or None if it must."""
        c = state.companies[company]
        if c.controller is None:
            # Ruling "uncontrolled companies": nobody decides for them, so they do not build.
            return "nobody controls it this turn"
        if c.cubes == 0:
            return "it has no investment cubes"
        routes = self.buildable_routes(state, company)
        if not routes:
            return "there is nowhere left for its track to go"
        cheapest = min(r.cost for r in routes)
        if cheapest > c.cubes:
            return f"it has {self._cubes(c.cubes)} and every link it could build costs {cheapest} or more"
        return None

    def _claim_refusal(self, state: SDState, company: str) -> str | None:
        c = state.companies[company]
        if not c.reached:
            return "it has no track"
        if c.controller is None:  # pragma: no cover - a company with track has shareholders
            return "nobody controls it"
        if not any(loc in state.goods_on for loc in c.reached):
            return "no goods cube is left on its track"
        return None

    def _build(self, state: SDState, action: BuildTrack, log: EventLog) -> None:
        outcome = self.build_outcome(state, action)
        c = state.companies[action.company]
        r = self._route[action.route]
        c.cubes -= r.cost
        state.pool += r.cost
        state.track[r.id] = c.id
        c.links.append(r.id)
        if not c.reached:
            assert action.start is not None
            c.start = action.start
            c.reached = [action.start]
            how = f" from {self.location_name(action.start)}"
        else:
            how = ""
        target, gain = outcome.target, outcome.gain
        if target is not None:
            c.reached.append(target)
            what = f"reaches {self.location_name(target)}: +${gain}"
        else:
            what = "no new location"
        c.profit += gain
        name = self.company_name(c.id)
        build_rules = (R.BUILD, *([R.FIRST_LINK] if how else []), *([R.NEW_LOCATION] if gain else []))
        log.add(f"The {name} company builds {self.route_name(r.id)}{how} for "
                f"{self._cubes(r.cost)} ({what}; profit ${c.profit}).", "build", rule=build_rules,
                seat=action.seat, company=c.id, route=r.id, cost=r.cost, gain=gain,
                reached=target)
        if outcome.bonus:
            self._transcontinental(state, c.id, outcome, log)

    # ------------------------------------------------------------ the transcontinental link
    def transcontinental_sharers(self, track: dict[str, str]) -> tuple[list[frozenset[str]], int] | None:
        """The company sets of the best transcontinental routes, and their length.

        A route joining the two ends is traced over the track of as few
        different companies as possible, then over as few links as possible.
        Several company sets may tie; each tied company shares the bonus. If
        ``k`` companies is the fewest that join the ends, any path over the
        track of such a set uses every company in it, so the bonus goes to the
        union of the sets whose shortest path is shortest.

        The answer depends on the track alone and is asked of every build a
        player or bot weighs, so answers are kept by track (``SHARERS_KEPT``).
        """
        key = frozenset(track.items())
        known = self._sharers.get(key, self._sharers)
        if known is self._sharers:
            if len(self._sharers) >= SHARERS_KEPT:
                self._sharers.clear()
            known = self._sharers[key] = self._find_sharers(track)
        return known  # type: ignore[return-value]

    def _find_sharers(self, track: dict[str, str]) -> tuple[list[frozenset[str]], int] | None:
        by_company: dict[str, list[tuple[str, str]]] = {}
        for rid, cid in track.items():
            r = self._route[rid]
            by_company.setdefault(cid, []).append((r.a, r.b))
        # A quick first look: if all the track together does not join the ends, no part of it does.
        if self._distance(e for edges in by_company.values() for e in edges) is None:
            return None
        builders = [cid for cid in self.companies if cid in by_company]
        for k in range(1, len(builders) + 1):
            found: list[tuple[frozenset[str], int]] = []
            for group in combinations(builders, k):
                d = self._distance(e for cid in group for e in by_company[cid])
                if d is not None:
                    found.append((frozenset(group), d))
            if found:
                best = min(d for _, d in found)
                return [g for g, d in found if d == best], best
        return None

    def _distance(self, edges: Iterable[tuple[str, str]]) -> int | None:
        adj: dict[str, list[str]] = {}
        for a, b in edges:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        if self._west not in adj or self._east not in adj:
            return None
        dist = {self._west: 0}
        queue = deque([self._west])
        while queue:
            here = queue.popleft()
            for there in adj[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    if there == self._east:
                        return dist[there]
                    queue.append(there)
        return None

    def _transcontinental(self, state: SDState, builder: str, outcome: BuildOutcome,
                          log: EventLog) -> None:
        others, links = list(outcome.sharers), outcome.links
        state.companies[builder].profit += outcome.bonus
        for cid in others:
            state.companies[cid].profit += TRANSCONTINENTAL_OTHERS
        state.transcontinental = {"builder": builder, "others": others, "links": links,
                                  "turn": state.turn}
        west, east = self.location_name(self._west), self.location_name(self._east)
        rest = (", and " + ", ".join(self.company_name(c) for c in others)
                + f" +${TRANSCONTINENTAL_OTHERS} each") if others else ""
        log.add(f"The transcontinental link! {west} and {east} are joined "
                f"({links} links): {self.company_name(builder)} +${outcome.bonus}{rest}.",
                "transcontinental", rule=R.TRANSCONTINENTAL, company=builder, others=others, links=links)

    # ------------------------------------------------------------ profits and the end of a turn
    def _take_profits(self, state: SDState, log: EventLog) -> None:
        income = [0] * len(state.players)
        for c in state.companies.values():
            if c.profit <= 0:
                continue
            name = self.company_name(c.id)
            if c.controller is None:
                log.add(f"Nobody controls the {name} company: its ${c.profit} profit is paid to "
                        "no one.", "profit_lost", rule=R.PROFITS, company=c.id, profit=c.profit)
                continue
            p = state.players[c.controller]
            p.cash += c.profit
            income[c.controller] += c.profit
            log.add(f"{p.name} takes ${c.profit} profit from the {name} company.", "profit", rule=R.PROFITS,
                    seat=c.controller, cash=c.profit, company=c.id)
        state.history.append([(income[s], p.cash) for s, p in enumerate(state.players)])

    def _end_of_turn(self, state: SDState, log: EventLog) -> None:
        state.order = list(state.passed)
        state.passed = []
        state.cursor = 0
        for c in state.companies.values():
            c.profit = 0
            c.controller = None
            c.auctioned = False
        log.add(f"End of turn {state.turn}. Next order of play: "
                + ", ".join(self.company_name(c) for c in state.order) + ".", "end_turn", rule=R.NEXT_ORDER,
                turn=state.turn, order=list(state.order))
        # Ruling "counting turns": the game counts its five turns itself; shares
        # left only show it when some company was bought every turn.
        if state.turn >= TURNS:
            self._begin_final(state, log)
        else:
            self._begin_turn(state, log)

    # ------------------------------------------------------------ final profit determination
    def final_controller(self, state: SDState, company: str) -> int | None:
        """The player with most shares; a tie goes to the first tied player clockwise
        from the company's last controller, starting with that player."""
        holdings = [p.shares.get(company, 0) for p in state.players]
        top = max(holdings)
        if top == 0:
            return None
        tied = [s for s, k in enumerate(holdings) if k == top]
        if len(tied) == 1:
            return tied[0]
        last = state.companies[company].last_controller
        start = last if last is not None else 0
        n = len(state.players)
        return next((start + i) % n for i in range(n) if (start + i) % n in tied)

    def _begin_final(self, state: SDState, log: EventLog) -> None:
        from_companies = sum(c.cubes for c in state.companies.values())
        from_players = sum(p.cubes for p in state.players)
        for c in state.companies.values():
            c.cubes = 0
        for p in state.players:
            p.cubes = 0
        state.pool += from_companies + from_players
        state.step = Step.CLAIM
        log.add(f"Final profit determination. Unspent investment cubes go back to the pool "
                f"({from_companies} from company boxes, {from_players} from players' hands): "
                "they are goods cubes now.", "final", rule=R.FINAL, company_cubes=from_companies,
                player_cubes=from_players)
        supply = dict(self.map.cube_supply)
        touched = {end for rid in state.track for end in (self._route[rid].a, self._route[rid].b)}
        placed: dict[str, int] = {}
        for loc in self.map.cities:
            if loc.id not in touched:
                continue
            if supply.get(loc.colour, 0) == 0:  # pragma: no cover - the map has enough of each
                continue
            supply[loc.colour] -= 1
            state.goods_on[loc.id] = loc.colour
            placed[loc.colour] = placed.get(loc.colour, 0) + 1
        state.pool -= len(state.goods_on)
        log.add(f"A goods cube goes on each of the {len(state.goods_on)} locations with track: "
                + (self.goods_text(placed) if placed else "none") + ".", "goods", rule=R.FINAL, placed=placed)
        for c in state.companies.values():
            seat = self.final_controller(state, c.id)
            c.controller = seat
            if seat is None:
                continue
            held = state.players[seat].shares.get(c.id, 0)
            log.add(f"{self._name(state, seat)} controls the {self.company_name(c.id)} company at "
                    f"the end ({held} share{'s' if held != 1 else ''}).", "final_control", rule=R.FINAL,
                    seat=seat, company=c.id)
        state.passed = []
        state.cursor = 0
        log.add("The companies claim goods cubes in the order " + ", ".join(
            self.company_name(c) for c in state.order) + ".", "claims", rule=R.CLAIM)

    def _final_payout(self, state: SDState, log: EventLog) -> None:
        for c in state.companies.values():
            c.final_profit = set_value(c.goods)
            if c.goods:
                sets = " + ".join(f"${SET_VALUES[len(s)]}" for s in goods_sets(c.goods))
                log.add(f"The {self.company_name(c.id)} company's goods ({self.goods_text(c.goods)}) "
                        f"make {sets} = ${c.final_profit} a share.", "final_profit", rule=R.SETS, company=c.id,
                        profit=c.final_profit)
        final: dict[str, dict[str, int]] = {}
        state.goods_controlled = [0] * len(state.players)
        for c in state.companies.values():
            if c.controller is not None:
                state.goods_controlled[c.controller] += sum(c.goods.values())
        for seat, p in enumerate(state.players):
            before = p.cash
            payout = sum(self.share_payouts(state, seat).values())
            if payout:
                p.cash += payout
                log.add(f"{p.name} is paid ${payout} for shares (" + ", ".join(
                    f"{p.shares[cid]} {self.company_name(cid)}" for cid in self.companies
                    if p.shares.get(cid)) + ").",
                    "payout", rule=R.SETS, seat=seat, cash=payout)
            final[p.name] = {"profits": before, "shares": payout, "total": p.cash}
        state.final = final
        state.step = Step.OVER
        result = self.result(state)
        assert result is not None
        log.add("Game over. " + ", ".join(f"{k} ${v}" for k, v in result.scores.items())
                + f". Winner: {' and '.join(result.winners)}.", "game_over", rule=R.WINNER)

    def result(self, state: SDState) -> Result | None:
        if state.final is None:
            return None
        scores = {name: parts["total"] for name, parts in state.final.items()}
        best = max(scores.values())
        tied = [s for s, p in enumerate(state.players) if scores[p.name] == best]
        if len(tied) > 1:
            # The tie goes to the player controlling the companies with the most goods cubes.
            most = max(state.goods_controlled[s] for s in tied)
            tied = [s for s in tied if state.goods_controlled[s] == most]
        return Result(scores=scores, winners=[state.players[s].name for s in tied],
                      breakdown=state.final)
