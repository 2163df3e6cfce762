"""Two hosts, one PostgreSQL database: a table made at one is played at both.

Each host here is a table server with its own service, as ``railgames host --store
postgresql://...`` runs it, and its players talk to it over its table socket as their app
processes do. The database is a real server (tests/pgserver.py).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from test_tableserver_names import Client as SocketClient

from railgames.net.service import TableService
from railgames.net.sqlstore import PostgresTableStore
from railgames.net.tables import HostTable, Login
from railgames.net.tableserver import TableServer


class Client(SocketClient):
    """One player's app process at one host (what it is pushed meanwhile is kept)."""

    def __init__(self, name: str, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        self.name = name
        self.pushed: list[dict[str, Any]] = []

    def heard(self, message: dict[str, Any]) -> None:
        self.pushed.append(message)


class Host:
    def __init__(self, url: str, folder: Path) -> None:
        self.store = PostgresTableStore(url)
        self.service = TableService(folder / "tables", bot_delay=0, bot_workers=0,
                                    store=self.store)
        self.server = TableServer(self.service, folder / "tables.sock")

    async def start(self) -> None:
        await self.server.start()
        self.service.load()
        self.service.follow()

    async def stop(self) -> None:
        await self.server.close()
        self.service.close()
        self.store.close()

    async def client(self, name: str) -> Client:
        token = self.server.issue_token(Login(name=name))
        client = Client(name, *await asyncio.open_unix_connection(str(self.server.socket_path)))
        assert (await client.ask(op="hello", token=token))["ok"]
        return client

    def table(self, code: str) -> HostTable | None:
        return self.service.tables.get(code)


def with_hosts(url: str, tmp_path: Path, test: Callable[[Host, Host], Awaitable[None]]) -> None:
    async def main() -> None:
        hosts = [Host(url, tmp_path / name) for name in ("a", "b")]
        for host in hosts:
            await host.start()
        try:
            await asyncio.wait_for(test(*hosts), 150)
        finally:
            for host in hosts:
                await host.stop()

    asyncio.run(main())


async def until(check: Callable[[], Any], what: str, seconds: float = 20) -> Any:
    for _ in range(int(seconds * 50)):
        value = check()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"waited {seconds} s for {what}")


async def agree(a: Host, b: Host, code: str) -> None:
    """Until both hosts have every move so far, with no change of theirs under way."""
    tables = [a.table(code), b.table(code)]
    await until(lambda: len({len(moves(t)) for t in tables}) == 1
                and not any(t.pending or t.unsent for t in tables if t), "the hosts to agree")


def moves(table: HostTable | None) -> list[Any]:
    return [] if table is None or table.game is None else table.game.record.actions


async def sit_three(a: Host, b: Host, game: str = "steel-driver") -> tuple[str, dict[str, Client]]:
    """Ann and Cy at host a, Bo at host b, at a table of three made at a."""
    ann = await a.client("Ann")
    made = await ann.ask(op="create", game=game, seats=3, humans=3, seed=5)
    assert made["ok"], made
    code = made["code"]
    await until(lambda: b.table(code), "the table to reach the other host")
    bo = await b.client("Bo")
    assert (await bo.ask(op="join", code=code))["ok"]
    cy = await a.client("Cy")
    assert (await cy.ask(op="join", code=code))["ok"]
    await until(lambda: a.table(code) and a.table(code).game and b.table(code)
                and b.table(code).game, "the game to start at both hosts")
    return code, {"Ann": ann, "Bo": bo, "Cy": cy}


async def play(hosts: dict[str, Host], clients: dict[str, Client], code: str, rng: random.Random,
               limit: int) -> int:
    """Each player moves when it is their turn, at their own host; ``limit`` moves at most."""
    played = 0
    tables = [host.table(code) for host in set(hosts.values())]
    while played < limit:
        # Both hosts have every move so far (and no change of theirs under way).
        await until(lambda: len({len(moves(t)) for t in tables}) == 1
                    and not any(t.pending or t.unsent for t in tables if t), "the hosts to agree")
        table = tables[0]
        assert table is not None and table.game is not None
        if table.game.is_over():
            break
        seat = table.to_move()
        assert seat is not None
        name = table.seats[seat].name
        mine = hosts[name].table(code)
        assert mine is not None and mine.game is not None
        action = rng.choice(mine.game.legal_actions()).model_dump(mode="json")
        answer = await clients[name].ask(op="act", action=action)
        assert answer.get("ok"), answer
        played += 1
    return played


