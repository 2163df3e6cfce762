"""The New England map file's own fields, on top of a graph map."""

from __future__ import annotations

from functools import cached_property

from pydantic import Field, model_validator

from railgames.core.maps import GraphCity, GraphLink, GraphMap, MapModel

TOTAL_CUBES = 46


class NECity(GraphCity):
    demand: str  # the commodity colour this city accepts


class RailwayLink(GraphLink):
    # The number on the Railway Link card: the build-roll target and the end value.
    value: int = Field(ge=2, le=12)


class GrowthCard(MapModel):
    cities: list[str] = Field(min_length=1, max_length=3)


class NewEnglandMap(GraphMap):
    cities: list[NECity]  # type: ignore[assignment]
    links: list[RailwayLink]  # type: ignore[assignment]
    commodities: dict[str, int]
    # Cities that get one cube each at set-up, in drawing order (a city listed twice gets two).
    setup_cubes: list[str]
    # Player count ("3".."6") -> Railway Links laid out at set-up, first slot to last.
    starting_links: dict[str, list[str]]
    growth_deck: list[GrowthCard] = Field(min_length=1)

    @model_validator(mode="after")
    def _check_new_england(self) -> NewEnglandMap:
        total = sum(self.commodities.values())
        if total != TOTAL_CUBES:
            raise ValueError(f"commodities: the cube counts add up to {total}, not {TOTAL_CUBES}")
        for colour, count in self.commodities.items():
            if count < 0:
                raise ValueError(f"commodities: colour '{colour}' has a negative count")
        cities = {c.id for c in self.cities}
        for i, city in enumerate(self.cities):
            if city.demand not in self.commodities:
                raise ValueError(
                    f"cities.{i}.demand: '{city.demand}' is not a commodity colour "
                    f"({', '.join(sorted(self.commodities))})"
                )
        for cid in self.setup_cubes:
            if cid not in cities:
                raise ValueError(f"setup_cubes: unknown city '{cid}'")
        if len(self.setup_cubes) > TOTAL_CUBES:
            raise ValueError("setup_cubes: more set-up draws than cubes")
        links = {link.id for link in self.links}
        for players in ("3", "4", "5", "6"):
            if players not in self.starting_links:
                raise ValueError(f"starting_links: no entry for {players} players")
        for players, ids in self.starting_links.items():
            if not players.isdigit() or not 3 <= int(players) <= 6:
                raise ValueError(f"starting_links: '{players}' is not a player count from 3 to 6")
            if len(ids) != int(players) - 1:
                raise ValueError(
                    f"starting_links: {players} players start with {int(players) - 1} links, not {len(ids)}"
                )
            for lid in ids:
                if lid not in links:
                    raise ValueError(f"starting_links: unknown link '{lid}'")
        for i, card in enumerate(self.growth_deck):
            for cid in card.cities:
                if cid not in cities:
                    raise ValueError(f"growth_deck.{i}.cities: unknown city '{cid}'")
        return self

    @cached_property
    def link_between(self) -> dict[frozenset[str], RailwayLink]:
        return {frozenset((link.a, link.b)): link for link in self.links}

    @cached_property
    def demand_of(self) -> dict[str, str]:
        return {c.id: c.demand for c in self.cities}

    @cached_property
    def colours(self) -> list[str]:
        return sorted(self.commodities)
