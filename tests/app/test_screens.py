"""Every screen usable at 80x24: choices in reach, the log, help and a way out everywhere."""

from __future__ import annotations

import collections
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widgets import Input, OptionList, RichLog

from railgames.app.main import RailgamesApp
from railgames.app.screens.confirm import ConfirmScreen
from railgames.app.screens.continue_ import ContinueScreen
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.app.screens.help import HelpScreen
from railgames.app.screens.launcher import LauncherScreen
from railgames.app.screens.log import LogScreen
from railgames.app.screens.setup import SetupScreen
from railgames.app.widgets.amount import AmountBox
from railgames.app.widgets.chart import history_chart
from railgames.core.record import PlayerSpec
from tests.app.driving import run_async, screen_text
from tests.app.scenes import scenes

SMALL = (80, 24)

# Decisions made in a list, one scene of each kind per game (see scenes.py).
LIST_SCENES = ["ne_finish", "ne_ship_board", "shipping", "pc_turn_end", "pc_trade", "pc_build_end",
               "pc_board", "sd_auction_end", "sd_build_list", "sd_board", "sd_claim"]
AMOUNT_SCENES = ["ne_loans", "board", "sd_opening", "sd_bidding"]


def footer_keys(app: RailgamesApp) -> dict[str, str]:
    """Action -> description of every key the footer shows now."""
    return {b.action: b.description for _, b, _, _ in app.screen.active_bindings.values() if b.show}