def test_three_players_at_two_hosts_play_a_game_to_the_end(pg_url: str, tmp_path: Path) -> None:
    async def test(a: Host, b: Host) -> None:
        code, clients = await sit_three(a, b)
        where = {"Ann": a, "Bo": b, "Cy": a}
        played = await play(where, clients, code, random.Random(3), 2000)
        await until(lambda: len(moves(a.table(code))) == len(moves(b.table(code))),
                    "the last move to reach both hosts")
        ta, tb = a.table(code), b.table(code)
        assert ta and tb and ta.game and tb.game
        assert ta.game.is_over() and tb.game.is_over() and played > 50
        assert moves(ta) == moves(tb)
        assert ta.game.result() == tb.game.result()
        # What the database keeps is the same game, and a third host would load it so.
        stored = a.store.load(code)
        assert stored.record is not None and stored.record.actions == moves(ta)
        # Bo, at the other host, was shown the end.
        assert any(m.get("ev") == "table" for m in clients["Bo"].pushed)

    with_hosts(pg_url, tmp_path, test)


def test_the_same_move_sent_to_both_hosts_at_once_is_played_once(pg_url: str,
                                                                 tmp_path: Path) -> None:
    async def test(a: Host, b: Host) -> None:
        code, clients = await sit_three(a, b)
        where = {"Ann": a, "Bo": b, "Cy": a}
        rng = random.Random(8)
        wins = 0
        for _round in range(6):
            await play(where, clients, code, rng, 3)
            await agree(a, b, code)
            table = a.table(code)
            assert table is not None and table.game is not None
            seat = table.to_move()
            assert seat is not None
            name = table.seats[seat].name
            other = b if where[name] is a else a
            # The same player, at both hosts, sends the same move to each at once.
            twin = await other.client(name)
            assert (await twin.ask(op="join", code=code))["ok"]
            await until(lambda: len(moves(a.table(code))) == len(moves(b.table(code))),
                        "the hosts to agree")
            before = len(moves(table))
            action = rng.choice(table.game.legal_actions()).model_dump(mode="json")
            answers = await asyncio.gather(clients[name].ask(op="act", action=action),
                                           twin.ask(op="act", action=action))
            oks = [answer.get("ok") for answer in answers]
            await agree(a, b, code)
            kept = a.store.load(code).record
            assert kept is not None
            assert moves(a.table(code)) == moves(b.table(code)) == kept.actions
            added = len(kept.actions) - before
            # Exactly one of the two is played (where a game lets the same seat make the
            # same move twice running, the second is a move of its own, and kept too).
            assert added == sum(bool(ok) for ok in oks) and added >= 1
            if added == 1:
                wins += 1
                lost = next(x for x in answers if not x.get("ok"))
                assert "first" in lost["reason"] and "\n" not in lost["reason"]
            assert (await twin.ask(op="leave"))["ok"]
            twin.close()
        assert wins >= 4

    with_hosts(pg_url, tmp_path, test)


