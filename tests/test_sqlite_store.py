"""The host keeps its tables in SQLite by default (``tables.sqlite3`` in its data
directory): they come back after a restart, tables kept as files by earlier versions
come in once, and a database or a row that cannot be used is one line, never a stop of
the other tables."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from test_host_tables import LogLines, member

from railgames.net.service import TableService
from railgames.net.sqlstore import SqliteTableStore, open_store
from railgames.net.sshhost import Host, HostConfig, Limits
from railgames.net.store import FileTableStore, StoredTable
from railgames.net.tableimport import import_table_files
from railgames.net.tables import HostTable, Member

LIMIT = 60  # seconds a host of one test may take to start, play and stop (far less is usual)


def config(data: Path, store: str | None = None) -> HostConfig:
    return HostConfig(port=0, data_dir=data, password="pw", bot_delay=0, store=store,
                      limits=Limits(keepalive=0))


def with_host(cfg: HostConfig, use: Callable[[Host], Awaitable[Any]]) -> Any:
    """Start a host in this process (no player connects), ``use`` it, stop it."""

    async def run() -> Any:
        host = Host(cfg)
        await host.start()
        try:
            return await use(host)
        finally:
            await host.close()

    return asyncio.run(asyncio.wait_for(run(), LIMIT))


async def play(service: TableService, table: HostTable, people: dict[int, Member],
               moves: int, seed: int = 5) -> None:
    """``moves`` random moves by the people to move (the bots move between them)."""
    pick = random.Random(seed)
    for _ in range(moves):
        await service.run_bots(table)
        game = table.game
        assert game is not None
        prompt = game.prompt()
        if prompt is None or prompt.seat not in people:
            return
        service.act(people[prompt.seat], pick.choice(game.legal_actions()).model_dump(mode="json"))
        await service.settled(table)


def same(a: StoredTable, b: StoredTable) -> None:
    """Two stores give back the same table: settings and seats, record, chat, timeout, time."""
    assert a.settings == b.settings
    assert a.record == b.record
    assert a.chat == b.chat and a.timeout == b.timeout and a.moved_at == b.moved_at


# ---------------------------------------------------------------- the default: tables.sqlite3
def test_the_host_keeps_its_tables_in_sqlite_and_brings_them_back_after_a_restart(
        tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def first(host: Host) -> HostTable:
        service = host.service
        ann, _ = member("ann")
        bob, _ = member("bob")
        table = service.create(ann, "paris-connection", seats=3, humans=2)
        service.join(bob, table.code)
        await play(service, table, {0: ann, 1: bob}, 6)
        service.say(table, "ann", 0, "good luck")
        service.leave(bob)  # the seats change: kept too
        await service.settled(table)
        assert "tables.sqlite3" in host.greeting()
        return table

    table = with_host(config(data), first)  # as the host left it when it stopped
    assert table.game is not None and table.game.record.actions
    code, record, chat, header = table.code, table.game.record, table.chat, table.header()
    moved_at = table.moved_at
    assert (data / "tables.sqlite3").is_file() and not (data / "tables").exists()

    async def second(host: Host) -> None:
        table = host.service.tables[code]
        assert table.game is not None and table.game.record == record
        assert table.chat == chat and table.header() == header
        assert table.moved_at == pytest.approx(moved_at, abs=1)
        # And it goes on: a move made now is kept as well.
        ann, _ = member("ann")
        host.service.join(ann, code)
        people = {0: ann}
        await play(host.service, table, people, 1, seed=8)
        await host.service.settled(table)

    with LogLines() as log:
        with_host(config(data), second)
    assert [line["code"] for line in log.kind("table_restored")] == [code]
    store = open_store(None, data)
    try:
        assert store.list() == [code]
        kept = store.load(code).record
        assert kept is not None and kept.actions[:len(record.actions)] == record.actions
    finally:
        store.close()


def test_store_files_keeps_the_tables_as_files_as_before(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def make(host: Host) -> str:
        ann, _ = member("ann")
        table = host.service.create(ann, "paris-connection", seats=3, humans=2)
        await host.service.settled(table)
        assert str(data / "tables") in host.greeting()
        return table.code

    code = with_host(config(data, "files"), make)
    assert FileTableStore(data / "tables").list() == [code]
    assert not (data / "tables.sqlite3").exists()


# ---------------------------------------------------------------- tables of earlier versions
def files_of_earlier_versions(folder: Path) -> tuple[str, str]:
    """A table kept as a log (``.table``, a game under way with chat, a seat left and a
    move that ran out of time) and one kept as one JSON file (``.json``)."""
    service = TableService(folder, bot_delay=0, bot_workers=0)
    ann, _ = member("ann")
    bob, _ = member("bob")
    log_table = service.create(ann, "paris-connection", seats=3, humans=2)
    service.join(bob, log_table.code)
    asyncio.run(asyncio.wait_for(play(service, log_table, {0: ann, 1: bob}, 5), LIMIT))
    service.say(log_table, "bob", 1, "brb")
    service.leave(bob)
    service.flush()
    played = log_table.played()
    service.store.append(log_table.code, {"timeout": {"played": played, "seat": 0,
                                                      "did": "remind"},
                                          "at": "2026-01-02T03:04:05+00:00"})
    cy, _ = member("cy")
    old = service.create(cy, "steel-driver", seats=3, humans=1)
    service.flush()
    data = old.to_dict()
    (folder / f"{old.code}.table").unlink()
    (folder / f"{old.code}.json").write_text(json.dumps(data))
    return log_table.code, old.code


def test_tables_kept_as_files_come_into_the_database_once_each_with_one_line(
        tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    log_code, json_code = files_of_earlier_versions(folder)
    (folder / "ZZZZ.table").write_text('{"format": 2, "code": "ZZZZ"\n')  # cut short
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    store = SqliteTableStore(tmp_path / "tables.sqlite3", sync=False)
    try:
        with LogLines() as log:
            assert sorted(import_table_files(folder, store)) == sorted([log_code, json_code])
        files = FileTableStore(folder)
        for code in (log_code, json_code):
            same(store.load(code), files.load(code))
        assert store.load(log_code).timeout is not None and store.load(log_code).chat
        imported = {line["code"]: line["file"] for line in log.kind("table_imported")}
        assert imported == {log_code: str(folder / f"{log_code}.table"),
                            json_code: str(folder / f"{json_code}.json")}
        [skipped] = log.kind("table_not_imported")
        assert skipped["file"] == str(folder / "ZZZZ.table") and "\n" not in skipped["reason"]
        assert skipped["reason"].startswith(str(folder / "ZZZZ.table"))
        assert store.list() == sorted([log_code, json_code])
        # The files are left as they were; a second start brings in nothing again.
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
        with LogLines() as log:
            assert import_table_files(folder, store) == []
        assert not log.kind("table_imported") and len(log.kind("table_not_imported")) == 1
    finally:
        store.close()


def test_the_host_imports_them_at_its_first_start_and_plays_them_on(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log_code, json_code = files_of_earlier_versions(data / "tables")
    expected = FileTableStore(data / "tables").load(log_code)

    async def look(host: Host) -> list[str]:
        table = host.service.tables[log_code]
        assert table.game is not None and table.game.record == expected.record
        assert [line["text"] for line in table.chat] == ["brb"]
        return sorted(host.service.tables)

    with LogLines() as log:
        assert with_host(config(data), look) == sorted([log_code, json_code])
    assert sorted(line["code"] for line in log.kind("table_imported")) == sorted(
        [log_code, json_code])
    with LogLines() as log:
        assert with_host(config(data), look) == sorted([log_code, json_code])
    assert not log.kind("table_imported")
    assert (data / "tables" / f"{log_code}.table").exists()
    assert (data / "tables" / f"{json_code}.json").exists()


# ---------------------------------------------------------------- what cannot be used
def spoil(path: Path, how: str) -> None:
    if how == "a folder":
        path.mkdir()
        (path / "inside").write_text("x")
    elif how == "a named pipe":
        os.mkfifo(path)
    elif how == "garbage":
        path.write_bytes(random.Random(1).randbytes(50_000))
    elif how == "a huge file":
        with path.open("wb") as handle:  # sparse: 3 GB on the disk's word, nothing written
            handle.truncate(3 * 1024 ** 3)
    elif how == "a database of another shape":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE rg_tables (name TEXT)")
        conn.close()


@pytest.mark.parametrize("how", ["a folder", "a named pipe", "garbage", "a huge file",
                                 "a database of another shape"])
def test_a_store_that_cannot_be_opened_stops_the_host_with_one_line(
        tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from railgames.cli import main
    from railgames.net import sshhost

    data = tmp_path / "data"
    data.mkdir()
    path = data / "tables.sqlite3"
    spoil(path, how)
    kind = path.stat().st_mode
    size = path.stat().st_size if path.is_file() else None
    monkeypatch.setattr(sshhost, "setup_logging", lambda: None)
    assert main(["host", "--port", "0", "--data-dir", str(data), "--password", "pw"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("railgames: the tables cannot be kept: ")
    assert str(path) in err and "Traceback" not in err
    assert path.stat().st_mode == kind
    if size is not None and how != "a database of another shape":  # (SQLite may add to it)
        assert path.stat().st_size == size
    assert not (data / "host").exists()  # nothing else was made: the host never began


def test_an_unreachable_database_stops_the_host_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    from railgames.cli import main
    from railgames.net import sshhost

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(sshhost, "setup_logging", lambda: None)
    url = f"postgresql://nobody:secret@127.0.0.1:{port}/tables"
    assert main(["host", "--port", "0", "--data-dir", str(tmp_path), "--store", url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the database" in err
    assert "secret" not in err and "Traceback" not in err


def forge(path: Path, code: str, header: Any, entries: list[Any], version: Any) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO rg_tables (code, header, version, base) VALUES (?, ?, ?, 0)",
                     (code, header, version))
        conn.executemany("INSERT INTO rg_entries (code, n, entry) VALUES (?, ?, ?)",
                         [(code, n, entry) for n, entry in enumerate(entries, 1)])
    conn.close()


def test_forged_rows_are_one_line_each_and_the_other_tables_come_back(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = data / "tables.sqlite3"

    async def make(host: Host) -> tuple[str, str]:
        ann, _ = member("ann")
        bob, _ = member("bob")
        good = host.service.create(ann, "paris-connection", seats=3, humans=2)
        host.service.join(bob, good.code)
        await play(host.service, good, {0: ann, 1: bob}, 3)
        cy, _ = member("cy")
        waiting = host.service.create(cy, "paris-connection", seats=3, humans=2)
        await host.service.settled(waiting)
        return good.code, waiting.code

    good, waiting = with_host(config(data), make)
    with sqlite3.connect(path) as conn:
        header, = conn.execute("SELECT header FROM rg_tables WHERE code = ?", (waiting,)).fetchone()
        good_header = json.loads(conn.execute("SELECT header FROM rg_tables WHERE code = ?",
                                              (good,)).fetchone()[0])
        entries = [e for (e,) in conn.execute(
            "SELECT entry FROM rg_entries WHERE code = ? ORDER BY n", (good,))]
    conn.close()

    def head(code: str) -> str:
        return json.dumps({**json.loads(header), "code": code})

    forge(path, "JSON", head("JSON"), ['{"seats": [', *entries[1:]], 2)
    forge(path, "DEEP", head("DEEP"), ["[" * 30_000 + "]" * 30_000], 1)
    forge(path, "HUGE", head("HUGE"), ['{"chat": "' + "x" * 2_000_000 + '"}'], 1)
    forge(path, "KIND", head("KIND"), ['{"bank": {"cash": 1000000}}'], 1)
    forge(path, "BOTH", head("BOTH"), ['{"act": {}, "chat": {"name": "a", "text": "b"}}'], 1)
    forge(path, "BLOB", head("BLOB").encode(), [], 0)
    forge(path, "HEAD", '{"format": 99}', [], 0)
    forge(path, "NOPE", head("ZZZZ"), [], 0)  # a header of another table
    forge(path, "lower", head("lower"), [], 0)  # not a table's code: never listed
    # Versions that lie: far below and far above the changes kept, and not a number.
    forge(path, "LOWV", json.dumps({**good_header, "code": "LOWV"}), entries, 0)
    forge(path, "HIGH", json.dumps({**good_header, "code": "HIGH"}), entries, 10 ** 12)
    forge(path, "TEXT", json.dumps({**good_header, "code": "TEXT"}), entries, "many")
    bad = ["BLOB", "BOTH", "DEEP", "HEAD", "HUGE", "JSON", "KIND", "NOPE", "TEXT"]

    async def look(host: Host) -> list[str]:
        return sorted(host.service.tables)

    with LogLines() as log:
        back = with_host(config(data), look)
    assert back == sorted([good, waiting, "HIGH", "LOWV"])
    refused = {line["file"]: line["reason"] for line in log.kind("table_not_restored")}
    assert sorted(refused) == [f"{path} table {code}" for code in bad]
    assert len(log.kind("table_not_restored")) == len(bad)  # one line each
    assert all("\n" not in reason and len(reason) <= 500 for reason in refused.values())

    # A table whose version lied goes on: its next moves are kept and come back.
    async def move_on(host: Host) -> int:
        table = host.service.tables["LOWV"]
        ann, _ = member("ann")
        bob, _ = member("bob")
        host.service.join(ann, "LOWV")
        host.service.join(bob, "LOWV")
        before = table.played()
        await play(host.service, table, {0: ann, 1: bob}, 2, seed=11)
        await host.service.run_bots(table)  # the bot's move now, not as the host closes
        host.service.say(table, "ann", 0, "still here")
        await host.service.settled(table)
        assert table.played() > before
        return table.played()

    played = with_host(config(data), move_on)

    async def again(host: Host) -> tuple[int, list[str]]:
        table = host.service.tables["LOWV"]
        return table.played(), [line["text"] for line in table.chat]

    assert with_host(config(data), again) == (played, ["still here"])

