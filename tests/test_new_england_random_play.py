"""Whole games between bots, over many seeds, checking the rules' invariants at every step."""

from __future__ import annotations

import copy
import random

import pytest
from conftest import all_routes, make_ruleset
from support import assert_copies_like_deepcopy

from railgames.core.engine import Game
from railgames.core.record import GameRecord
from railgames.core.simulate import bot_players, bots_for
from railgames.games.new_england.actions import Ship
from railgames.games.new_england.board_map import TOTAL_CUBES
from railgames.games.new_england.rules import STARTING_CASH
from railgames.games.new_england.state import NEState, Step

MAX_ACTIONS = 3000
MAX_TURNS = 60
FULL_CHECK_SEEDS = 2  # below this seed every listed action is checked at every step; above, a sample
SAMPLE = 5

CASES = [("random", n, seed) for n in (3, 4, 5, 6) for seed in range(40)] + [
    ("greedy", n, seed) for n in (3, 4, 5, 6) for seed in range(15)
]


def check_links(ruleset, state: NEState) -> None:
    owned = set(state.owner)
    deciding = {state.finish.link} if state.finish is not None else set()
    assert owned == state.built | set(state.unfinished) | deciding
    assert not state.built & set(state.unfinished)
    assert not owned & set(state.set_aside)
    piles = [state.link_deck, state.future, state.set_aside, sorted(owned)]
    seen = [link for pile in piles for link in pile]
    assert len(seen) == len(set(seen)), "a link sits in two places at once"
    assert set(seen) <= {link.id for link in ruleset.map.links}
    for seat, r in enumerate(state.railways):
        assert all(state.owner[link] == seat for link in r.links)
    assert sum(len(r.links) for r in state.railways) == len(owned)


def check_state(ruleset, state: NEState, cash_in: list[int], debt_in: list[int]) -> None:
    assert state.cube_total() == TOTAL_CUBES
    assert all(k >= 0 for k in state.cup.values())
    assert all(k > 0 for here in state.cubes.values() for k in here.values())
    for seat, r in enumerate(state.railways):
        assert r.cash == STARTING_CASH + cash_in[seat], f"{r.name}: cash moved outside the rules"
        assert r.debt == debt_in[seat], f"{r.name}: debt moved outside the rules"
        assert r.debt >= 0 and r.debt % 10 == 0
        assert r.income >= 0
        if state.step is not Step.OVER:
            assert r.cash >= 0, f"{r.name} has ${r.cash}"
    check_links(ruleset, state)


def book(events, cash_in: list[int], debt_in: list[int]) -> None:
    for e in events:
        if "cash" in e.data:
            cash_in[e.data["seat"]] += e.data["cash"]
        if "debt" in e.data:
            debt_in[e.data["seat"]] += e.data["debt"]


