"""The Paris Connection map file's own fields, on top of a hex map.

Terrain names the rules know: ``rural``, ``city`` (each city hex has an entry in
the cities table, with its colour), ``paris`` (the hexes round the tower) and
``eiffel_tower`` (exactly one, never occupied). Hex sides whose feature is
``checkered`` do not count as adjacent.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import Field, model_validator

from railgames.core.hexgrid import Hex, axial_to_offset, neighbours, offset_to_axial, side_key
from railgames.core.maps import ID_PATTERN, HexCity, HexMap, MapModel

TERRAINS = ("rural", "city", "paris", "eiffel_tower")
CHECKERED = "checkered"


class PCCity(HexCity):
    colour: str  # beige, purple, red or blue: looked up in the map's city_values


class Company(MapModel):
    id: str = Field(pattern=ID_PATTERN)  # the company's colour, as the rules name it
    name: str = Field(min_length=1)
    letter: str = Field(min_length=1, max_length=1)
    locomotives: int = Field(ge=2)
    start: tuple[int, int]  # offset [column, row] of the Paris hex of its first locomotive


class ParisConnectionMap(HexMap):
    cities: list[PCCity]  # type: ignore[assignment]
    city_values: dict[str, int]
    companies: list[Company] = Field(min_length=2)
    end_city: str
    # How the board is drawn, not a rule: the rows of hexes after which the board
    # leaves a line for the names of cities and the checkered sides between rows
    # (-1: a line above the first row).
    spaced_rows: list[int] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_paris_connection(self) -> ParisConnectionMap:
        for ch, name in self.legend.items():
            if name not in TERRAINS:
                raise ValueError(f"legend: '{ch}' names terrain '{name}'; the terrains are "
                                 f"{', '.join(TERRAINS)}")
        for colour, value in self.city_values.items():
            if value < 1:
                raise ValueError(f"city_values: a {colour} city must be worth at least 1")
        terrain = self.terrain
        towers = [h for h, t in terrain.items() if t == "eiffel_tower"]
        if len(towers) != 1:
            raise ValueError(f"grid: there must be exactly one Eiffel Tower hex, not {len(towers)}")
        tower = towers[0]
        paris = {h for h, t in terrain.items() if t == "paris"}
        if not paris:
            raise ValueError("grid: there are no Paris hexes")
        for h in sorted(paris):
            if h not in neighbours(tower):
                col, row = axial_to_offset(h, self.orientation)
                raise ValueError(f"grid: Paris hex [{col}, {row}] does not touch the Eiffel Tower")
        self.place_cities()
        for i, city in enumerate(self.cities):
            if city.colour not in self.city_values:
                raise ValueError(f"cities.{i}.colour: '{city.colour}' is not one of "
                                 f"{', '.join(self.city_values)}")
        if self.end_city not in {c.id for c in self.cities}:
            raise ValueError(f"end_city: there is no city '{self.end_city}'")
        ids: set[str] = set()
        letters: set[str] = set()
        starts: set[Hex] = set()
        for i, company in enumerate(self.companies):
            if company.id in ids:
                raise ValueError(f"companies.{i}.id: company '{company.id}' is listed twice")
            ids.add(company.id)
            if company.letter in letters:
                raise ValueError(f"companies.{i}.letter: letter '{company.letter}' is used twice")
            letters.add(company.letter)
            h = offset_to_axial(*company.start, self.orientation)
            if h not in paris:
                raise ValueError(f"companies.{i}.start: {list(company.start)} is not a Paris hex")
            if h in starts:
                raise ValueError(f"companies.{i}.start: two companies start on {list(company.start)}")
            starts.add(h)
        last = max(row for _, row in (self.offset_of(h) for h in terrain))
        for row in self.spaced_rows:
            if not -1 <= row <= last:
                raise ValueError(f"spaced_rows: there is no row {row} (the rows are 0 to {last})")
        for i, s in enumerate(self.sides):
            if s.feature != CHECKERED:
                raise ValueError(f"sides.{i}.feature: '{s.feature}' is not '{CHECKERED}'")
            for end in (s.a, s.b):
                if offset_to_axial(*end, self.orientation) not in terrain:
                    raise ValueError(f"sides.{i}: hex {list(end)} is off the board")
        return self

    # ------------------------------------------------------------ derived tables
    @cached_property
    def tower(self) -> Hex:
        return next(h for h, t in self.terrain.items() if t == "eiffel_tower")

    @cached_property
    def paris(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.terrain.items() if t == "paris")

    @cached_property
    def city_at(self) -> dict[Hex, PCCity]:
        return {offset_to_axial(c.col, c.row, self.orientation): c for c in self.cities}

    @cached_property
    def hex_value(self) -> dict[Hex, int]:
        values = dict.fromkeys(self.terrain, 0)
        for h, city in self.city_at.items():
            values[h] = self.city_values[city.colour]
        return values

    @cached_property
    def capacity(self) -> dict[Hex, int]:
        """How many locomotives a hex holds: a city one, the tower none, any other two."""
        room = {"city": 1, "eiffel_tower": 0, "rural": 2, "paris": 2}
        return {h: room[t] for h, t in self.terrain.items()}

    @cached_property
    def links(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each hex's neighbours on the board, leaving out those across a checkered side."""
        blocked = {k for k, feature in self.side_features.items() if feature == CHECKERED}
        return {
            h: tuple(n for n in neighbours(h) if n in self.terrain and side_key(h, n) not in blocked)
            for h in self.terrain
        }

    @cached_property
    def checkered(self) -> frozenset[tuple[Hex, Hex]]:
        return frozenset(k for k, feature in self.side_features.items() if feature == CHECKERED)

    @cached_property
    def company_ids(self) -> list[str]:
        return [c.id for c in self.companies]

    @cached_property
    def company_by_id(self) -> dict[str, Company]:
        return {c.id: c for c in self.companies}

    @cached_property
    def end_hex(self) -> Hex:
        city = next(c for c in self.cities if c.id == self.end_city)
        return offset_to_axial(city.col, city.row, self.orientation)

    def hex_of(self, col: int, row: int) -> Hex:
        return offset_to_axial(col, row, self.orientation)

    def offset_of(self, h: Hex) -> tuple[int, int]:
        return axial_to_offset(h, self.orientation)
