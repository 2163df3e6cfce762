"""A greedy Steel Driver bot.

It prices a company by a quick plan of what the company could build this
turn with the cubes in its box and a bid on top (profit the controller takes
at once), plus a rough worth of the share that comes with control, and bids
up to where the cubes paid stop being worth it. A cube is dear early and
cheap in the last turn, when cubes left in hand are worth nothing. It builds
the link that adds the most per cube (new colours for the final sets and the
transcontinental bonus count too) and claims the goods cube that adds most to
its company's sets, taking first those another company could take.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from railgames.core.engine import Prompt, Ruleset
from railgames.core.search import SearchHooks
from railgames.games.steel_driver.actions import (
    Bid,
    BuildTrack,
    ClaimGoods,
    PassBid,
    PassMarker,
    PutUp,
)
from railgames.games.steel_driver.base import SteelDriverBase
from railgames.games.steel_driver.board_map import Route
from railgames.games.steel_driver.state import SDState, Step
from railgames.games.steel_driver.terms import TRANSCONTINENTAL_BUILDER, TURNS, set_value

# What a cube in hand is worth, in dollars, by turn: it can still buy track later.
CUBE_PRICE = {1: 12, 2: 11, 3: 10, 4: 8, 5: 2}
NEW_COLOUR = 8  # a location of a colour the company lacks helps its final sets
SHARE_SHARE = 0.6  # the part of its network's goods a company can expect to claim
MIN_SHARE = 40  # what a share promises even before the company has track


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        assert isinstance(ruleset, SteelDriverBase)
        state: SDState = view
        seat = prompt.seat
        me = state.players[seat]
        if state.step is Step.AUCTION:
            best, best_worth = None, 0.0
            for action in prompt.choices:
                if isinstance(action, PutUp):
                    worth = self.worth(ruleset, state, action.company, 1) - self.price(state)
                    worth += self.rng.random()
                    if worth > best_worth:
                        best, best_worth = action, worth
            return best if best is not None else PassMarker(seat=seat)
        if state.step in (Step.OPENING, Step.BIDDING):
            a = state.auction
            assert a is not None
            limit, opening = self.limit(ruleset, state, a.company, me.cubes)
            if state.step is Step.OPENING:
                return Bid(seat=seat, amount=max(1, min(opening, me.cubes)))
            if a.high_bid + 1 <= limit:
                return Bid(seat=seat, amount=a.high_bid + 1)
            return PassBid(seat=seat)
        if state.step is Step.BUILD:
            builds = [a for a in prompt.choices if isinstance(a, BuildTrack)]
            return max(builds, key=lambda b: (self.build_score(ruleset, state, b), self.rng.random()))
        claims = [a for a in prompt.choices if isinstance(a, ClaimGoods)]
        return max(claims, key=lambda c: (self.claim_score(ruleset, state, c), self.rng.random()))

    # ------------------------------------------------------------ auctions
    @staticmethod
    def price(state: SDState) -> int:
        return CUBE_PRICE.get(state.turn, 2)

    def limit(self, ruleset: SteelDriverBase, state: SDState, company: str,
              cubes: int) -> tuple[int, int]:
        """The most cubes worth paying for control of ``company``, and the bid worth most.

        Cubes bid go into the company's box, and a controller spends them on
        track that pays at once, so a bigger bid is not all loss.
        """
        has = state.companies[company].cubes
        plan = self.plan(ruleset, state, company, has + cubes)
        share = self.share_worth(ruleset, state, company, plan)
        price = self.price(state)
        limit, best, best_gain = 0, 1, float("-inf")
        for bid in range(1, cubes + 1):
            gain = self.profit_with(plan, has + bid) + share - price * bid
            if gain > 0:
                limit = bid
            if gain > best_gain:
                best, best_gain = bid, gain
        return limit, best

    def worth(self, ruleset: SteelDriverBase, state: SDState, company: str, bid: int) -> float:
        c = state.companies[company]
        plan = self.plan(ruleset, state, company, c.cubes + bid)
        return self.profit_with(plan, c.cubes + bid) + self.share_worth(ruleset, state, company, plan)

    @staticmethod
    def profit_with(plan: list[tuple[int, int, str | None]], cubes: int) -> int:
        """Profit of the plan's steps that fit in ``cubes``."""
        spent = gained = 0
        for cost, gain, _ in plan:
            if spent + cost > cubes:
                break
            spent += cost
            gained += gain
        return gained

    def share_worth(self, ruleset: SteelDriverBase, state: SDState, company: str,
                    plan: list[tuple[int, int, str | None]]) -> float:
        c = state.companies[company]
        colours: dict[str, int] = {}
        for loc in [*c.reached, *(loc for _, _, loc in plan if loc)]:
            colour = ruleset.colour(loc)
            colours[colour] = colours.get(colour, 0) + 1
        turns_left = TURNS - state.turn
        return max(MIN_SHARE, SHARE_SHARE * set_value(colours)) + 10 * turns_left

    def plan(self, ruleset: SteelDriverBase, state: SDState, company: str,
             cubes: int) -> list[tuple[int, int, str | None]]:
        """Greedy builds with ``cubes``: (cost, profit, location reached) per link."""
        c = state.companies[company]
        reached = list(c.reached)
        built = set(state.track)
        steps: list[tuple[int, int, str | None]] = []
        while True:
            best: tuple[float, Route, str | None, str | None] | None = None
            for r in self._routes(ruleset, reached, built):
                if r.cost > cubes:
                    continue
                for start, new in self._ends(ruleset, r, reached):
                    gain = ruleset.value(new) if new else 0
                    score = (gain + 1) / r.cost
                    if best is None or score > best[0]:
                        best = (score, r, start, new)
            if best is None:
                return steps
            _, r, start, new = best
            cubes -= r.cost
            built.add(r.id)
            if not reached and start:
                reached.append(start)
            if new:
                reached.append(new)
            steps.append((r.cost, ruleset.value(new) if new else 0, new))

    @staticmethod
    def _routes(ruleset: SteelDriverBase, reached: list[str], built: set[str]) -> list[Route]:
        if not reached:
            return [r for r in ruleset.map.links if r.id not in built
                    and (ruleset.is_starting(r.a) or ruleset.is_starting(r.b))]
        seen: dict[str, Route] = {}
        for loc in reached:
            for r in ruleset.map.routes_at[loc]:
                if r.id not in built:
                    seen[r.id] = r
        return list(seen.values())

    @staticmethod
    def _ends(ruleset: SteelDriverBase, r: Route, reached: list[str]) -> list[tuple[str | None, str | None]]:
        """(start, newly reached location) for each way of building ``r``."""
        if not reached:
            return [(end, r.b if end == r.a else r.a) for end in (r.a, r.b) if ruleset.is_starting(end)]
        new = [end for end in (r.a, r.b) if end not in reached]
        return [(None, new[0] if new else None)]

    # ------------------------------------------------------------ building
    def build_score(self, ruleset: SteelDriverBase, state: SDState, action: BuildTrack) -> float:
        c = state.companies[action.company]
        r = ruleset.route(action.route)
        new = ruleset.target_of(state, action)
        score = float(0 if new is None else ruleset.value(new))
        if new is not None:
            colours = {ruleset.colour(loc) for loc in c.reached}
            if ruleset.colour(new) not in colours:
                score += NEW_COLOUR
            # A glance ahead: the best value one more link from the new location would add.
            ahead = [ruleset.value(r2.b if r2.a == new else r2.a)
                     for r2 in ruleset.map.routes_at[new]
                     if r2.id not in state.track and r2.id != r.id
                     and (r2.b if r2.a == new else r2.a) not in c.reached]
            score += 0.3 * max(ahead, default=0)
        if state.transcontinental is None and self.joins_coasts(ruleset, state, r.id):
            score += TRANSCONTINENTAL_BUILDER
        return score / r.cost

    @staticmethod
    def joins_coasts(ruleset: SteelDriverBase, state: SDState, route: str) -> bool:
        adj: dict[str, list[str]] = {}
        for rid in [*state.track, route]:
            r = ruleset.route(rid)
            adj.setdefault(r.a, []).append(r.b)
            adj.setdefault(r.b, []).append(r.a)
        west, east = ruleset.map.transcontinental
        if west not in adj or east not in adj:
            return False
        seen = {west}
        queue = deque([west])
        while queue:
            for there in adj[queue.popleft()]:
                if there not in seen:
                    seen.add(there)
                    queue.append(there)
        return east in seen

    # ------------------------------------------------------------ final claims
    @staticmethod
    def claim_score(ruleset: SteelDriverBase, state: SDState, action: ClaimGoods) -> tuple[int, int]:
        c = state.companies[action.company]
        colour = state.goods_on[action.location]
        more = dict(c.goods)
        more[colour] = more.get(colour, 0) + 1
        gain = set_value(more) - set_value(c.goods)
        rivals = sum(1 for other in state.companies.values()
                     if other.id != c.id and other.id not in state.passed
                     and action.location in other.reached)
        return gain, rivals


