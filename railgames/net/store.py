"""Where a host keeps its tables: one small interface, and the files behind it today.

A table is kept as a log: its settings and seats first, then one entry per
change, appended as it happens:

* ``{"seats": [...]}``: who sits where changed (a name taken, a key kept, a
  bot playing for someone away);
* ``{"start": {...}}``: the game began (the record's header);
* ``{"act": {...}, "at": "..."}``: one action, as the record keeps it;
* ``{"undo": n}``: the record was cut back to its first ``n`` actions;
* ``{"chat": {"name": ..., "text": ..., "seat": ..., "at": ...}}``: a line said at the table;
* ``{"timeout": {"played": n, "seat": ..., "did": ...}, "at": "..."}``: the move awaited
  after ``n`` actions ran out of time at a turn-based table (and what the table did).

Entries may carry ``"at"``, the host's clock when they were kept; the last action's (or
the start's) is when the move now awaited began.

So an action costs one short append however long the game has run, where
rewriting the whole record after every move cost more with every move.

``TableStore`` is what the host needs of any store: ``create``, ``append``,
``load``, ``list`` and ``watch``. ``FileTableStore`` keeps each table in a file
of JSON lines under the host's data directory. What it reads back goes
through the same strict reader as a saved game (``tablefile.parse_table``),
so nothing is trusted because the host wrote it.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from railgames.core.errors import RecordError
from railgames.core.record import (
    MAX_ACTIONS,
    GameRecord,
    describe_validation_error,
    fsync_folder,
    read_capped_text,
    read_strict_json,
)
from railgames.net.tablefile import MAX_TABLE_BYTES, TableFile, parse_table, read_table

LOG_FORMAT = 2
LOG_SUFFIX = ".table"
# A table's log holds its actions and a line for each change of seats or undo; a log
# holding more than this many lines besides its actions is written again, compacted,
# when the host next loads it.
COMPACT_AFTER = 64
# The log of a table whose record is at its limits: the record's bytes, one entry's
# wrapping per action, and the seat lines.
MAX_LOG_BYTES = MAX_TABLE_BYTES + MAX_ACTIONS * 64 + 1024 * 1024
MAX_LINE = 64 * 1024  # one entry: an action is a few hundred bytes, a seats line less
CODE_RE = re.compile(r"^[A-Z]{4}$")
# The chat lines a table keeps (the oldest are left out when the log is compacted).
MAX_CHAT_KEPT = 200
MAX_CHAT_TEXT = 300

Entry = dict[str, Any]


class ChatLine(BaseModel):
    """One line said at a table, as its log keeps it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=24)]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT_TEXT)]
    seat: Annotated[int, Field(ge=0, le=15)] | None = None  # None: a watcher
    at: Annotated[str, Field(max_length=40)] = ""


class TimeoutEntry(BaseModel):
    """A move that ran out of time at a turn-based table."""

    model_config = ConfigDict(extra="forbid", strict=True)

    played: Annotated[int, Field(ge=0, le=MAX_ACTIONS)]
    seat: Annotated[int, Field(ge=0, le=15)] | None = None
    did: Literal["bot", "skip", "remind"] | None = None


@dataclass
class StoredTable:
    """A table as its store gives it back: its settings and seats, and its record (None
    while it waits for players), checked as strictly as a saved game."""

    settings: TableFile
    record: GameRecord | None
    entries: int  # lines read after the header
    torn: bool = False  # the last line was cut short (a write killed halfway) and left out
    # Worth writing again (``FileTableStore.tidy``): kept in an earlier version's file, or
    # a log with a torn last line or many lines besides its actions.
    untidy: bool = False
    chat: list[ChatLine] = field(default_factory=list)
    # The last move that ran out of time (its ``played``), if any.
    timeout: TimeoutEntry | None = None
    # When the move now awaited began: the "at" of the last action, or of the start.
    moved_at: str | None = None
    # How many changes the store has kept of this table (the file store: its entries; a
    # database: a count that only grows, compaction included). A host that appends says
    # which version it saw (``extend(after=...)``), so two hosts never both change the
    # same version.
    version: int = 0


class TableMoved(RecordError):
    """Another host changed the table since this one last read it: nothing was kept."""

    def __init__(self, code: str, version: int) -> None:
        super().__init__(f"table {code} was changed by another host (now at change {version})")
        self.code = code
        self.version = version


