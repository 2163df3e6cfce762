"""American Rails: what every phase of the rules, and the bots, share.

The game's numbers, the action track's spaces, and ``AmericanRailsBase``: the map
as the rules read it, the names the log uses, and the board's questions asked in
more than one phase (what a cube costs and brings, what a city pays, what a share
pays). The phases (``auction``, ``track``, ``expand``, ``dividends``) build on it,
and the rules class (``rules``) puts them together. The bots read the rules through
this class, so they never import the rules module that names them.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any

from railgames.core.engine import Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.hexgrid import Hex
from railgames.games.american_rails.board_map import SINGLE_CUBE_TERRAINS, AmericanRailsMap
from railgames.games.american_rails.places import place_name
from railgames.games.american_rails.state import ARState, Company, Step

# Starting money by player count: the published rulebook's amounts (ruling "starting money").
STARTING_MONEY = {3: 50, 4: 50, 5: 40}
FIRST_YEAR, LAST_YEAR = 1851, 1857
PHASES = 3
MINIMUM_BID = 10
FUND_AMOUNT = 5
TAKE_AMOUNT = 2
DEVELOP_FULL, DEVELOP_SHARED = 2, 1
SPECIAL_BONUS = 10
LOW_SUPPLY = 2  # a supply at two or fewer counts towards the end of the game
# What a cube costs on each terrain: a base, and what each cube (or development
# marker, in a city) already there adds. Forests and mountains hold one cube.
TERRAIN_BASE = {"city": 2, "plains": 2, "forest": 3, "mountain": 5}
PER_PIECE = 2


@dataclass(frozen=True)
class Space:
    id: str
    label: str
    short: str  # for the board's narrow columns


# The action track, top to bottom (ruling "the action track"): each column has
# one space of each action, one marker per space.
ACTION_TRACK: tuple[Space, ...] = (
    Space("pass", "Pass", "Pass"),
    Space("develop", "Develop", "Devel"),
    Space("fund", "Fund $5", "Fund5"),
    Space("take2", "Take $2 / Expand 2", "Take2"),
    Space("expand3", "Expand 3", "Exp 3"),
    Space("auction", "Auction a share", "Auctn"),
    Space("expand4", "Expand 4", "Exp 4"),
)
SPACE_IDS = [s.id for s in ACTION_TRACK]
SPACE_BY_ID = {s.id: s for s in ACTION_TRACK}
EXPAND_CUBES = {"expand3": 3, "expand4": 4, "take2": 2}

# What the game is doing at each step, for "you cannot … now" refusals.
DOING = {
    Step.OFFER: "choosing a share to auction", Step.BID: "an auction",
    Step.START: "placing a new company's first cube",
    Step.CHOOSE: "choosing a space on the action track", Step.DEVELOP: "a Develop action",
    Step.FUND: "a Fund $5 action", Step.TAKE: "a Take $2 action",
    Step.EXPAND: "an Expand action", Step.OVER: "the end of the game",
}


@dataclass(frozen=True)
class CubeOutcome:
    """What placing one cube costs, and how it changes every company's income."""

    cost: int
    income: dict[str, int]  # company -> change (the placing company, and any it shares a city with)
    specials: tuple[tuple[str, str], ...] = ()  # special connections the cube completes


def article(word: str) -> str:
    """'an American', 'a National'."""
    return f"{'an' if word[:1] in 'AEIOU' else 'a'} {word}"


