"""What a host's table is: its seats, who is at it, its game; and the host's log lines.

A table's truth is its record (kept by the table store, ``store``); the state
is what replaying it gives, so a restarted host brings its tables back as
they were. The service (``service``) puts the parts together: the lobby
(``lobby``: making, joining and leaving tables), the store, the bots
(``botrunner``) and what each member is sent (``feed``).

Nothing here touches sockets or terminals: a ``Member`` is anyone at a table
(one app process), reached through its ``send`` callable.
"""

from __future__ import annotations

import asyncio
import logging
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from railgames.core.bots import Bot
from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.games import ruleset_class
from railgames.net.pace import LIVE, Pace

log = logging.getLogger("railgames.host")

CODE_LETTERS = "".join(c for c in string.ascii_uppercase if c not in "IOQ")  # nothing to misread
BOT_NAMES = ["Otto", "Ada", "Rex", "Ivy", "Max", "Una"]
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,23}$")
# The bots a table may seat (search thinks about 1 s a move; easy 0.3 s, hard 2 s).
TABLE_BOTS = ("random", "greedy", "search", "search:easy", "search:hard")


def name_problem(name: str) -> str | None:
    if NAME_RE.match(name):
        return None
    return ("a player's name is 1 to 24 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit")


def invited_names(names: list[Any], besides: str | None = None) -> list[str]:
    """The names a private table invites, each checked (one line, naming it, for one that
    cannot be), without repeats; ``besides``: its creator, first among them. At most
    ``tablefile.MAX_INVITED`` in all."""
    from railgames.net.tablefile import MAX_INVITED

    kept: list[str] = [besides] if besides else []
    for name in names:
        if not isinstance(name, str):
            raise MalformedAction("an invited name is text")
        name = name.strip()
        if not name:
            continue
        problem = name_problem(name)
        if problem:
            shown = "".join(c if c.isprintable() else "?" for c in name[:30])
            raise IllegalAction(f"cannot invite '{shown}': {problem}")
        if name.lower() not in {k.lower() for k in kept}:
            kept.append(name)
    if len(kept) + (0 if besides else 1) > MAX_INVITED:
        raise IllegalAction(f"a table invites at most {MAX_INVITED - 1} names besides yours")
    return kept


def event(kind: str, **fields: Any) -> None:
    """One structured log line (the host's handler writes it as JSON)."""
    log.info(kind, extra={"fields": {"event": kind, **fields}})


@dataclass
class Login:
    """Who is behind an app process: the SSH login name and key (if they used one)."""

    name: str
    key: str | None = None
    peer: str = ""
    former: tuple[str, ...] = ()  # this player's names before a rename: those seats are theirs
    unclaimed: bool = False  # in with the table password under a name nobody owns yet

    @property
    def names(self) -> set[str]:
        """Every name this player's seats may be under, lower case: now, and before a rename."""
        return {self.name.lower(), *(n.lower() for n in self.former)}


@dataclass(eq=False)
class Member:
    login: Login
    send: Callable[[dict[str, Any]], None]
    table: HostTable | None = None
    seat: int | None = None  # None: watching
    history: Any = None  # the Recording this member is stepping through, if any
    # Why the member's last move was not kept after all (another host's came first).
    lost: str | None = None
    # What this member has been sent of its table, so that only what changed is sent next.
    sent: Any = None

    @property
    def person(self) -> bool:
        """Sitting in a seat of the table (not watching)."""
        return self.table is not None and self.seat is not None


@dataclass
class Seat:
    name: str
    kind: str = "human"  # "human", or the bot kind sitting in it from the start
    key: str | None = None  # a seat first taken with a key is kept for that key
    bot_taken: bool = False  # a bot plays it while its player is away
    empty_since: float | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def kept(self) -> dict[str, Any]:
        """What the table's store keeps of this seat."""
        return {"name": self.name, "kind": self.kind, "key": self.key, "bot_taken": self.bot_taken}


