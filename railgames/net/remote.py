"""A seat at a table held by the host, seen from one app process.

``RemoteLink`` is the app process's connection to the host's table socket: a
reader thread takes the host's messages, answers go back to the request that
asked, and table changes go to whoever listens (the game screen).

The seat itself, the table the game screen plays against, is
``railgames.tables.remote.RemoteSeat``; it reads the views ``merge_view`` puts
together here.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError
from railgames.net.protocol import MAX_PUSH, ProtocolError, decode, encode
from railgames.net.talkline import clean

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
        # Each table's talk as the host has pushed it (its recent lines, who is there).
        self._talk: dict[str, TalkSoFar] = {}
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
        if message.get("ev") in ("chat", "here"):  # talk at a table, and who is there
            code = message.get("code")
            if isinstance(code, str):
                with self._lock:
                    self._talk.setdefault(code, TalkSoFar()).take(message)
                if self.listener is not None:
                    self.listener(message)
            return
        if message.get("ev") == "kicked":  # the host's operator ended this session
            self.kicked = str(message.get("reason", ""))[:300]
            if self.listener is not None:
                self.listener(message)
            return
        rid = message.get("id")
        if rid is None and isinstance(message.get("ev"), str):
            # Told without asking (a notice, a change at another table): for the app.
            if self.listener is not None:
                self.listener(message)
            return
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
            self._talk.pop(code, None)

    def talk_so_far(self, code: str) -> TalkSoFar:
        """Table ``code``'s talk as the host has pushed it so far (a copy)."""
        with self._lock:
            return self._talk.get(code, TalkSoFar()).copy()

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


class TalkSoFar:
    """A table's talk as its pushed messages make it: the recent lines (each made plain
    again here: ``talkline.clean``), how many have been heard, and who is there.

    What the host pushes is taken as it comes, but only in the shapes it sends; anything
    else is left out, so nothing a host sends can break the screen that shows it."""

    KEEP = 50  # lines kept

    def __init__(self) -> None:
        self.lines: deque[dict[str, Any]] = deque(maxlen=self.KEEP)
        self.heard = 0  # lines heard since the table was joined (new ones are marked)
        self.players: list[str] = []
        self.watching: list[str] = []

    def copy(self) -> TalkSoFar:
        made = TalkSoFar()
        made.lines.extend(self.lines)
        made.heard, made.players, made.watching = self.heard, list(self.players), \
            list(self.watching)
        return made

    def take(self, message: dict[str, Any]) -> None:
        if message.get("ev") == "here":
            self.players = _names(message.get("players"))
            self.watching = _names(message.get("watching"))
            return
        lines = message.get("lines")
        if isinstance(lines, list):  # the recent lines, sent to one new at the table
            self.lines.clear()
            for line in lines[-self.KEEP:]:
                self._line(line)
        else:
            self._line(message.get("line"))

    def _line(self, line: Any) -> None:
        if not isinstance(line, dict):
            return
        name, text, seat = line.get("name"), line.get("text"), line.get("seat")
        if not isinstance(name, str) or not isinstance(text, str):
            return
        if not (seat is None or (type(seat) is int and 0 <= seat < 16)):
            seat = None
        name, text = clean(name)[:24], clean(text)[:300]
        if name and text:
            self.lines.append({"name": name, "text": text, "seat": seat})
            self.heard += 1


def _names(value: Any) -> list[str]:
    from railgames.net.talkline import clean

    if not isinstance(value, list):
        return []
    return [clean(v)[:24] for v in value[:64] if isinstance(v, str) and clean(v)]


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
