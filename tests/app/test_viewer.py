"""The viewer: demos that play themselves, replays stepped both ways, and History mid-game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.app.screens.launcher import LauncherScreen
from railgames.app.screens.setup import SetupScreen
from railgames.app.screens.viewer import ViewerScreen
from railgames.app.widgets.footer import KeyFooter
from railgames.core.demo import demo_record
from railgames.core.engine import Game
from railgames.core.narration import narrate, rules_fired
from railgames.core.record import GameRecord, PlayerSpec, load_record, save_record
from railgames.core.rulebook import rulebook
from railgames.games import load_ruleset, playable_games, ruleset_class
from railgames.games.paris_connection.ui import holdings_line
from tests.app.driving import bot_record, narration_of, run_async, screen_text, truncated, wait_for

SIZE = (120, 40)


@run_async
async def test_a_demo_plays_to_the_end_unattended_and_offers_a_real_game() -> None:
    record = demo_record(load_ruleset("paris-connection"))
    app = RailgamesApp(watch={"record": record, "demo": True, "speed": 200.0})
    async with app.run_test(size=SIZE) as pilot:
        viewer = await wait_for(pilot, app, ViewerScreen)
        assert viewer.playing and viewer.recording.position < viewer.recording.length
        assert "everyone's holdings are shown" in " ".join(screen_text(app).split())
        over = await wait_for(pilot, app, GameOverScreen)
        assert viewer.recording.at_end
        result = Game.replay(load_ruleset("paris-connection"), record).result()
        assert result is not None and " and ".join(result.winners) in screen_text(app)
        # Every rule the game used was explained in full on the way.
        told = narration_of(viewer)
        book = rulebook(ruleset_class("paris-connection"))
        fired = rules_fired(Game.replay(load_ruleset("paris-connection"), record).log)
        for rule_id in fired:
            assert f"NEW RULE: {book[rule_id].title}" in told, rule_id
        assert over.viewer is viewer
        await pilot.press("p")  # Play this game
        setup = await wait_for(pilot, app, SetupScreen)
        assert setup.game_id == "paris-connection"
        assert [p.kind for p in setup.initial] == ["human", "greedy", "greedy", "greedy"]


@run_async
async def test_play_this_game_gives_the_person_a_plain_name() -> None:
    # A watched game whose bots were named on the command line the old way: the seat
    # handed to a person, and the bots' seats too, are set up by the names alone.
    record = demo_record(load_ruleset("paris-connection"))
    record.players = [PlayerSpec(name=f"{n} (greedy bot)", kind="greedy")
                      for n in ("Ada", "Ben", "Cy", "Di")]
    # The demo starts at its last action: the test above plays one through; here only
    # what its game-over screen offers counts.
    app = RailgamesApp(watch={"record": record, "demo": True, "speed": 200.0,
                              "start": len(record.actions) - 1})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, app, GameOverScreen)
        await pilot.press("p")  # Play this game
        setup = await wait_for(pilot, app, SetupScreen)
        names = [setup.query_one(f"#name-{seat}", Input).value for seat in range(4)]
        assert names == ["Ada", "Ben", "Cy", "Di"]
        assert [p.kind for p in setup.players()] == ["human", "greedy", "greedy", "greedy"]


@run_async
async def test_pause_step_step_back_and_jump() -> None:
    record = demo_record(load_ruleset("new-england"))
    ruleset = load_ruleset("new-england")
    app = RailgamesApp(watch={"record": record, "demo": True, "speed": 1.0})
    async with app.run_test(size=SIZE) as pilot:
        viewer = await wait_for(pilot, app, ViewerScreen)
        rec = viewer.recording
        await pilot.press("space")
        assert not viewer.playing
        start = rec.position
        for _ in range(3):
            await pilot.press("right")
        assert rec.position == start + 3
        await pilot.press("left")
        assert rec.position == start + 2
        assert viewer.board.state == Game.replay(ruleset, record, upto=start + 2).state
        shown = narration_of(viewer)
        last = " ".join(rec.events_for()[-1].text.split()[:4])
        assert last in " ".join(shown.split()[-80:])
        await pilot.press("plus")
        assert viewer.speed > 1.0
        await pilot.press("minus", "minus")
        assert viewer.speed < 1.0
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("3", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ViewerScreen)
        assert rec.position == rec.position_of_turn(3)
        assert viewer.ui.turn_of(rec.state) == 3
        assert "turn 3 · action" in screen_text(app)
        # Stepping back over a snapshot boundary and the turn's start.
        for _ in range(10):
            await pilot.press("left")
        assert rec.position == rec.position_of_turn(3) - 10
        assert viewer.board.state == Game.replay(ruleset, record, upto=rec.position).state
        await pilot.press("home")
        assert rec.position == 0
        await pilot.press("end")
        await wait_for(pilot, app, GameOverScreen)
        await pilot.press("h")  # back to the viewer, at the end
        assert app.screen is viewer and rec.at_end
        await pilot.press("question_mark")
        await pilot.pause()
        assert "space pause" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("escape")
        await wait_for(pilot, app, LauncherScreen)


def write(record: GameRecord, name: str) -> Path:
    path = saves_dir() / name
    save_record(record, path)
    return path


@run_async
async def test_watch_a_saved_record_both_ways() -> None:
    record = bot_record(6, game="steel-driver")
    path = write(record, "sd.json")
    app = RailgamesApp(watch={"record": load_record(path), "demo": False, "speed": 1.0})
    async with app.run_test(size=SIZE) as pilot:
        viewer = await wait_for(pilot, app, ViewerScreen)
        assert viewer.kind == "watch" and viewer.recording.reveal_all  # the game is over
        await pilot.press("space")
        await pilot.press("end")
        await wait_for(pilot, app, GameOverScreen)
        await pilot.press("h")
        for _ in range(5):
            await pilot.press("left")
        rec = viewer.recording
        assert rec.position == rec.length - 5
        assert rec.state == Game.replay(load_ruleset("steel-driver"), record, upto=rec.length - 5).state
        assert "Replay" in screen_text(app)


@run_async
async def test_watching_an_unfinished_secret_game_keeps_the_holdings_hidden() -> None:
    record = truncated(bot_record(3, game="paris-connection"), 20)
    app = RailgamesApp(watch={"record": record, "demo": False, "speed": 1.0})
    async with app.run_test(size=SIZE) as pilot:
        viewer = await wait_for(pilot, app, ViewerScreen)
        assert not viewer.recording.reveal_all
        told = narration_of(viewer)
        for player in record.players:
            assert f"{player.name} is dealt" not in told
        assert "holdings stay hidden" in screen_text(app)


def assert_only_own_secrets(app: Any, viewer: ViewerScreen, seat: int) -> None:
    full = viewer.recording.game.state
    rules = viewer.ruleset
    text = screen_text(app)
    told = narration_of(viewer)
    shown = viewer.board.state
    assert [p.shares is not None for p in shown.players] == [s == seat for s in range(len(full.players))]
    for other, player in enumerate(full.players):
        if other == seat:
            continue
        for hay in (text, told):
            assert f"{player.name} is dealt" not in hay
            assert player.shares is not None
            if player.shares != full.players[seat].shares:
                assert holdings_line(rules, player.shares).plain not in hay


@run_async
async def test_history_mid_game_never_shows_another_seats_secrets() -> None:
    record = truncated(bot_record(8, game="paris-connection"), 30)
    path = write(record, "pc-history.json")
    app = RailgamesApp(load_path=path, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        handoff = await wait_for(pilot, app, HandoffScreen)
        await pilot.press("enter")
        game = await wait_for(pilot, app, GameScreen)
        seat = game.viewer
        assert seat is not None and handoff.player == game.names[seat]
        await pilot.press("v")
        viewer = await wait_for(pilot, app, ViewerScreen)
        assert viewer.kind == "history" and viewer.recording.position == 30
        assert f"{game.names[seat]} is dealt" in narration_of(viewer)
        assert_only_own_secrets(app, viewer, seat)
        await pilot.press("home")
        assert_only_own_secrets(app, viewer, seat)
        for _ in range(12):
            await pilot.press("right")
        assert_only_own_secrets(app, viewer, seat)
        await pilot.press("end")
        assert isinstance(app.screen, ViewerScreen)  # no game over: the game goes on
        await pilot.press("escape")
        assert await wait_for(pilot, app, GameScreen) is game
        assert len(game.session.game.record.actions) == 30  # watching changed nothing


@run_async
async def test_every_game_in_the_launcher_has_a_demo() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for index, cls in enumerate(playable_games()):
            launcher = await wait_for(pilot, app, LauncherScreen)
            launcher.query_one("#game-list").highlighted = index
            await pilot.press("w")
            viewer = await wait_for(pilot, app, ViewerScreen)
            assert viewer.ruleset.id == cls.id and viewer.kind == "demo"
            await pilot.press("space", "right")
            assert viewer.recording.position >= 1
            await pilot.press("escape")


@run_async
async def test_history_from_the_game_over_screen_shows_the_whole_game() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob"), PlayerSpec(name="Cat")]
    record = bot_record(4, players)
    path = write(record, "ne-over.json")
    app = RailgamesApp(load_path=path, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, app, GameScreen)  # a finished game opens on its final board
        await pilot.press("g")
        await wait_for(pilot, app, GameOverScreen)
        await pilot.press("h")
        viewer = await wait_for(pilot, app, ViewerScreen)
        assert viewer.recording.position == 0 and not viewer.playing
        await pilot.press("right", "right")
        assert viewer.recording.position == 2
        await pilot.press("escape")
        await wait_for(pilot, app, GameOverScreen)


@run_async
async def test_at_120x40_the_paris_connection_viewers_show_the_whole_map() -> None:
    """Brest and Strasbourg, the map's west and east ends, show in the demo and in
    History alike."""
    ends = ("BRE", "STR")
    record = demo_record(load_ruleset("paris-connection"))
    app = RailgamesApp(watch={"record": record, "demo": True, "start": 5, "playing": False})
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, app, ViewerScreen)
        await pilot.pause()
        text = screen_text(app)
        assert all(end in text for end in ends), text
    path = write(truncated(bot_record(8, game="paris-connection"), 30), "pc-ends.json")
    app = RailgamesApp(load_path=path, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, app, HandoffScreen)
        await pilot.press("enter")
        await wait_for(pilot, app, GameScreen)
        await pilot.press("v")
        await wait_for(pilot, app, ViewerScreen)
        await pilot.pause()
        text = screen_text(app)
        assert all(end in text for end in ends), text


@run_async
async def test_on_a_narrow_screen_p_shows_the_players_holdings_in_a_demo() -> None:
    record = demo_record(load_ruleset("paris-connection"))
    app = RailgamesApp(watch={"record": record, "demo": True, "start": 5, "playing": False})
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await wait_for(pilot, app, ViewerScreen)
        state = viewer.recording.state
        first = state.players[0]
        line = f"{first.name}: " + holdings_line(viewer.ruleset, first.shares).plain
        assert line not in screen_text(app)  # the narration has the room
        await pilot.press("p")
        await pilot.pause()
        assert line in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert line not in screen_text(app)


@run_async
async def test_a_step_back_leaves_the_narration_as_a_fresh_view_of_that_moment() -> None:
    record = demo_record(load_ruleset("new-england"))

    async def narration_at(start: int, back: int) -> list[str]:
        app = RailgamesApp(watch={"record": record, "demo": True, "start": start, "playing": False})
        async with app.run_test(size=SIZE) as pilot:
            viewer = await wait_for(pilot, app, ViewerScreen)
            for _ in range(back):
                await pilot.press("left")
            await pilot.pause()
            assert viewer.recording.position == start - back
            return narration_of(viewer).splitlines()[-40:]

    assert await narration_at(120, 9) == await narration_at(111, 0)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run_async
async def test_n_jumps_to_the_next_rule_explained_for_the_first_time(size: tuple[int, int]) -> None:
    ruleset = load_ruleset("paris-connection")
    record = demo_record(ruleset)
    told = narrate(Game.replay(ruleset, record).log, rulebook(ruleset_class("paris-connection")))
    # Position p shows the events of actions before p: a rule new in action a shows at a + 1.
    firsts = {t.event.action + 1: t.first for t in reversed(told) if t.first and t.event.action >= 0}
    app = RailgamesApp(watch={"record": record, "demo": True, "speed": 1.0})
    async with app.run_test(size=size) as pilot:
        viewer = await wait_for(pilot, app, ViewerScreen)
        assert " n New rule " in viewer.query_one(KeyFooter).text()
        await pilot.press("space")
        for _ in range(3):
            before = viewer.recording.position
            expected = min(p for p in firsts if p > before)
            await pilot.press("n")
            await pilot.pause()
            assert viewer.recording.position == expected > before
            assert not viewer.playing
            shown = narration_of(viewer)
            assert f"NEW RULE: {firsts[expected][0].title}" in shown
            assert "NEW RULE" in screen_text(app)
        # Past the last new rule, n says so and stays put.
        viewer.recording.seek(max(firsts))
        viewer.show()
        await pilot.press("n")
        await pilot.pause()
        assert viewer.recording.position == max(firsts)
        await pilot.press("question_mark")  # the help names the key too
        await pilot.pause()
        assert "n the next new rule" in (app.screen.step_help or "")

