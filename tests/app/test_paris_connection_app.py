"""Paris Connection in the app: hot-seat play with secret holdings, through the hand-off
screens to the final reveal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Checkbox, RichLog

from railgames.app.commands import GameCommands
from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.app.screens.launcher import LauncherScreen
from railgames.app.screens.setup import SetupScreen
from railgames.core.engine import Game
from railgames.core.record import GameRecord, PlayerSpec, load_record, save_record
from railgames.games import load_ruleset, playable_games
from railgames.games.paris_connection.state import Step
from railgames.games.paris_connection.ui import holdings_line
from tests.app.driving import bot_record, first_index, run_async, screen_text, truncated

SIZE = (120, 40)
GAME = "paris-connection"


def write(record: GameRecord, name: str = "pc.json") -> Path:
    path = saves_dir() / name
    save_record(record, path)
    return path


def near_the_end(seed: int, turns_before: int, players: list[PlayerSpec] | None = None) -> Path:
    """A greedy bots' game cut ``turns_before`` turns before its end, seats given to ``players``."""
    record = bot_record(seed, players, game=GAME)
    last = Game.replay(load_ruleset(GAME), record).state.turn
    start = first_index(record, lambda g: g.state.turn == last - turns_before)
    return write(truncated(record, start))


def game_screen_of(app: Any) -> GameScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, GameScreen))


def assert_no_other_secrets(app: Any, viewer: int | None) -> None:
    """Only ``viewer``'s holdings are anywhere on screen (or in the log, scrolled or not)."""
    screen = game_screen_of(app)
    game = screen.session.game
    rules = game.ruleset
    full = game.state
    seats = range(len(full.players))
    assert screen.viewer == viewer
    # Every widget was given the viewer's view: its own holdings, no one else's.
    track = screen.query_one("#pc-track")
    for shown in (screen.board.state, screen.panel.state, track.state):
        assert [p.shares is not None for p in shown.players] == [s == viewer for s in seats]
    text = screen_text(app)
    log_text = "\n".join(line.text for line in screen.query_one("#log", RichLog).lines)
    mine = full.players[viewer].shares if viewer is not None else None
    if mine is not None:
        own = "Yours: " + holdings_line(rules, mine).plain
        if app.screen is screen:
            assert own in text, "the player at the keyboard sees their holdings"
        text = text.replace(own, "")
        assert f"{full.players[viewer].name} is dealt" in log_text
    else:
        assert "Yours:" not in text
    for seat in seats:
        if seat == viewer:
            continue
        player = full.players[seat]
        assert player.shares is not None
        for where, hay in (("screen", text), ("log", log_text)):
            assert f"{player.name} is dealt" not in hay, (where, player.name)
            if player.shares == mine:
                continue
            assert holdings_line(rules, player.shares).plain not in hay, (where, player.name)
            words = rules.holding_text(player.shares)
            if "," in words:
                assert words not in hay, (where, player.name)


async def take_a_turn_step(pilot: Any, screen: GameScreen) -> None:
    """Do one thing with the keys: build the first listed company at the cursor, or trade."""
    session = screen.session
    prompt = session.prompt()
    assert prompt is not None
    before = len(session.game.record.actions)
    builds = [a for a in prompt.choices if a.type == "build"]
    if session.state.step is Step.BUILD:
        keys = ["enter"] if builds else ["e"]
    else:
        keys = ["enter", "enter", "enter"]  # company then hex; or trade, give, take
    for key in keys:
        await pilot.press(key)
        if len(session.game.record.actions) != before or pilot.app.screen is not screen:
            return
    raise AssertionError(f"keys {keys} did nothing at {prompt.step}: {prompt.text}")


