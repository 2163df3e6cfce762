"""Paris Connection: turns going round the table, and the end of the game.

A turn is one build or one trade; then the next player clockwise has theirs. The
game ends as soon as a locomotive reaches the end hex or only one supply still
holds locomotives: the screens are lifted and the holdings scored.
"""

from __future__ import annotations

from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.paris_connection import rule_texts as R
from railgames.games.paris_connection.common import (
    HOLDING_LIMIT,
    PENALTY_PER_EXTRA,
    ParisConnectionBase,
)
from railgames.games.paris_connection.state import PCState, Step


class Turns(Phase[ParisConnectionBase, PCState]):
    """The start of each turn, and the end of the game with the final scores."""

    def begin_turn(self, state: PCState, log: EventLog) -> None:
        state.turn += 1
        state.step = Step.TURN
        state.building = None
        state.placed = []
        log.add(f"{self.rules._name(state, state.current)}'s turn.", "turn", rule=R.TURN_CHOICE,
                seat=state.current, turn=state.turn)

    def next_turn(self, state: PCState, log: EventLog) -> None:
        state.current = (state.current + 1) % len(state.players)
        self.begin_turn(state, log)

    def end_game(self, state: PCState, log: EventLog, why: str) -> None:
        rules = self.rules
        state.end_reason = why
        state.step = Step.OVER
        state.building = None
        state.placed = []
        log.add(f"The game ends: {why}. Company values: "
                + ", ".join(f"{c} {state.value[c]}" for c in rules.companies) + ".",
                "end", rule=R.GAME_END, reason=why, values=dict(state.value))
        limit = HOLDING_LIMIT[len(state.players)]
        final: dict[str, dict[str, int]] = {}
        for seat, player in enumerate(state.players):
            shares = player.shares or {}
            parts = rules.score_of(state, seat)
            extra = rules.over_limit(state, seat)
            final[player.name] = parts
            penalty = (f"; {extra} over the limit of {limit}: -{PENALTY_PER_EXTRA * extra}"
                       if extra else "")
            # Marked as chance: once the screens are lifted, undo must not go back past them,
            # just as it never goes back past a draw (and the deal was one).
            log.add(f"{player.name} reveals {rules.holding_text(shares)}: "
                    f"{parts['total']} points{penalty}.", "reveal",
                    rule=(R.SCORING, R.HOLDING_LIMIT) if extra else R.SCORING, chance=True,
                    seat=seat, shares=dict(shares), points=parts["total"])
        state.final = final
        result = rules.result(state)
        assert result is not None
        log.add(result.summary(), "game_over", rule=R.SCORING)
