"""Railways of the World: what the rules keep to answer quickly, apart from the rules.

Nothing here decides a rule. These are the tables the phases read to list and check
actions fast: the stores that make each listed action once, the first tiles of new
links as bits of a number (hundreds are legal at once), the tiles the board allows
through a hex, and the network of complete links with the routes and nearest cities
worked out from it, kept on the state (``RotwState.known``) until the track or the
cities' colours change. A phase asks; the index answers as the plain rule would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain, compress, repeat
from operator import attrgetter, le, ne
from typing import Any

from railgames.compat import model_without_validation
from railgames.core.engine import Action, Choices, Interned
from railgames.core.hexgrid import Hex
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS, MAX_ENGINE, RotwMap
from railgames.games.railways_of_the_world.state import Link, RotwState
from railgames.games.railways_of_the_world.terms import TRACKS_PER_HEX

_BITS_TO_BYTES = bytes.maketrans(b"01", b"\x00\x01")
_END_OF = attrgetter("end")
# No route for any colour (shared: never changed).
NO_ROUTES: dict[str, list[tuple[str, ...]]] = {c: [] for c in CUBE_COLOURS}

Network = dict[str, list[tuple[str, str]]]
# (exit, its side, the city there or None, the action) for each tile through a hex.
Ways = tuple[tuple[Hex, tuple[Hex, Hex], str | None, Any], ...]


class Listed(Interned):
    """``engine.Interned`` making its new actions directly: the very object
    ``Action.trusted`` makes from every field in declared order (these actions have
    plain fields), without its general handling. A game lists hundreds of tiles and
    routes it has not listed before, and each is made once here.
    """

    __slots__ = ("_given",)

    def __init__(self, cls: type[Action], limit: int = 20_000) -> None:
        super().__init__(cls, limit)
        # The names of the fields set, one set shared by every action made (frozen
        # actions never change it; each would otherwise be one more object for the
        # garbage collector to walk).
        self._given = set(self._names)

    def make(self, *fields: Any) -> Any:
        made = self._made
        action = made.get(fields)
        if action is None:
            if len(made) >= self._limit:
                made.clear()
            action = model_without_validation(
                self._cls, dict(zip(self._names, (self._type, *fields), strict=True)), self._given)
            made[fields] = action
        return action


def side(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """``hexgrid.side_key`` of two hexes known to be neighbours (without checking it)."""
    return (a, b) if a <= b else (b, a)


def bits_kept(bits: int, actions: list[Any]) -> Iterator[Any]:
    """The actions of ``actions`` whose bits are set in ``bits``, in order."""
    # The bits as bytes, lowest first: a 1 keeps the action in its place.
    return compress(actions, bin(bits)[:1:-1].encode().translate(_BITS_TO_BYTES))


# Byte -> the positions of its set bits, lowest first.
_BYTE_BITS = tuple(tuple(i for i in range(8) if byte >> i & 1) for byte in range(256))


def nth_bit(bits: int, n: int) -> int:
    """The position of the ``n``-th (from 0) set bit of ``bits``, lowest first (it has one)."""
    base = 0
    while True:  # by 64 bits
        chunk = bits & 0xFFFF_FFFF_FFFF_FFFF
        count = chunk.bit_count()
        if n < count:
            break
        n -= count
        bits >>= 64
        base += 64
    while True:  # then by bytes
        here = _BYTE_BITS[chunk & 0xFF]
        if n < len(here):
            return base + here[n]
        n -= len(here)
        chunk >>= 8
        base += 8


class TileChoices(Choices):
    """The choices of a build before its first tile: the tiles extending the seat's
    incomplete links (``head``), the first tiles of new links whose bits are set in
    ``bits`` (``tiles`` in the order of ``TrackIndex.first_tables``), then ``tail`` (the
    cancel). Hundreds of first tiles are legal at once, and a bot takes one: the
    list of them is made only when read through, and an action is found among them
    by its place in ``tiles`` (``index``: id of each -> its bit)."""

    __slots__ = ("_head", "_bits", "_tiles", "_index", "_tail", "_open", "_n")

    def __init__(self, head: list[Any], bits: int, tiles: list[Any], index: dict[int, int],
                 tail: list[Any]) -> None:
        self._head = head
        self._bits = bits
        self._tiles = tiles
        self._index = index
        self._tail = tail
        self._open = bits.bit_count()
        self._n = len(head) + self._open + len(tail)

    def __len__(self) -> int:
        return self._n

    def _item(self, index: int) -> Any:
        head = self._head
        if index < len(head):
            return head[index]
        index -= len(head)
        if index < self._open:
            return self._tiles[nth_bit(self._bits, index)]
        return self._tail[index - self._open]

    def _listed(self) -> list[Any]:
        return [*self._head, *bits_kept(self._bits, self._tiles), *self._tail]

    def holds(self, action: Any) -> bool:
        for choice in self._head:
            if choice is action:
                return True
        for choice in self._tail:
            if choice is action:
                return True
        bit = self._index.get(id(action))
        return bit is not None and self._tiles[bit] is action and bool(self._bits >> bit & 1)


def only_added(before: tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, ...]],
               now: tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, ...]]) -> bool:
    """Whether the track ``now`` (sides taken, hexes with track, tracks in each) is the
    track ``before`` with more added: every side still taken, in the same order, and
    every hex with track still there with at least as many tracks."""
    sides, hexes, counts = before
    return (now[0][:len(sides)] == sides and now[1][:len(hexes)] == hexes
            and all(map(le, counts, now[2])))


class TrackIndex:
    """The tiles a board allows, found once: the first tiles of new links as bits, and
    the tiles through a hex from each entry, each with its listed action."""

    def __init__(self, game_map: RotwMap, around: dict[Hex, tuple[Hex, ...]],
                 offset: dict[Hex, tuple[int, int]], lay_track: Callable[..., Any],
                 first_tile: Callable[..., Any]) -> None:
        self._terrain = game_map.terrain
        self._city_at = game_map.city_at
        self._around = around
        self._offset = offset
        self._lay_track = lay_track
        self._first_tile = first_tile
        # (seat, entry, hex) -> the tiles the board allows from ``entry`` through ``hex``,
        # made when first listed (by ``extension_ways``).
        self.extension_tiles: dict[tuple[int, Hex, Hex], Ways] = {}
        # The first tiles of new links, as tables (see ``first_tables``), made when
        # a build is first listed.
        self._first_tables: tuple[list[tuple[Hex, Hex, Hex]], int, dict[tuple[Hex, Hex], int],
                                  dict[Hex, int]] | None = None
        self._first_tile_actions: dict[int, list[Any]] = {}
        self.first_tile_bits: dict[int, dict[int, int]] = {}  # seat -> id of each -> its bit

    def first_tables(self) -> tuple[list[tuple[Hex, Hex, Hex]], int,
                                    dict[tuple[Hex, Hex], int], dict[Hex, int]]:
        """Every first tile of a new link the board itself allows, (city, hex, exit) in
        the order they are listed, with each tile as a bit of a number: all the bits,
        side -> the bits of the tiles it concerns, hex -> the bits of the tiles on it.

        Whether such a tile is legal now depends only on the track: the side it
        leaves its city by and the side it points at must be free, and its hex must
        hold fewer than two tracks. The sides and crowded hexes of the track on the
        board block the bits of the tiles they concern, so the legal ones are found
        with a few operations on numbers instead of a test of each tile.
        """
        if self._first_tables is None:
            terrain = self._terrain
            city_at = self._city_at
            around = self._around
            tiles: list[tuple[Hex, Hex, Hex]] = []
            by_side: dict[tuple[Hex, Hex], int] = {}
            by_hex: dict[Hex, int] = {}
            for entry in city_at:
                start = city_at[entry].id
                for h in around[entry]:
                    if terrain[h] in ("city", "partial"):
                        continue
                    first_side = side(entry, h)
                    for exit_ in around[h]:
                        if exit_ == entry or terrain[exit_] == "partial":
                            continue
                        city = city_at.get(exit_)
                        if city is not None and city.id == start:
                            continue
                        bit = 1 << len(tiles)
                        tiles.append((entry, h, exit_))
                        exit_side = side(h, exit_)
                        by_side[first_side] = by_side.get(first_side, 0) | bit
                        by_side[exit_side] = by_side.get(exit_side, 0) | bit
                        by_hex[h] = by_hex.get(h, 0) | bit
            self._first_tables = (tiles, (1 << len(tiles)) - 1, by_side, by_hex)
        return self._first_tables

    def first_tile_actions(self, seat: int) -> list[Any]:
        """The actions of ``first_tables`` for ``seat``, made once."""
        actions = self._first_tile_actions.get(seat)
        if actions is None:
            offset = self._offset
            actions = self._first_tile_actions[seat] = [
                self._first_tile(seat, offset[h], offset[entry], offset[exit_])
                for entry, h, exit_ in self.first_tables()[0]]
            # Kept alive by the list above, so their ids stay theirs.
            self.first_tile_bits[seat] = {id(a): bit for bit, a in enumerate(actions)}
        return actions

    def open_first_tiles(self, state: RotwState) -> int:
        """The bits of the new links' first tiles legal with the track on the board now.

        The bits blocked are kept on the state with the track they were found for
        (the sides taken, the hexes with track and how many tracks each has). Track
        is mostly added between two builds: then only what was added is looked at.
        """
        _, every, by_side, by_hex = self.first_tables()
        sides = state.side_link
        used = state.hex_links
        track = (tuple(sides), tuple(used), tuple(map(len, used.values())))
        known = state.known.get("first_blocked")
        if known is not None and known[0] == track:
            return every & ~known[1]  # type: ignore[no-any-return]
        get = by_side.get
        blocked = 0
        sides_now, hexes_now, counts_now = track
        if known is not None and only_added(known[0], track):
            sides_then, hexes_then, counts_then = known[0]
            blocked = known[1]
            for taken in sides_now[len(sides_then):]:
                blocked |= get(taken, 0)
            # The hexes whose tracks grew (or that have track now, being new at the end).
            for i in compress(range(len(counts_now)),
                              map(ne, chain(counts_then, repeat(-1)), counts_now)):
                if counts_now[i] >= TRACKS_PER_HEX:
                    blocked |= by_hex.get(hexes_now[i], 0)
        else:
            for taken in sides:
                blocked |= get(taken, 0)
            for h, here in used.items():
                if len(here) >= TRACKS_PER_HEX:
                    blocked |= by_hex.get(h, 0)
        state.known["first_blocked"] = (track, blocked)
        return every & ~blocked

    def first_open_tile(self, state: RotwState, seat: int) -> Any:
        """The first legal first tile of a new link, in the listed order, or None: a walk
        from city to city that most often stops at the first tile it looks at."""
        terrain = self._terrain
        city_at = self._city_at
        around = self._around
        sides = state.side_link
        used = state.hex_links
        for entry in city_at:
            start = city_at[entry].id
            for h in around[entry]:
                if terrain[h] in ("city", "partial") or side(entry, h) in sides:
                    continue
                here = used.get(h)
                if here is not None and len(here) >= TRACKS_PER_HEX:
                    continue
                for exit_ in around[h]:
                    if (exit_ == entry or terrain[exit_] == "partial"
                            or side(h, exit_) in sides):
                        continue
                    city = city_at.get(exit_)
                    if city is not None and city.id == start:
                        continue
                    offset = self._offset
                    return self._first_tile(seat, offset[h], offset[entry], offset[exit_])
        return None

    def extension_ways(self, seat: int, entry: Hex, h: Hex) -> Ways:
        """The tiles through ``h`` from ``entry`` that the board allows (kept in
        ``extension_tiles``): every neighbour but ``entry`` and the partial hexes, in
        the board's order."""
        terrain = self._terrain
        city_at = self._city_at
        offset = self._offset
        ways = []
        for exit_ in self._around[h]:
            if exit_ == entry or terrain[exit_] == "partial":
                continue
            city = city_at.get(exit_)
            ways.append((exit_, side(h, exit_), None if city is None else city.id,
                         self._lay_track(seat, offset[h], offset[entry], offset[exit_])))
        found = self.extension_tiles[(seat, entry, h)] = tuple(ways)
        return found


