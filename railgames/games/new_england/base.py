"""What every phase of New England Railways asks of the rules: names, values, paths.

``NewEnglandRules`` (rules.py) builds on this class and hands its phases to the
modules that hold them (loans.py, auction.py, build.py, shipping.py, turn.py); the
phases and the bots see the rules as this class, so none of them imports rules.py
and rules.py may import them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from railgames.core.engine import Ruleset
from railgames.core.errors import IllegalAction
from railgames.games.new_england.actions import Ship
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.paths import ShippingPaths
from railgames.games.new_england.state import NEState, Step

_STEP_NAMES = {
    Step.LOANS: "taking Bank Loans", Step.RETIRE: "retiring debt",
    Step.AUCTION: "the auction", Step.FINISH: "a build-roll decision",
    Step.SHIP: "shipping", Step.OVER: "the end of the game",
}


def expect(step: Step, wanted: Step, doing: str) -> None:
    """Refuse ``doing`` unless the game is at step ``wanted``."""
    if step is not wanted:
        raise IllegalAction(f"you cannot {doing} now: the game is at {_STEP_NAMES[step]}")


class NewEnglandBase(Ruleset[NEState]):
    """The map's names and values, the shipping paths, and the actions listed often."""

    map: NewEnglandMap

    def __init__(self, game_map: NewEnglandMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        self._city_name = {c.id: c.name for c in game_map.cities}
        self._value = {link.id: link.value for link in game_map.links}
        self._ends = {link.id: (link.a, link.b) for link in game_map.links}
        self.paths = ShippingPaths(game_map)
        self._fixed: dict[tuple[type[Any], int, bool | None], Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        # The actions listed in play stay behind, as the paths' tables do (ShippingPaths).
        state = self.__dict__.copy()
        state["_fixed"] = {}
        return state

    # ------------------------------------------------------------ names
    def city_name(self, city: str) -> str:
        return self._city_name.get(city, city)

    def link_name(self, link: str) -> str:
        a, b = self._ends[link]
        return f"{self._city_name[a]}–{self._city_name[b]}"

    def link_value(self, link: str) -> int:
        return self._value[link]

    def link_ends(self, link: str) -> tuple[str, str]:
        return self._ends[link]

    @staticmethod
    def railway_name(state: NEState, seat: int) -> str:
        return state.railways[seat].name

    def listed(self, cls: type[Any], seat: int, pay: bool | None = None) -> Any:
        """The pass (or finishing choice) of ``seat``, made once: the prompts list it often."""
        key = (cls, seat, pay)
        action = self._fixed.get(key)
        if action is None:
            # The same action as ``cls(seat=seat[, pay=pay])``, without checking it again.
            action = self._fixed[key] = (cls.trusted(seat=seat) if pay is None
                                         else cls.trusted(seat=seat, pay=pay))
        return action

    # ------------------------------------------------------------ shipping paths
    def built_neighbours(self, state: NEState) -> dict[str, list[str]]:
        return self.paths.built_neighbours(state)

    def routes(self, state: NEState | None, origin: str, colour: str,
               adj: dict[str, list[str]] | None = None) -> Iterator[list[str]]:
        return self.paths.routes(state, origin, colour, adj)

    def shipments(self, state: NEState, seat: int) -> list[Ship]:
        return self.paths.shipments(state, seat)

    def income_split(self, state: NEState, path: list[str]) -> dict[int, int]:
        return self.paths.income_split(state, path)
