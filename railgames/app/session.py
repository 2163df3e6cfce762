"""A game being played in the app: the rules engine, its bots and its save file.

Nothing here imports Textual, so the flow (apply, bots, undo, autosave) can be
tested on its own. Every change goes through ``Game.apply`` or ``Game.undo``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from railgames.app.saves import save_path_for
from railgames.core.bots import Bot
from railgames.core.engine import Action, Game, Prompt, Result
from railgames.core.events import Event
from railgames.core.record import GameRecord, PlayerSpec, save_record
from railgames.core.simulate import bots_for, step_bot
from railgames.core.table import Change
from railgames.games import load_ruleset


class Session:
    """The local table (see ``railgames.core.table.Table``): a game played in this process."""

    read_only = False

    def __init__(self, game: Game, save_path: Path | None = None, autosave: bool = True) -> None:
        self.game = game
        self.save_path = save_path or save_path_for(game.record)
        self.autosave = autosave
        self.bots: list[Bot] = bots_for(game, game.record.seed)

    # --- creation
    @classmethod
    def new(cls, game_id: str, players: list[Any], seed: int, *, map_id: str | None = None,
            options: dict[str, Any] | None = None, **kw: Any) -> Session:
        ruleset = load_ruleset(game_id, map_id)
        return cls(Game.new(ruleset, players, seed, options), **kw)

    @classmethod
    def resume(cls, record: GameRecord, save_path: Path | None = None, **kw: Any) -> Session:
        ruleset = load_ruleset(record.game, record.map)
        return cls(Game.replay(ruleset, record), save_path=save_path, **kw)

    # --- queries
    @property
    def ruleset(self) -> Any:
        return self.game.ruleset

    @property
    def state(self) -> Any:
        return self.game.state

    def prompt(self) -> Prompt | None:
        return self.game.prompt()

    # --- the Table interface (railgames.core.table)
    @property
    def players(self) -> list[PlayerSpec]:
        return self.game.players

    def view(self, seat: int | None) -> Any:
        return self.game.view(seat)

    def events_for(self, seat: int | None) -> list[Event]:
        return self.game.events_for(seat)

    def result(self) -> Result | None:
        return self.game.result()

    def submit(self, action: Mapping[str, Any] | Action) -> list[Event]:
        return self.apply(action)

    def mark(self) -> tuple[int, int]:
        # Undo replaces the state object (a replay), while an action adds to its log.
        return id(self.game.state), len(self.game.log)

    def changes(self, mark: tuple[int, int]) -> Change:
        state_id, logged = mark
        if state_id != id(self.game.state) or logged > len(self.game.log):
            return Change(full=True)
        return Change(full=False, events=tuple(self.game.log[logged:]))

    def name(self, seat: int) -> str:
        return self.game.players[seat].name

    def is_bot(self, seat: int) -> bool:
        return self.game.players[seat].is_bot

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.game.players) if not p.is_bot]

    def bot_to_move(self) -> bool:
        prompt = self.prompt()
        return prompt is not None and self.is_bot(prompt.seat)

    # --- changes
    def apply(self, action: Mapping[str, Any] | Action, *, save: bool = True) -> list[Event]:
        """Apply through the rules engine; IllegalAction/MalformedAction leave everything as it was.

        ``save=False`` leaves the autosave to the caller (the game screen saves
        right after the new state is on the screen).
        """
        events = self.game.apply(action)
        if save:
            self.save_if_auto()
        return events

    def bot_step(self) -> list[Event]:
        start = len(self.game.log)
        step_bot(self.game, self.bots)
        self.save_if_auto()
        return self.game.log[start:]

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s own last decision, and any bots' moves after it.

        Raises IllegalAction with the reason when refused (another person has
        moved since, or dice, a draw or a secret came out).

        ``seat`` is the player at the keyboard: nobody can take back another
        player's move, however the keys are passed around.
        """
        self.game.undo(seat)
        self.save_if_auto()

    def save(self) -> Path:
        save_record(self.game.record, self.save_path)
        return self.save_path

    def save_if_auto(self) -> None:
        if self.autosave:
            self.save()
