"""New England Railways: the whole turn, as a state machine over the record.

Each public method follows the kernel's contract: ``prompt`` says who must
decide what, ``validate`` refuses with a reason and never mutates, ``execute``
carries out a validated action and then runs every automatic step (service,
growth, rolls, income...) until the next decision. Rulings on what the
rulebook leaves open are in docs/rulings/new-england.md; the comments below
point to them by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress
from typing import Any, ClassVar

from railgames.core.auctions import next_bidder
from railgames.core.engine import AmountInput, OpenAmount, Prompt, Result, Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.new_england import rule_texts as R
from railgames.games.new_england.actions import (
    ACTION_ADAPTER,
    Bid,
    Borrow,
    FinishLink,
    PassBid,
    PassShip,
    Retire,
    Ship,
)
from railgames.games.new_england.board_map import NewEnglandMap
from railgames.games.new_england.state import (
    Auction,
    NEState,
    PendingFinish,
    Railway,
    Step,
)

LOAN_UNIT = 10
SERVICE_DIVISOR = 5  # debt service is 20% of the Bank Loan debt
MAX_SHIP_LINKS = 5
PATHS_KEPT = 64  # sets of built links whose shipping paths are kept
PATH_LINKS_KEPT = 50_000  # paths whose links income_split keeps
STARTING_CASH = 10
# Ruling "loan limit": no railway borrows past this debt by its own choice, a sum far
# beyond all the money a whole game pays out (docs/rulings/new-england.md).
MAX_DEBT = 1_000_000_000


def service_due(debt: int) -> int:
    return debt // SERVICE_DIVISOR


def compulsory_borrowing(cash: int, debt: int) -> int:
    """Smallest loan (in $10 units) after which cash covers the service on the new debt."""
    deficit = debt - SERVICE_DIVISOR * cash  # (debt + k) / 5 <= cash + k  <=>  4k >= debt - 5 cash
    if deficit <= 0:
        return 0
    units = -(-deficit // (4 * LOAN_UNIT))
    return units * LOAN_UNIT


def largest_loan(cash: int, debt: int) -> int:
    """The most a railway may borrow now: up to a debt of ``MAX_DEBT``, or the
    compulsory loan where that is more (the rulebook's own loans are never refused)."""
    return max(compulsory_borrowing(cash, debt), (MAX_DEBT - debt) // LOAN_UNIT * LOAN_UNIT)


class NewEnglandRules(Ruleset[NEState]):
    id: ClassVar[str] = "new-england"
    title: ClassVar[str] = "New England Railways"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "new-england"
    pitch: ClassVar[str] = (
        "Bid for railway links, race the dice to build them, and haul commodities for income."
    )
    play_time: ClassVar[str] = "60-90 min"
    # Edition 2: a growth reshuffle takes only earlier turns' discards (ruling "empty deck").
    edition: ClassVar[int] = 2
    map_model = NewEnglandMap
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here: the bots import these rules.
        from railgames.games.new_england.bots import GreedyBot, NewEnglandSearch

        return {"greedy": GreedyBot, "search": NewEnglandSearch.maker(self)}

    map: NewEnglandMap

    def __init__(self, game_map: NewEnglandMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        self._city_name = {c.id: c.name for c in game_map.cities}
        self._link_of_pair = {
            (link.a, link.b): link.id for link in game_map.links
        } | {(link.b, link.a): link.id for link in game_map.links}
        self._value = {link.id: link.value for link in game_map.links}
        self._ends = {link.id: (link.a, link.b) for link in game_map.links}
        self._demand = game_map.demand_of
        # Built links -> what is known of the shipping paths over them (``_paths_known``).
        self._paths: dict[frozenset[str], dict[Any, Any]] = {}
        # The shipping paths of the whole map, worked out once (``_map_paths``).
        ids = sorted(self._ends)
        self._link_bit = {link: 1 << i for i, link in enumerate(ids)}
        self._map_adj: dict[str, list[str]] = {}
        for link in ids:
            a, b = self._ends[link]
            self._map_adj.setdefault(a, []).append(b)
            self._map_adj.setdefault(b, []).append(a)
        self._map_path_table: dict[tuple[str, str], list[tuple[int, list[str]]]] = {}
        self._ship_tables: dict[tuple[int, str, str], list[Ship]] = {}
        self._map_masks: dict[tuple[str, str], list[int]] = {}
        self._cities_sorted = sorted(c.id for c in game_map.cities)
        self._city_set = frozenset(self._cities_sorted)
        self._fixed: dict[tuple[type[Any], int, bool | None], Any] = {}
        self._path_links: dict[tuple[str, ...], tuple[str, ...]] = {}  # see income_split

    # What the rules work out as play asks for it, left behind when they are pickled (a
    # bot's think takes its rules to a worker process and back): worked out again there.
    _KEPT_FROM_PLAY: ClassVar[tuple[str, ...]] = (
        "_paths", "_map_path_table", "_ship_tables", "_map_masks", "_fixed", "_path_links")

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in self._KEPT_FROM_PLAY:
            state[name] = {}
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
    def _name(state: NEState, seat: int) -> str:
        return state.railways[seat].name

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> NEState:
        n = len(record.players)
        m = self.map
        starting = list(m.starting_links[str(n)])
        deck = [link.id for link in m.links if link.id not in starting]
        chance.shuffle(deck)
        growth = list(range(len(m.growth_deck)))
        chance.shuffle(growth)
        state = NEState(
            railways=[Railway(name=p.name, cash=STARTING_CASH) for p in record.players],
            first=0,
            turn=0,
            step=Step.LOANS,
            cup=dict(m.commodities),
            cubes={c.id: {} for c in m.cities},
            link_deck=deck,
            growth_deck=growth,
            growth_discard=[],
            current=starting,
            future=[],
            owner={},
            built=set(),
            unfinished=[],
            set_aside=[],
            pending=[],
            rules_edition=self.edition_of(record),
            chance=chance,
        )
        log.add(
            f"Set-up: {len(starting)} Railway Links on offer ({', '.join(map(self.link_name, starting))}); "
            f"{len(deck)} more in the deck; everyone starts with ${STARTING_CASH}.",
            "setup", rule=R.SETUP,
        )
        placed = [f"{colour} to {self.city_name(city)}" for city, colour in
                  ((city, self._draw_cube(state, city)) for city in m.setup_cubes) if colour]
        log.add("Set-up cubes drawn from the cup: " + ", ".join(placed) + ".", "draw", rule=R.SETUP, chance=True)
        state.first = chance.randrange(n)
        log.add(f"{self._name(state, state.first)} is drawn to hold the First Player card.",
                "first_player", rule=R.SETUP, chance=True, seat=state.first)
        self._begin_turn(state, log)
        return state

    def _draw_cube(self, state: NEState, city: str) -> str | None:
        if sum(state.cup.values()) == 0:
            return None
        colour = state.chance.pick_weighted({c: k for c, k in state.cup.items() if k > 0})
        state.cup[colour] -= 1
        here = state.cubes[city]
        here[colour] = here.get(colour, 0) + 1
        return colour

    # ------------------------------------------------------------ prompts
    def to_move(self, state: NEState) -> int | None:
        step = state.step
        if step is Step.OVER:
            return None
        if step is Step.AUCTION:
            assert state.auction is not None
            return state.auction.to_act
        if step is Step.FINISH:
            assert state.finish is not None
            return state.finish.seat
        return state.pending[0]

    def prompt(self, state: NEState) -> Prompt | None:
        step = state.step
        if step is Step.OVER:
            return None
        if step is Step.LOANS:
            seat = state.pending[0]
            r = state.railways[seat]
            low = compulsory_borrowing(r.cash, r.debt)
            due = service_due(r.debt + low)
            text = f"{r.name}: take Bank Loans? (cash ${r.cash}, debt ${r.debt})"
            if low:
                text = (f"{r.name} must borrow at least ${low}: ${r.cash} cash cannot cover "
                        f"the ${service_due(r.debt)} debt service otherwise")
            return Prompt(
                seat=seat, step="Acquire Bank Loans", text=text,
                # Ruling "loan limit": the rulebook sets none; the far one of the ruling is the
                # amount's upper end, and only its low end is offered to bots and the palette.
                amount=OpenAmount(action_type="borrow", label="Borrow", min=low,
                                  max=largest_loan(r.cash, r.debt), step=LOAN_UNIT, default=low),
                help=f"Loans come in $10 units. Service of 20% is due next (${due} after this loan).",
            )
        if step is Step.RETIRE:
            seat = state.pending[0]
            r = state.railways[seat]
            top = min(r.debt, r.cash // LOAN_UNIT * LOAN_UNIT)
            return Prompt(
                seat=seat, step="Retire Bank Loan Debt",
                text=f"{r.name}: pay off loans? (cash ${r.cash}, debt ${r.debt})",
                amount=AmountInput(action_type="retire", label="Retire", min=0, max=top,
                                   step=LOAN_UNIT, default=0),
                help="Each $10 paid removes $10 of debt and $2 of future service.",
            )
        if step is Step.AUCTION:
            a = state.auction
            assert a is not None
            r = state.railways[a.to_act]
            high = (f"high bid ${a.high_bid} by {self._name(state, a.high_seat)}"
                    if a.high_seat is not None else "no bids yet")
            return Prompt(
                seat=a.to_act, step="Auction",
                text=f"Auction: {self.link_name(a.link)} (value {self._value[a.link]}), {high} — "
                     f"{r.name} to bid or pass",
                choices=[self._listed(PassBid, a.to_act)],
                amount=AmountInput(action_type="bid", label="Bid", min=a.high_bid + 1,
                                   max=r.cash, step=1, default=a.high_bid + 1),
                help="Bid more than the high bid, up to your cash, or pass and leave this auction.",
            )
        if step is Step.FINISH:
            f = state.finish
            assert f is not None
            return Prompt(
                seat=f.seat, step="Build roll",
                text=f"{self._name(state, f.seat)} rolled {f.roll} against {self._value[f.link]} for "
                     f"{self.link_name(f.link)}: pay ${f.shortfall} to finish it now?",
                choices=[self._listed(FinishLink, f.seat, True), self._listed(FinishLink, f.seat, False)],
                help="Unfinished links are completed at the start of next turn, "
                     "but cannot carry cubes until then.",
            )
        seat = state.pending[0]
        rnd = "first" if state.ship_round == 1 else "second"
        return Prompt(
            seat=seat, step=f"Shipping ({rnd} round)",
            text=f"{self._name(state, seat)}: ship one commodity cube, or pass",
            choices=[*self.shipments(state, seat), self._listed(PassShip, seat)],
            help="A cube travels up to 5 built links, visits each city once, and stops at the "
                 "first city that demands its colour. Each link used pays its owner +1 income.",
        )

    def _listed(self, cls: type[Any], seat: int, pay: bool | None = None) -> Any:
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
        """City -> the cities joined to it by built links (in the order of the links' ids);
        a new dictionary, worked out once for each set of built links."""
        known = self._paths_known(state)
        adj: dict[str, list[str]] | None = known.get("adj")
        if adj is None:
            adj = known["adj"] = {}
            for link in sorted(state.built):
                a, b = self._ends[link]
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
        return {city: list(near) for city, near in adj.items()}

    def routes(self, state: NEState | None, origin: str, colour: str,
               adj: dict[str, list[str]] | None = None) -> Iterator[list[str]]:
        """Every legal path for a cube of ``colour`` leaving ``origin`` (over the links
        built in ``state``, or over the cities joined in ``adj`` when that is given)."""
        if adj is None:
            assert state is not None
            adj = self.built_neighbours(state)
        demand = self._demand
        # Depth first, with a stack of neighbour iterators in place of recursion
        # (the search bot lists these paths on every shipping step).
        path = [origin]
        stack = [iter(adj.get(origin, ()))]
        while stack:
            for nxt in stack[-1]:
                if nxt in path:
                    continue
                if demand[nxt] == colour:
                    yield [*path, nxt]
                elif len(path) < MAX_SHIP_LINKS:
                    path.append(nxt)
                    stack.append(iter(adj.get(nxt, ())))
                    break
            else:
                stack.pop()
                path.pop()

    def _paths_known(self, state: NEState) -> dict[Any, Any]:
        """What is known of the shipping paths over the links built in ``state``:
        None -> the built links as bits (see ``_map_paths``), "adj" -> what
        ``built_neighbours`` gives, (city, colour) -> which paths of ``_map_paths`` are
        open to a cube there, (seat, city, colour) -> those paths as Ship actions.
        Built links change a few times a turn, the prompt every step."""
        built = frozenset(state.built)
        known = self._paths.get(built)
        if known is None:
            if len(self._paths) >= PATHS_KEPT:
                self._paths.clear()
            bit = self._link_bit
            known = self._paths[built] = {None: sum(bit[link] for link in built)}
        return known

    def _map_paths(self, origin: str, colour: str) -> list[tuple[int, list[str]]]:
        """Every shipping path for a cube of ``colour`` leaving ``origin`` were every link
        of the map built, each with the bits of the links it uses, in the order ``routes``
        lists them. The paths over the links built in a game are those whose links are
        all built, in the same order: a depth-first search over fewer links meets the
        rest in the same order (each city's neighbours come in the order of the links' ids)."""
        key = (origin, colour)
        paths = self._map_path_table.get(key)
        if paths is None:
            bit, link_of = self._link_bit, self._link_of_pair
            paths = self._map_path_table[key] = [
                (sum(bit[link_of[(a, b)]] for a, b in zip(p, p[1:], strict=False)), p)
                for p in self.routes(None, origin, colour, self._map_adj)]
        return paths

    def _open_paths(self, known: dict[Any, Any], city: str, colour: str) -> list[bool]:
        """For each path of ``_map_paths``, whether all its links are built (from ``known``)."""
        key = (city, colour)
        found: list[bool] | None = known.get(key)
        if found is None:
            built = known[None]
            masks = self._map_masks.get(key)
            if masks is None:
                masks = self._map_masks[key] = [links for links, _ in self._map_paths(city, colour)]
            found = known[key] = [links & built == links for links in masks]
        return found

    def _ship_table(self, seat: int, origin: str, colour: str) -> list[Ship]:
        """``_map_paths`` as Ship actions of ``seat``, made once each."""
        key = (seat, origin, colour)
        table = self._ship_tables.get(key)
        if table is None:
            # Built from paths the rules have just found, so validation is skipped.
            # Actions are frozen, so prompts and games may share them.
            table = self._ship_tables[key] = [
                Ship.trusted(type="ship", seat=seat, colour=colour, path=list(p))
                for _, p in self._map_paths(origin, colour)]
        return table

    def shipments(self, state: NEState, seat: int) -> list[Ship]:
        out: list[Ship] = []
        if not state.built:
            return out
        known = self._paths_known(state)
        ship_tables = self._ship_tables
        cubes = state.cubes
        for city in self._cities_sorted if cubes.keys() == self._city_set else sorted(cubes):
            waiting = cubes[city]
            if not waiting:
                continue
            for colour in sorted(waiting) if len(waiting) > 1 else waiting:
                if waiting[colour] > 0:
                    key = (seat, city, colour)
                    ships = known.get(key)
                    if ships is None:
                        open_paths = self._open_paths(known, city, colour)
                        if True not in open_paths:
                            ships = known[key] = ()
                        else:
                            table = ship_tables.get(key)
                            if table is None:
                                table = self._ship_table(seat, city, colour)
                            ships = known[key] = list(compress(table, open_paths))
                    out.extend(ships)
        return out

    def income_split(self, state: NEState, path: list[str]) -> dict[int, int]:
        """Seat -> income gained if a cube travels ``path``."""
        key = tuple(path)
        links = self._path_links.get(key)
        if links is None:
            if len(self._path_links) >= PATH_LINKS_KEPT:
                self._path_links.clear()
            link_of = self._link_of_pair
            links = self._path_links[key] = tuple(
                link_of[pair] for pair in zip(path, path[1:], strict=False))
        gain: dict[int, int] = {}
        owner = state.owner
        for link in links:
            seat = owner[link]
            gain[seat] = gain.get(seat, 0) + 1
        return gain

    # ------------------------------------------------------------ validation
    def validate(self, state: NEState, action: Any) -> None:
        step = state.step
        r = state.railways[action.seat]
        if isinstance(action, Borrow):
            self._expect(step, Step.LOANS, "take Bank Loans")
            if action.amount % LOAN_UNIT:
                raise IllegalAction(f"loans come in $10 units; ${action.amount} is not one")
            low = compulsory_borrowing(r.cash, r.debt)
            if action.amount < low:
                raise IllegalAction(
                    f"{r.name} must borrow at least ${low}: with ${r.cash} cash and ${r.debt} "
                    f"of debt the coming service could not be paid")
            top = largest_loan(r.cash, r.debt)
            if action.amount > top:
                raise IllegalAction(
                    f"{r.name} may borrow at most ${top:,} now: no railway may choose to owe "
                    f"more than ${MAX_DEBT:,}, far more than a whole game pays out")
        elif isinstance(action, Retire):
            self._expect(step, Step.RETIRE, "retire debt")
            if action.amount % LOAN_UNIT:
                raise IllegalAction(f"debt is retired in $10 units; ${action.amount} is not one")
            if action.amount > r.debt:
                raise IllegalAction(f"{r.name} owes only ${r.debt}")
            if action.amount > r.cash:
                raise IllegalAction(f"{r.name} has ${r.cash}; retiring ${action.amount} needs "
                                    f"${action.amount - r.cash} more")
        elif isinstance(action, Bid | PassBid):
            self._expect(step, Step.AUCTION, "bid")
            if isinstance(action, Bid):
                a = state.auction
                assert a is not None
                if action.amount <= a.high_bid:
                    raise IllegalAction(
                        f"a bid must beat the high bid of ${a.high_bid}; ${action.amount} does not")
                if action.amount > r.cash:
                    raise IllegalAction(f"{r.name} has ${r.cash}; a bid of ${action.amount} needs "
                                        f"${action.amount - r.cash} more")
        elif isinstance(action, FinishLink):
            self._expect(step, Step.FINISH, "pay to finish a link")
            f = state.finish
            assert f is not None
            if action.pay and r.cash < f.shortfall:
                raise IllegalAction(f"{r.name} has ${r.cash}; finishing needs ${f.shortfall}")
        elif isinstance(action, Ship):
            self._expect(step, Step.SHIP, "ship")
            self._validate_ship(state, action)
        elif isinstance(action, PassShip):
            self._expect(step, Step.SHIP, "pass on shipping")
        else:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")

    @staticmethod
    def _expect(step: Step, wanted: Step, doing: str) -> None:
        if step is not wanted:
            names = {
                Step.LOANS: "taking Bank Loans", Step.RETIRE: "retiring debt",
                Step.AUCTION: "the auction", Step.FINISH: "a build-roll decision",
                Step.SHIP: "shipping", Step.OVER: "the end of the game",
            }
            raise IllegalAction(f"you cannot {doing} now: the game is at {names[step]}")

    def check_references(self, action: Any) -> None:
        if isinstance(action, Ship):
            if action.colour not in self.map.commodities:
                raise MalformedAction(f"'{action.colour}' is not a commodity colour")
            for city in action.path:
                if city not in self._city_name:
                    raise MalformedAction(f"'{city}' is not a city on this map")

    def _validate_ship(self, state: NEState, action: Ship) -> None:
        path, colour = action.path, action.colour
        origin = path[0]
        if state.cubes[origin].get(colour, 0) == 0:
            raise IllegalAction(f"there is no {colour} cube waiting in {self.city_name(origin)}")
        links = len(path) - 1
        if links > MAX_SHIP_LINKS:
            raise IllegalAction(f"a cube may travel at most {MAX_SHIP_LINKS} links; this path uses {links}")
        seen: set[str] = set()
        for city in path:
            if city in seen:
                raise IllegalAction(f"a cube visits each city once; this path enters {self.city_name(city)} twice")
            seen.add(city)
        for a, b in zip(path, path[1:], strict=False):
            link = self._link_of_pair.get((a, b))
            if link is None:
                raise IllegalAction(f"no railway link joins {self.city_name(a)} and {self.city_name(b)}")
            if link not in state.built:
                raise IllegalAction(f"the {self.link_name(link)} link is not built, so cubes cannot use it")
        for city in path[1:-1]:
            if self._demand[city] == colour:
                raise IllegalAction(
                    f"a {colour} cube must stop at {self.city_name(city)}, which demands {colour}")
        end = path[-1]
        if self._demand[end] != colour:
            raise IllegalAction(f"{self.city_name(end)} demands {self._demand[end]}, not {colour}; "
                                f"a {colour} cube must end where {colour} is demanded")

    # ------------------------------------------------------------ execution
    def execute(self, state: NEState, action: Any, log: EventLog) -> None:
        seat = action.seat
        r = state.railways[seat]
        if isinstance(action, Borrow):
            state.pending.pop(0)
            forced = compulsory_borrowing(r.cash, r.debt) > 0
            if action.amount:
                r.cash += action.amount
                r.debt += action.amount
                log.add(f"{r.name} borrows ${action.amount} (debt now ${r.debt}).",
                        "borrow", rule=R.FORCED_LOAN if forced else R.LOANS, seat=seat, cash=action.amount, debt=action.amount)
            else:
                log.add(f"{r.name} takes no loan.", "no_loan", rule=R.LOANS, seat=seat)
        elif isinstance(action, Retire):
            state.pending.pop(0)
            if action.amount:
                r.cash -= action.amount
                r.debt -= action.amount
                log.add(f"{r.name} retires ${action.amount} of debt (debt now ${r.debt}).",
                        "retire", rule=R.RETIRE, seat=seat, cash=-action.amount, debt=-action.amount)
            else:
                log.add(f"{r.name} keeps the debt.", "no_retire", rule=R.RETIRE, seat=seat)
        elif isinstance(action, Bid):
            a = state.auction
            assert a is not None
            a.high_bid, a.high_seat = action.amount, seat
            log.add(f"{r.name} bids ${action.amount} for {self.link_name(a.link)}.", "bid", rule=R.AUCTION,
                    seat=seat, amount=action.amount)
            self._next_bidder(state, seat, log)
        elif isinstance(action, PassBid):
            a = state.auction
            assert a is not None
            a.bidders.remove(seat)
            log.add(f"{r.name} passes on {self.link_name(a.link)}.", "pass_bid", rule=R.AUCTION, seat=seat)
            self._next_bidder(state, seat, log)
        elif isinstance(action, FinishLink):
            f = state.finish
            assert f is not None
            if action.pay:
                r.cash -= f.shortfall
                state.built.add(f.link)
                log.add(f"{r.name} pays ${f.shortfall} to finish {self.link_name(f.link)} now.",
                        "finish_pay", rule=R.PAY_TO_FINISH, seat=seat, cash=-f.shortfall, link=f.link)
            else:
                state.unfinished.append(f.link)
                log.add(f"{r.name} leaves {self.link_name(f.link)} unfinished; it will be completed "
                        "next turn.", "finish_wait", rule=R.UNFINISHED, seat=seat, link=f.link)
            state.finish = None
            state.step = Step.AUCTION
            self._open_next_auction(state, log)
        elif isinstance(action, Ship):
            self._ship(state, action, log)
            state.pending.pop(0)
        elif isinstance(action, PassShip):
            log.add(f"{r.name} ships nothing.", "pass_ship", rule=R.SHIP_ROUNDS, seat=seat)
            state.pending.pop(0)
        self._advance(state, log)

    def _ship(self, state: NEState, action: Ship, log: EventLog) -> None:
        origin, colour = action.path[0], action.colour
        here = state.cubes[origin]
        here[colour] -= 1
        if here[colour] == 0:
            del here[colour]
        state.cup[colour] += 1
        gain = self.income_split(state, action.path)
        for s, g in gain.items():
            state.railways[s].income += g
        route = " → ".join(self.city_name(c) for c in action.path)
        links = len(action.path) - 1
        earned = ", ".join(f"{self._name(state, s)} +{g}" for s, g in sorted(gain.items()))
        log.add(f"{self._name(state, action.seat)} ships a {colour} cube {route} "
                f"({links} link{'s' if links != 1 else ''}; income {earned}); the cube returns to the cup.",
                "ship", rule=R.SHIP, seat=action.seat, colour=colour, path=list(action.path), income=gain)

    # ------------------------------------------------------------ the flow of a turn
    def _begin_turn(self, state: NEState, log: EventLog) -> None:
        state.turn += 1
        for r in state.railways:
            r.bought_this_turn = None
        state.step = Step.LOANS
        state.pending = state.seat_order()
        log.add(f"Turn {state.turn} begins; {self._name(state, state.first)} is First Player.",
                "turn", rule=R.TURN_ORDER, turn=state.turn)

    def _advance(self, state: NEState, log: EventLog) -> None:
        """Run automatic steps until a player must decide (or the game ends)."""
        while True:
            step = state.step
            if step is Step.LOANS:
                if state.pending:
                    return
                self._service_debt(state, log)
                state.step = Step.RETIRE
                state.pending = [s for s in state.seat_order()
                                 if state.railways[s].debt > 0 and state.railways[s].cash >= LOAN_UNIT]
            elif step is Step.RETIRE:
                if state.pending:
                    return
                self._commodity_growth(state, log)
                self._complete_unfinished(state, log)
                self._publicise(state, log)
                state.step = Step.AUCTION
                state.auction_slot = 0
                self._open_next_auction(state, log)
            elif step is Step.AUCTION:
                if state.auction is not None:
                    return
                # Every current link has been sold or set aside: next turn's links move down.
                state.current, state.future = state.future, []
                state.step = Step.SHIP
                state.ship_round = 1
                state.pending = [s for s in state.seat_order()
                                 if state.railways[s].bought_this_turn is None]
                buyers = [s for s in state.seat_order() if s not in state.pending]
                if buyers:
                    who = " and ".join(self._name(state, s) for s in buyers)
                    log.add(f"Shipping begins. {who} bought a Railway Link this turn and "
                            f"{'sit' if len(buyers) > 1 else 'sits'} out the first round "
                            "(shipping only in the second).", "sit_out_ship", rule=R.SHIP_ROUNDS, seats=buyers)
            elif step is Step.FINISH:
                return
            elif step is Step.SHIP:
                while state.pending and not self._can_ship(state):
                    seat = state.pending.pop(0)
                    log.add(f"{self._name(state, seat)} has no cube that can be shipped.",
                            "no_shipment", rule=R.SHIP_ROUNDS, seat=seat)
                if state.pending:
                    return
                if state.ship_round == 1:
                    state.ship_round = 2
                    state.pending = state.seat_order()
                    continue
                self._end_of_turn(state, log)
                if state.step is Step.OVER:
                    return
            else:
                return

    def _can_ship(self, state: NEState) -> bool:
        if not state.built:
            return False
        known = self._paths_known(state)
        for city, here in state.cubes.items():
            for colour, count in here.items():
                if count and True in self._open_paths(known, city, colour):
                    return True
        return False

    def _service_debt(self, state: NEState, log: EventLog) -> None:
        for seat in state.seat_order():
            r = state.railways[seat]
            due = service_due(r.debt)
            if due:
                r.cash -= due
                log.add(f"{r.name} pays ${due} service on ${r.debt} of debt.", "service", rule=R.SERVICE,
                        seat=seat, cash=-due)

    def _commodity_growth(self, state: NEState, log: EventLog) -> None:
        # Ruling "empty deck": a reshuffle takes only earlier turns' discards; the cards
        # turned this turn are still face up on the table and join the discards after.
        # Edition 1 (saves made before that ruling) discarded each card as it was turned,
        # so a reshuffle could bring it back in the same turn.
        first_edition = state.rules_edition == 1
        turned: list[int] = []
        for _ in state.current:
            if not state.growth_deck:
                if not state.growth_discard:
                    log.add("Every Commodity Growth card has been turned this turn: no more "
                            "cards come up.", "growth_exhausted", rule=R.RESHUFFLE)
                    break
                state.growth_deck = state.growth_discard
                state.growth_discard = []
                state.chance.shuffle(state.growth_deck)
                log.add("The Commodity Growth deck is reshuffled." if first_edition else
                        "The Commodity Growth deck is reshuffled from earlier turns' discards.",
                        "reshuffle", rule=R.RESHUFFLE, chance=True)
            card = state.growth_deck.pop()
            (state.growth_discard if first_edition else turned).append(card)
            cities = self.map.growth_deck[card].cities
            parts = []
            for city in cities:
                colour = self._draw_cube(state, city)
                parts.append(f"{colour} cube to {self.city_name(city)}" if colour
                             else f"none for {self.city_name(city)} (the cup is empty)")
            names = " & ".join(self.city_name(c) for c in cities)
            log.add(f"Commodity Growth card {names}: {'; '.join(parts)}.", "growth", rule=R.GROWTH,
                    chance=True, cities=list(cities))
        state.growth_discard.extend(turned)

    def _complete_unfinished(self, state: NEState, log: EventLog) -> None:
        for link in state.unfinished:
            state.built.add(link)
            log.add(f"{self.link_name(link)} is completed for "
                    f"{self._name(state, state.owner[link])}.", "complete", rule=R.UNFINISHED, link=link)
        state.unfinished = []

    def _publicise(self, state: NEState, log: EventLog) -> None:
        drawn = []
        for _ in state.current:
            if state.link_deck:
                drawn.append(state.link_deck.pop())
        state.future.extend(drawn)
        if drawn:
            log.add("Publicised for next turn: " + ", ".join(map(self.link_name, drawn)) + ".",
                    "publicise", rule=R.PUBLICISE, chance=True, links=drawn)
        else:
            log.add("The Railway Link deck is empty: no links are publicised.", "publicise", rule=R.PUBLICISE)

    # ------------------------------------------------------------ auctions
    def _open_next_auction(self, state: NEState, log: EventLog) -> None:
        state.auction = None
        while state.auction_slot < len(state.current):
            link = state.current[state.auction_slot]
            state.auction_slot += 1
            order = state.seat_order()
            skipped = [s for s in order if state.railways[s].bought_this_turn is not None]
            bidders = [s for s in order if s not in skipped]
            log.add(f"Auction of {self.link_name(link)} (value {self._value[link]}) opens.",
                    "auction", rule=R.AUCTION, link=link)
            for s in skipped:
                log.add(f"{self._name(state, s)} already bought a link this turn and sits out.",
                        "sit_out", rule=R.ONE_LINK, seat=s)
            if not bidders:
                self._set_aside(state, link, log)
                continue
            state.auction = Auction(link=link, bidders=bidders, to_act=bidders[0])
            if self._settle_auction(state, log):
                return
        state.auction = None

    def _next_bidder(self, state: NEState, after: int, log: EventLog) -> None:
        a = state.auction
        assert a is not None
        seat = next_bidder(after, len(state.railways), a.bidders, a.high_seat)
        if seat is not None:
            a.to_act = seat
        if not self._settle_auction(state, log) and state.step is Step.AUCTION:
            self._open_next_auction(state, log)

    def _settle_auction(self, state: NEState, log: EventLog) -> bool:
        """Drop bidders who cannot top the high bid; resolve the auction when it is decided.

        Returns True while the auction still waits for a decision.
        """
        a = state.auction
        assert a is not None
        n = len(state.railways)
        while True:
            others = [s for s in a.bidders if s != a.high_seat]
            if not others:
                break
            seat = a.to_act
            if state.railways[seat].cash > a.high_bid:
                return True
            a.bidders.remove(seat)
            log.add(f"{self._name(state, seat)} cannot top the high bid of ${a.high_bid} "
                    f"(cash ${state.railways[seat].cash}) and drops out.", "pass_bid", rule=R.AUCTION, seat=seat)
            for i in range(1, n + 1):
                nxt = (seat + i) % n
                if nxt in a.bidders and nxt != a.high_seat:
                    a.to_act = nxt
                    break
        if a.high_seat is None:
            self._set_aside(state, a.link, log)
            state.auction = None
            return False
        self._award(state, a, log)
        return state.step is Step.FINISH

    def _set_aside(self, state: NEState, link: str, log: EventLog) -> None:
        state.set_aside.append(link)
        log.add(f"Nobody buys {self.link_name(link)}; it is set aside for good.", "set_aside", rule=R.SET_ASIDE, link=link)

    def _award(self, state: NEState, a: Auction, log: EventLog) -> None:
        seat = a.high_seat
        assert seat is not None
        r = state.railways[seat]
        r.cash -= a.high_bid
        r.links.append(a.link)
        r.bought_this_turn = a.link
        state.owner[a.link] = seat
        state.auction = None
        dice = state.chance.roll(2)
        roll, value = sum(dice), self._value[a.link]
        head = (f"{r.name} wins {self.link_name(a.link)} for ${a.high_bid}, "
                f"rolls {roll} ({dice[0]}+{dice[1]}) against {value}")
        data: dict[str, Any] = {"seat": seat, "cash": -a.high_bid, "link": a.link, "roll": roll}
        if roll >= value:
            state.built.add(a.link)
            log.add(f"{head}: built at once.", "win", rule=(R.AUCTION, R.BUILD_ROLL), chance=True, **data)
        elif r.cash >= value - roll:
            state.finish = PendingFinish(seat=seat, link=a.link, roll=roll, shortfall=value - roll)
            state.step = Step.FINISH
            log.add(f"{head}: ${value - roll} short.", "win", rule=(R.AUCTION, R.BUILD_ROLL), chance=True, **data)
        else:
            state.unfinished.append(a.link)
            log.add(f"{head}: ${value - roll} short, more than {r.name}'s ${r.cash}; "
                    "it will be completed next turn.", "win", rule=(R.AUCTION, R.BUILD_ROLL), chance=True, **data)

    # ------------------------------------------------------------ end of turn
    def _end_of_turn(self, state: NEState, log: EventLog) -> None:
        first = state.railways[state.first]
        dice = state.chance.roll(2)
        loss_number = sum(dice) + 1
        losses = []
        for r in state.railways:
            loss = r.income // loss_number
            r.income -= loss
            losses.append(f"{r.name} -{loss}")
        log.add(f"Market: {first.name} rolls {sum(dice)} ({dice[0]}+{dice[1]}); market loss number "
                f"{loss_number}: {', '.join(losses)}.", "market", rule=R.MARKET, chance=True, roll=sum(dice))
        for seat, r in enumerate(state.railways):
            if r.income:
                r.cash += r.income
                log.add(f"{r.name} receives ${r.income} income.", "income", rule=R.INCOME, seat=seat, cash=r.income)
        state.history.append([(r.income, r.cash) for r in state.railways])
        self._pass_first_player_card(state, log)
        if not state.current and not state.link_deck and not state.unfinished:
            self._final_scoring(state, log)
        else:
            self._begin_turn(state, log)

    def _pass_first_player_card(self, state: NEState, log: EventLog) -> None:
        rs = state.railways
        top = max(r.income for r in rs)
        tied = [s for s, r in enumerate(rs) if r.income == top]
        why = "highest income"
        if len(tied) > 1:
            cash = max(rs[s].cash for s in tied)
            tied = [s for s in tied if rs[s].cash == cash]
            why = "tied on income; most cash"
        if len(tied) > 1:
            debt = min(rs[s].debt for s in tied)
            tied = [s for s in tied if rs[s].debt == debt]
            why = "tied on income and cash; least debt"
        if len(tied) > 1:
            # Ruling "first player ties": the still-tied players roll a die, highest takes it.
            while len(tied) > 1:
                rolls = {s: state.chance.roll(1)[0] for s in tied}
                best = max(rolls.values())
                log.add("First Player tie: " + ", ".join(
                    f"{rs[s].name} rolls {v}" for s, v in rolls.items()) + ".", "tie_roll", rule=R.TIE_ROLL, chance=True)
                tied = [s for s in tied if rolls[s] == best]
            why = "won the tie roll"
        state.first = tied[0]
        log.add(f"{rs[state.first].name} takes the First Player card ({why}).",
                "first_player", rule=R.FIRST_PLAYER, seat=state.first)

    def _final_scoring(self, state: NEState, log: EventLog) -> None:
        final: dict[str, dict[str, int]] = {}
        for seat, r in enumerate(state.railways):
            values = sum(self._value[link] for link in r.links)
            service = service_due(r.debt)
            cash_before = r.cash
            if values:
                r.cash += values
                log.add(f"{r.name} adds ${values} for {len(r.links)} Railway "
                        f"Link{'s' if len(r.links) != 1 else ''}.", "link_values", rule=R.FINAL,
                        seat=seat, cash=values)
            if r.debt:
                r.cash -= r.debt + service
                log.add(f"{r.name} repays ${r.debt} of loans and ${service} service.", "repay", rule=R.FINAL,
                        seat=seat, cash=-(r.debt + service), debt=-r.debt)
            final[r.name] = {
                "cash": cash_before, "link_values": values, "debt_owed": -r.debt,
                "service": -service, "total": r.cash,
            }
            r.debt = 0
        state.final = final
        state.step = Step.OVER
        state.pending = []
        result = self.result(state)
        assert result is not None
        log.add(result.summary("$"), "game_over", rule=R.FINAL)

    def result(self, state: NEState) -> Result | None:
        return None if state.final is None else Result.from_breakdown(state.final)
