"""The Steel Driver board file: the rulebook's facts, geography, and clear errors."""

from __future__ import annotations

import math
import re
from collections import Counter, deque
from itertools import pairwise
from pathlib import Path

import pytest

from railgames.cli import main
from railgames.core.errors import MapError
from railgames.core.maps import load_map_file
from railgames.games.steel_driver.board_map import COLOURS, SteelDriverMap

MAP_PATH = Path(__file__).resolve().parents[1] / "maps" / "steel-driver.toml"

# Real positions (longitude, latitude) of every location on the board.
REAL = {
    "SEA": (-122.33, 47.61), "POR": (-122.68, 45.52), "BOI": (-116.20, 43.62),
    "HEL": (-112.04, 46.59), "BIS": (-100.78, 46.81), "REN": (-119.81, 39.53),
    "SAC": (-121.49, 38.58), "SFO": (-122.42, 37.77), "LAX": (-118.24, 34.05),
    "SLC": (-111.89, 40.76), "TUC": (-110.97, 32.22), "ELP": (-106.49, 31.76),
    "ABQ": (-106.65, 35.08), "DEN": (-104.99, 39.74), "CHY": (-104.82, 41.14),
    "OMA": (-95.93, 41.26), "KCY": (-94.58, 39.10), "WIC": (-97.34, 37.69),
    "DAL": (-96.80, 32.78), "HOU": (-95.37, 29.76), "SAT": (-98.49, 29.42),
    "MSP": (-93.27, 44.98), "DLH": (-92.10, 46.79), "DSM": (-93.61, 41.59),
    "CRA": (-91.67, 41.98), "DBQ": (-90.66, 42.50), "DAV": (-90.58, 41.52),
    "MKE": (-87.91, 43.04), "CHI": (-87.63, 41.88), "PEO": (-89.59, 40.69),
    "SPI": (-89.65, 39.78), "STL": (-90.20, 38.63), "MEM": (-90.05, 35.15),
    "LIT": (-92.29, 34.75), "NOL": (-90.07, 29.95), "MOB": (-88.04, 30.69),
    "BHM": (-86.80, 33.52), "NSH": (-86.78, 36.16), "LOU": (-85.76, 38.25),
    "IND": (-86.16, 39.77), "CIN": (-84.51, 39.10), "COL": (-83.00, 39.96),
    "DET": (-83.05, 42.33), "TOL": (-83.54, 41.66), "CLE": (-81.69, 41.50),
    "ATL": (-84.39, 33.75), "CHA": (-85.31, 35.05), "SAV": (-81.10, 32.08),
    "JAX": (-81.66, 30.33), "CHS": (-79.93, 32.78), "CLT": (-80.84, 35.23),
    "RIC": (-77.44, 37.54), "WAS": (-77.04, 38.91), "BAL": (-76.61, 39.29),
    "PIT": (-79.99, 40.44), "HAR": (-76.88, 40.27), "PHL": (-75.17, 39.95),
    "NYC": (-74.00, 40.71), "BUF": (-78.88, 42.89), "SYR": (-76.15, 43.05),
    "ALB": (-73.76, 42.65), "BOS": (-71.06, 42.36),
}

# Every place the rulebook names.
RULEBOOK_PLACES = {"SFO": "San Francisco", "NYC": "New York", "BAL": "Baltimore",
                   "PIT": "Pittsburgh", "DEN": "Denver", "OMA": "Omaha",
                   "KCY": "Kansas City", "BUF": "Buffalo"}


@pytest.fixture(scope="module")
def board() -> SteelDriverMap:
    return load_map_file(MAP_PATH, SteelDriverMap)


@pytest.fixture(scope="module")
def text() -> str:
    return MAP_PATH.read_text(encoding="utf-8")


# ------------------------------------------------------------ the rulebook's facts
def test_maps_check_accepts_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "check", str(MAP_PATH)]) == 0
    assert "ok (graph map 'steel-driver'" in capsys.readouterr().out


def test_every_place_the_rulebook_names_is_on_the_board(board: SteelDriverMap) -> None:
    for lid, name in RULEBOOK_PLACES.items():
        assert board.location_by_id[lid].name == name


def test_baltimore_pittsburgh_costs_3_and_pittsburgh_is_worth_40(board: SteelDriverMap) -> None:
    route = board.route_by_id["BAL-PIT"]
    assert {route.a, route.b} == {"BAL", "PIT"} and route.cost == 3
    assert board.location_by_id["PIT"].value == 40
    assert board.location_by_id["BAL"].starting and not board.location_by_id["PIT"].starting
    assert board.location_by_id["BAL"].value != 40  # the example would not tell them apart


def test_the_transcontinental_example_routes_exist(board: SteelDriverMap) -> None:
    assert board.transcontinental == ("SFO", "NYC")
    for rid, cost in (("DEN-OMA", 5), ("DEN-KCY", 5)):
        assert board.route_by_id[rid].cost == cost  # green, with five cubes, can build either
    assert "BUF-NYC" in board.route_by_id


