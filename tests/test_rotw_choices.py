"""Railways of the World: the quick ways the rules list choices and copy states agree
with the plain ones.

The rules list a build's tiles from tables of the board, keep the network of links
and the routes found on it until they change, and copy a state field by field; the
greedy bot keeps its cheapest paths and cuts its search short. Here each is compared,
along whole games, with the plain way: every tile the refusals accept, every route a
walk of its own finds, ``copy.deepcopy``'s own walk, every run of track.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from rotw_support import make_ruleset

from railgames.core.engine import Game
from railgames.core.hexgrid import distance, side_key
from railgames.core.simulate import bot_players, bots_for, step_bot
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS
from railgames.games.railways_of_the_world.bots import cheapest_path
from railgames.games.railways_of_the_world.rules import MAX_TILES, RailwaysOfTheWorldRules
from railgames.games.railways_of_the_world.state import Link, RotwState, Step


def plain_track_choices(rules: RailwaysOfTheWorldRules, state: RotwState, seat: int) -> list[Any]:
    """Every tile the refusals accept: the building link's open end, else the seat's
    incomplete links' open ends, then every side of every city."""
    b = state.building
    starts: list[tuple[Any, Any, Link | None]] = []
    if b is not None and b.link is not None:
        if b.laid >= MAX_TILES:
            return []
        link = state.links[b.link]
        starts.append((link.tiles[-1], link.toward, link))
    else:
        starts += [(k.tiles[-1], k.toward, k) for k in state.links.values()
                   if k.owner == seat and not k.complete]
        starts += [(c, n, None) for c in rules.map.city_at for n in rules._board_neighbours[c]]
    out = []
    for entry, h, link in starts:
        if rules.build.tile_refusal(state, seat, entry, h, link) is not None:
            continue
        for exit_ in rules._board_neighbours[h]:
            if exit_ != entry and rules.build.exit_refusal(state, entry, h, exit_, link) is None:
                out.append((rules.offset(h), rules.offset(entry), rules.offset(exit_)))
    return out


def plain_deliveries(rules: RailwaysOfTheWorldRules, state: RotwState, seat: int) -> list[Any]:
    net = rules.network(state)
    assert net == fresh_network(state)
    engine = state.players[seat].engine
    return [(city, colour, tuple(route))
            for city, here in state.cubes.items() if city in net
            for colour, count in here.items() if count
            for route in plain_routes(state, fresh_network(state), seat, city, colour, engine)]


def plain_routes(state: RotwState, net: dict[str, list[tuple[str, str]]], seat: int,
                 origin: str, colour: str, engine: int) -> list[list[str]]:
    """Every route of one cube, walked on its own: the first link the seat's, no city
    twice, stopping at the first city of the cube's colour, at most ``engine`` links."""
    found: list[list[str]] = []

    def walk(city: str, route: list[str], seen: set[str]) -> None:
        for link_id, there in net.get(city, ()):
            if there in seen or link_id in route:
                continue
            if not route and state.links[link_id].owner != seat:
                continue
            step = [*route, link_id]
            if state.colour[there] == colour:
                found.append(step)
            elif len(step) < engine:
                seen.add(there)
                walk(there, step, seen)
                seen.discard(there)

    walk(origin, [], {origin})
    return found


def fresh_network(state: RotwState) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for link in state.links.values():
        if link.end is not None:
            out.setdefault(link.start, []).append((link.id, link.end))
            out.setdefault(link.end, []).append((link.id, link.start))
    return out


@pytest.mark.parametrize(("board", "players", "seed"), [("rotw-mexico", 3, 5),
                                                        ("rotw-eastern-us", 4, 6)])
def test_listed_tiles_and_deliveries_are_those_the_rules_accept_in_order(
        board: str, players: int, seed: int) -> None:
    rules = make_ruleset(board)
    game = Game.new(rules, bot_players(players, "random"), seed)
    bots = bots_for(game, seed)
    builds = deliveries = 0
    while not game.is_over():
        state: RotwState = game.state
        seat = state.to_act()
        if state.step in (Step.ACTION, Step.BUILD):
            tiles = [(a.hex, a.entry, a.exit) for a in rules.track_choices(state, seat)]
            assert tiles == plain_track_choices(rules, state, seat)
            assert bool(rules.track_choices(state, seat, first_only=True)) == bool(tiles)
            builds += bool(tiles)
        if state.step in (Step.ACTION, Step.DELIVER):
            listed = [(d.city, d.colour, d.links) for d in rules.deliveries(state, seat)]
            assert listed == plain_deliveries(rules, state, seat)
            assert bool(rules.deliveries(state, seat, first_only=True)) == bool(listed)
            assert rules.can_deliver(state, seat) == bool(listed)
            deliveries += len(listed)
        if len(game.record.actions) % 25 == 0:
            # Each engine's routes, the biggest first: the smaller are taken from them.
            net = rules.network(state)
            for engine in range(8, 0, -1):
                for city in net:
                    for colour in CUBE_COLOURS:
                        assert rules.routes(state, seat, city, colour, engine) == \
                            plain_routes(state, net, seat, city, colour, engine)
            # Whether anything can be delivered, for every seat and every engine.
            for other, p in enumerate(state.players):
                engine_now = p.engine
                for engine in range(1, 9):
                    p.engine = engine
                    assert rules.can_deliver(state, other) == \
                        bool(plain_deliveries(rules, state, other)), (other, engine)
                p.engine = engine_now
        step_bot(game, bots)
    assert builds > 100 and deliveries > 10  # the game built and delivered along the way


