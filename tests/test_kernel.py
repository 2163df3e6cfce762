"""The game-agnostic kernel: records, chance, hex grid, hex and graph maps, engine contract."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction, MapError, RecordError, ReplayError
from railgames.core.hexgrid import (
    Hex,
    axial_to_offset,
    distance,
    neighbours,
    offset_to_axial,
    side_key,
)
from railgames.core.maps import GraphMap, HexMap, load_map_file, parse_map
from railgames.core.record import PlayerSpec, load_record, parse_record, save_record
from railgames.core.rng import Chance
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def ne():
    return load_ruleset("new-england")


def players(n: int = 3) -> list[PlayerSpec]:
    return [PlayerSpec(name=name) for name in ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][:n]]


# ---------------------------------------------------------------- chance
def test_chance_replays_the_same_draws_from_the_same_seed() -> None:
    a, b = Chance(42), Chance(42)
    assert [a.roll(2) for _ in range(20)] == [b.roll(2) for _ in range(20)]
    assert a == b
    a.roll(1)
    assert a != b


def test_chance_copies_keep_their_place() -> None:
    a = Chance(7)
    a.roll(3)
    b = copy.deepcopy(a)
    assert a.roll(5) == b.roll(5)


def test_weighted_draw_only_draws_what_is_in_the_bag() -> None:
    c = Chance(1)
    assert {c.pick_weighted({"red": 0, "blue": 3}) for _ in range(50)} == {"blue"}
    with pytest.raises(ValueError):
        c.pick_weighted({"red": 0})


# ---------------------------------------------------------------- hex grid
def test_hex_neighbours_are_at_distance_one() -> None:
    h = Hex(2, -1)
    assert len(set(neighbours(h))) == 6
    assert all(distance(h, n) == 1 for n in neighbours(h))
    assert distance(Hex(0, 0), Hex(3, -1)) == 3


def test_offset_coordinates_round_trip() -> None:
    for orientation in ("pointy", "flat"):
        for col in range(-3, 6):
            for row in range(-3, 6):
                h = offset_to_axial(col, row, orientation)  # type: ignore[arg-type]
                assert axial_to_offset(h, orientation) == (col, row)  # type: ignore[arg-type]


def test_a_hex_side_has_one_key_from_either_side() -> None:
    a, b = Hex(0, 0), Hex(1, 0)
    assert side_key(a, b) == side_key(b, a)
    with pytest.raises(ValueError):
        side_key(a, Hex(2, 0))


# ---------------------------------------------------------------- maps
def test_hex_map_loads_terrain_cities_and_sides() -> None:
    m = load_map_file(FIXTURES / "tiny-hex.toml", HexMap)
    assert len(m.terrain) == 11  # 12 cells, one '_' off the board
    assert m.terrain[offset_to_axial(2, 0)] == "mountain"
    assert m.terrain[offset_to_axial(1, 1)] == "city"
    assert side_key(offset_to_axial(1, 0), offset_to_axial(0, 0)) in m.side_features
    assert m.side_features[side_key(offset_to_axial(2, 1), offset_to_axial(1, 1))] == "border"


@pytest.mark.parametrize("change, expected", [
    (('"c" = "city"', '"q" = "city"'), "terrain character 'c' is not in the legend"),
    (("col = 1", "col = 3"), "off the board"),
    (("b = [1, 0]", "b = [3, 2]"), "are not neighbours"),
    (("row = 1", 'row = "one"'), "field cities.0.row"),
])
def test_broken_hex_maps_name_the_file_and_problem(tmp_path: Path, change: tuple[str, str], expected: str) -> None:
    text = (FIXTURES / "tiny-hex.toml").read_text().replace(*change)
    path = tmp_path / "hex.toml"
    path.write_text(text)
    with pytest.raises(MapError) as err:
        load_map_file(path, HexMap)
    assert "hex.toml" in err.value.reason and expected in err.value.reason


def test_graph_map_errors_give_the_line_of_the_table() -> None:
    text = """id = "g"\ngame = "none"\ntitle = "t"\ngrid = '''\nAlpha   Beta\n'''\n
