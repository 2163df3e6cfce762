"""The tutorial's table: a local game where the learner is coached move by move.

A ``CoachedTable`` is the local table (``Session``) of a tutorial's seeded game
(railgames/core/tutorial.py) with one more capability, ``lesson``: what to do
now and why, in a line or two, said when a rule first matters; the expected
move (the screen highlights it so Enter takes it); and what the bots' moves
have just shown. Tables without it answer None (``lesson_of``), as for ``talk``.

``submit`` takes the expected move, and another legal move where the lesson does
not depend on it (the expected move shows nothing new and works towards no rule
still to come, or the other shows the same rules). Where it does, the move is
refused with one line saying why, and nothing changes. After another move the expected moves are worked out from the
position reached. The bots are greedy, each decision made by a bot made for it
(so a resumed tutorial goes on as it would have), seeking untaught rules where
the tutorial says so. Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from railgames.core.coach import said
from railgames.core.engine import Action, Game
from railgames.core.errors import IllegalAction
from railgames.core.events import SETUP, Event
from railgames.core.rulebook import rulebook
from railgames.core.search import action_key
from railgames.core.tutorial import (
    Expected,
    TutorialSpec,
    chosen_spec,
    expected_move,
    imperative,
    lead_refusal,
    leads_to,
    probe,
    refusal,
    rule_line,
    step,
)
from railgames.tables.local import Session

TUTORIALS_FOLDER = "tutorials"


@dataclass(frozen=True)
class Lesson:
    """The lesson of the moment.

    ``lines``: a line or two to read now; ``more``: the full explanations of the
    rules it names (for a screen with room); ``expected``: the move to highlight
    (None when the learner is not to move); ``finished``: the game is over, and
    ``untaught`` the rules that never came up (each as 'Title: explanation').
    """

    lines: tuple[str, ...]
    more: tuple[str, ...] = ()
    expected: Any = None
    finished: bool = False
    taught: int = 0
    rules: int = 0
    untaught: tuple[str, ...] = ()


class CoachedTable(Session):
    """A tutorial's game at this terminal (see the module's docstring)."""

    shared = False  # the learner is the only person here: no hand-offs
    def __init__(self, game: Game, spec: TutorialSpec, **kw: Any) -> None:
        super().__init__(game, **kw)
        self.spec = spec
        self.book = rulebook(game.ruleset)
        self.wanted = {r.id for r in self.book}
        self._seen_for: tuple[int, int] | None = None
        self._first: dict[str, int] = {}  # rule -> the action that first showed it (-1: set-up)
        self._expected_for: tuple[int, int, Expected] | None = None
        self._lesson_for: tuple[tuple[int, int, int], Lesson] | None = None

    # --- creation
    @classmethod
    def start(cls, game_id: str, **kw: Any) -> CoachedTable:
        from railgames.games import load_ruleset

        spec = chosen_spec(game_id)
        return cls(spec.new_game(load_ruleset(game_id)), spec, **kw)

    @property
    def seat(self) -> int:  # type: ignore[override]
        return self.spec.seat

    # --- what has been taught
    def _scan(self) -> dict[str, int]:
        mark = self.mark()
        if self._seen_for != mark:
            if self._seen_for is None or mark[0] != self._seen_for[0]:
                self._first = {}
                events = self.game.log
            else:
                events = self.game.log[self._seen_for[1]:]
            for event in events:
                for rule in event.rules:
                    self._first.setdefault(rule, -1 if event.action == SETUP else event.action)
            self._seen_for = mark
        return self._first

    @property
    def taught(self) -> set[str]:
        return set(self._scan())

    def expected(self) -> Expected | None:
        """The move the lesson expects now (None when it is not the learner's turn)."""
        prompt = self.prompt()
        if prompt is None or prompt.seat != self.spec.seat:
            return None
        key = (id(self.game.state), len(self.game.record.actions))
        kept = self._expected_for
        if kept is not None and kept[:2] == key:
            return kept[2]
        found = expected_move(self.game, self.taught, self.wanted, self.spec.kind,
                              self.spec.leads)
        self._expected_for = (*key, found)
        return found

    @property
    def lesson(self) -> Lesson:
        # (A move that only opens a choice adds no event: the actions are counted too.)
        mark = (*self.mark(), len(self.game.record.actions))
        kept = self._lesson_for
        if kept is None or kept[0] != mark:
            kept = self._lesson_for = (mark, self._lesson())
        return kept[1]

    def _lesson(self) -> Lesson:
        first = self._scan()
        taught = len(self.wanted & set(first))
        total = len(self.wanted)
        if self.is_over():
            untaught = tuple(rule_line(self.book, r) for r in sorted(self.wanted - set(first)))
            line = (f"The tutorial is over: {taught} of {total} rules have come up."
                    + ("" if untaught else " You have seen them all."))
            return Lesson((line,), untaught, finished=True, taught=taught, rules=total,
                          untaught=untaught)
        actions = self.game.record.actions
        mine = next((i for i in range(len(actions) - 1, -1, -1)
                     if actions[i].get("seat") == self.spec.seat), -1)
        shown = [r for r, at in first.items() if at > mine or (mine == -1 and at == -1)]
        lines: list[str] = []
        more: list[str] = []
        if mine == -1:  # before the learner's first move: whose seat is theirs
            others = ", ".join(p.name for i, p in enumerate(self.game.players) if i != self.spec.seat)
            lines.append(f"You play {self.game.players[self.spec.seat].name}, against bots "
                         f"({others}).")
        exp = self.expected()
        if exp is None:
            prompt = self.prompt()
            if prompt is not None:
                lines.append(f"{self.game.players[prompt.seat].name} is to move.")
        else:
            what = imperative(said(self.game.ruleset, self.game.state, exp.action, self.spec.seat))
            what = what[:1].upper() + what[1:]
            if exp.new:
                lines.append(f"Do: {what}. New rule \u2014 {rule_line(self.book, exp.new[0])}")
                more.extend(self.book[r].full for r in exp.new if r in self.book)
            elif exp.lead is not None:
                lines.append(f"Do: {what}. It works towards a rule still to come: "
                             f"{rule_line(self.book, exp.lead)}")
            else:
                lines.append(f"Suggested: {what} (any move is fine here: nothing new hangs on it).")
        if shown:
            titles = [self.book[r].title if r in self.book else r for r in shown]
            more_titles = f" and {len(titles) - 3} more (in the log)" if len(titles) > 3 else ""
            lines.append(f"Just shown: {', '.join(titles[:3])}{more_titles}.")
            more.extend(self.book[r].full for r in shown if r in self.book)
        return Lesson(tuple(line for line in lines if line), tuple(more),
                      exp.action if exp else None, taught=taught, rules=total)

    # --- changes
    def submit(self, action: Mapping[str, Any] | Action) -> list[Event]:
        """The expected move, or another where the lesson does not depend on it; else
        IllegalAction says why, and nothing changes."""
        exp = self.expected()
        if exp is not None and not self.read_only:
            parsed = self.game.check(action)  # an illegal move is refused by the rules first
            if exp.new and action_key(parsed) != action_key(exp.action):
                brings = set(probe(self.game.ruleset, self.game.state, parsed))
                if not set(exp.new) <= brings:
                    raise IllegalAction(refusal(self.book, exp.new))
            lead = exp.lead
            if lead is not None and not leads_to(parsed, self.spec.leads[lead]):
                raise IllegalAction(lead_refusal(self.book, lead))
        return super().submit(action)

    def bot_thinks_long(self) -> bool:
        return False  # the tutorial's bots are greedy: they move at once

    def prepare_think(self) -> None:
        return None

    def bot_step(self) -> list[Event]:
        if self.read_only:
            return []
        start = len(self.game.log)
        step(self.game, self.spec, self.taught, self.wanted)
        self.save_if_auto()
        return self.game.log[start:]


def lesson_of(table: Any) -> Lesson | None:
    """The table's lesson, if it is a tutorial's (None for any other table)."""
    lesson = getattr(table, "lesson", None)
    return lesson if isinstance(lesson, Lesson) else None


def tutorial_path(game_id: str) -> Path:
    from railgames.app.saves import SAVE_SUFFIX, saves_dir

    return saves_dir() / TUTORIALS_FOLDER / f"{game_id}{SAVE_SUFFIX}"


def open_tutorial(game_id: str) -> tuple[CoachedTable, bool]:
    """The tutorial of ``game_id``: its save if one is under way (True), else a new one.

    A save that is another tutorial's game (the tutorials changed since) or finished
    is put aside for a new one. Raises SaveInUse if another window has it open.
    """
    from railgames.app.saves import create_save, open_for_play
    from railgames.core.errors import RailgamesError
    from railgames.games import load_ruleset

    spec = chosen_spec(game_id)
    ruleset = load_ruleset(game_id)
    path = tutorial_path(game_id)
    if path.exists():
        lock, file, record = open_for_play(path)
        try:
            game = Game.replay(ruleset, record)
        except RailgamesError:
            game = None
        if game is not None and spec.matches(game) and not game.is_over():
            return CoachedTable(game, spec, lock=lock, file=file), True
        lock.release()
        path.unlink(missing_ok=True)
    table = CoachedTable(spec.new_game(ruleset), spec)
    path.parent.mkdir(parents=True, exist_ok=True)
    made = create_save(table.game.record, folder=path.parent, stem=game_id)
    from railgames.app.saves import SaveFile, SaveLock, disk_stamp

    lock = SaveLock(made)
    lock.acquire()
    table._lock = lock
    table._file = SaveFile(made, disk_stamp(made))
    return table, False
