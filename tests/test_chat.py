"""Talk at a host's table: lines said, refused, cleaned, kept with the table and pushed to
everyone at it; and who is there, sitting and watching."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from railgames.net import chat, ops, talkline
from railgames.net.service import TableService
from railgames.net.store import MAX_CHAT_KEPT
from railgames.net.tables import HostTable, Login, Member
from railgames.net.tableserver import TableServer


class Inbox(list[dict[str, Any]]):
    def __call__(self, message: dict[str, Any]) -> None:
        self.append(json.loads(json.dumps(message)))  # as it travels

    def of(self, ev: str) -> list[dict[str, Any]]:
        return [m for m in self if m.get("ev") == ev]


class Clock:
    """The seconds the rate limit counts, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def member(name: str) -> tuple[Member, Inbox]:
    inbox = Inbox()
    return Member(login=Login(name=name, peer="127.0.0.1:1"), send=inbox), inbox


class Host:
    """A table server's requests, asked directly (no socket), over one table of two
    players (ann, bob) and a watcher (cat)."""

    def __init__(self, root: Path, talk: str = "everyone") -> None:
        self.service = TableService(root, bot_delay=0, bot_workers=0)
        self.server = TableServer(self.service, root / "sock" / "tables.sock")
        self.clock = Clock()
        chat.talk_of(self.server).now = self.clock
        self.ann, self.ann_in = member("ann")
        self.bob, self.bob_in = member("bob")
        self.cat, self.cat_in = member("cat")
        self.table: HostTable = self.service.create(self.ann, "paris-connection", seats=3,
                                                    humans=2, talk=talk)
        self.service.join(self.bob, self.table.code)
        self.service.join(self.cat, self.table.code, watch=True)

    def ask(self, who: Member, **request: Any) -> dict[str, Any]:
        return asyncio.run(ops.call(self.server, who, request))

    def say(self, who: Member, text: Any) -> dict[str, Any]:
        self.clock.now += 5  # well within the rate limit
        return self.ask(who, op="say", text=text)

    def close(self) -> None:
        self.service.close()


@pytest.fixture
def host(tmp_path: Path) -> Any:
    made = Host(tmp_path / "tables")
    yield made
    made.close()


def test_a_line_said_is_kept_and_reaches_everyone_at_the_table(host: Host) -> None:
    answer = host.say(host.ann, "  hello\tall  ")
    assert answer["ok"], answer
    line = answer["line"]
    assert line["name"] == "ann" and line["text"] == "hello all" and line["seat"] == 0
    assert line["at"]
    for inbox in (host.ann_in, host.bob_in, host.cat_in):
        assert inbox.of("chat")[-1] == {"ev": "chat", "code": host.table.code, "line": line}
    assert host.table.chat == [line]
    assert host.service.store.load(host.table.code).chat[0].model_dump() == line


def test_a_watcher_talks_where_everyone_may(host: Host) -> None:
    answer = host.say(host.cat, "nice move")
    assert answer["ok"] and answer["line"]["seat"] is None


def test_a_watcher_is_refused_where_only_players_talk(tmp_path: Path) -> None:
    host = Host(tmp_path / "tables", talk="players")
    try:
        answer = host.say(host.cat, "hi")
        assert answer == {"ok": False,
                          "reason": "only the players talk at this table; you are watching"}
        assert host.say(host.bob, "hi")["ok"]
        assert [line["name"] for line in host.table.chat] == ["bob"]
    finally:
        host.close()


def test_no_table_no_talk(host: Host) -> None:
    dan, _ = member("dan")
    assert host.ask(dan, op="say", text="hi") == {"ok": False,
                                                   "reason": "you are not at a table"}
    assert host.ask(dan, op="chat_lines")["ok"] is False


@pytest.mark.parametrize("text", [
    None, 5, 1.5, True, ["hi"], {"text": "hi"}, {"a": {"b": {"c": [[["hi"]]]}}},
    json.loads("[" * 200 + "]" * 200),
])
def test_what_is_not_text_is_refused_in_one_line(host: Host, text: Any) -> None:
    answer = host.say(host.ann, text)
    assert answer == {"ok": False, "reason": "a line said is text"}
    assert host.table.chat == []


@pytest.mark.parametrize("text", ["", "   ", "\n\t\r", "\x1b[2J", "\u202e\u2066", "\x00\x07\x7f"])
def test_an_empty_line_is_refused(host: Host, text: str) -> None:
    answer = host.say(host.ann, text)
    assert answer == {"ok": False, "reason": "there is nothing to say in that line"}
    assert host.table.chat == []


