"""Every map reads and fits: no label runs into another, the whole map is in view at
120x40, and at 80x24 the board scrolls so that its cursor stays in view."""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region

from railgames.app.boards import board_class
from railgames.app.main import RailgamesApp
from railgames.core.demo import demo_record
from railgames.core.record import PlayerSpec, save_record
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset
from tests.app.driving import games_at, screen_text
from tests.app.scenes import scenes

GAMES = ["new-england", "paris-connection", "steel-driver", "american-rails"]

SIX = [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")]


def _moments(game_id: str) -> list[Any]:
    """States of a whole bot game: the start, every tenth action, and the end."""
    ruleset = load_ruleset(game_id)
    game = play_bot_game(ruleset, bot_players(3, "greedy"), 7)
    record = game.record
    counts = sorted({0, *range(0, len(record.actions), 10), len(record.actions)})
    return [copy.deepcopy(g.state) for g in games_at(ruleset, record, counts)]


def _run_ins(board: Any) -> list[str]:
    """Labels that overlap, or touch another label or a letter or digit beside them."""
    regions: dict[str, Region] = board.label_regions()
    width = board.layout_.width
    problems = []
    owner: dict[tuple[int, int], str] = {}
    for name, region in regions.items():
        for x in range(region.x, region.right):
            for y in range(region.y, region.bottom):
                if (x, y) in owner:
                    problems.append(f"{name} overlaps {owner[(x, y)]}")
                owner[(x, y)] = name
    for name, region in regions.items():
        for y in range(region.y, region.bottom):
            text = board.row_text(y)
            for x in (region.x - 1, region.right):
                if not 0 <= x < width:
                    continue
                other = owner.get((x, y))
                if other is not None and other != name:
                    problems.append(f"{name} runs into {other} on row {y}")
                elif other is None and text[x].isalnum():
                    problems.append(f"{name} runs into '{text[x]}' at {x},{y}: {text.strip()}")
    return problems


def _but_city_values(board: Any, problems: list[str]) -> list[str]:
    """American Rails marks each city with its code, which needs the blank cell either
    side of the city's hex, so a city's cells meet its neighbours'. Its code row still
    keeps a blank between the code and anything else (checked, cell by cell); the row
    of its values and cubes may meet a neighbour's cubes (their colours and letters
    against digits tell them apart). Other boards: every problem stands."""
    if not hasattr(board.layout_, "span"):
        return problems
    lay = board.layout_
    regions = board.label_regions()
    cities = {lay.id_of[h] for h in lay.map.city_at}
    kept = []
    for problem in problems:
        match = re.fullmatch(r"(\S+) runs into (\S+) on row (\d+)", problem)
        if not match or not cities & {match[1], match[2]}:
            kept.append(problem)
            continue
        a, b, y = regions[match[1]], regions[match[2]], int(match[3])
        if y == a.y + 1 if match[1] in cities else y == b.y + 1:
            continue  # the values and cubes row
        left, right = (a, b) if a.x < b.x else (b, a)
        text = board.row_text(y)
        if text[left.right - 1] == " " or text[right.x] == " ":
            continue  # a blank between the code and its neighbour
        kept.append(problem)
    return kept


@pytest.mark.parametrize("game_id", GAMES)
def test_no_label_ever_runs_into_another(game_id: str) -> None:
    ruleset = load_ruleset(game_id)
    board = board_class(game_id)(ruleset)
    problems = _run_ins(board)
    for state in _moments(game_id):
        board.update_state(state)
        problems += _run_ins(board)
    assert not sorted(set(_but_city_values(board, problems)))


def _new_game(game_id: str, players: list[PlayerSpec]) -> RailgamesApp:
    return RailgamesApp(new_game={"game": game_id, "players": players, "seed": 3},
                        bot_delay=0, handoff=False)



# ------------------------------------------------------------------- Railways of the World
# Both boards, the Eastern United States (23 hexes by 24 rows, for 3 to 6 players) and
# Mexico (17 by 23, for 2 or 3): the whole map on top at 120x40 with the panels under it.

ROTW = "railways-of-the-world"
ROTW_MAPS = ["rotw-eastern-us", "rotw-mexico"]


def _rotw_game(map_id: str, players: int = 3) -> Any:
    ruleset = load_ruleset(ROTW, map_id)
    return ruleset, play_bot_game(ruleset, bot_players(players, "greedy"), 7)


@pytest.mark.parametrize(("map_id", "players"), [
    ("rotw-eastern-us", 3), ("rotw-eastern-us", 6), ("rotw-mexico", 3)])
def test_no_rotw_label_ever_runs_into_another(map_id: str, players: int) -> None:
    """Every city's letter and cubes and the legend, at the start, every tenth action of
    a whole bot game and its end (six players: cities start with four cubes)."""
    ruleset, game = _rotw_game(map_id, players)
    board = board_class(ROTW)(ruleset)
    problems = _run_ins(board)
    actions = len(game.record.actions)
    for at in games_at(ruleset, game.record, sorted({*range(0, actions, 10), actions})):
        board.update_state(copy.deepcopy(at.state))  # a state of its own, as a replay gives
        problems += _run_ins(board)
    assert not sorted(set(problems))
    assert len(board.label_regions()) > len(ruleset.map.cities)  # the legend is drawn too


def _rotw_app(map_id: str, tmp_path: Path, moment: str) -> RailgamesApp:
    if moment == "start":
        return RailgamesApp(new_game={"game": ROTW, "players": SIX[:3], "seed": 3, "map": map_id},
                            bot_delay=0, handoff=False)
    ruleset, game = _rotw_game(map_id)
    record = game.record.model_copy(deep=True)
    record.players = list(SIX[:3])
    record.actions = record.actions[:len(record.actions) // 2]
    path = tmp_path / "rotw-mid.json"
    save_record(record, path)
    return RailgamesApp(load_path=path, bot_delay=0, handoff=False)


@pytest.mark.parametrize("moment", ["start", "mid-game"])
@pytest.mark.parametrize("map_id", ROTW_MAPS)
def test_the_whole_rotw_map_is_in_view_at_120x40(map_id: str, moment: str,
                                                  tmp_path: Path) -> None:
    needed, shown = asyncio.run(_board_in_view(_rotw_app(map_id, tmp_path, moment), [],
                                               (120, 40)))
    assert needed.width <= shown.width and needed.height <= shown.height, (needed, shown)


@pytest.mark.parametrize("map_id", ROTW_MAPS)
def test_the_whole_rotw_map_is_in_view_in_the_demo_at_120x40(map_id: str) -> None:
    """The demo and history viewers put the map on top as the game does: beside the
    narration its right third (Boston, New York...) was cut off."""
    record = demo_record(load_ruleset(ROTW, map_id))
    app = RailgamesApp(watch={"record": record, "demo": True, "start": 5, "playing": False})
    needed, shown = asyncio.run(_board_in_view(app, [], (120, 40)))
    assert needed.width <= shown.width and needed.height <= shown.height, (needed, shown)


async def _rotw_panels_at_120x40(app: Any) -> tuple[Region, Region]:
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        return screen.query_one("#actions").region, screen.query_one("#log").region


@pytest.mark.parametrize("map_id", ROTW_MAPS)
def test_the_rotw_panels_under_the_map_keep_room(map_id: str, tmp_path: Path) -> None:
    """Under the map: the choices and the log each have lines to show."""
    actions, log = asyncio.run(_rotw_panels_at_120x40(_rotw_app(map_id, tmp_path, "mid-game")))
    assert actions.height >= 10 and log.height >= 10 and actions.width >= 45, (actions, log)


async def _walk_rotw(map_id: str) -> list[str]:
    app = RailgamesApp(new_game={"game": ROTW, "players": SIX[:3], "seed": 3, "map": map_id},
                       bot_delay=0, handoff=False)
    return await _walk(app)


@pytest.mark.parametrize("map_id", ROTW_MAPS)
def test_the_rotw_cursor_stays_in_view_at_80x24(map_id: str) -> None:
    assert not asyncio.run(_walk_rotw(map_id))


async def _walk_rotw_list(map_id: str) -> list[str]:
    """At 120x40, a long list of choices under the map walked down: each highlighted
    choice is on screen (the first tile of a build offers a hundred hexes and more)."""
    players = [SIX[0], PlayerSpec(name="Bob", kind="greedy"), PlayerSpec(name="Cat", kind="greedy")]
    app = RailgamesApp(new_game={"game": ROTW, "players": players, "seed": 3, "map": map_id},
                       bot_delay=0, handoff=False)
    unseen = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # out of the auction
        for _ in range(20):
            await pilot.pause()
        await pilot.press("enter")  # Build track, the first choice
        await pilot.pause()
        await pilot.press("tab")
        await pilot.pause()
        options = app.screen.panel.query_one("#ap-options")
        assert options.has_focus and options.option_count > 20, options.option_count
        for _ in range(20):
            await pilot.press("down")
            await pilot.pause()
            label = str(options.get_option_at_index(options.highlighted).prompt)
            if label not in screen_text(app):
                unseen.append(label)
    return unseen


@pytest.mark.parametrize("map_id", ROTW_MAPS)
def test_the_rotw_list_under_the_map_shows_its_highlighted_choice(map_id: str) -> None:
    assert not asyncio.run(_walk_rotw_list(map_id))


async def _board_in_view(app: Any, keys: list[str], size: tuple[int, int]) -> tuple[Any, Any]:
    async with app.run_test(size=size) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        board = app.screen.query_one("#board")
        return board.virtual_size, board.scrollable_content_region.size


FIT_SCENES = ["board", "shipping", "pc_board", "sd_board", "sd_claim", "ar_board"]


@pytest.mark.parametrize("scene", FIT_SCENES)
def test_the_whole_map_is_in_view_at_120x40(scene: str, tmp_path: Path) -> None:
    app, keys = scenes(tmp_path)[scene]()
    needed, shown = asyncio.run(_board_in_view(app, keys, (120, 40)))
    assert needed.width <= shown.width and needed.height <= shown.height, (needed, shown)


@pytest.mark.parametrize("game_id", [
    "new-england", "paris-connection", "steel-driver", "american-rails"])
def test_the_whole_map_is_in_view_at_120x40_with_six_players(game_id: str) -> None:
    keys = ["enter"] if game_id == "paris-connection" else []
    most = load_ruleset(game_id).max_players  # American Rails seats five at most
    needed, shown = asyncio.run(_board_in_view(_new_game(game_id, SIX[:most]), keys, (120, 40)))
    assert needed.width <= shown.width and needed.height <= shown.height, (needed, shown)


def test_american_rails_is_in_view_at_120x40_from_the_start() -> None:
    needed, shown = asyncio.run(_board_in_view(_new_game("american-rails", SIX[:3]), [], (120, 40)))
    assert needed.width <= shown.width and needed.height <= shown.height, (needed, shown)


async def _walk_the_board(game_id: str) -> list[str]:
    return await _walk(_new_game(game_id, SIX[:3]), ["enter"] if game_id == "paris-connection" else [])


async def _walk(app: Any, keys: Sequence[str] = ()) -> list[str]:
    """Move the cursor all over the board at 80x24; where it left the view."""
    lost = []
    async with app.run_test(size=(80, 24)) as pilot:
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        board = app.screen.query_one("#board")
        board.focus()
        for direction, times in (("up", 12), ("left", 30), ("down", 30), ("right", 40),
                                 ("up", 30), ("left", 15), ("down", 8)):
            for _ in range(times):
                was = board.cursor_city
                await pilot.press(direction)  # (press waits until the screen is drawn)
                if board.cursor_city == was:
                    break  # the edge of the board that way: more presses go nowhere
                view = Region(*board.scroll_offset, *board.scrollable_content_region.size)
                if not view.contains_region(board.city_region(board.cursor_city)):
                    lost.append(f"{direction} to {board.cursor_city}")
    return lost


@pytest.mark.parametrize("game_id", GAMES)
def test_the_cursor_stays_in_view_at_80x24(game_id: str) -> None:
    assert not asyncio.run(_walk_the_board(game_id))


def test_american_rails_wide_drawing_has_no_run_ins_either() -> None:
    """American Rails draws its map two ways (the board takes the one that fits): the
    test above sees the compact one; this one the roomy one."""
    ruleset = load_ruleset("american-rails")
    board = board_class("american-rails")(ruleset)
    roomy = board.layouts[0]
    board.use_layout(roomy)
    assert board.layout_ is roomy and not roomy.compact
    problems = _run_ins(board)
    for state in _moments("american-rails"):
        board.update_state(state)
        problems += _run_ins(board)
    assert not sorted(set(_but_city_values(board, problems)))
