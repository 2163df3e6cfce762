"""The host's side of a player's home screen: their tables at a glance, and the notices.

``home`` answers with every table where the player has a seat and whose game is not
over (waiting ones too), theirs to move first, then the one waiting longest: whose move,
since when, the time left at a turn-based table, how many actions they have not seen
(and whose), who is at the table now and who watches it.

What a player has seen is kept in their profile (``profiles.Profile.seen``): a table
counts as seen up to its last action whenever the player sits down at it, gets up from
it, or asks for their home while one of their terminals sits at it. A watcher never
marks anything seen (watching someone else's table is not looking at your own).

Two pushes go to a player's terminals besides their table's own messages:
``{"ev": "home"}`` when one of their tables changed (at most one a second a player,
to terminals not at a table: those show a game, and look again when they come back),
and ``{"ev": "notice", "kind": "your_move", ...}`` when a move elsewhere makes it
their turn at a table (to the terminals not at that table), with ``bell`` false for a
table they silenced (``Profile.quiet``).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING, Any

from railgames.net.ops import on_start, op
from railgames.net.pace import time_left
from railgames.net.profiles import MAX_TABLES, Profile
from railgames.net.tables import HostTable, Login, Member

if TYPE_CHECKING:
    from railgames.net.tableserver import TableServer

# Seconds a player's "home" pushes are gathered into one.
HOME_PUSH_EVERY = 1.0


def seat_of(table: HostTable, login: Login) -> int | None:
    """The seat ``login`` has at ``table`` (under their name now or a former one)."""
    names = login.names
    return next((i for i, s in enumerate(table.seats)
                 if s.human and s.name and s.name.lower() in names), None)


def invites(table: HostTable, login: Login) -> bool:
    """Whether ``table`` is a private one that names ``login`` among those it invites (its
    creator, who is first among them, sits at it already)."""
    names = login.names
    return table.private and any(n.lower() in names for n in table.invited[1:])


def names_list(names: list[str]) -> str:
    """ "Bo", "Bo and Cy", "Bo, Cy and Di"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def news(table: HostTable, seat: int, seen: int) -> str:
    """Who moved since the player looked, as one short line ("" if nobody did)."""
    if table.game is None:
        return ""
    movers: list[str] = []
    for action in table.game.record.actions[seen:]:
        who = action.get("seat")
        if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(table.seats):
            name = "you" if who == seat else table.seats[who].name
            if name and name not in movers:
                movers.append(name)
    return f"{names_list(movers)} moved" if movers else ""


