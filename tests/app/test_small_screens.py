"""Every screen works at its smallest size: the keys that matter most are in its
footer, and on a game's 80x24 screen the map comes first, its cursor always in view,
the panels a key away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from railgames.app.widgets.footer import Hint, KeyFooter, fitting
from tests.app.driving import run_async, screen_text
from tests.app.scenes import scenes

SMALLEST = (60, 20)  # the launcher's stated minimum, and every screen's but a game's
GAME = (80, 24)  # a game's screens (the board, the game over, the viewers)

# Per scene: the size it must work at, and the words its footer must show there.
MUST_SHOW: dict[str, tuple[tuple[int, int], list[str]]] = {
    "launcher": (SMALLEST, ["New game", "Rules", "Quit"]),
    "setup": (SMALLEST, ["Back", "Start", "Help"]),
    "setup_help": (SMALLEST, ["Close help"]),
    "help": (SMALLEST, ["Close help"]),
    "handoff": (SMALLEST, ["I'm ready", "Help", "Quit"]),
    "board": (GAME, ["Pass", "Help", "Quit", "Panels"]),
    "rotw_board": (GAME, ["Choose hex", "End build", "Help", "Quit", "Panels", "Undo"]),
    "ar_board": (GAME, ["Choose hex", "End action", "Back", "Help", "Quit", "Panels"]),
    "rotw_game_over": (GAME, ["Help", "Scores", "Quit"]),
    "pc_game_over": (GAME, ["Launcher", "History", "Help", "Quit"]),
    "log_view": (SMALLEST, ["Back", "Help"]),
    "final_log": (SMALLEST, ["Back", "Help"]),
    "demo": (GAME, ["Back", "Step", "Pause", "Help", "Leave"]),
}


def footer_text(app: Any) -> str:
    return app.screen.query_one(KeyFooter).text()


@pytest.mark.parametrize("name", sorted(MUST_SHOW))
@run_async
async def test_a_screen_at_its_smallest_shows_its_main_keys(tmp_path: Path, name: str) -> None:
    size, words = MUST_SHOW[name]
    app, keys = scenes(tmp_path / "records")[name]()
    # Played to the moment at a game's size (the screens on the way need it), then the
    # terminal made as small as the screen allows.
    async with app.run_test(size=GAME) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.resize_terminal(*size)
        await pilot.pause()
        assert not getattr(app.screen, "too_small", False)
        line = footer_text(app)
        assert len(line) <= size[0]
        for word in words:
            assert f" {word} " in line, (word, line)


@run_async
async def test_the_history_viewer_at_80x24_shows_its_main_keys(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["board"]()
    async with app.run_test(size=GAME) as pilot:
        await pilot.pause()
        await pilot.press(*keys, "v")
        await pilot.pause()
        assert type(app.screen).__name__ == "ViewerScreen"
        line = footer_text(app)
        for word in ["Back", "Step", "Pause", "Help", "Leave"]:
            assert f" {word} " in line, (word, line)


@run_async
async def test_the_continue_screen_at_60x20_shows_its_main_keys() -> None:
    from railgames.app.main import RailgamesApp

    app = RailgamesApp(bot_delay=0)
    async with app.run_test(size=SMALLEST) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert type(app.screen).__name__ == "ContinueScreen"
        line = footer_text(app)
        for word in ["Back", "Help"]:
            assert f" {word} " in line, (word, line)


@run_async
async def test_the_host_launcher_at_60x20_shows_its_main_keys() -> None:
    from railgames.net import app as net_app
    from tests.app.test_net_launcher import TablesLink

    app = net_app.NetApp(TablesLink())  # type: ignore[arg-type]
    async with app.run_test(size=SMALLEST) as pilot:
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"  # the player's tables come first
        line = footer_text(app)
        for word in ["Host a table", "Join a table", "Help", "Quit"]:
            assert f" {word} " in line, (word, line)
        await pilot.press("g")
        await pilot.pause()
        assert type(app.screen).__name__ == "NetLauncherScreen"
        line = footer_text(app)
        for word in ["Host a table", "Join a table", "Rules", "Quit"]:
            assert f" {word} " in line, (word, line)
        await pilot.press("h")
        await pilot.pause()
        assert type(app.screen).__name__ == "HostTableScreen"
        line = footer_text(app)
        for word in ["Back", "Open"]:
            assert f" {word} " in line, (word, line)


def test_a_short_line_leaves_out_the_least_important_keys_first() -> None:
    def hint(action: str, description: str, enabled: bool = True) -> Hint:
        return Hint(action[0], action[0], description, enabled, action)

    keys = (hint("log", "Log"), hint("undo", "Undo"), hint("save", "Save"),
            hint("help", "Help"), hint("quit", "Quit"), hint("zoom", "Zoom", enabled=False))
    keep = ("help", "quit", "undo")
    every = sum(k.width for k in keys)
    assert fitting(keys, keep, every) == keys
    # The dimmed key goes first, then the ones not named (the right one first), then
    # the named ones from the end of the list.
    assert [k.description for k in fitting(keys, keep, every - 1)] == [
        "Log", "Undo", "Save", "Help", "Quit"]
    room = sum(k.width for k in keys[:4])
    assert [k.description for k in fitting(keys, keep, room)] == ["Log", "Undo", "Help", "Quit"]
    room = keys[3].width + keys[4].width
    assert [k.description for k in fitting(keys, keep, room)] == ["Help", "Quit"]


# ---------------------------------------------------------------- a game at 80x24

BOARDS = {"board": "new-england", "pc_board": "paris-connection", "sd_board": "steel-driver",
          "ar_board": "american-rails", "rotw_board": "railways-of-the-world"}
# The game's own lines that fold away with the players and the log.
LEGENDS = {"pc_board": "#pc-values", "sd_board": "#sd-order", "rotw_board": "#legend"}
CORNERS = [("up", "left"), ("up", "right"), ("down", "right"), ("down", "left")]


def cursor_on_screen(app: Any) -> bool:
    """Whether every cell of the cursor's place is drawn on the screen now."""
    board = app.screen.board
    place = board.city_region(board.cursor_city)
    view = board.scrollable_content_region
    on_screen = place.translate(view.offset - board.scroll_offset)
    return view.contains_region(on_screen) and app.screen.region.contains_region(on_screen)


