"""New England Railways' shipping paths, worked out once and looked up after.

Which way a cube may travel is asked on every shipping step (the prompt lists every
shipment, a search bot asks thousands of times a second), while the built links
change only a few times a turn. So the paths over the whole map are found once for
each city and colour, each with its links as bits; the paths open in a game are
those whose links are all built, picked out with a mask. The rule for a path is
written once, in ``routes``: listing a shipment and checking one both ask it.

Nothing here decides anything a player sees beyond what ``routes`` says; these are
indexes, kept out of the rules so the phases read as the rulebook does.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress
from typing import Any, ClassVar

from railgames.games.new_england.actions import Ship
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.state import NEState

MAX_SHIP_LINKS = 5
PATHS_KEPT = 64  # sets of built links whose shipping paths are kept
PATH_LINKS_KEPT = 50_000  # paths whose links income_split keeps


class ShippingPaths:
    """The shipping paths of one map, and what is known of them per set of built links."""

    def __init__(self, game_map: NewEnglandMap) -> None:
        self._link_of_pair = {
            (link.a, link.b): link.id for link in game_map.links
        } | {(link.b, link.a): link.id for link in game_map.links}
        self._ends = {link.id: (link.a, link.b) for link in game_map.links}
        self._demand = game_map.demand_of
        # Built links -> what is known of the shipping paths over them (``known``).
        self._paths: dict[frozenset[str], dict[Any, Any]] = {}
        # The shipping paths of the whole map, worked out once (``map_paths``).
        ids = sorted(self._ends)
        self._link_bit = {link: 1 << i for i, link in enumerate(ids)}
        self._map_adj: dict[str, list[str]] = {}
        for link in ids:
            a, b = self._ends[link]
            self._map_adj.setdefault(a, []).append(b)
            self._map_adj.setdefault(b, []).append(a)
        self._map_path_table: dict[tuple[str, str], list[tuple[int, list[str]]]] = {}
        self._ship_tables: dict[tuple[int, str, str], list[Ship]] = {}
        self._map_masks: dict[tuple[str, str], list[int]] = {}
        self._route_index: dict[tuple[str, str], dict[tuple[str, ...], int]] = {}
        self._cities_sorted = sorted(c.id for c in game_map.cities)
        self._city_set = frozenset(self._cities_sorted)
        self._path_links: dict[tuple[str, ...], tuple[str, ...]] = {}  # see income_split

    # What is worked out as play asks for it, left behind when the rules are pickled (a
    # bot's think takes its rules to a worker process and back): worked out again there.
    _KEPT_FROM_PLAY: ClassVar[tuple[str, ...]] = (
        "_paths", "_map_path_table", "_ship_tables", "_map_masks", "_route_index", "_path_links")

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in self._KEPT_FROM_PLAY:
            state[name] = {}
        return state

    def link_of(self, a: str, b: str) -> str | None:
        """The link joining cities ``a`` and ``b``, if one does."""
        return self._link_of_pair.get((a, b))

    def built_neighbours(self, state: NEState) -> dict[str, list[str]]:
        """City -> the cities joined to it by built links (in the order of the links' ids);
        a new dictionary, worked out once for each set of built links."""
        known = self.known(state)
        adj: dict[str, list[str]] | None = known.get("adj")
        if adj is None:
            adj = known["adj"] = {}
            for link in sorted(state.built):
                a, b = self._ends[link]
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
        return {city: list(near) for city, near in adj.items()}

    def routes(self, state: NEState | None, origin: str, colour: str,
               adj: dict[str, list[str]] | None = None) -> Iterator[list[str]]:
        """Every legal path for a cube of ``colour`` leaving ``origin`` (over the links
        built in ``state``, or over the cities joined in ``adj`` when that is given): it
        visits each city once, stops at the first city that demands its colour, and
        uses at most ``MAX_SHIP_LINKS`` links."""
        if adj is None:
            assert state is not None
            adj = self.built_neighbours(state)
        demand = self._demand
        # Depth first, with a stack of neighbour iterators in place of recursion.
        path = [origin]
        stack = [iter(adj.get(origin, ()))]
        while stack:
            for nxt in stack[-1]:
                if nxt in path:
                    continue
                if demand[nxt] == colour:
                    yield [*path, nxt]
                elif len(path) < MAX_SHIP_LINKS:
                    path.append(nxt)
                    stack.append(iter(adj.get(nxt, ())))
                    break
            else:
                stack.pop()
                path.pop()

    def known(self, state: NEState) -> dict[Any, Any]:
        """What is known of the shipping paths over the links built in ``state``:
        None -> the built links as bits (see ``map_paths``), "adj" -> what
        ``built_neighbours`` gives, (city, colour) -> which paths of ``map_paths`` are
        open to a cube there, (seat, city, colour) -> those paths as Ship actions.
        Built links change a few times a turn, the prompt every step."""
        built = frozenset(state.built)
        known = self._paths.get(built)
        if known is None:
            if len(self._paths) >= PATHS_KEPT:
                self._paths.clear()
            bit = self._link_bit
            known = self._paths[built] = {None: sum(bit[link] for link in built)}
        return known

    def map_paths(self, origin: str, colour: str) -> list[tuple[int, list[str]]]:
        """Every shipping path for a cube of ``colour`` leaving ``origin`` were every link
        of the map built, each with the bits of the links it uses, in the order ``routes``
        lists them. The paths over the links built in a game are those whose links are
        all built, in the same order: a depth-first search over fewer links meets the
        rest in the same order (each city's neighbours come in the order of the links' ids)."""
        key = (origin, colour)
        paths = self._map_path_table.get(key)
        if paths is None:
            bit, link_of = self._link_bit, self._link_of_pair
            paths = self._map_path_table[key] = [
                (sum(bit[link_of[(a, b)]] for a, b in zip(p, p[1:], strict=False)), p)
                for p in self.routes(None, origin, colour, self._map_adj)]
        return paths

    def open_paths(self, known: dict[Any, Any], city: str, colour: str) -> list[bool]:
        """For each path of ``map_paths``, whether all its links are built (from ``known``)."""
        key = (city, colour)
        found: list[bool] | None = known.get(key)
        if found is None:
            built = known[None]
            masks = self._map_masks.get(key)
            if masks is None:
                masks = self._map_masks[key] = [links for links, _ in self.map_paths(city, colour)]
            found = known[key] = [links & built == links for links in masks]
        return found

    def is_open(self, state: NEState, colour: str, path: list[str]) -> bool:
        """Whether ``path`` is one of the paths ``routes`` gives a cube of ``colour`` over
        the links built in ``state``: the check of a shipment, by the rule that lists them."""
        key = (path[0], colour)
        index = self._route_index.get(key)
        if index is None:
            index = self._route_index[key] = {
                tuple(p): i for i, (_, p) in enumerate(self.map_paths(*key))}
        i = index.get(tuple(path))
        return i is not None and self.open_paths(self.known(state), *key)[i]

    def can_ship(self, state: NEState) -> bool:
        """Whether any waiting cube has a path open to it."""
        if not state.built:
            return False
        known = self.known(state)
        for city, here in state.cubes.items():
            for colour, count in here.items():
                if count and True in self.open_paths(known, city, colour):
                    return True
        return False

    def _ship_table(self, seat: int, origin: str, colour: str) -> list[Ship]:
        """``map_paths`` as Ship actions of ``seat``, made once each."""
        key = (seat, origin, colour)
        table = self._ship_tables.get(key)
        if table is None:
            # Built from paths the rules have just found, so validation is skipped.
            # Actions are frozen, so prompts and games may share them.
            table = self._ship_tables[key] = [
                Ship.trusted(type="ship", seat=seat, colour=colour, path=list(p))
                for _, p in self.map_paths(origin, colour)]
        return table

    def shipments(self, state: NEState, seat: int) -> list[Ship]:
        """Every shipment ``seat`` may make, city by city, colour by colour, path by path."""
        out: list[Ship] = []
        for ships in self.shipment_groups(state, seat):
            out.extend(ships)
        return out

    def shipment_groups(self, state: NEState, seat: int) -> list[Sequence[Ship]]:
        """``shipments`` in groups, one for each city and colour with a path open (a
        group is kept with the paths: never change it)."""
        out: list[Sequence[Ship]] = []
        if not state.built:
            return out
        known = self.known(state)
        ship_tables = self._ship_tables
        cubes = state.cubes
        for city in self._cities_sorted if cubes.keys() == self._city_set else sorted(cubes):
            waiting = cubes[city]
            if not waiting:
                continue
            for colour in sorted(waiting) if len(waiting) > 1 else waiting:
                if waiting[colour] > 0:
                    key = (seat, city, colour)
                    ships = known.get(key)
                    if ships is None:
                        open_paths = self.open_paths(known, city, colour)
                        if True not in open_paths:
                            ships = known[key] = ()
                        else:
                            table = ship_tables.get(key)
                            if table is None:
                                table = self._ship_table(seat, city, colour)
                            ships = known[key] = list(compress(table, open_paths))
                    if ships:
                        out.append(ships)
        return out

    def income_split(self, state: NEState, path: list[str]) -> dict[int, int]:
        """Seat -> income gained if a cube travels ``path``."""
        key = tuple(path)
        links = self._path_links.get(key)
        if links is None:
            if len(self._path_links) >= PATH_LINKS_KEPT:
                self._path_links.clear()
            link_of = self._link_of_pair
            links = self._path_links[key] = tuple(
                link_of[pair] for pair in zip(path, path[1:], strict=False))
        gain: dict[int, int] = {}
        owner = state.owner
        for link in links:
            seat = owner[link]
            gain[seat] = gain.get(seat, 0) + 1
        return gain