def test_a_copied_state_shares_nothing_that_changes() -> None:
    rules = make_ruleset("rotw-eastern-us")
    game = Game.new(rules, bot_players(4, "random"), 9)
    bots = bots_for(game, 9)
    copies: list[tuple[RotwState, str]] = []
    for n in range(900):
        if n % 150 == 75:
            copies.append((game.state, repr(game.state)))
            game.state = copy.deepcopy(game.state)  # play on in the copy
            assert game.state == copies[-1][0]
        step_bot(game, bots)
    for original, before in copies:
        assert repr(original) == before  # playing on in the copy changed nothing here
    plain = copy.deepcopy(game.state.__dict__)
    assert plain == copy.deepcopy(game.state).__dict__ | {"known": plain["known"]}


def plain_cheapest_path(rules: RailwaysOfTheWorldRules, state: RotwState, start: Any,
                        target: Any, tiles: int, link: Link | None) -> Any:
    """Every run of at most ``tiles`` tiles, depth first, keeping the first cheapest."""
    best: Any = None
    m = rules.map

    def free(a: Any, b: Any) -> bool:
        return side_key(a, b) not in state.side_link

    def room(h: Any) -> bool:
        return m.buildable(h) and len(state.hex_links.get(h, ())) < 2

    def walk(path: list[Any], cost: int) -> None:
        nonlocal best
        here = path[-1]
        for nxt in rules._board_neighbours[here]:
            if nxt in path or not free(here, nxt) or (link is not None and nxt in link.tiles):
                continue
            step = cost + (4000 if rules.ridge_between(here, nxt) else 0)
            if nxt == target:
                if best is None or step < best[0]:
                    best = (step, [*path, nxt])
            elif len(path) - 1 < tiles and room(nxt) and distance(nxt, target) <= tiles - len(path) + 1:
                walk([*path, nxt], step + rules.tile_cost(nxt))

    if link is None:
        for first in rules._board_neighbours[start]:
            if room(first) and free(start, first) and distance(first, target) <= tiles:
                walk([start, first], (4000 if rules.ridge_between(start, first) else 0)
                     + rules.tile_cost(first))
    elif room(link.toward) and link.toward not in link.tiles and distance(link.toward, target) <= tiles:
        walk([start, link.toward], rules.tile_cost(link.toward))
    return best


def test_the_greedy_bots_cheapest_paths_match_a_plain_search() -> None:
    rules = make_ruleset("rotw-eastern-us")
    game = Game.new(rules, bot_players(4, "greedy"), 4)
    bots = bots_for(game, 4)
    cities = list(rules.map.city_at)
    asked = found = 0
    for n in range(400):
        state: RotwState = game.state
        if n % 40 == 0:
            for a in cities:
                for b in cities:
                    if a != b and distance(a, b) <= MAX_TILES + 1:
                        want = plain_cheapest_path(rules, state, a, b, MAX_TILES, None)
                        assert cheapest_path(rules, state, a, b, MAX_TILES, None) == want
                        assert cheapest_path(rules, state, a, b, MAX_TILES, None) == want  # kept
                        asked += 1
                        found += want is not None
            for link in state.links.values():
                if not link.complete:
                    for b in cities:
                        want = plain_cheapest_path(rules, state, link.tiles[-1], b, 2, link)
                        assert cheapest_path(rules, state, link.tiles[-1], b, 2, link) == want
        if game.is_over():
            break
        step_bot(game, bots)
    assert asked > 500 and found > 100


def test_what_the_rules_worked_out_stays_out_of_a_pickled_state() -> None:
    rules = make_ruleset("rotw-mexico")
    game = Game.new(rules, bot_players(3, "greedy"), 2)
    bots = bots_for(game, 2)
    for _ in range(120):
        step_bot(game, bots)
    state: RotwState = game.state
    assert state.known  # the bots and the rules have kept things on it
    sent = pickle.loads(pickle.dumps(state))
    assert sent == state and sent.known == {} and state.known
    assert rules.prompt(sent) == rules.prompt(state)  # worked out again on the other side


def test_listed_actions_are_made_as_the_kernel_makes_trusted_ones() -> None:
    """The rules make the actions they list directly; each is the same object, field
    for field, that ``Action.trusted`` and pydantic's own construction give."""
    rules = make_ruleset("rotw-eastern-us")
    game = Game.new(rules, bot_players(4, "random"), 2)
    bots = bots_for(game, 2)
    seen: set[type] = set()
    for _ in range(600):
        prompt = game.prompt()
        assert prompt is not None
        for action in prompt.choices:
            cls = type(action)
            values = dict(action.__dict__)
            trusted = cls.trusted(**values)
            checked = cls.model_validate(values)
            for other in (trusted, checked):
                assert action == other
                assert action.__dict__ == other.__dict__
                assert list(action.__dict__) == list(other.__dict__)
                assert action.model_fields_set == other.model_fields_set
                assert action.__pydantic_extra__ == other.__pydantic_extra__
                assert action.__pydantic_private__ == other.__pydantic_private__
                assert action.model_dump(mode="json") == other.model_dump(mode="json")
            assert rules.parse_action(action) is action
            seen.add(cls)
        step_bot(game, bots)
    assert {"LayTrack", "Choose", "PassAction", "PassBid", "EndBuild"} <= {c.__name__ for c in seen}
