"""Railways of the World: urbanizing a gray city with a New City tile.

The city takes the tile's colour, two goods cubes are drawn onto it from the bag,
and its empty-city marker, if it had one, is taken away.
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.engine import Prompt
from railgames.core.events import EventLog
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import Urbanize
from railgames.games.railways_of_the_world.base import RotwPhase
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS, GRAY
from railgames.games.railways_of_the_world.state import RotwState, Step
from railgames.games.railways_of_the_world.terms import (
    URBANIZE_COST,
    money,
    plural,
    quick_prompt,
    where,
)


class UrbanizePhase(RotwPhase):
    """Choosing a gray city and a New City tile's colour, and urbanizing it."""

    actions: ClassVar[tuple[type, ...]] = (Urbanize,)

    def prompt(self, state: RotwState) -> Prompt | None:
        rules = self.rules
        seat = state.to_act()
        bonds = rules.bonds_needed(state, seat, URBANIZE_COST)
        issues = f", issuing {plural(bonds, 'bond')}" if bonds else ""
        return quick_prompt(seat=seat, step=where(state),
                            text=f"{rules._name(state, seat)}: urbanize a gray city for "
                                 f"{money(URBANIZE_COST)}{issues}",
                            choices=[*self.choices(state, seat), rules._cancel_of[seat]])

    def choices(self, state: RotwState, seat: int) -> list[Urbanize]:
        colours = [c for c in CUBE_COLOURS if state.tiles_left.get(c, 0) > 0]
        if not colours:
            return []
        make = self.rules._listed_urbanize
        colour_now = state.colour
        return [make(seat, city, colour)
                for city in self.rules._city_ids if colour_now[city] == GRAY for colour in colours]

    @staticmethod
    def possible(state: RotwState) -> bool:
        """Whether ``choices`` lists anything (a gray city and a New City tile left)."""
        tiles_left = state.tiles_left
        for colour in CUBE_COLOURS:
            if tiles_left.get(colour, 0) > 0:
                return GRAY in state.colour.values()
        return False

    def refusal(self, state: RotwState, a: Any) -> str | None:
        if state.step is not Step.URBANIZE:
            return "choose to urbanize first"
        city = self.rules.map.city_by_id[a.city]
        if state.colour[a.city] != GRAY:
            return f"{city.name} is not a gray city; only gray cities can be urbanized"
        if state.tiles_left.get(a.colour, 0) <= 0:
            left = [c for c in CUBE_COLOURS if state.tiles_left.get(c, 0) > 0]
            return (f"no {a.colour} New City tile is left"
                    + (f" (left: {', '.join(left)})" if left else ""))
        return None

    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        self.urbanize(state, action, log)
        self.rules.next_player(state, log)

    def urbanize(self, state: RotwState, a: Urbanize, log: EventLog) -> None:
        rules = self.rules
        seat = a.seat
        city = rules.map.city_by_id[a.city]
        rules.pay(state, seat, URBANIZE_COST, log, "urbanizing")
        state.tiles_left[a.colour] -= 1
        state.colour[a.city] = a.colour
        state.urbanized[a.city] = a.colour
        removed = a.city in state.markers
        if removed:
            state.markers.remove(a.city)
        drawn = rules._draw(state, 2)
        here = state.cubes[a.city]
        for colour, k in drawn.items():
            here[colour] = here.get(colour, 0) + k
        state.cubes[a.city] = {c: here[c] for c in CUBE_COLOURS if here.get(c)}
        cubes = ", ".join(f"{k} {c}" for c, k in drawn.items()) or "nothing (the bag is empty)"
        log.add(f"{rules._name(state, seat)} urbanizes {city.name} with a {a.colour} New City tile "
                f"for {money(URBANIZE_COST)}; drawn from the bag: {cubes}"
                f"{'; its empty-city marker is removed' if removed else ''}.", "urbanize",
                chance=True, rule=R.URBANIZE, seat=seat, city=a.city, colour=a.colour, drawn=drawn,
                marker_removed=removed)
