"""What the Steel Driver rules work out once and keep, so that listing and weighing builds stays quick.

None of it is a rule: each piece answers exactly as working the answer out again
would, from the map (``FirstLinks``) or from the track alone (``SharersMemo``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from railgames.games.steel_driver.board_map import Route, SteelDriverMap

SHARERS_KEPT = 4096  # tracks whose transcontinental sharers are kept

Sharers = tuple[list[frozenset[str]], int] | None


class FirstLinks:
    """Where a company's first link may go, read off the map once.

    ``starts[route]``: the ends of a route that are starting locations, so the
    ends a first link along it may be built from (none for most routes).
    ``routes``: the routes with at least one such end, in the map's order.
    """

    __slots__ = ("routes", "starts")

    def __init__(self, game_map: SteelDriverMap) -> None:
        starting = {loc.id for loc in game_map.cities if loc.starting}
        self.starts: dict[str, tuple[str, ...]] = {
            r.id: tuple(end for end in (r.a, r.b) if end in starting) for r in game_map.links}
        self.routes: list[Route] = [r for r in game_map.links if self.starts[r.id]]


class SharersMemo:
    """The transcontinental sharers of a track, kept by the track.

    The answer depends on the track alone and is asked of every build a player
    or bot weighs, so answers are kept (at most ``SHARERS_KEPT``; past that the
    memo starts afresh).
    """

    __slots__ = ("_find", "_known")

    def __init__(self, find: Callable[[dict[str, str]], Sharers]) -> None:
        self._find = find
        self._known: dict[frozenset[tuple[str, str]], Any] = {}

    def __call__(self, track: dict[str, str]) -> Sharers:
        key = frozenset(track.items())
        known = self._known.get(key, self._known)
        if known is self._known:
            if len(self._known) >= SHARERS_KEPT:
                self._known.clear()
            known = self._known[key] = self._find(track)
        return known  # type: ignore[no-any-return]
