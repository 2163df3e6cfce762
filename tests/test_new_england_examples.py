"""The rulebook's worked examples, replayed with their exact numbers."""

from __future__ import annotations

import pytest
from conftest import (
    events_of,
    finish_loans,
    force_rolls,
    give_links,
    prompt_seat,
    set_cubes,
    set_step,
    start_game_with_first,
    to_auction,
)
from support import seat_of

from railgames.core.errors import IllegalAction
from railgames.games.new_england.actions import (
    Bid,
    Borrow,
    FinishLink,
    PassBid,
    PassShip,
    Retire,
    Ship,
)
from railgames.games.new_england.state import Step

TABLE = ["Dave", "Pete", "John", "Vince"]  # clockwise, Dave holding the First Player card


def test_vince_with_a_ten_dollar_loan_and_one_dollar_must_borrow(ruleset):
    game = start_game_with_first(ruleset, ["Vince", "Dave", "Pete", "John"])
    vince = seat_of(game, "Vince")
    r = game.state.railways[vince]
    r.cash, r.debt = 1, 10
    prompt = game.prompt()
    assert prompt.seat == vince
    assert prompt.amount.min == 10, "$2 of service against $1 of cash forces a loan"
    assert "must borrow" in prompt.text
    with pytest.raises(IllegalAction, match=r"at least \$10"):
        game.apply(Borrow(seat=vince, amount=0))


def test_vince_borrows_ten_and_then_pays_four_service_on_twenty(ruleset):
    game = start_game_with_first(ruleset, ["Vince", "Dave", "Pete", "John"])
    vince = seat_of(game, "Vince")
    r = game.state.railways[vince]
    r.cash, r.debt = 1, 10
    game.apply(Borrow(seat=vince, amount=10))
    assert (r.cash, r.debt) == (11, 20)
    finish_loans(game, {s: 0 for s in range(4)})
    [service] = events_of(game, "service")
    assert service.data == {"seat": vince, "cash": -4}
    assert (r.cash, r.debt) == (7, 20)


def test_john_retires_ten_of_his_twenty_dollar_loan(ruleset):
    game = start_game_with_first(ruleset, ["John", "Dave", "Pete", "Vince"])
    john = seat_of(game, "John")
    r = game.state.railways[john]
    r.cash, r.debt = 26, 20  # $22 once the $4 service is paid
    finish_loans(game, {s: 0 for s in range(4)})
    assert game.state.step is Step.RETIRE and prompt_seat(game) == john
    assert (r.cash, r.debt) == (22, 20)
    assert game.prompt().amount.max == 20
    game.apply(Retire(seat=john, amount=10))
    assert (r.cash, r.debt) == (12, 10)


def test_petes_auction_for_boston_providence(ruleset):
    game = start_game_with_first(ruleset, TABLE)
    dave, pete, john, vince = (seat_of(game, n) for n in TABLE)
    # Boston-Providence goes second, so that Dave can buy the first link beforehand.
    current = game.state.current
    current.remove("BOS-PRO")
    current.insert(1, "BOS-PRO")
    game.state.railways[pete].cash = 12
    game.state.railways[john].cash = 15  # enough to top $10, so John passes by choice
    to_auction(game)
    assert game.state.auction.link != "BOS-PRO" and prompt_seat(game) == dave
    force_rolls(game, (6, 6), (1, 3))
    game.apply(Bid(seat=dave, amount=1))
    for seat in (pete, john, vince):
        game.apply(PassBid(seat=seat))
    assert game.state.railways[dave].bought_this_turn is not None

    assert game.state.auction.link == "BOS-PRO"
    assert dave not in game.state.auction.bidders
    start = len(game.log)
    for seat, amount in [(pete, 1), (john, 2), (vince, None), (pete, 10), (john, None)]:
        assert prompt_seat(game) == seat
        game.apply(PassBid(seat=seat) if amount is None else Bid(seat=seat, amount=amount))

    assert game.state.owner["BOS-PRO"] == pete
    assert game.state.railways[pete].cash == 2
    [win] = events_of(game, "win", start)
    assert "rolls 4" in win.text and "against 5" in win.text
    assert win.data["cash"] == -10
    assert game.state.step is Step.FINISH and game.state.finish.shortfall == 1
    game.apply(FinishLink(seat=pete, pay=True))
    assert game.state.railways[pete].cash == 1
    assert "BOS-PRO" in game.state.built