def test_forged_notices_between_hosts_change_nothing(pg_url: str, tmp_path: Path) -> None:
    """What the database carries between hosts is read as strictly as a file: a notice
    that lies (a move out of turn, a move of no game, a version far ahead, deep nesting,
    random bytes) leaves each host with the table the store keeps, and the game goes on.
    (Whoever may write to the database is trusted as whoever may write to a host's data
    directory: a notice of a legal move is believed, as a row of one would be.)"""

    async def test(a: Host, b: Host) -> None:
        code, clients = await sit_three(a, b)
        where = {"Ann": a, "Bo": b, "Cy": a}
        rng = random.Random(4)
        await play(where, clients, code, rng, 4)
        await agree(a, b, code)
        before = list(moves(b.table(code)))
        table = b.table(code)
        assert table is not None and table.game is not None
        seat = table.to_move()
        other = {**table.game.legal_actions()[0].model_dump(mode="json"),
                 "seat": (seat + 1) % 3}
        version = table.version
        forged = [
            # A move that is not this seat's, or not a move of this game:
            f"{code}:{version + 1}:forger:[{{\"act\":{json.dumps(other)}}}]",
            f"{code}:{version + 1}:forger:[{{\"act\":{{\"type\":\"nonsense\",\"seat\":{seat}}}}}]",
            f"{code}:{10**30}:forger",
            f"{code}:{version + 1}:forger:" + "[" * 3000 + "]" * 3000,
            f"{code}:{version + 1}:forger:" + "\x01\xff garbage",
            "not a notice at all",
            "ZZZZ:1:forger",
        ]
        for text in forged:
            a.store.tell("railgames", text)
        a.store.tell("railgames_here", "{\"host\": [1, 2], \"seats\": 7}")
        a.store.tell("railgames_here", "x" * 6000)
        await asyncio.sleep(1.0)
        await agree(a, b, code)
        assert moves(b.table(code)) == before == moves(a.table(code))
        kept = b.store.load(code).record
        assert kept is not None and kept.actions == before
        # And the game goes on at both hosts.
        await play(where, clients, code, rng, 6)
        await agree(a, b, code)
        assert moves(a.table(code)) == moves(b.table(code)) == b.store.load(code).record.actions
        assert len(moves(a.table(code))) == len(before) + 6

    with_hosts(pg_url, tmp_path, test)


def test_hosts_whose_database_link_breaks_catch_up_without_losing_or_repeating_a_move(
        pg_url: str, tmp_path: Path) -> None:
    """Every connection of both hosts is cut (as a restarted database or a broken network
    would) in the middle of a game, several times: each host connects again, catches up
    from the log, and the moves made meanwhile are each kept once."""
    import psycopg

    async def test(a: Host, b: Host) -> None:
        code, clients = await sit_three(a, b)
        where = {"Ann": a, "Bo": b, "Cy": a}
        rng = random.Random(6)
        played = 0
        for _cut in range(3):
            played += await play(where, clients, code, rng, 5)
            with psycopg.connect(pg_url, autocommit=True) as conn:
                cut = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                   "WHERE datname = current_database() "
                                   "AND pid <> pg_backend_pid()").fetchone()
                assert cut is not None and cut[0] >= 2  # each host's own, and its listener
        played += await play(where, clients, code, rng, 5)
        await agree(a, b, code)
        kept = a.store.load(code).record
        assert kept is not None
        assert moves(a.table(code)) == moves(b.table(code)) == kept.actions
        assert len(kept.actions) == played == 20

    with_hosts(pg_url, tmp_path, test)


def test_what_is_said_and_who_is_there_reach_the_other_host(pg_url: str, tmp_path: Path) -> None:
    async def test(a: Host, b: Host) -> None:
        code, clients = await sit_three(a, b)
        assert (await clients["Bo"].ask(op="say", text="hello from host b"))["ok"]
        ann = clients["Ann"]

        def heard() -> bool:
            return any(m.get("ev") == "chat" and (m.get("line") or {}).get("text")
                       == "hello from host b" for m in ann.pushed)

        while not heard():  # pushes are read while asking; ask for nothing much
            await ann.ask(op="chat_lines")
            await asyncio.sleep(0.05)
        lines = await ann.ask(op="chat_lines")
        assert [line["text"] for line in lines["lines"]] == ["hello from host b"]
        await until(lambda: a.table(code) and a.table(code).elsewhere == {1},
                    "host a to know Bo sits at host b")
        lines = await ann.ask(op="chat_lines")
        assert lines["players"] == ["Ann", "Bo", "Cy"]

    with_hosts(pg_url, tmp_path, test)
