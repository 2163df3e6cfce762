"""One focused test per rule of Steel Driver."""

from __future__ import annotations

import pytest
from steel_driver_support import (
    COMPANIES,
    TOTAL_CUBES,
    arrange_final,
    begin_building,
    check_invariants,
    control,
    events,
    give_shares,
    lay_track,
    make_ruleset,
    pass_auctions,
    play_until,
    quiet_action,
    set_cubes,
    start_game,
)
from support import to_move

from railgames.core.engine import Game
from railgames.core.events import SETUP
from railgames.games.steel_driver.actions import (
    ACTION_ADAPTER,
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


def next_turn(game: Game) -> None:
    turn = game.state.turn
    play_until(game, lambda g: g.state.turn > turn or g.is_over())


def auction(game: Game, company: str, winner: int, bid: int) -> None:
    """The marker's holder puts ``company`` up; ``winner`` bids ``bid``; everyone else passes."""
    state: SDState = game.state
    opener = state.active
    game.apply(PutUp(seat=opener, company=company))
    game.apply(Bid(seat=opener, amount=bid if winner == opener else 1))
    while state.step is Step.BIDDING:
        seat = to_move(game)
        if seat == winner and state.auction and state.auction.high_seat != winner:
            game.apply(Bid(seat=seat, amount=bid))
        else:
            game.apply(PassBid(seat=seat))


# ---------------------------------------------------------------- set-up and cubes
def test_set_up_draws_who_holds_the_marker_and_lines_up_the_companies(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4, seed=3)
    state: SDState = game.state
    drawn = [e for e in game.log if e.kind == "active_player"]
    assert len(drawn) == 1 and drawn[0].chance and drawn[0].action == SETUP
    assert state.active == drawn[0].data["seat"]
    assert state.order == COMPANIES and state.turn == 1 and state.step is Step.AUCTION
    assert all(c.shares_left == 5 and c.cubes == 0 for c in state.companies.values())
    assert all(p.cash == 0 and p.shares == {} for p in state.players)


@pytest.mark.parametrize("players, each", [(3, 10), (4, 8), (5, 7), (6, 6)])
def test_each_player_takes_cubes_by_the_number_of_players(sd: SteelDriverRules, players: int,
                                                          each: int) -> None:
    state: SDState = start_game(sd, players).state
    assert [p.cubes for p in state.players] == [each] * players
    assert state.pool == TOTAL_CUBES - each * players


def test_players_keep_their_cubes_from_turn_to_turn(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4)
    next_turn(game)
    assert [p.cubes for p in game.state.players] == [16] * 4


def test_goods_cubes_stand_in_when_the_white_cubes_run_out(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4)
    assert not events(game, "stand_ins")
    next_turn(game)  # 64 cubes in hand: four more than the 60 white ones
    assert [e.data["count"] for e in events(game, "stand_ins")] == [4]
    assert sd.stand_ins(game.state) == 4 and game.state.pool == TOTAL_CUBES - 64


def test_an_empty_pool_hands_out_what_is_left_one_at_a_time(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    next_turn(game)
    next_turn(game)  # 60 cubes in hand; 26 left for 3 x 10
    state: SDState = game.state
    given = events(game, "take_cubes")[-1].data["given"]
    first = state.active
    assert sum(given) == 26 and state.pool == 0
    assert [given[(first + i) % 3] for i in range(3)] == [9, 9, 8]
    next_turn(game)
    assert events(game, "take_cubes")[-1].data["given"] == [0, 0, 0]
    check_invariants(sd, state)


# ---------------------------------------------------------------- auctions
def test_the_marker_holder_puts_a_company_up_or_passes_the_marker(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == game.state.active
    seat = prompt.seat
    assert prompt.choices == [*(PutUp(seat=seat, company=c) for c in COMPANIES),
                              PassMarker(seat=seat)]


def test_putting_a_company_up_means_opening_the_bidding_at_one_or_more(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    seat = game.state.active
    game.apply(PutUp(seat=seat, company="blue"))
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == seat and prompt.choices == []
    assert prompt.amount is not None
    assert (prompt.amount.action_type, prompt.amount.min, prompt.amount.max) == ("bid", 1, 10)


def test_bidding_goes_clockwise_and_a_player_who_passes_is_out(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4)
    state: SDState = game.state
    a = state.active
    s1, s2, s3 = ((a + i) % 4 for i in (1, 2, 3))
    game.apply(PutUp(seat=a, company="red"))
    game.apply(Bid(seat=a, amount=2))
    assert to_move(game) == s1
    game.apply(Bid(seat=s1, amount=3))
    assert to_move(game) == s2
    game.apply(PassBid(seat=s2))
    assert to_move(game) == s3
    game.apply(Bid(seat=s3, amount=4))
    assert to_move(game) == a
    game.apply(PassBid(seat=a))
    assert to_move(game) == s1  # s2 passed earlier and is not asked again
    game.apply(PassBid(seat=s1))
    red = state.companies["red"]
    assert red.controller == s3 and red.cubes == 4
    assert state.players[s3].cubes == 8 - 4 and state.players[s3].shares == {"red": 1}
    assert [p.cubes for i, p in enumerate(state.players) if i != s3] == [8, 8, 8]
    # The marker goes to the left of the player who put red up, not of the winner.
    assert state.step is Step.AUCTION and state.active == s1


def test_a_bid_is_at_most_the_cubes_held_and_beats_the_last(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    a = game.state.active
    game.apply(PutUp(seat=a, company="red"))
    game.apply(Bid(seat=a, amount=4))
    prompt = game.prompt()
    assert prompt is not None and prompt.amount is not None
    assert (prompt.amount.min, prompt.amount.max) == (5, 10)
    assert prompt.choices == [PassBid(seat=(a + 1) % 3)]


def test_a_company_is_auctioned_at_most_once_a_turn(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    auction(game, "red", game.state.active, 2)
    prompt = game.prompt()
    assert prompt is not None
    offered = [a.company for a in prompt.choices if isinstance(a, PutUp)]
    assert "red" not in offered and len(offered) == 5
    next_turn(game)
    prompt = game.prompt()
    assert prompt is not None
    assert "red" in [a.company for a in prompt.choices if isinstance(a, PutUp)]


def test_the_auctions_end_when_every_player_passes_in_turn(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4)
    state: SDState = game.state
    opener = state.active
    auction(game, "green", (opener + 2) % 4, 3)
    for _ in range(3):
        game.apply(PassMarker(seat=to_move(game)))
        assert state.step is Step.AUCTION
    game.apply(PassMarker(seat=to_move(game)))
    assert state.step is not Step.AUCTION
    # The marker ends with the player to the left of the last to put a company up.
    assert events(game, "auctions_over")[-1].data["seat"] == (opener + 1) % 4


def test_the_auctions_end_when_all_six_companies_are_sold(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    for company in COMPANIES:
        assert state.step is Step.AUCTION
        last = state.active
        auction(game, company, last, 1)
    assert state.step is Step.BUILD
    assert events(game, "auctions_over")[-1].data["seat"] == (last + 1) % 3
    assert all(c.controller is not None for c in state.companies.values())


def test_with_no_auction_the_marker_stays_where_it_was(sd: SteelDriverRules) -> None:
    game = start_game(sd, 5)
    holder = game.state.active
    pass_auctions(game)
    assert events(game, "auctions_over")[-1].data["seat"] == holder


def test_a_player_with_no_cubes_passes_the_marker_and_leaves_the_bidding(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    a = state.active
    broke = (a + 1) % 3
    set_cubes(game, broke, 0)
    game.apply(PutUp(seat=a, company="red"))
    game.apply(Bid(seat=a, amount=1))
    assert to_move(game) == (a + 2) % 3  # the player with no cubes is not asked
    forced = events(game, "pass_bid")[-1]
    assert forced.data == {"seat": broke, "forced": True}
    name = game.players[broke].name
    assert forced.text.startswith(f"{name} cannot top the high bid of 1 (holds 0 cubes)")
    game.apply(PassBid(seat=(a + 2) % 3))
    # The marker comes to the player with no cubes, who passes it on at once.
    assert state.step is Step.AUCTION and state.active == (broke + 1) % 3
    assert [e.data for e in events(game, "pass_marker")][-1] == {"seat": broke, "forced": True}


def test_a_player_may_control_several_companies(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    rich = game.state.active
    for company in ("red", "blue"):
        auction(game, company, rich, 2)
    state: SDState = game.state
    assert state.companies["red"].controller == rich == state.companies["blue"].controller
    assert state.players[rich].shares == {"red": 1, "blue": 1}


# ---------------------------------------------------------------- building track
def building_game(sd: SteelDriverRules, companies: dict[str, tuple[int, int]],
                  order: list[str] | None = None, players: int = 3) -> Game:
    """A game at the Build Track phase; ``companies`` maps a company to (controller, cubes)."""
    game = start_game(sd, players)
    for company, (seat, cubes) in companies.items():
        control(game, company, seat, cubes)
    begin_building(game, order or list(companies))
    return game


def test_companies_build_one_link_each_in_the_order_of_play(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"blue": (1, 6), "red": (0, 6)})
    assert game.state.order[:2] == ["blue", "red"]
    moves = []
    for _ in range(4):
        prompt = game.prompt()
        assert prompt is not None
        moves.append((prompt.seat, game.state.active_company().id))
        game.apply(min(prompt.choices, key=lambda a: sd.route(a.route).cost))
    assert moves == [(1, "blue"), (0, "red"), (1, "blue"), (0, "red")]


def test_a_company_must_build_while_it_can_and_has_no_pass(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 3)})
    prompt = game.prompt()
    assert prompt is not None and prompt.choices
    assert all(isinstance(a, BuildTrack) for a in prompt.choices)
    # No action lets a company pass: the rules pass it once it cannot build.
    kinds = set(ACTION_ADAPTER.json_schema()["discriminator"]["mapping"])
    assert kinds == {"put_up", "pass_marker", "bid", "pass_bid", "build", "claim"}


def test_when_only_one_link_can_be_built_it_is_the_only_choice(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    # From San Francisco and Los Angeles: Sacramento costs 1, Tucson 5, Albuquerque 6.
    lay_track(game, "red", ["SFO-LAX"], "LAX")
    control(game, "red", 0, 2)
    begin_building(game, ["red"])
    prompt = game.prompt()
    assert prompt is not None
    assert prompt.choices == [BuildTrack(seat=0, company="red", route="SFO-SAC")]


def test_the_first_link_is_built_from_a_starting_location_it_names(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 6)})
    prompt = game.prompt()
    assert prompt is not None
    for a in prompt.choices:
        r = sd.route(a.route)
        assert a.start in (r.a, r.b) and sd.is_starting(a.start) and r.cost <= 6
    # A route between two starting locations may be built from either end.
    both = [a.start for a in prompt.choices if a.route == "SFO-LAX"]
    assert sorted(both) == ["LAX", "SFO"]
    game.apply(BuildTrack(seat=0, company="red", route="SFO-LAX", start="LAX"))
    assert events(game, "build")[-1].data["gain"] == sd.value("SFO") == 40
    red = game.state.companies["red"]
    assert red.start == "LAX" and red.reached == ["LAX", "SFO"]


def test_track_is_contiguous(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 10)})
    game.apply(BuildTrack(seat=0, company="red", route="BAL-PIT", start="BAL"))
    red = game.state.companies["red"]
    for _ in range(3):
        prompt = game.prompt()
        assert prompt is not None
        for a in prompt.choices:
            r = sd.route(a.route)
            assert a.start is None and (r.a in red.reached or r.b in red.reached)
        game.apply(prompt.choices[0])
    check_invariants(sd, game.state)


def test_one_link_per_route(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 6), "blue": (1, 6)})
    game.apply(BuildTrack(seat=0, company="red", route="BAL-PIT", start="BAL"))
    prompt = game.prompt()
    assert prompt is not None
    assert "BAL-PIT" not in [a.route for a in prompt.choices]
    assert any(a.route == "BAL-PHL" for a in prompt.choices)  # Baltimore itself is open to all


def test_profit_only_on_first_reaching_a_location_and_never_for_the_start(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    # Red started at Chicago and reaches Peoria and Davenport; Davenport-Chicago
    # would close the loop back to its starting location.
    lay_track(game, "red", ["PEO-CHI", "DAV-PEO"], "CHI")
    control(game, "red", 0, 2)
    begin_building(game, ["red"])
    game.apply(BuildTrack(seat=0, company="red", route="DAV-CHI"))
    build = events(game, "build")[-1]
    assert build.data["gain"] == 0 and build.data["reached"] is None
    assert "no new location" in build.text


def test_a_company_profits_where_another_company_got_first(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    lay_track(game, "red", ["BAL-PIT"], "BAL")
    lay_track(game, "blue", ["HAR-BAL"], "BAL")
    control(game, "blue", 1, 3)
    begin_building(game, ["blue"])
    game.apply(BuildTrack(seat=1, company="blue", route="PIT-HAR"))
    assert events(game, "build")[-1].data["gain"] == sd.value("PIT") == 40
    assert game.state.companies["blue"].reached == ["BAL", "HAR", "PIT"]


def test_the_order_of_passing_is_the_next_turns_order(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 6), "blue": (1, 1), "green": (2, 3)})
    play_until(game, lambda g: g.state.turn == 2)
    passes = [e.data["company"] for e in events(game, "pass_company")]
    assert game.state.order == passes
    # Uncontrolled companies pass at their first activation, in the order of play;
    # blue spends its one cube at once, green its three, red builds on.
    assert passes == ["yellow", "black", "purple", "blue", "green", "red"]


def test_a_company_nobody_controls_does_not_build_and_keeps_its_cubes(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    control(game, "red", 0, 6)
    state.companies["red"].controller = None  # its cubes stay from an earlier turn
    control(game, "blue", 1, 2)
    begin_building(game, ["blue", "red"])
    game.apply(BuildTrack(seat=1, company="blue", route="SFO-SAC", start="SFO"))
    red_pass = next(e for e in events(game, "pass_company") if e.data["company"] == "red")
    assert "nobody controls it" in red_pass.text
    assert state.companies["red"].cubes == 6 and state.companies["red"].links == []


def test_company_cubes_left_over_are_kept_for_the_next_turn(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 5)})
    game.apply(BuildTrack(seat=0, company="red", route="SFO-SAC", start="SFO"))
    game.apply(BuildTrack(seat=0, company="red", route="SAC-REN"))
    red = game.state.companies["red"]
    assert game.state.turn == 2 and red.cubes == 1 and red.controller is None