@runtime_checkable
class TableStore(Protocol):
    """What the host asks of the place its tables live."""

    def create(self, code: str, header: Entry) -> None:
        """Keep a new table: ``header`` is its settings and seats (``HostTable.header()``)."""

    def append(self, code: str, entry: Entry) -> None:
        """Add one change to table ``code``'s log; kept when this returns."""

    def extend(self, code: str, entries: builtins.list[Entry], after: int | None = None) -> int:
        """Add ``entries`` to table ``code``'s log, all or none; the table's version after.
        With ``after``, only if the table is still at that version: else ``TableMoved``
        and nothing is kept."""

    def load(self, code: str) -> StoredTable:
        """Table ``code`` as kept, checked; RecordError (one line naming it) if it cannot be."""

    def since(self, code: str, after: int) -> builtins.list[Entry] | None:
        """The changes of table ``code`` after version ``after``, in order (None: the log
        was written again since, so the table is to be loaded whole)."""

    def list(self) -> builtins.list[str]:
        """The codes of every table kept."""

    def exists(self, code: str) -> bool:
        """Whether a table ``code`` is kept."""

    def rewrite(self, code: str, header: Entry, record: GameRecord | None,
                extras: builtins.list[Entry] | None = None, moved_at: str | None = None) -> int:
        """Keep the table again with only what it holds now; its version after."""

    def tidy(self, code: str, stored: StoredTable) -> bool:
        """Compact an untidy table (``stored.untidy``); True if anything was written."""

    def describe(self, code: str) -> str:
        """Where table ``code`` is kept, for the host's log (a file's path, a row's name)."""

    def watch(self, listener: Callable[[str, Entry], None]) -> Callable[[], None]:
        """Call ``listener(code, entry)`` after each change kept; returns what stops it."""

    def follow(self, listener: Callable[[str | None, int, builtins.list[Entry] | None], None]
               ) -> Callable[[], None]:
        """Call ``listener(code, version, entries)``, from any thread, when another host
        changed a table to ``version`` (``entries``: what it added, when the store says so;
        ``code`` None: the link to the others was lost and found again, so every table may
        have changed); a store of one host never calls it."""

    def close(self) -> None:
        """Let go of what the store holds open."""


