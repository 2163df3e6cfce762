"""Rules as data: what each rule of a game is called and how it is explained.

Every event names the rule ids that produced it (``Event.rules``); a game's
``RuleBook`` gives each id a title, a one-line explanation, a full one and the
section of the game's help.md that covers it. Narration (demos, history) is
built from events and these texts alone, never by reading the log's wording.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from railgames.core.events import Event


@dataclass(frozen=True)
class Rule:
    """One rule, explained twice: once in full the first time it is seen, then in a line.

    ``help`` is the heading of the help.md section that covers it. ``main``
    marks the rules a demonstration must show; the others (a tie roll, a
    reshuffled deck) happen only in some games.
    """

    id: str
    title: str
    short: str
    full: str
    help: str
    main: bool = True


class RuleBook:
    """A game's rules by id; ``because`` may add why an event came out as it did.

    ``because(ruleset, event)`` reads only the event's kind and data (never its
    text) and returns a short reason, such as which city stopped a cube, or "".
    """

    def __init__(self, game: str, rules: Iterable[Rule],
                 because: Callable[[Any, Event], str] | None = None) -> None:
        self.game = game
        self.because = because
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self._rules:
                raise ValueError(f"{game}: rule id '{rule.id}' is used twice")
            self._rules[rule.id] = rule

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def __getitem__(self, rule_id: str) -> Rule:
        return self._rules[rule_id]

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._rules.values())

    def __len__(self) -> int:
        return len(self._rules)

    def get(self, rule_id: str) -> Rule | None:
        return self._rules.get(rule_id)

    def main_rules(self) -> list[str]:
        return [r.id for r in self._rules.values() if r.main]


def rulebook(rules: Any) -> RuleBook:
    """The rule book of a game, from the ``rule_texts`` module next to its rules
    (``rules`` is the game's ruleset, or its class)."""
    cls = rules if isinstance(rules, type) else type(rules)
    package = cls.__module__.rsplit(".", 1)[0]
    module = importlib.import_module(f"{package}.rule_texts")
    book: RuleBook = module.RULEBOOK
    return book
