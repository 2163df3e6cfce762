"""The Railways of the World boards: the fields the rules need, geography, and clear errors."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from railgames.cli import main
from railgames.core.errors import MapError
from railgames.core.hexgrid import neighbours
from railgames.core.maps import load_map_file, parse_map
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS, GRAY, RotwMap

MAPS = Path(__file__).resolve().parents[1] / "maps"
EAST = MAPS / "rotw-eastern-us.toml"
MEXICO = MAPS / "rotw-mexico.toml"

EASTERN_CITIES = ["Chicago", "Detroit", "Cleveland", "Pittsburgh", "Buffalo", "Albany", "New York",
                  "Philadelphia", "Baltimore", "Washington", "Boston", "Montreal", "Toronto",
                  "Cincinnati", "Louisville", "St. Louis", "Nashville", "Atlanta", "Charleston",
                  "Savannah", "New Orleans"]


@pytest.fixture(scope="module", params=[EAST, MEXICO], ids=["eastern-us", "mexico"])
def board(request: pytest.FixtureRequest) -> RotwMap:
    return load_map_file(request.param, RotwMap)


def centre(board: RotwMap, col: int, row: int) -> tuple[float, float]:
    """Where a hex sits on the page: x grows eastwards, y southwards (pointy tops)."""
    h = board.hex_of(col, row)
    return (math.sqrt(3) * (h.q + h.r / 2), 1.5 * h.r)


# ------------------------------------------------------------ both files load and check
@pytest.mark.parametrize("path", [EAST, MEXICO], ids=["eastern-us", "mexico"])
def test_maps_check_accepts_both_boards(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "check", str(path)]) == 0
    assert f"ok (hex map '{path.stem}'" in capsys.readouterr().out


def test_player_counts_and_end_markers() -> None:
    east, mexico = load_map_file(EAST, RotwMap), load_map_file(MEXICO, RotwMap)
    assert east.players == (3, 6) and sorted(east.end_markers) == [3, 4, 5, 6]
    assert mexico.players == (2, 3) and sorted(mexico.end_markers) == [2, 3]
    # More players empty cities faster, so more markers are needed.
    assert list(east.end_markers.values()) == sorted(east.end_markers.values())
    assert len(mexico.cities) < len(east.cities) and len(mexico.terrain) < len(east.terrain)


def test_components_from_the_box(board: RotwMap) -> None:
    assert board.goods_cubes == dict.fromkeys(CUBE_COLOURS, 25)
    assert board.new_city_tiles == {"yellow": 3, "black": 3, "blue": 3, "purple": 3}
    assert sorted(board.engine_costs) == list(range(2, 9))
    assert all(board.engine_costs[k] < board.engine_costs[k + 1] for k in range(2, 8))
    assert board.income_track[0] == 0 and board.income_for(1) == 1000
    assert board.income_for(10_000) == board.income_track[-1]


def test_terrain_kinds_and_ridges(board: RotwMap) -> None:
    kinds = set(board.terrain.values())
    assert {"open", "water", "mountain", "partial", "city"} <= kinds
    assert len(board.ridges) >= 10
    for a, b in board.ridges:
        assert a in board.terrain and b in board.terrain and b in neighbours(a)


def test_cities_have_colours_and_cube_counts(board: RotwMap) -> None:
    colours = {c.colour for c in board.cities}
    assert colours == {*CUBE_COLOURS, GRAY}
    for city in board.cities:
        assert (city.cubes == 0) == (city.colour == GRAY)
        assert board.terrain[board.hex_of(city.col, city.row)] == "city"
        # Every city can be left by track.
        assert any(board.buildable(n) for n in neighbours(board.hex_of(city.col, city.row)))
    grays = [c for c in board.cities if c.colour == GRAY]
    assert 1 <= len(grays) <= sum(board.new_city_tiles.values())


def test_no_two_cities_touch(board: RotwMap) -> None:
    at = set(board.city_at)
    for h in at:
        assert not any(n in at for n in neighbours(h))


def test_the_eastern_cities_the_issue_names() -> None:
    east = load_map_file(EAST, RotwMap)
    names = {c.name for c in east.cities}
    assert set(EASTERN_CITIES) <= names


def test_cities_sit_at_their_real_relative_positions(board: RotwMap) -> None:
    """East of is east of, north of is north of, for every pair far enough apart to tell."""
    checked = 0
    for a in board.cities:
        for b in board.cities:
            assert a.lonlat is not None and b.lonlat is not None
            if a.id >= b.id:
                continue
            (xa, ya), (xb, yb) = centre(board, a.col, a.row), centre(board, b.col, b.row)
            dlon, dlat = b.lonlat[0] - a.lonlat[0], b.lonlat[1] - a.lonlat[1]
            if abs(dlon) > 1.5 and a.name != "Hermosillo" and b.name != "Hermosillo":
                assert (xb > xa) == (dlon > 0), f"{a.name} / {b.name} east-west"
                checked += 1
            if abs(dlat) > 1.2:
                assert (yb < ya) == (dlat > 0), f"{a.name} / {b.name} north-south"
                checked += 1
    assert checked > 100


def test_famous_neighbours_are_close_and_far_ones_far() -> None:
    east = load_map_file(EAST, RotwMap)
    by = {c.name: east.hex_of(c.col, c.row) for c in east.cities}
    from railgames.core.hexgrid import distance
    assert distance(by["New York"], by["Philadelphia"]) <= 3
    assert distance(by["Baltimore"], by["Washington"]) <= 2
    assert distance(by["Chicago"], by["New Orleans"]) > 12
    assert distance(by["Boston"], by["St. Louis"]) > 15


# ------------------------------------------------------------ loader errors name file and place
def broken(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('"^" = "mountain"', '"^" = "hills"', "legend: '^' names terrain 'hills'"),
    ('colour = "gray"\ncubes = 0', 'colour = "gray"\ncubes = 2', "gray city 'MAN' starts empty"),
    ('colour = "red"', 'colour = "green"', "'green' is not one of"),
    ("4 = 11\n", "", "no number of empty-city markers for 4 players"),
    ("8 = 10000\n", "", "engine_costs: give a cost for each engine level 2 to 8"),
    ("players = [3, 6]", "players = [3, 7]", "must be two counts from 2 to 6"),
    ("income_track = [\n  0,", "income_track = [\n  500,", "space 0 must pay $0"),
])
def test_loader_errors_name_the_file_and_the_field(old: str, new: str, message: str) -> None:
    text = EAST.read_text(encoding="utf-8")
    if "MAN" in message:
        text = re.sub(r'name = "Manzanillo"\ncol = 4\nrow = 17\ncolour = "black"\ncubes = \d',
                      'name = "Manzanillo"\ncol = 4\nrow = 17\ncolour = "gray"\ncubes = 0',
                      MEXICO.read_text(encoding="utf-8"))
        old = 'name = "Manzanillo"\ncol = 4\nrow = 17\ncolour = "gray"\ncubes = 0'
        new = 'name = "Manzanillo"\ncol = 4\nrow = 17\ncolour = "gray"\ncubes = 2'
    with pytest.raises(MapError) as info:
        parse_map(broken(text, old, new), "some.toml", RotwMap)
    assert info.value.reason.startswith("some.toml: ")
    assert message in info.value.reason


def test_a_ridge_listed_twice_is_refused() -> None:
    text = EAST.read_text(encoding="utf-8")
    first = re.search(r"^  \{ a = .*ridge\" \},$", text, re.M)
    assert first is not None
    text = text.replace(first.group(0), first.group(0) + "\n" + first.group(0), 1)
    with pytest.raises(MapError, match="is listed twice"):
        parse_map(text, "twice.toml", RotwMap)


def test_a_city_off_its_city_hex_is_refused_with_its_line() -> None:
    text = EAST.read_text(encoding="utf-8")
    text = broken(text, 'name = "Chicago"\ncol = 4\nrow = 6', 'name = "Chicago"\ncol = 3\nrow = 6')
    with pytest.raises(MapError) as info:
        parse_map(text, "moved.toml", RotwMap)
    assert re.search(r"line \d+", info.value.reason)
    assert "city 'CHI' stands on a" in info.value.reason


MINI = """
id = "mini"
game = "railways-of-the-world"
kind = "hex"
title = "Mini"
players = [2, 3]
grid = '''
o . . o
 . . . .
'''
income_track = [0, 1000]
[legend]
"." = "open"
"o" = "city"
[engine_costs]
2 = 1
3 = 1
4 = 1
5 = 1
6 = 1
7 = 1
8 = 1
[goods_cubes]
red = 2
yellow = 2
blue = 2
black = 2
purple = 2
[new_city_tiles]
blue = 1
[end_markers]
2 = 1
3 = 1
[[cities]]
id = "A"
name = "Aton"
col = 0
row = 0
colour = "red"
cubes = 1
[[cities]]
id = "B"
name = "Bton"
col = 3
row = 0
colour = "blue"
cubes = 1
"""


def test_a_small_board_loads() -> None:
    mini = parse_map(MINI, "mini.toml", RotwMap)
    assert [c.id for c in mini.cities] == ["A", "B"]


def test_touching_cities_are_refused() -> None:
    text = MINI.replace("o . . o", "o o . .").replace("col = 3", "col = 1")
    with pytest.raises(MapError, match="'A' and 'B' touch"):
        parse_map(text, "touch.toml", RotwMap)


def test_a_city_hex_without_a_city_is_refused() -> None:
    text = MINI.replace("o . . o", "o . o o")
    with pytest.raises(MapError, match=r"the city hex \[2, 0\] has no entry"):
        parse_map(text, "extra.toml", RotwMap)


def test_more_printed_cubes_than_the_bag_holds_is_refused() -> None:
    text = MINI.replace("cubes = 1", "cubes = 9")
    with pytest.raises(MapError, match="more cubes than the bag holds"):
        parse_map(text, "many.toml", RotwMap)


def test_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="no such file"):
        load_map_file(tmp_path / "nope.toml", RotwMap)
