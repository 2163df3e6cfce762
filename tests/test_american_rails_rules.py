"""American Rails: one test per rule, named after the rule."""

from __future__ import annotations

import typing

import pytest
from american_rails_support import (
    COMPANIES,
    clear_board,
    events,
    fund,
    give,
    lay,
    make_ruleset,
    quiet_prep,
    set_money,
    start_game,
)
from support import modules_imported_from

from railgames.core.engine import Game
from railgames.core.phases import by_action
from railgames.games.american_rails.actions import (
    AmericanRailsAction,
    Bid,
    Develop,
    EndAction,
    ExpandTwo,
    Fund,
    OfferShare,
    PassBid,
    PlaceCube,
    PlaceStart,
    TakeSpace,
    TakeTwo,
)
from railgames.games.american_rails.rules import SPACE_IDS, AmericanRailsRules
from railgames.games.american_rails.state import Step


@pytest.fixture(scope="module")
def rules() -> AmericanRailsRules:
    return make_ruleset()


def prepared(rules: AmericanRailsRules, players: int = 4, seed: int = 1) -> Game:
    game = quiet_prep(start_game(rules, players, seed))
    clear_board(game)
    return game


# ------------------------------------------------------------ set-up
@pytest.mark.parametrize(("players", "money"), [(3, 50), (4, 50), (5, 40)])
def test_starting_money(rules: AmericanRailsRules, players: int, money: int) -> None:
    game = start_game(rules, players)
    assert [p.money for p in game.state.players] == [money] * players


def test_three_players_remove_one_company_drawn_from_the_seed(rules: AmericanRailsRules) -> None:
    removed = set()
    for seed in range(12):
        game = start_game(rules, 3, seed)
        out = [c.id for c in game.state.companies.values() if not c.in_game]
        assert len(out) == 1
        c = game.state.companies[out[0]]
        assert c.shares_left == 0 and c.supply == 0
        assert out == [c.id for c in start_game(rules, 3, seed).state.companies.values()
                       if not c.in_game]
        removed.add(out[0])
    assert len(removed) > 1
    assert all(c.in_game for c in start_game(rules, 4).state.companies.values())


def test_one_cube_of_each_company_on_income_zero(rules: AmericanRailsRules) -> None:
    state = start_game(rules, 4).state
    for c in state.companies.values():
        assert c.income == 0 and c.supply == c.cubes - 1 and c.treasury == 0


def test_twelve_development_markers_and_the_year_1851(rules: AmericanRailsRules) -> None:
    state = start_game(rules, 4).state
    assert state.dev_supply == 12 and state.year == 1851


