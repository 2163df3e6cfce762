"""One seat at a table held by the host, as the game screen plays against it.

``RemoteSeat`` answers the table's questions (state, prompt, players, events,
result) from the view the host last sent for this seat; ``submit`` and ``undo``
are requests to the host, whose rules layer decides. Nothing here decides
legality, and nothing here ever holds another seat's secrets. The host keeps the
table after every move and moves its bots: this side saves nothing and moves no bot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from railgames.core.errors import IllegalAction, RailgamesError
from railgames.core.events import Event
from railgames.core.record import MAX_STRING
from railgames.net.protocol import PROMPT_HERE
from railgames.net.remote import RemoteLink
from railgames.net.wire import class_named, made
from railgames.net.wire import decode as from_wire
from railgames.tables.table import BotsElsewhere, Change, SavesElsewhere, TableTalk, TurnIndex


class SeatView:
    """One seat's view of a table, put together from the host's messages.

    The host sends everything once, then only what changed (see ``feed``): parts
    of the state, new events, and the prompt, result, players and undo answer when
    they change. ``seen`` reads as the whole view: ``state``, ``events``,
    ``prompt``, ``result``, ``players``, ``undo``, ``record`` and ``map``.
    """

    def __init__(self, map_id: str | None, ruleset: Any = None) -> None:
        self.ruleset = ruleset  # for a prompt the host leaves to this side (``PROMPT_HERE``)
        self.prompt_here = False
        self.cls: type | None = None
        self.log_field = ""
        self.fields: dict[str, Any] = {}
        self.events: list[Event] = []  # the view's log (what this seat may see of the game's)
        self.epoch = 0  # one more each time the log is sent whole again
        self.seen: dict[str, Any] = {"map": map_id, "state": None, "events": self.events,
                                     "prompt": None, "result": None, "players": [],
                                     "undo": None, "record": None}

    def take(self, view: Mapping[str, Any]) -> None:
        """Bring the view up to date with one message's ``view``."""
        if view.get("reset"):
            self.fields = {}
            self.seen.update(prompt=None, result=None, undo=None)
        if view.get("reset") or view.get("events_reset"):
            self.events = []
            self.seen["events"] = self.events
            self.epoch += 1
        if view.get("cls"):
            self.cls = class_named(str(view["cls"]))
        if view.get("map"):
            self.seen["map"] = str(view["map"])
        self.log_field = str(view.get("log", self.log_field))
        for name, value in dict(view.get("parts") or {}).items():
            self.fields[name] = from_wire(value)
        for name, patch in dict(view.get("patches") or {}).items():
            entries = dict(self.fields.get(name) or {})  # a new dict: states shown keep theirs
            for key in patch.get("del", ()):
                entries.pop(from_wire(key), None)
            for key, value in patch.get("set", ()):
                entries[from_wire(key)] = from_wire(value)
            self.fields[name] = entries
        self.events.extend(from_wire(view.get("events") or []))
        for name in ("prompt", "result", "players", "undo", "record"):
            if name in view:
                self.seen[name] = from_wire(view[name])
        if "prompt" in view:
            self.prompt_here = view["prompt"] == PROMPT_HERE
        if self.cls is not None:
            fields = dict(self.fields)
            if self.log_field:
                fields[self.log_field] = self.events
            state = made(self.cls, fields)
            self.seen["state"] = state
            if self.prompt_here:
                if self.ruleset is None:
                    from railgames.games import load_ruleset

                    self.ruleset = load_ruleset(str(view["game"]), self.seen["map"])
                self.seen["prompt"] = self.ruleset.prompt(state)


