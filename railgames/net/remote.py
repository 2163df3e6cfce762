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
import os
import socket
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError
from railgames.core.events import Event
from railgames.core.table import Change, TurnIndex
from railgames.net.protocol import MAX_PUSH, ProtocolError, decode, encode, unpack

TABLES_ENV = "RAILGAMES_TABLES"
TOKEN_ENV = "RAILGAMES_TOKEN"


class HostGone(RailgamesError):
    pass


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
        self.closed = False
        self._reader = threading.Thread(target=self._read, daemon=True, name="railgames-link")
        self._reader.start()
        self.name = ""
        if token is not None:
            self.name = self.request({"op": "hello", "token": token})["name"]

    def login(self, name: str, password: str) -> None:
        """For a browser player: the table password, then the name they play under."""
        self.name = self.request({"op": "login", "name": name, "password": password})["name"]

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
            self.last_table = message
            if self.listener is not None:
                self.listener(message)
            return
        rid = message.get("id")
        with self._lock:
            entry = self._waiting.pop(rid, None) if isinstance(rid, int) else None
        if entry is not None:
            entry[1].append(message)
            entry[0].set()

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
        return list(self._seat.seen["events"])

    def result(self) -> Any:
        return self._seat.seen["result"]

    def prompt(self) -> Any:
        return self._seat.seen["prompt"]

    def undo_refusal(self, seat: int) -> str | None:
        return self._seat.seen.get("undo")

    def is_over(self) -> bool:
        return self._seat.seen["prompt"] is None


class RemoteSeat:
    """The game screen's table for one seat (or a watcher) at a table on the host."""

    remote = True

    def __init__(self, link: RemoteLink, message: dict[str, Any]) -> None:
        from railgames.games import load_ruleset

        self.link = link
        self.code = str(message["code"])
        self.table: dict[str, Any] = message
        self.seen: dict[str, Any] = unpack(message["view"])
        self.ruleset = load_ruleset(message["game"], self.seen["map"])
        self.game = _GameFacade(self)
        self.on_change: Callable[[], None] | None = None
        self.autosave = False

    @property
    def seat(self) -> int | None:
        you = self.table.get("you")
        return int(you) if isinstance(you, int) else None

    def update(self, message: dict[str, Any]) -> bool:
        """Take a newer message for this table; True when the view changed."""
        if message.get("code") != self.code:
            return False
        self.table = message
        if "view" in message:
            self.seen = unpack(message["view"])
            return True
        return False

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
        return list(self.seen["events"])

    def result(self) -> Any:
        return self.seen["result"]

    def submit(self, action: Mapping[str, Any] | Any) -> list[Event]:
        return self.apply(action)

    def mark(self) -> tuple[int, int]:
        return int(self.table.get("version", 0)), len(self.seen["events"])

    def changes(self, mark: tuple[int, int]) -> Change:
        version, logged = mark
        events = self.seen["events"]
        if int(self.table.get("version", 0)) < version or len(events) < logged:
            return Change(full=True)  # a move was taken back
        return Change(full=False, events=tuple(events[logged:]))

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
        # The host pushes the new view before it answers, so the last one is current.
        latest = self.link.last_table
        if latest is not None and latest.get("code") == self.code:
            self.update(latest)

    def bot_step(self) -> list[Event]:
        return []

    def save(self) -> Path:
        return Path(str(self.table.get("file", "")))

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
        self.log: list[Event] = list(unpack(answer["events"]))
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
        self._seen[position] = unpack(answer["at"])
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