@dataclass(eq=False)
class HostTable:
    """A table the host keeps: its seats, who sits and watches, its game and its bots.

    (What a game screen plays against is a ``railgames.tables.table.Table``: one
    terminal's side of a table like this, reached through ``RemoteSeat``.)
    """

    code: str
    game_id: str
    seats: list[Seat]  # humans first join in order; the named ones are taken
    humans: int
    bot_kind: str = "greedy"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    map_id: str | None = None  # None: the game's default board
    game: Game | None = None
    members: list[Member] = field(default_factory=list)
    bots: list[Bot] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    # The store's writes of this table not yet done (each is shown once it is kept).
    pending: asyncio.Future[None] | None = None
    kept_seats: list[dict[str, Any]] | None = None  # the seats as the store last kept them
    tracks: dict[Any, Any] = field(default_factory=dict)  # what the feed sent, by view (feed.Track)
    pace: Pace = LIVE
    private: bool = False  # not listed: joined by the names invited (and its own players)
    invited: list[str] = field(default_factory=list)
    talk: str = "everyone"  # who may write at its chat: "players" or "everyone"
    hints: bool = True  # whether its players may ask for advice on a move (H)
    again_of: str | None = None  # the table this one plays again
    chat: list[dict[str, Any]] = field(default_factory=list)  # kept lines, oldest first
    # The move the table waits for began at ``moved_at`` (clock seconds); ``timed_out`` is
    # how many actions had been played when a move last ran out of time (-1: none yet).
    moved_at: float = 0.0
    timed_out: int = -1
    # The seat a bot plays because its move ran out of time (timeouts "bot"): until the
    # seat to move is another, or its player acts again (None: no seat).
    stand_in: int | None = None
    # The seat to move and actions played when the service last said whose turn it is.
    announced: tuple[int | None, int] | None = None
    # Where the store is, for this table: ``version`` counts the changes this host has made
    # or seen (its writes under way included), ``kept`` those the store has confirmed.
    version: int = 0
    kept: int = 0
    # Several hosts sharing a database (see service.py): the changes sent to the store and
    # not yet confirmed, with who made each; the repairs made (a write refused because
    # another host changed the table first starts a new one); the seats whose players sit
    # at another host; and whether another host runs this table's bots and clocks.
    unsent: list[tuple[dict[str, Any], Member | None]] = field(default_factory=list)
    epoch: int = 0
    heard: int = 0  # the latest version other hosts said the table is at
    stale: bool = False  # perhaps changed elsewhere unheard (the link was cut): read it
    elsewhere: set[int] = field(default_factory=set)
    led_elsewhere: bool = False

    @property
    def title(self) -> str:
        return ruleset_class(self.game_id).title

    @property
    def status(self) -> str:
        if self.game is None:
            return "waiting"
        return "over" if self.game.is_over() else "playing"

    def seated(self) -> list[Seat]:
        return [s for s in self.seats if s.name]

    def free_human_seats(self) -> int:
        return sum(1 for s in self.seats if s.human and not s.name)

    def member_at(self, seat: int) -> Member | None:
        for m in self.members:
            if m.seat == seat:
                return m
        return None

    def people_here(self) -> int:
        """How many players sit here now, at their own terminals (watchers not counted), at
        this host or another sharing its tables."""
        here = {m.seat for m in self.members if m.seat is not None}
        return len(here | self.elsewhere)

    def connected(self, seat: int) -> bool:
        """Whether the player of ``seat`` is at a terminal now (at this host or another)."""
        return self.member_at(seat) is not None or seat in self.elsewhere

    def bot_moves(self, seat: int) -> bool:
        s = self.seats[seat]
        return not s.human or s.bot_taken or seat == self.stand_in

    def header(self) -> dict[str, Any]:
        """The table's settings and seats, as its store keeps them first."""
        return {"code": self.code, "game": self.game_id, "humans": self.humans,
                "bot_kind": self.bot_kind, "options": self.options, "seed": self.seed,
                "map": self.map_id, "seats": self.seats_kept(),
                "pace": self.pace.model_dump(mode="json"), "private": self.private,
                "invited": list(self.invited), "talk": self.talk, "hints": self.hints,
                "again_of": self.again_of}

    def to_move(self) -> int | None:
        """The seat whose move it is (None: waiting for players, or over)."""
        if self.game is None:
            return None
        seat = self.game.ruleset.to_move(self.game.state)
        return None if seat is None else int(seat)

    def played(self) -> int:
        return 0 if self.game is None else len(self.game.record.actions)

    def seat_of(self, name: str) -> int | None:
        """The seat a person called ``name`` sits in here."""
        low = name.lower()
        return next((i for i, s in enumerate(self.seats)
                     if s.human and s.name and s.name.lower() == low), None)

    def may_join(self, login: Login) -> bool:
        """Whether ``login`` may sit or watch here: anyone at a listed table; at a private
        one, its invited names and its seated players."""
        if not self.private:
            return True
        names = login.names
        return bool(names & {n.lower() for n in self.invited}) or any(
            s.name.lower() in names for s in self.seats if s.human and s.name)

    def extras(self) -> list[dict[str, Any]]:
        """What the store keeps of the table besides its record: chat lines, and the last
        timeout of the move it waits for (written again when the log is compacted)."""
        entries: list[dict[str, Any]] = [{"chat": line} for line in self.chat]
        if self.timed_out >= 0:
            bot = {"seat": self.stand_in, "did": "bot"} if self.stand_in is not None else {}
            entries.append({"timeout": {"played": self.timed_out, **bot}})
        return entries

    def seats_kept(self) -> list[dict[str, Any]]:
        return [s.kept() for s in self.seats]

    def to_dict(self) -> dict[str, Any]:
        """The whole table as one JSON object (a table file of format 1)."""
        return {"format": 1, **self.header(),
                "record": None if self.game is None else self.game.record.model_dump(mode="json")}