# ------------------------------------------------------------ search
class SteelDriverSearch(SearchHooks):
    """What the kernel's search needs to play Steel Driver.

    Nothing is hidden once the game is set up, so a determinization is a copy.
    The evaluation: cash, the profit a controlled company pays this turn, each
    share at part of what its network's colours would make as goods sets, and
    cubes in hand at what they can still buy.
    """

    score_scale = 60.0
    playout_depth = 20

    def evaluate(self, state: Any) -> list[float]:
        rules = self.rules
        assert isinstance(rules, SteelDriverBase)
        worth: dict[str, float] = {}
        for cid, c in state.companies.items():
            if c.final_profit is not None:
                worth[cid] = c.final_profit
                continue
            if c.goods:
                worth[cid] = set_value(c.goods)
                continue
            colours: dict[str, int] = {}
            for loc in c.reached:
                colour = rules.colour(loc)
                colours[colour] = colours.get(colour, 0) + 1
            worth[cid] = SHARE_SHARE * set_value(colours)
        price = CUBE_PRICE.get(state.turn, 2) * 0.5
        out = []
        for seat, p in enumerate(state.players):
            value = p.cash + p.cubes * price
            value += sum(c.profit for c in state.companies.values() if c.controller == seat)
            value += sum(k * worth[cid] for cid, k in p.shares.items())
            out.append(value)
        return out

