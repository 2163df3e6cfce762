"""Paris Connection: building railways out of Paris with shares nobody else can see.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action. Rulings on what the rules leave open are in
docs/rulings/paris-connection.md; comments below name them.

Hidden information lives in one place, each ``Shareholder.shares``; ``view``
blanks the other players' holdings and drops the events they alone may see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from railgames.core.engine import Interned, Prompt, Result, Ruleset
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import EventLog, SeenLogs, visible_events
from railgames.core.hexgrid import Hex, neighbours, side_key
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.paris_connection import rule_texts as R
from railgames.games.paris_connection.actions import ACTION_ADAPTER, Build, EndBuild, Trade
from railgames.games.paris_connection.board_map import ParisConnectionMap
from railgames.games.paris_connection.state import PCState, Shareholder, Step

# Locomotives dealt to each player, and the holding limit, by player count.
HAND_SIZE = {3: 10, 4: 8, 5: 6, 6: 5}
HOLDING_LIMIT = {3: 20, 4: 15, 5: 12, 6: 10}
PENALTY_PER_EXTRA = 20
MAX_BUILD = 5


VALUE_MARKER = 1  # each company's value marker is one of its own locomotives
TRADE_LISTS_KEPT = 4096  # lists of legal trades kept for listing again


class ParisConnectionRules(Ruleset[PCState]):
    id: ClassVar[str] = "paris-connection"
    title: ClassVar[str] = "Paris Connection"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "paris-connection"
    pitch: ClassVar[str] = (
        "Push six railways out of Paris across France, holding shares no one else can see."
    )
    play_time: ClassVar[str] = "20-40 min"
    hidden_information: ClassVar[bool] = True
    # Edition 2: a value marker is one of each company's locomotives, so 31 of each are
    # dealt or stored, not 32 (ruling "starting locomotives").
    edition: ClassVar[int] = 2
    map_model = ParisConnectionMap
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here: the bots import these rules.
        from railgames.games.paris_connection.bots import GreedyBot, ParisConnectionSearch

        return {"greedy": GreedyBot, "search": ParisConnectionSearch.maker(self)}

    map: ParisConnectionMap

    def __init__(self, game_map: ParisConnectionMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        m = game_map
        self.companies: list[str] = m.company_ids
        self._links = m.links
        self._capacity = m.capacity
        self._no_room = frozenset(h for h, room in m.capacity.items() if not room)
        self._value = m.hex_value
        self._city_at = m.city_at
        self._paris = m.paris
        self._checkered = m.checkered
        self._end_hex = m.end_hex
        self._offset = {h: m.offset_of(h) for h in m.terrain}
        self._hex_at = {off: h for h, off in self._offset.items()}
        # The board ``_frontiers_now`` last worked on, and its frontiers.
        self._last_frontiers: tuple[dict[Hex, list[str]], dict[str, set[Hex]]] | None = None
        # Legal choices, made once each (see engine.Interned).
        self._build_tables: dict[tuple[int, str], _Builds] = {}
        self._trade_lists: dict[tuple[Any, ...], tuple[Trade, ...]] = {}
        self._listed_trade = Interned(Trade).make

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a bot's think takes its rules to a worker process and back) without
        what the rules keep from play: worked out again there as needed."""
        state = self.__dict__.copy()
        state.update(_last_frontiers=None, _build_tables={}, _trade_lists={},
                     _listed_trade=Interned(Trade).make)
        return state

    # ------------------------------------------------------------ names
    def hex_at(self, col: int, row: int) -> Hex | None:
        return self._hex_at.get((col, row))

    def offset(self, h: Hex) -> tuple[int, int]:
        return self._offset[h]

    def hex_name(self, h: Hex) -> str:
        city = self._city_at.get(h)
        col, row = self._offset[h]
        if city is not None:
            return city.name
        if h in self._paris:
            return f"Paris ({col},{row})"
        return f"hex {col},{row}"

    def city_name(self, place: str) -> str:
        """A hex given by its id "column,row", named as the log names it."""
        try:
            col, row = (int(p) for p in place.split(","))
        except ValueError:
            return place
        h = self._hex_at.get((col, row))
        return place if h is None else self.hex_name(h)

    def hex_value(self, h: Hex) -> int:
        return self._value[h]

    def is_city(self, h: Hex) -> bool:
        return h in self._city_at

    @staticmethod
    def _name(state: PCState, seat: int) -> str:
        return state.players[seat].name

    @staticmethod
    def _locos(count: int, company: str) -> str:
        return f"{count} {company} locomotive{'s' if count != 1 else ''}"

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> PCState:
        n = len(record.players)
        edition = self.edition_of(record)
        # Ruling "starting locomotives": of each company's locomotives one stands in Paris and one
        # marks its value on the score track; only the rest are dealt or stored. Edition 1 (saves
        # made before that ruling) kept no marker back, and dealt or stored one more of each.
        marker = 0 if edition == 1 else VALUE_MARKER
        supply = {c.id: c.locomotives - 1 - marker for c in self.map.companies}
        board = {self.map.hex_of(*c.start): [c.id] for c in self.map.companies}
        state = PCState(
            players=[Shareholder(name=p.name, shares={}) for p in record.players],
            supply=supply,
            value=dict.fromkeys(self.companies, 0),
            board=board,
            current=0,
            turn=0,
            step=Step.TURN,
            rules_edition=edition,
            chance=chance,
        )
        log.add("Each company starts with one locomotive in Paris: "
                + ", ".join(f"{c} at {self.hex_name(h)}" for h, (c,) in board.items()) + ".",
                "setup", rule=R.SETUP)
        hand = HAND_SIZE[n]
        log.add(f"Each player is dealt {hand} locomotives at random from the supplies, "
                "and keeps them behind a screen.", "deal_public", rule=R.DEAL, chance=True, hand=hand)
        # Ruling "the deal": one locomotive at a time, drawn from all the supplies as from a bag.
        for seat, player in enumerate(state.players):
            shares: dict[str, int] = {}
            for _ in range(hand):
                company = chance.pick_weighted({c: k for c, k in supply.items() if k > 0})
                supply[company] -= 1
                shares[company] = shares.get(company, 0) + 1
            player.shares = {c: shares[c] for c in self.companies if c in shares}
            player.held = hand
            log.add(f"{player.name} is dealt {self.holding_text(player.shares)}.", "deal", rule=R.DEAL,
                    chance=True, visible_to=frozenset({seat}), seat=seat, shares=dict(player.shares))
        state.current = chance.randrange(n)
        log.add(f"{self._name(state, state.current)} is drawn to play first.", "first_player", rule=R.SETUP,
                chance=True, seat=state.current)
        self._begin_turn(state, log)
        return state

    def holding_text(self, shares: dict[str, int]) -> str:
        parts = [f"{shares[c]} {c}" for c in self.companies if shares.get(c)]
        return ", ".join(parts) if parts else "nothing"

    # ------------------------------------------------------------ the board
    def room_for(self, state: PCState, h: Hex, company: str) -> bool:
        """Could a locomotive of ``company`` stand on ``h``, by the stacking rules alone?"""
        here = state.board.get(h, ())
        return company not in here and len(here) < self._capacity[h]

    def frontier(self, state: PCState, company: str) -> set[Hex]:
        """Hexes next to ``company``'s locomotives where one more of it could stand."""
        out: set[Hex] = set()
        for h, here in state.board.items():
            if company in here:
                out.update(n for n in self._links[h] if self.room_for(state, n, company))
        return out

    def frontiers(self, state: PCState) -> dict[str, set[Hex]]:
        """Every company's frontier, in one pass over the board."""
        board, capacity, links = state.board, self._capacity, self._links
        on: dict[str, list[Hex]] = {c: [] for c in self.companies}
        # Hexes no further locomotive can stand on: full ones, and the tower.
        full = set(self._no_room)
        for h, here in board.items():
            for c in here:
                on[c].append(h)
            if len(here) >= capacity[h]:
                full.add(h)
        out: dict[str, set[Hex]] = {}
        for c, hexes in on.items():
            # Next to one of its locomotives, not full, and not holding one of its own.
            room = set().union(*map(links.__getitem__, hexes)) if hexes else set()
            room -= full
            room.difference_update(hexes)
            out[c] = room
        return out

    def _frontiers_now(self, state: PCState) -> dict[str, set[Hex]]:
        """``frontiers(state)``, kept for the board it was worked out on, for the rules'
        own reading only (never handed out, so never changed): a prompt, the check of
        the placement chosen from it, and the turn after a trade see the same board."""
        last = self._last_frontiers
        board = state.board
        if last is not None and last[0] == board:
            return last[1]
        frontiers = self.frontiers(state)
        self._last_frontiers = ({h: list(here) for h, here in board.items()}, frontiers)
        return frontiers

    def _frontiers_after(self, state: PCState,
                         last: tuple[dict[Hex, list[str]], dict[str, set[Hex]]],
                         company: str, h: Hex) -> None:
        """Keep ``_frontiers_now`` in step with a placement of ``company`` on ``h``, made on
        the board it last worked on: only ``h`` and the room of ``company`` change."""
        board, capacity = state.board, self._capacity
        snapshot = last[0].copy()
        here = snapshot[h] = list(board[h])
        frontiers = last[1].copy()
        room = set(frontiers[company])
        room.discard(h)
        for n in self._links[h]:
            there = board.get(n)
            if there is None:
                if capacity[n]:
                    room.add(n)
            elif len(there) < capacity[n] and company not in there:
                room.add(n)
        frontiers[company] = room
        if len(here) >= capacity[h]:  # full now: in nobody's room
            for c, other in frontiers.items():
                if h in other:
                    if c != company:
                        other = frontiers[c] = set(other)
                    other.discard(h)
        self._last_frontiers = (snapshot, frontiers)

    def reached_city(self, state: PCState, company: str) -> bool:
        return any(company in here and h in self._city_at for h, here in state.board.items())

    def cut_off_by(self, state: PCState, company: str, h: Hex,
                   frontiers: dict[str, set[Hex]] | None = None) -> str | None:
        """The colour a placement of ``company`` on ``h`` would cut off, if any.

        Ruling "cut off": a colour is cut off when no hex is left where one of its
        locomotives could legally stand. A placement fills at most the one hex it
        is on, so it cuts colour D off exactly when ``h`` is D's only such hex and
        the placement leaves ``h`` full. A colour with a locomotive in a city is
        not protected; nor is the colour being placed (the rule protects others).
        """
        if len(state.board.get(h, ())) + 1 < self._capacity[h]:
            return None  # the hex still has room for another colour afterwards
        if frontiers is None:
            frontiers = self._frontiers_now(state)
        # Only a colour with a locomotive next to ``h`` can have ``h`` in its room.
        nearby = {c for n in self._links[h] for c in state.board.get(n, ())}
        for other in self.companies:
            if other == company or other not in nearby:
                continue
            if frontiers[other] == {h} and not self.reached_city(state, other):
                return other
        return None

    def placement_refusal(self, state: PCState, company: str, h: Hex,
                          frontiers: dict[str, set[Hex]] | None = None) -> str | None:
        """Why ``company`` may not place on ``h`` now (supply and build size aside)."""
        if h == self.map.tower:
            return "the Eiffel Tower hex can never hold a locomotive"
        here = state.board.get(h, [])
        if company in here:
            return f"{self.hex_name(h)} already holds a {company} locomotive; two of a colour never share a hex"
        if self.is_city(h) and here:
            return f"{self.hex_name(h)} is a city and holds only one locomotive ({here[0]} is there)"
        if len(here) >= self._capacity[h]:
            return f"{self.hex_name(h)} already holds two locomotives ({' and '.join(here)})"
        if not any(company in state.board.get(n, ()) for n in self._links[h]):
            across = [n for n in neighbours(h)
                      if company in state.board.get(n, ()) and side_key(h, n) in self._checkered]
            if across:
                return (f"{self.hex_name(h)} is next to a {company} locomotive only across a checkered "
                        f"border ({self.hex_name(across[0])}), which does not count as adjacent")
            return f"a new {company} locomotive must be placed next to one already on the board"
        victim = self.cut_off_by(state, company, h, frontiers)
        if victim is not None:
            return (f"a {company} locomotive on {self.hex_name(h)} would cut {victim} off completely: "
                    f"it is the last hex {victim} could grow into, and {victim} has reached no city")
        return None

    def legal_hexes(self, state: PCState, company: str,
                    frontiers: dict[str, set[Hex]] | None = None) -> list[Hex]:
        if frontiers is None:
            frontiers = self._frontiers_now(state)
        # Only a hex that is the whole room of another colour can cut it off (``cut_off_by``).
        last = {h for c, room in frontiers.items() if c != company and len(room) == 1 for h in room}
        hexes = sorted(frontiers[company], key=self._offset.__getitem__)
        if not last:
            return hexes
        return [h for h in hexes
                if h not in last or self.cut_off_by(state, company, h, frontiers) is None]

    # ------------------------------------------------------------ prompts
    def to_move(self, state: PCState) -> int | None:
        return None if state.step is Step.OVER else state.current

    def turn_of(self, state: PCState) -> int:
        return state.turn

    def prompt(self, state: PCState) -> Prompt | None:
        if state.step is Step.OVER:
            return None
        seat = state.current
        name = self._name(state, seat)
        if state.step is Step.BUILD:
            company = state.building
            assert company is not None
            done = len(state.placed)
            choices: list[Any] = []
            if done < MAX_BUILD and state.supply[company] > 0:
                choices = self._builds(state, seat, [company])
            choices.append(EndBuild(seat=seat))
            return Prompt(
                seat=seat, step="Build",
                text=f"{name}: {done} of {MAX_BUILD} {company} locomotives placed — "
                     "place another or end the build",
                choices=choices,
                help="Each locomotive goes next to one of its colour already on the board "
                     "(including those placed this turn).",
            )
        companies = [c for c in self.companies if state.supply[c] > 0]
        return Prompt(
            seat=seat, step="Build or trade",
            text=f"{name}: build 1 to {MAX_BUILD} locomotives of one company, or trade",
            choices=[*self._builds(state, seat, companies), *self.trades(state, seat)],
            help="Build: place locomotives of one colour from its supply, each next to one of "
                 "its colour. Trade: return one locomotive from behind your screen and take one "
                 "or two of another company.",
        )

    def _builds(self, state: PCState, seat: int, companies: Iterable[str]) -> list[Any]:
        frontiers = self._frontiers_now(state)
        out: list[Any] = []
        tables = self._build_tables
        for c in companies:
            table = tables.get((seat, c))
            if table is None:
                table = tables[(seat, c)] = _Builds(seat, c, self._offset)
            out.extend(map(table.__getitem__, self.legal_hexes(state, c, frontiers)))
        return out

    def trades(self, state: PCState, seat: int) -> list[Trade]:
        shares = state.players[seat].shares
        assert shares is not None
        supply = state.supply
        companies = self.companies
        # The trades depend only on which companies the seat holds and which supplies
        # hold one or two locomotives or more.
        key = (seat, *[not shares.get(c) for c in companies], *[min(supply[c], 2) for c in companies])
        listed = self._trade_lists.get(key)
        if listed is not None:
            return list(listed)
        out = []
        for give in companies:
            if not shares.get(give):
                continue
            for take in companies:
                if take == give:
                    continue
                for count in (1, 2):
                    if supply[take] >= count:
                        out.append(self._listed_trade(seat, give, take, count))
        if len(self._trade_lists) >= TRADE_LISTS_KEPT:
            self._trade_lists.clear()
        self._trade_lists[key] = tuple(out)
        return out

    # ------------------------------------------------------------ validation
    def _company(self, company: str) -> str:
        if company not in self.map.company_by_id:
            raise MalformedAction(f"'{company}' is not a company ({', '.join(self.companies)})")
        return company

    def _hex(self, offset: tuple[int, int]) -> Hex:
        h = self._hex_at.get((offset[0], offset[1]))
        if h is None:
            raise MalformedAction(f"there is no hex {offset[0]},{offset[1]} on this map")
        return h

    def validate(self, state: PCState, action: Any) -> None:
        if isinstance(action, Build):
            company = self._company(action.company)
            h = self._hex(action.hex)
            if state.step is Step.BUILD:
                if company != state.building:
                    raise IllegalAction(
                        f"this build is of {state.building} locomotives; a build takes "
                        "locomotives of one company only")
                if len(state.placed) >= MAX_BUILD:
                    raise IllegalAction(f"a build places at most {MAX_BUILD} locomotives; "
                                        "end the build")
            if state.supply[company] == 0:
                raise IllegalAction(f"the {company} supply is empty")
            reason = self.placement_refusal(state, company, h)
            if reason is not None:
                raise IllegalAction(reason)
        elif isinstance(action, EndBuild):
            if state.step is not Step.BUILD:
                raise IllegalAction("no locomotive has been placed this turn: build at least "
                                    "one, or trade")
        elif isinstance(action, Trade):
            give, take = self._company(action.give), self._company(action.take)
            if state.step is Step.BUILD:
                raise IllegalAction("a turn is a build or a trade, not both: end the build")
            if give == take:
                raise IllegalAction("the locomotives taken must be of a different company "
                                    "from the one returned")
            if state.players[action.seat].count(give) == 0:
                raise IllegalAction(f"you hold no {give} locomotive to return")
            have = state.supply[take]
            if have < action.count:
                left = "is empty" if have == 0 else f"has only {have} locomotive"
                raise IllegalAction(f"the {take} supply {left}; you cannot take {action.count}")
        else:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")

    # ------------------------------------------------------------ execution
    def execute(self, state: PCState, action: Any, log: EventLog) -> None:
        seat = action.seat
        name = self._name(state, seat)
        if isinstance(action, Build):
            company, h = action.company, self._hex(action.hex)
            state.supply[company] -= 1
            last = self._last_frontiers
            known = last is not None and last[0] == state.board
            state.board.setdefault(h, []).append(company)
            if known:
                assert last is not None
                self._frontiers_after(state, last, company, h)
            gain = self._value[h]
            state.value[company] += gain
            state.step = Step.BUILD
            state.building = company
            state.placed.append(h)
            worth = f" (+{gain}: {company} is worth {state.value[company]})" if gain else ""
            log.add(f"{name} places a {company} locomotive on {self.hex_name(h)}{worth}.", "build", rule=(R.BUILD, R.CITY_VALUE) if gain else R.BUILD,
                    seat=seat, company=company, hex=list(self._offset[h]), gain=gain,
                    value=state.value[company])
            if h == self._end_hex:
                self._end_game(state, log, f"a locomotive has reached {self.hex_name(h)}")
            elif self._supplies_left(state) <= 1:
                self._end_game(state, log, "only one company's supply still has locomotives")
        elif isinstance(action, EndBuild):
            count = len(state.placed)
            log.add(f"{name} ends the build ({self._locos(count, state.building or '')}).",
                    "end_build", rule=R.END_BUILD, seat=seat, company=state.building, count=count)
            self._next_turn(state, log)
        elif isinstance(action, Trade):
            player = state.players[seat]
            assert player.shares is not None
            give, take, count = action.give, action.take, action.count
            player.shares[give] -= 1
            if player.shares[give] == 0:
                del player.shares[give]
            player.shares[take] = player.shares.get(take, 0) + count
            player.shares = {c: player.shares[c] for c in self.companies if c in player.shares}
            player.held += count - 1
            state.supply[give] += 1
            state.supply[take] -= count
            # Public: the returned locomotive and the ones taken go to and from supplies in view.
            log.add(f"{name} returns a {give} locomotive and takes {self._locos(count, take)} "
                    f"(now holds {player.held}).", "trade", rule=R.TRADE,
                    seat=seat, give=give, take=take, count=count, held=player.held)
            if self._supplies_left(state) <= 1:
                self._end_game(state, log, "only one company's supply still has locomotives")
            else:
                self._next_turn(state, log)

    def _supplies_left(self, state: PCState) -> int:
        return sum(1 for k in state.supply.values() if k > 0)

    def _begin_turn(self, state: PCState, log: EventLog) -> None:
        state.turn += 1
        state.step = Step.TURN
        state.building = None
        state.placed = []
        log.add(f"{self._name(state, state.current)}'s turn.", "turn", rule=R.TURN_CHOICE, seat=state.current,
                turn=state.turn)

    def _next_turn(self, state: PCState, log: EventLog) -> None:
        state.current = (state.current + 1) % len(state.players)
        self._begin_turn(state, log)

    # ------------------------------------------------------------ the end
    def _end_game(self, state: PCState, log: EventLog, why: str) -> None:
        state.end_reason = why
        state.step = Step.OVER
        state.building = None
        state.placed = []
        log.add(f"The game ends: {why}. Company values: "
                + ", ".join(f"{c} {state.value[c]}" for c in self.companies) + ".",
                "end", rule=R.GAME_END, reason=why, values=dict(state.value))
        limit = HOLDING_LIMIT[len(state.players)]
        final: dict[str, dict[str, int]] = {}
        for seat, player in enumerate(state.players):
            shares = player.shares or {}
            parts = self.score_of(state, seat)
            extra = self.over_limit(state, seat)
            final[player.name] = parts
            penalty = (f"; {extra} over the limit of {limit}: -{PENALTY_PER_EXTRA * extra}"
                       if extra else "")
            # Marked as chance: once the screens are lifted, undo must not go back past them,
            # just as it never goes back past a draw (and the deal was one).
            log.add(f"{player.name} reveals {self.holding_text(shares)}: "
                    f"{parts['total']} points{penalty}.", "reveal", rule=(R.SCORING, R.HOLDING_LIMIT) if extra else R.SCORING, chance=True,
                    seat=seat, shares=dict(shares), points=parts["total"])
        state.final = final
        result = self.result(state)
        assert result is not None
        log.add(result.summary(), "game_over", rule=R.SCORING)

    def over_limit(self, state: PCState, seat: int) -> int:
        """How many locomotives ``seat`` holds above the holding limit."""
        return max(0, state.players[seat].held - HOLDING_LIMIT[len(state.players)])

    def score_of(self, state: PCState, seat: int) -> dict[str, int]:
        """What ``seat``'s holdings score at the company values of ``state``.

        The parts: each company's points (locomotives held × its value), the
        ``penalty`` for locomotives above the holding limit, and the ``total``.
        These are the final scores once the game is over; before then, what the
        holdings would score if it ended now. Holdings hidden in a view count as none.
        """
        shares = state.players[seat].shares or {}
        parts = {c: shares.get(c, 0) * state.value[c] for c in self.companies}
        parts["penalty"] = -PENALTY_PER_EXTRA * self.over_limit(state, seat)
        parts["total"] = sum(parts.values())
        return parts

    def result(self, state: PCState) -> Result | None:
        return None if state.final is None else Result.from_breakdown(state.final)

    # ------------------------------------------------------------ hidden information
    def view(self, state: PCState, seat: int | None) -> PCState:
        """What ``seat`` may see: its own holdings, everyone's counts, the public log.

        Once the game is over every screen is lifted and the state is returned whole.
        """
        if state.step is Step.OVER:
            return state
        players = [
            Shareholder(name=p.name, shares=dict(p.shares) if i == seat and p.shares is not None
                        else None, held=p.held)
            for i, p in enumerate(state.players)
        ]
        board = state.board
        # ``dataclasses.replace`` without its cost: the fields of ``state``, some replaced.
        view = _new_state(PCState)
        view.__dict__.update(
            state.__dict__,
            players=players,
            supply=dict(state.supply),
            value=dict(state.value),
            board={h: list(here) for h, here in board.items()},
            placed=list(state.placed),
            chance=UnseededChance(),  # the deal's random source stays with the full state
            log=visible_events(state.log, seat, state.seen_logs),
            final=None,
            seen_logs=SeenLogs(),
        )
        return view


