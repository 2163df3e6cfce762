"""Refused actions: each names its reason, and the game is left exactly as it was."""

from __future__ import annotations

import pytest
from steel_driver_support import (
    arrange_final,
    begin_building,
    control,
    give_shares,
    lay_track,
    make_ruleset,
    set_cubes,
    start_game,
)
from support import assert_refused, to_move

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.games.steel_driver.actions import (
    Bid,
    BuildTrack,
    ClaimGoods,
    PassBid,
    PassMarker,
    PutUp,
)
from railgames.games.steel_driver.rules import SteelDriverRules
from railgames.games.steel_driver.state import SDState


@pytest.fixture(scope="module")
def sd() -> SteelDriverRules:
    return make_ruleset()


@pytest.fixture
def auction(sd: SteelDriverRules) -> Game:
    """Three players; the marker's holder has put red up and opened with 4."""
    game = start_game(sd, 3)
    a = game.state.active
    game.apply(PutUp(seat=a, company="red"))
    game.apply(Bid(seat=a, amount=4))
    return game


@pytest.fixture
def building(sd: SteelDriverRules) -> Game:
    """Red (Ann's) has built Baltimore-Pittsburgh and has 3 cubes; blue (Bob's) is to build."""
    game = start_game(sd, 3)
    lay_track(game, "red", ["BAL-PIT"], "BAL")
    control(game, "red", 0, 3)
    control(game, "blue", 1, 2)
    begin_building(game, ["red", "blue"])
    return game


# ---------------------------------------------------------------- auctions
def test_bidding_more_cubes_than_held(auction: Game) -> None:
    seat = to_move(auction)
    assert_refused(auction, Bid(seat=seat, amount=11), IllegalAction,
                   f"{auction.players[seat].name} holds 10 cubes; a bid of 11 needs 1 more")


def test_a_bid_must_beat_the_high_bid(auction: Game) -> None:
    assert_refused(auction, Bid(seat=to_move(auction), amount=4), IllegalAction,
                   "a bid must beat the high bid of 4 cubes")


def test_bidding_after_passing(auction: Game) -> None:
    passer = to_move(auction)
    auction.apply(PassBid(seat=passer))
    # The auction goes on without the player who passed: never asked again.
    nxt = to_move(auction)
    assert nxt != passer
    assert_refused(auction, Bid(seat=passer, amount=6), IllegalAction,
                   f"it is {auction.players[nxt].name}'s turn, not {auction.players[passer].name}'s")
    state: SDState = auction.state
    assert state.auction is not None and passer not in state.auction.bidders


