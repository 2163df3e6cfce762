"""Steel Driver game state (internal; never saved: replay rebuilds it).

Everything is public, as at the table: every player's cubes and cash, every
company's cubes, shares and track.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from railgames.core.events import Event
from railgames.core.rng import Chance


class Step(StrEnum):
    AUCTION = "auction"  # the Active Player marker's holder: put a company up, or pass the marker
    OPENING = "opening"  # the player who put a company up makes the opening bid
    BIDDING = "bidding"  # bids go round clockwise until one bidder is left
    BUILD = "build"  # the active company builds one track link
    CLAIM = "claim"  # final profit determination: the active company claims one goods cube
    OVER = "over"


@dataclass
class Player:
    name: str
    cubes: int = 0  # investment cubes in hand
    cash: int = 0
    shares: dict[str, int] = field(default_factory=dict)  # company -> share tokens held


@dataclass
class Company:
    id: str
    shares_left: int
    cubes: int = 0  # investment cubes in the company box
    controller: int | None = None  # who holds the control marker this turn
    last_controller: int | None = None  # who held it most recently (for the final tie-break)
    auctioned: bool = False  # its control has been sold this turn
    start: str | None = None  # the starting location its first link was built from
    links: list[str] = field(default_factory=list)  # routes built, in order
    reached: list[str] = field(default_factory=list)  # its network's locations, start first
    profit: int = 0  # this turn's profit level
    goods: dict[str, int] = field(default_factory=dict)  # final: colour -> goods cubes claimed
    final_profit: int | None = None


@dataclass
class Auction:
    company: str
    offered_by: int  # the player who put it up
    bidders: list[int]  # seats still in, clockwise from the player who put it up
    to_act: int
    high_bid: int = 0
    high_seat: int | None = None


@dataclass
class SDState:
    players: list[Player]
    companies: dict[str, Company]  # in the order of the company boxes
    order: list[str]  # this turn's order of play (the Order of Play row)
    turn: int
    step: Step
    active: int  # seat holding the Active Player marker
    pool: int  # investment cubes in the pool, goods cubes standing in for them included
    passed: list[str] = field(default_factory=list)  # the Pass row, in the order companies passed
    marker_passes: int = 0  # the marker's passes since the last auction
    last_offerer: int | None = None  # who last put a company up this turn
    auction: Auction | None = None
    cursor: int = 0  # index in ``order`` of the active company (build and claim)
    track: dict[str, str] = field(default_factory=dict)  # route id -> company that built it
    transcontinental: dict[str, Any] | None = None  # once made: who built it, who shared it
    goods_on: dict[str, str] = field(default_factory=dict)  # final: location -> cube colour there
    chance: Chance = field(default_factory=lambda: Chance(0))
    log: list[Event] = field(default_factory=list)
    # Per turn, each seat's (profit taken, cash) after Take Profits, for charts.
    history: list[list[tuple[int, int]]] = field(default_factory=list)
    final: dict[str, dict[str, int]] | None = None
    # Final tie-break: cubes of the companies each seat controls at the end.
    goods_controlled: list[int] = field(default_factory=list)

    def active_company(self) -> Company:
        return self.companies[self.order[self.cursor]]

    def cubes_in_play(self) -> int:
        """Cubes held by players and companies (the rest are in the pool or placed as goods)."""
        return sum(p.cubes for p in self.players) + sum(c.cubes for c in self.companies.values())
