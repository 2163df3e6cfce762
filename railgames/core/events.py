"""The event log: readable lines, each tied to the action that caused it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

SETUP = -1  # action index of events that happen while the game is set up


@dataclass(frozen=True)
class Event:
    """One line of the game log.

    ``action`` is the index in the record of the action that caused the event
    (``SETUP`` for set-up). ``kind`` names what happened in machine terms and
    ``data`` holds its numbers, so tests and views can check money and pieces
    without parsing text. ``chance`` marks dice rolls and draws: undo never goes
    back past them. ``visible_to`` is None for public events, or the set of
    seats allowed to see the event in a hidden-information game. ``rules``
    names the rule ids (see ``railgames.core.rulebook``) that produced the
    event, so narration can say why it happened without reading ``text``.
    """

    action: int
    text: str
    kind: str = "info"
    data: dict[str, Any] = field(default_factory=dict)
    chance: bool = False
    visible_to: frozenset[int] | None = None
    rules: tuple[str, ...] = ()

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class EventLog:
    """Collects events while one action (or the set-up) is applied."""

    def __init__(self, log: list[Event], action_index: int) -> None:
        self._log = log
        self.action_index = action_index

    def add(
        self,
        text: str,
        kind: str = "info",
        *,
        chance: bool = False,
        visible_to: frozenset[int] | None = None,
        rule: str | tuple[str, ...] = (),
        **data: Any,
    ) -> Event:
        # Event(...) made without the frozen dataclass's field-by-field setting: every
        # action adds a line or more, and searches play thousands of actions.
        event = _new(Event)
        event.__dict__.update(action=self.action_index, text=text, kind=kind, data=data,
                              chance=chance, visible_to=visible_to,
                              rules=(rule,) if isinstance(rule, str) else tuple(rule))
        self._log.append(event)
        return event


_new = object.__new__
assert [f.name for f in fields(Event)] == [
    "action", "text", "kind", "data", "chance", "visible_to", "rules"], "EventLog.add sets every field"


class SeenLogs(dict[int | None, tuple[int, Event | None, list[Event]]]):
    """seat -> (how many events of the log were read, the last of them, those the seat sees).

    Only a shortcut: a copy of a state starts it afresh rather than copying every
    event again (a search copies states by the thousand).
    """

    def __deepcopy__(self, memo: dict[int, Any]) -> SeenLogs:
        return SeenLogs()

    def __reduce__(self) -> tuple[type[SeenLogs], tuple[()]]:
        return (SeenLogs, ())


def visible_events(log: list[Event], seat: int | None, seen: SeenLogs) -> list[Event]:
    """A new list of the events of ``log`` that ``seat`` may see.

    ``seen`` remembers what was found the last time, so a log that has only grown
    since is read from where that left off: a hidden-information game makes a
    seat's view on every step of a bot, and its log grows all game.
    """
    known = seen.get(seat)
    if known is not None:
        count, last, mine = known
        if count <= len(log) and (count == 0 or log[count - 1] is last):
            mine.extend(e for e in log[count:] if e.visible(seat))
        else:
            known = None
    if known is None:
        mine = [e for e in log if e.visible(seat)]
    seen[seat] = (len(log), log[-1] if log else None, mine)
    return list(mine)
