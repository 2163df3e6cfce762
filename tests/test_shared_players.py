"""Players, their profiles and the notifications outbox in the PostgreSQL database several
hosts share (``--store postgresql://...``): each host sees the others' changes, two claims
of one name at once give it to one, a notice heard by two hosts is told once, and hostile
rows are one log line each. Against a real server (tests/pgserver.py)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from railgames.core.errors import RailgamesError, RecordError
from railgames.net import after
from railgames.net.docstore import SharedDocs, shared_docs
from railgames.net.notify import Notifier
from railgames.net.pace import ManualClock
from railgames.net.players import Player, Players, apply_admin, check_key
from railgames.net.profiles import Profiles
from railgames.net.service import TableService
from railgames.net.sqlstore import PostgresTableStore
from railgames.net.tables import Login, Member
from tests.test_host_tables import LogLines

KEY_A = "SHA256:" + "A" * 43
KEY_B = "SHA256:" + "B" * 43


@pytest.fixture(scope="module")
def module_database(pg_server: Any) -> str:
    return str(pg_server.new_database())


@pytest.fixture
def pg_url(module_database: str) -> str:
    """One database for this file's tests (making one takes a while), emptied for each."""
    sql(module_database, "DROP TABLE IF EXISTS rg_docs, rg_outbox, rg_tables, rg_entries")
    return module_database


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[SharedDocs, SharedDocs]]:
    """The shared documents as two hosts on one database see them (a connection each)."""
    stores = [PostgresTableStore(pg_url), PostgresTableStore(pg_url)]
    docs = [shared_docs(s) for s in stores]
    assert docs[0] is not None and docs[1] is not None
    yield docs[0], docs[1]
    for store in stores:
        store.close()


def sql(url: str, statement: str, *params: Any) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(statement, params)


def claim(players: Players, name: str, key: str) -> None:
    player = Player(name=name, key=key)
    assert players.reserve(player) is None
    players.write_claim(player)


# ------------------------------------------------------------------ the register
def test_two_hosts_see_each_others_claims_bans_and_renames(two: tuple[SharedDocs, SharedDocs],
                                                          tmp_path: Path) -> None:
    one, other = Players(tmp_path / "a", two[0]), Players(tmp_path / "b", two[1])
    assert other.read().players == {}  # read (and kept) before the other host's change
    claim(one, "Ann", KEY_A)
    assert other.find("ann")[0] is not None and other.find("ann")[0].key == KEY_A  # type: ignore[union-attr]
    assert not check_key(other, "Ann", KEY_B).ok and check_key(other, "Ann", KEY_A).ok
    apply_admin(other, "ban", ["Ann"])
    verdict = check_key(one, "Ann", KEY_A)
    assert not verdict.ok and "banned" in verdict.reason
    apply_admin(one, "unban", ["Ann"])
    apply_admin(one, "rename", ["Ann", "Anna"])
    owner, former = other.find("Ann")
    assert owner is None and former is not None and former.name == "Anna"
    apply_admin(other, "ban-key", [KEY_B])
    assert one.key_banned(KEY_B)
    apply_admin(one, "forget", ["Anna"])
    assert other.read().players == {}
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()  # no files


