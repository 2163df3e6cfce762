"""American Rails names hexes as a player would: cities by name, other hexes by terrain,
way and nearest city; and every city is marked on the drawn board by its code."""

from __future__ import annotations

import re
from typing import Any

import pytest

from railgames.core.hexgrid import distance, neighbours
from railgames.games import load_ruleset, maps_for
from railgames.games.american_rails.board import AmericanRailsBoard, HexLayout, city_code
from railgames.games.american_rails.places import direction, nearest_city, place_name
from railgames.games.american_rails.rules import AmericanRailsRules

GAME = "american-rails"
MAPS = [map_id for map_id, _ in maps_for(GAME)]
COORDINATES = re.compile(r"\d+\s*,\s*\d+|\[\d")


def rules_for(map_id: str) -> AmericanRailsRules:
    rules = load_ruleset(GAME, map_id)
    assert isinstance(rules, AmericanRailsRules)
    return rules


@pytest.mark.parametrize("map_id", MAPS)
def test_every_hex_has_its_own_name_without_coordinates(map_id: str) -> None:
    m = rules_for(map_id).map
    names = {h: place_name(m, h) for h in m.terrain}
    assert len(set(names.values())) == len(names), "two hexes share a name"
    for h, name in names.items():
        assert not COORDINATES.search(name), name
        city = m.city_at.get(h)
        if city is not None:
            assert name == city.name
        else:
            assert name.startswith(m.terrain[h] + " ") and " of " in name


def test_the_six_neighbours_lie_the_six_ways() -> None:
    m = rules_for(MAPS[0]).map
    pittsburgh = m.city_hex["PIT"]
    ways = {m.offset_of(n): direction(m, pittsburgh, n) for n in neighbours(pittsburgh)}
    col, row = m.offset_of(pittsburgh)  # an even row: the rows above and below sit half left
    assert row % 2 == 0
    assert ways == {(col + 1, row): "east", (col - 1, row): "west",
                    (col, row - 1): "north-east", (col - 1, row - 1): "north-west",
                    (col, row + 1): "south-east", (col - 1, row + 1): "south-west"}


def test_a_hex_is_named_from_its_nearest_city() -> None:
    m = rules_for(MAPS[0]).map
    for h in m.terrain:
        if h in m.city_at:
            continue
        near = nearest_city(m, h)
        steps = distance(near, h)
        name = place_name(m, h)
        assert name.endswith(f" of {m.city_at[near].name}")
        assert (f" {steps} hexes " in name) == (steps > 1), name
        assert not any(distance(c, h) < steps for c in m.city_at)


def test_log_and_refusals_name_places_without_coordinates() -> None:
    rules = rules_for(MAPS[0])
    for h in rules.map.terrain:
        assert not COORDINATES.search(rules.hex_name(h))


def drawn_board(rules: AmericanRailsRules, layout: HexLayout) -> list[str]:
    board = AmericanRailsBoard(rules)
    board.layout_ = layout
    board._build_scene()
    return ["".join(ch for ch, _ in row) for row in board._scene]


@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_is_marked_by_its_own_code_in_both_drawings(map_id: str) -> None:
    rules = rules_for(map_id)
    m = rules.map
    codes = [city_code(c.id) for c in m.cities]
    assert len(set(codes)) == len(codes), "two cities share a code"
    for layout in (HexLayout.roomy(m), HexLayout.narrow(m)):
        rows = drawn_board(rules, layout)
        for city in m.cities:
            h = m.city_hex[city.id]
            x, width = layout.span[h]
            y = layout.origin[h][1]
            top, bottom = rows[y][x:x + width], rows[y + 1][x:x + width]
            assert top.startswith(city_code(city.id)), (city.name, top)
            values = f"{city.full}{city.shared}" if layout.compact else \
                f"{city.full}{'■' if city.never_develop else '/'}{city.shared}"
            assert bottom.startswith(values), (city.name, bottom)
        # Every code appears once on the whole board.
        text = "\n".join(rows)
        for code in codes:
            assert text.count(code) == 1, code


def test_a_city_at_the_left_edge_keeps_its_code_whole() -> None:
    rules = rules_for(MAPS[0])
    m = rules.map
    edge = [c for c in m.cities if c.col == 0 and c.row % 2 == 0]
    assert edge, "the map has a city at the left edge (Rock Island)"
    layout = HexLayout.narrow(m)
    rows = drawn_board(rules, layout)
    for c in edge:
        y = layout.origin[m.city_hex[c.id]][1]
        assert rows[y].lstrip().startswith(city_code(c.id))


def test_the_key_line_explains_the_values(tmp_path: Any) -> None:
    from railgames.games.american_rails.board import AmericanRailsTrack

    track = AmericanRailsTrack(rules_for(MAPS[0]))
    key = track.key_line().plain
    assert "alone" in key and "shared" in key and "developed" in key and "never" in key


def test_the_end_key_says_the_same_in_the_footer_the_hint_and_the_list() -> None:
    from railgames.app.boards import game_ui
    from railgames.core.engine import Game
    from railgames.core.simulate import bot_players, bots_for, step_bot
    from railgames.games import descriptor
    from railgames.games.american_rails.actions import EndAction

    rules = rules_for(MAPS[0])
    ui = game_ui(rules)
    word = dict(descriptor(GAME).keys)["e"]
    game = Game.new(rules, bot_players(3, "greedy"), 3)
    bots = bots_for(game, 3)
    steps: set[str] = set()
    while not game.is_over() and len(game.record.actions) < 400:
        prompt = game.prompt()
        assert prompt is not None
        ends = [a for a in prompt.choices if isinstance(a, EndAction)]
        if ends:
            steps.add(str(game.state.step))
            names = [p.name for p in game.state.players]
            assert [h.label for h in ui.hotkeys(game.state, prompt, names) if h.key == "e"] == [word]
            assert ui.describe(game.state, ends[0], names).startswith(word)
        step_bot(game, bots)
    assert {"expand", "develop"} <= steps, steps


def test_the_cursor_line_names_the_place_and_says_the_values_in_words() -> None:
    from railgames.core.engine import Game
    from railgames.core.simulate import bot_players
    from railgames.games.american_rails.board import AmericanRailsTrack

    rules = rules_for(MAPS[0])
    state = Game.new(rules, bot_players(3, "greedy"), 1).state
    m = rules.map
    track = AmericanRailsTrack(rules)
    chicago = m.city_by_id["CHI"]
    line = track.hex_line(state, f"{chicago.col},{chicago.row}").plain
    assert line == "Cursor CHI Chicago: $7 alone/$5 shared (never developed), no cubes"
    col, row = chicago.col + 1, chicago.row
    line = track.hex_line(state, f"{col},{row}").plain
    assert line.startswith(f"Cursor {m.terrain[m.hex_of(col, row)].capitalize()} east of Chicago")
