"""Railways of the World: delivering a goods cube along complete links.

A cube leaves its city along one of the seat's own links, passes no city twice,
crosses at most as many links as the seat's engine level and stops at the first
city of its colour it reaches (``stopping_colour``, the one place that rule is
written: the listing's walk and the check both ask it). Each link crossed moves
its owner's income marker one space.
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.engine import Prompt
from railgames.core.events import EventLog
from railgames.games.railways_of_the_world import index
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import Deliver
from railgames.games.railways_of_the_world.base import RotwPhase
from railgames.games.railways_of_the_world.index import Network
from railgames.games.railways_of_the_world.state import Link, RotwState, Step
from railgames.games.railways_of_the_world.terms import plural, quick_prompt, where


def stopping_colour(colour_of: dict[str, str], city: str, moving: tuple[str, ...]) -> str | None:
    """Of cubes of the ``moving`` colours reaching ``city``, the colour that must stop
    there, or None: a cube's route ends at the first city of its own colour."""
    here = colour_of[city]
    return here if here in moving else None


# (colours, one of them) -> the others, in order: the walk of the routes asks again and again.
_WITHOUT: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}


def _without(colours: tuple[str, ...], colour: str) -> tuple[str, ...]:
    others = _WITHOUT[(colours, colour)] = tuple(c for c in colours if c != colour)
    return others


def walk_routes(net: Network, links: dict[str, Link], colour_of: dict[str, str], seat: int,
                engine: int, found: dict[str, list[tuple[str, ...]]], seen: set[str],
                route: list[str], city: str, moving: tuple[str, ...]) -> None:
    """Every route from ``city`` for cubes of the ``moving`` colours still on their way,
    added to ``found`` in the order of a depth-first walk along ``net``.

    One walk finds them for every colour: a route ends where its cube must stop,
    and the walk goes on beyond it for the other colours. (A function of the
    module, not a nested one calling itself: that would be a reference cycle for
    the collector to find after every walk.)"""
    for link_id, there in net.get(city, ()):
        if there in seen or link_id in route:
            continue
        if not route and links[link_id].owner != seat:
            continue
        route.append(link_id)
        onward = moving
        stops = stopping_colour(colour_of, there, moving)
        if stops is not None:
            found[stops].append(tuple(route))
            onward = _WITHOUT.get((moving, stops)) or _without(moving, stops)
        if onward and len(route) < engine:
            seen.add(there)
            walk_routes(net, links, colour_of, seat, engine, found, seen, route, there, onward)
            seen.discard(there)
        route.pop()


