"""A seat at a table held by the host, seen from one app process.

``RemoteLink`` is the app process's connection to the host's table socket: a
reader thread takes the host's messages, answers go back to the request that
asked, and table changes go to whoever listens (the game screen).

``RemoteSeat`` is the table the game screen plays against: the same questions
as the hot-seat ``Session`` (state, prompt, players, events, result) answered
from the view the host last sent for this seat; ``apply`` and ``undo`` are
requests to the host, whose rules layer decides. Nothing here decides legality,
and nothing here ever holds another seat's secrets.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import threading
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError
from railgames.core.events import Event
from railgames.core.table import Change, TurnIndex
from railgames.net.protocol import MAX_PUSH, PROMPT_HERE, ProtocolError, decode, encode
from railgames.net.wire import class_named, made
from railgames.net.wire import decode as from_wire

TABLES_ENV = "RAILGAMES_TABLES"
TOKEN_ENV = "RAILGAMES_TOKEN"
PEER_ENV = "RAILGAMES_PEER"  # a browser's address ('railgames serve' sets it)


class HostGone(RailgamesError):
    pass


class Ended(HostGone):
    """The host has ended this session on purpose; the reason says why (one line)."""


class RemoteLink:
    def __init__(self, socket_path: str, token: str | None, timeout: float = 15.0) -> None:
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(socket_path)
        self.sock.settimeout(None)
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[threading.Event, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()
        self.listener: Callable[[dict[str, Any]], None] | None = None
        self.last_table: dict[str, Any] | None = None
        # Each table's view so far, every message of it merged (still JSON), and how many
        # table messages have come: a seat opened late starts from here, not from one
        # message that holds only what changed.
        self._views: dict[Any, dict[str, Any]] = {}
        self._seq = 0
        self._recent: deque[dict[str, Any]] = deque(maxlen=256)  # the last table messages
        self.kicked: str | None = None
        self.closed = False
        self._reader = threading.Thread(target=self._read, daemon=True, name="railgames-link")
        self._reader.start()
        self.name = ""
        # A new name, in with the table password: its passphrase is chosen before anything else.
        self.choose = False
        if token is not None:
            answer = self.request({"op": "hello", "token": token})
            self.name, self.choose = answer["name"], bool(answer.get("choose"))

    def login(self, name: str, password: str, peer: str = "") -> None:
        """For a browser player: the name they play under, and its passphrase (or, for a
        name nobody owns yet, the table password). ``peer``: the browser's address."""
        answer = self.request({"op": "login", "name": name, "password": password, "peer": peer})
        self.name, self.choose = answer["name"], bool(answer.get("choose"))

    def claim(self, passphrase: str) -> None:
        """Make the name ours: from now on ``passphrase`` logs in under it."""
        self.request({"op": "claim", "passphrase": passphrase})
        self.choose = False

    @classmethod
    def from_env(cls) -> RemoteLink | None:
        path, token = os.environ.get(TABLES_ENV), os.environ.get(TOKEN_ENV)
        if not path or not token:
            return None
        return cls(path, token)

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    break
                buffer += chunk
                if len(buffer) > MAX_PUSH:
                    break
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    try:
                        self._dispatch(decode(line, from_host=True))
                    except ProtocolError:
                        continue
        except OSError:
            pass
        self.closed = True
        with self._lock:
            waiting = list(self._waiting.values())
        for done, box in waiting:
            box.append({"ok": False, "reason": "the host has gone away"})
            done.set()
        if self.listener is not None:
            self.listener({"ev": "gone"})

    def _dispatch(self, message: dict[str, Any]) -> None:
        if message.get("ev") == "table":
            with self._lock:
                self._seq += 1
                message["seq"] = self._seq
                code = message.get("code")
                if isinstance(message.get("view"), dict):
                    self._views[code] = merge_view(self._views.get(code), message["view"])
                self.last_table = message
                self._recent.append(message)
            if self.listener is not None:
                self.listener(message)
            return
        if message.get("ev") == "kicked":  # the host's operator ended this session
            self.kicked = str(message.get("reason", ""))[:300]
            if self.listener is not None:
                self.listener(message)
            return
        rid = message.get("id")
        with self._lock:
            entry = self._waiting.pop(rid, None) if isinstance(rid, int) else None
        if entry is not None:
            entry[1].append(message)
            entry[0].set()

    def view_so_far(self, code: str) -> tuple[int, dict[str, Any] | None]:
        """Table ``code``'s view as every message so far has made it, and the number of the
        last table message taken into it."""
        with self._lock:
            view = self._views.get(code)
            return self._seq, (merge_view(None, view) if view is not None else None)

    def forget(self, code: str) -> None:
        """Let go of table ``code``'s view (its player has left it)."""
        with self._lock:
            self._views.pop(code, None)

    def messages_after(self, code: str, seq: int) -> list[dict[str, Any]] | None:
        """Table ``code``'s messages numbered after ``seq``, in order; None if some of
        them are no longer kept."""
        with self._lock:
            recent = list(self._recent)
        if recent and recent[0]["seq"] > seq + 1:
            return None
        return [m for m in recent if m["seq"] > seq and m.get("code") == code]

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send and wait for the answer; a refusal raises with the host's reason."""
        if self.closed:
            raise HostGone("the host has gone away")
        rid = next(self._ids)
        done, box = threading.Event(), []  # type: ignore[var-annotated]
        with self._lock:
            self._waiting[rid] = (done, box)
        try:
            self.sock.sendall(encode({**message, "id": rid}))
        except OSError:
            raise HostGone("the host has gone away") from None
        if not done.wait(self.timeout):
            with self._lock:
                self._waiting.pop(rid, None)
            raise HostGone("the host did not answer in time")
        answer: dict[str, Any] = box[0]
        if not answer.get("ok"):
            reason = str(answer.get("reason", "refused"))
            if answer.get("end"):
                raise Ended(reason)
            if reason.startswith("not a ") or "there is no seat" in reason:
                raise MalformedAction(reason)
            raise IllegalAction(reason)
        return answer

    def close(self) -> None:
        self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class _GameFacade:
    """The parts of ``Game`` the screens read, answered from this seat's view."""

    def __init__(self, seat: RemoteSeat) -> None:
        self._seat = seat

    @property
    def players(self) -> list[Any]:
        return self._seat.seen["players"]

    @property
    def record(self) -> Any:
        """The whole record, sent once the game is over (None before: the host keeps it)."""
        return self._seat.seen.get("record")

    @property
    def ruleset(self) -> Any:
        return self._seat.ruleset

    def view(self, seat: int | None) -> Any:
        return self._seat.seen["state"]

    def events_for(self, seat: int | None) -> list[Event]:
        return self._seat.events_for(seat)

    def result(self) -> Any:
        return self._seat.seen["result"]

    def prompt(self) -> Any:
        return self._seat.seen["prompt"]

    def undo_refusal(self, seat: int) -> str | None:
        return self._seat.seen.get("undo")

    def is_over(self) -> bool:
        return self._seat.seen["prompt"] is None


