"""A greedy New England Railways bot.

It bids up to a rough estimate of what a link is worth to it, ships the
delivery that earns its own railway most, and pays
debt down when it has spare cash. Early on it borrows $10 when a link
on offer is worth more to it than the cash it has.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from enum import Enum
from functools import cache
from typing import Any

from railgames.core.engine import Prompt, Ruleset
from railgames.core.rng import Chance
from railgames.core.search import SearchHooks
from railgames.games.new_england.actions import (
    Bid,
    Borrow,
    FinishLink,
    PassBid,
    PassShip,
    Retire,
    Ship,
)
from railgames.games.new_england.base import NewEnglandBase
from railgames.games.new_england.loans import service_due
from railgames.games.new_england.state import NEState, Step

# Chance that two dice total at least n, for n = 0..13.
_AT_LEAST = [1.0, 1.0] + [sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= n) / 36
                          for n in range(2, 14)]


@cache
def expected_shortfall(value: int) -> float:
    """Average dollars needed to finish a link straight after its build roll."""
    return sum(max(0, value - (a + b)) for a in range(1, 7) for b in range(1, 7)) / 36


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        assert isinstance(ruleset, NewEnglandBase)
        state: NEState = view
        seat = prompt.seat
        me = state.railways[seat]
        if state.step is Step.LOANS:
            assert prompt.amount is not None
            return Borrow(seat=seat, amount=max(prompt.amount.min, self.loan_wanted(ruleset, state, seat)))
        if state.step is Step.RETIRE:
            spare = max(0, me.cash - 10) // 10 * 10
            return Retire(seat=seat, amount=min(spare, me.debt))
        if state.step is Step.AUCTION:
            a = state.auction
            assert a is not None
            worth = self.link_worth(ruleset, state, a.link, seat)
            bid = a.high_bid + 1
            if bid <= min(worth, me.cash):
                return Bid(seat=seat, amount=bid)
            return PassBid(seat=seat)
        if state.step is Step.FINISH:
            f = state.finish
            assert f is not None
            pay = f.shortfall <= 2 or f.shortfall * 3 <= me.cash
            return FinishLink(seat=seat, pay=pay)
        best: Ship | None = None
        best_key = (0.0, 0)
        links_on = _board(ruleset).links_on
        owner = state.owner
        for choice in prompt.choices:
            if not isinstance(choice, Ship):
                continue
            # What ``ruleset.income_split`` says, counted without building its table.
            links = links_on(choice.path)
            mine = sum(1 for link in links if owner[link] == seat)
            others = len(links) - mine
            key = (mine - 0.5 * others, mine)
            if mine > 0 and key > best_key:
                best, best_key = choice, key
        return best if best is not None else PassShip(seat=seat)

    def loan_wanted(self, ruleset: NewEnglandBase, state: NEState, seat: int) -> int:
        """$10 when a link on offer is worth more to it than its cash, with time to pay it back.

        A loan costs $2 a turn and is repaid at the end; one that wins a link early
        earns more than that, so the bot takes one, and never owes more than $30.
        """
        me = state.railways[seat]
        if me.debt >= 30 or self.turns_left(state) < 4 or not state.built:
            return 0
        best = max((self.link_worth(ruleset, state, link, seat) for link in state.current), default=0)
        return 10 if best > me.cash + 2 else 0

    @staticmethod
    def turns_left(state: NEState) -> int:
        per_turn = max(1, len(state.current))
        return 1 + (len(state.link_deck) + len(state.future)) // per_turn

    def link_worth(self, ruleset: NewEnglandBase, state: NEState, link: str, seat: int) -> int:
        value = ruleset.link_value(link)
        a, b = ruleset.link_ends(link)
        incident = _board(ruleset).incident
        built = state.built
        # Links that touch the network carry cubes sooner; waiting cubes nearby promise traffic.
        touching = sum(1 for x in incident[a] if x in built) + sum(1 for x in incident[b] if x in built)
        cubes = sum(state.cubes[a].values()) + sum(state.cubes[b].values())
        traffic = min(self.turns_left(state), 6) * (0.4 * min(touching, 3) + 0.2 * min(cubes, 3))
        worth = value - 0.5 * expected_shortfall(value) + traffic
        return max(1, int(worth))


class _Board:
    """What the greedy bot looks up on a map again and again: the links at each
    city, and the links along a shipping path."""

    def __init__(self, ruleset: NewEnglandBase) -> None:
        self.incident: dict[str, list[str]] = {c.id: [] for c in ruleset.map.cities}
        self.pair: dict[tuple[str, str], str] = {}
        for link in ruleset.map.links:
            self.incident[link.a].append(link.id)
            self.incident[link.b].append(link.id)
            self.pair[(link.a, link.b)] = self.pair[(link.b, link.a)] = link.id
        self._paths: dict[tuple[str, ...], tuple[str, ...]] = {}

    def links_on(self, path: list[str]) -> tuple[str, ...]:
        key = tuple(path)
        links = self._paths.get(key)
        if links is None:
            links = self._paths[key] = tuple(self.pair[(a, b)] for a, b in zip(path, path[1:], strict=False))
        return links


_BOARDS: dict[int, tuple[Any, _Board]] = {}  # id of a map -> (that map, its lookups)


def _board(ruleset: NewEnglandBase) -> _Board:
    entry = _BOARDS.get(id(ruleset.map))
    if entry is None or entry[0] is not ruleset.map:
        if len(_BOARDS) >= 8:
            _BOARDS.clear()
        entry = _BOARDS[id(ruleset.map)] = (ruleset.map, _Board(ruleset))
    return entry[1]


# ------------------------------------------------------------ search
_ATOMS = (int, str, bool, float, type(None))


def _plain_copy(value: Any, replace: dict[str, Any] | None = None) -> Any:
    """A deep copy of a state made of lists, dicts, sets, tuples, dataclasses and
    plain values; ``replace`` gives a dataclass's fields their own values instead
    (at the top level). Anything else is handed to ``copy.deepcopy``."""
    kind = type(value)
    if kind in _ATOMS or isinstance(value, Enum):
        return value
    if kind is list:
        return [v if type(v) in _ATOMS else _plain_copy(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _plain_copy(v) for k, v in value.items()}
    if kind is set or kind is frozenset:
        return kind(value)  # of hashable, hence unchanging, members
    if kind is tuple:
        return tuple(_plain_copy(v) for v in value)
    if dataclasses.is_dataclass(value) and hasattr(value, "__dict__"):
        out = object.__new__(kind)
        fields = value.__dict__
        if replace:
            out.__dict__.update({k: replace[k] if k in replace else _plain_copy(v) for k, v in fields.items()})
        else:
            out.__dict__.update({k: _plain_copy(v) for k, v in fields.items()})
        return out
    return copy.deepcopy(value)


class NewEnglandSearch(SearchHooks):
    """What the kernel's search needs to play New England Railways.

    Unseen: the order of the face-down Railway Link and growth decks (reshuffled
    in every determinization) and every future roll and draw.

    Playouts run to the start of a turn (the next one, or the one after if the
    decision is already in the shipping rounds), so every candidate move is
    scored at the same point of the game; a fixed number of actions would cut
    one move before the income is paid and another after it. The evaluation
    counts cash, the links' final values and the debt still to repay, and for
    the turns left the railway's income and the links it runs: both are worth
    about twice their face value over the rest of a game between greedy
    players, since income buys the next links and links carry the next cubes
    (fitted to greedy games; see ``INCOME_WEIGHT``).
    """

    score_scale = 25.0
    playout_depth = 150  # a cap only: playouts end at the turn start (``horizon``)
    # Per turn left, what a point of income and a built (or bought) link add to the
    # final score, relative to the other railways: a least-squares fit over
    # greedy games of the final scores on these features at the start of each turn.
    INCOME_WEIGHT = 1.8
    LINK_WEIGHT = 1.3

    def determinize(self, view: Any, seat: int, rng: random.Random) -> Any:
        # The view copied as plain data (quicker than deepcopy, which is most of an
        # iteration's cost otherwise), without the log and with new dice.
        state: NEState = _plain_copy(view, {"log": [], "chance": None})
        state.chance = Chance(rng.getrandbits(64))
        rng.shuffle(state.link_deck)
        rng.shuffle(state.growth_deck)
        return state

    def horizon(self, root: Any) -> Any:
        state: NEState = root
        early = state.step in (Step.LOANS, Step.RETIRE, Step.AUCTION, Step.FINISH)
        return state.turn + (1 if early else 2)

    def past_horizon(self, state: Any, mark: Any) -> bool:
        return bool(state.turn >= mark)

    def evaluate(self, state: Any) -> list[float]:
        rules = self.rules
        assert isinstance(rules, NewEnglandBase)
        turns = GreedyBot.turns_left(state)
        out = []
        for r in state.railways:
            values = sum(rules.link_value(link) for link in r.links)
            debt = r.debt + service_due(r.debt) * (turns + 1)
            running = len(r.links)
            out.append(r.cash + values - debt
                       + turns * (self.INCOME_WEIGHT * r.income + self.LINK_WEIGHT * running))
        return out
