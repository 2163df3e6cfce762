"""New England Railways game state (internal; never saved: replay rebuilds it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from railgames.core.events import Event
from railgames.core.rng import Chance


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