# ---------------------------------------------------------------- the transcontinental link
def test_fewest_companies_comes_before_fewest_links(sd: SteelDriverRules) -> None:
    west = {r: "green" for r in ["SFO-SAC", "SAC-REN", "REN-SLC", "SLC-DEN", "DEN-OMA"]}
    three = {"OMA-CRA": "yellow", "CRA-DBQ": "yellow", "DBQ-CHI": "yellow",
             "CHI-TOL": "red", "TOL-CLE": "red", "CLE-BUF": "red", "BUF-NYC": "red"}
    two = {r: "purple" for r in ["OMA-KCY", "KCY-STL", "STL-LOU", "CIN-LOU", "CIN-COL", "COL-PIT",
                                 "PIT-HAR", "HAR-PHL", "PHL-NYC"]}
    groups, links = sd.transcontinental_sharers({**west, **three}) or ([], 0)
    assert groups == [frozenset({"green", "yellow", "red"})] and links == 12
    # Green and purple alone make it in 14 links: two companies beat three.
    groups, links = sd.transcontinental_sharers({**west, **three, **two}) or ([], 0)
    assert groups == [frozenset({"green", "purple"})] and links == 14
    assert sd.transcontinental_sharers(west) is None


def test_the_transcontinental_link_is_made_once_only(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    lay_track(game, "green", ["SFO-SAC", "SAC-REN", "REN-SLC", "SLC-DEN"], "SFO")
    lay_track(game, "red", ["CHI-TOL", "TOL-CLE", "CLE-BUF", "BUF-NYC"], "CHI")
    lay_track(game, "yellow", ["DBQ-CHI", "CRA-DBQ", "OMA-CRA"], "CHI")
    lay_track(game, "black", ["DAV-CHI", "DSM-DAV", "KCY-DSM"], "CHI")
    control(game, "green", 0, 10)
    begin_building(game, ["green"])
    game.apply(BuildTrack(seat=0, company="green", route="DEN-OMA"))
    assert len(events(game, "transcontinental")) == 1
    game.apply(BuildTrack(seat=0, company="green", route="DEN-KCY"))  # a second way across
    assert len(events(game, "transcontinental")) == 1
    assert game.state.transcontinental == {"builder": "green", "others": ["red", "yellow"],
                                           "links": 12, "turn": 1}


# ---------------------------------------------------------------- profits and the end of a turn
def test_controllers_take_profits_and_old_shares_pay_nothing(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 3), "blue": (0, 1), "green": (1, 1)})
    give_shares(game, 2, {"red": 1})  # a share from an earlier turn
    for route, start in (("BAL-PIT", "BAL"), ("SFO-SAC", "SFO"), ("MKE-CHI", "CHI")):
        game.apply(BuildTrack(seat=to_move(game), company=game.state.active_company().id,
                              route=route, start=start))
    cash = [p.cash for p in game.state.players]
    assert cash == [40 + 20, 20, 0]
    assert [e.data["cash"] for e in events(game, "profit")] == [40, 20, 20]
    assert game.state.history[-1] == [(60, 60), (20, 20), (0, 0)]


