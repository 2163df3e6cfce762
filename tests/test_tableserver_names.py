"""The host's table socket: what a login under a new name may do before it has a passphrase,
a browser's login counted per address, and the operator's admin requests."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from railgames.net.players import Kick, hash_passphrase
from railgames.net.service import TableService
from railgames.net.tables import Login
from railgames.net.tableserver import TableServer

PASSWORD = "table-pw"


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.ids = 0

    async def ask(self, **message: Any) -> dict[str, Any]:
        self.ids += 1
        self.writer.write(json.dumps({**message, "id": self.ids}).encode() + b"\n")
        while True:
            line = await asyncio.wait_for(self.reader.readline(), 30)
            if not line:
                return {"closed": True}
            answer = json.loads(line)
            if answer.get("id") == self.ids:
                return dict(answer)
            self.heard(answer)

    def heard(self, message: dict[str, Any]) -> None:
        """A message pushed while waiting for an answer (a change, a line said)."""

    async def closed(self) -> bool:
        try:
            return await asyncio.wait_for(self.reader.read(), 30) == b""
        except ConnectionError:
            return True

    def close(self) -> None:
        self.writer.close()


async def connect(server: TableServer) -> Client:
    return Client(*await asyncio.open_unix_connection(str(server.socket_path)))


@pytest.fixture
def events(caplog: pytest.LogCaptureFixture) -> Callable[[str], list[dict[str, Any]]]:
    caplog.set_level(logging.INFO, logger="railgames.host")

    def kinds(kind: str) -> list[dict[str, Any]]:
        fields = [getattr(r, "fields", {}) for r in caplog.records]
        return [f for f in fields if f.get("event") == kind]

    return kinds


def with_server(tmp_path: Path, test: Callable[[TableServer], Awaitable[None]],
                failures: int = 10) -> None:
    async def main() -> None:
        service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
        server = TableServer(service, tmp_path / "host" / "tables.sock")
        server.password = PASSWORD
        server.keep_players(tmp_path / "host", failures)
        await server.start()
        try:
            await asyncio.wait_for(test(server), 120)
        finally:
            await server.close()
            service.close()

    asyncio.run(main())


def test_a_new_name_may_do_nothing_before_it_has_its_passphrase(tmp_path: Path) -> None:
    async def test(server: TableServer) -> None:
        token = server.issue_token(Login(name="cat", peer="127.0.0.1:1", unclaimed=True))
        cat = await connect(server)
        hello = await cat.ask(op="hello", token=token)
        assert hello["ok"] and hello["choose"] is True
        for request in ({"op": "list"}, {"op": "join", "code": "ABCD"},
                        {"op": "create", "game": "paris-connection", "seats": 3, "humans": 2}):
            refused = await cat.ask(**request)
            assert not refused["ok"] and "choose a passphrase for cat first" in refused["reason"]
        assert "at least 8" in (await cat.ask(op="claim", passphrase="short"))["reason"]
        assert "table password" in (await cat.ask(op="claim", passphrase=PASSWORD))["reason"]
        assert (await cat.ask(op="claim", passphrase="purring loudly"))["ok"]
        assert (await cat.ask(op="list"))["ok"]  # hers now: on to the tables
        assert server.players is not None
        owner, _ = server.players.find("cat")
        assert owner is not None and owner.passphrase is not None
        cat.close()

    with_server(tmp_path, test)


def test_two_logins_racing_for_one_new_name_one_wins(tmp_path: Path) -> None:
    async def test(server: TableServer) -> None:
        first, second = await connect(server), await connect(server)
        for client in (first, second):
            token = server.issue_token(Login(name="cat", unclaimed=True))
            assert (await client.ask(op="hello", token=token))["choose"]
        answers = await asyncio.gather(first.ask(op="claim", passphrase="one passphrase"),
                                       second.ask(op="claim", passphrase="two passphrase"))
        assert sorted(a["ok"] for a in answers) == [False, True]
        lost = next(a for a in answers if not a["ok"])
        assert lost["end"] and "log in again" in lost["reason"]
        loser = first if answers[0] is lost else second
        assert await loser.closed()  # that connection is over
        first.close()
        second.close()

    with_server(tmp_path, test)


def test_a_browser_login_is_checked_and_counted_per_address(
        tmp_path: Path, events: Callable[[str], list[dict[str, Any]]]) -> None:
    async def test(server: TableServer) -> None:
        assert server.players is not None
        from railgames.net.players import Player

        server.players.update(lambda r: r.players.__setitem__(
            "cat", Player(name="Cat", passphrase=hash_passphrase("purring loudly"))))
        eve = await connect(server)
        for _ in range(2):
            answer = await eve.ask(op="login", name="cat", password=PASSWORD, peer="10.0.0.9")
            assert not answer["ok"] and "wrong passphrase for Cat" in answer["reason"]
        answer = await eve.ask(op="login", name="cat", password="purring loudly",
                               peer="10.0.0.9")
        assert not answer["ok"] and "too many failed logins from 10.0.0.9" in answer["reason"]
        # Another address is not held back by this one.
        cat = await connect(server)
        welcome = await cat.ask(op="login", name="CAT", password="purring loudly",
                                peer="10.0.0.7")
        assert welcome["ok"] and welcome["name"] == "Cat" and not welcome["choose"]
        new = await connect(server)
        fresh = await new.ask(op="login", name="ann", password=PASSWORD, peer="10.0.0.7")
        assert fresh["ok"] and fresh["choose"]
        for client in (eve, cat, new):
            client.close()

    with_server(tmp_path, test, failures=2)
    failed = events("login_failed")
    assert [e["peer"] for e in failed] == ["10.0.0.9"] * 2 and failed[-1]["limited"]
    assert events("refused")[0]["reason"] == "too many failed logins"
    assert [e["user"] for e in events("login")] == ["Cat", "ann"]


def test_admin_requests_need_the_hosts_token_and_come_first(
        tmp_path: Path, events: Callable[[str], list[dict[str, Any]]]) -> None:
    async def test(server: TableServer) -> None:
        assert server.token_path is not None
        assert server.token_path.stat().st_mode & 0o777 == 0o600
        token = server.token_path.read_text().strip()
        stranger = await connect(server)
        refused = await stranger.ask(op="admin", token="guess", command="ban", args=["cat"])
        assert not refused["ok"] and "not this host's admin token" in refused["reason"]
        assert await stranger.closed()
        # An app process, logged in, cannot turn into the operator.
        app = await connect(server)
        await app.ask(op="hello", token=server.issue_token(Login(name="ann")))
        answer = await app.ask(op="admin", token=token, command="ban", args=["cat"])
        assert not answer["ok"] and "unknown request" in answer["reason"]
        kicked: list[Kick] = []
        server.on_kick = lambda kick: kicked.append(kick) or 1  # type: ignore[func-returns-value]
        operator = await connect(server)
        done = await operator.ask(op="admin", token=token, command="ban", args=["cat"])
        assert done["ok"] and "cat: banned; 1 session ended" == done["text"]
        assert kicked and kicked[0].matches("cat", (), None)
        listing = await (await connect(server)).ask(op="admin", token=token, command="list")
        assert "banned" in listing["text"] and "online, not claimed yet: ann" in listing["text"]
        app.close()

    with_server(tmp_path, test)
    assert [e["command"] for e in events("admin")] == ["ban"]
    assert "admin token" in events("refused")[0]["reason"]
    assert not (tmp_path / "host" / "admin-token").exists()  # gone with the host


def test_a_kicked_browser_player_is_told_why_and_let_go(tmp_path: Path) -> None:
    async def test(server: TableServer) -> None:
        web = await connect(server)
        assert (await web.ask(op="login", name="eve", password=PASSWORD, peer="10.0.0.5"))["ok"]
        assert server.kick(Kick(names={"eve"}, reason="the host's operator ended your "
                                                      "session")) == 1
        line = await asyncio.wait_for(web.reader.readline(), 30)
        assert json.loads(line) == {"ev": "kicked",
                                    "reason": "the host's operator ended your session"}
        assert await web.closed()

    with_server(tmp_path, test)
