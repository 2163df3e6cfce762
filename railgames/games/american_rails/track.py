"""American Rails: the action track, and the small actions carried out on it.

Each year has three action phases. In each, the players in turn move their marker
to a free space of the track's column (ruling "the action track") and may carry
out its action: Develop, Fund $5 and Take $2 are done here; an auction goes to the
auction phase and an expansion to the expand phase, which hand the turn back here
when they are over. The order of the markers down a column sets who chooses first
in the next one, and the last column sets the next year's turn order. After the
third column the dividend phase closes the year.
"""

from __future__ import annotations

from typing import Any

from railgames.core.engine import Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.american_rails import rule_texts as R
from railgames.games.american_rails.actions import (
    Develop,
    EndAction,
    ExpandTwo,
    Fund,
    TakeSpace,
    TakeTwo,
)
from railgames.games.american_rails.common import (
    DEVELOP_FULL,
    DEVELOP_SHARED,
    EXPAND_CUBES,
    FUND_AMOUNT,
    PHASES,
    SPACE_IDS,
    TAKE_AMOUNT,
    AmericanRailsBase,
)
from railgames.games.american_rails.dividends import DividendPhase
from railgames.games.american_rails.state import ARState, Step

# What a player who leaves an action undone is said to do, by the step left.
LEFT_UNDONE = {Step.OFFER: "auctions no share", Step.DEVELOP: "develops no city",
               Step.FUND: "funds no company", Step.TAKE: "takes no money"}
# The steps an action may be left undone at.
UNDONE_STEPS = (Step.OFFER, Step.DEVELOP, Step.FUND, Step.TAKE, Step.EXPAND)
# Why a city may not be developed, by what ``TrackPhase.develop_bar`` finds.
DEVELOP_BARS = {
    "never": "{city} can never be developed",
    "developed": "{city} is already developed",
    "no track": "{city} has no track cube; only a city with track can be developed",
    "no markers": "no development markers are left",
}
# The step each space's action is carried out at (the expansions start the expand step).
SPACE_STEP = {"develop": Step.DEVELOP, "fund": Step.FUND, "take2": Step.TAKE, "auction": Step.OFFER}


