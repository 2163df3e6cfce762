"""Saved games that never stop loading: bad files refused in one line, strict reading,
map versions pinned, the format migrated, and fixture records replayed forever."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from railgames.cli import main, replay_file
from railgames.core.engine import Game
from railgames.core.errors import MalformedAction, RecordError, ReplayError
from railgames.core.map_pins import archive_dirs, map_digest
from railgames.core.maps import load_map_file
from railgames.core.record import (
    FORMAT_1_MAP_DIGESTS,
    MAX_RECORD_BYTES,
    RECORD_FORMAT,
    load_record,
    parse_record,
)
from railgames.games import GAMES, load_ruleset, maps_for, ruleset_class, ruleset_for_record

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "fixtures" / "records"
EXPECTED: dict[str, dict[str, Any]] = json.loads((RECORDS / "expected.json").read_text())
NE_RECORD = RECORDS / "new-england-3p-greedy.json"
PC_RECORD = RECORDS / "paris-connection-locomotive-reached.json"


def record_data(path: Path = NE_RECORD) -> dict[str, Any]:
    return json.loads(path.read_text())


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data))
    return path


def refused(capsys: pytest.CaptureFixture[str], command: str, path: Path) -> str:
    """Run ``railgames COMMAND FILE``; it must exit non-zero with one line naming the file."""
    code = main([command, str(path)])
    out, err = capsys.readouterr()
    assert code != 0
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert str(path) in lines[0]
    return lines[0]


# ------------------------------------------------------------------ point 1: nesting
def test_deep_nesting_is_one_line_from_replay_and_load(tmp_path: Path, capsys) -> None:
    path = tmp_path / "f.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    for command in ("replay", "load"):
        assert "nested" in refused(capsys, command, path)


def test_deep_nesting_inside_options_is_refused(tmp_path: Path, capsys) -> None:
    text = json.dumps(record_data())
    assert '"options": {}' in text
    text = text.replace('"options": {}', '"options": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    path = tmp_path / "opt.json"
    path.write_text(text)
    for command in ("replay", "load"):
        assert "nested" in refused(capsys, command, path)


def test_moderately_nested_options_name_the_field(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["options"] = {"x": [[[[[[[[[[1]]]]]]]]]]}
    line = refused(capsys, "replay", write_json(tmp_path / "opt.json", data))
    assert "options.x" in line and "nested" in line


def test_the_subprocess_prints_one_line_and_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    run = subprocess.run([sys.executable, "-m", "railgames", "replay", str(path)],
                         capture_output=True, text=True, timeout=120, check=False,
                         stdin=subprocess.DEVNULL)
    assert run.returncode == 1
    assert run.stderr.count("\n") == 1 and str(path) in run.stderr
    assert "Traceback" not in run.stderr


# ------------------------------------------------------------------ point 2: huge integers
def test_five_thousand_digit_seed_is_refused(tmp_path: Path, capsys) -> None:
    text = json.dumps(record_data()).replace('"seed": 1', '"seed": ' + "9" * 5000, 1)
    assert "9" * 5000 in text
    path = tmp_path / "seed.json"
    path.write_text(text)
    for command in ("replay", "load"):
        assert "5000 digits" in refused(capsys, command, path)


def test_five_thousand_digit_amount_is_refused(tmp_path: Path, capsys) -> None:
    data = record_data()
    assert data["actions"][0]["type"] == "borrow"
    data["actions"][0]["amount"] = 12345
    text = json.dumps(data).replace('"amount": 12345', '"amount": ' + "7" * 5000, 1)
    path = tmp_path / "amount.json"
    path.write_text(text)
    for command in ("replay", "load"):
        assert "digits" in refused(capsys, command, path)


# ------------------------------------------------------------------ point 3: game and map
def test_a_game_with_another_games_map_says_they_do_not_belong(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["map"] = "paris-connection"
    for command in ("replay", "load"):
        line = refused(capsys, command, write_json(tmp_path / "mixed.json", data))
        assert "do not belong together" in line
        assert "paris-connection.toml" not in line  # the good map file is not blamed


# ------------------------------------------------------------------ point 4: size
def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path, capsys,
                                                               monkeypatch) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: no need to write the bytes
        handle.truncate(MAX_RECORD_BYTES + 1)
    read: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(n) or real_read(fd, n))
    for command in ("replay", "load"):
        assert "too large" in refused(capsys, command, path)
    assert read == []


def test_a_long_padding_string_in_options_is_refused(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["options"] = {"pad": "x" * 100_000}
    for command in ("replay", "load"):
        line = refused(capsys, command, write_json(tmp_path / "pad.json", data))
        assert "options.pad" in line and "100000 characters" in line


def test_player_names_and_option_names_are_capped(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["players"][0]["name"] = "A" * 25
    assert "players.0.name" in refused(capsys, "replay", write_json(tmp_path / "n.json", data))
    data = record_data()
    data["options"] = {"k" * 41: 1}
    assert "options" in refused(capsys, "replay", write_json(tmp_path / "o.json", data))


def test_too_many_actions_are_refused_before_replay(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["actions"] = [{"type": "pass_bid", "seat": 0}] * 20_001
    assert "20001 items" in refused(capsys, "replay", write_json(tmp_path / "many.json", data))


# ------------------------------------------------------------------ point 5: strict types
@pytest.mark.parametrize(("field", "value"), [
    ("seat", True), ("seat", "0"), ("seat", 0.0),
    ("amount", "0"), ("amount", 0.0), ("amount", False),
])
def test_record_actions_are_read_with_json_types_as_written(tmp_path: Path, capsys,
                                                            field: str, value: Any) -> None:
    data = record_data()
    first = data["actions"][0]
    assert first == {"type": "borrow", "seat": first["seat"], "amount": 0}
    if field == "seat":
        value = {True: True, "0": str(first["seat"]), 0.0: float(first["seat"])}[value]
    first[field] = value
    for command in ("replay", "load"):
        line = refused(capsys, command, write_json(tmp_path / "loose.json", data))
        assert "action 0" in line and field in line


@pytest.mark.parametrize(("field", "value"), [("seed", "1"), ("seed", 1.0), ("seed", True)])
def test_record_header_is_read_strictly(tmp_path: Path, capsys, field: str, value: Any) -> None:
    data = record_data()
    data[field] = value
    assert field in refused(capsys, "replay", write_json(tmp_path / "h.json", data))


def test_a_paris_hex_stored_as_text_is_not_what_was_played(tmp_path: Path, capsys) -> None:
    data = record_data(PC_RECORD)
    first = data["actions"][0]
    first["hex"] = f"{first['hex'][0]},{first['hex'][1]}"
    line = refused(capsys, "replay", write_json(tmp_path / "hex.json", data))
    assert "hex" in line


def test_outside_input_is_strict_and_python_construction_still_works() -> None:
    game = Game.new(load_ruleset("new-england"), parse_players("Ann,Bob,Cat"), 5)
    seat = game.prompt().seat
    before = game.record.model_copy(deep=True)
    for loose in ({"type": "borrow", "seat": True, "amount": 0},
                  {"type": "borrow", "seat": seat, "amount": "0"},
                  {"type": "borrow", "seat": seat, "amount": 0.0}):
        with pytest.raises(MalformedAction):
            game.apply(loose)
    assert game.record == before
    from railgames.games.new_england.actions import Borrow

    game.apply(Borrow(seat=seat, amount=0))  # the rules and bots build actions in Python
    assert game.record.actions[-1] == {"type": "borrow", "seat": seat, "amount": 0}


def parse_players(text: str) -> Any:
    from railgames.cli import parse_seats

    return parse_seats(text)


# ------------------------------------------------------------------ point 6: every refusal names the file
@pytest.mark.parametrize("content", [
    "", "not json", "[1, 2]", '{"format": 99}', '{"format": 2, "game": "nope", "map": "x", '
    '"players": [], "seed": 1}', '{"format": "1"}', "{\"seed\": NaN}",
])
def test_every_refusal_names_the_file(tmp_path: Path, capsys, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    for command in ("replay", "load"):
        refused(capsys, command, path)


def test_a_refused_action_in_a_record_names_the_file(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["actions"][0]["amount"] = 99_999
    assert "action 0" in refused(capsys, "replay", write_json(tmp_path / "illegal.json", data))


def test_a_missing_file_and_a_folder_name_themselves(tmp_path: Path, capsys) -> None:
    refused(capsys, "replay", tmp_path / "absent.json")
    refused(capsys, "load", tmp_path)


# ------------------------------------------------------------------ point 11: map versions
def test_new_records_store_the_digest_of_their_map() -> None:
    ruleset = load_ruleset("steel-driver")
    game = Game.new(ruleset, parse_players("Ann,Bob,Cat"), 1)
    assert game.record.map_digest == map_digest(ruleset.map)
    assert json.loads(game.record.dump_json())["map_digest"] == map_digest(ruleset.map)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_redrawing_a_map_keeps_its_digest_and_changing_a_value_does_not(game_id: str) -> None:
    game_map = load_ruleset(game_id).map
    digest = map_digest(game_map)
    data = game_map.model_dump(mode="json")
    data["title"] += " (redrawn)"
    if game_map.kind == "graph":
        # Move the whole drawing two columns right, its bend points with it.
        data["grid"] = "\n".join("  " + line for line in game_map.grid_lines)
        for link in data["links"]:
            link["via"] = [[c + 2, r] for c, r in link["via"]]
    else:
        # Draw every terrain with another character: the hexes keep their terrain.
        swap = {ch: new for ch, new in zip(sorted(data["legend"]), "ABCDEFGHIJ", strict=False)}
        assert not set(swap.values()) & set(data["legend"])
        data["grid"] = "".join(swap.get(ch, ch) for ch in data["grid"])
        data["legend"] = {swap[ch]: name for ch, name in data["legend"].items()}
    redrawn = type(game_map).model_validate(data)
    assert redrawn.grid != game_map.grid
    assert map_digest(redrawn) == digest
    # What the rules read is in the digest: a city's name, here.
    first = game_map.cities[0]
    renamed = first.model_copy(update={"name": first.name + "ville"})
    changed = game_map.model_copy(update={"cities": [renamed, *game_map.cities[1:]]})
    assert map_digest(changed) != digest


def test_a_save_on_a_map_version_that_is_gone_says_which_it_needs(tmp_path: Path, capsys) -> None:
    data = record_data()
    data["map_digest"] = "0123456789abcdef"
    line = refused(capsys, "replay", write_json(tmp_path / "old.json", data))
    assert "version 0123456789abcdef of the map 'new-england'" in line
    assert "maps/archive/new-england-0123456789abcdef.toml" in line


def test_a_save_on_an_archived_map_version_replays_on_that_version(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """Change a value in the current map: the old save still replays on its own version."""
    maps = tmp_path / "maps"
    (maps / "archive").mkdir(parents=True)
    current = (ROOT / "maps" / "new-england.toml").read_text()
    old_digest = FORMAT_1_MAP_DIGESTS["new-england"]
    (maps / "archive" / f"new-england-{old_digest}.toml").write_text(current)
    edited = current.replace("value = 8", "value = 9", 1)
    assert edited != current
    (maps / "new-england.toml").write_text(edited)
    import railgames.core.maps as maps_module
    import railgames.games as games_module

    monkeypatch.setattr(maps_module, "maps_dirs", lambda: [maps])
    monkeypatch.setattr("railgames.core.map_pins.maps_dirs", lambda: [maps])
    games_module._load_map.cache_clear()
    try:
        record = load_record(NE_RECORD)
        ruleset = ruleset_for_record(record, "x")
        assert map_digest(ruleset.map) == old_digest
        assert map_digest(load_ruleset("new-england").map) != old_digest
        result = Game.replay(ruleset, record).result()
        assert result is not None
        assert result.scores == EXPECTED[NE_RECORD.name]["scores"]
        (maps / "archive" / f"new-england-{old_digest}.toml").unlink()
        with pytest.raises(RecordError, match=f"version {old_digest}"):
            ruleset_for_record(record, "x")
    finally:
        games_module._load_map.cache_clear()


EVERY_MAP = sorted((game_id, map_id) for game_id in GAMES for map_id, _ in maps_for(game_id))


@pytest.mark.parametrize(("game_id", "map_id"), EVERY_MAP)
def test_the_current_version_of_every_map_is_archived(game_id: str, map_id: str) -> None:
    """Change a map's rules content and this fails until the new version is archived
    beside the old ones (which stay, for the saves that name them)."""
    ruleset = load_ruleset(game_id, map_id)
    digest = map_digest(ruleset.map)
    assert (ROOT / "maps" / "archive" / f"{ruleset.map.id}-{digest}.toml").is_file()


def test_every_archived_map_loads_and_holds_the_version_its_name_says() -> None:
    files = sorted((ROOT / "maps" / "archive").glob("*.toml"))
    assert len(files) >= len(GAMES)
    for path in files:
        map_id, _, digest = path.stem.rpartition("-")
        game = next(g for g, m in EVERY_MAP if m == map_id)
        assert map_digest(load_map_file(path, ruleset_class(game).map_model)) == digest
    assert [d.name for d in archive_dirs()]


# ------------------------------------------------------------------ fixture records, forever
FIXTURES = sorted(p for p in RECORDS.glob("*.json") if p.name != "expected.json")
FORMAT_1 = sorted((RECORDS / "format-1").glob("*.json"))


def test_there_is_a_fixture_for_every_game_and_end_condition() -> None:
    games = {load_record(p).game for p in FIXTURES}
    assert games == set(GAMES)
    ends = {(load_record(RECORDS / n).game, e["end"]) for n, e in EXPECTED.items()}
    assert ("paris-connection", "a locomotive has reached Marseille") in ends
    assert ("paris-connection", "only one company's supply still has locomotives") in ends
    assert {e for g, e in ends if g == "american-rails"} == {
        "the year is 1857", "every share has been sold or removed",
        "4 supplies are down to 2 or fewer"}
    assert {load_record(p).map for p in FIXTURES} >= {"rotw-mexico", "rotw-eastern-us"}
    assert {p.name for p in FIXTURES} == set(EXPECTED) >= {p.name for p in FORMAT_1}


@pytest.mark.parametrize("path", FIXTURES + FORMAT_1, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_records_replay_to_the_same_final_scores(path: Path, capsys) -> None:
    expected = EXPECTED[path.name]
    assert main(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"finished": True, "scores": expected["scores"],
                   "winners": expected["winners"], "actions": expected["actions"]}
    game = replay_file(str(path))
    if game.ruleset.id in ("paris-connection", "american-rails"):
        assert game.state.end_reason == expected["end"]


# ------------------------------------------------------------------ point 12: format and migration
def test_a_format_1_record_loads_after_the_format_moved_on() -> None:
    assert RECORD_FORMAT > 1
    old = FORMAT_1[0]
    raw = json.loads(old.read_text())
    assert raw["format"] == 1 and "map_digest" not in raw
    record = load_record(old)
    assert record.format == RECORD_FORMAT
    assert record.map_digest == FORMAT_1_MAP_DIGESTS[record.map]
    assert record.actions == raw["actions"]


def test_a_format_1_record_was_played_under_edition_1_of_the_rules() -> None:
    for old in FORMAT_1:
        assert "rules_edition" not in json.loads(old.read_text())
        assert load_record(old).rules_edition == 1
    game = replay_file(str(RECORDS / "format-1" / PC_RECORD.name))
    assert game.state.rules_edition == 1
    assert game.record.rules_edition == 1


def test_a_migrated_record_saves_in_the_current_format(tmp_path: Path) -> None:
    from railgames.core.record import save_record

    record = load_record(FORMAT_1[0])
    save_record(record, tmp_path / "new.json")
    raw = json.loads((tmp_path / "new.json").read_text())
    assert raw["format"] == RECORD_FORMAT and raw["map_digest"]
    assert load_record(tmp_path / "new.json") == record.model_copy(update={"updated": raw["updated"]})


def test_a_record_from_a_newer_format_says_so() -> None:
    raw = record_data()
    raw["format"] = RECORD_FORMAT + 1
    with pytest.raises(RecordError, match="newer railgames"):
        parse_record(json.dumps(raw), "x.json")


# ------------------------------------------------------------------ editions of the rules
def test_new_records_name_the_edition_of_the_rules_they_are_played_under() -> None:
    for game_id, edition in (("new-england", 2), ("paris-connection", 2), ("steel-driver", 1),
                            ("railways-of-the-world", 2)):
        ruleset = load_ruleset(game_id)
        assert ruleset.edition == edition
        game = Game.new(ruleset, parse_players("Ann,Bob,Cat"), 1)
        assert game.record.rules_edition == edition
        assert json.loads(game.record.dump_json())["rules_edition"] == edition


def _outcome(record: Any) -> Any:
    """The final scores a record replays to, or the refusal that stops it."""
    try:
        result = Game.replay(ruleset_for_record(record, "x.json"), record).result()
    except (RecordError, ReplayError) as exc:
        return exc.reason
    return None if result is None else result.scores


@pytest.mark.parametrize("name", ["new-england-6p-random.json",
                                  "paris-connection-locomotive-reached.json",
                                  "paris-connection-one-supply-left.json"])
def test_saves_from_before_the_rule_fixes_replay_only_under_their_own_edition(name: str) -> None:
    record = load_record(RECORDS / name)
    assert record.rules_edition == 1
    assert _outcome(record) == EXPECTED[name]["scores"]
    assert _outcome(record.model_copy(update={"rules_edition": 2})) != EXPECTED[name]["scores"]


def test_an_edition_1_paris_save_deals_or_stores_32_locomotives_of_each_colour() -> None:
    game = replay_file(str(PC_RECORD))
    assert game.state.rules_edition == 1
    first = Game.replay(game.ruleset, game.record, upto=0).state
    assert sum(first.supply.values()) + sum(p.held for p in first.players) == 32 * 6
    new = Game.new(game.ruleset, game.record.players, game.record.seed).state
    assert sum(new.supply.values()) + sum(p.held for p in new.players) == 31 * 6


def test_a_record_naming_no_edition_plays_under_the_current_one_and_then_names_it() -> None:
    data = record_data(RECORDS / "paris-connection-31-locomotive-reached.json")
    assert data.pop("rules_edition") == 2
    record = parse_record(json.dumps(data), "x.json")
    assert record.rules_edition is None
    game = Game.replay(ruleset_for_record(record, "x.json"), record)
    assert game.record.rules_edition == game.state.rules_edition == 2
    result = game.result()
    assert result is not None
    assert result.scores == EXPECTED["paris-connection-31-locomotive-reached.json"]["scores"]


@pytest.mark.parametrize("path", [NE_RECORD, PC_RECORD, RECORDS / "steel-driver-3p-greedy.json"])
def test_a_record_from_a_newer_edition_of_the_rules_is_refused_naming_the_file(
        tmp_path: Path, capsys, path: Path) -> None:
    data = record_data(path)
    edition = ruleset_class(data["game"]).edition
    data["rules_edition"] = edition + 1
    saved = write_json(tmp_path / "newer.json", data)
    for command in ("replay", "load"):
        line = refused(capsys, command, saved)
        assert f"edition {edition + 1} of the" in line and f"editions 1 to {edition}" in line
    record = load_record(saved)
    with pytest.raises(RecordError, match=f"edition {edition + 1}"):
        Game.replay(load_ruleset(record.game), record)


@pytest.mark.parametrize("value", [0, -1, "2", 1.0, True])
def test_an_edition_that_is_not_a_whole_number_from_1_is_refused(tmp_path: Path, capsys,
                                                                 value: Any) -> None:
    data = record_data()
    data["rules_edition"] = value
    assert "rules_edition" in refused(capsys, "replay", write_json(tmp_path / "e.json", data))
