"""The Paris Connection board file: the reported facts, geography, and clear errors."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from railgames.cli import main
from railgames.core.errors import MapError
from railgames.core.hexgrid import Hex, neighbours
from railgames.core.maps import load_map_file
from railgames.games.paris_connection.board_map import ParisConnectionMap

MAP_PATH = Path(__file__).resolve().parents[1] / "maps" / "paris-connection.toml"

# Real positions (longitude, latitude) of cities the board must carry.
REAL = {
    "Lille": (3.06, 50.63), "Rouen": (1.10, 49.44), "Le Havre": (0.11, 49.49),
    "Caen": (-0.37, 49.18), "Rennes": (-1.68, 48.11), "Brest": (-4.49, 48.39),
    "Nantes": (-1.55, 47.22), "Tours": (0.69, 47.39), "Orléans": (1.91, 47.90),
    "Reims": (4.03, 49.26), "Metz": (6.18, 49.12), "Strasbourg": (7.75, 48.58),
    "Dijon": (5.04, 47.32), "Lyon": (4.84, 45.76), "Grenoble": (5.72, 45.19),
    "Clermont-Ferrand": (3.08, 45.78), "Limoges": (1.26, 45.83), "Bordeaux": (-0.58, 44.84),
    "Toulouse": (1.44, 43.60), "Montpellier": (3.88, 43.61), "Nice": (7.26, 43.70),
    "Marseille": (5.37, 43.30),
}
PARIS = (2.35, 48.86)


@pytest.fixture(scope="module")
def board() -> ParisConnectionMap:
    return load_map_file(MAP_PATH, ParisConnectionMap)


def centre(board: ParisConnectionMap, h: Hex) -> tuple[float, float]:
    """Where a hex sits on the page: x grows eastwards, y southwards (pointy tops)."""
    return (math.sqrt(3) * (h.q + h.r / 2), 1.5 * h.r)


# ------------------------------------------------------------ the reported facts
def test_maps_check_accepts_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["maps", "check", str(MAP_PATH)]) == 0
    assert "ok (hex map 'paris-connection'" in capsys.readouterr().out


def test_six_companies_of_33_locomotives(board: ParisConnectionMap) -> None:
    assert len(board.companies) == 6
    assert all(c.locomotives == 33 for c in board.companies)
    assert len({c.letter for c in board.companies}) == 6


def test_each_company_starts_in_its_own_hex_next_to_the_tower(board: ParisConnectionMap) -> None:
    starts = [board.hex_of(*c.start) for c in board.companies]
    assert len(set(starts)) == 6
    assert set(starts) == set(board.paris) == set(neighbours(board.tower))


def test_city_values_and_marseille_alone_is_blue(board: ParisConnectionMap) -> None:
    assert board.city_values == {"beige": 1, "purple": 2, "red": 3, "blue": 4}
    blue = [c.name for c in board.cities if c.colour == "blue"]
    assert blue == ["Marseille"]
    assert board.end_city == next(c.id for c in board.cities if c.name == "Marseille")
    assert {c.colour for c in board.cities} == {"beige", "purple", "red", "blue"}


def test_hex_values_and_room(board: ParisConnectionMap) -> None:
    for h, t in board.terrain.items():
        if t == "city":
            assert board.hex_value[h] >= 1 and board.capacity[h] == 1
        else:
            assert board.hex_value[h] == 0
            assert board.capacity[h] == (0 if t == "eiffel_tower" else 2)


def test_checkered_sides_exist_and_block_adjacency(board: ParisConnectionMap) -> None:
    assert len(board.checkered) >= 6
    for a, b in board.checkered:
        assert b not in board.links[a] and a not in board.links[b]


# ------------------------------------------------------------ geography
def test_the_named_cities_are_on_the_board(board: ParisConnectionMap) -> None:
    names = {c.name for c in board.cities}
    assert set(REAL) <= names


def test_cities_keep_their_real_relative_positions(board: ParisConnectionMap) -> None:
    """Compared pairwise: clearly east stays east, clearly north stays north."""
    where = {c.name: centre(board, board.hex_of(c.col, c.row)) for c in board.cities}
    where["Paris"] = centre(board, board.tower)
    real = {**REAL, "Paris": PARIS}
    for a, (lon_a, lat_a) in real.items():
        for b, (lon_b, lat_b) in real.items():
            if lon_a - lon_b > 0.8:
                assert where[a][0] > where[b][0], f"{a} should lie east of {b}"
            if lat_a - lat_b > 0.5:
                assert where[a][1] < where[b][1], f"{a} should lie north of {b}"


def test_every_hex_can_be_reached_from_paris(board: ParisConnectionMap) -> None:
    seen = {board.tower}
    todo = [board.tower]
    while todo:
        h = todo.pop()
        for n in board.links[h]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(board.terrain)


# ------------------------------------------------------------ broken copies
@pytest.mark.parametrize("change, expected", [
    (('colour = "blue"', 'colour = "green"'), "cities.40.colour: 'green' is not one of"),
    (("start = [11, 4]", "start = [12, 4]"), "companies.0.start: [12, 4] is not a Paris hex"),
    (('letter = "Y"', 'letter = "R"'), "letter 'R' is used twice"),
    (('end_city = "MAR"', 'end_city = "ATL"'), "end_city: there is no city 'ATL'"),
    (('feature = "checkered" },', 'feature = "ridge" },'), "'ridge' is not 'checkered'"),
    (('"T" = "eiffel_tower"', '"T" = "tower"'), "names terrain 'tower'"),
])
def test_broken_copies_name_the_file_and_problem(tmp_path: Path, change: tuple[str, str],
                                                 expected: str) -> None:
    text = MAP_PATH.read_text(encoding="utf-8")
    assert change[0] in text
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace(*change, 1), encoding="utf-8")
    with pytest.raises(MapError) as err:
        load_map_file(broken, ParisConnectionMap)
    assert "broken.toml" in err.value.reason and expected in err.value.reason


def test_a_city_hex_without_a_city_is_refused(tmp_path: Path) -> None:
    text = MAP_PATH.read_text(encoding="utf-8")
    cut = text.index('[[cities]]\nid = "PER"')
    broken = tmp_path / "broken.toml"
    broken.write_text(text[:cut], encoding="utf-8")
    with pytest.raises(MapError, match=r"the city hex \[11, 18\] has no entry"):
        load_map_file(broken, ParisConnectionMap)
