"""Railways of the World: track tiles, goods cubes, bonds and the First Player auction.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action and runs the automatic steps (paying, income, removing incomplete
links) up to the next decision. Rulings on what the rulebook leaves open are in
docs/rulings/railways-of-the-world.md; comments below name them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from itertools import chain, compress, repeat
from operator import attrgetter, le, ne
from typing import Any, ClassVar

from railgames.compat import model_without_validation
from railgames.core.engine import (
    Action,
    AmountInput,
    Choices,
    Interned,
    OpenAmount,
    Prompt,
    Result,
    Ruleset,
)
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.hexgrid import Hex, are_adjacent, neighbours, side_key
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import (
    ACTION_ADAPTER,
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
from railgames.games.railways_of_the_world.board_map import (
    CUBE_COLOURS,
    GRAY,
    MAX_ENGINE,
    RotwMap,
)
from railgames.games.railways_of_the_world.state import (
    Auction,
    Building,
    Link,
    Railroad,
    RotwState,
    Step,
)

BOND = 5000
INTEREST = 1000
URBANIZE_COST = 10_000
MIN_BID = 1000
BID_STEP = 1000
MAX_TILES = 4
TERRAIN_COST = {"open": 2000, "water": 3000, "mountain": 4000}
RIDGE_COST = 4000
ROUNDS = 3
TRACKS_PER_HEX = 2  # a hex holds one track, or two crossing
BID_WINDOW = 20_000  # how far above the lowest bid the bids offered to bots and the palette reach
# Ruling "bids stop at a billion": no bid is higher, a sum whose bonds would cost far more
# points than any player can score (docs/rulings/railways-of-the-world.md).
MAX_BID = 1_000_000_000
_BUILD_RULES = (R.BUILD,)
_BITS_TO_BYTES = bytes.maketrans(b"01", b"\x00\x01")
_END_OF = attrgetter("end")
# No route for any colour (shared: never changed).
_NO_ROUTES: dict[str, list[tuple[str, ...]]] = {c: [] for c in CUBE_COLOURS}


def _kept_with_network(state: RotwState, name: str, net: dict[str, list[tuple[str, str]]]
                       ) -> dict[Any, Any]:
    """A table kept on the state under ``name`` while the network is ``net`` and the
    cities' colours are what they are now; a new, empty one otherwise."""
    colours_now = tuple(state.colour.values())
    known = state.known.get(name)
    if known is None or known[0] is not net or known[1] != colours_now:
        known = (net, colours_now, {})
        state.known[name] = known
    return known[2]  # type: ignore[no-any-return]




class _Listed(Interned):
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


