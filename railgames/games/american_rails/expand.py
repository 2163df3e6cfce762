"""American Rails: the expand phase, placing track cubes (Expand 2, 3 or 4).

A player places cubes of companies they hold a share of, each next to a cube of
its own colour, paid from that company's treasury; a cube in a city changes the
income of every company there, and may complete a special connection. The turn
goes back to the action track when the cubes are placed or the player stops.
"""

from __future__ import annotations

from typing import Any

from railgames.core.engine import Interned, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.hexgrid import Hex
from railgames.core.phases import Phase
from railgames.games.american_rails import rule_texts as R
from railgames.games.american_rails.actions import EndAction, PlaceCube
from railgames.games.american_rails.board_map import SINGLE_CUBE_TERRAINS
from railgames.games.american_rails.common import SPECIAL_BONUS, AmericanRailsBase, article
from railgames.games.american_rails.state import ARState, Step
from railgames.games.american_rails.track import TrackPhase


class ExpandPhase(Phase[AmericanRailsBase, ARState]):
    """Where a cube may go, what it costs and brings, and placing it."""

    actions = (PlaceCube,)

    def __init__(self, rules: AmericanRailsBase, track: TrackPhase) -> None:
        super().__init__(rules)
        self.track = track
        # Legal choices, made once each (see engine.Interned).
        self._listed_place_cube = Interned(PlaceCube).make

    # ------------------------------------------------------------ what may be done
    @staticmethod
    def holds_share(state: ARState, seat: int, company: str) -> bool:
        """A player expands only the companies they hold a share of."""
        return bool(state.players[seat].shares.get(company))

    def expandable_companies(self, state: ARState, seat: int) -> list[str]:
        # A company without cubes in supply or on the map has no placement (placement_refusal).
        return [c.id for c in state.company_list()
                if c.supply > 0 and c.hexes and self.holds_share(state, seat, c.id)]

    def placement_refusal(self, state: ARState, company: str, h: Hex) -> str | None:
        """Why a cube of ``company`` may not go on ``h`` (the player's shares aside), or None."""
        # Names are looked up only for a refusal: legal_placements asks this of every hex.
        rules = self.rules
        c = state.companies[company]
        here = state.hexes.get(h, ())
        if company in here:
            return (f"{rules.hex_name(h)} already holds {article(rules.company_name(company))} cube; "
                    "a hex never holds two of one colour")
        terrain = rules._terrain[h]
        if terrain in SINGLE_CUBE_TERRAINS and here:
            return f"{rules.hex_name(h)} already holds a cube; a {terrain} hex holds one cube only"
        hexes = state.hexes
        if not any(company in hexes.get(n, ()) for n in rules._links[h]):
            return f"{rules.hex_name(h)} is not next to {article(rules.company_name(company))} cube"
        if c.supply <= 0:
            return f"the {rules.company_name(company)} company has no cubes left in its supply"
        cost = rules.cube_cost(state, h)
        if cost > c.treasury:
            return (f"a cube on {rules.hex_name(h)} costs ${cost} and the "
                    f"{rules.company_name(company)} company's treasury holds "
                    f"${c.treasury}; track is paid from the treasury only")
        return None

    def legal_placements(self, state: ARState, seat: int, first_only: bool = False) -> list[Any]:
        """Every cube ``seat`` may place now (``first_only``: the first found, if any)."""
        out: list[Any] = []
        make = self._listed_place_cube
        rules = self.rules
        links = rules._links
        offset = rules._offset
        terrain = rules._terrain
        hexes = state.hexes
        cost_of = rules.cube_cost
        for cid in self.expandable_companies(state, seat):
            c = state.companies[cid]
            frontier: dict[Hex, None] = {}
            for h in c.hexes:
                for n in links[h]:
                    frontier.setdefault(n)
            # ``placement_refusal`` without wording a refusal: each hex of the frontier is
            # next to a cube of the company (neighbours are mutual) and the company has
            # cubes in supply (``expandable_companies``), so the rest is asked here.
            treasury = c.treasury
            for h in frontier:
                here = hexes.get(h, ())
                if here and (cid in here or terrain[h] in SINGLE_CUBE_TERRAINS):
                    continue
                if cost_of(state, h) > treasury:
                    continue
                out.append(make(seat, cid, offset[h]))
                if first_only:
                    return out
        return out

    # ------------------------------------------------------------ the phase
    def prompt(self, state: ARState) -> Prompt | None:
        seat = state.acting
        name = self.rules._name(state, seat)
        placed = state.expand_placed
        total = placed + state.expand_left
        return Prompt(
            seat=seat, step=f"Expand {total}",
            text=f"{name}: place cube {placed + 1} of up to {total}, or stop",
            choices=[*self.legal_placements(state, seat), self.rules.made(EndAction, seat=seat)],
            help="A cube of a company you hold a share of goes next to a cube of its own colour; "
                 "the company's treasury pays. Cities $2 +$2 per cube or marker there, plains "
                 "$2 +$2 per cube, forest $3, mountain $5.")

    def validate(self, state: ARState, action: Any) -> None:
        rules = self.rules
        rules._expect(state, (Step.EXPAND,), "place a track cube")
        c = rules._in_game(state, action.company)
        if not self.holds_share(state, action.seat, c.id):
            p = state.players[action.seat]
            raise IllegalAction(f"{p.name} holds no {rules.company_name(c.id)} share; you expand "
                                "only companies you hold a share of")
        refusal = self.placement_refusal(state, c.id, rules.map.hex_of(*action.hex))
        if refusal is not None:
            raise IllegalAction(refusal)

    def execute(self, state: ARState, action: Any, log: EventLog) -> None:
        self.place_cube(state, action.seat, action.company, self.rules.map.hex_of(*action.hex), log)
        state.expand_left -= 1
        state.expand_placed += 1
        if state.expand_left <= 0:
            self.track.end_turn(state, log)

    def place_cube(self, state: ARState, seat: int, company: str, h: Hex, log: EventLog) -> None:
        rules = self.rules
        outcome = rules.cube_outcome(state, company, h)
        c = state.companies[company]
        c.treasury -= outcome.cost
        state.bank_out -= outcome.cost
        c.supply -= 1
        c.hexes.append(h)
        state.hexes.setdefault(h, []).append(company)
        c.specials.extend(outcome.specials)
        for cid, change in outcome.income.items():
            state.companies[cid].income += change
        changes = [f"{rules.company_name(cid)} {'+' if d >= 0 else '-'}${abs(d)}"
                   for cid, d in outcome.income.items() if d]
        tail = f"; income {', '.join(changes)}" if changes else ""
        log.add(f"{rules._name(state, seat)} places {article(rules.company_name(company))} cube on "
                f"{rules.hex_name(h)} for ${outcome.cost}{tail}.", "place_cube", rule=(R.EXPAND, R.INCOME),
                seat=seat, company=company, hex=list(rules.map.offset_of(h)), cost=outcome.cost,
                income=dict(outcome.income))
        for a, b in outcome.specials:
            log.add(f"Special connection: the {rules.company_name(company)} company joins "
                    f"{rules.city_name(a)} and {rules.city_name(b)}: +${SPECIAL_BONUS} income.",
                    "special", rule=R.SPECIAL, company=company, cities=[a, b])
