"""New England Railways' shipping: hauling cubes over built links for income.

In each of two rounds every railway in turn ships one cube or passes (the buyers
of a link this turn sit out the first). A cube goes where ``ShippingPaths.routes``
allows, returns to the cup, and each link it used gives its owner one income. The
paths listed and the paths accepted are the same ones (``ShippingPaths.is_open``);
a refused path is told what is wrong with it (``why_refused``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from railgames.core.engine import Choices, Prompt
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.actions import PassShip, Ship
from railgames.games.new_england.base import NewEnglandBase, expect
from railgames.games.new_england.paths import MAX_SHIP_LINKS
from railgames.games.new_england.state import NEState, Step


class ShipChoices(Choices):
    """The choices of a shipping turn: every shipment (``ShippingPaths.shipments``, kept
    in its groups of one city and colour each), then the pass. A railway may have
    hundreds of paths open, and a bot takes one: the list of them is made only when
    read through, and a shipment is looked for in its own city and colour's group."""

    __slots__ = ("_groups", "_pass", "_n")

    def __init__(self, groups: list[Sequence[Ship]], pass_ship: Any) -> None:
        self._groups = groups
        self._pass = pass_ship
        self._n = sum(map(len, groups)) + 1

    def __len__(self) -> int:
        return self._n

    def _item(self, index: int) -> Any:
        for group in self._groups:
            if index < len(group):
                return group[index]
            index -= len(group)
        return self._pass

    def _listed(self) -> list[Any]:
        out: list[Any] = []
        for group in self._groups:
            out.extend(group)
        out.append(self._pass)
        return out

    def holds(self, action: Any) -> bool:
        if action is self._pass:
            return True
        if type(action) is not Ship or not action.path:
            return False
        origin, colour = action.path[0], action.colour
        for group in self._groups:
            first = group[0]
            if first.path[0] == origin and first.colour == colour:
                return any(ship is action for ship in group)
        return False


def check_references(rules: NewEnglandBase, action: Any) -> None:
    """A shipment names a colour and cities of this map, or it is malformed."""
    if isinstance(action, Ship):
        if action.colour not in rules.map.commodities:
            raise MalformedAction(f"'{action.colour}' is not a commodity colour")
        for city in action.path:
            if city not in rules.map.demand_of:
                raise MalformedAction(f"'{city}' is not a city on this map")


def why_refused(rules: NewEnglandBase, state: NEState, colour: str, path: list[str]) -> str:
    """What keeps a cube of ``colour`` from travelling ``path``, in the player's words.

    Asked only of a path the rules do not list, to say which part of the rule it breaks.
    """
    links = len(path) - 1
    if links > MAX_SHIP_LINKS:
        return f"a cube may travel at most {MAX_SHIP_LINKS} links; this path uses {links}"
    seen: set[str] = set()
    for city in path:
        if city in seen:
            return f"a cube visits each city once; this path enters {rules.city_name(city)} twice"
        seen.add(city)
    for a, b in zip(path, path[1:], strict=False):
        link = rules.paths.link_of(a, b)
        if link is None:
            return f"no railway link joins {rules.city_name(a)} and {rules.city_name(b)}"
        if link not in state.built:
            return f"the {rules.link_name(link)} link is not built, so cubes cannot use it"
    demand = rules.map.demand_of
    for city in path[1:-1]:
        if demand[city] == colour:
            return f"a {colour} cube must stop at {rules.city_name(city)}, which demands {colour}"
    end = path[-1]
    return (f"{rules.city_name(end)} demands {demand[end]}, not {colour}; "
            f"a {colour} cube must end where {colour} is demanded")


class Shipping(Phase[NewEnglandBase, NEState]):
    """One railway's shipment in a shipping round: one cube, or a pass."""

    actions = (Ship, PassShip)

    def prompt(self, state: NEState) -> Prompt:
        rules = self.rules
        seat = state.pending[0]
        rnd = "first" if state.ship_round == 1 else "second"
        return Prompt(
            seat=seat, step=f"Shipping ({rnd} round)",
            text=f"{rules.railway_name(state, seat)}: ship one commodity cube, or pass",
            choices=ShipChoices(rules.paths.shipment_groups(state, seat),
                                rules.listed(PassShip, seat)),
            help="A cube travels up to 5 built links, visits each city once, and stops at the "
                 "first city that demands its colour. Each link used pays its owner +1 income.",
        )

    def validate(self, state: NEState, action: Any) -> None:
        if isinstance(action, PassShip):
            expect(state.step, Step.SHIP, "pass on shipping")
            return
        expect(state.step, Step.SHIP, "ship")
        rules = self.rules
        path, colour = action.path, action.colour
        origin = path[0]
        if state.cubes[origin].get(colour, 0) == 0:
            raise IllegalAction(f"there is no {colour} cube waiting in {rules.city_name(origin)}")
        if not rules.paths.is_open(state, colour, path):
            raise IllegalAction(why_refused(rules, state, colour, path))

    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        if isinstance(action, Ship):
            self._ship(state, action, log)
        else:
            log.add(f"{state.railways[action.seat].name} ships nothing.", "pass_ship",
                    rule=R.SHIP_ROUNDS, seat=action.seat)
        state.pending.pop(0)

    def _ship(self, state: NEState, action: Ship, log: EventLog) -> None:
        rules = self.rules
        origin, colour = action.path[0], action.colour
        here = state.cubes[origin]
        here[colour] -= 1
        if here[colour] == 0:
            del here[colour]
        state.cup[colour] += 1
        gain = rules.paths.income_split(state, action.path)
        for s, g in gain.items():
            state.railways[s].income += g
        route = " → ".join(rules.city_name(c) for c in action.path)
        links = len(action.path) - 1
        earned = ", ".join(f"{rules.railway_name(state, s)} +{g}" for s, g in sorted(gain.items()))
        log.add(f"{rules.railway_name(state, action.seat)} ships a {colour} cube {route} "
                f"({links} link{'s' if links != 1 else ''}; income {earned}); the cube returns to the cup.",
                "ship", rule=R.SHIP, seat=action.seat, colour=colour, path=list(action.path), income=gain)


def skip_the_stuck(rules: NewEnglandBase, state: NEState, log: EventLog) -> None:
    """Railways still to ship while no waiting cube can move pass without being asked."""
    while state.pending and not rules.paths.can_ship(state):
        seat = state.pending.pop(0)
        log.add(f"{rules.railway_name(state, seat)} has no cube that can be shipped.",
                "no_shipment", rule=R.SHIP_ROUNDS, seat=seat)
