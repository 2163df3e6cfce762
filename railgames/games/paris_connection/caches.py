"""Paris Connection: what the rules keep from one step to the next, for speed only.

The frontiers of the board last worked on (a prompt, the check of the build chosen
from it and the turn after see the same board), the Build actions listed for each
seat and company, and the lists of legal trades. None of it changes what the rules
decide; each is dropped when the rules are pickled (a bot's think takes them to a
worker process and back) and worked out again there as needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from railgames.core.engine import Interned
from railgames.core.hexgrid import Hex
from railgames.games.paris_connection.actions import Build, Trade
from railgames.games.paris_connection.state import PCState

TRADE_LISTS_KEPT = 4096  # lists of legal trades kept for listing again

Frontiers = dict[str, set[Hex]]
# A board as it was (hex -> the colours there) and its frontiers.
Kept = tuple[dict[Hex, list[str]], Frontiers]


class FrontierCache:
    """Every company's frontier, kept for the board it was worked out on, for the rules'
    own reading only (never handed out, so never changed)."""

    def __init__(self, frontiers: Callable[[PCState], Frontiers], links: dict[Hex, Any],
                 capacity: dict[Hex, int]) -> None:
        self._frontiers = frontiers
        self._links = links
        self._capacity = capacity
        self.last: Kept | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "last": None}

    def now(self, state: PCState) -> Frontiers:
        """``frontiers(state)``, worked out again only when the board has changed."""
        last = self.last
        board = state.board
        if last is not None and last[0] == board:
            return last[1]
        frontiers = self._frontiers(state)
        self.last = ({h: list(here) for h, here in board.items()}, frontiers)
        return frontiers

    def kept_for(self, state: PCState) -> Kept | None:
        """What is kept, if it is of this very board (asked before a placement)."""
        last = self.last
        return last if last is not None and last[0] == state.board else None

    def placed(self, state: PCState, last: Kept, company: str, h: Hex) -> None:
        """Keep the frontiers in step with a placement of ``company`` on ``h``, made on the
        board ``last`` was of: only ``h`` and the room of ``company`` change."""
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
        self.last = (snapshot, frontiers)


class Builds(dict[Hex, Build]):
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


class BuildTables:
    """The ``Builds`` of each seat and company."""

    def __init__(self, offset: dict[Hex, tuple[int, int]]) -> None:
        self._offset = offset
        self._tables: dict[tuple[int, str], Builds] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_tables": {}}

    def of(self, seat: int, company: str) -> Builds:
        table = self._tables.get((seat, company))
        if table is None:
            table = self._tables[(seat, company)] = Builds(seat, company, self._offset)
        return table


class TradeLists:
    """Lists of legal trades by what they depend on, and each Trade made once."""

    def __init__(self) -> None:
        self._lists: dict[tuple[Any, ...], tuple[Trade, ...]] = {}
        self.make = Interned(Trade).make

    def __reduce__(self) -> tuple[type[TradeLists], tuple[()]]:
        return (TradeLists, ())  # pickled empty

    def get(self, key: tuple[Any, ...]) -> tuple[Trade, ...] | None:
        return self._lists.get(key)

    def keep(self, key: tuple[Any, ...], trades: list[Trade]) -> None:
        if len(self._lists) >= TRADE_LISTS_KEPT:
            self._lists.clear()
        self._lists[key] = tuple(trades)
