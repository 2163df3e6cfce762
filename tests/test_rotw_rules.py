"""Railways of the World: a test per rule, with the rulebook's numbers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rotw_support import (
    GUA,
    LEO,
    MCI,
    PUE,
    QUE,
    SLU,
    ZAC,
    at_action,
    check_invariants,
    choose,
    city_at,
    everyone_passes,
    hx,
    lay,
    make_ruleset,
    place_link,
    set_cubes,
    start_game,
)
from support import assert_refused

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.record import PlayerSpec
from railgames.games.railways_of_the_world.actions import (
    Bid,
    Cancel,
    Deliver,
    EndBuild,
    LayTrack,
    PassAction,
    PassBid,
    UpgradeEngine,
    Urbanize,
)
from railgames.games.railways_of_the_world.rules import MAX_BID, RailwaysOfTheWorldRules
from railgames.games.railways_of_the_world.state import Railroad, RotwState, Step


@pytest.fixture(scope="module")
def mexico() -> RailwaysOfTheWorldRules:
    return make_ruleset("rotw-mexico")


@pytest.fixture(scope="module")
def east() -> RailwaysOfTheWorldRules:
    return make_ruleset("rotw-eastern-us")


def building(game: Game, seat: int) -> RotwState:
    state = at_action(game, seat)
    game.apply(choose(seat, "build"))
    return state


# ================================================================ set-up
def test_setup_draws_the_printed_cubes_with_four_or_more_players(east: RailwaysOfTheWorldRules) -> None:
    state: RotwState = start_game(east, 4).state
    for city in east.map.cities:
        assert sum(state.cubes[city.id].values()) == city.cubes
    assert sum(state.bag.values()) + state.cubes_on_board() == 125


@pytest.mark.parametrize("players", [2, 3])
def test_setup_draws_one_fewer_with_two_or_three_but_never_none(mexico: RailwaysOfTheWorldRules,
                                                                 players: int) -> None:
    state: RotwState = start_game(mexico, players).state
    for city in mexico.map.cities:
        expected = 0 if city.colour == "gray" else max(1, city.cubes - 1)
        assert sum(state.cubes[city.id].values()) == expected


def test_setup_cubes_come_from_the_seeded_bag(east: RailwaysOfTheWorldRules) -> None:
    a, b, c = (start_game(east, 4, seed).state.cubes for seed in (1, 1, 2))
    assert a == b and a != c


def test_players_start_with_no_money_and_a_level_one_engine(east: RailwaysOfTheWorldRules) -> None:
    state: RotwState = start_game(east, 5).state
    assert all(p.cash == 0 and p.bonds == 0 and p.engine == 1 and p.income == 0
               for p in state.players)
    assert state.step is Step.AUCTION and state.to_act() == 0


def test_each_board_has_its_own_player_counts(mexico: RailwaysOfTheWorldRules,
                                              east: RailwaysOfTheWorldRules) -> None:
    with pytest.raises(IllegalAction, match="2 to 3 players, not 4"):
        start_game(mexico, 4)
    with pytest.raises(IllegalAction, match="3 to 6 players, not 2"):
        Game.new(east, [PlayerSpec(name="Ann"), PlayerSpec(name="Bob")], 1)


def test_unknown_options_are_refused(mexico: RailwaysOfTheWorldRules) -> None:
    with pytest.raises(IllegalAction, match="unknown option 'fast'"):
        start_game(mexico, 3, options={"fast": True})


# ================================================================ bonds
def test_bonds_are_issued_only_to_cover_a_payment(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    assert state.players[0].bonds == 0  # choosing to build issues nothing ahead of need
    game.apply(lay(0, [GUA, (6, 15), (7, 14)]))  # open country, $2,000, with $0 in hand
    p = state.players[0]
    assert (p.bonds, p.cash) == (1, 3000)
    game.apply(lay(0, [(6, 15), (7, 14), (7, 13)]))  # another $2,000 paid from the $3,000
    assert (p.bonds, p.cash) == (1, 1000)


def test_the_bonds_a_payment_would_take_are_known_before_confirming(
        mexico: RailwaysOfTheWorldRules) -> None:
    state: RotwState = start_game(mexico).state
    state.players[0].cash = 3000
    assert mexico.bonds_needed(state, 0, 2000) == 0
    assert mexico.bonds_needed(state, 0, 8000) == 1
    assert mexico.bonds_needed(state, 0, 8001) == 2


def finish_turn(game: Game) -> None:
    """Everyone passes the auction (if any) and every action until the next turn."""
    state: RotwState = game.state
    turn = state.turn
    everyone_passes(game)
    while state.turn == turn and not game.is_over():
        game.apply(PassAction(seat=state.to_act()))


def test_interest_is_a_thousand_per_bond_and_new_bonds_wait(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    ann: Railroad = game.state.players[0]
    # Arranged: three bonds issued earlier; $16,000 in hand, $1,000 of it earned.
    ann.bonds, ann.cash, ann.earned = 3, 16_000, 1000
    finish_turn(game)
    assert (ann.bonds, ann.cash) == (3, 13_000)  # $3,000 interest, no bond needed
    ann.cash, ann.spent = 1000, 15_000  # arranged: she spent all but $1,000
    finish_turn(game)
    # Short by $2,000: one more bond; its interest starts at the next income phase.
    assert (ann.bonds, ann.cash) == (4, 1000 + 5000 - 3000)
    finish_turn(game)
    interest = [e.data["interest"] for e in game.log if e.kind == "income" and e.data["seat"] == 0]
    assert interest == [3000, 3000, 4000]
    check_invariants(mexico, game.state)


def test_each_bond_costs_a_point_at_the_end(mexico: RailwaysOfTheWorldRules) -> None:
    state: RotwState = start_game(mexico).state
    state.players[1].income, state.players[1].bonds = 12, 5
    assert mexico.score_of(state, 1)["total"] == 7


# ================================================================ the auction
def test_auction_highest_bid_pays_and_plays_first(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state: RotwState = game.state
    game.apply(Bid(seat=0, amount=1000))
    game.apply(Bid(seat=1, amount=3000))
    game.apply(PassBid(seat=2))
    game.apply(PassBid(seat=0))
    assert state.step is Step.ACTION and state.order == [1, 2, 0] and state.first == 1
    bob = state.players[1]
    assert (bob.bonds, bob.cash, bob.spent) == (1, 2000, 3000)  # paid with a bond
    assert state.players[0].cash == 0


def test_auction_minimum_bid_and_outbidding(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    assert_refused(game, Bid(seat=0, amount=500), IllegalAction, "at least $1,000")
    game.apply(Bid(seat=0, amount=2000))
    assert_refused(game, Bid(seat=1, amount=2000), IllegalAction, "at least $3,000")
    assert_refused(game, Bid(seat=1, amount=3500), IllegalAction, "whole thousands")


def test_passing_is_final(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    game.apply(PassBid(seat=0))
    game.apply(Bid(seat=1, amount=1000))
    # Seat 0 has passed: the turn goes to seat 2, then back to seat 1, never to seat 0.
    assert_refused(game, Bid(seat=0, amount=2000), IllegalAction, "Cat's turn")
    game.apply(Bid(seat=2, amount=2000))
    assert game.state.to_act() == 1


def test_everyone_passes_then_the_player_left_of_the_last_first_player(
        mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state: RotwState = game.state
    everyone_passes(game)  # turn 1: seat 0 opened and counts as the last First Player
    assert state.first == 1 and state.order == [1, 2, 0]
    while state.turn == 1:
        game.apply(PassAction(seat=state.to_act()))
    assert state.auction is not None and state.to_act() == 1  # the last First Player opens
    everyone_passes(game)
    assert state.first == 2 and state.order == [2, 0, 1]


def test_variant_first_turn_fixed_order_with_payments(east: RailwaysOfTheWorldRules) -> None:
    game = start_game(east, 4, options={"first_turn_fixed": True})
    state: RotwState = game.state
    assert state.step is Step.ACTION and state.order == [0, 1, 2, 3]
    assert [p.cash for p in state.players] == [0, 1000, 2000, 3000]
    while state.turn == 1:
        game.apply(PassAction(seat=state.to_act()))
    assert state.step is Step.AUCTION and state.to_act() == 0  # bidding opens with seat 0


def test_variant_pass_pays_half_sets_the_whole_order(east: RailwaysOfTheWorldRules) -> None:
    game = start_game(east, 4, options={"pass_pays_half": True})
    state: RotwState = game.state
    game.apply(Bid(seat=0, amount=1000))
    game.apply(Bid(seat=1, amount=3000))
    game.apply(PassBid(seat=2))  # never bid: pays nothing, first to drop out, goes last
    game.apply(Bid(seat=3, amount=5000))
    game.apply(PassBid(seat=0))  # half of $1,000 rounded up: $1,000
    game.apply(PassBid(seat=1))  # half of $3,000 rounded up: $2,000
    assert state.order == [3, 1, 0, 2]
    assert [p.spent for p in state.players] == [1000, 2000, 0, 5000]


def test_bids_go_up_to_a_billion(mexico: RailwaysOfTheWorldRules) -> None:
    # docs/rulings/railways-of-the-world.md, "Bids stop at a billion": bots and the
    # palette are offered a window of bids; higher ones are legal up to the cap.
    game = start_game(mexico)
    prompt = game.prompt()
    assert prompt is not None and prompt.amount is not None
    assert prompt.amount.min == 1000 and prompt.amount.step == 1000
    assert prompt.amount.max == MAX_BID == 1_000_000_000
    assert list(prompt.amount.values()) == list(range(1000, 21_001, 1000))
    game.apply(Bid(seat=0, amount=prompt.amount.values()[-1] + 10_000))
    assert_refused(game, {"type": "bid", "seat": 1, "amount": MAX_BID + 1000}, IllegalAction,
                   "bids stop at $1,000,000,000")
    game.apply(Bid(seat=1, amount=MAX_BID))
    prompt = game.prompt()
    assert prompt is not None and prompt.amount is None  # nothing tops it: pass is all there is
    assert prompt.choices == [PassBid(seat=2)]
    assert_refused(game, Bid(seat=2, amount=MAX_BID), IllegalAction, "at least")


# ================================================================ a turn
def test_three_rounds_then_income_and_incomplete_links_are_removed(
        mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    state.players[0].income = 4
    game.apply(lay(0, [GUA, (6, 15), (7, 14)]))
    game.apply(EndBuild(seat=0))
    assert len(state.links) == 1 and state.round == 1
    for expected_round in (1, 1, 2, 2, 2, 3, 3, 3):
        assert state.round == expected_round
        game.apply(PassAction(seat=state.to_act()))
    assert state.turn == 2 and state.step is Step.AUCTION
    assert state.links == {} and state.side_link == {} and state.hex_links == {}
    income = [e for e in game.log if e.kind == "income" and e.data["seat"] == 0]
    assert income[-1].data["income"] == mexico.map.income_for(4) == 4000


# ================================================================ building track
def test_tile_costs_by_terrain_and_ridges(mexico: RailwaysOfTheWorldRules) -> None:
    """The rulebook's cost card: $2,000 open, $3,000 water, $4,000 mountain, +$4,000 a ridge."""
    m = mexico.map
    kinds = {t: next(h for h, k in m.terrain.items() if k == t) for t in ("open", "water", "mountain")}
    assert [mexico.tile_cost(kinds[t]) for t in ("open", "water", "mountain")] == [2000, 3000, 4000]
    ridge_a, ridge_b = next(iter(m.ridges))
    tile = ridge_a if m.buildable(ridge_a) else ridge_b
    other = ridge_b if tile == ridge_a else ridge_a
    entry = next(n for n in mexico._board_neighbours[tile] if n != other)
    cost, ridges = mexico.lay_cost(entry, tile, other, new_link=False)
    assert ridges == 1 and cost == mexico.tile_cost(tile) + 4000


