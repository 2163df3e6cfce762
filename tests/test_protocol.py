"""The host's socket messages are read as strictly as a saved game.

``protocol.decode`` holds a message to the record reader's limits (size, nesting,
numbers, text lengths, items): every line it refuses is one ProtocolError, never
another exception, and the table socket answers such a line with one refusal
while every other connection goes on being served.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from railgames.net.protocol import MAX_REQUEST, ProtocolError, decode, encode

HOSTILE = {
    "nested 60,000 deep": b"[" * 60_000,
    "nested 30,000 deep, closed": b"[" * 30_000 + b"]" * 30_000,
    "nested past a record's depth": b'{"a":' * 9 + b"1" + b"}" * 9,
    "a 5,000-digit number": b'{"op": "act", "amount": ' + b"9" * 5_000 + b"}",
    "a 21-digit number": b'{"op": "act", "amount": 1' + b"0" * 20 + b"}",
    "a number too large for a float": b'{"op": "act", "amount": 1e999}',
    "NaN": b'{"op": "act", "amount": NaN}',
    "a line over the size cap": b'{"op": "list", "pad": "' + b"x" * MAX_REQUEST + b'"}',
    "a text longer than a record allows": b'{"op": "join", "code": "' + b"x" * 201 + b'"}',
    "more items than a record allows": b'{"op": "act", "ids": [' + b",".join([b"1"] * 65) + b"]}",
    "a list": b'["op", "list"]',
    "a text": b'"list"',
    "a number": b"3",
    "null": b"null",
    "invalid UTF-8": b'{"op": "\xff"}',
    "UTF-16": '{"op": "list"}'.encode("utf-16"),
    "an empty line": b"",
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_line_is_one_protocol_error(name: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(HOSTILE[name])
    reason = str(refused.value)
    assert reason and "\n" not in reason and len(reason) < 300


def test_what_the_apps_and_the_host_really_send_is_read() -> None:
    request = {"op": "act", "id": 7, "action": {"type": "build", "seat": 1,
                                                "hexes": ["a1", "b2"], "amount": 10**18}}
    assert decode(encode(request)) == request
    assert decode(b'{"op": "list", "id": 1}\n') == {"op": "list", "id": 1}
    # The host's messages to an app carry a seat's view as one long text, and every table.
    push = {"id": 3, "ok": True, "view": "x" * 100_000,
            "tables": [{"code": f"T{i:03}"} for i in range(100)]}
    assert decode(encode(push), from_host=True) == push
    with pytest.raises(ProtocolError):
        decode(encode(push))  # never taken from an app


@pytest.fixture
def socket_folder() -> Iterator[Path]:
    """A short folder for the socket (a socket's path is limited to about a hundred bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="rg-proto-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.next_id = 0

    async def send_line(self, line: bytes) -> dict[str, Any]:
        """One line sent, its one answer read (an empty dict if the host hung up); the
        table's news pushed meanwhile is passed over."""
        self.writer.write(line + b"\n")
        await self.writer.drain()
        while True:
            answer = await asyncio.wait_for(self.reader.readline(), 30)
            if not answer:
                return {}
            message = json.loads(answer)
            if "ev" not in message:
                return message  # type: ignore[no-any-return]

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        answer = await self.send_line(encode({**message, "id": self.next_id}).strip())
        assert answer.get("id") == self.next_id, answer
        return answer


def test_on_the_table_socket_a_hostile_line_costs_its_sender_one_refusal_only(
        tmp_path: Path, socket_folder: Path) -> None:
    from railgames.net.service import TableService
    from railgames.net.tables import Login
    from railgames.net.tableserver import TableServer

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        errors: list[dict[str, Any]] = []
        loop.set_exception_handler(lambda _loop, context: errors.append(context))
        service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
        server = TableServer(service, socket_folder / "tables.sock")
        await server.start()
        clients: dict[str, Client] = {}
        try:
            for name in ("ann", "eve"):
                clients[name] = Client(*await asyncio.open_unix_connection(
                    str(server.socket_path)))
                token = server.issue_token(Login(name=name, peer="127.0.0.1:1"))
                assert (await clients[name].request({"op": "hello", "token": token}))["ok"]
            ann, eve = clients["ann"], clients["eve"]
            created = await ann.request({"op": "create", "game": "paris-connection",
                                         "seats": 3, "humans": 2})
            assert created["ok"], created
            for name, line in HOSTILE.items():
                if len(line) > MAX_REQUEST or name == "an empty line":
                    continue  # longer than the socket reads (it hangs up); "" is no line
                refusal = await eve.send_line(line)
                assert refusal.get("ok") is False, (name, refusal)
                assert "\n" not in refusal["reason"]
                listing = await ann.request({"op": "list"})  # the others are served meanwhile
                assert [t["code"] for t in listing["tables"]] == [created["code"]]
            assert (await eve.request({"op": "list"}))["ok"]  # and so is the sender
        finally:
            for client in clients.values():
                client.writer.close()
            await server.close()
        assert errors == []  # nothing escaped a connection's handler

    asyncio.run(asyncio.wait_for(scenario(), 120))
