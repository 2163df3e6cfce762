"""The engine takes a choice the rules have just listed as it is, and checks anything else.

``Game.apply`` skips parsing and checking an action only when it is the very object
listed by the last prompt given for this state, with nothing applied since. A copy,
a dict, a forged action, a choice of an earlier prompt or of a prompt since undone is
parsed and checked in full: refused with a one-line reason, changing nothing.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Literal

import pytest
from pydantic import Field

from railgames.core.engine import LISTED_LOOKUP, Action, Game, _plain_form
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.record import PlayerSpec
from railgames.core.simulate import bot_players, bots_for, play_bot_game, step_bot
from railgames.games import GAMES, load_ruleset, maps_for
from railgames.games.railways_of_the_world.actions import Choose, PassAction
from railgames.games.railways_of_the_world.state import Step


def rotw_at_action() -> Game:
    """A Mexico game of Railways of the World at its first round's action choice."""
    rules = load_ruleset("railways-of-the-world", "rotw-mexico")
    game = Game.new(rules, [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], 3)
    while game.state.step is Step.AUCTION:
        prompt = game.prompt()
        assert prompt is not None
        game.apply(next(c for c in prompt.choices if c.type == "pass_bid"))
    assert game.state.step is Step.ACTION
    return game


def snapshot(game: Game) -> tuple[str, list[dict[str, object]], int]:
    return repr(game.state), copy.deepcopy(game.record.actions), len(game.log)


def test_a_listed_choice_is_recorded_as_its_json_form_in_a_dict_of_its_own() -> None:
    game = rotw_at_action()
    for _ in range(30):
        prompt = game.prompt()
        assert prompt is not None
        choice = prompt.choices[-1]
        game.apply(choice)
        assert game.record.actions[-1] == choice.model_dump(mode="json")
    forms = game.record.actions
    assert len({id(f) for f in forms}) == len(forms)
    # Changing one stored action changes no other, nor what the next one records.
    first_pass = next(i for i, f in enumerate(forms) if f["type"] == "pass_action")
    forms[first_pass]["seat"] = 99
    assert all(f["seat"] != 99 for i, f in enumerate(forms) if i != first_pass)


def test_a_choice_of_an_earlier_prompt_is_checked_again() -> None:
    game = rotw_at_action()
    prompt = game.prompt()
    assert prompt is not None
    upgrade = next(c for c in prompt.choices if c.type == "upgrade_engine")
    build = next(c for c in prompt.choices if c.type == "choose" and c.action == "build")
    game.apply(build)
    before = snapshot(game)
    # Listed a moment ago, but an action is under way now (and it is the same seat's turn).
    with pytest.raises(IllegalAction, match="already under way"):
        game.apply(upgrade)
    assert snapshot(game) == before


def test_a_choice_after_the_state_changed_under_the_prompt_is_checked_again() -> None:
    game = rotw_at_action()
    prompt = game.prompt()
    assert prompt is not None
    seat = prompt.seat
    upgrade = next(c for c in prompt.choices if c.type == "upgrade_engine")
    assert upgrade.level == 2
    # The state is replaced after the prompt (as undo does), and the engine is level 2 in it.
    game.state = copy.deepcopy(game.state)
    game.state.players[seat].engine = 2
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="one level at a time"):
        game.apply(upgrade)
    assert snapshot(game) == before


def test_a_copy_a_dict_or_a_forged_action_is_parsed_and_checked() -> None:
    game = rotw_at_action()
    prompt = game.prompt()
    assert prompt is not None
    seat = prompt.seat
    before = snapshot(game)
    other = (seat + 1) % 3
    # Equal to nothing listed, made outside the rules: not this seat's turn.
    with pytest.raises(IllegalAction, match="turn"):
        game.apply(PassAction(seat=other))
    # Forged without validation, and slipped into the prompt's own list afterwards.
    forged = Choose.model_construct(seat=seat, action="teleport")
    prompt.choices.append(forged)
    with pytest.raises((IllegalAction, MalformedAction)) as refused:
        game.apply(forged)
    assert "\n" not in refused.value.reason
    with pytest.raises(MalformedAction, match="not a Railways of the World action"):
        game.apply({"type": "choose", "seat": seat, "action": "build", "extra": 1})
    assert snapshot(game) == before
    # A listed choice's copy and its dict are legal, and applied after being checked.
    game.apply(dict(prompt.choices[-2].model_dump(mode="json")))
    assert game.record.actions[-1] == prompt.choices[-2].model_dump(mode="json")


