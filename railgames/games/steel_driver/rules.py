"""Steel Driver: six railroad companies, controlled one turn at a time.

Each of the five turns runs: take investment cubes, auction control of the
companies (bids are paid in cubes, into the company), build track company by
company, take profits, end the turn. After the fifth turn the companies claim
goods cubes from the locations their track reaches and the sets of colours
they make decide what each share pays.

The kernel's contract: ``prompt`` says who must decide what, ``validate``
refuses with a reason and never mutates, ``execute`` carries out a validated
action and then runs every automatic step (forced passes, profits, the end of
a turn) until the next decision. Each phase of a turn lists, checks and
carries out its own actions (the ``phases`` package); this class runs them in
the rulebook's order and keeps set-up and the result. The questions every
phase asks are in base.py. Rulings on what the rulebook leaves open are in
docs/rulings/steel-driver.md; comments name them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from railgames.core.engine import Prompt, Result
from railgames.core.errors import MalformedAction
from railgames.core.events import EventLog
from railgames.core.gains import change, counts, plural
from railgames.core.phases import Phase, by_action
from railgames.core.record import GameRecord
from railgames.core.rng import Chance
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.actions import ACTION_ADAPTER, BuildTrack, ClaimGoods
from railgames.games.steel_driver.base import BuildOutcome, ClaimOutcome, SteelDriverBase
from railgames.games.steel_driver.board_map import SteelDriverMap
from railgames.games.steel_driver.caches import SHARERS_KEPT
from railgames.games.steel_driver.phases.auction import AuctionPhase
from railgames.games.steel_driver.phases.building import BuildPhase
from railgames.games.steel_driver.phases.final import FinalPhase
from railgames.games.steel_driver.phases.turn import (
    EndOfTurnPhase,
    TakeCubesPhase,
    TakeProfitsPhase,
)
from railgames.games.steel_driver.state import Company, Player, SDState, Step
from railgames.games.steel_driver.terms import (
    CUBES_PER_TURN,
    SET_VALUES,
    TRANSCONTINENTAL_BUILDER,
    TRANSCONTINENTAL_OTHERS,
    TURNS,
    goods_sets,
    ordinal,
    set_value,
)

# Read from here by the board, the panel, the bots' callers and the tests.
__all__ = [
    "CUBES_PER_TURN", "SET_VALUES", "SHARERS_KEPT", "TRANSCONTINENTAL_BUILDER",
    "TRANSCONTINENTAL_OTHERS", "TURNS", "BuildOutcome", "ClaimOutcome", "SteelDriverRules",
    "goods_sets", "ordinal", "set_value",
]


class SteelDriverRules(SteelDriverBase):
    id: ClassVar[str] = "steel-driver"
    title: ClassVar[str] = "Steel Driver"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    default_map: ClassVar[str] = "steel-driver"
    pitch: ClassVar[str] = (
        "Bid cubes for control of six railroads, race them across America, "
        "and collect goods of every colour."
    )
    play_time: ClassVar[str] = "60-90 min"
    map_model = SteelDriverMap
    # Passing the Active Player marker, or out of an auction (a company's build passes by
    # itself when it cannot build: see docs/rulings).
    passes: ClassVar[tuple[Mapping[str, Any], ...]] = ({"type": "pass_marker"}, {"type": "pass_bid"})
    action_adapter = ACTION_ADAPTER

    def bot_makers(self) -> dict[str, Callable[[int], Any]]:
        # Imported when asked for: the bots (and the kernel's search under them)
        # are not loaded to replay or check a game.
        from railgames.games.steel_driver.bots import GreedyBot, SteelDriverSearch

        return {"greedy": GreedyBot, "search": SteelDriverSearch.maker(self)}

    def __init__(self, game_map: SteelDriverMap) -> None:  # type: ignore[override]
        super().__init__(game_map)
        self.take_cubes = TakeCubesPhase(self)
        self.auction = AuctionPhase(self)
        self.building = BuildPhase(self)
        self.take_profits = TakeProfitsPhase(self)
        self.end_of_turn = EndOfTurnPhase(self)
        self.final = FinalPhase(self)
        self._by_action = by_action([self.auction, self.building, self.final])
        self._by_step: dict[Step, Phase[Any, SDState]] = {
            Step.AUCTION: self.auction, Step.OPENING: self.auction, Step.BIDDING: self.auction,
            Step.BUILD: self.building, Step.CLAIM: self.final,
        }

    # ------------------------------------------------------------ set-up
    def setup(self, record: GameRecord, chance: Chance, log: EventLog) -> SDState:
        n = len(record.players)
        m = self.map
        state = SDState(
            players=[Player(name=p.name) for p in record.players],
            companies={cid: Company(id=cid, shares_left=m.shares_per_company) for cid in self.companies},
            order=list(self.companies),
            turn=0,
            step=Step.AUCTION,
            active=0,
            pool=m.total_cubes,
            chance=chance,
        )
        log.add(f"Set-up: {len(self.companies)} companies of {m.shares_per_company} shares; "
                f"{m.investment_cubes} investment cubes and {sum(m.goods_cubes.values())} goods cubes "
                f"in the pool; each player takes {CUBES_PER_TURN[n]} cubes a turn for {TURNS} turns.",
                "setup", rule=R.SETUP)
        # Ruling "who starts": the youngest player is drawn from the seed.
        state.active = chance.randrange(n)
        log.add(f"{self.player_name(state, state.active)} is drawn to hold the Active Player marker.",
                "active_player", rule=R.SETUP, chance=True, seat=state.active)
        self._begin_turn(state, log)
        return state

    # ------------------------------------------------------------ prompts
    def gains_now(self, before: SDState, after: SDState, seat: int) -> list[str]:
        """What a move changes at once for ``seat``: cash, investment cubes, shares, the
        companies it takes control of, and the profit of those it holds shares in (for a
        hint's reason)."""
        was, now = before.players[seat], after.players[seat]
        out = change(was.cash, now.cash, "cash", True)
        out += change(was.cubes, now.cubes, "investment cubes")
        out += counts(was.shares, now.shares,
                      lambda c, n: f"{plural(n, 'share')} of {self.company_name(c)}")
        for company, c in after.companies.items():
            old = before.companies[company]
            if c.controller == seat and old.controller != seat:
                out.append(f"control of {self.company_name(company)}")
            if now.shares.get(company) and c.profit != old.profit:
                out.append(f"{self.company_name(company)} profit {c.profit - old.profit:+}")
        return out

    def to_move(self, state: SDState) -> int | None:
        step = state.step
        if step is Step.AUCTION:
            return state.active
        if step is Step.OPENING:
            assert state.auction is not None
            return state.auction.offered_by
        if step is Step.BIDDING:
            assert state.auction is not None
            return state.auction.to_act
        if step in (Step.BUILD, Step.CLAIM):
            return state.active_company().controller
        return None

    def turn_of(self, state: SDState) -> int:
        return state.turn

    def prompt(self, state: SDState) -> Prompt | None:
        phase = self._by_step.get(state.step)
        return None if phase is None else phase.prompt(state)

    def legal_builds(self, state: SDState, company: str) -> list[BuildTrack]:
        return self.building.legal(state, company)

    def legal_claims(self, state: SDState, company: str) -> list[ClaimGoods]:
        return self.final.legal(state, company)

    # ------------------------------------------------------------ checks and execution
    def validate(self, state: SDState, action: Any) -> None:
        phase = self._by_action.get(type(action))
        if phase is None:  # pragma: no cover - the union is closed
            raise MalformedAction(f"unknown action {action!r}")
        phase.validate(state, action)

    def execute(self, state: SDState, action: Any, log: EventLog) -> None:
        self._by_action[type(action)].execute(state, action, log)
        self._advance(state, log)

    # ------------------------------------------------------------ the flow of a turn
    def _advance(self, state: SDState, log: EventLog) -> None:
        """Run automatic steps until a player must decide (or the game ends)."""
        while True:
            step = state.step
            if step is Step.AUCTION:
                if self.auction.settle(state, log):
                    return
                self.building.begin(state, log)
                continue
            if step is Step.BUILD:
                if self.building.next_company(state, log):
                    return
                self.take_profits.run(state, log)
                self.end_of_turn.run(state, log)
                if self.end_of_turn.last_turn(state):
                    self.final.begin(state, log)
                else:
                    self._begin_turn(state, log)
                continue
            if step is Step.CLAIM:
                if self.final.next_company(state, log):
                    return
                self._game_over(state, log)
                return
            return

    def _begin_turn(self, state: SDState, log: EventLog) -> None:
        self.take_cubes.run(state, log)
        self.auction.begin(state, log)

    def _game_over(self, state: SDState, log: EventLog) -> None:
        state.final = self.final.pay_out(state, log)
        state.step = Step.OVER
        result = self.result(state)
        assert result is not None
        log.add("Game over. " + ", ".join(f"{k} ${v}" for k, v in result.scores.items())
                + f". Winner: {' and '.join(result.winners)}.", "game_over", rule=R.WINNER)

    def result(self, state: SDState) -> Result | None:
        if state.final is None:
            return None
        scores = {name: parts["total"] for name, parts in state.final.items()}
        best = max(scores.values())
        tied = [s for s, p in enumerate(state.players) if scores[p.name] == best]
        if len(tied) > 1:
            # The tie goes to the player controlling the companies with the most goods cubes.
            most = max(state.goods_controlled[s] for s in tied)
            tied = [s for s in tied if state.goods_controlled[s] == most]
        return Result(scores=scores, winners=[state.players[s].name for s in tied],
                      breakdown=state.final)