class RemoteSeat(BotsElsewhere, SavesElsewhere):
    """The game screen's table for one seat (or a watcher) at a table on the host.

    This terminal is one seat's (``seat``; None: watching), never passed between
    people; the host keeps the table after every move, so nothing is saved here.
    """

    read_only = False
    shared = False
    can_save = False

    def __init__(self, link: RemoteLink, message: dict[str, Any]) -> None:
        from railgames.games import load_ruleset

        self.link = link
        self.code = str(message["code"])
        self.table: dict[str, Any] = message
        # The view as all the table's messages so far make it (one message may hold only
        # what changed); later messages, numbered, are taken once each.
        so_far = getattr(link, "view_so_far", None)
        self.seq: int
        view: dict[str, Any] | None
        self.seq, view = so_far(self.code) if so_far is not None else (0, None)
        if view is None:
            view = message["view"]
            self.seq = int(message.get("seq", 0))
        else:
            latest = link.last_table
            if latest is not None and latest.get("code") == self.code:
                self.table = latest
        self.ruleset = load_ruleset(message["game"], view.get("map"))
        self._view = SeatView(None, self.ruleset)
        self._view.take(view)
        self.seen = self._view.seen
        # The table's talk, where the link carries it (a host's link does).
        self.lesson: Any = None  # a host's table is never a tutorial
        self.talk: TableTalk | None = (SeatTalk(link, self.code)
                                       if hasattr(link, "talk_so_far") else None)

    @property
    def seat(self) -> int | None:
        you = self.table.get("you")
        return int(you) if isinstance(you, int) else None

    def update(self, message: dict[str, Any]) -> bool:
        """Take a newer message for this table; True when what the screen shows changed."""
        if message.get("code") != self.code:
            return False
        seq = int(message.get("seq", 0))
        if seq and seq <= self.seq:
            return False  # already taken into the view this seat started from
        self.seq = seq or self.seq
        seats_changed = message.get("seats") != self.table.get("seats")
        self.table = message
        if "view" in message:
            self._view.take(message["view"])
            return True
        return seats_changed

    # --- the table interface every game screen plays against (railgames.tables.table)
    @property
    def players(self) -> list[Any]:
        return list(self.seen["players"])

    @property
    def bot_kind(self) -> str | None:
        """The kind of bot the table's bot seats are (None: the host did not say)."""
        from typing import get_args

        from railgames.core.record import PlayerKind

        kind = self.table.get("bot_kind")
        return kind if kind in get_args(PlayerKind) and kind != "human" else None

    @property
    def record(self) -> Any:
        """The whole record, sent once the game is over (None before: the host keeps it)."""
        return self.seen.get("record")

    def view(self, seat: int | None) -> Any:
        """This seat's view: the only one this process ever receives."""
        return self.seen["state"]

    def events_for(self, seat: int | None) -> list[Event]:
        """The events of the log this seat may see (once a game of secrets is over its
        view's log holds everyone's, but the log shown stays the seat's own)."""
        mine = self.seat
        return [e for e in self.seen["events"] if e.visible(mine)]

    def result(self) -> Any:
        return self.seen["result"]

    def mark(self) -> tuple[int, int, int, int]:
        # The last is the number of the last message taken: whatever it changed (seats
        # too), the mark changes.
        return (int(self.table.get("version", 0)), self._view.epoch, len(self.seen["events"]),
                self.seq)

    def changes(self, mark: tuple[int, int, int, int]) -> Change:
        version, epoch, logged, _ = mark
        events = self.seen["events"]
        if int(self.table.get("version", 0)) < version or epoch != self._view.epoch \
                or len(events) < logged:
            return Change(full=True)  # a move was taken back, or the log sent anew
        mine = self.seat
        return Change(full=False, events=tuple(e for e in events[logged:] if e.visible(mine)))

    @property
    def state(self) -> Any:
        """This seat's view, as ``view``."""
        return self.seen["state"]

    def prompt(self) -> Any:
        return self.seen["prompt"]

    def is_over(self) -> bool:
        return self.seen["prompt"] is None

    def played(self) -> int:
        """The record's length once it is here; before, the table's version the host sends."""
        record = self.seen.get("record")
        if record is None:
            return int(self.table.get("version", 0))
        return len(record.actions)

    def is_bot(self, seat: int) -> bool:
        return bool(self.seen["players"][seat].is_bot)

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.seen["players"]) if not p.is_bot]

    def why_not_undo(self, seat: int) -> str | None:
        """The host's answer for this seat, sent with the view."""
        return self.seen.get("undo")  # type: ignore[no-any-return]

    def why_no_hint(self) -> str | None:
        """As the host's table was set up: hints allowed (the default) or not."""
        if self.table.get("hints", True) is False:
            return "hints are off at this table: its host set it up for a game without them"
        return None

    def away(self) -> list[int]:
        """The people's seats whose players are not at the table now."""
        seats = self.table.get("seats") or []
        return [i for i, s in enumerate(seats)
                if s.get("kind") == "human" and s.get("name") and not s.get("connected")]

    # --- changes: the host decides
    def submit(self, action: Mapping[str, Any] | Any) -> list[Event]:
        if not isinstance(action, Mapping):
            action = action.model_dump(mode="json")
        self.link.request({"op": "act", "action": dict(action)})
        self._catch_up()
        return []

    def undo(self, seat: int) -> None:
        self.link.request({"op": "undo"})
        self._catch_up()

    def _catch_up(self) -> None:
        """Take every message the host pushed before it answered, in order (the screen's
        listener may not have been given them yet; it skips them when it is)."""
        after = getattr(self.link, "messages_after", None)
        if after is None:
            return
        missed = after(self.code, self.seq)
        if missed is None:  # too many to find one by one: start from the view so far
            self.seq, view = self.link.view_so_far(self.code)
            if view is not None:
                self._view.take(view)
            return
        for message in missed:
            self.update(message)

    def save(self) -> None:
        """The host keeps the table; nothing is saved on this side."""
        return None

    def history(self, seat: int | None, reveal_all: bool) -> RemoteHistory:
        """The host replays the game for this seat and keeps the record (its seed decides
        every draw to come): this terminal gets what the seat may see, whatever is asked."""
        return RemoteHistory.open(self)

    def close(self) -> None:
        """Nothing to let go of here: the host keeps the table, its record and its file."""


