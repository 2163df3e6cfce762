"""Each game's board widget and presentation, looked up by game id.

Import paths rather than imports, so that starting the app loads only the game
being played, and a new game plugs in by adding one line here.
"""

from __future__ import annotations

import importlib
from typing import Any

from railgames.app.gameui import GameUI
from railgames.core.errors import RailgamesError

BOARDS: dict[str, str] = {
    "new-england": "railgames.games.new_england.board:NewEnglandBoard",
    "paris-connection": "railgames.games.paris_connection.board:ParisConnectionBoard",
    "steel-driver": "railgames.games.steel_driver.board:SteelDriverBoard",
    "american-rails": "railgames.games.american_rails.board:AmericanRailsBoard",
    "railways-of-the-world": "railgames.games.railways_of_the_world.board:RotwBoard",
}

UIS: dict[str, str] = {
    "new-england": "railgames.games.new_england.ui:NewEnglandUI",
    "paris-connection": "railgames.games.paris_connection.ui:ParisConnectionUI",
    "steel-driver": "railgames.games.steel_driver.ui:SteelDriverUI",
    "american-rails": "railgames.games.american_rails.ui:AmericanRailsUI",
    "railways-of-the-world": "railgames.games.railways_of_the_world.ui:RotwUI",
}


def _load(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def board_class(game_id: str) -> Any:
    """The board widget class for a game (every game the launcher lists has one)."""
    try:
        return _load(BOARDS[game_id])
    except KeyError:
        raise RailgamesError(f"no board is drawn for '{game_id}' yet") from None


def game_ui(ruleset: Any) -> GameUI:
    target = UIS.get(ruleset.id)
    cls = _load(target) if target else GameUI
    ui: GameUI = cls(ruleset)
    return ui
