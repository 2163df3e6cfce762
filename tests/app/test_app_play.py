"""Playing through the app with the keyboard, as people at one keyboard would."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Checkbox

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.continue_ import ContinueScreen
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.app.screens.setup import SetupScreen
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec, load_record, save_record
from railgames.games import load_ruleset
from railgames.games.new_england.state import Step
from tests.app.driving import (
    at_ship_choice,
    bot_record,
    first_index,
    play_to_the_end,
    run_async,
    state_fields,
    truncated,
)

SIZE = (120, 40)


def write(record, name: str = "game.json") -> Path:
    path = saves_dir() / name
    save_record(record, path)
    return path


def three_humans(**kw) -> RailgamesApp:
    return RailgamesApp(
        new_game={"game": "new-england", "players": [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                  "seed": 5},
        bot_delay=0, **kw)


@run_async
async def test_enter_enter_starts_a_game_from_the_launcher() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        session = app.screen.session
        assert [p.name for p in session.game.players] == ["Ann", "Bob", "Cat"]
        assert session.save_path.is_file()


@run_async
async def test_three_humans_finish_a_game_with_the_keyboard() -> None:
    record = bot_record(7)
    ruleset = load_ruleset("new-england")
    # Start two turns before the end: loans, auctions, shipping and the final scores all come up.
    last_turn = Game.replay(ruleset, record).state.turn
    start = first_index(record, lambda g: g.state.turn == last_turn - 1)
    path = write(truncated(record, start))
    app = RailgamesApp(load_path=path, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen | HandoffScreen)
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        game = app.session.game
        result = game.result()
        assert result is not None
        # The saved record replays to the same result.
        saved = load_record(app.session.save_path)
        assert Game.replay(ruleset, saved).result() == result
        await pilot.press("enter")
        assert app.screen.__class__.__name__ == "LauncherScreen"


@run_async
async def test_one_human_and_two_bots_play_the_last_turns() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"),
               PlayerSpec(name="Cat", kind="random")]
    record = bot_record(11, players)
    ruleset = load_ruleset("new-england")
    last_turn = Game.replay(ruleset, record).state.turn
    start = first_index(record, lambda g: g.state.turn == last_turn - 2)
    app = RailgamesApp(load_path=write(truncated(record, start)), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_to_the_end(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        game = app.session.game
        assert {a["seat"] for a in game.record.actions[start:]} == {0, 1, 2}
        assert Game.replay(ruleset, game.record).result() == game.result()


@run_async
async def test_a_refused_bid_shows_its_reason_and_changes_nothing() -> None:
    app = three_humans(handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter", "enter")  # three players take no loan
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.state.step is Step.AUCTION
        before = screen.session.game.record.model_copy(deep=True)
        state_before = state_fields(screen.session.state)
        await pilot.press("9", "9", "enter")
        reason = str(screen.query_one("#ap-reason").render())
        assert "a bid of $99 needs $89 more" in reason
        assert any("$99" in n.message for n in app._notifications)
        assert screen.session.game.record.actions == before.actions
        assert state_fields(screen.session.state) == state_before
        await pilot.press("p")  # still playable: the pass goes through
        assert len(screen.session.game.record.actions) == len(before.actions) + 1


@run_async
async def test_a_game_without_secrets_has_no_hand_off_unless_set_up_so() -> None:
    # New England hides nothing: three people take their loans one after another, each
    # decision straight on the game screen.
    app = three_humans()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.handoff
        seats = [screen.session.prompt().seat]
        for _ in range(3):
            await pilot.press("enter")  # no loan ($0)
            assert app.screen is screen
            seats.append(screen.session.prompt().seat)
        assert len(set(seats)) == 3 and screen.session.state.step is Step.AUCTION


@run_async
async def test_the_setup_screen_offers_the_hand_off_off_where_nothing_is_secret() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for game_id, ticked, can_change in (("new-england", False, True),
                                            ("paris-connection", True, False)):
            app.push_screen(SetupScreen(game_id))
            await pilot.pause()
            box = app.screen.query_one("#handoff", Checkbox)
            assert (box.value, box.disabled) == (ticked, not can_change), game_id
            app.pop_screen()
            await pilot.pause()
        # Ticked, New England's hand-off screen comes between two people.
        app.push_screen(SetupScreen("new-england", [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                                    seed=5))
        await pilot.pause()
        app.screen.query_one("#handoff", Checkbox).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.handoff
        await pilot.press("enter")  # no loan
        assert isinstance(app.screen, HandoffScreen)


@run_async
async def test_undo_from_the_hand_off_takes_back_your_own_move_but_never_a_draw() -> None:
    app = three_humans(handoff=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        first = screen.session.prompt().seat
        await pilot.press("enter")  # the first player takes no loan: hand-off to the next
        assert isinstance(app.screen, HandoffScreen)
        assert len(screen.session.game.record.actions) == 1
        assert "press u" in str(app.screen.query_one("#handoff-box").render())  # undo is allowed
        await pilot.press("u")  # still at the keyboard: take it back
        assert screen.session.game.record.actions == []
        assert app.screen is screen and screen.session.prompt().seat == first
        # Three loan decisions end the step: cubes and links are drawn, and the
        # auction's first bidder is asked to take the keyboard.
        await pilot.press("enter")  # first player, again no loan
        await pilot.press("enter", "enter")  # hand-off; second player: no loan
        await pilot.press("enter", "enter")  # hand-off; third player: no loan
        actions = list(screen.session.game.record.actions)
        assert len(actions) == 3 and screen.session.state.step is Step.AUCTION
        assert isinstance(app.screen, HandoffScreen)
        # The draws cannot be taken back, so the hand-off does not offer undo, and u does nothing.
        note = str(app.screen.query_one("#handoff-box").render())
        assert "press u" not in note
        await pilot.press("u")
        assert isinstance(app.screen, HandoffScreen)
        assert screen.session.game.record.actions == actions


@run_async
async def test_undo_never_takes_back_another_players_move() -> None:
    app = three_humans(handoff=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("enter")  # first player: no loan
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")  # the next player takes the keyboard
        actions = list(screen.session.game.record.actions)
        await pilot.press("u")
        reason = str(screen.query_one("#ap-reason").render())
        assert "not yours" in reason
        assert screen.session.game.record.actions == actions


@run_async
async def test_save_quit_and_continue_resumes_the_same_game() -> None:
    app = three_humans(handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter", "enter", "1", "enter", "p")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        record = screen.session.game.record.model_copy(deep=True)
        state = state_fields(screen.session.state)
        await pilot.press("s")
        await pilot.press("q")
        await pilot.press("y")
    assert app.return_code == 0
    again = RailgamesApp(bot_delay=0)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        assert isinstance(again.screen, ContinueScreen)
        await pilot.press("enter")
        await pilot.pause()
        screen = again.screen
        assert isinstance(screen, GameScreen)
        assert screen.session.game.record.actions == record.actions
        assert screen.session.game.record.seed == record.seed
        assert screen.session.game.record.players == record.players
        assert state_fields(screen.session.state) == state
        assert screen.session.prompt() == Game.replay(load_ruleset("new-england"), record).prompt()


@run_async
async def test_shipping_walks_from_city_to_cube_to_destination_to_path() -> None:
    record = bot_record(7)
    upto = first_index(record, at_ship_choice)
    path = write(truncated(record, upto))
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        prompt = screen.session.prompt()
        ships = [a for a in prompt.choices if a.type == "ship"]
        board = screen.query_one("#board")
        assert board.has_focus
        assert set(board.highlighted) == {a.path[0] for a in ships}
        await pilot.press("tab", "enter")
        panel = screen.panel
        origin = panel.prefix[0][0]
        # Walk down to the last level, whatever auto-skipping happened on the way.
        for _ in range(4):
            if any(leaf is not None for _, _, leaf in panel.options):
                break
            await pilot.press("tab" if board.has_focus else "enter")
        labels = [label for _, label, _ in panel.options]
        assert all("+" in label for label in labels if "→" in label)
        await pilot.press("enter")
        last = screen.session.game.record.actions[-1]
        assert last["type"] == "ship" and last["path"][0] == origin
        assert any(a.model_dump(mode="json") == last for a in ships)


@run_async
async def test_command_palette_offers_the_legal_actions() -> None:
    from railgames.app.commands import GameCommands

    app = three_humans(handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter", "enter")
        screen = app.screen
        provider = GameCommands(screen)
        texts = [text for text, _, _ in provider._commands()]
        assert any(t.startswith("Pass on") for t in texts)
        assert "Bid $1" in texts
