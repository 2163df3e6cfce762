"""The Railways of the World board reads like the printed one: every city marked by a
code of its own, track joined to the cities it runs between, and a link being built
told apart from a finished one by its characters alone (NO_COLOR)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rotw_support import place_link, start_game

from railgames.app.widgets.hex_layout import hex_id
from railgames.core.engine import Game
from railgames.core.hexgrid import Hex
from railgames.games import load_ruleset, maps_for
from railgames.games.railways_of_the_world.board import RotwBoard, RotwTrack, city_codes
from railgames.games.railways_of_the_world.rules import RailwaysOfTheWorldRules
from tests.app.driving import board_without_colour

ROTW = "railways-of-the-world"
MAPS = [map_id for map_id, _ in maps_for(ROTW)]
TRACK = {"─", "╌", "╱", "╲", "⋰", "⋱", "<", ">"}
# The cells each track glyph joins, either side of it.
POINTS = {"─": ((1, 0), (-1, 0)), "╌": ((1, 0), (-1, 0)), "╱": ((1, -1), (-1, 1)),
          "⋰": ((1, -1), (-1, 1)), "╲": ((1, 1), (-1, -1)), "⋱": ((1, 1), (-1, -1)),
          ">": ((1, -1), (1, 1)), "<": ((-1, -1), (-1, 1))}


def rules_for(map_id: str) -> RailwaysOfTheWorldRules:
    rules = load_ruleset(ROTW, map_id)
    assert isinstance(rules, RailwaysOfTheWorldRules)
    return rules


def board_for(game: Game) -> RotwBoard:
    board = RotwBoard(game.ruleset)  # type: ignore[arg-type]
    board.update_state(game.state)
    return board


def where(rules: RailwaysOfTheWorldRules, name: str) -> tuple[int, int]:
    city = next(c for c in rules.map.cities if c.name == name)
    return city.col, city.row


def test_both_maps_are_checked() -> None:
    assert {"rotw-eastern-us", "rotw-mexico"} <= set(MAPS)


@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_of_every_map_is_marked_on_the_board_by_a_code_of_its_own(
        map_id: str) -> None:
    rules = rules_for(map_id)
    board = board_for(start_game(rules, players=rules.map.players[0]))
    codes = board.layout_.code_of
    assert len(set(codes.values())) == len(codes) == len(rules.map.cities)
    text = board.board_text()
    for h, city in rules.map.city_at.items():
        code = codes[h]
        assert len(code) == 3 and code.isalpha() and code.isupper(), code
        assert board.hex_text(hex_id(city.col, city.row)).startswith(code), city.name
        assert text.count(code) == 1, (city.name, code)


def test_codes_stay_apart_for_names_that_begin_alike() -> None:
    codes = city_codes(["Charlotte", "Charleston", "Chattanooga", "Chicago", "St. Louis",
                        "New York", "New Orleans", "Norfolk", "Mexico City", "Salina Cruz"])
    assert len(set(codes.values())) == len(codes)
    assert codes["St. Louis"] == "STL" and codes["Mexico City"] == "MEX"
    assert codes["Chicago"] == "CHI" and codes["Charlotte"] == "CHA"
    # Even names that are all alike get codes of their own.
    assert len(set(city_codes(["Aa", "Aa b", "Aa c", "A", "Ab", "Aab"]).values())) == 6


def test_the_cursor_line_gives_the_code_and_the_full_name() -> None:
    rules = rules_for("rotw-eastern-us")
    game = start_game(rules)
    track = RotwTrack(rules)
    line = track.hex_line(game.state, hex_id(*where(rules, "St. Louis"))).plain
    assert "STL St. Louis" in line
    # Any other hex: its terrain and the way from the nearest city, no coordinates.
    col, row = where(rules, "Chicago")
    line = track.hex_line(game.state, hex_id(col + 1, row)).plain
    assert "east of Chicago" in line and f"{col + 1},{row}" not in line


def _cells(board: RotwBoard, h: Hex) -> tuple[int, int]:
    return board.layout_.centre[h]


def _joins(board: RotwBoard, cell: tuple[int, int], city: Hex) -> bool:
    """Whether the track glyph in ``cell`` runs into the cells of ``city``."""
    x, y = cell
    glyph = board._rows[y][x][0]
    region = board.layout_.city_cells[city]
    return glyph in POINTS and any(
        region.contains(x + dx, y + dy) for dx, dy in POINTS[glyph])


def _end_joined(board: RotwBoard, tile: Hex, city: Hex) -> bool:
    """The tile next to ``city`` shows a way into it, in the tile's own cell toward it."""
    (tx, ty), (cx, _) = _cells(board, tile), _cells(board, city)
    return _joins(board, (tx + (1 if cx > tx else -1), ty), city)


