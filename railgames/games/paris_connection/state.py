"""Paris Connection game state (internal; never saved: replay rebuilds it).

Each player's holdings are secret. In the full state every ``Shareholder``
carries its holdings; in a seat's view (``ParisConnectionRules.view``) the
other players' ``shares`` are None and only their public ``held`` count
remains, as at a table where the screens hide the colours but not the pile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from railgames.core.events import Event, SeenLogs
from railgames.core.hexgrid import Hex
from railgames.core.rng import Chance
from railgames.core.state_copy import copy_by_fields


class Step(StrEnum):
    TURN = "turn"  # the player to move chooses: build or trade
    BUILD = "build"  # a build has begun: place more of the same company, or end it
    OVER = "over"


@dataclass
class Shareholder:
    name: str
    shares: dict[str, int] | None  # company -> locomotives behind the screen; None when hidden
    held: int = 0  # how many locomotives in all: public

    def count(self, company: str) -> int:
        assert self.shares is not None, "this player's holdings are hidden in this view"
        return self.shares.get(company, 0)


@dataclass
class PCState:
    players: list[Shareholder]
    supply: dict[str, int]  # company -> locomotives on its storing board
    value: dict[str, int]  # company -> value on the score track
    board: dict[Hex, list[str]]  # occupied hex -> companies there, in placement order
    current: int  # seat to move
    turn: int
    step: Step
    rules_edition: int  # the edition of the rules the game is played under (Ruleset.edition)
    building: str | None = None  # the company of the build under way
    placed: list[Hex] = field(default_factory=list)  # hexes placed in the build under way
    end_reason: str | None = None
    chance: Chance = field(default_factory=lambda: Chance(0))
    log: list[Event] = field(default_factory=list)
    final: dict[str, dict[str, int]] | None = None
    # What each seat's view has read of ``log`` so far (``events.visible_events``).
    seen_logs: SeenLogs = field(default_factory=SeenLogs, compare=False, repr=False)

    def on_board(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for here in self.board.values():
            for company in here:
                counts[company] = counts.get(company, 0) + 1
        return counts

    def hexes_of(self, company: str) -> list[Hex]:
        return [h for h, here in self.board.items() if company in here]

    def __deepcopy__(self, memo: dict[int, Any]) -> PCState:
        """The same copy ``copy.deepcopy`` makes, made field by field: a search copies
        the state on every iteration (see core/state_copy.py)."""
        return copy_by_fields(self, memo, _COPY, _SHARED)


def _copy_shareholder(p: Shareholder) -> Shareholder:
    new = object.__new__(Shareholder)
    new.__dict__.update(p.__dict__)
    if p.shares is not None:
        new.shares = p.shares.copy()
    return new


# Values a copy may share: never changed in place (a hex is a pair of numbers).
_SHARED = {int, str, bool, type(None), Step}
_COPY: dict[str, Callable[[Any], Any]] = {
    "players": lambda players: [_copy_shareholder(p) for p in players],
    "supply": dict.copy,
    "value": dict.copy,
    "board": lambda board: {h: list(here) for h, here in board.items()},
    "placed": list.copy,
}
