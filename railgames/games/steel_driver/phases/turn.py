"""The parts of a Steel Driver turn with nothing to decide: taking investment cubes
at the start, taking profits and the end of the turn after track building."""

from __future__ import annotations

from railgames.core.events import EventLog
from railgames.games.steel_driver import rule_texts as R
from railgames.games.steel_driver.phases.common import SteelDriverPhase
from railgames.games.steel_driver.state import SDState
from railgames.games.steel_driver.terms import CUBES_PER_TURN, TURNS, cubes


class TakeCubesPhase(SteelDriverPhase):
    """A turn begins: each player takes investment cubes from the pool."""

    def run(self, state: SDState, log: EventLog) -> None:
        state.turn += 1
        order = ", ".join(self.rules.company_name(c) for c in state.order)
        log.add(f"Turn {state.turn} of {TURNS} begins. Order of play: {order}.", "turn", rule=R.TURN_ORDER,
                turn=state.turn)
        n = len(state.players)
        each = CUBES_PER_TURN[n]
        stand_ins_before = self.rules.stand_ins(state)
        given = self.shares_of_pool(state, each)
        for seat, k in enumerate(given):
            state.players[seat].cubes += k
        state.pool -= sum(given)
        if all(k == each for k in given):
            log.add(f"Each player takes {cubes(each)} from the pool.", "take_cubes", rule=R.TAKE_CUBES,
                    given=given)
        else:
            log.add("The pool runs out: " + ", ".join(
                f"{self.rules.player_name(state, s)} takes {k}" for s, k in enumerate(given))
                + f" (of {each} each).", "take_cubes", rule=R.TAKE_CUBES, given=given)
        stand_ins = self.rules.stand_ins(state)
        if stand_ins > stand_ins_before:
            log.add(f"The white investment cubes have run out: {stand_ins} goods cubes now stand "
                    "in for them.", "stand_ins", rule=R.STAND_INS, count=stand_ins)

    @staticmethod
    def shares_of_pool(state: SDState, each: int) -> list[int]:
        """How many cubes each seat takes: ``each``, unless the pool is short.

        Ruling "empty pool": cubes then go one at a time round the table from the
        Active Player marker's holder until the pool is empty.
        """
        n = len(state.players)
        if state.pool >= each * n:
            return [each] * n
        given = [0] * n
        left, seat = state.pool, state.active
        while left:
            given[seat] += 1
            left -= 1
            seat = (seat + 1) % n
        return given


class TakeProfitsPhase(SteelDriverPhase):
    """Each company's controller takes its profit for the turn."""

    def run(self, state: SDState, log: EventLog) -> None:
        income = [0] * len(state.players)
        for c in state.companies.values():
            if c.profit <= 0:
                continue
            name = self.rules.company_name(c.id)
            if c.controller is None:
                log.add(f"Nobody controls the {name} company: its ${c.profit} profit is paid to "
                        "no one.", "profit_lost", rule=R.PROFITS, company=c.id, profit=c.profit)
                continue
            p = state.players[c.controller]
            p.cash += c.profit
            income[c.controller] += c.profit
            log.add(f"{p.name} takes ${c.profit} profit from the {name} company.", "profit", rule=R.PROFITS,
                    seat=c.controller, cash=c.profit, company=c.id)
        state.history.append([(income[s], p.cash) for s, p in enumerate(state.players)])


class EndOfTurnPhase(SteelDriverPhase):
    """The Pass row becomes the next order of play; profits and control go back to nothing."""

    def run(self, state: SDState, log: EventLog) -> None:
        state.order = list(state.passed)
        state.passed = []
        state.cursor = 0
        for c in state.companies.values():
            c.profit = 0
            c.controller = None
            c.auctioned = False
        log.add(f"End of turn {state.turn}. Next order of play: "
                + ", ".join(self.rules.company_name(c) for c in state.order) + ".", "end_turn",
                rule=R.NEXT_ORDER, turn=state.turn, order=list(state.order))

    @staticmethod
    def last_turn(state: SDState) -> bool:
        """Ruling "counting turns": the game counts its five turns itself; shares
        left only show it when some company was bought every turn."""
        return state.turn >= TURNS
