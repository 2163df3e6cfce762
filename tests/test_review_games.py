"""In every game: a finished game's decisions reviewed with their estimated losses, and
"try again" from one of them. (The whole review, and a bad move found in it, is
tests/test_review.py's; its cost at the games' own budgets is benchmarks/review_cost.py's.)

The fixture of each game is a finished game of three greedy bots; the last decisions of
seat 0 are reviewed (the closer to the end, the shorter the playouts: quick at a tiny
budget), which is what the app's worker does a few decisions at a time."""

from __future__ import annotations

from functools import cache

import pytest

from railgames.core.coach import points
from railgames.core.engine import Game
from railgames.core.record import GameRecord
from railgames.core.review import (
    Review,
    decision_positions,
    loss_text,
    review_positions,
    try_again_record,
)
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

GAMES = ["new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails"]
SEAT = 0
LAST = 4  # decisions reviewed, the last ones of the seat


@cache
def finished(game_id: str) -> GameRecord:
    return play_bot_game(load_ruleset(game_id), bot_players(3, "greedy"), 2).record


@pytest.mark.parametrize("game_id", GAMES)
def test_a_finished_games_decisions_are_listed_with_their_losses_and_tried_again(
        game_id: str) -> None:
    ruleset = load_ruleset(game_id)
    record = finished(game_id)
    positions = decision_positions(ruleset, record, SEAT)
    assert len(positions) >= LAST
    chosen = positions[-LAST:]
    decisions = review_positions(ruleset, record, chosen, iterations=2, samples=1)
    assert [d.position for d in decisions] == chosen
    for decision in decisions:
        assert decision.seat == SEAT and decision.loss >= 0
        assert decision.played and "=" not in decision.played  # the move made, in words
        if decision.better:  # something was estimated better: by how much, in the game's unit
            assert decision.reason and loss_text(ruleset, decision) == \
                f"about {points(ruleset, decision.loss)}"
    review = Review(SEAT, tuple(decisions))
    assert [d.loss for d in review.costliest] == sorted((d.loss for d in review.costliest),
                                                        reverse=True)
    # Try again from the first decision reviewed: that moment, seat 0 a person, bots the rest.
    again = try_again_record(record, chosen[0], SEAT)
    assert again.actions == record.actions[:chosen[0]]
    assert [p.is_bot for p in again.players] == [False, True, True]
    game = Game.replay(ruleset, again)
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == SEAT
    assert game.view(SEAT) == Game.replay(ruleset, record, upto=chosen[0]).view(SEAT)
