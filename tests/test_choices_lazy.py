"""Choices read one at a time: a prompt's ``Choices`` is the list it stands for.

Railways of the World lists the first tiles of a build as a ``Choices``: its length,
each item by index and whether it holds an action are answered without listing the
hundreds of tiles, and must agree with the plain list in every way. The random bot
draws from it exactly as it drew from a list, and the engine takes the very object
listed as it is and checks anything else.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from rotw_support import make_ruleset

from railgames.core.bots import RandomBot
from railgames.core.engine import Choices, Game, Prompt, Ruleset
from railgames.core.errors import IllegalAction
from railgames.core.simulate import bot_players, bots_for, step_bot
from railgames.games import GAMES, load_ruleset
from railgames.games.railways_of_the_world.actions import Cancel, Choose, LayTrack
from railgames.games.railways_of_the_world.index import nth_bit
from railgames.games.railways_of_the_world.state import RotwState, Step


def test_nth_bit_finds_each_set_bit_in_order() -> None:
    rng = random.Random(4)
    for size in (1, 5, 63, 64, 65, 130, 700, 2000):
        for _ in range(20):
            bits = rng.getrandbits(size) | 1 << (size - 1)
            where = [i for i in range(size) if bits >> i & 1]
            assert [nth_bit(bits, n) for n in range(len(where))] == where


def first_build_prompts(board: str, players: int, seed: int) -> Iterator[tuple[Game, Prompt]]:
    """(the game, its prompt) at every build before its first tile, the game played
    on once the caller is done with it."""
    rules = make_ruleset(board)
    game = Game.new(rules, bot_players(players, "random"), seed)
    bots = bots_for(game, seed)
    while not game.is_over():
        state: RotwState = game.state
        if state.step is Step.BUILD and state.building is not None and state.building.link is None:
            prompt = game.prompt()
            assert prompt is not None
            yield game, prompt
        step_bot(game, bots)


@pytest.mark.parametrize(("board", "players", "seed"), [("rotw-mexico", 3, 5),
                                                        ("rotw-eastern-us", 4, 6)])
def test_a_builds_first_tiles_read_one_by_one_are_the_plain_list(
        board: str, players: int, seed: int) -> None:
    seen = 0
    for game, prompt in first_build_prompts(board, players, seed):
        seen += 1
        rules = game.ruleset
        state = game.state
        seat = prompt.seat
        choices = prompt.choices
        assert isinstance(choices, Choices)
        plain = [*rules.track_choices(state, seat), Cancel(seat=seat)]
        n = len(choices)
        assert n == len(plain)
        # One by one (before the list is ever made), then as a list: the same objects.
        items = [choices[i] for i in range(n)]
        assert items == plain and [choices[i - n] for i in range(n)] == plain
        assert all(a is b for a, b in zip(items, rules.track_choices(state, seat), strict=False))
        for i in (n, -n - 1):
            with pytest.raises(IndexError):
                choices[i]
        listed = list(choices)
        assert all(a is b for a, b in zip(listed, items, strict=True))
        assert choices == plain and choices[1:3] == plain[1:3] and plain[0] in choices
        assert all(choices.holds(a) for a in items)
        # Equal actions made elsewhere are not the listed objects.
        assert not any(choices.holds(LayTrack(**a.model_dump())) for a in items[:5])
        # First tiles of the board not legal now, and another seat's, are not held.
        every = rules.track_index.first_tile_actions(seat)
        listed_ids = {id(a) for a in items}  # the same objects (items keeps them alive)
        shut = [a for a in every if id(a) not in listed_ids]
        assert shut or len(every) == n - 1
        assert not any(choices.holds(a) for a in shut)
        other = rules.track_index.first_tile_actions((seat + 1) % players)
        assert not any(choices.holds(a) for a in other)
        # Sent to another process, it is the plain list.
        sent = pickle.loads(pickle.dumps(prompt))
        assert type(sent.choices) is list and sent.choices == plain
    assert seen > 10


def test_a_first_tile_listed_lazily_is_applied_unchecked_and_anything_else_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, prompt = next((g, p) for g, p in first_build_prompts("rotw-eastern-us", 4, 3)
                        if len(p.choices) > 100)
    rules = game.ruleset
    checked: list[Any] = []
    validate = rules.validate

    def counting(state: Any, action: Any) -> None:
        checked.append(action)
        validate(state, action)

    monkeypatch.setattr(rules, "validate", counting)
    choices = prompt.choices
    tile = choices[len(choices) // 2]
    # A copy of the state under the prompt: the same choice is checked in full.
    kept = game.state
    game.state = copy.deepcopy(kept)
    game.apply(tile)
    assert checked == [tile]
    # The prompt's own state: taken as it is.
    game.state = kept
    game.record.actions.pop()
    game.prompt()
    tile = game._prompted[3][len(choices) // 2]  # type: ignore[index]
    checked.clear()
    game.apply(tile)
    assert checked == [] and game.record.actions[-1] == tile.model_dump(mode="json")
    # Listed a moment ago, but a tile has been laid since: checked, and refused.
    before = repr(game.state)
    other = next(c for c in choices if isinstance(c, LayTrack) and c.hex != tile.hex)
    with pytest.raises(IllegalAction):
        game.apply(other)
    assert checked == [other] and repr(game.state) == before


class ListingBot(RandomBot):
    """The random bot as it was: the choices copied into a list, the amount after them."""

    def choose(self, ruleset: Ruleset[Any], view: Any, prompt: Prompt) -> Any:
        options: list[Any] = list(prompt.choices)
        amount = prompt.amount
        if amount is not None and (amount.max is None or amount.min <= amount.max):
            options.append(amount)
        pick = self.rng.choice(options)
        if pick is amount:
            assert amount is not None
            value = self.rng.choice(amount.values())
            return ruleset.action_adapter.validate_python(
                {"type": amount.action_type, "seat": prompt.seat, "amount": value})
        return pick


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_random_bot_draws_as_it_did_from_a_list(game_id: str) -> None:
    rules = load_ruleset(game_id)
    game = Game.new(rules, bot_players(rules.max_players, "random"), 12)
    bots = [RandomBot(100 + i) for i in range(len(game.players))]
    plain = [ListingBot(100 + i) for i in range(len(game.players))]
    steps = 0
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        picked = bots[prompt.seat].choose(rules, game.view(prompt.seat), prompt)
        assert picked == plain[prompt.seat].choose(rules, game.view(prompt.seat), prompt)
        game.apply(picked)
        steps += 1
    assert steps > 100


def test_a_choice_of_choices_compares_as_a_list_and_never_changes() -> None:
    rules = make_ruleset("rotw-mexico")
    game = Game.new(rules, bot_players(3, "random"), 2)
    while game.state.step is not Step.ACTION:
        prompt = game.prompt()
        assert prompt is not None
        game.apply(prompt.choices[0])
    seat = game.state.to_act()
    game.apply(Choose(seat=seat, action="build"))
    prompt = game.prompt()
    assert prompt is not None and isinstance(prompt.choices, Choices)
    choices = prompt.choices
    assert choices != [] and choices == list(choices) and choices != [*choices, choices[0]]
    assert not hasattr(choices, "append")
    assert repr(choices) == repr(list(choices))
    with pytest.raises(TypeError):
        hash(choices)
