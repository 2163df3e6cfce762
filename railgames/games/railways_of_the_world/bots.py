"""A greedy Railways of the World bot.

Each round it takes the first of these that pays: deliver the cube that moves
its own income marker furthest; upgrade the engine when one more level opens a
better delivery; build the cheapest link (at most four tiles) between two
cities where it joins cubes to a city of their colour; urbanize a gray city at
the end of its own link. In the auction it bids $1,000 when it has a delivery
waiting, else passes. It never looks further ahead than this round.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from railgames.core.engine import Prompt, Ruleset
from railgames.core.hexgrid import Hex, distance
from railgames.core.search import SearchHooks
from railgames.games.railways_of_the_world.actions import (
    Bid,
    Cancel,
    Choose,
    Deliver,
    EndBuild,
    LayTrack,
    PassAction,
    PassBid,
    UpgradeEngine,
    Urbanize,
)
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS, GRAY, MAX_ENGINE
from railgames.games.railways_of_the_world.index import only_added, routes_table
from railgames.games.railways_of_the_world.rules import RailwaysOfTheWorldRules
from railgames.games.railways_of_the_world.state import Link, RotwState, Step
from railgames.games.railways_of_the_world.terms import MAX_TILES, TRACKS_PER_HEX

PAIRS_SEARCHED = 10


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        assert isinstance(ruleset, RailwaysOfTheWorldRules)
        state: RotwState = view
        seat = prompt.seat
        if state.step is Step.AUCTION:
            assert state.auction is not None
            wants = state.auction.high_bid == 0 and best_delivery(ruleset, state, seat) is not None
            if wants and prompt.amount is not None and prompt.amount.min <= 1000:
                return Bid(seat=seat, amount=prompt.amount.min)
            return PassBid(seat=seat)
        if state.step is Step.DELIVER:
            best = best_delivery(ruleset, state, seat)
            return best if best is not None else Cancel(seat=seat)
        if state.step is Step.URBANIZE:
            pick = self.urbanize_pick(ruleset, state, seat, anywhere=True)
            return pick if pick is not None else Cancel(seat=seat)
        if state.step is Step.BUILD:
            tile = self.next_tile(ruleset, state, seat)
            if tile is not None:
                return tile
            return EndBuild(seat=seat) if state.building and state.building.laid else Cancel(seat=seat)
        legal = prompt.choices
        if best_delivery(ruleset, state, seat) is not None and Choose(seat=seat, action="deliver") in legal:
            return Choose(seat=seat, action="deliver")
        p = state.players[seat]
        if p.engine < MAX_ENGINE and self.upgrade_helps(ruleset, state, seat):
            return UpgradeEngine(seat=seat, level=p.engine + 1)
        if Choose(seat=seat, action="build") in legal and self.plan(ruleset, state, seat) is not None:
            return Choose(seat=seat, action="build")
        if (Choose(seat=seat, action="urbanize") in legal
                and self.urbanize_pick(ruleset, state, seat) is not None and p.cash >= 10_000):
            return Choose(seat=seat, action="urbanize")
        if p.engine < 3 and state.links_of(seat):
            return UpgradeEngine(seat=seat, level=p.engine + 1)
        # Nothing pays this round: still move the game on, so that it never stalls.
        if p.engine < MAX_ENGINE and best_gain(ruleset, state, seat, MAX_ENGINE) > 0:
            return UpgradeEngine(seat=seat, level=p.engine + 1)
        if Choose(seat=seat, action="urbanize") in legal:
            return Choose(seat=seat, action="urbanize")
        return PassAction(seat=seat)

    # ------------------------------------------------------------ engine
    @staticmethod
    def upgrade_helps(ruleset: RailwaysOfTheWorldRules, state: RotwState, seat: int) -> bool:
        engine = state.players[seat].engine
        now = best_gain(ruleset, state, seat, engine)
        return best_gain(ruleset, state, seat, engine + 1) > max(now, 0)

    # ------------------------------------------------------------ urbanize
    @staticmethod
    def urbanize_pick(ruleset: RailwaysOfTheWorldRules, state: RotwState, seat: int,
                      anywhere: bool = False) -> Urbanize | None:
        ends = {c for k in state.links_of(seat) for c in (k.start, k.end)}
        grays = [c for c in ends if c is not None and state.colour[c] == GRAY]
        if not grays and anywhere:
            grays = [c for c, colour in state.colour.items() if colour == GRAY]
        colours = [c for c in CUBE_COLOURS if state.tiles_left.get(c, 0) > 0]
        if not grays or not colours:
            return None
        city = sorted(grays)[0]
        # The colour most wanted by cubes one link away.
        near = [k.end if k.start == city else k.start for k in state.links.values()
                if k.complete and city in (k.start, k.end)]
        wanted = {c: sum(state.cubes[n].get(c, 0) for n in near if n) for c in colours}
        colour = max(colours, key=lambda c: (wanted[c], -colours.index(c)))
        return Urbanize(seat=seat, city=city, colour=colour)

    # ------------------------------------------------------------ building
    def plan(self, ruleset: RailwaysOfTheWorldRules, state: RotwState,
             seat: int) -> tuple[float, list[Hex], str] | None:
        """The best new link: (score, hexes from the start city to the end city, end)."""
        best: tuple[float, list[Hex], str] | None = None
        noise = self.rng.random
        candidates = [(base + 0.01 * noise(), a, b, b_id)
                      for base, a, b, b_id in pair_worths(ruleset, state)]
        # Only the most promising pairs are searched for track: the search is the slow part.
        candidates.sort(key=lambda c: -c[0])
        for worth, a, b, b_id in candidates[:PAIRS_SEARCHED]:
            path = cheapest_path(ruleset, state, a, b, MAX_TILES, None)
            if path is None:
                continue
            cost, hexes = path
            score = worth * 10 - cost / 1000
            if best is None or score > best[0]:
                best = (score, hexes, b_id)
        return best

    def next_tile(self, ruleset: RailwaysOfTheWorldRules, state: RotwState, seat: int) -> Any:
        b = state.building
        assert b is not None
        if b.link is None:
            plan = self.plan(ruleset, state, seat)
            if plan is None:
                return None
            hexes = plan[1]
            return lay(ruleset, seat, hexes[0], hexes[1], hexes[2])
        link = state.links[b.link]
        left = MAX_TILES - b.laid
        if left <= 0:
            return None
        best: tuple[float, list[Hex]] | None = None
        for city in ruleset.map.cities:
            if city.id == link.start:
                continue
            target = ruleset.city_hex(city.id)
            if distance(link.toward, target) > left:
                continue
            path = cheapest_path(ruleset, state, link.tiles[-1], target, left, link)
            if path is None:
                continue
            score = -path[0] + 1000 * self.rng.random()
            if best is None or score > best[0]:
                best = (score, path[1])
        if best is None:
            return None
        hexes = best[1]
        return lay(ruleset, seat, hexes[0], hexes[1], hexes[2])


# Tables worked out once per map, by the map's id; each keeps its map (so that id is
# never another map's while the table is here) and is used only for that very map.
_NEAR: dict[int, tuple[Any, dict[str, list[tuple[str, Hex, int]]]]] = {}


def near_cities(ruleset: RailwaysOfTheWorldRules) -> dict[str, list[tuple[str, Hex, int]]]:
    """City -> the other cities a new link could reach, in map order, with their hex and distance.

    The board never changes, so this is worked out once per map (the bots ask often).
    """
    known = _NEAR.get(id(ruleset.map))
    if known is not None and known[0] is ruleset.map:
        return known[1]
    cities = ruleset.map.cities
    near = {}
    for a_city in cities:
        a = ruleset.city_hex(a_city.id)
        near[a_city.id] = [
            (b_city.id, ruleset.city_hex(b_city.id), distance(a, ruleset.city_hex(b_city.id)))
            for b_city in cities
            if b_city.id != a_city.id and distance(a, ruleset.city_hex(b_city.id)) <= MAX_TILES + 1]
    _NEAR[id(ruleset.map)] = (ruleset.map, near)
    return near


def side_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The kernel's side key without its adjacency check (the neighbours here are known)."""
    return (a, b) if a <= b else (b, a)


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def lay(ruleset: RailwaysOfTheWorldRules, seat: int, entry: Hex, h: Hex, exit_: Hex) -> LayTrack:
    return LayTrack(seat=seat, hex=ruleset.offset(h), entry=ruleset.offset(entry),
                    exit=ruleset.offset(exit_))


