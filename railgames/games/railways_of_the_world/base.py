"""Railways of the World: what every phase of the rules shares.

The board's questions (names of hexes and cities, costs, ridges), the stores that
make each listed action once, money and bonds, the cubes drawn from the bag and the
scores. The phases (``auction``, ``turn``, ``build``, ``urbanize``, ``deliver``,
``income``) are written against this class; ``rules.RailwaysOfTheWorldRules``
builds on it, hands each step to its phase and says how a player's turn passes on
(``next_player``), so that no phase imports the rules class.
"""

from __future__ import annotations

from typing import Any

from railgames.core.engine import Interned, Result, Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.hexgrid import Hex, neighbours, side_key
from railgames.core.phases import Phase
from railgames.core.places import compass, hex_point, near, toward
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import (
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
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS, RotwMap
from railgames.games.railways_of_the_world.index import Listed, TrackIndex
from railgames.games.railways_of_the_world.state import RotwState
from railgames.games.railways_of_the_world.terms import BOND, TERRAIN_COST, money, plural

# How a hex that is not a city is called, by its terrain.
TERRAIN_WORDS = {"open": "plain", "water": "water hex", "mountain": "mountain",
                 "partial": "shore hex"}


class RotwRulesBase(Ruleset[RotwState]):
    """The board, the listed actions' stores, money and scores: what the phases share."""

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
            cls: Listed(cls) for cls in (LayTrack, Deliver, Choose, Urbanize, UpgradeEngine,
                                         PassAction, PassBid, Cancel, EndBuild)}
        self._board_neighbours = {
            h: tuple(n for n in neighbours(h) if n in m.terrain) for h in m.terrain
        }
        # Tiles are as many as the board has ways through its hexes, for each seat: the
        # store of them holds them all rather than start afresh (and make them again).
        ways = sum(len(around) * (len(around) - 1) for h, around in self._board_neighbours.items()
                   if m.terrain[h] not in ("city", "partial"))
        self._stores[LayTrack] = self._lay_store = Listed(
            LayTrack, limit=max(20_000, ways * self.max_players + 1))
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
        # The first tiles of new links (listed at every build: see ``TrackIndex``)
        # have a store of their own, as many as the board allows, so that it never
        # starts afresh under the lists of them kept for each seat.
        self._first_tiles = Listed(LayTrack, limit=1 << 62)
        self._city_ids = tuple(c.id for c in m.cities)
        self._ridges = m.ridges
        self._offset = {h: m.offset_of(h) for h in m.terrain}
        self._hex_at = {off: h for h, off in self._offset.items()}
        # Hexes are named by the nearest city and the way from it, never by coordinates.
        self._places = [(c.name, hex_point(h, m.orientation)) for h, c in m.city_at.items()]
        # Each hex's name, worked out once: the log names a hex for every tile laid.
        self._hex_names: dict[Hex, str] = {}
        self.track_index = TrackIndex(m, self._board_neighbours, self._offset,
                                      self._lay_store.make, self._first_tiles.make)

    # ------------------------------------------------------------ names
    def hex_at(self, col: int, row: int) -> Hex | None:
        return self._hex_at.get((col, row))

    def offset(self, h: Hex) -> tuple[int, int]:
        return self._offset[h]

    def hex_name(self, h: Hex) -> str:
        """A city by its name, another hex by its terrain and the nearest city:
        "the mountain north-east of Pittsburgh", "the plain 2 hexes west of Chicago"."""
        name = self._hex_names.get(h)
        if name is None:
            name = self._hex_names[h] = self._name_hex(h)
        return name

    def _name_hex(self, h: Hex) -> str:
        city = self._city_at.get(h)
        if city is not None:
            return city.name
        terrain = TERRAIN_WORDS.get(self._terrain[h], self._terrain[h])
        return f"the {terrain} {near(hex_point(h, self.map.orientation), self._places, 'hex')}"

    def way_name(self, h: Hex, to: Hex) -> str:
        """The way from ``h`` into its neighbour ``to``: "into Detroit" for a city, else
        the compass direction and the city lying that way ("toward Detroit, north-east")."""
        city = self._city_at.get(to)
        if city is not None:
            return f"into {city.name}"
        o = self.map.orientation
        return toward(hex_point(h, o), hex_point(to, o), self._places)

    def side_name(self, h: Hex, side: Hex) -> str:
        """Which side of ``h`` its neighbour ``side`` lies on: "from Chicago" for a city,
        else "from the south-west"."""
        city = self._city_at.get(side)
        if city is not None:
            return f"from {city.name}"
        o = self.map.orientation
        return f"from the {compass(hex_point(h, o), hex_point(side, o))}"

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

    def _hex(self, offset: tuple[int, int]) -> Hex:
        h = self._hex_at.get((offset[0], offset[1]))
        if h is None:
            raise MalformedAction(f"there is no hex {offset[0]},{offset[1]} on this map")
        return h

    # ------------------------------------------------------------ the bag, options
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

    @staticmethod
    def _option(state: RotwState, name: str) -> bool:
        return state.options.get(name, False)

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

    # ------------------------------------------------------------ the flow of a turn
    def next_player(self, state: RotwState, log: EventLog) -> None:
        """The seat's action is done: the next seat acts, or the round or turn ends.

        Every phase that ends a player's action calls this; the rules class hands it
        to the phase of choosing actions (``turn.ActionPhase``)."""
        raise NotImplementedError

    # ------------------------------------------------------------ scores
    def score_of(self, state: RotwState, seat: int) -> dict[str, int]:
        p = state.players[seat]
        return {"income": p.income, "bonds": -p.bonds, "total": p.income - p.bonds,
                "links": len(state.links_of(seat)), "cash": p.cash}

    def result(self, state: RotwState) -> Result | None:
        if state.final is None:
            return None
        final = state.final
        key = {n: (v["total"], v["links"], v["cash"]) for n, v in final.items()}
        best = max(key.values())
        return Result(scores={n: v["total"] for n, v in final.items()},
                      winners=[n for n, k in key.items() if k == best], breakdown=final)


class RotwPhase(Phase[RotwRulesBase, RotwState]):
    """A phase of Railways of the World: its check words a refusal (``refusal``, None
    when the action is allowed), which ``validate`` raises."""

    def refusal(self, state: RotwState, action: Any) -> str | None:
        raise NotImplementedError(f"{type(self).__name__} checks no action")

    def validate(self, state: RotwState, action: Any) -> None:
        reason = self.refusal(state, action)
        if reason is not None:
            raise IllegalAction(reason)