def test_long_lists_of_choices_are_checked_too() -> None:
    game = rotw_at_action()
    prompt = game.prompt()
    assert prompt is not None
    game.apply(next(c for c in prompt.choices if c.type == "choose" and c.action == "build"))
    prompt = game.prompt()
    assert prompt is not None and len(prompt.choices) > LISTED_LOOKUP
    game.apply(prompt.choices[0])
    assert game.record.actions[-1] == prompt.choices[0].model_dump(mode="json")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_bot_games_replay_to_the_same_state_and_record(game_id: str) -> None:
    """Whatever path each action took when played, replaying the record checks each
    in full and ends in the same state."""
    rules = load_ruleset(game_id)
    game = play_bot_game(rules, bot_players(rules.min_players + 1, "random"), 5)
    again = Game.replay(rules, game.record)
    assert repr(again.state) == repr(game.state)
    assert again.record.actions == game.record.actions


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_record_form_made_without_pydantic_is_pydantics_own(game_id: str) -> None:
    """Every listed choice along a bot game: where the engine writes its record form
    from the fields itself, it is ``model_dump(mode="json")`` to the byte."""
    rules = load_ruleset(game_id)
    game = Game.new(rules, bot_players(rules.max_players, "random"), 8)
    bots = bots_for(game, 8)
    plain = 0
    while not game.is_over():
        prompt = game.prompt()
        assert prompt is not None
        for choice in prompt.choices:
            form = _plain_form(choice)
            if form is not None:
                plain += 1
                assert json.dumps(form) == json.dumps(choice.model_dump(mode="json"))
        step_bot(game, bots)
    assert plain > 100


def test_a_field_pydantic_writes_its_own_way_is_left_to_it() -> None:
    class Renamed(Action):
        type: Literal["renamed"] = "renamed"
        where: tuple[int, ...]
        named: str = Field(default="x", serialization_alias="name")

    class Weighed(Action):
        type: Literal["weighed"] = "weighed"
        weight: float = 1.0

    class Path(Action):
        type: Literal["path"] = "path"
        path: list[str]

    class Listed(Action):
        type: Literal["listed"] = "listed"
        hexes: tuple[tuple[int, int], ...] = ()

    renamed = Renamed.trusted(type="renamed", seat=0, where=(1, 2), named="x")
    assert _plain_form(renamed) is None and renamed.model_dump(mode="json", by_alias=True)["name"]
    assert _plain_form(Weighed.trusted(type="weighed", seat=0, weight=1.0)) is None
    assert _plain_form(Listed.trusted(type="listed", seat=1, hexes=((1, 2),))) is None
    assert _plain_form(Listed.trusted(type="listed", seat=1, hexes=())) == {
        "type": "listed", "seat": 1, "hexes": []}
    path = ["a", "b"]
    form = _plain_form(Path.trusted(type="path", seat=2, path=path))
    assert form == {"type": "path", "seat": 2, "path": ["a", "b"]} and form["path"] is not path


# ------------------------------------------------------------------ the record form of every choice
def forked(game: Game) -> Game:
    """A copy of ``game`` to apply one more action to, its record's actions left out. The
    log's events never change once made, so the copy's log is a new list of the same
    events (copying every event would cost more than everything else here)."""
    log = game.ruleset.log_of(game.state)
    state = copy.deepcopy(game.state, {id(log): list(log)})
    return Game(game.ruleset, game.record.model_copy(update={"actions": []}), state)


