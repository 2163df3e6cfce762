"""Railways of the World game state (internal; never saved: replay rebuilds it).

Everything is public: cash, bonds, income, engines, cubes in cities and the
bag's counts are all on the table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from railgames.core.events import Event
from railgames.core.hexgrid import Hex
from railgames.core.rng import Chance


class Step(StrEnum):
    AUCTION = "auction"  # bidding for the First Player marker
    ACTION = "action"  # the player to move picks this round's action
    BUILD = "build"  # building track: lay tiles one by one, then end the build
    URBANIZE = "urbanize"  # urbanizing: pick the gray city and the New City tile
    DELIVER = "deliver"  # delivering: pick the cube and its route
    OVER = "over"


@dataclass
class Railroad:
    """One player: money, bonds, income track space and engine."""

    name: str
    cash: int = 0
    bonds: int = 0
    income: int = 0  # space on the income track
    engine: int = 1
    earned: int = 0  # income and auction payments received from the bank
    spent: int = 0  # paid to the bank: track, urbanizing, engines, bids, interest


@dataclass
class Link:
    """Track built by one player from a city: complete once it reaches a second city.

    ``tiles`` are the hexes with track, in order from ``start``. ``toward`` is
    the hex the last tile's far end faces: the end city once complete, else
    the hex where the link could be extended.
    """

    id: str
    owner: int
    start: str
    tiles: list[Hex]
    toward: Hex
    end: str | None = None

    @property
    def complete(self) -> bool:
        return self.end is not None


@dataclass
class Building:
    """The build under way in this action."""

    link: str | None = None  # the link being built (None before the first tile)
    laid: int = 0  # tiles laid in this action
    cost: int = 0  # what they cost, ridges included


@dataclass
class Auction:
    bidders: list[int]  # seats still in, clockwise from the opener
    to_act: int  # index into ``bidders``
    high_bid: int = 0
    high_seat: int | None = None
    bids: dict[int, int] = field(default_factory=dict)  # each seat's highest bid so far
    dropped: list[int] = field(default_factory=list)  # seats in the order they passed


@dataclass
class RotwState:
    players: list[Railroad]
    cubes: dict[str, dict[str, int]]  # city -> colour -> goods cubes there
    bag: dict[str, int]  # goods cubes in the bag, by colour
    colour: dict[str, str]  # city -> its colour now (gray until urbanized)
    tiles_left: dict[str, int]  # New City tiles left, by colour
    turn: int
    step: Step
    first: int  # seat holding the First Player marker
    order: list[int] = field(default_factory=list)  # this turn's order of play
    round: int = 1  # action round, 1 to 3
    cursor: int = 0  # index in ``order`` of the player to act
    auction: Auction | None = None
    building: Building | None = None
    links: dict[str, Link] = field(default_factory=dict)
    next_link: int = 1
    side_link: dict[tuple[Hex, Hex], str] = field(default_factory=dict)  # hex side -> link on it
    hex_links: dict[Hex, list[str]] = field(default_factory=dict)  # hex -> links with track there
    markers: list[str] = field(default_factory=list)  # cities with an empty-city marker
    delivered: dict[str, int] = field(default_factory=dict)  # cubes delivered, by colour
    urbanized: dict[str, str] = field(default_factory=dict)  # city -> New City tile placed
    end_turn: int | None = None  # the last turn, once the end is triggered
    opener: int = 0  # who opened this turn's auction (the previous First Player)
    options: dict[str, bool] = field(default_factory=dict)  # the auction variants chosen
    rules_edition: int = 2  # the edition of the rules the game is played under (Ruleset.edition)
    chance: Chance = field(default_factory=lambda: Chance(0))
    log: list[Event] = field(default_factory=list)
    final: dict[str, dict[str, int]] | None = None
    # What the rules have worked out from the pieces (the network of complete
    # links), each kept with what it was worked out from: not part of the game,
    # so never compared or shown.
    known: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> RotwState:
        """A copy sharing nothing that changes, made field by field: the search copies
        states all the time, and ``copy.deepcopy``'s general walk is slow.

        What the rules worked out (``known``) is kept: it still fits the copy, and
        the rules check it against the pieces before using it.
        """
        new = object.__new__(RotwState)
        memo[id(self)] = new
        d = dict(self.__dict__)
        d["players"] = [_shallow(p) for p in self.players]
        d["cubes"] = {city: dict(here) for city, here in self.cubes.items()}
        for name in _COPIED_DICTS:
            d[name] = dict(d[name])
        d["order"] = list(self.order)
        d["markers"] = list(self.markers)
        auction = self.auction
        if auction is not None:
            a = d["auction"] = _shallow(auction)
            a.bidders = list(auction.bidders)
            a.bids = dict(auction.bids)
            a.dropped = list(auction.dropped)
        if self.building is not None:
            d["building"] = _shallow(self.building)
        links = d["links"] = {}
        for key, link in self.links.items():
            k = links[key] = _shallow(link)
            k.tiles = list(link.tiles)
        d["hex_links"] = {h: list(ids) for h, ids in self.hex_links.items()}
        if self.final is not None:
            d["final"] = {name: dict(parts) for name, parts in self.final.items()}
        d["chance"] = copy.deepcopy(self.chance, memo)
        d["log"] = copy.deepcopy(self.log, memo)
        new.__dict__.update(d)
        return new

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps (a view sent to another process): not what the rules
        worked out, which the other side works out again if it needs it."""
        return self.__dict__ | {"known": {}}

    def to_act(self) -> int:
        if self.step is Step.AUCTION:
            assert self.auction is not None
            return self.auction.bidders[self.auction.to_act]
        return self.order[self.cursor]

    def cubes_on_board(self) -> int:
        return sum(sum(here.values()) for here in self.cubes.values())

    def links_of(self, seat: int, complete_only: bool = True) -> list[Link]:
        return [k for k in self.links.values()
                if k.owner == seat and (k.complete or not complete_only)]


def _shallow(obj: Any) -> Any:
    """A new object of the same class with the same attribute values."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


# Fields of RotwState copied as one-level dicts by ``__deepcopy__`` (their values never change in place).
_COPIED_DICTS = ("bag", "colour", "tiles_left", "side_link", "delivered", "urbanized", "options",
                 "known")
# Every field's copying is decided above: a new field must be added there too.
assert {f.name for f in fields(RotwState)} == {
    *_COPIED_DICTS, "players", "cubes", "order", "markers", "auction", "building", "links",
    "hex_links", "final", "chance", "log", "turn", "step", "first", "round", "cursor",
    "next_link", "end_turn", "opener", "rules_edition"}, "RotwState.__deepcopy__ must copy every field"