_new_state = object.__new__


class _Builds(dict[Hex, Build]):
    """Hex -> the Build of one seat and company there, made when first listed (once)."""

    def __init__(self, seat: int, company: str, offset: dict[Hex, tuple[int, int]]) -> None:
        super().__init__()
        self.seat, self.company, self.offset = seat, company, offset

    def __missing__(self, h: Hex) -> Build:
        # Built from hexes the rules have just checked, so validation is skipped.
        # Actions are frozen, so prompts and games may share them.
        action: Build = Build.trusted(type="build", seat=self.seat, company=self.company,
                                      hex=self.offset[h])
        self[h] = action
        return action


class UnseededChance(Chance):
    """``Chance(0)`` that makes its generator only when first drawn from: a view's
    random source is seldom used (a search deals its own), and seeding one costs
    more than the rest of the view."""

    __slots__ = ()

    def __init__(self) -> None:  # noqa: D107 - the generator comes with the first use
        pass

    def __getattr__(self, name: str) -> Any:
        if name != "_rng":
            raise AttributeError(name)
        rng = self._rng = random.Random(0)
        return rng

    def __deepcopy__(self, memo: dict[int, Any]) -> Chance:
        try:
            object.__getattribute__(self, "_rng")
        except AttributeError:
            return UnseededChance()
        return super().__deepcopy__(memo)
