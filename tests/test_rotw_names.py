"""Railways of the World speaks of places as a player would: a city by its name, any
other hex by its terrain and the way from the nearest city, never by the column and
row of the map file the board does not show."""

from __future__ import annotations

import re

import pytest
from rotw_support import make_ruleset

from railgames.app.boards import game_ui
from railgames.core.engine import Game
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games.railways_of_the_world.board import RotwTrack
from tests.app.driving import games_at

# "14,9", "[17, 3]": coordinates; money ("$2,000") is not.
COORDINATES = re.compile(r"(?<![\d$,])\d{1,2},\d{1,2}(?!\d)|\[\d{1,2}, ?\d{1,2}\]")


def coordinates_in(text: str) -> list[str]:
    return COORDINATES.findall(text)


def test_the_pattern_finds_coordinates_and_leaves_money_alone() -> None:
    assert coordinates_in("Tile on hex 14,9 (mountain)") == ["14,9"]
    assert coordinates_in("toward [17, 3]") == ["[17, 3]"]
    assert coordinates_in("for $2,000 and $12,500, 3 bonds") == []
    assert coordinates_in("the shore hex 2 hexes north of Milwaukee") == []
    assert coordinates_in("income space 21, 23 bonds") == []


@pytest.mark.parametrize("map_id", ["rotw-mexico", "rotw-eastern-us"])
def test_no_choice_prompt_log_line_or_cursor_line_gives_coordinates(map_id: str) -> None:
    rules = make_ruleset(map_id)
    played = play_bot_game(rules, bot_players(3, "greedy"), 5)
    ui = game_ui(rules)
    names = [p.name for p in played.state.players]
    found: list[str] = []
    for entry in played.log:
        found += [f"log: {entry.text}"] if coordinates_in(entry.text) else []
    actions = len(played.record.actions)
    for game in games_at(rules, played.record, range(0, actions, max(1, actions // 40))):
        state, prompt = game.state, game.prompt()
        if prompt is None:
            continue
        for choice in ui.choices(state, prompt, names):
            texts = [*choice.labels, ui.describe(state, choice.action, names)]
            texts += [ui.level_title(state, prompt, choice.keys[:d])
                      for d in range(len(choice.keys))]
            found += [t for t in texts if coordinates_in(t)]
    # The cursor line, on every hex of the board mid-game.
    game = Game.replay(rules, played.record, upto=actions // 2)
    track = RotwTrack(rules)
    for h in rules.map.terrain:
        line = track.hex_line(game.state, "{},{}".format(*rules.offset(h))).plain
        found += [line] if coordinates_in(line) else []
    assert sorted(set(found))[:10] == []


def test_a_tile_is_described_by_where_it_is_and_the_way_it_heads() -> None:
    rules = make_ruleset("rotw-eastern-us")
    chicago = next(c for c in rules.map.cities if c.name == "Chicago")
    east = rules.hex_at(chicago.col + 1, chicago.row)
    further = rules.hex_at(chicago.col + 2, chicago.row)
    assert east is not None and further is not None
    assert rules.hex_name(east).endswith(" east of Chicago")
    assert rules.hex_name(further).endswith(" 2 hexes east of Chicago")
    assert rules.side_name(east, rules.city_hex(chicago.id)) == "from Chicago"
    assert rules.side_name(further, east) == "from the west"
    assert rules.way_name(east, further).endswith(", east")
    assert rules.way_name(east, rules.city_hex(chicago.id)) == "into Chicago"
