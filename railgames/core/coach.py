"""Hints: the search bot's choice for a seat, ranked among the others, with a reason.

``advise`` runs the same search as the search bot (same hooks, seed and budget,
so the same choice) from what the seat may see, and keeps what the bot throws
away: for every move tried at the root, the seat's mean margin in its
playouts (its estimated final score minus the best other player's, in the
game's points), so moves compare in points, not in probabilities.

What a move gains at once comes from playing it on a copy of one state drawn
from the view (the game's own sampler) and comparing the seat's holdings
before and after. A ruleset may answer ``gains_now(before, after, seat)`` with
lines in its own words; otherwise the numbers every game keeps on its players
(cash, income, debt...) are compared.

Nothing here reads more than ``view``: a hint is safe to give at any table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from railgames.core.engine import Prompt, Ruleset
from railgames.core.events import EventLog
from railgames.core.search import MCTS, Budget, SearchHooks, action_key, mean_margin

# Iterations of a hint, per game: about a second of processor time mid-game on
# the reference machine (measured by benchmarks/hint_cost.py).
HINT_ITERATIONS: dict[str, int] = {
    "new-england": 300,
    "paris-connection": 65,
    "steel-driver": 85,
    "railways-of-the-world": 90,
    "american-rails": 30,
}
DEFAULT_ITERATIONS = 30

# The unit a game scores in ("$" before the number), else "points" after it.
DOLLAR_GAMES = frozenset({"new-england", "american-rails", "steel-driver"})

# Player fields that read as a gain or a loss the moment a move is made,
# in the order they are told. ``debt`` and ``bonds`` are losses when they rise.
HOLDINGS: tuple[tuple[str, str, bool], ...] = (
    ("income", "income", False),
    ("cash", "cash", True),
    ("money", "money", True),
    ("debt", "debt", True),
    ("bonds", "bonds", False),
    ("engine", "engine", False),
    ("held", "locomotives", False),
)
# Where a game's state keeps one record per seat (New England's are railways).
SEAT_LISTS = ("players", "railways")
# How many moves an ``Advice`` ranks at most.
RANKED = 5


@dataclass(frozen=True)
class Choice:
    """One move as the hint sees it."""

    action: Any
    label: str  # the move in the game's words
    margin: float  # expected final score minus the best other player's
    behind: float  # how much worse than the best move (0 for the best)
    visits: int  # playouts that went through it
    gains: tuple[str, ...]  # what it changes at once ("+3 income", "-$5 cash")


@dataclass(frozen=True)
class Advice:
    """The best move first, then the others by their estimate; ``reason`` is one line."""

    seat: int
    choices: tuple[Choice, ...]
    reason: str
    iterations: int

    @property
    def best(self) -> Choice:
        return self.choices[0]


def hint_budget(ruleset: Ruleset[Any]) -> Budget:
    """The iteration budget of a hint in this game (reproducible, unlike seconds)."""
    return Budget(seconds=None, iterations=HINT_ITERATIONS.get(ruleset.id, DEFAULT_ITERATIONS))


def advise(ruleset: Ruleset[Any], view: Any, prompt: Prompt, seat: int | None = None, *,
           budget: Budget | None = None, seed: int = 0,
           describe: Callable[[Any, Any], str] | None = None) -> Advice:
    """The search's advice to ``prompt.seat`` from ``view`` (what that seat sees).

    ``describe(state, action)`` labels a move (the app passes its game's
    labels); without it a move is labelled by the log line it makes.
    """
    seat = prompt.seat if seat is None else seat
    if seat != prompt.seat:
        raise ValueError(f"seat {seat} is not the one to move (seat {prompt.seat} is)")
    budget = budget or hint_budget(ruleset)
    hooks: SearchHooks = ruleset.bot_makers()["search"](seed)
    search = MCTS(hooks, budget, seed)
    chosen = search.choose(view, prompt)
    sample = hooks.determinize(view, seat, random.Random(seed))
    label = describe or (lambda state, action: said(ruleset, state, action, seat))
    best_key = action_key(chosen)
    # The chosen move first (whatever its count), then every other move tried, best first.
    tried: list[tuple[Any, float, int]] = [(chosen, 0.0, 0)]  # action, margin, visits
    root = search.root
    for key, node in (root.children.items() if root is not None else ()):
        if key == best_key:
            tried[0] = (chosen, mean_margin(node, seat), node.visits)
        elif node.visits and node.action is not None:
            tried.append((node.action, mean_margin(node, seat), node.visits))
    tried[1:] = sorted(tried[1:], key=lambda t: (-t[1], -t[2]))
    top = tried[0][1]
    ranked = tuple(
        Choice(action=a, label=label(sample, a), margin=round(m, 1), behind=round(top - m, 1),
               visits=v, gains=tuple(gains_now(ruleset, sample, a, seat)))
        for a, m, v in tried[:RANKED])
    return Advice(seat=seat, choices=ranked, reason=reason(ruleset, ranked),
                  iterations=search.last.iterations if search.last else 0)


def hint_for(ruleset: Ruleset[Any], view: Any, prompt: Prompt, budget: Budget,
             seed: int = 0) -> Advice:
    """``advise`` with its arguments in order, for a worker process (``BotWorker.run``):
    the advice to the seat to move, from its ``view`` only."""
    return advise(ruleset, view, prompt, budget=budget, seed=seed)


def said(ruleset: Ruleset[Any], state: Any, action: Any, seat: int) -> str:
    """The first log line ``action`` makes in a copy of ``state`` that ``seat`` may read."""
    copy = SearchHooks.copy(state)
    lines: list[Any] = []
    try:
        ruleset.execute(copy, action, EventLog(lines, 0))
    except Exception:  # noqa: BLE001 - a move legal in the view but not in this sample
        lines = []
    for event in lines:
        if event.visible(seat) and event.text:
            return str(event.text).rstrip(".")
    return plain_words(action)


def plain_words(action: Any) -> str:
    """A move that says nothing in the log by itself (it only opens a choice, such as
    Railways of the World's urbanize), named by its kind and values: 'Choose: urbanize'."""
    fields = dict(getattr(action, "__dict__", {}) or (action if isinstance(action, dict) else {}))
    kind = str(fields.pop("type", type(action).__name__)).replace("_", " ")
    fields.pop("seat", None)
    values = ", ".join(str(v).replace("_", " ") for v in fields.values() if v is not None)
    return kind[:1].upper() + kind[1:] + (f": {values}" if values else "")


def gains_now(ruleset: Ruleset[Any], state: Any, action: Any, seat: int) -> list[str]:
    """What ``action`` changes at once for ``seat``: the ruleset's words, else its holdings."""
    after = SearchHooks.copy(state)
    try:
        ruleset.execute(after, action, EventLog([], 0))
    except Exception:  # noqa: BLE001 - not playable in this sample: nothing to tell
        return []
    own = getattr(ruleset, "gains_now", None)
    if callable(own):
        return list(own(state, after, seat))
    field_name = next((f for f in SEAT_LISTS if isinstance(getattr(state, f, None), Sequence)), None)
    if field_name is None or seat >= len(getattr(state, field_name)):
        return []
    was, now = getattr(state, field_name)[seat], getattr(after, field_name)[seat]
    out = []
    for holding, word, money in HOLDINGS:
        a, b = getattr(was, holding, None), getattr(now, holding, None)
        if not isinstance(a, int) or not isinstance(b, int) or a == b:
            continue
        sign = "+" if b > a else "-"
        out.append(f"{sign}${abs(b - a)} {word}" if money else f"{sign}{abs(b - a)} {word}")
    return out


def points(ruleset: Ruleset[Any], amount: float) -> str:
    """'$6' or '6 points' as the game scores."""
    n = round(abs(amount))
    if ruleset.id in DOLLAR_GAMES:
        return f"${n}"
    return f"{n} point" if n == 1 else f"{n} points"


def reason(ruleset: Ruleset[Any], ranked: Sequence[Choice]) -> str:
    """'Ship red Boston → Salem: +$3 cash now; about $6 better than Pass' in one line."""
    best = ranked[0]
    parts = [best.label]
    if best.gains:
        parts.append(": " + ", ".join(best.gains) + " now")
    if len(ranked) > 1:
        other = ranked[1]
        gap = other.behind
        if round(gap) >= 1:
            parts.append(f"; about {points(ruleset, gap)} better than {other.label}")
        elif round(gap) <= -1:
            # The search keeps to the game's own move until another is clearly better.
            parts.append(f"; {other.label} may be {points(ruleset, gap)} better, not yet for sure")
        else:
            parts.append(f"; about as good as {other.label} (within {points(ruleset, 1)})")
    else:
        parts.append("; the only move")
    return "".join(parts)
