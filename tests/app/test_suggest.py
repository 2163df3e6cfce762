"""A suggested move (a hint, a lesson's expected move) is highlighted in the choices, and
Enter takes it: the list is walked to it, level by level, in every game."""

from __future__ import annotations

import pytest

from railgames.app.main import RailgamesApp
from railgames.app.screens.game import GameScreen
from railgames.app.widgets.action_panel import ActionPanel
from railgames.core.record import PlayerSpec
from tests.app.driving import run_async

GAMES = ["new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails"]


@pytest.mark.parametrize("game", GAMES)
@run_async
async def test_a_suggested_move_is_walked_to_and_enter_takes_it(game: str) -> None:
    players = [PlayerSpec(name="Ann"), PlayerSpec(name="Bob", kind="greedy"),
               PlayerSpec(name="Cat", kind="greedy")]
    app = RailgamesApp(new_game={"game": game, "players": players, "seed": 3}, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        panel = screen.query_one(ActionPanel)
        prompt = screen.session.prompt()
        assert prompt is not None
        if prompt.amount is not None and not panel.choices:
            amount = prompt.amount
            wanted = screen.ui.amount_action(prompt, amount.min + amount.step)  # not the default
        else:
            # The last choice listed: the furthest from where the list starts.
            wanted = panel.choices[-1].action
        assert panel.suggest(wanted)
        before = screen.session.played()
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.played() > before
        made = screen.session.record.actions[before]
        assert made == (wanted if isinstance(wanted, dict) else wanted.model_dump(mode="json"))


@run_async
async def test_a_move_that_is_no_choice_now_is_not_suggested() -> None:
    players = [PlayerSpec(name=n) for n in ("Ann", "Bob", "Cat")]
    app = RailgamesApp(new_game={"game": "new-england", "players": players, "seed": 3}, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(ActionPanel)
        assert not panel.suggest({"type": "nothing-like-it", "seat": 0})
