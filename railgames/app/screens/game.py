"""The game screen: board, players, turn banner, action panel, event log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, RichLog, Static

from railgames import compat
from railgames.app.boards import board_class, game_ui, with_key_words
from railgames.app.commands import GameCommands
from railgames.app.gameui import AWAY, with_short_names
from railgames.app.hint import THINKING, HintAsked, in_game_words, one_line, top_three
from railgames.app.palette import player_letters, player_style
from railgames.app.screens.confirm import ConfirmScreen
from railgames.app.screens.guard import SizeGuard
from railgames.app.screens.handoff import QUIT_BUTTONS, QUIT_QUESTION, HandoffScreen
from railgames.app.screens.help import HelpScreen
from railgames.app.screens.log import event_line
from railgames.app.widgets.action_panel import ActionPanel
from railgames.app.widgets.footer import KeyFooter
from railgames.app.widgets.quiet import QuietStatic
from railgames.app.widgets.render_once import RenderOnce
from railgames.app.widgets.talk import TalkPanel
from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError
from railgames.tables.table import BotThink, Table, talk_of

if TYPE_CHECKING:
    from railgames.app.bot_worker import BotWorker
    from railgames.app.shell import GameShell

NARROW = 110  # below this width the panels stack under the board
WIDE = 150
ROOMY = 160  # room for a 96-column map beside the usual side panel
TALL = 34  # from this height a narrow screen's list of choices shows more of itself
LESSON_BOT_DELAY = 0.25  # seconds a tutorial's bot takes a move at most
TUTORIAL_HELP = ("In the tutorial: the lesson above the choices says what to do and why; the "
                 "expected move is highlighted, so **Enter** takes it. Another move is fine "
                 "where the lesson does not depend on it; where it does, it is refused with the "
                 "reason and nothing changes. **u** takes back your move, **q** leaves (the "
                 "tutorial is kept: `railgames learn GAME` goes on from there).")
TALK_HELP = ("At this table: **t** writes a line to everyone here (Enter says it, Esc puts it "
             "away); **T** folds the chat into one line or opens it again.")


class GameLog(compat.SizedInLayout, RichLog):
    """The game's log: its title names the keys that scroll it while it has them.

    Set by the log itself as the focus comes and goes, so the title changes in
    the same frame as the border (the screen hears of it a frame later).
    """

    follow = True  # the log shows its newest lines (False while a player reads back)

    def on_mount(self) -> None:
        self.border_title = "Log"

    def on_resize(self) -> None:
        # Lines written before the log had a size are written now, by RichLog's own
        # handler (after this one), and with no scrolling: a log that follows the
        # game is brought to its end once they are in.
        # (A log only taller or shorter is brought to its end as it is laid out, below;
        # this then finds it there and changes nothing.)
        if self.follow:
            self.call_after_refresh(lambda: self.follow and self.scroll_end(
                animate=False, immediate=True, x_axis=False))

    def resized_in_layout(self) -> None:
        if self.follow and compat.log_size_known(self):
            # Taller or shorter as the panel above it changes: the newest lines stay
            # in view in this same frame, not a frame later.
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    _writing = False  # lines are being written (see write)
    _layout_dropped = False

    def write(self, *args: Any, **kwargs: Any) -> Any:
        # New lines make the log's scrollable size larger, which asks for a layout of the
        # whole screen; the log's own size never follows its lines, so only its scroll
        # bars are brought up to date (one that comes or goes still lays out).
        self._writing = True
        try:
            result = super().write(*args, **kwargs)
        finally:
            self._writing = False
        if self._layout_dropped:
            self._layout_dropped = False
            compat.update_scroll_bars(self, self.virtual_size)
        return result

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Any:
        if (layout and self._writing and compat.log_size_known(self)
                and not compat.layout_pending(self)):
            layout, self._layout_dropped = False, True
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def on_focus(self) -> None:
        self.border_title = "Log · PgUp/PgDn Home/End"

    def on_blur(self) -> None:
        self.border_title = "Log"


class GameScreen(SizeGuard, Screen[None]):
    MIN_SIZE = (80, 24)  # the smallest terminal every game is laid out for
    COMMANDS = {GameCommands}
    # What the footer keeps on a short line, most important first: choosing, going
    # back, help, quitting and the panels' key before the rest.
    FOOTER_KEEP = ("choose", "hotkey", "back", "help", "hint", "quit_game", "toggle_panels", "talk",
                   "undo", "final_scores", "history", "show_log", "save", "toggle_talk")

    # Textual repaints the whole screen when the focus moves; the widgets that gain and
    # lose it are restyled (and repainted) anyway, so that is all a move of focus redraws.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    BINDINGS = [
        # (the game's one-key choices come first: see __init__)
        Binding("escape", "back", "Back"),
        Binding("tab", "switch_focus(1)", "Next panel", show=False),
        Binding("shift+tab", "switch_focus(-1)", "Previous panel", show=False),
        # On the board, l also moves the cursor right (hjkl); L opens the log from anywhere.
        Binding("l,L", "show_log", "Log"),
        Binding("u", "undo", "Undo"),
        Binding("s", "save", "Save"),
        Binding("v", "history", "History"),
        Binding("question_mark,f1", "help", "Help"),
        # The search's advice on the decision at hand (a second H: its top three).
        Binding("H", "hint", "Hint"),
        Binding("g", "final_scores", "Scores"),
        Binding("q", "quit_game", "Quit"),
        # On a small screen the map comes first and the panels fold away: i shows them.
        Binding("i", "toggle_panels", "Panels"),
        # At a table with people at other terminals: t writes a line, T folds the chat
        # (no game's one-key choice is t; a test game's is c, hence not c).
        Binding("t", "talk", "Talk"),
        Binding("T", "toggle_talk", "Chat", show=False),
    ]

    def __init__(self, session: Table, handoff: bool = True, review: bool = False) -> None:
        """``session``: the table played at; the screen reads nothing of it but the
        ``Table`` protocol (railgames/tables/table.py)."""
        super().__init__()
        self.session = session
        # A finished game looked at again from the game-over screen: nothing to play.
        self.review = review
        self.ui = game_ui(session.ruleset)
        compat.set_node_bindings(self, with_key_words(compat.node_bindings(self),
                                                      session.ruleset.id))
        self.add_class(f"game-{session.ruleset.id}")
        # A game with secrets shows only what the seat at the keyboard may see, and its
        # hand-off screen between two human seats cannot be turned off.
        self.hidden = bool(getattr(session.ruleset, "hidden_information", False))
        # A table not ``shared`` (a seat at a host's table) has a terminal of its own: it
        # sees its own seat's view only, and no hand-off is ever needed.
        self.handoff = (handoff or self.hidden) and session.shared
        self.names = [p.name for p in session.players]
        self.letters = player_letters(self.names)
        self.extras = self.ui.board_extras()
        self.side_extras = self.ui.side_extras()
        self._logged = 0
        self._log_width = 0
        self._bot_timer: Timer | None = None
        # A search bot's think under way in a worker thread (None when no bot thinks).
        self._think: BotThink | None = None
        self._worker: BotWorker | None = None
        # The hint asked for on the decision at hand (H), worked out in the same worker.
        self._hint: HintAsked | None = None
        prompt = session.prompt()
        # No hand-off before the very first decision: whoever starts is already at the keyboard.
        self._at_keyboard: int | None = prompt.seat if prompt and not session.is_bot(prompt.seat) else None
        if self.hidden and len(session.humans()) > 1:
            self._at_keyboard = None  # no one's secrets show until that player says they are here
        if not session.shared:
            self._at_keyboard = session.seat
        self._log_viewer: int | None = None
        self._choice_level: tuple[Any, tuple[str, ...]] | None = None  # prompt, keys so far
        # The seats whose last place was chosen from the list rather than on the board:
        # their next place is asked for in the list too (focus stays where they choose).
        self._list_pickers: set[int] = set()
        self._players_shown: RenderOnce | None = None
        self._hotkeys_for: tuple[Any, Any, dict[str, Any]] | None = None
        # A game opened after it ended shows its final board and log (scores on `g`).
        self.finished_on_open = session.is_over()
        # On a small screen (narrow and short) the panels fold away and the map has the
        # rows; ``i`` opens them (and folds them again).
        self.panels_open = False
        # The table's talk, under the game (a host's table; none on this terminal's).
        talk = talk_of(session)
        self._talk = TalkPanel(talk, id="talk") if talk is not None else None
        # A tutorial's lesson, under the game (only a tutorial's table has one).
        self._lesson: Any = None
        self._lesson_holds_list = False  # the list shows the lesson's move, no place on the map
        self._tutorial_ended = False  # its end screen has been shown
        if session.lesson is not None:
            from railgames.app.widgets.lesson import LessonPanel

            self._lesson = LessonPanel(id="lesson")

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        yield QuietStatic(id="banner")
        with Horizontal(id="game-main"):
            with Container(id="board-box"):
                yield board_class(self.session.ruleset.id)(self.session.ruleset, id="board")
                yield from self.extras
            with Vertical(id="side"):
                yield QuietStatic(id="players")
                yield from self.side_extras
                legend = self.ui.legend()
                yield QuietStatic(legend or "", id="legend", classes="given" if legend else "")
                yield ActionPanel(id="actions")
                yield GameLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        if self._lesson is not None:
            yield self._lesson
        if self._talk is not None:
            yield self._talk
        yield KeyFooter(relabel=True)

    def on_mount(self) -> None:
        # The list follows the board cursor in the same frame as the cursor moves (a
        # message would be handled a frame later; the message still comes, and finds
        # nothing left to do).
        self.board.cursor_listeners.append(self._cursor_moved)
        self.panel.highlight_listener = self.on_action_panel_highlight_changed
        # The log stays at its end when the panels above it change size (until scrolled).
        self.query_one("#log", RichLog).anchor()
        self.query_one("#players").border_title = self.ui.players_title
        self._apply_layout(self.app.size)
        self.refresh_all()
        self.refresh_talk()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # The keys that work follow the focus: the footer shows them in this frame,
        # not one later when the screen gets round to saying its bindings changed.
        self.query_one(KeyFooter).sync()

    def on_resize(self, event: events.Resize) -> None:
        self._apply_layout(event.size)
        # The log's lines were wrapped at its old width: once laid out anew, wrap them again.
        self.call_after_refresh(self._rewrap_log)

    def _rewrap_log(self) -> None:
        log = self.log_widget
        width = log.scrollable_content_region.width
        if width > 0 and width != self._log_width:
            # (The first width is the one the log was first written at: RichLog waits for it.)
            first, self._log_width = not self._log_width, width
            if not first:
                self._logged = -1  # everything is written again
                self._update_log()

    def _apply_layout(self, size: Size) -> None:
        width = size.width
        self.set_class(size.height < TALL, "short")
        self.set_class(width < NARROW, "narrow")
        self.set_class(width >= WIDE, "wide")
        self.set_class(width >= ROOMY, "roomy")
        self._apply_fold()
        self.refresh_talk()

    @property
    def small(self) -> bool:
        """Whether the screen is narrow and short: the map comes first, the panels fold."""
        return self.has_class("narrow") and self.has_class("short")

    def _apply_fold(self) -> None:
        folded = self.small and not self.panels_open
        if folded != self.has_class("folded"):
            # What folds is the game's to say (its legends and tables); the board, the
            # cursor line and the choices always stay.
            for selector in self.ui.folding:
                for widget in self.query(selector):
                    widget.set_class(True, "folds")
            self.set_class(folded, "folded")
            self.refresh_bindings()

    def action_toggle_panels(self) -> None:
        self.panels_open = not self.panels_open
        self._apply_fold()

    # ------------------------------------------------------------ the talk at the table
    @property
    def talk_panel(self) -> TalkPanel | None:
        return self._talk

    def refresh_talk(self) -> None:
        """Show the table's talk as it is now (a line said, someone come or gone)."""
        panel = self.talk_panel
        if panel is None:
            return
        # Folded on a small screen, open on a larger one, until the player says (T).
        panel.fold(not panel.open if panel.open is not None else self.small)

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True,
                  from_app_focus: bool = False) -> None:
        # A line being written keeps the keys until it is said or put away: a move that
        # arrives meanwhile (which puts the focus on the board or the choices) would
        # otherwise turn the rest of the words into moves. It goes there after.
        panel = self._talk
        if panel is not None and panel.writing and widget is not panel.field:
            panel.back_to = widget
            return
        super().set_focus(widget, scroll_visible, from_app_focus)

    def action_talk(self) -> None:
        panel = self.talk_panel
        if panel is not None and not panel.writing:
            panel.open_input()

    def action_toggle_talk(self) -> None:
        panel = self.talk_panel
        if panel is not None:
            panel.open = panel.folded
            self.refresh_talk()

    # ------------------------------------------------------------ showing the game
    @property
    def board(self) -> Any:
        return self.query_one("#board")

    @property
    def panel(self) -> ActionPanel:
        return self.query_one(ActionPanel)

    @property
    def viewer(self) -> int | None:
        """The seat whose secrets may be on screen: the human at the keyboard, if any.

        Always None in a game without secrets. With several humans it is the seat to
        move once its player has taken the keyboard, and nobody while a bot moves or
        a hand-off is due.
        """
        if not self.session.shared:
            return self.session.seat
        if not self.hidden:
            return None
        humans = self.session.humans()
        if len(humans) == 1:
            return humans[0]
        seat = self.session.ruleset.to_move(self.session.state)
        if seat is not None and seat == self._at_keyboard and not self.session.is_bot(seat):
            return int(seat)
        return None

    def shown_state(self) -> Any:
        """The state the screen shows: all of it, or in a game with secrets the viewer's view."""
        if not self.hidden or not self.session.shared:
            return self.session.state
        return self.session.view(self.viewer)

    def refresh_all(self) -> None:
        # The new state and the new decision's highlights make one new board scene.
        with self.board.one_scene():
            self._refresh_all()

    def _refresh_all(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        session = self.session
        if self._think is not None and self._think.moved_on():
            self.stop_thinking()  # the game moved on (a move taken back): that think is moot
        if self._hint is not None and self._hint.mark != self._decision():
            self.cancel_hint()  # a move made or taken back: the hint was for another decision
        state = self.shown_state()
        prompt = session.prompt()
        self.board.update_state(state)
        for extra in (*self.extras, *self.side_extras):
            if hasattr(extra, "update_state"):
                extra.update_state(state)
        kinds: list[str] = [p.kind for p in session.players]
        for seat in session.away():  # a person not at the host's table now: "(away)" by the name
            kinds[seat] = AWAY
        self._update_players(
            self.ui.players_table(state, self.names, kinds, prompt.seat if prompt else None))
        self._update_banner()
        self._update_log()
        self.refresh_bindings()
        self._show_lesson()
        if prompt is None:
            self.board.set_highlight()
            self.panel.show_prompt(None, state, self.ui, self.names)
            self.panel.add_class("waiting")
            self._nothing_to_choose()
            if self.review:
                self.board.focus()  # the cursor walks the final board (Enter chooses nothing)
            elif self._lesson is not None:
                self._tutorial_over()
            elif not self.finished_on_open:
                self.rapp.show_game_over(session)
            return
        if session.is_bot(prompt.seat):
            self.panel.show_prompt(prompt, state, self.ui, self.names, waiting_for=self.names[prompt.seat])
            self.panel.add_class("waiting")
            self.board.set_highlight()
            self._nothing_to_choose()
            if not session.bot_to_move():
                return  # a host moves its bots and sends the result
            delay = self.rapp.bot_delay
            if self._lesson is not None:
                # A tutorial's bots move briskly: what their moves show waits in the lesson
                # for the learner's next decision, to be read at the learner's own pace.
                delay = min(delay, LESSON_BOT_DELAY)
            if delay > 0:
                self._bot_timer = self.set_timer(delay, self._bot_move)
            else:
                self.call_after_refresh(self._bot_move)
            return
        if not session.shared and prompt.seat != self._at_keyboard:
            self.panel.show_prompt(prompt, state, self.ui, self.names, waiting_for=self.names[prompt.seat])
            self.board.set_highlight()
            self._board_choosing(False)  # another's turn (or watching): Enter chooses nothing
            return
        if (self.hidden and self.handoff and prompt.seat != self._at_keyboard
                and len(session.humans()) > 1):
            # The screen now shows only what everyone may see; the next player's own
            # holdings appear once they are at the keyboard.
            self.panel.show_prompt(prompt, state, self.ui, self.names, waiting_for=self.names[prompt.seat])
            self.panel.add_class("waiting")
            self.board.set_highlight()
            self._nothing_to_choose()
            self.app.clear_notifications()
            seat = prompt.seat
            self._hand_off(seat, "Nothing secret shows until you press Enter.",
                           lambda: self._handed_over(seat))
            return
        self.panel.show_prompt(prompt, state, self.ui, self.names)
        self.panel.remove_class("waiting")
        self._show_hint()
        if (self.handoff and self._at_keyboard is not None and prompt.seat != self._at_keyboard
                and len(session.humans()) > 1):
            self._hand_off(prompt.seat, "", self._focus_for_prompt)
            self._at_keyboard = prompt.seat
        else:
            self._at_keyboard = prompt.seat
            self._focus_for_prompt()
        self._suggest_lesson()

    # ------------------------------------------------------------ a tutorial's lesson
    def _show_lesson(self) -> None:
        if self._lesson is None:
            return
        self._lesson.show(self.session.lesson, roomy=not self.has_class("short"))

    def _suggest_lesson(self) -> None:
        """Highlight the lesson's expected move, so Enter takes it: an amount in its field
        (which gets the keys), a choice in the list, a place under the map's cursor."""
        if self._lesson is None:
            return
        self._lesson_holds_list = False
        expected = self.session.lesson.expected
        prompt = self.panel.prompt
        if expected is None or prompt is None or not self.panel.suggest(expected):
            return
        amount = prompt.amount
        if amount is not None:
            kind = expected.get("type") if isinstance(expected, dict) else getattr(expected, "type", None)
            if kind == amount.action_type:
                self.panel.focus_input()  # the field holds the amount
            else:
                self.panel.query_one("#ap-options", OptionList).focus()
            return
        key = self._list_key()
        options = self.panel.query_one("#ap-options", OptionList)
        if not self.panel.board_level or key is None:
            options.focus()  # a level of the choice that is no place on the map: the list
            return
        if not self._is_place(key):
            # Not a place (ending a build, passing): the list takes it. Highlighting it
            # put the map's cursor on a place that is a choice, and the list followed
            # the cursor: it is put back, and the cursor's message (still to come) leaves
            # it there (see on_board_cursor_moved).
            self.panel.suggest(expected)
            options.focus()
            self._lesson_holds_list = True
        elif not self._picks_from_list():
            self.board.cursor_city = key  # Enter on the map takes the place under the cursor

    def _tutorial_over(self) -> None:
        from railgames.app.screens.tutorial_end import TutorialEndScreen

        if self._tutorial_ended:
            return
        self._tutorial_ended = True

        lesson = self.session.lesson
        game_id = self.session.ruleset.id
        self.call_later(lambda: self.app.push_screen(TutorialEndScreen(game_id, lesson)))

    def _hand_off(self, seat: int, note: str, then: Any) -> None:
        """Show the hand-off screen; the player still at the keyboard may take back their move."""
        previous = self._at_keyboard

        def done(result: str | None) -> None:
            if result != "undo" or previous is None:
                then()
                return
            reason = self.session.why_not_undo(previous)
            if reason is None:
                self._undo_for(previous)
                return
            # Still the hand-off: say why, and keep the next player's screen hidden.
            self._at_keyboard = previous
            self._hand_off(seat, f"Cannot undo: {reason}.", then)

        # "Press u to take back your move" is offered only when undo would be allowed.
        can_undo = previous is not None and self.session.why_not_undo(previous) is None
        self.app.push_screen(
            HandoffScreen(self.names[seat], seat, self.letters[seat], note=note,
                          previous=self.names[previous] if can_undo and previous is not None else None,
                          game_id=self.session.ruleset.id),
            done,
        )

    def _handed_over(self, seat: int) -> None:
        self._at_keyboard = seat
        self.refresh_all()

    def _focus_for_prompt(self) -> None:
        self._board_choosing(self.panel.board_level)
        if self.panel.board_level and not self._picks_from_list():
            self.board.focus()
        else:
            self.panel.focus_input()

    def _board_choosing(self, on: bool) -> None:
        """Enter on the board chooses only while the decision is a place on it."""
        if self.board.choosing != on:
            self.board.choosing = on
            self.refresh_bindings()

    def _nothing_to_choose(self) -> None:
        """A bot moves, a hand-off is due or the game is over: the keys for choosing rest."""
        self._board_choosing(False)
        if self.board.has_focus:
            # The map can still be looked at (Tab comes back to it); the log keeps the keys.
            self.log_widget.focus()

    def _choosing_now(self) -> bool:
        """Whether the player at the keyboard has a decision on screen (list or amount)."""
        prompt = self.session.prompt()
        if prompt is None or self.review or self.session.is_bot(prompt.seat):
            return False
        if not self.session.shared and prompt.seat != self._at_keyboard:
            return False  # at a host's table, only the seat to move has choices
        return not (self.hidden and len(self.session.humans()) > 1 and self._at_keyboard != prompt.seat)

    def _update_players(self, table: Any) -> None:
        """Show the players' table; drawn once, and not at all when it looks the same."""
        widget = self.query_one("#players", Static)
        shown = RenderOnce(table)
        width = widget.content_size.width
        if width and self._players_shown is not None:
            console = self.app.console
            options = self.app.console_options.update_width(width).update(highlight=False)
            if shown.lines(console, options) == self._players_shown.lines(console, options):
                return
        self._players_shown = shown
        widget.update(shown)

    def _update_banner(self) -> None:
        prompt = self.session.prompt()
        text = Text()
        turn = self.ui.turn_of(self.session.state)
        text.append(f" {self.session.ruleset.title} · turn {turn} ", style="bold reverse")
        if self.session.read_only:
            text.append(" read-only: played in another window ", style="bold")
        text.append(" ")
        if prompt is None:
            result = self.session.result()
            text.append("Game over" + (f": {' and '.join(result.winners)} wins" if result else ""))
        else:
            seat = prompt.seat
            text.append(f" {self.letters[seat]} ", style="reverse " + player_style(seat))
            text.append(" " + with_short_names(prompt.text, self.names))
        self.query_one("#banner", Static).update(text)

    @property
    def log_widget(self) -> RichLog:
        return self.query_one("#log", RichLog)

    def log_events(self) -> list[Any]:
        """Every event of the game so far that the seat at the keyboard may see."""
        return self.session.events_for(self.viewer)

    def _update_log(self) -> None:
        log = self.log_widget
        viewer = self.viewer
        events_ = self.log_events()
        reading = log.has_focus and not log.is_vertical_scroll_end
        if self._logged < 0 or len(events_) < self._logged or viewer != self._log_viewer:
            # undo, another viewer, or a new width
            log.clear()
            self._logged = 0
            self._log_viewer = viewer
            reading = False
        log.follow = not reading
        fresh = [event_line(event) for event in events_[self._logged:]]
        if fresh:  # one write for many lines (a rewrite for another viewer) is much quicker
            log.write(Text("\n").join(fresh), scroll_end=False)
            if not reading:  # a player scrolled back to read keeps their place
                # Scrolled to the end at once rather than after the next refresh, so the
                # new lines are in this frame and the log is not painted a second time.
                log.scroll_end(animate=False, immediate=True, x_axis=False)
        self._logged = len(events_)

    # ------------------------------------------------------------ acting
    def submit(self, action: Any) -> bool:
        """Send an action to the rules layer; a refusal is shown and changes nothing."""
        prompt = self.session.prompt()
        if prompt is None or self.session.is_bot(prompt.seat):
            return False
        # A table that saves itself writes the move once it is on the screen (the frame
        # waits for no disk), and before the next key is handled (see RailgamesApp).
        try:
            with self.session.save_after_showing():
                self.session.submit(action)
        except (IllegalAction, MalformedAction) as exc:
            self.refuse(exc.reason)
            self._suggest_lesson()  # a tutorial's move is highlighted again: Enter takes it
            return False
        except OSError as exc:  # the move stands; only its save failed
            self.app.notify(f"The game could not be saved: {exc}", severity="error")
        self.refresh_all()
        if self.session.owes_save:
            self.app.call_after_refresh(self.pay_save)
        return True

    def pay_save(self) -> None:
        """Write the save of a move already shown (see ``submit``), if it is still owed."""
        if not self.session.owes_save:
            return
        try:
            self.session.pay_save()
        except OSError as exc:  # the move stands; only its save failed
            self.app.notify(f"The game could not be saved: {exc}", severity="error")

    def refuse(self, reason: str) -> None:
        text = reason[:1].upper() + reason[1:]
        self.panel.show_reason(text)
        self.notify(text, title="Not allowed", severity="warning")

    class BotChose(Message):
        """A bot thinking in the worker has chosen (posted from another thread)."""

        def __init__(self, think: BotThink, result: tuple[Any, Any] | None,
                     error: BaseException | None) -> None:
            super().__init__()
            self.think = think
            self.result = result
            self.error = error

    def _bot_move(self) -> None:
        self._bot_timer = None
        if not self.is_attached or not self.session.bot_to_move():
            return
        if self.session.bot_thinks_long():
            self._start_think()
            return
        try:
            self.session.bot_step()
            if self.rapp.bot_delay <= 0:  # no pause wanted: let the bots finish their moves at once
                while self.session.bot_to_move() and not self.session.bot_thinks_long():
                    self.session.bot_step()
        except OSError as exc:
            self.notify(f"The game could not be saved: {exc}", severity="error")
        self.refresh_all()

    def _start_think(self) -> None:
        """A search bot thinks in a worker process; the screen keeps answering keys meanwhile.

        Nothing changes until the choice comes back and is applied here, on the
        screen's own thread: quitting mid-think drops the think and loses nothing,
        as the save already holds every move made.
        """
        if self._think is not None:
            return
        think = self.session.prepare_think()
        if think is None:
            return
        self._think = think
        if self._worker is None:
            from railgames.app.bot_worker import BotWorker

            self._worker = BotWorker()

        def done(result: tuple[Any, Any] | None, error: BaseException | None) -> None:
            self.post_message(self.BotChose(think, result, error))

        self._worker.submit(think.bot, think.ruleset, think.view, think.prompt, done)

    def stop_thinking(self) -> None:
        """Drop a think under way (the game closes, or moved on without it)."""
        think, self._think = self._think, None
        if think is not None and self._worker is not None:
            self._worker.stop()  # the next think starts a fresh worker

    def on_game_screen_bot_chose(self, message: BotChose) -> None:
        message.stop()
        if message.think is not self._think:
            return  # a think dropped meanwhile
        self._think = None
        if message.result is None:
            self.notify(f"A bot could not choose: {message.error!r}", severity="error")
            return
        action, bot = message.result
        try:
            self.session.finish_think(message.think, action, bot)
        except OSError as exc:
            self.notify(f"The game could not be saved: {exc}", severity="error")
        except (IllegalAction, MalformedAction) as exc:  # pragma: no cover - the bot chose from the prompt
            self.notify(f"The bot's move was refused: {exc.reason}", severity="error")
        self.refresh_all()

    # ------------------------------------------------------------ hints (H)
    class HintReady(Message):
        """A hint worked out in the worker (posted from another thread)."""

        def __init__(self, asked: HintAsked, result: Any, error: BaseException | None) -> None:
            super().__init__()
            self.asked = asked
            self.result = result
            self.error = error

    def action_hint(self) -> None:
        """The search's choice for the seat at the keyboard, from what that seat may see;
        asked again on the same decision, its top three."""
        reason = self.session.why_no_hint()
        if reason is not None:
            self.refuse(reason)
            return
        prompt = self.session.prompt()
        if prompt is None or not self._choosing_now():
            return
        mark, asked = self._decision(), self._hint
        if asked is not None and asked.mark == mark:
            if asked.advice is not None:  # the same decision: the one line or the top three
                asked.top = not asked.top
                self._show_hint()
            return  # still thinking about it
        self.cancel_hint()
        asked = self._hint = HintAsked(mark)
        if self._worker is None:
            from railgames.app.bot_worker import BotWorker

            self._worker = BotWorker()
        from railgames.core.coach import hint_budget, hint_for

        def done(result: Any, error: BaseException | None) -> None:
            self.post_message(self.HintReady(asked, result, error))

        # Only what this seat may see goes to the search (its view, never the whole game).
        ruleset = self.session.ruleset
        self._worker.run(hint_for, (ruleset, self.session.view(prompt.seat), prompt,
                                    hint_budget(ruleset), self.session.played()), done)
        self._show_hint()
        self.refresh_bindings()

    def _decision(self) -> tuple[Any, int]:
        """What a hint is for: the table as drawn (its mark) and the moves made, since a
        move may add nothing to the log (choosing which action to take, in some games)."""
        return self.session.mark(), self.session.played()

    def _hint_pending(self) -> bool:
        return self._hint is not None and self._hint.advice is None

    def cancel_hint(self) -> None:
        """Drop the hint asked for (a move made or taken back, Esc, the screen left); one
        still being worked out ends with the worker's process."""
        asked, self._hint = self._hint, None
        if asked is not None and asked.advice is None and self._think is None \
                and self._worker is not None:
            self._worker.stop()  # the next think or hint starts a fresh worker

    def _show_hint(self) -> None:
        asked = self._hint
        if asked is None or asked.mark != self._decision():
            return
        if asked.advice is None:
            self.panel.show_advice(THINKING)
        elif asked.top:
            self.panel.show_advice(top_three(asked.advice, self.session.ruleset))
        else:
            self.panel.show_advice(one_line(asked.advice))

    def on_game_screen_hint_ready(self, message: HintReady) -> None:
        message.stop()
        asked = message.asked
        if asked is not self._hint or asked.mark != self._decision():
            return  # the game moved on meanwhile: that hint was for another decision
        if message.result is None:
            self._hint = None
            self.panel.show_advice("")
            self.notify(f"No hint could be worked out: {message.error!r}", severity="error")
            return
        asked.advice = in_game_words(message.result, self.session.ruleset, self.ui,
                                     self.shown_state(), self.names)
        self.panel.suggest(asked.advice.best.action)
        if self.board.has_focus and not self._cursor_to_listed():
            self.panel.focus_input()  # the advice is no place on the board: the list takes Enter
        self._show_hint()
        self.refresh_bindings()

    def on_unmount(self) -> None:
        self.cancel_hint()
        self.stop_thinking()
        if self._worker is not None:
            self._worker.stop()

    def on_action_panel_chosen(self, event: ActionPanel.Chosen) -> None:
        event.stop()
        prompt = self.panel.prompt
        if prompt is not None and self.panel.board_level:
            # Where this place was chosen is where the next one will be asked for (a
            # choice from the list that is no place, such as ending a build, tells nothing).
            if self.board.has_focus:
                self._list_pickers.discard(prompt.seat)
            elif self._is_place(self._list_key()):
                self._list_pickers.add(prompt.seat)
        self.submit(event.action)

    def _list_key(self) -> str | None:
        index = self.panel.query_one("#ap-options", OptionList).highlighted
        if index is None or not 0 <= index < len(self.panel.options):
            return None
        return str(self.panel.options[index][0])

    def _cursor_to_listed(self) -> bool:
        """Put the board cursor on the place highlighted in the list; False if that is no
        place (e.g. the pass option)."""
        key = self._list_key()
        if key is None:
            return False
        try:
            self.board.cursor_city = key
        except KeyError:
            return False
        return True

    def _is_place(self, key: str | None) -> bool:
        if key is None:
            return False
        try:
            self.board.city_region(key)
        except (KeyError, ValueError):
            return False
        return True

    def _picks_from_list(self) -> bool:
        """Whether the player to choose chose their last place from the list."""
        prompt = self.panel.prompt
        return prompt is not None and prompt.seat in self._list_pickers

    def on_action_panel_highlight_changed(self, event: ActionPanel.HighlightChanged) -> None:
        event.stop()
        self.board.set_highlight(event.highlight.cities, event.highlight.path)
        self._board_choosing(event.board_level and self._choosing_now())
        self.refresh_bindings()  # Esc (back) comes and goes with the levels of the choice
        if not event.board_level:
            return
        # The prompt object itself is kept (not its id, which a new prompt may reuse).
        prompt, prefix = self.panel.prompt, tuple(k for k, _ in self.panel.prefix)
        last = self._choice_level
        same_level = last is not None and last[0] is prompt and last[1] == prefix
        self._choice_level = (prompt, prefix)
        options: Any = self.panel.query_one("#ap-options")
        if same_level and options.has_focus:
            # The player walks the list (after Tab): the board cursor follows it there.
            self._cursor_to_listed()
            return
        if self._picks_from_list():
            # The list keeps the focus (``_focus_for_prompt``); the cursor shows its choice.
            if not self._cursor_to_listed():
                self._cursor_to_choice()
            return
        self._cursor_to_choice()
        if not self.board.has_focus and self.app.screen is self:
            self.board.focus()

    def _cursor_to_choice(self) -> None:
        """Put the board cursor on a city that can be chosen now, unless it already is on one."""
        keys = [k for k, _, _ in self.panel.options]
        if self.board.cursor_city in keys:
            return
        for key in keys:
            try:
                self.board.cursor_city = key
            except KeyError:  # not a city (e.g. the pass option)
                continue
            return

    def _city_chosen(self, city: str) -> None:
        if not self.panel.board_level:
            return
        prompt = self.panel.prompt
        if not self.panel.choose_key(city) and prompt is not None:
            self.refuse(self.ui.why_not(self.shown_state(), prompt, self.panel._keys(), city))

    def _cursor_moved(self, city: str) -> None:
        if self.panel.board_level:
            self.panel.point_at(city)

    # Every board posts its messages in the "board" namespace, so one pair of
    # handlers serves all games; ``city`` is the id of the place chosen.
    def on_board_city_chosen(self, event: Any) -> None:
        self._city_chosen(event.city)

    def on_board_cursor_moved(self, event: Any) -> None:
        if self._lesson_holds_list and not self.board.has_focus:
            return  # the lesson's move, no place on the map, stays highlighted in the list
        self._cursor_moved(event.city)

    # ------------------------------------------------------------ keys
    def _hotkeys(self) -> dict[str, Any]:
        # Asked for by every binding each time the footer's keys are checked: kept
        # until the table changes (its mark moves on, or its prompt is a new one).
        prompt, kept = self.session.prompt(), self._hotkeys_for
        key = (self.session.mark(), self._at_keyboard, self.session.read_only)
        if kept is not None and kept[0] is prompt and kept[1] == key:
            return kept[2]
        hot = self._work_out_hotkeys()
        self._hotkeys_for = (prompt, key, hot)
        return hot

    def _work_out_hotkeys(self) -> dict[str, Any]:
        prompt = self.session.prompt()
        if prompt is None or self.session.is_bot(prompt.seat) or self.session.read_only:
            return {}
        if not self.session.shared and prompt.seat != self._at_keyboard:
            return {}
        return {h.key: h for h in self.ui.hotkeys(self.shown_state(), prompt, self.names)}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Only what does something now is offered (and shown in the footer).
        if SizeGuard.check_action(self, action, parameters) is False:
            return False
        if action == "hotkey":
            return not self.review and parameters[0] in self._hotkeys()
        if action == "hint":  # only the player with a decision on screen asks
            return not self.review and self._choosing_now()
        if action == "back":
            if self.review or self.finished_on_open or self._hint_pending():
                return True
            # Asked for every time the keys are checked (several times an action): the
            # panel is found through the query cache, not by walking the screen.
            try:
                panel = self.query_one(ActionPanel)
            except NoMatches:  # not there yet while the footer is first drawn
                return False
            return self._choosing_now() and bool(panel.prefix)
        if action == "final_scores":
            return self.session.is_over()
        if action == "toggle_panels":  # only a small screen folds its panels
            return self.small
        if action in ("talk", "toggle_talk"):  # only a table with people to talk with
            return self._talk is not None
        if action == "undo":  # nothing to take back in a finished game, or in another window's;
            # otherwise u stays on offer, and says why when the rules refuse
            if not self.session.shared and self._at_keyboard is None:
                return False  # watching: nothing of theirs to take back
            return not (self.review or self.session.is_over() or self.session.read_only)
        if action == "save":  # a host's table is kept on the host after every move
            return not (self.review or self.session.read_only or not self.session.can_save)
        return True

    def action_final_scores(self) -> None:
        if self.session.is_over():
            from railgames.app.screens.game_over import GameOverScreen

            self.app.push_screen(GameOverScreen(self.session))

    def action_hotkey(self, key: str) -> None:
        hot = self._hotkeys().get(key)
        if hot is not None:
            self.submit(hot.action)

    def action_back(self) -> None:
        if self.review:
            self.dismiss(None)
            return
        if self.finished_on_open:
            self.rapp.to_launcher()
            return
        if self._hint_pending():  # Esc first puts away a hint still being worked out
            self.cancel_hint()
            self.panel.show_advice("")
            self.refresh_bindings()
            return
        self.panel.back()
        self.refresh_bindings()

    def action_switch_focus(self, step: int = 1) -> None:
        """Tab: board, then the choices (when there are any), then the log, and round again."""
        stops = ["board", "input", "log"] if self._choosing_now() else ["board", "log"]
        if self.board.has_focus:
            here = "board"
        elif self.log_widget.has_focus:
            here = "log"
        else:
            here = "input" if "input" in stops else "log"
        target = stops[(stops.index(here) + step) % len(stops)]
        if target == "board":
            self.board.focus()
        elif target == "log":
            self.log_widget.focus()
        else:
            self.panel.focus_input()

    def action_show_log(self) -> None:
        from railgames.app.screens.log import LogScreen

        self.app.push_screen(LogScreen(self.session.ruleset.id,
                                       f"{self.session.ruleset.title}: the log", self.log_events()))

    def action_undo(self) -> None:
        """Take back the last action of the player at the keyboard, never anyone else's."""
        seat = self._undo_seat()
        if not self.session.shared and seat is None:
            self.refuse("you are watching this table; only its players take moves back")
            return
        if seat is None:
            self.refuse("nobody has taken the keyboard yet, so there is nothing of yours to take back")
            return
        self._undo_for(seat)

    def _undo_seat(self) -> int | None:
        """Whose moves ``u`` takes back: the player at the keyboard (or the only person)."""
        seat = self._at_keyboard
        humans = self.session.humans()
        if seat is None and len(humans) == 1 and self.session.shared:
            seat = humans[0]
        return seat

    def _undo_for(self, seat: int) -> None:
        count = self.session.played()
        try:
            self.session.undo(seat)
        except RailgamesError as exc:  # refused, or the host is gone
            self.refuse(exc.reason)
            return
        except OSError as exc:
            self.notify(f"Taken back, but could not save: {exc}", severity="error")
        else:
            answers = count - self.session.played() - 1
            moves = "the bot move" if answers == 1 else f"the {answers} bot moves"
            also = f", and {moves} after it" if answers else ""
            self.notify(f"Your last move was taken back{also}.", title="Undo")
        # The same player goes on, so no hand-off follows.
        self._at_keyboard = seat
        self.refresh_all()

    def action_history(self) -> None:
        """The game so far in the viewer, showing only what the seat at the keyboard may see."""
        from railgames.app.screens.viewer import ViewerScreen

        try:
            recording = self.session.history(self.viewer, reveal_all=not self.hidden)
        except RailgamesError as exc:  # a host that could not say
            self.refuse(exc.reason)
            return
        if self._bot_timer is not None:  # the bots wait while the history is open
            self._bot_timer.stop()
            self._bot_timer = None
        self.stop_thinking()  # a bot thinking starts again when the history closes
        self.cancel_hint()

        def back() -> None:
            recording.close()
            self.app.pop_screen()
            self.refresh_all()

        self.app.push_screen(ViewerScreen(recording, kind="history", playing=False, on_leave=back))

    def action_save(self) -> None:
        if not self.session.can_save:
            self.notify("The host keeps this table after every move.", title="Saved")
            return
        try:
            path = self.session.save()
        except OSError as exc:
            self.notify(f"Could not save: {exc}", severity="error")
            return
        from railgames.app.saves import shown

        self.notify(shown(f"Saved to {path}"), title="Saved")

    def action_help(self) -> None:
        prompt = self.session.prompt()
        talk = TALK_HELP if self._talk is not None else None
        if self._lesson is not None:
            talk = TUTORIAL_HELP
        self.app.push_screen(HelpScreen(self.session.ruleset.id, prompt.step if prompt else None,
                                        prompt.help if prompt else None, table_keys=talk))

    def action_quit_game(self) -> None:
        def chosen(answer: str | None) -> None:
            if answer == "quit":
                self.app.exit(0)
            elif answer == "menu":
                self.rapp.to_launcher()

        question, buttons = QUIT_QUESTION, QUIT_BUTTONS
        if self._lesson is not None:  # a tutorial is kept apart from the saved games
            question = ("Stop the tutorial? It is kept after every move: Learn in the launcher "
                        f"(or railgames learn {self.session.ruleset.id}) goes on from here.")
        if not self.session.can_save:  # a host keeps the table, and the seat
            question = ("Leave the table? It is kept on the host, with your seat: your tables "
                        "list it when you come back.")
            buttons = [(key, "Your tables" if key == "menu" else label, letter)
                       for key, label, letter in QUIT_BUTTONS]
        self.app.push_screen(ConfirmScreen(question, buttons), chosen)

    def set_handoff(self, on: bool) -> None:
        if self.hidden and not on:
            self.notify("In this game the players' holdings are secret, so the hand-off screen "
                        "stays on.", title="Hand-off")
            return
        self.handoff = on
        self.notify("Hand-off screens " + ("on" if on else "off"), title="Hand-off")
