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
from railgames.core.coach import HINT_ITERATIONS, Advice, advise, gains_now, hint_budget
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
        assert budget.iterations == HINT_ITERATIONS[game_id]  # its own, measured for it


def test_a_hint_without_a_budget_runs_its_games_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playouts, not seconds: the same hint on every machine (benchmarks/hint_cost.py sets
    them for about a second of processor time)."""
    game = midgame("steel-driver", 3)
    prompt = game.prompt()
    assert prompt is not None
    monkeypatch.setitem(HINT_ITERATIONS, "steel-driver", 7)
    assert advise(game.ruleset, game.view(prompt.seat), prompt).iterations == 7


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


def first_move_told(game_id: str, kind: str, seed: int = 3) -> tuple[Any, Any, Any, int, list[str]]:
    """The first move of ``kind`` in a greedy bots' game that the ruleset has words for:
    the state before (the mover's view), after, the move, its seat and the lines."""
    ruleset = load_ruleset(game_id)
    game = Game.new(ruleset, bot_players(3, "greedy"), seed)
    bots = [make_bot("greedy", ruleset, seed + i) for i in range(3)]
    for _ in range(400):
        prompt = game.prompt()
        assert prompt is not None
        action = bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt)
        view = game.view(prompt.seat)
        lines = gains_now(ruleset, view, action, prompt.seat)
        if action.type == kind and lines:
            before = copy.deepcopy(view)  # (a view may be the state itself, which moves on)
            game.apply(action)
            return before, game.view(prompt.seat), action, prompt.seat, lines
        game.apply(action)
    raise AssertionError(f"no {kind} with words in {game_id}")


def test_new_england_tells_income_cash_and_the_links_won() -> None:
    before, after, _, seat, lines = first_move_told("new-england", "ship")
    was, now = before.railways[seat], after.railways[seat]
    assert lines[0] == f"+{now.income - was.income} income" and now.income > was.income
    before, after, action, seat, lines = first_move_told("new-england", "bid")
    [won] = [link for link in after.railways[seat].links if link not in before.railways[seat].links]
    assert lines[-1] == f"the {load_ruleset('new-england').link_name(won)} link"


def test_railways_of_the_world_tells_the_income_track_and_the_goods_delivered() -> None:
    before, after, action, seat, lines = first_move_told("railways-of-the-world", "deliver")
    gained = after.players[seat].income - before.players[seat].income
    colour = next(c for c in after.delivered if after.delivered[c] > before.delivered.get(c, 0))
    assert lines == [f"+{gained} income (points)", f"1 {colour} cube delivered"]
    _, _, _, _, lines = first_move_told("railways-of-the-world", "upgrade_engine")
    assert lines[0].startswith("-$") and lines[0].endswith(" cash") and "engine 2" in lines


def test_american_rails_tells_shares_and_the_income_of_companies_held() -> None:
    rules = load_ruleset("american-rails")
    before, after, action, seat, lines = first_move_told("american-rails", "bid")
    company = next(c for c, n in after.players[seat].shares.items()
                   if n > before.players[seat].shares.get(c, 0))
    assert f"+1 share of {rules.company_name(company)}" in lines
    before, after, action, seat, lines = first_move_told("american-rails", "place_cube")
    held = [c for c in after.players[seat].shares
            if after.companies[c].income != before.companies[c].income]
    assert lines == [f"{rules.company_name(c)} income "
                     f"{after.companies[c].income - before.companies[c].income:+}" for c in held]


def test_steel_driver_tells_control_shares_and_profit() -> None:
    rules = load_ruleset("steel-driver")
    before, after, action, seat, lines = first_move_told("steel-driver", "bid")
    name = rules.company_name(action.company if hasattr(action, "company") else
                              next(c for c, co in after.companies.items() if co.controller == seat))
    assert f"control of {name}" in lines and f"+1 share of {name}" in lines
    before, after, action, seat, lines = first_move_told("steel-driver", "build")
    assert all(" profit +" in line for line in lines)


def test_paris_connection_tells_locomotives_values_and_points_held() -> None:
    rules = load_ruleset("paris-connection")
    before, after, action, seat, lines = first_move_told("paris-connection", "trade")
    points = rules.score_of(after, seat)["total"] - rules.score_of(before, seat)["total"]
    took = after.players[seat].shares[action.take] - before.players[seat].shares.get(action.take, 0)
    assert f"+{took} {action.take} locomotive{'s' if took > 1 else ''}" in lines
    assert lines[-1] == f"{points:+} points held".replace("+-", "-")
    before, after, action, seat, lines = first_move_told("paris-connection", "build")
    rises = [c for c in rules.companies if after.value[c] != before.value[c]
             and after.players[seat].shares.get(c)]
    assert [line for line in lines if line.endswith("in value")] == [
        f"{c} {after.value[c] - before.value[c]:+} in value" for c in rises]


def test_a_move_that_logs_nothing_is_named_by_its_kind_and_values() -> None:
    """Railways of the World's 'urbanize' only opens the choice of a city: no log line
    names it, and a review said 'Better: Choose'."""
    from railgames.core.coach import said
    from railgames.core.engine import Game
    from railgames.core.simulate import bot_players
    from railgames.games import load_ruleset
    from railgames.games.railways_of_the_world.actions import Choose

    ruleset = load_ruleset("railways-of-the-world")
    game = Game.new(ruleset, bot_players(3, "greedy"), 1)
    assert said(ruleset, game.state, Choose(seat=0, action="urbanize"), 0) == "Choose: urbanize"
