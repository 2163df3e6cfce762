"""One focused test per rule of New England Railways."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import (
    KNOWN_LINKS,
    all_routes,
    events_of,
    finish_loans,
    force_rolls,
    give_links,
    play_until,
    prompt_seat,
    quiet_action,
    set_cubes,
    set_step,
    start_game,
    to_auction,
)
from support import assert_refused

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction
from railgames.core.events import SETUP
from railgames.games.new_england.actions import (
    Bid,
    Borrow,
    FinishLink,
    PassBid,
    PassShip,
    Retire,
    Ship,
)
from railgames.games.new_england.board_map import TOTAL_CUBES
from railgames.games.new_england.rules import MAX_DEBT, MAX_SHIP_LINKS, STARTING_CASH
from railgames.games.new_england.state import Step

SETUP_CUBES = {"RUT": 1, "HAR": 1, "WOR": 1, "MAN": 1, "POR": 1, "LOW": 1, "KIN": 1, "BOS": 2, "PRO": 2}

STARTING_LINKS = {
    3: ["BOS-PRO", "BOS-WOR"],
    4: ["BOS-PRO", "BOS-WOR", "PRO-WOR"],
    5: ["BOS-PRO", "BOS-WOR", "PRO-WOR", "BOS-LOW"],
    6: ["BOS-PRO", "BOS-WOR", "PRO-WOR", "BOS-LOW", "PRO-KIN"],
}


def cube_counts(game: Game) -> Counter[str]:
    return Counter({city: sum(here.values()) for city, here in game.state.cubes.items() if sum(here.values())})


def win_first_auction(game: Game, bid: int = 1, roll: tuple[int, int] = (6, 6)) -> int:
    """The seat opening the current auction bids ``bid`` and everyone else passes."""
    winner = prompt_seat(game)
    force_rolls(game, roll)
    game.apply(Bid(seat=winner, amount=bid))
    while game.state.step is Step.AUCTION and game.state.auction is not None \
            and game.state.auction.high_seat == winner:
        game.apply(PassBid(seat=prompt_seat(game)))
    assert game.state.owner[game.state.railways[winner].links[-1]] == winner
    return winner


def end_turn_now(game: Game) -> None:
    """From the auction step, skip to the last shipping decision of the turn and pass it."""
    last = game.state.seat_order()[-1]
    set_step(game, Step.SHIP, pending=[last], ship_round=2)
    game.apply(PassShip(seat=last))


# =============================================================== set-up
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_railway_starts_with_ten_dollars_and_nothing_else(ruleset, players):
    game = start_game(ruleset, players)
    for r in game.state.railways:
        assert (r.cash, r.debt, r.income, r.links) == (10, 0, 0, [])


@pytest.mark.parametrize("seed", range(6))
def test_setup_draws_eleven_cubes_two_each_for_boston_and_providence(ruleset, seed):
    game = start_game(ruleset, 4, seed)
    assert cube_counts(game) == Counter(SETUP_CUBES)
    assert sum(game.state.cup.values()) == TOTAL_CUBES - 11


@pytest.mark.parametrize("seed", range(6))
def test_setup_accounts_for_all_46_cubes_colour_by_colour(ruleset, seed):
    state = start_game(ruleset, 3, seed).state
    assert state.cube_total() == TOTAL_CUBES
    placed: Counter[str] = Counter()
    for here in state.cubes.values():
        placed.update(here)
    for colour, count in ruleset.map.commodities.items():
        assert state.cup.get(colour, 0) + placed[colour] == count


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_starting_links_match_the_player_count_in_slot_order(ruleset, players):
    state = start_game(ruleset, players).state
    assert state.current == STARTING_LINKS[players]
    assert len(state.current) == players - 1
    all_links = {link.id for link in ruleset.map.links}
    assert sorted(state.link_deck) == sorted(all_links - set(STARTING_LINKS[players]))
    assert state.future == [] and state.owner == {} and state.built == set()


def test_first_player_is_drawn_from_the_seed_and_logged(ruleset):
    firsts = [start_game(ruleset, 4, seed).state.first for seed in range(30)]
    assert len(set(firsts)) >= 3, "the seed should spread the First Player card around"
    assert firsts == [start_game(ruleset, 4, seed).state.first for seed in range(30)]
    game = start_game(ruleset, 4, 7)
    first = game.state.first
    [event] = events_of(game, "first_player")
    assert event.action == SETUP and event.chance
    assert event.data["seat"] == first
    assert game.players[first].name in event.text
    assert prompt_seat(game) == first, "the First Player is asked about loans first"


# =============================================================== loans
def test_compulsory_borrowing_is_the_smallest_loan_that_covers_the_service(ruleset):
    game = start_game(ruleset, 3)
    seat = prompt_seat(game)
    r = game.state.railways[seat]
    for debt in range(0, 110, 10):
        for cash in range(0, 25):
            r.cash, r.debt = cash, debt
            prompt = game.prompt()
            assert prompt is not None and prompt.amount is not None
            low = prompt.amount.min
            assert low % 10 == 0 and low >= 0
            assert (debt + low) // 5 <= cash + low, (cash, debt, low)
            if low:
                less = low - 10
                assert (debt + less) // 5 > cash + less, (cash, debt, low)


def test_borrowing_is_required_only_when_cash_falls_short_of_service(ruleset):
    game = start_game(ruleset, 3)
    r = game.state.railways[prompt_seat(game)]
    r.cash, r.debt = 2, 10
    assert game.prompt().amount.min == 0
    r.cash = 1
    assert game.prompt().amount.min == 10
    r.cash, r.debt = 0, 100
    assert game.prompt().amount.min == 30


def test_borrowed_money_is_received_at_once_and_added_to_debt(ruleset):
    game = start_game(ruleset, 3)
    seat = prompt_seat(game)
    game.apply(Borrow(seat=seat, amount=30))
    r = game.state.railways[seat]
    assert (r.cash, r.debt) == (40, 30)
    [event] = events_of(game, "borrow")
    assert event.data == {"seat": seat, "cash": 30, "debt": 30}


def test_loans_come_in_ten_dollar_units(ruleset):
    game = start_game(ruleset, 3)
    prompt = game.prompt()
    assert prompt.amount.step == 10
    amounts = [a.amount for a in game.legal_actions()]
    assert amounts and all(a % 10 == 0 for a in amounts)
    assert_refused(game, Borrow(seat=prompt.seat, amount=15), IllegalAction, "$10 units")
    game.apply(Borrow(seat=prompt.seat, amount=20))


def test_loans_go_up_to_a_debt_of_a_billion(ruleset):
    # The rulebook sets no limit on borrowing; railgames stops at a debt no game comes near
    # (docs/rulings/new-england.md, "Loan limit").
    game = start_game(ruleset, 3)
    seat = prompt_seat(game)
    prompt = game.prompt()
    assert prompt.amount.max == MAX_DEBT == 1_000_000_000
    assert list(prompt.amount.values()) == list(range(0, 101, 10))  # offered: the low end only
    game.apply(Borrow(seat=seat, amount=250))
    r = game.state.railways[seat]
    assert (r.cash, r.debt) == (260, 250)
    seat = prompt_seat(game)
    game.apply(Borrow(seat=seat, amount=10_000))
    assert game.state.railways[seat].debt == 10_000
    seat = prompt_seat(game)
    r = game.state.railways[seat]
    r.cash, r.debt = 200_000_000, 999_999_000  # cash enough for the service: no loan is compulsory
    prompt = game.prompt()
    assert (prompt.amount.min, prompt.amount.max) == (0, 1000)
    assert_refused(game, {"type": "borrow", "seat": seat, "amount": 1010}, IllegalAction,
                   "may borrow at most $1,000 now")
    game.apply(Borrow(seat=seat, amount=1000))
    assert r.debt == MAX_DEBT


def test_the_compulsory_loan_is_never_refused_past_the_loan_limit(ruleset):
    game = start_game(ruleset, 3)
    seat = prompt_seat(game)
    r = game.state.railways[seat]
    r.cash, r.debt = 0, MAX_DEBT
    prompt = game.prompt()
    low = MAX_DEBT // 4
    assert (prompt.amount.min, prompt.amount.max) == (low, low)
    assert_refused(game, Borrow(seat=seat, amount=low + 10), IllegalAction, "at most")
    game.apply(Borrow(seat=seat, amount=low))
    assert r.debt == MAX_DEBT + low


def test_the_loan_limit_is_far_beyond_all_the_money_a_game_pays_out(ruleset):
    """What the ruling counts, from the map: every turn offers one link fewer than there
    are players until the deck is out, then at most one more turn finishes the last link;
    a turn's shipments (two at most per railway, five links at most each) raise income
    by at most ten per railway; the bank pays starting cash, income and link values."""
    links = ruleset.map.links
    for players in range(3, 7):
        turns = len(links) // (players - 1) + 2
        rise = 2 * MAX_SHIP_LINKS * players
        paid = (STARTING_CASH * players + rise * turns * (turns + 1) // 2
                + sum(link.value for link in links))
        assert paid < 10_000 and MAX_DEBT >= 100_000 * paid, (players, paid)


def test_debt_service_of_a_fifth_is_paid_without_asking(ruleset):
    game = start_game(ruleset, 3)
    order = game.state.seat_order()
    indebted, clear = order[1], order[2]
    game.state.railways[indebted].cash, game.state.railways[indebted].debt = 20, 30
    finish_loans(game, {s: 0 for s in order})
    assert game.state.railways[indebted].cash == 14
    assert game.state.railways[clear].cash == 10
    [service] = events_of(game, "service")
    assert service.data == {"seat": indebted, "cash": -6}
    assert game.state.step is Step.RETIRE and prompt_seat(game) == indebted


def test_debt_is_retired_in_ten_dollar_units(ruleset):
    game = start_game(ruleset, 3)
    seat = game.state.seat_order()[0]
    r = game.state.railways[seat]
    r.cash, r.debt = 40, 30
    finish_loans(game, {s: 0 for s in range(3)})
    assert r.cash == 34 and game.state.step is Step.RETIRE
    prompt = game.prompt()
    assert prompt.seat == seat and prompt.amount.step == 10
    assert list(prompt.amount.values()) == [0, 10, 20, 30]
    assert_refused(game, Retire(seat=seat, amount=5), IllegalAction, "$10 units")
    game.apply(Retire(seat=seat, amount=10))
    assert (r.cash, r.debt) == (24, 20)


def test_retiring_is_limited_by_both_debt_and_cash(ruleset):
    game = start_game(ruleset, 3)
    order = game.state.seat_order()
    rich, poor = game.state.railways[order[0]], game.state.railways[order[1]]
    rich.cash, rich.debt = 60, 20  # 56 after service: limited by the debt
    poor.cash, poor.debt = 25, 50  # 15 after service: limited by the cash
    finish_loans(game, {s: 0 for s in range(3)})
    prompt = game.prompt()
    assert prompt.seat == order[0] and prompt.amount.max == 20
    assert_refused(game, Retire(seat=order[0], amount=30), IllegalAction, "owes only $20")
    game.apply(Retire(seat=order[0], amount=0))
    prompt = game.prompt()
    assert prompt.seat == order[1] and prompt.amount.max == 10
    assert_refused(game, Retire(seat=order[1], amount=20), IllegalAction, "has $15")


def test_players_without_debt_are_not_asked_to_retire(ruleset):
    game = start_game(ruleset, 4)
    finish_loans(game, {s: 0 for s in range(4)})
    assert game.state.step is Step.AUCTION


# =============================================================== commodity growth
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_one_growth_card_is_turned_per_link_on_offer(ruleset, players):
    game = start_game(ruleset, players)
    finish_loans(game)
    assert len(events_of(game, "growth")) == players - 1


@pytest.mark.parametrize("seed", range(5))
def test_growth_puts_one_cube_in_each_listed_city(ruleset, seed):
    game = start_game(ruleset, 5, seed)
    before, cup_before = cube_counts(game), sum(game.state.cup.values())
    finish_loans(game)
    listed = Counter(c for e in events_of(game, "growth") for c in e.data["cities"])
    assert cube_counts(game) - before == listed
    assert cup_before - sum(game.state.cup.values()) == sum(listed.values())
    assert game.state.cube_total() == TOTAL_CUBES


def test_a_city_listed_on_two_growth_cards_gets_two_cubes(ruleset):
    game = start_game(ruleset, 3)
    card = game.state.growth_deck[-1]
    game.state.growth_deck = [card, card]
    before = cube_counts(game)
    finish_loans(game)
    cities = ruleset.map.growth_deck[card].cities
    assert cube_counts(game) - before == Counter(cities * 2)


def test_a_reshuffle_never_brings_back_a_card_turned_this_turn(ruleset):
    # Ruling "empty deck": two cards are turned (3 players, two links on offer) with one
    # left in the deck; the reshuffle takes only the earlier discard.
    game = start_game(ruleset, 3)
    state = game.state
    first, earlier = state.growth_deck[-1], state.growth_deck[0]
    state.growth_deck, state.growth_discard = [first], [earlier]
    finish_loans(game)
    turned = [e.data["cities"] for e in events_of(game, "growth")]
    assert turned == [ruleset.map.growth_deck[first].cities, ruleset.map.growth_deck[earlier].cities]
    assert [e.kind for e in events_of(game, "reshuffle")] == ["reshuffle"]
    assert state.growth_deck == [] and sorted(state.growth_discard) == sorted([first, earlier])


def test_no_growth_card_comes_up_twice_in_a_turn(ruleset):
    # Every card already turned this turn: the step stops rather than turning one again.
    game = start_game(ruleset, 3)
    state = game.state
    only = state.growth_deck[-1]
    state.growth_deck, state.growth_discard = [only], []
    finish_loans(game)
    assert [e.data["cities"] for e in events_of(game, "growth")] == [ruleset.map.growth_deck[only].cities]
    assert len(events_of(game, "growth_exhausted")) == 1
    assert state.growth_discard == [only]


def test_a_game_started_now_is_edition_2(ruleset):
    game = start_game(ruleset, 3)
    assert ruleset.edition == 2
    assert game.record.rules_edition == game.state.rules_edition == 2


def test_in_edition_1_a_reshuffle_takes_the_cards_turned_this_turn_too(ruleset):
    # Saves made before the ruling "empty deck" keep the rules they were played under: each
    # card went on the discards as it was turned, so the same card could come up twice.
    record = start_game(ruleset, 3).record.model_copy(update={"rules_edition": 1})
    game = Game.replay(ruleset, record)
    state = game.state
    assert state.rules_edition == 1
    only = state.growth_deck[-1]
    state.growth_deck, state.growth_discard = [only], []
    finish_loans(game)
    cities = ruleset.map.growth_deck[only].cities
    assert [e.data["cities"] for e in events_of(game, "growth")] == [cities, cities]
    assert [e.text for e in events_of(game, "reshuffle")] == ["The Commodity Growth deck is reshuffled."]
    assert events_of(game, "growth_exhausted") == []
    assert state.growth_deck == [] and state.growth_discard == [only]


def test_growth_with_an_empty_cup_draws_nothing_and_says_so(ruleset):
    game = start_game(ruleset, 4)
    state = game.state
    for colour, count in state.cup.items():
        state.cubes["RUT"][colour] = state.cubes["RUT"].get(colour, 0) + count
        state.cup[colour] = 0
    cubes_before = {city: dict(here) for city, here in state.cubes.items()}
    finish_loans(game)
    assert state.cubes == cubes_before
    growth = events_of(game, "growth")
    assert len(growth) == 3
    assert all("cup is empty" in e.text for e in growth)
    assert state.cube_total() == TOTAL_CUBES


def test_growth_with_one_cube_left_feeds_only_the_first_listed_city(ruleset):
    game = start_game(ruleset, 3)
    state = game.state
    keep = next(c for c, k in state.cup.items() if k)
    for colour, count in state.cup.items():
        spare = count - (1 if colour == keep else 0)
        state.cubes["RUT"][colour] = state.cubes["RUT"].get(colour, 0) + spare
        state.cup[colour] -= spare
    top = ruleset.map.growth_deck[state.growth_deck[-1]].cities
    before = cube_counts(game)
    finish_loans(game)
    assert cube_counts(game) - before == Counter({top[0]: 1})
    assert sum(state.cup.values()) == 0
    assert any("cup is empty" in e.text for e in events_of(game, "growth"))


# =============================================================== completing and publicising
def test_an_unfinished_link_is_completed_at_the_start_of_the_next_turn(ruleset):
    game = to_auction(start_game(ruleset, 3))
    buyer = win_first_auction(game, bid=1, roll=(1, 1))
    assert game.state.step is Step.FINISH
    game.apply(FinishLink(seat=buyer, pay=False))
    assert "BOS-PRO" in game.state.unfinished and "BOS-PRO" not in game.state.built
    play_until(game, lambda g: g.state.turn == 2)
    assert "BOS-PRO" not in game.state.built, "not before the completion step"
    start = len(game.log)
    play_until(game, lambda g: g.state.step is Step.AUCTION or g.state.turn == 3)
    assert "BOS-PRO" in game.state.built and game.state.unfinished == []
    kinds = [e.kind for e in game.log[start:]]
    assert kinds.index("complete") > max(i for i, k in enumerate(kinds) if k == "growth")
    assert kinds.index("complete") < kinds.index("publicise")
    [done] = events_of(game, "complete", start)
    assert done.data["link"] == "BOS-PRO"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_one_future_link_is_publicised_per_link_on_offer(ruleset, players):
    game = start_game(ruleset, players)
    deck = list(game.state.link_deck)
    k = players - 1
    finish_loans(game)
    assert game.state.future == deck[::-1][:k]
    assert game.state.link_deck == deck[:-k]
    [event] = events_of(game, "publicise")
    assert event.data["links"] == game.state.future


def test_publicising_stops_when_the_link_deck_runs_out(ruleset):
    game = start_game(ruleset, 5)
    last = game.state.link_deck[-1]
    game.state.link_deck = [last]
    finish_loans(game)
    assert game.state.future == [last] and game.state.link_deck == []


def test_publicised_links_are_the_next_turns_offer(ruleset):
    game = to_auction(start_game(ruleset, 4))
    future = list(game.state.future)
    play_until(game, lambda g: g.state.turn == 2)
    assert game.state.current == future


# =============================================================== auction
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(3))
def test_the_first_player_opens_the_bidding_on_the_first_slot(ruleset, players, seed):
    game = to_auction(start_game(ruleset, players, seed))
    assert prompt_seat(game) == game.state.first
    assert game.state.auction.link == STARTING_LINKS[players][0]


def test_links_are_auctioned_first_slot_to_last(ruleset):
    game = start_game(ruleset, 5)
    play_until(game, lambda g: g.state.step is Step.SHIP or g.state.turn == 2)
    assert [e.data["link"] for e in events_of(game, "auction")] == STARTING_LINKS[5]


def test_bidding_goes_clockwise_and_a_passer_never_reenters(ruleset):
    game = to_auction(start_game(ruleset, 4))
    o = game.state.seat_order()
    force_rolls(game, (6, 6))
    script = [(o[0], None), (o[1], 1), (o[2], 2), (o[3], None), (o[1], 3), (o[2], None)]
    for seat, amount in script:
        assert prompt_seat(game) == seat
        game.apply(PassBid(seat=seat) if amount is None else Bid(seat=seat, amount=amount))
    assert game.state.owner["BOS-PRO"] == o[1]
    assert game.state.railways[o[1]].cash == 7


def test_a_buyer_sits_out_the_other_auctions_that_turn(ruleset):
    game = to_auction(start_game(ruleset, 3))
    buyer = win_first_auction(game)
    assert game.state.auction.link == "BOS-WOR"
    assert buyer not in game.state.auction.bidders
    assert prompt_seat(game) != buyer
    assert [e.data["seat"] for e in events_of(game, "sit_out")] == [buyer]
    assert_refused(game, Bid(seat=buyer, amount=1), IllegalAction, "turn")
    # Next turn the buyer bids again.
    play_until(game, lambda g: g.state.turn == 2 and g.state.step is Step.AUCTION)
    assert buyer in game.state.auction.bidders


def test_an_unbought_link_is_set_aside_and_never_returns(ruleset):
    game = to_auction(start_game(ruleset, 3))
    while game.state.auction is not None and game.state.auction.link == "BOS-PRO":
        game.apply(PassBid(seat=prompt_seat(game)))
    assert game.state.set_aside == ["BOS-PRO"]

    def bid_on_others(g):
        a = g.state.auction
        if g.state.step is Step.AUCTION and a.link != "BOS-PRO" and a.high_bid == 0:
            return Bid(seat=a.to_act, amount=1)
        return quiet_action(g)

    while not game.is_over():
        game.apply(bid_on_others(game))
        s = game.state
        assert "BOS-PRO" not in s.future + s.link_deck + s.unfinished
        assert s.turn == 1 or "BOS-PRO" not in s.current
        assert "BOS-PRO" not in s.owner and "BOS-PRO" not in s.built
    assert "BOS-PRO" in game.state.set_aside


def test_a_bidder_who_cannot_top_the_high_bid_drops_out(ruleset):
    game = to_auction(start_game(ruleset, 3))
    o = game.state.seat_order()
    game.state.railways[o[1]].cash = 3
    game.apply(Bid(seat=o[0], amount=3))
    assert prompt_seat(game) == o[2]
    assert o[1] not in game.state.auction.bidders
    dropped = [e for e in events_of(game, "pass_bid") if e.data["seat"] == o[1]]
    assert len(dropped) == 1 and "drops out" in dropped[0].text
    assert "cannot top the high bid of $" in dropped[0].text


def test_a_railway_with_no_cash_cannot_open_the_bidding(ruleset):
    game = start_game(ruleset, 3)
    first = game.state.first
    game.state.railways[first].cash = 0
    to_auction(game)
    assert prompt_seat(game) == game.state.seat_order()[1]
    assert first not in game.state.auction.bidders


def test_the_winner_pays_the_bid(ruleset):
    game = to_auction(start_game(ruleset, 3))
    winner = win_first_auction(game, bid=7, roll=(6, 6))
    assert game.state.railways[winner].cash == 3
    [win] = events_of(game, "win")
    assert win.data["cash"] == -7 and win.data["seat"] == winner


# =============================================================== build roll
def test_a_roll_equal_to_the_value_builds_at_once(ruleset):
    game = to_auction(start_game(ruleset, 3))
    assert ruleset.link_value("BOS-PRO") == 5
    win_first_auction(game, roll=(2, 3))
    assert "BOS-PRO" in game.state.built
    assert game.state.step is Step.AUCTION and game.state.auction.link == "BOS-WOR"


def test_a_short_roll_offers_to_pay_the_difference_or_wait(ruleset):
    game = to_auction(start_game(ruleset, 3))
    winner = win_first_auction(game, roll=(1, 3))
    assert game.state.step is Step.FINISH
    prompt = game.prompt()
    assert prompt.seat == winner
    assert prompt.choices == [FinishLink(seat=winner, pay=True), FinishLink(seat=winner, pay=False)]
    assert game.state.finish.shortfall == 1
    assert "BOS-PRO" not in game.state.built


def test_paying_finishes_the_link_for_exactly_the_shortfall(ruleset):
    game = to_auction(start_game(ruleset, 3))
    winner = win_first_auction(game, bid=1, roll=(1, 1))
    game.apply(FinishLink(seat=winner, pay=True))
    assert game.state.railways[winner].cash == 10 - 1 - 3
    assert "BOS-PRO" in game.state.built and game.state.unfinished == []
    [paid] = events_of(game, "finish_pay")
    assert paid.data["cash"] == -3


def test_waiting_leaves_the_link_unusable_until_next_turns_completion(ruleset):
    game = to_auction(start_game(ruleset, 3))
    winner = win_first_auction(game, bid=1, roll=(1, 1))
    game.apply(FinishLink(seat=winner, pay=False))
    assert game.state.railways[winner].cash == 9
    assert "BOS-PRO" in game.state.unfinished and "BOS-PRO" not in game.state.built
    others = [s for s in range(3) if s != winner]
    give_links(game, {"PRO-PLA": others[0], "HAR-PLA": others[1], "HAR-NHV": others[0]})
    set_cubes(game, {"BOS": {"blue": 1}, "PLA": {"blue": 1}})
    play_until(game, lambda g: g.state.step is Step.SHIP)
    through = ["BOS", "PRO", "PLA", "HAR", "NHV"]
    assert all(c.path[0] != "BOS" for c in game.prompt().choices if isinstance(c, Ship))
    assert_refused(game, Ship(seat=prompt_seat(game), colour="blue", path=through),
                   IllegalAction, "not built")
    play_until(game, lambda g: g.state.turn == 2 and g.state.step is Step.AUCTION)
    assert "BOS-PRO" in game.state.built


def test_a_short_roll_the_buyer_cannot_pay_leaves_the_link_unfinished(ruleset):
    game = to_auction(start_game(ruleset, 3))
    winner = win_first_auction(game, bid=10, roll=(1, 1))
    assert game.state.step is Step.AUCTION, "no payment offered with no cash"
    assert game.state.unfinished == ["BOS-PRO"]
    assert game.state.railways[winner].cash == 0


# =============================================================== shipping
def test_buyers_ship_once_and_everyone_else_twice(ruleset):
    game = to_auction(start_game(ruleset, 4))
    o = game.state.seat_order()
    give_links(game, {"PRO-PLA": o[0], "HAR-PLA": o[2], "HAR-NHV": o[3]})
    set_cubes(game, {"PRO": {"blue": 3}})
    force_rolls(game, (6, 6))
    game.apply(PassBid(seat=o[0]))
    game.apply(Bid(seat=o[1], amount=1))
    game.apply(PassBid(seat=o[2]))
    game.apply(PassBid(seat=o[3]))
    assert game.state.railways[o[1]].bought_this_turn == "BOS-PRO"
    play_until(game, lambda g: g.state.step is Step.SHIP)
    seen: list[tuple[int, int]] = []
    while game.state.step is Step.SHIP and game.state.turn == 1:
        seat = prompt_seat(game)
        seen.append((game.state.ship_round, seat))
        game.apply(PassShip(seat=seat))
    assert seen == [(1, o[0]), (1, o[2]), (1, o[3]), (2, o[0]), (2, o[1]), (2, o[2]), (2, o[3])]
    [why] = events_of(game, "sit_out_ship")
    assert why.data == {"seats": [o[1]]}
    assert f"{game.players[o[1]].name} bought a Railway Link this turn" in why.text
    assert "first round" in why.text


def shipping_game(ruleset, owners, cubes, players=4):
    game = to_auction(start_game(ruleset, players))
    give_links(game, owners)
    set_cubes(game, cubes)
    set_step(game, Step.SHIP)
    return game


def test_a_cube_stops_at_the_first_city_demanding_its_colour(ruleset):
    game = shipping_game(ruleset, {"BOS-WOR": 0, "PRO-WOR": 1, "BOS-PRO": 2}, {"BOS": {"purple": 1}})
    seat = prompt_seat(game)
    paths = [c.path for c in game.prompt().choices if isinstance(c, Ship) and c.colour == "purple"]
    assert ["BOS", "WOR"] in paths
    assert all("WOR" not in p[1:-1] for p in paths), "no path may run through Worcester"
    assert_refused(game, Ship(seat=seat, colour="purple", path=["BOS", "WOR", "PRO"]),
                   IllegalAction, "must stop at Worcester")


def test_each_link_travelled_pays_its_owner_one_income(ruleset):
    game = shipping_game(ruleset, {"BOS-PRO": 0, "PRO-PLA": 1, "HAR-PLA": 1, "HAR-NHV": 2},
                         {"BOS": {"blue": 2}})
    game.state.railways[0].income = 5
    seat = 3
    game.state.pending = [seat, 0]
    game.apply(Ship(seat=seat, colour="blue", path=["BOS", "PRO", "PLA", "HAR", "NHV"]))
    assert [r.income for r in game.state.railways] == [6, 2, 1, 0]
    [shipped] = events_of(game, "ship")
    assert shipped.data["income"] == {0: 1, 1: 2, 2: 1}


def test_a_shipped_cube_goes_back_to_the_cup(ruleset):
    game = shipping_game(ruleset, {"BOS-WOR": 0}, {"BOS": {"purple": 2}})
    cup = game.state.cup["purple"]
    game.apply(Ship(seat=prompt_seat(game), colour="purple", path=["BOS", "WOR"]))
    assert game.state.cup["purple"] == cup + 1
    assert game.state.cubes["BOS"] == {"purple": 1}
    assert game.state.cube_total() == TOTAL_CUBES


def test_the_listed_shipments_are_exactly_the_legal_ones(ruleset):
    owners = {link: i % 4 for i, link in enumerate(KNOWN_LINKS)}
    cities = ["BOS", "PRO", "WOR", "HAR", "NHV", "PLA", "LOW", "KIN"]
    colours = ruleset.map.colours
    supply = ruleset.map.commodities
    cubes = {city: {colour: 1 for colour in colours if i < supply[colour]}
             for i, city in enumerate(cities)}
    game = shipping_game(ruleset, owners, cubes)
    seat = prompt_seat(game)
    ships = [c for c in game.prompt().choices if isinstance(c, Ship)]
    listed = {(s.colour, tuple(s.path)) for s in ships}
    expected = {(colour, p) for city in cities for colour in colours
                for p in all_routes(ruleset, game.state.built, city, colour)}
    assert listed == expected and len(listed) == len(ships)
    assert ships, "this layout should allow some shipments"
    for ship in ships:
        assert game.check(ship) == ship
        assert ship.seat == seat


def dfs_routes(ruleset, built, origin, colour):
    """The shipping paths from ``origin`` in the order a depth-first search finds them,
    each city's neighbours taken in the order of the links' ids (worked out here)."""
    demand = ruleset.map.demand_of
    near: dict[str, list[str]] = {}
    for link in sorted(built):
        a, b = ruleset.link_ends(link)
        near.setdefault(a, []).append(b)
        near.setdefault(b, []).append(a)
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for there in near.get(path[-1], []):
            if there in path:
                continue
            if demand[there] == colour:
                found.append([*path, there])
            elif len(path) < 5:
                walk([*path, there])

    walk([origin])
    return found


@pytest.mark.parametrize("seed", range(6))
def test_shipments_are_listed_city_by_city_in_search_order(ruleset, seed):
    # Any set of built links, in any order of building: the same list, in the same order.
    import random

    rng = random.Random(seed)
    links = [link.id for link in ruleset.map.links]
    built = rng.sample(links, rng.randrange(3, len(links)))
    cubes = {city.id: {colour: 1 for colour in ruleset.map.colours if rng.random() < 0.3}
             for city in ruleset.map.cities}
    cubes = {city: here for city, here in cubes.items() if here}
    game = shipping_game(ruleset, {link: i % 4 for i, link in enumerate(built)}, {})
    game.state.cubes = {city.id: dict(cubes.get(city.id, {})) for city in ruleset.map.cities}
    for step in range(2):  # the second time from what the rules kept of the first
        for seat in range(4):
            listed = [(s.seat, s.colour, s.path) for s in ruleset.shipments(game.state, seat)]
            expected = [(seat, colour, path) for city in sorted(cubes) for colour in sorted(cubes[city])
                        for path in dfs_routes(ruleset, built, city, colour)]
            assert listed == expected, (seed, step, seat)


def test_a_seat_with_nothing_to_ship_is_passed_over(ruleset):
    # Worcester is joined to Boston only, and the one cube waits in Providence.
    game = shipping_game(ruleset, {"BOS-WOR": 0}, {"PRO": {"purple": 1}})
    o = game.state.seat_order()
    game.state.pending, game.state.ship_round = [o[0], o[1]], 2
    start = len(game.log)
    game.apply(PassShip(seat=o[0]))
    assert [e.data["seat"] for e in events_of(game, "no_shipment", start)] == [o[1]]
    assert game.state.turn == 2 and game.state.step is Step.LOANS


# =============================================================== market, income, first player
def test_market_loss_is_income_divided_by_two_dice_plus_one(ruleset):
    game = to_auction(start_game(ruleset, 4))
    for r, income in zip(game.state.railways, [0, 6, 13, 40], strict=True):
        r.income = income
    force_rolls(game, (3, 3))
    end_turn_now(game)
    assert [r.income for r in game.state.railways] == [0, 6, 12, 35]
    [market] = events_of(game, "market")
    assert market.data["roll"] == 6 and "loss number 7" in market.text


def test_income_after_the_market_loss_is_paid_in_cash(ruleset):
    game = to_auction(start_game(ruleset, 3))
    cash = [r.cash for r in game.state.railways]
    for r, income in zip(game.state.railways, [0, 9, 20], strict=True):
        r.income = income
    force_rolls(game, (2, 2))
    end_turn_now(game)
    assert [r.cash - c for r, c in zip(game.state.railways, cash, strict=True)] == [0, 8, 16]
    paid = {e.data["seat"]: e.data["cash"] for e in events_of(game, "income")}
    assert paid == {1: 8, 2: 16}


def set_for_card(game, incomes, cash, debts):
    for r, i, c, d in zip(game.state.railways, incomes, cash, debts, strict=True):
        r.income, r.cash, r.debt = i, c, d


def test_first_player_card_goes_to_the_highest_income(ruleset):
    game = to_auction(start_game(ruleset, 3))
    set_for_card(game, [3, 9, 4], [50, 0, 40], [0, 90, 0])
    force_rolls(game, (6, 6))
    end_turn_now(game)
    assert game.state.first == 1


def test_first_player_income_tie_goes_to_most_cash(ruleset):
    game = to_auction(start_game(ruleset, 3))
    set_for_card(game, [0, 0, 0], [5, 12, 11], [0, 30, 0])
    end_turn_now(game)
    assert game.state.first == 1
    assert "most cash" in events_of(game, "first_player")[-1].text


def test_first_player_cash_tie_goes_to_least_debt(ruleset):
    game = to_auction(start_game(ruleset, 4))
    set_for_card(game, [0, 0, 0, 0], [12, 12, 12, 3], [20, 10, 30, 0])
    end_turn_now(game)
    assert game.state.first == 1
    assert "least debt" in events_of(game, "first_player")[-1].text


def test_a_full_first_player_tie_is_settled_by_a_logged_die_roll(ruleset):
    game = to_auction(start_game(ruleset, 3))
    set_for_card(game, [0, 0, 0], [10, 10, 10], [0, 0, 0])
    force_rolls(game, (6, 6), (2,), (5,), (5,), (1,), (4,))
    start = len(game.log)
    end_turn_now(game)
    assert game.state.first == 2
    rolls = events_of(game, "tie_roll", start)
    assert len(rolls) == 2 and all(e.chance for e in rolls)
    assert "rolls 5" in rolls[0].text and "rolls 4" in rolls[1].text


def test_first_player_tie_roll_follows_the_seed(ruleset):
    def tied_first(seed):
        game = to_auction(start_game(ruleset, 4, seed))
        set_for_card(game, [0] * 4, [10] * 4, [0] * 4)
        end_turn_now(game)
        return game.state.first

    firsts = [tied_first(seed) for seed in range(12)]
    assert firsts == [tied_first(seed) for seed in range(12)]
    assert len(set(firsts)) >= 2


# =============================================================== end of the game
def empty_link_supply(game):
    game.state.link_deck = []
    game.state.future = []


def test_the_game_goes_on_while_links_remain_to_offer(ruleset):
    game = to_auction(start_game(ruleset, 3))
    end_turn_now(game)
    assert not game.is_over() and game.state.turn == 2


def test_the_game_ends_after_the_turn_that_offers_the_last_links(ruleset):
    game = to_auction(start_game(ruleset, 3))
    empty_link_supply(game)
    while game.state.turn == 1 and not game.is_over():
        game.apply(quiet_action(game))
    assert game.is_over() and game.state.step is Step.OVER and game.state.turn == 1
    assert game.prompt() is None and game.legal_actions() == []
    assert game.result() is not None
    assert events_of(game, "game_over")


def test_an_unfinished_last_link_delays_the_end_by_one_turn(ruleset):
    game = to_auction(start_game(ruleset, 3))
    empty_link_supply(game)
    winner = win_first_auction(game, roll=(1, 1))
    game.apply(FinishLink(seat=winner, pay=False))
    play_until(game, lambda g: g.state.turn == 2)
    assert not game.is_over()
    while not game.is_over():
        assert game.state.turn == 2
        game.apply(quiet_action(game))
    assert "BOS-PRO" in game.state.built and game.state.turn == 2


def test_final_scoring_adds_link_values_and_repays_loans_with_service(ruleset):
    game = to_auction(start_game(ruleset, 3))
    empty_link_supply(game)
    give_links(game, {"BOS-LOW": 0, "PRO-KIN": 0, "HAR-NHV": 1})
    set_cubes(game, {})
    plan = [(17, 30), (4, 0), (3, 10)]  # (cash, debt) per seat
    for r, (cash, debt) in zip(game.state.railways, plan, strict=True):
        r.cash, r.debt, r.income = cash, debt, 0
    end_turn_now(game)
    assert game.is_over()
    values = [ruleset.link_value("BOS-LOW") + ruleset.link_value("PRO-KIN"), ruleset.link_value("HAR-NHV"), 0]
    expected = [cash + v - debt - debt // 5 for (cash, debt), v in zip(plan, values, strict=True)]
    result = game.result()
    assert [result.scores[p.name] for p in game.players] == expected
    assert [r.cash for r in game.state.railways] == expected
    assert all(r.debt == 0 for r in game.state.railways)
    parts = result.breakdown[game.players[0].name]
    assert parts == {"cash": 17, "link_values": values[0], "debt_owed": -30, "service": -6,
                     "total": expected[0]}


def test_the_richest_railway_wins(ruleset):
    game = to_auction(start_game(ruleset, 3))
    empty_link_supply(game)
    set_for_card(game, [0, 0, 0], [10, 11, 10], [0, 0, 0])
    end_turn_now(game)
    assert game.result().winners == [game.players[1].name]


def test_tied_railways_share_the_win(ruleset):
    game = to_auction(start_game(ruleset, 4))
    empty_link_supply(game)
    set_for_card(game, [0] * 4, [12, 9, 12, 12], [0] * 4)
    end_turn_now(game)
    names = [p.name for p in game.players]
    assert game.result().winners == [names[0], names[2], names[3]]