class TrackPhase(Phase[AmericanRailsBase, ARState]):
    """Choosing a space of the action track, Develop, Fund $5, Take $2, leaving an action
    undone, and the order of turns through the year."""

    actions = (TakeSpace, Develop, Fund, TakeTwo, ExpandTwo, EndAction)

    def __init__(self, rules: AmericanRailsBase, dividends: DividendPhase) -> None:
        super().__init__(rules)
        self.dividends = dividends

    # ------------------------------------------------------------ what may be done
    def space_refusal(self, state: ARState, space: str) -> str | None:
        """Why ``space`` of this column may not be taken, or None."""
        holder = state.columns[state.phase].get(space)
        if holder is not None:
            return (f"the {self.rules.space_label(space)} space of this column is "
                    f"blocked: {self.rules._name(state, holder)}'s marker is on it")
        return None

    def free_spaces(self, state: ARState) -> list[str]:
        return [s for s in SPACE_IDS if self.space_refusal(state, s) is None]

    def develop_bar(self, state: ARState, city_id: str) -> str | None:
        """What stops ``city_id`` being developed now, as a key of ``DEVELOP_BARS``, or None.

        A key, not the sentence: the listing asks this of every city, the check of one."""
        city = self.rules._city[city_id]
        if city.never_develop:
            return "never"
        if city_id in state.developed:
            return "developed"
        if not state.hexes.get(self.rules._city_hex[city_id]):
            return "no track"
        if state.dev_supply <= 0:
            return "no markers"
        return None

    def developable(self, state: ARState) -> list[str]:
        if state.dev_supply <= 0:
            return []
        return [c.id for c in self.rules.map.cities if self.develop_bar(state, c.id) is None]

    @staticmethod
    def expand_two_refusal(state: ARState) -> str | None:
        """Expand 2 instead of $2 is for four or five players only."""
        if len(state.players) < 4:
            return "Expand 2 is offered only in a game of four or five players"
        return None

    # ------------------------------------------------------------ prompts
    def prompt(self, state: ARState) -> Prompt | None:
        rules = self.rules
        step = state.step
        seat = state.acting
        name = rules._name(state, seat)
        money = state.players[seat].money
        if step is Step.CHOOSE:
            column = state.phase + 1
            return Prompt(
                seat=seat, step=f"{state.year}, action phase {column}",
                text=f"{name} (${money}): move your marker to a free space of column {column}",
                choices=[rules.made(TakeSpace, seat=seat, space=s) for s in self.free_spaces(state)],
                help="A space taken by another marker is blocked for this column. You may leave "
                     "the action undone once there; the order of markers down this column "
                     "decides who chooses first next.")
        end = rules.made(EndAction, seat=seat)
        if step is Step.DEVELOP:
            return Prompt(
                seat=seat, step="Develop",
                text=f"{name}: put a development marker on a city with track "
                     f"({state.dev_supply} left), or none",
                choices=[rules.made(Develop, seat=seat, city=c) for c in self.developable(state)] + [end],
                help="A developed city is worth $2 more to a company alone there, $1 more to each "
                     "company sharing it.")
        if step is Step.FUND:
            return Prompt(
                seat=seat, step="Fund $5",
                text=f"{name}: $5 from the bank into a company's treasury, or none",
                choices=[rules.made(Fund, seat=seat, company=c.id) for c in state.company_list()] + [end],
                help="Track is paid only from a company's treasury.")
        # TAKE
        expand_two = self.expand_two_refusal(state) is None
        take: list[Any] = [rules.made(TakeTwo, seat=seat, source="bank"),
                           rules.made(TakeTwo, seat=seat, source="players")]
        if expand_two:
            take.append(rules.made(ExpandTwo, seat=seat))
        return Prompt(
            seat=seat, step="Take $2",
            text=f"{name}: take $2 from the bank, or make each other player pay $2 to the bank"
                 + (", or Expand 2" if expand_two else "") + "; or none",
            choices=take + [end],
            help="A player with less than $2 pays what they have.")

    # ------------------------------------------------------------ checks
    def validate(self, state: ARState, action: Any) -> None:
        rules = self.rules
        refusal: str | None = None
        if isinstance(action, TakeSpace):
            rules._expect(state, (Step.CHOOSE,), "move your marker on the action track")
            refusal = self.space_refusal(state, action.space)
        elif isinstance(action, Develop):
            rules._expect(state, (Step.DEVELOP,), "develop a city")
            bar = self.develop_bar(state, action.city)
            if bar is not None:
                refusal = DEVELOP_BARS[bar].format(city=rules.city_name(action.city))
        elif isinstance(action, Fund):
            rules._expect(state, (Step.FUND,), "fund a company")
            rules._in_game(state, action.company)
        elif isinstance(action, TakeTwo):
            rules._expect(state, (Step.TAKE,), "take $2")
        elif isinstance(action, ExpandTwo):
            rules._expect(state, (Step.TAKE,), "choose Expand 2")
            refusal = self.expand_two_refusal(state)
        else:  # EndAction
            rules._expect(state, UNDONE_STEPS, "end an action")
            if state.prep:
                refusal = ("in the preparation round a share of every company must go up "
                           "for auction")
        if refusal is not None:
            raise IllegalAction(refusal)

    # ------------------------------------------------------------ execution
    def execute(self, state: ARState, action: Any, log: EventLog) -> None:
        seat = action.seat
        name = self.rules._name(state, seat)
        if isinstance(action, TakeSpace):
            self.take_space(state, seat, action.space, log)
        elif isinstance(action, Develop):
            self.develop(state, seat, action.city, log)
            self.end_turn(state, log)
        elif isinstance(action, Fund):
            self.fund(state, seat, action.company, log)
            self.end_turn(state, log)
        elif isinstance(action, TakeTwo):
            self.take_two(state, seat, action.source, log)
            self.end_turn(state, log)
        elif isinstance(action, ExpandTwo):
            log.add(f"{name} takes Expand 2 instead of $2.", "expand_two", rule=R.TAKE_TWO, seat=seat)
            self.begin_expand(state, EXPAND_CUBES["take2"])
        else:  # EndAction
            what = LEFT_UNDONE.get(state.step)
            if what is None:  # Step.EXPAND
                what = "places no more cubes" if state.expand_placed else "places no cubes"
            log.add(f"{name} {what}.", "end_action", rule=R.LEAVE_UNDONE, seat=seat)
            self.end_turn(state, log)

    def take_space(self, state: ARState, seat: int, space: str, log: EventLog) -> None:
        state.columns[state.phase][space] = seat
        log.add(f"{self.rules._name(state, seat)} moves to {self.rules.space_label(space)} in column "
                f"{state.phase + 1}.", "take_space", rule=R.TRACK, seat=seat, space=space, column=state.phase)
        state.acting = seat
        if space == "pass":
            self.end_turn(state, log)
        elif space in SPACE_STEP:
            state.step = SPACE_STEP[space]
        else:
            self.begin_expand(state, EXPAND_CUBES[space])

    @staticmethod
    def begin_expand(state: ARState, cubes: int) -> None:
        state.step = Step.EXPAND
        state.expand_left = cubes
        state.expand_placed = 0

    def develop(self, state: ARState, seat: int, city: str, log: EventLog) -> None:
        rules = self.rules
        h = rules._city_hex[city]
        here = state.hexes[h]
        state.dev_supply -= 1
        state.developed.add(city)
        gain = DEVELOP_FULL if len(here) == 1 else DEVELOP_SHARED
        for cid in here:
            state.companies[cid].income += gain
        log.add(f"{rules._name(state, seat)} develops {rules.city_name(city)}: "
                + ", ".join(f"{rules.company_name(c)} +${gain}" for c in here)
                + f" ({state.dev_supply} markers left).", "develop", rule=R.DEVELOP, seat=seat, city=city,
                companies=list(here), gain=gain)

    def fund(self, state: ARState, seat: int, company: str, log: EventLog) -> None:
        c = state.companies[company]
        c.treasury += FUND_AMOUNT
        state.bank_out += FUND_AMOUNT
        log.add(f"{self.rules._name(state, seat)} funds the {self.rules.company_name(c.id)} company: "
                f"${FUND_AMOUNT} from the bank (treasury ${c.treasury}).", "fund", rule=R.FUND,
                seat=seat, company=c.id, treasury=FUND_AMOUNT)

    def take_two(self, state: ARState, seat: int, source: str, log: EventLog) -> None:
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

    # ------------------------------------------------------------ turns, phases and years
    def begin_round(self, state: ARState, log: EventLog) -> None:
        state.columns = [{} for _ in range(PHASES)]
        log.add(f"{state.year} begins.", "year", rule=R.TRACK, year=state.year)
        self.begin_phase(state, 0)

    @staticmethod
    def begin_phase(state: ARState, phase: int) -> None:
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

    def end_turn(self, state: ARState, log: EventLog) -> None:
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
            self.begin_phase(state, state.phase + 1)
            return
        self.end_round(state, log)

    def end_round(self, state: ARState, log: EventLog) -> None:
        """Dividends; then the end of the game, or the next year in the last column's order."""
        self.dividends.pay(state, log)
        reason = self.dividends.end_reason(state)
        if reason is not None:
            self.dividends.finish(state, reason, log)
            return
        last = state.columns[PHASES - 1]
        state.turn_order = [last[s] for s in SPACE_IDS if s in last]
        state.year += 1
        log.add("New turn order: " + ", ".join(self.rules._name(state, s) for s in state.turn_order)
                + ".", "turn_order_new", rule=R.TRACK, order=list(state.turn_order))
        self.begin_round(state, log)