def kept_with_network(state: RotwState, name: str, net: Network) -> dict[Any, Any]:
    """A table kept on the state under ``name`` while the network is ``net`` and the
    cities' colours are what they are now; a new, empty one otherwise."""
    colours_now = tuple(state.colour.values())
    known = state.known.get(name)
    if known is None or known[0] is not net or known[1] != colours_now:
        known = (net, colours_now, {})
        state.known[name] = known
    return known[2]  # type: ignore[no-any-return]


def network(state: RotwState) -> tuple[Network, dict[int, dict[str, None]]]:
    """City -> (link id, city at its other end) for every complete link, and, per seat,
    the cities its own complete links leave from.

    Worked out once for the links as they are and kept on the state (callers
    only read it): a link never changes its start or owner and gets its end
    once, and no number is given to two links, so the numbers and ends of the
    complete links say whether the network has changed since.
    """
    links = state.links
    ends = tuple(map(_END_OF, links.values()))
    key = (tuple(compress(links, ends)), tuple(filter(None, ends)))
    known = state.known.get("network")
    if known is not None and known[0] == key:
        return known[1]  # type: ignore[no-any-return]
    out: Network = {}
    own: dict[int, dict[str, None]] = {}  # seat -> its cities, in the order of its links
    for link in links.values():
        end = link.end
        if end is None:
            continue
        out.setdefault(link.start, []).append((link.id, end))
        out.setdefault(end, []).append((link.id, link.start))
        at = own.setdefault(link.owner, {})
        at[link.start] = None
        at[end] = None
    if known is not None and known[1] == (out, own):
        # A new link under way, or an incomplete one removed: the network is the
        # same, and so is what was worked out from it (see ``routes_from``).
        state.known["network"] = (key, known[1])
        return known[1]  # type: ignore[no-any-return]
    state.known["network"] = (key, (out, own))
    return out, own


