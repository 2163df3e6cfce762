"""The American Rails board file: the rulebook's facts, geography, and clear errors."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from railgames.cli import main
from railgames.core.errors import MapError
from railgames.core.hexgrid import Hex
from railgames.core.maps import load_map_file, parse_map
from railgames.games.american_rails.board_map import AmericanRailsMap

MAP_PATH = Path(__file__).resolve().parents[1] / "maps" / "american-rails.toml"

# Real positions (longitude, latitude).
REAL = {
    "Chicago": (-87.63, 41.88), "Rock Island": (-90.58, 41.51), "St. Louis": (-90.20, 38.63),
    "Memphis": (-90.05, 35.15), "New Orleans": (-90.07, 29.95), "Atlanta": (-84.39, 33.75),
    "Savannah": (-81.09, 32.08), "Charlotte": (-80.84, 35.23), "Nashville": (-86.78, 36.16),
    "Cincinnati": (-84.51, 39.10), "Detroit": (-83.05, 42.33), "Cleveland": (-81.69, 41.50),
    "Pittsburgh": (-79.99, 40.44), "Buffalo": (-78.88, 42.89), "Albany": (-73.75, 42.65),
    "Boston": (-71.06, 42.36), "New York": (-74.01, 40.71), "Philadelphia": (-75.17, 39.95),
    "Baltimore": (-76.61, 39.29), "Richmond": (-77.44, 37.54), "Norfolk": (-76.29, 36.85),
    "Mobile": (-88.04, 30.69), "Tallahassee": (-84.28, 30.44), "Indianapolis": (-86.16, 39.77),
}

# The players' transcription of the printed values (FACTS), with the rulebook's New York and Buffalo.
VALUES = {
    "Chicago": (7, 5), "Philadelphia": (6, 4), "New York": (8, 5), "Buffalo": (4, 3),
    "Boston": (5, 3), "Baltimore": (5, 3), "Pittsburgh": (5, 3), "St. Louis": (5, 3),
    "Atlanta": (5, 3), "New Orleans": (5, 3), "Detroit": (4, 2), "Cleveland": (4, 2),
    "Indianapolis": (4, 2), "Cincinnati": (4, 2), "Chattanooga": (4, 2), "Albany": (3, 2),
    "Richmond": (3, 2), "Nashville": (3, 2), "Memphis": (3, 2), "Charlotte": (3, 2),
    "Charleston": (3, 2), "Jackson": (3, 2), "Savannah": (3, 2), "Norfolk": (2, 2),
    "Syracuse": (2, 1), "Rock Island": (2, 1), "Fort Wayne": (2, 1), "Roanoke": (2, 1),
    "Knoxville": (2, 1), "Raleigh": (2, 1), "Wilmington": (2, 1), "Birmingham": (2, 1),
    "Montgomery": (2, 1), "Mobile": (2, 1), "Tallahassee": (2, 1), "Harrisburg": (1, 1),
    "Columbus": (1, 1), "Louisville": (1, 1),
}


@pytest.fixture(scope="module")
def board() -> AmericanRailsMap:
    return load_map_file(MAP_PATH, AmericanRailsMap)


def centre(h: Hex) -> tuple[float, float]:
    """Where a hex sits on the page: x grows eastwards, y southwards (pointy tops)."""
    return (math.sqrt(3) * (h.q + h.r / 2), 1.5 * h.r)


def by_name(board: AmericanRailsMap) -> dict[str, Hex]:
    return {c.name: board.city_hex[c.id] for c in board.cities}


def test_maps_check_accepts_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "check", str(MAP_PATH)]) == 0
    assert "ok (hex map 'american-rails', 248 hexes, 38 cities)" in capsys.readouterr().out


def test_grid_is_about_20_by_18(board: AmericanRailsMap) -> None:
    cols = {board.offset_of(h)[0] for h in board.terrain}
    rows = {board.offset_of(h)[1] for h in board.terrain}
    assert (len(cols), len(rows)) == (20, 18)


def test_six_companies_with_the_rulebooks_cubes_and_shares(board: AmericanRailsMap) -> None:
    table = {c.name: (c.cubes, c.shares, c.colour) for c in board.companies}
    assert table == {
        "American": (31, 5, "white"), "National": (29, 4, "grey"), "Continental": (26, 3, "green"),
        "Majestic": (22, 4, "yellow"), "Liberty": (19, 2, "red"), "Republic": (17, 3, "blue"),
    }
    assert sum(c.cubes for c in board.companies) == 144
    assert sum(c.shares for c in board.companies) == 21
    assert len({c.letter for c in board.companies}) == 6


def test_twelve_development_markers(board: AmericanRailsMap) -> None:
    assert board.development_markers == 12


def test_city_values(board: AmericanRailsMap) -> None:
    assert {c.name: (c.full, c.shared) for c in board.cities} == VALUES
    assert all(c.shared <= c.full for c in board.cities)


def test_the_five_cities_that_are_never_developed(board: AmericanRailsMap) -> None:
    never = {c.name for c in board.cities if c.never_develop}
    assert never == {"New York", "Baltimore", "Philadelphia", "Boston", "Chicago"}


def test_the_three_special_connection_cities(board: AmericanRailsMap) -> None:
    names = {board.city_by_id[c].name for c in board.special_cities}
    assert names == {"Chicago", "New York", "Atlanta"}
    assert len(board.special_pairs) == 3


def test_terrain_has_many_forests_fewer_plains_some_mountains(board: AmericanRailsMap) -> None:
    counts = Counter(board.terrain.values())
    assert counts["city"] == 38
    assert counts["forest"] > counts["plains"] > counts["mountain"] > 0


def test_cities_at_their_real_relative_positions(board: AmericanRailsMap) -> None:
    hexes = by_name(board)
    names = list(REAL)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (lon_a, lat_a), (lon_b, lat_b) = REAL[a], REAL[b]
            (xa, ya), (xb, yb) = centre(hexes[a]), centre(hexes[b])
            if abs(lon_a - lon_b) > 1.5:  # clearly east or west of each other
                assert (xa < xb) == (lon_a < lon_b), f"{a} and {b} are the wrong way round east-west"
            if abs(lat_a - lat_b) > 1.2:  # clearly north or south of each other
                assert (ya < yb) == (lat_a > lat_b), f"{a} and {b} are the wrong way round north-south"


def test_every_hex_is_reachable_from_every_other(board: AmericanRailsMap) -> None:
    start = next(iter(board.terrain))
    seen = {start}
    frontier = [start]
    while frontier:
        h = frontier.pop()
        for n in board.links[h]:
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    assert seen == set(board.terrain)


def _broken(old: str, new: str) -> str:
    text = MAP_PATH.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_a_city_on_a_forest_hex_is_refused() -> None:
    text = _broken('id = "SYR"\nname = "Syracuse"\ncol = 15', 'id = "SYR"\nname = "Syracuse"\ncol = 16')
    with pytest.raises(MapError, match=r"line \d+, field cities\.0: city 'SYR' stands on a forest hex"):
        parse_map(text, "bad.toml", AmericanRailsMap)


def test_a_shared_value_above_the_full_value_is_refused() -> None:
    text = _broken("full = 2\nshared = 1", "full = 2\nshared = 3")
    with pytest.raises(MapError, match="shared value 3 is more than its full value 2"):
        parse_map(text, "bad.toml", AmericanRailsMap)


def test_an_unknown_special_city_is_refused() -> None:
    text = _broken('special_cities = ["CHI", "NYC", "ATL"]', 'special_cities = ["CHI", "NYC", "XXX"]')
    with pytest.raises(MapError, match="special_cities.2: there is no city 'XXX'"):
        parse_map(text, "bad.toml", AmericanRailsMap)