def test_a_long_line_is_refused_and_a_megabyte_unread(host: Host) -> None:
    assert host.say(host.ann, "x" * chat.MAX_SAID)["ok"]
    answer = host.say(host.ann, "x" * (chat.MAX_SAID + 1))
    assert answer == {"ok": False, "reason": f"that line is too long ({chat.MAX_SAID + 1} "
                                             f"characters; at most {chat.MAX_SAID})"}
    answer = host.say(host.ann, "\x1b" * (1 << 20))
    assert answer == {"ok": False,
                      "reason": f"that line is too long: at most {chat.MAX_SAID} characters"}
    assert len(host.table.chat) == 1


def test_talking_too_fast_is_refused_until_a_moment_has_passed(host: Host) -> None:
    said = [host.ask(host.ann, op="say", text=f"line {i}")["ok"] for i in range(3)]
    assert said == [True, True, True]
    answer = host.ask(host.ann, op="say", text="one more")
    assert answer == {"ok": False,
                      "reason": "not so fast: at most 3 lines in 2 seconds (wait 2 s)"}
    assert host.ask(host.bob, op="say", text="me too")["ok"]  # counted per player
    host.clock.now += 2.5
    assert host.ask(host.ann, op="say", text="line 3")["ok"]
    assert host.ask(host.ann, op="say", text="line 4")["ok"]
    host.clock.now += 2.5  # 5 lines in 5 seconds: the 10-second limit
    answer = host.ask(host.ann, op="say", text="one more")
    assert not answer["ok"] and "at most 5 lines in 10 seconds" in answer["reason"]
    host.clock.now += 10
    assert host.ask(host.ann, op="say", text="again")["ok"]
    assert [line["text"] for line in host.table.chat if line["name"] == "ann"] == [
        "line 0", "line 1", "line 2", "line 3", "line 4", "again"]


@pytest.mark.parametrize(("said", "kept"), [
    ("\x1b[2Jhi", "hi"),  # clear the screen
    ("a\x1b]52;c;aGVsbG8=\x07b", "ab"),  # OSC 52: set the clipboard (BEL)
    ("a\x1b]52;c;aGVsbG8=\x1b\\b", "ab"),  # (ST)
    ("a\x9b2Jb\x9d0;title\x9cc", "abc"),  # 8-bit CSI and OSC
    ("a\x1b]0;never ended", "a"),
    ("\x1bPq#0;2;0;0;0\x1b\\ok", "ok"),  # DCS (sixel)
    ("\x1b7\x1b8\x1bcok\x1b", "ok"),
    ("abc\u202edcba\u202c \u2066x\u2069 \u200fy", "abcdcba x y"),
    ("one\ntwo\r\nthree\u2028four\x0bfive", "one two three four five"),
    ("bell\x07 back\x08 del\x7f nul\x00", "bell back del nul"),
    ("caf\u00e9 \u2014 \u00fcber \U0001f682", "caf\u00e9 \u2014 \u00fcber \U0001f682"),
    ("half \ud800 a pair", "half a pair"),
])
def test_lines_are_cleaned_before_anyone_sees_them(host: Host, said: str, kept: str) -> None:
    assert talkline.clean(said) == kept
    answer = host.say(host.ann, said)
    assert answer["ok"] and answer["line"]["text"] == kept


def test_random_bytes_never_leave_a_control_character() -> None:
    rng = random.Random(27)
    for _ in range(300):
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120)))
        text = talkline.clean(raw.decode("latin-1"))
        assert text == text.strip() and "  " not in text
        assert not any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in text), repr(text)
        text = talkline.clean(raw.decode("utf-8", "surrogateescape"))
        text.encode("utf-8")  # no half characters either
        assert not any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in text), repr(text)


def test_who_is_here_is_pushed_when_it_changes(host: Host) -> None:
    code = host.table.code
    want = {"ev": "here", "code": code, "players": ["ann", "bob"], "watching": ["cat"]}
    for inbox in (host.ann_in, host.bob_in, host.cat_in):
        assert inbox.of("here")[-1] == want
    told = len(host.ann_in.of("here"))
    host.say(host.ann, "hi")
    assert len(host.ann_in.of("here")) == told  # the same people: nothing said of them
    host.service.leave(host.cat)
    assert host.ann_in.of("here")[-1] == {**want, "watching": []}
    assert host.bob_in.of("here")[-1] == {**want, "watching": []}
    host.service.leave(host.bob)
    assert host.ann_in.of("here")[-1] == {**want, "players": ["ann"], "watching": []}
    assert host.ask(host.ann, op="chat_lines") == {
        "ok": True, "code": code, "lines": host.table.chat, "players": ["ann"], "watching": []}


