"""Track building: company by company in the order of play, one link at a time.

A company's first link is built from a starting location; later links must
touch its network. Each link is paid from the company's own cubes, and a
location adds its value to the company's profit the first time it is reached.
A company must build while it can; the first track to join the two coasts
earns the transcontinental bonus.
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.engine import Interned, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.actions import BuildTrack
from railgames.games.steel_driver.base import BuildOutcome, SteelDriverBase
from railgames.games.steel_driver.board_map import Route
from railgames.games.steel_driver.phases.common import CompanyPhase
from railgames.games.steel_driver.state import Company, SDState, Step
from railgames.games.steel_driver.terms import TRANSCONTINENTAL_OTHERS, cubes

STEPS = (Step.BUILD,)


class BuildPhase(CompanyPhase):
    actions: ClassVar[tuple[type, ...]] = (BuildTrack,)

    def __init__(self, rules: SteelDriverBase) -> None:
        super().__init__(rules)
        # Legal choices, made once each (see engine.Interned).
        self._listed = Interned(BuildTrack).make

    def begin(self, state: SDState, log: EventLog) -> None:
        state.step = Step.BUILD
        state.passed = []
        state.cursor = 0
        log.add("Track building, in the order " + ", ".join(
            self.rules.company_name(c) for c in state.order) + ".", "build_phase", rule=R.BUILD)

    # ------------------------------------------------------------ listing
    def prompt(self, state: SDState) -> Prompt:
        rules = self.rules
        c = state.active_company()
        ctrl = c.controller
        assert ctrl is not None
        what = "its first link, from a starting location" if not c.reached else "one track link"
        return Prompt(
            seat=ctrl, step="Build track",
            text=f"{rules.company_name(c.id)} company ({rules.player_name(state, ctrl)}; "
                 f"{cubes(c.cubes)}, profit ${c.profit}): build {what}",
            choices=self.legal(state, c.id),
            help="A company must build while it can pay for a link that joins its network; "
                 "it passes only when it cannot. A location adds its value the first time "
                 "the company reaches it.",
        )

    def legal(self, state: SDState, company: str) -> list[BuildTrack]:
        """Every link ``company`` may build now, in the order the map gives its routes."""
        rules = self.rules
        c = state.companies[company]
        seat = c.controller if c.controller is not None else 0
        # Built from routes this method has just checked, so validation is skipped.
        make = self._listed
        out: list[BuildTrack] = []
        for r in rules.buildable_routes(state, company):
            if not rules.can_pay(c, r):
                continue
            if c.reached:
                out.append(make(seat, company, r.id, None))
            else:
                out.extend(make(seat, company, r.id, end) for end in rules.first_link_starts(r))
        return out

    def refusal(self, state: SDState, company: str) -> str | None:
        """Why ``company`` cannot build now, or None if it must."""
        rules = self.rules
        c = state.companies[company]
        if c.controller is None:
            # Ruling "uncontrolled companies": nobody decides for them, so they do not build.
            return "nobody controls it this turn"
        if c.cubes == 0:
            return "it has no investment cubes"
        routes = rules.buildable_routes(state, company)
        if not routes:
            return "there is nowhere left for its track to go"
        if not any(rules.can_pay(c, r) for r in routes):
            cheapest = min(r.cost for r in routes)
            return f"it has {cubes(c.cubes)} and every link it could build costs {cheapest} or more"
        return None

    # ------------------------------------------------------------ checks
    def validate(self, state: SDState, action: Any) -> None:
        rules = self.rules
        rules.expect(state, STEPS, "build track")
        r = rules.known_route(action.route)
        if action.start is not None:
            rules.known_location(action.start)
        c = rules.acting_company(state, action.company, "build")
        route = rules.route_name(r.id)
        owner = state.track.get(r.id)
        if owner is not None:
            raise IllegalAction(f"{route} already has a track link (the {rules.company_name(owner)} "
                                "company's); only one link may be built along a route")
        if not c.reached:
            self._check_first_link(c, r, action.start)
        else:
            self._check_next_link(c, r, action.start)
        if not rules.can_pay(c, r):
            raise IllegalAction(f"the {rules.company_name(c.id)} company has {cubes(c.cubes)} and "
                                f"{route} costs {r.cost}; track is paid from the company's cubes "
                                "only, never from a player's own")

    def _check_first_link(self, c: Company, r: Route, start: str | None) -> None:
        rules = self.rules
        if start is None:
            raise IllegalAction(f"the {rules.company_name(c.id)} company's first link must name the "
                                "starting location it is built from")
        if start not in (r.a, r.b):
            raise IllegalAction(f"{rules.location_name(start)} is not an end of {rules.route_name(r.id)}")
        if start not in rules.first_link_starts(r):
            raise IllegalAction(f"{rules.location_name(start)} is not a starting "
                                "location (a hexagon); a company's first link is built "
                                "from one")

    def _check_next_link(self, c: Company, r: Route, start: str | None) -> None:
        rules = self.rules
        name = rules.company_name(c.id)
        if start is not None:
            raise IllegalAction(f"only a company's first link names a starting location; the "
                                f"{name} company started from {rules.location_name(c.start or '')}")
        if r.a not in c.reached and r.b not in c.reached:
            raise IllegalAction(f"track must be contiguous: {rules.route_name(r.id)} does not touch "
                                f"the {name} company's network")

    # ------------------------------------------------------------ execution
    def execute(self, state: SDState, action: Any, log: EventLog) -> None:
        rules = self.rules
        outcome = rules.build_outcome(state, action)
        c = state.companies[action.company]
        r = rules.route(action.route)
        c.cubes -= r.cost
        state.pool += r.cost
        state.track[r.id] = c.id
        c.links.append(r.id)
        if not c.reached:
            assert action.start is not None
            c.start = action.start
            c.reached = [action.start]
            how = f" from {rules.location_name(action.start)}"
        else:
            how = ""
        target, gain = outcome.target, outcome.gain
        if target is not None:
            c.reached.append(target)
            what = f"reaches {rules.location_name(target)}: +${gain}"
        else:
            what = "no new location"
        c.profit += gain
        build_rules = (R.BUILD, *([R.FIRST_LINK] if how else []), *([R.NEW_LOCATION] if gain else []))
        log.add(f"The {rules.company_name(c.id)} company builds {rules.route_name(r.id)}{how} for "
                f"{cubes(r.cost)} ({what}; profit ${c.profit}).", "build", rule=build_rules,
                seat=action.seat, company=c.id, route=r.id, cost=r.cost, gain=gain,
                reached=target)
        if outcome.bonus:
            self._transcontinental(state, c.id, outcome, log)
        self.next_in_order(state)

    def _transcontinental(self, state: SDState, builder: str, outcome: BuildOutcome,
                          log: EventLog) -> None:
        rules = self.rules
        others, links = list(outcome.sharers), outcome.links
        state.companies[builder].profit += outcome.bonus
        for cid in others:
            state.companies[cid].profit += TRANSCONTINENTAL_OTHERS
        state.transcontinental = {"builder": builder, "others": others, "links": links,
                                  "turn": state.turn}
        west, east = (rules.location_name(end) for end in rules.map.transcontinental)
        rest = (", and " + ", ".join(rules.company_name(c) for c in others)
                + f" +${TRANSCONTINENTAL_OTHERS} each") if others else ""
        log.add(f"The transcontinental link! {west} and {east} are joined "
                f"({links} links): {rules.company_name(builder)} +${outcome.bonus}{rest}.",
                "transcontinental", rule=R.TRANSCONTINENTAL, company=builder, others=others, links=links)
