"""A search bot in the app: it thinks in a worker process, says so, and its move arrives."""

from __future__ import annotations

import asyncio
import time

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.core.record import PlayerSpec
from tests.app.driving import run_async

SIZE = (120, 40)


@run_async
async def test_a_search_bot_thinks_off_the_screen_and_its_move_arrives() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada", kind="search:easy"),
               PlayerSpec(name="Ben", kind="search:easy")]
    app = RailgamesApp(new_game={"game": "steel-driver", "players": players, "seed": 4}, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        session = screen.session
        saw_thinking = False
        give_up = time.monotonic() + 120  # a bound on waiting, not a measure of speed
        while not any(a["seat"] != 0 for a in session.game.record.actions) and time.monotonic() < give_up:
            prompt = session.prompt()
            assert prompt is not None
            if screen._think is not None:
                # While the bot thinks, the screen still takes keys and says who is thinking.
                assert "thinking" in str(screen.panel.query_one("#ap-title").render())
                saw_thinking = True
                await pilot.press("right")
                await asyncio.sleep(0.05)
            elif not session.is_bot(prompt.seat):
                await pilot.press("enter")
            else:
                await asyncio.sleep(0.05)
        assert saw_thinking
        assert any(a["seat"] != 0 for a in session.game.record.actions)
        screen.stop_thinking()
