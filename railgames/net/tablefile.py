"""A host's table file read back: as strictly as a saved game, every refusal naming the file.

A table file is the table's settings and seats around its game record. The
record inside goes through ``parse_record`` (the same limits and strict types
as loading a save); the rest is checked here with the same JSON reader, and
the two must agree (the same game, board and players). Nothing is trusted
because the host wrote it: a file may be damaged, truncated or edited by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from railgames.core.errors import RecordError
from railgames.core.record import (
    MAX_OPTIONS,
    MAX_RECORD_BYTES,
    GameRecord,
    Id,
    OptionValue,
    PlayerKind,
    parse_record,
    read_capped_text,
    read_versioned,
)
from railgames.net.pace import LIVE, Pace

TABLE_FORMAT = 1
# The record, plus a table's settings and seats: a few hundred bytes more.
MAX_TABLE_BYTES = MAX_RECORD_BYTES + 64 * 1024


Name = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,23}$")]
Code = Annotated[str, Field(pattern=r"^[A-Z]{4}$")]
MAX_INVITED = 32


class SeatFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=24)  # "" for a seat still waiting for its player
    kind: PlayerKind
    key: Annotated[str, Field(max_length=128)] | None = None
    bot_taken: bool = False


class TableFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal[1]
    code: Code
    game: Id
    humans: Annotated[int, Field(ge=1, le=16)]
    bot_kind: Literal["random", "greedy", "search", "search:easy", "search:hard"] = "greedy"
    options: dict[Annotated[str, Field(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=MAX_OPTIONS)
    seed: int = 0
    map: Id | None = None
    seats: list[SeatFile] = Field(min_length=1, max_length=16)
    # Live (played at one sitting) or turn-based (a time per move, and what its end does).
    pace: Pace = LIVE
    # A private table is not listed; only the names invited (and its seated players) join it.
    private: bool = False
    invited: list[Name] = Field(default_factory=list, max_length=MAX_INVITED)
    # Who may write at the table's chat: its players only, or its watchers too.
    talk: Literal["players", "everyone"] = "everyone"
    # Whether a player may ask for the search's advice on a move (H); off for a serious game.
    hints: bool = True
    again_of: Code | None = None  # the table this one plays again ("Play again")
    record: dict[str, Any] | None = None


def _read_text(path: Path) -> str:
    return read_capped_text(path, MAX_TABLE_BYTES, "a table")


def parse_table(text: str, source: str,
                code: str | None = None) -> tuple[TableFile, GameRecord | None]:
    """A table's settings and its record (None while it waits for players), checked.

    ``code`` is the table the file should hold (its name says so).
    """
    table = read_versioned(text, source, "table", MAX_TABLE_BYTES, TABLE_FORMAT, TableFile)
    if code is not None and table.code != code:
        raise RecordError(f"{source}: holds table {table.code}, not {code}")
    humans = sum(1 for s in table.seats if s.kind == "human")
    if humans != table.humans:
        raise RecordError(f"{source}: {table.humans} players at keyboards, but {humans} "
                          "seats for them")
    if table.record is None:
        return table, None
    # The same reader as a saved game's: its limits, strict types and format migrations.
    record = parse_record(json.dumps(table.record), f"{source}: record")
    if record.game != table.game:
        raise RecordError(f"{source}: a table of {table.game} holding a game of {record.game}")
    if table.map is not None and record.map != table.map:
        raise RecordError(f"{source}: a table on board {table.map} holding a game on "
                          f"{record.map}")
    seated = [(s.name, s.kind) for s in table.seats]
    playing = [(p.name, p.kind) for p in record.players]
    if seated != playing:
        raise RecordError(f"{source}: the seats ({', '.join(n for n, _ in seated)}) are not "
                          f"the game's players ({', '.join(n for n, _ in playing)})")
    return table, record


def read_table(path: Path) -> tuple[TableFile, GameRecord | None]:
    return parse_table(_read_text(path), str(path), path.stem)
