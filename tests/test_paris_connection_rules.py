"""One focused test per rule of Paris Connection."""

from __future__ import annotations

import typing
from collections import Counter

import pytest
from paris_connection_support import (
    COMPANIES,
    LE_HAVRE,
    MARSEILLE,
    ORLEANS,
    REIMS,
    ROUEN,
    START,
    TOTAL_PER_COMPANY,
    TOWER,
    VALUE_MARKER,
    build,
    check_invariants,
    end_build,
    hx,
    make_ruleset,
    set_board,
    set_shares,
    set_turn,
    start_game,
    trade,
)
from support import assert_refused, modules_imported_from, to_move

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction
from railgames.core.events import SETUP
from railgames.core.phases import by_action
from railgames.games.paris_connection.actions import (
    ACTION_ADAPTER,
    Build,
    EndBuild,
    ParisConnectionAction,
    Trade,
)
from railgames.games.paris_connection.rules import PENALTY_PER_EXTRA, ParisConnectionRules
from railgames.games.paris_connection.state import Step


@pytest.fixture(scope="module")
def pc() -> ParisConnectionRules:
    return make_ruleset()


@pytest.fixture
def game(pc: ParisConnectionRules) -> Game:
    g = start_game(pc, 3, seed=1)
    set_turn(g, 0)
    set_shares(g, 0, {"red": 4, "blue": 3, "green": 3})
    return g


def any_trade(game: Game, count: int = 1) -> Trade:
    prompt = game.prompt()
    assert prompt is not None
    return next(a for a in prompt.choices if isinstance(a, Trade) and a.count == count)


# ---------------------------------------------------------------- set-up and the deal
@pytest.mark.parametrize("players, hand", [(3, 10), (4, 8), (5, 6), (6, 5)])
def test_the_deal_gives_each_player_the_hand_for_the_player_count(
        pc: ParisConnectionRules, players: int, hand: int) -> None:
    game = start_game(pc, players, seed=7)
    for p in game.state.players:
        assert p.held == hand
        assert p.shares is not None and sum(p.shares.values()) == hand
    dealt = Counter()
    for p in game.state.players:
        dealt.update(p.shares or {})
    for c in COMPANIES:
        # One in Paris, one marking the value: 31 of the 33 are dealt or stored.
        assert game.state.supply[c] + dealt[c] == 31
        assert game.state.supply[c] + dealt[c] + 1 + VALUE_MARKER == TOTAL_PER_COMPANY
    check_invariants(pc, game.state)


def test_a_game_started_now_is_edition_2_and_keeps_a_value_marker_back(
        pc: ParisConnectionRules) -> None:
    game = start_game(pc, 3, seed=7)
    assert pc.edition == 2
    assert game.record.rules_edition == game.state.rules_edition == 2
    dealt_or_stored = sum(game.state.supply.values()) + sum(p.held for p in game.state.players)
    assert dealt_or_stored == 31 * len(COMPANIES)


@pytest.mark.parametrize("players", [3, 6])
def test_an_edition_1_game_deals_or_stores_32_of_each_colour(
        pc: ParisConnectionRules, players: int) -> None:
    # Saves made before the ruling "starting locomotives" keep the rules they were played under.
    record = start_game(pc, players, seed=7).record.model_copy(update={"rules_edition": 1})
    game = Game.replay(pc, record)
    assert game.state.rules_edition == 1
    dealt: Counter[str] = Counter()
    for p in game.state.players:
        dealt.update(p.shares or {})
    for c in COMPANIES:
        assert game.state.supply[c] + dealt[c] == 32
    check_invariants(pc, game.state)


def test_the_deal_is_random_but_repeats_with_the_seed(pc: ParisConnectionRules) -> None:
    def hands(seed: int) -> list[dict[str, int]]:
        return [dict(p.shares or {}) for p in start_game(pc, 4, seed).state.players]

    assert hands(3) == hands(3)
    assert len({str(hands(s)) for s in range(1, 9)}) > 1
    assert any(len(h) > 1 for h in hands(3)), "a hand mixes colours"


def test_each_company_starts_with_one_locomotive_in_its_paris_hex(pc: ParisConnectionRules) -> None:
    game = start_game(pc, 3)
    state = game.state
    assert {pc.offset(h): here for h, here in state.board.items()} == {
        at: [c] for c, at in START.items()}
    assert state.value == dict.fromkeys(COMPANIES, 0)
    tower = hx(pc, TOWER)
    assert all(h in pc.map.links[tower] or tower in pc.map.links[h] for h in state.board)


