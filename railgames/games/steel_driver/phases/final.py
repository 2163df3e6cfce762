"""The final profit determination, after the last turn.

Cubes left unspent go back to the pool as goods cubes, a goods cube goes on
every location with track, and whoever holds most shares of a company controls
it for the claims. Companies then claim one cube at a time, in the order of
play, from locations their track reaches; last, each company's sets of
different colours set what its shares pay, and the richest player wins.
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.engine import Interned, Prompt
from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.actions import ClaimGoods
from railgames.games.steel_driver.base import SteelDriverBase
from railgames.games.steel_driver.phases.common import CompanyPhase
from railgames.games.steel_driver.state import SDState, Step
from railgames.games.steel_driver.terms import SET_VALUES, goods_sets, goods_text, set_value

STEPS = (Step.CLAIM,)


class FinalPhase(CompanyPhase):
    actions: ClassVar[tuple[type, ...]] = (ClaimGoods,)

    def __init__(self, rules: SteelDriverBase) -> None:
        super().__init__(rules)
        # Legal choices, made once each (see engine.Interned).
        self._listed = Interned(ClaimGoods).make

    # ------------------------------------------------------------ the start
    def begin(self, state: SDState, log: EventLog) -> None:
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
        self._place_goods(state, log)
        rules = self.rules
        for c in state.companies.values():
            seat = rules.final_controller(state, c.id)
            c.controller = seat
            if seat is None:
                continue
            held = state.players[seat].shares.get(c.id, 0)
            log.add(f"{rules.player_name(state, seat)} controls the {rules.company_name(c.id)} company at "
                    f"the end ({held} share{'s' if held != 1 else ''}).", "final_control", rule=R.FINAL,
                    seat=seat, company=c.id)
        state.passed = []
        state.cursor = 0
        log.add("The companies claim goods cubes in the order " + ", ".join(
            rules.company_name(c) for c in state.order) + ".", "claims", rule=R.CLAIM)

    def _place_goods(self, state: SDState, log: EventLog) -> None:
        """A goods cube of its colour on each location some track reaches."""
        m = self.rules.map
        supply = dict(m.cube_supply)
        touched = {end for rid in state.track for end in (m.route_by_id[rid].a, m.route_by_id[rid].b)}
        placed: dict[str, int] = {}
        for loc in m.cities:
            if loc.id not in touched:
                continue
            if supply.get(loc.colour, 0) == 0:  # pragma: no cover - the map has enough of each
                continue
            supply[loc.colour] -= 1
            state.goods_on[loc.id] = loc.colour
            placed[loc.colour] = placed.get(loc.colour, 0) + 1
        state.pool -= len(state.goods_on)
        log.add(f"A goods cube goes on each of the {len(state.goods_on)} locations with track: "
                + (goods_text(placed) if placed else "none") + ".", "goods", rule=R.FINAL, placed=placed)

    # ------------------------------------------------------------ listing
    def prompt(self, state: SDState) -> Prompt:
        rules = self.rules
        c = state.active_company()
        ctrl = c.controller
        assert ctrl is not None
        return Prompt(
            seat=ctrl, step="Final profit determination",
            text=f"{rules.company_name(c.id)} company ({rules.player_name(state, ctrl)}; holds "
                 f"{goods_text(c.goods)}): claim one goods cube",
            choices=self.legal(state, c.id),
            help="Take a cube from any location the company's track reaches. Sets of different "
                 "colours score 10, 30, 60, 100 or 150 for 1 to 5 cubes.",
        )

    def legal(self, state: SDState, company: str) -> list[ClaimGoods]:
        c = state.companies[company]
        seat = c.controller if c.controller is not None else 0
        return [self._listed(seat, company, loc) for loc in self.rules.claimable(state, c)]

    def refusal(self, state: SDState, company: str) -> str | None:
        c = state.companies[company]
        if not c.reached:
            return "it has no track"
        if c.controller is None:  # pragma: no cover - a company with track has shareholders
            return "nobody controls it"
        if not self.rules.claimable(state, c):
            return "no goods cube is left on its track"
        return None

    # ------------------------------------------------------------ checks
    def validate(self, state: SDState, action: Any) -> None:
        rules = self.rules
        rules.expect(state, STEPS, "claim goods")
        loc = rules.known_location(action.location)
        c = rules.acting_company(state, action.company, "claim a goods cube")
        where = rules.location_name(loc)
        if loc not in c.reached:
            raise IllegalAction(f"{where} is not on the {rules.company_name(c.id)} company's track")
        if loc not in state.goods_on:
            raise IllegalAction(f"no goods cube is left at {where}")

    # ------------------------------------------------------------ execution
    def execute(self, state: SDState, action: Any, log: EventLog) -> None:
        c = state.companies[action.company]
        colour = state.goods_on.pop(action.location)
        c.goods[colour] = c.goods.get(colour, 0) + 1
        log.add(f"The {self.rules.company_name(c.id)} company claims the {colour} cube at "
                f"{self.rules.location_name(action.location)}.", "claim", rule=R.CLAIM, seat=action.seat,
                company=c.id, location=action.location, colour=colour)
        self.next_in_order(state)

    # ------------------------------------------------------------ the payout
    def pay_out(self, state: SDState, log: EventLog) -> dict[str, dict[str, int]]:
        """Each company's sets set what its shares pay; each player is paid for shares.

        Returns each player's profits, share payout and total, by name.
        """
        rules = self.rules
        for c in state.companies.values():
            c.final_profit = set_value(c.goods)
            if c.goods:
                sets = " + ".join(f"${SET_VALUES[len(s)]}" for s in goods_sets(c.goods))
                log.add(f"The {rules.company_name(c.id)} company's goods ({goods_text(c.goods)}) "
                        f"make {sets} = ${c.final_profit} a share.", "final_profit", rule=R.SETS, company=c.id,
                        profit=c.final_profit)
        final: dict[str, dict[str, int]] = {}
        state.goods_controlled = [0] * len(state.players)
        for c in state.companies.values():
            if c.controller is not None:
                state.goods_controlled[c.controller] += sum(c.goods.values())
        for seat, p in enumerate(state.players):
            before = p.cash
            payout = sum(rules.share_payouts(state, seat).values())
            if payout:
                p.cash += payout
                log.add(f"{p.name} is paid ${payout} for shares (" + ", ".join(
                    f"{p.shares[cid]} {rules.company_name(cid)}" for cid in rules.companies
                    if p.shares.get(cid)) + ").",
                    "payout", rule=R.SETS, seat=seat, cash=payout)
            final[p.name] = {"profits": before, "shares": payout, "total": p.cash}
        return final
