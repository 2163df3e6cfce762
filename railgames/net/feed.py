"""What each member of a table is sent: small JSON messages saying what changed.

A member's first message about a table holds all it may see: its seat's view
of the state, the events of the log it may see, the prompt (another seat's
choices left out), the result, the players. After that each message holds only
what changed since the last one sent to that member: the parts of the view
whose JSON changed, the events added to the log, and the prompt, result,
players and undo answer where they changed. What a member costs per action
is then the same at move 1,000 as at move 10: nothing grows with the log.

A move taken back (the game replayed into a new state) is sent whole again,
marked ``reset``.

Message (``ev: "table"``): the table's code, game, status and seats always; a
``view`` once the game has begun::

    {"reset": bool, "version": actions so far, "cls": the state's class,
     "log": the name of the state's field holding its log,
     "parts": {field: value}, "events": [new events of the view's log],
     "events_reset"?, "prompt"?, "result"?, "players"?, "undo"?, "record"?}

Values are ``wire.encode``d; ``RemoteSeat`` puts them together again.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from railgames.core.engine import Prompt
from railgames.net.lobby import seat_info
from railgames.net.protocol import PROMPT_HERE
from railgames.net.tables import Member, Table
from railgames.net.wire import class_name, encode

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


@dataclass
class Sent:
    """What one member was last sent of its table."""

    state: Any = None  # the game's state object the view was made from (a new one: undo)
    events: int = 0  # how many events of the view's log have been sent
    last_event: Any = None  # the last of them (the log sent must still begin with them)
    parts: dict[str, str] = field(default_factory=dict)  # each part of the view, as sent
    extras: dict[str, str] = field(default_factory=dict)  # prompt, result, players, undo
    table: str = ""  # the table's line (status, seats), as sent


class Moment:
    """What every member's message about one table is made from, worked out once per
    sending: the prompt, the result, the players, and each distinct view's parts."""

    def __init__(self, table: Table) -> None:
        self.table = table
        game = table.game
        self.prompt = game.prompt() if game is not None else None
        self._views: dict[int | None, Any] = {}
        self._parts: dict[int, tuple[Any, str, dict[str, tuple[Any, str]]]] = {}
        self._extras: dict[tuple[str, int | None], tuple[Any, str]] = {}

    def view(self, seat: int | None) -> Any:
        if seat not in self._views:
            assert self.table.game is not None
            self._views[seat] = self.table.game.view(seat)
        return self._views[seat]

    def parts(self, seat: int | None) -> tuple[str, dict[str, tuple[Any, str]]]:
        """The name of the view's log field, and each other field encoded, with its text."""
        state = self.view(seat)
        known = self._parts.get(id(state))
        if known is not None and known[0] is state:
            return known[1], known[2]
        assert self.table.game is not None
        own_log = self.table.game.ruleset.log_of(state)
        log_field = ""
        parts: dict[str, tuple[Any, str]] = {}
        values = state.__dict__
        for name in _fields(type(state)):
            value = values.get(name)
            if value is own_log:
                log_field = name
                continue
            encoded = encode(value)
            parts[name] = (encoded, _dumps(encoded))
        self._parts[id(state)] = (state, log_field, parts)
        return log_field, parts

    def extra(self, name: str, seat: int | None) -> tuple[Any, str]:
        """The prompt, result, players or undo answer as ``seat`` is sent it, encoded."""
        key = (name, seat if name in ("prompt", "undo") else None)
        known = self._extras.get(key)
        if known is None:
            encoded = encode(self._extra(name, seat))
            known = self._extras[key] = (encoded, _dumps(encoded))
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
            "seats": [seat_info(table, i) for i in range(len(table.seats))],
            "free": table.free_human_seats(),
            "watching": sum(1 for m in table.members if m.seat is None),
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
            sent.parts, sent.extras = {}, {}
        log_field, all_parts = moment.parts(seat)
        parts: dict[str, Any] = {}
        for name, (encoded, text) in all_parts.items():
            if sent.parts.get(name) != text:
                sent.parts[name] = text
                parts[name] = encoded
        view: dict[str, Any] = {"reset": reset, "version": len(game.record.actions),
                                "game": game.ruleset.id, "map": game.record.map,
                                "cls": class_name(type(moment.view(seat))), "log": log_field,
                                "parts": parts}
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
    return bool(view["reset"] or view["parts"] or view["events"]
                or view.keys() & {"prompt", "result", "players", "undo", "record",
                                  "events_reset"})


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.compare)
    return names
