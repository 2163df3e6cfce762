"""The viewer: a recorded game played back, with each rule explained as it is at work.

One screen serves demos (bots play every seat, everyone's holdings shown),
finished and saved games (``railgames watch FILE``) and the History of a game
in progress (only what the watching seat may see). It plays against a
``Recording`` table, read-only: stepping back and forth never changes a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Input, RichLog, Static

from railgames import compat
from railgames.app.boards import board_class, game_ui
from railgames.app.palette import player_letters
from railgames.app.screens.guard import SCREENS_CSS
from railgames.app.widgets.footer import KeyFooter
from railgames.core.narration import Told, narrate, reason_line
from railgames.core.rulebook import rulebook
from railgames.tables.recording import Recording

if TYPE_CHECKING:
    from railgames.app.shell import GameShell

NARROW = 110  # below this width the narration goes under the board
WIDE = 150  # from this width the narration takes what the board leaves
SPEEDS = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0, 12.0)  # actions a second
READING_PAUSE = 5  # extra steps' time to read a rule explained in full
SHOWN_EVENTS = 150  # narration lines kept when the panel is drawn afresh

CONTROLS = (
    "space pause / play · → one action on · ← one action back · n the next new rule · "
    "+ / − faster / slower · Home the start · End the end · t jump to a turn · "
    "p the players (narrow screens) · "
    "r the rules · Esc leave"
)


def told_text(item: Told, game_id: str) -> Text:
    """One narrated event for the panel: the event, then its rules in full or in a line."""
    e = item.event
    text = Text(e.text, style="bold" if e.kind in ("turn", "game_over") else "")
    if item.why:
        text.append(f" {item.why}", style="italic")
    for rule in item.first:
        text.append("\n")
        text.append(f" NEW RULE: {rule.title} ", style="reverse bold")
        text.append(f" {rule.full} ")
        text.append(f"(Help: \u201c{rule.help}\u201d, key r)", style="italic")
    reasons = reason_line(item)
    if reasons:
        text.append(f"  [{reasons}]" if all(r.id in item.recent for r in item.again)
                    else f"\n  \u21b3 {reasons}", style="italic dim")
    return text


class TurnJumpScreen(ModalScreen[int | None]):
    CSS_PATH = SCREENS_CSS
    DEFAULT_CSS = """
    TurnJumpScreen { align: center middle; }
    TurnJumpScreen #jump-box { width: 40; height: auto; border: round $accent;
                               background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, last_turn: int) -> None:
        super().__init__()
        self.last_turn = last_turn

    def compose(self) -> Any:
        with Vertical(id="jump-box"):
            yield Static(f"Jump to turn (1 to {self.last_turn}), then Enter:")
            yield Input(type="integer", id="jump-turn", compact=True)

    def on_mount(self) -> None:
        self.query_one("#jump-turn", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            turn = int(event.value)
        except ValueError:
            self.notify("Type a turn number.", severity="warning")
            return
        if not 1 <= turn <= self.last_turn:
            self.notify(f"This game has turns 1 to {self.last_turn}.", severity="warning")
            return
        self.dismiss(turn)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ViewerScreen(Screen[None]):
    CSS_PATH = SCREENS_CSS  # the game screen's panels (#banner, #board-box, #log, ...)
    DEFAULT_CSS = """
    ViewerScreen #v-banner { height: auto; max-height: 2; padding: 0 1; background: $panel; }
    ViewerScreen #v-main { height: 1fr; }
    ViewerScreen #board-box { width: 1fr; height: 1fr; border: round $panel; }
    ViewerScreen #v-side { width: 52; height: 1fr; }
    ViewerScreen.wide #v-side { width: 1fr; }
    ViewerScreen #v-players { height: auto; border: round $panel; padding: 0 1; }
    ViewerScreen #v-narration { height: 1fr; min-height: 3; border: round $accent; padding: 0 1;
                                scrollbar-size-vertical: 1; }
    ViewerScreen.narrow #v-main { layout: vertical; }
    ViewerScreen.narrow #board-box { width: 100%; height: 1fr; border: none; }
    ViewerScreen.narrow #v-side { width: 100%; height: 9; }
    ViewerScreen.narrow #v-players { display: none; }
    ViewerScreen.narrow.players #v-players { display: block; height: 1fr; border: none; padding: 0; }
    ViewerScreen.narrow.players #v-narration { display: none; }
    ViewerScreen.narrow #v-narration { border: none; padding: 0; border-top: solid $accent; }
    ViewerScreen.narrow #board-slots { display: none; }
    """

    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("step", "toggle_play", "leave", "help", "next_rule", "jump_turn",
                   "toggle_players", "speed")
    BINDINGS = [
        Binding("space", "toggle_play", "Pause", priority=True),
        Binding("right", "step(1)", "Step", priority=True),
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("plus,equals_sign", "speed(1)", "Speed", key_display="+/-"),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("home", "jump_start", "Start", show=False, priority=True),
        Binding("end", "jump_end", "End", show=False, priority=True),
        Binding("n", "next_rule", "New rule"),
        Binding("t", "jump_turn", "Turn"),
        Binding("p", "toggle_players", "Players"),
        Binding("r", "rules", "Rules", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("escape,q", "leave", "Leave"),
    ]

    def __init__(self, recording: Recording, *, kind: str = "demo", speed: float = 1.0,
                 start: int | None = None, playing: bool | None = None,
                 on_leave: Callable[[], object] | None = None) -> None:
        """``kind`` is "demo", "watch" (a saved or finished game), "history" or "review"
        (a finished game's costly decisions, ``ReviewScreen``)."""
        super().__init__()
        self.recording = recording
        self.kind = kind
        self.ruleset = recording.ruleset
        self.ui = game_ui(self.ruleset)
        self.names = [p.name for p in recording.players]
        self.letters = player_letters(self.names)
        self.extras = self.ui.board_extras()
        self.side_extras = self.ui.side_extras()
        self.speed = speed
        self.playing = (kind == "demo") if playing is None else playing
        self.on_leave = on_leave
        self._timer: Timer | None = None
        self._told = narrate(recording.all_events(), rulebook(self.ruleset), self.ruleset)
        # Where each position's events start in the narration (the events this watcher sees).
        self._told_at = self._index_positions()
        if start is not None:  # else where the recording stands (History: the present)
            self.recording.seek(start)
        # The first told event in the narration panel, and the panel's line count after each.
        self._window: tuple[int, list[int]] | None = None
        self.add_class(f"game-{self.ruleset.id}")

    def _index_positions(self) -> list[int]:
        """told index at which each position's events end (position p shows told[:at[p]])."""
        rec = self.recording
        ends: list[int] = []
        told_i = 0
        # Events of position p are those with action index < p (set-up ones have index -1).
        actions = [t.event.action for t in self._told]
        for p in range(rec.length + 1):
            while told_i < len(actions) and actions[told_i] < p:
                told_i += 1
            ends.append(told_i)
        return ends

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        yield Static(id="v-banner")
        with Horizontal(id="v-main"):
            with Container(id="board-box"):
                board = board_class(self.ruleset.id)(self.ruleset, id="board")
                board.can_focus = False  # the arrows step through the game here
                yield board
                yield from self.extras
            with Vertical(id="v-side"):
                yield Static(id="v-players")
                yield from self.side_extras
                yield RichLog(id="v-narration", wrap=True, markup=False, auto_scroll=True,
                              min_width=20)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#v-players").border_title = self.ui.players_title
        narration = self.query_one("#v-narration", RichLog)
        narration.border_title = "What happens, and why"
        if self.kind == "demo":
            narration.border_subtitle = "demo: everyone's holdings shown"
        elif not self.recording.reveal_all:
            narration.border_subtitle = "holdings stay hidden"
        self._apply_layout(self.size.width)
        self.show()
        self.call_after_refresh(self._centre_cursor)  # the board has its size only now
        self._schedule()

    def _centre_cursor(self) -> None:
        board = self.board
        try:
            region = board.city_region(board.cursor_city)
        except (KeyError, ValueError):
            return
        board.scroll_to_region(region, animate=False, center=True, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_layout(event.size.width)

    def _apply_layout(self, width: int) -> None:
        self.set_class(width < NARROW, "narrow")
        self.set_class(width >= WIDE, "wide")

    # ------------------------------------------------------------ drawing
    @property
    def board(self) -> Any:
        return self.query_one("#board")

    def show(self) -> None:
        rec = self.recording
        state = rec.view()
        self.board.update_state(state)
        for extra in (*self.extras, *self.side_extras):
            if hasattr(extra, "update_state"):
                extra.update_state(state)
        prompt = rec.prompt()
        kinds = [p.kind for p in rec.players]
        self.query_one("#v-players", Static).update(
            self.ui.players_table(state, self.names, kinds, prompt.seat if prompt else None))
        self._update_banner()
        self._update_narration()

    def _places(self, data: dict[str, Any]) -> list[str]:
        """The board places an event's data names (a path's end, a hex, a location, a link's end)."""
        places: list[str] = []
        if data.get("path"):
            places.append(str(data["path"][-1]))
        if isinstance(data.get("hex"), list | tuple):
            places.append(",".join(str(v) for v in data["hex"]))
        for key in ("reached", "location"):
            if data.get(key):
                places.append(str(data[key]))
        if data.get("link") and hasattr(self.ruleset, "link_ends"):
            places.append(self.ruleset.link_ends(data["link"])[1])
        return places

    def _follow_action(self, start: int, end: int) -> None:
        """Put the board cursor (and the view) where the latest event shown took place,
        and mark what the last action touched: a shipment's path, the places reached."""
        pos = self.recording.position
        step_start = self._told_at[pos - 1] if pos > 0 else end
        board = self.board
        marked: list[str] = []
        path: list[str] = []
        for item in self._told[step_start:end]:
            if item.event.data.get("path"):
                path = [str(c) for c in item.event.data["path"]]
            marked.extend(self._places(item.event.data))
        known = []
        for place in marked:
            try:
                board.city_region(place)
            except (KeyError, ValueError):
                continue
            known.append(place)
        board.set_highlight(known, path)
        for item in reversed(self._told[start:end]):
            for place in self._places(item.event.data):
                try:
                    board.move_cursor_to(place)
                except (KeyError, ValueError):
                    continue
                return

    def _update_banner(self) -> None:
        rec = self.recording
        text = Text()
        label = {"demo": "Demo", "watch": "Replay", "history": "History",
                 "review": "Review"}[self.kind]
        text.append(f" {self.ruleset.title} · {label} ", style="bold reverse")
        state = "▶ playing" if self.playing else "❚❚ paused"
        text.append(f" turn {self.ui.turn_of(rec.state)} · action {rec.position}/{rec.length} · "
                    f"{state} · {self.speed:g}/s ")
        if self.kind == "demo":
            text.append(" Bots play every seat; everyone's holdings are shown (a demonstration).",
                        style="italic")
        elif not rec.reveal_all:
            who = "you" if self.kind == "history" and rec.seat is not None else "everyone"
            text.append(f" Only what {who} may see: other players' holdings stay hidden.",
                        style="italic")
        elif rec.ruleset.hidden_information and rec.reveal_all:
            text.append(" Everyone's holdings are shown.", style="italic")
        else:
            text.append(" ? for the keys.", style="italic")
        self.query_one("#v-banner", Static).update(text)

    def _update_narration(self) -> None:
        """Write what is new; a step back cuts the lines after the new position.

        The panel keeps the told events ``_window[0]`` onwards, and for each the
        number of lines the panel had after writing it, so a step back only
        cuts lines off the end rather than writing everything again.
        """
        log = self.query_one("#v-narration", RichLog)
        end = self._told_at[self.recording.position]
        self._follow_action(max(0, end - 8), end)
        if log.size.width == 0:  # not laid out yet: written once it has a width
            self._window = None
            self.call_after_refresh(self._update_narration)
            return
        window = self._window
        shown_end = window[0] + len(window[1]) if window is not None else -1
        if window is None or end <= window[0] or end - shown_end > 40:
            log.clear()
            window = self._window = (max(0, end - SHOWN_EVENTS), [])
            shown_end = window[0]
        if end < shown_end:
            keep = end - window[0]
            del window[1][keep:]
            self._cut_lines(log, window[1][-1] if window[1] else 0)
        for told in self._told[shown_end:end]:
            log.write(told_text(told, self.ruleset.id), scroll_end=False)
            window[1].append(len(log.lines))
        if not compat.log_size_known(log):
            # Laid out, but not yet told its size: RichLog holds these lines back until
            # it is, so the line counts above are not the panel's. The next update
            # writes the panel afresh.
            self._window = None
        log.scroll_end(animate=False, x_axis=False)

    @staticmethod
    def _cut_lines(log: RichLog, count: int) -> None:
        """Keep the first ``count`` lines of the panel."""
        del log.lines[count:]
        compat.forget_drawn_lines(log)  # cached strips of the lines cut off
        log.virtual_size = Size(log.virtual_size.width, len(log.lines))
        log.refresh()

    # ------------------------------------------------------------ playing
    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.playing and not self.recording.at_end:
            # A rule explained in full for the first time gets time to be read.
            pos = self.recording.position
            start = self._told_at[pos - 1] if pos > 0 else 0
            new = sum(len(t.first) for t in self._told[start:self._told_at[pos]])
            self._timer = self.set_timer((1 + READING_PAUSE * new) / self.speed, self._tick)

    def _tick(self) -> None:
        self._timer = None
        if not self.is_attached:
            return
        self.recording.step(1)
        self.show()
        if self.recording.at_end:
            self.playing = False
            self._at_end()
        else:
            self._schedule()

    def _at_end(self) -> None:
        self._update_banner()
        if self.recording.result() is not None and self.kind != "history":
            self.rapp.show_recording_over(self)

    def _pause(self) -> None:
        self.playing = False
        self._schedule()

    def action_toggle_play(self) -> None:
        if self.recording.at_end and not self.playing:
            self.recording.seek(0)
        self.playing = not self.playing
        self.show()
        self._schedule()

    def action_step(self, delta: int) -> None:
        self._pause()
        self.recording.step(delta)
        self.show()
        if delta > 0 and self.recording.at_end:
            self._at_end()

    def action_speed(self, direction: int) -> None:
        faster = [s for s in SPEEDS if s > self.speed]
        slower = [s for s in SPEEDS if s < self.speed]
        if direction > 0 and faster:
            self.speed = faster[0]
        elif direction < 0 and slower:
            self.speed = slower[-1]
        self._update_banner()
        self._schedule()

    def action_toggle_players(self) -> None:
        """On a narrow screen, the players (and in a demo their holdings) in place of the narration."""
        self.toggle_class("players")
        if self.has_class("narrow"):
            self._update_banner()

    def action_jump_start(self) -> None:
        self._pause()
        self.recording.seek(0)
        self.show()

    def action_jump_end(self) -> None:
        self._pause()
        self.recording.seek(self.recording.length)
        self.show()
        self._at_end()

    def next_rule_position(self) -> int | None:
        """The first position after this one whose action brings a rule explained for
        the first time (its NEW RULE lines), or None when no rule is new after here."""
        at = self._told_at
        for position in range(self.recording.position + 1, self.recording.length + 1):
            if any(told.first for told in self._told[at[position - 1]:at[position]]):
                return position
        return None

    def action_next_rule(self) -> None:
        self._pause()
        position = self.next_rule_position()
        if position is None:
            self.notify("No rule is explained for the first time after this point.",
                        severity="information")
            return
        self.recording.seek(position)
        self.show()
        if self.recording.at_end:
            self._at_end()

    def jump_to_turn(self, turn: int) -> None:
        position = self.recording.position_of_turn(turn)
        if position is None:
            self.notify(f"This game has turns 1 to {self.recording.last_turn}.", severity="warning")
            return
        self._pause()
        self.recording.seek(position)
        self.show()

    def action_jump_turn(self) -> None:
        self._pause()

        def chosen(turn: int | None) -> None:
            if turn is not None:
                self.jump_to_turn(turn)

        self.app.push_screen(TurnJumpScreen(self.recording.last_turn), chosen)

    def action_rules(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self._pause()
        self.app.push_screen(HelpScreen(self.ruleset.id))

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self._pause()
        what = {
            "demo": "Greedy bots play every seat. Each rule is explained in full the first time "
                    "it is at work, then in one line. Everyone's holdings are shown.",
            "watch": "A saved game, action by action, with the rules behind each one.",
            "history": "This game so far, action by action. Nothing here changes the game.",
        }[self.kind]
        self.app.push_screen(HelpScreen(self.ruleset.id, "Watching", f"{what}\n{CONTROLS}"))

    def action_leave(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.on_leave is not None:
            self.on_leave()
        else:
            self.rapp.to_launcher()
