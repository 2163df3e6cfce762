"""A saved game is read through a schema written out for pydantic-core (record.py,
``validate_record``) rather than the one pydantic works out for GameRecord: the two
must take and refuse the same data, with the same messages."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from railgames.core.record import (
    GameRecord,
    _record_schema,
    describe_validation_error,
    migrate,
    validate_record,
)

RECORDS = Path(__file__).parent / "fixtures" / "records"
GOOD: dict[str, Any] = {
    "format": 2, "game": "new-england", "map": "new-england", "map_digest": "0123456789abcdef",
    "rules_edition": 1, "options": {"reshuffle": True, "n": 3, "s": "x"},
    "players": [{"name": "Ann"}, {"name": "Bob", "kind": "greedy"}], "seed": 7,
    "actions": [{"type": "bid", "seat": 0, "amount": 3}],
    "created": "2026-01-01T00:00:00+00:00", "updated": None,
}


def outcome(read: Any, raw: Any) -> tuple[str, Any]:
    try:
        record = read(raw)
    except ValidationError as exc:
        errors = [{k: v for k, v in e.items() if k != "url"} for e in exc.errors()]
        return "refused", (describe_validation_error(exc), exc.error_count(), errors)
    assert type(record) is GameRecord
    assert all(type(p) is type(q) for p, q in zip(record.players, record.players, strict=True))
    dumped = record.model_dump()
    if not isinstance(raw, dict) or "created" not in raw:
        dumped.pop("created")  # now, when the file names no time: the clock moves on
    return "taken", (dumped, record.model_fields_set,
                     [p.model_fields_set for p in record.players])


def same(raw: Any) -> None:
    ours = outcome(validate_record, raw)
    theirs = outcome(lambda r: GameRecord.model_validate(r, strict=True), raw)
    assert ours == theirs, raw


def test_the_schema_has_the_fields_of_the_model_in_their_order() -> None:
    assert list(_record_schema()["schema"]["fields"]) == list(GameRecord.model_fields)


@pytest.mark.parametrize("path", sorted(RECORDS.rglob("*.json")),
                         ids=lambda p: str(p.relative_to(RECORDS)))
def test_every_fixture_reads_alike(path: Path) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    same(raw)
    if isinstance(raw, dict) and isinstance(raw.get("format", 1), int) and raw.get("format", 1) <= 2:
        same(migrate(raw, path.name))


HOSTILE: list[Any] = [
    None, [], "record", 7, 1.5, True, {}, {"format": 2},
    {**GOOD, "extra": 1}, {**GOOD, "format": 1}, {**GOOD, "format": "2"}, {**GOOD, "format": True},
    {**GOOD, "game": ""}, {**GOOD, "game": "9lives"}, {**GOOD, "game": "x" * 65},
    {**GOOD, "game": 5}, {**GOOD, "map": None}, {**GOOD, "map_digest": "ABCDEF0123456789"},
    {**GOOD, "map_digest": "0123"}, {**GOOD, "rules_edition": 0}, {**GOOD, "rules_edition": True},
    {**GOOD, "rules_edition": 1.0}, {**GOOD, "rules_edition": "1"},
    {**GOOD, "options": []}, {**GOOD, "options": {"k": [1]}}, {**GOOD, "options": {"k": None}},
    {**GOOD, "options": {"k": 1.5}}, {**GOOD, "options": {"k" * 41: 1}},
    {**GOOD, "options": {"k": "v" * 201}}, {**GOOD, "options": {f"o{i}": i for i in range(33)}},
    {**GOOD, "options": {"k": 10**40}},
    {**GOOD, "players": []}, {**GOOD, "players": {}}, {**GOOD, "players": [{}]},
    {**GOOD, "players": [{"name": ""}]}, {**GOOD, "players": [{"name": "n" * 25}]},
    {**GOOD, "players": [{"name": "Ann", "kind": "robot"}]},
    {**GOOD, "players": [{"name": "Ann", "age": 3}]}, {**GOOD, "players": [{"name": 3}]},
    {**GOOD, "players": ["Ann"]}, {**GOOD, "players": [{"name": f"P{i}"} for i in range(17)]},
    {**GOOD, "seed": "7"}, {**GOOD, "seed": 7.0}, {**GOOD, "seed": False}, {**GOOD, "seed": None},
    {**GOOD, "seed": 10**400}, {**GOOD, "seed": -(10**30)},
    {**GOOD, "actions": {}}, {**GOOD, "actions": [[]]}, {**GOOD, "actions": [1]},
    {**GOOD, "actions": [{1: 2}]}, {**GOOD, "actions": [{}] * 20_001},
    {**GOOD, "created": 5}, {**GOOD, "created": "c" * 41}, {**GOOD, "updated": 1},
    {k: v for k, v in GOOD.items() if k not in ("created", "updated", "options", "actions",
                                                  "format", "map_digest", "rules_edition")},
    {k: v for k, v in GOOD.items() if k != "seed"},
    {k: v for k, v in GOOD.items() if k not in ("seed", "game", "players")},
    {**GOOD, "players": [{"name": "Ann", "kind": "human"}], "seed": "x", "game": None, "zz": 1},
]


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize("raw", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_headers_read_alike(raw: Any) -> None:
    same(raw)


def test_deep_nesting_and_odd_values_inside_actions_read_alike() -> None:
    same({**GOOD, "actions": [{"deep": nested(200)}]})
    same({**GOOD, "actions": [{"n": 10**100, "f": float("nan"), "t": (1, 2), "b": b"x"}]})


def random_json(rng: random.Random, depth: int = 0) -> Any:
    makers = [
        lambda: None, lambda: rng.random() < 0.5,
        lambda: rng.randrange(-5, 40) * rng.choice([1, 10**25]), lambda: rng.random() * 10,
        lambda: "".join(rng.choice("aZ9_-:x é") for _ in range(rng.randrange(30))),
        lambda: rng.choice(["human", "greedy", "new-england", "0123456789abcdef", ""]),
        lambda: [random_json(rng, depth + 1) for _ in range(rng.randrange(4))],
        lambda: {rng.choice(["name", "kind", "k", "game", "x"]): random_json(rng, depth + 1)
                 for _ in range(rng.randrange(4))},
        lambda: {"name": random_json(rng, depth + 1)},
    ]
    return makers[rng.randrange(9 if depth < 3 else 6)]()


def test_random_changes_to_a_good_record_read_alike() -> None:
    rng = random.Random(30)
    for _ in range(400):
        raw = json.loads(json.dumps(GOOD))
        for _ in range(rng.randrange(1, 4)):
            key = rng.choice([*GOOD, "zz"])
            if rng.random() < 0.15:
                raw.pop(key, None)
            elif key == "players" and rng.random() < 0.5:
                raw["players"] = [random_json(rng, 2) for _ in range(rng.randrange(3))]
            else:
                raw[key] = random_json(rng)
        same(raw)


def test_random_bytes_read_as_json_alike() -> None:
    rng = random.Random(31)
    for _ in range(200):
        text = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).decode("latin-1")
        try:
            raw = json.loads(text)
        except ValueError:
            raw = text
        same(raw)
