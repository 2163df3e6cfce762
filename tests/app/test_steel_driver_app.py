"""Steel Driver in the app: auctions, building and the final claims with the keyboard,
through to the final payout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.core.engine import Game
from railgames.core.record import GameRecord, PlayerSpec, load_record, save_record
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset
from railgames.games.steel_driver.board import parse_route_mark
from railgames.games.steel_driver.state import Step
from tests.app.driving import bot_record, first_index, run_async, screen_text, truncated

SIZE = (120, 40)
GAME = "steel-driver"
TWO_HUMANS_AND_A_BOT = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob"),
                        PlayerSpec(name="Cy", kind="greedy")]


def write(record: GameRecord, name: str = "sd.json") -> Path:
    path = saves_dir() / name
    save_record(record, path)
    return path


def cut(seed: int, wanted: Any, players: list[PlayerSpec] | None = None,
        start: int = 0) -> Path:
    """A greedy bots' game cut at the first moment ``wanted`` holds, seats given to ``players``."""
    record = bot_record(seed, players, game=GAME)
    return write(truncated(record, first_index(record, wanted, start=start)))


def actions_of(app: Any) -> list[dict[str, Any]]:
    return list(app.session.game.record.actions)


async def answer(pilot: Any, app: Any, bids: int) -> None:
    """Answer the prompt of the moment with keys, as a player would."""
    screen = app.screen
    step = screen.session.state.step
    if step is Step.AUCTION:
        # Put the highlighted company up now and then, otherwise pass the marker.
        keys = ["enter"] if bids % 2 == 0 else ["p"]
    elif step is Step.OPENING:
        keys = ["enter"]  # the opening bid's default, 1 cube
    elif step is Step.BIDDING:
        keys = ["enter"] if bids % 3 == 0 else ["p"]
    else:
        # Building or claiming: the board cursor is on a choice; Enter until it is made.
        keys = ["enter"] * 3
    before = len(actions_of(app))
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        if len(actions_of(app)) != before or app.screen is not screen:
            return
    raise AssertionError(f"keys {keys} did nothing at {step}: {screen.session.prompt().text}")


async def play_to_the_end(pilot: Any, app: Any, max_moves: int = 600) -> dict[str, int]:
    """Play every human seat with the keyboard until the final payout; counts the steps met."""
    seen: dict[str, int] = {}
    for n in range(max_moves):
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return seen
        if isinstance(screen, HandoffScreen):
            await pilot.press("enter")
            continue
        if not isinstance(screen, GameScreen):
            await pilot.pause()
            continue
        prompt = screen.session.prompt()
        if prompt is None or screen.session.is_bot(prompt.seat):
            await pilot.pause()
            continue
        step = str(screen.session.state.step)
        seen[step] = seen.get(step, 0) + 1
        await answer(pilot, app, n)
    raise AssertionError("the game did not end")


