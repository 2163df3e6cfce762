"""The rulebook's worked examples, with their numbers."""

from __future__ import annotations

import pytest
from steel_driver_support import (
    arrange_final,
    begin_building,
    cheapest_build,
    check_invariants,
    control,
    events,
    give_shares,
    lay_track,
    make_ruleset,
    play_until,
    start_game,
)
from support import assert_refused, seat_of, to_move

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction
from railgames.games.steel_driver.actions import (
    Bid,
    BuildTrack,
    ClaimGoods,
    PassBid,
    PassMarker,
    PutUp,
)
from railgames.games.steel_driver.rules import SteelDriverRules, goods_sets, set_value
from railgames.games.steel_driver.state import SDState, Step


@pytest.fixture(scope="module")
def sd() -> SteelDriverRules:
    return make_ruleset()


# ---------------------------------------------------------------- the control auction
def test_don_puts_green_up_and_simon_wins_it_with_six_cubes(sd: SteelDriverRules) -> None:
    game = start_game(sd, ["Don", "Simon", "Richard", "Andy"])
    state: SDState = game.state
    don, simon = seat_of(game, "Don"), seat_of(game, "Simon")
    state.active = don
    game.apply(PutUp(seat=don, company="green"))
    game.apply(Bid(seat=don, amount=2))
    game.apply(Bid(seat=simon, amount=6))
    for name in ("Richard", "Andy", "Don"):
        game.apply(PassBid(seat=seat_of(game, name)))
    green = state.companies["green"]
    assert green.cubes == 6 and green.controller == simon
    assert state.players[simon].cubes == 8 - 6
    assert state.players[simon].shares == {"green": 1} and green.shares_left == 4
    assert state.players[don].cubes == 8  # the losing bid costs nothing
    # Don, who put green up, passes the marker to his left: Simon.
    assert state.step is Step.AUCTION and state.active == simon
    check_invariants(sd, state)


# ---------------------------------------------------------------- Andy's first build
def test_andy_builds_baltimore_pittsburgh_for_3_cubes_and_40_profit(sd: SteelDriverRules) -> None:
    game = start_game(sd, ["Andy", "Don", "Simon", "Richard"])
    state: SDState = game.state
    andy = seat_of(game, "Andy")
    state.active = andy
    game.apply(PutUp(seat=andy, company="red"))
    game.apply(Bid(seat=andy, amount=3))
    for name in ("Don", "Simon", "Richard"):
        game.apply(PassBid(seat=seat_of(game, name)))
    play_until(game, lambda g: g.state.step is Step.BUILD, lambda g: PassMarker(seat=to_move(g)))
    # In the first turn red is the first active company, and Andy decides for it.
    assert state.order[0] == "red" and to_move(game) == andy
    prompt = game.prompt()
    assert prompt is not None
    assert BuildTrack(seat=andy, company="red", route="BAL-PIT", start="BAL") in prompt.choices
    assert BuildTrack(seat=andy, company="red", route="BAL-PIT", start="PIT") not in prompt.choices
    # He could not start from Pittsburgh, so Baltimore's value is not his to take.
    assert_refused(game, BuildTrack(seat=andy, company="red", route="BAL-PIT", start="PIT"),
                   IllegalAction, "Pittsburgh is not a starting location")
    pool = state.pool
    game.apply(BuildTrack(seat=andy, company="red", route="BAL-PIT", start="BAL"))
    build = events(game, "build")[-1]
    assert build.data["cost"] == 3 and build.data["gain"] == 40
    assert state.companies["red"].cubes == 0
    # The three cubes went back to the pool (and the next turn's 4 x 8 came out of it).
    assert state.turn == 2 and state.pool == pool + 3 - 4 * 8
    assert state.companies["red"].start == "BAL"
    assert state.companies["red"].reached == ["BAL", "PIT"]
    profit = [e for e in events(game, "profit") if e.data["company"] == "red"]
    assert [(e.data["seat"], e.data["cash"]) for e in profit] == [(andy, 40)]
    assert state.players[andy].cash == 40
    check_invariants(sd, state)