@run_async
async def test_three_humans_play_to_the_end_seeing_only_their_own_holdings() -> None:
    path = near_the_end(12, 3)
    # Asked for no hand-off screens: a game with secrets has them all the same.
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        handoffs: list[str] = []
        seen_turns: set[tuple[int, int]] = set()
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if isinstance(screen, HandoffScreen):
                # Before anyone presses Enter the game below shows nobody's holdings.
                assert_no_other_secrets(app, None)
                assert screen.player in screen_text(app)
                handoffs.append(screen.player)
                await pilot.press("enter")
                await pilot.pause()
                continue
            assert isinstance(screen, GameScreen)
            prompt = screen.session.prompt()
            assert prompt is not None
            assert_no_other_secrets(app, prompt.seat)
            seen_turns.add((screen.session.state.turn, prompt.seat))
            await take_a_turn_step(pilot, screen)
            await pilot.pause()
        else:
            raise AssertionError("the game did not end")
        assert len(handoffs) >= 3 and set(handoffs) == {"Ann", "Bob", "Cat"}
        # One hand-off for each turn (the first included: loading a game shows no one's hand).
        assert len(handoffs) == len({turn for turn, _ in seen_turns})
        session = app.session
        assert session is not None
        result = session.game.result()
        assert result is not None
        # The screens come down: every player's holdings by company, the values, the total.
        text = screen_text(app)
        final = session.state
        for player in final.players:
            assert player.name in text
            parts = final.final[player.name]
            for company, count in (player.shares or {}).items():
                assert f"{count}={parts[company]}" in text
            assert str(parts["total"]) in text
        for company in final.value:
            assert f"×{final.value[company]}" in text
        assert "Penalty" in text and "Total" in text
        assert Game.replay(load_ruleset(GAME), load_record(session.save_path)).result() == result


@run_async
async def test_nothing_private_shows_while_a_bot_moves_between_two_humans() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"), PlayerSpec(name="Cat")]
    path = near_the_end(7, 5, players)  # room for the bot to move at least twice
    app = RailgamesApp(load_path=path, bot_delay=60)  # the bot waits until told to move
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        watched = 0
        for _ in range(300):
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if isinstance(screen, HandoffScreen):
                assert_no_other_secrets(app, None)
                await pilot.press("enter")
                await pilot.pause()
                continue
            assert isinstance(screen, GameScreen)
            prompt = screen.session.prompt()
            assert prompt is not None
            if screen.session.is_bot(prompt.seat):
                # The human who just moved has left the keyboard's screen bare.
                assert_no_other_secrets(app, None)
                assert "Bob is thinking" in screen_text(app)
                watched += 1
                screen._bot_move()
                await pilot.pause()
                continue
            assert_no_other_secrets(app, prompt.seat)
            await take_a_turn_step(pilot, screen)
            await pilot.pause()
        else:
            raise AssertionError("the game did not end")
        assert watched >= 2
        assert isinstance(app.screen, GameOverScreen)


