"""Each game's actions are read through a schema written out for pydantic-core
(core/action_schema.py) rather than one pydantic works out: the two must be the same
schema, and take and refuse the same data with the same messages."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field, TypeAdapter, ValidationError

from railgames.core.action_schema import ActionAdapter, Unsupported, union_schema
from railgames.core.engine import Action
from railgames.games import GAMES, ruleset_class

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "fixtures" / "records"


@cache
def adapters(game: str) -> tuple[ActionAdapter, Any]:
    ours = ruleset_class(game).action_adapter
    assert isinstance(ours, ActionAdapter)
    return ours, TypeAdapter(ours.union)


def plain(schema: Any, defs: dict[str, Any]) -> Any:
    """A core schema without what only serves the JSON schema, definitions put in place."""
    if isinstance(schema, dict):
        if schema.get("type") == "definitions":
            found = {s["ref"]: s for s in schema["definitions"]}
            return plain(schema["schema"], defs | found)
        if schema.get("type") == "definition-ref":
            return plain(defs[schema["schema_ref"]], defs)
        return {k: plain(v, defs) for k, v in schema.items() if k not in ("metadata", "ref")}
    if isinstance(schema, list):
        return [plain(v, defs) for v in schema]
    return schema


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_schema_is_the_one_pydantic_makes(game: str) -> None:
    ours, theirs = adapters(game)
    assert union_schema(ours.union) == plain(theirs.core_schema, {})


def outcome(read: Any, data: Any, strict: bool | None) -> tuple[str, Any]:
    try:
        action = read(data, strict=strict)
    except ValidationError as exc:
        return "refused", [{k: v for k, v in e.items() if k != "url"} for e in exc.errors()]
    return "taken", (type(action), action.model_dump(), action.model_fields_set)


def same(game: str, raw: Any) -> None:
    ours, theirs = adapters(game)
    text = json.dumps(raw)
    for strict in (True, None):
        assert outcome(ours.validate_json, text, strict) == \
            outcome(theirs.validate_json, text, strict), (raw, strict)
        assert outcome(ours.validate_python, raw, strict) == \
            outcome(theirs.validate_python, raw, strict), (raw, strict)


def recorded_actions() -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(RECORDS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("game") in GAMES:
            found.setdefault(data["game"], []).extend(data["actions"])
    return found


ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 10**30, 2.5, "", "x", "3,4", "-1,2",
                         [], [1], [1, 2], [1, 2, 3], ["a", "b"], ["a"], {}, {"a": 1}]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_recorded_and_changed_actions_read_alike(game: str) -> None:
    actions = recorded_actions()[game]
    kinds = {a["type"]: a for a in actions}  # one of each kind played
    for action in [*kinds.values(), *actions[:10]]:
        same(game, action)
    rng = random.Random(game)
    for action in kinds.values():
        for key in [*action, "extra"]:
            for value in rng.sample(ODD_VALUES, 4):
                same(game, {**action, key: value})
            same(game, {k: v for k, v in action.items() if k != key})
    for odd in [None, [], "bid", 3, {"type": "no-such"}, {"type": 5}, {"seat": 0}]:
        same(game, odd)


def test_an_unknown_kind_of_field_is_left_to_pydantic() -> None:
    class Weigh(Action):
        type: Literal["weigh"] = "weigh"
        weight: float

    union = Annotated[Weigh, Field(discriminator="type")]
    with pytest.raises(Unsupported):
        union_schema(union)
    adapter = ActionAdapter(union)
    assert adapter.validate_python({"type": "weigh", "seat": 0, "weight": 1.5}).weight == 1.5
    with pytest.raises(ValidationError):
        adapter.validate_json('{"type": "weigh", "seat": 0, "weight": "x"}')


def test_a_replay_loads_no_plugin_machinery_of_pydantic() -> None:
    """Neither the action schemas nor the record's make pydantic look up its plugins
    (importlib.metadata and the e-mail parser with it) once the board is kept."""
    from railgames.core.maps import find_map, load_map_file

    load_map_file(find_map("paris-connection"), ruleset_class("paris-connection").map_model)
    record = RECORDS / "paris-connection-31-locomotive-reached.json"
    code = ("import sys\n"
            "from railgames.cli import main\n"
            f"assert main(['replay', {str(record)!r}]) == 0\n"
            "print(sorted(m for m in sys.modules if m in ('importlib.metadata', 'email',"
            " 'pydantic.plugin._loader', 'argparse')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    assert proc.stdout.splitlines()[-1] == "[]"
