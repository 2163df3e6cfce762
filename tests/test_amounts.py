"""A game takes no action its own save cannot hold, and an amount's range is never walked.

A remote seat sends its actions as JSON data, so any number, text or list can
arrive. Whatever a saved game could not hold is refused as malformed, in one
line, before the rules are asked, and nothing changes. Bots and the command
palette offer a few values of an amount, however long its range.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from railgames.core.bots import RandomBot
from railgames.core.engine import AmountInput, Game, Prompt
from railgames.core.errors import MalformedAction, RailgamesError
from railgames.core.record import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_ITEMS,
    MAX_STRING,
    GameRecord,
    parse_record,
)
from railgames.core.search import Budget, SearchBot, SearchHooks
from railgames.core.simulate import bot_players, bots_for
from railgames.games import load_ruleset
from railgames.games.new_england.actions import Bid, PassBid
from railgames.games.new_england.bots import GreedyBot
from railgames.games.new_england.state import Step


def refusal(game: Game, raw: Any) -> RailgamesError:
    """``raw``'s refusal by ``check`` and by ``apply``: one line, and nothing changed."""
    state, actions = copy.deepcopy(game.state), copy.deepcopy(game.record.actions)
    with pytest.raises(RailgamesError) as checked:
        game.check(raw)
    with pytest.raises(RailgamesError) as info:
        game.apply(raw)
    err = info.value
    assert type(err) is type(checked.value) and err.reason == checked.value.reason
    assert "\n" not in err.reason and len(err.reason) < 300, err.reason
    assert game.state == state
    assert game.record.actions == actions
    return err


def random_game(game_id: str, players: int, seed: int) -> tuple[Game, list[Any]]:
    rules = load_ruleset(game_id)
    game = Game.new(rules, bot_players(players, "random"), seed)
    return game, bots_for(game, seed)


def play_to(game: Game, bots: list[Any], wanted: Any) -> Prompt:
    """Let the random bots play until ``wanted(prompt)``; that prompt."""
    for _ in range(5000):
        prompt = game.prompt()
        assert prompt is not None, "the game ended before the wanted moment"
        if wanted(prompt):
            return prompt
        game.apply(bots[prompt.seat].choose(game.ruleset, game.view(prompt.seat), prompt))
    raise AssertionError("the wanted moment never came")


def test_a_paris_connection_count_or_hex_past_a_saved_game_is_malformed() -> None:
    game, bots = random_game("paris-connection", 3, 7)
    prompt = play_to(game, bots, lambda p: any(c.type == "trade" for c in p.choices))
    trade = next(c for c in prompt.choices if c.type == "trade").model_dump(mode="json")
    build = next(c for c in prompt.choices if c.type == "build").model_dump(mode="json")
    for raw in ({**trade, "count": 10**30}, {**build, "hex": [10**30, 2]},
                {**build, "hex": f"{'9' * 150},2"}):  # a hex as text reads as a number of 150 digits
        err = refusal(game, raw)
        assert type(err) is MalformedAction and "digits (at most 20)" in err.reason


# ------------------------------------------------------------ texts, lists, nesting
def test_what_a_saved_game_could_not_hold_is_malformed_before_the_rules_are_asked() -> None:
    game, bots = random_game("new-england", 3, 1)
    prompt = play_to(game, bots, lambda p: any(c.type == "ship" for c in p.choices))
    ship = next(c for c in prompt.choices if c.type == "ship").model_dump(mode="json")
    cases = {
        "a text of 201 characters (at most 200)": {**ship, "colour": "x" * 201},
        "field 'path' has 65 items (at most 64)": {**ship, "path": ["BOS"] * 65},
        "levels deep (at most 8)": {**ship, "path": [[[[[[["BOS"]]]]]]]},
        "a number of 21 digits": {**ship, "seat": 10**20},
    }
    deep: Any = "BOS"
    for _ in range(100_000):  # deeper than Python's own recursion reaches
        deep = [deep]
    cases["nested 9 levels deep"] = {**ship, "path": deep}
    for why, raw in cases.items():
        err = refusal(game, raw)
        assert type(err) is MalformedAction and why in err.reason, (why, err.reason)


