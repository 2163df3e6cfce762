"""Narration: what happened and by which rule, told from events and rule texts.

Nothing here reads an event's wording to find out what it means: the rules an
event names (``Event.rules``) pick the explanations from the game's
``RuleBook``. Each rule is explained in full the first time it is at work in a
stretch of events, and in one line every later time.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from railgames.core.events import SETUP, Event
from railgames.core.rulebook import Rule, RuleBook


@dataclass(frozen=True)
class Told:
    """One event with the rules behind it; ``first`` are the ones seen here for the first time."""

    event: Event
    rules: tuple[Rule, ...]
    first: tuple[Rule, ...]
    # Rules named a few lines before: named again by their title alone.
    recent: frozenset[str] = frozenset()
    # Why it came out so, from the event's data ("Worcester demands purple, so ...").
    why: str = ""

    @property
    def again(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r not in self.first)


# A rule named this few lines ago is named again by its title alone.
RECENT = 6


def narrate(events: Iterable[Event], book: RuleBook, ruleset: Any = None) -> list[Told]:
    """Tell events in order. A rule id the book lacks raises KeyError (a test guards it).

    With the game's ``ruleset``, the book's ``because`` adds the reason an
    event came out as it did.
    """
    seen: set[str] = set()
    named: dict[str, int] = {}  # rule id -> the line it was last named on
    out: list[Told] = []
    for number, event in enumerate(events):
        rules = tuple(book[r] for r in event.rules)
        first = tuple(r for r in rules if r.id not in seen)
        seen.update(r.id for r in first)
        recent = frozenset(rid for rid, at in named.items() if number - at <= RECENT)
        named.update((r.id, number) for r in rules)
        why = book.because(ruleset, event) if book.because and ruleset is not None else ""
        out.append(Told(event, rules, first, recent, why))
    return out


def rules_fired(events: Iterable[Event]) -> set[str]:
    return {r for e in events for r in e.rules}


def reason_line(told: Told) -> str:
    """The one-line reasons of the rules already explained: 'Auctions: links are sold ...'."""
    return "; ".join(r.title if r.id in told.recent else f"{r.title}: {r.short}"
                     for r in told.again)


def full_text(rule: Rule, game_id: str) -> str:
    return f"{rule.title}. {rule.full} (Help: \u201c{rule.help}\u201d in `railgames rules {game_id}`.)"


def text_lines(told: Sequence[Told], game_id: str, width: int = 100) -> Iterator[str]:
    """The narrated game as plain lines: one line per action, then what followed from it.

    An action's first event is numbered; events that followed by themselves are
    indented under it. A rule seen for the first time is explained in full
    below the line; a rule seen before adds its one-line reason to the line.
    The numbers count the actions told: an action that tells nothing by itself
    (Railways of the World's choice of what to do, told by what is then done)
    takes no number, so none is missing from the count.
    """
    action = None
    number = 0
    indent = " " * 8
    for item in told:
        e = item.event
        if e.action != action:
            action = e.action
            if e.action != SETUP:
                number += 1
            head = "setup " if e.action == SETUP else f"{number:>5} "
        else:
            head = " " * 6
        reasons = reason_line(item)
        line = f"{head}{e.text}" + (f" {item.why}" if item.why else "")
        if reasons:
            line += f"  [{reasons}]"
        yield line
        for rule in item.first:
            yield from textwrap.wrap(full_text(rule, game_id), width=width, break_on_hyphens=False,
                                     initial_indent=indent + "\u2503 NEW RULE \u2014 ",
                                     subsequent_indent=indent + "\u2503 ")
