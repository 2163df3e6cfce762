"""American Rails: every choice on the map is made by pointing with the cursor and Enter,
focus waits where the next choice is made, and nothing on screen names a hex by numbers."""

from __future__ import annotations

import re
from typing import Any

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.american_rails.actions import Develop, PlaceCube, PlaceStart
from railgames.games.american_rails.board import AmericanRailsBoard
from tests.app.driving import run_async, screen_text

GAME = "american-rails"
SIZE = (120, 40)
COORDINATES = re.compile(r"\[\d+, ?\d+\]|hex \d+,\d+")


def record_at(step: str, seed: int = 5) -> Any:
    """A greedy bots' game cut where a person is first at ``step`` (with a choice to make);
    the other seats stay bots."""
    from railgames.core.engine import Game
    from railgames.core.simulate import bot_players, play_bot_game
    from tests.app.driving import first_index, truncated

    rules = load_ruleset(GAME)
    record = play_bot_game(rules, bot_players(3, "greedy"), seed).record.model_copy(deep=True)
    upto = first_index(record, lambda g: g.state.step == step and len(g.prompt().choices) > 2)
    seat = Game.replay(rules, record, upto).prompt().seat
    record.players = [PlayerSpec(name=name) if i == seat else PlayerSpec(name=name, kind="greedy")
                      for i, name in enumerate(["Ann", "Ada", "Ben"])]
    return truncated(record, upto)


def app_at(step: str) -> RailgamesApp:
    from railgames.app.saves import saves_dir
    from railgames.core.record import save_record

    path = saves_dir() / f"ar-{step}.json"
    save_record(record_at(step), path)
    return RailgamesApp(load_path=path, bot_delay=0, handoff=False)


def actions_of(app: Any) -> list[dict[str, Any]]:
    return list(app.session.game.record.actions)


async def point_and_enter(pilot: Any, app: Any, key: str) -> None:
    screen = app.screen
    assert isinstance(screen.board, AmericanRailsBoard)
    assert screen.board.has_focus, f"the board waits for the choice, not {app.focused}"
    screen.board.move_cursor_to(key)
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def a_city_by_pointing(step: str, kind: type) -> None:
    app = app_at(step)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        rules = screen.session.ruleset
        cities = [a.city for a in screen.session.prompt().choices if isinstance(a, kind)]
        city = cities[-1]  # not the one the cursor starts on
        key = "{},{}".format(*rules.map.offset_of(rules.map.city_hex[city]))
        assert key in screen.board.highlighted
        before = len(actions_of(app))
        await point_and_enter(pilot, app, key)
        assert len(actions_of(app)) == before + 1
        assert actions_of(app)[before]["city"] == city
        assert not COORDINATES.search(screen_text(app))


@run_async
async def test_a_new_company_starts_on_the_city_pointed_at() -> None:
    await a_city_by_pointing("start", PlaceStart)


@run_async
async def test_the_city_to_develop_is_the_one_pointed_at() -> None:
    await a_city_by_pointing("develop", Develop)


@run_async
async def test_expanding_cube_after_cube_by_pointing_keeps_the_company() -> None:
    app = app_at("expand")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        prompt = screen.session.prompt()
        me = prompt.seat
        companies = list(dict.fromkeys(a.company for a in prompt.choices if isinstance(a, PlaceCube)))
        # The last company listed, so that keeping it is no accident of the order.
        company = companies[-1]
        assert app.focused is screen.panel.query_one("#ap-options")
        for _ in range(len(companies) - 1):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        kept = 0
        for cube in range(2):
            prompt = screen.session.prompt()
            if not any(isinstance(a, PlaceCube) and a.company == company for a in prompt.choices):
                break
            assert screen.board.expanding == company
            target = next(a for a in prompt.choices if isinstance(a, PlaceCube) and a.company == company)
            before = len(actions_of(app))
            await point_and_enter(pilot, app, "{},{}".format(*target.hex))
            assert len(actions_of(app)) == before + 1, f"cube {cube + 1} not placed"
            assert actions_of(app)[before]["company"] == company
            assert not COORDINATES.search(screen_text(app))
            if screen.session.state.step != "expand" or screen.session.prompt().seat != me:
                break
            # The next cube: the list offers the same company first; Enter opens its hexes.
            options: Any = screen.panel.query_one("#ap-options")
            assert app.focused is options
            assert screen.panel.options[options.highlighted][0] == "co:" + company
            kept += 1
            await pilot.press("enter")
            await pilot.pause()
        assert kept, "the record gives the company a second cube to place"