def test_the_profit_of_a_company_nobody_controls_is_lost(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    lay_track(game, "green", ["SFO-SAC", "SAC-REN", "REN-SLC", "SLC-DEN"], "SFO")
    lay_track(game, "red", ["CHI-TOL", "TOL-CLE", "CLE-BUF", "BUF-NYC"], "CHI")
    lay_track(game, "yellow", ["DBQ-CHI", "CRA-DBQ", "OMA-CRA"], "CHI")
    control(game, "green", 0, 5)
    begin_building(game, ["green"])
    game.apply(BuildTrack(seat=0, company="green", route="DEN-OMA"))
    lost = {e.data["company"]: e.data["profit"] for e in events(game, "profit_lost")}
    assert lost == {"red": 30, "yellow": 30}


def test_the_end_of_a_turn_resets_profits_and_returns_control(sd: SteelDriverRules) -> None:
    game = building_game(sd, {"red": (0, 3)})
    game.apply(BuildTrack(seat=0, company="red", route="BAL-PIT", start="BAL"))
    state: SDState = game.state
    assert state.turn == 2 and state.step is Step.AUCTION
    for c in state.companies.values():
        assert c.profit == 0 and c.controller is None and not c.auctioned
    assert state.companies["red"].last_controller == 0


def test_five_turns_then_the_final_profit_determination(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    play_until(game, lambda g: g.is_over())
    assert [e.data["turn"] for e in events(game, "turn")] == [1, 2, 3, 4, 5]
    kinds = [e.kind for e in game.log]
    assert kinds.index("final") > max(i for i, k in enumerate(kinds) if k == "end_turn")
    assert game.state.turn == 5


def test_shares_left_count_the_turns(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)

    def buy_red(g: Game) -> object:
        state: SDState = g.state
        if state.step is Step.AUCTION and not state.companies["red"].auctioned:
            return PutUp(seat=state.active, company="red")
        return quiet_action(g)

    for turn in range(1, 6):
        play_until(game, lambda g, t=turn: g.state.turn > t or g.is_over(), buy_red)
        assert game.state.companies["red"].shares_left == 5 - turn
    assert game.is_over()


# ---------------------------------------------------------------- final profit determination
def final_game(sd: SteelDriverRules) -> Game:
    game = start_game(sd, 3)
    state: SDState = game.state
    lay_track(game, "red", ["BAL-PIT", "PIT-BUF"], "BAL")  # white, red, black
    lay_track(game, "blue", ["BAL-WAS", "BAL-PHL"], "BAL")  # white, white, white
    control(game, "blue", 1, 3)  # cubes left in its box
    state.companies["blue"].controller = None
    give_shares(game, 0, {"red": 2})
    give_shares(game, 2, {"red": 1})
    state.companies["red"].last_controller = 2
    arrange_final(game, order=["blue", "red"])
    return game


def test_final_cubes_leave_the_companies_and_goods_go_on_connected_locations(sd: SteelDriverRules) -> None:
    game = final_game(sd)
    state: SDState = game.state
    final = events(game, "final")[0]
    assert final.data["company_cubes"] == 3
    assert all(c.cubes == 0 for c in state.companies.values())
    assert all(p.cubes == 0 for p in state.players)
    assert state.goods_on == {"BAL": "white", "PIT": "red", "BUF": "black", "WAS": "white",
                              "PHL": "white"}
    check_invariants(sd, state)


def test_companies_claim_from_their_own_track_in_the_last_turns_order(sd: SteelDriverRules) -> None:
    game = final_game(sd)
    state: SDState = game.state
    assert state.step is Step.CLAIM and state.active_company().id == "blue"
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == 1  # blue's only shareholder
    assert sorted(a.location for a in prompt.choices) == ["BAL", "PHL", "WAS"]
    game.apply(ClaimGoods(seat=1, company="blue", location="BAL"))
    prompt = game.prompt()
    assert prompt is not None and prompt.seat == 0  # red: Ann has the most shares
    assert sorted(a.location for a in prompt.choices) == ["BUF", "PIT"]  # Baltimore's cube is gone
    game.apply(ClaimGoods(seat=0, company="red", location="PIT"))
    game.apply(ClaimGoods(seat=1, company="blue", location="WAS"))
    game.apply(ClaimGoods(seat=0, company="red", location="BUF"))
    # Red has nothing left to claim and passes; blue takes Philadelphia alone.
    game.apply(ClaimGoods(seat=1, company="blue", location="PHL"))
    assert state.step is Step.OVER
    assert state.companies["red"].goods == {"red": 1, "black": 1}
    assert state.companies["blue"].goods == {"white": 3}
    assert state.companies["red"].final_profit == 30 and state.companies["blue"].final_profit == 30
    # Red's shares pay $30 each: two to Ann, one to Cat. Blue's share is Bob's.
    assert [e.data["cash"] for e in events(game, "payout")] == [60, 30, 30]
    check_invariants(sd, state)


@pytest.mark.parametrize("goods, value", [
    ({}, 0), ({"white": 1}, 10), ({"white": 3}, 30), ({"white": 1, "red": 1}, 30),
    ({"white": 1, "red": 1, "black": 1}, 60), ({"white": 1, "red": 1, "black": 1, "silver": 1}, 100),
    ({"white": 1, "red": 1, "black": 1, "silver": 1, "orange": 1}, 150),
    ({"white": 2, "red": 2, "black": 2, "silver": 2, "orange": 2}, 300),
    ({"white": 5, "orange": 1}, 70),
])
def test_sets_of_different_colours_score(goods: dict[str, int], value: int) -> None:
    assert set_value(goods) == value
    for s in goods_sets(goods):
        assert len(set(s)) == len(s) <= 5


def test_most_cash_wins_and_a_tie_goes_to_the_most_goods_controlled(sd: SteelDriverRules) -> None:
    game = start_game(sd, 3)
    state: SDState = game.state
    state.final = {"Ann": {"total": 500}, "Bob": {"total": 500}, "Cat": {"total": 400}}
    state.goods_controlled = [3, 7, 9]
    result = sd.result(state)
    assert result is not None and result.winners == ["Bob"]
    state.goods_controlled = [7, 7, 9]
    assert sd.result(state).winners == ["Ann", "Bob"]  # type: ignore[union-attr]
    state.final["Cat"]["total"] = 501
    assert sd.result(state).winners == ["Cat"]  # type: ignore[union-attr]


def test_the_view_is_the_whole_state(sd: SteelDriverRules) -> None:
    game = start_game(sd, 4)
    assert game.view(0) is game.state and game.view(None) is game.state
