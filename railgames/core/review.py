"""A review of a finished game: a player's costliest decisions, by the search's estimate.

Every decision the seat made (a prompt of its with more than one move to
choose from) is looked at again from what the seat could see then: the search
bot's tree at a small budget finds the best moves (``coach.advise``), then the
move made and the best few are each played on in the same determinizations and
playouts (``MCTS.compare``), so the move made has an estimate as good as the
others' even where the tree never tried it. The loss of a decision is how much
better the best of the others did than the move made in those same playouts, in
the game's points or dollars, less one standard error of that difference (a gap
the playouts disagree about counts for little): never below zero.

A review is seeded (the same game gives the same review) and goes one decision
at a time, so that whoever runs it can show progress and stop between two.
Nothing here imports Textual: the app runs ``review_positions`` in its worker
process, a chunk at a time.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from railgames.core.coach import Choice, advise, gains_now, points, reason, said
from railgames.core.engine import Game, Ruleset
from railgames.core.record import GameRecord, PlayerSpec
from railgames.core.search import MCTS, Budget, SearchHooks, action_key

# Tree iterations a decision, per game: a whole game's review of one seat (tens of
# decisions; New England's many small bids: near two hundred) takes well under a
# minute on the reference machine (measured by benchmarks/review_cost.py).
REVIEW_ITERATIONS: dict[str, int] = {
    "new-england": 16,
    "paris-connection": 12,
    "steel-driver": 16,
    "railways-of-the-world": 16,
    "american-rails": 8,
}
DEFAULT_ITERATIONS = 8
# Determinizations and playouts each compared move is played in.
SAMPLES = 3
# The search's best moves compared with the move made.
COMPARED = 2
# The costly decisions a review shows, and the least loss worth showing (one point or $1).
SHOWN = 5
LEAST_LOSS = 1.0
# The bots that play the other seats in "try again" when the game had none to copy.
DEFAULT_BOT = "search"


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat, as the search sees it afterwards."""

    position: int  # actions played before it (the viewer's position at the moment of choice)
    turn: int
    seat: int
    played: str  # the move made, in the game's words
    better: str  # the best move by the estimate ("" when the move made was the best)
    loss: float  # best estimate minus the move made's, in the game's points (>= 0)
    reason: str  # one line: the better move, what it gains at once, and by how much
    gains: tuple[str, ...] = ()  # what the better move gains at once ("+1 locomotives")

    @property
    def costly(self) -> bool:
        return self.loss >= LEAST_LOSS


@dataclass(frozen=True)
class Review:
    """A seat's review: every decision looked at, and the costliest of them first."""

    seat: int
    decisions: tuple[Decision, ...]  # in the order they were made

    @property
    def costliest(self) -> tuple[Decision, ...]:
        return costliest(self.decisions)


def review_budget(ruleset: Ruleset[Any]) -> Budget:
    """The tree's budget at one decision of a review (iterations: the same on every machine)."""
    return Budget(seconds=None, iterations=REVIEW_ITERATIONS.get(ruleset.id, DEFAULT_ITERATIONS))


def decision_positions(ruleset: Ruleset[Any], record: GameRecord, seat: int) -> list[int]:
    """Where in ``record`` the seat chose among more than one move (its actions' indices)."""
    game = Game.replay(ruleset, record.model_copy(update={"actions": []}))
    hooks: SearchHooks = ruleset.bot_makers()["search"](0)
    out = []
    for index, raw in enumerate(record.actions):
        prompt = game.prompt()
        if prompt is None:
            break
        if prompt.seat == seat and _choosing(hooks, game.view(seat), prompt):
            out.append(index)
        game.apply(raw, recorded=True)
    return out


def _choosing(hooks: SearchHooks, view: Any, prompt: Any) -> bool:
    if prompt.amount is not None and len(prompt.amount.values()[:2]) > 1:
        return True
    return len(hooks.candidates(view, prompt)) > 1


def review_decision(ruleset: Ruleset[Any], record: GameRecord, position: int, *,
                    budget: Budget | None = None, samples: int = SAMPLES,
                    seed: int = 0) -> Decision:
    """The decision at ``position`` of ``record``, from what its seat could see then."""
    return _review_at(Game.replay(ruleset, record, upto=position), record, position,
                      budget=budget, samples=samples, seed=seed)