def cheapest_path(ruleset: RailwaysOfTheWorldRules, state: RotwState, start: Hex, target: Hex,
                  tiles: int, link: Link | None) -> tuple[int, list[Hex]] | None:
    """The cheapest legal run of at most ``tiles`` tiles from ``start`` to the city ``target``.

    ``start`` is a city (a new link) or the last tile of ``link`` (its open end
    must be the first tile's hex). Returns (cost, [start, tile, ..., target]);
    of runs costing the same, the first a depth-first walk (neighbours in the
    board's order) finds. Callers only read the result.

    The answer depends only on the track on the board (the sides taken, the
    tracks in each hex) and on ``link``'s tiles: answers are kept on the state
    with the track they were found on, so asking again costs a look-up. When
    track has only been added since, an answer whose run is still free stays
    right: fewer runs are possible, none cheaper, and the order of the walk is
    the same; an answer of no run at all stays right too.
    """
    sides = state.side_link
    used = state.hex_links
    track = (tuple(sides), tuple(used), tuple(map(len, used.values())))
    known = state.known.get("cheapest_paths")
    if known is None or known[0] != track:
        kept: dict[Any, tuple[int, list[Hex]] | None] = {}
        if known is not None and only_added(known[0], track):
            kept = {query: found for query, found in known[1].items()
                    if found is None or _still_free(found[1], sides, used)}
        known = (track, kept)
        state.known["cheapest_paths"] = known
    query = (start, target, tiles,
             None if link is None else (link.toward, tuple(link.tiles)))
    table: dict[Any, tuple[int, list[Hex]] | None] = known[1]
    if query in table:
        return table[query]
    found = _cheapest_path(ruleset, sides, used, start, target, tiles, link)
    table[query] = found
    return found


