"""The host's side of the home screen: a player's tables at a glance, what is new since they
looked, who is there, and the notice when a move elsewhere makes it their turn."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from railgames.net import ops
from railgames.net.pace import HOUR, ManualClock, Pace
from railgames.net.service import TableService
from railgames.net.tables import HostTable, Login, Member
from railgames.net.tableserver import TableServer

START = 1_800_000_000.0


class Inbox(list[dict[str, Any]]):
    def __call__(self, message: dict[str, Any]) -> None:
        self.append(json.loads(json.dumps(message)))  # as it travels: JSON, nothing shared

    def evs(self, ev: str) -> list[dict[str, Any]]:
        return [m for m in self if m.get("ev") == ev]


class Host:
    """A table server (never started: no socket) over a service on a manual clock."""

    def __init__(self, tmp_path: Path) -> None:
        self.clock = ManualClock(START)
        self.service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0,
                                    clock=self.clock)
        self.server = TableServer(self.service, tmp_path / "host" / "tables.sock")

    def connect(self, name: str) -> tuple[Member, Inbox]:
        inbox = Inbox()
        member = Member(login=Login(name=name, peer="127.0.0.1:1"), send=inbox)
        self.server.connections[member] = None  # type: ignore[assignment]
        return member, inbox

    def home(self, member: Member, **extra: Any) -> dict[str, Any]:
        answer = asyncio.run(ops.call(self.server, member, {"op": "home", **extra}))
        assert answer["ok"], answer
        return answer

    def rows(self, member: Member) -> dict[str, dict[str, Any]]:
        return {r["code"]: r for r in self.home(member)["tables"]}

    def play(self, table: HostTable, members: dict[int, Member]) -> int:
        """The seat to move plays its first legal action; which seat it was."""
        assert table.game is not None
        seat = table.to_move()
        assert seat is not None
        action = table.game.legal_actions()[0].model_dump(mode="json")
        self.service.act(members[seat], action)
        return seat


@pytest.fixture
def host(tmp_path: Path) -> Host:
    return Host(tmp_path)


TURN = Pace(mode="turn", move_hours=24, on_timeout="remind")


def three_at(host: Host, pace: Pace = TURN) -> tuple[HostTable, dict[str, tuple[Member, Inbox]]]:
    people = {n: host.connect(n) for n in ("ann", "bob", "cat")}
    table = host.service.create(people["ann"][0], "railways-of-the-world", 3, 3, pace=pace)
    for name in ("bob", "cat"):
        host.service.join(people[name][0], table.code)
    assert table.status == "playing"
    return table, people


def by_seat(table: HostTable, people: dict[str, tuple[Member, Inbox]]) -> dict[int, Member]:
    return {table.seat_of(name): m for name, (m, _) in people.items()}  # type: ignore[misc]


def test_a_players_tables_their_move_first_with_time_left_and_who_is_here(host: Host) -> None:
    table, people = three_at(host)
    ann, bob, cat = (people[n][0] for n in ("ann", "bob", "cat"))
    dee, _ = host.connect("dee")
    host.service.join(dee, table.code, watch=True)
    # A second table of Bob's, live, waiting for players: listed too, after.
    host.clock.advance(HOUR)
    other = host.service.create(bob, "paris-connection", 3, 2)
    host.service.join(bob, table.code)  # back to the first table
    host.clock.advance(2 * HOUR)
    mover = table.seats[table.to_move()].name  # type: ignore[index]
    rows = host.home({"ann": ann, "bob": bob, "cat": cat}[mover])["tables"]
    assert [r["code"] for r in rows][0] == table.code
    first = rows[0]
    assert first["your_move"] and first["to_move"] == mover and first["turn_based"]
    assert first["time_left"] == "21 h 0 min" and first["since"] == START
    assert first["pace"] == TURN.describe() and first["status"] == "playing"
    assert first["title"] == "Railways of the World" and first["game"] == "railways-of-the-world"
    assert sorted(first["here"]) == ["ann", "bob", "cat"] and first["watching"] == ["dee"]
    assert first["muted"] is False and first["bell"] is True
    bobs = host.rows(bob)
    assert set(bobs) == {table.code, other.code}
    waiting = bobs[other.code]
    assert waiting["status"] == "waiting" and waiting["to_move"] is None
    assert waiting["time_left"] == "" and not waiting["your_move"] and waiting["here"] == []
    if mover != "bob":
        assert list(bobs) == [table.code, other.code]  # by since: the older first
    # Dee only watches: no table of hers.
    assert host.home(dee)["tables"] == []


def test_unseen_moves_are_counted_named_and_cleared_by_a_look(host: Host) -> None:
    table, people = three_at(host)
    seats = by_seat(table, people)
    # One who is not to move goes away, having seen the table as it was.
    ann = next(m for seat, m in seats.items() if seat != table.to_move())
    host.service.leave(ann)
    assert host.rows(ann)[table.code]["unseen"] == 0
    movers = []
    for _ in range(6):
        seat = table.to_move()
        if seats[seat] is ann:
            break
        host.play(table, seats)
        movers.append(table.seats[seat].name)
    row = host.rows(ann)[table.code]
    assert row["unseen"] == len(movers) > 0
    names = list(dict.fromkeys(movers))
    assert row["news"] == " and ".join(names) + " moved"
    assert host.rows(ann)[table.code]["unseen"] == len(movers)  # asking is not looking
    # A watcher of someone else's table marks nothing seen.
    host.service.join(ann, table.code, watch=True)
    host.service.leave(ann)
    assert host.rows(ann)[table.code]["unseen"] == len(movers)
    # Sitting down at it is a look.
    host.service.join(ann, table.code)
    assert host.rows(ann)[table.code]["unseen"] == 0
    assert host.server.profiles.get(ann.login.name).seen[table.code] == table.played()
    # What is played while she sits there she has seen when she gets up (she never asked
    # for her home meanwhile).
    before = table.played()
    for _ in range(8):
        host.play(table, seats)  # Ann's moves and the others'
    assert table.played() > before
    host.service.leave(ann)
    assert host.rows(ann)[table.code]["unseen"] == 0


def test_a_player_at_the_table_on_another_terminal_has_seen_it(host: Host) -> None:
    table, people = three_at(host)
    seats = by_seat(table, people)
    mover = seats[table.to_move()]  # type: ignore[index]
    other = next(m for m in seats.values() if m is not mover)
    second, _ = host.connect(other.login.name)  # the same player on their phone
    host.play(table, seats)
    row = host.rows(second)[table.code]
    assert row["unseen"] == 0 and row["news"] == ""


def test_a_move_elsewhere_tells_the_player_whose_turn_it_is(host: Host) -> None:
    table, people = three_at(host)
    seats = by_seat(table, people)
    # One who is not to move gets up; on their home screen they wait for their turn.
    later = next(seat for seat in seats if seat != table.to_move())
    away = seats[later]
    host.service.leave(away)
    home_screen, inbox = host.connect(away.login.name)
    for _ in range(60):
        if table.to_move() == later:
            break
        host.play(table, seats)
    assert table.to_move() == later
    notices = inbox.evs("notice")
    assert notices, "no notice"
    assert notices[-1] == {"ev": "notice", "kind": "your_move", "code": table.code,
                           "title": "Railways of the World",
                           "text": f"Your move at {table.code} (Railways of the World)",
                           "bell": True}
    assert inbox.evs("home")  # their home screen is told to look again


def test_no_notice_to_a_terminal_already_at_that_table_and_no_bell_when_quiet(
        host: Host) -> None:
    table, people = three_at(host)
    seats = by_seat(table, people)
    for name in ("ann", "bob", "cat"):
        host.server.profiles.update(name, lambda p: p.quiet.append(table.code))
    elsewhere = {name: host.connect(name)[1] for name in ("ann", "bob", "cat")}
    for _ in range(12):
        host.play(table, seats)
    at_table = [m for _, (m, _i) in people.items()]
    assert all(m.table is table for m in at_table)
    assert not any(inbox.evs("notice") for _, (_m, inbox) in people.items())
    told = [n for box in elsewhere.values() for n in box.evs("notice")]
    assert told and all(n["bell"] is False for n in told)


def test_bad_home_requests_change_nothing(host: Host) -> None:
    table, people = three_at(host)
    ann = people["ann"][0]
    before = host.rows(ann)
    for junk in ({"code": ["A" * 10_000]}, {"tables": {"a": {"b": {"c": 1}}}},
                 {"since": 10 ** 30}, {"code": "\x1b[2J\x07"}, {"op": "home", "id": None}):
        answer = asyncio.run(ops.call(host.server, ann, {**junk, "op": "home"}))
        assert answer["ok"] and {r["code"]: r for r in answer["tables"]} == before
    assert host.server.profiles.get("ann").seen == {table.code: table.played()}


def test_the_home_request_over_the_socket_and_its_push(tmp_path: Path) -> None:
    """The request and the push as an app process meets them, through the real socket."""
    async def main() -> None:
        service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
        server = TableServer(service, tmp_path / "host" / "tables.sock")
        await server.start()
        try:
            async def client(name: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
                reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
                token = server.issue_token(Login(name=name))
                writer.write(json.dumps({"op": "hello", "token": token, "id": 0}).encode() + b"\n")
                await reader.readline()
                return reader, writer

            async def ask(conn: Any, message: dict[str, Any]) -> dict[str, Any]:
                reader, writer = conn
                writer.write(json.dumps({**message, "id": 7}).encode() + b"\n")
                while True:
                    answer = json.loads(await asyncio.wait_for(reader.readline(), 30))
                    if answer.get("id") == 7:
                        return dict(answer)

            ann, bob = await client("ann"), await client("bob")
            code = (await ask(ann, {"op": "create", "game": "paris-connection", "seats": 3,
                                    "humans": 2}))["code"]
            assert (await ask(bob, {"op": "home"}))["tables"] == []
            assert (await ask(bob, {"op": "join", "code": code}))["ok"]
            await ask(ann, {"op": "leave"})
            # Ann, on her home screen now, is told (once, soon) that her table changed.
            reader = ann[0]
            seen: list[dict[str, Any]] = []
            while not any(m.get("ev") == "home" for m in seen):
                seen.append(json.loads(await asyncio.wait_for(reader.readline(), 30)))
            rows = (await ask(ann, {"op": "home"}))["tables"]
            assert [r["code"] for r in rows] == [code] and rows[0]["here"] == ["bob"]
            for conn in (ann, bob):
                conn[1].close()
        finally:
            await server.close()
            service.close()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_profile_full_of_tables_forgets_the_one_looked_at_longest_ago(host: Host) -> None:
    from railgames.net.hometables import HOMES
    from railgames.net.profiles import MAX_TABLES

    def many(profile: Any) -> None:
        for i in range(MAX_TABLES):  # codes with an I: never a new table's
            profile.seen["I" + "".join(chr(65 + (i // 26 ** k) % 26) for k in range(3))] = 1

    host.server.profiles.update("ann", many)
    oldest = next(iter(host.server.profiles.get("ann").seen))
    table, people = three_at(host)  # Ann sits down at one more
    seen = host.server.profiles.get("ann").seen
    assert len(seen) == MAX_TABLES and oldest not in seen and seen[table.code] == 0
    HOMES[host.server].mark_seen("ann", table)  # nothing new: unchanged
    assert host.server.profiles.get("ann").seen == seen


def test_a_private_table_lists_for_those_it_invites_until_they_sit_down(host: Host) -> None:
    ann, _ = host.connect("ann")
    bob, _ = host.connect("bob")
    cat, _ = host.connect("cat")
    table = host.service.create(ann, "paris-connection", 3, 3, private=True,
                                invited=["bob"], pace=TURN)
    host.service.leave(ann)
    row = host.rows(bob)[table.code]
    assert row["invited"] and row["by"] == "ann" and row["seat"] is None
    assert not row["your_move"] and row["status"] == "waiting"
    assert table.code not in host.rows(cat)  # not invited: not listed
    assert not host.rows(ann)[table.code]["invited"]  # its creator sits there
    host.service.join(bob, table.code)
    host.service.leave(bob)
    row = host.rows(bob)[table.code]
    assert not row["invited"] and row["seat"] == 1
