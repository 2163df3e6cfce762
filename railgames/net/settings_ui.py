"""A player's settings on a host: where they are told it is their move, and per table
whether they are told at all and whether their terminal rings.

Everything here is asked of the host (``settings``, ``set_address``, ``mute``,
``bell``: see ``railgames.net.notify``), which checks it and keeps it in the
player's profile; the screen only shows the answers.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from railgames.app.widgets.footer import KeyFooter
from railgames.core.errors import RailgamesError
from railgames.net.profiles import MAX_ADDRESS

SETTINGS_HELP = """\
# Settings

**Where you are told.** When it becomes your move at a table and you are not
looking at it (or a game of yours ends, or you are invited to play again), the
host can tell you outside the terminal: by e-mail, or whatever its operator set up.
Type where (an e-mail address, a chat handle) and press Enter; empty it and press
Enter to be told nowhere. What the host does with it is up to its operator.

**Your tables.** Each table you sit at, with:

- **m**: notifications from this table off, or on again (muted);
- **b**: the terminal bell for your move at this table off, or on again.

**Keys**: Tab moves between the address and the tables, ↑↓ pick a table,
**F5** asks the host again, **?** or **F1** this help, Esc goes back.
"""


class SettingsHelp(ModalScreen[None]):
    DEFAULT_CSS = """
    SettingsHelp { align: center middle; }
    SettingsHelp #settings-help { width: 80; max-width: 100%; height: auto; max-height: 100%;
                                  border: round $accent; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark,f1", "close", "Close help")]

    def compose(self) -> Any:
        with VerticalScroll(id="settings-help"):
            yield Markdown(SETTINGS_HELP)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#settings-help").focus()

    def action_close(self) -> None:
        self.dismiss(None)


def table_line(row: dict[str, Any]) -> str:
    """One table as the settings list it: "RFXP  Railways of the World · playing ·
    notifications on · bell on"."""
    state = {"waiting": "waiting for players", "playing": "playing", "over": "over"}.get(
        str(row.get("status")), str(row.get("status")))
    told = "muted" if row.get("muted") else "notifications on"
    bell = "bell on" if row.get("bell") else "bell off"
    return f"{row.get('code')}  {row.get('title')} · {state} · {told} · {bell}"


class SettingsScreen(Screen[None]):
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("app.pop_screen", "mute", "bell", "help")
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("m", "mute", "Mute"),
        Binding("b", "bell", "Bell"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("f5,ctrl+r", "reload", "Refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []

    def compose(self) -> Any:
        # Not focusable itself: Tab goes between the address and the tables only.
        with VerticalScroll(id="setup", can_focus=False):
            yield Static("[b]Settings[/b]", id="setup-title")
            yield Static("Where the host tells you it is your move (an e-mail address or a "
                         "chat handle; empty: nowhere). Enter keeps it:")
            yield Input("", placeholder="e.g. ann@example.org", id="address",
                        max_length=MAX_ADDRESS, compact=True)
            yield Static("Your tables (m: notifications off/on, b: bell off/on):",
                         id="tables-title")
            yield OptionList(id="tables")
            yield Static(id="setup-error")
        yield KeyFooter()

    @property
    def link(self) -> Any:
        return self.app.link  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        self.query_one("#tables", OptionList).styles.height = "auto"
        self.query_one("#tables", OptionList).styles.max_height = 12
        if self.action_reload():
            self.query_one("#address", Input).value = self._address
        (self.query_one("#tables") if self.rows else self.query_one("#address")).focus()

    _address = ""

    def _ask(self, request: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return dict(self.link.request(request))
        except RailgamesError as exc:
            self.say(exc.reason, error=True)
            return None

    def say(self, text: str, error: bool = False) -> None:
        text = text[:1].upper() + text[1:]
        self.query_one("#setup-error", Static).update(
            Text(text, style="bold red" if error else "bold"))

    def action_reload(self) -> bool:
        answer = self._ask({"op": "settings"})
        if answer is None:
            return False
        self._address = str(answer.get("notify_to") or "")
        self._show(list(answer.get("tables") or []))
        return True

    def _show(self, rows: list[dict[str, Any]]) -> None:
        options = self.query_one("#tables", OptionList)
        kept = options.highlighted
        self.rows = rows
        options.clear_options()
        for row in rows:
            options.add_option(Option(table_line(row), id=str(row.get("code"))))
        if not rows:
            options.add_option(Option("You sit at no table on this host yet.", disabled=True))
        else:
            options.highlighted = 0 if kept is None else min(kept, len(rows) - 1)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        answer = self._ask({"op": "set_address", "to": event.value})
        if answer is None:
            return
        to = answer.get("notify_to")
        event.input.value = str(to or "")
        self.say(f"You are told at {to}." if to else "You are told nowhere outside the host.")

    def _chosen(self) -> dict[str, Any] | None:
        options = self.query_one("#tables", OptionList)
        if not self.rows:
            self.say("You sit at no table on this host yet.", error=True)
            return None
        if options.highlighted is None:
            self.say("Pick one of your tables first (Tab, then ↑↓).", error=True)
            return None
        return self.rows[min(options.highlighted, len(self.rows) - 1)]

    def action_mute(self) -> None:
        row = self._chosen()
        if row is None:
            return
        code, mute = str(row["code"]), not row.get("muted")
        if self._ask({"op": "mute", "code": code, "on": mute}) is not None:
            self.action_reload()
            self.say(f"{code}: " + ("no notifications from this table." if mute
                                    else "notifications on again."))

    def action_bell(self) -> None:
        row = self._chosen()
        if row is None:
            return
        code, ring = str(row["code"]), not row.get("bell")
        if self._ask({"op": "bell", "code": code, "on": ring}) is not None:
            self.action_reload()
            self.say(f"{code}: the bell " + ("rings for your move here." if ring
                                             else "stays quiet here."))

    def action_help(self) -> None:
        self.app.push_screen(SettingsHelp())