# ------------------------------------------------------------ point 3: 80x24
@pytest.mark.parametrize("name", LIST_SCENES)
@run_async
async def test_every_choice_can_be_reached_and_is_seen_highlighted_at_80x24(name: str,
                                                                             tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")[name]()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        options = screen.query_one("#ap-options", OptionList)
        log = screen.query_one("#log", RichLog)
        assert options.option_count >= 1
        options.focus()
        options.highlighted = 0
        await pilot.pause()
        for index in range(options.option_count):
            if index:
                await pilot.press("down")
                await pilot.pause()
            assert options.highlighted == index
            # The list is whole on the screen, and the highlighted line is in its window.
            assert options.region.bottom <= app.size[1] - 1, "the list runs under the footer"
            assert options.region.height >= 1
            top = int(options.scroll_y)
            window = options.scrollable_content_region.height
            line = options._index_to_line[index]  # the option's first line in the list
            assert top <= line < top + window, f"option {index} is out of view"
            # The label of the highlighted option is on the screen.
            label = str(options.get_option_at_index(index).prompt).split()[0]
            assert label in screen_text(app)
        # The log keeps at least two lines of its own on the screen.
        assert log.region.height >= 2 and log.region.bottom <= app.size[1] - 1


@pytest.mark.parametrize("name", AMOUNT_SCENES)
@run_async
async def test_amount_fields_and_the_log_are_on_the_screen_at_80x24(name: str, tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")[name]()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        box = app.screen.query_one(AmountBox)
        assert app.focused is box
        assert box.region.height >= 1 and box.region.bottom <= app.size[1] - 1
        log = app.screen.query_one("#log", RichLog)
        assert log.region.height >= 2 and log.region.bottom <= app.size[1] - 1
        # The range is shown whole, never cut ("(1–10" was once all of it).
        text = screen_text(app)
        rendered = str(box.render())
        tail = rendered[rendered.index("("):] if "(" in rendered else ""
        assert tail.split()[-1] in text.replace("\n", " ")


@run_async
async def test_below_the_smallest_size_one_line_says_so_and_keys_do_nothing(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["sd_auction_end"]()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        before = len(screen.session.game.record.actions)
        text = screen_text(app)
        assert "Make the terminal at least 80×24" in text
        assert "Player" not in text  # nothing of the broken layout shows
        await pilot.press("enter", "p")
        await pilot.pause()
        assert len(screen.session.game.record.actions) == before
        # Made larger, the game is back where it was.
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Make the terminal" not in screen_text(app)
        assert isinstance(app.focused, OptionList)


@run_async
async def test_the_launcher_works_at_60x20_and_says_so_below() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert "Make the terminal" not in screen_text(app)
        await pilot.resize_terminal(50, 15)
        await pilot.pause()
        assert "Make the terminal at least 60×20" in screen_text(app)


# ------------------------------------------------------------ point 6: the log
@run_async
async def test_tab_goes_board_choices_log_and_the_log_scrolls_from_the_keyboard(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["shipping"]()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        screen.board.focus()
        await pilot.pause()
        await pilot.press("tab")
        assert isinstance(app.focused, OptionList)
        await pilot.press("tab")
        log = screen.query_one("#log", RichLog)
        assert app.focused is log
        assert log.max_scroll_y > 0
        end = log.scroll_y
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y < end
        await pilot.press("home")
        await pilot.pause()
        assert log.scroll_y == 0
        await pilot.press("end")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y
        await pilot.press("tab")
        assert app.focused is screen.board
        await pilot.press("shift+tab")
        assert app.focused is log


@run_async
async def test_l_shows_the_whole_log_of_what_the_seat_may_see(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["pc_turn_end"]()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seat = screen.viewer
        assert seat is not None
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen)
        game = screen.session.game
        assert app.screen.events == game.events_for(seat)
        # Some entries were another seat's secret, and those are not there.
        hidden = [e for e in game.log if not e.visible(seat)]
        assert hidden and not any(e in app.screen.events for e in hidden)
        # The whole game so far from its set-up, far more than the game screen's log shows.
        assert app.screen.events[0] == game.log[0] and len(app.screen.events) > 40
        await pilot.press("escape")
        assert app.screen is screen


# ------------------------------------------------------------ point 7: setup
@run_async
async def test_setup_focus_shows_enter_moves_on_and_only_start_starts() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        await pilot.pause()
        # Something is focused on opening, marked by a bar that needs no colour.
        assert app.focused is not None and app.focused.id == "start"
        start_row = [line for line in screen_text(app).splitlines() if "Start" in line][0]
        assert "▌" in start_row
        name = setup.query_one("#name-0", Input)
        name.focus()
        await pilot.pause()
        assert "▌" in [line for line in screen_text(app).splitlines() if "Seat 1" in line][0]
        await pilot.press("end", "x", "enter")
        await pilot.pause()
        assert app.screen is setup, "Enter in a name field started the game"
        assert app.focused is not name and app.focused is not None
        seed = setup.query_one("#seed", Input)
        seed.focus()
        await pilot.press("4", "2", "enter")
        await pilot.pause()
        assert app.screen is setup
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen | HandoffScreen)
        assert app.session.game.players[0].name == "Annx"
        assert app.session.game.record.seed == 42


@run_async
async def test_the_seed_note_of_a_game_with_secrets_is_not_cut() -> None:
    app = RailgamesApp(new_game={"game": "paris-connection", "players": None}, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        text = screen_text(app)
        assert "the seed would give the deal away" in text


# ------------------------------------------------------------ point 9: the footer
@run_async
async def test_the_footer_offers_only_keys_that_do_something(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["shipping"]()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        shown = footer_keys(app)
        assert "back" not in shown  # nothing to go back to at the top of the choice
        assert "choose" in shown  # the decision is a city on the board
        await pilot.press("enter")  # a city: now there is a level to go back from
        await pilot.pause()
        assert "back" in footer_keys(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "back" not in footer_keys(app)


@run_async
async def test_while_a_bot_thinks_the_footer_offers_no_choosing(tmp_path: Path) -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"),
               PlayerSpec(name="Cat", kind="greedy")]
    app = RailgamesApp(new_game={"game": "steel-driver", "players": players, "seed": 3},
                       bot_delay=60)  # the bot is still thinking when we look
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        prompt = screen.session.prompt()
        if not screen.session.is_bot(prompt.seat):  # Ann starts: let her pass the marker
            await pilot.press("p")
            await pilot.pause()
        prompt = screen.session.prompt()
        assert screen.session.is_bot(prompt.seat)
        shown = footer_keys(app)
        assert "choose" not in shown and "back" not in shown
        assert not any(a.startswith("hotkey") for a in shown)
        before = len(screen.session.game.record.actions)
        await pilot.press("enter")
        await pilot.pause()
        assert len(screen.session.game.record.actions) == before
        assert "not one of the choices" not in screen_text(app)


# ------------------------------------------------------------ point 11: cut labels
def test_the_income_and_cash_chart_never_cuts_its_figures() -> None:
    from rich.console import Console

    history = [[(t, t * 1000), (t * 2, 10 + t * 900), (3, 5)] for t in range(40)]
    console = Console(width=76, record=True, color_system=None)
    console.print(history_chart(["Annabelle", "Bob", "Cat"], history))
    text = console.export_text()
    assert "$0→$39000" in text and "$10→$35110" in text and "0→78" in text
    assert "…" not in text
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 76


@run_async
async def test_steel_drivers_opening_bid_range_shows_whole_at_120x40(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["sd_opening"]()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "(1–10 cubes)" in screen_text(app)


@run_async
async def test_the_loan_range_shows_whole_at_both_sizes(tmp_path: Path) -> None:
    for size in (SMALL, (120, 40)):
        app, keys = scenes(tmp_path / "records")["ne_loans"]()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert "steps of $10)" in screen_text(app).replace("\n", " ")


# ------------------------------------------------------------ point 13: help, a way out
@run_async
async def test_help_opens_on_setup_and_continue() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, LauncherScreen)
        await pilot.press("c")
        assert isinstance(app.screen, ContinueScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Continue" in screen_text(app)
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, LauncherScreen)


@pytest.mark.parametrize("key", ["q", "escape"])
@run_async
async def test_the_hand_off_screen_has_a_way_out(key: str, tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["handoff"]()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press(key)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("l")  # to the launcher
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)


# ------------------------------------------------------------ point 15: after the game
@run_async
async def test_the_game_over_screen_shows_the_final_board_and_the_whole_log(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["game_over"]()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(*keys)  # a finished save opens on its board; g shows the scores
        await pilot.pause()
        over = app.screen
        assert isinstance(over, GameOverScreen)
        await pilot.press("b")
        await pilot.pause()
        board = app.screen
        assert isinstance(board, GameScreen) and board.review
        assert board.session.prompt() is None
        assert app.focused is board.board  # the cursor can walk the final board
        cursor = board.board.cursor_city
        await pilot.press("right", "down", "right")
        assert board.board.cursor_city != cursor
        shown = footer_keys(app)
        assert "undo" not in shown and "save" not in shown and "back" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is over
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen)
        assert app.screen.events == over.session.game.events_for(None)
        assert "Game over" in screen_text(app)  # opened at the end: the last entry shows
        await pilot.press("escape")
        assert app.screen is over


@run_async
async def test_the_log_wraps_again_when_the_terminal_changes_size(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["shipping"]()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        log = app.screen.query_one("#log", RichLog)
        for size in ((120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            width = log.scrollable_content_region.width
            assert max(strip.cell_length for strip in log.lines) <= width
            assert min(len(strip.text.rstrip()) for strip in log.lines[-3:]) > 0


@run_async
async def test_setup_fits_60x20_with_nothing_cut() -> None:
    app = RailgamesApp(new_game={"game": "paris-connection", "players": None}, bot_delay=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        lines = screen_text(app).splitlines()
        seats = [line for line in lines if line.strip().startswith("Seat")]
        assert seats and all("▼" in line for line in seats)  # every dropdown whole
        assert any(line.rstrip().endswith("secrets)") for line in lines)
        assert any("the seed would give the deal away" in line for line in lines)


@run_async
async def test_a_game_waiting_for_a_larger_terminal_stays_idle(tmp_path: Path) -> None:
    """Too small a terminal hides the board: nothing may keep asking, frame after frame,
    for a size it does not have (the app would use a whole core while it waits)."""
    from textual.message_pump import MessagePump

    app, keys = scenes(tmp_path / "records")["sd_auction_end"]()
    posted: list[str] = []
    original = MessagePump.post_message

    def counting(pump: Any, message: Any) -> bool:
        posted.append(type(message).__name__)
        return original(pump, message)

    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.press(*keys)
        MessagePump.post_message = counting  # type: ignore[method-assign]
        try:
            await pilot.pause(0.5)
        finally:
            MessagePump.post_message = original  # type: ignore[method-assign]
        # Half a second of nothing: a few timers' messages, not thousands.
        assert len(posted) < 200, collections.Counter(posted).most_common(3)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        board = app.screen.query_one("#board")
        view = Region(*board.scroll_offset, *board.scrollable_content_region.size)
        assert view.contains_region(board.city_region(board.cursor_city))
