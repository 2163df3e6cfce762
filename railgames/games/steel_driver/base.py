"""What every Steel Driver phase, the bots and the board ask of the rules.

The map's questions (names, values, colours, where a company may build), what
a build or a claim would bring, and who controls and is paid what at the end:
answers that change nothing. ``SteelDriverRules`` (rules.py) adds the phases,
which list, check and carry out actions, and the flow of a turn; the bots and
the phases are written against this class, so neither imports the rules.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from railgames.core.engine import Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.games.steel_driver.actions import BuildTrack, ClaimGoods
from railgames.games.steel_driver.board_map import Route, SteelDriverMap
from railgames.games.steel_driver.caches import FirstLinks, Sharers, SharersMemo
from railgames.games.steel_driver.state import Company, SDState, Step
from railgames.games.steel_driver.terms import (
    TRANSCONTINENTAL_BUILDER,
    goods_text,
    set_value,
)

# What the game is doing at each step, for "you cannot ... now" refusals.
DOING = {
    Step.AUCTION: "the auction of control markers",
    Step.OPENING: "an opening bid", Step.BIDDING: "an auction",
    Step.BUILD: "track building", Step.CLAIM: "the final profit determination",
    Step.OVER: "the end of the game",
}


@dataclass(frozen=True)
class BuildOutcome:
    """What a legal build brings: the place it reaches and the profit it adds."""

    target: str | None  # the location the company reaches for the first time; None for a loop
    gain: int  # that location's value, added to the company's profit
    bonus: int = 0  # the transcontinental bonus to the builder, when this build makes the link
    sharers: tuple[str, ...] = ()  # the other companies sharing that bonus, in company order
    links: int = 0  # the length of the transcontinental route, when made

    @property
    def profit(self) -> int:
        """All the profit the build adds to its own company."""
        return self.gain + self.bonus


@dataclass(frozen=True)
class ClaimOutcome:
    """What a legal claim takes, and the company's goods value before and after it."""

    colour: str
    before: int
    after: int