def nearest(state: RotwState, net: Network, seat: int, origin: str) -> dict[str, int]:
    """Colour -> the fewest links a cube leaving ``origin`` along one of ``seat``'s
    own links crosses to a city of that colour, never passing ``origin`` again
    (up to ``MAX_ENGINE``).

    A cube of that colour has a route (as ``routes_from`` finds them) just when
    this is at most the engine's level: the shortest way to the nearest city of
    its colour passes no city twice and no other city of its colour (that one
    would be nearer), and any route is at least that long.
    """
    links = state.links
    colour_of = state.colour
    found: dict[str, int] = {}
    seen = {origin}
    frontier = []
    for link_id, there in net.get(origin, ()):
        if there not in seen and links[link_id].owner == seat:
            seen.add(there)
            frontier.append(there)
    distance = 1
    while frontier:
        for city in frontier:
            colour = colour_of[city]
            if colour not in found:
                found[colour] = distance
        if distance >= MAX_ENGINE:
            break
        onward = []
        for city in frontier:
            for _, there in net.get(city, ()):
                if there not in seen:
                    seen.add(there)
                    onward.append(there)
        frontier = onward
        distance += 1
    return found


def nearest_table(state: RotwState, net: Network) -> dict[tuple[int, str], dict[str, int]]:
    """(seat, city) -> ``nearest``, as kept on the state for ``net`` and the
    cities' colours now."""
    return kept_with_network(state, "nearest", net)


