"""The home screen: the first thing a player on the host sees, their tables at a glance.

Each table where they have a seat and whose game is not over: whose move and since
when, the time left for a move at a turn-based table, the moves they have not seen
yet (marked until they look), and who is there now. Enter goes to the table. From
here they host or join a table, play the games on this terminal (the launcher),
open their archive, their page and their settings, and mute a table or switch its
bell off.

The host tells the screen when one of the player's tables has changed
(``{"ev": "home"}``, see ``hometables``); it asks for the tables again then, when it
comes back to the top, and once a minute for the time left.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.footer import KeyFooter
from railgames.core.errors import RailgamesError


class HomeApp(Protocol):
    """What the home screen needs of the app it is in (``railgames.net.app.NetApp``)."""

    link: Any

    def at_table(self, code: str) -> None: ...

    def host_table(self) -> None: ...

    def join_table(self) -> None: ...

    def open_games(self) -> None: ...

# Seconds between two looks while the screen is shown, the host saying nothing (the time
# left moves on by itself).
LOOK_EVERY = 60.0

HOME_HELP = """\
Your tables on this host: where you have a seat and the game is not over.
↑↓ pick a table, Enter goes to it. "● 3 new": moves you have not seen yet.
h host a table · j join a table (its code, or from the list) · g the games on this
terminal (hot seat) · a your archive of finished games · p your page · s settings
(where you are told of your move) · m mute the table (no notifications from it) ·
b its bell on or off · r look again · ? this help · q quit."""

EMPTY = ("You have no tables on this host yet.\n\n"
         "Host a table (h) and give your friends its code, or Join a table (j) with the "
         "code a friend gave you. The games on this terminal, hot seat, are under g.")

KEYS = ("Enter go to the table · h host · j join · g games here · a archive · p your page · "
        "s settings · m mute · b bell · ? help · q quit")


def ago(seconds: float) -> str:
    """How long ago, as a table list says it: "now", "5 min", "3 h", "2 d"."""
    minutes = int(max(seconds, 0) // 60)
    if minutes < 1:
        return "now"
    if minutes < 60:
        return f"{minutes} min"
    if minutes < 24 * 60:
        return f"{minutes // 60} h"
    return f"{minutes // (24 * 60)} d"


def whose_move(row: dict[str, Any], now: float) -> str:
    """ "your move, 3 h", "Bo to move, since 2 d", "waiting for players"."""
    if row.get("invited"):
        return f"{row.get('by') or 'someone'} invites you: Enter sits you down"
    if row.get("status") == "waiting":
        return "waiting for players"
    since = ago(now - float(row.get("since") or now))
    if row.get("your_move"):
        return f"your move, {since}"
    return f"{row.get('to_move') or 'someone'} to move, since {since}"


def table_lines(row: dict[str, Any], now: float) -> Text:
    """One table of the list, in two lines: what it is and whose move; what is new, who is here."""
    text = Text()
    text.append(f"{row['code']}  ", style="bold")
    text.append(str(row.get("title", "")))
    text.append(" · ")
    text.append(whose_move(row, now), style="bold" if row.get("your_move") else "")
    if row.get("unseen"):
        text.append(" · ")
        text.append(f"● {row['unseen']} new", style="bold yellow")
    second = []
    if row.get("time_left"):
        second.append(f"{row['time_left']} left")
    if row.get("news"):
        second.append(str(row["news"]))
    here = row.get("here") or []
    second.append("here: " + ", ".join(here) if here else "nobody at the table now")
    if row.get("watching"):
        second.append("watching: " + ", ".join(row["watching"]))
    if row.get("private"):
        second.append("private")
    if row.get("muted"):
        second.append("muted")
    if row.get("bell") is False:
        second.append("bell off")
    text.append("\n      " + " · ".join(second), style="dim")
    return text


class HomeScreen(SizeGuard, Screen[None]):
    DEFAULT_CSS = """
    HomeScreen #home { padding: 0 1; height: 1fr; }
    HomeScreen #home-title { height: auto; margin-bottom: 1; }
    HomeScreen #home-tables { height: 1fr; border: round $accent; }
    HomeScreen #home-empty { height: 1fr; border: round $panel; padding: 1 2; }
    HomeScreen #home-keys { height: auto; color: $text-muted; }
    """
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("host_table", "join_table", "help", "app.quit", "games", "archive", "page",
                   "settings", "mute", "bell")
    BINDINGS = [
        Binding("h", "host_table", "Host a table"),
        Binding("j", "join_table", "Join a table"),
        Binding("g", "games", "Games here"),
        Binding("a", "archive", "Archive"),
        Binding("p", "page", "Your page"),
        Binding("s", "settings", "Settings"),
        Binding("m", "mute", "Mute"),
        Binding("b", "bell", "Bell"),
        Binding("r,f5,ctrl+r", "reload", "Look again", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []
        self.greeted = False

    @property
    def napp(self) -> HomeApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        with Vertical(id="home"):
            yield Static("[b]Your tables[/b]", id="home-title")
            yield OptionList(id="home-tables")
            yield Static(EMPTY, id="home-empty")
            yield Static(KEYS, id="home-keys")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#home-tables").display = False
        self.set_interval(LOOK_EVERY, self._look_if_shown)

    def on_screen_resume(self) -> None:
        self.reload()

    def _look_if_shown(self) -> None:
        if self.is_current:
            self.reload()

    def reload(self) -> None:
        """Ask the host for the player's tables and show them (once logged in)."""
        link = self.napp.link
        if not link.name or link.choose or not self.is_mounted:
            return
        try:
            answer = link.request({"op": "home"})
        except RailgamesError as exc:
            self.query_one("#home-title", Static).update(
                Text(f"Your tables: {exc.reason}", style="bold red"))
            return
        rows = answer.get("tables")
        self.rows = [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []
        now = answer.get("now")
        self.show(float(now) if isinstance(now, int | float) else time.time())

    def show(self, now: float) -> None:
        name = self.napp.link.name
        title = Text.assemble(("Your tables", "bold"), f"  ·  You are {name}")
        mine = [r for r in self.rows if r.get("your_move")]
        if mine:
            tables = "1 table" if len(mine) == 1 else f"{len(mine)} tables"
            title.append(f"  ·  your move at {tables}", style="bold")
        self.query_one("#home-title", Static).update(title)
        tables = self.query_one("#home-tables", OptionList)
        kept = self.highlighted_code()
        tables.clear_options()
        for row in self.rows:
            tables.add_option(Option(table_lines(row, now), id=str(row.get("code"))))
        tables.display = bool(self.rows)
        self.query_one("#home-empty").display = not self.rows
        if self.rows:
            codes = [str(r.get("code")) for r in self.rows]
            tables.highlighted = codes.index(kept) if kept in codes else 0
            tables.focus()
        elif self.focused is tables:
            self.set_focus(None)  # nothing to pick: the keys are the screen's
        if mine and not self.greeted:  # said once, when they log in
            first = mine[0]
            self.notify(f"Your move at {first['code']} ({first.get('title', '')}).",
                        title="Your move", timeout=10)
        self.greeted = True

    def highlighted_code(self) -> str | None:
        tables = self.query_one("#home-tables", OptionList)
        if tables.highlighted is None or tables.option_count == 0:
            return None
        return str(tables.get_option_at_index(tables.highlighted).id)

    def highlighted_row(self) -> dict[str, Any] | None:
        code = self.highlighted_code()
        return next((r for r in self.rows if r.get("code") == code), None)

    # ------------------------------------------------------------ going somewhere
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open_table(str(event.option.id or ""))

    def open_table(self, code: str) -> None:
        try:
            self.napp.link.request({"op": "join", "code": code})
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot go to the table", severity="error")
            return
        self.napp.at_table(code)

    def action_host_table(self) -> None:
        self.napp.host_table()

    def action_join_table(self) -> None:
        self.napp.join_table()

    def action_games(self) -> None:
        self.napp.open_games()

    # (Each screen is imported when first asked for: a player who never opens it never
    # pays for its import.)
    def action_archive(self) -> None:
        from railgames.net.after_ui import ArchiveScreen

        self.app.push_screen(ArchiveScreen())

    def action_page(self) -> None:
        from railgames.net.after_ui import PlayerScreen

        self.app.push_screen(PlayerScreen())

    def action_settings(self) -> None:
        from railgames.net.settings_ui import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(None, step="Your tables", step_help=HOME_HELP))

    def action_reload(self) -> None:
        self.reload()

    # ------------------------------------------------------------ a table's switches
    def action_mute(self) -> None:
        row = self.highlighted_row()
        if row is None:
            self.notify("Pick one of your tables first.")
            return
        on = not row.get("muted")
        said = (f"{row['code']} muted: no notifications from it." if on else
                f"{row['code']} no longer muted.")
        self._switch("mute", row, on, said, "Muting a table")

    def action_bell(self) -> None:
        row = self.highlighted_row()
        if row is None:
            self.notify("Pick one of your tables first.")
            return
        on = row.get("bell") is False
        said = (f"The bell rings again for your move at {row['code']}." if on else
                f"No bell for your move at {row['code']} (a notice still shows).")
        self._switch("bell", row, on, said, "A table's bell")

    def _switch(self, op: str, row: dict[str, Any], on: bool, said: str, what: str) -> None:
        try:
            self.napp.link.request({"op": op, "code": row["code"], "on": on})
        except RailgamesError as exc:
            self.notify(exc.reason, title=what, severity="error")
            return
        self.notify(said, title=what)
        self.reload()
