"""Bot-only games: used by ``railgames simulate``, the tests and the benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from railgames.core.bots import Bot, make_bot
from railgames.core.engine import Game, Ruleset
from railgames.core.record import PlayerSpec

# No game of the suite needs anywhere near this many actions; hitting it means a loop.
MAX_ACTIONS = 50_000


class RunawayGame(RuntimeError):
    pass


def bot_players(count: int, kind: str) -> list[PlayerSpec]:
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    return [PlayerSpec(name=f"{names[i]}", kind=kind) for i in range(count)]  # type: ignore[arg-type]


def bots_for(game: Game, seed: int) -> list[Bot]:
    return [
        make_bot(p.kind if p.is_bot else "random", game.ruleset, seed * 7919 + i)
        for i, p in enumerate(game.players)
    ]


def step_bot(game: Game, bots: Sequence[Bot]) -> Any:
    """Let the bot in the seat to move choose and apply one action."""
    prompt = game.prompt()
    assert prompt is not None
    bot = bots[prompt.seat]
    # A bot that never reads the seat's view (the random one) is not given one: a view
    # copies what the seat may see, at a cost near that of the rest of a step.
    view = game.view(prompt.seat) if getattr(bot, "reads_view", True) else None
    action = bot.choose(game.ruleset, view, prompt)
    game.apply(action)
    return action


def play_bot_game(ruleset: Ruleset[Any], players: Sequence[PlayerSpec], seed: int) -> Game:
    game = Game.new(ruleset, players, seed)
    bots = bots_for(game, seed)
    while not game.is_over():
        if len(game.record.actions) >= MAX_ACTIONS:
            raise RunawayGame(f"seed {seed}: no end after {MAX_ACTIONS} actions")
        step_bot(game, bots)
    return game