def routes_table(state: RotwState, net: Network
                 ) -> dict[tuple[int, int, str], dict[str, list[tuple[str, ...]]]]:
    """(seat, engine, city) -> the routes from that city (see ``routes_from``), as
    kept on the state for ``net`` and the cities' colours now."""
    return kept_with_network(state, "routes", net)


Walk = Callable[[Network, dict[str, Link], dict[str, str], int, int,
                 dict[str, list[tuple[str, ...]]], set[str], list[str], str, tuple[str, ...]], None]


def routes_from(state: RotwState, net: Network, seat: int, origin: str, engine: int,
                walk: Walk) -> dict[str, list[tuple[str, ...]]]:
    """Colour -> the routes (link ids) a cube of that colour may take from ``origin``,
    as ``walk`` (the delivery rule's walk along ``net``) finds them, in its order.

    Kept on the state with the network and the cities' colours they were found
    with; a smaller engine's routes are the shorter ones of a bigger engine's.
    """
    table = routes_table(state, net)
    found = table.get((seat, engine, origin))
    if found is not None:
        return found
    links = state.links
    if not any(links[k].owner == seat for k, _ in net.get(origin, ())):
        # Every route starts along one of the seat's own links.
        table[(seat, engine, origin)] = NO_ROUTES
        return NO_ROUTES
    for bigger in range(MAX_ENGINE, engine, -1):
        longer = table.get((seat, bigger, origin))
        if longer is not None:
            # The walk for a bigger engine finds the same routes, and longer ones too.
            found = {c: [r for r in routes if len(r) <= engine] for c, routes in longer.items()}
            table[(seat, engine, origin)] = found
            return found
    found = {c: [] for c in CUBE_COLOURS}
    walk(net, links, state.colour, seat, engine, found, {origin}, [], origin, CUBE_COLOURS)
    table[(seat, engine, origin)] = found
    return found
