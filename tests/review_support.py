"""A finished game with one deliberately bad decision, for the review's tests.

A five-player Paris Connection of greedy bots (few decisions each, so a review
is quick), in which one of the first seat's last decisions is replaced by the
move that leaves it worst off when the game is played on by the same greedy
bots (every candidate tried to the end), and the game is then played on to its
end. ``build`` makes it (some seconds);
the tests read it from ``FIXTURE``, written by ``python -m tests.review_support``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from railgames.core.bots import make_bot
from railgames.core.engine import Game
from railgames.core.record import GameRecord, load_record
from railgames.core.review import decision_positions
from railgames.core.simulate import bot_players
from railgames.games import load_ruleset

GAME = "paris-connection"
SEED = 4
SEAT = 0
PLAYERS = 5
FIXTURE = Path(__file__).parent / "fixtures" / "review" / "paris-connection-bad-move.json"
# Where the bad decision is in the fixture, and what it cost (written with it).
WHERE = FIXTURE.with_suffix(".where.json")


def play_on(game: Game) -> Game:
    """The game played to its end by greedy bots made afresh, as the fixture was."""
    bots = [make_bot("greedy", game.ruleset, SEED + i) for i in range(len(game.players))]
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        game.apply(bots[prompt.seat].choose(game.ruleset, game.view(prompt.seat), prompt))
    return game


def margin(game: Game, seat: int) -> float:
    result = game.result()
    assert result is not None
    scores = [result.scores[p.name] for p in game.players]
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


@cache
def bad_game() -> tuple[GameRecord, int]:
    """The fixture's record and the position of its bad decision."""
    return load_record(FIXTURE), int(json.loads(WHERE.read_text())["position"])


def build() -> tuple[GameRecord, int, float]:
    """The record, the position of the bad decision, and how much worse it left the seat
    than the greedy move did (in points, the game played on by the greedy bots)."""
    ruleset = load_ruleset(GAME)
    greedy = play_on(Game.new(ruleset, bot_players(PLAYERS, "greedy"), SEED))
    hooks: Any = ruleset.bot_makers()["search"](0)
    worst: tuple[float, Game, int] | None = None
    # Of the seat's last few decisions, the one whose worst move costs the most.
    for position in decision_positions(ruleset, greedy.record, SEAT)[-6:]:
        at = Game.replay(ruleset, greedy.record, upto=position)
        prompt = at.prompt()
        assert prompt is not None
        for action in hooks.candidates(at.view(SEAT), prompt):
            game = Game.replay(ruleset, greedy.record, upto=position)
            game.apply(action)
            play_on(game)
            if worst is None or margin(game, SEAT) < worst[0]:
                worst = (margin(game, SEAT), game, position)
    assert worst is not None
    return worst[1].record, worst[2], margin(greedy, SEAT) - worst[0]


if __name__ == "__main__":
    record, position, cost = build()
    FIXTURE.write_text(record.dump_json() + "\n")
    WHERE.write_text(json.dumps({"position": position, "cost": cost}) + "\n")
    print(f"{FIXTURE}: the bad decision at action {position} costs {cost} points")