def test_deal_events_are_seen_only_by_their_player(pc: ParisConnectionRules) -> None:
    game = start_game(pc, 4, seed=2)
    deals = [e for e in game.log if e.kind == "deal"]
    assert [e.data["seat"] for e in deals] == [0, 1, 2, 3]
    for e in deals:
        assert e.action == SETUP and e.chance
        assert e.visible_to == frozenset({e.data["seat"]})
        assert e.data["shares"] == game.state.players[e.data["seat"]].shares
    for seat in range(4):
        assert [e.data["seat"] for e in game.events_for(seat) if e.kind == "deal"] == [seat]
    assert not [e for e in game.events_for(None) if e.kind == "deal"]


def test_the_first_player_is_drawn_and_turns_go_round_in_seat_order(pc: ParisConnectionRules) -> None:
    firsts = {start_game(pc, 4, seed).state.current for seed in range(1, 20)}
    assert len(firsts) > 1
    game = start_game(pc, 4, seed=1)
    first = to_move(game)
    game.apply(any_trade(game))
    assert to_move(game) == (first + 1) % 4


# ---------------------------------------------------------------- building
def test_a_placement_goes_next_to_its_colour(game: Game) -> None:
    assert_refused(game, build(0, "red", REIMS), IllegalAction,
                   "must be placed next to one already on the board")
    game.apply(build(0, "red", (12, 4)))
    game.apply(build(0, "red", REIMS))  # next to the one placed a moment ago
    assert game.state.value["red"] == 1


def test_a_city_adds_its_value_at_once(game: Game, pc: ParisConnectionRules) -> None:
    events = game.apply(build(0, "green", ORLEANS))
    assert game.state.value["green"] == 1
    assert events[-1].kind == "build" and events[-1].data["gain"] == 1
    set_board(game, {(14, 16): ["blue"], (13, 16): []})
    set_turn(game, 0)
    game.apply(build(0, "blue", (13, 16)))  # Montpellier, purple
    assert game.state.value["blue"] == 2
    game.apply(build(0, "blue", (13, 15)))  # Avignon, beige
    assert game.state.value["blue"] == 3


def test_rural_hexes_add_nothing(game: Game) -> None:
    game.apply(build(0, "red", (12, 4)))
    assert game.state.value["red"] == 0


def test_two_of_a_colour_never_share_a_hex(game: Game) -> None:
    set_board(game, {(12, 4): ["red"]})
    set_turn(game, 0)
    assert_refused(game, build(0, "red", (12, 4)), IllegalAction,
                   "already holds a red locomotive")


def test_a_rural_hex_holds_two_of_different_colours(game: Game) -> None:
    game.apply(build(0, "red", (12, 4)))
    game.apply(end_build(0))
    game.apply(build(1, "yellow", (12, 4)))
    game.apply(end_build(1))
    assert game.state.board[hx(game.ruleset, (12, 4))] == ["red", "yellow"]
    set_board(game, {(12, 4): ["red", "yellow"], (12, 3): ["white"]})
    set_turn(game, 0)
    assert_refused(game, build(0, "white", (12, 4)), IllegalAction,
                   "already holds two locomotives (red and yellow)")


def test_a_city_holds_one_locomotive(game: Game) -> None:
    set_board(game, {ORLEANS: ["green"], (9, 6): ["black"]})
    set_turn(game, 0)
    assert_refused(game, build(0, "black", ORLEANS), IllegalAction,
                   "is a city and holds only one locomotive (green is there)")


def test_the_eiffel_tower_hex_is_never_occupied(game: Game) -> None:
    for company in COMPANIES:
        assert_refused(game, build(0, company, TOWER), IllegalAction, "Eiffel Tower")


def test_the_eiffel_tower_is_never_offered(game: Game, pc: ParisConnectionRules) -> None:
    prompt = game.prompt()
    assert prompt is not None
    assert all(tuple(a.hex) != TOWER for a in prompt.choices if isinstance(a, Build))


