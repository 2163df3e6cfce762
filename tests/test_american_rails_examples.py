"""The rulebook's worked examples, with the rulebook's numbers."""

from __future__ import annotations

import pytest
from american_rails_support import (
    clear_board,
    develop,
    events,
    fund,
    give,
    lay,
    make_ruleset,
    my_turn,
    quiet_prep,
    start_game,
)

from railgames.core.engine import Game
from railgames.games.american_rails.actions import (
    Develop,
    EndAction,
    Fund,
    OfferShare,
    PassBid,
    PlaceCube,
    TakeSpace,
    TakeTwo,
)
from railgames.games.american_rails.rules import AmericanRailsRules
from railgames.games.american_rails.state import Step


@pytest.fixture(scope="module")
def rules() -> AmericanRailsRules:
    return make_ruleset()


def prepared(rules: AmericanRailsRules, names: list[str] | int = 3, seed: int = 1) -> Game:
    game = quiet_prep(start_game(rules, names, seed))
    clear_board(game)
    return game


def test_majestic_dividend_19_over_3_shares_is_7_a_share(rules: AmericanRailsRules) -> None:
    # Majestic's income is $19; Rick holds 2 shares and Mary 1: $7 a share, Rick $14, Mary $7.
    game = prepared(rules, 4, seed=3)  # four players: Majestic is in every four-player game
    rick, mary = 0, 1
    state = game.state
    lay(game, "majestic", "NYC", "BAL", "CIN", "ALB")  # 8 + 5 + 4 + 3 = 20
    majestic = state.companies["majestic"]
    assert majestic.income == 20
    lay(game, "national", "ALB")  # Albany 3 -> 2: 19
    assert majestic.income == 19
    give(game, rick, "majestic", 2)
    give(game, mary, "majestic", 1)
    assert rules.dividend(state, "majestic") == 7
    before = [p.money for p in state.players]
    # End the round: the last player of the third action phase takes Pass.
    state.phase = 2
    state.columns = [{}, {}, {}]
    state.phase_order = [2]
    state.phase_pos = 0
    state.acting = 2
    game.apply(TakeSpace(seat=2, space="pass"))
    assert state.players[rick].money - before[rick] == 14
    assert state.players[mary].money - before[mary] == 7
    paid = [e for e in events(game, "dividend") if e.data["company"] == "majestic"]
    assert paid[-1].data["per_share"] == 7


def test_expand_3_example_costs_2_2_and_4(rules: AmericanRailsRules) -> None:
    # Rick holds 2 Majestic and 1 Republic. A blue cube on the empty plains next to
    # St. Louis ($2), another blue cube on another empty hex ($2), and a yellow cube in
    # the hex of the first blue one ($4: plains with one cube already).
    game = prepared(rules, ["Rick", "Mike", "Mary"], seed=2)
    state = game.state
    # The seed keeps both companies of the example in the three-player game.
    assert state.companies["majestic"].in_game and state.companies["republic"].in_game
    rick = 0
    give(game, rick, "majestic", 2)
    give(game, rick, "republic", 1)
    lay(game, "republic", "STL")
    lay(game, "majestic", (1, 8))  # a yellow cube next to [1, 7]
    fund(game, "republic", 10)
    fund(game, "majestic", 10)
    my_turn(game, rick)
    game.apply(TakeSpace(seat=rick, space="expand3"))
    assert state.step is Step.EXPAND
    game.apply(PlaceCube(seat=rick, company="republic", hex=(1, 7)))
    game.apply(PlaceCube(seat=rick, company="republic", hex=(0, 6)))
    game.apply(PlaceCube(seat=rick, company="majestic", hex=(1, 7)))
    costs = [e.data["cost"] for e in events(game, "place_cube")[-3:]]
    assert costs == [2, 2, 4]
    assert state.companies["republic"].treasury == 6
    assert state.companies["majestic"].treasury == 6
    assert state.step is Step.CHOOSE  # three cubes placed: the action is over