def test_shipping_a_blue_cube_from_boston_to_new_haven(ruleset):
    game = start_game_with_first(ruleset, ["John", "Pete", "Dave"])
    john, pete, dave = (seat_of(game, n) for n in ("John", "Pete", "Dave"))
    to_auction(game)
    give_links(game, {"BOS-PRO": john, "HAR-NHV": john, "PRO-PLA": dave, "HAR-PLA": pete})
    set_cubes(game, {"BOS": {"blue": 2}})
    set_step(game, Step.SHIP)
    assert prompt_seat(game) == john
    path = ["BOS", "PRO", "PLA", "HAR", "NHV"]
    assert Ship(seat=john, colour="blue", path=path) in game.prompt().choices
    game.apply(Ship(seat=john, colour="blue", path=path))
    incomes = {n: game.state.railways[seat_of(game, n)].income for n in ("John", "Pete", "Dave")}
    assert incomes == {"John": 2, "Pete": 1, "Dave": 1}
    assert game.state.cubes["BOS"] == {"blue": 1}


def test_market_loss_of_six_on_incomes_nineteen_fourteen_eighteen(ruleset):
    game = start_game_with_first(ruleset, ["John", "Pete", "Dave"])
    john, pete, dave = (seat_of(game, n) for n in ("John", "Pete", "Dave"))
    to_auction(game)
    rs = game.state.railways
    rs[john].income, rs[pete].income, rs[dave].income = 19, 14, 18
    cash = [r.cash for r in rs]
    force_rolls(game, (4, 1))
    last = game.state.seat_order()[-1]
    set_step(game, Step.SHIP, pending=[last], ship_round=2)
    game.apply(PassShip(seat=last))
    [market] = events_of(game, "market")
    assert market.text.startswith("Market: John rolls 5")
    assert "loss number 6" in market.text
    assert "John -3" in market.text and "Pete -2" in market.text and "Dave -3" in market.text
    assert (rs[john].income, rs[pete].income, rs[dave].income) == (16, 12, 15)
    assert [r.cash - c for r, c in zip(rs, cash, strict=True)] == [r.income for r in rs]
    assert game.state.first == john


def test_john_with_income_twelve_receives_twelve_dollars(ruleset):
    game = start_game_with_first(ruleset, ["John", "Pete", "Dave"])
    john = seat_of(game, "John")
    to_auction(game)
    game.state.railways[john].income = 12
    force_rolls(game, (6, 6))  # loss number 13: twelve loses nothing
    before = game.state.railways[john].cash
    last = game.state.seat_order()[-1]
    set_step(game, Step.SHIP, pending=[last], ship_round=2)
    game.apply(PassShip(seat=last))
    assert game.state.railways[john].cash == before + 12
    assert [e.data for e in events_of(game, "income")] == [{"seat": john, "cash": 12}]


def test_first_player_card_income_tie_is_broken_by_cash(ruleset):
    game = start_game_with_first(ruleset, ["John", "Pete", "Dave"])
    john, pete, dave = (seat_of(game, n) for n in ("John", "Pete", "Dave"))
    to_auction(game)
    rs = game.state.railways
    for seat, income, cash in [(john, 8, 3), (pete, 8, 9), (dave, 5, 40)]:
        rs[seat].income, rs[seat].cash = income, cash
    force_rolls(game, (6, 6))
    last = game.state.seat_order()[-1]
    set_step(game, Step.SHIP, pending=[last], ship_round=2)
    game.apply(PassShip(seat=last))
    assert game.state.first == pete


def test_first_player_card_cash_tie_is_broken_by_debt(ruleset):
    game = start_game_with_first(ruleset, ["John", "Pete", "Dave"])
    john, pete, dave = (seat_of(game, n) for n in ("John", "Pete", "Dave"))
    to_auction(game)
    rs = game.state.railways
    for seat, income, cash, debt in [(john, 8, 9, 20), (pete, 8, 9, 30), (dave, 5, 40, 0)]:
        rs[seat].income, rs[seat].cash, rs[seat].debt = income, cash, debt
    force_rolls(game, (6, 6))
    last = game.state.seat_order()[-1]
    set_step(game, Step.SHIP, pending=[last], ship_round=2)
    game.apply(PassShip(seat=last))
    assert game.state.first == john
