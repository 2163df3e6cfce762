"""The game record: the header plus every action, in order.

State is never saved; it is what replaying the record gives. Saves, undo,
autosave, bug reports and test fixtures all rest on that one mechanism.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from railgames.core.errors import RecordError, more_problems
from railgames.core.filenames import TEMP_PREFIX, TEMP_SUFFIX
from railgames.core.files import read_regular

# Version 2 added ``map_digest`` and ``rules_edition``; ``MIGRATIONS`` brings older
# records up to date. ``rules_edition`` joined format 2 without a new format number:
# format 2 had not reached any player yet, and a format 3 would have needed a
# migration guessing the edition of format-2 files that carry no sign of it. A
# format-2 file without the field is read as made under the current edition (which
# is how it replayed when it was made); files made under an earlier one say so.
RECORD_FORMAT: Literal[2] = 2

# Limits on a record, checked before anything else reads it. A real game is a
# few hundred actions and some tens of kilobytes; these leave ample room.
MAX_RECORD_BYTES = 4 * 1024 * 1024
MAX_ACTIONS = 20_000
MAX_DEPTH = 8  # record > actions > action > a list of ids is 4
MAX_INT_DIGITS = 20  # a 64-bit seed has 20
MAX_STRING = 200
MAX_ITEMS = 64  # keys of any object, items of any list other than the actions
MAX_OPTIONS = 32

PlayerKind = Literal["human", "random", "greedy", "search", "search:easy", "search:hard"]
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")]
OptionValue = bool | int | Annotated[str, Field(max_length=MAX_STRING)]
Stamp = Annotated[str, Field(max_length=40)]


def _no_actions() -> list[dict[str, Any]]:
    """A new record's list of actions. A function of ours rather than ``list``: pydantic
    reads a default factory's signature, which for a built-in type means compiling
    Python's tokenizer first (milliseconds of a short command such as ``replay``)."""
    return []