def same_state(a: Game, b: Game, start: int) -> None:
    """The two games' states are equal, the events logged from ``start`` on included."""
    log_a, log_b = a.ruleset.log_of(a.state), b.ruleset.log_of(b.state)
    assert log_a[start:] == log_b[start:]
    # The earlier events are the same objects; the rest of the state is compared with
    # the logs set aside (an equal list would be walked event by event).
    a.state.log, b.state.log = [], []
    try:
        assert a.state == b.state
    finally:
        a.state.log, b.state.log = log_a, log_b


def as_sent(choice: Action) -> dict[str, object]:
    """A listed choice as a remote seat or a saved game sends it: its record form,
    written as JSON and read back."""
    parsed: dict[str, object] = json.loads(json.dumps(choice.model_dump(mode="json")))
    return parsed


# Choices checked as sent at each step (all of them when there are no more), and how
# many of those are also applied both ways; the rest of a long list is sampled.
CHECKED, APPLIED = 12, 2


def choices_agree_as_sent(game: Game, rng: random.Random) -> None:
    """Each of the choices listed now (or a sample of a long list: its start, where the
    rules list the moves that continue one already begun, and some drawn from the rest),
    sent in its record form, passes the check, and for some of them applying it reaches
    the same state and record as applying the very object listed."""
    prompt = game.prompt()
    assert prompt is not None
    choices = prompt.choices
    count = len(choices)
    picked = list(range(count)) if count <= CHECKED else [
        *range(CHECKED // 2), *sorted(rng.sample(range(CHECKED // 2, count), CHECKED // 2))]
    start = len(game.ruleset.log_of(game.state))
    for n, i in enumerate(picked):
        choice = choices[i]
        sent = as_sent(choice)
        assert game.check(sent, recorded=True) == choice, sent
        if n >= APPLIED and n != len(picked) - 1:
            continue
        listed, data = forked(game), forked(game)
        again = listed.prompt()
        assert again is not None and again.choices[i] == choice
        listed.apply(again.choices[i])
        data.apply(sent, recorded=True)
        assert listed.record.actions == data.record.actions == [sent]
        same_state(listed, data, start)


def play_with_choices_sent(game_id: str, map_id: str | None, players: int, seed: int,
                           actions: int) -> Game:
    """A random-bot game of up to ``actions`` actions, its choices sent as data at each step."""
    rules = load_ruleset(game_id, map_id)
    game = Game.new(rules, bot_players(players, "random"), seed)
    bots = bots_for(game, seed)
    rng = random.Random(seed)
    while not game.is_over() and len(game.record.actions) < actions:
        choices_agree_as_sent(game, rng)
        step_bot(game, bots)
    return game


def _every_player_count() -> list[tuple[str, str, int, int]]:
    """(game, map, players, seed) for every game, on each of its maps, at every player
    count it takes. Railways of the World's Mexico game with two players, seed 106,
    has two incomplete links of different owners end in one crossing hex by its 87th
    action, a tile continuing the second one offered (ruling "two open ends in one hex")."""
    cases = []
    for game_id in sorted(GAMES):
        for map_id, _ in maps_for(game_id):
            rules = load_ruleset(game_id, map_id)
            for players in range(rules.min_players, rules.max_players + 1):
                seed = 106 if (map_id, players) == ("rotw-mexico", 2) else 1
                cases.append((game_id, map_id, players, seed))
    return cases


# Actions played in each of those games: enough for every kind of decision to come up
# several times, few enough for the whole run to take seconds.
SENT_ACTIONS = 150


@pytest.mark.parametrize(("game_id", "map_id", "players", "seed"), _every_player_count())
def test_every_listed_choice_sent_as_data_is_accepted_and_does_the_same(
        game_id: str, map_id: str, players: int, seed: int) -> None:
    """A remote seat, an undo or a saved game gives the engine a listed choice as data,
    which the engine parses and checks where it takes the listed object as it is: the
    two must agree on every choice, or a move offered is refused when sent, or a save
    replays to another game than the one played."""
    game = play_with_choices_sent(game_id, map_id, players, seed, SENT_ACTIONS)
    assert len(game.record.actions) == SENT_ACTIONS or game.is_over()
