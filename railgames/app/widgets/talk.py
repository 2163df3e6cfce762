"""The talk at a table, under the game: its last lines and who is there, and a line to say.

Shown only for a table that has people to talk with (its ``talk``, see ``Table``). Open, it
shows the last few lines and a line saying who plays and who watches; folded, one line:
the newest said, marked when lines came that were not seen open. ``t`` opens a line to
write (Enter says it, Esc puts it away); ``T`` folds or opens the panel. A small
terminal (80x24) starts folded, a larger one open.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from railgames.app.palette import player_style
from railgames.core.errors import RailgamesError
from railgames.core.record import MAX_STRING
from railgames.net.talkline import clean
from railgames.tables.table import TableTalk

SHOWN = 4  # lines shown when open
ROWS = 6  # rows they may take (long lines wrap): the newest rows are kept
KEYS = "t talk · T fold"
NEW = "● new "


class TalkInput(Input):
    """The line being written: Esc puts it away (and not the game's Back)."""

    BINDINGS = [Binding("escape", "put_away", "Cancel")]

    def action_put_away(self) -> None:
        panel = self.parent
        if isinstance(panel, TalkPanel):
            panel.close_input()


class TalkPanel(Vertical):
    DEFAULT_CSS = """
    TalkPanel { height: auto; border-top: solid $panel; padding: 0 1; }
    TalkPanel.folded { border-top: none; background: $panel; }
    TalkPanel #talk-lines { height: auto; }
    TalkPanel #talk-here { height: 1; color: $text-muted; }
    TalkPanel.folded #talk-here { display: none; }
    TalkPanel #talk-input { display: none; height: 1; border: none; padding: 0; }
    TalkPanel.writing #talk-input { display: block; }
    """

    def __init__(self, talk: TableTalk, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.talk = talk
        self.seen = 0  # lines heard when last shown open
        self.open: bool | None = None  # None: as the terminal's size says
        self.back_to: Any = None  # where the focus goes when the line is put away
        self.field = TalkInput(placeholder="say something: Enter says it, Esc puts it away",
                               max_length=MAX_STRING, id="talk-input", compact=True)

    def compose(self) -> Any:
        yield Static(id="talk-lines")
        yield Static(id="talk-here")
        yield self.field

    # ------------------------------------------------------------ showing
    def fold(self, folded: bool) -> None:
        self.set_class(folded, "folded")
        self.show()

    @property
    def folded(self) -> bool:
        return self.has_class("folded")

    def show(self) -> None:
        talk = self.talk
        lines, heard = talk.lines, talk.heard
        if not self.folded:
            self.seen = heard
            shown = [line_text(line) for line in lines[-SHOWN:]]
            if not shown:
                shown = [Text("Nobody has said anything yet. Press t to talk.", style="dim")]
            body = Text("\n").join(shown)
            width = self.content_size.width
            if width > 0:  # (not laid out yet: drawn whole, and again once it is)
                rows = body.wrap(self.app.console, width)
                if len(rows) > ROWS:
                    body = Text("\n").join(rows[-ROWS:])
            self.query_one("#talk-lines", Static).update(body)
            self.query_one("#talk-here", Static).update(here_text(talk.here))
            self.border_title = f"Chat · {KEYS}"
            return
        folded = Text(no_wrap=True, overflow="ellipsis")
        folded.append("Chat ", style="bold")
        if heard > self.seen:
            folded.append(NEW, style="bold reverse")
        if lines:
            folded.append_text(line_text(lines[-1]))
        else:
            folded.append("nobody has said anything yet", style="dim")
        folded.append(f"  ({KEYS})", style="dim")
        self.query_one("#talk-lines", Static).update(folded)

    # ------------------------------------------------------------ writing
    @property
    def writing(self) -> bool:
        return self.has_class("writing")

    def open_input(self) -> None:
        self.back_to = self.screen.focused
        self.add_class("writing")
        self.field.focus()

    def close_input(self) -> None:
        self.field.value = ""
        self.remove_class("writing")
        back, self.back_to = self.back_to, None
        if back is not None and back.is_attached and back.focusable:
            back.focus()
        else:
            self.screen.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value
        heard = self.talk.heard
        if not clean(text):
            self.close_input()
            return
        try:
            self.talk.say(text)
        except RailgamesError as exc:  # too long, too fast, a watcher who may not: one line
            reason = exc.reason[:1].upper() + exc.reason[1:]
            self.notify(reason, title="Not said", severity="warning")
            return  # the line stays, to be changed or put away
        if self.seen >= heard:  # one's own line is not news (the host sent it back first)
            self.seen = self.talk.heard
        self.close_input()
        self.show()


def line_text(line: dict[str, Any]) -> Text:
    """One line said: the name in its seat's colour (a watcher's dim), then the words."""
    seat = line.get("seat")
    text = Text()
    text.append(clean(str(line.get("name", ""))),
                style=f"bold {player_style(seat)}" if isinstance(seat, int) else "dim")
    text.append(": " + clean(str(line.get("text", ""))))
    return text


def here_text(here: dict[str, list[str]]) -> Text:
    players = ", ".join(here.get("players") or []) or "nobody"
    text = Text(f"Here: {players}")
    watching = here.get("watching") or []
    if watching:
        text.append(f" · watching: {', '.join(watching)}")
    return text
