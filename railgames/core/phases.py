"""Phases: one part of a game's round with its listing, its check and its doing together.

The 18xx engine keeps each step of a round (a stock round, a track lay, running trains)
in a class of its own, so a rule lives in one place beside the others of its step. A
rules class here does the same: it hands each phase (an auction, building, deliveries,
income…) to a ``Phase`` that says what may be done now (the prompt), whether an action
is allowed (``validate``) and what it does (``execute``). The rules class keeps what
spans phases (setup, scores, views, the map's questions) and picks the phase: by the
state's step for the prompt, by the action's class (``by_action``) for the rest.

Nothing here imports Textual; a phase holds no state of its own beyond its rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar

from railgames.core.engine import Prompt
from railgames.core.events import EventLog

R = TypeVar("R")
S = TypeVar("S")


class Phase(Generic[R, S]):
    """One phase of a game: its prompt, its checks and its execution.

    ``actions`` names the action classes this phase takes; ``rules`` is the game's
    rules object, for what the phases share (names, the map, scoring).
    """

    actions: ClassVar[tuple[type, ...]] = ()

    def __init__(self, rules: R) -> None:
        self.rules = rules

    def prompt(self, state: S) -> Prompt | None:
        raise NotImplementedError(f"{type(self).__name__} lists no choices")

    def validate(self, state: S, action: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} checks no action")

    def execute(self, state: S, action: Any, log: EventLog) -> None:
        raise NotImplementedError(f"{type(self).__name__} carries out no action")


def by_action(phases: Iterable[Phase[Any, Any]]) -> dict[type, Phase[Any, Any]]:
    """Each action class to the one phase that takes it.

    An action class claimed by two phases is a mistake in the game's code, refused here
    so it shows when the rules are built rather than as a rule checked in the wrong place.
    """
    table: dict[type, Phase[Any, Any]] = {}
    for phase in phases:
        for kind in phase.actions:
            if kind in table:
                raise TypeError(f"{kind.__name__} is taken by both {type(table[kind]).__name__} "
                                f"and {type(phase).__name__}")
            table[kind] = phase
    return table
