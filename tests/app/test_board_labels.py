"""Every city of every New England and Steel Driver map is named on its board.

The boards draw links, owners' letters, cubes and values over the map's grid;
with every link owned (or built) and goods everywhere, each city's label must
still read whole where the map file puts it. Every map file of these games in
maps/ is checked, the archived versions that old saves replay on included.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from railgames.core.engine import Game
from railgames.core.maps import load_map_file
from railgames.core.record import PlayerSpec
from railgames.games.new_england.board import NewEnglandBoard
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.rules import NewEnglandRules
from railgames.games.steel_driver.board import SteelDriverBoard
from railgames.games.steel_driver.board_map import SteelDriverMap
from railgames.games.steel_driver.rules import SteelDriverRules

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
PLAYERS = [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")]


def map_files(game: str) -> list[Path]:
    found = [path for path in sorted(MAPS_DIR.rglob("*.toml"))
             if tomllib.loads(path.read_text()).get("game") == game]
    assert found, f"no {game} map in {MAPS_DIR}"
    return found


def labels_drawn(board: NewEnglandBoard | SteelDriverBoard) -> list[str]:
    """The cities whose label does not read whole where the map puts it."""
    missing = []
    for city in board.layout_.map.cities:
        row, col0, col1 = board.layout_.map.label_spans[city.id]
        if board.row_text(row)[col0:col1] != city.grid_label:
            missing.append(f"{city.id} ({city.grid_label!r} drawn as "
                           f"{board.row_text(row)[col0:col1]!r})")
    return missing


@pytest.mark.parametrize("path", map_files("new-england"), ids=lambda p: p.stem)
def test_every_new_england_city_is_labelled_on_the_board(path: Path) -> None:
    rules = NewEnglandRules(load_map_file(path, NewEnglandMap))
    state = copy.deepcopy(Game.new(rules, PLAYERS, seed=5).state)
    # The busiest board there can be: every link owned, half of them still to build,
    # cubes of every colour waiting in every city.
    for i, link in enumerate(rules.map.links):
        state.owner[link.id] = i % len(PLAYERS)
        (state.built.add(link.id) if i % 2 else state.unfinished.append(link.id))
    for city in rules.map.cities:
        state.cubes[city.id] = {"blue": 2, "purple": 1, "red": 1, "yellow": 3}
    board = NewEnglandBoard(rules)
    board.update_state(state)
    assert len(board.layout_.map.cities) >= 20
    assert labels_drawn(board) == []


@pytest.mark.parametrize("path", map_files("steel-driver"), ids=lambda p: p.stem)
def test_every_steel_driver_location_is_labelled_on_the_board(path: Path) -> None:
    rules = SteelDriverRules(load_map_file(path, SteelDriverMap))
    state = copy.deepcopy(Game.new(rules, PLAYERS, seed=5).state)
    companies = list(state.companies)
    for i, route in enumerate(rules.map.links):  # every route built
        state.track[route.id] = companies[i % len(companies)]
    board = SteelDriverBoard(rules)
    board.update_state(state)
    assert len(board.layout_.map.cities) >= 20
    assert labels_drawn(board) == []
