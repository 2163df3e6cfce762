"""Paris Connection speaks to players as they would: hexes by name, never by column and
row, and a build's panel says what is left to do."""

from __future__ import annotations

import random
import re

from paris_connection_support import (
    LE_HAVRE,
    MARSEILLE,
    REIMS,
    START,
    TOWER,
    build,
    hx,
    make_ruleset,
    start_game,
)

from railgames.games.paris_connection.places import bearing, place_names
from railgames.games.paris_connection.ui import ParisConnectionUI

NUMBERED = re.compile(r"\d+,\d+|\bhex \d")  # "12,13": a hex by its column and row


def test_every_hex_has_its_own_name_and_none_is_a_number() -> None:
    rules = make_ruleset()
    names = place_names(rules.map)
    assert set(names) == set(rules.map.terrain)
    assert len(set(names.values())) == len(names), "two hexes share a name"
    for name in names.values():
        assert not NUMBERED.search(name), name


def test_places_are_named_from_the_nearest_city_or_the_tower() -> None:
    rules = make_ruleset()
    name = rules.hex_name
    assert name(hx(rules, MARSEILLE)) == "Marseille"
    assert name(hx(rules, LE_HAVRE)) == "Le Havre"
    assert name(hx(rules, TOWER)) == "the Eiffel Tower"
    # The six Paris hexes by their side of the tower.
    assert {name(hx(rules, at)) for at in START.values()} == {
        "north-east Paris", "east Paris", "south-east Paris", "south-west Paris", "west Paris",
        "north-west Paris"}
    assert name(hx(rules, (15, 11))) == "the plain east of Lyon"
    assert name(hx(rules, (13, 11))) == "the plain west of Lyon"
    assert name(hx(rules, (16, 11))) == "the plain 2 hexes east of Lyon"
    assert name(hx(rules, (8, 5))) == "the plain 2 hexes west of Paris"


def test_a_direction_is_the_compass_point_on_the_printed_board() -> None:
    rules = make_ruleset()
    lyon = hx(rules, (14, 11))
    expected = {(15, 11): "east", (13, 11): "west", (14, 10): "north-west", (15, 10): "north-east",
                (14, 12): "south-west", (15, 12): "south-east"}
    for at, point in expected.items():
        assert bearing(lyon, hx(rules, at))[0] == point, at
    # Two rows up is straight north, though no hex side faces that way.
    assert bearing(lyon, hx(rules, (14, 9))) == ("north", 0.0)


def test_choices_and_log_lines_never_speak_in_coordinates() -> None:
    """In seeded random games every build choice, its description and every log line
    name places, not columns and rows."""
    rules = make_ruleset()
    ui = ParisConnectionUI(rules)
    for seed in (1, 2):
        game = start_game(rules, seed=seed)
        pick = random.Random(seed)
        for _ in range(40):
            prompt = game.prompt()
            if prompt is None:
                break
            state = game.view(prompt.seat)
            names = [p.name for p in state.players]
            for choice in ui.choices(state, prompt, names):
                for label in choice.labels:
                    assert not NUMBERED.search(label), label
                assert not NUMBERED.search(ui.describe(state, choice.action, names))
            game.apply(pick.choice(prompt.choices))
        for event in game.state.log:
            assert not NUMBERED.search(event.text), event.text


def test_a_full_build_asks_only_for_its_end() -> None:
    rules = make_ruleset()
    ui = ParisConnectionUI(rules)
    game = start_game(rules)
    seat = game.state.current
    game.apply(build(seat, "red", (12, 4)))
    prompt = game.prompt()
    assert prompt is not None
    assert ui.level_title(game.state, prompt, []) == "1/5 red placed: next hex, or end"
    for at in [REIMS, (14, 4), (15, 4), (16, 4)]:  # by Reims to Metz
        game.apply(build(seat, "red", at))
    prompt = game.prompt()
    assert prompt is not None
    assert ui.level_title(game.state, prompt, []) == "5/5 red placed: end the build"