@run_async
async def test_two_players_and_a_bot_play_the_last_turn_to_the_final_payout() -> None:
    record = bot_record(7, TWO_HUMANS_AND_A_BOT, game=GAME)
    ruleset = load_ruleset(GAME)
    start = first_index(record, lambda g: g.state.turn == 5)
    app = RailgamesApp(load_path=write(truncated(record, start)), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = await play_to_the_end(pilot, app)
        # Auctions, building and the final claims all came up for the people.
        assert {"auction", "build", "claim"} <= set(seen), seen
        assert isinstance(app.screen, GameOverScreen)
        result = app.session.game.result()
        assert result is not None
        text = screen_text(app)
        assert "Game over" in text and "Share worth" in text and "a share" in text
        for name in ("Ann", "Bob", "Cy"):
            assert f"${result.scores[name]}" in text
        # The saved record replays to the same result.
        saved = load_record(app.session.save_path)
        assert Game.replay(ruleset, saved).result() == result
        await pilot.press("enter")
        assert app.screen.__class__.__name__ == "LauncherScreen"


@run_async
async def test_three_humans_finish_the_final_claims() -> None:
    path = cut(11, lambda g: g.state.step == "claim")
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seen = await play_to_the_end(pilot, app)
        assert set(seen) == {"claim"}
        assert isinstance(app.screen, GameOverScreen)


@run_async
async def test_a_first_build_is_chosen_on_the_board_start_then_destination() -> None:
    path = cut(7, lambda g: g.state.step == "build" and not g.state.active_company().reached
               and g.state.active_company().cubes >= 3 and "BAL-PIT" not in g.state.track)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        board = screen.board
        assert board.has_focus
        company = screen.session.state.active_company().id
        # The starting locations are the choices, and the board shows them.
        starts = {a.start for a in screen.session.prompt().choices}
        assert set(board.highlighted) == starts
        board.move_cursor_to("BAL")
        await pilot.pause()
        # Pointing at Baltimore shows where a first link from there goes, with its profit.
        shown = {parse_route_mark(m) for m in board.path}
        assert ("BAL-PIT", "PIT", 40) in shown
        await pilot.press("enter")
        await pilot.pause()
        assert screen.panel.prefix and screen.panel.prefix[0][0] == "BAL"
        assert "PIT" in board.highlighted and "BAL" not in board.highlighted
        board.move_cursor_to("PIT")
        await pilot.pause()
        assert board.value_text("PIT") == "+40"
        assert "Pittsburgh" in screen_text(app) and "+$40" in screen_text(app)
        before = len(actions_of(app))
        await pilot.press("enter")
        await pilot.pause()
        assert len(actions_of(app)) == before + 1
        last = actions_of(app)[-1]
        assert last["type"] == "build" and last["company"] == company
        assert last["route"] == "BAL-PIT" and last["start"] == "BAL"
        state = app.session.state
        assert state.track["BAL-PIT"] == company
        assert state.companies[company].profit == 40  # Pittsburgh's $40, never Baltimore's


@run_async
async def test_the_list_walks_the_builds_and_the_board_follows() -> None:
    path = cut(7, lambda g: g.state.step == "build" and bool(g.state.active_company().links)
               and len({a.route for a in g.prompt().choices}) >= 3)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("tab")
        options = screen.panel.query_one("#ap-options")
        assert options.has_focus
        await pilot.press("down")
        await pilot.pause()
        key = screen.panel.options[options.highlighted][0]
        assert options.has_focus, "the list keeps the keyboard while it is walked"
        assert key in screen.board.places
        assert screen.board.cursor_city == key
        gains = [parse_route_mark(m) for m in screen.board.path]
        assert gains and all(target == key and gain is not None for _, target, gain in gains)
        assert screen.board.value_text(key) == f"+{gains[0][2]}"
        before = len(actions_of(app))
        await pilot.press("enter")
        await pilot.pause()
        assert len(actions_of(app)) == before + 1
        last = actions_of(app)[-1]
        assert last["type"] == "build"
        route = load_ruleset(GAME).route(last["route"])
        assert key in (route.a, route.b)


def room_to_bid(g: Game) -> bool:
    """Bidding, with a high bid the bidder can top by two and a third player still in."""
    a = g.state.auction
    if g.state.step != "bidding" or a is None:
        return False
    return a.high_bid + 2 <= g.state.players[a.to_act].cubes and len(a.bidders) == 3


@run_async
async def test_bids_are_typed_in_cubes_and_p_passes() -> None:
    path = cut(7, room_to_bid)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        auction = screen.session.state.auction
        high, seat = auction.high_bid, auction.to_act
        text = screen_text(app)
        assert f"({high + 1}–" in text and " cubes)" in text and "$" not in text.split("Bid:")[1][:20]
        assert f"High bid {high} cube" in text
        # A bid of more cubes than the bidder holds is refused with the reason.
        before = len(actions_of(app))
        await pilot.press("9", "9", "enter")
        await pilot.pause()
        assert len(actions_of(app)) == before
        assert "needs" in screen.panel.query_one("#ap-reason").render().plain
        await pilot.press("backspace", "backspace", *str(high + 1), "enter")
        await pilot.pause()
        assert actions_of(app)[-1] == {"type": "bid", "seat": seat, "amount": high + 1}
        # The next bidder passes with p.
        nxt = screen.session.prompt()
        assert nxt is not None and str(screen.session.state.step) == "bidding"
        await pilot.press("p")
        await pilot.pause()
        assert actions_of(app)[-1] == {"type": "pass_bid", "seat": nxt.seat}


@run_async
async def test_choosing_a_place_that_is_not_a_choice_is_refused() -> None:
    path = cut(7, lambda g: g.state.step == "build" and bool(g.state.active_company().links))
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.board
        away = next(p for p in board.places if p not in board.highlighted)
        board.move_cursor_to(away)
        before = len(actions_of(app))
        await pilot.press("enter")
        await pilot.pause()
        assert len(actions_of(app)) == before
        reason = screen.panel.query_one("#ap-reason").render().plain
        # The rules' own reason, not a bare "not one of the choices".
        assert "not one of the choices" not in reason
        assert load_ruleset(GAME).location_name(away) in reason


def only_loops(g: Game) -> bool:
    """A company with track that can only join two places it already reaches."""
    if g.state.step != "build" or not g.state.active_company().reached:
        return False
    reached = set(g.state.active_company().reached)
    rules = g.ruleset
    return all({rules.route(a.route).a, rules.route(a.route).b} <= reached
               for a in g.prompt().choices)


@run_async
async def test_a_company_left_with_loops_only_chooses_from_the_list() -> None:
    path = cut(7, only_loops)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert not screen.panel.board_level
        assert screen.panel.query_one("#ap-options").has_focus
        route = screen.panel.options[0][0].removeprefix("·loop:")
        assert [parse_route_mark(m) for m in screen.board.path] == [(route, None, None)]
        assert "(a loop): 1 cube, +$0" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert actions_of(app)[-1]["route"] == route


@run_async
async def test_from_the_launcher_a_new_game_starts_with_the_auctions() -> None:
    from railgames.app.screens.launcher import LauncherScreen
    from railgames.app.screens.setup import SetupScreen

    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, LauncherScreen)
        while app.screen.selected != GAME:
            await pilot.press("down")
        await pilot.press("enter")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.ruleset.id == GAME
        assert str(screen.session.state.step) == "auction"
        text = screen_text(app)
        assert "Put a company up for auction, or pass the marker" in text
        assert "Company" in text and "Run by" in text