def _review_at(game: Game, record: GameRecord, position: int, *, budget: Budget | None,
               samples: int, seed: int) -> Decision:
    """``review_decision`` with the game already at ``position``."""
    ruleset = game.ruleset
    prompt = game.prompt()
    if prompt is None:
        raise ValueError(f"the game is over at action {position}: no decision there")
    seat = prompt.seat
    view = SearchHooks.copy(game.view(seat))
    made = ruleset.action_adapter.validate_python(record.actions[position])
    # A seed of its own for every decision: a review gives the same answer whichever
    # decisions it looks at, in whatever order.
    seed = seed * 1_000_003 + position
    advice = advise(ruleset, view, prompt, budget=budget or review_budget(ruleset), seed=seed)
    made_key = action_key(made)
    others = [c for c in advice.choices if action_key(c.action) != made_key][:COMPARED]
    hooks: SearchHooks = ruleset.bot_makers()["search"](seed)
    search = MCTS(hooks, Budget(seconds=None, iterations=1), seed)
    moves = [made, *(c.action for c in others)]
    margins = search.compare(view, seat, moves, samples, seed)
    sample = hooks.determinize(view, seat, random.Random(seed))
    played = said(ruleset, sample, made, seat)
    turn = ruleset.turn_of(game.state)
    nothing = Decision(position, turn, seat, played, "", 0.0, "")
    if not margins[0] or len(moves) < 2:
        return nothing
    losses = [(cautious_loss(m, margins[0]), c, m) for m, c in zip(margins[1:], others, strict=True)]
    loss, best, best_margins = max(losses, key=lambda lcm: lcm[0])
    loss = round(loss, 1)
    if loss <= 0:
        return nothing
    made_mean, best_mean = statistics.fmean(margins[0]), statistics.fmean(best_margins)
    mine = Choice(action=made, label=played, margin=made_mean, behind=loss, visits=0,
                  gains=tuple(gains_now(ruleset, sample, made, seat)))
    top = Choice(action=best.action, label=best.label, margin=best_mean, behind=0.0,
                 visits=best.visits, gains=best.gains)
    return Decision(position, turn, seat, played, best.label, loss, reason(ruleset, (top, mine)),
                    best.gains)


def cautious_loss(better: Sequence[float], made: Sequence[float]) -> float:
    """How much worse the move made did than another in the same samples: the mean of
    the differences less one standard error of it (a gap the playouts disagree about
    counts for little), and never below zero."""
    diffs = [b - m for b, m in zip(better, made, strict=True)]
    if not diffs:
        return 0.0
    spread = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return max(0.0, statistics.fmean(diffs) - spread)


def review_positions(ruleset: Ruleset[Any], record: GameRecord, positions: Sequence[int],
                     seed: int = 0, iterations: int | None = None,
                     samples: int = SAMPLES) -> list[Decision]:
    """Some decisions of a review, in order (the app's worker process is given a few at a
    time); the game is replayed once, up to each in turn. ``iterations``: the tree's
    budget a decision (None: the game's ``review_budget``)."""
    budget = None if iterations is None else Budget(seconds=None, iterations=iterations)
    return list(_walk(ruleset, record, positions, seed=seed, budget=budget, samples=samples))


def _walk(ruleset: Ruleset[Any], record: GameRecord, positions: Sequence[int], *, seed: int,
          budget: Budget | None = None, samples: int = SAMPLES) -> Iterator[Decision]:
    if not positions:
        return
    if list(positions) != sorted(positions):
        raise ValueError("the positions of a review go in order")
    game = Game.replay(ruleset, record, upto=positions[0])
    at = positions[0]
    for position in positions:
        while at < position:
            game.apply(record.actions[at], recorded=True)
            at += 1
        yield _review_at(game, record, position, budget=budget, samples=samples, seed=seed)


def review_game(ruleset: Ruleset[Any], record: GameRecord, seat: int, *, seed: int = 0,
                budget: Budget | None = None, samples: int = SAMPLES,
                progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] | None = None) -> Review | None:
    """Every decision of ``seat`` in ``record``, one at a time; None when cancelled.

    ``progress(done, total)`` is told after each decision; ``cancelled()`` is asked
    before the first and after each, and stops the review when true.
    """
    positions = decision_positions(ruleset, record, seat)
    done: list[Decision] = []
    if cancelled is not None and cancelled():
        return None
    for decision in _walk(ruleset, record, positions, seed=seed, budget=budget, samples=samples):
        done.append(decision)
        if progress is not None:
            progress(len(done), len(positions))
        if cancelled is not None and cancelled() and len(done) < len(positions):
            return None
    return Review(seat, tuple(done))


def costliest(decisions: Sequence[Decision], count: int = SHOWN) -> tuple[Decision, ...]:
    """The decisions that lost something, costliest first (the earlier first at equal loss)."""
    lost = [d for d in decisions if d.costly]
    return tuple(sorted(lost, key=lambda d: (-d.loss, d.position))[:count])


def loss_text(ruleset: Ruleset[Any], decision: Decision) -> str:
    """'about 6 points' or 'about $6'."""
    return f"about {points(ruleset, decision.loss)}"


# ------------------------------------------------------------------ trying again
def table_bot_kind(record: GameRecord) -> str:
    """The kind of bot the game had (its first bot seat's), else the search bot."""
    return next((p.kind for p in record.players if p.is_bot), DEFAULT_BOT)


def try_again_record(record: GameRecord, position: int, seat: int,
                     bot_kind: str | None = None) -> GameRecord:
    """A new game from the moment of the decision at ``position``: the record's actions
    before it, the same seats and names, ``seat`` played by a person and every other
    seat by a bot (bots stay the kind they were; other people's seats get ``bot_kind``,
    by default the game's own kind of bot)."""
    if not 0 <= position <= len(record.actions):
        raise ValueError(f"the game has no action {position}")
    if not 0 <= seat < len(record.players):
        raise ValueError(f"the game has no seat {seat}")
    kind = bot_kind or table_bot_kind(record)
    players = [PlayerSpec(name=p.name, kind="human") if i == seat
               else p if p.is_bot else PlayerSpec(name=p.name, kind=kind)  # type: ignore[arg-type]
               for i, p in enumerate(record.players)]
    return record.model_copy(deep=True, update={
        "actions": [dict(a) for a in record.actions[:position]], "players": players,
        "created": datetime.now(UTC).isoformat(timespec="seconds"), "updated": None})
