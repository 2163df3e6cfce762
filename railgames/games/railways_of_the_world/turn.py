"""Railways of the World: a player's action in a round, and the rounds of a turn.

In each of a turn's three rounds every railroad, in the order of play, takes one
action: build track, urbanize, upgrade its engine, deliver a cube, or pass. The
phase lists the actions open now, checks a choice (and a cancel that goes back to
choosing) and carries out those done at once; the others hand over to their own
phase (``build``, ``urbanize``, ``deliver``). When every seat has acted in the
last round, the turn ends (``income``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from railgames.core.engine import Prompt
from railgames.core.events import EventLog
from railgames.games.railways_of_the_world import rule_texts as R
from railgames.games.railways_of_the_world.actions import Cancel, Choose, PassAction, UpgradeEngine
from railgames.games.railways_of_the_world.base import RotwPhase, RotwRulesBase
from railgames.games.railways_of_the_world.board_map import MAX_ENGINE
from railgames.games.railways_of_the_world.build import BuildPhase
from railgames.games.railways_of_the_world.deliver import DeliverPhase
from railgames.games.railways_of_the_world.income import IncomePhase
from railgames.games.railways_of_the_world.state import Building, RotwState, Step
from railgames.games.railways_of_the_world.terms import ROUNDS, money, quick_prompt, where
from railgames.games.railways_of_the_world.urbanize import UrbanizePhase

# The step each choice leads to.
_CHOSEN = {"build": Step.BUILD, "urbanize": Step.URBANIZE, "deliver": Step.DELIVER}


class ActionPhase(RotwPhase):
    """Choosing the round's action (or going back to choosing), and the turn's rounds."""

    actions: ClassVar[tuple[type, ...]] = (Choose, UpgradeEngine, PassAction, Cancel)

    def __init__(self, rules: RotwRulesBase, build: BuildPhase, urbanize: UrbanizePhase,
                 deliver: DeliverPhase, income: IncomePhase) -> None:
        super().__init__(rules)
        self.build = build
        self.urbanize = urbanize
        self.deliver = deliver
        self.income = income

    def prompt(self, state: RotwState) -> Prompt | None:
        seat = state.to_act()
        return quick_prompt(seat=seat, step=where(state),
                            text=f"{self.rules._name(state, seat)}: build track, urbanize, "
                                 "upgrade the engine or deliver a cube",
                            choices=self.choices(state, seat),
                            help="One action per round; bonds are issued when money runs short.")

    def choices(self, state: RotwState, seat: int) -> list[Any]:
        rules = self.rules
        p = state.players[seat]
        out: list[Any] = []
        if self.build.choices(state, seat, first_only=True):
            out.append(rules._choose_of[seat]["build"])
        if self.urbanize.possible(state):
            out.append(rules._choose_of[seat]["urbanize"])
        if p.engine < MAX_ENGINE:
            out.append(rules._listed_upgrade(seat, p.engine + 1))
        if self.deliver.possible(state, seat):
            out.append(rules._choose_of[seat]["deliver"])
        out.append(rules._pass_action_of[seat])
        return out

    def refusal(self, state: RotwState, a: Any) -> str | None:
        step = state.step
        if isinstance(a, Cancel):
            if step is Step.BUILD and state.building is not None and state.building.laid == 0:
                return None
            if step in (Step.URBANIZE, Step.DELIVER):
                return None
            if step is Step.BUILD:
                return "track has been laid in this build; end the build instead"
            return "there is nothing to cancel"
        if step is not Step.ACTION:
            return "an action is already under way; finish it (or cancel it) first"
        if isinstance(a, UpgradeEngine):
            engine = state.players[a.seat].engine
            if engine >= MAX_ENGINE:
                return f"your engine is already at the top level, {MAX_ENGINE}"
            if a.level != engine + 1:
                return (f"an upgrade raises the engine one level at a time: from {engine} "
                        f"to {engine + 1}, not {a.level}")
        if isinstance(a, Choose):
            seat = a.seat
            if a.action == "build" and not self.build.choices(state, seat, first_only=True):
                return "there is nowhere to build track"
            if a.action == "urbanize" and not self.urbanize.possible(state):
                return "there is no gray city or New City tile left to urbanize with"
            if a.action == "deliver" and not self.deliver.possible(state, seat):
                return "no goods cube can be delivered along your links now"
        return None

    def execute(self, state: RotwState, action: Any, log: EventLog) -> None:
        if isinstance(action, Choose):
            state.step = _CHOSEN.get(action.action, Step.DELIVER)
            if state.step is Step.BUILD:
                state.building = Building()
        elif isinstance(action, Cancel):
            state.step = Step.ACTION
            state.building = None
        elif isinstance(action, UpgradeEngine):
            self._upgrade(state, action, log)
        else:
            log.add(f"{self.rules._name(state, action.seat)} passes this round.", "pass_action",
                    rule=R.PASS, seat=action.seat)
            self.next_player(state, log)

    def _upgrade(self, state: RotwState, action: UpgradeEngine, log: EventLog) -> None:
        rules = self.rules
        seat = action.seat
        cost = rules.map.engine_costs[action.level]
        rules.pay(state, seat, cost, log, f"a level {action.level} engine")
        state.players[seat].engine = action.level
        log.add(f"{rules._name(state, seat)} upgrades to a level {action.level} engine for "
                f"{money(cost)}.", "upgrade", rule=R.ENGINE, seat=seat, level=action.level,
                cost=cost)
        self.next_player(state, log)

    def next_player(self, state: RotwState, log: EventLog) -> None:
        """The seat's action is done: the next seat in the order acts, or the next
        round begins, or after the last round the turn ends."""
        state.step = Step.ACTION
        state.building = None
        state.cursor += 1
        if state.cursor < len(state.order):
            return
        state.cursor = 0
        if state.round < ROUNDS:
            state.round += 1
            return
        self.income.run(state, log)
