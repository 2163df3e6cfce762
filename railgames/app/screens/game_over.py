"""Game over: final scores with their parts, and how income and cash went turn by turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from railgames.app.boards import game_ui
from railgames.app.palette import player_style, short_name
from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.chart import history_chart
from railgames.app.widgets.footer import KeyFooter
from railgames.core.record import PlayerSpec
from railgames.tables.recording import Recording
from railgames.tables.table import Table

if TYPE_CHECKING:
    from railgames.app.bot_worker import BotWorker
    from railgames.app.screens.review import ReviewRun
    from railgames.app.shell import GameShell
    from railgames.core.record import GameRecord
    from railgames.core.review import Review

GAME_OVER_KEYS = (
    "R reviews your game: the search bot looks again at each of your decisions (where "
    "several people played here, you choose whose; Esc stops it), then the history viewer "
    "steps through the costliest, and t tries again from one · h or v the whole game · "
    "b the final board · l the log · n a new game · p play this game · Enter the launcher · "
    "q quit"
)

PART_NAMES = {
    "cash": "Cash",
    "link_values": "Link values",
    # What is still owed at the end, taken off the total: shown with a minus.
    "debt_owed": "Debt owed",
    "service": "Last service",
    "total": "Total",
}


def money(value: int, signed: bool = False) -> str:
    if value < 0:
        return f"−${-value}"
    return f"+${value}" if signed and value else f"${value}"


class GameOverScreen(SizeGuard, Screen[None]):
    DEFAULT_CSS = """
    GameOverScreen #go-review { height: auto; padding: 0 2; display: none; }
    """
    MIN_SIZE = (80, 24)  # the smallest terminal every game is laid out for
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("launcher", "help", "app.quit", "review", "history", "final_board",
                   "new_game", "play_this", "show_log")
    BINDINGS = [
        Binding("enter,escape", "launcher", "Launcher"),
        Binding("b", "final_board", "Final board"),
        Binding("l", "show_log", "Log"),
        Binding("n", "new_game", "New game"),
        Binding("p", "play_this", "Play this game"),
        Binding("h,v", "history", "History"),
        Binding("R", "review", "Review"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    # A review's budget a decision: the tree's iterations (None: the game's own) and the
    # samples each compared move is played in (the tests make it small).
    review_budget: tuple[int | None, int] | None = None

    def __init__(self, session: Table, viewer: Any = None) -> None:
        """``session`` is the game played, or the recording a viewer (``viewer``) played back;
        nothing of it is read but the ``Table`` protocol."""
        super().__init__()
        self.session = session
        self.viewer = viewer
        self._worker: BotWorker | None = None
        self._run: ReviewRun | None = None  # a review under way
        self._reviews: dict[int, Review] = {}  # seat -> its review, once worked out

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        result = self.session.result()
        names = [p.name for p in self.session.players]
        with VerticalScroll(id="game-over"):
            title = Text("Game over", style="bold")
            if result:
                title.append(f" — {' and '.join(result.winners)} win{'s' if len(result.winners) == 1 else ''}!")
            yield Static(title, id="go-title")
            ui = game_ui(self.session.ruleset)
            scores = ui.final_scores(self.session.state, names)
            yield Static(self._scores(names) if scores is None else scores, id="go-scores")
            history = ui.history(self.session.state)
            if history:
                chart = Text(f"Income and cash at the end of each of the {len(history)} turns",
                             style="bold")
                yield Static(chart, id="go-chart-title")
                yield Static(history_chart(names, history), id="go-chart")
        yield Static(id="go-review")
        yield KeyFooter()

    def _scores(self, names: list[str]) -> RichTable:
        result = self.session.result()
        table = RichTable(expand=False, padding=(0, 1))
        table.add_column("Player")
        if result is None:
            return table
        parts = [k for k in PART_NAMES if any(k in b for b in result.breakdown.values())]
        extra = sorted({k for b in result.breakdown.values() for k in b} - set(PART_NAMES))
        columns = [p for p in parts if p != "total"] + extra + (["total"] if "total" in parts else [])
        for key in columns:
            table.add_column(PART_NAMES.get(key, key.replace("_", " ").capitalize()), justify="right")
        if not columns:
            table.add_column("Score", justify="right")
        order = sorted(result.scores, key=lambda n: -result.scores[n])
        for name in order:
            seat = names.index(name) if name in names else 0
            label = Text(("★ " if name in result.winners else "  ") + name, style=player_style(seat))
            parts_of = result.breakdown.get(name, {})
            cells = [money(parts_of.get(k, 0), signed=k not in ("cash", "total"))
                     for k in columns] or [str(result.scores[name])]
            table.add_row(label, *cells)
        return table

    def _secret_seat(self) -> int | None:
        """Whose secrets the finished game may show: the one human's, in a game with secrets."""
        if not getattr(self.session.ruleset, "hidden_information", False):
            return None
        humans = self.session.humans()
        return humans[0] if len(humans) == 1 else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if SizeGuard.check_action(self, action, parameters) is False:
            return False
        if action == "final_board":  # a game played and saved here (a watched one has its
            return self.session.can_save  # viewer, a host's table its own screen)
        return True

    def action_final_board(self) -> None:
        if not self.session.can_save:
            return
        self.rapp.show_final_board(self.session)

    def action_show_log(self) -> None:
        from railgames.app.screens.log import LogScreen

        events = self.session.events_for(self._secret_seat())
        self.app.push_screen(LogScreen(self.session.ruleset.id,
                                       f"{self.session.ruleset.title}: the whole game", events))

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.session.ruleset.id, "Game over", GAME_OVER_KEYS))

    def action_launcher(self) -> None:
        if self._run is not None:  # Esc stops a review under way
            self._stop_review("Review stopped.")
            return
        self.rapp.to_launcher()

    def on_unmount(self) -> None:
        if self._worker is not None:
            self._worker.stop()

    # ------------------------------------------------------------ the review
    def reviewable(self) -> list[int]:
        """The seats R may review: this terminal's own at a host's table, else the people's."""
        if not self.session.shared and self.session.seat is not None:
            return [self.session.seat]
        return self.session.humans()

    def action_review(self) -> None:
        if self._run is not None:
            return
        record = self.session.record
        if record is None or self.session.result() is None:
            self.notify("This game's record is not here, so it cannot be reviewed.",
                        severity="warning")
            return
        seats = self.reviewable()
        if not seats:
            self.notify("Bots played every seat: there is no player's game to review.",
                        severity="warning")
            return
        if len(seats) == 1:
            self.review_seat(seats[0])
            return
        from railgames.app.screens.confirm import ConfirmScreen

        names = [p.name for p in self.session.players]
        buttons = [(f"seat-{s}", short_name(names[s]), str(i + 1)) for i, s in enumerate(seats)]

        def chosen(answer: str | None) -> None:
            if answer is not None and answer.startswith("seat-"):
                self.review_seat(int(answer[5:]))

        self.app.push_screen(ConfirmScreen("Whose game shall the search bot review?", buttons),
                             chosen)

    def review_seat(self, seat: int) -> None:
        """Review ``seat``'s decisions in the worker process, then show the costliest."""
        record = self.session.record
        if record is None:
            return
        done = self._reviews.get(seat)
        if done is not None:
            self._show_review(done)
            return
        from railgames.app.bot_worker import BotWorker
        from railgames.app.screens.review import ReviewRun

        if self._worker is None:
            self._worker = BotWorker()
        run = ReviewRun(self._worker, self.session.ruleset, record.model_copy(deep=True), seat,
                        lambda r: self.post_message(self.ReviewStep(r)),
                        **({"budget": self.review_budget} if self.review_budget else {}))
        self._run = run
        self._say(run.progress_line(self.session.players[seat].name))
        run.start()

    class ReviewStep(Message):
        """The worker finished a part of a review (sent from another thread)."""

        def __init__(self, run: ReviewRun) -> None:
            super().__init__()
            self.run = run

    def on_game_over_screen_review_step(self, message: ReviewStep) -> None:
        message.stop()
        run = message.run
        if run is not self._run:
            return  # stopped meanwhile
        name = self.session.players[run.seat].name
        if run.error is not None:
            self._run = None
            self._say("")
            self.notify(f"The review could not be worked out: {run.error}", severity="error")
            return
        if run.review is None:
            self._say(run.progress_line(name))
            return
        self._run = None
        self._reviews[run.seat] = run.review
        self._say("")
        self._show_review(run.review)

    def _stop_review(self, why: str) -> None:
        run, self._run = self._run, None
        if run is not None:
            run.stop()  # the worker ends with the chunk it was on
        self._worker = None  # the next review starts a fresh worker
        self._say("")
        self.notify(why)

    def _say(self, line: str) -> None:
        """The review's progress under the scores (nothing, and no room taken, without one)."""
        shown = self.query_one("#go-review", Static)
        shown.update(Text(line, style="bold") if line else "")
        shown.display = bool(line)

    def _show_review(self, review: Review) -> None:
        from railgames.app.screens.review import ReviewScreen
        from railgames.core.review import costliest

        name = self.session.players[review.seat].name
        if not review.decisions:
            self.notify(f"{name} had no choice to make in this game: nothing to review.",
                        title="Review")
            return
        if not costliest(review.decisions):
            looked = len(review.decisions)
            self.notify(f"No decision of {name}'s lost a point by the search's estimate "
                        f"({looked} looked at).", title="Review")
            return
        record = self.session.record
        assert record is not None
        recording = Recording(self.session.ruleset, record.model_copy(deep=True), reveal_all=True)
        # A host's table says what kind its bots are; a game here has its bot seats' kind.
        bot_kind = getattr(self.session, "bot_kind", None)
        self.app.push_screen(ReviewScreen(recording, review, name, on_leave=self.app.pop_screen,
                                          on_try=self.try_again, bot_kind=bot_kind))

    def try_again(self, record: GameRecord) -> None:
        """A new game on this terminal from the record given (see ``ReviewScreen``)."""
        self.rapp.play_from(record)

    def action_history(self) -> None:
        """Step through the whole game; everything is shown now that it is over."""
        if self.viewer is not None:
            self.app.pop_screen()  # back to the viewer this game was watched in
            return
        from railgames.app.screens.viewer import ViewerScreen

        record = self.session.record
        if record is None:  # a table whose record is away
            self.notify("The history of this game is not here.", severity="warning")
            return
        recording = Recording(self.session.ruleset, record.model_copy(deep=True), reveal_all=True)
        self.app.push_screen(ViewerScreen(recording, kind="watch", start=0, playing=False,
                                          on_leave=self.app.pop_screen))

    def action_play_this(self) -> None:
        """A real game with the same options; after a demo the first seat is yours."""
        from railgames.app.screens.setup import SetupScreen

        players = list(self.session.players)
        if all(p.is_bot for p in players):
            players[0] = PlayerSpec(name=short_name(players[0].name), kind="human")
        self.rapp.to_launcher()
        self.app.push_screen(SetupScreen(self.session.ruleset.id, players))

    def action_new_game(self) -> None:
        from railgames.app.screens.setup import SetupScreen

        self.rapp.to_launcher()
        self.app.push_screen(SetupScreen(self.session.ruleset.id, list(self.session.players)))
