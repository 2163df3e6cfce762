"""Talk at a table: one line at a time, kept with the table, shown to everyone at it.

A member at a table says a line (``{"op": "say", "text": ...}``); the host cleans it
(``talkline.clean``: nothing that a terminal would act on reaches anyone's screen), checks it
(not empty, not too long, not too fast, and from a watcher only where the table lets
watchers talk), keeps it in the table's log through the service's ordered writer,
and then pushes it to every member of the table (``{"ev": "chat", "code", "line"}``).

Who is at the table is pushed too, to each member whenever it changes for them
(``{"ev": "here", "code", "players", "watching"}``: the names of the people sitting
and watching now); a member new to the table is first sent its recent lines
(``{"ev": "chat", "code", "lines": [...]}``). ``{"op": "chat_lines"}`` asks for both.

The rate limit counts seconds on the monotonic clock, not the service's clock: it is
about how fast a person types now, and a table's clock may be one that tests move on
by days.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from railgames.core.errors import IllegalAction
from railgames.core.record import MAX_STRING
from railgames.net.ops import Answer, on_start, op
from railgames.net.store import MAX_CHAT_TEXT
from railgames.net.tables import HostTable, Member, event
from railgames.net.talkline import clean

if TYPE_CHECKING:
    from railgames.net.tableserver import TableServer

# Characters in one line: as many as any text in a request may have (longer is refused
# as the request is read: ``protocol.decode``); within what the log keeps (MAX_CHAT_TEXT).
MAX_SAID = MAX_STRING
MAX_RAW = 4 * MAX_SAID  # before cleaning, for callers in the host itself; longer is unread
RATE = (5, 10.0)  # at most 5 lines in any 10 seconds, per player per table
BURST = (3, 2.0)  # and at most 3 in any 2 seconds
RECENT = 50  # the lines a member coming to the table is sent

assert MAX_SAID <= MAX_CHAT_TEXT

def here(table: HostTable) -> dict[str, list[str]]:
    """The people at ``table`` now: sitting (in seat order; at this host or another sharing
    its tables) and watching (by name; at this host)."""
    seated = sorted([(m.seat, m.login.name) for m in table.members if m.seat is not None]
                    + [(s, table.seats[s].name) for s in table.elsewhere
                       if s < len(table.seats) and table.seats[s].name])
    players = list(dict.fromkeys(name for _, name in seated))
    watching = sorted({m.login.name for m in table.members if m.seat is None} - set(players),
                      key=str.lower)
    return {"players": players, "watching": watching}


class Talk:
    """One host's talk: who said how much lately, and what each member was last told of
    who is here."""

    def __init__(self, server: TableServer, now: Callable[[], float] = time.monotonic) -> None:
        self.server = server
        self.now = now
        self.said: dict[tuple[str, str], deque[float]] = {}
        # By table: what each member there was last told of who is here.
        self.told: dict[str, weakref.WeakKeyDictionary[Member, dict[str, list[str]]]] = {}

    # ------------------------------------------------------------ saying a line
    def too_fast(self, name: str, code: str) -> str | None:
        """Why ``name`` may not say another line at ``code`` now (None: they may); a line
        allowed is counted."""
        now = self.now()
        times = self.said.setdefault((name.lower(), code), deque(maxlen=RATE[0]))
        for most, within in (BURST, RATE):
            recent = [t for t in times if now - t < within]
            if len(recent) >= most:
                wait = max(1, round(within - (now - recent[-most])))
                return (f"not so fast: at most {most} lines in {within:g} seconds "
                        f"(wait {wait} s)")
        times.append(now)
        return None

    def say(self, member: Member, raw: Any) -> dict[str, Any]:
        """Check a line ``member`` says and keep it (IllegalAction: refused, nothing kept)."""
        table = member.table
        if table is None:
            raise IllegalAction("you are not at a table")
        if member.seat is None and table.talk != "everyone":
            raise IllegalAction("only the players talk at this table; you are watching")
        if not isinstance(raw, str):
            raise IllegalAction("a line said is text")
        if len(raw) > MAX_RAW:
            raise IllegalAction(f"that line is too long: at most {MAX_SAID} characters")
        text = clean(raw)
        if not text:
            raise IllegalAction("there is nothing to say in that line")
        if len(text) > MAX_SAID:
            raise IllegalAction(f"that line is too long ({len(text)} characters; "
                                f"at most {MAX_SAID})")
        reason = self.too_fast(member.login.name, table.code)
        if reason is not None:
            raise IllegalAction(reason)
        return self.server.service.say(table, member.login.name, member.seat, text)

    def tell_table(self, table: HostTable, message: dict[str, Any]) -> None:
        for member in list(table.members):
            try:
                member.send(message)
            except Exception as exc:  # one broken connection never stops the others
                event("send_failed", code=table.code, player=member.login.name,
                      error=repr(exc)[:300])

    # ------------------------------------------------------------ who is here
    def changed(self, kind: str, table: HostTable, info: dict[str, Any]) -> None:
        """The service's listener: after each change of a table, each member whose picture
        of who is here is not the table's now is told (one new to the table first gets
        its recent lines)."""
        if kind == "said":  # a line said at another host sharing this table
            self.tell_table(table, {"ev": "chat", "code": table.code, "line": info["line"]})
            return
        if kind != "changed":
            return
        told = self.told.setdefault(table.code, weakref.WeakKeyDictionary())
        for gone in [m for m in told if m not in table.members]:
            del told[gone]  # left: told anew if they come back
        now = here(table)
        for member in list(table.members):
            before = told.get(member)
            if before == now:
                continue
            try:
                if before is None:
                    member.send({"ev": "chat", "code": table.code, "lines": recent(table)})
                member.send({"ev": "here", "code": table.code, **now})
            except Exception as exc:  # one broken connection never stops the others
                event("send_failed", code=table.code, player=member.login.name,
                      error=repr(exc)[:300])
                continue
            told[member] = now
        if not told:
            del self.told[table.code]


def recent(table: HostTable) -> list[dict[str, Any]]:
    return [dict(line) for line in table.chat[-RECENT:]]


_TALKS: weakref.WeakKeyDictionary[TableServer, Talk] = weakref.WeakKeyDictionary()


def talk_of(server: TableServer) -> Talk:
    talk = _TALKS.get(server)
    if talk is None:
        talk = _TALKS[server] = Talk(server)
        server.service.listen(talk.changed)
    return talk


@on_start
def setup(server: TableServer) -> None:
    talk_of(server)


@op("say", changes=True)
async def say(server: TableServer, member: Member, request: dict[str, Any]) -> Answer:
    talk = talk_of(server)
    line = talk.say(member, request.get("text"))
    table = member.table
    assert table is not None
    await server.service.settled(table)  # kept before anyone is shown it
    talk.tell_table(table, {"ev": "chat", "code": table.code, "line": line})
    event("chat", code=table.code, player=member.login.name, length=len(line["text"]))
    return {"ok": True, "line": line}


@op("chat_lines")
def chat_lines(server: TableServer, member: Member, request: dict[str, Any]) -> Answer:
    table = member.table
    if table is None:
        raise IllegalAction("you are not at a table")
    return {"ok": True, "code": table.code, "lines": recent(table), **here(table)}
