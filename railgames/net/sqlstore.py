"""Tables kept in a database: SQLite on one host, PostgreSQL for several.

Both keep the same two tables:

* ``rg_tables``: one row per table, its header (settings and seats, JSON text), its
  ``version`` (how many changes it has kept; only ever grows) and ``base`` (the version
  its compacted log starts after);
* ``rg_entries``: one row per change, ``(code, n, entry)``, ``n`` counting from 1.

An append is one transaction: the table's row is moved on from the version the host
last saw (``UPDATE ... WHERE version = ?``, which locks the row until the end of the
transaction), then the rows of the new entries are inserted. Two hosts that change the
same table at once both ask to move it on from the same version; the database lets one
do it, and the other is told ``TableMoved`` with nothing kept, re-reads the table and
checks its change again.

What is read back goes through the same strict reader as a table file
(``store.parse_entries``): nothing is trusted because a host wrote it.

PostgreSQL also tells every host of each change (``NOTIFY`` on ``railgames``, with
"CODE:version"), which a listening thread hands to ``follow``'s listeners; a host whose
link to the database broke connects again and is told to catch up every table.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from railgames.core.errors import RecordError
from railgames.core.record import GameRecord, read_strict_json
from railgames.net.store import (
    CODE_RE,
    LOG_FORMAT,
    MAX_LINE,
    Entry,
    StoredTable,
    TableMoved,
    added,
    compacted,
    compacted_entries,
    parse_entries,
)

CHANNEL = "railgames"
NOTIFY_CARRIES = 7000  # bytes of a change told to the other hosts, at most, with its entries
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS rg_tables (
        code TEXT PRIMARY KEY,
        header TEXT NOT NULL,
        version BIGINT NOT NULL DEFAULT 0,
        base BIGINT NOT NULL DEFAULT 0,
        created TEXT NOT NULL DEFAULT ''
    )""",
    """CREATE TABLE IF NOT EXISTS rg_entries (
        code TEXT NOT NULL,
        n BIGINT NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (code, n)
    )""",
]


def _text(entry: Entry) -> str:
    text = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) > MAX_LINE:
        raise RecordError(f"a table's entry of {len(text.encode()):,} bytes (at most {MAX_LINE:,})")
    return text