def merge_view(so_far: dict[str, Any] | None, view: dict[str, Any]) -> dict[str, Any]:
    """A view message taken into the view so far (both as JSON): the whole view that the
    two make, as one message marked ``reset``."""
    if so_far is None or view.get("reset"):
        merged = {**view, "parts": dict(view.get("parts") or {}), "patches": {},
                  "events": list(view.get("events") or []), "reset": True}
        merged.pop("events_reset", None)
        for name, patch in dict(view.get("patches") or {}).items():
            merged["parts"][name] = _patched(merged["parts"].get(name), patch)
        return merged
    merged = so_far
    merged["parts"].update(view.get("parts") or {})
    for name, patch in dict(view.get("patches") or {}).items():
        merged["parts"][name] = _patched(merged["parts"].get(name), patch)
    if view.get("events_reset"):
        merged["events"] = list(view.get("events") or [])
    else:
        merged["events"].extend(view.get("events") or [])
    for name, value in view.items():
        if name not in ("parts", "patches", "events", "events_reset", "reset"):
            merged[name] = value
    return merged


def _patched(encoded: Any, patch: dict[str, Any]) -> Any:
    """An encoded dict (as ``wire.encode`` makes it) with a patch's entries set and deleted,
    still encoded."""
    if isinstance(encoded, dict) and "#m" in encoded:
        pairs = [list(pair) for pair in encoded["#m"]]
    elif isinstance(encoded, dict):
        pairs = [[k, v] for k, v in encoded.items()]
    else:
        pairs = []
    gone = {json.dumps(k, sort_keys=True) for k in patch.get("del", ())}
    pairs = [pair for pair in pairs if json.dumps(pair[0], sort_keys=True) not in gone]
    where = {json.dumps(pair[0], sort_keys=True): i for i, pair in enumerate(pairs)}
    for key, value in patch.get("set", ()):
        at = where.get(json.dumps(key, sort_keys=True))
        if at is None:
            where[json.dumps(key, sort_keys=True)] = len(pairs)
            pairs.append([key, value])
        else:
            pairs[at][1] = value
    return {"#m": pairs}


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


