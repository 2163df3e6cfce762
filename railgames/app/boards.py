"""Each game's board widget and presentation, as its descriptor names them.

Looked up when a game is shown, so that starting the app loads only the game
being played; the games themselves are known to the registry alone.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding, BindingsMap

from railgames.app.gameui import GameUI
from railgames.games import descriptor


def board_class(game_id: str) -> Any:
    """The board widget class for a game (every game has one)."""
    game = descriptor(game_id)
    return game.load(game.board)


def game_ui(ruleset: Any) -> GameUI:
    game = descriptor(ruleset.id)
    cls = game.load(game.ui) if game.ui else GameUI
    ui: GameUI = cls(ruleset)
    return ui


def with_key_words(bindings: BindingsMap, game_id: str) -> BindingsMap:
    """A game screen's bindings with the game's one-key choices (its descriptor's key
    words) added just before Esc, the first of the screen's own keys, so that the footer
    shows them first. Each is offered only while the game's UI lists it (see
    GameScreen.check_action)."""
    keys: dict[str, list[Binding]] = {}
    for key, found in bindings.key_to_bindings.items():
        if key == "escape":
            for hot, word in descriptor(game_id).keys:
                keys.setdefault(hot, [Binding(hot, f"hotkey('{hot}')", word)])
        keys[key] = found
    return BindingsMap.from_keys(keys)