def test_a_checkered_side_is_not_adjacency(game: Game) -> None:
    # Red's start (11, 4) touches white's Paris hex (10, 4) only across a checkered side.
    assert_refused(game, build(0, "red", START["white"]), IllegalAction,
                   "only across a checkered border")
    # Le Havre: a locomotive south of the Seine estuary does not reach it.
    set_board(game, {(7, 4): ["white"]})
    set_turn(game, 0)
    assert_refused(game, build(0, "white", LE_HAVRE), IllegalAction, "checkered border")
    set_board(game, {ROUEN: ["white"]})
    set_turn(game, 0)
    game.apply(build(0, "white", LE_HAVRE))  # by way of Rouen, north of the estuary


def test_the_map_puts_checkered_sides_between_all_paris_hexes(pc: ParisConnectionRules) -> None:
    for company, at in START.items():
        h = hx(pc, at)
        assert not set(pc.map.links[h]) & pc.map.paris, company


# ---------------------------------------------------------------- cut off
def _green_hemmed_in(game: Game, extra: dict | None = None) -> None:
    """Green, still in Paris, can grow only into Orléans; red waits next to Orléans."""
    placements = {(9, 6): ["black", "white"], (10, 7): ["blue", "yellow"], (8, 7): ["red"]}
    placements.update(extra or {})
    set_board(game, placements)
    set_turn(game, 0)


def test_a_placement_may_not_cut_a_colour_off(game: Game, pc: ParisConnectionRules) -> None:
    _green_hemmed_in(game)
    assert pc.frontier(game.state, "green") == {hx(pc, ORLEANS)}
    assert_refused(game, build(0, "red", ORLEANS), IllegalAction,
                   "would cut green off completely")
    prompt = game.prompt()
    assert prompt is not None
    assert build(0, "red", ORLEANS) not in prompt.choices
    assert build(0, "green", ORLEANS) in prompt.choices  # green itself may go there


def test_a_colour_that_reached_a_city_may_be_cut_off(game: Game, pc: ParisConnectionRules) -> None:
    # Green already stands in Le Havre, hemmed in behind black's Rouen: it has reached a city.
    _green_hemmed_in(game, {LE_HAVRE: ["green"], ROUEN: ["black"]})
    assert pc.frontier(game.state, "green") == {hx(pc, ORLEANS)}
    game.apply(build(0, "red", ORLEANS))
    assert pc.frontier(game.state, "green") == set()


def test_filling_the_last_rural_hex_is_a_cut_off(game: Game, pc: ParisConnectionRules) -> None:
    # Green's only room is (10, 7), where blue already stands: a second colour there fills it.
    set_board(game, {(9, 6): ["black", "white"], ORLEANS: ["yellow"], (10, 7): ["blue"],
                     (11, 7): ["red"]})
    set_turn(game, 0)
    assert pc.frontier(game.state, "green") == {hx(pc, (10, 7))}
    assert_refused(game, build(0, "red", (10, 7)), IllegalAction, "cut green off")


def test_joining_an_empty_last_hex_is_not_a_cut_off(game: Game, pc: ParisConnectionRules) -> None:
    set_board(game, {(9, 6): ["black", "white"], ORLEANS: ["yellow"], (11, 7): ["red"]})
    set_turn(game, 0)
    assert pc.frontier(game.state, "green") == {hx(pc, (10, 7))}
    game.apply(build(0, "red", (10, 7)))  # green can still join red there
    assert pc.frontier(game.state, "green") == {hx(pc, (10, 7))}


def test_a_colour_already_without_room_is_not_protected(game: Game, pc: ParisConnectionRules) -> None:
    set_board(game, {(9, 6): ["black", "white"], (10, 7): ["blue", "yellow"], ORLEANS: ["black"],
                     (9, 8): ["red"]})
    set_turn(game, 0)
    assert pc.frontier(game.state, "green") == set()
    game.apply(build(0, "red", (10, 8)))


# ---------------------------------------------------------------- the shape of a build
def test_a_build_is_of_one_company(game: Game) -> None:
    game.apply(build(0, "red", (12, 4)))
    assert_refused(game, build(0, "blue", (12, 6)), IllegalAction, "locomotives of one company only")
    prompt = game.prompt()
    assert prompt is not None
    assert {a.company for a in prompt.choices if isinstance(a, Build)} == {"red"}


