"""New England Railways: the whole turn, as a state machine over the record.

Each public method follows the kernel's contract: ``prompt`` says who must
decide what, ``validate`` refuses with a reason and never mutates, ``execute``
carries out a validated action and then runs every automatic step (service,
growth, rolls, income...) until the next decision. Each phase a player decides
in keeps its prompt, its check and its execution together in a module of its
own: loans.py (borrowing, retiring debt), auction.py (bidding for links),
build.py (the build roll and paying to finish), shipping.py (hauling cubes);
turn.py holds the steps no one decides (growth, publicity, income, the First
Player card, the final score) and paths.py the shipping paths worked out ahead.
This class holds set-up and the order of the steps (``_advance``). Rulings on
what the rulebook leaves open are in docs/rulings/new-england.md; the comments
point to them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from railgames.core.engine import Prompt, Result
from railgames.core.errors import MalformedAction
from railgames.core.events import EventLog
from railgames.core.gains import change
from railgames.core.phases import Phase, by_action
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.actions import ACTION_ADAPTER
from railgames.games.new_england.auction import Auctioning
from railgames.games.new_england.base import NewEnglandBase
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.build import Building, complete_unfinished
from railgames.games.new_england.loans import (
    LOAN_UNIT,
    MAX_DEBT,
    SERVICE_DIVISOR,
    Borrowing,
    Retiring,
    compulsory_borrowing,
    largest_loan,
    service_debt,
    service_due,
    who_may_retire,
)
from railgames.games.new_england.paths import MAX_SHIP_LINKS
from railgames.games.new_england.shipping import Shipping, check_references, skip_the_stuck
from railgames.games.new_england.state import NEState, Railway, Step
from railgames.games.new_england.turn import (
    begin_turn,
    commodity_growth,
    draw_cube,
    end_of_turn,
    publicise,
)

# Named here too: tests and the app import them from the rules.
__all__ = ["LOAN_UNIT", "MAX_DEBT", "MAX_SHIP_LINKS", "SERVICE_DIVISOR", "STARTING_CASH",
           "NewEnglandRules", "compulsory_borrowing", "largest_loan", "service_due"]

STARTING_CASH = 10


class NewEnglandRules(NewEnglandBase):
    id: ClassVar[str] = "new-england"
    title: ClassVar[str] = "New England Railways"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "new-england"
    pitch: ClassVar[str] = (
        "Bid for railway links, race the dice to build them, and haul commodities for income."
    )
    play_time: ClassVar[str] = "60-90 min"
    # Edition 2: a growth reshuffle takes only earlier turns' discards (ruling "empty deck").
    edition: ClassVar[int] = 2
    # Out of an auction, or no cube shipped this round (see docs/rulings: timeouts).
    passes: ClassVar[tuple[Mapping[str, Any], ...]] = ({"type": "pass_bid"}, {"type": "pass_ship"})
    map_model = NewEnglandMap
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported when bots are asked for, as a replay needs none. The bots see the rules
        # as NewEnglandBase (base.py) and never import this module.
        from railgames.games.new_england.bots import GreedyBot, NewEnglandSearch

        return {"greedy": GreedyBot, "search": NewEnglandSearch.maker(self)}

    def __init__(self, game_map: NewEnglandMap) -> None:
        super().__init__(game_map)
        self.borrowing = Borrowing(self)
        self.retiring = Retiring(self)
        self.auctioning = Auctioning(self)
        self.building = Building(self)
        self.shipping = Shipping(self)
        # The phases in the order of a turn, each with the step at which it is decided.
        self.phases: dict[Step, Phase[NewEnglandBase, NEState]] = {
            Step.LOANS: self.borrowing, Step.RETIRE: self.retiring, Step.AUCTION: self.auctioning,
            Step.FINISH: self.building, Step.SHIP: self.shipping,
        }
        self._phase_of_action = by_action(self.phases.values())

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> NEState:
        n = len(record.players)
        m = self.map
        starting = list(m.starting_links[str(n)])
        deck = [link.id for link in m.links if link.id not in starting]
        chance.shuffle(deck)
        growth = list(range(len(m.growth_deck)))
        chance.shuffle(growth)
        state = NEState(
            railways=[Railway(name=p.name, cash=STARTING_CASH) for p in record.players],
            first=0,
            turn=0,
            step=Step.LOANS,
            cup=dict(m.commodities),
            cubes={c.id: {} for c in m.cities},
            link_deck=deck,
            growth_deck=growth,
            growth_discard=[],
            current=starting,
            future=[],
            owner={},
            built=set(),
            unfinished=[],
            set_aside=[],
            pending=[],
            rules_edition=self.edition_of(record),
            chance=chance,
        )
        log.add(
            f"Set-up: {len(starting)} Railway Links on offer ({', '.join(map(self.link_name, starting))}); "
            f"{len(deck)} more in the deck; everyone starts with ${STARTING_CASH}.",
            "setup", rule=R.SETUP,
        )
        placed = [f"{colour} to {self.city_name(city)}" for city, colour in
                  ((city, draw_cube(state, city)) for city in m.setup_cubes) if colour]
        log.add("Set-up cubes drawn from the cup: " + ", ".join(placed) + ".", "draw", rule=R.SETUP, chance=True)
        state.first = chance.randrange(n)
        log.add(f"{self.railway_name(state, state.first)} is drawn to hold the First Player card.",
                "first_player", rule=R.SETUP, chance=True, seat=state.first)
        begin_turn(self, state, log)
        return state

    # ------------------------------------------------------------ decisions
    def gains_now(self, before: NEState, after: NEState, seat: int) -> list[str]:
        """What a move changes at once for ``seat``'s railway: its income, cash and debt,
        and the links it comes to own (for a hint's reason)."""
        was, now = before.railways[seat], after.railways[seat]
        out = (change(was.income, now.income, "income") + change(was.cash, now.cash, "cash", True)
               + change(was.debt, now.debt, "debt", True))
        out += [f"the {self.link_name(link)} link" for link in now.links if link not in was.links]
        return out

    def to_move(self, state: NEState) -> int | None:
        step = state.step
        if step is Step.OVER:
            return None
        if step is Step.AUCTION:
            assert state.auction is not None
            return state.auction.to_act
        if step is Step.FINISH:
            assert state.finish is not None
            return state.finish.seat
        return state.pending[0]

    def prompt(self, state: NEState) -> Prompt | None:
        phase = self.phases.get(state.step)
        return None if phase is None else phase.prompt(state)

    def validate(self, state: NEState, action: Any) -> None:
        phase = self._phase_of_action.get(type(action))
        if phase is None:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")
        phase.validate(state, action)

    def check_references(self, action: Any) -> None:
        check_references(self, action)

    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        self._phase_of_action[type(action)].execute(state, action, log)
        self._advance(state, log)

    # ------------------------------------------------------------ the flow of a turn
    def _advance(self, state: NEState, log: EventLog) -> None:
        """Run automatic steps until a player must decide (or the game ends)."""
        while True:
            step = state.step
            if step is Step.LOANS:
                if state.pending:
                    return
                service_debt(state, log)
                state.step = Step.RETIRE
                state.pending = who_may_retire(state)
            elif step is Step.RETIRE:
                if state.pending:
                    return
                commodity_growth(self, state, log)
                complete_unfinished(self, state, log)
                publicise(self, state, log)
                state.step = Step.AUCTION
                state.auction_slot = 0
                self.auctioning.open_next(state, log)
            elif step is Step.AUCTION:
                if state.auction is None and state.auction_slot < len(state.current):
                    # A build-roll decision was made: the auctions go on.
                    self.auctioning.open_next(state, log)
                    continue
                if state.auction is not None:
                    return
                # Every current link has been sold or set aside: next turn's links move down.
                state.current, state.future = state.future, []
                state.step = Step.SHIP
                state.ship_round = 1
                state.pending = [s for s in state.seat_order()
                                 if state.railways[s].bought_this_turn is None]
                buyers = [s for s in state.seat_order() if s not in state.pending]
                if buyers:
                    who = " and ".join(self.railway_name(state, s) for s in buyers)
                    log.add(f"Shipping begins. {who} bought a Railway Link this turn and "
                            f"{'sit' if len(buyers) > 1 else 'sits'} out the first round "
                            "(shipping only in the second).", "sit_out_ship", rule=R.SHIP_ROUNDS, seats=buyers)
            elif step is Step.FINISH:
                return
            elif step is Step.SHIP:
                skip_the_stuck(self, state, log)
                if state.pending:
                    return
                if state.ship_round == 1:
                    state.ship_round = 2
                    state.pending = state.seat_order()
                    continue
                end_of_turn(self, state, log)
                if state.step is Step.OVER:
                    return
            else:
                return

    def result(self, state: NEState) -> Result | None:
        return None if state.final is None else Result.from_breakdown(state.final)
