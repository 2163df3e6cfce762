"""American Rails game state (internal; never saved: replay rebuilds it).

Everything is public, as at the table: every player's money and shares, every
company's treasury, supply, income and track, the action track's markers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from railgames.core.events import Event
from railgames.core.hexgrid import Hex
from railgames.core.rng import Chance


class Step(StrEnum):
    OFFER = "offer"  # choose the company whose share goes up for auction
    BID = "bid"  # bids go round clockwise until one bidder is left
    START = "start"  # the winner places a new company's first cube on an empty city
    CHOOSE = "choose"  # move one's marker to a free space of this column of the action track
    DEVELOP = "develop"  # carry out Develop, or not
    FUND = "fund"  # carry out Fund $5, or not
    TAKE = "take"  # Take $2 (or Expand 2 at four or five players), or nothing
    EXPAND = "expand"  # place cubes one at a time, or stop
    OVER = "over"


@dataclass
class Player:
    name: str
    money: int = 0
    shares: dict[str, int] = field(default_factory=dict)  # company -> shares held
    # What made the money, for the game-over screen: each part adds to the total.
    dividends: int = 0
    take_two: int = 0  # +2 from the bank, -2 (or less) when another player takes from everyone
    bids: int = 0  # money paid for shares (a positive number)


@dataclass
class Company:
    id: str
    cubes: int  # cubes the company owns in all (its supply, the income marker, the board)
    shares: int  # shares the company owns in all
    in_game: bool = True  # False for the company put back in the box at three players
    supply: int = 0  # cubes left in its supply
    shares_left: int = 0  # unsold shares still in its supply
    shares_removed: int = 0  # shares out of the game (unsold at auction, or no empty city)
    treasury: int = 0
    income: int = 0
    hexes: list[Hex] = field(default_factory=list)  # where its cubes are, in the order placed
    specials: list[tuple[str, str]] = field(default_factory=list)  # special connections made
    offered_in_prep: bool = False  # its share has been up for auction in the preparation round

    @property
    def on_map(self) -> bool:
        return bool(self.hexes)


@dataclass
class Auction:
    company: str
    auctioneer: int
    bidders: list[int]  # seats still in, clockwise from the auctioneer
    to_act: int
    high_bid: int = 0
    high_seat: int | None = None
    last_pass: int | None = None  # the last player to pass (picks the next share in the preparation round)


@dataclass
class ARState:
    players: list[Player]
    companies: dict[str, Company]  # in the order of the treasuries on the board
    step: Step
    prep: bool = True  # the preparation round is under way
    year: int = 1851
    phase: int = 0  # the action phase of the round (0, 1, 2): the column of the action track
    acting: int = 0  # the seat that must decide now (outside auctions)
    turn_order: list[int] = field(default_factory=list)  # the turn order track, space 1 first
    columns: list[dict[str, int]] = field(default_factory=list)  # per column: space id -> seat
    phase_order: list[int] = field(default_factory=list)  # who chooses in this action phase
    phase_pos: int = 0  # index in phase_order of the player whose action is under way
    expand_left: int = 0  # cubes still allowed in the Expand action under way
    expand_placed: int = 0
    hexes: dict[Hex, list[str]] = field(default_factory=dict)  # companies with a cube there, by arrival
    developed: set[str] = field(default_factory=set)  # city ids holding a development marker
    dev_supply: int = 0
    bank_out: int = 0  # money the bank has paid out, less what it has taken in
    auction: Auction | None = None
    turn: int = 0  # counts decisions that open a new turn (for undo)
    chance: Chance = field(default_factory=lambda: Chance(0))
    log: list[Event] = field(default_factory=list)
    # Per round: each seat's dividends and money after the dividend phase, for charts.
    history: list[list[tuple[int, int]]] = field(default_factory=list)
    final: dict[str, dict[str, int]] | None = None
    end_reason: str = ""

    def company_list(self) -> list[Company]:
        return [c for c in self.companies.values() if c.in_game]

    def money_in_play(self) -> int:
        return sum(p.money for p in self.players) + sum(c.treasury for c in self.companies.values())