@pytest.mark.parametrize(("kind", "players", "seed"), CASES, ids=[f"{k}-{n}p-seed{s}" for k, n, s in CASES])
def test_bot_games_keep_the_rules_invariants(ruleset, kind, players, seed):
    game = Game.new(ruleset, bot_players(players, kind), seed)
    bots = bots_for(game, seed)
    sampler = random.Random(f"{kind}-{players}-{seed}")
    cash_in, debt_in = [0] * players, [0] * players
    book(game.log, cash_in, debt_in)
    check_state(ruleset, game.state, cash_in, debt_in)
    snap_at = sampler.randrange(1, 60)
    snapshot = None

    while not game.is_over():
        assert len(game.record.actions) < MAX_ACTIONS, "the game does not end"
        assert game.state.turn <= MAX_TURNS, "the game does not end"
        legal = game.legal_actions()
        assert legal, "a prompt with no legal answer"
        checked = legal if seed < FULL_CHECK_SEEDS else sampler.sample(legal, min(SAMPLE, len(legal)))
        for action in checked:
            assert game.check(action) == action
        prompt = game.prompt()
        if seed < FULL_CHECK_SEEDS and game.state.step is Step.SHIP:
            listed = {(a.colour, tuple(a.path)) for a in prompt.choices if isinstance(a, Ship)}
            assert listed == {
                (colour, path)
                for city, here in game.state.cubes.items() for colour in here
                for path in all_routes(ruleset, game.state.built, city, colour)
            }, "the listed shipments differ from every legal route"
        action = bots[prompt.seat].choose(game.ruleset, game.view(prompt.seat), prompt)
        assert action in legal, f"the {kind} bot chose an unlisted action {action!r}"
        book(game.apply(action), cash_in, debt_in)
        check_state(ruleset, game.state, cash_in, debt_in)
        if len(game.record.actions) == snap_at:
            snapshot = copy.deepcopy(game.state)

    state = game.state
    assert len(game.record.actions) <= MAX_ACTIONS and state.turn <= MAX_TURNS
    assert state.step is Step.OVER
    assert state.link_deck == [] and state.future == [] and state.unfinished == []
    result = game.result()
    assert result is not None
    scores = {r.name: r.cash for r in state.railways}
    assert result.scores == scores
    assert result.winners == [n for n, v in scores.items() if v == max(scores.values())]
    for r in state.railways:
        parts = result.breakdown[r.name]
        assert parts["total"] == parts["cash"] + parts["link_values"] + parts["debt_owed"] + parts["service"]
        assert parts["link_values"] == sum(ruleset.link_value(link) for link in r.links)
        assert parts["service"] == parts["debt_owed"] // 5

    replayed = Game.replay(ruleset, game.record)
    assert replayed.state == state
    assert replayed.record.actions == game.record.actions
    if snapshot is not None:
        assert Game.replay(ruleset, game.record, snap_at).state == snapshot

    restored = GameRecord.model_validate_json(game.record.model_dump_json())
    assert restored == game.record
    again = Game.replay(ruleset, restored)
    assert again.state == state
    assert again.result() == result


SMALL_CASES = [(kind, players, seed) for kind in ("random", "greedy") for players in (3, 4, 5, 6)
               for seed in (1, 2)]


@pytest.mark.parametrize(("kind", "players", "seed"), SMALL_CASES,
                         ids=[f"small-{k}-{n}p-seed{s}" for k, n, s in SMALL_CASES])
def test_the_rules_hold_on_a_small_board_too(kind, players, seed):
    """The same invariants on the 11-city fixture board: nothing depends on the shipped map."""
    test_bot_games_keep_the_rules_invariants(make_ruleset(small=True), kind, players, seed)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_copied_state_is_a_deep_copy(seed):
    """The state copies itself quickly (a search copies it on every iteration), yet the
    copy is the one ``copy.deepcopy`` would make, all through a game and at its end."""
    ruleset = make_ruleset()
    game = Game.new(ruleset, bot_players(4, "random"), seed)
    bots = bots_for(game, seed)
    while True:
        if len(game.record.actions) % 7 == 0 or game.is_over():
            assert_copies_like_deepcopy(game.state)
        if game.is_over():
            break
        prompt = game.prompt()
        assert prompt is not None
        game.apply(bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt))


def test_pickled_rules_leave_what_they_keep_behind():
    """A bot's think takes its rules to a worker process and back: what the rules keep
    from play (shipping paths, listed actions) stays behind, and the copy plays the same."""
    import pickle

    ruleset = make_ruleset()
    fresh = len(pickle.dumps(ruleset))
    game = Game.new(ruleset, bot_players(4, "random"), 3)
    bots = bots_for(game, 3)
    states = []
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        if prompt.choices and len(game.record.actions) % 10 == 0:
            states.append(copy.deepcopy(game.state))
        game.apply(bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt))
    data = pickle.dumps(ruleset)
    assert len(data) <= fresh + 100  # as small as the rules fresh from their map
    again = pickle.loads(data)
    for state in states:
        assert again.prompt(state) == ruleset.prompt(state)