class SteelDriverBase(Ruleset[SDState]):
    """The questions the phases share; no phase, no flow (see ``SteelDriverRules``)."""

    map: SteelDriverMap

    def __init__(self, game_map: SteelDriverMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        self.companies: list[str] = m.company_ids
        self._loc = m.location_by_id
        self._route = m.route_by_id
        self._routes_at = m.routes_at
        self._west, self._east = m.transcontinental
        # The routes ending at either end of the transcontinental link: track touching
        # none of one of these sets joins nothing (asked at every build).
        self._at_west = frozenset(r.id for r in m.links if self._west in (r.a, r.b))
        self._at_east = frozenset(r.id for r in m.links if self._east in (r.a, r.b))
        self._first = FirstLinks(m)
        self._sharers = SharersMemo(self._find_sharers)

    # ------------------------------------------------------------ names
    def location_name(self, loc: str) -> str:
        return self._loc[loc].name

    def city_name(self, loc: str) -> str:
        """The name the app shows for a place on the board (a location here)."""
        return self.location_name(loc)

    def route_name(self, route: str) -> str:
        r = self._route[route]
        return f"{self._loc[r.a].name}–{self._loc[r.b].name}"

    def company_name(self, company: str) -> str:
        return self.map.company_by_id[company].name

    @staticmethod
    def player_name(state: SDState, seat: int) -> str:
        return state.players[seat].name

    def goods_text(self, goods: dict[str, int]) -> str:
        return goods_text(goods)

    # ------------------------------------------------------------ the map
    def route(self, route: str) -> Route:
        return self._route[route]

    def value(self, loc: str) -> int:
        return self._loc[loc].value

    def colour(self, loc: str) -> str:
        return self._loc[loc].colour

    def is_starting(self, loc: str) -> bool:
        return self._loc[loc].starting

    def first_link_starts(self, route: Route) -> tuple[str, ...]:
        """The ends of ``route`` a company's first link along it may be built from."""
        return self._first.starts[route.id]

    # ------------------------------------------------------------ checks every phase makes
    @staticmethod
    def expect(state: SDState, steps: tuple[Step, ...], doing: str) -> None:
        """Refuse ``doing`` unless the game is at one of ``steps``."""
        if state.step not in steps:
            raise IllegalAction(f"you cannot {doing} now: the game is at {DOING[state.step]}")

    def known_company(self, company: str) -> str:
        if company not in self.map.company_by_id:
            raise MalformedAction(f"'{company}' is not a company ({', '.join(self.companies)})")
        return company

    def known_route(self, route: str) -> Route:
        r = self._route.get(route)
        if r is None:
            raise MalformedAction(f"there is no route '{route}' on this map")
        return r

    def known_location(self, loc: str) -> str:
        if loc not in self._loc:
            raise MalformedAction(f"there is no location '{loc}' on this map")
        return loc

    def acting_company(self, state: SDState, company: str, doing: str) -> Company:
        """The active company, which ``company`` must be."""
        cid = self.known_company(company)
        active = state.active_company()
        if cid != active.id:
            raise IllegalAction(f"it is the {self.company_name(active.id)} company's turn to "
                                f"{doing}, not the {self.company_name(cid)} company's")
        return active

    # ------------------------------------------------------------ the auction
    def put_up_refusal(self, state: SDState, company: str) -> str | None:
        """Why ``company``'s control cannot be put up for auction now, or None if it can."""
        c = state.companies[company]
        if c.auctioned:
            return f"the {self.company_name(company)} company has already been auctioned this turn"
        if c.shares_left == 0:
            return f"the {self.company_name(company)} company has no shares left to issue"
        return None

    def available(self, state: SDState) -> list[str]:
        """Companies whose control can still be put up for auction this turn."""
        return [cid for cid in self.companies if self.put_up_refusal(state, cid) is None]

    def stand_ins(self, state: SDState) -> int:
        """Goods cubes in use as investment cubes (once the white ones have run out)."""
        if state.step in (Step.CLAIM, Step.OVER):
            return 0
        return max(0, state.cubes_in_play() - self.map.investment_cubes)

    # ------------------------------------------------------------ building
    @staticmethod
    def can_pay(company: Company, route: Route) -> bool:
        """Track is paid from the company's cubes alone."""
        return route.cost <= company.cubes

    def buildable_routes(self, state: SDState, company: str) -> list[Route]:
        """Unbuilt routes the company could build now, cubes aside."""
        c = state.companies[company]
        if not c.reached:
            return [r for r in self._first.routes if r.id not in state.track]
        seen: set[str] = set()
        out: list[Route] = []
        for loc in c.reached:
            for r in self._routes_at[loc]:
                if r.id not in state.track and r.id not in seen:
                    seen.add(r.id)
                    out.append(r)
        return out

    def target_of(self, state: SDState, action: BuildTrack) -> str | None:
        """The location a (legal) build reaches for the first time; None for a loop."""
        c = state.companies[action.company]
        r = self._route[action.route]
        if not c.reached:
            assert action.start is not None
            return r.b if action.start == r.a else r.a
        new = [end for end in (r.a, r.b) if end not in c.reached]
        return new[0] if new else None

    def gain_of(self, state: SDState, action: BuildTrack) -> int:
        """The profit a (legal) build adds, the transcontinental bonus aside."""
        target = self.target_of(state, action)
        return 0 if target is None else self.value(target)

    def build_outcome(self, state: SDState, action: BuildTrack) -> BuildOutcome:
        """What a (legal) build would bring, worked out without changing ``state``."""
        target = self.target_of(state, action)
        gain = 0 if target is None else self.value(target)
        if state.transcontinental is not None:
            return BuildOutcome(target, gain)
        found = self.transcontinental_sharers({**state.track, action.route: action.company})
        if found is None:
            return BuildOutcome(target, gain)
        groups, links = found
        sharers = set().union(*groups)
        others = tuple(c for c in self.companies if c in sharers and c != action.company)
        return BuildOutcome(target, gain, TRANSCONTINENTAL_BUILDER, others, links)

    # ------------------------------------------------------------ the transcontinental link
    def transcontinental_sharers(self, track: dict[str, str]) -> Sharers:
        """The company sets of the best transcontinental routes, and their length.

        A route joining the two ends is traced over the track of as few
        different companies as possible, then over as few links as possible.
        Several company sets may tie; each tied company shares the bonus. If
        ``k`` companies is the fewest that join the ends, any path over the
        track of such a set uses every company in it, so the bonus goes to the
        union of the sets whose shortest path is shortest.

        Answers are kept by track (caches.SharersMemo).
        """
        return self._sharers(track)

    def _find_sharers(self, track: dict[str, str]) -> Sharers:
        # Track reaching neither end, or only one, joins nothing (``_distance`` would
        # find an end missing): most builds of a game, told without tracing the track.
        if self._at_west.isdisjoint(track) or self._at_east.isdisjoint(track):
            return None
        by_company: dict[str, list[tuple[str, str]]] = {}
        for rid, cid in track.items():
            r = self._route[rid]
            by_company.setdefault(cid, []).append((r.a, r.b))
        # A quick first look: if all the track together does not join the ends, no part of it does.
        if self._distance(e for edges in by_company.values() for e in edges) is None:
            return None
        builders = [cid for cid in self.companies if cid in by_company]
        for k in range(1, len(builders) + 1):
            found: list[tuple[frozenset[str], int]] = []
            for group in combinations(builders, k):
                d = self._distance(e for cid in group for e in by_company[cid])
                if d is not None:
                    found.append((frozenset(group), d))
            if found:
                best = min(d for _, d in found)
                return [g for g, d in found if d == best], best
        return None

    def _distance(self, edges: Iterable[tuple[str, str]]) -> int | None:
        adj: dict[str, list[str]] = {}
        for a, b in edges:
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
        if self._west not in adj or self._east not in adj:
            return None
        dist = {self._west: 0}
        queue = deque([self._west])
        while queue:
            here = queue.popleft()
            for there in adj[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    if there == self._east:
                        return dist[there]
                    queue.append(there)
        return None

    # ------------------------------------------------------------ the end
    def claimable(self, state: SDState, company: Company) -> list[str]:
        """Locations on the company's track where a goods cube still waits, in the order reached."""
        return [loc for loc in company.reached if loc in state.goods_on]

    def claim_outcome(self, state: SDState, action: ClaimGoods) -> ClaimOutcome:
        """The cube a (legal) claim takes and the company's goods value before and after."""
        goods = state.companies[action.company].goods
        colour = state.goods_on[action.location]
        after = dict(goods)
        after[colour] = after.get(colour, 0) + 1
        return ClaimOutcome(colour, set_value(goods), set_value(after))

    def final_controller(self, state: SDState, company: str) -> int | None:
        """The player with most shares; a tie goes to the first tied player clockwise
        from the company's last controller, starting with that player."""
        holdings = [p.shares.get(company, 0) for p in state.players]
        top = max(holdings)
        if top == 0:
            return None
        tied = [s for s, k in enumerate(holdings) if k == top]
        if len(tied) == 1:
            return tied[0]
        last = state.companies[company].last_controller
        start = last if last is not None else 0
        n = len(state.players)
        return next((start + i) % n for i in range(n) if (start + i) % n in tied)

    def share_payouts(self, state: SDState, seat: int) -> dict[str, int]:
        """What ``seat``'s shares pay at the end, by company (shares held × a share's worth).

        Companies in their order, only those the player holds shares of; a share
        is worth nothing before the final profit determination is over.
        """
        shares = state.players[seat].shares
        return {cid: shares[cid] * (state.companies[cid].final_profit or 0)
                for cid in self.companies if shares.get(cid)}