@run_async
async def test_bots_names_show_whole_in_the_players_table_at_120x40() -> None:
    # Six seats late in the game, every one holding shares: the widest the table gets.
    # A bot's seat is named as the app names it, "Cat (search bot)"; the table shows
    # the name and the kind short, never "Cat (search …".
    ruleset = load_ruleset(GAME)
    seats = [PlayerSpec(name="Annabelle"), PlayerSpec(name="Bob"),
             PlayerSpec(name="Cat (search bot)", kind="search"),
             PlayerSpec(name="Dan (search bot)", kind="search:hard"),
             PlayerSpec(name="Eve (greedy bot)", kind="greedy"),
             PlayerSpec(name="Fay (random bot)", kind="random")]
    record = play_bot_game(ruleset, bot_players(6, "greedy"), 5).record.model_copy(deep=True)
    record.players = seats
    upto = first_index(record, lambda g: g.state.turn == 5 and g.prompt() is not None
                       and g.prompt().seat == 0)
    app = RailgamesApp(load_path=write(truncated(record, upto)), bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines()
                if any(f" {n} " in line for n in ("Annabelle", "Bob", "Cat", "Dan", "Eve", "Fay"))]
        table = "\n".join(rows)
        assert all(p.shares for p in app.session.state.players), "every seat holds shares"
        for shown in ("Annabelle", "Bob", "Cat (search)", "Dan (search+)", "Eve (greedy)",
                      "Fay (random)"):
            assert shown in table, table
        assert "…" not in table, table
