"""A greedy American Rails bot.

Money is the score, and a share pays its part of the company's income every
round left. So the bot values a dollar of a company's income at its fraction
of the company's held shares times the dividend phases still to come. Track
is paid by the companies, not the bot, so it expands the companies it holds
towards the best cities within reach, bids for a share up to a part of what
its dividends should bring, and picks the action space worth most now.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from railgames.core.engine import Prompt, Ruleset
from railgames.core.hexgrid import Hex
from railgames.core.search import SearchHooks
from railgames.games.american_rails.actions import (
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
from railgames.games.american_rails.common import (
    EXPAND_CUBES,
    FIRST_YEAR,
    LAST_YEAR,
    LOW_SUPPLY,
    AmericanRailsBase,
)
from railgames.games.american_rails.state import ARState, Step

REACH = 0.4  # how much a city some hexes away counts, per dollar of its value, at one hex
BID_SHARE = 0.6  # bid up to this part of what a share is expected to pay
BID_STEP = 5  # the least a bot raises by, and the round amounts it bids in
TYPICAL_ROUNDS = 5  # rounds a four-player game of greedy bots lasts, mostly (the supplies end it)


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # ------------------------------------------------------------ valuations
    @staticmethod
    def rounds_left(state: ARState) -> int:
        return LAST_YEAR - state.year + 1

    @staticmethod
    def fraction(state: ARState, seat: int, company: str, extra: int = 0) -> float:
        mine = state.players[seat].shares.get(company, 0) + extra
        held = sum(p.shares.get(company, 0) for p in state.players) + extra
        return mine / held if held else 0.0

    def share_value(self, rules: AmericanRailsBase, state: ARState, company: str) -> float:
        """What one more share of ``company`` should pay over the rounds left."""
        c = state.companies[company]
        held = sum(p.shares.get(company, 0) for p in state.players) + 1
        # Unsold shares will mostly be sold later and dilute the dividend.
        held = max(held, round(0.7 * (held - 1 + c.shares_left)))
        income = c.income
        if not c.on_map:
            empty = [rules.map.city_by_id[x].full for x in rules.empty_cities(state)]
            income = max(empty, default=0)
        growth = 3 if c.supply > 2 and c.shares_left > 0 or c.treasury > 4 else 0
        return (income + growth) / held * self.rounds_left(state)

    def reach_score(self, rules: AmericanRailsBase, state: ARState, company: str, h: Hex) -> float:
        """How well a cube on ``h`` leads ``company`` towards cities it has not reached."""
        best = 0.0
        seen = {h: 0}
        queue = deque([h])
        own = set(state.companies[company].hexes)
        while queue:
            here = queue.popleft()
            d = seen[here]
            city = rules._city_at.get(here)
            if city is not None and here not in own and d > 0:
                others = len(state.hexes.get(here, ()))
                value = rules.city_value(state, city.id, others + 1)
                best = max(best, value / (1 + d))
            if d >= 4:
                continue
            for n in rules._links[here]:
                if n not in seen and company not in state.hexes.get(n, ()):
                    seen[n] = d + 1
                    queue.append(n)
        return REACH * best

    def placement_score(self, rules: AmericanRailsBase, state: ARState, seat: int,
                        action: PlaceCube) -> float:
        h = rules.map.hex_of(*action.hex)
        outcome = rules.cube_outcome(state, action.company, h)
        rounds = self.rounds_left(state)
        gain = sum(change * self.fraction(state, seat, cid) for cid, change in outcome.income.items())
        frac = self.fraction(state, seat, action.company)
        reach = frac * self.reach_score(rules, state, action.company, h)
        return gain * rounds + reach * min(rounds, 3) - 0.05 * outcome.cost * frac

    def space_value(self, rules: AmericanRailsBase, state: ARState, seat: int, space: str,
                    placements: list[float]) -> float:
        rounds = self.rounds_left(state)
        me = state.players[seat]
        if space == "pass":
            return 0.1
        if space in ("expand3", "expand4"):
            return sum(sorted((s for s in placements if s > 0), reverse=True)[:EXPAND_CUBES[space]])
        if space == "take2":
            expand = (sum(sorted((s for s in placements if s > 0), reverse=True)[:2])
                      if len(state.players) >= 4 else 0)
            return max(2.0, expand)
        if space == "develop":
            return max((self.develop_gain(rules, state, seat, c) for c in rules.developable(state)),
                       default=0) * rounds
        if space == "fund":
            return max((5 * self.fraction(state, seat, c.id) * 0.5 for c in state.company_list()
                        if c.on_map), default=0)
        if space == "auction":
            if me.money < 10:
                return 0
            return max((self.share_value(rules, state, c) - 10 for c in rules.offerable(state)),
                       default=0) * 0.5
        return 0

    @staticmethod
    def bid_amount(high: int, minimum: int, limit: int) -> int | None:
        """What to bid over ``high`` (0: no bid yet) when the rules allow ``minimum`` and
        the bot would pay up to ``limit``; None: pass.

        Raising by a dollar at a time lets an auction crawl for dozens of turns, so the
        bot raises by $5 at least, in round amounts, and with much room left jumps
        halfway towards its limit at once; a raise it cannot afford in full is a pass."""
        step = max(BID_STEP, (limit - high) // 2 // BID_STEP * BID_STEP)
        amount = max(minimum, (high + step) // BID_STEP * BID_STEP)
        return amount if amount <= limit else None

    def develop_gain(self, rules: AmericanRailsBase, state: ARState, seat: int, city: str) -> float:
        here = state.hexes[rules.map.city_hex[city]]
        gain = 2 if len(here) == 1 else 1
        return sum(gain * self.fraction(state, seat, cid) for cid in here)

    # ------------------------------------------------------------ choosing
    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        assert isinstance(ruleset, AmericanRailsBase)
        rules = ruleset
        state: ARState = view
        seat = prompt.seat
        me = state.players[seat]
        step = state.step
        jitter = self.rng.random
        if step is Step.BID:
            a = state.auction
            assert a is not None and prompt.amount is not None
            # Each bot values shares a little differently, as players do.
            taste = 0.8 + 0.4 * self.rng.random()
            limit = min(me.money, int(BID_SHARE * taste * self.share_value(rules, state, a.company)))
            amount = self.bid_amount(a.high_bid if a.high_seat is not None else 0,
                                     prompt.amount.min, limit)
            return PassBid(seat=seat) if amount is None else Bid(seat=seat, amount=amount)
        if step is Step.OFFER:
            offers = [a for a in prompt.choices if isinstance(a, OfferShare)]
            scored = [(self.share_value(rules, state, a.company) + jitter(), a) for a in offers]
            best = max(scored, key=lambda t: t[0], default=None)
            if best is None or (not state.prep and best[0] < 12):
                return EndAction(seat=seat)
            return best[1]
        if step is Step.START:
            def start_value(a: PlaceStart) -> float:
                city = rules.map.city_by_id[a.city]
                special = 3 if a.city in rules.map.special_cities else 0
                return city.full + special + jitter()
            return max((a for a in prompt.choices if isinstance(a, PlaceStart)), key=start_value)
        if step is Step.CHOOSE:
            cubes = [self.placement_score(rules, state, seat, a)
                     for a in rules.legal_placements(state, seat)]
            spaces = [a for a in prompt.choices if isinstance(a, TakeSpace)]
            return max(spaces, key=lambda a: self.space_value(rules, state, seat, a.space, cubes)
                       + 0.01 * jitter())
        if step is Step.DEVELOP:
            devs = [a for a in prompt.choices if isinstance(a, Develop)]
            best_dev = max(devs, key=lambda a: self.develop_gain(rules, state, seat, a.city) + 0.01 * jitter(),
                           default=None)
            if best_dev is None or self.develop_gain(rules, state, seat, best_dev.city) <= 0:
                return EndAction(seat=seat)
            return best_dev
        if step is Step.FUND:
            funds = [a for a in prompt.choices if isinstance(a, Fund)]
            return max(funds, key=lambda a: self.fraction(state, seat, a.company) + 0.01 * jitter(),
                       default=EndAction(seat=seat))
        if step is Step.TAKE:
            if len(state.players) >= 4:
                cubes = [self.placement_score(rules, state, seat, a)
                         for a in rules.legal_placements(state, seat)]
                if sum(sorted((s for s in cubes if s > 0), reverse=True)[:2]) > 2:
                    return ExpandTwo(seat=seat)
            leader = max(p.money for i, p in enumerate(state.players) if i != seat)
            return TakeTwo(seat=seat, source="players" if leader > me.money else "bank")
        # EXPAND
        places = [a for a in prompt.choices if isinstance(a, PlaceCube)]
        placed = [(self.placement_score(rules, state, seat, a) + 0.001 * jitter(), a) for a in places]
        top = max(placed, key=lambda t: t[0], default=None)
        if top is None or top[0] <= 0:
            return EndAction(seat=seat)
        return top[1]


# ------------------------------------------------------------ search
class AmericanRailsSearch(SearchHooks):
    """What the kernel's search needs to play American Rails.

    Nothing is hidden once the companies are drawn, so a determinization is a
    copy. The evaluation: money, plus each share's part of what its company
    should still pay out. Two things make that estimate fit how games go: most
    games end well before 1857, when the supplies run low, so the dividends
    still to come are counted from how fast the supplies are being used; and
    unsold shares will be sold, so a company's income is split over its unsold
    shares too, and it grows while the company has cubes to lay. Checked against
    the final scores of greedy games, this halves the error of the leads it
    predicts (the old estimate, to 1857 and without dilution, was worse than
    counting money alone).
    """

    score_scale = 10.0
    playout_depth = 12
    GROWTH = 2  # income a company with cubes left adds in a round, on average

    def dividends_left(self, state: ARState) -> float:
        """Dividend phases expected before the end, this round's included."""
        cap = LAST_YEAR - state.year + 1
        if state.prep:
            # Nothing used yet to judge the pace by: most games last five rounds.
            return float(min(cap, TYPICAL_ROUNDS))
        rules = self.rules
        assert isinstance(rules, AmericanRailsBase)
        played = state.phase / 3.0
        done = state.year - FIRST_YEAR + played
        supplies = [(c.cubes - 1 if c.on_map else c.supply, c.supply) for c in state.company_list()]
        supplies.append((rules.map.development_markers, state.dev_supply))
        times = []
        for first, now in supplies:
            if now <= LOW_SUPPLY:
                times.append(0.0)
                continue
            rate = (first - now) / max(done, 0.5)
            times.append((now - LOW_SUPPLY) / rate if rate > 0 else 99.0)
        times.sort()
        n = len(state.players)
        until = times[n - 1] if len(times) >= n else 99.0
        if until <= 0:
            return 1.0  # enough supplies are low already: this round's dividend is the last
        return max(1.0, min(float(cap), 0.5 + played + until))

    def evaluate(self, state: Any) -> list[float]:
        rounds = self.dividends_left(state)
        held: dict[str, int] = {}
        for p in state.players:
            for cid, k in p.shares.items():
                held[cid] = held.get(cid, 0) + k
        worth: dict[str, float] = {}
        for cid, k in held.items():
            c = state.companies[cid]
            if not k:
                continue
            grow = self.GROWTH if c.supply > LOW_SUPPLY else 0
            paid = c.income * rounds + grow * rounds * (rounds - 1) / 2
            worth[cid] = paid / (k + c.shares_left)
        out = []
        for p in state.players:
            value = float(p.money)
            for cid, k in p.shares.items():
                if k and cid in worth:
                    value += k * worth[cid]
            out.append(value)
        return out