# ---------------------------------------------------------------- green forced to pass
def test_green_with_one_cube_left_is_forced_to_pass_and_goes_first_next_turn(
        sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    order = ["green", "red", "blue", "yellow", "black", "purple"]
    for i, company in enumerate(order):
        control(game, company, i % 3, 5 if company == "green" else 10)
    begin_building(game, order)
    green = state.companies["green"]
    seat = green.controller
    assert seat is not None
    game.apply(BuildTrack(seat=seat, company="green", route="SFO-SAC", start="SFO"))
    play_until(game, lambda g: g.state.active_company() is green, cheapest_build)
    game.apply(BuildTrack(seat=seat, company="green", route="SAC-REN"))
    # Activated twice, two links built (1 + 3 cubes): one cube left, and every
    # route out of San Francisco, Sacramento or Reno costs more.
    assert len(green.links) == 2 and green.cubes == 1
    play_until(game, lambda g: bool(g.state.passed), cheapest_build)
    assert state.passed == ["green"]
    passing = events(game, "pass_company")[0]
    assert passing.data == {"company": "green", "position": 1}
    assert "1 cube" in passing.text
    # The marker had gone round the other five a second time since green's last link.
    builds = [e.data["company"] for e in events(game, "build")]
    assert builds[-6:] == ["green", "red", "blue", "yellow", "black", "purple"]
    play_until(game, lambda g: g.state.turn == 2)
    assert state.order[0] == "green"  # first to pass, first to build next turn
    assert green.cubes == 1  # its last cube stays in its box
    check_invariants(sd, state)


# ---------------------------------------------------------------- the transcontinental link
# Green's line from San Francisco reaches Denver. Yellow's and black's tracks
# each go from Omaha to Chicago in three links; black's also from Kansas City
# in three, purple's from Kansas City in four; red's runs from Chicago to
# Buffalo and on to New York; blue's goes from New York round by Albany and
# Syracuse to Buffalo.
GREEN = ("SFO", ["SFO-SAC", "SAC-REN", "REN-SLC", "SLC-DEN"])
YELLOW = ("CHI", ["DBQ-CHI", "CRA-DBQ", "OMA-CRA"])
BLACK = ("CHI", ["DAV-CHI", "DSM-DAV", "OMA-DSM", "KCY-DSM"])
PURPLE = ("CHI", ["PEO-CHI", "PEO-SPI", "SPI-STL", "KCY-STL"])
RED_TO_BUFFALO = ("CHI", ["CHI-TOL", "TOL-CLE", "CLE-BUF"])
BLUE = ("NYC", ["ALB-NYC", "SYR-ALB", "BUF-SYR"])
PLAYERS = {"green": "Ann", "red": "Bob", "yellow": "Cat", "black": "Dan", "purple": "Eve",
           "blue": "Fay"}


def transcontinental_position(sd: SteelDriverRules, buffalo_new_york: str) -> Game:
    """Green to move with five cubes; ``buffalo_new_york`` names who built that route."""
    game = start_game(sd, 6)
    for company, (start, routes) in (("green", GREEN), ("yellow", YELLOW), ("black", BLACK),
                                     ("purple", PURPLE), ("red", RED_TO_BUFFALO), ("blue", BLUE)):
        lay_track(game, company, routes, start)
    start = "CHI" if buffalo_new_york == "red" else "NYC"
    lay_track(game, buffalo_new_york, ["BUF-NYC"], start)
    for company, name in PLAYERS.items():
        control(game, company, seat_of(game, name), 5 if company == "green" else 0)
    begin_building(game, ["green"])
    return game


def profits_taken(game: Game) -> dict[str, int]:
    return {e.data["company"]: e.data["cash"] for e in events(game, "profit")}


def test_denver_omaha_gives_green_50_and_red_yellow_and_black_30(sd: SteelDriverRules) -> None:
    game = transcontinental_position(sd, buffalo_new_york="red")
    prompt = game.prompt()
    assert prompt is not None
    offered = {a.route for a in prompt.choices}
    assert {"DEN-OMA", "DEN-KCY"} <= offered  # five cubes buy either
    game.apply(BuildTrack(seat=seat_of(game, "Ann"), company="green", route="DEN-OMA"))
    link = events(game, "transcontinental")[0]
    assert link.data["company"] == "green"
    # Yellow's and black's tracks from Omaha to Chicago are equally long: both share.
    assert sorted(link.data["others"]) == ["black", "red", "yellow"]
    omaha = sd.value("OMA")
    assert profits_taken(game) == {"green": 50 + omaha, "red": 30, "yellow": 30, "black": 30}
    assert game.state.transcontinental["builder"] == "green"
    check_invariants(sd, game.state)


def test_denver_kansas_city_gives_green_50_and_red_and_black_30(sd: SteelDriverRules) -> None:
    game = transcontinental_position(sd, buffalo_new_york="red")
    game.apply(BuildTrack(seat=seat_of(game, "Ann"), company="green", route="DEN-KCY"))
    link = events(game, "transcontinental")[0]
    # Purple could join Kansas City to Chicago too, but in four links to black's three.
    assert sorted(link.data["others"]) == ["black", "red"]
    assert profits_taken(game) == {"green": 50 + sd.value("KCY"), "red": 30, "black": 30}


def test_blues_longer_way_round_earns_nothing(sd: SteelDriverRules) -> None:
    game = transcontinental_position(sd, buffalo_new_york="red")
    game.apply(BuildTrack(seat=seat_of(game, "Ann"), company="green", route="DEN-OMA"))
    assert "blue" not in events(game, "transcontinental")[0].data["others"]
    assert "blue" not in profits_taken(game) and "purple" not in profits_taken(game)


def test_had_blue_built_buffalo_new_york_blue_red_yellow_and_black_would_share(
        sd: SteelDriverRules) -> None:
    game = transcontinental_position(sd, buffalo_new_york="blue")
    game.apply(BuildTrack(seat=seat_of(game, "Ann"), company="green", route="DEN-OMA"))
    link = events(game, "transcontinental")[0]
    assert sorted(link.data["others"]) == ["black", "blue", "red", "yellow"]
    assert profits_taken(game) == {"green": 50 + sd.value("OMA"), "red": 30, "yellow": 30,
                                   "black": 30, "blue": 30}


# ---------------------------------------------------------------- the final control tie-break
@pytest.mark.parametrize("last, expected", [("Richard", "Don"), ("Simon", "Simon")])
def test_don_takes_green_from_the_tie_unless_simon_controlled_it_last(
        sd: SteelDriverRules, last: str, expected: str) -> None:
    # Don sits to the left of Richard.
    game = start_game(sd, ["Andy", "Richard", "Don", "Simon"])
    state: SDState = game.state
    lay_track(game, "red", ["BAL-PIT"], "BAL")
    lay_track(game, "green", ["SFO-SAC"], "SFO")
    give_shares(game, seat_of(game, "Andy"), {"red": 3})
    give_shares(game, seat_of(game, "Don"), {"green": 2})
    give_shares(game, seat_of(game, "Simon"), {"green": 2})
    give_shares(game, seat_of(game, "Richard"), {"green": 1})
    state.companies["red"].last_controller = seat_of(game, "Andy")
    state.companies["green"].last_controller = seat_of(game, last)
    arrange_final(game)
    chosen = {e.data["company"]: game.players[e.data["seat"]].name
              for e in events(game, "final_control")}
    assert chosen == {"red": "Andy", "green": expected}
    assert sd.final_controller(state, "green") == seat_of(game, expected)


# ---------------------------------------------------------------- the yellow company's sets
def test_the_yellow_goods_make_four_sets_worth_150(sd: SteelDriverRules) -> None:
    goods = {"black": 4, "white": 2, "orange": 1, "silver": 1}
    assert sorted(len(s) for s in goods_sets(goods)) == [1, 1, 2, 4]
    assert set_value(goods) == 100 + 30 + 10 + 10 == 150


def test_each_yellow_share_pays_150(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    # San Francisco (white), Sacramento (orange), Reno (silver).
    lay_track(game, "yellow", ["SFO-SAC", "SAC-REN"], "SFO")
    give_shares(game, 0, {"yellow": 2})
    give_shares(game, 1, {"yellow": 1})
    state.companies["yellow"].last_controller = 0
    arrange_final(game, order=["yellow"])
    assert state.step is Step.CLAIM and state.goods_on == {"SFO": "white", "SAC": "orange",
                                                           "REN": "silver"}
    # Arranged: yellow already holds four black cubes and a white one from elsewhere.
    state.companies["yellow"].goods = {"black": 4, "white": 1}
    state.pool -= 5
    cash = [p.cash for p in state.players]
    for loc in ("SFO", "SAC", "REN"):
        game.apply(ClaimGoods(seat=0, company="yellow", location=loc))
    assert state.step is Step.OVER
    assert state.companies["yellow"].final_profit == 150
    assert "$100 + $30 + $10 + $10 = $150" in events(game, "final_profit")[0].text
    assert [p.cash - before for p, before in zip(state.players, cash, strict=True)] == [300, 150, 0]
    check_invariants(sd, state)
