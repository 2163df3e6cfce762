"""Railways of the World: building track, one tile after another.

A build lays up to four tiles, each extending one link: a new link from a city or
one of the seat's own incomplete links, until it reaches a city or the player ends
the build. The phase lists the tiles that may go next, checks a tile (saying why
one may not) and lays it, paying for the terrain and the ridges crossed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from railgames.core.engine import Choices, Prompt
from railgames.core.events import EventLog
from railgames.core.hexgrid import Hex, are_adjacent, side_key
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import EndBuild, LayTrack
from railgames.games.railways_of_the_world.base import RotwPhase
from railgames.games.railways_of_the_world.index import TileChoices, bits_kept, side
from railgames.games.railways_of_the_world.state import Link, RotwState, Step
from railgames.games.railways_of_the_world.terms import (
    MAX_TILES,
    RIDGE_COST,
    TERRAIN_COST,
    TRACKS_PER_HEX,
    money,
    plural,
    quick_prompt,
    where,
)

_BUILD_RULES = (R.BUILD,)


def continued(ends: Iterable[Link], h: Hex) -> Link | None:
    """The link of ``ends`` (incomplete links whose open ends are in one hex) that a tile
    on ``h`` continues: the one whose open end points into ``h``. No hex side carries two
    tracks, so at most one does."""
    for link in ends:
        if link.toward == h:
            return link
    return None


class BuildPhase(RotwPhase):
    """Laying track tiles, and ending a build."""

    actions: ClassVar[tuple[type, ...]] = (LayTrack, EndBuild)

    # ------------------------------------------------------------ listing
    def prompt(self, state: RotwState) -> Prompt | None:
        rules = self.rules
        seat = state.to_act()
        b = state.building
        assert b is not None
        choices: list[Any] | Choices
        if b.link is None:
            choices = self.new_build_choices(state, seat)
        else:
            choices = self.choices(state, seat)
            choices.append(rules._end_build_of[seat] if b.laid else rules._cancel_of[seat])
        return quick_prompt(seat=seat, step=where(state),
                            text=f"{rules._name(state, seat)}: lay track ({b.laid}/{MAX_TILES} "
                                 f"tiles, {money(b.cost)})",
                            choices=choices,
                            help="Open $2,000, water $3,000, mountain $4,000, each ridge crossed "
                                 "$4,000 more. Reaching a city completes the link.")

    def choices(self, state: RotwState, seat: int, first_only: bool = False) -> list[Any]:
        """Every legal next tile: extending the build under way, or starting one."""
        out: list[Any] = []
        b = state.building
        if b is not None and b.link is not None:
            if b.laid >= MAX_TILES:
                return out
            building = state.links[b.link]
            self._extensions(state, seat, building, out, first_only)
            return out
        self._own_extensions(state, seat, out, first_only)
        index = self.rules.track_index
        if first_only:
            if not out:
                first = index.first_open_tile(state, seat)
                if first is not None:
                    out.append(first)
            return out
        open_ = index.open_first_tiles(state)
        if open_:
            out.extend(bits_kept(open_, index.first_tile_actions(seat)))
        return out

    def _own_extensions(self, state: RotwState, seat: int, out: list[Any],
                        first_only: bool) -> None:
        """The tiles extending the seat's incomplete links, added to ``out`` (with
        ``first_only``, up to the first link that has one)."""
        for own in state.links.values():
            if own.owner == seat and own.end is None:
                self._extensions(state, seat, own, out, first_only)
                if first_only and out:
                    return

    def new_build_choices(self, state: RotwState, seat: int) -> TileChoices:
        """The choices of a build before its first tile (``choices`` and the
        cancel), as a ``Choices`` listing the first tiles of new links only when read."""
        head: list[Any] = []
        self._own_extensions(state, seat, head, False)
        index = self.rules.track_index
        tiles = index.first_tile_actions(seat)
        return TileChoices(head, index.open_first_tiles(state), tiles,
                           index.first_tile_bits[seat], [self.rules._cancel_of[seat]])

    def _extensions(self, state: RotwState, seat: int, link: Link, out: list[Any],
                    first_only: bool) -> None:
        """The legal tiles extending ``link`` from its open end (as ``tile_refusal`` and
        ``exit_refusal`` judge them, without wording the refusals)."""
        entry, h = link.tiles[-1], link.toward
        if self.rules._terrain[h] in ("city", "partial"):
            return
        here = state.hex_links.get(h, ())
        if link.id in here or len(here) >= TRACKS_PER_HEX:
            return
        index = self.rules.track_index
        ways = index.extension_tiles.get((seat, entry, h))
        if ways is None:
            ways = index.extension_ways(seat, entry, h)
        sides = state.side_link
        start = link.start
        tiles = link.tiles
        for exit_, way_side, city, action in ways:
            if way_side in sides or city == start or exit_ in tiles:
                continue
            out.append(action)
            if first_only:
                return

    # ------------------------------------------------------------ checking
    def tile_refusal(self, state: RotwState, seat: int, entry: Hex, h: Hex,
                     link: Link | None) -> str | None:
        """Why a tile may not go on ``h`` coming from ``entry`` (its exit aside)."""
        rules = self.rules
        terrain = rules._terrain[h]
        if terrain == "city":
            return f"{rules.hex_name(h)} is a city; track tiles go between cities, never on them"
        if terrain == "partial":
            return f"{rules.hex_name(h)} is a partial hex; no track can be built there"
        here = state.hex_links.get(h, [])
        if link is not None and link.id in here:
            return f"the link already passes through {rules.hex_name(h)}"
        if len(here) >= TRACKS_PER_HEX:
            return f"{rules.hex_name(h)} already holds two tracks; a third cannot cross them"
        if link is None:
            owner = state.side_link.get(side_key(entry, h))
            if owner is not None:
                return (f"track of {rules._name(state, state.links[owner].owner)} already "
                        f"leaves {rules.hex_name(entry)} on that side")
        return None

    def exit_refusal(self, state: RotwState, entry: Hex, h: Hex, exit_: Hex,
                     link: Link | None) -> str | None:
        rules = self.rules
        if exit_ not in rules._terrain:
            return "the tile cannot point off the board"
        if exit_ == entry:
            return "a tile's two ends must be on different sides"
        if rules._terrain[exit_] == "partial":
            return f"the tile cannot point into {rules.hex_name(exit_)}, a partial hex"
        owner = state.side_link.get(side_key(h, exit_))
        if owner is not None:
            return (f"that side of {rules.hex_name(h)} already carries track of "
                    f"{rules._name(state, state.links[owner].owner)}; track is never "
                    "redirected or joined to another link")
        city_at = rules._city_at
        start = link.start if link is not None else city_at[entry].id \
            if entry in city_at else None
        city = city_at.get(exit_)
        if city is not None and city.id == start:
            return f"a link joins two different cities; this one started at {city.name}"
        if link is not None and exit_ in link.tiles:
            return "a link never runs back into a hex it already passes through"
        return None

    def refusal(self, state: RotwState, a: Any) -> str | None:
        if state.step is not Step.BUILD:
            return "choose to build track first"
        b = state.building
        assert b is not None
        if isinstance(a, EndBuild):
            return None if b.laid else "lay at least one tile, or cancel the build"
        return self._lay_refusal(state, a)

    def _lay_refusal(self, state: RotwState, a: LayTrack) -> str | None:
        rules = self.rules
        b = state.building
        assert b is not None
        seat = a.seat
        h, entry = rules._hex(a.hex), rules._hex(a.entry)
        exit_ = rules.hex_at(a.exit[0], a.exit[1])
        if not are_adjacent(entry, h) or (exit_ is not None and not are_adjacent(h, exit_)):
            return "a tile's entry and exit must be hexes next to it"
        if exit_ is None:
            return "the tile cannot point off the board"
        if rules._terrain[h] in ("city", "partial"):
            return self.tile_refusal(state, seat, entry, h, None)
        link: Link | None = None
        if b.link is not None:
            link = state.links[b.link]
            if b.laid >= MAX_TILES:
                return f"a build lays at most {MAX_TILES} tiles; end the build"
            if entry != link.tiles[-1] or h != link.toward:
                return (f"each tile must extend the link being built, from its open end at "
                        f"{rules.hex_name(link.tiles[-1])} into {rules.hex_name(link.toward)}")
        elif entry not in rules._city_at:
            ends = [k for k in state.links.values() if not k.complete and k.tiles[-1] == entry]
            if not ends:
                return (f"track must start at a city or at the open end of your own "
                        f"incomplete link; {rules.hex_name(entry)} is neither")
            # A crossing can hold the open ends of two links: the tile continues the one
            # whose open end points into its hex (ruling "two open ends in one hex").
            link = continued(ends, h)
            if link is None:
                own = [k for k in ends if k.owner == seat]
                if not own:
                    return (f"that incomplete link belongs to {rules._name(state, ends[0].owner)}; "
                            "you can extend only your own")
                at = rules.hex_name(entry)
                said = (f"the link's open end at {at} points" if len(own) == 1
                        else f"your links' open ends at {at} point")
                faced = " or ".join(rules.hex_name(k.toward) for k in own)
                return f"{said} into {faced}, not {rules.hex_name(h)}"
            if link.owner != seat:
                return (f"that incomplete link belongs to {rules._name(state, link.owner)}; "
                        "you can extend only your own")
        reason = self.tile_refusal(state, seat, entry, h, link)
        if reason is not None:
            return reason
        return self.exit_refusal(state, entry, h, exit_, link)

    def lay_cost(self, entry: Hex, h: Hex, exit_: Hex, new_link: bool) -> tuple[int, int]:
        """(cost, ridges crossed) of a tile; a link's first tile pays for its side at the city."""
        rules = self.rules
        ridges = int(rules.ridge_between(h, exit_))
        if new_link:
            ridges += int(rules.ridge_between(entry, h))
        return rules.tile_cost(h) + RIDGE_COST * ridges, ridges

    # ------------------------------------------------------------ doing
    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        if isinstance(action, LayTrack):
            self._lay(state, action, log)
            return
        rules = self.rules
        seat = action.seat
        b = state.building
        assert b is not None and b.link is not None
        link = state.links[b.link]
        log.add(f"{rules._name(state, seat)} ends the build: link {link.id} from "
                f"{rules.city_name(link.start)} is incomplete "
                f"({plural(len(link.tiles), 'tile')}).", "end_build", rule=R.BUILD, seat=seat,
                link=link.id)
        self._finish(state, log)

    def _finish(self, state: RotwState, log: EventLog) -> None:
        state.building = None
        self.rules.next_player(state, log)

    def _lay(self, state: RotwState, a: LayTrack, log: EventLog) -> None:
        rules = self.rules
        seat = a.seat
        b = state.building
        assert b is not None
        h, entry = rules._hex(a.hex), rules._hex(a.entry)
        exit_ = rules._hex(a.exit)
        city_at = rules._city_at
        link: Link | None
        new_link = False
        if b.link is not None:
            link = state.links[b.link]
        elif entry in city_at:
            link = None
            new_link = True
        elif state.rules_edition >= 2:
            link = continued((k for k in state.links.values()
                              if not k.complete and k.tiles[-1] == entry), h)
            assert link is not None  # the action was checked
        else:
            # Edition 1 (saves made before the ruling "two open ends in one hex") put the
            # tile on the seat's first incomplete link ending in ``entry``, wherever its
            # open end pointed; such a save replays as it was played.
            link = next(k for k in state.links.values() if not k.complete and k.tiles[-1] == entry
                        and k.owner == seat)
        # As ``lay_cost``, the hexes being neighbours (the action was checked).
        exit_side = side(h, exit_)
        ridges = int(exit_side in rules._ridges)
        if new_link:
            ridges += side(entry, h) in rules._ridges
        terrain = rules._terrain[h]
        cost = TERRAIN_COST[terrain] + RIDGE_COST * ridges
        issued = rules.pay(state, seat, cost, log, "track")
        if link is None:
            link = Link(id=f"L{state.next_link}", owner=seat, start=city_at[entry].id,
                        tiles=[], toward=h)
            state.next_link += 1
            state.links[link.id] = link
            state.side_link[side(entry, h)] = link.id
        link_id = link.id
        b.link = link_id
        link.tiles.append(h)
        link.toward = exit_
        here = state.hex_links.get(h)
        if here is None:
            here = state.hex_links[h] = []
        here.append(link_id)
        state.side_link[exit_side] = link_id
        b.laid += 1
        b.cost += cost
        self._log_tile(state, log, seat, link, h, cost, ridges, issued, crossing=len(here) > 1)
        city = city_at.get(exit_)
        if city is not None:
            link.end = city.id
            log.add(f"Link {link.id} of {rules._name(state, seat)} is complete: "
                    f"{rules.city_name(link.start)} to {city.name}, "
                    f"{plural(len(link.tiles), 'tile')}.", "link_complete", rule=R.LINK, seat=seat,
                    link=link.id, start=link.start, end=city.id, tiles=len(link.tiles))
            self._finish(state, log)

    def _log_tile(self, state: RotwState, log: EventLog, seat: int, link: Link, h: Hex,
                  cost: int, ridges: int, issued: int, crossing: bool) -> None:
        rules = self.rules
        if ridges or crossing:
            named: tuple[str, ...] = (R.BUILD, *((R.RIDGE,) if ridges else ()),
                                      *((R.CROSSING,) if crossing else ()))
            ridge_text = f", {plural(ridges, 'ridge')}" if ridges else ""
        else:
            named, ridge_text = _BUILD_RULES, ""
        log.add(f"{state.players[seat].name} lays track on {rules.hex_name(h)}"
                f"{' (a crossing)' if crossing else ''} for {money(cost)} "
                f"({rules._terrain[h]}{ridge_text}).", "lay_track", rule=named, seat=seat,
                link=link.id, hex=list(rules.offset(h)), cost=cost, ridges=ridges, bonds=issued)
