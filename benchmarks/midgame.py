"""Mid-game records of every game for the app benchmarks.

Three seats, moves chosen by greedy bots until the game is well under way and
the seat to move chooses a place on the board. The seats are people (so the app
waits for the keyboard), except in a game with secrets (Paris Connection),
where two of them are bots: with two people at one keyboard the hand-off
screen would stand between every move.
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


GAMES = ("new-england", "paris-connection", "steel-driver", "railways-of-the-world",
         "american-rails")
# How far into a game (in actions) its mid-game board is taken: about two fifths
# of a three-player game between greedy bots.
MID_ACTIONS = {"paris-connection": 40, "steel-driver": 80, "railways-of-the-world": 80,
               "american-rails": 100}


def seats(game_id: str) -> list[PlayerSpec]:
    ruleset = load_ruleset(game_id)
    if getattr(ruleset, "hidden_information", False):
        return [PlayerSpec(name=NAMES[0])] + [PlayerSpec(name=n, kind="greedy")
                                              for n in NAMES[1:]]
    return [PlayerSpec(name=n) for n in NAMES]


def play_until(stop: Any, seed: int = 7, max_actions: int = 2000,
               choose: Any = None, game_id: str = "new-england") -> Game:
    """Play greedy moves for three seats until ``stop(game)`` is true.

    ``choose(game, prompt)`` may return an action of its own instead of the bot's.
    """
    ruleset = load_ruleset(game_id)
    game = Game.new(ruleset, seats(game_id), seed=seed)
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
            amount = max(prompt.amount.min, min(borrow, prompt.amount.max))
            return {"type": "borrow", "seat": prompt.seat, "amount": amount}
        if game.state.step is Step.RETIRE:
            return {"type": "retire", "seat": prompt.seat, "amount": 0}
        return None

    return play_until(lambda g: g.state.turn >= turn and g.state.step is Step.AUCTION
                      and g.state.auction is not None and g.state.auction.high_seat is None
                      and len(g.state.auction.bidders) == len(NAMES), seed, choose=choose)


def midgame(game_id: str, seed: int = 7) -> Game:
    """A game well under way, a person to move, choosing a place on the board."""
    if game_id == "new-england":
        return shipping_record(seed=seed)
    from railgames.app.boards import game_ui

    ui = game_ui(load_ruleset(game_id))
    least = MID_ACTIONS[game_id]

    def stop(game: Game) -> bool:
        prompt = game.prompt()
        return (len(game.record.actions) >= least and prompt is not None
                and not game.players[prompt.seat].is_bot
                and ui.board_level(game.state, prompt, []))

    return play_until(stop, seed, game_id=game_id)


def write_record(game: Game, folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text(game.record.dump_json(), encoding="utf-8")
    return path