class SeatTalk:
    """The talk at the host's table this seat is at (``TableTalk``): what the host has
    pushed of it, read from the link; a line said is a request, which the host may refuse
    (too long, too fast, a watcher where only the players talk)."""

    def __init__(self, link: RemoteLink, code: str) -> None:
        self.link = link
        self.code = code

    @property
    def lines(self) -> list[dict[str, Any]]:
        return list(self.link.talk_so_far(self.code).lines)

    @property
    def heard(self) -> int:
        return self.link.talk_so_far(self.code).heard

    @property
    def here(self) -> dict[str, list[str]]:
        talk = self.link.talk_so_far(self.code)
        return {"players": talk.players, "watching": talk.watching}

    def say(self, text: str) -> None:
        if len(text) > MAX_STRING:  # the host would not read it: said here, at once
            raise IllegalAction(f"that line is too long: at most {MAX_STRING} characters")
        self.link.request({"op": "say", "text": text})


class RemoteHistory(TurnIndex):
    """The History of a game at a host's table, for one seat: a read-only recording.

    The host replays the game and keeps the recording; this side holds the events
    the seat may see and the turn at each position, and asks for one position's
    view at a time (kept once seen, so stepping back and forth is quick). The
    record itself, whose seed decides every draw to come, never leaves the host.
    """

    read_only = True
    reveal_all = False

    def __init__(self, seat: RemoteSeat, answer: dict[str, Any]) -> None:
        self._seat = seat
        self.link = seat.link
        self.ruleset = seat.ruleset
        self.seat = seat.seat
        self._players = list(seat.players)
        self.length = int(answer["length"])
        self._turns = [int(t) for t in answer["turns"]]
        self.log: list[Event] = list(from_wire(answer["events"]))
        self._seen: dict[int, dict[str, Any]] = {}
        self.position = self._take(answer)

    @classmethod
    def open(cls, seat: RemoteSeat) -> RemoteHistory:
        return cls(seat, seat.link.request({"op": "history"}))

    def close(self) -> None:
        try:
            self.link.request({"op": "history_close"})
        except RailgamesError:
            pass

    def _take(self, answer: dict[str, Any]) -> int:
        position = int(answer["position"])
        self._seen[position] = from_wire(answer["at"])
        return position

    @property
    def _at(self) -> dict[str, Any]:
        return self._seen[self.position]

    # --- moving
    def seek(self, position: int) -> None:
        position = max(0, min(self.length, position))
        if position not in self._seen:
            position = self._take(self.link.request({"op": "history_at", "position": position}))
        self.position = position

    # --- what the viewer reads (the Table interface, read-only)
    @property
    def players(self) -> list[Any]:
        return self._players

    @property
    def state(self) -> Any:
        return self._at["state"]

    def view(self, seat: int | None = None) -> Any:
        return self._at["state"]

    def prompt(self) -> Any:
        return self._at["prompt"]

    def result(self) -> Any:
        return self._at["result"]

    def all_events(self) -> list[Event]:
        return list(self.log)

    def events_for(self, seat: int | None = None) -> list[Event]:
        return [e for e in self.log if e.action < self.position]

    def events_between(self, start: int, end: int) -> list[Event]:
        return [e for e in self.log if start <= e.action < end]

    def submit(self, action: Any) -> list[Event]:
        raise IllegalAction("this is the game's history: nothing can be played here")

    def undo(self, seat: int) -> None:
        raise IllegalAction("this is the game's history: step back with \u2190 instead")

