"""Railways of the World: track tiles, goods cubes, bonds and the First Player auction.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action and runs the automatic steps (paying, income, removing incomplete
links) up to the next decision. Rulings on what the rulebook leaves open are in
docs/rulings/railways-of-the-world.md; comments in the phases name them.

Each phase of a turn keeps its listing, its check and its doing together, in a
module of its own: ``auction`` (the First Player marker and the order of play),
``turn`` (choosing the round's action, engines, passing, the rounds), ``build``,
``urbanize``, ``deliver`` and ``income`` (the end of a turn, and of the game).
What they share is in ``base``; the tables kept for speed are in ``index``. This
class sets the game up, picks the phase (by the state's step for the prompt, by
the action's class for the rest) and answers for them to the rest of the suite.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, cast

from railgames.core.engine import Prompt
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.gains import change
from railgames.core.hexgrid import Hex
from railgames.core.phases import by_action
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.railways_of_the_world import index
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import (
    ACTION_ADAPTER,
    Deliver,
    LayTrack,
    Urbanize,
)
from railgames.games.railways_of_the_world.auction import AuctionPhase
from railgames.games.railways_of_the_world.base import RotwPhase, RotwRulesBase
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS, GRAY, RotwMap
from railgames.games.railways_of_the_world.build import BuildPhase
from railgames.games.railways_of_the_world.deliver import DeliverPhase
from railgames.games.railways_of_the_world.income import IncomePhase
from railgames.games.railways_of_the_world.state import Railroad, RotwState, Step
from railgames.games.railways_of_the_world.terms import (  # noqa: F401 - the rules' own names
    BID_STEP,
    BID_WINDOW,
    BOND,
    INTEREST,
    MAX_BID,
    MAX_TILES,
    MIN_BID,
    RIDGE_COST,
    ROUNDS,
    TERRAIN_COST,
    TRACKS_PER_HEX,
    URBANIZE_COST,
    BidAmount,
    money,
    plural,
)
from railgames.games.railways_of_the_world.turn import ActionPhase
from railgames.games.railways_of_the_world.urbanize import UrbanizePhase

# Where the game's bots are, by import path as the registry names rules classes: the
# bots import these rules, so the rules name them without importing them.
BOTS = "railgames.games.railways_of_the_world.bots"


class RailwaysOfTheWorldRules(RotwRulesBase):
    id: ClassVar[str] = "railways-of-the-world"
    title: ClassVar[str] = "Railways of the World"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "rotw-eastern-us"
    pitch: ClassVar[str] = (
        "Lay track between cities, deliver goods cubes for income, and borrow on bonds."
    )
    play_time: ClassVar[str] = "60-120 min"
    option_labels: ClassVar[dict[str, str]] = {
        "first_turn_fixed": "First turn in seat order, later players paid $1,000 a place "
                            "(no auction)",
        "pass_pays_half": "Auction: dropping out pays half your bid; drop-outs set the order",
    }
    # Edition 2: a tile continuing an incomplete link whose open end shares its hex with
    # another's goes on the link whose open end points into it (ruling "two open ends").
    edition: ClassVar[int] = 2
    # Out of an auction, the action round's pass, ending a build begun, or going back from
    # an action chosen but not begun (then the pass): see docs/rulings.
    passes: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {"type": "pass_bid"}, {"type": "pass_action"}, {"type": "end_build"}, {"type": "cancel"})
    map_model = RotwMap
    action_adapter = ACTION_ADAPTER

    def __init__(self, game_map: RotwMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        self.auction = AuctionPhase(self)
        self.income = IncomePhase(self, self.auction)
        self.build = BuildPhase(self)
        self.urbanize = UrbanizePhase(self)
        self.deliver = DeliverPhase(self)
        self.turn = ActionPhase(self, self.build, self.urbanize, self.deliver, self.income)
        phases: list[RotwPhase] = [self.auction, self.turn, self.build, self.urbanize,
                                   self.deliver]
        # Each phase here is a ``RotwPhase``: ``by_action`` hands back what it was given.
        self._by_action = cast(dict[type, RotwPhase], by_action(phases))
        self._by_step: dict[Step, RotwPhase] = {
            Step.AUCTION: self.auction, Step.ACTION: self.turn, Step.BUILD: self.build,
            Step.URBANIZE: self.urbanize, Step.DELIVER: self.deliver}

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        makers: dict[str, Callable[[int], Any]] = importlib.import_module(BOTS).bot_makers(self)
        return makers

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> RotwState:
        unknown = sorted(set(record.options) - set(self.option_labels))
        if unknown:
            raise IllegalAction(f"unknown option '{unknown[0]}' (the options are "
                                f"{', '.join(self.option_labels)})")
        options: dict[str, bool] = {}
        for key, value in record.options.items():
            if not isinstance(value, bool):
                raise IllegalAction(f"option '{key}' is true or false, not {value!r}")
            options[key] = value
        n = len(record.players)
        state = RotwState(
            options=options,
            players=[Railroad(name=p.name) for p in record.players],
            cubes={c.id: {} for c in self.map.cities},
            bag=dict(self.map.goods_cubes),
            colour={c.id: c.colour for c in self.map.cities},
            tiles_left=dict(self.map.new_city_tiles),
            turn=1,
            step=Step.AUCTION,
            first=0,
            chance=chance,
            rules_edition=self.edition_of(record),
        )
        fewer = 1 if n <= 3 else 0
        for city in self.map.cities:
            if city.colour == GRAY:
                continue
            count = max(1, city.cubes - fewer)
            drawn = self._draw(state, count)
            state.cubes[city.id] = drawn
        log.add(f"Goods cubes are drawn from the bag for every city"
                f"{' (one fewer each with 2 or 3 players, never fewer than one)' if fewer else ''}; "
                f"{sum(state.bag.values())} stay in the bag.", "setup_cubes", chance=True, rule=R.SETUP,
                cubes={c: dict(v) for c, v in state.cubes.items() if v}, bag=dict(state.bag))
        log.add(f"Each railroad starts with {money(0)} and a level 1 engine. "
                f"{self.map.end_markers[n]} empty-city markers end the game.", "setup",
                needed=self.map.end_markers[n], rule=R.SETUP)
        self.auction.begin_turn(state, log, opener=0)
        return state

    # ------------------------------------------------------------ whose move
    def gains_now(self, before: RotwState, after: RotwState, seat: int) -> list[str]:
        """What a move changes at once for ``seat``: its place on the income track (its
        points, less its bonds), money, bonds and engine, the goods it delivered and the
        links it completed (for a hint's reason)."""
        was, now = before.players[seat], after.players[seat]
        out = change(was.income, now.income, "income (points)")
        if now.cash != was.cash:
            out.append(f"{'+' if now.cash > was.cash else '-'}{money(abs(now.cash - was.cash))} cash")
        if now.bonds != was.bonds:
            out.append(f"{now.bonds - was.bonds:+} bond{'' if abs(now.bonds - was.bonds) == 1 else 's'}")
        if now.engine != was.engine:
            out.append(f"engine {now.engine}")
        out += [f"{plural(n, colour + ' cube')} delivered" for colour, n in
                ((c, after.delivered.get(c, 0) - before.delivered.get(c, 0)) for c in after.delivered)
                if n > 0]
        links = len(after.links_of(seat)) - len(before.links_of(seat))
        if links > 0:
            out.append(f"{plural(links, 'link')} completed")
        out += [f"{self.city_name(city)} urbanized" for city in after.urbanized
                if city not in before.urbanized]
        return out

    def to_move(self, state: RotwState) -> int | None:
        return None if state.step is Step.OVER else state.to_act()

    def turn_of(self, state: RotwState) -> int:
        return state.turn

    # ------------------------------------------------------------ prompts, by phase
    def prompt(self, state: RotwState) -> Prompt | None:
        if state.step is Step.OVER:
            return None
        return self._by_step[state.step].prompt(state)

    def action_choices(self, state: RotwState, seat: int) -> list[Any]:
        return self.turn.choices(state, seat)

    def track_choices(self, state: RotwState, seat: int, first_only: bool = False) -> list[Any]:
        """Every legal next tile: extending the build under way, or starting one."""
        return self.build.choices(state, seat, first_only)

    def lay_cost(self, entry: Hex, h: Hex, exit_: Hex, new_link: bool) -> tuple[int, int]:
        """(cost, ridges crossed) of a tile; a link's first tile pays for its side at the city."""
        return self.build.lay_cost(entry, h, exit_, new_link)

    def urbanize_choices(self, state: RotwState, seat: int) -> list[Urbanize]:
        return self.urbanize.choices(state, seat)

    def network(self, state: RotwState) -> dict[str, list[tuple[str, str]]]:
        """City -> (link id, city at its other end) for every complete link (kept on
        the state: callers only read it; see ``index.network``)."""
        return index.network(state)[0]

    def deliveries(self, state: RotwState, seat: int, first_only: bool = False) -> list[Deliver]:
        """Every legal delivery (see ``deliver.DeliverPhase.choices``)."""
        return self.deliver.choices(state, seat, first_only)

    def can_deliver(self, state: RotwState, seat: int) -> bool:
        """Whether ``deliveries`` lists anything for ``seat``."""
        return self.deliver.possible(state, seat)

    def delivery_refusal(self, state: RotwState, a: Deliver) -> str | None:
        return self.deliver.delivery_refusal(state, a)

    def routes(self, state: RotwState, seat: int, origin: str, colour: str,
               engine: int) -> list[list[str]]:
        """The routes (link ids) a ``colour`` cube may take from ``origin``, for ``seat``
        with an ``engine``: the first link its own, no city twice, ending at the first
        city of the cube's colour, at most ``engine`` links long."""
        net = index.network(state)[0]
        found = self.deliver.routes_from(state, net, seat, origin, engine)
        return [list(route) for route in found[colour]]

    # ------------------------------------------------------------ checking, by phase
    def parse_action(self, raw: Any, *, recorded: bool = False) -> Any:
        """The kernel's reading of an action, except that a choice these rules listed
        (the very object) is taken as it is: it was made from the rules' own values."""
        store = self._stores.get(type(raw))
        if store is not None and (store.made(raw) or (store is self._lay_store
                                                      and self._first_tiles.made(raw))):
            return raw
        return super().parse_action(raw, recorded=recorded)

    def check_references(self, action: Any) -> None:
        if isinstance(action, LayTrack):
            for off in (action.hex, action.entry):
                self._hex(off)
        elif isinstance(action, (Urbanize, Deliver)):
            if action.city not in self.map.city_by_id:
                raise MalformedAction(f"there is no city '{action.city}' on this map")
            if action.colour not in CUBE_COLOURS:
                raise MalformedAction(f"'{action.colour}' is not a colour of the game "
                                      f"({', '.join(CUBE_COLOURS)})")

    def validate(self, state: RotwState, action: Any) -> None:
        reason = self._refusal(state, action)
        if reason is not None:
            raise IllegalAction(reason)

    def _refusal(self, state: RotwState, a: Any) -> str | None:
        phase = self._by_action.get(type(a))
        if phase is not self.auction and state.step is Step.AUCTION:
            return "the auction for the First Player marker comes first: bid or pass"
        if phase is None:  # pragma: no cover - the union is closed
            return f"unknown action {a!r}"
        return phase.refusal(state, a)

    # ------------------------------------------------------------ doing, by phase
    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        # The phase that takes the action, found by its class (the actions are the
        # union's own classes, none a subclass of another).
        self._by_action[type(action)].execute(state, action, log)

    def next_player(self, state: RotwState, log: EventLog) -> None:
        self.turn.next_player(state, log)
