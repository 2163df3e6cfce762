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
are in docs/rulings/american-rails.md; comments name them.

Each phase keeps its listing, its check and its execution together, in a module
of its own: ``auction`` (the preparation round and share auctions), ``track``
(the action track, Develop, Fund $5, Take $2, leaving an action undone, the
order of turns), ``expand`` (track cubes) and ``dividends`` (the dividend phase
and the end of the game). This class sets the game up, says whose move it is,
and hands each prompt to the phase of the state's step and each action to the
phase that takes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from railgames.core.engine import Prompt, Result
from railgames.core.errors import MalformedAction
from railgames.core.events import EventLog
from railgames.core.gains import change, counts, plural
from railgames.core.hexgrid import Hex
from railgames.core.phases import Phase, by_action
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.american_rails import rule_texts as R
from railgames.games.american_rails.actions import (
    ACTION_ADAPTER,
    Develop,
    Fund,
    OfferShare,
    PlaceCube,
    PlaceStart,
    TakeSpace,
)
from railgames.games.american_rails.auction import AuctionPhase
from railgames.games.american_rails.board_map import AmericanRailsMap
from railgames.games.american_rails.common import (  # noqa: F401 - the rules' numbers, imported from here
    ACTION_TRACK,
    DEVELOP_FULL,
    DEVELOP_SHARED,
    EXPAND_CUBES,
    FIRST_YEAR,
    FUND_AMOUNT,
    LAST_YEAR,
    LOW_SUPPLY,
    MINIMUM_BID,
    PER_PIECE,
    PHASES,
    SPACE_BY_ID,
    SPACE_IDS,
    SPECIAL_BONUS,
    STARTING_MONEY,
    TAKE_AMOUNT,
    TERRAIN_BASE,
    AmericanRailsBase,
    CubeOutcome,
    Space,
    article,
)
from railgames.games.american_rails.dividends import DividendPhase
from railgames.games.american_rails.expand import ExpandPhase
from railgames.games.american_rails.state import ARState, Auction, Company, Player, Step
from railgames.games.american_rails.track import TrackPhase


class AmericanRailsRules(AmericanRailsBase):
    """The phases put together: set-up, whose move it is, and each action handed to
    the phase that takes it. The board's shared questions are ``AmericanRailsBase``'s."""

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
    # Out of an auction, the Pass space, or an action left undone (see docs/rulings).
    passes: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {"type": "pass_bid"}, {"type": "take_space", "space": "pass"}, {"type": "end_action"})
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here, when bots are wanted; the bots read the rules through AmericanRailsBase.
        from railgames.games.american_rails.bots import AmericanRailsSearch, GreedyBot

        return {"greedy": GreedyBot, "search": AmericanRailsSearch.maker(self)}

    def __init__(self, game_map: AmericanRailsMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        self.dividends = DividendPhase(self)
        self.track = TrackPhase(self, self.dividends)
        self.expand = ExpandPhase(self, self.track)
        self.auction = AuctionPhase(self, self.track)
        self._phase_of_action = by_action([self.auction, self.track, self.expand])
        self._phase_of_step: dict[Step, Phase[Any, ARState]] = {
            Step.OFFER: self.auction, Step.BID: self.auction, Step.START: self.auction,
            Step.CHOOSE: self.track, Step.DEVELOP: self.track, Step.FUND: self.track,
            Step.TAKE: self.track, Step.EXPAND: self.expand,
        }

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
    def gains_now(self, before: ARState, after: ARState, seat: int) -> list[str]:
        """What a move changes at once for ``seat``: money, shares and dividends, and the
        income of the companies it holds shares in (for a hint's reason)."""
        was, now = before.players[seat], after.players[seat]
        out = change(was.money, now.money, "money", True)
        out += counts(was.shares, now.shares,
                      lambda c, n: f"{plural(n, 'share')} of {self.company_name(c)}")
        out += change(was.dividends, now.dividends, "dividends", True)
        for company in now.shares:
            a, b = before.companies[company].income, after.companies[company].income
            if a != b:
                out.append(f"{self.company_name(company)} income {b - a:+}")
        return out

    def to_move(self, state: ARState) -> int | None:
        if state.step is Step.OVER:
            return None
        if state.step is Step.BID:
            assert state.auction is not None
            return state.auction.to_act
        return state.acting

    def turn_of(self, state: ARState) -> int:
        return state.turn

    def prompt(self, state: ARState) -> Prompt | None:
        if state.step is Step.OVER:
            return None
        return self._phase_of_step[state.step].prompt(state)

    # ------------------------------------------------------------ the phases' listings
    def offerable(self, state: ARState) -> list[str]:
        return self.auction.offerable(state)

    @staticmethod
    def minimum_bid(a: Auction) -> int:
        return AuctionPhase.minimum_bid(a)

    def free_spaces(self, state: ARState) -> list[str]:
        return self.track.free_spaces(state)

    def developable(self, state: ARState) -> list[str]:
        return self.track.developable(state)

    def expandable_companies(self, state: ARState, seat: int) -> list[str]:
        return self.expand.expandable_companies(state, seat)

    def placement_refusal(self, state: ARState, company: str, h: Hex) -> str | None:
        """Why a cube of ``company`` may not go on ``h`` (the player's shares aside), or None."""
        return self.expand.placement_refusal(state, company, h)

    def legal_placements(self, state: ARState, seat: int, first_only: bool = False) -> list[Any]:
        return self.expand.legal_placements(state, seat, first_only)

    def end_reason(self, state: ARState) -> str | None:
        """Why the game ends after this dividend phase, or None."""
        return self.dividends.end_reason(state)

    # ------------------------------------------------------------ checks and execution
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

    def validate(self, state: ARState, action: Any) -> None:
        phase = self._phase_of_action.get(type(action))
        if phase is None:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")
        phase.validate(state, action)

    def execute(self, state: ARState, action: Any, log: EventLog) -> None:
        phase = self._phase_of_action.get(type(action))
        if phase is not None:
            phase.execute(state, action, log)
        self._advance(state, log)

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
            self.track.end_turn(state, log)

    def result(self, state: ARState) -> Result | None:
        if state.final is None:
            return None
        return Result.from_breakdown(state.final)
