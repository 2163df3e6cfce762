"""The quick tour in the viewer: only the actions that explain a rule for the first time.

A tour (railgames/core/tour.py) is a few seeded bot games and, in them, its
stops. This is the viewer over a ``Recording`` of each game, moving from stop to
stop instead of from action to action: the board jumps to the stop, the
narration tells the stretch skipped before it in one line and then the stop's
action with its new rules in full. Every key moves between stops (→ and ``n``
to the next, ← back), and after the last comes the end of the tour, with what
to do next.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Button, RichLog, Static

from railgames import compat
from railgames.app.screens.guard import SCREENS_CSS
from railgames.app.screens.viewer import ViewerScreen, told_text
from railgames.core.narration import Told, narrate
from railgames.core.rulebook import rulebook
from railgames.core.tour import Tour, piece_line, skip_line, stop_seconds
from railgames.tables.recording import Recording

TOUR_CONTROLS = (
    "space pause / play · → or n the next stop · ← the stop before · + / − faster / slower · "
    "Home the first stop · End the end of the tour · d a whole demo instead · "
    "p the players (narrow screens) · r the rules · Esc leave"
)


def end_lines(tour: Tour, title: str) -> tuple[str, str]:
    """What the end of the tour says: what was shown, then what to do next."""
    played = sum(len(g.record.actions) for g in tour.games)
    return (f"End of the tour: every rule of {title} explained once ({len(tour.rules)} rules, "
            f"{tour.actions} actions shown of {played} played).",
            "Next: d watches a whole demo, every action told; Learn to play in the launcher "
            "has you make the moves yourself; New game there starts a real game.")


class TourEndScreen(ModalScreen[str | None]):
    """The end of the tour: watch a whole demo, play a game, or go back."""

    CSS_PATH = SCREENS_CSS
    DEFAULT_CSS = """
    TourEndScreen { align: center middle; }
    TourEndScreen #tour-end { width: 70; max-width: 100%; height: auto; border: round $accent;
                              background: $surface; padding: 0 1; }
    TourEndScreen #tour-end-buttons { height: auto; margin-top: 1; }
    TourEndScreen #tour-end-buttons Button { margin-right: 1; }
    """
    BINDINGS = [
        Binding("d", "choose('demo')", "Whole demo"),
        Binding("g", "choose('game')", "New game"),
        Binding("l", "choose('launcher')", "Launcher"),
        Binding("escape", "choose(None)", "Back to the tour"),
    ]

    def __init__(self, lines: tuple[str, str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> Any:
        with Vertical(id="tour-end"):
            yield Static(Text(self.lines[0], style="bold"), id="tour-end-what")
            yield Static("What next? The whole demo, every action told; Learn to play in the "
                         "launcher, where you make the moves; or a new game.", id="tour-end-next")
            with Horizontal(id="tour-end-buttons"):
                yield Button(Content("Whole demo [d]"), id="end-demo", variant="primary",
                             compact=True)
                yield Button(Content("New game [g]"), id="end-game", compact=True)
                yield Button(Content("Launcher [l]"), id="end-launcher", compact=True)
                yield Button(Content("Back [Esc]"), id="end-back", compact=True)

    def on_mount(self) -> None:
        self.query_one("#end-demo", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        what = (event.button.id or "end-back").removeprefix("end-")
        self.dismiss(None if what == "back" else what)

    def action_choose(self, what: str | None) -> None:
        self.dismiss(what)


class TourScreen(ViewerScreen):
    """The viewer playing a tour: its stops, in order, and the end of the tour."""

    # On a narrow screen the narration takes more of the height than in a demo: each stop
    # is read whole, and the board only jumps between stops.
    DEFAULT_CSS = """
    TourScreen.narrow #v-side { height: 12; }
    """
    FOOTER_KEEP = ("step", "toggle_play", "leave", "help", "next_rule", "whole_demo",
                   "toggle_players", "speed")
    BINDINGS = [  # the viewer's keys, by stops
        Binding("right", "step(1)", "Next stop", priority=True),
        Binding("left", "step(-1)", "Stop back", priority=True),
        Binding("n", "next_rule", "Next rule"),
        Binding("d", "whole_demo", "Whole demo"),
    ]

    def __init__(self, tour: Tour, recordings: list[Recording], *, speed: float = 1.0) -> None:
        """``recordings``: one for each of the tour's games, everything shown."""
        self.tour = tour
        self.recordings = recordings
        first = tour.stops[0]
        super().__init__(recordings[first.piece], kind="demo", speed=speed, start=first.position,
                         playing=True)
        self.book = rulebook(self.ruleset)
        # Each game's narration (for the board's marks), and where each position's events end.
        self._pieces: list[tuple[list[Told], list[int]]] = [(self._told, self._told_at)]
        for recording in recordings[1:]:
            self.recording = recording
            self._told = narrate(recording.all_events(), self.book, self.ruleset)
            self._pieces.append((self._told, self._index_positions()))
        self.index = 0  # the stop shown; len(tour.stops) is the end of the tour
        self._part_starts: list[int] = []  # see _update_narration
        self._go(0)

    @classmethod
    def of_tour(cls, tour: Tour, speed: float = 1.0) -> TourScreen:
        return cls(tour, [Recording.of_game(g, reveal_all=True) for g in tour.games], speed=speed)

    @property
    def at_tour_end(self) -> bool:
        return self.index >= len(self.tour.stops)

    def _go(self, index: int) -> None:
        """Show stop ``index`` (its game's recording at the stop's position)."""
        self.index = max(0, min(len(self.tour.stops), index))
        stop = self.tour.stops[min(self.index, len(self.tour.stops) - 1)]
        self.recording = self.recordings[stop.piece]
        self._told, self._told_at = self._pieces[stop.piece]
        self.names = [p.name for p in self.recording.players]
        self.recording.seek(stop.position)

    def stop_told(self, index: int) -> list[Told]:
        """The stop's events as told: in full only the rules new to the tour there."""
        stop = self.tour.stops[index]
        told, at = self._pieces[stop.piece]
        start = at[stop.position - 1] if stop.position > 0 else 0
        todo = list(stop.rules)
        out: list[Told] = []
        for item in told[start:at[stop.position]]:
            first = tuple(r for r in item.rules if r.id in todo)
            for rule in first:
                todo.remove(rule.id)
            out.append(replace(item, first=first))
        return out

    def part_lines(self, index: int) -> list[Text]:
        """What the narration says for stop ``index`` (the end of the tour after the last):
        its game's opening line at a game's first stop, its skip line, its events."""
        stops = self.tour.stops
        if index >= len(stops):
            what, then = end_lines(self.tour, self.ruleset.title)
            return [Text(what, style="bold reverse"), Text(then)]
        stop = stops[index]
        lines: list[Text] = []
        if index == 0 or stops[index - 1].piece != stop.piece:
            lines.append(Text(piece_line(self.tour, stop.piece, self.ruleset),
                              style="bold underline"))
        line = skip_line(stop, self.book)
        if line:
            lines.append(Text(f"\u2026 {line}", style="italic"))
        where = "Set-up" if stop.position == 0 else f"Action {stop.position}"
        lines.append(Text(f"Stop {index + 1} of {len(stops)} \u00b7 {where}", style="bold"))
        lines.extend(told_text(item, self.ruleset.id) for item in self.stop_told(index))
        return lines

    # ------------------------------------------------------------ drawing
    def _update_banner(self) -> None:
        stops = self.tour.stops
        text = Text()
        text.append(f" {self.ruleset.title} \u00b7 Quick tour ", style="bold reverse")
        if self.at_tour_end:
            text.append(" end of the tour \u00b7 d a whole demo \u00b7 Esc leave ")
        else:
            state = "\u25b6 playing" if self.playing else "\u275a\u275a paused"
            pieces = len(self.tour.pieces)
            game = f"game {stops[self.index].piece + 1} of {pieces} \u00b7 " if pieces > 1 else ""
            text.append(f" stop {self.index + 1}/{len(stops)} \u00b7 {game}"
                        f"action {self.recording.position}/{self.recording.length} \u00b7 "
                        f"{state} \u00b7 {self.speed:g}\u00d7 ")
        minutes, seconds = divmod(round(self.tour.seconds / self.speed), 60)
        text.append(f" Every rule once, {minutes} min {seconds:02d} s; "
                    "the actions between are skipped.", style="italic")
        self.query_one("#v-banner", Static).update(text)

    def _update_narration(self) -> None:
        """The tour so far, scrolled to where the stop shown starts (its skip line)."""
        log = self.query_one("#v-narration", RichLog)
        end = self._told_at[self.recording.position]
        self._follow_action(max(0, end - 8), end)
        if log.size.width == 0:  # not laid out yet: written once it has a width
            self.call_after_refresh(self._update_narration)
            return
        # The panel's line count at the start of each part written: a step on writes one
        # part more, any other move writes them all again.
        starts = self._part_starts
        if len(starts) != self.index + 1 or not compat.log_size_known(log):
            if len(starts) != self.index:
                log.clear()
                starts.clear()
            while len(starts) <= self.index:
                starts.append(len(log.lines))
                for text in self.part_lines(len(starts) - 1):
                    log.write(text, scroll_end=False)
        if not compat.log_size_known(log):
            # RichLog holds the lines back until it is told its size, so the counts are
            # not the panel's yet: written again in a moment, when it is.
            starts.clear()
            self.set_timer(0.05, self._update_narration)
            return
        log.scroll_to(y=starts[-1], animate=False, immediate=True)

    # ------------------------------------------------------------ playing
    _read_on: Timer | None = None

    def _schedule(self) -> None:
        for timer in (self._timer, self._read_on):
            if timer is not None:
                timer.stop()
        self._timer = self._read_on = None
        if self.playing and not self.at_tour_end:
            seconds = stop_seconds(self.tour, self.index) / self.speed
            self._timer = self.set_timer(seconds, self._tick)
            # A stop longer than the panel is shown from its start: halfway through its
            # time the rest comes into view.
            self._read_on = self.set_timer(seconds / 2, self._read_rest)

    def _read_rest(self) -> None:
        self._read_on = None
        if self.is_attached:
            self.query_one("#v-narration", RichLog).scroll_end(animate=False)

    def _tick(self) -> None:
        self._timer = None
        if not self.is_attached:
            return
        self._move(self.index + 1)
        if self.playing and not self.at_tour_end:
            self._schedule()

    def _move(self, index: int) -> None:
        self._go(index)
        if self.at_tour_end:
            self.playing = False
        self.show()
        if self.at_tour_end:
            self._at_end()

    def _at_end(self) -> None:
        self._update_banner()

        def chosen(what: str | None) -> None:
            if what == "demo":
                self.action_whole_demo()
            elif what == "game":
                from railgames.app.screens.setup import SetupScreen

                self.rapp.to_launcher()
                self.app.push_screen(SetupScreen(self.ruleset.id))
            elif what == "launcher":
                self.action_leave()

        self.app.push_screen(TourEndScreen(end_lines(self.tour, self.ruleset.title)), chosen)

    def action_toggle_play(self) -> None:
        if self.at_tour_end and not self.playing:
            self._go(0)
        self.playing = not self.playing
        self.show()
        self._schedule()

    def action_step(self, delta: int) -> None:
        self._pause()
        if self.at_tour_end and delta > 0:
            return
        self._move(self.index + delta)

    def action_next_rule(self) -> None:
        """In a tour every stop explains a new rule: n is the next stop."""
        self.action_step(1)

    def action_jump_start(self) -> None:
        self._pause()
        self._move(0)

    def action_jump_end(self) -> None:
        self._pause()
        self._move(len(self.tour.stops))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "jump_turn"  # a tour's turns are mostly skipped

    def action_whole_demo(self) -> None:
        """The whole demo of this game, every action told (as the launcher's Watch a demo)."""
        self._pause()
        self.rapp.start_demo(self.ruleset.id)

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self._pause()
        what = ("A quick tour: bots play, and only the actions that explain a rule for the first "
                "time are shown, each rule in full. Each stretch in between is skipped and told "
                "in one line; the board jumps over it. Everyone's holdings are shown.")
        self.app.push_screen(HelpScreen(self.ruleset.id, "Watching", f"{what}\n{TOUR_CONTROLS}"))