def test_the_limits_are_the_saved_game_reader_s_own() -> None:
    """An action's form passes the check exactly when a record holding it reads back."""
    from railgames.core.record import action_problem
    game = Game.new(load_ruleset("new-england"), bot_players(3, "random"), 1)
    within = {"type": "x", "seat": 0, "n": 10**MAX_INT_DIGITS - 1, "m": -(10**MAX_INT_DIGITS - 1),
              "t": "x" * MAX_STRING, "l": list(range(MAX_ITEMS - 1))}
    nested: Any = 1
    for _ in range(MAX_DEPTH - 3):  # the action sits at depth 2, its fields at 3
        nested = [nested]
    forms = [within, {**within, "d": nested}, {**within, "n": 10**MAX_INT_DIGITS},
             {**within, "m": -(10**MAX_INT_DIGITS)}, {**within, "t": "x" * (MAX_STRING + 1)},
             {**within, "l": list(range(MAX_ITEMS + 1))}, {**within, "d": [nested]},
             {f"k{i}": 0 for i in range(MAX_ITEMS + 1)}]
    for form in forms:
        record = game.record.model_copy(update={"actions": [form]})
        try:
            parse_record(record.dump_json(), "test")
            reads = True
        except RailgamesError:
            reads = False
        assert (action_problem(form) is None) == reads, (action_problem(form), form)
    assert [action_problem(f) is None for f in forms] == [True, True] + [False] * 6


# ------------------------------------------------------------ (c) bots and a huge range
def rich_bidder() -> tuple[Game, Prompt]:
    """A New England auction whose bidder holds $10,000,000,000,000,000,000 (a test
    position: the rules never lend that much): more values to bid than 2**63."""
    game, bots = random_game("new-england", 3, 4)
    prompt = play_to(game, bots, lambda p: game.state.step is Step.AUCTION)
    railway = game.state.railways[prompt.seat]
    railway.cash = railway.debt = 10**19
    prompt = game.prompt()
    assert prompt is not None and prompt.amount is not None and prompt.amount.max == 10**19
    assert prompt.amount.count > 2**63
    return game, prompt


def test_bots_choose_a_bid_inside_a_range_of_more_than_2_to_the_63_values() -> None:
    game, prompt = rich_bidder()
    amount = prompt.amount
    assert amount is not None
    picked = set()
    for seed in range(40):
        action = RandomBot(seed).choose(game.ruleset, game.view(prompt.seat), prompt)
        if isinstance(action, Bid):
            assert amount.min <= action.amount <= amount.max
            picked.add(action.amount)
            assert game.check(action) == action
        else:
            assert action == PassBid(seat=prompt.seat)
    assert len(picked) > 10 and max(picked) > 10**18  # drawn from the whole range
    greedy = GreedyBot(0).choose(game.ruleset, game.view(prompt.seat), prompt)
    assert game.check(greedy) == greedy
    search = SearchBot(game.ruleset.bot_makers()["search"], 1, budget=Budget(seconds=None, iterations=30))
    chosen = search.choose(game.ruleset, game.view(prompt.seat), prompt)
    assert game.check(chosen) == chosen
    hooks = SearchHooks(game.ruleset)
    assert hooks.amount_values(game.state, amount) == [amount.min, amount.min + 1, amount.min + 3]


def test_an_amount_of_any_range_lists_a_few_values() -> None:
    from railgames.core.engine import LEGAL_AMOUNTS

    amount = AmountInput(action_type="bid", label="Bid", min=1, max=10**30)
    assert amount.count == 10**30
    assert amount.sample(5) == [1, 2, 3, 4, 10**30]
    short = AmountInput(action_type="bid", label="Bid", min=3, max=9, step=3)
    assert (short.count, short.sample(5)) == (3, [3, 6, 9])
    assert AmountInput(action_type="bid", label="Bid", min=5, max=4).count == 0
    game, prompt = rich_bidder()
    legal = [a for a in game.legal_actions() if isinstance(a, Bid)]
    assert len(legal) == LEGAL_AMOUNTS and legal[-1].amount == 10**19
    rules = load_ruleset("new-england")
    wide = Prompt(seat=0, step="Auction", text="", amount=amount)
    for seed in range(20):
        value = RandomBot(seed).choose(rules, None, wide).amount
        assert 1 <= value <= 10**30


def test_a_record_made_by_hand_with_too_large_a_loan_is_refused_naming_it() -> None:
    rules = load_ruleset("new-england")
    game = Game.new(rules, bot_players(3, "random"), 1)
    seat = rules.to_move(game.state)
    record = GameRecord.model_validate({**game.record.model_dump(),
                                        "actions": [{"type": "borrow", "seat": seat,
                                                     "amount": 10**19}]})
    with pytest.raises(RailgamesError) as info:
        Game.replay(rules, parse_record(record.dump_json(), "test"))
    assert "action 0 (borrow by" in info.value.reason and "may borrow at most" in info.value.reason