def test_cincinnati_with_a_cube_and_a_marker_costs_6(rules: AmericanRailsRules) -> None:
    # Continental's cube and a development marker in Cincinnati: an American cube costs
    # $2 for the city + $2 for the cube + $2 for the marker = $6.
    game = prepared(rules, ["Mary", "Rick", "Mike"], seed=5)
    state = game.state
    assert state.companies["continental"].in_game and state.companies["american"].in_game
    lay(game, "continental", "CIN")
    develop(game, "CIN")
    lay(game, "american", (5, 5))
    mary = 0
    give(game, mary, "american")
    fund(game, "american", 6)
    assert rules.cube_cost(state, rules.map.city_hex["CIN"]) == 6
    my_turn(game, mary)
    game.apply(TakeSpace(seat=mary, space="expand4"))
    game.apply(PlaceCube(seat=mary, company="american", hex=(6, 5)))
    assert events(game, "place_cube")[-1].data["cost"] == 6
    assert state.companies["american"].treasury == 0


def test_mike_develops_cincinnati_where_continental_runs(rules: AmericanRailsRules) -> None:
    game = prepared(rules, ["Rick", "Mike", "Mary"], seed=5)
    state = game.state
    assert state.companies["continental"].in_game
    lay(game, "continental", "CIN")
    income = state.companies["continental"].income
    mike = 1
    my_turn(game, mike)
    game.apply(TakeSpace(seat=mike, space="develop"))
    game.apply(Develop(seat=mike, city="CIN"))
    assert "CIN" in state.developed and state.dev_supply == 11
    assert state.companies["continental"].income == income + 2


def test_buffalo_liberty_gains_4_and_national_loses_2(rules: AmericanRailsRules) -> None:
    # National runs through developed Buffalo (4 / 3); Liberty builds there: Liberty +$4
    # ($3 shared + $1 development), National -$2 ($1 from full to shared, $1 of development).
    game = prepared(rules, 4, seed=1)
    state = game.state
    lay(game, "national", "BUF")
    develop(game, "BUF")
    assert state.companies["national"].income == 4 + 2
    lay(game, "liberty", (13, 1))
    seat = 0
    give(game, seat, "liberty")
    fund(game, "liberty", 10)
    my_turn(game, seat)
    game.apply(TakeSpace(seat=seat, space="expand3"))
    liberty_before = state.companies["liberty"].income
    game.apply(PlaceCube(seat=seat, company="liberty", hex=(12, 1)))
    assert state.companies["liberty"].income - liberty_before == 4
    assert state.companies["national"].income == 4
    assert events(game, "place_cube")[-1].data["income"] == {"liberty": 4, "national": -2}


def test_turn_order_example(rules: AmericanRailsRules) -> None:
    # Rick, Mike, Mary in turn order. Phase 1: Rick Expand 3, Mike Develop, Mary (Develop
    # blocked) Pass. Phase 2: Mary Develop, Mike Auction a share, Rick Fund $5. Phase 3:
    # Mary Fund $5, Rick Take $2, Mike Expand 4. Next turn order: Mary, Rick, Mike.
    game = prepared(rules, ["Rick", "Mike", "Mary"], seed=1)
    state = game.state
    rick, mike, mary = 0, 1, 2
    state.turn_order = [rick, mike, mary]
    state.phase_order = [rick, mike, mary]
    state.phase_pos = 0
    state.acting = rick
    lay(game, "american" if state.companies["american"].in_game else "national", "CIN")

    def act(seat: int, space: str) -> None:
        assert game.ruleset.to_move(state) == seat
        game.apply(TakeSpace(seat=seat, space=space))
        if state.step is Step.OFFER:
            game.apply(OfferShare(seat=seat, company=rules.offerable(state)[0]))
            while state.step is Step.BID:
                assert state.auction is not None
                game.apply(PassBid(seat=state.auction.to_act))
        elif state.step is Step.FUND:
            game.apply(Fund(seat=seat, company=state.company_list()[0].id))
        elif state.step is Step.TAKE:
            game.apply(TakeTwo(seat=seat, source="bank"))
        elif state.step is not Step.CHOOSE:
            game.apply(EndAction(seat=seat))

    act(rick, "expand3")
    act(mike, "develop")
    assert "develop" not in rules.free_spaces(state)  # Mary finds Develop blocked
    act(mary, "pass")
    assert state.phase == 1 and state.phase_order == [mary, mike, rick]
    act(mary, "develop")
    act(mike, "auction")
    act(rick, "fund")
    assert state.phase == 2 and state.phase_order == [mary, rick, mike]
    act(mary, "fund")
    act(rick, "take2")
    act(mike, "expand4")
    assert state.year == 1852
    assert state.turn_order == [mary, rick, mike]
    assert state.phase == 0 and state.acting == mary
