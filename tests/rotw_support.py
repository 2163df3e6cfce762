"""What the Railways of the World tests share: games, arranged boards, invariants.

Facts of the shipped Mexico board the tests rely on (offset [column, row]):
Guadalajara GUA (5, 15), León LEO (7, 15), Querétaro QUE (9, 15, gray),
San Luis Potosí SLU (8, 13), Zacatecas ZAC (6, 12), Mexico City MCI (9, 17),
Puebla PUE (11, 17, gray), Morelia MOR (7, 17). The hexes (6, 15) and (8, 15)
between them are open; (10, 17) between Mexico City and Puebla is a mountain.
Anything else a test needs (colours, cubes, links) is arranged on the state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from support import NAMES

from railgames.core.engine import Game
from railgames.core.hexgrid import side_key
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.railways_of_the_world.actions import Choose, LayTrack, PassBid
from railgames.games.railways_of_the_world.board_map import CUBE_COLOURS
from railgames.games.railways_of_the_world.bots import cheapest_path
from railgames.games.railways_of_the_world.rules import RailwaysOfTheWorldRules
from railgames.games.railways_of_the_world.state import Link, RotwState, Step

GUA, LEO, QUE, SLU, ZAC, MCI, PUE, MOR = (5, 15), (7, 15), (9, 15), (8, 13), (6, 12), (9, 17), (11, 17), (7, 17)
TOTAL_CUBES = 125


def make_ruleset(map_id: str = "rotw-mexico") -> RailwaysOfTheWorldRules:
    rules = load_ruleset("railways-of-the-world", map_id)
    assert isinstance(rules, RailwaysOfTheWorldRules)
    return rules


def start_game(rules: RailwaysOfTheWorldRules, players: int = 3, seed: int = 1,
               options: dict[str, Any] | None = None) -> Game:
    return Game.new(rules, [PlayerSpec(name=n) for n in NAMES[:players]], seed, options)


def everyone_passes(game: Game) -> None:
    """Pass the whole auction (the player after the last First Player goes first)."""
    while game.state.step is Step.AUCTION:
        game.apply(PassBid(seat=game.state.to_act()))


def at_action(game: Game, seat: int) -> RotwState:
    """Arrange that ``seat`` is first to act in round 1, the others following clockwise."""
    state: RotwState = game.state
    n = len(state.players)
    state.auction = None
    state.building = None
    state.step = Step.ACTION
    state.order = [(seat + i) % n for i in range(n)]
    state.cursor = 0
    state.round = 1
    state.first = seat
    return state


def set_cubes(game: Game, cubes: Mapping[str, Mapping[str, int]]) -> None:
    """Put every cube back in the bag, then place exactly ``cubes``."""
    state: RotwState = game.state
    for city, here in state.cubes.items():
        for colour, count in here.items():
            state.bag[colour] += count
        state.cubes[city] = {}
    for city, here in cubes.items():
        for colour, count in here.items():
            assert state.bag[colour] >= count
            state.bag[colour] -= count
        state.cubes[city] = {c: here[c] for c in CUBE_COLOURS if here.get(c)}
    assert sum(state.bag.values()) + state.cubes_on_board() == TOTAL_CUBES


def hx(rules: RailwaysOfTheWorldRules, at: tuple[int, int]) -> Any:
    h = rules.hex_at(*at)
    assert h is not None, f"{at} is not on the map"
    return h


def city_at(rules: RailwaysOfTheWorldRules, at: tuple[int, int]) -> str:
    return rules.map.city_at[hx(rules, at)].id


def place_link(game: Game, owner: int, a: tuple[int, int], b: tuple[int, int],
               complete: bool = True) -> str:
    """A link as if built in an earlier round: the cheapest legal track from ``a`` to ``b``."""
    rules: RailwaysOfTheWorldRules = game.ruleset  # type: ignore[assignment]
    state: RotwState = game.state
    found = cheapest_path(rules, state, hx(rules, a), hx(rules, b), 4, None)
    assert found is not None, f"no track fits between {a} and {b}"
    path = found[1]
    link = Link(id=f"L{state.next_link}", owner=owner, start=city_at(rules, a),
                tiles=list(path[1:-1]), toward=path[-1],
                end=city_at(rules, b) if complete else None)
    if not complete:
        link.tiles = link.tiles[:-1] if len(link.tiles) > 1 else link.tiles
        link.toward = path[len(link.tiles) + 1]
    state.next_link += 1
    state.links[link.id] = link
    hexes = [path[0], *link.tiles, link.toward]
    for x, y in zip(hexes, hexes[1:], strict=False):
        state.side_link[side_key(x, y)] = link.id
    for h in link.tiles:
        state.hex_links.setdefault(h, []).append(link.id)
    return link.id


def lay(seat: int, hexes: Sequence[tuple[int, int]]) -> LayTrack:
    """A tile on hexes[1], entering from hexes[0], leaving toward hexes[2]."""
    return LayTrack(seat=seat, hex=hexes[1], entry=hexes[0], exit=hexes[2])


def choose(seat: int, what: str) -> Choose:
    return Choose(seat=seat, action=what)  # type: ignore[arg-type]


def check_invariants(rules: RailwaysOfTheWorldRules, state: RotwState) -> None:
    """Cubes conserved; money consistent; track never overlaps illegally."""
    assert sum(state.bag.values()) + state.cubes_on_board() == TOTAL_CUBES
    assert all(v >= 0 for v in state.bag.values())
    for p in state.players:
        assert p.cash >= 0, p
        assert p.cash == p.bonds * 5000 + p.earned - p.spent, p
        assert 1 <= p.engine <= 8
    # Track: every side carries one link; every hex at most two; nothing on cities or partials.
    sides: dict[Any, str] = {}
    per_hex: dict[Any, list[str]] = {}
    for link in state.links.values():
        start = rules.city_hex(link.start)
        hexes = [start, *link.tiles, link.toward]
        assert len(set(link.tiles)) == len(link.tiles), "a link enters a hex twice"
        assert 1 <= len(link.tiles)
        for x, y in zip(hexes, hexes[1:], strict=False):
            key = side_key(x, y)
            assert key not in sides, f"two links on one side: {sides.get(key)} and {link.id}"
            sides[key] = link.id
        for h in link.tiles:
            assert rules.map.buildable(h), f"track on a {rules.map.terrain[h]} hex"
            per_hex.setdefault(h, []).append(link.id)
        if link.end is not None:
            assert rules.city_hex(link.end) == link.toward and link.end != link.start
    assert sides == state.side_link
    assert {h: sorted(v) for h, v in per_hex.items()} == {h: sorted(v) for h, v in state.hex_links.items()}
    assert all(len(v) <= 2 for v in per_hex.values())
    for city, here in state.cubes.items():
        assert all(k > 0 for k in here.values())
        if city in state.markers:
            assert not here
