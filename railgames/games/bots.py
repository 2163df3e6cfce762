"""Each game's greedy bot, looked up by game id."""

from __future__ import annotations

import importlib

from railgames.core.bots import Bot

GREEDY: dict[str, str] = {
    "new-england": "railgames.games.new_england.bots:GreedyBot",
    "paris-connection": "railgames.games.paris_connection.bots:GreedyBot",
    "steel-driver": "railgames.games.steel_driver.bots:GreedyBot",
    "railways-of-the-world": "railgames.games.railways_of_the_world.bots:GreedyBot",
}


def greedy_bot(game_id: str, seed: int) -> Bot:
    module, _, name = GREEDY[game_id].partition(":")
    cls = getattr(importlib.import_module(module), name)
    bot: Bot = cls(seed)
    return bot
