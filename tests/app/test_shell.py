"""The app gives the screens everything the GameShell protocol promises them."""

from __future__ import annotations

from railgames.app.main import RailgamesApp
from railgames.app.shell import GameShell


def test_the_app_is_a_game_shell() -> None:
    app = RailgamesApp(bot_delay=0)
    assert isinstance(app, GameShell)
    assert isinstance(app.bot_delay, float | int) and isinstance(app.handoff_default, bool)
