"""What each member of a table is sent: small JSON messages saying what changed.

A member's first message about a table holds all it may see: its seat's view
of the state, the events of that view's log, the prompt (another seat's
choices left out), the result, the players. After that each message holds only
what changed since the last one sent to that member: the parts of the view
that changed (a part that is a dict, such as the track on the board, as the
entries that changed), the events added to the log, and the prompt, result,
players and undo answer where they changed. What the host spends on a member
per action is then the same at move 1,000 as at move 10: nothing it does
grows with the log, and little with the board.

Whether a part changed is found from a fingerprint of it (its pickle, made in
C; it never leaves the host), so an unchanged part costs next to nothing and
only what changed is turned into JSON.

A move taken back (the game replayed into a new state) is sent whole again,
marked ``reset``.

Message (``ev: "table"``): the table's code, game, status and seats always; a
``view`` once the game has begun::

    {"reset": bool, "version": actions so far, "game", "map",
     "cls": the state's class, "log": the name of the state's field holding its log,
     "parts": {field: value}, "patches": {field: {"set": [[key, value]], "del": [key]}},
     "events": [new events of the view's log], "events_reset"?,
     "prompt"?, "result"?, "players"?, "undo"?, "record"?}

Values are ``wire.encode``d; ``RemoteSeat`` puts them together again.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from dataclasses import dataclass, field
from typing import Any

from railgames.core.engine import Prompt
from railgames.core.rng import Chance
from railgames.net.lobby import seat_info
from railgames.net.protocol import PROMPT_HERE
from railgames.net.tables import HostTable, Member
from railgames.net.wire import class_name, encode

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_IMMUTABLE = frozenset({str, int, float, bool, type(None), bytes})


def fingerprint(value: Any) -> Any:
    """Something equal for equal values and, for a value that changed, different."""
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if isinstance(value, Chance):
        return b"chance"  # never sent seeded: nothing of it changes for a member
    try:
        return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception:  # a value pickle cannot take: its JSON will do
        return _dumps(encode(value)).encode()


def _entries(value: dict[Any, Any]) -> dict[Any, Any]:
    return {k: (v if type(v) in _IMMUTABLE else fingerprint(v)) for k, v in value.items()}


def _same_order(before: dict[Any, Any], after: dict[Any, Any]) -> bool:
    """Whether ``after``'s keys are ``before``'s, less those gone, then the new ones: the
    order a patch (entries set and deleted) gives on the other side."""
    kept = [k for k in before if k in after]
    return kept + [k for k in after if k not in before] == list(after)


class Part:
    """One field of the views one seat (or every seat) is sent, as it was last sent."""

    __slots__ = ("fp", "entries", "revision", "patch", "full", "value")

    def __init__(self, value: Any, fp: Any) -> None:
        self.fp = fp
        # A dict field: each entry's fingerprint (or the value itself, where it cannot change).
        self.entries = _entries(value) if type(value) is dict else None
        self.revision = 1
        self.patch: dict[str, Any] | None = None  # the change from the revision before
        self.full: Any = None  # the whole value encoded, once asked for
        self.value = value

    def update(self, value: Any, fp: Any) -> None:
        self.value = value
        if fp == self.fp:
            return
        self.fp, self.revision, self.full, self.patch = fp, self.revision + 1, None, None
        if type(value) is dict:
            entries = _entries(value)
            before = self.entries
            if before is not None and _same_order(before, entries):
                self.patch = {
                    "set": [[encode(k), encode(value[k])] for k, sig in entries.items()
                            if k not in before or before[k] != sig],
                    "del": [encode(k) for k in before if k not in entries]}
            self.entries = entries
        else:
            self.entries = None

    def encoded(self) -> Any:
        if self.full is None:
            self.full = encode(self.value)
        return self.full


class Track:
    """The parts of the views of one seat (or of every seat, in a game without secrets) as
    they stand after the last sending, each with its revision."""

    def __init__(self, state: Any) -> None:
        self.state = state  # the game's state these views are of (a new one after undo)
        self.parts: dict[str, Part] = {}
        self.cls = ""
        self.log_field = ""
        self.moment: object = None

    def follow(self, view: Any, own_log: Any, moment: object) -> None:
        if self.moment is moment:
            return
        self.moment = moment
        self.cls = class_name(type(view))
        values = view.__dict__
        for name in _fields(type(view)):
            value = values.get(name)
            if value is own_log:
                self.log_field = name
                continue
            fp = fingerprint(value)
            part = self.parts.get(name)
            if part is None:
                self.parts[name] = Part(value, fp)
            else:
                part.update(value, fp)


@dataclass
class Sent:
    """What one member was last sent of its table."""

    state: Any = None  # the game's state object the view was made from (a new one: undo)
    track: Any = None  # the Track of the views sent
    revisions: dict[str, int] = field(default_factory=dict)  # each part's revision sent
    events: int = 0  # how many events of the view's log have been sent
    last_event: Any = None  # the last of them (the log sent must still begin with them)
    extras: dict[str, str] = field(default_factory=dict)  # prompt, result, players, undo
    table: str = ""  # the table's line (status, seats), as sent


class Moment:
    """What every member's message about one table is made from, worked out once per
    sending: the prompt, the result, the players, the seats, and each view's parts."""

    def __init__(self, table: HostTable) -> None:
        self.table = table
        game = table.game
        self.prompt = game.prompt() if game is not None else None
        self.seats = [seat_info(table, i) for i in range(len(table.seats))]
        self._views: dict[int | None, Any] = {}
        self._extras: dict[tuple[str, Any], tuple[Any, str]] = {}

    def view(self, seat: int | None) -> Any:
        if seat not in self._views:
            assert self.table.game is not None
            self._views[seat] = self.table.game.view(seat)
        return self._views[seat]

    def track(self, seat: int | None) -> Track:
        """The parts of ``seat``'s view, brought up to date for this sending."""
        game = self.table.game
        assert game is not None
        view = self.view(seat)
        key: Any = "all" if view is game.state else seat  # no secrets: one view for all
        tracks = self.table.tracks
        track = tracks.get(key)
        if track is None or track.state is not game.state:
            track = tracks[key] = Track(game.state)
        track.follow(view, game.ruleset.log_of(view), self)
        return track

    def extra(self, name: str, seat: int | None) -> tuple[Any, str]:
        """The prompt, result, players or undo answer as ``seat`` is sent it, encoded."""
        if name == "undo":
            key: Any = seat
        elif name == "prompt":
            key = seat if self.prompt is not None and self.prompt.seat == seat else "others"
        else:
            key = None
        known = self._extras.get((name, key))
        if known is None:
            encoded = encode(self._extra(name, seat))
            known = self._extras[(name, key)] = (encoded, _dumps(encoded))
        return known

    def _extra(self, name: str, seat: int | None) -> Any:
        table, game = self.table, self.table.game
        assert game is not None
        if name == "prompt":
            prompt = self.prompt
            if prompt is not None and prompt.seat == seat and not game.ruleset.hidden_information:
                # The seat sees the whole state, so it works its choices out for itself (a
                # build's hundreds of tiles never travel).
                return PROMPT_HERE
            if prompt is not None and prompt.seat != seat:
                # Another seat's choices are theirs alone: only what the banner says.
                prompt = Prompt(seat=prompt.seat, step=prompt.step, text=prompt.text,
                                help=prompt.help)
            return prompt
        if name == "result":
            return game.result()
        if name == "players":
            return [p.model_copy(update={"kind": table.bot_kind})
                    if table.seats[i].bot_taken else p for i, p in enumerate(game.players)]
        return game.undo_refusal(seat) if seat is not None else "you are watching"


