"""Refused actions: the reason given, and no trace left on the state or the record."""

from __future__ import annotations

import pytest
from conftest import (
    force_rolls,
    give_links,
    prompt_seat,
    set_cubes,
    set_step,
    start_game,
    to_auction,
)
from support import assert_refused

from railgames.core.engine import amount_action
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.games.new_england.actions import Bid, Borrow, PassBid, PassShip, Ship
from railgames.games.new_england.state import Step


def name(game, seat):
    return game.players[seat].name


def turn_reason(game, acting):
    """The reason Game gives when ``acting`` moves out of turn."""
    return f"it is {name(game, prompt_seat(game))}'s turn, not {name(game, acting)}'s"


@pytest.fixture
def auction(ruleset):
    return to_auction(start_game(ruleset, 4))


@pytest.fixture
def shipping(ruleset):
    """Shipping with Boston-Worcester, Providence-Worcester and Boston-Providence built,
    and the blue route Providence-Plainfield-Hartford-New Haven."""
    game = to_auction(start_game(ruleset, 4))
    give_links(game, {"BOS-WOR": 0, "PRO-WOR": 1, "BOS-PRO": 2, "PRO-PLA": 3, "HAR-PLA": 0, "HAR-NHV": 1})
    set_cubes(game, {"BOS": {"purple": 1, "blue": 1}, "PRO": {"blue": 1}})
    set_step(game, Step.SHIP)
    return game


# =============================================================== auction
def test_a_bid_above_cash_is_refused(auction):
    seat = prompt_seat(auction)
    auction.state.railways[seat].cash = 6
    assert_refused(auction, Bid(seat=seat, amount=7), IllegalAction, "has $6; a bid of $7 needs $1 more")


def test_a_bid_is_taken_unchecked_only_within_the_prompt_it_answers(auction):
    """A bid ``amount_action`` made for the prompt just given is applied as a listed
    choice is (written to the record as pydantic writes it); one past the amount's
    range, or the same bid once the game has moved on, is checked in full."""
    prompt = auction.prompt()
    assert prompt is not None and prompt.amount is not None
    seat = prompt.seat
    top = amount_action(auction.ruleset, "bid", seat, prompt.amount.max + 1)
    assert_refused(auction, top, IllegalAction, "a bid of")
    prompt = auction.prompt()
    assert prompt is not None and prompt.amount is not None
    bid = amount_action(auction.ruleset, "bid", seat, prompt.amount.min)
    assert bid == Bid(seat=seat, amount=prompt.amount.min)
    auction.apply(bid)
    assert auction.record.actions[-1] == bid.model_dump(mode="json")
    auction.prompt()
    assert_refused(auction, bid, IllegalAction, turn_reason(auction, seat))


def test_a_bid_not_above_the_high_bid_is_refused(auction):
    o = auction.state.seat_order()
    auction.apply(Bid(seat=o[0], amount=4))
    assert_refused(auction, Bid(seat=o[1], amount=4), IllegalAction, "must beat the high bid of $4")
    assert_refused(auction, Bid(seat=o[1], amount=2), IllegalAction, "must beat the high bid of $4")


def test_a_bid_after_passing_is_refused_as_out_of_turn(auction):
    o = auction.state.seat_order()
    auction.apply(PassBid(seat=o[0]))
    auction.apply(Bid(seat=o[1], amount=1))
    auction.apply(Bid(seat=o[2], amount=2))
    auction.apply(Bid(seat=o[3], amount=3))
    assert prompt_seat(auction) == o[1], "the passer is skipped"
    assert_refused(auction, Bid(seat=o[0], amount=5), IllegalAction, turn_reason(auction, o[0]))


def test_a_bid_by_this_turns_buyer_is_refused(auction):
    o = auction.state.seat_order()
    force_rolls(auction, (6, 6))
    auction.apply(Bid(seat=o[0], amount=1))
    for seat in o[1:]:
        auction.apply(PassBid(seat=seat))
    assert auction.state.railways[o[0]].bought_this_turn == "BOS-PRO"
    assert auction.state.auction.link == "BOS-WOR"
    assert_refused(auction, Bid(seat=o[0], amount=1), IllegalAction, turn_reason(auction, o[0]))


def test_acting_out_of_turn_names_whose_turn_it_is(ruleset):
    game = start_game(ruleset, 3)
    o = game.state.seat_order()
    assert_refused(game, Borrow(seat=o[1], amount=0), IllegalAction, turn_reason(game, o[1]))
    to_auction(game)
    assert_refused(game, PassBid(seat=o[2]), IllegalAction, turn_reason(game, o[2]))


def test_an_action_of_another_step_is_refused(auction):
    seat = prompt_seat(auction)
    assert_refused(auction, Borrow(seat=seat, amount=10), IllegalAction, "the game is at the auction")
    assert_refused(auction, PassShip(seat=seat), IllegalAction, "the game is at the auction")


