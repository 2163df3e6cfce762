"""The Railways of the World map file's own fields, on top of a hex map.

Terrain names the rules know: ``open``, ``water``, ``mountain`` (track costs
differ), ``partial`` (on the board, never built on) and ``city`` (each city
hex has an entry in the cities table). Hex sides may carry a ``ridge``.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import Field, model_validator

from railgames.core.hexgrid import Hex, axial_to_offset, neighbours, offset_to_axial, side_key
from railgames.core.maps import HexCity, HexMap

TERRAINS = ("open", "water", "mountain", "partial", "city")
BUILDABLE = ("open", "water", "mountain")
RIDGE = "ridge"
CUBE_COLOURS = ("red", "yellow", "blue", "black", "purple")
GRAY = "gray"
MAX_ENGINE = 8


class RotwCity(HexCity):
    colour: str  # one of the cube colours, or gray (urbanizable, starts empty)
    cubes: int = Field(ge=0)  # the number printed on the city
    lonlat: tuple[float, float] | None = None  # the real place, for checking the layout


class RotwMap(HexMap):
    cities: list[RotwCity]  # type: ignore[assignment]
    players: tuple[int, int]  # fewest and most players the board is for
    end_markers: dict[int, int]  # players -> empty-city markers that end the game
    income_track: list[int] = Field(min_length=2)  # dollars collected per income space
    engine_costs: dict[int, int]  # engine level -> what upgrading to it costs
    goods_cubes: dict[str, int]  # the bag's contents by colour
    new_city_tiles: dict[str, int]  # New City tiles by colour

    @model_validator(mode="after")
    def _check_rotw(self) -> RotwMap:
        for ch, name in self.legend.items():
            if name not in TERRAINS:
                raise ValueError(f"legend: '{ch}' names terrain '{name}'; the terrains are "
                                 f"{', '.join(TERRAINS)}")
        low, high = self.players
        if not 2 <= low <= high <= 6:
            raise ValueError(f"players: {list(self.players)} must be two counts from 2 to 6, "
                             "fewest first")
        for n in range(low, high + 1):
            if self.end_markers.get(n, 0) < 1:
                raise ValueError(f"end_markers: no number of empty-city markers for {n} players")
        for n in self.end_markers:
            if not low <= n <= high:
                raise ValueError(f"end_markers: {n} players is outside this board's "
                                 f"{low} to {high}")
        if self.income_track[0] != 0:
            raise ValueError("income_track: space 0 must pay $0")
        for i in range(1, len(self.income_track)):
            if self.income_track[i] < self.income_track[i - 1]:
                raise ValueError(f"income_track: space {i} pays less than space {i - 1}")
        if sorted(self.engine_costs) != list(range(2, MAX_ENGINE + 1)):
            raise ValueError(f"engine_costs: give a cost for each engine level 2 to {MAX_ENGINE}")
        for level, cost in self.engine_costs.items():
            if cost < 0:
                raise ValueError(f"engine_costs: level {level} costs less than nothing")
        if sorted(self.goods_cubes) != sorted(CUBE_COLOURS):
            raise ValueError(f"goods_cubes: give a count for each of {', '.join(CUBE_COLOURS)}")
        for colour, count in self.new_city_tiles.items():
            if colour not in CUBE_COLOURS:
                raise ValueError(f"new_city_tiles: '{colour}' is not a cube colour")
            if count < 0:
                raise ValueError(f"new_city_tiles: a negative count of {colour} tiles")
        terrain = self.terrain
        at: dict[Hex, str] = {h: self.cities[i].id for h, i in self.place_cities().items()}
        printed: dict[str, int] = {}
        for i, city in enumerate(self.cities):
            if city.colour == GRAY:
                if city.cubes:
                    raise ValueError(f"cities.{i}.cubes: gray city '{city.id}' starts empty, "
                                     "so its cube count must be 0")
            elif city.colour in CUBE_COLOURS:
                if city.cubes < 1:
                    raise ValueError(f"cities.{i}.cubes: city '{city.id}' must show at least "
                                     "one cube")
                printed[city.colour] = printed.get(city.colour, 0) + city.cubes
            else:
                raise ValueError(f"cities.{i}.colour: '{city.colour}' is not one of "
                                 f"{', '.join(CUBE_COLOURS)} or {GRAY}")
        if sum(printed.values()) > sum(self.goods_cubes.values()):
            raise ValueError("cities: the cities show more cubes than the bag holds")
        for place, city_id in at.items():
            for nb in neighbours(place):
                if nb in at and at[nb] > city_id:
                    raise ValueError(f"cities: '{city_id}' and '{at[nb]}' touch; every link "
                                     "needs at least one track tile between two cities")
        for i, s in enumerate(self.sides):
            if s.feature != RIDGE:
                raise ValueError(f"sides.{i}.feature: '{s.feature}' is not '{RIDGE}'")
            for end in (s.a, s.b):
                if offset_to_axial(*end, self.orientation) not in terrain:
                    raise ValueError(f"sides.{i}: hex {list(end)} is off the board")
        return self

    # ------------------------------------------------------------ derived tables
    @cached_property
    def city_at(self) -> dict[Hex, RotwCity]:
        return {offset_to_axial(c.col, c.row, self.orientation): c for c in self.cities}

    @cached_property
    def city_by_id(self) -> dict[str, RotwCity]:
        return {c.id: c for c in self.cities}

    @cached_property
    def hex_of_city(self) -> dict[str, Hex]:
        return {c.id: h for h, c in self.city_at.items()}

    @cached_property
    def ridges(self) -> frozenset[tuple[Hex, Hex]]:
        return frozenset(k for k, f in self.side_features.items() if f == RIDGE)

    def has_ridge(self, a: Hex, b: Hex) -> bool:
        return side_key(a, b) in self.ridges

    def buildable(self, h: Hex) -> bool:
        return self.terrain.get(h) in BUILDABLE

    def income_for(self, space: int) -> int:
        track = self.income_track
        return track[max(0, min(space, len(track) - 1))]

    def hex_of(self, col: int, row: int) -> Hex:
        return offset_to_axial(col, row, self.orientation)

    def offset_of(self, h: Hex) -> tuple[int, int]:
        return axial_to_offset(h, self.orientation)