def test_a_ridge_is_charged_when_the_track_crosses_it(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    m = mexico.map
    # Find a buildable hex beside a city, with a ridge on a side away from the city.
    for h in m.city_at:
        for t in mexico._board_neighbours[h]:
            if not m.buildable(t) or m.has_ridge(h, t):
                continue
            for out in mexico._board_neighbours[t]:
                if out != h and m.has_ridge(t, out) and m.terrain[out] != "partial":
                    game.apply(LayTrack(seat=0, hex=mexico.offset(t), entry=mexico.offset(h),
                                        exit=mexico.offset(out)))
                    assert state.building is not None
                    assert state.building.cost == mexico.tile_cost(t) + 4000
                    assert state.players[0].spent == mexico.tile_cost(t) + 4000
                    return
    pytest.fail("no ridge beside a city's neighbour on the board")


def test_a_link_completes_at_a_city_and_the_build_stops(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    game.apply(lay(0, [GUA, (6, 15), LEO]))
    (link,) = state.links.values()
    assert link.complete and link.owner == 0
    assert (link.start, link.end) == (city_at(mexico, GUA), city_at(mexico, LEO))
    assert state.step is Step.ACTION and state.to_act() == 1  # the action is over
    assert state.players[0].spent == 2000


def test_up_to_four_tiles_and_a_fifth_is_refused(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    path = [GUA, (5, 14), (5, 13), (5, 12), (4, 12), (4, 13)]
    for i in range(4):
        game.apply(lay(0, path[i:i + 3]))
    assert state.building is not None and state.building.laid == 4
    assert_refused(game, lay(0, [(4, 12), (4, 13), (4, 14)]), IllegalAction,
                   "at most 4 tiles")
    game.apply(EndBuild(seat=0))
    assert state.to_act() == 1


def test_a_tile_must_extend_the_link(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    building(game, 0)
    game.apply(lay(0, [GUA, (6, 15), (7, 14)]))
    # Not from the open end:
    assert_refused(game, lay(0, [GUA, (5, 14), (5, 13)]), IllegalAction,
                   "must extend the link being built")
    # From the open end's tile but into another hex than the one it points at:
    assert_refused(game, lay(0, [(6, 15), (6, 14), (6, 13)]), IllegalAction,
                   "must extend the link being built")


def test_first_tile_starts_at_a_city_or_your_own_open_end(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    building(game, 0)
    assert_refused(game, lay(0, [(6, 15), (6, 14), (6, 13)]), IllegalAction,
                   "must start at a city or at the open end")


def test_partial_hexes_take_no_track(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    building(game, 0)
    m = mexico.map
    for h, t in m.terrain.items():
        if t != "partial":
            continue
        for entry in mexico._board_neighbours[h]:
            if entry in m.city_at or m.buildable(entry):
                out = next(n for n in mexico._board_neighbours[h] if n != entry)
                action = LayTrack(seat=0, hex=mexico.offset(h), entry=mexico.offset(entry),
                                  exit=mexico.offset(out))
                if entry in m.city_at:
                    assert_refused(game, action, IllegalAction, "partial hex")
                    return
    # No partial hex touches a city on this board: point a tile into one instead.
    for h, t in m.terrain.items():
        if t == "partial":
            for mid in mexico._board_neighbours[h]:
                for c in mexico._board_neighbours[mid]:
                    if c in m.city_at and m.buildable(mid):
                        action = LayTrack(seat=0, hex=mexico.offset(mid), entry=mexico.offset(c),
                                          exit=mexico.offset(h))
                        assert_refused(game, action, IllegalAction, "partial hex")
                        return
    pytest.fail("no partial hex near a city")


def test_a_tile_never_goes_on_a_city(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    building(game, 0)
    assert_refused(game, lay(0, [(6, 15), LEO, (8, 15)]), IllegalAction, "is a city")


def test_track_may_cross_but_never_join_or_redirect(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    bob = place_link(game, 1, GUA, LEO)  # Guadalajara (5,15) - (6,15) - León (7,15)
    assert state.links[bob].tiles == [hx(mexico, (6, 15))]
    game.apply(choose(0, "build"))
    game.apply(lay(0, [GUA, (6, 16), (6, 15)]))
    # Turning into León through the side Bob's track uses would join or bend his track.
    assert_refused(game, lay(0, [(6, 16), (6, 15), LEO]), IllegalAction, "never redirected")
    game.apply(lay(0, [(6, 16), (6, 15), (6, 14)]))  # straight across: a crossing
    assert state.hex_links[hx(mexico, (6, 15))] == [bob, "L2"]
    assert any(e.kind == "lay_track" and "crossing" in e.text for e in game.log)
    check_invariants(mexico, state)


def test_a_third_track_never_enters_a_crossing(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    h = hx(mexico, (6, 15))
    state.hex_links[h] = ["X1", "X2"]  # arranged: two tracks already cross there
    game.apply(choose(0, "build"))
    assert_refused(game, lay(0, [GUA, (6, 15), (6, 14)]), IllegalAction, "two tracks")


def test_extend_your_own_incomplete_link_later_not_another_players(
        mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    game.apply(lay(0, [GUA, (6, 15), (7, 14)]))  # Ann's open end in (6, 15) faces (7, 14)
    game.apply(EndBuild(seat=0))
    game.apply(choose(1, "build"))
    assert_refused(game, lay(1, [(6, 15), (7, 14), (7, 13)]), IllegalAction, "belongs to Ann")
    game.apply(Cancel(seat=1))
    game.apply(PassAction(seat=1))
    game.apply(PassAction(seat=2))
    game.apply(choose(0, "build"))
    game.apply(lay(0, [(6, 15), (7, 14), (7, 13)]))
    game.apply(lay(0, [(7, 14), (7, 13), SLU]))
    (link,) = state.links.values()
    assert link.complete
    assert link.tiles == [hx(mexico, (6, 15)), hx(mexico, (7, 14)), hx(mexico, (7, 13))]
    assert link.end == city_at(mexico, SLU)


def two_open_ends_in_one_hex(rules: RailwaysOfTheWorldRules, same_owner: bool,
                             edition: int | None = None) -> tuple[Game, LayTrack]:
    """After an auction everyone passes (Bob plays first, then Cat, then Ann), Bob's
    link from Guadalajara ends in (6, 15) facing (7, 14); then a link from León, Bob's
    own or Cat's, ends in the same hex facing (6, 16). Its owner has chosen to build
    again, and the tile listed to continue the León link from (6, 15) onto (6, 16)
    (toward (6, 17)) is returned with the game. Every step is in the record."""
    game = start_game(rules)
    if edition is not None:
        game = Game.replay(rules, game.record.model_copy(update={"rules_edition": edition}))
    everyone_passes(game)
    state: RotwState = game.state
    assert state.order == [1, 2, 0]
    second = 1 if same_owner else 2

    def play(seat: int, *actions: Any) -> None:
        while state.to_act() != seat:
            game.apply(PassAction(seat=state.to_act()))
        for action in actions:
            game.apply(action)

    play(1, choose(1, "build"), lay(1, [GUA, (6, 15), (7, 14)]), EndBuild(seat=1))
    play(second, choose(second, "build"), lay(second, [LEO, (6, 15), (6, 16)]),
         EndBuild(seat=second))
    play(second, choose(second, "build"))
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == second
    (listed,) = [c for c in prompt.choices if isinstance(c, LayTrack) and c.entry == (6, 15)
                 and c.exit == (6, 17)]
    assert listed.hex == (6, 16)
    return game, listed


def link_hexes(rules: RailwaysOfTheWorldRules, state: RotwState) -> dict[str, list[tuple[int, int]]]:
    return {k.id: [rules.offset(h) for h in k.tiles] for k in state.links.values()}


def test_a_tile_continues_the_open_end_that_points_into_it_not_the_other_players(
        mexico: RailwaysOfTheWorldRules) -> None:
    game, listed = two_open_ends_in_one_hex(mexico, same_owner=False)
    # Offered to Cat, and the same move sent as data (a remote seat, a saved game) is
    # accepted too: it continues Cat's link, not Bob's whose end shares the hex.
    form = json.loads(json.dumps(listed.model_dump(mode="json")))
    assert game.check(form) == listed
    assert_refused(game, lay(2, [(6, 15), (7, 14), (7, 13)]), IllegalAction, "belongs to Bob")
    game.apply(form)
    assert link_hexes(mexico, game.state) == {"L1": [(6, 15)], "L2": [(6, 15), (6, 16)]}
    assert Game.replay(mexico, game.record).state == game.state


def test_a_tile_continues_the_own_link_whose_open_end_points_into_it(
        mexico: RailwaysOfTheWorldRules) -> None:
    game, listed = two_open_ends_in_one_hex(mexico, same_owner=True)
    form = json.loads(json.dumps(listed.model_dump(mode="json")))
    assert game.check(form) == listed
    data = Game.replay(mexico, game.record)
    game.apply(listed)  # the very object listed
    data.apply(form)  # the same move as data
    # Both go on the León link (L2); the Guadalajara link keeps its one tile.
    expected = {"L1": [(6, 15)], "L2": [(6, 15), (6, 16)]}
    assert link_hexes(mexico, game.state) == link_hexes(mexico, data.state) == expected
    assert data.state == game.state
    # A tile from (6, 15) into a hex neither open end faces continues nothing.
    again, _ = two_open_ends_in_one_hex(mexico, same_owner=True)
    assert_refused(again, lay(1, [(6, 15), (6, 14), (6, 13)]), IllegalAction,
                   "your links' open ends at")


def test_in_edition_1_the_tile_went_on_the_first_own_link_ending_there(
        mexico: RailwaysOfTheWorldRules) -> None:
    """Saves from before the ruling replay as they were played: the tile went on the
    seat's first incomplete link ending in the hex, Bob's Guadalajara link, which so
    jumped across the crossing."""
    game, listed = two_open_ends_in_one_hex(mexico, same_owner=True, edition=1)
    assert game.state.rules_edition == game.record.rules_edition == 1
    form = json.loads(json.dumps(listed.model_dump(mode="json")))
    data = Game.replay(mexico, game.record)
    game.apply(listed)
    data.apply(form)
    expected = {"L1": [(6, 15), (6, 16)], "L2": [(6, 15)]}
    assert link_hexes(mexico, game.state) == link_hexes(mexico, data.state) == expected
    assert Game.replay(mexico, game.record).state == game.state


def test_a_game_started_now_is_edition_2(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    assert mexico.edition == 2
    assert game.record.rules_edition == game.state.rules_edition == 2


def test_a_link_cannot_return_to_its_own_city(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    building(game, 0)
    game.apply(lay(0, [GUA, (6, 15), (6, 16)]))
    assert_refused(game, lay(0, [(6, 15), (6, 16), GUA]), IllegalAction, "two different cities")


def test_cancel_before_any_tile_then_only_end(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = building(game, 0)
    assert_refused(game, EndBuild(seat=0), IllegalAction, "at least one tile")
    game.apply(Cancel(seat=0))
    assert state.step is Step.ACTION and state.to_act() == 0
    game.apply(choose(0, "build"))
    game.apply(lay(0, [GUA, (6, 15), (7, 14)]))
    assert_refused(game, Cancel(seat=0), IllegalAction, "end the build")


# ================================================================ urbanize
def test_urbanize_a_gray_city(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    que = city_at(mexico, QUE)
    bag_before = sum(state.bag.values())
    game.apply(choose(0, "urbanize"))
    game.apply(Urbanize(seat=0, city=que, colour="blue"))
    assert state.colour[que] == "blue" and state.tiles_left["blue"] == 2
    assert sum(state.cubes[que].values()) == 2 and sum(state.bag.values()) == bag_before - 2
    ann = state.players[0]
    assert ann.spent == 10_000 and ann.bonds == 2 and ann.cash == 0
    assert any(e.kind == "urbanize" and e.chance for e in game.log)


def test_urbanize_refuses_a_city_that_is_not_gray(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    at_action(game, 0)
    game.apply(choose(0, "urbanize"))
    assert_refused(game, Urbanize(seat=0, city=city_at(mexico, LEO), colour="blue"),
                   IllegalAction, "not a gray city")


def test_urbanize_colours_run_out(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    state.tiles_left["blue"] = 0
    game.apply(choose(0, "urbanize"))
    assert_refused(game, Urbanize(seat=0, city=city_at(mexico, PUE), colour="blue"),
                   IllegalAction, "no blue New City tile is left")
    assert_refused(game, Urbanize(seat=0, city=city_at(mexico, PUE), colour="red"),
                   IllegalAction, "no red New City tile")  # never a tile of that colour


def test_urbanize_removes_an_empty_city_marker(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    pue = city_at(mexico, PUE)
    state.markers.append(pue)  # arranged
    game.apply(choose(0, "urbanize"))
    game.apply(Urbanize(seat=0, city=pue, colour="yellow"))
    assert pue not in state.markers


# ================================================================ engines
def test_upgrade_one_level_for_the_printed_price(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    game.apply(UpgradeEngine(seat=0, level=2))
    assert state.players[0].engine == 2 and state.players[0].spent == mexico.map.engine_costs[2]
    assert state.to_act() == 1


def test_a_second_engine_level_in_one_action_is_refused(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    at_action(game, 0)
    assert_refused(game, UpgradeEngine(seat=0, level=3), IllegalAction, "one level at a time")


def test_engines_stop_at_level_eight(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    state.players[0].engine = 8
    assert_refused(game, UpgradeEngine(seat=0, level=9), IllegalAction, "top level, 8")
    prompt = game.prompt()
    assert prompt is not None and not any(isinstance(a, UpgradeEngine) for a in prompt.choices)


# ================================================================ deliveries
def chain(game: Game, owners: tuple[int, int, int] = (0, 1, 0)) -> list[str]:
    """Guadalajara - León - Querétaro - San Luis Potosí, links owned as given."""
    return [place_link(game, owners[0], GUA, LEO), place_link(game, owners[1], LEO, QUE),
            place_link(game, owners[2], QUE, SLU)]


def arrange_colours(game: Game, rules: RailwaysOfTheWorldRules, **colours: str) -> None:
    for at, colour in colours.items():
        game.state.colour[city_at(rules, globals()[at])] = colour


def test_deliver_along_own_and_others_links_each_owner_earns(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    links = chain(game)
    arrange_colours(game, mexico, LEO="yellow", QUE="black", SLU="red")
    set_cubes(game, {city_at(mexico, GUA): {"red": 1, "blue": 1}})
    state.players[0].engine = 3
    game.apply(choose(0, "deliver"))
    game.apply(Deliver(seat=0, city=city_at(mexico, GUA), colour="red", links=tuple(links)))
    assert [p.income for p in state.players] == [2, 1, 0]
    assert state.bag["red"] == 25 and state.delivered == {"red": 1}
    assert state.cubes[city_at(mexico, GUA)] == {"blue": 1}
    check_invariants(mexico, state)


def test_engine_two_reaches_two_links_but_not_three(mexico: RailwaysOfTheWorldRules) -> None:
    """The rulebook's example: a '2' engine delivers one or two links away, not three."""
    game = start_game(mexico)
    state = at_action(game, 0)
    links = chain(game, (0, 0, 0))
    gua = city_at(mexico, GUA)
    state.players[0].engine = 2
    arrange_colours(game, mexico, LEO="black", QUE="yellow", SLU="red")
    set_cubes(game, {gua: {"yellow": 1, "red": 1}})
    game.apply(choose(0, "deliver"))
    assert_refused(game, Deliver(seat=0, city=gua, colour="red", links=tuple(links)),
                   IllegalAction, "engine of level 2 carries a cube at most 2 links, not 3")
    game.apply(Deliver(seat=0, city=gua, colour="yellow", links=tuple(links[:2])))
    assert state.players[0].income == 2


def test_a_cube_must_stop_at_the_first_city_of_its_colour(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    links = chain(game, (0, 0, 0))
    gua = city_at(mexico, GUA)
    state.players[0].engine = 3
    arrange_colours(game, mexico, LEO="red", QUE="black", SLU="red")
    set_cubes(game, {gua: {"red": 1}})
    game.apply(choose(0, "deliver"))
    assert_refused(game, Deliver(seat=0, city=gua, colour="red", links=tuple(links)),
                   IllegalAction, "must stop at León, the first red city")
    listed = [a for a in game.legal_actions() if isinstance(a, Deliver)]
    assert [a.links for a in listed] == [(links[0],)]


def test_the_first_link_must_be_your_own(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    at_action(game, 0)
    links = chain(game, (1, 0, 0))
    gua = city_at(mexico, GUA)
    arrange_colours(game, mexico, LEO="red")
    set_cubes(game, {gua: {"red": 1}})
    game.state.players[0].engine = 3
    assert not [a for a in game.legal_actions() if getattr(a, "action", "") == "deliver"]
    game.state.step = Step.DELIVER  # arranged: asked as if the choice were offered
    assert_refused(game, Deliver(seat=0, city=gua, colour="red", links=(links[0],)),
                   IllegalAction, "first link of a delivery must be your own")


def test_a_city_is_never_passed_twice(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state = at_action(game, 0)
    gua_leo = place_link(game, 0, GUA, LEO)
    leo_zac = place_link(game, 0, LEO, ZAC)
    gua_zac = place_link(game, 0, GUA, ZAC)
    gua = city_at(mexico, GUA)
    arrange_colours(game, mexico, LEO="black", ZAC="black", MCI="purple")
    state.colour[gua] = "purple"
    set_cubes(game, {gua: {"red": 1}, city_at(mexico, LEO): {"purple": 1}})
    state.players[0].engine = 4
    game.apply(choose(0, "deliver"))
    leo = city_at(mexico, LEO)
    # León -> Guadalajara (purple) is fine; León -> Zacatecas -> Guadalajara -> León is not.
    assert_refused(game, Deliver(seat=0, city=leo, colour="purple",
                                 links=(leo_zac, gua_zac, gua_leo)), IllegalAction,
                   "must stop at Guadalajara")
    state.colour[gua] = "black"
    state.colour[city_at(mexico, ZAC)] = "yellow"
    assert_refused(game, Deliver(seat=0, city=leo, colour="purple",
                                 links=(leo_zac, gua_zac, gua_leo)), IllegalAction,
                   "cannot pass through León twice")
    assert_refused(game, Deliver(seat=0, city=leo, colour="purple",
                                 links=(leo_zac, leo_zac)), IllegalAction, "twice")


def test_cubes_travel_only_on_complete_links(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    at_action(game, 0)
    open_link = place_link(game, 0, GUA, LEO, complete=False)
    arrange_colours(game, mexico, LEO="red")
    gua = city_at(mexico, GUA)
    set_cubes(game, {gua: {"red": 1}})
    game.state.step = Step.DELIVER  # arranged
    assert_refused(game, Deliver(seat=0, city=gua, colour="red", links=(open_link,)),
                   IllegalAction, "incomplete")


def test_the_destination_must_be_the_cubes_colour(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    at_action(game, 0)
    link = place_link(game, 0, GUA, LEO)
    arrange_colours(game, mexico, LEO="blue")
    gua = city_at(mexico, GUA)
    set_cubes(game, {gua: {"red": 1}})
    game.state.step = Step.DELIVER
    assert_refused(game, Deliver(seat=0, city=gua, colour="red", links=(link,)),
                   IllegalAction, "León is not a red city")
    assert_refused(game, Deliver(seat=0, city=gua, colour="yellow", links=(link,)),
                   IllegalAction, "no yellow cube")
    assert_refused(game, Deliver(seat=0, city="XXX", colour="red", links=(link,)),
                   MalformedAction, "no city 'XXX'")


def test_an_emptied_city_gets_a_marker_and_the_end_comes_a_turn_later(
        mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico, 2)
    state = at_action(game, 0)
    link = place_link(game, 0, GUA, LEO)
    arrange_colours(game, mexico, LEO="red")
    gua = city_at(mexico, GUA)
    set_cubes(game, {gua: {"red": 1}, city_at(mexico, MCI): {"black": 1}})
    needed = mexico.map.end_markers[2]
    state.markers.extend(f"X{i}" for i in range(needed - 1))  # arranged: one short
    game.apply(choose(0, "deliver"))
    game.apply(Deliver(seat=0, city=gua, colour="red", links=(link,)))
    assert state.markers[-1] == gua and len(state.markers) == needed
    assert state.end_turn == 2
    while state.turn == 1:
        game.apply(PassAction(seat=state.to_act()))
    assert state.step is Step.AUCTION  # the trigger turn is finished, one more is played
    while not game.is_over():
        action = PassBid(seat=state.to_act()) if state.step is Step.AUCTION else \
            PassAction(seat=state.to_act())
        game.apply(action)
    assert state.turn == 2 and game.result() is not None


# ================================================================ the end and scores
def test_score_is_income_less_bonds_and_ties_go_to_links_then_money(
        mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    state: RotwState = game.state
    place_link(game, 1, GUA, LEO)
    for p, (income, bonds, cash) in zip(state.players, [(10, 2, 0), (9, 1, 0), (8, 0, 3000)],
                                        strict=True):
        p.income, p.bonds, p.cash = income, bonds, cash
    state.final = {p.name: mexico.score_of(state, s) for s, p in enumerate(state.players)}
    result = mexico.result(state)
    assert result is not None
    assert result.scores == {"Ann": 8, "Bob": 8, "Cat": 8}
    assert result.winners == ["Bob"]  # one complete link
    state.links.clear()
    state.final = {p.name: mexico.score_of(state, s) for s, p in enumerate(state.players)}
    result = mexico.result(state)
    assert result is not None and result.winners == ["Cat"]  # most money


# ================================================================ not your turn / wrong moment
def test_actions_at_the_wrong_moment_are_refused(mexico: RailwaysOfTheWorldRules) -> None:
    game = start_game(mexico)
    assert_refused(game, UpgradeEngine(seat=0, level=2), IllegalAction, "auction")
    at_action(game, 0)
    assert_refused(game, lay(0, [GUA, (6, 15), LEO]), IllegalAction, "choose to build")
    assert_refused(game, Bid(seat=0, amount=1000), IllegalAction, "no auction")
    assert_refused(game, PassAction(seat=1), IllegalAction, "Ann's turn")
    assert_refused(game, {"type": "lay_track", "seat": 0, "hex": [99, 99], "entry": [5, 15],
                          "exit": [6, 15]}, MalformedAction, "no hex 99,99")
    assert_refused(game, {"type": "teleport", "seat": 0}, MalformedAction, "not a Railways")
