"""A mid-game New England Railways record for the app benchmarks.

Three human seats (so the app waits for the keyboard), moves chosen by greedy
bots until a given turn's shipping step, when the board is what the player uses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from railgames.core.bots import make_bot
from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import load_ruleset
from railgames.games.new_england.state import Step

NAMES = ("Ann", "Bob", "Cat")


def play_until(stop: Any, seed: int = 7, max_actions: int = 2000,
               choose: Any = None) -> Game:
    """Play greedy moves for three human seats until ``stop(game)`` is true.

    ``choose(game, prompt)`` may return an action of its own instead of the bot's.
    """
    ruleset = load_ruleset("new-england")
    game = Game.new(ruleset, [PlayerSpec(name=n) for n in NAMES], seed=seed)
    bots = [make_bot("greedy", ruleset, seed + i) for i in range(len(NAMES))]
    for _ in range(max_actions):
        if stop(game):
            return game
        prompt = game.prompt()
        if prompt is None:
            break
        action = choose(game, prompt) if choose is not None else None
        if action is None:
            action = bots[prompt.seat].choose(ruleset, game.view(prompt.seat), prompt)
        game.apply(action)
    raise RuntimeError("the game never reached the wanted point")


def shipping_record(turn: int = 4, seed: int = 7) -> Game:
    """A game at the shipping step of ``turn``, with links owned and cubes waiting."""
    return play_until(lambda g: g.state.turn >= turn and g.state.step is Step.SHIP
                      and g.ruleset.shipments(g.state, g.prompt().seat), seed)


def auction_record(turn: int = 3, seed: int = 7, borrow: int = 0) -> Game:
    """A game in the middle of an auction in ``turn``, with no bid made yet.

    With ``borrow``, every seat takes that much in Bank Loans at the start of
    ``turn`` (and pays none of it back), so the auction can run to many bids.
    """
    def choose(game: Game, prompt: Any) -> dict[str, Any] | None:
        if not borrow or game.state.turn != turn:
            return None
        if game.state.step is Step.LOANS:
            top = prompt.amount.max  # None: Bank Loans have no upper end
            amount = max(prompt.amount.min, borrow if top is None else min(borrow, top))
            return {"type": "borrow", "seat": prompt.seat, "amount": amount}
        if game.state.step is Step.RETIRE:
            return {"type": "retire", "seat": prompt.seat, "amount": 0}
        return None

    return play_until(lambda g: g.state.turn >= turn and g.state.step is Step.AUCTION
                      and g.state.auction is not None and g.state.auction.high_seat is None
                      and len(g.state.auction.bidders) == len(NAMES), seed, choose=choose)


def write_record(game: Game, folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text(game.record.dump_json(), encoding="utf-8")
    return path
