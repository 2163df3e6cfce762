"""A record stepped forward and back: the read-only table of the viewer."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from railgames.core.engine import Action, Game, Prompt, Result, Ruleset
from railgames.core.errors import IllegalAction
from railgames.core.events import Event
from railgames.core.record import GameRecord, PlayerSpec
from railgames.tables.table import BotsElsewhere, SavesElsewhere, TurnIndex

# A snapshot of the state every this many actions: a step back replays fewer than this.
SNAPSHOT_EVERY = 8
NO_UNDO = "this is a recording: step back with \u2190 instead"


class Recording(BotsElsewhere, SavesElsewhere, TurnIndex):
    """A finished or unfinished record, stepped forward and back; nothing can be played.

    ``position`` is the number of the record's actions applied (0 = just after
    set-up). The whole record is replayed once when opened: that checks every
    action, collects every event and keeps a snapshot of the state every
    ``SNAPSHOT_EVERY`` actions, so that any position is reached by copying a
    snapshot and applying at most ``SNAPSHOT_EVERY - 1`` actions.

    ``seat`` is who watches: ``reveal_all`` shows everything (a demonstration,
    a finished game), otherwise only what that seat may see (history of a game
    in progress).
    """

    read_only = True
    shared = False  # whoever watches sees ``seat``'s view (or everything)
    can_save = False
    talk = None  # a game already played: nobody to talk with
    lesson: Any = None  # no tutorial's lesson (railgames/tables/coached.py has one)

    def __init__(self, ruleset: Ruleset[Any], record: GameRecord, *, seat: int | None = None,
                 reveal_all: bool = False, upto: int | None = None) -> None:
        self._ruleset = ruleset
        self.record = record
        self.seat = seat
        self.reveal_all = reveal_all
        actions = record.actions if upto is None else record.actions[:upto]
        header = record.model_copy(update={"actions": []})
        game = Game.replay(ruleset, header)  # set-up only; checks players and map
        self._snapshots: dict[int, Any] = {0: self._detach(game.state)}
        self._log_len = [len(game.log)]
        self._turns = [ruleset.turn_of(game.state)]
        for index, raw in enumerate(actions):
            game.apply(raw)
            self._log_len.append(len(game.log))
            self._turns.append(ruleset.turn_of(game.state))
            if (index + 1) % SNAPSHOT_EVERY == 0:
                self._snapshots[index + 1] = self._detach(game.state)
        self.log: list[Event] = list(game.log)
        self.length = len(actions)
        self._actions = list(actions)
        self._game = game
        self.position = self.length

    @classmethod
    def of_game(cls, game: Game, **kw: Any) -> Recording:
        return cls(game.ruleset, game.record.model_copy(deep=True), **kw)

    # --- snapshots keep no log: the events are kept once, in ``self.log``
    def _detach(self, state: Any) -> Any:
        log = self._ruleset.log_of(state)
        state.log = []
        try:
            return copy.deepcopy(state)
        finally:
            state.log = log

    def _restore(self, at: int) -> Game:
        state = copy.deepcopy(self._snapshots[at])
        state.log = self.log[: self._log_len[at]]
        header = self.record.model_copy(update={"actions": list(self._actions[:at])})
        return Game(self._ruleset, header, state)

    # --- moving
    def seek(self, position: int) -> None:
        position = max(0, min(self.length, position))
        if position == self.position:
            return
        if position < self.position or position - self.position >= SNAPSHOT_EVERY:
            base = position - position % SNAPSHOT_EVERY
            self._game = self._restore(base)
            self.position = base
        while self.position < position:
            self._game.apply(self._actions[self.position])
            self.position += 1

    @property
    def game(self) -> Game:
        return self._game

    # --- the Table interface
    @property
    def ruleset(self) -> Ruleset[Any]:
        return self._ruleset

    @property
    def players(self) -> list[PlayerSpec]:
        return self.record.players

    @property
    def state(self) -> Any:
        return self._game.state

    def view(self, seat: int | None = None) -> Any:
        if self.reveal_all:
            return self._game.state
        return self._game.view(self.seat if seat is None else seat)

    def prompt(self) -> Prompt | None:
        return self._game.prompt()

    def events_for(self, seat: int | None = None) -> list[Event]:
        shown = self.log[: self._log_len[self.position]]
        if self.reveal_all:
            return shown
        who = self.seat if seat is None else seat
        return [e for e in shown if e.visible(who)]

    def all_events(self) -> list[Event]:
        """Every event of the record this watcher may see, wherever the position is."""
        if self.reveal_all:
            return list(self.log)
        return [e for e in self.log if e.visible(self.seat)]

    def events_between(self, start: int, end: int) -> list[Event]:
        """The events (as this watcher may see them) of positions start+1 .. end."""
        events = self.log[self._log_len[start]: self._log_len[end]]
        if self.reveal_all:
            return events
        return [e for e in events if e.visible(self.seat)]

    def result(self) -> Result | None:
        return self._game.result()

    def submit(self, action: Mapping[str, Any] | Action) -> list[Event]:
        raise IllegalAction("this is a recording: nothing can be played here")

    def undo(self, seat: int) -> None:
        raise IllegalAction(NO_UNDO)

    def why_not_undo(self, seat: int) -> str | None:
        return NO_UNDO

    def why_no_hint(self) -> str | None:
        return "this is a recording: there is nothing to decide"

    def is_over(self) -> bool:
        return self._game.is_over()

    def played(self) -> int:
        return self.position

    def is_bot(self, seat: int) -> bool:
        return self.record.players[seat].is_bot

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.record.players) if not p.is_bot]

    def away(self) -> list[int]:
        return []

    def save(self) -> None:
        """A recording is a file already: nothing to write."""

    def history(self, seat: int | None, reveal_all: bool) -> Recording:
        """The record up to the position shown, as ``seat`` may see it."""
        return Recording.of_game(self._game, seat=seat, reveal_all=reveal_all)