class FileTableStore:
    """Each table in ``root/CODE.table``: its header line, then one line per change.

    An append is one ``write`` of one line to a file opened for appending, then an
    ``fsync``, so a host killed at any moment leaves every change it reported kept
    and at worst a last line cut short, which loading leaves out and says so. Tables
    kept by earlier versions as one JSON file (``CODE.json``) are read as they are
    and carried over to a log the first time the host loads them; the old file is
    kept beside it as ``CODE.json.imported``.

    One thread at a time may append to a table (the host uses one writer thread).
    """

    def __init__(self, root: Path, *, sync: bool = True) -> None:
        self.root = root
        self.sync = sync  # fsync after each append (tests of many tables may turn it off)
        self._listeners: list[Callable[[str, Entry], None]] = []
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}  # each table's version, once known

    # --- where
    def path(self, code: str) -> Path:
        return self.root / f"{code}{LOG_SUFFIX}"

    def _check_code(self, code: str) -> None:
        if not CODE_RE.match(code):
            raise RecordError(f"'{code}' is not a table's code")

    # --- the interface
    def create(self, code: str, header: Entry) -> None:
        self._check_code(code)
        self.root.mkdir(parents=True, exist_ok=True)
        line = _line({"format": LOG_FORMAT, **header})
        fd = os.open(self.path(code), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        try:
            os.write(fd, line)
            if self.sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if self.sync:
            fsync_folder(self.root)
        with self._lock:
            self._counts[code] = 0

    def append(self, code: str, entry: Entry) -> None:
        self._check_code(code)
        line = _line(entry)
        fd = os.open(self.path(code), os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW)
        try:
            written = os.write(fd, line)
            if written != len(line):  # a full disk: never leave half a line behind
                raise OSError(f"only {written} of {len(line)} bytes were written")
            if self.sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(code, entry)

    def extend(self, code: str, entries: builtins.list[Entry], after: int | None = None) -> int:
        """One host appends to its files (``after`` is not checked: nobody else writes).
        The version is counted as the entries are written (read once per table, when it
        is not known yet), never by reading the whole log again."""
        for entry in entries:
            self.append(code, entry)
        with self._lock:
            known = self._counts.get(code)
        if known is None:
            text = read_capped_text(self.path(code), MAX_LOG_BYTES, "a table")
            version = max(0, sum(1 for _ in _whole_lines(text)) - 1)
        else:
            version = known + len(entries)
        with self._lock:
            self._counts[code] = version
        return version

    def since(self, code: str, after: int) -> builtins.list[Entry] | None:
        self._check_code(code)
        text = read_capped_text(self.path(code), MAX_LOG_BYTES, "a table")
        entries = [entry for _, entry in _entries(text, str(self.path(code))) if entry]
        return entries[1 + after:] if len(entries) - 1 >= after else None

    def describe(self, code: str) -> str:
        log, old = self.path(code), self.root / f"{code}.json"
        return str(old) if not log.exists() and old.exists() else str(log)

    def follow(self, listener: Callable[[str | None, int, builtins.list[Entry] | None], None]
               ) -> Callable[[], None]:
        return lambda: None  # one host: nobody else changes its files

    def close(self) -> None:
        pass

    def load(self, code: str) -> StoredTable:
        """Read only: a log being appended to meanwhile is read up to its last whole line."""
        self._check_code(code)
        path = self.path(code)
        old = self.root / f"{code}.json"
        if not path.exists() and old.exists():
            settings, record = read_table(old)  # kept by an earlier version
            return StoredTable(settings=settings, record=record, entries=0, untidy=True)
        text = read_capped_text(path, MAX_LOG_BYTES, "a table")
        return _parse_log(text, str(path), code)

    def list(self) -> builtins.list[str]:
        if not self.root.is_dir():
            return []
        codes = {p.name[:-len(LOG_SUFFIX)] for p in self.root.glob(f"*{LOG_SUFFIX}")}
        codes |= {p.stem for p in self.root.glob("*.json")}
        return sorted(c for c in codes if CODE_RE.match(c))

    def watch(self, listener: Callable[[str, Entry], None]) -> Callable[[], None]:
        return added(self._listeners, listener, self._lock)

    # --- beyond the interface: for loading and tools
    def exists(self, code: str) -> bool:
        return self.path(code).exists() or (self.root / f"{code}.json").exists()

    def rewrite(self, code: str, header: Entry, record: GameRecord | None,
                extras: builtins.list[Entry] | None = None, moved_at: str | None = None) -> int:
        """Write the table's log again with only what it holds now (atomically): its
        header (settings and seats as they are now), its record, and ``extras`` (its
        chat, its last timeout); ``moved_at`` is when the move it waits for began."""
        self._check_code(code)
        self.root.mkdir(parents=True, exist_ok=True)
        lines = [_line({"format": LOG_FORMAT, **header})]
        lines.extend(_line(entry) for entry in compacted_entries(header, record, extras, moved_at))
        _replace(self.path(code), b"".join(lines), self.sync)
        with self._lock:
            self._counts[code] = len(lines) - 1
        return len(lines) - 1

    def tidy(self, code: str, stored: StoredTable) -> bool:
        """Write an untidy table's log again, compacted; a table kept by an earlier version
        (one JSON file) is kept as a log from then on, and its old file is left beside it
        as ``CODE.json.imported``. True if anything was written."""
        if not stored.untidy:
            return False
        self.rewrite(code, *compacted(stored))
        old = self.root / f"{code}.json"
        if old.exists():
            os.replace(old, old.with_name(old.name + ".imported"))
        return True


def added(listeners: builtins.list[Any], listener: Any, lock: Any) -> Callable[[], None]:
    """Add ``listener`` to ``listeners`` (under ``lock``); what takes it off again."""
    with lock:
        listeners.append(listener)

    def stop() -> None:
        with lock, contextlib.suppress(ValueError):
            listeners.remove(listener)

    return stop


def _line(entry: Entry) -> bytes:
    data = json.dumps(entry, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    if len(data) > MAX_LINE:
        raise RecordError(f"a table's entry of {len(data):,} bytes (at most {MAX_LINE:,})")
    return data


def compacted(stored: StoredTable) -> tuple[Entry, GameRecord | None, list[Entry], str | None]:
    """What a table's log holds once compacted (``rewrite``'s arguments): its header as it is
    now, its record, its chat and last timeout, and when the move awaited began."""
    extras: list[Entry] = [{"chat": line.model_dump()} for line in stored.chat]
    if stored.timeout is not None:
        extras.append({"timeout": stored.timeout.model_dump(exclude_none=True)})
    return header_of(stored.settings), stored.record, extras, stored.moved_at


def compacted_entries(header: Entry, record: GameRecord | None, extras: list[Entry] | None,
                      moved_at: str | None) -> list[Entry]:
    """A compacted log's entries after its header, in order (see ``FileTableStore.rewrite``)."""
    entries: list[Entry] = []
    if record is not None:
        start: Entry = {"start": record.model_dump(mode="json", exclude={"actions"})}
        if moved_at is not None and not record.actions:
            start["at"] = moved_at
        entries.append(start)
        last = len(record.actions) - 1
        entries.extend({"act": action, **({"at": moved_at} if i == last and moved_at else {})}
                       for i, action in enumerate(record.actions))
    entries.extend(extras or ())
    return entries


def header_of(settings: TableFile) -> Entry:
    return settings.model_dump(mode="json", exclude={"format", "record"})


def _replace(path: Path, data: bytes, sync: bool) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if sync:
        fsync_folder(path.parent)


def _whole_lines(text: str) -> Iterator[str]:
    lines = text.split("\n")
    yield from (line for line in lines[:-1])


def _entries(text: str, source: str) -> Iterator[tuple[int, Entry | None]]:
    """Each line's entry, read strictly; None for a last line cut short."""
    lines = text.split("\n")
    last = len(lines) - 1
    for number, line in enumerate(lines, 1):
        if number - 1 == last:
            if line.strip():  # no newline after it: the write that made it was cut short
                yield number, None
            return
        if len(line) > MAX_LINE:
            raise RecordError(f"{source}: line {number} is too long for a table's entry")
        yield number, read_strict_json(line, f"{source}: line {number}", "table entry",
                                       MAX_LINE)


def _parse_log(text: str, source: str, code: str) -> StoredTable:
    """The table a log file holds, checked as strictly as a table file."""
    return parse_entries(_entries(text, source), source, code)


def parse_entries(lines: Iterable[tuple[int | str, Entry | None]], source: str,
                  code: str, version: int | None = None) -> StoredTable:
    """The table a log holds, from its entries in order (each with the line or row that
    names it in a message; None for a last line cut short), the header first: checked as
    strictly as a table file. ``version``: what the store counts the log's changes by
    (the file store: the entries read)."""
    header: Entry | None = None
    seats: Any = None
    start: Any = None
    actions: list[Any] = []
    updated: Any = None
    moved_at: Any = None
    chat: list[ChatLine] = []
    timeout: TimeoutEntry | None = None
    count = 0
    torn = False
    for number, entry in lines:
        if entry is None:
            torn = True
            break
        if header is None:
            if entry.get("format") != LOG_FORMAT:
                raise RecordError(f"{source}: table log format {entry.get('format')!r} is not "
                                  f"one this version reads ({LOG_FORMAT})"[:300])
            header = entry
            continue
        count += 1
        kinds = entry.keys() - {"at"}
        if len(kinds) != 1 or not kinds <= ENTRY_KINDS:
            raise RecordError(f"{source}: {_where(number)} is not a table entry")
        at = entry.get("at")
        if at is not None and (not isinstance(at, str) or len(at) > 40):
            raise RecordError(f"{source}: {_where(number)}: its time is not a time")
        if "act" in entry:
            if start is None:
                raise RecordError(f"{source}: {_where(number)}: an action before the game began")
            actions.append(entry["act"])
            updated = entry.get("at", updated)
            moved_at = at
            timeout = None
            if len(actions) > MAX_ACTIONS:
                raise RecordError(f"{source}: more than {MAX_ACTIONS:,} actions")
        elif "chat" in entry:
            chat.append(_checked(ChatLine, entry["chat"], source, number))
            del chat[:-MAX_CHAT_KEPT]
        elif "timeout" in entry:
            timeout = _checked(TimeoutEntry, entry["timeout"], source, number)
        elif "seats" in entry:
            seats = entry["seats"]
        elif "start" in entry:
            if start is not None:
                raise RecordError(f"{source}: {_where(number)}: the game began twice")
            start = entry["start"]
            moved_at = at
        elif "undo" in entry:
            back = entry["undo"]
            if type(back) is not int or not 0 <= back <= len(actions):
                raise RecordError(f"{source}: {_where(number)}: undo to {back!r} of "
                                  f"{len(actions)} actions")
            del actions[back:]
            moved_at, timeout = at or moved_at, None
    if header is None:
        raise RecordError(f"{source}: the file is empty")
    table = {key: value for key, value in header.items() if key != "format"}
    table["format"] = 1
    if seats is not None:
        table["seats"] = seats
    record = None
    if start is not None:
        if not isinstance(start, dict):
            raise RecordError(f"{source}: the game's header is not a JSON object")
        record = {**start, "actions": actions}
        if updated is not None:
            record["updated"] = updated
    table["record"] = record
    settings, game_record = parse_table(json.dumps(table), source, code)
    if timeout is not None and timeout.played != len(actions):
        timeout = None  # an earlier move's
    return StoredTable(settings=settings, record=game_record, entries=count, torn=torn,
                       untidy=torn or count - len(actions) > COMPACT_AFTER, chat=chat,
                       timeout=timeout, moved_at=moved_at,
                       version=count if version is None else version)


ENTRY_KINDS = frozenset({"seats", "start", "act", "undo", "chat", "timeout"})


def _where(number: int | str) -> str:
    return f"line {number}" if isinstance(number, int) else number


def _checked(model: type[Any], value: Any, source: str, number: int | str) -> Any:
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise RecordError(f"{source}: {_where(number)}: {describe_validation_error(exc)}"
                          ) from None