def test_six_companies_in_the_rulebooks_colours(board: SteelDriverMap) -> None:
    assert [c.id for c in board.companies] == ["red", "blue", "green", "yellow", "black", "purple"]
    assert len({c.letter for c in board.companies}) == 6
    assert board.shares_per_company == 5


def test_the_cube_counts_are_the_rulebooks(board: SteelDriverMap) -> None:
    assert board.investment_cubes == 60
    assert board.goods_cubes == {"orange": 5, "silver": 6, "black": 12, "red": 3}
    assert board.track_links == 102


def test_each_goods_colour_has_one_location_per_cube(board: SteelDriverMap) -> None:
    colours = Counter(loc.colour for loc in board.cities)
    assert set(colours) == set(COLOURS)
    for colour, count in board.goods_cubes.items():
        assert colours[colour] == count, colour
    assert colours["white"] <= board.investment_cubes


def test_fewer_routes_than_track_pieces(board: SteelDriverMap) -> None:
    assert len(board.links) <= board.track_links


# ------------------------------------------------------------ board choices
def test_starting_locations_are_spread_over_the_country(board: SteelDriverMap) -> None:
    starts = {loc.id for loc in board.cities if loc.starting}
    assert starts == {"SFO", "LAX", "CHI", "STL", "NOL", "ATL", "BAL", "NYC"}


def test_values_and_costs_are_in_range(board: SteelDriverMap) -> None:
    assert {loc.value for loc in board.cities} <= {10, 20, 30, 40, 50}
    assert all(1 <= r.cost <= 6 for r in board.links)
    west = [r.cost for r in board.links if REAL[r.a][0] < -100 and REAL[r.b][0] < -100]
    east = [r.cost for r in board.links if REAL[r.a][0] > -90 and REAL[r.b][0] > -90]
    assert sum(west) / len(west) > 2 * sum(east) / len(east)  # the West is dear


def test_route_ids_name_their_ends(board: SteelDriverMap) -> None:
    for r in board.links:
        assert r.id == f"{r.a}-{r.b}"


def test_every_location_can_be_reached(board: SteelDriverMap) -> None:
    seen = {"SFO"}
    queue = deque(["SFO"])
    while queue:
        for r in board.routes_at[queue.popleft()]:
            for end in (r.a, r.b):
                if end not in seen:
                    seen.add(end)
                    queue.append(end)
    assert seen == set(board.location_by_id)


# The grid squeezes distances (most of all in the crowded East) but never turns a
# direction round: of two places 1.5 degrees or more apart east-west, the eastern one
# is drawn in a column further right, and of two places 1 degree or more apart
# north-south, the northern one on a higher row. Drawn in the same column or on the
# same row counts as wrong.
def test_places_lie_in_their_real_directions(board: SteelDriverMap) -> None:
    assert set(REAL) == set(board.location_by_id)
    anchors = board.anchors
    for a, b in ((a, b) for a in REAL for b in REAL if a != b):
        (lon_a, lat_a), (lon_b, lat_b) = REAL[a], REAL[b]
        (x_a, y_a), (x_b, y_b) = anchors[a], anchors[b]
        if lon_b - lon_a >= 1.5:
            assert x_a < x_b, (a, b, "east-west")
        if lat_a - lat_b >= 1.0:
            assert y_a < y_b, (a, b, "north-south")


def test_grid_is_plain_ascii_and_small_enough_to_see_whole(board: SteelDriverMap) -> None:
    # The board beside the game's panels at 120x40 has 62 by 31 cells (tests/app/
    # test_board_fit.py measures it); a value takes three cells after a label.
    for line in board.grid_lines:
        assert all(" " <= ch <= "~" for ch in line), line
    width, height = board.grid_size
    assert 50 <= width <= 59 and 28 <= height <= 31
    assert max(c1 for _, _, c1 in board.label_spans.values()) + 3 <= 62


def test_every_location_is_marked_by_its_code(board: SteelDriverMap) -> None:
    for loc in board.cities:
        assert loc.grid_label == loc.id, loc.name


def _label_cells(board: SteelDriverMap) -> dict[tuple[int, int], str]:
    """Each label's cells, with the mark cell before it and three value cells after it."""
    owner = {}
    for lid, (row, c0, c1) in board.label_spans.items():
        for col in range(c0 - 1, c1 + 3):
            assert (col, row) not in owner, (lid, owner.get((col, row)))
            owner[(col, row)] = lid
    return owner


def test_mark_and_value_cells_are_blank(board: SteelDriverMap) -> None:
    lines = board.grid_lines
    for lid, (row, c0, c1) in board.label_spans.items():
        line = lines[row]
        for col in [c0 - 1, c1, c1 + 1, c1 + 2]:
            assert col >= 0 and (col >= len(line) or line[col] == " "), (lid, col)