class HomeTables:
    """The home screen's requests and pushes for one table server."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.at_table: dict[str, set[str]] = {}  # code -> lower names seated there now
        self.due: set[str] = set()  # lower names with a "home" push on its way

    # ------------------------------------------------------------ the rows
    def rows(self, login: Login) -> list[dict[str, Any]]:
        service, profiles = self.server.service, self.server.profiles
        sitting = {m.table.code for m in self.server.members_of(login.name)
                   if m.table is not None and m.seat is not None}
        for code in sitting:  # they look at it now: seen up to here
            table = service.tables.get(code)
            if table is not None:
                self.mark_seen(login.name, table)
        profile = profiles.get(login.name)
        now = service.clock.now()
        rows = []
        for table in list(service.tables.values()):
            if table.status == "over":
                continue
            seat = seat_of(table, login)
            if seat is not None:
                rows.append(self.row(table, seat, profile, now))
            elif invites(table, login) and table.free_human_seats():
                rows.append(self.invitation(table, profile, now))
        rows.sort(key=lambda r: (not r["your_move"], not r["invited"], r["since"], r["code"]))
        return rows

    def invitation(self, table: HostTable, profile: Profile, now: float) -> dict[str, Any]:
        """A private table that invites this player and keeps a seat free for them: listed
        until they sit down (Enter does it) or the seats are taken."""
        row = self.row(table, None, profile, now)
        row["unseen"], row["news"] = 0, ""
        return row

    def row(self, table: HostTable, seat: int | None, profile: Profile,
            now: float) -> dict[str, Any]:
        to_move = table.to_move()
        played = table.played()
        seen = min(profile.seen.get(table.code, 0), played)
        here, watching = [], []
        for m in table.members:
            (here if m.seat is not None else watching).append(m.login.name)
        return {"code": table.code, "game": table.game_id, "title": table.title,
                "status": table.status, "pace": table.pace.describe(),
                "turn_based": table.pace.turn_based, "private": table.private, "seat": seat,
                "invited": seat is None,
                "by": table.invited[0] if table.invited else None,
                "your_move": seat is not None and to_move == seat,
                "to_move": table.seats[to_move].name if to_move is not None else None,
                "since": table.moved_at,
                "time_left": time_left(self.server.service.deadline(table), now),
                "unseen": played - seen, "news": news(table, seat, seen) if seat is not None else "",
                "here": _unique(here), "watching": _unique(watching),
                "muted": table.code in profile.muted, "bell": table.code not in profile.quiet}

    def mark_seen(self, name: str, table: HostTable) -> None:
        played = table.played()
        if self.server.profiles.get(name).seen.get(table.code) == played:
            return  # nothing new: the profile's file is left alone

        def see(profile: Profile) -> None:
            seen = profile.seen
            seen.pop(table.code, None)  # the last looked at goes last: the first forgotten
            while len(seen) >= MAX_TABLES:  # is the one not looked at for longest
                del seen[next(iter(seen))]
            seen[table.code] = played

        self.server.profiles.update(name, see)

    # ------------------------------------------------------------ what happens at the tables
    def heard(self, kind: str, table: HostTable, info: dict[str, Any]) -> None:
        if kind == "changed":
            self.changed(table)
        elif kind == "turn" and info.get("person") and not info.get("restored"):
            self.your_move(table, int(info["seat"]))

    def changed(self, table: HostTable) -> None:
        # Sitting down and getting up are looks at the table: seen up to now.
        now = {m.login.name.lower(): m.login.name for m in table.members if m.seat is not None}
        before = self.at_table.get(table.code, set())
        for low in set(now) ^ before:
            name = now.get(low) or next((s.name for s in table.seats
                                         if s.name and s.name.lower() == low), low)
            self.mark_seen(name, table)
        if now:
            self.at_table[table.code] = set(now)
        else:
            self.at_table.pop(table.code, None)
        for seat in table.seats:
            if seat.human and seat.name:
                self.push_home(seat.name)

    def push_home(self, name: str) -> None:
        low = name.lower()
        if low in self.due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a plain test, a tool): at once
            self._send_home(name)
            return
        self.due.add(low)
        loop.call_later(HOME_PUSH_EVERY, self._send_home, name)

    def _send_home(self, name: str) -> None:
        self.due.discard(name.lower())
        for member in self.server.members_of(name):
            if member.table is None:  # at a table: a game is on their screen
                _send(member, {"ev": "home"})

    def your_move(self, table: HostTable, seat: int) -> None:
        name = table.seats[seat].name
        if not name or not table.seats[seat].human:
            return
        members = [m for m in self.server.members_of(name) if m.table is not table]
        if not members:
            return
        bell = table.code not in self.server.profiles.get(name).quiet
        notice = {"ev": "notice", "kind": "your_move", "code": table.code, "title": table.title,
                  "text": f"Your move at {table.code} ({table.title})", "bell": bell}
        for member in members:
            _send(member, notice)


def _send(member: Member, message: dict[str, Any]) -> None:
    from railgames.net.tables import event

    try:
        member.send(message)
    except Exception as exc:  # one broken connection never stops the others
        event("send_failed", player=member.login.name, error=repr(exc)[:300])


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


# Each table server's own (a test may run several, one after another).
HOMES: weakref.WeakKeyDictionary[TableServer, HomeTables] = weakref.WeakKeyDictionary()


@on_start
def setup(server: TableServer) -> None:
    home = HOMES[server] = HomeTables(server)
    server.service.listen(home.heard)


@op("home")
def home_request(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    """The player's tables (the request carries nothing else; anything more is ignored)."""
    return {"ok": True, "tables": HOMES[server].rows(member.login),
            "now": server.service.clock.now()}
