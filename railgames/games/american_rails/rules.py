"""American Rails: six railroad companies, an action track and share auctions.

The game opens with the preparation round: one share of each company goes up
for auction, and each winner starts the company on an empty city. Then come
up to seven rounds (1851 to 1857), each of three action phases and a dividend
phase. In an action phase every player moves a marker to a free space of the
action track's column and may carry out that action; the markers' order down
a column decides who chooses first in the next one, and the last column sets
the next round's turn order.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action and then runs every automatic step (forced passes, dividends, the end
of a round) until the next decision. Rulings on what the rulebook leaves open
are in docs/rulings/american-rails.md; comments below name them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from railgames.core.auctions import next_bidder
from railgames.core.engine import AmountInput, Interned, Prompt, Result, Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.hexgrid import Hex
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.american_rails import rule_texts as R
from railgames.games.american_rails.actions import (
    ACTION_ADAPTER,
    Bid,
    Develop,
    EndAction,
    ExpandTwo,
    Fund,
    OfferShare,
    PassBid,
    PlaceCube,
    PlaceStart,
    TakeSpace,
    TakeTwo,
)
from railgames.games.american_rails.board_map import SINGLE_CUBE_TERRAINS, AmericanRailsMap
from railgames.games.american_rails.state import ARState, Auction, Company, Player, Step

# Starting money by player count: the published rulebook's amounts (ruling "starting money").
STARTING_MONEY = {3: 50, 4: 50, 5: 40}
FIRST_YEAR, LAST_YEAR = 1851, 1857
PHASES = 3
MINIMUM_BID = 10
FUND_AMOUNT = 5
TAKE_AMOUNT = 2
DEVELOP_FULL, DEVELOP_SHARED = 2, 1
SPECIAL_BONUS = 10
LOW_SUPPLY = 2  # a supply at two or fewer counts towards the end of the game
# What a cube costs on each terrain: a base, and what each cube (or development
# marker, in a city) already there adds. Forests and mountains hold one cube.
TERRAIN_BASE = {"city": 2, "plains": 2, "forest": 3, "mountain": 5}
PER_PIECE = 2


@dataclass(frozen=True)
class Space:
    id: str
    label: str
    short: str  # for the board's narrow columns


# The action track, top to bottom (ruling "the action track"): each column has
# one space of each action, one marker per space.
ACTION_TRACK: tuple[Space, ...] = (
    Space("pass", "Pass", "Pass"),
    Space("develop", "Develop", "Devel"),
    Space("fund", "Fund $5", "Fund5"),
    Space("take2", "Take $2 / Expand 2", "Take2"),
    Space("expand3", "Expand 3", "Exp 3"),
    Space("auction", "Auction a share", "Auctn"),
    Space("expand4", "Expand 4", "Exp 4"),
)
SPACE_IDS = [s.id for s in ACTION_TRACK]
SPACE_BY_ID = {s.id: s for s in ACTION_TRACK}
EXPAND_CUBES = {"expand3": 3, "expand4": 4, "take2": 2}


@dataclass(frozen=True)
class CubeOutcome:
    """What placing one cube costs, and how it changes every company's income."""

    cost: int
    income: dict[str, int]  # company -> change (the placing company, and any it shares a city with)
    specials: tuple[tuple[str, str], ...] = ()  # special connections the cube completes


def article(word: str) -> str:
    """'an American', 'a National'."""
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"


