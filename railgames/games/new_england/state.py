"""New England Railways game state (internal; never saved: replay rebuilds it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from railgames.core.events import Event
from railgames.core.rng import Chance
from railgames.core.state_copy import copy_by_fields


class Step(StrEnum):
    LOANS = "loans"
    RETIRE = "retire"
    AUCTION = "auction"
    FINISH = "finish"  # the buyer decides whether to pay the build-roll shortfall
    SHIP = "ship"
    OVER = "over"


@dataclass
class Railway:
    """One player's railway company."""

    name: str
    cash: int = 10
    debt: int = 0
    income: int = 0
    links: list[str] = field(default_factory=list)
    bought_this_turn: str | None = None  # link id bought in this turn's auction


@dataclass
class Auction:
    link: str
    bidders: list[int]  # seats still in, in clockwise order from the first player
    to_act: int  # seat whose turn it is to bid or pass
    high_bid: int = 0
    high_seat: int | None = None


@dataclass
class PendingFinish:
    seat: int
    link: str
    roll: int
    shortfall: int


@dataclass
class NEState:
    railways: list[Railway]
    first: int  # seat holding the First Player card
    turn: int
    step: Step
    cup: dict[str, int]  # commodity colour -> cubes in the cup
    cubes: dict[str, dict[str, int]]  # city id -> colour -> cubes waiting there
    link_deck: list[str]  # face down, top is the end of the list
    growth_deck: list[int]  # indexes into the map's growth deck, top last
    growth_discard: list[int]
    current: list[str]  # Railway Links up for auction this turn, first slot first
    future: list[str]  # publicised for next turn
    owner: dict[str, int]  # link id -> seat of the railway that bought it
    built: set[str]
    unfinished: list[str]  # bought but not yet built
    set_aside: list[str]  # offered, unbought: never built
    pending: list[int]  # seats still to act in this step, in order
    rules_edition: int  # the edition of the rules the game is played under (Ruleset.edition)
    ship_round: int = 0
    auction_slot: int = 0  # index in ``current`` of the next link to auction
    auction: Auction | None = None
    finish: PendingFinish | None = None
    last_turn: bool = False
    chance: Chance = field(default_factory=lambda: Chance(0))
    log: list[Event] = field(default_factory=list)
    # Per turn, each seat's (income, cash) after income is paid, for charts.
    history: list[list[tuple[int, int]]] = field(default_factory=list)
    final: dict[str, dict[str, int]] | None = None

    def seat_order(self) -> list[int]:
        """Seats clockwise starting with the First Player."""
        n = len(self.railways)
        return [(self.first + i) % n for i in range(n)]

    def cube_total(self) -> int:
        return sum(self.cup.values()) + sum(sum(c.values()) for c in self.cubes.values())

    def __deepcopy__(self, memo: dict[int, Any]) -> NEState:
        """The same copy ``copy.deepcopy`` makes, made field by field: a search copies
        the state on every iteration (see core/state_copy.py)."""
        return copy_by_fields(self, memo, _COPY, _SHARED)


def _copy_railway(r: Railway) -> Railway:
    new = object.__new__(Railway)
    new.__dict__.update(r.__dict__)
    new.links = list(r.links)
    return new


def _copy_auction(a: Auction | None) -> Auction | None:
    if a is None:
        return None
    new = object.__new__(Auction)
    new.__dict__.update(a.__dict__)
    new.bidders = list(a.bidders)
    return new


# Values a copy may share: never changed in place.
_SHARED = {int, str, bool, type(None), Step}
_COPY: dict[str, Callable[[Any], Any]] = {
    "railways": lambda rs: [_copy_railway(r) for r in rs],
    "cup": dict.copy,
    "cubes": lambda cubes: {city: here.copy() for city, here in cubes.items()},
    "link_deck": list.copy,
    "growth_deck": list.copy,
    "growth_discard": list.copy,
    "current": list.copy,
    "future": list.copy,
    "owner": dict.copy,
    "built": set.copy,
    "unfinished": list.copy,
    "set_aside": list.copy,
    "pending": list.copy,
    "auction": _copy_auction,
    # Each turn's (income, cash) pairs are tuples of numbers: shared, as deepcopy shares them.
    "history": lambda history: [list(turn) for turn in history],
}
