"""A greedy Paris Connection bot.

It sees only its own seat's view. On its turn it weighs two things: building
the company it holds most of towards the best free city within reach this
turn (what the build adds to the company, times its own shares), or trading
its least valuable company for one or two of the most valuable. While building
it keeps placing as long as a free city can still be reached in this build.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from railgames.core.engine import Prompt, Ruleset
from railgames.core.hexgrid import Hex
from railgames.core.search import SearchHooks
from railgames.games.paris_connection.actions import Build, EndBuild, Trade
from railgames.games.paris_connection.common import (
    HOLDING_LIMIT,
    MAX_BUILD,
    PENALTY_PER_EXTRA,
    VALUE_MARKER,
    ParisConnectionBase,
)
from railgames.games.paris_connection.state import PCState, Step

DISCOUNT = 0.85  # a city one hex further away is worth this much less
GROWTH_HOPE = 2  # what a company is expected to gain before the end, in points per share


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        assert isinstance(ruleset, ParisConnectionBase)
        state: PCState = view
        seat = prompt.seat
        me = state.players[seat]
        assert me.shares is not None, "a bot sees its own holdings"
        builds = [a for a in prompt.choices if isinstance(a, Build)]
        distances = city_distances(ruleset, state)
        if state.step is Step.BUILD:
            remaining = MAX_BUILD - len(state.placed)
            scored = [(self.reach(ruleset, a, distances, remaining), self.rng.random(), a)
                      for a in builds]
            best = max(scored, key=lambda t: (t[0], t[1]), default=None)
            if best is not None and best[0] > 0:
                return best[2]
            return EndBuild(seat=seat)
        best_action: Any = None
        best_score = -1.0
        for a in builds:
            score = me.shares.get(a.company, 0) * self.reach(ruleset, a, distances, MAX_BUILD)
            score += 0.01 * self.rng.random()
            if score > best_score:
                best_action, best_score = a, score
        limit = HOLDING_LIMIT[len(state.players)]
        for t in prompt.choices:
            if not isinstance(t, Trade):
                continue
            gain: float = (t.count * (state.value[t.take] + GROWTH_HOPE)
                    - (state.value[t.give] + GROWTH_HOPE))
            over_before = max(0, me.held - limit)
            over_after = max(0, me.held + t.count - 1 - limit)
            gain -= PENALTY_PER_EXTRA * (over_after - over_before)
            gain += 0.01 * self.rng.random()
            if gain > best_score:
                best_action, best_score = t, gain
        if best_action is None:  # pragma: no cover - a turn always offers something
            return prompt.choices[0]
        return best_action

    @staticmethod
    def reach(ruleset: ParisConnectionBase, action: Build, distances: dict[int, dict[Hex, int]],
              remaining: int) -> float:
        """What this placement promises: a city on it, or a free city reachable this build."""
        h = ruleset.hex_at(*action.hex)
        assert h is not None
        best = 0.0
        for value, dist in distances.items():
            d = dist.get(h)
            if d is not None and d <= remaining - 1:
                best = max(best, value * DISCOUNT ** d)
        return best


def city_distances(ruleset: ParisConnectionBase, state: PCState) -> dict[int, dict[Hex, int]]:
    """For each city value, each hex's distance to the nearest free city of that value.

    Distances run over hexes that still have room for some locomotive, and stop
    at the farthest a single build can reach.
    """
    m = ruleset.map
    board = state.board
    open_hex = {h for h, cap in m.capacity.items() if cap and len(board.get(h, ())) < cap}
    links = m.links
    sources: dict[int, list[Hex]] = {}
    for h in m.city_at:
        if h in open_hex:
            sources.setdefault(m.hex_value[h], []).append(h)
    out: dict[int, dict[Hex, int]] = {}
    for value, starts in sources.items():
        dist = dict.fromkeys(starts, 0)
        queue = deque(starts)
        while queue:
            h = queue.popleft()
            d = dist[h] + 1
            if d >= MAX_BUILD:
                continue
            for n in links[h]:
                if n not in dist and n in open_hex:
                    dist[n] = d
                    queue.append(n)
        out[value] = dist
    return out


# ------------------------------------------------------------ search
class ParisConnectionSearch(SearchHooks):
    """What the kernel's search needs to play Paris Connection.

    Unseen: the other players' holdings. A determinization deals the
    locomotives nobody can account for (each company's count, less its supply,
    the board, and this seat's own) to the other players, each getting as many
    as its public count says it holds. The evaluation is the score if the game
    ended now, with a little of the growth a company can still expect.
    """

    score_scale = 8.0
    playout_depth = 16

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        state: PCState = super().determinize(view, seat, rng)
        rules = self.rules
        assert isinstance(rules, ParisConnectionBase)
        mine = state.players[seat].shares or {}
        marker = 0 if state.rules_edition == 1 else VALUE_MARKER
        board = state.on_board()
        unseen: list[str] = []
        for c in rules.map.companies:
            left = c.locomotives - marker - state.supply[c.id] - board.get(c.id, 0) - mine.get(c.id, 0)
            unseen.extend([c.id] * max(0, left))
        rng.shuffle(unseen)
        for i, p in enumerate(state.players):
            if i == seat and p.shares is not None:
                continue
            hand, unseen = unseen[:p.held], unseen[p.held:]
            shares: dict[str, int] = {}
            for company in hand:
                shares[company] = shares.get(company, 0) + 1
            p.shares = {c: shares[c] for c in rules.companies if c in shares}
        return state

    def evaluate(self, state: Any) -> list[float]:
        rules = self.rules
        assert isinstance(rules, ParisConnectionBase)
        out = []
        for seat, p in enumerate(state.players):
            shares = p.shares or {}
            growth = sum(shares.values()) * 0.5
            out.append(rules.score_of(state, seat)["total"] + growth)
        return out

