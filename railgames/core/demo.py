"""Demonstrations: greedy bots play every seat, and the game is told rule by rule.

The demo game is played to the end first (it takes a moment), then shown as a
``Recording``: stepping through it, forward or back, is the same as watching
a saved game. Nothing here imports Textual; ``railgames demo GAME --text``
prints the narration straight to standard output.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from railgames.core.engine import Game, Ruleset
from railgames.core.errors import RailgamesError
from railgames.core.narration import narrate, rules_fired, text_lines
from railgames.core.record import GameRecord
from railgames.core.rulebook import rulebook
from railgames.core.simulate import bot_players, play_bot_game

DEFAULT_PLAYERS = 4
DEFAULT_SEED = 1


def demo_game(ruleset: Ruleset[Any], players: int | None = None, seed: int | None = None) -> Game:
    """A finished game of greedy bots, one per seat, under ``ruleset`` (on its map)."""
    if players is None:
        n = max(ruleset.min_players, min(ruleset.max_players, DEFAULT_PLAYERS))
    else:
        n = players
    if not ruleset.min_players <= n <= ruleset.max_players:
        raise RailgamesError(f"{ruleset.title} is for {ruleset.min_players} to "
                             f"{ruleset.max_players} players, not {n}")
    return play_bot_game(ruleset, bot_players(n, "greedy"), DEFAULT_SEED if seed is None else seed)


def demo_record(ruleset: Ruleset[Any], players: int | None = None,
                seed: int | None = None) -> GameRecord:
    return demo_game(ruleset, players, seed).record



def text_demo(game: Game, width: int = 100) -> Iterator[str]:
    """The narrated game, for a plain terminal or a pipe."""
    ruleset, record = game.ruleset, game.record
    book = rulebook(ruleset)
    names = ", ".join(p.name for p in record.players)
    yield (f"{ruleset.title}: a demonstration. {len(record.players)} greedy bots ({names}) "
           f"play every seat (map {record.map}, seed {record.seed}).")
    if ruleset.hidden_information:
        yield "Everyone's secret holdings are shown: this is a demonstration."
    yield ("Each line is one action (numbered) or what followed from it. A rule is explained "
           "in full the first time it is at work, then named in [brackets] with a one-line reason.")
    yield ""
    told = narrate(game.log, book, ruleset)
    yield from text_lines(told, ruleset.id, width)
    shown = rules_fired(game.log)
    yield ""
    yield f"Rules shown: {len(shown)} of {len(book)}: " + ", ".join(
        r.title for r in book if r.id in shown) + "."
    missing = [r.title for r in book if r.id not in shown]
    if missing:
        yield "Not at work in this game: " + ", ".join(missing) + "."