def _still_free(run: list[Hex], sides: dict[tuple[Hex, Hex], str],
                used: dict[Hex, list[str]]) -> bool:
    """Whether every side of ``run`` is free and every hex of its tiles has room."""
    if any(side_key(a, b) in sides for a, b in zip(run, run[1:], strict=False)):
        return False
    return all(len(used.get(h, ())) < TRACKS_PER_HEX for h in run[1:-1])


_STEPS: dict[int, tuple[Any, dict[Hex, tuple[tuple[Hex, tuple[Hex, Hex], int, bool, int], ...]]]] = {}


def steps_of(ruleset: RailwaysOfTheWorldRules) -> dict[Hex, tuple[tuple[Hex, tuple[Hex, Hex], int, bool, int], ...]]:
    """Hex -> for each neighbour on the board, in the board's order: (neighbour, the side
    between them, the ridge's cost on that side, whether track may go on the neighbour,
    what a tile there costs). Worked out once per map."""
    m = ruleset.map
    known = _STEPS.get(id(m))
    if known is not None and known[0] is m:
        return known[1]
    steps = {}
    for h, around in ruleset._board_neighbours.items():
        steps[h] = tuple(
            (n, side_key(h, n), 4000 if side_key(h, n) in ruleset._ridges else 0,
             m.buildable(n), ruleset.tile_cost(n) if m.buildable(n) else 0)
            for n in around)
    _STEPS[id(m)] = (m, steps)
    return steps


def _cheapest_path(ruleset: RailwaysOfTheWorldRules, sides: dict[tuple[Hex, Hex], str],
                   used: dict[Hex, list[str]], start: Hex, target: Hex, tiles: int,
                   link: Link | None) -> tuple[int, list[Hex]] | None:
    """``cheapest_path`` worked out: every run, depth first, keeping the first cheapest.

    A run already costing as much as the best found is left: every tile adds to the
    cost, so it could only tie, and a tie keeps the first."""
    steps = steps_of(ruleset)
    run = _Run(steps, sides, used, target, tiles, () if link is None else link.tiles)
    if link is None:
        for first, side, ridge, buildable, tile in steps[start]:
            best = run.best
            if (not buildable or side in sides
                    or len(used.get(first, ())) >= TRACKS_PER_HEX
                    or hex_distance(first, target) > tiles
                    or (best is not None and ridge + tile >= best[0])):
                continue
            run.walk([start, first], start, first, ridge + tile)
    else:
        first = link.toward
        m = ruleset.map
        if (m.buildable(first) and len(used.get(first, ())) < TRACKS_PER_HEX
                and first not in link.tiles and hex_distance(first, target) <= tiles):
            run.walk([start, first], start, first, ruleset.tile_cost(first))
    return run.best


