"""Saves in the app: written once a move shows and before the next key, Continue's lists, delete and rename,
and a game already open in another window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from railgames.app.main import RailgamesApp
from railgames.app.saves import saves_dir
from railgames.app.screens.confirm import ConfirmScreen
from railgames.app.screens.continue_ import ContinueScreen, RenameScreen
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.core.record import PlayerSpec, load_record, save_record
from railgames.tables.local import Session
from tests.app.driving import bot_record, run_async, screen_text, truncated

SIZE = (120, 40)


def write(record, name: str) -> Path:
    path = saves_dir() / name
    save_record(record, path)
    return path


def finished_and_live() -> tuple[Path, Path]:
    record = bot_record(7)
    done = write(record, "done.json")
    live = write(truncated(record, 20), "live.json")
    return done, live


def new_game_app() -> RailgamesApp:
    return RailgamesApp(new_game={"game": "new-england", "players": [
        PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")], "seed": 5}, bot_delay=0, handoff=False)


def saved_actions(screen: GameScreen) -> int:
    path = screen.session.save_path
    assert path is not None
    return len(load_record(path).actions)


@run_async
async def test_a_move_is_shown_then_on_disk_before_the_next_key_is_handled(monkeypatch) -> None:
    # The frame that shows a move does not wait for the disk; the save is written once
    # it is drawn, and in any case before the next key does anything.
    app = new_game_app()
    seen: list[tuple[str, int, int]] = []  # (when, moves made, moves on disk)
    refresh_all, submit = GameScreen.refresh_all, GameScreen.submit

    def shown(screen: GameScreen) -> None:
        seen.append(("shown", len(screen.session.game.record.actions), saved_actions(screen)))
        refresh_all(screen)

    def submitted(screen: GameScreen, action: object) -> bool:
        seen.append(("key", len(screen.session.game.record.actions), saved_actions(screen)))
        return submit(screen, action)

    monkeypatch.setattr(GameScreen, "refresh_all", shown)
    monkeypatch.setattr(GameScreen, "submit", submitted)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen.clear()
        await pilot.press("enter", "enter")  # two players take no loan, keys in one burst
        await pilot.pause()
        assert seen[:4] == [("key", 0, 0), ("shown", 1, 0), ("key", 1, 1), ("shown", 2, 1)]
        assert saved_actions(app.screen) == 2  # type: ignore[arg-type]


async def one_move_shown(pilot: Any, app: Any) -> GameScreen:
    """A move made and on the screen, its save still owed (``pay_save`` is stubbed)."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, GameScreen)
    await pilot.press("enter")
    await pilot.pause()
    assert screen.session.owes_save and saved_actions(screen) == 0
    return screen


@run_async
async def test_a_move_whose_save_is_still_owed_is_written_when_the_app_closes(monkeypatch) -> None:
    app = new_game_app()
    monkeypatch.setattr(GameScreen, "pay_save", lambda screen: None)  # the frame never came
    async with app.run_test(size=SIZE) as pilot:
        screen = await one_move_shown(pilot, app)
        app.exit()
    assert saved_actions(screen) == 1


@run_async
async def test_a_hang_up_writes_the_owed_save_then_ends_the_app_as_before(monkeypatch) -> None:
    import signal

    app = new_game_app()
    monkeypatch.setattr(GameScreen, "pay_save", lambda screen: None)
    ended: list[tuple[int, object]] = []
    handlers: dict[int, object] = {}
    monkeypatch.setattr(signal, "signal", lambda signum, handler: handlers.update({signum: handler}))
    monkeypatch.setattr("os.kill", lambda pid, signum: ended.append((signum, handlers.get(signum))))
    async with app.run_test(size=SIZE) as pilot:
        screen = await one_move_shown(pilot, app)
        app._on_end_signal(signal.SIGHUP)
        assert saved_actions(screen) == 1
        assert ended == [(signal.SIGHUP, signal.SIG_DFL)]  # the hang-up, as Python takes it


@run_async
async def test_continue_lists_finished_games_apart_and_opens_them_on_the_final_board() -> None:
    finished_and_live()
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        screen = app.screen
        assert isinstance(screen, ContinueScreen)
        assert [s.name for s in screen.saves] == ["live"]
        assert [s.name for s in screen.finished] == ["done"]
        text = screen_text(app)
        assert "In progress" in text and "Finished" in text
        assert text.index("live") < text.index("Finished") < text.index("done")
        assert " over " not in text
        await pilot.press("tab")  # to the finished games
        assert screen.chosen().name == "done"
        await pilot.press("enter")
        await pilot.pause()
        game_screen = app.screen
        assert isinstance(game_screen, GameScreen)  # the board and the log, not the scores
        assert game_screen.session.game.is_over()
        assert "Game over" in screen_text(app)
        assert "Game over." in "\n".join(e.text for e in game_screen.session.game.log)
        await pilot.press("g")
        assert isinstance(app.screen, GameOverScreen)


