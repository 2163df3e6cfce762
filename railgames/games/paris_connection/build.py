"""Paris Connection: building, one to five locomotives of one company in a turn.

Each locomotive comes from the company's supply and goes next to one of its colour
already on the board (a checkered border does not count as next to). A hex holds
at most two locomotives of different colours, a city one, the Eiffel Tower hex
none; and no placement may leave another colour without any hex to grow into
(ruling "cut off"). A locomotive on a city raises the company's value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from railgames.core.engine import Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.hexgrid import Hex, neighbours, side_key
from railgames.core.phases import Phase
from railgames.games.paris_connection import rule_texts as R
from railgames.games.paris_connection.actions import Build, EndBuild
from railgames.games.paris_connection.caches import BuildTables, FrontierCache, Frontiers
from railgames.games.paris_connection.common import MAX_BUILD, ParisConnectionBase
from railgames.games.paris_connection.state import PCState, Step
from railgames.games.paris_connection.turns import Turns


class BuildPhase(Phase[ParisConnectionBase, PCState]):
    """Where a locomotive may go, listing the builds, and placing one."""

    actions = (Build, EndBuild)

    def __init__(self, rules: ParisConnectionBase, turns: Turns) -> None:
        super().__init__(rules)
        self.turns = turns
        self.kept = FrontierCache(rules.frontiers, rules._links, rules._capacity)
        self._tables = BuildTables(rules._offset)

    # ------------------------------------------------------------ what may be done
    def build_refusal(self, state: PCState, company: str) -> str | None:
        """Why no locomotive of ``company`` may be placed now (where aside), or None."""
        if state.step is Step.BUILD:
            if company != state.building:
                return (f"this build is of {state.building} locomotives; a build takes "
                        "locomotives of one company only")
            if len(state.placed) >= MAX_BUILD:
                return f"a build places at most {MAX_BUILD} locomotives; end the build"
        if state.supply[company] == 0:
            return f"the {company} supply is empty"
        return None

    def cut_off_by(self, state: PCState, company: str, h: Hex,
                   frontiers: Frontiers | None = None) -> str | None:
        """The colour a placement of ``company`` on ``h`` would cut off, if any.

        Ruling "cut off": a colour is cut off when no hex is left where one of its
        locomotives could legally stand. A placement fills at most the one hex it
        is on, so it cuts colour D off exactly when ``h`` is D's only such hex and
        the placement leaves ``h`` full. A colour with a locomotive in a city is
        not protected; nor is the colour being placed (the rule protects others).
        """
        rules = self.rules
        if len(state.board.get(h, ())) + 1 < rules._capacity[h]:
            return None  # the hex still has room for another colour afterwards
        if frontiers is None:
            frontiers = self.kept.now(state)
        # Only a colour with a locomotive next to ``h`` can have ``h`` in its room.
        nearby = {c for n in rules._links[h] for c in state.board.get(n, ())}
        for other in rules.companies:
            if other == company or other not in nearby:
                continue
            if frontiers[other] == {h} and not rules.reached_city(state, other):
                return other
        return None

    def placement_refusal(self, state: PCState, company: str, h: Hex,
                          frontiers: Frontiers | None = None) -> str | None:
        """Why ``company`` may not place on ``h`` now (supply and build size aside)."""
        rules = self.rules
        if h == rules.map.tower:
            return "the Eiffel Tower hex can never hold a locomotive"
        here = state.board.get(h, [])
        if company in here:
            return f"{rules.hex_name(h)} already holds a {company} locomotive; two of a colour never share a hex"
        if rules.is_city(h) and here:
            return f"{rules.hex_name(h)} is a city and holds only one locomotive ({here[0]} is there)"
        if len(here) >= rules._capacity[h]:
            return f"{rules.hex_name(h)} already holds two locomotives ({' and '.join(here)})"
        if not any(company in state.board.get(n, ()) for n in rules._links[h]):
            across = [n for n in neighbours(h)
                      if company in state.board.get(n, ()) and side_key(h, n) in rules._checkered]
            if across:
                return (f"{rules.hex_name(h)} is next to a {company} locomotive only across a checkered "
                        f"border ({rules.hex_name(across[0])}), which does not count as adjacent")
            return f"a new {company} locomotive must be placed next to one already on the board"
        victim = self.cut_off_by(state, company, h, frontiers)
        if victim is not None:
            return (f"a {company} locomotive on {rules.hex_name(h)} would cut {victim} off completely: "
                    f"it is the last hex {victim} could grow into, and {victim} has reached no city")
        return None

    def legal_hexes(self, state: PCState, company: str,
                    frontiers: Frontiers | None = None) -> list[Hex]:
        if frontiers is None:
            frontiers = self.kept.now(state)
        # Only a hex that is the whole room of another colour can cut it off (``cut_off_by``).
        last = {h for c, room in frontiers.items() if c != company and len(room) == 1 for h in room}
        hexes = sorted(frontiers[company], key=self.rules._offset.__getitem__)
        if not last:
            return hexes
        return [h for h in hexes
                if h not in last or self.cut_off_by(state, company, h, frontiers) is None]

    def builds(self, state: PCState, seat: int, companies: Iterable[str]) -> list[Any]:
        """The Build actions open to ``seat`` now for each of ``companies``."""
        open_now = [c for c in companies if self.build_refusal(state, c) is None]
        if not open_now:
            return []
        frontiers = self.kept.now(state)
        out: list[Any] = []
        for c in open_now:
            table = self._tables.of(seat, c)
            out.extend(map(table.__getitem__, self.legal_hexes(state, c, frontiers)))
        return out

    # ------------------------------------------------------------ the phase
    def prompt(self, state: PCState) -> Prompt | None:
        seat = state.current
        company = state.building
        assert company is not None
        done = len(state.placed)
        builds = self.builds(state, seat, [company])
        if builds:
            then = "place another or end the build"
        elif done >= MAX_BUILD:
            then = "that is the most a build places: end the build"
        elif state.supply[company] == 0:
            then = f"the {company} supply is empty: end the build"
        else:
            then = f"no hex is left for another {company} locomotive: end the build"
        return Prompt(
            seat=seat, step="Build",
            text=f"{self.rules._name(state, seat)}: {done} of {MAX_BUILD} {company} locomotives "
                 f"placed — {then}",
            choices=[*builds, self.rules.made(EndBuild, seat=seat)],
            help="Each locomotive goes next to one of its colour already on the board "
                 "(including those placed this turn).",
        )

    def validate(self, state: PCState, action: Any) -> None:
        if isinstance(action, EndBuild):
            if state.step is not Step.BUILD:
                raise IllegalAction("no locomotive has been placed this turn: build at least "
                                    "one, or trade")
            return
        company = self.rules._company(action.company)
        h = self.rules._hex(action.hex)
        reason = self.build_refusal(state, company)
        if reason is None:
            reason = self.placement_refusal(state, company, h)
        if reason is not None:
            raise IllegalAction(reason)

    def execute(self, state: PCState, action: Any, log: EventLog) -> None:
        rules = self.rules
        seat = action.seat
        name = rules._name(state, seat)
        if isinstance(action, EndBuild):
            count = len(state.placed)
            log.add(f"{name} ends the build ({rules._locos(count, state.building or '')}).",
                    "end_build", rule=R.END_BUILD, seat=seat, company=state.building, count=count)
            self.turns.next_turn(state, log)
            return
        company, h = action.company, rules._hex(action.hex)
        state.supply[company] -= 1
        last = self.kept.kept_for(state)
        state.board.setdefault(h, []).append(company)
        if last is not None:
            self.kept.placed(state, last, company, h)
        gain = rules._value[h]
        state.value[company] += gain
        state.step = Step.BUILD
        state.building = company
        state.placed.append(h)
        worth = f" (+{gain}: {company} is worth {state.value[company]})" if gain else ""
        log.add(f"{name} places a {company} locomotive on {rules.hex_name(h)}{worth}.", "build",
                rule=(R.BUILD, R.CITY_VALUE) if gain else R.BUILD,
                seat=seat, company=company, hex=list(rules._offset[h]), gain=gain,
                value=state.value[company])
        if h == rules._end_hex:
            self.turns.end_game(state, log, f"a locomotive has reached {rules.hex_name(h)}")
        elif rules.supplies_left(state) <= 1:
            self.turns.end_game(state, log, "only one company's supply still has locomotives")
