"""A quick tour of a game: every rule explained once, the stretches between skipped.

A whole demo is hundreds of actions, most of them a rule at work again (American
Rails opens with dozens of one-dollar bids). A tour keeps only the actions that
explain a rule for the first time and tells each stretch it skips in one line
("38 actions skipped: Auctions 37, Building 1"). Some rules come up only in some
games (an option, a tie, a supply that runs out), so a tour may show parts of a
few seeded bot games: the first covers most rules, the next ones only the rules
still missing. Which games, for each game, is data (``tours.json``), found by
``benchmarks/tour_search.py``; nothing here imports Textual.

Timing follows the viewer at its default pace: one second an action, and
``READING_PAUSE`` more for each rule explained in full; a skipped stretch costs
the time to read its line.
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from railgames.core.engine import Game, Ruleset
from railgames.core.events import SETUP, Event
from railgames.core.narration import full_text
from railgames.core.record import PlayerSpec
from railgames.core.rulebook import RuleBook, rulebook
from railgames.core.simulate import MAX_ACTIONS, RunawayGame, bot_players, bots_for, step_bot

# As in the viewer (railgames/app/screens/viewer.py): seconds an action at speed 1,
# and the extra steps' time given to read a rule explained in full.
ACTION_SECONDS = 1.0
READING_PAUSE = 5
SKIP_SECONDS = 3.0  # to read the line that tells a skipped stretch
PIECE_SECONDS = 3.0  # to read the line that opens a game of the tour
TARGET_SECONDS = 180.0  # every rule once in under three minutes
TOURS_FILE = "tours.json"


@dataclass(frozen=True)
class Piece:
    """One seeded bot game the tour shows parts of."""

    players: int
    kind: str = "greedy"
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "kind": self.kind, "seed": self.seed}
        if self.options:
            out["options"] = dict(self.options)
        return out

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> Piece:
        return cls(int(spec["players"]), str(spec.get("kind", "greedy")), int(spec["seed"]),
                   dict(spec.get("options", {})))


@dataclass(frozen=True)
class Stop:
    """An action that explains rules for the first time in the tour.

    ``position`` is the viewer's position once it is applied (its index + 1; 0
    for set-up), ``skipped`` the actions passed over since the stop before, and
    ``skipped_rules`` how many of them each rule was at work in.
    """

    piece: int
    position: int
    rules: tuple[str, ...]
    skipped: int = 0
    skipped_rules: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Tour:
    game: str
    pieces: tuple[Piece, ...]
    stops: tuple[Stop, ...]
    games: tuple[Game, ...]

    @property
    def rules(self) -> set[str]:
        return {r for s in self.stops for r in s.rules}

    @property
    def actions(self) -> int:
        """The actions shown: one a stop (set-up is not an action)."""
        return sum(1 for s in self.stops if s.position > 0)

    @property
    def skips(self) -> int:
        return sum(1 for s in self.stops if s.skipped)

    @property
    def seconds(self) -> float:
        """How long the tour takes at the viewer's default pace (speed 1)."""
        return (len(self.pieces) * PIECE_SECONDS + self.actions * ACTION_SECONDS
                + len(self.rules) * READING_PAUSE * ACTION_SECONDS + self.skips * SKIP_SECONDS)


def stop_seconds(tour: Tour, index: int) -> float:
    """How long the viewer stays on the tour's stop ``index`` at speed 1: the line that
    opens its game (at a game's first stop), its skip line, its action, its rules.
    The stops' times add up to ``Tour.seconds``."""
    stop = tour.stops[index]
    opens = index == 0 or tour.stops[index - 1].piece != stop.piece
    return ((PIECE_SECONDS if opens else 0.0) + (SKIP_SECONDS if stop.skipped else 0.0)
            + (ACTION_SECONDS if stop.position > 0 else 0.0)
            + len(stop.rules) * READING_PAUSE * ACTION_SECONDS)


def piece_line(tour: Tour, index: int, ruleset: Ruleset[Any]) -> str:
    """The line that opens the tour's game ``index``: who plays, and what is new in it."""
    piece = tour.pieces[index]
    options = ", ".join(ruleset.option_labels.get(o, o) for o, on in piece.options.items() if on)
    return (f"{'A game' if index == 0 else 'On to another game, for the rules still to come'}: "
            f"{piece.players} {piece.kind} bots, seed {piece.seed}"
            + (f", with the option: {options}" if options else "") + ".")