def _cells_touched(p: tuple[int, int], q: tuple[int, int]) -> set[tuple[int, int]]:
    """Grid cells whose square the segment from p to q passes through (generously)."""
    (x0, y0), (x1, y1) = p, q
    steps = 8 * max(abs(x1 - x0), abs(y1 - y0), 1)
    cells = set()
    for i in range(steps + 1):
        x = x0 + (x1 - x0) * i / steps
        y = y0 + (y1 - y0) * i / steps
        for dx in (-0.05, 0.05):
            for dy in (-0.05, 0.05):
                cells.add((math.floor(x + 0.5 + dx), math.floor(y + 0.5 + dy)))
    return cells


def test_no_route_line_crosses_another_label_or_water(board: SteelDriverMap) -> None:
    owner = _label_cells(board)
    lines = board.grid_lines
    for r in board.links:
        points = [board.anchors[r.a], *r.via, board.anchors[r.b]]
        for p, q in pairwise(points):
            cells = _cells_touched(p, q)
            crossed = {owner[c] for c in cells if c in owner}
            assert crossed <= {r.a, r.b}, (r.id, crossed)
            for col, row in cells:
                if (col, row) not in owner and col < len(lines[row]):
                    assert lines[row][col] == " ", (r.id, col, row)


def test_no_two_route_lines_cross(board: SteelDriverMap) -> None:
    def side(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    # Each route as drawn: straight, or through its bend points.
    segments = [(r, p, q) for r in board.links
                for p, q in pairwise([board.anchors[r.a], *r.via, board.anchors[r.b]])]
    for i, (r1, p1, q1) in enumerate(segments):
        for r2, p2, q2 in segments[i + 1:]:
            if {r1.a, r1.b} & {r2.a, r2.b}:
                continue
            crosses = (side(p2, q2, p1) * side(p2, q2, q1) < 0
                       and side(p1, q1, p2) * side(p1, q1, q2) < 0)
            assert not crosses, (r1.id, r2.id)


# ------------------------------------------------------------ broken copies
def _header_line(text: str, table: str, index: int) -> int:
    count = -1
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.strip() == f"[[{table}]]":
            count += 1
            if count == index:
                return lineno
    raise AssertionError(f"no [[{table}]] number {index}")


def _index_of(text: str, table: str, key_line: str) -> int:
    return text[: text.index(key_line)].count(f"[[{table}]]") - 1


def _load_broken(tmp_path: Path, text: str) -> str:
    path = tmp_path / "broken-steel-driver.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as err:
        load_map_file(path, SteelDriverMap)
    message = str(err.value)
    assert str(path) in message
    return message


def test_an_unknown_colour_is_reported_with_its_line(tmp_path: Path, text: str) -> None:
    block = 'name = "Pittsburgh"\nvalue = 40\ncolour = "red"'
    assert block in text
    broken = text.replace(block, block.replace('"red"', '"green"'))
    index = _index_of(broken, "cities", 'name = "Pittsburgh"')
    message = _load_broken(tmp_path, broken)
    assert f"line {_header_line(broken, 'cities', index)}" in message
    assert f"cities.{index}.colour" in message and "'green'" in message


def test_more_locations_of_a_colour_than_cubes_is_reported(tmp_path: Path, text: str) -> None:
    block = 'name = "Buffalo"\nvalue = 30\ncolour = "black"'
    assert block in text
    broken = text.replace(block, block.replace('"black"', '"red"'))
    message = _load_broken(tmp_path, broken)
    assert "4 locations are red but there are only 3 red cubes" in message


def test_a_route_to_an_unknown_location_is_reported(tmp_path: Path, text: str) -> None:
    block = 'id = "BAL-PIT"\na = "BAL"\nb = "PIT"'
    assert block in text
    broken = text.replace(block, 'id = "BAL-PIT"\na = "BAL"\nb = "XYZ"')
    index = _index_of(broken, "links", 'id = "BAL-PIT"')
    message = _load_broken(tmp_path, broken)
    assert f"line {_header_line(broken, 'links', index)}" in message
    assert "unknown city 'XYZ'" in message


def test_a_route_costing_nothing_is_reported(tmp_path: Path, text: str) -> None:
    block = 'id = "BAL-PIT"\na = "BAL"\nb = "PIT"\ncost = 3'
    assert block in text
    broken = text.replace(block, block.replace("cost = 3", "cost = 0"))
    index = _index_of(broken, "links", 'id = "BAL-PIT"')
    message = _load_broken(tmp_path, broken)
    assert f"links.{index}.cost" in message


def test_a_label_missing_from_the_grid_is_reported(tmp_path: Path, text: str) -> None:
    broken = re.sub(r"(\n +)TUC", r"\1TCU", text, count=1)
    assert broken != text
    message = _load_broken(tmp_path, broken)
    assert "'TUC'" in message and "does not appear" in message
