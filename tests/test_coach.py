"""Hints: the search bot's choice, ranked among the others, told in the game's words, from the seat's view only.

Tiny iteration budgets keep these quick; the cost of a hint at its real budget
is measured by benchmarks/hint_cost.py.
"""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import pytest

from railgames.core.bots import make_bot
from railgames.core.coach import Advice, advise, gains_now, hint_budget
from railgames.core.engine import Game
from railgames.core.search import Budget, SearchBot
from railgames.core.simulate import bot_players
from railgames.games import load_ruleset

GAMES = ["new-england", "paris-connection", "steel-driver", "railways-of-the-world", "american-rails"]
ITERATIONS = 12


def every_count() -> list[tuple[str, int]]:
    out = []
    for game_id in GAMES:
        rules = load_ruleset(game_id)
        out.extend((game_id, n) for n in range(rules.min_players, rules.max_players + 1))
    return out


def midgame(game_id: str, players: int, seed: int = 3, actions: int = 12) -> Game:
    """A seeded game of greedy bots, ``actions`` per player in, at a decision with a real choice."""
    ruleset = load_ruleset(game_id)
    game = Game.new(ruleset, bot_players(players, "greedy"), seed)
    bots = [make_bot("greedy", ruleset, seed + i) for i in range(players)]
    for _ in range(2000):
        prompt = game.prompt()
        assert prompt is not None, "the game ended before its middle"
        if len(game.record.actions) >= actions * players and len(ruleset.legal_actions(game.state)) > 1:
            return game
        game.apply(bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt))
    raise AssertionError("no decision with a choice found")


def hint(game: Game, seed: int = 5, iterations: int = ITERATIONS) -> Advice:
    prompt = game.prompt()
    assert prompt is not None
    return advise(game.ruleset, game.view(prompt.seat), prompt,
                  budget=Budget(seconds=None, iterations=iterations), seed=seed)


@pytest.mark.parametrize(("game_id", "players"), every_count())
def test_hint_is_the_search_bots_choice_ranked_and_told(game_id: str, players: int) -> None:
    game = midgame(game_id, players)
    ruleset = game.ruleset
    prompt = game.prompt()
    assert prompt is not None
    advice = hint(game)
    bot = SearchBot(ruleset.bot_makers()["search"], 5, budget=Budget(seconds=None, iterations=ITERATIONS))
    assert advice.best.action == bot.choose(ruleset, game.view(prompt.seat), prompt)
    assert advice.seat == prompt.seat and advice.iterations == ITERATIONS
    for choice in advice.choices:
        ruleset.validate(game.state, choice.action)  # raises for an illegal move
    tried = sum(1 for v in bot.last.visits.values() if v) if bot.last else 0
    assert len(advice.choices) >= min(3, tried)
    rest = [c.margin for c in advice.choices[1:]]
    assert rest == sorted(rest, reverse=True)
    for choice in advice.choices:
        assert choice.behind == pytest.approx(advice.best.margin - choice.margin, abs=0.11)
        assert choice.label and "=" not in choice.label
    assert advice.reason.startswith(advice.best.label)
    assert re.search(r"\d", advice.reason[len(advice.best.label):])


def paris_turn(seed: int = 2) -> Game:
    """A four-player Paris Connection at a player's turn (holdings behind screens)."""
    game = midgame("paris-connection", 4, seed=seed, actions=6)
    while game.state.step.value != "turn":
        prompt = game.prompt()
        assert prompt is not None
        game.apply(prompt.choices[0])
    return game


def test_hint_never_reads_other_holdings() -> None:
    """Two states that differ only in two other players' hidden locomotives get the same hint."""
    game = paris_turn()
    prompt = game.prompt()
    assert prompt is not None
    me = prompt.seat
    first = hint(game, seed=8)
    state = game.state
    a, b = [s for s in range(4) if s != me][:2]
    changed = copy.deepcopy(state)
    pile = [c for s in (b, a) for c, k in sorted(state.players[s].shares.items()) for _ in range(k)]
    for s in (a, b):
        take, pile = pile[:state.players[s].held], pile[state.players[s].held:]
        changed.players[s].shares = {c: take.count(c) for c in sorted(set(take))}
    assert changed.players[a].shares != state.players[a].shares
    game.state = changed
    assert hint(game, seed=8) == first


def test_hint_says_what_a_move_gains_at_once() -> None:
    """New England's loan: the money comes in now, and the debt with it."""
    from railgames.games.new_england.actions import Borrow
    from railgames.games.new_england.state import Step

    game = midgame("new-england", 3, actions=1)
    ruleset = game.ruleset
    while game.state.step is not Step.LOANS:
        prompt = game.prompt()
        assert prompt is not None
        game.apply(ruleset.legal_actions(game.state)[0])
    seat = game.prompt().seat  # type: ignore[union-attr]
    gains = gains_now(ruleset, game.view(seat), Borrow(seat=seat, amount=10), seat)
    assert "+$10 cash" in gains and "+$10 debt" in gains
    assert gains_now(ruleset, game.view(seat), Borrow(seat=seat, amount=0), seat) == []


def test_a_hint_has_a_budget_for_every_game() -> None:
    for game_id in GAMES:
        budget = hint_budget(load_ruleset(game_id))
        assert budget.seconds is None and budget.iterations and budget.iterations > 0


def test_a_bot_sent_to_a_worker_leaves_its_last_tree_behind() -> None:
    """The tree a hint reads stays in the process that searched (it is large)."""
    game = midgame("steel-driver", 3)
    prompt = game.prompt()
    assert prompt is not None
    bot = SearchBot(game.ruleset.bot_makers()["search"], 1, budget=Budget(seconds=None, iterations=6))
    bot.choose(game.ruleset, game.view(prompt.seat), prompt)
    assert bot.search.root is not None
    sent: Any = pickle.loads(pickle.dumps(bot))
    assert sent.search.root is None


def test_the_reason_tells_the_gap_as_the_search_sees_it() -> None:
    """Clearly better, about as good, or the game's own move kept while another may be better."""
    from railgames.core.coach import Choice, reason

    ne, rotw = load_ruleset("new-england"), load_ruleset("railways-of-the-world")

    def two(second_margin: float) -> tuple[Choice, Choice]:
        best = Choice(action=None, label="Ship red Boston → Salem", margin=4.0, behind=0.0,
                      visits=9, gains=("+$3 cash",))
        other = Choice(action=None, label="Pass", margin=second_margin,
                       behind=round(4.0 - second_margin, 1), visits=5, gains=())
        return best, other

    assert reason(ne, two(-2.0)) == "Ship red Boston → Salem: +$3 cash now; about $6 better than Pass"
    assert reason(rotw, two(3.8)) == ("Ship red Boston → Salem: +$3 cash now; about as good as Pass "
                                      "(within 1 point)")
    assert reason(ne, two(9.0)) == ("Ship red Boston → Salem: +$3 cash now; Pass may be $5 better, "
                                    "not yet for sure")
