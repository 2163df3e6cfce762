"""Every map reads and fits: no label runs into another, the whole map is in view at
120x40, and at 80x24 the board scrolls so that its cursor stays in view."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region

from railgames.app.boards import board_class
from railgames.app.main import RailgamesApp
from railgames.app.scenes import scenes
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset

GAMES = ["new-england", "paris-connection", "steel-driver", "american-rails"]

# Not done yet, and known: Steel Driver's 115x35 grid is cut at 120x40 and its route
# costs touch labels ("2○Memphis"); Paris Connection's hex map needs 39 rows where
# 32 are free, and names no city on the map. Strict: they fail the day they pass.
NOT_FITTING = pytest.mark.xfail(strict=True, reason="this map is larger than the board at 120x40")
SIX = [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")]


def _moments(game_id: str) -> list[Any]:
    """States of a whole bot game: the start, every tenth action, and the end."""
    ruleset = load_ruleset(game_id)
    game = play_bot_game(ruleset, bot_players(3, "greedy"), 7)
    record = game.record
    counts = sorted({0, *range(0, len(record.actions), 10), len(record.actions)})
    return [Game.replay(ruleset, record, upto=n).state for n in counts]


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
                    problems.append(f"{name} runs into {other}")
                elif other is None and text[x].isalnum():
                    problems.append(f"{name} runs into '{text[x]}' at {x},{y}: {text.strip()}")
    return problems


@pytest.mark.parametrize("game_id", GAMES)
def test_no_label_ever_runs_into_another(game_id: str) -> None:
    ruleset = load_ruleset(game_id)
    board = board_class(game_id)(ruleset)
    problems = _run_ins(board)
    for state in _moments(game_id):
        board.update_state(state)
        problems += _run_ins(board)
    assert not sorted(set(problems))


def _new_game(game_id: str, players: list[PlayerSpec]) -> RailgamesApp:
    return RailgamesApp(new_game={"game": game_id, "players": players, "seed": 3},
                        bot_delay=0, handoff=False)


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
    """Move the cursor all over the board at 80x24; where it left the view."""
    app = _new_game(game_id, SIX[:3])
    lost = []
    async with app.run_test(size=(80, 24)) as pilot:
        if game_id == "paris-connection":
            await pilot.press("enter")
        await pilot.pause()
        board = app.screen.query_one("#board")
        board.focus()
        for direction, times in (("up", 12), ("left", 30), ("down", 30), ("right", 40),
                                 ("up", 30), ("left", 15), ("down", 8)):
            for _ in range(times):
                await pilot.press(direction)
                await pilot.pause()
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
    assert not sorted(set(problems))