# =============================================================== loans
def test_borrowing_less_than_required_is_refused(ruleset):
    game = start_game(ruleset, 3)
    seat = prompt_seat(game)
    game.state.railways[seat].cash, game.state.railways[seat].debt = 0, 100
    assert_refused(game, Borrow(seat=seat, amount=20), IllegalAction, "must borrow at least $30")
    assert_refused(game, Borrow(seat=seat, amount=0), IllegalAction, "must borrow at least $30")


def test_borrowing_other_than_ten_dollar_units_is_refused(ruleset):
    game = start_game(ruleset, 3)
    seat = prompt_seat(game)
    assert_refused(game, Borrow(seat=seat, amount=25), IllegalAction, "$10 units; $25 is not one")


# =============================================================== shipping
def test_shipping_along_an_unbuilt_link_is_refused(shipping):
    shipping.state.built.discard("BOS-WOR")
    seat = prompt_seat(shipping)
    assert_refused(shipping, Ship(seat=seat, colour="purple", path=["BOS", "WOR"]),
                   IllegalAction, "Boston–Worcester link is not built")


def test_a_path_over_five_links_is_refused(shipping):
    seat = prompt_seat(shipping)
    path = ["BOS", "LOW", "MAN", "RUT", "HAR", "PLA", "NHV"]
    assert_refused(shipping, Ship(seat=seat, colour="blue", path=path),
                   IllegalAction, "at most 5 links; this path uses 6")


def test_a_path_visiting_a_city_twice_is_refused(shipping):
    seat = prompt_seat(shipping)
    assert_refused(shipping, Ship(seat=seat, colour="purple", path=["BOS", "PRO", "BOS", "WOR"]),
                   IllegalAction, "enters Boston twice")


def test_a_path_through_a_city_demanding_the_colour_is_refused(shipping):
    seat = prompt_seat(shipping)
    assert_refused(shipping, Ship(seat=seat, colour="purple", path=["BOS", "WOR", "PRO"]),
                   IllegalAction, "must stop at Worcester")


def test_delivering_where_the_colour_is_not_demanded_is_refused(shipping):
    seat = prompt_seat(shipping)
    assert_refused(shipping, Ship(seat=seat, colour="blue", path=["PRO", "PLA", "HAR"]),
                   IllegalAction, "not blue")


def test_shipping_a_cube_that_is_not_there_is_refused(shipping):
    seat = prompt_seat(shipping)
    assert_refused(shipping, Ship(seat=seat, colour="purple", path=["PRO", "WOR"]),
                   IllegalAction, "no purple cube waiting in Providence")


def test_shipping_out_of_turn_is_refused(shipping):
    o = shipping.state.seat_order()
    assert_refused(shipping, Ship(seat=o[1], colour="purple", path=["BOS", "WOR"]),
                   IllegalAction, turn_reason(shipping, o[1]))


# =============================================================== malformed input
def test_an_unknown_action_type_is_malformed(auction):
    err = assert_refused(auction, {"type": "teleport", "seat": prompt_seat(auction)}, MalformedAction,
                         "'teleport'")
    assert not isinstance(err, IllegalAction)


def test_a_field_of_the_wrong_type_is_malformed(auction):
    seat = prompt_seat(auction)
    assert_refused(auction, {"type": "bid", "seat": seat, "amount": "ten"}, MalformedAction,
                   "bid.amount': input should be a valid integer")


def test_a_missing_field_is_malformed(auction):
    assert_refused(auction, {"type": "bid", "seat": prompt_seat(auction)}, MalformedAction,
                   "bid.amount': field required")


def test_an_unknown_city_in_a_path_is_malformed(shipping):
    seat = prompt_seat(shipping)
    assert_refused(shipping, {"type": "ship", "seat": seat, "colour": "purple", "path": ["BOS", "ATL"]},
                   MalformedAction, "'ATL' is not a city")


def test_an_unknown_colour_is_malformed(shipping):
    seat = prompt_seat(shipping)
    assert_refused(shipping, {"type": "ship", "seat": seat, "colour": "plaid", "path": ["BOS", "WOR"]},
                   MalformedAction, "'plaid' is not a commodity colour")


def test_a_seat_out_of_range_is_malformed(auction):
    assert_refused(auction, {"type": "pass_bid", "seat": 4}, MalformedAction, "no seat 4")
    assert_refused(auction, {"type": "pass_bid", "seat": -1}, MalformedAction, "pass_bid.seat")


def test_an_unknown_city_is_malformed_whatever_the_moment(auction):
    seat = prompt_seat(auction)
    other = auction.state.seat_order()[1]
    assert_refused(auction, {"type": "ship", "seat": seat, "colour": "purple", "path": ["BOS", "ATL"]},
                   MalformedAction, "'ATL' is not a city")
    assert_refused(auction, {"type": "ship", "seat": other, "colour": "purple", "path": ["BOS", "ATL"]},
                   MalformedAction, "'ATL' is not a city")
    assert_refused(auction, {"type": "ship", "seat": other, "colour": "plaid", "path": ["BOS", "WOR"]},
                   MalformedAction, "'plaid' is not a commodity colour")
