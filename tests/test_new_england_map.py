"""The New England board file: the rulebook's facts, and clear errors for broken copies."""

from __future__ import annotations

import math
import re
from collections import Counter, deque
from itertools import pairwise
from pathlib import Path

import pytest

from railgames.core.errors import MapError
from railgames.core.maps import load_map_file
from railgames.games.new_england.board_map import NewEnglandMap

MAP_PATH = Path(__file__).resolve().parents[1] / "maps" / "new-england.toml"

# The cities the rulebook names, by the ids the rules code uses.
RULEBOOK_CITIES = {
    "BOS": "Boston",
    "PRO": "Providence",
    "WOR": "Worcester",
    "HAR": "Hartford",
    "NHV": "New Haven",
    "PLA": "Plainfield",
    "RUT": "Rutland",
    "MAN": "Manchester",
    "POR": "Portland",
    "LOW": "Lowell",
    "KIN": "Kingston",
}

# The shipping example: a blue cube from Boston to New Haven.
SHIPPING_ROUTE = ["BOS", "PRO", "PLA", "HAR", "NHV"]


@pytest.fixture(scope="module")
def board() -> NewEnglandMap:
    return load_map_file(MAP_PATH, NewEnglandMap)


@pytest.fixture(scope="module")
def text() -> str:
    return MAP_PATH.read_text(encoding="utf-8")


# ------------------------------------------------------------ rulebook facts


def test_there_are_46_cubes(board: NewEnglandMap) -> None:
    assert sum(board.commodities.values()) == 46
    assert all(count > 0 for count in board.commodities.values())


def test_four_commodity_colours_including_purple_and_blue(board: NewEnglandMap) -> None:
    assert len(board.commodities) == 4
    assert {"purple", "blue"} <= set(board.commodities)


def test_the_cities_the_rulebook_names_are_on_the_board(board: NewEnglandMap) -> None:
    for cid, name in RULEBOOK_CITIES.items():
        assert board.city_by_id[cid].name == name


def test_worcester_takes_purple_and_new_haven_blue(board: NewEnglandMap) -> None:
    assert board.demand_of["WOR"] == "purple"
    assert board.demand_of["NHV"] == "blue"


def test_boston_providence_is_worth_5(board: NewEnglandMap) -> None:
    link = board.link_by_id["BOS-PRO"]
    assert {link.a, link.b} == {"BOS", "PRO"}
    assert link.value == 5


def test_the_shipping_example_route_exists(board: NewEnglandMap) -> None:
    for here, there in pairwise(SHIPPING_ROUTE):
        assert frozenset((here, there)) in board.link_between, (here, there)
    for lid in ("BOS-PRO", "PRO-PLA", "HAR-PLA", "HAR-NHV"):
        assert lid in board.link_by_id
    # At most five links, as a shipment allows.
    assert len(SHIPPING_ROUTE) - 1 <= 5


def test_a_blue_cube_is_not_stopped_before_new_haven(board: NewEnglandMap) -> None:
    # A cube halts in the first city that wants its colour, so the cities on
    # the way must want something else.
    for cid in ("PRO", "PLA", "HAR"):
        assert board.demand_of[cid] != "blue", cid
    assert board.demand_of["BOS"] != "blue"


@pytest.mark.parametrize(
    ("players", "links"),
    [
        ("3", ["BOS-PRO", "BOS-WOR"]),
        ("4", ["BOS-PRO", "BOS-WOR", "PRO-WOR"]),
        ("5", ["BOS-PRO", "BOS-WOR", "PRO-WOR", "BOS-LOW"]),
        ("6", ["BOS-PRO", "BOS-WOR", "PRO-WOR", "BOS-LOW", "PRO-KIN"]),
    ],
)
def test_starting_links_per_player_count(
    board: NewEnglandMap, players: str, links: list[str]
) -> None:
    assert board.starting_links[players] == links


def test_starting_link_ends(board: NewEnglandMap) -> None:
    ends = {
        "BOS-PRO": {"BOS", "PRO"},
        "BOS-WOR": {"BOS", "WOR"},
        "PRO-WOR": {"PRO", "WOR"},
        "BOS-LOW": {"BOS", "LOW"},
        "PRO-KIN": {"PRO", "KIN"},
    }
    for lid, cities in ends.items():
        link = board.link_by_id[lid]
        assert {link.a, link.b} == cities


def test_set_up_draws_in_rulebook_order(board: NewEnglandMap) -> None:
    draws = ["RUT", "HAR", "WOR", "MAN", "POR", "LOW", "KIN", "BOS", "BOS", "PRO", "PRO"]
    assert board.setup_cubes == draws


def test_worcester_and_portland_growth_card(board: NewEnglandMap) -> None:
    assert any(sorted(card.cities) == ["POR", "WOR"] for card in board.growth_deck)


# ------------------------------------------------------------ board choices


def test_every_city_is_on_some_growth_card(board: NewEnglandMap) -> None:
    listed = {cid for card in board.growth_deck for cid in card.cities}
    assert listed == set(board.city_by_id)