# ------------------------------------------------------------ the preparation round
def test_the_banker_picks_the_first_share_and_bids_first(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == 0 and game.state.step is Step.OFFER
    assert {a.company for a in prompt.choices} == set(COMPANIES)
    game.apply(OfferShare(seat=0, company="liberty"))
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == 0 and prompt.amount is not None
    assert prompt.amount.min == 10


def test_auction_goes_clockwise_and_a_pass_is_final(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    state = game.state
    game.apply(OfferShare(seat=0, company="liberty"))
    game.apply(Bid(seat=0, amount=10))
    game.apply(PassBid(seat=1))
    game.apply(Bid(seat=2, amount=12))
    game.apply(Bid(seat=3, amount=13))
    assert game.ruleset.to_move(state) == 0  # seat 1 passed and is skipped
    game.apply(PassBid(seat=0))
    game.apply(PassBid(seat=2))
    # Seat 3 is the last bidder left: it buys the share and pays the company.
    assert state.step is Step.START and state.acting == 3
    assert state.players[3].money == 50 - 13
    assert state.companies["liberty"].treasury == 13
    assert state.players[3].shares == {"liberty": 1}


def test_the_winner_starts_the_company_on_an_empty_city_at_full_value(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    state = game.state
    game.apply(OfferShare(seat=0, company="liberty"))
    game.apply(Bid(seat=0, amount=10))
    for s in (1, 2, 3):
        game.apply(PassBid(seat=s))
    game.apply(PlaceStart(seat=0, city="NYC"))
    liberty = state.companies["liberty"]
    assert liberty.income == 8 and liberty.hexes == [rules.map.city_hex["NYC"]]
    assert state.turn_order == [0]
    # The winner picks the next company; New York is no longer empty.
    assert state.step is Step.OFFER and state.acting == 0
    assert "liberty" not in rules.offerable(state)
    game.apply(OfferShare(seat=0, company="american"))
    game.apply(PassBid(seat=0))
    game.apply(Bid(seat=1, amount=10))
    for s in (2, 3):
        game.apply(PassBid(seat=s))
    assert "NYC" not in rules.empty_cities(state)


def test_an_unsold_share_is_removed_and_the_last_passer_picks_next(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    state = game.state
    game.apply(OfferShare(seat=0, company="republic"))
    for s in (0, 1, 2, 3):
        game.apply(PassBid(seat=s))
    republic = state.companies["republic"]
    assert republic.shares_removed == 1 and republic.shares_left == 2
    assert not republic.on_map
    assert state.step is Step.OFFER and state.acting == 3


def test_players_without_shares_take_the_last_turn_order_spaces(rules: AmericanRailsRules) -> None:
    game = start_game(rules, 4)
    state = game.state
    # Seat 2 wins the first share, then every other share goes unsold.
    game.apply(OfferShare(seat=0, company="american"))
    game.apply(PassBid(seat=0))
    game.apply(PassBid(seat=1))
    game.apply(Bid(seat=2, amount=10))
    game.apply(PassBid(seat=3))
    game.apply(PlaceStart(seat=2, city="ATL"))
    while state.prep:
        prompt = game.prompt()
        assert prompt is not None
        if state.step is Step.OFFER:
            game.apply(prompt.choices[0])
        else:
            game.apply(PassBid(seat=prompt.seat))
    assert state.turn_order == [2, 0, 1, 3]
    assert state.step is Step.CHOOSE and state.acting == 2 and state.year == 1851


# ------------------------------------------------------------ the action track
def test_a_taken_space_is_blocked_for_the_rest_of_the_column(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    first = game.state.acting
    game.apply(TakeSpace(seat=first, space="pass"))
    assert "pass" not in rules.free_spaces(game.state)
    assert len(rules.free_spaces(game.state)) == len(SPACE_IDS) - 1


def test_later_columns_go_in_the_order_of_the_markers_above(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    order = list(state.turn_order)
    spaces = ["expand4", "fund", "pass", "take2"]
    for seat, space in zip(order, spaces, strict=True):
        game.apply(TakeSpace(seat=seat, space=space))
        if state.step is not Step.CHOOSE:
            game.apply(EndAction(seat=seat))
    assert state.phase == 1
    assert state.phase_order == [order[2], order[1], order[3], order[0]]


def test_a_player_may_leave_the_chosen_action_undone(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    money = state.players[seat].money
    game.apply(TakeSpace(seat=seat, space="take2"))
    game.apply(EndAction(seat=seat))
    assert state.players[seat].money == money and state.acting != seat


def test_the_last_column_sets_the_next_turn_order_and_the_year_advances(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    third: dict[str, int] = {}
    while state.year == 1851:
        seat = state.acting
        # Columns one and two: the lowest free space; column three: the highest.
        free = rules.free_spaces(state)
        space = free[0] if state.phase == 2 else free[-1]
        if state.phase == 2:
            third[space] = seat
        game.apply(TakeSpace(seat=seat, space=space))
        if state.step is not Step.CHOOSE:
            game.apply(EndAction(seat=seat))
    expected = [third[s] for s in SPACE_IDS if s in third]
    assert state.year == 1852
    assert state.turn_order == expected and state.phase_order == expected
    assert events(game, "turn_order_new")[-1].data["order"] == expected


# ------------------------------------------------------------ the actions
def test_pass_does_nothing(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    money = [p.money for p in state.players]
    game.apply(TakeSpace(seat=seat, space="pass"))
    assert [p.money for p in state.players] == money and state.step is Step.CHOOSE


def test_develop_alone_adds_2_shared_adds_1_each(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    lay(game, "american", "PIT")
    lay(game, "national", "CLE")
    lay(game, "majestic", "CLE")
    seat = state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    game.apply(Develop(seat=seat, city="PIT"))
    assert state.companies["american"].income == 5 + 2
    seat = state.acting
    game.apply(TakeSpace(seat=seat, space="fund"))
    game.apply(EndAction(seat=seat))
    state.columns[state.phase].pop("develop")  # free the space again for the second develop
    seat = state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    game.apply(Develop(seat=seat, city="CLE"))
    assert state.companies["national"].income == 2 + 1
    assert state.companies["majestic"].income == 2 + 1
    assert state.dev_supply == 10


def test_the_five_cities_are_never_offered_for_development(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "NYC", "BAL", "PHI", "BOS", "CHI", "PIT")
    assert rules.developable(game.state) == ["PIT"]


def test_develop_ends_at_once_when_no_city_can_be_developed(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    game.apply(TakeSpace(seat=seat, space="develop"))
    assert state.step is Step.CHOOSE and state.acting != seat
    assert events(game, "end_action")[-1].data["forced"] is True


def test_no_marker_left_means_no_development(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "PIT")
    game.state.dev_supply = 0
    game.state.developed = {c.id for c in rules.map.cities[:12] if not c.never_develop}
    assert rules.developable(game.state) == []


def test_fund_5_goes_from_the_bank_to_a_treasury(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    before = state.companies["liberty"].treasury
    game.apply(TakeSpace(seat=seat, space="fund"))
    game.apply(Fund(seat=seat, company="liberty"))
    assert state.companies["liberty"].treasury == before + 5


def test_take_2_from_the_bank(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    money = state.players[seat].money
    game.apply(TakeSpace(seat=seat, space="take2"))
    game.apply(TakeTwo(seat=seat, source="bank"))
    assert state.players[seat].money == money + 2


def test_take_2_from_each_other_player_goes_to_the_bank(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    others = [s for s in range(4) if s != seat]
    set_money(game, others[0], 1)
    before = [p.money for p in state.players]
    game.apply(TakeSpace(seat=seat, space="take2"))
    game.apply(TakeTwo(seat=seat, source="players"))
    after = [p.money for p in state.players]
    assert after[seat] == before[seat]
    assert after[others[0]] == 0  # pays what it has
    assert after[others[1]] == before[others[1]] - 2 and after[others[2]] == before[others[2]] - 2


def test_expand_2_instead_of_take_2_at_four_players(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    give(game, seat, "american")
    lay(game, "american", "PIT")
    fund(game, "american", 20)
    game.apply(TakeSpace(seat=seat, space="take2"))
    game.apply(ExpandTwo(seat=seat))
    assert state.step is Step.EXPAND and state.expand_left == 2
    game.apply(PlaceCube(seat=seat, company="american", hex=(10, 4)))
    game.apply(PlaceCube(seat=seat, company="american", hex=(10, 3)))
    assert state.step is Step.CHOOSE and len(state.companies["american"].hexes) == 3


def test_auction_a_share_of_a_new_company_starts_it_on_an_empty_city(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    set_money(game, seat, 50)
    game.apply(TakeSpace(seat=seat, space="auction"))
    game.apply(OfferShare(seat=seat, company="republic"))
    game.apply(Bid(seat=seat, amount=10))
    while state.step is Step.BID:
        assert state.auction is not None
        game.apply(PassBid(seat=state.auction.to_act))
    assert state.step is Step.START
    game.apply(PlaceStart(seat=seat, city="ATL"))
    assert state.companies["republic"].income == 5
    assert state.companies["republic"].treasury >= 10
    assert state.step is Step.CHOOSE and state.acting != seat


def test_auction_without_an_empty_city_removes_the_companys_shares(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    for city in rules.map.cities:
        lay(game, "american", city.id)
    seat = state.acting
    set_money(game, seat, 50)
    money = state.players[seat].money
    game.apply(TakeSpace(seat=seat, space="auction"))
    game.apply(OfferShare(seat=seat, company="republic"))
    game.apply(Bid(seat=seat, amount=10))
    while state.step is Step.BID:
        assert state.auction is not None
        game.apply(PassBid(seat=state.auction.to_act))
    republic = state.companies["republic"]
    assert republic.shares_left == 0 and republic.shares_removed == republic.shares
    assert state.players[seat].money == money and not state.players[seat].shares.get("republic")


def test_an_unsold_share_in_an_action_phase_leaves_the_game(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    seat = state.acting
    game.apply(TakeSpace(seat=seat, space="auction"))
    game.apply(OfferShare(seat=seat, company="national"))
    while state.step is Step.BID:
        assert state.auction is not None
        game.apply(PassBid(seat=state.auction.to_act))
    assert state.companies["national"].shares_removed == 1


# ------------------------------------------------------------ expanding
def expanding(rules: AmericanRailsRules, company: str = "american", where: str = "STL",
              treasury: int = 30) -> tuple[Game, int]:
    game = prepared(rules)
    seat = game.state.acting
    give(game, seat, company)
    lay(game, company, where)
    fund(game, company, treasury)
    game.apply(TakeSpace(seat=seat, space="expand4"))
    return game, seat


def test_cubes_go_next_to_a_cube_of_their_colour(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    placed = {a.hex for a in rules.legal_placements(game.state, seat)}
    assert placed == {(2, 6), (1, 5), (0, 5), (0, 6), (0, 7), (1, 7)}


def test_a_cube_placed_in_this_action_counts_for_adjacency(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    game.apply(PlaceCube(seat=seat, company="american", hex=(1, 7)))
    game.apply(PlaceCube(seat=seat, company="american", hex=(2, 8)))
    assert len(game.state.companies["american"].hexes) == 3


@pytest.mark.parametrize(("hex_", "cost"), [((1, 7), 2), ((2, 6), 3)])
def test_terrain_costs_plains_2_forest_3(rules: AmericanRailsRules, hex_: tuple[int, int], cost: int) -> None:
    game, seat = expanding(rules)
    game.apply(PlaceCube(seat=seat, company="american", hex=hex_))
    assert game.state.companies["american"].treasury == 30 - cost


def test_a_mountain_costs_5(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules, where="PIT")
    game.apply(PlaceCube(seat=seat, company="american", hex=(12, 4)))
    assert game.state.companies["american"].treasury == 25


def test_a_city_costs_2_plus_2_per_cube(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    lay(game, "national", "MEM")
    lay(game, "majestic", "MEM")
    lay(game, "american", (1, 9))  # next to Memphis
    game.apply(PlaceCube(seat=seat, company="american", hex=(1, 10)))
    assert events(game, "place_cube")[-1].data["cost"] == 2 + 2 * 2


def test_plains_cost_2_plus_2_per_cube(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    lay(game, "national", (1, 7))
    lay(game, "majestic", (1, 7))
    game.apply(PlaceCube(seat=seat, company="american", hex=(1, 7)))
    assert events(game, "place_cube")[-1].data["cost"] == 6


def test_up_to_the_actions_number_of_cubes_and_stopping_early(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    state = game.state
    for h in [(1, 7), (0, 6), (0, 5)]:
        game.apply(PlaceCube(seat=seat, company="american", hex=h))
    assert state.step is Step.EXPAND and state.expand_left == 1
    game.apply(EndAction(seat=seat))
    assert state.step is Step.CHOOSE and len(state.companies["american"].hexes) == 4


def test_cubes_of_one_action_may_be_of_different_companies(rules: AmericanRailsRules) -> None:
    game, seat = expanding(rules)
    give(game, seat, "national")
    lay(game, "national", "ATL")
    fund(game, "national", 10)
    game.apply(PlaceCube(seat=seat, company="american", hex=(1, 7)))
    game.apply(PlaceCube(seat=seat, company="national", hex=(7, 13)))
    assert len(game.state.companies["national"].hexes) == 2


def test_expand_ends_when_no_cube_can_be_placed(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    seat = game.state.acting
    game.apply(TakeSpace(seat=seat, space="expand3"))  # no shares: nothing to place
    assert game.state.step is Step.CHOOSE and game.state.acting != seat


# ------------------------------------------------------------ income
def test_first_company_full_second_shared_and_first_cut_third_shared(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    companies = game.state.companies
    lay(game, "american", "PIT")
    assert companies["american"].income == 5
    lay(game, "national", "PIT")
    assert companies["national"].income == 3 and companies["american"].income == 3
    lay(game, "majestic", "PIT")
    assert companies["majestic"].income == 3 and companies["american"].income == 3
    assert companies["national"].income == 3


def test_special_connections_pay_10_once_per_pair_and_20_for_the_third_city(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    american = game.state.companies["american"]
    lay(game, "american", "CHI")
    assert american.income == 7
    lay(game, "american", "NYC")
    assert american.income == 7 + 8 + 10
    lay(game, "american", "PIT")
    assert american.income == 7 + 8 + 5 + 10  # no second bonus for the same pair
    lay(game, "american", (7, 13))
    seat = game.state.acting
    give(game, seat, "american")
    fund(game, "american", 10)
    game.apply(TakeSpace(seat=seat, space="expand3"))
    game.apply(PlaceCube(seat=seat, company="american", hex=(7, 12)))
    assert american.income == 7 + 8 + 5 + 5 + 30
    assert len(events(game, "special")) == 2
    assert sorted(american.specials) == sorted(rules.map.special_pairs)


# ------------------------------------------------------------ dividends
def end_round(game: Game) -> None:
    """Finish the current round with every player taking Pass or the first free space."""
    state = game.state
    year = state.year
    while state.year == year and state.step is not Step.OVER:
        seat = state.acting
        game.apply(TakeSpace(seat=seat, space=game.ruleset.free_spaces(state)[0]))  # type: ignore[attr-defined]
        if state.step not in (Step.CHOOSE, Step.OVER):
            game.apply(EndAction(seat=seat))


def test_dividends_round_up_and_ignore_unsold_shares(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    lay(game, "american", "PIT", "CIN")  # income 9
    give(game, 0, "american", 1)
    give(game, 1, "american", 1)  # 2 of 5 shares held: 9 / 2 = 4.5 -> 5 a share
    before = [p.money for p in state.players]
    end_round(game)
    assert state.players[0].money - before[0] == 5
    assert state.players[1].money - before[1] == 5
    assert state.history[-1][0][0] == 5


def test_a_company_without_held_shares_pays_nothing(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    lay(game, "american", "PIT")
    assert rules.dividend(game.state, "american") == 0


# ------------------------------------------------------------ the end
def test_the_game_ends_after_the_dividends_of_1857(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    state.year = 1857
    end_round(game)
    assert state.step is Step.OVER and state.end_reason == "the year is 1857"
    assert game.result() is not None


def test_the_game_ends_when_every_share_is_sold_or_removed(rules: AmericanRailsRules) -> None:
    game = prepared(rules)
    state = game.state
    for c in state.company_list():
        c.shares_removed += c.shares_left
        c.shares_left = 0
    end_round(game)
    assert state.step is Step.OVER and state.year == 1851
    assert state.end_reason == "every share has been sold or removed"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_game_ends_when_as_many_supplies_as_players_are_low(rules: AmericanRailsRules, players: int) -> None:
    game = prepared(rules, players)
    state = game.state
    companies = state.company_list()
    for c in companies[:players - 1]:
        c.cubes -= c.supply - 2  # as if the cubes were out of the game: only the count matters
        c.supply = 2
    end_round(game)
    assert state.step is not Step.OVER  # one supply short
    state.dev_supply = 2
    state.developed = {c.id for c in rules.map.cities if not c.never_develop}
    for city in list(state.developed):
        if not state.hexes.get(rules.map.city_hex[city]):
            state.developed.discard(city)
    end_round(game)
    assert state.step is Step.OVER and state.end_reason.startswith(f"{players} supplies")


def test_most_money_wins_and_ties_share(rules: AmericanRailsRules) -> None:
    game = prepared(rules, 3)
    state = game.state
    state.year = 1857
    for seat, money in enumerate([60, 60, 20]):
        set_money(game, seat, money)
    end_round(game)
    result = game.result()
    assert result is not None
    assert result.scores == {"Ann": 60, "Bob": 60, "Cat": 20}
    assert result.winners == ["Ann", "Bob"]
    for name, parts in result.breakdown.items():
        assert parts["total"] == result.scores[name]


# ---------------------------------------------------------------- how the rules are built
def test_every_action_is_taken_by_exactly_one_phase(rules: AmericanRailsRules) -> None:
    """Each kind of action is listed, checked and carried out by the one phase that takes it."""
    union = typing.get_args(typing.get_args(AmericanRailsAction)[0])
    taken = by_action([rules.auction, rules.track, rules.expand])
    assert set(taken) == set(union)
    for kind, phase in taken.items():
        assert kind in type(phase).actions


def test_the_bots_read_the_rules_without_importing_them() -> None:
    """The rules name their bots; the bots reach the rules only through AmericanRailsBase,
    so the rules module and the bots do not import each other."""
    reached = modules_imported_from("railgames.games.american_rails.bots")
    assert "railgames.games.american_rails.common.AmericanRailsBase" in reached
    assert not any(name.startswith("railgames.games.american_rails.rules") for name in reached)
    assert "railgames.games.american_rails.bots" in modules_imported_from(
        "railgames.games.american_rails.rules")
