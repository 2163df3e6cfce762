"""American Rails: illegal and malformed actions are refused with a reason and change nothing."""

from __future__ import annotations

import pytest
from american_rails_support import (
    clear_board,
    develop,
    fund,
    give,
    lay,
    make_ruleset,
    quiet_prep,
    start_game,
)
from support import assert_refused

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.games.american_rails.actions import (
    Bid,
    Develop,
    EndAction,
    ExpandTwo,
    OfferShare,
    PassBid,
    PlaceCube,
    PlaceStart,
    TakeSpace,
)
from railgames.games.american_rails.rules import AmericanRailsRules
from railgames.games.american_rails.state import Step


@pytest.fixture(scope="module")
def rules() -> AmericanRailsRules:
    return make_ruleset()


def prepared(rules: AmericanRailsRules, players: int = 4, seed: int = 1) -> Game:
    game = quiet_prep(start_game(rules, players, seed))
    clear_board(game)
    return game


def expanding(rules: AmericanRailsRules, treasury: int = 30) -> tuple[Game, int]:
    game = prepared(rules)
    seat = game.state.acting
    give(game, seat, "american")
    lay(game, "american", "STL")
    fund(game, "american", treasury)
    game.apply(TakeSpace(seat=seat, space="expand4"))
    return game, seat


def test_a_blocked_action_space(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    first = game.state.acting
    game.apply(TakeSpace(seat=first, space="pass"))
    second = game.state.acting
    assert_refused(game, TakeSpace(seat=second, space="pass"), IllegalAction,
                   "the Pass space of this column is blocked")


def test_expanding_a_company_without_a_share(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    lay(game, "national", "MEM")
    fund(game, "national", 20)
    assert_refused(game, PlaceCube(seat=seat, company="national", hex=(1, 9)), IllegalAction,
                   "holds no National share")


def test_a_second_cube_of_a_colour_in_a_hex(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    game.apply(PlaceCube(seat=seat, company="american", hex=(1, 7)))
    lay(game, "american", (2, 8))
    assert_refused(game, PlaceCube(seat=seat, company="american", hex=(1, 7)), IllegalAction,
                   "never holds two of one colour")


def test_a_second_cube_in_a_forest(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    lay(game, "national", (2, 6))
    assert_refused(game, PlaceCube(seat=seat, company="american", hex=(2, 6)), IllegalAction,
                   "a forest hex holds one cube only")


def test_a_cube_not_next_to_its_colour(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    assert_refused(game, PlaceCube(seat=seat, company="american", hex=(10, 4)), IllegalAction,
                   "is not next to an American cube")


def test_a_company_that_cannot_pay(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules, treasury=4)
    game.apply(PlaceCube(seat=seat, company="american", hex=(1, 7)))  # $2: $2 left
    assert_refused(game, PlaceCube(seat=seat, company="american", hex=(2, 6)), IllegalAction,
                   "costs $3 and the American company's treasury holds $2")


def test_developing_a_never_developed_city(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "NYC", "PIT")
    seat = game.state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    assert_refused(game, Develop(seat=seat, city="NYC"), IllegalAction, "New York can never be developed")


def test_developing_a_city_twice(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "PIT", "ATL")
    develop(game, "PIT")
    seat = game.state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    assert_refused(game, Develop(seat=seat, city="PIT"), IllegalAction, "Pittsburgh is already developed")


def test_developing_with_no_marker_left(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "PIT", "ATL")
    seat = game.state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    game.state.dev_supply = 0
    assert_refused(game, Develop(seat=seat, city="ATL"), IllegalAction, "no development markers are left")


def test_offering_a_company_out_of_the_game(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 3)
    (out,) = [c for c in game.state.companies.values() if not c.in_game]
    name = rules.company_name(out.id)
    assert_refused(game, OfferShare(seat=0, company=out.id), IllegalAction,
                   f"the {name} company is not in this game")


def test_offering_a_company_with_no_share_left(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    game.state.companies["liberty"].shares_left = 0
    assert_refused(game, OfferShare(seat=0, company="liberty"), IllegalAction,
                   "the Liberty company has no shares left to sell")


def test_developing_a_city_without_track(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "PIT")
    seat = game.state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    assert_refused(game, Develop(seat=seat, city="ATL"), IllegalAction, "Atlanta has no track cube")


def test_a_bid_below_the_minimum_or_above_ones_money(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    game.apply(OfferShare(seat=0, company="liberty"))
    assert_refused(game, Bid(seat=0, amount=9), IllegalAction, "the minimum bid is $10")
    assert_refused(game, Bid(seat=0, amount=51), IllegalAction, "Ann has $50; a bid of $51 needs $1 more")
    game.apply(Bid(seat=0, amount=20))
    assert_refused(game, Bid(seat=1, amount=20), IllegalAction, "the high bid is $20")


def test_a_player_who_passed_cannot_bid_again(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    game.apply(OfferShare(seat=0, company="liberty"))
    game.apply(PassBid(seat=0))
    assert_refused(game, Bid(seat=0, amount=10), IllegalAction, "it is Bob's turn, not Ann's")


def test_starting_a_company_on_a_city_with_track(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    game.apply(OfferShare(seat=0, company="liberty"))
    game.apply(Bid(seat=0, amount=10))
    for s in (1, 2, 3):
        game.apply(PassBid(seat=s))
    game.apply(PlaceStart(seat=0, city="NYC"))
    game.apply(OfferShare(seat=0, company="american"))
    game.apply(Bid(seat=0, amount=10))
    for s in (1, 2, 3):
        game.apply(PassBid(seat=s))
    assert_refused(game, PlaceStart(seat=0, city="NYC"), IllegalAction, "New York already has track")


def test_the_preparation_round_offers_each_company_once_and_never_skips(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    game.apply(OfferShare(seat=0, company="liberty"))
    for s in (0, 1, 2, 3):
        game.apply(PassBid(seat=s))
    assert_refused(game, OfferShare(seat=3, company="liberty"), IllegalAction,
                   "already been up for auction in the preparation round")
    assert_refused(game, EndAction(seat=3), IllegalAction, "a share of every company must go up")


def test_expand_2_at_three_players(rules: AmericanRailsRules) -> None:
    game = prepared(rules, players=3)
    seat = game.state.acting
    game.apply(TakeSpace(seat=seat, space="take2"))
    assert_refused(game, ExpandTwo(seat=seat), IllegalAction, "four or five players")


def test_acting_out_of_turn_and_at_the_wrong_moment(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    seat = game.state.acting
    other = (seat + 1) % 4
    assert_refused(game, TakeSpace(seat=other, space="pass"), IllegalAction, "turn")
    assert_refused(game, Develop(seat=seat, city="PIT"), IllegalAction,
                   "you cannot develop a city now")


def test_malformed_actions(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    seat = game.state.acting
    assert_refused(game, {"type": "take_space", "seat": seat, "space": "nap"}, MalformedAction,
                   "'nap' is not a space of the action track")
    assert_refused(game, {"type": "fund", "seat": seat, "company": "acme"}, MalformedAction,
                   "'acme' is not a company")
    assert_refused(game, {"type": "place_cube", "seat": seat, "company": "american", "hex": [40, 40]},
                   MalformedAction, "there is no hex [40, 40]")
    assert_refused(game, {"type": "develop", "seat": seat, "city": "LAX"}, MalformedAction,
                   "there is no city 'LAX'")
    assert_refused(game, {"type": "teleport", "seat": seat}, MalformedAction, "not a American Rails action")
    assert game.state.step is Step.CHOOSE