def test_a_member_coming_to_the_table_is_sent_its_recent_lines(host: Host) -> None:
    host.say(host.ann, "first")
    host.say(host.bob, "second")
    dan, dan_in = member("dan")
    host.service.join(dan, host.table.code, watch=True)
    assert [m["ev"] for m in dan_in if m.get("ev") in ("chat", "here")] == ["chat", "here"]
    assert [line["text"] for line in dan_in.of("chat")[0]["lines"]] == ["first", "second"]
    assert dan_in.of("here")[0]["watching"] == ["cat", "dan"]
    host.service.leave(dan)
    host.service.join(dan, host.table.code, watch=True)  # back again: sent them again
    assert len(dan_in.of("chat")) == 2


def test_lines_are_kept_across_a_restart_and_a_compaction(tmp_path: Path) -> None:
    host = Host(tmp_path / "tables")
    code = host.table.code
    said = [f"line {i}" for i in range(MAX_CHAT_KEPT + 20)]
    for text in said:
        assert host.say(host.ann if len(host.table.chat) % 2 else host.bob, text)["ok"]
    assert [line["text"] for line in host.table.chat] == said[-MAX_CHAT_KEPT:]
    host.close()

    again = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    again.load()  # many lines besides its actions: the log is compacted as it loads
    table = again.tables[code]
    assert [line["text"] for line in table.chat] == said[-MAX_CHAT_KEPT:]
    log = again.path_of(table).read_text().splitlines()
    assert sum('"chat"' in line for line in log) == MAX_CHAT_KEPT  # written again, compacted
    again.close()

    third = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    third.load()
    assert [line["text"] for line in third.tables[code].chat] == said[-MAX_CHAT_KEPT:]
    assert third.tables[code].chat[0]["name"] in ("ann", "bob")
    third.close()


def test_a_line_said_on_the_socket_reaches_the_other_player(tmp_path: Path) -> None:
    """The whole way: two app connections to a running table socket."""

    async def main() -> None:
        service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
        server = TableServer(service, tmp_path / "host" / "tables.sock")
        await server.start()
        clients = []
        try:
            for name in ("ann", "bob"):
                reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
                token = server.issue_token(Login(name=name))
                writer.write(json.dumps({"op": "hello", "token": token, "id": 0}).encode()
                             + b"\n")
                clients.append((reader, writer))
            (ann_r, ann_w), (bob_r, bob_w) = clients

            async def ask(writer: Any, reader: Any, **request: Any) -> dict[str, Any]:
                writer.write(json.dumps({**request, "id": 9}).encode() + b"\n")
                pushed = []
                while True:
                    message = json.loads(await asyncio.wait_for(reader.readline(), 30))
                    if message.get("id") == 9:
                        return {"answer": message, "pushed": pushed}
                    pushed.append(message)

            made = await ask(ann_w, ann_r, op="create", game="paris-connection", seats=3,
                             humans=2)
            code = made["answer"]["code"]
            joined = await ask(bob_w, bob_r, op="join", code=code)
            assert {"ev": "here", "code": code, "players": ["ann", "bob"],
                    "watching": []} in joined["pushed"]
            said = await ask(ann_w, ann_r, op="say", text="good luck \x1b[31mbob")
            assert said["answer"]["ok"] and said["answer"]["line"]["text"] == "good luck bob"
            heard = await ask(bob_w, bob_r, op="chat_lines")
            chats = [m for m in heard["pushed"] if m.get("ev") == "chat"]
            assert chats[-1]["line"]["text"] == "good luck bob"
            assert [line["text"] for line in heard["answer"]["lines"]] == ["good luck bob"]
            # A line longer than any request may carry is refused to the request that
            # sent it (its id read back), not left to wait for an answer that never comes.
            long = await ask(ann_w, ann_r, op="say", text="x" * 5000)
            assert not long["answer"]["ok"] and "not a message this host reads" in \
                long["answer"]["reason"]
        finally:
            for _, writer in clients:
                writer.close()
            await server.close()
            service.close()

    asyncio.run(asyncio.wait_for(main(), 60))
