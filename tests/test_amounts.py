"""Amounts are bounded by the rules, and a game takes no action its own save cannot hold.

A remote seat sends its actions as JSON data, so any number, text or list can
arrive. Whatever arrives is refused (one line, nothing changed) or taken; and a
game that took it still saves and reads back through the strict reader of
saved games, and replays to the same state. Bots and the command palette offer
a few values of an amount, however long its range.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Iterator
from typing import Any, Literal, get_args, get_origin

import pytest

from railgames.core.bots import RandomBot
from railgames.core.engine import Action, AmountInput, Game, Prompt
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
from railgames.games import GAMES, load_ruleset
from railgames.games.new_england.actions import Bid, PassBid
from railgames.games.new_england.bots import GreedyBot
from railgames.games.new_england.state import Step

# Numbers a remote seat might send: past what a record holds, and just within it.
HUGE = [10**19, 10**20 - 1, 10**20, 10**30, -(10**30), 2**63, 2**64, 10**5000]


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


def saves_and_replays(game: Game) -> None:
    """The whole record reads back through the strict reader and replays to the same state."""
    again = parse_record(game.record.dump_json(), "test")
    assert again.actions == game.record.actions
    assert repr(Game.replay(game.ruleset, again).state) == repr(game.state)


def holds_one(game: Game, form: dict[str, Any]) -> None:
    """A record of this game holding only ``form`` reads back through the strict reader."""
    one = game.record.model_copy(update={"actions": [form]})
    assert parse_record(one.dump_json(), "test").actions == [form]


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


# ------------------------------------------------------------ (a) too large an amount
AMOUNTS = [  # game, the amount's action, what the rules say of one past its upper end
    ("new-england", "borrow", ("may borrow at most",)),
    ("new-england", "retire", ("owes only", "retiring")),
    ("new-england", "bid", ("needs",)),
    ("steel-driver", "bid", ("needs",)),
    ("railways-of-the-world", "bid", ("bids stop at $1,000,000,000",)),
    ("american-rails", "bid", ("needs",)),
]


@pytest.mark.parametrize(("game_id", "kind", "why"), AMOUNTS, ids=[f"{g}-{k}" for g, k, _ in AMOUNTS])
def test_an_amount_past_its_upper_end_sent_as_data_is_refused(game_id: str, kind: str,
                                                             why: tuple[str, ...]) -> None:
    game, bots = random_game(game_id, 3, 7)
    prompt = play_to(game, bots, lambda p: p.amount is not None and p.amount.action_type == kind
                     and p.amount.count > 0)
    amount = prompt.amount
    assert amount is not None
    # The prompt's upper end is the rules' own: the value there is legal, one step past is not.
    top = {"type": kind, "seat": prompt.seat, "amount": amount.max}
    assert game.check(top).amount == amount.max
    err = refusal(game, {**top, "amount": amount.max + amount.step})
    assert any(w in err.reason for w in why), err.reason
    err = refusal(game, {**top, "amount": 10**19})  # a number a saved game could hold
    assert any(w in err.reason for w in why), err.reason
    err = refusal(game, {**top, "amount": 10**30})  # one it could not
    assert type(err) is MalformedAction
    assert err.reason.endswith("field 'amount' is a number of 31 digits (at most 20)")
    game.apply(top)
    saves_and_replays(game)


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


# ------------------------------------------------------------ (b) every action taken reads back
def _far_values(amount: AmountInput) -> list[int]:
    return [amount.max, amount.max + amount.step, *(10**k for k in (3, 6, 9, 12, 19, 25, 30))]


def _seeds() -> Iterator[tuple[str, int, int]]:
    for game_id in sorted(GAMES):
        rules = load_ruleset(game_id)
        for players in (rules.min_players, rules.max_players):
            for seed in (1, 2):
                yield game_id, players, seed


@pytest.mark.parametrize(("game_id", "players", "seed"), list(_seeds()),
                         ids=[f"{g}-{n}p-seed{s}" for g, n, s in _seeds()])
def test_every_action_a_game_takes_reads_back_from_its_save(game_id: str, players: int,
                                                            seed: int) -> None:
    """Seeded random games whose seats send every move as data, one in four of their
    amounts anywhere from the top of the range to thirty digits: each action taken is
    one a saved game holds, and the whole record reads back and replays to the same state."""
    game, bots = random_game(game_id, players, seed)
    far = random.Random(seed)
    taken = 0
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        raw: dict[str, Any] = bots[prompt.seat].choose(game.ruleset, game.view(prompt.seat),
                                                       prompt).model_dump(mode="json")
        if prompt.amount is not None and far.random() < 0.25:
            value = far.choice(_far_values(prompt.amount))
            try:
                game.apply({"type": prompt.amount.action_type, "seat": prompt.seat,
                            "amount": value})
                taken += 1
            except RailgamesError:
                game.apply(raw)
        else:
            game.apply(raw)
        holds_one(game, game.record.actions[-1])
    saves_and_replays(game)
    if game_id in ("new-england", "railways-of-the-world"):
        assert taken, "no far amount was ever taken: the test would prove nothing"


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


# ------------------------------------------------------------ (d) huge numbers everywhere
def _numeric_slots(form: dict[str, Any]) -> Iterator[tuple[str, int | None]]:
    """(field, None) for each whole-number field, (field, i) for each number in a list."""
    for key, value in form.items():
        if type(value) is int:
            yield key, None
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if type(item) is int:
                    yield key, i


def _template(cls: type[Action], seat: int) -> dict[str, Any]:
    """An action of ``cls`` made up field by field: whole numbers 1, pairs [1, 1], choices
    their first, texts an id of no game, lists of them. The rules refuse most of these;
    what matters is where the numbers are."""
    out: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        kind = info.annotation
        if name == "seat":
            out[name] = seat
        elif get_origin(kind) is Literal:
            out[name] = get_args(kind)[0]
        elif kind is int or kind is bool:
            out[name] = kind(1)
        elif kind == tuple[int, int]:
            out[name] = [1, 1]
        elif get_origin(kind) in (list, tuple):
            out[name] = ["ZZZ", "ZZZ"]
        else:
            out[name] = "ZZZ"
    return out


def _action_classes(game: Game) -> list[type[Action]]:
    """Every kind of action of the game: the classes of its ``actions`` module."""
    module = importlib.import_module(type(game.ruleset).__module__.rpartition(".")[0] + ".actions")
    return [v for v in vars(module).values()
            if isinstance(v, type) and issubclass(v, Action) and v is not Action]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_huge_numbers_in_every_field_of_every_action_are_refused_or_saved(game_id: str) -> None:
    """As a remote seat could: every whole number of every action the game knows (the
    legal ones of the moment, and one of each kind made up), replaced by each of
    ``HUGE``, at steps all through a seeded game."""
    game, bots = random_game(game_id, 3, 11)
    classes = _action_classes(game)
    assert len(classes) >= 3
    tried: set[tuple[str, str]] = set()
    step = tries = 0
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        if step % 17 == 0 or (prompt.amount is not None and step % 3 == 0):
            tries += 1
            forms = [c.model_dump(mode="json") for c in list(prompt.choices)[:3]]
            forms += [_template(cls, prompt.seat) for cls in classes]
            if prompt.amount is not None:
                forms.append({"type": prompt.amount.action_type, "seat": prompt.seat,
                              "amount": prompt.amount.min})
            # The state is compared once in a while (a copy costs more than all the tries).
            state = copy.deepcopy(game.state) if tries % 8 == 1 else None
            count, last = len(game.record.actions), copy.deepcopy(game.record.actions[-1:])
            for form in forms:
                for key, index in _numeric_slots(form):
                    tried.add((form["type"], key))
                    for value in HUGE:
                        raw = {k: list(v) if isinstance(v, list) else v for k, v in form.items()}
                        if index is None:
                            raw[key] = value
                        else:
                            raw[key][index] = value
                        _refused_or_saved(game, raw)
            assert len(game.record.actions) == count and game.record.actions[-1:] == last
            assert state is None or game.state == state
        game.apply(bots[prompt.seat].choose(game.ruleset, game.view(prompt.seat), prompt))
        step += 1
    fields = {(cls.model_fields["type"].default, name) for cls in classes
              for name, info in cls.model_fields.items()
              if info.annotation in (int, tuple[int, int]) or name == "count"}
    assert fields <= tried, fields - tried  # every number of every kind of action was tried


def _refused_or_saved(game: Game, raw: dict[str, Any]) -> None:
    """``raw`` is refused alike by ``check`` and ``apply`` in one line, or taken (by a
    copy of the game) and saved, read back and replayed."""
    try:
        game.check(raw)
    except RailgamesError as checked:
        with pytest.raises(RailgamesError) as info:
            game.apply(raw)
        assert info.value.reason == checked.reason
        assert "\n" not in checked.reason and len(checked.reason) < 300, checked.reason
        return
    taken = copy.deepcopy(game)
    taken.apply(raw)
    saves_and_replays(taken)


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
