"""The American Rails map file's own fields, on top of a hex map.

Terrain names the rules know: ``city`` (each city hex has an entry in the
cities table, with its full and shared values), ``plains``, ``forest`` and
``mountain``. The file also carries the components that belong to the board:
the companies with their cubes and shares, the development markers, and the
three cities of the special connections.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import Field, model_validator

from railgames.core.hexgrid import Hex, axial_to_offset, neighbours, offset_to_axial
from railgames.core.maps import ID_PATTERN, HexCity, HexMap, MapModel

TERRAINS = ("city", "plains", "forest", "mountain")
# Forests and mountains hold one cube in all; plains and cities one of each colour.
SINGLE_CUBE_TERRAINS = ("forest", "mountain")


class ARCity(HexCity):
    full: int = Field(ge=1)
    shared: int = Field(ge=1)
    never_develop: bool = False


class ARCompany(MapModel):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=1)
    colour: str = Field(min_length=1)
    letter: str = Field(min_length=1, max_length=1)
    cubes: int = Field(ge=2)
    shares: int = Field(ge=1)


class AmericanRailsMap(HexMap):
    cities: list[ARCity]  # type: ignore[assignment]
    companies: list[ARCompany] = Field(min_length=2)
    development_markers: int = Field(ge=0)
    special_cities: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_american_rails(self) -> AmericanRailsMap:
        for ch, name in self.legend.items():
            if name not in TERRAINS:
                raise ValueError(f"legend: '{ch}' names terrain '{name}'; the terrains are "
                                 f"{', '.join(TERRAINS)}")
        self.place_cities()
        for i, city in enumerate(self.cities):
            if city.shared > city.full:
                raise ValueError(f"cities.{i}.shared: {city.name}'s shared value {city.shared} is "
                                 f"more than its full value {city.full}")
        ids = {c.id for c in self.cities}
        for i, cid in enumerate(self.special_cities):
            if cid not in ids:
                raise ValueError(f"special_cities.{i}: there is no city '{cid}'")
        if len(set(self.special_cities)) != len(self.special_cities):
            raise ValueError("special_cities: a city is listed twice")
        seen: set[str] = set()
        letters: set[str] = set()
        for i, company in enumerate(self.companies):
            if company.id in seen:
                raise ValueError(f"companies.{i}.id: company '{company.id}' is listed twice")
            seen.add(company.id)
            if company.letter in letters:
                raise ValueError(f"companies.{i}.letter: letter '{company.letter}' is used twice")
            letters.add(company.letter)
        return self

    # ------------------------------------------------------------ derived tables
    @cached_property
    def city_at(self) -> dict[Hex, ARCity]:
        return {offset_to_axial(c.col, c.row, self.orientation): c for c in self.cities}

    @cached_property
    def city_by_id(self) -> dict[str, ARCity]:
        return {c.id: c for c in self.cities}

    @cached_property
    def city_hex(self) -> dict[str, Hex]:
        return {c.id: h for h, c in self.city_at.items()}

    @cached_property
    def links(self) -> dict[Hex, tuple[Hex, ...]]:
        """Each hex's neighbours on the board."""
        return {h: tuple(n for n in neighbours(h) if n in self.terrain) for h in self.terrain}

    @cached_property
    def company_ids(self) -> list[str]:
        return [c.id for c in self.companies]

    @cached_property
    def company_by_id(self) -> dict[str, ARCompany]:
        return {c.id: c for c in self.companies}

    @cached_property
    def special_pairs(self) -> list[tuple[str, str]]:
        """Every pair of special cities, in the order the file lists them."""
        s = self.special_cities
        return [(s[i], s[j]) for i in range(len(s)) for j in range(i + 1, len(s))]

    def hex_of(self, col: int, row: int) -> Hex:
        return offset_to_axial(col, row, self.orientation)

    def offset_of(self, h: Hex) -> tuple[int, int]:
        return axial_to_offset(h, self.orientation)