def test_a_build_places_at_most_five(game: Game) -> None:
    for at in [(12, 4), REIMS, (14, 4), (15, 4), (16, 4)]:  # by Reims to Metz
        game.apply(build(0, "red", at))
    assert game.state.value["red"] == 2
    assert_refused(game, build(0, "red", (17, 4)), IllegalAction, "at most 5")
    prompt = game.prompt()
    assert prompt is not None and prompt.choices == [EndBuild(seat=0)]
    assert prompt.text.endswith("5 of 5 red locomotives placed — that is the most a build "
                                "places: end the build")
    game.apply(end_build(0))
    assert to_move(game) == 1 and game.state.step is Step.TURN


def test_a_build_needs_at_least_one_placement(game: Game) -> None:
    assert_refused(game, end_build(0), IllegalAction, "build at least one, or trade")


def test_an_empty_supply_cannot_be_built(game: Game) -> None:
    game.state.supply["red"] = 0
    assert_refused(game, build(0, "red", (12, 4)), IllegalAction, "red supply is empty")
    prompt = game.prompt()
    assert prompt is not None
    assert not [a for a in prompt.choices if isinstance(a, Build) and a.company == "red"]


def test_a_build_that_empties_its_supply_can_only_end(game: Game) -> None:
    game.state.supply["red"] = 1
    game.apply(build(0, "red", (12, 4)))
    prompt = game.prompt()
    assert prompt is not None and prompt.choices == [EndBuild(seat=0)]
    assert prompt.text.endswith("1 of 5 red locomotives placed — the red supply is empty: "
                                "end the build")


def test_a_turn_is_a_build_or_a_trade(game: Game) -> None:
    game.apply(build(0, "red", (12, 4)))
    assert_refused(game, trade(0, "red", "blue"), IllegalAction, "a build or a trade, not both")


def test_placements_of_an_open_build_can_be_taken_back(pc: ParisConnectionRules) -> None:
    game = start_game(pc, 3, seed=4)  # undo replays the record: no arranging here
    seat = to_move(game)
    before = game.snapshot()
    game.apply(build(seat, "red", (12, 4)))
    game.apply(build(seat, "red", REIMS))
    game.undo(seat)
    game.undo(seat)
    assert game.state == before and game.record.actions == []
    game.apply(build(seat, "red", (12, 4)))
    ended = game.snapshot()
    game.apply(end_build(seat))
    # Ending the build may be taken back while the next player has not moved...
    game.undo(seat)
    assert game.state == ended
    game.apply(end_build(seat))
    following = to_move(game)
    game.apply(game.legal_actions()[0])
    assert game.record.actions[-1]["seat"] == following
    # ...but never once they have.
    with pytest.raises(IllegalAction, match="not yours"):
        game.undo(seat)


def test_hexes_may_be_named_as_text(pc: ParisConnectionRules) -> None:
    action = ACTION_ADAPTER.validate_python({"type": "build", "seat": 0, "company": "red",
                                             "hex": "12, 4"})
    assert action == build(0, "red", (12, 4))
    assert action.model_dump(mode="json")["hex"] == [12, 4]


# ---------------------------------------------------------------- trading
def test_a_trade_returns_one_and_takes_one_or_two(game: Game) -> None:
    state = game.state
    red, white = state.supply["red"], state.supply["white"]
    game.apply(trade(0, "red", "white", 2))
    assert state.players[0].shares == {"red": 3, "blue": 3, "green": 3, "white": 2}
    assert state.players[0].held == 11
    assert (state.supply["red"], state.supply["white"]) == (red + 1, white - 2)
    assert to_move(game) == 1  # a trade is the whole turn
    game.apply(any_trade(game, count=1))
    assert state.players[1].held == 10
    check_invariants(game.ruleset, state)  # type: ignore[arg-type]


def test_a_trade_is_public(game: Game) -> None:
    events = game.apply(trade(0, "red", "white", 2))
    (event,) = [e for e in events if e.kind == "trade"]
    assert event.visible_to is None
    assert event.data == {"seat": 0, "give": "red", "take": "white", "count": 2, "held": 11}


def test_a_trade_returns_a_locomotive_held(game: Game) -> None:
    assert_refused(game, trade(0, "white", "red"), IllegalAction, "you hold no white locomotive to return")


def test_a_trade_takes_only_what_the_supply_holds(game: Game) -> None:
    game.state.supply["white"] = 1
    assert_refused(game, trade(0, "red", "white", 2), IllegalAction,
                   "the white supply has only 1 locomotive; you cannot take 2")
    game.state.supply["white"] = 0
    assert_refused(game, trade(0, "red", "white", 1), IllegalAction,
                   "the white supply is empty; you cannot take 1")