class Feed:
    """Makes each member's next message; remembers what it sent them in ``member.sent``."""

    def message(self, member: Member, moment: Moment) -> dict[str, Any] | None:
        """The member's next message, or None when nothing they can see has changed."""
        table = moment.table
        sent = member.sent
        if not isinstance(sent, Sent):
            sent = member.sent = Sent()
        seat = member.seat
        message: dict[str, Any] = {
            "ev": "table", "code": table.code, "game": table.game_id, "title": table.title,
            "status": table.status, "you": seat, "name": member.login.name,
            "seats": moment.seats, "free": table.free_human_seats(),
            "watching": sum(1 for m in table.members if m.seat is None),
            "hints": table.hints,
            "bot_kind": table.bot_kind,  # who plays for the others in a review's "try again"
        }
        line = _dumps(message)
        if table.game is None:
            if line == sent.table:
                return None
            sent.table = line
            return message
        view = self.view(member, sent, moment)
        if line == sent.table and not _news(view):
            return None
        sent.table = line
        message["version"] = view["version"]
        message["view"] = view
        return message

    def view(self, member: Member, sent: Sent, moment: Moment) -> dict[str, Any]:
        game = moment.table.game
        assert game is not None
        seat = member.seat
        reset = sent.state is not game.state
        if reset:
            sent.state, sent.events, sent.last_event = game.state, 0, None
            sent.revisions, sent.extras = {}, {}
        track = moment.track(seat)
        if sent.track is not track:  # another line of views (a game of secrets, once over)
            sent.track, sent.revisions = track, {}
        parts: dict[str, Any] = {}
        patches: dict[str, Any] = {}
        for name, part in track.parts.items():
            have = sent.revisions.get(name)
            if have == part.revision:
                continue
            if have == part.revision - 1 and part.patch is not None:
                patches[name] = part.patch
            else:
                parts[name] = part.encoded()
            sent.revisions[name] = part.revision
        view: dict[str, Any] = {"reset": reset, "version": len(game.record.actions),
                                "game": game.ruleset.id, "map": game.record.map,
                                "cls": track.cls, "log": track.log_field,
                                "parts": parts, "patches": patches}
        # The view's log: what was added since, or all of it where it no longer begins
        # with what was sent (a game of secrets shows its whole log once it is over).
        log = game.ruleset.log_of(moment.view(seat))
        count = sent.events
        if len(log) < count or (count and log[count - 1] is not sent.last_event):
            count = 0
            view["events_reset"] = True
        view["events"] = encode(log[count:])
        sent.events, sent.last_event = len(log), log[-1] if log else None
        for name in ("prompt", "result", "players", "undo"):
            encoded, text = moment.extra(name, seat)
            if sent.extras.get(name) != text:
                sent.extras[name] = text
                view[name] = encoded
        if game.is_over() and "record" not in sent.extras:
            # Once it is over nothing is secret: the whole record, for its history.
            sent.extras["record"] = "sent"
            view["record"] = encode(game.record)
        return view


def _news(view: dict[str, Any]) -> bool:
    return bool(view["reset"] or view["parts"] or view["patches"] or view["events"]
                or view.keys() & {"prompt", "result", "players", "undo", "record",
                                  "events_reset"})


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names