[[cities]]\nid = "A"\nname = "Alpha"\n
[[cities]]\nid = "B"\nname = "Beta"\n
[[links]]\nid = "A-C"\na = "A"\nb = "C"\n"""
    with pytest.raises(MapError) as err:
        parse_map(text, "g.toml", GraphMap)
    assert err.value.reason.startswith("g.toml: line 16, field links.0")
    assert "unknown city 'C'" in err.value.reason


def test_a_missing_map_file_is_a_map_error(tmp_path: Path) -> None:
    with pytest.raises(MapError, match="no such file"):
        load_map_file(tmp_path / "nope.toml", GraphMap)


# ---------------------------------------------------------------- records
def test_record_round_trips_through_json(tmp_path: Path, ne) -> None:
    game = play_bot_game(ne, bot_players(3, "random"), seed=5)
    path = tmp_path / "g.json"
    save_record(game.record, path)
    loaded = load_record(path)
    assert loaded.actions == game.record.actions
    again = Game.replay(ne, loaded)
    assert again.state == game.state
    assert again.result() == game.result()


def test_save_leaves_no_temporary_files(tmp_path: Path, ne) -> None:
    game = Game.new(ne, players(), seed=1)
    save_record(game.record, tmp_path / "a.json")
    save_record(game.record, tmp_path / "a.json")
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_record_with_unknown_fields_is_refused() -> None:
    raw = {"game": "new-england", "map": "new-england", "players": [{"name": "A"}], "seed": 1, "colour": 3}
    with pytest.raises(RecordError, match="colour"):
        parse_record(json.dumps(raw))


# ---------------------------------------------------------------- engine contract
def test_new_game_checks_the_player_count_and_names(ne) -> None:
    with pytest.raises(IllegalAction, match="3 to 6 players"):
        Game.new(ne, players(2), seed=1)
    with pytest.raises(IllegalAction, match="different name"):
        Game.new(ne, [PlayerSpec(name="Ann")] * 3, seed=1)


def test_the_same_seed_gives_the_same_game(ne) -> None:
    a = play_bot_game(ne, bot_players(4, "greedy"), seed=9)
    b = play_bot_game(ne, bot_players(4, "greedy"), seed=9)
    c = play_bot_game(ne, bot_players(4, "greedy"), seed=10)
    assert a.record.actions == b.record.actions and a.state == b.state
    assert [e.text for e in a.log] != [e.text for e in c.log]


def test_every_roll_and_draw_is_in_the_log(ne) -> None:
    game = play_bot_game(ne, bot_players(3, "greedy"), seed=3)
    kinds = {e.kind for e in game.log if e.chance}
    assert {"draw", "growth", "publicise", "win", "market"} <= kinds
    setup = [e for e in game.log if e.action == -1]
    assert {"draw", "first_player"} <= {e.kind for e in setup}
    assert game.log[: len(setup)] == setup  # set-up comes first
    indexes = [e.action for e in game.log]
    assert indexes == sorted(indexes)  # each event follows the action that caused it
    assert all(0 <= i < len(game.record.actions) for i in indexes[len(setup):])
    # Every action leaves at least one line in the log.
    assert set(indexes[len(setup):]) == set(range(len(game.record.actions)))


def test_malformed_and_illegal_are_different_errors(ne) -> None:
    game = Game.new(ne, players(), seed=1)
    seat = game.prompt().seat
    with pytest.raises(MalformedAction):
        game.apply({"type": "teleport", "seat": seat})
    with pytest.raises(MalformedAction):
        game.apply({"type": "borrow", "seat": seat, "amount": "lots"})
    with pytest.raises(MalformedAction, match="no seat 9"):
        game.apply({"type": "borrow", "seat": 9, "amount": 0})
    with pytest.raises(IllegalAction, match="turn"):
        game.apply({"type": "borrow", "seat": (seat + 1) % 3, "amount": 0})


def test_a_refused_action_changes_nothing(ne) -> None:
    game = Game.new(ne, players(), seed=1)
    before = copy.deepcopy(game.state)
    actions = list(game.record.actions)
    seat = game.prompt().seat
    with pytest.raises(IllegalAction):
        game.apply({"type": "borrow", "seat": seat, "amount": 15})
    with pytest.raises(IllegalAction):
        game.apply({"type": "bid", "seat": seat, "amount": 3})
    assert game.state == before and game.record.actions == actions


def test_replay_names_the_refused_action(ne) -> None:
    game = play_bot_game(ne, bot_players(3, "greedy"), seed=2)
    record = game.record.model_copy(deep=True)
    index = next(i for i, a in enumerate(record.actions) if a["type"] == "bid")
    record.actions[index] = {**record.actions[index], "amount": 500}
    with pytest.raises(ReplayError) as err:
        Game.replay(ne, record)
    assert err.value.index == index and err.value.action_type == "bid"
    assert err.value.player == record.players[record.actions[index]["seat"]].name
    assert "a bid of $500 needs" in err.value.reason


def test_undo_takes_back_your_own_last_action_only(ne) -> None:
    game = Game.new(ne, players(), seed=1)
    first = game.prompt().seat
    game.apply({"type": "borrow", "seat": first, "amount": 20})
    second = game.prompt().seat
    assert game.undo_refusal(second) is not None  # not theirs to take back
    game.undo(first)
    assert game.record.actions == [] and game.prompt().seat == first
    assert game.state == Game.new(ne, players(), seed=1).state


def test_undo_never_goes_back_past_a_roll(ne) -> None:
    game = Game.new(ne, players(), seed=1)
    # Take no loans: the last player's choice leads straight into growth draws.
    while game.state.step.value == "loans":
        seat = game.prompt().seat
        game.apply({"type": "borrow", "seat": seat, "amount": 0})
    reason = game.undo_refusal(seat)
    assert reason is not None and "dice roll or a draw" in reason
    with pytest.raises(IllegalAction, match="cannot undo"):
        game.undo(seat)


def test_view_of_a_public_game_is_the_state(ne) -> None:
    game = Game.new(ne, players(), seed=1)
    assert game.view(0) is game.state
    assert game.events_for(1) == game.log