def test_all_links_form_one_network(board: NewEnglandMap) -> None:
    neighbours: dict[str, set[str]] = {cid: set() for cid in board.city_by_id}
    for link in board.links:
        neighbours[link.a].add(link.b)
        neighbours[link.b].add(link.a)
    start = board.cities[0].id
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in neighbours[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == set(board.city_by_id)


def test_every_label_appears_once_in_the_grid(board: NewEnglandMap) -> None:
    for city in board.cities:
        pattern = re.compile(r"(?<![A-Za-z])" + re.escape(city.grid_label) + r"(?![A-Za-z])")
        hits = sum(len(pattern.findall(line)) for line in board.grid_lines)
        assert hits == 1, city.id


def test_grid_is_plain_ascii(board: NewEnglandMap) -> None:
    for line in board.grid_lines:
        assert all(" " <= ch <= "~" for ch in line), line


def test_link_ids_name_their_ends(board: NewEnglandMap) -> None:
    for link in board.links:
        assert link.id == f"{link.a}-{link.b}"


def test_link_values_spread_from_cheap_to_dear(board: NewEnglandMap) -> None:
    values = [link.value for link in board.links]
    assert min(values) <= 4
    assert max(values) >= 10
    assert all(3 <= v <= 11 for v in values)


def test_every_colour_is_wanted_in_five_or_more_cities(board: NewEnglandMap) -> None:
    wanted = Counter(board.demand_of.values())
    for colour in board.commodities:
        assert wanted[colour] >= 5, colour


def _cells_touched(p: tuple[int, int], q: tuple[int, int]) -> set[tuple[int, int]]:
    """Grid cells whose square the segment from p to q passes through (generously)."""
    (x0, y0), (x1, y1) = p, q
    steps = 8 * max(abs(x1 - x0), abs(y1 - y0), 1)
    cells = set()
    for i in range(steps + 1):
        x = x0 + (x1 - x0) * i / steps
        y = y0 + (y1 - y0) * i / steps
        # Either way of rounding a point that falls on a cell edge.
        for dx in (-0.05, 0.05):
            for dy in (-0.05, 0.05):
                cells.add((math.floor(x + 0.5 + dx), math.floor(y + 0.5 + dy)))
    return cells


def test_no_link_line_crosses_another_city_label(board: NewEnglandMap) -> None:
    owner = {}
    for cid, (row, c0, c1) in board.label_spans.items():
        for col in range(c0, c1):
            owner[(col, row)] = cid
    for link in board.links:
        points = [board.anchors[link.a], *link.via, board.anchors[link.b]]
        for p, q in pairwise(points):
            crossed = {owner[c] for c in _cells_touched(p, q) if c in owner}
            assert crossed <= {link.a, link.b}, (link.id, crossed)


# ------------------------------------------------------------ broken copies


def _header_line(text: str, table: str, index: int) -> int:
    """1-based line number of the index-th [[table]] header."""
    count = -1
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.strip() == f"[[{table}]]":
            count += 1
            if count == index:
                return lineno
    raise AssertionError(f"no [[{table}]] number {index}")


def _index_of(text: str, table: str, key_line: str) -> int:
    """Which [[table]] holds the line key_line."""
    before = text[: text.index(key_line)]
    return before.count(f"[[{table}]]") - 1


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "broken-new-england.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_unknown_demand_colour_is_reported(tmp_path: Path, text: str) -> None:
    block = 'id = "WOR"\nname = "Worcester"\ndemand = "purple"'
    assert block in text
    broken = text.replace(block, block.replace('"purple"', '"green"'))
    index = _index_of(broken, "cities", 'id = "WOR"')
    path = _write(tmp_path, broken)
    with pytest.raises(MapError) as err:
        load_map_file(path, NewEnglandMap)
    message = str(err.value)
    assert str(path) in message
    assert f"line {_header_line(broken, 'cities', index)}" in message
    assert f"cities.{index}.demand" in message
    assert "'green' is not a commodity colour" in message


def test_link_to_unknown_city_is_reported(tmp_path: Path, text: str) -> None:
    block = 'id = "HAR-NHV"\na = "HAR"\nb = "NHV"'
    assert block in text
    broken = text.replace(block, 'id = "HAR-NHV"\na = "HAR"\nb = "XYZ"')
    index = _index_of(broken, "links", 'id = "HAR-NHV"')
    path = _write(tmp_path, broken)
    with pytest.raises(MapError) as err:
        load_map_file(path, NewEnglandMap)
    message = str(err.value)
    assert str(path) in message
    assert f"line {_header_line(broken, 'links', index)}" in message
    assert f"links.{index}" in message
    assert "unknown city 'XYZ'" in message


def test_toml_syntax_error_is_reported_with_its_line(tmp_path: Path, text: str) -> None:
    lines = text.splitlines()
    lineno = lines.index('title = "New England"') + 1
    lines[lineno - 1] = 'title = "New England'  # unterminated string
    path = _write(tmp_path, "\n".join(lines) + "\n")
    with pytest.raises(MapError) as err:
        load_map_file(path, NewEnglandMap)
    message = str(err.value)
    assert str(path) in message
    assert "not valid TOML" in message
    assert f"line {lineno}" in message


def test_label_missing_from_grid_is_reported(tmp_path: Path, text: str) -> None:
    assert 'name = "Bangor"' in text
    broken = text.replace('name = "Bangor"', 'name = "Bangor"\nlabel = "Orono"')
    index = _index_of(broken, "cities", 'id = "BAN"')
    path = _write(tmp_path, broken)
    with pytest.raises(MapError) as err:
        load_map_file(path, NewEnglandMap)
    message = str(err.value)
    assert str(path) in message
    assert f"line {_header_line(broken, 'cities', index)}" in message
    assert f"cities.{index}" in message
    assert "'Orono'" in message and "does not appear" in message


def test_wrong_cube_total_is_reported(tmp_path: Path, text: str) -> None:
    assert "\nred = 12\n" in text
    broken = text.replace("\nred = 12\n", "\nred = 13\n")
    path = _write(tmp_path, broken)
    with pytest.raises(MapError) as err:
        load_map_file(path, NewEnglandMap)
    message = str(err.value)
    assert str(path) in message
    assert "commodities" in message
    assert "47" in message and "46" in message
