"""The rules split by phase: every action and step has its phase, the phases and bots
never import the rules back, and a shipment is accepted exactly when it is listed."""

from __future__ import annotations

import itertools
import pickle
import random
import typing

import pytest
from conftest import give_links, make_ruleset, set_cubes, set_step, start_game, to_auction

from railgames.core.errors import IllegalAction
from railgames.games.new_england.actions import NewEnglandAction, PassShip, Ship
from railgames.games.new_england.state import Step
from tests.test_imports import import_graph

PREFIX = "railgames.games.new_england."


def test_every_action_is_taken_by_one_phase_and_every_step_but_the_end_has_one(ruleset):
    union = typing.get_args(typing.get_args(NewEnglandAction)[0])
    taken = [kind for phase in ruleset.phases.values() for kind in phase.actions]
    assert sorted(k.__name__ for k in taken) == sorted(k.__name__ for k in union)
    assert set(ruleset.phases) == set(Step) - {Step.OVER}


def test_nothing_the_rules_import_imports_the_rules_back():
    graph = import_graph()
    seen, todo = set(), list(graph[PREFIX + "rules"])
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo.extend(graph[module])
    assert PREFIX + "bots" in seen  # the rules name their bots
    assert PREFIX + "rules" not in seen, "a module the rules import imports the rules in turn"


def shipping_layout(ruleset, seed):
    rng = random.Random(seed)
    links = [link.id for link in ruleset.map.links]
    built = rng.sample(links, rng.randrange(3, len(links)))
    left = dict(ruleset.map.commodities)
    cubes: dict[str, dict[str, int]] = {}
    for city in ruleset.map.cities:
        for colour in ruleset.map.colours:
            if left[colour] and rng.random() < 0.3:
                left[colour] -= 1
                cubes.setdefault(city.id, {})[colour] = 1
    game = to_auction(start_game(ruleset, 4))
    give_links(game, {link: i % 4 for i, link in enumerate(built)})
    set_cubes(game, cubes)
    set_step(game, Step.SHIP)
    return game, rng


def candidate_paths(ruleset, origin, rng):
    """Paths from ``origin`` of 1 to 7 steps over the map's links, built or not, some
    revisiting a city, and a few that jump between cities no link joins."""
    near = {city.id: [] for city in ruleset.map.cities}
    for link in ruleset.map.links:
        near[link.a].append(link.b)
        near[link.b].append(link.a)
    paths = [[origin]]
    out = []
    for _ in range(7):
        paths = [[*p, nxt] for p in paths for nxt in near[p[-1]] if p.count(nxt) < 2]
        paths = rng.sample(paths, min(len(paths), 150))
        out.extend(paths)
    cities = sorted(near)
    out.extend([origin, *rng.sample(cities, 2)] for _ in range(10))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_shipment_is_accepted_exactly_when_it_is_listed(ruleset, seed):
    game, rng = shipping_layout(ruleset, seed)
    seat = game.prompt().seat
    listed = {(s.colour, tuple(s.path)) for s in ruleset.shipments(game.state, seat)}
    assert listed
    tried = accepted = 0
    for city, here in game.state.cubes.items():
        for colour, path in itertools.product(sorted(here), candidate_paths(ruleset, city, rng)):
            ship = Ship(seat=seat, colour=colour, path=path)
            tried += 1
            try:
                ruleset.validate(game.state, ship)
            except IllegalAction as refused:
                assert (colour, tuple(path)) not in listed, (path, str(refused))
                assert str(refused)  # a reason, whatever the path breaks
            else:
                accepted += 1
                assert (colour, tuple(path)) in listed, path
    assert tried > accepted > 0


def test_a_shipping_prompt_reads_as_the_list_of_shipments_and_the_pass(ruleset):
    """Its choices, made only as far as they are read, are every shipment then the pass:
    in length, one by one, whole, and in whether a given action is one of them."""
    game, _ = shipping_layout(ruleset, 0)  # 64 shipments from 27 cities and colours
    prompt = game.prompt()
    whole = [*ruleset.shipments(game.state, prompt.seat), ruleset.listed(PassShip, prompt.seat)]
    choices = prompt.choices
    assert len(whole) > 2 and len(choices) == len(whole)
    assert [choices[i] for i in range(len(whole))] == whole and choices[-1] is whole[-1]
    assert all(choices.holds(c) for c in whole)
    assert not choices.holds(Ship(seat=prompt.seat, colour=whole[0].colour, path=whole[0].path))
    assert list(choices) == whole and choices == whole


def test_pickled_rules_leave_the_checked_paths_behind():
    ruleset = make_ruleset()
    fresh = len(pickle.dumps(ruleset))
    game, _ = shipping_layout(ruleset, 1)
    seat = game.prompt().seat
    for ship in ruleset.shipments(game.state, seat):
        ruleset.validate(game.state, ship)
    assert len(pickle.dumps(ruleset)) <= fresh + 100
    again = pickle.loads(pickle.dumps(ruleset))
    assert again.shipments(game.state, seat) == ruleset.shipments(game.state, seat)
