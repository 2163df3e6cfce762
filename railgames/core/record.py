"""The game record: the header plus every action, in order.

State is never saved; it is what replaying the record gives. Saves, undo,
autosave, bug reports and test fixtures all rest on that one mechanism.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from railgames.core.errors import RecordError

RECORD_FORMAT = 1

PlayerKind = Literal["human", "random", "greedy"]


class PlayerSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=24)
    kind: PlayerKind = "human"

    @property
    def is_bot(self) -> bool:
        return self.kind != "human"


class GameRecord(BaseModel):
    """Header (game, map, options, players, seed) and the ordered action list.

    Actions are kept as plain JSON objects here so that the record stays
    game-agnostic; each game's action union validates them on replay.
    """

    model_config = ConfigDict(extra="forbid")

    format: Literal[1] = 1
    game: str
    map: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[PlayerSpec]
    seed: int
    actions: list[dict[str, Any]] = Field(default_factory=list)
    created: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    updated: str | None = None

    def dump_json(self) -> str:
        return self.model_dump_json(indent=1)


def _more(count: int) -> str:
    if count <= 0:
        return ""
    return f" (and {count} more problem{'s' if count > 1 else ''})"


def describe_validation_error(err: ValidationError) -> str:
    """One line naming the first bad field and what is wrong with it."""
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    extra = _more(err.error_count() - 1)
    return f"field '{where}': {first['msg']}{extra}"


def parse_record(text: str, source: str = "record") -> GameRecord:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        if not text.strip():
            raise RecordError(f"{source}: the file is empty") from None
        raise RecordError(
            f"{source}: not a readable saved game (JSON error at line {exc.lineno}, "
            f"column {exc.colno}: {exc.msg}; the file may be truncated)"
        ) from None
    if not isinstance(raw, dict):
        raise RecordError(f"{source}: not a saved game (expected a JSON object)")
    if raw.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(
            f"{source}: saved with record format {raw.get('format')!r}; "
            f"this version reads format {RECORD_FORMAT}"
        )
    try:
        return GameRecord.model_validate(raw)
    except ValidationError as exc:
        raise RecordError(f"{source}: {describe_validation_error(exc)}") from None


def load_record(path: str | Path) -> GameRecord:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot be read ({exc})") from None
    return parse_record(text, str(path))


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write atomically: a closed terminal never leaves half a file behind."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    record.updated = datetime.now(UTC).isoformat(timespec="seconds")
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(record.dump_json())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
