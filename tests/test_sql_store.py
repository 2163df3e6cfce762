"""The database stores keep a table exactly as the file store does, and refuse a second
change of the same version (SQLite always; PostgreSQL against a real server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from railgames.core.errors import RecordError
from railgames.net.sqlstore import PostgresTableStore, SqliteTableStore
from railgames.net.store import FileTableStore, TableMoved

HEADER: dict[str, Any] = {
    "code": "ABCD", "game": "new-england", "humans": 2, "bot_kind": "greedy", "options": {},
    "seed": 3, "map": None, "seats": [{"name": "Ann", "kind": "human", "key": None,
                                       "bot_taken": False},
                                      {"name": "", "kind": "human", "key": None,
                                       "bot_taken": False}],
}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    if request.param == "sqlite":
        made: Any = SqliteTableStore(tmp_path / "t.sqlite3", sync=False)
    else:
        made = PostgresTableStore(request.getfixturevalue("pg_url"))
    yield made
    made.close()


def test_a_table_is_kept_and_read_back_as_the_file_store_keeps_it(store: Any, tmp_path: Path) -> None:
    files = FileTableStore(tmp_path / "files", sync=False)
    chat = {"chat": {"name": "Ann", "text": "hello", "seat": 0, "at": ""}}
    for each in (store, files):
        each.create("ABCD", HEADER)
        each.append("ABCD", {"seats": HEADER["seats"]})
        each.append("ABCD", chat)
    mine, theirs = store.load("ABCD"), files.load("ABCD")
    assert mine.settings == theirs.settings
    assert [c.text for c in mine.chat] == ["hello"]
    assert mine.version == 2 and store.list() == ["ABCD"] and store.exists("ABCD")
    assert store.since("ABCD", 1) == [chat]


def test_two_changes_of_the_same_version_one_is_kept(store: Any) -> None:
    store.create("ABCD", HEADER)
    assert store.extend("ABCD", [{"seats": HEADER["seats"]}], after=0) == 1
    with pytest.raises(TableMoved) as lost:
        store.extend("ABCD", [{"chat": {"name": "Bo", "text": "late", "seat": None}}], after=0)
    assert lost.value.version == 1
    assert store.load("ABCD").version == 1 and store.load("ABCD").chat == []


def test_a_rewritten_table_is_loaded_whole_by_a_host_behind(store: Any) -> None:
    store.create("ABCD", HEADER)
    store.extend("ABCD", [{"seats": HEADER["seats"]}] * 3)
    version = store.rewrite("ABCD", HEADER, None, [], None)
    assert version == 3 and store.since("ABCD", 1) is None and store.since("ABCD", 3) == []


def test_a_forged_row_is_refused_in_one_line(store: Any) -> None:
    store.create("ABCD", HEADER)
    with store._tx() as cur:
        cur.execute(store._sql("INSERT INTO rg_entries (code, n, entry) VALUES (?, ?, ?)"),
                    ("ABCD", 1, '{"act": ' * 5000))
        cur.execute(store._sql("UPDATE rg_tables SET version = 1 WHERE code = ?"), ("ABCD",))
    with pytest.raises(RecordError) as bad:
        store.load("ABCD")
    assert "\n" not in bad.value.reason and "change 1" in bad.value.reason


def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    path.write_bytes(b"\x00garbage" * 1000)
    with pytest.raises(RecordError) as bad:
        SqliteTableStore(path)
    assert "\n" not in bad.value.reason