def test_a_trade_takes_a_different_company(game: Game) -> None:
    assert_refused(game, trade(0, "red", "red", 1), IllegalAction, "different company")


def test_a_trade_returns_a_locomotive_you_hold(game: Game) -> None:
    assert_refused(game, trade(0, "white", "red", 1), IllegalAction, "you hold no white")


def test_a_trade_takes_only_what_the_supply_has(game: Game) -> None:
    game.state.supply["white"] = 0
    assert_refused(game, trade(0, "red", "white", 1), IllegalAction, "white supply is empty")
    game.state.supply["white"] = 1
    assert_refused(game, trade(0, "red", "white", 2), IllegalAction, "has only 1 locomotive")
    prompt = game.prompt()
    assert prompt is not None
    offered = {(a.take, a.count) for a in prompt.choices if isinstance(a, Trade)}
    assert ("white", 1) in offered and ("white", 2) not in offered


def test_trades_offered_are_exactly_the_legal_ones(game: Game) -> None:
    prompt = game.prompt()
    assert prompt is not None
    trades = [a for a in prompt.choices if isinstance(a, Trade)]
    assert {a.give for a in trades} == {"red", "blue", "green"}
    assert len(trades) == 3 * 5 * 2
    for a in trades:
        game.check(a)


# ---------------------------------------------------------------- seats and malformed input
def test_only_the_seat_to_move_acts(game: Game) -> None:
    assert_refused(game, build(1, "red", (12, 4)), IllegalAction, "it is Ann's turn, not Bob's")
    assert_refused(game, trade(2, "red", "blue"), IllegalAction, "it is Ann's turn")


@pytest.mark.parametrize("raw, reason", [
    ({"type": "build", "seat": 0, "company": "purple", "hex": [12, 4]}, "'purple' is not a company"),
    ({"type": "build", "seat": 0, "company": "red", "hex": [0, 0]}, "no hex 0,0 on this map"),
    ({"type": "build", "seat": 0, "company": "red", "hex": [40, 2]}, "no hex 40,2"),
    ({"type": "build", "seat": 0, "company": "red", "hex": "twelve"}, "hex"),
    ({"type": "trade", "seat": 0, "give": "red", "take": "blue", "count": 3}, "count"),
    ({"type": "trade", "seat": 0, "give": "red", "take": "mauve", "count": 1}, "'mauve' is not"),
    ({"type": "pass", "seat": 0}, "not a Paris Connection action"),
    ({"type": "end_build", "seat": 9}, "no seat 9"),
])
def test_unknown_ids_are_malformed(game: Game, raw: dict, reason: str) -> None:
    assert_refused(game, raw, MalformedAction, reason)


# ---------------------------------------------------------------- the end and scoring
def test_reaching_marseille_ends_the_game_at_once(game: Game, pc: ParisConnectionRules) -> None:
    set_board(game, {(15, 15): ["blue"]})
    set_turn(game, 0)
    game.apply(build(0, "blue", (15, 16)))
    events = game.apply(build(0, "blue", MARSEILLE))
    assert game.is_over() and game.state.step is Step.OVER
    assert game.state.value["blue"] == 4
    assert "Marseille" in (game.state.end_reason or "")
    assert [e.kind for e in events][:2] == ["build", "end"]
    assert_refused(game, end_build(0), IllegalAction, "the game is over")
    result = game.result()
    assert result is not None and result.scores["Ann"] == 3 * 4  # three blue held


def test_the_game_ends_when_one_supply_is_left(game: Game) -> None:
    state = game.state
    for c in ["yellow", "green", "black", "white"]:
        state.supply[c] = 0
    state.supply["red"] = 1
    game.apply(build(0, "red", (12, 4)))
    assert game.is_over()
    assert state.end_reason == "only one company's supply still has locomotives"


def test_a_trade_can_end_the_game(game: Game) -> None:
    state = game.state
    for c in ["red", "yellow", "green", "black"]:
        state.supply[c] = 0
    state.supply["white"] = 2
    game.apply(trade(0, "blue", "white", 2))  # blue's supply stays full; white's empties
    assert game.is_over()


