"""The event log: readable lines, each tied to the action that caused it."""

from __future__ import annotations

from dataclasses import dataclass, field
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
        rules = (rule,) if isinstance(rule, str) else tuple(rule)
        event = Event(self.action_index, text, kind, data, chance, visible_to, rules)
        self._log.append(event)
        return event
