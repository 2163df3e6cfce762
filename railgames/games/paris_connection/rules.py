"""Paris Connection: building railways out of Paris with shares nobody else can see.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action. Rulings on what the rules leave open are in
docs/rulings/paris-connection.md; comments name them.

A turn is a build (``build``) or a trade (``trade``); ``turns`` passes the turn
on and ends the game. Each keeps its listing, its check and its execution
together; what the rules keep for speed alone is in ``caches``. This class sets
the game up, offers the choice of a turn, hands each action to the phase that
takes it, and says what each seat may see.

Hidden information lives in one place, each ``Shareholder.shares``; ``view``
blanks the other players' holdings and drops the events they alone may see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from railgames.core.engine import Prompt, Result
from railgames.core.errors import MalformedAction
from railgames.core.events import EventLog, SeenLogs, visible_events
from railgames.core.gains import change, counts, plural
from railgames.core.hexgrid import Hex
from railgames.core.phases import by_action
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.paris_connection import rule_texts as R
from railgames.games.paris_connection.actions import ACTION_ADAPTER, Trade
from railgames.games.paris_connection.board_map import ParisConnectionMap
from railgames.games.paris_connection.build import BuildPhase
from railgames.games.paris_connection.caches import Frontiers
from railgames.games.paris_connection.common import (  # noqa: F401 - the rules' numbers, imported from here
    HAND_SIZE,
    HOLDING_LIMIT,
    MAX_BUILD,
    PENALTY_PER_EXTRA,
    VALUE_MARKER,
    ParisConnectionBase,
)
from railgames.games.paris_connection.state import PCState, Shareholder, Step
from railgames.games.paris_connection.trade import TradePhase
from railgames.games.paris_connection.turns import Turns


class ParisConnectionRules(ParisConnectionBase):
    """The phases put together: set-up, the choice of a turn, each action handed to the
    phase that takes it, and what each seat may see."""

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
    # Ending a build already begun (a turn is never passed before it: see docs/rulings).
    passes: ClassVar[tuple[Mapping[str, Any], ...]] = ({"type": "end_build"},)
    map_model = ParisConnectionMap
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported here, when bots are wanted; the bots read the rules through ParisConnectionBase.
        from railgames.games.paris_connection.bots import GreedyBot, ParisConnectionSearch

        return {"greedy": GreedyBot, "search": ParisConnectionSearch.maker(self)}

    def __init__(self, game_map: ParisConnectionMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        self.turns = Turns(self)
        self.build = BuildPhase(self, self.turns)
        self.trade = TradePhase(self, self.turns)
        self._phase_of_action = by_action([self.build, self.trade])

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
        self.turns.begin_turn(state, log)
        return state

    # ------------------------------------------------------------ the phases' questions
    def cut_off_by(self, state: PCState, company: str, h: Hex,
                   frontiers: Frontiers | None = None) -> str | None:
        """The colour a placement of ``company`` on ``h`` would cut off, if any."""
        return self.build.cut_off_by(state, company, h, frontiers)

    def placement_refusal(self, state: PCState, company: str, h: Hex,
                          frontiers: Frontiers | None = None) -> str | None:
        """Why ``company`` may not place on ``h`` now (supply and build size aside)."""
        return self.build.placement_refusal(state, company, h, frontiers)

    def legal_hexes(self, state: PCState, company: str,
                    frontiers: Frontiers | None = None) -> list[Hex]:
        return self.build.legal_hexes(state, company, frontiers)

    def trades(self, state: PCState, seat: int) -> list[Trade]:
        return self.trade.trades(state, seat)

    # ------------------------------------------------------------ prompts
    def gains_now(self, before: PCState, after: PCState, seat: int) -> list[str]:
        """What a move changes at once for ``seat``: its locomotives by company, the
        share values of the companies it holds, and what its holdings would score now
        (for a hint's reason)."""
        was, now = before.players[seat], after.players[seat]
        out = counts(was.shares, now.shares,
                     lambda c, n: plural(n, f"{c} locomotive"))
        for company in sorted(now.shares or {}, key=self.companies.index):
            a, b = before.value[company], after.value[company]
            if a != b and (now.shares or {}).get(company):
                out.append(f"{company} {b - a:+} in value")
        out += change(self.score_of(before, seat)["total"], self.score_of(after, seat)["total"],
                      "points held")
        return out

    def to_move(self, state: PCState) -> int | None:
        return None if state.step is Step.OVER else state.current

    def turn_of(self, state: PCState) -> int:
        return state.turn

    def prompt(self, state: PCState) -> Prompt | None:
        if state.step is Step.OVER:
            return None
        if state.step is Step.BUILD:
            return self.build.prompt(state)
        seat = state.current
        return Prompt(
            seat=seat, step="Build or trade",
            text=f"{self._name(state, seat)}: build 1 to {MAX_BUILD} locomotives of one company, or trade",
            choices=[*self.build.builds(state, seat, self.companies), *self.trade.trades(state, seat)],
            help="Build: place locomotives of one colour from its supply, each next to one of "
                 "its colour. Trade: return one locomotive from behind your screen and take one "
                 "or two of another company.",
        )

    # ------------------------------------------------------------ checks and execution
    def validate(self, state: PCState, action: Any) -> None:
        phase = self._phase_of_action.get(type(action))
        if phase is None:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")
        phase.validate(state, action)

    def execute(self, state: PCState, action: Any, log: EventLog) -> None:
        self._phase_of_action[type(action)].execute(state, action, log)

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