def _now_stamp() -> str:
    """A new record's ``created``: now, to the second, in UTC."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class PlayerSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(min_length=1, max_length=24)
    kind: PlayerKind = "human"

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


class GameRecord(BaseModel):
    """Header (game, map, options, players, seed) and the ordered action list.

    Actions are kept as plain JSON objects here so that the record stays
    game-agnostic; each game's action union validates them on replay.
    ``map_digest`` pins the version of the map the game is played on (see
    ``core/map_pins.py``); None only for a record made by hand without one.
    ``rules_edition`` pins the edition of the game's rules it is played under
    (``Ruleset.edition``), so that a rule fixed later never changes an old save;
    None only for a record made without one, played under the current edition.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    format: Literal[2] = RECORD_FORMAT
    game: Id
    map: Id
    map_digest: Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")] | None = None
    rules_edition: Annotated[int, Field(ge=1)] | None = None
    options: dict[Annotated[str, Field(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=MAX_OPTIONS)
    players: list[PlayerSpec] = Field(max_length=16)
    seed: int
    actions: list[dict[str, Any]] = Field(default_factory=_no_actions, max_length=MAX_ACTIONS)
    created: Stamp = Field(default_factory=_now_stamp)
    updated: Stamp | None = None

    def dump_json(self) -> str:
        return self.model_dump_json(indent=1)


# A saved game is read with a validator made from this schema by pydantic-core itself,
# not by asking pydantic to work out the schema of GameRecord: that costs a short
# command such as ``replay`` more than all the rest of reading the file. It makes the
# same objects (GameRecord and PlayerSpec, fields set as given) with the same checks
# and messages; tests/test_record_schema.py holds the two to each other.
def _text(**limits: Any) -> dict[str, Any]:
    return {"type": "str", **limits}


def _optional(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "default", "default": None, "schema": {"type": "nullable", "schema": schema}}


def _record_schema() -> dict[str, Any]:
    def field(schema: dict[str, Any]) -> dict[str, Any]:
        return {"type": "model-field", "schema": schema}

    def made(factory: Callable[[], Any], schema: dict[str, Any]) -> dict[str, Any]:
        return {"type": "default", "default_factory": factory, "schema": schema}

    ident = _text(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    player = {
        "type": "model", "cls": PlayerSpec,
        "config": {"extra_fields_behavior": "forbid", "title": "PlayerSpec"},
        "schema": {"type": "model-fields", "model_name": "PlayerSpec", "fields": {
            "name": field(_text(min_length=1, max_length=24)),
            "kind": field({"type": "default", "default": "human", "schema": {
                "type": "literal", "expected": list(get_args(PlayerKind))}}),
        }},
    }
    option = {"type": "union", "choices": [{"type": "bool"}, {"type": "int"},
                                           _text(max_length=MAX_STRING)]}
    return {
        "type": "model", "cls": GameRecord,
        "config": {"extra_fields_behavior": "forbid", "title": "GameRecord"},
        "schema": {"type": "model-fields", "model_name": "GameRecord", "fields": {
            "format": field({"type": "default", "default": RECORD_FORMAT,
                             "schema": {"type": "literal", "expected": [RECORD_FORMAT]}}),
            "game": field(ident),
            "map": field(ident),
            "map_digest": field(_optional(_text(pattern=r"^[0-9a-f]{16}$"))),
            "rules_edition": field(_optional({"type": "int", "ge": 1})),
            "options": field(made(dict, {"type": "dict", "keys_schema": _text(max_length=40),
                                         "values_schema": option,
                                         "max_length": MAX_OPTIONS})),
            "players": field({"type": "list", "items_schema": player, "max_length": 16}),
            "seed": field({"type": "int"}),
            "actions": field(made(_no_actions, {
                "type": "list", "max_length": MAX_ACTIONS, "items_schema": {
                    "type": "dict", "keys_schema": {"type": "str"},
                    "values_schema": {"type": "any"}}})),
            "created": field(made(_now_stamp, _text(max_length=40))),
            "updated": field(_optional(_text(max_length=40))),
        }},
    }


_record_validator: Any = None


def validate_record(raw: Any) -> GameRecord:
    """``GameRecord.model_validate(raw, strict=True)``, through the schema above."""
    global _record_validator
    if _record_validator is None:
        from pydantic_core import SchemaValidator

        _record_validator = SchemaValidator(_record_schema())  # type: ignore[arg-type]
    record: GameRecord = _record_validator.validate_python(raw, strict=True)
    return record


def describe_validation_error(err: ValidationError) -> str:
    """One line naming the first bad field and what is wrong with it."""
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    extra = more_problems(err.error_count() - 1)
    return f"field '{where}': {first['msg']}{extra}"


class _Refused(Exception):
    """Raised from inside the JSON reader to stop it at the first thing over a limit."""


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"a number of {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(digits)


def _parse_float(text: str) -> float:
    if len(text) > MAX_INT_DIGITS + 10:
        raise _Refused(f"a number of {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):  # 1e999 is no number a game or its record uses
        raise _Refused(f"the number {text}, too large to hold")
    return value


def _parse_constant(name: str) -> Any:
    raise _Refused(f"'{name}', which is not a number JSON allows")


# Where an action's fields sit in a record: the record, its list of actions, the action.
ACTION_DEPTH = 2
# The smallest whole number with more digits than a record may hold.
_TOO_MANY_DIGITS = 10**MAX_INT_DIGITS


def _label(path: tuple[Any, ...], top: str) -> str:
    return f"field '{'.'.join(map(str, path))}'" if path else top


def _scalar_problem(value: Any) -> str | None:
    """What puts a number or a text past the limits ("a number of 31 digits (at most 20)"),
    or None (also for anything that is neither)."""
    if type(value) is int:
        if -_TOO_MANY_DIGITS < value < _TOO_MANY_DIGITS:
            return None
        # str() of a number of thousands of digits is refused by Python itself
        digits = f"{len(str(abs(value)))}" if value.bit_length() < 10_000 else "thousands of"
        return f"a number of {digits} digits (at most {MAX_INT_DIGITS})"
    if type(value) is float:
        if math.isfinite(value) and len(repr(value)) <= MAX_INT_DIGITS + 10:
            return None
        return f"{value!r}, not a number a saved game holds"
    if isinstance(value, str) and len(value) > MAX_STRING:
        return f"a text of {len(value)} characters (at most {MAX_STRING})"
    return None


def check_shape(raw: Any, top: str = "the top level", depth: int = 0) -> str | None:
    """The first place where JSON data goes past a limit, or None. Never recurses.

    ``raw`` is a whole record (``depth`` 0), or a part of one found ``depth`` levels
    down: then ``top`` names it in the message. Numbers and texts are held to the
    limits the JSON reader applies as it reads, so data made in Python can be
    checked too: tuples count as the lists JSON writes them as. Plain values
    within limits are passed over where they stand (an action is checked on every
    move, and a replay checks every action of the record).
    """
    stack: list[tuple[Any, tuple[Any, ...], int]] = [(raw, (), depth)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"{_label(path, top)} is nested {depth} levels deep (at most {MAX_DEPTH})"
        items: Any
        if isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                return f"{_label(path, top)} has {len(value)} fields (at most {MAX_ITEMS})"
            for key in value:
                if isinstance(key, str) and len(key) > MAX_STRING:
                    return f"{_label(path, top)} has a field name of {len(key)} characters"
            items = value.items()
        elif isinstance(value, list | tuple):
            limit = MAX_ACTIONS if depth == 1 and path == ("actions",) else MAX_ITEMS
            if len(value) > limit:
                return f"{_label(path, top)} has {len(value)} items (at most {limit})"
            items = enumerate(value)
        else:
            problem = _scalar_problem(value)
            if problem is not None:
                return f"{_label(path, top)} is {problem}"
            continue
        deeper = depth + 1
        plain_here, plain_below = deeper <= MAX_DEPTH, deeper < MAX_DEPTH
        for key, item in items:
            kind = type(item)
            if plain_here and (_plain(item) or (
                    plain_below and (kind is list or kind is tuple) and len(item) <= MAX_ITEMS
                    and all(map(_plain, item)))):
                continue
            stack.append((item, (*path, key), deeper))
    return None


def _plain(value: Any) -> bool:
    """A number, a text, true, false or null within limits."""
    kind = type(value)
    return ((kind is int and -_TOO_MANY_DIGITS < value < _TOO_MANY_DIGITS)
            or (kind is str and len(value) <= MAX_STRING) or kind is bool or value is None)


def action_problem(raw: Any) -> str | None:
    """Why a saved game could not hold ``raw`` (an action as JSON data) among its
    actions: the first thing in it past a limit of ``parse_record``; None if nothing is.

    The rules refuse such an action before anything else, so that no game ever
    takes a move its own save could not be read back with.
    """
    return check_shape(raw, "the action", ACTION_DEPTH)


# The digest (``maps.map_digest``) of each map shipped while records were in format 1,
# which did not store one: a format-1 record was played on this version of its map.
FORMAT_1_MAP_DIGESTS: dict[str, str] = {
    "new-england": "7ddc7533f0e14a9e",
    "paris-connection": "f3c0d96aea525cc0",
    "steel-driver": "1de06fe72d74c669",
}


def _from_format_1(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 1 had no map digest and no rules edition: those games were played on
    the maps shipped then, under the first edition of every game's rules."""
    out = {k: v for k, v in raw.items() if k != "format"}
    out["format"] = 2
    out["map_digest"] = FORMAT_1_MAP_DIGESTS.get(str(raw.get("map")))
    out["rules_edition"] = 1
    return out


# format n -> the function turning a format-n record (as JSON data) into format n + 1
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_format_1}


def migrate(raw: dict[str, Any], source: str) -> dict[str, Any]:
    """Bring a record of any earlier format up to RECORD_FORMAT, step by step."""
    version = raw.get("format", 1)
    if type(version) is not int:
        raise RecordError(f"{source}: field 'format' must be a whole number, not {version!r}"[:300])
    if version > RECORD_FORMAT:
        raise RecordError(f"{source}: saved in record format {version} by a newer railgames; "
                          f"this version reads formats 1 to {RECORD_FORMAT}")
    if version < 1:
        raise RecordError(f"{source}: record format {version} does not exist")
    while version < RECORD_FORMAT:
        raw = MIGRATIONS[version](raw)
        version += 1
    return raw


class StrictJSONError(ValueError):
    """Text that ``strict_loads`` refuses; ``syntax`` is True when it is not JSON at all."""

    def __init__(self, reason: str, *, syntax: bool = False) -> None:
        super().__init__(reason)
        self.syntax = syntax


def strict_loads(text: str) -> Any:
    """JSON as every reader of data from outside takes it: numbers of at most
    ``MAX_INT_DIGITS`` digits, no NaN or Infinity, and nesting deep enough to exhaust
    the stack refused. Saves, table files and the host's socket messages alike.

    Raises StrictJSONError with the reason (a phrase, without the source).
    """
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise StrictJSONError(f"JSON error at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                              syntax=True) from None
    except _Refused as exc:
        raise StrictJSONError(f"it holds {exc}") from None
    except RecursionError:
        raise StrictJSONError(f"it is nested far too deeply (at most {MAX_DEPTH} levels)") from None


def read_strict_json(text: str, source: str, what: str, limit: int) -> dict[str, Any]:
    """A JSON object read strictly (JSON types as written, numbers and nesting within the
    limits above, at most ``limit`` characters): what a saved game or a table file holds.

    Every refusal is one RecordError starting with ``source`` and naming ``what``.
    """
    if len(text) > limit:
        raise RecordError(f"{source}: too large for a {what} ({len(text):,} characters; "
                          f"at most {limit:,})")
    if not text.strip():
        raise RecordError(f"{source}: the file is empty")
    try:
        raw = strict_loads(text)
    except StrictJSONError as exc:
        if exc.syntax:
            raise RecordError(f"{source}: not a readable {what} ({exc}; the file may be "
                              "truncated)") from None
        raise RecordError(f"{source}: not a {what}: {exc}") from None
    if not isinstance(raw, dict):
        raise RecordError(f"{source}: not a {what} (expected a JSON object)")
    return raw


M = TypeVar("M", bound=BaseModel)


def read_versioned(text: str, source: str, what: str, limit: int, version: int,
                   model: type[M]) -> M:
    """A versioned JSON file read strictly (``read_strict_json``) into ``model``.

    Its ``format`` must be ``version``; every refusal is one RecordError naming ``source``.
    """
    raw = read_strict_json(text, source, what, limit)
    if raw.get("format") != version:
        raise RecordError(f"{source}: {what} format {raw.get('format')!r} is not one this "
                          f"version reads ({version})"[:300])
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise RecordError(f"{source}: {describe_validation_error(exc)}") from None


def parse_record(text: str, source: str = "record") -> GameRecord:
    """Read a record strictly: JSON types as written, within the limits above.

    Every refusal is one RecordError starting with ``source``.
    """
    raw = read_strict_json(text, source, "saved game", MAX_RECORD_BYTES)
    problem = check_shape(raw)
    if problem:
        raise RecordError(f"{source}: not a saved game: {problem}")
    raw = migrate(raw, source)
    try:
        return validate_record(raw)
    except ValidationError as exc:
        raise RecordError(f"{source}: {describe_validation_error(exc)}") from None


def read_capped_text(path: Path, limit: int, what: str) -> str:
    """A file's UTF-8 text, refused (one line naming it) if over ``limit`` bytes, unreadable,
    or not a regular file (a named pipe, a device, a socket or a folder is never waited on).

    ``what`` names the kind of file in the messages: "a saved game", "a table"."""
    data = read_regular(path, limit, what, RecordError)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not {what} (not UTF-8 text)") from None


def load_record(path: str | Path) -> GameRecord:
    path = Path(path)
    text = read_capped_text(path, MAX_RECORD_BYTES, "a saved game")
    return parse_record(text, str(path))




def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` survive a power cut (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_temp(record: GameRecord, folder: Path) -> Path:
    """The record in a new temporary file in ``folder``, flushed to disk."""
    import tempfile  # (not loaded by reading a record: it brings random, hashing, shutil)

    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(record.dump_json())
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write atomically: a killed process never leaves half a file behind."""
    path = Path(path)
    record.updated = datetime.now(UTC).isoformat(timespec="seconds")
    tmp = write_temp(record, path.parent)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)