class _Run:
    """One search of ``_cheapest_path`` (an object rather than a nested function calling
    itself, which would be a reference cycle for the collector after every search)."""

    __slots__ = ("steps", "sides", "used", "target", "tiles", "avoid", "best")

    def __init__(self, steps: dict[Hex, tuple[tuple[Hex, tuple[Hex, Hex], int, bool, int], ...]],
                 sides: dict[tuple[Hex, Hex], str], used: dict[Hex, list[str]], target: Hex,
                 tiles: int, avoid: Any) -> None:
        self.steps = steps
        self.sides = sides
        self.used = used
        self.target = target
        self.tiles = tiles
        self.avoid = avoid
        self.best: tuple[int, list[Hex]] | None = None

    def walk(self, path: list[Hex], prev: Hex, here: Hex, cost: int) -> None:
        count = len(path) - 1
        target, tiles, sides, used, avoid = self.target, self.tiles, self.sides, self.used, self.avoid
        tq, tr = target
        for nxt, side, ridge, buildable, tile in self.steps[here]:
            if nxt == prev or nxt in path or side in sides or nxt in avoid:
                continue
            step = cost + ridge
            best = self.best
            if best is not None and step >= best[0]:
                continue  # costs only grow along a run: this one cannot be cheaper
            if nxt == target:
                self.best = (step, [*path, nxt])
                continue
            if count >= tiles or not buildable or len(used.get(nxt, ())) >= TRACKS_PER_HEX:
                continue
            dq, dr = nxt[0] - tq, nxt[1] - tr
            if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 > tiles - count:
                continue
            if best is not None and step + tile >= best[0]:
                continue
            path.append(nxt)
            self.walk(path, here, nxt, step + tile)
            path.pop()


def pair_worths(ruleset: RailwaysOfTheWorldRules,
                state: RotwState) -> list[tuple[float, Hex, Hex, str]]:
    """Each pair of cities a new link could join where it would carry cubes: (its worth
    less a tenth of the distance, the first city's hex, the second's, the second's id),
    in the board's order. Kept on the state with the cubes, the cities' colours and the
    network it was worked out from (callers only read it)."""
    net = ruleset.network(state)
    colour = state.colour
    colours = tuple(colour.values())
    cubes = tuple(tuple(here.items()) for here in state.cubes.values())
    known = state.known.get("pair_worths")
    if known is not None and known[0] is net and known[1] == colours and known[2] == cubes:
        return known[3]  # type: ignore[no-any-return]
    reach = reachable_colours(ruleset, state)
    near = near_cities(ruleset)
    out: list[tuple[float, Hex, Hex, str]] = []
    for a_id, here in state.cubes.items():
        if not here:
            continue
        a = ruleset.city_hex(a_id)
        for b_id, b, apart in near[a_id]:
            direct = here.get(colour[b_id], 0) + state.cubes[b_id].get(colour[a_id], 0)
            onward_colours = reach.get(b_id)
            onward = sum(k for c, k in here.items() if c in onward_colours) if onward_colours else 0
            if not direct and not onward:
                continue
            worth = direct + 0.5 * onward
            out.append((worth - 0.1 * apart, a, b, b_id))
    state.known["pair_worths"] = (net, colours, cubes, out)
    return out


def reachable_colours(ruleset: RailwaysOfTheWorldRules, state: RotwState) -> dict[str, set[str]]:
    """City -> the colours of the cities it reaches over complete links (its own excluded).

    Kept on the state with the network and the cities' colours (callers only read it)."""
    net = ruleset.network(state)
    colours_now = tuple(state.colour.values())
    known = state.known.get("reachable_colours")
    if known is not None and known[0] is net and known[1] == colours_now:
        return known[2]  # type: ignore[no-any-return]
    out: dict[str, set[str]] = {}
    for start in net:
        seen = {start}
        frontier = [start]
        colours: set[str] = set()
        while frontier:
            city = frontier.pop()
            for _, there in net.get(city, ()):
                if there not in seen:
                    seen.add(there)
                    frontier.append(there)
                    colours.add(state.colour[there])
        colours.discard(GRAY)
        out[start] = colours
    state.known["reachable_colours"] = (net, colours_now, out)
    return out