class DeliverPhase(RotwPhase):
    """Choosing a cube and its route, and delivering it."""

    actions: ClassVar[tuple[type, ...]] = (Deliver,)

    def prompt(self, state: RotwState) -> Prompt | None:
        rules = self.rules
        seat = state.to_act()
        return quick_prompt(seat=seat, step=where(state),
                            text=f"{rules._name(state, seat)}: deliver a goods cube "
                                 f"(engine level {state.players[seat].engine})",
                            choices=[*self.choices(state, seat), rules._cancel_of[seat]])

    def routes_from(self, state: RotwState, net: Network, seat: int, origin: str,
                    engine: int) -> dict[str, list[tuple[str, ...]]]:
        """Colour -> the routes (link ids) a cube of that colour may take from ``origin``
        with ``engine`` (``walk_routes``'s, kept on the state: see ``index.routes_from``)."""
        return index.routes_from(state, net, seat, origin, engine, walk_routes)

    def choices(self, state: RotwState, seat: int, first_only: bool = False) -> list[Deliver]:
        """Every legal delivery: each cube colour in each city, along each legal route
        (``first_only``: just one, if there is any, looking only at the seat's cities).

        Listed by city (in the board's order), then colour, then route (a walk along
        the network, depth first). The routes from a city depend on the links, the
        cities' colours, the seat and its engine, not on the cubes: they are kept
        until one of those changes (see ``routes_from``).
        """
        net, own = index.network(state)
        mine = own.get(seat)
        if not mine:
            return []  # every route starts along one of the seat's own links
        engine = state.players[seat].engine
        out: list[Deliver] = []
        make = self.rules._listed_deliver
        table = index.routes_table(state, net)
        cubes = state.cubes
        # For whether there is any, the seat's own cities (few) are enough.
        cities = (c for c in mine if cubes.get(c)) if first_only else (
            c for c, here in cubes.items() if here and c in mine)
        for city in cities:
            here = cubes[city]
            found = table.get((seat, engine, city))
            if found is None:
                found = self.routes_from(state, net, seat, city, engine)
            for colour, count in here.items():
                if not count:
                    continue
                for route in found[colour]:
                    out.append(make(seat, city, colour, route))
                    if first_only:
                        return out
        return out

    @staticmethod
    def possible(state: RotwState, seat: int) -> bool:
        """Whether ``choices`` lists anything for ``seat``: some cube in one of its
        cities is no more links from a city of its colour than its engine carries.

        The fewest links from a city to each colour (see ``index.nearest``) are kept
        with the network, so this is a few lookups: it is asked at every action choice.
        """
        net, own = index.network(state)
        mine = own.get(seat)
        if not mine:
            return False
        engine = state.players[seat].engine
        cubes = state.cubes
        table = index.nearest_table(state, net)
        for city in mine:
            here = cubes.get(city)
            if not here:
                continue
            nearest = table.get((seat, city))
            if nearest is None:
                nearest = table[(seat, city)] = index.nearest(state, net, seat, city)
            for colour, count in here.items():
                if count and nearest.get(colour, engine + 1) <= engine:
                    return True
        return False

    def refusal(self, state: RotwState, a: Any) -> str | None:
        if state.step is not Step.DELIVER:
            return "choose to deliver a goods cube first"
        return self.delivery_refusal(state, a)

    def delivery_refusal(self, state: RotwState, a: Deliver) -> str | None:
        rules = self.rules
        seat = a.seat
        here = state.cubes[a.city]
        if not here.get(a.colour):
            return f"there is no {a.colour} cube in {rules.city_name(a.city)}"
        engine = state.players[seat].engine
        moving = (a.colour,)
        city = a.city
        seen = {city}
        for i, link_id in enumerate(a.links):
            link = state.links.get(link_id)
            if link is None:
                return f"there is no link {link_id}"
            if link.end is None:
                return f"link {link_id} is incomplete; cubes travel only along complete links"
            if city not in (link.start, link.end):
                return f"link {link_id} does not leave {rules.city_name(city)}"
            if i == 0 and link.owner != seat:
                return (f"the first link of a delivery must be your own; {link_id} belongs to "
                        f"{rules._name(state, link.owner)}")
            if link_id in a.links[:i]:
                return f"the cube cannot travel along link {link_id} twice"
            there = link.end if city == link.start else link.start
            if there in seen:
                return f"the cube cannot pass through {rules.city_name(there)} twice"
            seen.add(there)
            if stopping_colour(state.colour, there, moving) is not None and i < len(a.links) - 1:
                return (f"a {a.colour} cube must stop at {rules.city_name(there)}, the first "
                        f"{a.colour} city on its way")
            city = there
        if stopping_colour(state.colour, city, moving) is None:
            return f"{rules.city_name(city)} is not a {a.colour} city"
        if len(a.links) > engine:
            return (f"an engine of level {engine} carries a cube at most "
                    f"{plural(engine, 'link')}, not {len(a.links)}")
        return None

    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        self.deliver(state, action, log)
        self.rules.next_player(state, log)

    def deliver(self, state: RotwState, a: Deliver, log: EventLog) -> None:
        rules = self.rules
        seat = a.seat
        here = state.cubes[a.city]
        here[a.colour] -= 1
        if not here[a.colour]:
            del here[a.colour]
        state.bag[a.colour] += 1
        state.delivered[a.colour] = state.delivered.get(a.colour, 0) + 1
        gains: dict[int, int] = {}
        city = a.city
        for link_id in a.links:
            link = state.links[link_id]
            gains[link.owner] = gains.get(link.owner, 0) + 1
            city = link.end if city == link.start else link.start  # type: ignore[assignment]
        for owner, k in gains.items():
            state.players[owner].income += k
        earn = ", ".join(f"{rules._name(state, s)} +{k}" for s, k in sorted(gains.items()))
        log.add(f"{rules._name(state, seat)} delivers a {a.colour} cube from "
                f"{rules.city_name(a.city)} to {rules.city_name(city)} over "
                f"{plural(len(a.links), 'link')} (income: {earn}).", "deliver", rule=R.DELIVER,
                seat=seat, city=a.city, to=city, colour=a.colour, links=list(a.links),
                gains={str(s): k for s, k in gains.items()})
        if not here:
            self._mark_empty(state, a.city, log)

    def _mark_empty(self, state: RotwState, city: str, log: EventLog) -> None:
        """``city`` has no cube left: its empty-city marker is placed, and the last one
        needed sets the last turn."""
        rules = self.rules
        state.markers.append(city)
        needed = rules.markers_needed(state)
        log.add(f"{rules.city_name(city)} is empty: an empty-city marker is placed "
                f"({len(state.markers)} of {needed}).", "empty_city", rule=R.EMPTY_CITY, city=city,
                placed=len(state.markers), needed=needed)
        if state.end_turn is None and len(state.markers) >= needed:
            state.end_turn = state.turn + 1
            log.add(f"The last empty-city marker needed is placed: this turn is finished, "
                    f"then turn {state.end_turn} is the last.", "end_triggered", rule=R.END_TRIGGER,
                    last_turn=state.end_turn)