@run_async
async def test_the_hand_off_cannot_be_switched_off() -> None:
    path = near_the_end(12, 3)
    app = RailgamesApp(load_path=path, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.handoff
        screen.set_handoff(False)
        await pilot.pause()
        assert screen.handoff
        assert any("stays on" in n.message for n in app._notifications)
        texts = [text for text, _, _ in GameCommands(screen)._commands()]
        assert not any("hand-off" in t.lower() for t in texts)
        assert any(t.startswith("Place a ") or t.startswith("Trade:") for t in texts)
        # The setup screen shows the hand-off as always on.
        app.push_screen(SetupScreen(GAME))
        await pilot.pause()
        box = app.screen.query_one("#handoff", Checkbox)
        assert box.value and box.disabled


@run_async
async def test_new_england_keeps_its_hand_off_switch() -> None:
    app = RailgamesApp(new_game={"game": "new-england", "players": [PlayerSpec(name=n) for n in
                                                                    ("Ann", "Bob", "Cat")],
                                 "seed": 5}, bot_delay=0, handoff=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and not screen.handoff and not screen.hidden
        texts = [text for text, _, _ in GameCommands(screen)._commands()]
        assert "Turn hand-off screens on" in texts
        screen.set_handoff(True)
        assert screen.handoff


@run_async
async def test_from_the_launcher_a_new_game_starts_behind_the_hand_off() -> None:
    assert GAME in [g.id for g in playable_games()]
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, LauncherScreen)
        await pilot.press("down")
        assert app.screen.selected == GAME
        await pilot.press("enter")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("enter")
        await pilot.pause()
        # Whoever started the game is not necessarily the first player.
        assert isinstance(app.screen, HandoffScreen)
        first = app.screen.player
        assert_no_other_secrets(app, None)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.names[screen.viewer or 0] == first
        assert_no_other_secrets(app, screen.viewer)


@run_async
async def test_a_build_goes_company_then_hex_and_a_placement_can_be_taken_back() -> None:
    app = RailgamesApp(new_game={"game": GAME, "players": [PlayerSpec(name=n) for n in
                                                           ("Ann", "Bob", "Cat")], "seed": 4},
                       bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # the hand-off
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seat = screen.viewer
        panel = screen.panel
        assert [k for k, _, _ in panel.options][-1] == "trade"
        await pilot.press("down", "enter")  # the second company listed: yellow
        assert panel.prefix == [("build:yellow", False)]
        assert screen.board.has_focus
        prompt = screen.session.prompt()
        assert prompt is not None
        assert screen.board.highlighted == {f"{a.hex[0]},{a.hex[1]}" for a in prompt.choices
                                            if a.type == "build" and a.company == "yellow"}
        await pilot.press("enter")
        actions = screen.session.game.record.actions
        assert actions[-1]["type"] == "build" and actions[-1]["company"] == "yellow"
        placed = tuple(actions[-1]["hex"])
        await pilot.press("enter")
        assert len(actions) == 2
        await pilot.press("u")
        await pilot.pause()
        assert len(screen.session.game.record.actions) == 1
        assert isinstance(app.screen, GameScreen), "taking back a placement needs no hand-off"
        assert screen.viewer == seat
        await pilot.press("e")  # end the build: the turn passes behind the hand-off
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        assert screen.viewer is None
        assert screen.session.game.record.actions[0]["hex"] == list(placed)


@run_async
async def test_the_next_place_is_asked_for_where_the_last_one_was_chosen() -> None:
    """A placement chosen from the list leaves the focus in the list for the next one, and
    one chosen on the board leaves it on the board: no Tab before each locomotive."""
    app = RailgamesApp(new_game={"game": GAME, "players": [PlayerSpec(name=n) for n in
                                                           ("Ann", "Bob", "Cat")], "seed": 4},
                       bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # the hand-off
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        options = screen.panel.query_one("#ap-options")
        actions = screen.session.game.record.actions
        seat = screen.viewer
        await pilot.press("down", "enter")  # yellow: its hexes are chosen on the board
        assert screen.board.has_focus
        await pilot.press("tab")  # to the list
        assert options.has_focus
        for placed in (1, 2):
            await pilot.press("enter")
            await pilot.pause()
            assert len(actions) == placed and actions[-1]["type"] == "build"
            assert options.has_focus, f"the list lost the focus after placement {placed}"
            # The board cursor is on the hex the list offers first.
            assert screen.board.cursor_city == screen.panel.options[options.highlighted][0]
        await pilot.press("shift+tab")  # back to the board
        assert screen.board.has_focus
        for placed in (3, 4):
            await pilot.press("enter")
            await pilot.pause()
            assert len(actions) == placed and actions[-1]["type"] == "build"
            assert screen.board.has_focus, f"the board lost the focus after placement {placed}"
        # Ending the build from the list is no place chosen: this player's next build is
        # asked for on the board still.
        await pilot.press("tab")
        assert options.has_focus
        await pilot.press("end", "enter")
        await pilot.pause()
        assert actions[-1]["type"] == "end_build"
        assert seat not in screen._list_pickers


@run_async
async def test_a_trade_goes_return_then_take() -> None:
    app = RailgamesApp(new_game={"game": GAME, "players": [PlayerSpec(name=n) for n in
                                                           ("Ann", "Bob", "Cat")], "seed": 4},
                       bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        seat = screen.viewer
        assert seat is not None
        shares = dict(screen.session.state.players[seat].shares)
        await pilot.press("end", "enter")  # Trade
        panel = screen.panel
        assert panel.prefix == [("trade", False)]
        gives = [k for k, _, _ in panel.options]
        assert gives == [f"give:{c}" for c in shares]
        await pilot.press("enter", "down", "enter")  # return the first; take two of the first
        last = screen.session.game.record.actions[-1]
        first = next(iter(shares))
        assert last["type"] == "trade" and last["give"] == first and last["count"] == 2
        assert isinstance(app.screen, HandoffScreen)