def _side(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """``hexgrid.side_key`` of two hexes known to be neighbours (without checking it)."""
    return (a, b) if a <= b else (b, a)


def _bits_kept(bits: int, actions: list[Any]) -> Iterator[Any]:
    """The actions of ``actions`` whose bits are set in ``bits``, in order."""
    # The bits as bytes, lowest first: a 1 keeps the action in its place.
    return compress(actions, bin(bits)[:1:-1].encode().translate(_BITS_TO_BYTES))


# Byte -> the positions of its set bits, lowest first.
_BYTE_BITS = tuple(tuple(i for i in range(8) if byte >> i & 1) for byte in range(256))


def _nth_bit(bits: int, n: int) -> int:
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


class _TileChoices(Choices):
    """The choices of a build before its first tile: the tiles extending the seat's
    incomplete links (``head``), the first tiles of new links whose bits are set in
    ``bits`` (``tiles`` in the order of ``_first_tile_tables``), then ``tail`` (the
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
            return self._tiles[_nth_bit(self._bits, index)]
        return self._tail[index - self._open]

    def _listed(self) -> list[Any]:
        return [*self._head, *_bits_kept(self._bits, self._tiles), *self._tail]

    def holds(self, action: Any) -> bool:
        for choice in self._head:
            if choice is action:
                return True
        for choice in self._tail:
            if choice is action:
                return True
        bit = self._index.get(id(action))
        return bit is not None and self._tiles[bit] is action and bool(self._bits >> bit & 1)


# Amounts written before (prices, bids, cash): the log writes the same few again and again.
_MONEY: dict[int, str] = {}


def money(amount: int) -> str:
    text = _MONEY.get(amount)
    if text is None:
        text = f"-${-amount:,}" if amount < 0 else f"${amount:,}"
        if len(_MONEY) < 10_000:
            _MONEY[amount] = text
    return text


_PROMPT_FIELDS = ("seat", "step", "text", "choices", "amount", "help")
assert tuple(f.name for f in fields(Prompt)) == _PROMPT_FIELDS, "_prompt must fill every field"


def _prompt(seat: int, step: str, text: str, choices: list[Any] | Choices, amount: AmountInput | None = None,
            help: str = "") -> Prompt:
    """``Prompt(...)`` with a list of choices, made without the frozen dataclass's
    field-by-field setting: the rules make one on every step."""
    prompt: Prompt = object.__new__(Prompt)
    prompt.__dict__.update(seat=seat, step=step, text=text, choices=choices, amount=amount,
                           help=help)
    return prompt


@dataclass(frozen=True, kw_only=True)
class BidAmount(OpenAmount):
    """A bid: legal up to ``MAX_BID``; the bids offered reach ``BID_WINDOW`` above the lowest."""

    OPEN_LISTED: ClassVar[int] = BID_WINDOW // BID_STEP + 1


# The bids' AmountInput by their lowest: every auction asks for the same few (frozen, so shared).
_BID_AMOUNTS: dict[int, AmountInput] = {}


def _bid_amount(low: int) -> AmountInput | None:
    """The amount of a bid of ``low`` or more; None when even ``low`` is past ``MAX_BID``."""
    if low > MAX_BID:
        return None
    amount = _BID_AMOUNTS.get(low)
    if amount is None:
        amount = BidAmount(action_type="bid", label="Bid", min=low, max=MAX_BID,
                           step=BID_STEP, default=low)
        if len(_BID_AMOUNTS) < 1000:
            _BID_AMOUNTS[low] = amount
    return amount


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class RailwaysOfTheWorldRules(Ruleset[RotwState]):
    id: ClassVar[str] = "railways-of-the-world"
    title: ClassVar[str] = "Railways of the World"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "rotw-eastern-us"
    pitch: ClassVar[str] = (
        "Lay track between cities, deliver goods cubes for income, and borrow on bonds."
    )
    play_time: ClassVar[str] = "60-120 min"
    option_labels: ClassVar[dict[str, str]] = {
        "first_turn_fixed": "First turn in seat order, later players paid $1,000 a place "
                            "(no auction)",
        "pass_pays_half": "Auction: dropping out pays half your bid; drop-outs set the order",
    }
    map_model = RotwMap
    action_adapter = ACTION_ADAPTER

    map: RotwMap

    def __init__(self, game_map: RotwMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        # Each board says how many may play on it (Mexico 2-3, Eastern US 3-6).
        self.min_players, self.max_players = m.players  # type: ignore[misc]
        self._city_at = m.city_at
        self._hex_of_city = m.hex_of_city
        self._terrain = m.terrain
        # Legal choices, made once each (see engine.Interned).
        self._stores: dict[type, Interned] = {
            cls: _Listed(cls) for cls in (LayTrack, Deliver, Choose, Urbanize, UpgradeEngine,
                                          PassAction, PassBid, Cancel, EndBuild)}
        self._board_neighbours = {
            h: tuple(n for n in neighbours(h) if n in m.terrain) for h in m.terrain
        }
        # Tiles are as many as the board has ways through its hexes, for each seat: the
        # store of them holds them all rather than start afresh (and make them again).
        ways = sum(len(around) * (len(around) - 1) for h, around in self._board_neighbours.items()
                   if m.terrain[h] not in ("city", "partial"))
        self._stores[LayTrack] = self._lay_store = _Listed(
            LayTrack, limit=max(20_000, ways * self.max_players + 1))
        self._listed_lay_track = self._lay_store.make
        # (seat, entry, hex) -> the tiles the board allows from ``entry`` through ``hex``:
        # (exit, its side, the city there or None, the action), made when first listed.
        self._extension_tiles: dict[tuple[int, Hex, Hex],
                                    tuple[tuple[Hex, tuple[Hex, Hex], str | None, Any], ...]] = {}
        self._listed_deliver = self._stores[Deliver].make
        self._listed_choose = self._stores[Choose].make
        self._listed_urbanize = self._stores[Urbanize].make
        self._listed_upgrade = self._stores[UpgradeEngine].make
        # The choices that depend on the seat alone, by seat (made by their stores, which
        # never start afresh under them: a few each).
        seats = range(self.max_players)
        self._pass_action_of = [self._stores[PassAction].make(s) for s in seats]
        self._pass_bid_of = [self._stores[PassBid].make(s) for s in seats]
        self._cancel_of = [self._stores[Cancel].make(s) for s in seats]
        self._end_build_of = [self._stores[EndBuild].make(s) for s in seats]
        self._choose_of = [{what: self._listed_choose(s, what)
                            for what in ("build", "urbanize", "deliver")} for s in seats]
        # The first tiles of new links (listed at every build: see ``_first_tile_tables``)
        # have a store of their own, as many as the board allows, so that it never
        # starts afresh under the lists of them kept for each seat.
        self._first_tiles = _Listed(LayTrack, limit=1 << 62)
        self._listed_first_tile = self._first_tiles.make
        self._city_ids = tuple(c.id for c in m.cities)
        self._ridges = m.ridges
        self._offset = {h: m.offset_of(h) for h in m.terrain}
        self._hex_at = {off: h for h, off in self._offset.items()}
        # The first tiles of new links, as tables (see ``_first_tile_tables``), made when
        # a build is first listed.
        self._first_tables: tuple[list[tuple[Hex, Hex, Hex]], int, dict[tuple[Hex, Hex], int],
                                  dict[Hex, int]] | None = None
        self._first_tile_actions: dict[int, list[Any]] = {}
        self._first_tile_bits: dict[int, dict[int, int]] = {}  # seat -> id of each -> its bit
        self._executors: dict[type, Callable[[RotwState, Any, EventLog], None]] = {
            Bid: self._bid, PassBid: self._pass_bid, Choose: self._choose, Cancel: self._cancel,
            PassAction: self._pass_action, UpgradeEngine: self._upgrade,
            Urbanize: self._urbanize_then_next, LayTrack: self._lay, EndBuild: self._end_build,
            Deliver: self._deliver_then_next}

    def _first_tile_tables(self) -> tuple[list[tuple[Hex, Hex, Hex]], int,
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
            around = self._board_neighbours
            tiles: list[tuple[Hex, Hex, Hex]] = []
            by_side: dict[tuple[Hex, Hex], int] = {}
            by_hex: dict[Hex, int] = {}
            for entry in city_at:
                start = city_at[entry].id
                for h in around[entry]:
                    if terrain[h] in ("city", "partial"):
                        continue
                    first_side = _side(entry, h)
                    for exit_ in around[h]:
                        if exit_ == entry or terrain[exit_] == "partial":
                            continue
                        city = city_at.get(exit_)
                        if city is not None and city.id == start:
                            continue
                        bit = 1 << len(tiles)
                        tiles.append((entry, h, exit_))
                        exit_side = _side(h, exit_)
                        by_side[first_side] = by_side.get(first_side, 0) | bit
                        by_side[exit_side] = by_side.get(exit_side, 0) | bit
                        by_hex[h] = by_hex.get(h, 0) | bit
            self._first_tables = (tiles, (1 << len(tiles)) - 1, by_side, by_hex)
        return self._first_tables

    def _first_tile_actions_of(self, seat: int) -> list[Any]:
        """The actions of ``_first_tile_tables`` for ``seat``, made once."""
        actions = self._first_tile_actions.get(seat)
        if actions is None:
            offset = self._offset
            actions = self._first_tile_actions[seat] = [
                self._listed_first_tile(seat, offset[h], offset[entry], offset[exit_])
                for entry, h, exit_ in self._first_tile_tables()[0]]
            # Kept alive by the list above, so their ids stay theirs.
            self._first_tile_bits[seat] = {id(a): bit for bit, a in enumerate(actions)}
        return actions

    def _open_first_tiles(self, state: RotwState) -> int:
        """The bits of the new links' first tiles legal with the track on the board now.

        The bits blocked are kept on the state with the track they were found for
        (the sides taken, the hexes with track and how many tracks each has). Track
        is mostly added between two builds: then only what was added is looked at.
        """
        _, every, by_side, by_hex = self._first_tile_tables()
        sides = state.side_link
        used = state.hex_links
        track = (tuple(sides), tuple(used), tuple(map(len, used.values())))
        known = state.known.get("first_blocked")
        if known is not None and known[0] == track:
            return every & ~known[1]  # type: ignore[no-any-return]
        get = by_side.get
        blocked = 0
        sides_now, hexes_now, counts_now = track
        if known is not None and _only_added(known[0], track):
            sides_then, hexes_then, counts_then = known[0]
            blocked = known[1]
            for side in sides_now[len(sides_then):]:
                blocked |= get(side, 0)
            # The hexes whose tracks grew (or that have track now, being new at the end).
            for i in compress(range(len(counts_now)),
                              map(ne, chain(counts_then, repeat(-1)), counts_now)):
                if counts_now[i] >= TRACKS_PER_HEX:
                    blocked |= by_hex.get(hexes_now[i], 0)
        else:
            for side in sides:
                blocked |= get(side, 0)
            for h, here in used.items():
                if len(here) >= TRACKS_PER_HEX:
                    blocked |= by_hex.get(h, 0)
        state.known["first_blocked"] = (track, blocked)
        return every & ~blocked

    def _first_open_tile(self, state: RotwState, seat: int) -> Any:
        """The first legal first tile of a new link, in the listed order, or None: a walk
        from city to city that most often stops at the first tile it looks at."""
        terrain = self._terrain
        city_at = self._city_at
        around = self._board_neighbours
        sides = state.side_link
        used = state.hex_links
        for entry in city_at:
            start = city_at[entry].id
            for h in around[entry]:
                if terrain[h] in ("city", "partial") or _side(entry, h) in sides:
                    continue
                here = used.get(h)
                if here is not None and len(here) >= TRACKS_PER_HEX:
                    continue
                for exit_ in around[h]:
                    if (exit_ == entry or terrain[exit_] == "partial"
                            or _side(h, exit_) in sides):
                        continue
                    city = city_at.get(exit_)
                    if city is not None and city.id == start:
                        continue
                    offset = self._offset
                    return self._listed_first_tile(seat, offset[h], offset[entry], offset[exit_])
        return None

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here: the bots import these rules.
        from railgames.games.railways_of_the_world.bots import GreedyBot, RailwaysSearch

        return {"greedy": GreedyBot, "search": RailwaysSearch.maker(self)}

    # ------------------------------------------------------------ names
    def hex_at(self, col: int, row: int) -> Hex | None:
        return self._hex_at.get((col, row))

    def offset(self, h: Hex) -> tuple[int, int]:
        return self._offset[h]

    def hex_name(self, h: Hex) -> str:
        city = self._city_at.get(h)
        if city is not None:
            return city.name
        col, row = self._offset[h]
        return f"hex {col},{row}"

    def city_name(self, city: str) -> str:
        """A city by its id, or any hex by the board's "column,row"."""
        found = self.map.city_by_id.get(city)
        if found is not None:
            return found.name
        try:
            col, row = (int(p) for p in city.split(","))
        except ValueError:
            return city
        h = self._hex_at.get((col, row))
        return city if h is None else self.hex_name(h)

    @staticmethod
    def _name(state: RotwState, seat: int) -> str:
        return state.players[seat].name

    def city_hex(self, city: str) -> Hex:
        return self._hex_of_city[city]

    def tile_cost(self, h: Hex) -> int:
        return TERRAIN_COST[self._terrain[h]]

    def ridge_between(self, a: Hex, b: Hex) -> bool:
        return side_key(a, b) in self._ridges

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> RotwState:
        unknown = sorted(set(record.options) - set(self.option_labels))
        if unknown:
            raise IllegalAction(f"unknown option '{unknown[0]}' (the options are "
                                f"{', '.join(self.option_labels)})")
        options: dict[str, bool] = {}
        for key, value in record.options.items():
            if not isinstance(value, bool):
                raise IllegalAction(f"option '{key}' is true or false, not {value!r}")
            options[key] = value
        n = len(record.players)
        state = RotwState(
            options=options,
            players=[Railroad(name=p.name) for p in record.players],
            cubes={c.id: {} for c in self.map.cities},
            bag=dict(self.map.goods_cubes),
            colour={c.id: c.colour for c in self.map.cities},
            tiles_left=dict(self.map.new_city_tiles),
            turn=1,
            step=Step.AUCTION,
            first=0,
            chance=chance,
        )
        fewer = 1 if n <= 3 else 0
        for city in self.map.cities:
            if city.colour == GRAY:
                continue
            count = max(1, city.cubes - fewer)
            drawn = self._draw(state, count)
            state.cubes[city.id] = drawn
        log.add(f"Goods cubes are drawn from the bag for every city"
                f"{' (one fewer each with 2 or 3 players, never fewer than one)' if fewer else ''}; "
                f"{sum(state.bag.values())} stay in the bag.", "setup_cubes", chance=True, rule=R.SETUP,
                cubes={c: dict(v) for c, v in state.cubes.items() if v}, bag=dict(state.bag))
        log.add(f"Each railroad starts with {money(0)} and a level 1 engine. "
                f"{self.map.end_markers[n]} empty-city markers end the game.", "setup",
                needed=self.map.end_markers[n], rule=R.SETUP)
        self._begin_turn(state, log, opener=0)
        return state

    def _draw(self, state: RotwState, count: int) -> dict[str, int]:
        drawn: dict[str, int] = {}
        for _ in range(count):
            if sum(state.bag.values()) == 0:
                break
            colour = state.chance.pick_weighted({c: k for c, k in state.bag.items() if k > 0})
            state.bag[colour] -= 1
            drawn[colour] = drawn.get(colour, 0) + 1
        return {c: drawn[c] for c in CUBE_COLOURS if c in drawn}

    def markers_needed(self, state: RotwState) -> int:
        return self.map.end_markers[len(state.players)]

    # ------------------------------------------------------------ options
    @staticmethod
    def _option(state: RotwState, name: str) -> bool:
        return state.options.get(name, False)

    # ------------------------------------------------------------ whose move
    def to_move(self, state: RotwState) -> int | None:
        return None if state.step is Step.OVER else state.to_act()

    def turn_of(self, state: RotwState) -> int:
        return state.turn

    # ------------------------------------------------------------ prompts
    def prompt(self, state: RotwState) -> Prompt | None:
        if state.step is Step.OVER:
            return None
        seat = state.to_act()
        name = self._name(state, seat)
        p = state.players[seat]
        if state.step is Step.AUCTION:
            auction = state.auction
            assert auction is not None
            low = max(MIN_BID, auction.high_bid + BID_STEP)
            high = f"high bid {money(auction.high_bid)} by {self._name(state, auction.high_seat)}" \
                if auction.high_seat is not None else "no bid yet"
            return _prompt(
                seat=seat, step="Auction",
                text=f"{name}: bid for the First Player marker ({high}) or pass for good",
                choices=[self._pass_bid_of[seat]],
                amount=_bid_amount(low),
                help=f"You have {money(p.cash)}; bonds of {money(BOND)} are issued at the end "
                     "if the winner cannot pay. Higher bids than those listed may be typed.",
            )
        where = f"Turn {state.turn}, round {state.round} of {ROUNDS}"
        if state.step is Step.ACTION:
            return _prompt(seat=seat, step=where,
                          text=f"{name}: build track, urbanize, upgrade the engine or deliver a cube",
                          choices=self.action_choices(state, seat),
                          help="One action per round; bonds are issued when money runs short.")
        if state.step is Step.BUILD:
            b = state.building
            assert b is not None
            choices: list[Any] | Choices
            if b.link is None:
                choices = self._new_build_choices(state, seat)
            else:
                choices = self.track_choices(state, seat)
                choices.append(self._end_build_of[seat] if b.laid else self._cancel_of[seat])
            return _prompt(seat=seat, step=where,
                          text=f"{name}: lay track ({b.laid}/{MAX_TILES} tiles, {money(b.cost)})",
                          choices=choices,
                          help="Open $2,000, water $3,000, mountain $4,000, each ridge crossed "
                               "$4,000 more. Reaching a city completes the link.")
        if state.step is Step.URBANIZE:
            return _prompt(seat=seat, step=where,
                          text=f"{name}: urbanize a gray city for {money(URBANIZE_COST)}",
                          choices=[*self.urbanize_choices(state, seat), self._cancel_of[seat]])
        return _prompt(seat=seat, step=where,
                      text=f"{name}: deliver a goods cube (engine level {p.engine})",
                      choices=[*self.deliveries(state, seat), self._cancel_of[seat]])

    def action_choices(self, state: RotwState, seat: int) -> list[Any]:
        p = state.players[seat]
        out: list[Any] = []
        if self.track_choices(state, seat, first_only=True):
            out.append(self._choose_of[seat]["build"])
        if self._can_urbanize(state):
            out.append(self._choose_of[seat]["urbanize"])
        if p.engine < MAX_ENGINE:
            out.append(self._listed_upgrade(seat, p.engine + 1))
        if self.can_deliver(state, seat):
            out.append(self._choose_of[seat]["deliver"])
        out.append(self._pass_action_of[seat])
        return out

    # ------------------------------------------------------------ track
    def track_choices(self, state: RotwState, seat: int, first_only: bool = False) -> list[Any]:
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
        if first_only:
            if not out:
                first = self._first_open_tile(state, seat)
                if first is not None:
                    out.append(first)
            return out
        open_ = self._open_first_tiles(state)
        if open_:
            out.extend(_bits_kept(open_, self._first_tile_actions_of(seat)))
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

    def _new_build_choices(self, state: RotwState, seat: int) -> _TileChoices:
        """The choices of a build before its first tile (``track_choices`` and the
        cancel), as a ``Choices`` listing the first tiles of new links only when read."""
        head: list[Any] = []
        self._own_extensions(state, seat, head, False)
        tiles = self._first_tile_actions_of(seat)
        return _TileChoices(head, self._open_first_tiles(state), tiles,
                            self._first_tile_bits[seat], [self._cancel_of[seat]])

    def _extensions(self, state: RotwState, seat: int, link: Link, out: list[Any],
                    first_only: bool) -> None:
        """The legal tiles extending ``link`` from its open end (as ``_tile_refusal`` and
        ``_exit_refusal`` judge them, without wording the refusals)."""
        entry, h = link.tiles[-1], link.toward
        if self._terrain[h] in ("city", "partial"):
            return
        here = state.hex_links.get(h, ())
        if link.id in here or len(here) >= TRACKS_PER_HEX:
            return
        ways = self._extension_tiles.get((seat, entry, h))
        if ways is None:
            ways = self._extension_ways(seat, entry, h)
        sides = state.side_link
        start = link.start
        tiles = link.tiles
        for exit_, side, city, action in ways:
            if side in sides or city == start or exit_ in tiles:
                continue
            out.append(action)
            if first_only:
                return

    def _extension_ways(self, seat: int, entry: Hex, h: Hex
                        ) -> tuple[tuple[Hex, tuple[Hex, Hex], str | None, Any], ...]:
        """The tiles through ``h`` from ``entry`` that the board allows (see ``_extension_tiles``):
        every neighbour but ``entry`` and the partial hexes, in the board's order."""
        terrain = self._terrain
        city_at = self._city_at
        offset = self._offset
        ways = []
        for exit_ in self._board_neighbours[h]:
            if exit_ == entry or terrain[exit_] == "partial":
                continue
            city = city_at.get(exit_)
            ways.append((exit_, _side(h, exit_), None if city is None else city.id,
                         self._listed_lay_track(seat, offset[h], offset[entry], offset[exit_])))
        found = self._extension_tiles[(seat, entry, h)] = tuple(ways)
        return found

    def _tile_refusal(self, state: RotwState, seat: int, entry: Hex, h: Hex,
                      link: Link | None) -> str | None:
        """Why a tile may not go on ``h`` coming from ``entry`` (its exit aside)."""
        terrain = self._terrain[h]
        if terrain == "city":
            return f"{self.hex_name(h)} is a city; track tiles go between cities, never on them"
        if terrain == "partial":
            return f"{self.hex_name(h)} is a partial hex; no track can be built there"
        here = state.hex_links.get(h, [])
        if link is not None and link.id in here:
            return f"the link already passes through {self.hex_name(h)}"
        if len(here) >= TRACKS_PER_HEX:
            return f"{self.hex_name(h)} already holds two tracks; a third cannot cross them"
        if link is None:
            owner = state.side_link.get(side_key(entry, h))
            if owner is not None:
                return (f"track of {self._name(state, state.links[owner].owner)} already "
                        f"leaves {self.hex_name(entry)} on that side")
        return None

    def _exit_refusal(self, state: RotwState, entry: Hex, h: Hex, exit_: Hex,
                      link: Link | None) -> str | None:
        if exit_ not in self._terrain:
            return "the tile cannot point off the board"
        if exit_ == entry:
            return "a tile's two ends must be on different sides"
        if self._terrain[exit_] == "partial":
            return f"the tile cannot point into {self.hex_name(exit_)}, a partial hex"
        owner = state.side_link.get(side_key(h, exit_))
        if owner is not None:
            return (f"that side of {self.hex_name(h)} already carries track of "
                    f"{self._name(state, state.links[owner].owner)}; track is never "
                    "redirected or joined to another link")
        start = link.start if link is not None else self._city_at[entry].id \
            if entry in self._city_at else None
        city = self._city_at.get(exit_)
        if city is not None and city.id == start:
            return f"a link joins two different cities; this one started at {city.name}"
        if link is not None and exit_ in link.tiles:
            return "a link never runs back into a hex it already passes through"
        return None

    def lay_cost(self, entry: Hex, h: Hex, exit_: Hex, new_link: bool) -> tuple[int, int]:
        """(cost, ridges crossed) of a tile; a link's first tile pays for its side at the city."""
        ridges = int(self.ridge_between(h, exit_))
        if new_link:
            ridges += int(self.ridge_between(entry, h))
        return self.tile_cost(h) + RIDGE_COST * ridges, ridges

    # ------------------------------------------------------------ urbanize
    def urbanize_choices(self, state: RotwState, seat: int) -> list[Urbanize]:
        colours = [c for c in CUBE_COLOURS if state.tiles_left.get(c, 0) > 0]
        if not colours:
            return []
        make = self._listed_urbanize
        colour_now = state.colour
        return [make(seat, city, colour)
                for city in self._city_ids if colour_now[city] == GRAY for colour in colours]

    def _can_urbanize(self, state: RotwState) -> bool:
        """Whether ``urbanize_choices`` lists anything (a gray city and a New City tile left)."""
        tiles_left = state.tiles_left
        for colour in CUBE_COLOURS:
            if tiles_left.get(colour, 0) > 0:
                return GRAY in state.colour.values()
        return False

    # ------------------------------------------------------------ deliveries
    def network(self, state: RotwState) -> dict[str, list[tuple[str, str]]]:
        """City -> (link id, city at its other end) for every complete link.

        Worked out once for the links as they are and kept on the state (callers
        only read it): a link never changes its start or owner and gets its end
        once, and no number is given to two links, so the numbers and ends of the
        complete links say whether the network has changed since.
        """
        return self._network(state)[0]

    def _network(self, state: RotwState) -> tuple[dict[str, list[tuple[str, str]]],
                                                 dict[int, dict[str, None]]]:
        """``network`` and, per seat, the cities its own complete links leave from."""
        links = state.links
        ends = tuple(map(_END_OF, links.values()))
        key = (tuple(compress(links, ends)), tuple(filter(None, ends)))
        known = state.known.get("network")
        if known is not None and known[0] == key:
            return known[1]
        out: dict[str, list[tuple[str, str]]] = {}
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
            # same, and so is what was worked out from it (see ``_routes_from``).
            state.known["network"] = (key, known[1])
            return known[1]
        state.known["network"] = (key, (out, own))
        return out, own

    def deliveries(self, state: RotwState, seat: int, first_only: bool = False) -> list[Deliver]:
        """Every legal delivery: each cube colour in each city, along each legal route
        (``first_only``: just one, if there is any, looking only at the seat's cities).

        Listed by city (in the board's order), then colour, then route (a walk along
        the network, depth first). The routes from a city depend on the links, the
        cities' colours, the seat and its engine, not on the cubes: they are kept
        until one of those changes (see ``_routes_from``).
        """
        net, own = self._network(state)
        mine = own.get(seat)
        if not mine:
            return []  # every route starts along one of the seat's own links
        engine = state.players[seat].engine
        out: list[Deliver] = []
        make = self._listed_deliver
        table = self._routes_table(state, net)
        cubes = state.cubes
        # For whether there is any, the seat's own cities (few) are enough.
        cities = (c for c in mine if cubes.get(c)) if first_only else (
            c for c, here in cubes.items() if here and c in mine)
        for city in cities:
            here = cubes[city]
            found = table.get((seat, engine, city))
            if found is None:
                found = self._routes_from(state, net, seat, city, engine)
            for colour, count in here.items():
                if not count:
                    continue
                for route in found[colour]:
                    out.append(make(seat, city, colour, route))
                    if first_only:
                        return out
        return out

    def can_deliver(self, state: RotwState, seat: int) -> bool:
        """Whether ``deliveries`` lists anything for ``seat``: some cube in one of its
        cities is no more links from a city of its colour than its engine carries.

        The fewest links from a city to each colour (see ``_nearest``) are kept with
        the network, so this is a few lookups: it is asked at every action choice.
        """
        net, own = self._network(state)
        mine = own.get(seat)
        if not mine:
            return False
        engine = state.players[seat].engine
        cubes = state.cubes
        table = self._nearest_table(state, net)
        for city in mine:
            here = cubes.get(city)
            if not here:
                continue
            nearest = table.get((seat, city))
            if nearest is None:
                nearest = table[(seat, city)] = self._nearest(state, net, seat, city)
            for colour, count in here.items():
                if count and nearest.get(colour, engine + 1) <= engine:
                    return True
        return False

    @staticmethod
    def _nearest(state: RotwState, net: dict[str, list[tuple[str, str]]], seat: int,
                 origin: str) -> dict[str, int]:
        """Colour -> the fewest links a cube leaving ``origin`` along one of ``seat``'s
        own links crosses to a city of that colour, never passing ``origin`` again
        (up to ``MAX_ENGINE``).

        A cube of that colour has a route (as ``_routes_from`` finds them) just when
        this is at most the engine's level: the shortest way to the nearest city of
        its colour passes no city twice and no other city of its colour (that one
        would be nearer), and any route is at least that long.
        """
        links = state.links
        colour_of = state.colour
        nearest: dict[str, int] = {}
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
                if colour not in nearest:
                    nearest[colour] = distance
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
        return nearest

    @staticmethod
    def _nearest_table(state: RotwState, net: dict[str, list[tuple[str, str]]]
                       ) -> dict[tuple[int, str], dict[str, int]]:
        """(seat, city) -> ``_nearest``, as kept on the state for ``net`` and the
        cities' colours now."""
        return _kept_with_network(state, "nearest", net)

    def _routes_from(self, state: RotwState, net: dict[str, list[tuple[str, str]]], seat: int,
                     origin: str, engine: int) -> dict[str, list[tuple[str, ...]]]:
        """Colour -> the routes (link ids) a cube of that colour may take from ``origin``,
        in the order a depth-first walk along ``net`` (``network(state)``) finds them.

        One walk finds them for every colour: a route ends at the first city of its
        cube's colour, and the walk goes on beyond it for the other colours. Kept on
        the state with the network and the cities' colours they were found with.
        """
        table = self._routes_table(state, net)
        found = table.get((seat, engine, origin))
        if found is not None:
            return found
        links = state.links
        if not any(links[k].owner == seat for k, _ in net.get(origin, ())):
            # Every route starts along one of the seat's own links.
            table[(seat, engine, origin)] = _NO_ROUTES
            return _NO_ROUTES
        for bigger in range(MAX_ENGINE, engine, -1):
            longer = table.get((seat, bigger, origin))
            if longer is not None:
                # The walk for a bigger engine finds the same routes, and longer ones too.
                found = {c: [r for r in routes if len(r) <= engine] for c, routes in longer.items()}
                table[(seat, engine, origin)] = found
                return found
        found = {c: [] for c in CUBE_COLOURS}
        _walk_routes(net, links, state.colour, seat, engine, found, {origin}, [], origin,
                     CUBE_COLOURS)
        table[(seat, engine, origin)] = found
        return found

    @staticmethod
    def _routes_table(state: RotwState, net: dict[str, list[tuple[str, str]]]
                      ) -> dict[tuple[int, int, str], dict[str, list[tuple[str, ...]]]]:
        """(seat, engine, city) -> the routes from that city (see ``_routes_from``), as
        kept on the state for ``net`` and the cities' colours now."""
        return _kept_with_network(state, "routes", net)

    def _routes(self, state: RotwState, net: dict[str, list[tuple[str, str]]], seat: int,
                origin: str, colour: str, engine: int) -> list[list[str]]:
        """The routes (link ids) a ``colour`` cube may take from ``origin``, for ``seat``
        with an ``engine``: the first link its own, no city twice, ending at the first
        city of the cube's colour, at most ``engine`` links long."""
        return [list(route) for route in self._routes_from(state, net, seat, origin, engine)[colour]]

    def delivery_refusal(self, state: RotwState, a: Deliver) -> str | None:
        seat = a.seat
        here = state.cubes[a.city]
        if not here.get(a.colour):
            return f"there is no {a.colour} cube in {self.city_name(a.city)}"
        engine = state.players[seat].engine
        city = a.city
        seen = {city}
        for i, link_id in enumerate(a.links):
            link = state.links.get(link_id)
            if link is None:
                return f"there is no link {link_id}"
            if link.end is None:
                return f"link {link_id} is incomplete; cubes travel only along complete links"
            if city not in (link.start, link.end):
                return f"link {link_id} does not leave {self.city_name(city)}"
            if i == 0 and link.owner != seat:
                return (f"the first link of a delivery must be your own; {link_id} belongs to "
                        f"{self._name(state, link.owner)}")
            if link_id in a.links[:i]:
                return f"the cube cannot travel along link {link_id} twice"
            there = link.end if city == link.start else link.start
            if there in seen:
                return f"the cube cannot pass through {self.city_name(there)} twice"
            seen.add(there)
            if state.colour[there] == a.colour and i < len(a.links) - 1:
                return (f"a {a.colour} cube must stop at {self.city_name(there)}, the first "
                        f"{a.colour} city on its way")
            city = there
        if state.colour[city] != a.colour:
            return f"{self.city_name(city)} is not a {a.colour} city"
        if len(a.links) > engine:
            return (f"an engine of level {engine} carries a cube at most "
                    f"{plural(engine, 'link')}, not {len(a.links)}")
        return None

    # ------------------------------------------------------------ validation
    def _hex(self, offset: tuple[int, int]) -> Hex:
        h = self._hex_at.get((offset[0], offset[1]))
        if h is None:
            raise MalformedAction(f"there is no hex {offset[0]},{offset[1]} on this map")
        return h

    def parse_action(self, raw: Any, *, recorded: bool = False) -> Any:
        """The kernel's reading of an action, except that a choice these rules listed
        (the very object) is taken as it is: it was made from the rules' own values."""
        store = self._stores.get(type(raw))
        if store is not None and (store.made(raw) or (store is self._lay_store
                                                      and self._first_tiles.made(raw))):
            return raw
        return super().parse_action(raw, recorded=recorded)

    def check_references(self, action: Any) -> None:
        if isinstance(action, LayTrack):
            for off in (action.hex, action.entry):
                self._hex(off)
        elif isinstance(action, (Urbanize, Deliver)):
            if action.city not in self.map.city_by_id:
                raise MalformedAction(f"there is no city '{action.city}' on this map")
            if action.colour not in CUBE_COLOURS:
                raise MalformedAction(f"'{action.colour}' is not a colour of the game "
                                      f"({', '.join(CUBE_COLOURS)})")

    def validate(self, state: RotwState, action: Any) -> None:
        reason = self._refusal(state, action)
        if reason is not None:
            raise IllegalAction(reason)

    def _refusal(self, state: RotwState, a: Any) -> str | None:
        step = state.step
        if isinstance(a, (Bid, PassBid)):
            if step is not Step.AUCTION:
                return "there is no auction under way"
            if isinstance(a, Bid):
                auction = state.auction
                assert auction is not None
                low = max(MIN_BID, auction.high_bid + BID_STEP)
                if a.amount < low:
                    return f"a bid must be at least {money(low)}"
                if a.amount % BID_STEP:
                    return f"bids are in whole thousands of dollars, not {money(a.amount)}"
                if a.amount > MAX_BID:
                    return (f"bids stop at {money(MAX_BID)}: the bonds to pay more would cost "
                            "far more points than anyone can score")
            return None
        if step is Step.AUCTION:
            return "the auction for the First Player marker comes first: bid or pass"
        if isinstance(a, (Choose, UpgradeEngine, PassAction)):
            if step is not Step.ACTION:
                return "an action is already under way; finish it (or cancel it) first"
            if isinstance(a, UpgradeEngine):
                engine = state.players[a.seat].engine
                if engine >= MAX_ENGINE:
                    return f"your engine is already at the top level, {MAX_ENGINE}"
                if a.level != engine + 1:
                    return (f"an upgrade raises the engine one level at a time: from {engine} "
                            f"to {engine + 1}, not {a.level}")
            if isinstance(a, Choose):
                seat = a.seat
                if a.action == "build" and not self.track_choices(state, seat, first_only=True):
                    return "there is nowhere to build track"
                if a.action == "urbanize" and not self._can_urbanize(state):
                    return "there is no gray city or New City tile left to urbanize with"
                if a.action == "deliver" and not self.can_deliver(state, seat):
                    return "no goods cube can be delivered along your links now"
            return None
        if isinstance(a, Cancel):
            if step is Step.BUILD and state.building is not None and state.building.laid == 0:
                return None
            if step in (Step.URBANIZE, Step.DELIVER):
                return None
            if step is Step.BUILD:
                return "track has been laid in this build; end the build instead"
            return "there is nothing to cancel"
        if isinstance(a, (LayTrack, EndBuild)):
            if step is not Step.BUILD:
                return "choose to build track first"
            b = state.building
            assert b is not None
            if isinstance(a, EndBuild):
                return None if b.laid else "lay at least one tile, or cancel the build"
            return self._lay_refusal(state, a)
        if isinstance(a, Urbanize):
            if step is not Step.URBANIZE:
                return "choose to urbanize first"
            city = self.map.city_by_id[a.city]
            if state.colour[a.city] != GRAY:
                return f"{city.name} is not a gray city; only gray cities can be urbanized"
            if state.tiles_left.get(a.colour, 0) <= 0:
                left = [c for c in CUBE_COLOURS if state.tiles_left.get(c, 0) > 0]
                return (f"no {a.colour} New City tile is left"
                        + (f" (left: {', '.join(left)})" if left else ""))
            return None
        if isinstance(a, Deliver):
            if step is not Step.DELIVER:
                return "choose to deliver a goods cube first"
            return self.delivery_refusal(state, a)
        return f"unknown action {a!r}"  # pragma: no cover - the union is closed

    def _lay_refusal(self, state: RotwState, a: LayTrack) -> str | None:
        b = state.building
        assert b is not None
        seat = a.seat
        h, entry = self._hex(a.hex), self._hex(a.entry)
        exit_ = self._hex_at.get((a.exit[0], a.exit[1]))
        if not are_adjacent(entry, h) or (exit_ is not None and not are_adjacent(h, exit_)):
            return "a tile's entry and exit must be hexes next to it"
        if exit_ is None:
            return "the tile cannot point off the board"
        if self._terrain[h] in ("city", "partial"):
            return self._tile_refusal(state, seat, entry, h, None)
        link: Link | None = None
        if b.link is not None:
            link = state.links[b.link]
            if b.laid >= MAX_TILES:
                return f"a build lays at most {MAX_TILES} tiles; end the build"
            if entry != link.tiles[-1] or h != link.toward:
                return (f"each tile must extend the link being built, from its open end at "
                        f"{self.hex_name(link.tiles[-1])} into {self.hex_name(link.toward)}")
        elif entry in self._city_at:
            link = None
        else:
            owned = [k for k in state.links.values() if not k.complete and k.tiles[-1] == entry]
            if not owned:
                return (f"track must start at a city or at the open end of your own "
                        f"incomplete link; {self.hex_name(entry)} is neither")
            link = owned[0]
            if link.owner != seat:
                return (f"that incomplete link belongs to {self._name(state, link.owner)}; "
                        "you can extend only your own")
            if h != link.toward:
                return (f"the link's open end at {self.hex_name(entry)} points into "
                        f"{self.hex_name(link.toward)}, not {self.hex_name(h)}")
        reason = self._tile_refusal(state, seat, entry, h, link)
        if reason is not None:
            return reason
        return self._exit_refusal(state, entry, h, exit_, link)

    # ------------------------------------------------------------ money
    def pay(self, state: RotwState, seat: int, amount: int, log: EventLog, what: str) -> int:
        """Take ``amount`` from ``seat``, issuing just the bonds needed; returns bonds issued."""
        p = state.players[seat]
        issued = 0
        if p.cash < amount:
            issued = -(-(amount - p.cash) // BOND)
            self._issue(state, seat, issued, log, what)
        p.cash -= amount
        p.spent += amount
        return issued

    def _issue(self, state: RotwState, seat: int, count: int, log: EventLog, what: str) -> None:
        p = state.players[seat]
        p.bonds += count
        p.cash += count * BOND
        log.add(f"{p.name} issues {plural(count, 'bond')} ({money(count * BOND)}) to pay for "
                f"{what}; {plural(p.bonds, 'bond')} in all.", "bonds", rule=R.BONDS, seat=seat, count=count,
                bonds=p.bonds)

    def bonds_needed(self, state: RotwState, seat: int, amount: int) -> int:
        """The bonds a payment of ``amount`` would issue (shown before confirming)."""
        short = amount - state.players[seat].cash
        return max(0, -(-short // BOND))

    # ------------------------------------------------------------ execution
    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        # One method for each kind of action, found by its class (the actions are the
        # union's own classes, none a subclass of another).
        self._executors[type(action)](state, action, log)

    def _bid(self, state: RotwState, action: Bid, log: EventLog) -> None:
        seat = action.seat
        auction = state.auction
        assert auction is not None
        auction.high_bid, auction.high_seat = action.amount, seat
        auction.bids[seat] = action.amount
        log.add(f"{self._name(state, seat)} bids {money(action.amount)}.", "bid", rule=R.AUCTION,
                seat=seat, amount=action.amount)
        auction.to_act = (auction.to_act + 1) % len(auction.bidders)
        self._auction_next(state, log)

    def _pass_bid(self, state: RotwState, action: PassBid, log: EventLog) -> None:
        seat = action.seat
        auction = state.auction
        assert auction is not None
        log.add(f"{self._name(state, seat)} passes.", "pass_bid", rule=R.AUCTION, seat=seat)
        index = auction.bidders.index(seat)
        auction.bidders.remove(seat)
        auction.dropped.append(seat)
        if auction.bidders:
            auction.to_act = index % len(auction.bidders)
        self._auction_next(state, log)

    def _choose(self, state: RotwState, action: Choose, log: EventLog) -> None:
        if action.action == "build":
            state.step = Step.BUILD
            state.building = Building()
        elif action.action == "urbanize":
            state.step = Step.URBANIZE
        else:
            state.step = Step.DELIVER

    def _cancel(self, state: RotwState, action: Cancel, log: EventLog) -> None:
        state.step = Step.ACTION
        state.building = None

    def _pass_action(self, state: RotwState, action: PassAction, log: EventLog) -> None:
        seat = action.seat
        log.add(f"{self._name(state, seat)} passes this round.", "pass_action", rule=R.PASS,
                seat=seat)
        self._next_player(state, log)

    def _upgrade(self, state: RotwState, action: UpgradeEngine, log: EventLog) -> None:
        seat = action.seat
        cost = self.map.engine_costs[action.level]
        self.pay(state, seat, cost, log, f"a level {action.level} engine")
        state.players[seat].engine = action.level
        log.add(f"{self._name(state, seat)} upgrades to a level {action.level} engine for "
                f"{money(cost)}.", "upgrade", rule=R.ENGINE, seat=seat, level=action.level,
                cost=cost)
        self._next_player(state, log)

    def _urbanize_then_next(self, state: RotwState, action: Urbanize, log: EventLog) -> None:
        self._urbanize(state, action, log)
        self._next_player(state, log)

    def _end_build(self, state: RotwState, action: EndBuild, log: EventLog) -> None:
        seat = action.seat
        b = state.building
        assert b is not None and b.link is not None
        link = state.links[b.link]
        log.add(f"{self._name(state, seat)} ends the build: link {link.id} from "
                f"{self.city_name(link.start)} is incomplete "
                f"({plural(len(link.tiles), 'tile')}).", "end_build", rule=R.BUILD, seat=seat,
                link=link.id)
        self._finish_build(state, log)

    def _deliver_then_next(self, state: RotwState, action: Deliver, log: EventLog) -> None:
        self._deliver(state, action, log)
        self._next_player(state, log)

    def _lay(self, state: RotwState, a: LayTrack, log: EventLog) -> None:
        seat = a.seat
        b = state.building
        assert b is not None
        h, entry = self._hex(a.hex), self._hex(a.entry)
        exit_ = self._hex(a.exit)
        link: Link | None
        new_link = False
        if b.link is not None:
            link = state.links[b.link]
        elif entry in self._city_at:
            link = None
            new_link = True
        else:
            link = next(k for k in state.links.values() if not k.complete and k.tiles[-1] == entry
                        and k.owner == seat)
        # As ``lay_cost``, the hexes being neighbours (the action was checked).
        exit_side = _side(h, exit_)
        ridges = int(exit_side in self._ridges)
        if new_link:
            ridges += _side(entry, h) in self._ridges
        terrain = self._terrain[h]
        cost = TERRAIN_COST[terrain] + RIDGE_COST * ridges
        issued = self.pay(state, seat, cost, log, "track")
        if link is None:
            link = Link(id=f"L{state.next_link}", owner=seat, start=self._city_at[entry].id,
                        tiles=[], toward=h)
            state.next_link += 1
            state.links[link.id] = link
            state.side_link[_side(entry, h)] = link.id
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
        crossing = " (a crossing)" if len(here) > 1 else ""
        if ridges or crossing:
            rules: tuple[str, ...] = (R.BUILD, *((R.RIDGE,) if ridges else ()),
                                      *((R.CROSSING,) if crossing else ()))
            ridge_text = f", {plural(ridges, 'ridge')}" if ridges else ""
        else:
            rules, ridge_text = _BUILD_RULES, ""
        log.add(f"{state.players[seat].name} lays track on {self.hex_name(h)}{crossing} for "
                f"{money(cost)} ({terrain}{ridge_text}).", "lay_track", rule=rules, seat=seat,
                link=link_id, hex=list(self._offset[h]), cost=cost, ridges=ridges, bonds=issued)
        city = self._city_at.get(exit_)
        if city is not None:
            link.end = city.id
            log.add(f"Link {link.id} of {self._name(state, seat)} is complete: "
                    f"{self.city_name(link.start)} to {city.name}, "
                    f"{plural(len(link.tiles), 'tile')}.", "link_complete", rule=R.LINK, seat=seat,
                    link=link.id, start=link.start, end=city.id, tiles=len(link.tiles))
            self._finish_build(state, log)

    def _finish_build(self, state: RotwState, log: EventLog) -> None:
        state.building = None
        self._next_player(state, log)

    def _urbanize(self, state: RotwState, a: Urbanize, log: EventLog) -> None:
        seat = a.seat
        city = self.map.city_by_id[a.city]
        self.pay(state, seat, URBANIZE_COST, log, "urbanizing")
        state.tiles_left[a.colour] -= 1
        state.colour[a.city] = a.colour
        state.urbanized[a.city] = a.colour
        removed = a.city in state.markers
        if removed:
            state.markers.remove(a.city)
        drawn = self._draw(state, 2)
        here = state.cubes[a.city]
        for colour, k in drawn.items():
            here[colour] = here.get(colour, 0) + k
        state.cubes[a.city] = {c: here[c] for c in CUBE_COLOURS if here.get(c)}
        cubes = ", ".join(f"{k} {c}" for c, k in drawn.items()) or "nothing (the bag is empty)"
        log.add(f"{self._name(state, seat)} urbanizes {city.name} with a {a.colour} New City tile "
                f"for {money(URBANIZE_COST)}; drawn from the bag: {cubes}"
                f"{'; its empty-city marker is removed' if removed else ''}.", "urbanize",
                chance=True, rule=R.URBANIZE, seat=seat, city=a.city, colour=a.colour, drawn=drawn,
                marker_removed=removed)

    def _deliver(self, state: RotwState, a: Deliver, log: EventLog) -> None:
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
        earn = ", ".join(f"{self._name(state, s)} +{k}" for s, k in sorted(gains.items()))
        log.add(f"{self._name(state, seat)} delivers a {a.colour} cube from "
                f"{self.city_name(a.city)} to {self.city_name(city)} over "
                f"{plural(len(a.links), 'link')} (income: {earn}).", "deliver", rule=R.DELIVER, seat=seat,
                city=a.city, to=city, colour=a.colour, links=list(a.links),
                gains={str(s): k for s, k in gains.items()})
        if not here:
            state.markers.append(a.city)
            needed = self.markers_needed(state)
            log.add(f"{self.city_name(a.city)} is empty: an empty-city marker is placed "
                    f"({len(state.markers)} of {needed}).", "empty_city", rule=R.EMPTY_CITY, city=a.city,
                    placed=len(state.markers), needed=needed)
            if state.end_turn is None and len(state.markers) >= needed:
                state.end_turn = state.turn + 1
                log.add(f"The last empty-city marker needed is placed: this turn is finished, "
                        f"then turn {state.end_turn} is the last.", "end_triggered", rule=R.END_TRIGGER,
                        last_turn=state.end_turn)

    # ------------------------------------------------------------ the flow of a turn
    def _begin_turn(self, state: RotwState, log: EventLog, opener: int) -> None:
        n = len(state.players)
        log.add(f"Turn {state.turn} begins.", "turn", rule=R.TURN_START, turn=state.turn)
        if state.turn == 1 and self._option(state, "first_turn_fixed"):
            # Variant: no auction on the first turn; later seats are paid for waiting.
            state.first = 0
            state.order = list(range(n))
            for place, seat in enumerate(state.order[1:], start=1):
                p = state.players[seat]
                p.cash += place * 1000
                p.earned += place * 1000
                log.add(f"{p.name} plays in place {place + 1} and receives {money(place * 1000)}.",
                        "place_money", rule=R.FIRST_TURN_FIXED, seat=seat,
                        amount=place * 1000)
            self._start_actions(state, log)
            return
        bidders = [(opener + i) % n for i in range(n)]
        state.auction = Auction(bidders=bidders, to_act=0)
        state.step = Step.AUCTION
        state.opener = opener

    def _auction_next(self, state: RotwState, log: EventLog) -> None:
        auction = state.auction
        assert auction is not None
        left = auction.bidders
        if left and not (len(left) == 1 and auction.high_seat == left[0]):
            return
        n = len(state.players)
        half = self._option(state, "pass_pays_half")
        if auction.high_seat is not None:
            first = auction.high_seat
            self.pay(state, first, auction.high_bid, log, "the First Player marker")
            log.add(f"{self._name(state, first)} wins the auction and pays "
                    f"{money(auction.high_bid)}.", "auction_won", rule=R.AUCTION, seat=first,
                    amount=auction.high_bid)
        else:
            opener = state.opener
            first = (opener + 1) % n if not half else auction.dropped[-1]
            previous = opener
            log.add(f"Everyone passes: {self._name(state, first)} takes the First Player marker"
                    + ("" if half else f" (left of {self._name(state, previous)})") + ".",
                    "auction_all_pass", rule=R.ALL_PASS, seat=first)
        if half:
            # Variant: each player who drops out pays half their bid; order is the reverse
            # of dropping out, after the winner.
            for seat in auction.dropped:
                owe = -(-auction.bids.get(seat, 0) // 2000) * 1000
                if owe:
                    self.pay(state, seat, owe, log, "a dropped bid")
                    log.add(f"{self._name(state, seat)} pays {money(owe)}, half the last bid.",
                            "half_bid", rule=R.PASS_PAYS_HALF, seat=seat, amount=owe)
            order = [first] + [s for s in reversed(auction.dropped) if s != first]
        else:
            order = [(first + i) % n for i in range(n)]
        state.first = first
        state.order = order
        state.auction = None
        log.add("Order of play: " + ", ".join(self._name(state, s) for s in order) + ".",
                "order", rule=R.ORDER, order=order)
        self._start_actions(state, log)

    def _start_actions(self, state: RotwState, log: EventLog) -> None:
        state.step = Step.ACTION
        state.round = 1
        state.cursor = 0

    def _next_player(self, state: RotwState, log: EventLog) -> None:
        state.step = Step.ACTION
        state.building = None
        state.cursor += 1
        if state.cursor < len(state.order):
            return
        state.cursor = 0
        if state.round < ROUNDS:
            state.round += 1
            return
        self._income_phase(state, log)

    def _income_phase(self, state: RotwState, log: EventLog) -> None:
        for seat, p in enumerate(state.players):
            pay = self.map.income_for(p.income)
            p.cash += pay
            p.earned += pay
            owe = p.bonds * INTEREST
            text = f"{p.name} collects {money(pay)} (income space {p.income})"
            if owe:
                issued = self.pay(state, seat, owe, log, "bond interest")
                text += f" and pays {money(owe)} interest on {plural(p.bonds - issued, 'bond')}"
            log.add(text + ".", "income", rule=(R.INCOME, R.INTEREST) if owe else R.INCOME,
                    seat=seat, income=pay, interest=owe)
        removed = [k for k in state.links.values() if not k.complete]
        if removed:
            self._remove_links(state, removed)
            log.add("Incomplete links are removed: "
                    + ", ".join(f"{k.id} of {self._name(state, k.owner)}" for k in removed) + ".",
                    "links_removed", rule=R.REMOVE, links=[k.id for k in removed])
        if state.end_turn is not None and state.turn >= state.end_turn:
            self._end_game(state, log)
            return
        state.turn += 1
        self._begin_turn(state, log, opener=state.first)

    def _remove_links(self, state: RotwState, links: list[Link]) -> None:
        """Take ``links`` off the board: their sides, their tracks in each hex, themselves."""
        ids = {link.id for link in links}
        sides = state.side_link
        for key in [k for k, v in sides.items() if v in ids]:
            del sides[key]
        for link in links:
            for h in link.tiles:
                here = state.hex_links[h]
                here.remove(link.id)
                if not here:
                    del state.hex_links[h]
            del state.links[link.id]

    # ------------------------------------------------------------ the end
    def score_of(self, state: RotwState, seat: int) -> dict[str, int]:
        p = state.players[seat]
        return {"income": p.income, "bonds": -p.bonds, "total": p.income - p.bonds,
                "links": len(state.links_of(seat)), "cash": p.cash}

    def _end_game(self, state: RotwState, log: EventLog) -> None:
        state.step = Step.OVER
        state.final = {p.name: self.score_of(state, s) for s, p in enumerate(state.players)}
        for name, parts in state.final.items():
            log.add(f"{name}: income space {parts['income']}, {plural(-parts['bonds'], 'bond')}: "
                    f"{parts['total']} points ({plural(parts['links'], 'link')}, "
                    f"{money(parts['cash'])}).", "final_score", rule=R.FINAL, player=name,
                    parts=dict(parts))
        result = self.result(state)
        assert result is not None
        log.add(result.summary(), "game_over", rule=R.FINAL)

    def result(self, state: RotwState) -> Result | None:
        if state.final is None:
            return None
        final = state.final
        key = {n: (v["total"], v["links"], v["cash"]) for n, v in final.items()}
        best = max(key.values())
        return Result(scores={n: v["total"] for n, v in final.items()},
                      winners=[n for n, k in key.items() if k == best], breakdown=final)


def _only_added(before: tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, ...]],
                now: tuple[tuple[Any, ...], tuple[Any, ...], tuple[int, ...]]) -> bool:
    """Whether the track ``now`` (sides taken, hexes with track, tracks in each) is the
    track ``before`` with more added: every side still taken, in the same order, and
    every hex with track still there with at least as many tracks."""
    sides, hexes, counts = before
    return (now[0][:len(sides)] == sides and now[1][:len(hexes)] == hexes
            and all(map(le, counts, now[2])))


# (colours, one of them) -> the others, in order: the walk of the routes asks again and again.
_WITHOUT: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}


def _without(colours: tuple[str, ...], colour: str) -> tuple[str, ...]:
    others = _WITHOUT[(colours, colour)] = tuple(c for c in colours if c != colour)
    return others


def _walk_routes(net: dict[str, list[tuple[str, str]]], links: dict[str, Link],
                 colour_of: dict[str, str], seat: int, engine: int,
                 found: dict[str, list[tuple[str, ...]]], seen: set[str], route: list[str],
                 city: str, moving: tuple[str, ...]) -> None:
    """The walk of ``_routes_from``, from ``city`` with cubes of the ``moving`` colours
    still on their way. (A function of the module, not a nested one calling itself:
    that would be a reference cycle for the collector to find after every walk.)"""
    for link_id, there in net.get(city, ()):
        if there in seen or link_id in route:
            continue
        if not route and links[link_id].owner != seat:
            continue
        route.append(link_id)
        here = colour_of[there]
        onward = moving
        if here in moving:
            # The cube of that colour must stop at the first city of its colour.
            found[here].append(tuple(route))
            onward = _WITHOUT.get((moving, here)) or _without(moving, here)
        if onward and len(route) < engine:
            seen.add(there)
            _walk_routes(net, links, colour_of, seat, engine, found, seen, route, there, onward)
            seen.discard(there)
        route.pop()
