"""The whole log of the game so far, on a screen of its own (only what the seat may see)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import RichLog, Static

from railgames.app.screens.guard import SizeGuard
from railgames.app.screens.help import HelpScreen
from railgames.app.widgets.footer import KeyFooter
from railgames.core.events import Event

LOG_KEYS = "↑↓ PgUp/PgDn Home/End"


def event_line(event: Event) -> Text:
    """One event as the logs show it; turns and the end of the game stand out."""
    return Text(event.text, style="bold" if event.kind in ("turn", "game_over") else "")


class LogScreen(SizeGuard, Screen[None]):
    DEFAULT_CSS = """
    LogScreen #log-title { height: 1; padding: 0 1; background: $panel; }
    LogScreen #full-log { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    """
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("close", "help")
    BINDINGS = [
        Binding("escape,l,L,q", "close", "Back"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("j", "scroll(1)", "Down", show=False),
        Binding("k", "scroll(-1)", "Up", show=False),
    ]

    def __init__(self, game_id: str, title: str, events: Sequence[Event]) -> None:
        super().__init__()
        self.game_id = game_id
        self.title_text = title
        self.events = list(events)

    def compose(self) -> Any:
        title = Text(f" {self.title_text} · {len(self.events)} entries ", style="bold")
        title.append(LOG_KEYS, style="dim")
        yield Static(title, id="log-title")
        yield RichLog(id="full-log", wrap=True, markup=False, auto_scroll=False, min_width=20)
        yield KeyFooter()

    def on_mount(self) -> None:
        log = self.query_one("#full-log", RichLog)
        if self.events:
            log.write(Text("\n").join(event_line(e) for e in self.events), scroll_end=False)
        else:
            log.write(Text("Nothing has happened yet."))
        log.focus()
        # Opened at the end (the newest entries), as the game screen's log is.
        self.call_after_refresh(log.scroll_end, animate=False, immediate=True)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#full-log", RichLog).scroll_relative(y=lines, animate=False)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.game_id))

    def action_close(self) -> None:
        self.dismiss(None)
