"""The tutorial on the game screen: its lesson under the game, the expected move
highlighted, a move that would lose the lesson refused with its reason (nothing
changes), another allowed where nothing hangs on it, and the end offering a real game."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.screens.setup import SetupScreen
from railgames.app.screens.tutorial_end import TutorialEndScreen
from railgames.app.widgets.lesson import LessonPanel
from railgames.core.search import action_key
from railgames.core.tutorial import candidates, probe
from railgames.tables.coached import CoachedTable
from tests.app.driving import run_async


def to_learner(table: CoachedTable) -> None:
    while table.bot_to_move():
        table.bot_step()


def reason_shown(screen: GameScreen) -> str:
    shown = screen.panel.query_one("#ap-reason", Static).render()
    return shown.plain if isinstance(shown, Text) else str(shown)


@run_async
async def test_a_move_the_lesson_hangs_on_is_refused_and_another_is_allowed() -> None:
    app = RailgamesApp(tutorial="railways-of-the-world", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        table = screen.session
        assert isinstance(table, CoachedTable)
        assert screen.query_one(LessonPanel).lesson is not None
        # On along the expected path to a decision where another move loses the lesson.
        other = None
        while other is None:
            to_learner(table)
            exp = table.expected()
            assert exp is not None
            prompt = table.prompt()
            assert prompt is not None
            if exp.new:
                other = next((a for a in candidates(table.ruleset, prompt)
                              if action_key(a) != action_key(exp.action)
                              and not set(exp.new) <= set(probe(table.ruleset, table.state, a))
                              and screen.panel.suggest(a)), None)
            if other is None:
                table.submit(exp.action)
            screen.refresh_all()
            await pilot.pause()
        before = list(table.record.actions)
        assert screen.panel.suggest(other)
        await pilot.press("enter")
        await pilot.pause()
        assert table.record.actions == before  # nothing changed
        reason = reason_shown(screen)
        assert "highlighted move shows" in reason and "\n" not in reason.strip()
        # The expected move is highlighted again: Enter takes it.
        await pilot.press("enter")
        await pilot.pause()
        assert table.record.actions[len(before)] == (
            exp.action.model_dump(mode="json") if not isinstance(exp.action, dict) else exp.action)
        # On to a decision where nothing new hangs on the move: another is taken.
        while True:
            to_learner(table)
            exp = table.expected()
            assert exp is not None
            free = [a for a in candidates(table.ruleset, table.prompt())  # type: ignore[arg-type]
                    if action_key(a) != action_key(exp.action)]
            screen.refresh_all()
            await pilot.pause()
            if not exp.new and free and screen.panel.suggest(free[0]):
                break
            table.submit(exp.action)
        count = len(table.record.actions)
        await pilot.press("enter")
        await pilot.pause()
        assert len(table.record.actions) > count
        assert table.record.actions[count] == free[0].model_dump(mode="json")


@run_async
async def test_the_launcher_opens_the_tutorial_and_its_end_offers_a_real_game() -> None:
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down")  # Paris Connection, second in the list
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        table = screen.session
        assert isinstance(table, CoachedTable) and table.ruleset.id == "paris-connection"
        await pilot.press("f1")
        await pilot.pause()
        assert "In the tutorial" in str(app.screen.query_one("#help-table").source)  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        while not table.is_over():  # the learner takes every expected move
            to_learner(table)
            if not table.is_over():
                table.submit(table.lesson.expected)
        screen.refresh_all()
        for _ in range(5):
            await pilot.pause()
        end = app.screen
        assert isinstance(end, TutorialEndScreen)
        assert end.lesson.finished and not end.lesson.untaught
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert app.screen.game_id == "paris-connection"  # type: ignore[attr-defined]


@run_async
async def test_the_hosts_own_games_launcher_opens_the_tutorial_too() -> None:
    from railgames.net.app import NetApp, NetLauncherScreen
    from tests.app.test_net_launcher import TablesLink, shown

    app = NetApp(TablesLink())  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await shown(pilot, app, "tables")
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, NetLauncherScreen)
        await pilot.press("down", "l")  # Paris Connection
        for _ in range(3):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.session, CoachedTable)
        assert screen.query_one(LessonPanel).lesson is not None


@run_async
async def test_a_tutorials_bots_move_briskly_whatever_the_apps_bot_pace() -> None:
    """Their moves wait in the lesson for the learner's next decision: at the app's own
    pace (30 s here) New England's 435 bot moves would take hours."""
    app = RailgamesApp(tutorial="american-rails", bot_delay=30)  # the learner sits third
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        table = screen.session
        for _ in range(200):
            prompt = table.prompt()
            if prompt is not None and not table.is_bot(prompt.seat):
                break
            await pilot.pause(0.05)
        prompt = table.prompt()
        assert prompt is not None and not table.is_bot(prompt.seat), "the bots never moved"
        assert table.played() >= 2  # both bots moved before the learner's first decision
