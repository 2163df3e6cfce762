"""The review of a finished game: a seat's decisions with their estimated losses, and
"try again" from one of them.

Tiny budgets keep these quick; the cost of a whole review at the games' budgets is
measured by benchmarks/review_cost.py.
"""

from __future__ import annotations

import pytest

from railgames.core.bots import make_bot
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.core.review import (
    Review,
    costliest,
    decision_positions,
    review_decision,
    review_game,
    review_positions,
    try_again_record,
)
from railgames.core.search import MCTS, Budget
from railgames.games import load_ruleset
from tests.review_support import GAME, SEAT, SEED, bad_game, margin, play_on

TINY = Budget(seconds=None, iterations=2)


@pytest.fixture(scope="module")
def reviewed() -> Review:
    record, _ = bad_game()
    review = review_game(load_ruleset(GAME), record, SEAT, budget=TINY, samples=2)
    assert review is not None
    return review


def test_the_fixture_has_a_clearly_bad_decision() -> None:
    """Played on alike by greedy bots, the greedy move there ends far better for the seat."""
    record, position = bad_game()
    ruleset = load_ruleset(GAME)
    assert record.actions[position]["seat"] == SEAT
    game = Game.replay(ruleset, record, upto=position)
    prompt = game.prompt()
    assert prompt is not None
    game.apply(make_bot("greedy", ruleset, SEED + SEAT).choose(ruleset, game.view(SEAT), prompt))
    assert margin(play_on(game), SEAT) - margin(Game.replay(ruleset, record), SEAT) >= 10


def test_a_review_lists_every_decision_of_the_seat_with_losses_sorted(reviewed: Review) -> None:
    record, position = bad_game()
    ruleset = load_ruleset(GAME)
    positions = decision_positions(ruleset, record, SEAT)
    assert [d.position for d in reviewed.decisions] == positions
    assert all(record.actions[p]["seat"] == SEAT for p in positions)
    assert all(d.loss >= 0 and d.seat == SEAT for d in reviewed.decisions)
    top = reviewed.costliest
    assert 1 <= len(top) <= 5
    assert [d.loss for d in top] == sorted((d.loss for d in top), reverse=True)
    assert all(d.loss >= 1 for d in top)
    # The bad move is found among the costliest, told in the game's words.
    bad = next(d for d in top if d.position == position)
    assert bad.better and bad.played and bad.better != bad.played
    assert bad.reason.startswith(bad.better) and "better than" in bad.reason
    assert bad.turn == ruleset.turn_of(Game.replay(ruleset, record, upto=position).state)


def test_the_move_made_is_estimated_even_where_the_tree_never_tried_it() -> None:
    """One iteration tries the greedy move only; the bad move made is still compared."""
    record, position = bad_game()
    ruleset = load_ruleset(GAME)
    game = Game.replay(ruleset, record, upto=position)
    prompt = game.prompt()
    assert prompt is not None
    search = MCTS(ruleset.bot_makers()["search"](1), Budget(seconds=None, iterations=1), 1)
    search.choose(game.view(SEAT), prompt)
    made = ruleset.action_adapter.validate_python(record.actions[position])
    assert search.root is not None
    assert all(c.action != made for c in search.root.children.values() if c.visits)
    decision = review_decision(ruleset, record, position, budget=Budget(seconds=None, iterations=1),
                               samples=3)
    assert decision.loss >= 1
    # Seeded: the same answer again, alone or among others.
    again = review_positions(ruleset, record, [position - 1, position], iterations=1, samples=3)
    assert again[-1] == decision


def test_compare_plays_every_move_in_the_same_samples() -> None:
    record, position = bad_game()
    ruleset = load_ruleset(GAME)
    game = Game.replay(ruleset, record, upto=position)
    prompt = game.prompt()
    assert prompt is not None
    moves = list(prompt.choices)[:3]
    search = MCTS(ruleset.bot_makers()["search"](0), TINY, 0)
    out = search.compare(game.view(SEAT), SEAT, moves, 4, seed=9)
    assert len(out) == 3 and len({len(m) for m in out}) == 1 and out[0]
    assert search.compare(game.view(SEAT), SEAT, moves, 4, seed=9) == out


def test_a_review_reports_progress_and_stops_when_cancelled() -> None:
    record, _ = bad_game()
    told: list[tuple[int, int]] = []
    review = review_game(load_ruleset(GAME), record, SEAT, budget=Budget(seconds=None, iterations=1),
                         samples=1, progress=lambda done, total: told.append((done, total)),
                         cancelled=lambda: len(told) >= 2)
    assert review is None
    total = len(decision_positions(load_ruleset(GAME), record, SEAT))
    assert told == [(1, total), (2, total)]


def test_a_seat_that_made_no_decision_has_nothing_to_review() -> None:
    """The game cut before the last seat first chose anything."""
    record, _ = bad_game()
    ruleset = load_ruleset(GAME)
    first = decision_positions(ruleset, record, 2)[0]
    short = record.model_copy(update={"actions": record.actions[:first]})
    assert decision_positions(ruleset, short, 2) == []
    review = review_game(ruleset, short, 2, budget=TINY, samples=1)
    assert review is not None and review.decisions == () and review.costliest == ()
    assert costliest([]) == ()


def test_try_again_starts_from_the_decision_with_the_same_seats() -> None:
    record, position = bad_game()
    ruleset = load_ruleset(GAME)
    # A hot-seat game of two people and a bot: the reviewed person plays, the other
    # person's seat goes to the game's kind of bot, the bot stays as it was.
    names = [p.name for p in record.players]
    people = record.model_copy(update={"players": [
        PlayerSpec(name=n, kind="greedy" if i == 4 else "human") for i, n in enumerate(names)]})
    again = try_again_record(people, position, SEAT)
    assert again.actions == record.actions[:position]
    assert [p.name for p in again.players] == names
    assert [p.kind for p in again.players] == ["human", "greedy", "greedy", "greedy", "greedy"]
    assert again.seed == record.seed and again.options == record.options
    game = Game.replay(ruleset, again)
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == SEAT
    assert game.state == Game.replay(ruleset, record, upto=position).state
    # A game of people only: the others get search bots; another kind when asked.
    alone = record.model_copy(update={"players": [PlayerSpec(name=n) for n in names]})
    assert [p.kind for p in try_again_record(alone, position, SEAT).players] == \
        ["human"] + ["search"] * 4
    assert [p.kind for p in try_again_record(alone, position, 1, "greedy").players] == \
        ["greedy", "human", "greedy", "greedy", "greedy"]
    with pytest.raises(ValueError):
        try_again_record(record, len(record.actions) + 1, SEAT)