def best_gain(ruleset: RailwaysOfTheWorldRules, state: RotwState, seat: int, engine: int) -> int:
    """The most income a delivery along the seat's network could earn it with ``engine``.

    The routes of the biggest engine serve every engine (the ones no longer than
    ``engine`` are its routes): the engine now, the next and the biggest are
    asked about in turn, with one walk of the network."""
    net = ruleset.network(state)
    links = state.links
    table = routes_table(state, net)
    best = 0
    for city, here in state.cubes.items():
        if city not in net:
            continue
        routes = table.get((seat, MAX_ENGINE, city))
        if routes is None:
            routes = ruleset.deliver.routes_from(state, net, seat, city, MAX_ENGINE)
        for colour in here:
            for route in routes[colour]:
                if len(route) <= engine:
                    best = max(best, sum(1 for k in route if links[k].owner == seat))
    return best


def best_delivery(ruleset: RailwaysOfTheWorldRules, state: RotwState, seat: int) -> Deliver | None:
    """The delivery that gives this seat the most income (then the fewest to others)."""
    best: tuple[int, int, Deliver] | None = None
    for d in ruleset.deliveries(state, seat):
        own = sum(1 for k in d.links if state.links[k].owner == seat)
        key = (own, -len(d.links))
        if best is None or key > best[:2]:
            best = (own, -len(d.links), d)
    return None if best is None else best[2]


# ------------------------------------------------------------ search
class RailwaysSearch(SearchHooks):
    """What the kernel's search needs to play Railways of the World.

    Unseen: the draws from the goods bag (a new random source per
    determinization). A build is searched as "build or not" and then follows the
    greedy plan tile by tile; a delivery among the few that pay this seat most;
    the bid among a few amounts. The evaluation is the score now (income less
    bonds) with a little for cash in hand and the engine.
    """

    score_scale = 3.0
    playout_depth = 20
    OTHERS = 3  # deliveries and urbanizations searched besides the greedy one

    def candidates(self, state: Any, prompt: Prompt) -> list[Any]:
        step = state.step
        if step is Step.BUILD:
            rest = [a for a in prompt.choices if isinstance(a, (EndBuild, Cancel))]
            tile = self.policy_bot(prompt.seat, random.Random(0)).next_tile(self.rules, state, prompt.seat)
            return ([tile] if tile is not None else []) + rest
        if step is Step.DELIVER:
            seat = prompt.seat
            ranked = sorted((a for a in prompt.choices if isinstance(a, Deliver)),
                            key=lambda d: (-sum(1 for k in d.links if state.links[k].owner == seat),
                                           len(d.links)))
            return ranked[:1 + self.OTHERS] + [Cancel(seat=seat)]
        if step is Step.URBANIZE:
            assert isinstance(self.rules, RailwaysOfTheWorldRules)
            pick = GreedyBot.urbanize_pick(self.rules, state, prompt.seat, anywhere=True)
            others = [a for a in prompt.choices if isinstance(a, Urbanize) and a != pick]
            return ([pick] if pick is not None else []) + others[:self.OTHERS] + [Cancel(seat=prompt.seat)]
        return super().candidates(state, prompt)

    def playout_prompt(self, state: Any) -> Prompt | None:
        if state.step is Step.BUILD:
            # The greedy policy plans its own tiles: listing every legal one is not needed.
            seat = state.to_act()
            b = state.building
            done = EndBuild(seat=seat) if b is not None and b.laid else Cancel(seat=seat)
            return Prompt(seat=seat, step="build", text="", choices=[done])
        return self.rules.prompt(state)

    def evaluate(self, state: Any) -> list[float]:
        return [p.income - p.bonds + p.cash / 10_000 + 0.3 * p.engine for p in state.players]


def bot_makers(rules: RailwaysOfTheWorldRules) -> dict[str, Callable[[int], Any]]:
    """The game's bots besides the kernel's random one (``Ruleset.bot_makers``)."""
    return {"greedy": GreedyBot, "search": RailwaysSearch.maker(rules)}