class AmericanRailsRules(Ruleset[ARState]):
    id: ClassVar[str] = "american-rails"
    title: ClassVar[str] = "American Rails"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    default_map: ClassVar[str] = "american-rails"
    pitch: ClassVar[str] = (
        "Buy shares at auction, claim actions on a shared track, and push six "
        "railroads across the eastern United States for dividends."
    )
    play_time: ClassVar[str] = "60-90 min"
    map_model = AmericanRailsMap
    action_adapter = ACTION_ADAPTER

    map: AmericanRailsMap

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here: the bots import these rules.
        from railgames.games.american_rails.bots import AmericanRailsSearch, GreedyBot

        return {"greedy": GreedyBot, "search": AmericanRailsSearch.maker(self)}

    def __init__(self, game_map: AmericanRailsMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        self.companies: list[str] = m.company_ids
        self._terrain = m.terrain
        self._links = m.links
        self._city_at = m.city_at
        self._city = m.city_by_id
        self._city_hex = m.city_hex
        self._offset = {h: m.offset_of(h) for h in m.terrain}
        # Legal choices, made once each (see engine.Interned).
        self._listed_place_cube = Interned(PlaceCube).make

    # ------------------------------------------------------------ names
    def company_name(self, company: str) -> str:
        return self.map.company_by_id[company].name

    def city_name(self, city: str) -> str:
        return self._city[city].name

    def hex_name(self, h: Hex) -> str:
        city = self._city_at.get(h)
        if city is not None:
            return city.name
        col, row = self.map.offset_of(h)
        return f"the {self._terrain[h]} hex [{col}, {row}]"

    @staticmethod
    def _name(state: ARState, seat: int) -> str:
        return state.players[seat].name

    def space_label(self, space: str) -> str:
        return SPACE_BY_ID[space].label

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> ARState:
        n = len(record.players)
        m = self.map
        money = STARTING_MONEY[n]
        companies = {
            c.id: Company(id=c.id, cubes=c.cubes, shares=c.shares, supply=c.cubes,
                          shares_left=c.shares)
            for c in m.companies
        }
        state = ARState(players=[Player(name=p.name, money=money) for p in record.players],
                        companies=companies, step=Step.OFFER, chance=chance,
                        dev_supply=m.development_markers)
        if n == 3:
            # Drawn from the seed, so replay removes the same company.
            out = chance.pick(self.companies)
            c = companies[out]
            c.in_game = False
            c.supply = 0
            c.shares_left = 0
            log.add(f"Three players: the {self.company_name(out)} company is drawn and put back "
                    "in the box with its cubes and shares.", "company_removed", rule=R.SETUP, chance=True,
                    company=out)
        for c in state.company_list():
            c.supply -= 1  # one cube goes on the income track's zero space
        state.bank_out = money * n
        log.add(f"Set-up: each player receives ${money}; {len(state.company_list())} companies; "
                f"{m.development_markers} development markers; the year is {FIRST_YEAR}.", "setup", rule=R.SETUP,
                money=money)
        log.add(f"The preparation round: one share of each company is auctioned. "
                f"{self._name(state, 0)}, the banker, picks the first.", "prep", rule=R.PREP)
        state.acting = 0
        state.turn = 1
        return state

    # ------------------------------------------------------------ whose move
    def to_move(self, state: ARState) -> int | None:
        if state.step is Step.OVER:
            return None
        if state.step is Step.BID:
            assert state.auction is not None
            return state.auction.to_act
        return state.acting

    def turn_of(self, state: ARState) -> int:
        return state.turn

    # ------------------------------------------------------------ prompts
    def prompt(self, state: ARState) -> Prompt | None:
        step = state.step
        if step is Step.OVER:
            return None
        seat = state.acting
        name = self._name(state, seat)
        money = state.players[seat].money
        if step is Step.OFFER:
            choices: list[Any] = [OfferShare(seat=seat, company=c) for c in self.offerable(state)]
            if state.prep:
                return Prompt(
                    seat=seat, step="Preparation round",
                    text=f"{name} (${money}): choose the company whose first share goes up for auction",
                    choices=choices,
                    help="You then bid first (at least $10) or pass. The winner pays the company, "
                         "starts it on an empty city and picks the next company.")
            choices.append(EndAction(seat=seat))
            return Prompt(seat=seat, step="Auction a share",
                          text=f"{name} (${money}): choose a company's share to auction, or none",
                          choices=choices,
                          help="The winner pays the company's treasury. A company not yet on the "
                               "map starts on an empty city of the winner's choice.")
        if step is Step.BID:
            a = state.auction
            assert a is not None
            bidder = state.players[a.to_act]
            company = self.company_name(a.company)
            high = (f"high bid ${a.high_bid} by {self._name(state, a.high_seat)}"
                    if a.high_seat is not None else "no bid yet")
            low = self.minimum_bid(a)
            return Prompt(
                seat=a.to_act, step="Auction",
                text=f"{bidder.name} (${bidder.money}): {article(company)} share is up ({high}); bid or pass",
                choices=[PassBid(seat=a.to_act)],
                amount=AmountInput(action_type="bid", label="Bid", min=low, max=bidder.money,
                                   default=low),
                help="Bid more than the high bid (at least $10), or pass: a player who passes is "
                     "out of this auction.")
        if step is Step.START:
            company = state.auction.company if state.auction else ""
            return Prompt(
                seat=seat, step="Place the first cube",
                text=f"{name}: place the {self.company_name(company)} company's first cube on an "
                     "empty city",
                choices=[PlaceStart(seat=seat, city=c) for c in self.empty_cities(state)],
                help="The company's income starts at that city's full value.")
        if step is Step.CHOOSE:
            column = state.phase + 1
            return Prompt(
                seat=seat, step=f"{state.year}, action phase {column}",
                text=f"{name} (${money}): move your marker to a free space of column {column}",
                choices=[TakeSpace(seat=seat, space=s) for s in self.free_spaces(state)],
                help="A space taken by another marker is blocked for this column. You may leave "
                     "the action undone once there; the order of markers down this column "
                     "decides who chooses first next.")
        end = EndAction(seat=seat)
        if step is Step.DEVELOP:
            return Prompt(
                seat=seat, step="Develop",
                text=f"{name}: put a development marker on a city with track "
                     f"({state.dev_supply} left), or none",
                choices=[Develop(seat=seat, city=c) for c in self.developable(state)] + [end],
                help="A developed city is worth $2 more to a company alone there, $1 more to each "
                     "company sharing it.")
        if step is Step.FUND:
            return Prompt(
                seat=seat, step="Fund $5",
                text=f"{name}: $5 from the bank into a company's treasury, or none",
                choices=[Fund(seat=seat, company=c.id) for c in state.company_list()] + [end],
                help="Track is paid only from a company's treasury.")
        if step is Step.TAKE:
            take: list[Any] = [TakeTwo(seat=seat, source="bank"), TakeTwo(seat=seat, source="players")]
            if len(state.players) >= 4:
                take.append(ExpandTwo(seat=seat))
            return Prompt(
                seat=seat, step="Take $2",
                text=f"{name}: take $2 from the bank, or make each other player pay $2 to the bank"
                     + (", or Expand 2" if len(state.players) >= 4 else "") + "; or none",
                choices=take + [end],
                help="A player with less than $2 pays what they have.")
        # EXPAND
        placed = state.expand_placed
        total = placed + state.expand_left
        return Prompt(
            seat=seat, step=f"Expand {total}",
            text=f"{name}: place cube {placed + 1} of up to {total}, or stop",
            choices=self.legal_placements(state, seat) + [end],
            help="A cube of a company you hold a share of goes next to a cube of its own colour; "
                 "the company's treasury pays. Cities $2 +$2 per cube or marker there, plains "
                 "$2 +$2 per cube, forest $3, mountain $5.")

    # ------------------------------------------------------------ what can be done
    def offerable(self, state: ARState) -> list[str]:
        if state.prep:
            return [c.id for c in state.company_list() if not c.offered_in_prep and c.shares_left > 0]
        return [c.id for c in state.company_list() if c.shares_left > 0]

    @staticmethod
    def minimum_bid(a: Auction) -> int:
        return max(MINIMUM_BID, a.high_bid + 1)

    def empty_cities(self, state: ARState) -> list[str]:
        return [c.id for c in self.map.cities if not state.hexes.get(self._city_hex[c.id])]

    def free_spaces(self, state: ARState) -> list[str]:
        taken = state.columns[state.phase]
        return [s for s in SPACE_IDS if s not in taken]

    def developable(self, state: ARState) -> list[str]:
        if state.dev_supply <= 0:
            return []
        return [c.id for c in self.map.cities
                if not c.never_develop and c.id not in state.developed
                and state.hexes.get(self._city_hex[c.id])]

    def expandable_companies(self, state: ARState, seat: int) -> list[str]:
        shares = state.players[seat].shares
        return [c.id for c in state.company_list() if shares.get(c.id) and c.supply > 0 and c.hexes]

    def cube_cost(self, state: ARState, h: Hex) -> int:
        terrain = self._terrain[h]
        if terrain in SINGLE_CUBE_TERRAINS:
            return TERRAIN_BASE[terrain]
        pieces = len(state.hexes.get(h, ()))
        if terrain == "city" and self._city_at[h].id in state.developed:
            pieces += 1
        return TERRAIN_BASE[terrain] + PER_PIECE * pieces

    def placement_refusal(self, state: ARState, company: str, h: Hex) -> str | None:
        """Why a cube of ``company`` may not go on ``h`` (the player's shares aside), or None."""
        # Names are looked up only for a refusal: legal_placements asks this of every hex.
        c = state.companies[company]
        here = state.hexes.get(h, ())
        if company in here:
            return (f"{self.hex_name(h)} already holds {article(self.company_name(company))} cube; "
                    "a hex never holds two of one colour")
        terrain = self._terrain[h]
        if terrain in SINGLE_CUBE_TERRAINS and here:
            return f"{self.hex_name(h)} already holds a cube; a {terrain} hex holds one cube only"
        hexes = state.hexes
        if not any(company in hexes.get(n, ()) for n in self._links[h]):
            return f"{self.hex_name(h)} is not next to {article(self.company_name(company))} cube"
        if c.supply <= 0:
            return f"the {self.company_name(company)} company has no cubes left in its supply"
        cost = self.cube_cost(state, h)
        if cost > c.treasury:
            return (f"a cube on {self.hex_name(h)} costs ${cost} and the "
                    f"{self.company_name(company)} company's treasury holds "
                    f"${c.treasury}; track is paid from the treasury only")
        return None

    def legal_placements(self, state: ARState, seat: int, first_only: bool = False) -> list[Any]:
        """Every cube ``seat`` may place now (``first_only``: the first found, if any)."""
        out: list[Any] = []
        make = self._listed_place_cube
        for cid in self.expandable_companies(state, seat):
            c = state.companies[cid]
            frontier: dict[Hex, None] = {}
            for h in c.hexes:
                for n in self._links[h]:
                    frontier.setdefault(n)
            for h in frontier:
                if self.placement_refusal(state, cid, h) is None:
                    out.append(make(seat, cid, self._offset[h]))
                    if first_only:
                        return out
        return out

    def city_value(self, state: ARState, city: str, companies: int) -> int:
        """What a city gives each company there when ``companies`` companies share it."""
        c = self._city[city]
        dev = city in state.developed
        if companies <= 1:
            return c.full + (DEVELOP_FULL if dev else 0)
        return c.shared + (DEVELOP_SHARED if dev else 0)

    def cube_outcome(self, state: ARState, company: str, h: Hex) -> CubeOutcome:
        """What a cube of ``company`` on ``h`` would cost and bring, without changing ``state``."""
        cost = self.cube_cost(state, h)
        income: dict[str, int] = {company: 0}
        city = self._city_at.get(h)
        specials: tuple[tuple[str, str], ...] = ()
        if city is not None:
            here = state.hexes.get(h, [])
            k = len(here)
            income[company] = self.city_value(state, city.id, k + 1)
            if k == 1:
                first = here[0]
                income[first] = self.city_value(state, city.id, 2) - self.city_value(state, city.id, 1)
            c = state.companies[company]
            cities = {self._city_at[x].id for x in c.hexes if x in self._city_at} | {city.id}
            specials = tuple(p for p in self.map.special_pairs
                             if p not in c.specials and p[0] in cities and p[1] in cities)
            income[company] += SPECIAL_BONUS * len(specials)
        return CubeOutcome(cost, income, specials)

    def board_income(self, state: ARState, company: str) -> int:
        """A company's income worked out from the board alone (the income track must agree)."""
        c = state.companies[company]
        total = 0
        for h in c.hexes:
            city = self._city_at.get(h)
            if city is not None:
                total += self.city_value(state, city.id, len(state.hexes[h]))
        return total + SPECIAL_BONUS * len(c.specials)

    def dividend(self, state: ARState, company: str) -> int:
        """What one share of ``company`` pays now: income over shares held by players, rounded up."""
        held = sum(p.shares.get(company, 0) for p in state.players)
        if held == 0:
            return 0
        income = state.companies[company].income
        return -(-income // held)

    def low_supplies(self, state: ARState) -> int:
        supplies = [c.supply for c in state.company_list()] + [state.dev_supply]
        return sum(1 for s in supplies if s <= LOW_SUPPLY)

    # ------------------------------------------------------------ validation
    def check_references(self, action: Any) -> None:
        if isinstance(action, (OfferShare, Fund, PlaceCube)):
            self._company(action.company)
        if isinstance(action, (PlaceStart, Develop)):
            self._city_id(action.city)
        if isinstance(action, TakeSpace) and action.space not in SPACE_BY_ID:
            raise MalformedAction(f"'{action.space}' is not a space of the action track "
                                  f"({', '.join(SPACE_IDS)})")
        if isinstance(action, PlaceCube) and self.map.hex_of(*action.hex) not in self._terrain:
            raise MalformedAction(f"there is no hex {list(action.hex)} on this map")

    def _company(self, company: str) -> str:
        if company not in self.map.company_by_id:
            raise MalformedAction(f"'{company}' is not a company ({', '.join(self.companies)})")
        return company

    def _city_id(self, city: str) -> str:
        if city not in self._city:
            raise MalformedAction(f"there is no city '{city}' on this map")
        return city

    def _expect(self, state: ARState, steps: tuple[Step, ...], doing: str) -> None:
        if state.step not in steps:
            names = {
                Step.OFFER: "choosing a share to auction", Step.BID: "an auction",
                Step.START: "placing a new company's first cube",
                Step.CHOOSE: "choosing a space on the action track", Step.DEVELOP: "a Develop action",
                Step.FUND: "a Fund $5 action", Step.TAKE: "a Take $2 action",
                Step.EXPAND: "an Expand action", Step.OVER: "the end of the game",
            }
            raise IllegalAction(f"you cannot {doing} now: the game is at {names[state.step]}")

    def _in_game(self, state: ARState, company: str) -> Company:
        c = state.companies[company]
        if not c.in_game:
            raise IllegalAction(f"the {self.company_name(company)} company is not in this game")
        return c

    def validate(self, state: ARState, action: Any) -> None:
        if isinstance(action, OfferShare):
            self._expect(state, (Step.OFFER,), "put a share up for auction")
            c = self._in_game(state, action.company)
            name = self.company_name(c.id)
            if state.prep and c.offered_in_prep:
                raise IllegalAction(f"{article(name)} share has already been up for auction in the "
                                    "preparation round")
            if c.shares_left <= 0:
                raise IllegalAction(f"the {name} company has no shares left to sell")
        elif isinstance(action, Bid):
            self._expect(state, (Step.BID,), "bid")
            a = state.auction
            assert a is not None
            p = state.players[action.seat]
            low = self.minimum_bid(a)
            if action.amount < low:
                why = (f"the high bid is ${a.high_bid}" if a.high_seat is not None
                       else f"the minimum bid is ${MINIMUM_BID}")
                raise IllegalAction(f"a bid of ${action.amount} is too low: {why}, so bid ${low} or more")
            if action.amount > p.money:
                raise IllegalAction(f"{p.name} has ${p.money}; a bid of ${action.amount} needs "
                                    f"${action.amount - p.money} more")
        elif isinstance(action, PassBid):
            self._expect(state, (Step.BID,), "pass in an auction")
        elif isinstance(action, PlaceStart):
            self._expect(state, (Step.START,), "place a company's first cube")
            if state.hexes.get(self._city_hex[action.city]):
                raise IllegalAction(f"{self.city_name(action.city)} already has track; a company "
                                    "starts on an empty city")
        elif isinstance(action, TakeSpace):
            self._expect(state, (Step.CHOOSE,), "move your marker on the action track")
            holder = state.columns[state.phase].get(action.space)
            if holder is not None:
                raise IllegalAction(f"the {self.space_label(action.space)} space of this column is "
                                    f"blocked: {self._name(state, holder)}'s marker is on it")
        elif isinstance(action, Develop):
            self._expect(state, (Step.DEVELOP,), "develop a city")
            city = self._city[action.city]
            if city.never_develop:
                raise IllegalAction(f"{city.name} can never be developed")
            if action.city in state.developed:
                raise IllegalAction(f"{city.name} is already developed")
            if not state.hexes.get(self._city_hex[action.city]):
                raise IllegalAction(f"{city.name} has no track cube; only a city with track can "
                                    "be developed")
            if state.dev_supply <= 0:
                raise IllegalAction("no development markers are left")
        elif isinstance(action, Fund):
            self._expect(state, (Step.FUND,), "fund a company")
            self._in_game(state, action.company)
        elif isinstance(action, TakeTwo):
            self._expect(state, (Step.TAKE,), "take $2")
        elif isinstance(action, ExpandTwo):
            self._expect(state, (Step.TAKE,), "choose Expand 2")
            if len(state.players) < 4:
                raise IllegalAction("Expand 2 is offered only in a game of four or five players")
        elif isinstance(action, PlaceCube):
            self._expect(state, (Step.EXPAND,), "place a track cube")
            c = self._in_game(state, action.company)
            name = self.company_name(c.id)
            p = state.players[action.seat]
            if not p.shares.get(c.id):
                raise IllegalAction(f"{p.name} holds no {name} share; you expand only companies "
                                    "you hold a share of")
            refusal = self.placement_refusal(state, c.id, self.map.hex_of(*action.hex))
            if refusal is not None:
                raise IllegalAction(refusal)
        elif isinstance(action, EndAction):
            self._expect(state, (Step.OFFER, Step.DEVELOP, Step.FUND, Step.TAKE, Step.EXPAND),
                         "end an action")
            if state.prep:
                raise IllegalAction("in the preparation round a share of every company must go up "
                                    "for auction")
        else:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")

    # ------------------------------------------------------------ execution
    def execute(self, state: ARState, action: Any, log: EventLog) -> None:
        seat = action.seat
        name = self._name(state, seat)
        if isinstance(action, OfferShare):
            self._open_auction(state, seat, action.company, log)
        elif isinstance(action, Bid):
            a = state.auction
            assert a is not None
            a.high_bid, a.high_seat = action.amount, seat
            log.add(f"{name} bids ${action.amount} for the {self.company_name(a.company)} share.",
                    "bid", rule=R.AUCTION, seat=seat, amount=action.amount)
            self._next_bidder(state, seat, log)
        elif isinstance(action, PassBid):
            a = state.auction
            assert a is not None
            a.bidders.remove(seat)
            a.last_pass = seat
            log.add(f"{name} passes and is out of this auction.", "pass_bid", rule=R.AUCTION, seat=seat)
            self._next_bidder(state, seat, log)
        elif isinstance(action, PlaceStart):
            a = state.auction
            assert a is not None
            self._place_first_cube(state, a.company, action.city, seat, log)
            state.auction = None
            self._after_sale(state, seat, log)
        elif isinstance(action, TakeSpace):
            self._take_space(state, seat, action.space, log)
        elif isinstance(action, Develop):
            self._develop(state, seat, action.city, log)
            self._end_turn(state, log)
        elif isinstance(action, Fund):
            c = state.companies[action.company]
            c.treasury += FUND_AMOUNT
            state.bank_out += FUND_AMOUNT
            log.add(f"{name} funds the {self.company_name(c.id)} company: ${FUND_AMOUNT} from the "
                    f"bank (treasury ${c.treasury}).", "fund", rule=R.FUND, seat=seat, company=c.id,
                    treasury=FUND_AMOUNT)
            self._end_turn(state, log)
        elif isinstance(action, TakeTwo):
            self._take_two(state, seat, action.source, log)
            self._end_turn(state, log)
        elif isinstance(action, ExpandTwo):
            log.add(f"{name} takes Expand 2 instead of $2.", "expand_two", rule=R.TAKE_TWO, seat=seat)
            self._begin_expand(state, EXPAND_CUBES["take2"], log)
        elif isinstance(action, PlaceCube):
            self._place_cube(state, seat, action.company, self.map.hex_of(*action.hex), log)
            state.expand_left -= 1
            state.expand_placed += 1
            if state.expand_left <= 0:
                self._end_turn(state, log)
        elif isinstance(action, EndAction):
            what = {Step.OFFER: "auctions no share", Step.DEVELOP: "develops no city",
                    Step.FUND: "funds no company", Step.TAKE: "takes no money",
                    Step.EXPAND: "places no more cubes" if state.expand_placed else "places no cubes"}
            log.add(f"{name} {what[state.step]}.", "end_action", rule=R.LEAVE_UNDONE, seat=seat)
            self._end_turn(state, log)
        self._advance(state, log)

    # ------------------------------------------------------------ auctions
    def _open_auction(self, state: ARState, seat: int, company: str, log: EventLog) -> None:
        n = len(state.players)
        c = state.companies[company]
        if state.prep:
            c.offered_in_prep = True
        state.auction = Auction(company=company, auctioneer=seat,
                                bidders=[(seat + i) % n for i in range(n)], to_act=seat)
        state.step = Step.BID
        log.add(f"{self._name(state, seat)} puts {article(self.company_name(company))} share up for "
                f"auction (minimum bid ${MINIMUM_BID}).", "offer", rule=R.AUCTION, seat=seat, company=company)
        self._settle_auction(state, log)

    def _next_bidder(self, state: ARState, after: int, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        seat = next_bidder(after, len(state.players), a.bidders, a.high_seat)
        if seat is not None:
            a.to_act = seat
        self._settle_auction(state, log)

    def _settle_auction(self, state: ARState, log: EventLog) -> None:
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
        log.add(f"Nobody bids: the {self.company_name(c.id)} share is removed from the game "
                f"({c.shares_left} left).", "share_removed", rule=R.AUCTION, company=c.id)
        state.auction = None
        if state.prep:
            # The last player to pass picks the next company.
            picker = a.last_pass if a.last_pass is not None else a.auctioneer
            self._next_prep_offer(state, picker, log)
        else:
            self._end_turn(state, log)

    def _sell(self, state: ARState, log: EventLog) -> None:
        a = state.auction
        assert a is not None and a.high_seat is not None
        seat, bid = a.high_seat, a.high_bid
        p = state.players[seat]
        c = state.companies[a.company]
        name = self.company_name(c.id)
        if not c.on_map and not self.empty_cities(state):
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

    def _place_first_cube(self, state: ARState, company: str, city: str, seat: int,
                          log: EventLog) -> None:
        c = state.companies[company]
        h = self._city_hex[city]
        c.supply -= 1
        c.hexes.append(h)
        state.hexes.setdefault(h, []).append(company)
        c.income = self._city[city].full
        log.add(f"{self._name(state, seat)} starts the {self.company_name(company)} company in "
                f"{self.city_name(city)}: income ${c.income}.", "start", rule=R.FIRST_CUBE, seat=seat, company=company,
                city=city, income=c.income)

    def _after_sale(self, state: ARState, winner: int, log: EventLog) -> None:
        if state.prep:
            if winner not in state.turn_order:
                state.turn_order.append(winner)
                log.add(f"{self._name(state, winner)} takes space {len(state.turn_order)} of the "
                        "turn order track.", "turn_order", rule=R.PREP, seat=winner,
                        position=len(state.turn_order))
            self._next_prep_offer(state, winner, log)
        else:
            self._end_turn(state, log)

    def _next_prep_offer(self, state: ARState, picker: int, log: EventLog) -> None:
        if self.offerable(state):
            state.step = Step.OFFER
            state.acting = picker
            state.turn += 1
            return
        n = len(state.players)
        rest = [s for s in range(n) if s not in state.turn_order]  # clockwise from the banker
        for s in rest:
            state.turn_order.append(s)
        if rest:
            log.add("Players without shares take the last turn order spaces: "
                    + ", ".join(self._name(state, s) for s in rest) + ".", "turn_order_rest", rule=R.PREP,
                    seats=rest)
        state.prep = False
        log.add("The preparation round is over. Turn order: "
                + ", ".join(self._name(state, s) for s in state.turn_order) + ".", "prep_over", rule=R.PREP)
        self._begin_round(state, log)

    # ------------------------------------------------------------ the action track
    def _begin_round(self, state: ARState, log: EventLog) -> None:
        state.columns = [{} for _ in range(PHASES)]
        log.add(f"{state.year} begins.", "year", rule=R.TRACK, year=state.year)
        self._begin_phase(state, 0, log)

    def _begin_phase(self, state: ARState, phase: int, log: EventLog) -> None:
        state.phase = phase
        if phase == 0:
            state.phase_order = list(state.turn_order)
        else:
            previous = state.columns[phase - 1]
            state.phase_order = [previous[s] for s in SPACE_IDS if s in previous]
        state.phase_pos = 0
        state.step = Step.CHOOSE
        state.acting = state.phase_order[0]
        state.turn += 1

    def _take_space(self, state: ARState, seat: int, space: str, log: EventLog) -> None:
        state.columns[state.phase][space] = seat
        log.add(f"{self._name(state, seat)} moves to {self.space_label(space)} in column "
                f"{state.phase + 1}.", "take_space", rule=R.TRACK, seat=seat, space=space, column=state.phase)
        state.acting = seat
        if space == "pass":
            self._end_turn(state, log)
        elif space == "develop":
            state.step = Step.DEVELOP
        elif space == "fund":
            state.step = Step.FUND
        elif space == "take2":
            state.step = Step.TAKE
        elif space == "auction":
            state.step = Step.OFFER
        else:
            self._begin_expand(state, EXPAND_CUBES[space], log)

    def _begin_expand(self, state: ARState, cubes: int, log: EventLog) -> None:
        state.step = Step.EXPAND
        state.expand_left = cubes
        state.expand_placed = 0

    def _advance(self, state: ARState, log: EventLog) -> None:
        """Skip decisions that have only one answer: an action with nothing left to do ends."""
        while True:
            step = state.step
            seat = state.acting
            nothing = (
                (step is Step.DEVELOP and not self.developable(state))
                or (step is Step.EXPAND and not self.legal_placements(state, seat, first_only=True))
                or (step is Step.OFFER and not state.prep and not self.offerable(state))
            )
            if not nothing:
                return
            why = {Step.DEVELOP: "no city can be developed",
                   Step.EXPAND: "no cube can be placed",
                   Step.OFFER: "no company has a share left to sell"}[step]
            log.add(f"{self._name(state, seat)} can do nothing more with this action ({why}).",
                    "end_action", rule=R.LEAVE_UNDONE, seat=seat, forced=True)
            self._end_turn(state, log)

    def _end_turn(self, state: ARState, log: EventLog) -> None:
        """The player whose action was under way is done; the next chooses, or the phase ends."""
        state.expand_left = 0
        state.expand_placed = 0
        state.phase_pos += 1
        if state.phase_pos < len(state.phase_order):
            state.step = Step.CHOOSE
            state.acting = state.phase_order[state.phase_pos]
            state.turn += 1
            return
        if state.phase + 1 < PHASES:
            self._begin_phase(state, state.phase + 1, log)
            return
        self._dividends(state, log)
        self._end_of_round(state, log)

    # ------------------------------------------------------------ actions
    def _develop(self, state: ARState, seat: int, city: str, log: EventLog) -> None:
        h = self._city_hex[city]
        here = state.hexes[h]
        state.dev_supply -= 1
        state.developed.add(city)
        gain = DEVELOP_FULL if len(here) == 1 else DEVELOP_SHARED
        for cid in here:
            state.companies[cid].income += gain
        log.add(f"{self._name(state, seat)} develops {self.city_name(city)}: "
                + ", ".join(f"{self.company_name(c)} +${gain}" for c in here)
                + f" ({state.dev_supply} markers left).", "develop", rule=R.DEVELOP, seat=seat, city=city,
                companies=list(here), gain=gain)

    def _take_two(self, state: ARState, seat: int, source: str, log: EventLog) -> None:
        p = state.players[seat]
        if source == "bank":
            p.money += TAKE_AMOUNT
            p.take_two += TAKE_AMOUNT
            state.bank_out += TAKE_AMOUNT
            log.add(f"{p.name} takes ${TAKE_AMOUNT} from the bank.", "take_two", rule=R.TAKE_TWO, seat=seat,
                    cash=TAKE_AMOUNT)
            return
        paid = []
        for other, q in enumerate(state.players):
            if other == seat:
                continue
            amount = min(TAKE_AMOUNT, q.money)
            q.money -= amount
            q.take_two -= amount
            state.bank_out -= amount
            paid.append(f"{q.name} ${amount}")
        log.add(f"{p.name} makes every other player pay the bank: " + ", ".join(paid) + ".",
                "take_two_players", rule=R.TAKE_TWO, seat=seat)

    def _place_cube(self, state: ARState, seat: int, company: str, h: Hex, log: EventLog) -> None:
        outcome = self.cube_outcome(state, company, h)
        c = state.companies[company]
        c.treasury -= outcome.cost
        state.bank_out -= outcome.cost
        c.supply -= 1
        c.hexes.append(h)
        state.hexes.setdefault(h, []).append(company)
        c.specials.extend(outcome.specials)
        for cid, change in outcome.income.items():
            state.companies[cid].income += change
        changes = [f"{self.company_name(cid)} {'+' if d >= 0 else '-'}${abs(d)}"
                   for cid, d in outcome.income.items() if d]
        tail = f"; income {', '.join(changes)}" if changes else ""
        log.add(f"{self._name(state, seat)} places {article(self.company_name(company))} cube on "
                f"{self.hex_name(h)} for ${outcome.cost}{tail}.", "place_cube", rule=(R.EXPAND, R.INCOME), seat=seat,
                company=company, hex=list(self.map.offset_of(h)), cost=outcome.cost,
                income=dict(outcome.income))
        for a, b in outcome.specials:
            log.add(f"Special connection: the {self.company_name(company)} company joins "
                    f"{self.city_name(a)} and {self.city_name(b)}: +${SPECIAL_BONUS} income.",
                    "special", rule=R.SPECIAL, company=company, cities=[a, b])

    # ------------------------------------------------------------ dividends and the end
    def _dividends(self, state: ARState, log: EventLog) -> None:
        paid = [0] * len(state.players)
        for c in state.company_list():
            per_share = self.dividend(state, c.id)
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
            log.add(f"{self.company_name(c.id)} pays ${per_share} a share (income ${c.income} "
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
        low = self.low_supplies(state)
        if low >= n:
            return f"{low} supplies are down to {LOW_SUPPLY} or fewer"
        return None

    def _end_of_round(self, state: ARState, log: EventLog) -> None:
        reason = self.end_reason(state)
        if reason is not None:
            self._finish(state, reason, log)
            return
        last = state.columns[PHASES - 1]
        state.turn_order = [last[s] for s in SPACE_IDS if s in last]
        state.year += 1
        log.add("New turn order: " + ", ".join(self._name(state, s) for s in state.turn_order)
                + ".", "turn_order_new", rule=R.TRACK, order=list(state.turn_order))
        self._begin_round(state, log)

    def _finish(self, state: ARState, reason: str, log: EventLog) -> None:
        state.step = Step.OVER
        state.end_reason = reason
        n = len(state.players)
        start = STARTING_MONEY[n]
        state.final = {
            p.name: {"start": start, "dividends": p.dividends, "take_two": p.take_two,
                     "shares": -p.bids, "total": p.money}
            for p in state.players
        }
        result = self.result(state)
        assert result is not None
        log.add(f"The game ends: {reason}. " + result.summary("$"), "game_over", rule=R.GAME_END)

    def result(self, state: ARState) -> Result | None:
        if state.final is None:
            return None
        return Result.from_breakdown(state.final)