class RemoteSeat:
    """The game screen's table for one seat (or a watcher) at a table on the host."""

    remote = True

    def __init__(self, link: RemoteLink, message: dict[str, Any]) -> None:
        from railgames.games import load_ruleset

        self.link = link
        self.code = str(message["code"])
        self.table: dict[str, Any] = message
        # The view as all the table's messages so far make it (one message may hold only
        # what changed); later messages, numbered, are taken once each.
        so_far = getattr(link, "view_so_far", None)
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
        self.game = _GameFacade(self)
        self.on_change: Callable[[], None] | None = None
        self.autosave = False

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

    # --- the table interface every game screen plays against (view, prompt, submit, undo,
    # and what changed since a mark)
    read_only = False

    @property
    def players(self) -> list[Any]:
        return list(self.seen["players"])

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

    def submit(self, action: Mapping[str, Any] | Any) -> list[Event]:
        return self.apply(action)

    def mark(self) -> tuple[int, int, int]:
        return int(self.table.get("version", 0)), self._view.epoch, len(self.seen["events"])

    def changes(self, mark: tuple[int, int, int]) -> Change:
        version, epoch, logged = mark
        events = self.seen["events"]
        if int(self.table.get("version", 0)) < version or epoch != self._view.epoch \
                or len(events) < logged:
            return Change(full=True)  # a move was taken back, or the log sent anew
        mine = self.seat
        return Change(full=False, events=tuple(e for e in events[logged:] if e.visible(mine)))

    # --- what Session answers
    @property
    def state(self) -> Any:
        return self.seen["state"]

    def prompt(self) -> Any:
        return self.seen["prompt"]

    def name(self, seat: int) -> str:
        return str(self.seen["players"][seat].name)

    def is_bot(self, seat: int) -> bool:
        return bool(self.seen["players"][seat].is_bot)

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.seen["players"]) if not p.is_bot]

    def bot_to_move(self) -> bool:
        return False  # the host moves the bots

    def connected(self, seat: int) -> bool:
        seats = self.table.get("seats") or []
        return bool(seat < len(seats) and seats[seat].get("connected"))

    def away(self) -> list[int]:
        """The people's seats whose players are not at the table now."""
        seats = self.table.get("seats") or []
        return [i for i, s in enumerate(seats)
                if s.get("kind") == "human" and s.get("name") and not s.get("connected")]

    # --- changes: the host decides
    def apply(self, action: Mapping[str, Any] | Any, *, save: bool = True) -> list[Event]:
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

    def bot_step(self) -> list[Event]:
        return []

    def save(self) -> None:
        """The host keeps the table; nothing is saved on this side."""
        return None

    def save_if_auto(self) -> None:
        pass

    def close(self) -> None:
        """Nothing to let go of here: the host keeps the table, its record and its file."""

    def leave(self) -> None:
        try:
            self.link.request({"op": "leave"})
        except RailgamesError:
            pass


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