def play_piece(ruleset: Ruleset[Any], piece: Piece) -> Game:
    """The finished bot game of ``piece`` (as ``play_bot_game``, with the piece's options)."""
    players: Sequence[PlayerSpec] = bot_players(piece.players, piece.kind)
    game = Game.new(ruleset, players, piece.seed, piece.options)
    bots = bots_for(game, piece.seed)
    while not game.is_over():
        if len(game.record.actions) >= MAX_ACTIONS:
            raise RunawayGame(f"seed {piece.seed}: no end after {MAX_ACTIONS} actions")
        step_bot(game, bots)
    return game


def new_rule_stops(log: Iterable[Event], seen: set[str], piece: int = 0) -> list[Stop]:
    """The actions of one game that bring a rule not in ``seen`` (which is updated),
    with what was skipped before each."""
    by_action: dict[int, list[Event]] = {}
    for event in log:
        by_action.setdefault(event.action, []).append(event)
    stops: list[Stop] = []
    skipped: Counter[str] = Counter()
    count = 0
    for action in sorted(by_action):
        events = by_action[action]
        new = [r for e in events for r in e.rules if r not in seen]
        new = list(dict.fromkeys(new))
        if new:
            seen.update(new)
            position = 0 if action == SETUP else action + 1
            stops.append(Stop(piece, position, tuple(new), count,
                              tuple(sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])))))
            skipped.clear()
            count = 0
        elif action != SETUP:
            count += 1
            skipped.update({r for e in events for r in e.rules})
    return stops


def build_tour(ruleset: Ruleset[Any], pieces: Sequence[Piece]) -> Tour:
    seen: set[str] = set()
    stops: list[Stop] = []
    games: list[Game] = []
    for index, piece in enumerate(pieces):
        game = play_piece(ruleset, piece)
        games.append(game)
        stops.extend(new_rule_stops(game.log, seen, index))
    return Tour(ruleset.id, tuple(pieces), tuple(stops), tuple(games))


def skip_line(stop: Stop, book: RuleBook) -> str:
    """One line for a skipped stretch: how many actions, and the rules at work in them."""
    if not stop.skipped:
        return ""
    what = ", ".join(f"{book[r].title} {n}" for r, n in stop.skipped_rules[:4])
    more = ", ..." if len(stop.skipped_rules) > 4 else ""
    noun = "action" if stop.skipped == 1 else "actions"
    return f"{stop.skipped} {noun} skipped" + (f": {what}{more}" if what else "") + "."


def chosen_pieces(game_id: str) -> list[Piece]:
    """The tour's games for ``game_id``, as ``benchmarks/tour_search.py`` chose them."""
    text = resources.files("railgames.core").joinpath(TOURS_FILE).read_text()
    specs = json.loads(text)[game_id]["pieces"]
    return [Piece.from_spec(s) for s in specs]


def chosen_tour(ruleset: Ruleset[Any]) -> Tour:
    return build_tour(ruleset, chosen_pieces(ruleset.id))


def missing_rules(tour: Tour, ruleset: Ruleset[Any]) -> set[str]:
    return {r.id for r in rulebook(ruleset)} - tour.rules


def text_tour(tour: Tour, ruleset: Ruleset[Any], width: int = 100) -> Iterator[str]:
    """The tour for a plain terminal: each stop's action told, its new rules in full,
    and a line for each stretch skipped before it."""
    book = rulebook(ruleset)
    yield (f"{ruleset.title}: a quick tour. Every rule is explained once; the actions "
           "between are skipped, each stretch told in one line.")
    minutes, seconds = divmod(round(tour.seconds), 60)
    yield (f"About {minutes} min {seconds:02d} s at the viewer's pace: "
           f"{tour.actions} actions of {sum(len(g.record.actions) for g in tour.games)} played.")
    for index, game in enumerate(tour.games):
        yield ""
        yield piece_line(tour, index, ruleset)
        events: dict[int, list[Event]] = {}
        for event in game.log:
            events.setdefault(0 if event.action == SETUP else event.action + 1, []).append(event)
        for stop in (s for s in tour.stops if s.piece == index):
            line = skip_line(stop, book)
            if line:
                yield f"      \u2026 {line}"
            todo = list(stop.rules)
            for number, event in enumerate(events[stop.position]):
                head = ("setup " if stop.position == 0 else f"{stop.position:>5} ") \
                    if number == 0 else " " * 6
                yield f"{head}{event.text}"
                for rule_id in [r for r in event.rules if r in todo]:
                    todo.remove(rule_id)
                    yield from textwrap.wrap(full_text(book[rule_id], ruleset.id), width=width,
                                             break_on_hyphens=False,
                                             initial_indent=" " * 8 + "\u2503 NEW RULE \u2014 ",
                                             subsequent_indent=" " * 8 + "\u2503 ")
    yield ""
    yield f"Rules shown: {len(tour.rules)} of {len(book)}."