@run_async
async def test_delete_asks_first_and_rename_renames() -> None:
    done, live = finished_and_live()
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c")
        screen = app.screen
        assert isinstance(screen, ContinueScreen)
        await pilot.press("d")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep it
        assert live.exists()
        await pilot.press("d")
        await pilot.press("y")
        await pilot.pause()
        assert not live.exists() and done.exists()
        assert screen.saves == [] and [s.name for s in screen.finished] == ["done"]
        await pilot.press("r")
        assert isinstance(app.screen, RenameScreen)
        await pilot.pause()
        await pilot.press(*"../bad", "enter")  # the old name is replaced; this one is refused
        assert isinstance(app.screen, RenameScreen)
        assert app.screen.query_one("Input").value == "../bad"
        assert "letters, digits" in str(app.screen.query_one("#rename-error").render())
        await pilot.press(*["backspace"] * 6, *"Club final", "enter")
        await pilot.pause()
        assert not done.exists()
        assert (saves_dir() / "Club final.json").exists()
        assert [s.name for s in screen.finished] == ["Club final"]


@run_async
async def test_a_save_open_in_another_window_is_offered_read_only() -> None:
    _, live = finished_and_live()
    other = Session.open(live)  # the other window
    try:
        app = RailgamesApp(bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("c", "enter")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "another window" in screen_text(app)
            await pilot.press("r")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.session.read_only
            assert "read-only" in str(screen.query_one("#banner").render())
            before = live.read_bytes()
            prompt = screen.session.prompt()
            assert prompt is not None
            choice = prompt.choices[0] if prompt.choices else {
                "type": prompt.amount.action_type, "seat": prompt.seat, "amount": prompt.amount.min}
            assert not screen.submit(choice)
            assert "read-only" in str(screen.query_one("#ap-reason").render())
            assert live.read_bytes() == before
    finally:
        other.close()


@run_async
async def test_a_file_from_elsewhere_goes_on_in_a_save_of_its_own(tmp_path: Path) -> None:
    outside = tmp_path / "from-a-friend.json"
    save_record(truncated(bot_record(7), 20), outside)
    before = outside.read_bytes()
    app = RailgamesApp(load_path=outside, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.save_path == saves_dir() / "from-a-friend.json"
    assert outside.read_bytes() == before
    app = RailgamesApp(load_path=outside, bot_delay=0)  # again: never over the first copy
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.session.save_path.name != "from-a-friend.json"


@run_async
async def test_a_save_that_cannot_be_opened_is_listed_with_why_and_can_be_deleted() -> None:
    finished_and_live()
    broken = saves_dir() / "broken.json"
    broken.write_text("[" * 100_000 + "]" * 100_000)
    (saves_dir() / ".tmp-left-by-a-kill.json").write_text("{")  # never listed
    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        screen = app.screen
        assert isinstance(screen, ContinueScreen)
        assert [s.path.name for s in screen.damaged] == ["broken.json"]
        assert "nested" in screen.damaged[0].problem
        text = screen_text(app)
        assert "Cannot be opened" in text and ".tmp-" not in text
        await pilot.press("tab", "tab")
        assert screen.chosen() is screen.damaged[0]
        await pilot.press("enter")  # says why, opens nothing
        assert app.screen is screen
        await pilot.press("d")
        assert "cannot be opened" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
        assert not broken.exists() and screen.damaged == []


def test_a_saves_folder_is_flushed_off_the_moves_path_and_before_the_game_closes(
        monkeypatch, tmp_path: Path) -> None:
    # The file itself is flushed before its rename; the rename is made durable by a
    # thread of its own (a few milliseconds of every move), and closing the game
    # waits for that.
    import threading

    import railgames.core.record as record_module
    from railgames.core.engine import Game
    from railgames.games import load_ruleset

    release = threading.Event()
    flushed: list[Path] = []

    def slow_fsync_folder(folder: Path) -> None:
        release.wait(5)
        flushed.append(folder)

    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(tmp_path))
    game = Game.new(load_ruleset("new-england"), [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")],
                    seed=3)
    session = Session(game)
    path = session.save()  # a new save (its folder flushed as it is made)
    monkeypatch.setattr(record_module, "fsync_folder", slow_fsync_folder)
    session.save()  # over the same file: this write is the one whose folder waits
    assert load_record(path).model_dump() == game.record.model_dump()  # whole, at once
    assert flushed == []  # the move did not wait for the folder
    closer = threading.Thread(target=session.close)
    closer.start()
    closer.join(0.3)
    assert closer.is_alive()  # closing waits for the flush
    release.set()
    closer.join(5)
    assert not closer.is_alive() and flushed == [path.parent]