def test_the_player_who_put_a_company_up_must_open_the_bidding(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    a = game.state.active
    game.apply(PutUp(seat=a, company="red"))
    assert_refused(game, PassBid(seat=a), IllegalAction, "you must make the opening bid")
    assert_refused(game, PassMarker(seat=a), IllegalAction, "you cannot pass the Active Player marker now")


def test_putting_up_a_company_already_sold_this_turn(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    a = game.state.active
    game.apply(PutUp(seat=a, company="red"))
    game.apply(Bid(seat=a, amount=1))
    for _ in range(2):
        game.apply(PassBid(seat=to_move(game)))
    assert_refused(game, PutUp(seat=to_move(game), company="red"), IllegalAction,
                   "the Red company has already been auctioned this turn")


def test_putting_up_a_company_during_an_auction(auction: Game) -> None:
    assert_refused(auction, PutUp(seat=to_move(auction), company="blue"), IllegalAction,
                   "you cannot put a company up for auction now: the game is at an auction")


def test_putting_up_an_unknown_company_is_malformed(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    assert_refused(game, {"type": "put_up", "seat": game.state.active, "company": "orange"},
                   MalformedAction, "'orange' is not a company")


def test_acting_out_of_turn(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4)
    holder = game.state.active
    other = (holder + 1) % 4
    assert_refused(game, PutUp(seat=other, company="red"), IllegalAction,
                   f"it is {game.players[holder].name}'s turn, not {game.players[other].name}'s")
    assert_refused(game, PassMarker(seat=other), IllegalAction, "turn")


def test_a_player_with_no_cubes_cannot_open(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    # Arranged: the holder has just spent everything (the rules would pass for them).
    set_cubes(game, state.active, 0)
    assert_refused(game, PutUp(seat=state.active, company="red"), IllegalAction,
                   "you have none")


def test_a_bid_of_zero_is_malformed(auction: Game) -> None:
    assert_refused(auction, {"type": "bid", "seat": to_move(auction), "amount": 0},
                   MalformedAction, "amount")


# ---------------------------------------------------------------- building
def test_non_contiguous_track(building: Game) -> None:
    assert_refused(building, BuildTrack(seat=0, company="red", route="PHL-NYC"), IllegalAction,
                   "track must be contiguous: Philadelphia–New York does not touch the Red "
                   "company's network")


def test_a_second_link_on_a_route(building: Game) -> None:
    building.apply(BuildTrack(seat=0, company="red", route="HAR-BAL"))
    assert_refused(building, BuildTrack(seat=1, company="blue", route="HAR-BAL", start="BAL"),
                   IllegalAction, "Harrisburg–Baltimore already has a track link (the Red "
                   "company's); only one link may be built along a route")


def test_building_without_cubes(building: Game) -> None:
    # Arranged: red's box is empty while it is red's turn.
    state: SDState = building.state
    state.pool += state.companies["red"].cubes
    state.companies["red"].cubes = 0
    assert_refused(building, BuildTrack(seat=0, company="red", route="HAR-BAL"), IllegalAction,
                   "the Red company has 0 cubes and Harrisburg–Baltimore costs 1")


def test_personal_cubes_are_never_spent_on_track(building: Game) -> None:
    state: SDState = building.state
    state.companies["red"].cubes -= 1
    state.pool += 1
    assert state.players[0].cubes >= 10  # Ann has plenty of her own
    assert_refused(building, BuildTrack(seat=0, company="red", route="PIT-BUF"), IllegalAction,
                   "the Red company has 2 cubes and Pittsburgh–Buffalo costs 3; track is paid "
                   "from the company's cubes only, never from a player's own")


def test_a_link_dearer_than_the_companys_cubes(building: Game) -> None:
    building.apply(BuildTrack(seat=0, company="red", route="PIT-HAR"))  # 3: none left
    assert_refused(building, BuildTrack(seat=1, company="blue", route="SFO-LAX", start="SFO"),
                   IllegalAction, "the Blue company has 2 cubes and San Francisco–Los Angeles costs 4")


def test_a_first_link_must_come_from_a_starting_location(building: Game) -> None:
    building.apply(BuildTrack(seat=0, company="red", route="HAR-BAL"))
    assert_refused(building, BuildTrack(seat=1, company="blue", route="PHL-NYC", start="PHL"),
                   IllegalAction, "Philadelphia is not a starting location (a hexagon)")
    assert_refused(building, BuildTrack(seat=1, company="blue", route="PHL-NYC"), IllegalAction,
                   "the Blue company's first link must name the starting location")
    assert_refused(building, BuildTrack(seat=1, company="blue", route="PHL-NYC", start="BAL"),
                   IllegalAction, "Baltimore is not an end of Philadelphia–New York")


def test_only_a_first_link_names_a_start(building: Game) -> None:
    assert_refused(building, BuildTrack(seat=0, company="red", route="HAR-BAL", start="BAL"),
                   IllegalAction, "only a company's first link names a starting location; the "
                   "Red company started from Baltimore")


def test_building_for_another_company(building: Game, sd: SteelDriverRules) -> None:
    # Ann controls both red and green; it is red's turn.
    control(building, "green", 0, 5)
    assert_refused(building, BuildTrack(seat=0, company="green", route="SFO-SAC", start="SFO"),
                   IllegalAction, "it is the Red company's turn to build, not the Green company's")


def test_building_out_of_turn(building: Game) -> None:
    assert_refused(building, BuildTrack(seat=1, company="blue", route="SFO-SAC", start="SFO"),
                   IllegalAction, "it is Ann's turn, not Bob's")


def test_building_during_the_auctions(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    assert_refused(game, BuildTrack(seat=game.state.active, company="red", route="BAL-PIT",
                                    start="BAL"),
                   IllegalAction, "you cannot build track now: the game is at the auction")


def test_unknown_routes_and_locations_are_malformed(building: Game) -> None:
    assert_refused(building, BuildTrack(seat=0, company="red", route="BAL-XYZ"), MalformedAction,
                   "there is no route 'BAL-XYZ' on this map")
    assert_refused(building, BuildTrack(seat=0, company="red", route="HAR-BAL", start="XYZ"),
                   MalformedAction, "there is no location 'XYZ'")
    assert_refused(building, {"type": "build", "seat": 0, "company": "red"}, MalformedAction,
                   "route")


# ---------------------------------------------------------------- final claims
@pytest.fixture
def claiming(sd: SteelDriverRules) -> Game:
    game = start_game(sd, 3)
    lay_track(game, "red", ["BAL-PIT"], "BAL")
    lay_track(game, "blue", ["SFO-SAC"], "SFO")
    give_shares(game, 0, {"red": 1})
    give_shares(game, 1, {"blue": 1})
    arrange_final(game, order=["red", "blue"])
    return game


def test_claiming_off_the_companys_track(claiming: Game) -> None:
    assert_refused(claiming, ClaimGoods(seat=0, company="red", location="SFO"), IllegalAction,
                   "San Francisco is not on the Red company's track")


def test_claiming_a_cube_already_taken(claiming: Game, sd: SteelDriverRules) -> None:
    claiming.apply(ClaimGoods(seat=0, company="red", location="PIT"))
    claiming.apply(ClaimGoods(seat=1, company="blue", location="SAC"))
    assert_refused(claiming, ClaimGoods(seat=0, company="red", location="PIT"), IllegalAction,
                   "no goods cube is left at Pittsburgh")


def test_claiming_for_another_company(claiming: Game) -> None:
    assert_refused(claiming, ClaimGoods(seat=0, company="blue", location="SAC"), IllegalAction,
                   "it is the Red company's turn to claim a goods cube, not the Blue company's")


def test_claiming_before_the_end(building: Game) -> None:
    assert_refused(building, ClaimGoods(seat=0, company="red", location="PIT"), IllegalAction,
                   "you cannot claim goods now")


def test_nothing_is_accepted_once_the_game_is_over(claiming: Game) -> None:
    while not claiming.is_over():
        claiming.apply(claiming.prompt().choices[0])  # type: ignore[union-attr]
    assert_refused(claiming, PassMarker(seat=0), IllegalAction, "the game is over")
