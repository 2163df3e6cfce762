"""The review of a finished game: worked out in the worker process, then stepped through.

``ReviewRun`` asks the game-over screen's worker process for one player's
decisions a few at a time (``railgames.core.review``), so the screen shows how
far it has got and stays quick to answer; stopping it ends the worker.
``ReviewScreen`` is the history viewer over the whole game with the costliest
decisions marked: ``n`` and ``N`` go from one to the next, a box says what was
played, what was better, by how much and why, and ``t`` starts a new game on
this terminal from that moment, the reviewed player against bots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from railgames.app.screens.viewer import ViewerScreen
from railgames.core.review import (
    SAMPLES,
    Decision,
    Review,
    costliest,
    decision_positions,
    loss_text,
    review_positions,
    table_bot_kind,
    try_again_record,
)
from railgames.tables.recording import Recording

if TYPE_CHECKING:
    from railgames.app.bot_worker import BotWorker
    from railgames.core.engine import Ruleset
    from railgames.core.record import GameRecord

# A review goes to the worker in about this many calls (one decision a call at the
# least): progress shows every second or two in every game, whatever its length.
CHUNKS = 15

REVIEW_KEYS = (
    "n the next costly decision · N the previous · t try again from here (a new game, "
    "you against bots) · → ← one action on or back · j jump to a turn · Esc leave"
)


class ReviewRun:
    """One player's review under way in a worker process, a chunk of decisions at a time.

    ``tell(run)`` is called (from another thread) after each chunk and at the end or
    on an error; the screen reads ``done``, ``total``, ``review`` and ``error``.
    """

    def __init__(self, worker: BotWorker, ruleset: Ruleset[Any], record: GameRecord, seat: int,
                 tell: Callable[[ReviewRun], None], seed: int = 0,
                 budget: tuple[int | None, int] = (None, SAMPLES)) -> None:
        """``budget``: the tree's iterations a decision (None: the game's own) and the
        samples each compared move is played in."""
        self.worker = worker
        self.ruleset = ruleset
        self.record = record
        self.seat = seat
        self.tell = tell
        self.seed = seed
        self.budget = budget
        self.positions: list[int] | None = None
        self.decisions: list[Decision] = []
        self.review: Review | None = None
        self.error: BaseException | None = None
        self.stopped = False

    @property
    def total(self) -> int | None:
        return None if self.positions is None else len(self.positions)

    @property
    def done(self) -> int:
        return len(self.decisions)

    @property
    def finished(self) -> bool:
        return self.review is not None or self.error is not None or self.stopped

    def start(self) -> None:
        self.worker.run(decision_positions, (self.ruleset, self.record, self.seat), self._listed)

    def stop(self) -> None:
        """Stop between two chunks (the chunk under way ends with the worker)."""
        self.stopped = True
        self.worker.stop()

    def _listed(self, positions: list[int] | None, error: BaseException | None) -> None:
        if self.stopped:
            return
        if error is not None or positions is None:
            self.error = error or RuntimeError("no answer")
        else:
            self.positions = positions
            self._next()
        self.tell(self)

    def _next(self) -> None:
        assert self.positions is not None
        if self.done >= len(self.positions):
            self.review = Review(self.seat, tuple(self.decisions))
            return
        size = max(1, len(self.positions) // CHUNKS)
        chunk = self.positions[self.done:self.done + size]
        self.worker.run(review_positions, (self.ruleset, self.record, chunk, self.seed,
                                           *self.budget), self._reviewed)

    def _reviewed(self, decisions: list[Decision] | None, error: BaseException | None) -> None:
        if self.stopped:
            return
        if error is not None or decisions is None:
            self.error = error or RuntimeError("no answer")
        else:
            self.decisions.extend(decisions)
            self._next()
        self.tell(self)

    def progress_line(self, name: str) -> str:
        if self.total is None:
            return f"Reviewing {name}'s game: finding the decisions… (Esc stops)"
        return f"Reviewing {name}'s game: {self.done} of {self.total} decisions (Esc stops)"


def decision_box(ruleset: Ruleset[Any], decision: Decision | None, index: int, count: int,
                 name: str) -> Text:
    """What the box over the board says at a costly decision (or between them)."""
    text = Text()
    if decision is None:
        text.append(f" Review of {name}: {count} costly decision{'s' if count != 1 else ''} ",
                    style="bold reverse")
        text.append(" n goes to the next, N to the previous; t tries again from one")
        return text
    lost = loss_text(ruleset, decision)
    text.append(f" Costly decision {index + 1} of {count} · turn {decision.turn} · {lost} lost ",
                style="bold reverse")
    text.append(" t try again\n", style="dim")
    text.append("Played: ", style="bold")
    text.append(decision.played + "\n")
    text.append("Better: ", style="bold")
    text.append(decision.better)
    if decision.gains:
        text.append(f" ({', '.join(decision.gains)} now)")
    text.append("\nWhy: ", style="bold")
    text.append(f"played on, the search's games end {lost} better for {name} with it",
                style="italic")
    return text


class ReviewScreen(ViewerScreen):
    """The whole finished game, with the reviewed player's costliest decisions marked."""

    DEFAULT_CSS = """
    ReviewScreen #v-review { height: auto; max-height: 7; padding: 0 1; background: $boost;
                             border-bottom: solid $warning; }
    ReviewScreen.narrow #v-side { height: 5; }
    """
    FOOTER_KEEP = ("next_costly", "try_again", "leave", "help", "step", "jump_turn")
    # The viewer's keys, but n and N go from one costly decision to the next and t
    # tries again (the turn jump moves to j).
    BINDINGS = [
        Binding("n,pagedown", "next_costly(1)", "Next costly", key_display="n/N", priority=True),
        Binding("N,pageup", "next_costly(-1)", "Previous", show=False, priority=True),
        Binding("t", "try_again", "Try again"),
        Binding("j", "jump_turn", "Turn"),
        Binding("space", "toggle_play", "Pause", show=False, priority=True),
    ]

    def __init__(self, recording: Recording, review: Review, name: str,
                 on_leave: Callable[[], object] | None = None,
                 on_try: Callable[[GameRecord], object] | None = None,
                 bot_kind: str | None = None) -> None:
        """``bot_kind``: the bots that play the other people's seats in "try again"
        (None: the game's own kind of bot, see ``table_bot_kind``)."""
        self.review = review
        self.bot_kind = bot_kind
        self.costly = costliest(review.decisions)
        self.who = name
        self.on_try = on_try
        self.index = 0
        start = self.costly[0].position if self.costly else 0
        super().__init__(recording, kind="review", start=start, playing=False, on_leave=on_leave)

    def compose(self) -> Any:
        parts = iter(super().compose())
        yield next(parts)  # the banner
        yield Static(id="v-review")
        yield from parts

    def show(self) -> None:
        super().show()
        self._show_mark()

    def _at(self) -> Decision | None:
        position = self.recording.position
        for i, decision in enumerate(self.costly):
            if decision.position == position:
                self.index = i
                return decision
        return None

    def _show_mark(self) -> None:
        decision = self._at()
        self.query_one("#v-review", Static).update(
            decision_box(self.ruleset, decision, self.index, len(self.costly), self.who))

    def _at_end(self) -> None:
        self._update_banner()  # the game-over screen is the one this review came from

    def action_next_costly(self, step: int) -> None:
        self._pause()
        if not self.costly:
            self.notify(f"No decision of {self.who}'s lost a point by the search's estimate.")
            return
        position = self.recording.position
        # In the order of the game: the next (or previous) costly decision from here.
        ordered = sorted(self.costly, key=lambda d: d.position)
        if step > 0:
            target = next((d for d in ordered if d.position > position), ordered[0])
        else:
            target = next((d for d in reversed(ordered) if d.position < position), ordered[-1])
        self.recording.seek(target.position)
        self.show()

    def action_try_again(self) -> None:
        """A new game on this terminal from this moment: the reviewed player against bots."""
        self._pause()
        prompt = self.recording.prompt()
        if prompt is None or prompt.seat != self.review.seat:
            self.notify(f"Go to a decision of {self.who}'s (n) to try again from it.",
                        severity="warning")
            return
        if self.on_try is None:
            self.notify("A game cannot be started from here.", severity="warning")
            return
        record = try_again_record(self.recording.record, self.recording.position,
                                  self.review.seat, self.bot_kind)
        self.on_try(record)

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self._pause()
        kind = (self.bot_kind or table_bot_kind(self.recording.record)).split(":")[0]
        what = (f"The costliest decisions of {self.who}, by the search bot's estimate of the "
                "final scores: each is marked with the move made, the better one and by how "
                f"much. Trying again starts a new saved game from that moment, {self.who} "
                f"playing and {kind} bots the other seats.")
        self.app.push_screen(HelpScreen(self.ruleset.id, "Reviewing a game", f"{what}\n{REVIEW_KEYS}"))
