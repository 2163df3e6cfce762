"""The Steel Driver map file's own fields, on top of a graph map.

Locations are the graph's cities: each has a profit value and a colour, and
starting locations (hexagons on the board) are marked ``starting = true``.
Routes are the graph's links, each with its cost in investment cubes.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import Field, model_validator

from railgames.core.maps import ID_PATTERN, GraphCity, GraphLink, GraphMap, MapModel

WHITE = "white"
COLOURS = ("white", "orange", "silver", "black", "red")


class Location(GraphCity):
    starting: bool = False  # a hexagon: a company's first track may be built from it
    value: int = Field(ge=0)  # the profit a company adds on first reaching it
    colour: str  # the colour of the goods cube it gets at the end


class Route(GraphLink):
    cost: int = Field(ge=1)  # investment cubes for the one track link along it


class Company(MapModel):
    id: str = Field(pattern=ID_PATTERN)  # the company's colour, as the rules name it
    name: str = Field(min_length=1)
    letter: str = Field(min_length=1, max_length=1)


class SteelDriverMap(GraphMap):
    cities: list[Location]  # type: ignore[assignment]
    links: list[Route]  # type: ignore[assignment]
    companies: list[Company] = Field(min_length=2)
    investment_cubes: int = Field(ge=1)
    goods_cubes: dict[str, int]  # colour -> goods cubes of that colour (all but white)
    track_links: int = Field(ge=1)
    shares_per_company: int = Field(ge=1)
    transcontinental: tuple[str, str]  # the two ends the transcontinental link joins

    @model_validator(mode="after")
    def _check_steel_driver(self) -> SteelDriverMap:
        for colour, count in self.goods_cubes.items():
            if colour == WHITE or colour not in COLOURS:
                raise ValueError(f"goods_cubes: '{colour}' is not a goods colour "
                                 f"({', '.join(c for c in COLOURS if c != WHITE)})")
            if count < 0:
                raise ValueError(f"goods_cubes: colour '{colour}' has a negative count")
        supply = self.cube_supply
        for i, loc in enumerate(self.cities):
            if loc.colour not in COLOURS:
                raise ValueError(f"cities.{i}.colour: '{loc.colour}' is not one of {', '.join(COLOURS)}")
        for colour in COLOURS:
            places = sum(1 for loc in self.cities if loc.colour == colour)
            if places > supply.get(colour, 0):
                raise ValueError(
                    f"cities: {places} locations are {colour} but there are only "
                    f"{supply.get(colour, 0)} {colour} cubes to place on them at the end")
        if not any(loc.starting for loc in self.cities):
            raise ValueError("cities: no location is a starting location")
        if len(self.links) > self.track_links:
            raise ValueError(f"links: {len(self.links)} routes but only {self.track_links} "
                             "track link pieces")
        ids: set[str] = set()
        letters: set[str] = set()
        for i, company in enumerate(self.companies):
            if company.id in ids:
                raise ValueError(f"companies.{i}.id: company '{company.id}' is listed twice")
            ids.add(company.id)
            if company.letter in letters:
                raise ValueError(f"companies.{i}.letter: letter '{company.letter}' is used twice")
            letters.add(company.letter)
        west, east = self.transcontinental
        known = {loc.id for loc in self.cities}
        for end in (west, east):
            if end not in known:
                raise ValueError(f"transcontinental: unknown location '{end}'")
        if west == east:
            raise ValueError("transcontinental: the two ends must differ")
        return self

    # ------------------------------------------------------------ derived tables
    @cached_property
    def cube_supply(self) -> dict[str, int]:
        """Every cube by colour: the white investment cubes and the goods cubes."""
        return {WHITE: self.investment_cubes, **self.goods_cubes}

    @cached_property
    def total_cubes(self) -> int:
        return sum(self.cube_supply.values())

    @cached_property
    def location_by_id(self) -> dict[str, Location]:
        return {loc.id: loc for loc in self.cities}

    @cached_property
    def route_by_id(self) -> dict[str, Route]:
        return {r.id: r for r in self.links}

    @cached_property
    def routes_at(self) -> dict[str, list[Route]]:
        out: dict[str, list[Route]] = {loc.id: [] for loc in self.cities}
        for r in self.links:
            out[r.a].append(r)
            out[r.b].append(r)
        return out

    @cached_property
    def company_ids(self) -> list[str]:
        return [c.id for c in self.companies]

    @cached_property
    def company_by_id(self) -> dict[str, Company]:
        return {c.id: c for c in self.companies}