def test_scoring_multiplies_holdings_by_value_and_charges_the_limit(game: Game) -> None:
    state = game.state
    set_shares(game, 0, {"red": 21, "blue": 1})  # 22 held, limit 20 with 3 players
    set_shares(game, 1, {"red": 3, "yellow": 7})
    set_shares(game, 2, {"green": 10})
    set_board(game, {(12, 4): ["red"], REIMS: ["red"], ORLEANS: ["green"]})
    set_turn(game, 0)
    state.value["red"] = 5  # as if red had grown elsewhere
    for c in ["yellow", "green", "black", "white"]:
        state.supply[c] = 0
    state.supply["red"] = state.supply["blue"] = 1
    game.apply(build(0, "blue", (12, 6)))  # blue's supply empties: only red's is left
    assert game.is_over()
    result = game.result()
    assert result is not None
    assert result.breakdown["Ann"] == {**dict.fromkeys(COMPANIES, 0), "red": 21 * 5,
                                       "penalty": -40, "total": 105 - 40}
    assert result.scores == {"Ann": 65, "Bob": 3 * 5, "Cat": 10 * 1}
    assert result.winners == ["Ann"]


def test_a_score_can_be_worked_out_before_the_end_and_in_a_view(game: Game,
                                                                 pc: ParisConnectionRules) -> None:
    state = game.state
    set_shares(game, 0, {"red": 18, "blue": 4})  # 22 held, limit 20 with 3 players
    set_board(game, {(12, 4): ["red"], REIMS: ["red"]})
    assert state.value == {**dict.fromkeys(COMPANIES, 0), "red": 1} and pc.over_limit(state, 0) == 2
    assert pc.score_of(state, 0) == {**dict.fromkeys(COMPANIES, 0), "red": 18, "penalty": -40,
                                     "total": 18 - 40}
    # A seat's own view scores its own holdings; holdings hidden there count as none.
    view = game.view(0)
    assert pc.score_of(view, 0) == pc.score_of(state, 0)
    assert pc.score_of(view, 1)["total"] == -PENALTY_PER_EXTRA * pc.over_limit(state, 1) == 0


def test_ties_share_the_win(game: Game) -> None:
    set_shares(game, 0, {"green": 5})
    set_shares(game, 1, {"green": 5})
    set_shares(game, 2, {"red": 5})
    set_board(game, {})
    set_turn(game, 0)
    for c in ["red", "yellow", "blue", "black", "white"]:
        game.state.supply[c] = 0
    game.state.supply["blue"] = 1
    game.apply(build(0, "blue", (10, 7)))
    assert game.is_over()
    result = game.result()
    assert result is not None and result.winners == ["Ann", "Bob", "Cat"]  # all 0


def test_the_end_reveals_every_holding_and_cannot_be_undone(game: Game) -> None:
    set_board(game, {(15, 16): ["blue"]})
    set_turn(game, 0)
    game.apply(build(0, "blue", MARSEILLE))
    reveals = [e for e in game.events_for(1) if e.kind == "reveal"]
    assert [e.data["seat"] for e in reveals] == [0, 1, 2]
    assert all(e.visible_to is None for e in reveals)
    assert reveals[0].data["shares"] == {"red": 4, "blue": 3, "green": 3}
    view = game.view(1)
    assert all(p.shares is not None for p in view.players)
    with pytest.raises(IllegalAction):
        game.undo(0)


# ---------------------------------------------------------------- how the rules are built
def test_every_action_is_taken_by_exactly_one_phase(pc: ParisConnectionRules) -> None:
    """Each kind of action is listed, checked and carried out by the one phase that takes it."""
    union = typing.get_args(typing.get_args(ParisConnectionAction)[0])
    taken = by_action([pc.build, pc.trade])
    assert set(taken) == set(union)
    for kind, phase in taken.items():
        assert kind in type(phase).actions


def test_the_bots_read_the_rules_without_importing_them() -> None:
    """The rules name their bots; the bots reach the rules only through ParisConnectionBase,
    so the rules module and the bots do not import each other."""
    reached = modules_imported_from("railgames.games.paris_connection.bots")
    assert "railgames.games.paris_connection.common.ParisConnectionBase" in reached
    assert not any(name.startswith("railgames.games.paris_connection.rules") for name in reached)
    assert "railgames.games.paris_connection.bots" in modules_imported_from(
        "railgames.games.paris_connection.rules")