def shown(app: Any, selector: str) -> bool:
    widget = app.screen.query_one(selector)
    return bool(widget.display and widget.region.height and widget.visible)


@pytest.mark.parametrize("name", sorted(BOARDS))
@run_async
async def test_at_80x24_the_map_comes_first_and_one_key_shows_the_panels(
        tmp_path: Path, name: str) -> None:
    app, keys = scenes(tmp_path / "records")[name]()
    async with app.run_test(size=GAME) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        screen = app.screen
        legend = LEGENDS.get(name)
        # The map has most of the rows; the decision, its choices and the log's newest
        # lines are on screen; the players and the game's legends are folded away.
        assert screen.has_class("folded")
        assert screen.board.scrollable_content_region.height >= 12
        assert shown(app, "#actions") and shown(app, "#ap-hint") and shown(app, "#log")
        assert not shown(app, "#players")
        assert not (legend and shown(app, legend))
        assert " Panels " in footer_text(app)
        # The cursor taken to the far corners of the map is on screen in each.
        screen.board.focus()
        await pilot.press("up", "left", "down", "right")  # the keys move it
        places = []
        for vertical, across in CORNERS:
            # As the arrow keys do, many times over (quicker than pressing them).
            for direction in [vertical] * 40 + [across] * 60:
                screen.board.action_move_cursor(direction)
            await pilot.pause()
            assert cursor_on_screen(app), (vertical, across, screen.board.cursor_city)
            places.append(screen.board.cursor_city)
        assert len(set(places)) >= 2, places  # it went somewhere
        # i shows the panels (the cursor still in view), and folds them again.
        await pilot.press("i")
        await pilot.pause()
        assert shown(app, "#players") and shown(app, "#log") and shown(app, "#actions")
        assert legend is None or shown(app, legend)
        if name == "rotw_board":  # the markers' line, and the map's key in words
            assert shown(app, "#rotw-markers")
            assert "may go here" in screen_text(app) and "emptied city" in screen_text(app)
        assert cursor_on_screen(app)
        await pilot.press("i")
        await pilot.pause()
        assert not shown(app, "#players") and not (legend and shown(app, legend))
        assert cursor_on_screen(app)


@run_async
async def test_at_120x40_nothing_folds(tmp_path: Path) -> None:
    app, keys = scenes(tmp_path / "records")["rotw_board"]()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.screen.has_class("folded")
        assert shown(app, "#players") and shown(app, "#rotw-markers")
        assert " Panels " not in footer_text(app)