@pytest.mark.parametrize(("map_id", "start", "end"), [
    ("rotw-eastern-us", "Chicago", "Detroit"),
    ("rotw-eastern-us", "Pittsburgh", "Cleveland"),
    ("rotw-mexico", "Monterrey", "Saltillo"),
    ("rotw-mexico", "Guadalajara", "León"),
])
def test_a_link_is_drawn_joined_to_the_two_cities_it_runs_between(
        map_id: str, start: str, end: str) -> None:
    rules = rules_for(map_id)
    game = start_game(rules)
    link = game.state.links[place_link(game, 0, where(rules, start), where(rules, end))]
    board = board_for(game)
    a, b = rules.city_hex(link.start), rules.city_hex(link.end or "")
    assert _end_joined(board, link.tiles[0], a), board.board_text()
    assert _end_joined(board, link.tiles[-1], b), board.board_text()
    # No way out of the link's tiles runs into another city.
    others = [h for h in rules.map.city_at if h not in (a, b)]
    for t in link.tiles:
        tx, ty = _cells(board, t)
        for x in (tx - 1, tx + 1):
            assert not any(_joins(board, (x, ty), c) for c in others), board.board_text()
        # Each tile carries its owner's letter.
        assert board._rows[ty][tx][0] == "A"


def _plain_and_no_colour(board: RotwBoard) -> list[str]:
    return board_without_colour(board, 200).splitlines()


def test_a_link_being_built_reads_apart_from_a_finished_one_without_colour() -> None:
    rules = rules_for("rotw-eastern-us")
    chicago, detroit = where(rules, "Chicago"), where(rules, "Detroit")
    done, building = start_game(rules), start_game(rules)
    place_link(done, 0, chicago, detroit)
    place_link(building, 0, chicago, detroit, complete=False)
    tiles = building.state.links["L1"].tiles
    assert tiles and tiles == done.state.links["L1"].tiles[:len(tiles)]
    finished, unfinished = board_for(done), board_for(building)
    for t in tiles:
        x, y = _cells(finished, t)
        # Same tiles, different characters: with no colour at all they still differ.
        plain_done = "".join(ch for ch, _ in finished._rows[y][x - 2:x + 3])
        plain_building = "".join(ch for ch, _ in unfinished._rows[y][x - 2:x + 3])
        assert plain_done != plain_building
        assert unfinished._rows[y][x][0] == "a" and finished._rows[y][x][0] == "A"
    assert _plain_and_no_colour(unfinished) == [
        unfinished.row_text(y) for y in range(unfinished.layout_.height)]
    assert _plain_and_no_colour(unfinished) != _plain_and_no_colour(finished)
    # The start is joined to Chicago even while the link is being built.
    assert _end_joined(unfinished, tiles[0], rules.city_hex("CHI"))


def test_the_folded_legend_keeps_a_space_between_each_mark_and_its_words() -> None:
    """At 80 columns the map's key is shown in words with the panels; a mark as wide as a
    city with its cubes ("ABCyb") must not run into what it means."""
    from railgames.games.railways_of_the_world.board import LEGEND
    from railgames.games.railways_of_the_world.ui import RotwUI

    ui = RotwUI(load_ruleset(ROTW))
    console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
    console.print(ui.legend())
    text = console.export_text()
    for glyph, _, words in LEGEND:
        assert f"{glyph} " in text and words.split()[0] in text, (glyph, text)
        assert f"{glyph}{words[0]}" not in text, (glyph, text)