def test_two_claims_of_one_name_at_once_one_wins(two: tuple[SharedDocs, SharedDocs],
                                                 tmp_path: Path) -> None:
    hosts = [Players(tmp_path / "a", two[0]), Players(tmp_path / "b", two[1])]
    for round_ in range(5):
        name = f"Bo{round_}"
        start = threading.Barrier(2)
        results: list[str] = []

        def claim_on(players: Players, key: str, name: str = name,
                     start: threading.Barrier = start, results: list[str] = results) -> None:
            player = Player(name=name, key=key)
            assert players.reserve(player) is None  # each host alone sees the name free
            start.wait(10)
            try:
                players.write_claim(player)
                results.append(key)
            except RailgamesError as exc:
                results.append(exc.reason)

        threads = [threading.Thread(target=claim_on, args=(h, k))
                   for h, k in zip(hosts, (KEY_A, KEY_B), strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        winners = [r for r in results if r.startswith("SHA256:")]
        assert len(results) == 2 and len(winners) == 1
        assert f"the name '{name}' was claimed meanwhile" in results
        for players in hosts:
            owner = players.find(name)[0]
            assert owner is not None and owner.key == winners[0]
            assert name.lower() not in players.reserved


def test_admin_with_the_hosts_store_changes_the_register_every_host_reads(
        pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from railgames.cli import main

    store = PostgresTableStore(pg_url)
    host = Players(tmp_path / "data" / "host", SharedDocs(store))
    claim(host, "Cy", KEY_A)
    with LogLines() as log:  # (the host's log: the command's line goes there)
        assert main(["host", "admin", "ban", "Cy", "--data-dir", str(tmp_path / "data"),
                     "--store", pg_url]) == 0
    assert "Cy: banned" in capsys.readouterr().out
    assert log.kind("admin")[0]["command"] == "ban"
    assert not check_key(host, "Cy", KEY_A).ok
    assert main(["host", "admin", "list", "--data-dir", str(tmp_path / "data"),
                 "--store", pg_url]) == 0
    assert "banned" in capsys.readouterr().out
    assert not (tmp_path / "data" / "host" / "players.json").exists()
    store.close()


# ------------------------------------------------------------------ profiles
def test_profiles_round_trip_between_hosts(two: tuple[SharedDocs, SharedDocs]) -> None:
    one, other = Profiles(None, two[0]), Profiles(None, two[1])
    assert other.get("Ann").muted == []  # read before, then changed elsewhere

    def mute(profile: Any) -> None:
        profile.muted.append("ABCD")

    def address(profile: Any) -> None:
        profile.notify_to = "ann@example.org"

    one.update("Ann", mute)
    kept = other.update("ann", address)  # the other host's change is kept, not lost
    assert kept.muted == ["ABCD"] and kept.notify_to == "ann@example.org"
    again = one.get("ANN")
    assert again.muted == ["ABCD"] and again.notify_to == "ann@example.org"
    assert one.get("bob").notify_to is None


# ------------------------------------------------------------------ the outbox
def person(name: str) -> Member:
    return Member(login=Login(name=name, peer="127.0.0.1:1"), send=lambda message: None)


def reminded_table(tmp_path: Path) -> Any:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0, clock=ManualClock())
    members = [person(n) for n in ("ann", "bob", "cy")]
    table = service.create(members[0], "paris-connection", seats=3, humans=3)
    for m in members[1:]:
        service.join(m, table.code)
    return table


def delivered(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_notice_accepted_by_two_hosts_is_kept_once(two: tuple[SharedDocs, SharedDocs]) -> None:
    text = '{"id": "ABCD/3/turn/ann"}'
    assert two[0].accept([("ABCD/3/turn/ann", text)], two[0].holder) == {"ABCD/3/turn/ann"}
    assert two[1].accept([("ABCD/3/turn/ann", text)], two[1].holder) == set()
    two[1].done([("ABCD/3/turn/ann", "delivered")])  # not the other host's to close
    known, taken = two[1].take_pending(16_000)
    assert known == {"ABCD/3/turn/ann"} and taken == []


def test_a_turn_heard_by_two_hosts_at_once_is_told_once(two: tuple[SharedDocs, SharedDocs],
                                                        tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    table = reminded_table(tmp_path)
    notifiers = [Notifier(f"cat >> '{out}'", None, docs=docs, retry_pauses=()) for docs in two]
    for notifier in notifiers:
        notifier.start()
    for seat in range(3):  # each host hears each reminder, as hosts following one table do
        for notifier in notifiers:
            notifier.heard("timeout", table, {"seat": seat, "played": seat, "did": "remind"})
    for notifier in notifiers:
        assert notifier.drain(30)
        notifier.close()
    told = delivered(out)
    assert sorted(d["player"] for d in told) == ["ann", "bob", "cy"]


def test_what_a_stopping_host_did_not_deliver_is_sent_by_the_next_to_start(
        two: tuple[SharedDocs, SharedDocs], tmp_path: Path) -> None:
    out = tmp_path / "delivered.jsonl"
    table = reminded_table(tmp_path)
    failing = Notifier("exit 1", None, docs=two[0], retry_pauses=(600.0,))
    failing.start()
    failing.heard("timeout", table, {"seat": 1, "played": 1, "did": "remind"})
    for _ in range(200):  # accepted, its first try failed: stopped during the pause
        if two[1].take_pending(16_000)[0]:
            break
        failing._stop.wait(0.05)
    failing.close()
    other = Notifier(f"cat >> '{out}'", None, docs=two[1])
    other.heard("timeout", table, {"seat": 1, "played": 1, "did": "remind"})  # known: no
    other.start()
    assert other.drain(30)
    other.close()
    assert [d["player"] for d in delivered(out)] == ["bob"]


# ------------------------------------------------------------------ hostile rows
def test_hostile_rows_are_one_line_each_and_break_nothing_else(
        pg_url: str, two: tuple[SharedDocs, SharedDocs], tmp_path: Path) -> None:
    players = Players(tmp_path, two[0])
    for doc, says in (("{not json", "not a readable register"),
                      ("[" * 100_000 + "]" * 100_000, "register of players"),
                      ('{"format": 1, "players": {"ann": {"name": "Bob"}}}', "holds the player"),
                      ("x" * (5 * 1024 * 1024), "too large")):
        sql(pg_url, "INSERT INTO rg_docs (kind, key, doc) VALUES ('players', 'register', %s) "
                    "ON CONFLICT (kind, key) DO UPDATE SET doc = EXCLUDED.doc, "
                    "version = rg_docs.version + 1", doc)
        with pytest.raises(RecordError) as refused:
            players.read()
        assert says in refused.value.reason and "\n" not in refused.value.reason
        assert len(refused.value.reason) < 400
        verdict = check_key(players, "ann", KEY_A)
        assert not verdict.ok and "cannot read its register" in verdict.reason
        with pytest.raises(RecordError):
            apply_admin(players, "ban", ["ann"])  # nothing written over it
    sql(pg_url, "DELETE FROM rg_docs")

    for low, doc in (("ann", "[" * 50_000), ("bob", '{"format": 1, "muted": ["nope"]}'),
                     ("cy", "y" * (1024 * 1024))):
        sql(pg_url, "INSERT INTO rg_docs (kind, key, doc) VALUES ('profile', %s, %s)", low, doc)
    profiles = Profiles(None, two[0])
    with LogLines() as log:
        for _ in range(2):
            for name in ("ann", "bob", "cy"):
                assert profiles.get(name).muted == []
        assert len(log.kind("profile_unreadable")) == 3  # once each, not at every read

        def address(profile: Any) -> None:
            profile.notify_to = "bob@example.org"

        assert profiles.update("bob", address).notify_to == "bob@example.org"
    assert Profiles(None, two[1]).get("bob").notify_to == "bob@example.org"

    out = tmp_path / "delivered.jsonl"
    good = ('{"id": "ABCD/1/remind/ann", "player": "ann", "to": null, "table": "ABCD", '
            '"game": "Paris Connection", "kind": "reminder", "text": "Reminder", '
            '"join": "ssh", "at": "2026-01-01T00:00:00+00:00"}')
    for nid, notice in (("ABCD/1/remind/ann", good), ("bad/1", "{nope"),
                        ("bad/2", "[" * 100_000), ("bad/3", "z" * 100_000),
                        ("bad/4", good), ("bad/5", None)):
        sql(pg_url, "INSERT INTO rg_outbox (id, notice) VALUES (%s, %s)", nid, notice)
    with LogLines() as log:
        notifier = Notifier(f"cat >> '{out}'", None, docs=two[1])
        notifier.start()
        assert notifier.drain(30)
        notifier.close()
    assert [d["id"] for d in delivered(out)] == ["ABCD/1/remind/ann"]
    unreadable = log.kind("outbox_unreadable")
    assert sorted(line["id"] for line in unreadable) == [f"bad/{i}" for i in range(1, 6)]
    assert all(len(line["reason"]) <= 300 for line in unreadable)
    assert two[0].take_pending(16_000)[1] == []  # each marked done: never tried again


# ------------------------------------------------------------------ the host
def test_a_host_with_a_postgresql_store_keeps_players_and_notices_there(
        pg_url: str, tmp_path: Path) -> None:
    import asyncio

    from railgames.net.sshhost import Host, HostConfig

    async def run() -> None:
        host = Host(HostConfig(port=0, data_dir=tmp_path, store=pg_url, notify_command="true"))
        await host.start()
        try:
            assert host.docs is not None and host.notifier is not None
            assert host.notifier.docs is host.docs
            players = host.tables.players
            assert players is not None and players.docs is host.docs
            assert host.tables.profiles.docs is host.docs
            elsewhere = PostgresTableStore(pg_url)
            claim(Players(tmp_path / "other", SharedDocs(elsewhere)), "Dee", KEY_B)
            elsewhere.close()
            assert not check_key(players, "Dee", KEY_A).ok
            assert "postgresql://" in host.greeting()
        finally:
            await host.close()
        assert not (tmp_path / "host" / "players.json").exists()

    asyncio.run(run())


def test_ratings_come_from_the_tables_in_the_store(pg_url: str, tmp_path: Path) -> None:
    from tests.test_after import finished

    store = PostgresTableStore(pg_url)
    service = TableService(tmp_path / "a", bot_delay=0, bot_workers=0, clock=ManualClock(),
                           store=store)
    finished(service, ["ann", "bob", "cat"])
    service.flush()
    page = after.player_page(service, {"ann"}, "ann")
    assert page["games"] and page["games"][0]["rated"] == 1
    other_store = PostgresTableStore(pg_url)  # another host, starting on the same database
    other = TableService(tmp_path / "b", bot_delay=0, bot_workers=0, clock=ManualClock(),
                         store=other_store)
    other.load()
    assert after.player_page(other, {"ann"}, "ann") == page
    service.close()
    other.close()
    store.close()
    other_store.close()


def test_a_ban_or_kick_on_one_host_ends_the_sessions_on_every_host(
        pg_url: str, tmp_path: Path) -> None:
    import asyncio

    from railgames.net.admin import run_admin
    from railgames.net.sshhost import Host, HostConfig

    class Writer:
        closed = False

        def close(self) -> None:
            self.closed = True

    async def run() -> None:
        one = Host(HostConfig(port=0, data_dir=tmp_path / "one", store=pg_url))
        other = Host(HostConfig(port=0, data_dir=tmp_path / "other", store=pg_url))
        await one.start()
        await other.start()
        try:
            seen: dict[str, list[dict[str, Any]]] = {"Eve": [], "Fay": [], "Gus": []}
            writers = {}
            for name in seen:  # browser players of the other host
                member = Member(login=Login(name=name, peer="127.0.0.1:1"),
                                send=seen[name].append)
                writers[name] = other.tables.connections[member] = Writer()  # type: ignore[assignment]
                other.tables.web_members.add(member)

            async def kicked(name: str) -> bool:
                for _ in range(200):
                    if writers[name].closed:
                        return True
                    await asyncio.sleep(0.05)
                return False

            # Through the first host (running with its folder), then with no host at all.
            text = await asyncio.to_thread(run_admin, tmp_path / "one", "ban", ["Eve"])
            assert "Eve: banned" in text
            assert await kicked("Eve") and seen["Eve"][-1]["ev"] == "kicked"
            text = await asyncio.to_thread(run_admin, tmp_path / "none", "kick", ["Fay"],
                                           store=pg_url)
            assert text == "Fay: every host using the database is told to end its sessions"
            assert await kicked("Fay")
            other.service.store.tell("railgames_kick", '{"names": [["Gus"]], "reason": 1}')
            other.service.store.tell("railgames_kick", "[" * 5000)
            await asyncio.sleep(0.5)
            assert not writers["Gus"].closed  # what cannot be read is left alone
        finally:
            await one.close()
            await other.close()

    asyncio.run(run())


def test_the_first_host_to_move_to_the_database_brings_its_players_and_profiles(
        two: tuple[SharedDocs, SharedDocs], tmp_path: Path) -> None:
    from railgames.net.tableserver import TableServer

    files = Players(tmp_path / "one" / "host")
    claim(files, "Ann", KEY_A)

    def address(profile: Any) -> None:
        profile.notify_to = "ann@example.org"

    Profiles(tmp_path / "one" / "host" / "profiles").update("Ann", address)
    (tmp_path / "one" / "host" / "profiles" / "bob.json").write_text("{broken")
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    server = TableServer(service, tmp_path / "sock" / "t.sock")
    with LogLines() as log:
        server.keep_players(tmp_path / "one" / "host", docs=two[0])
    assert [(e["players"], e["profiles"]) for e in log.kind("players_imported")] == [(1, 1)]
    assert len(log.kind("profile_unreadable")) == 1
    assert Players(tmp_path / "x", two[1]).find("ann")[0] is not None
    assert Profiles(None, two[1]).get("ann").notify_to == "ann@example.org"

    claim(Players(tmp_path / "two" / "host"), "Zed", KEY_B)  # a second host's own file
    with LogLines() as log:
        server.keep_players(tmp_path / "two" / "host", docs=two[1])
    assert log.kind("players_imported") == []  # the database's register stays the register
    assert server.players is not None and server.players.find("zed")[0] is None
    assert (tmp_path / "one" / "host" / "players.json").exists()  # the files are kept