class SqlTableStore:
    """What SQLite and PostgreSQL share; each says how to connect and how to lock."""

    mark = "?"  # the driver's parameter mark
    name = "database"

    def __init__(self) -> None:
        self._listeners: list[Callable[[str, Entry], None]] = []
        self._followers: list[Callable[[str | None, int, list[Entry] | None], None]] = []
        self._lock = threading.RLock()

    # --- what each database says
    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:  # a cursor in one transaction
        raise NotImplementedError
        yield None

    def _sql(self, text: str) -> str:
        return text if self.mark == "?" else text.replace("?", self.mark)

    def _after_append(self, cur: Any, code: str, version: int,
                      texts: builtins.list[str] | None = None) -> None:
        """Inside the transaction, after a change is kept (PostgreSQL tells the others;
        ``texts``: the entries added, when they are only added)."""

    # --- the interface
    def _check_code(self, code: str) -> None:
        if not isinstance(code, str) or not CODE_RE.match(code):
            raise RecordError(f"'{code}' is not a table's code")

    def create(self, code: str, header: Entry) -> None:
        self._check_code(code)
        text = _text({"format": LOG_FORMAT, **header})
        with self._tx() as cur:
            cur.execute(self._sql("SELECT 1 FROM rg_tables WHERE code = ?"), (code,))
            if cur.fetchone() is not None:
                raise RecordError(f"a table {code} is kept already")
            cur.execute(self._sql("INSERT INTO rg_tables (code, header, version, base, created) "
                                  "VALUES (?, ?, 0, 0, ?)"),
                        (code, text, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
            self._after_append(cur, code, 0)

    def append(self, code: str, entry: Entry) -> None:
        self.extend(code, [entry])

    def extend(self, code: str, entries: builtins.list[Entry], after: int | None = None) -> int:
        self._check_code(code)
        texts = [_text(entry) for entry in entries]
        with self._tx() as cur:
            if after is None:
                cur.execute(self._sql("UPDATE rg_tables SET version = version + ? "
                                      "WHERE code = ?"), (len(texts), code))
            else:
                cur.execute(self._sql("UPDATE rg_tables SET version = version + ? "
                                      "WHERE code = ? AND version = ?"), (len(texts), code, after))
            if cur.rowcount != 1:
                cur.execute(self._sql("SELECT version FROM rg_tables WHERE code = ?"), (code,))
                row = cur.fetchone()
                if row is None:
                    raise RecordError(f"no table {code} is kept")
                raise TableMoved(code, int(row[0]))
            cur.execute(self._sql("SELECT version FROM rg_tables WHERE code = ?"), (code,))
            version = int(cur.fetchone()[0])
            first = version - len(texts) + 1
            cur.executemany(self._sql("INSERT INTO rg_entries (code, n, entry) VALUES (?, ?, ?)"),
                            [(code, first + i, text) for i, text in enumerate(texts)])
            self._after_append(cur, code, version, texts)
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            for entry in entries:
                listener(code, entry)
        return version

    def _rows(self, code: str, after: int) -> tuple[str, int, int, builtins.list[tuple[int, str]]]:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT header, version, base FROM rg_tables WHERE code = ?"),
                        (code,))
            row = cur.fetchone()
            if row is None:
                raise RecordError(f"no table {code} is kept")
            header, version, base = str(row[0]), int(row[1]), int(row[2])
            cur.execute(self._sql("SELECT n, entry FROM rg_entries WHERE code = ? AND n > ? "
                                  "ORDER BY n"), (code, max(after, base)))
            rows = [(int(n), str(entry)) for n, entry in cur.fetchall()]
        return header, version, base, rows

    def load(self, code: str) -> StoredTable:
        self._check_code(code)
        source = self.describe(code)
        header, version, _base, rows = self._rows(code, 0)

        def lines() -> Iterator[tuple[int | str, Entry | None]]:
            yield "header", _read(header, f"{source}: its header", "table header")
            for n, text in rows:
                yield f"change {n}", _read(text, f"{source}: change {n}", "table entry")

        return parse_entries(lines(), source, code, version=version)

    def since(self, code: str, after: int) -> builtins.list[Entry] | None:
        self._check_code(code)
        _header, version, base, rows = self._rows(code, after)
        if after < base or version < after:
            return None  # compacted since, or a version this store never had: load it whole
        source = self.describe(code)
        return [_read(text, f"{source}: change {n}", "table entry") for n, text in rows]

    def list(self) -> builtins.list[str]:
        with self._tx() as cur:
            cur.execute("SELECT code FROM rg_tables ORDER BY code")
            return [str(code) for (code,) in cur.fetchall() if CODE_RE.match(str(code))]

    def exists(self, code: str) -> bool:
        with self._tx() as cur:
            cur.execute(self._sql("SELECT 1 FROM rg_tables WHERE code = ?"), (code,))
            return cur.fetchone() is not None

    def rewrite(self, code: str, header: Entry, record: GameRecord | None,
                extras: builtins.list[Entry] | None = None, moved_at: str | None = None) -> int:
        """The table's log written again, compacted, in one transaction: the version moves
        on past every change it had, so a host that follows it loads it whole."""
        self._check_code(code)
        head = _text({"format": LOG_FORMAT, **header})
        texts = [_text(entry) for entry in compacted_entries(header, record, extras, moved_at)]
        with self._tx() as cur:
            cur.execute(self._sql("SELECT version FROM rg_tables WHERE code = ?"), (code,))
            row = cur.fetchone()
            if row is None:
                cur.execute(self._sql("INSERT INTO rg_tables (code, header, version, base) "
                                      "VALUES (?, ?, 0, 0)"), (code, head))
                base = 0
            else:
                base = int(row[0])
            version = base + len(texts)
            cur.execute(self._sql("DELETE FROM rg_entries WHERE code = ?"), (code,))
            cur.execute(self._sql("UPDATE rg_tables SET header = ?, version = ?, base = ? "
                                  "WHERE code = ?"), (head, version, base, code))
            cur.executemany(self._sql("INSERT INTO rg_entries (code, n, entry) VALUES (?, ?, ?)"),
                            [(code, base + 1 + i, text) for i, text in enumerate(texts)])
            self._after_append(cur, code, version)
        return version

    def tidy(self, code: str, stored: StoredTable) -> bool:
        if not stored.untidy:
            return False
        self.rewrite(code, *compacted(stored))
        return True

    def describe(self, code: str) -> str:
        return f"{self.name} table {code}"

    def watch(self, listener: Callable[[str, Entry], None]) -> Callable[[], None]:
        return added(self._listeners, listener, self._lock)

    def follow(self, listener: Callable[[str | None, int, builtins.list[Entry] | None], None]
               ) -> Callable[[], None]:
        return added(self._followers, listener, self._lock)

    def close(self) -> None:
        pass


def _read(text: str, where: str, what: str) -> Entry:
    return read_strict_json(text, where, what, MAX_LINE)  # type: ignore[no-any-return]


class SqliteTableStore(SqlTableStore):
    """Every table of one host in one SQLite file (WAL: readers never wait for the writer)."""

    name = "sqlite"

    def __init__(self, path: Path, *, sync: bool = True) -> None:
        super().__init__()
        self.path = path
        self.name = str(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(str(path), isolation_level=None,
                                         check_same_thread=False, timeout=30)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(f"PRAGMA synchronous={'FULL' if sync else 'OFF'}")
            for statement in SCHEMA:
                self._conn.execute(statement)
        except sqlite3.DatabaseError as exc:
            raise RecordError(f"{path}: not a table database this version reads ({exc})") from None

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._lock:
            cur = self._conn.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                try:
                    yield cur
                except BaseException:
                    cur.execute("ROLLBACK")
                    raise
                cur.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                raise RecordError(f"{self.path}: {exc}") from None
            finally:
                cur.close()

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class PostgresTableStore(SqlTableStore):
    """Tables shared by several hosts in one PostgreSQL database (psycopg 3).

    Each change is one transaction that moves the table's row on from the version the host
    saw (the row stays locked until it commits, so two hosts' changes never interleave)
    and tells the other hosts with ``NOTIFY``. A host listens on a connection of its own;
    when either connection breaks it connects again (every half second, for as long as it
    takes) and, once back, tells its listeners to catch every table up from the log.
    """

    mark = "%s"
    shared = True

    def __init__(self, dsn: str, *, origin: str | None = None) -> None:
        super().__init__()
        import secrets

        try:
            import psycopg
        except ImportError:  # pragma: no cover - a dependency of the project
            raise RecordError("PostgreSQL needs the psycopg package: pip install 'psycopg[binary]'"
                              ) from None
        self._psycopg = psycopg
        self.dsn = dsn
        self.name = _safe_dsn(dsn)
        self.origin = origin or secrets.token_hex(4)  # this host, in what it tells the others
        self._conn: Any = None
        self._closed = False
        self._listen_thread: threading.Thread | None = None
        # Channels besides the tables' one this host listens on, and who hears each.
        self._channels: dict[str, builtins.list[Callable[[str], None]]] = {}
        with self._tx() as cur:
            # Two hosts starting at once make the schema one after the other.
            cur.execute("SELECT pg_advisory_xact_lock(712001)")
            for statement in SCHEMA:
                cur.execute(statement)

    def _connect(self) -> Any:
        try:
            return self._psycopg.connect(self.dsn, autocommit=True, connect_timeout=10)
        except self._psycopg.Error as exc:
            raise RecordError(f"cannot reach the database at {self.name}: "
                              f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc}"
                              [:300]) from None

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        psycopg = self._psycopg
        with self._lock:
            if self._conn is None or self._conn.closed:
                self._conn = self._connect()
            conn = self._conn
            try:
                with conn.transaction(), conn.cursor() as cur:
                    yield cur
            except psycopg.OperationalError as exc:
                # The link broke: the next call connects again. What this change did is
                # not known; the caller re-reads the table (see TableService).
                with contextlib.suppress(Exception):
                    conn.close()
                self._conn = None
                raise RecordError(f"the database at {self.name} was lost: "
                                  f"{str(exc).strip()[:200]}") from None
            except psycopg.Error as exc:
                raise RecordError(f"the database at {self.name}: {str(exc).strip()[:200]}"
                                  ) from None

    def _after_append(self, cur: Any, code: str, version: int,
                      texts: builtins.list[str] | None = None) -> None:
        # The entries ride along when they are small (a move, a line said): the other hosts
        # apply them without asking the database again. (NOTIFY takes up to 8,000 bytes.)
        payload = f"{code}:{version}:{self.origin}"
        if texts:
            carried = f"{payload}:[{','.join(texts)}]"
            if len(carried.encode()) <= NOTIFY_CARRIES:
                payload = carried
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    def follow(self, listener: Callable[[str | None, int, builtins.list[Entry] | None], None]
               ) -> Callable[[], None]:
        stop = super().follow(listener)
        if self._listen_thread is None:
            self._listen_thread = threading.Thread(target=self._listen, daemon=True,
                                                   name="railgames-listen")
            self._listen_thread.start()
        return stop

    def tell(self, channel: str, payload: str) -> None:
        """Say ``payload`` to every host listening on ``channel`` (at most 7,000 bytes)."""
        with self._tx() as cur:
            cur.execute("SELECT pg_notify(%s, %s)", (channel, payload[:7000]))

    def hear(self, channel: str, listener: Callable[[str], None]) -> None:
        """Call ``listener(payload)`` (from the listening thread) for what is said on
        ``channel`` by any host, this one included."""
        with self._lock:
            self._channels.setdefault(channel, []).append(listener)

    def _listen(self) -> None:
        psycopg = self._psycopg
        while not self._closed:
            try:
                conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=10)
            except psycopg.Error:
                time.sleep(0.5)
                continue
            try:
                listening: set[str] = set()
                self._listen_to(conn, listening)
                # Changes made before this host listened (or while it was cut off) were
                # not heard: every table is caught up from the log.
                self._tell_followers(None, 0)
                while not self._closed:
                    for note in conn.notifies(timeout=1.0):
                        self._heard(note.channel, note.payload)
                    # Channels asked for since; and a cut link, which waiting for notices
                    # alone does not always notice, shows here as an error.
                    self._listen_to(conn, listening)
                    conn.execute("SELECT 1")
            except psycopg.Error:
                pass  # connected again below
            finally:
                with contextlib.suppress(Exception):
                    conn.close()
            if not self._closed:
                time.sleep(0.5)

    def _listen_to(self, conn: Any, listening: set[str]) -> None:
        with self._lock:
            channels = [CHANNEL, *self._channels]
        for channel in channels:
            if channel not in listening:
                conn.execute(f'LISTEN "{channel}"')
                listening.add(channel)

    def _heard(self, channel: str, payload: str) -> None:
        if channel != CHANNEL:
            with self._lock:
                listeners = list(self._channels.get(channel, ()))
            for hear in listeners:
                with contextlib.suppress(Exception):
                    hear(payload)
            return
        code, _, rest = payload.partition(":")
        version, _, rest = rest.partition(":")
        origin, _, carried = rest.partition(":")
        if origin == self.origin or not CODE_RE.match(code) or not version.isdigit():
            return
        entries: builtins.list[Entry] | None = None
        if carried:
            try:
                read = read_strict_json(carried, f"{self.describe(code)}: a change told",
                                        "table entries", NOTIFY_CARRIES)
            except RecordError:
                read = None  # read from the table instead
            if isinstance(read, list) and all(isinstance(e, dict) for e in read):
                entries = read
        self._tell_followers(code, int(version), entries)

    def _tell_followers(self, code: str | None, version: int,
                        entries: builtins.list[Entry] | None = None) -> None:
        with self._lock:
            followers = list(self._followers)
        for listener in followers:
            with contextlib.suppress(Exception):
                listener(code, version, entries)

    def close(self) -> None:
        self._closed = True
        with self._lock:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None
        if self._listen_thread is not None:
            self._listen_thread.join(timeout=3)


def _safe_dsn(dsn: str) -> str:
    """A database's address without its password, for messages and logs."""
    import re

    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", dsn)[:200]


def open_store(spec: str | None, data_dir: Path) -> Any:
    """The store ``railgames host --store`` names: a postgresql:// address, a path to an
    SQLite file (sqlite:PATH or a path ending .sqlite3/.db), "files" for the table files of
    earlier versions, or nothing: ``tables.sqlite3`` in the host's data directory."""
    from railgames.net.store import FileTableStore

    if spec is None or spec == "":
        return SqliteTableStore(data_dir / "tables.sqlite3")
    if spec.startswith(("postgresql://", "postgres://")):
        return PostgresTableStore(spec)
    if spec == "files":
        return FileTableStore(data_dir / "tables")
    if spec.startswith("sqlite:"):
        return SqliteTableStore(Path(spec[len("sqlite:"):]).expanduser())
    raise RecordError(f"--store: '{spec[:80]}' is not postgresql://..., sqlite:PATH or files")