class AmericanRailsBase(Ruleset[ARState]):
    """The map, the names and the board's shared questions; the phases' listings the
    bots read are named here and answered by the rules class."""

    map: AmericanRailsMap

    def __init__(self, game_map: AmericanRailsMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        self.companies: list[str] = m.company_ids
        self._terrain = m.terrain
        self._links = m.links
        self._city_at = m.city_at
        self._city = m.city_by_id
        self._city_hex = m.city_hex
        self._offset = {h: m.offset_of(h) for h in m.terrain}
        self._place = {h: place_name(m, h) for h in m.terrain}

    # ------------------------------------------------------------ names
    def company_name(self, company: str) -> str:
        return self.map.company_by_id[company].name

    def city_name(self, city: str) -> str:
        return self._city[city].name

    def hex_name(self, h: Hex) -> str:
        """"Chicago", or "the forest south-west of Chicago": the map shows no coordinates."""
        name = self._place[h]
        return name if h in self._city_at else f"the {name}"

    @staticmethod
    def _name(state: ARState, seat: int) -> str:
        return state.players[seat].name

    def space_label(self, space: str) -> str:
        return SPACE_BY_ID[space].label

    # ------------------------------------------------------------ the phases' listings
    @abstractmethod
    def offerable(self, state: ARState) -> list[str]:
        """The companies whose share may go up for auction now."""

    @abstractmethod
    def developable(self, state: ARState) -> list[str]:
        """The cities a Develop action may mark now."""

    @abstractmethod
    def legal_placements(self, state: ARState, seat: int, first_only: bool = False) -> list[Any]:
        """Every cube ``seat`` may place now (``first_only``: the first found, if any)."""

    # ------------------------------------------------------------ the board
    def city_is_empty(self, state: ARState, city: str) -> bool:
        """A new company starts only on a city without track."""
        return not state.hexes.get(self._city_hex[city])

    def empty_cities(self, state: ARState) -> list[str]:
        return [c.id for c in self.map.cities if self.city_is_empty(state, c.id)]

    def cube_cost(self, state: ARState, h: Hex) -> int:
        terrain = self._terrain[h]
        if terrain in SINGLE_CUBE_TERRAINS:
            return TERRAIN_BASE[terrain]
        pieces = len(state.hexes.get(h, ()))
        if terrain == "city" and self._city_at[h].id in state.developed:
            pieces += 1
        return TERRAIN_BASE[terrain] + PER_PIECE * pieces

    def city_value(self, state: ARState, city: str, companies: int) -> int:
        """What a city gives each company there when ``companies`` companies share it."""
        c = self._city[city]
        dev = city in state.developed
        if companies <= 1:
            return c.full + (DEVELOP_FULL if dev else 0)
        return c.shared + (DEVELOP_SHARED if dev else 0)

    def cube_outcome(self, state: ARState, company: str, h: Hex) -> CubeOutcome:
        """What a cube of ``company`` on ``h`` would cost and bring, without changing ``state``."""
        cost = self.cube_cost(state, h)
        income: dict[str, int] = {company: 0}
        city = self._city_at.get(h)
        specials: tuple[tuple[str, str], ...] = ()
        if city is not None:
            here = state.hexes.get(h, [])
            k = len(here)
            income[company] = self.city_value(state, city.id, k + 1)
            if k == 1:
                first = here[0]
                income[first] = self.city_value(state, city.id, 2) - self.city_value(state, city.id, 1)
            c = state.companies[company]
            cities = {self._city_at[x].id for x in c.hexes if x in self._city_at} | {city.id}
            specials = tuple(p for p in self.map.special_pairs
                             if p not in c.specials and p[0] in cities and p[1] in cities)
            income[company] += SPECIAL_BONUS * len(specials)
        return CubeOutcome(cost, income, specials)

    def board_income(self, state: ARState, company: str) -> int:
        """A company's income worked out from the board alone (the income track must agree)."""
        c = state.companies[company]
        total = 0
        for h in c.hexes:
            city = self._city_at.get(h)
            if city is not None:
                total += self.city_value(state, city.id, len(state.hexes[h]))
        return total + SPECIAL_BONUS * len(c.specials)

    def dividend(self, state: ARState, company: str) -> int:
        """What one share of ``company`` pays now: income over shares held by players, rounded up."""
        held = sum(p.shares.get(company, 0) for p in state.players)
        if held == 0:
            return 0
        income = state.companies[company].income
        return -(-income // held)

    def low_supplies(self, state: ARState) -> int:
        supplies = [c.supply for c in state.company_list()] + [state.dev_supply]
        return sum(1 for s in supplies if s <= LOW_SUPPLY)

    # ------------------------------------------------------------ checks every phase makes
    @staticmethod
    def _expect(state: ARState, steps: tuple[Step, ...], doing: str) -> None:
        if state.step not in steps:
            raise IllegalAction(f"you cannot {doing} now: the game is at {DOING[state.step]}")

    def _in_game(self, state: ARState, company: str) -> Company:
        c = state.companies[company]
        if not c.in_game:
            raise IllegalAction(f"the {self.company_name(company)} company is not in this game")
        return c

    def _company(self, company: str) -> str:
        if company not in self.map.company_by_id:
            raise MalformedAction(f"'{company}' is not a company ({', '.join(self.companies)})")
        return company

    def _city_id(self, city: str) -> str:
        if city not in self._city:
            raise MalformedAction(f"there is no city '{city}' on this map")
        return city
