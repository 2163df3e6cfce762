"""American Rails in the app: a person and two bots play a whole game by keyboard."""

from __future__ import annotations

from typing import Any

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.handoff import HandoffScreen
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec, load_record
from railgames.games import load_ruleset, playable_games
from railgames.games.american_rails.state import Step
from tests.app.driving import run_async, screen_text

GAME = "american-rails"
SIZE = (120, 40)


def actions_of(app: Any) -> list[dict[str, Any]]:
    return list(app.session.game.record.actions)


async def answer(pilot: Any, app: Any, n: int) -> None:
    """Answer the prompt of the moment with keys, as a player would."""
    screen = app.screen
    step = screen.session.state.step
    if step is Step.BID:
        keys = ["enter"] if n % 3 == 0 else ["p"]
    elif step is Step.CHOOSE:
        # Walk down the list of free spaces a little, then take one.
        keys = ["tab"] * (0 if screen.panel.query_one("#ap-options").has_focus else 1)
        keys += ["down"] * (n % 6) + ["enter"]
    else:
        keys = ["enter"] * 3
    before = len(actions_of(app))
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        if len(actions_of(app)) != before or app.screen is not screen:
            return
    raise AssertionError(f"keys {keys} did nothing at {step}: {screen.session.prompt().text}")


async def play_to_the_end(pilot: Any, app: Any, max_moves: int = 1500) -> dict[str, int]:
    seen: dict[str, int] = {}
    for n in range(max_moves):
        screen = app.screen
        if isinstance(screen, GameOverScreen):
            return seen
        if isinstance(screen, HandoffScreen):
            await pilot.press("enter")
            continue
        if not isinstance(screen, GameScreen):
            await pilot.pause()
            continue
        prompt = screen.session.prompt()
        if prompt is None or screen.session.is_bot(prompt.seat):
            await pilot.pause()
            continue
        step = str(screen.session.state.step)
        seen[step] = seen.get(step, 0) + 1
        await answer(pilot, app, n)
    raise AssertionError("the game did not end")


def test_in_the_launcher() -> None:
    assert GAME in [g.id for g in playable_games()]


@run_async
async def test_a_person_and_two_bots_play_to_the_end_by_keyboard() -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Ada", kind="greedy"),
               PlayerSpec(name="Ben", kind="greedy")]
    app = RailgamesApp(new_game={"game": GAME, "players": players, "seed": 3}, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = await play_to_the_end(pilot, app)
        assert {"offer", "bid", "choose"} <= set(seen), seen
        assert isinstance(app.screen, GameOverScreen)
        result = app.session.game.result()
        assert result is not None
        text = screen_text(app)
        assert "Dividends" in text
        for name, score in result.scores.items():
            assert name in text and f"${score}" in text
        saved = load_record(app.session.save_path)
        assert Game.replay(load_ruleset(GAME), saved).result() == result
