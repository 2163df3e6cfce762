"""Paris Connection: trading, the turn spent on one's holdings instead of the board.

A player returns one locomotive from behind their screen to its supply and takes
one or two of another company from its supply. A turn is a build or a trade,
never both.
"""

from __future__ import annotations

from typing import Any

from railgames.core.errors import IllegalAction
from railgames.core.events import EventLog
from railgames.core.phases import Phase
from railgames.games.paris_connection import rule_texts as R
from railgames.games.paris_connection.actions import Trade
from railgames.games.paris_connection.caches import TradeLists
from railgames.games.paris_connection.common import ParisConnectionBase
from railgames.games.paris_connection.state import PCState, Step
from railgames.games.paris_connection.turns import Turns

# Why a trade is refused, by what ``TradePhase.trade_bar`` finds.
TRADE_BARS = {
    "building": "a turn is a build or a trade, not both: end the build",
    "same": "the locomotives taken must be of a different company from the one returned",
    "none held": "you hold no {give} locomotive to return",
    "short": "the {take} supply {left}; you cannot take {count}",
}


class TradePhase(Phase[ParisConnectionBase, PCState]):
    """Which trades are open, and making one."""

    actions = (Trade,)

    def __init__(self, rules: ParisConnectionBase, turns: Turns) -> None:
        super().__init__(rules)
        self.turns = turns
        self._lists = TradeLists()

    @staticmethod
    def trade_bar(state: PCState, seat: int, give: str, take: str, count: int) -> str | None:
        """What stops ``seat`` returning a ``give`` locomotive for ``count`` of ``take`` now,
        as a key of ``TRADE_BARS``, or None. A key, not the sentence: the listing asks this
        of every trade, the check of one."""
        if state.step is Step.BUILD:
            return "building"
        if give == take:
            return "same"
        if state.players[seat].count(give) == 0:
            return "none held"
        if state.supply[take] < count:
            return "short"
        return None

    def trades(self, state: PCState, seat: int) -> list[Trade]:
        shares = state.players[seat].shares
        assert shares is not None
        supply = state.supply
        companies = self.rules.companies
        # The trades depend only on which companies the seat holds and which supplies
        # hold one or two locomotives or more.
        key = (seat, *[not shares.get(c) for c in companies], *[min(supply[c], 2) for c in companies])
        listed = self._lists.get(key)
        if listed is not None:
            return list(listed)
        make = self._lists.make
        out = [make(seat, give, take, count)
               for give in companies for take in companies for count in (1, 2)
               if self.trade_bar(state, seat, give, take, count) is None]
        self._lists.keep(key, out)
        return out

    def validate(self, state: PCState, action: Any) -> None:
        give, take = self.rules._company(action.give), self.rules._company(action.take)
        bar = self.trade_bar(state, action.seat, give, take, action.count)
        if bar is not None:
            have = state.supply[take]
            left = "is empty" if have == 0 else f"has only {have} locomotive"
            raise IllegalAction(TRADE_BARS[bar].format(give=give, take=take, left=left,
                                                       count=action.count))

    def execute(self, state: PCState, action: Any, log: EventLog) -> None:
        rules = self.rules
        seat = action.seat
        player = state.players[seat]
        assert player.shares is not None
        give, take, count = action.give, action.take, action.count
        player.shares[give] -= 1
        if player.shares[give] == 0:
            del player.shares[give]
        player.shares[take] = player.shares.get(take, 0) + count
        player.shares = {c: player.shares[c] for c in rules.companies if c in player.shares}
        player.held += count - 1
        state.supply[give] += 1
        state.supply[take] -= count
        # Public: the returned locomotive and the ones taken go to and from supplies in view.
        log.add(f"{rules._name(state, seat)} returns a {give} locomotive and takes "
                f"{rules._locos(count, take)} (now holds {player.held}).", "trade", rule=R.TRADE,
                seat=seat, give=give, take=take, count=count, held=player.held)
        if rules.supplies_left(state) <= 1:
            self.turns.end_game(state, log, "only one company's supply still has locomotives")
        else:
            self.turns.next_turn(state, log)
