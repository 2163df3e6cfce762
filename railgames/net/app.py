"""The app as the host runs it on each terminal: the player's tables (home.py), Host and
Join a table, and the launcher for the games on this terminal.

The game screen is the hot-seat one; it plays against a ``RemoteSeat`` here,
so each terminal shows only its own seat's view and never a hand-off screen.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from railgames import compat
from railgames.app.main import RailgamesApp
from railgames.app.screens.launcher import LauncherScreen
from railgames.app.widgets.footer import KeyFooter
from railgames.core.errors import RailgamesError
from railgames.net.home import HomeScreen
from railgames.net.pace import MOVE_TIMES
from railgames.net.remote import PEER_ENV, Ended, RemoteLink
from railgames.tables.remote import RemoteSeat


class NetLauncherScreen(LauncherScreen):
    """The games on this terminal (hot seat), reached from the home screen with g; a table
    on the host may be hosted or joined from here too."""

    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("host_table", "join_table", "rules", "app.quit", "home", "new_game",
                   "continue_game", "watch_demo", "quick_tour")
    BINDINGS = [
        Binding("h", "host_table", "Host a table"),
        Binding("j", "join_table", "Join a table"),
        Binding("escape", "home", "Your tables"),
    ]

    def on_mount(self) -> None:
        # A row of their own above the launcher's buttons, so every button fits in 80 columns.
        row = Horizontal(Button("Host a table [h]", id="host-table", variant="success"),
                         Button("Join a table [j]", id="join-table", variant="success"),
                         id="table-buttons")
        row.styles.height = "auto"
        for button in row.query(Button):
            button.styles.margin = (0, 1, 0, 0)
        self.query_one("#launcher").mount(row, before="#launcher-buttons")
        self.show_name()

    def show_name(self) -> None:
        name = self.napp.link.name
        if name:
            self.query_one("#subtitle", Static).update(
                f"Railway board games. You are {name}: play here, hot seat, or host a table "
                "for friends. Esc: your tables.")

    @property
    def napp(self) -> NetApp:
        return self.app  # type: ignore[return-value]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "host-table":
            event.stop()
            self.action_host_table()
        elif event.button.id == "join-table":
            event.stop()
            self.action_join_table()
        else:
            super().on_button_pressed(event)

    def action_home(self) -> None:
        self.napp.to_launcher()

    def action_host_table(self) -> None:
        self.app.push_screen(HostTableScreen(self.selected))

    def action_join_table(self) -> None:
        self.app.push_screen(JoinTableScreen())


# What F1 says on the Host screen (Rich markup: one paragraph a line, wrapped on screen).
HOST_HELP = "\n\n".join((
    "Players are people at their own terminals (you are one); bots take the other seats. "
    "You get a 4-letter code to give the others.",
    "[b]Live[/b] tables are played at one sitting, everyone there together; a table everyone "
    "has left waits for them, bots and all.",
    "[b]Turn-based[/b] tables wait for their players: make your move when you have a minute, "
    "log out, and come back when it is your move again. Bots move with nobody there. Each "
    "move has 24 h, 72 h or no time limit; when a move's time runs out the table does what "
    "you chose here, once per move:",
    "• [i]a bot moves[/i]: a bot plays that player's turn, then the next player is awaited;\n"
    "• [i]turn passed[/i]: the player passes, where the game's rules let them pass at that "
    "moment (each game's rulings say where); elsewhere they are only reminded;\n"
    "• [i]remind only[/i]: nothing is played; the player is told their time is up.",
    "A [b]private[/b] table is not listed: only the names you invite (comma-separated) and "
    "its players can join it by its code. [b]Talk[/b] says who may write at the table's "
    "chat: everyone there, or its players only. [b]Hints[/b] says whether a player may ask "
    "for advice on a move (H); turn them off for a serious game.",
    "Keys: Tab and shift+Tab move between fields, Enter opens a list, ctrl+s opens the "
    "table, Esc goes back.",
))

# The choices a turn-based table's time out may make, as the screen says them.
ON_TIMEOUT = (("A bot moves for them", "bot"), ("Their turn is passed", "skip"),
              ("Remind them only", "remind"))
NO_LIMIT = 0  # the "no time limit" choice (a Select's value cannot be None)


def invited_names(text: str) -> list[str]:
    """The names typed into the Invite field (comma-separated), each checked: one line if
    one cannot be, before anything is asked of the host."""
    from railgames.net.tables import invited_names as checked

    return checked(text.split(","))


class HostTableScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("ctrl+s", "open", "Open"),
                # Typed into the names, ? is part of them; F1 opens the help from anywhere.
                Binding("question_mark,f1", "help", "Help")]
    DEFAULT_CSS = "HostTableScreen .invite-names { width: 1fr; max-width: 60; }"

    def __init__(self, game_id: str) -> None:
        super().__init__()
        self.game_id = game_id

    @property
    def napp(self) -> NetApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        from railgames.games import maps_for, playable_games

        games = [(g.title, g.id) for g in playable_games()]
        low, high = self._range(self.game_id, None)
        with VerticalScroll(id="setup"):
            yield Static("[b]Host a table[/b]", id="setup-title")
            with Horizontal(classes="setup-row"):
                yield Label("Game", classes="setup-label")
                yield Select(games, value=self.game_id, allow_blank=False, id="game", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Board", classes="setup-label")
                boards = [(title, map_id) for map_id, title in maps_for(self.game_id)]
                yield Select(boards, value=boards[0][1], allow_blank=False, id="map", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Seats", classes="setup-label")
                yield Select(self._counts(low, high), value=low,
                             allow_blank=False, id="seats", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Players", classes="setup-label")
                yield Select(self._counts(1, low), value=min(2, low),
                             allow_blank=False, id="humans", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Bots", classes="setup-label")
                yield Select([("Greedy bots", "greedy"), ("Random bots", "random"),
                              ("Search bots (easy)", "search:easy"), ("Search bots (normal)", "search"),
                              ("Search bots (hard)", "search:hard")], value="greedy",
                             allow_blank=False, id="bots", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Pace", classes="setup-label")
                yield Select([("Live: played at one sitting", "live"),
                              ("Turn-based: a move when you can", "turn")], value="live",
                             allow_blank=False, id="pace", compact=True)
            with Horizontal(classes="setup-row turn-only", id="hours-row"):
                yield Label("Per move", classes="setup-label")
                yield Select([(f"{h} h" if h else "No time limit", h or NO_LIMIT)
                              for h in MOVE_TIMES], value=MOVE_TIMES[0] or NO_LIMIT,
                             allow_blank=False, id="hours", compact=True)
            with Horizontal(classes="setup-row turn-only", id="timeout-row"):
                yield Label("Then", classes="setup-label")
                yield Select(self._timeouts(self.game_id), value="bot", allow_blank=False,
                             id="timeout", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Private", classes="setup-label")
                yield Select([("No: listed for everyone", False),
                              ("Yes: invited names only", True)], value=False,
                             allow_blank=False, id="private", compact=True)
            with Horizontal(classes="setup-row", id="invited-row"):
                yield Label("Invite", classes="setup-label")
                yield Input("", placeholder="names, comma-separated", id="invited",
                            max_length=800, compact=True, classes="invite-names")
            with Horizontal(classes="setup-row"):
                yield Label("Talk", classes="setup-label")
                yield Select([("Everyone at the table", "everyone"),
                              ("Its players only", "players")], value="everyone",
                             allow_blank=False, id="talk", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("Hints", classes="setup-label")
                yield Select([("Allowed: H advises a move", True),
                              ("Off: a serious game", False)], value=True,
                             allow_blank=False, id="hints", compact=True)
            yield Static("Players are people at their own terminals (you are one); bots take "
                         "the other seats. You get a 4-letter code to give the others. "
                         "F1: what each choice means.", id="setup-note")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Open the table", id="open", variant="primary", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeyFooter()

    @staticmethod
    def _range(game_id: str, map_id: str | None) -> tuple[int, int]:
        """How many seats a table of this game may have on this board."""
        from railgames.games import load_ruleset

        rules = load_ruleset(game_id, map_id)
        return rules.min_players, rules.max_players

    @staticmethod
    def _counts(low: int, high: int) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(low, high + 1)]

    @staticmethod
    def _timeouts(game_id: str) -> list[tuple[str, str]]:
        """What a move out of time may do at a table of this game: its turn is passed only
        in a game whose rules have a pass (see ``Ruleset.passes``)."""
        from railgames.games import ruleset_class

        passes = bool(ruleset_class(game_id).passes)
        return [(text, value) for text, value in ON_TIMEOUT if value != "skip" or passes]

    def on_mount(self) -> None:
        self._show_rows()
        self.query_one("#open", Button).focus()

    def _show_rows(self) -> None:
        """Only the choices that apply: the time per move at a turn-based table, what its
        end does if it has one, the names to invite at a private table."""
        turn = self._value("pace") == "turn"
        self.query_one("#hours-row").display = turn
        self.query_one("#timeout-row").display = turn and self._value("hours") != NO_LIMIT
        self.query_one("#invited-row").display = self._value("private") is True

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(None, "Hosting a table", HOST_HELP))

    def _value(self, widget_id: str) -> Any:
        return self.query_one(f"#{widget_id}", Select).value

    def on_select_changed(self, event: Select.Changed) -> None:
        from railgames.games import maps_for

        if event.select.id == "game" and isinstance(event.value, str):
            boards = self.query_one("#map", Select)
            choices = [(title, map_id) for map_id, title in maps_for(event.value)]
            boards.set_options(choices)
            boards.value = choices[0][1]
        if event.select.id in ("game", "map"):
            game, board = self._value("game"), self._value("map")
            if isinstance(game, str) and isinstance(board, str):
                low, high = self._range(game, board)
                self.query_one("#seats", Select).set_options(self._counts(low, high))
                self.query_one("#seats", Select).value = low
        if event.select.id == "game" and isinstance(event.value, str):
            timeouts = self.query_one("#timeout", Select)
            old_timeout = timeouts.value
            choices = self._timeouts(event.value)
            timeouts.set_options(choices)
            timeouts.value = old_timeout if old_timeout in {v for _, v in choices} else "bot"
        if event.select.id in ("pace", "hours", "private"):
            self._show_rows()
        if event.select.id in ("game", "map", "seats"):
            seats = self._value("seats")
            seats = seats if isinstance(seats, int) else 2
            humans = self.query_one("#humans", Select)
            old = humans.value
            humans.set_options(self._counts(1, seats))
            humans.value = old if isinstance(old, int) and old <= seats else min(2, seats)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "open":
            self.action_open()
        else:
            self.app.pop_screen()

    def _pace(self) -> dict[str, Any]:
        if self._value("pace") != "turn":
            return {"mode": "live"}
        hours = self._value("hours")
        return {"mode": "turn", "move_hours": None if hours == NO_LIMIT else hours,
                "on_timeout": self._value("timeout")}

    def action_open(self) -> None:
        private = self._value("private") is True
        try:
            invited = invited_names(self.query_one("#invited", Input).value) if private else []
        except RailgamesError as exc:
            self.query_one("#invited", Input).focus()
            self._error(exc.reason)
            return
        request = {"op": "create", "game": self._value("game"), "map": self._value("map"),
                   "seats": self._value("seats"),
                   "humans": self._value("humans"), "bots": self._value("bots"),
                   "pace": self._pace(), "private": private, "invited": invited,
                   "talk": self._value("talk"), "hints": self._value("hints") is not False}
        try:
            answer = self.napp.link.request(request)
        except RailgamesError as exc:
            self._error(exc.reason)
            return
        self.napp.at_table(str(answer["code"]))

    def _error(self, reason: str) -> None:
        """Say why in one line, where it can be seen (the form may have scrolled)."""
        error = self.query_one("#setup-error", Static)
        error.update(Text(reason, style="bold red"))
        self.call_after_refresh(error.scroll_visible, animate=False)


class JoinTableScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("f5,ctrl+r", "reload", "Refresh"),
        Binding("f2", "watch", "Watch"),
    ]

    @property
    def napp(self) -> NetApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        with VerticalScroll(id="setup"):
            yield Static("[b]Join a table[/b]", id="setup-title")
            with Horizontal(classes="setup-row"):
                yield Label("Code", classes="setup-label")
                yield Input("", placeholder="4 letters", id="code", max_length=4, compact=True,
                            restrict=r"[A-Za-z]*", classes="seat-name")
            yield Static("Or pick an open table (Enter joins it; F2 watches it):")
            yield OptionList(id="tables")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Join", id="join", variant="primary", compact=True)
                yield Button("Watch", id="watch", compact=True)
                yield Button("Back", id="back", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.action_reload()
        self.query_one("#code", Input).focus()

    def action_reload(self) -> None:
        try:
            rows = self.napp.link.request({"op": "list"})["tables"]
        except RailgamesError as exc:
            self._error(exc.reason)
            return
        options = self.query_one("#tables", OptionList)
        options.clear_options()
        for row in rows:
            names = ", ".join(
                (s["name"] or "(free)") + ("" if s["connected"] or s["kind"] != "human" or not s["name"]
                                           else " (away)") for s in row["seats"])
            state = "waiting for players" if row["status"] == "waiting" else "playing"
            pace = str(row.get("pace") or "live")
            private = " · private" if row.get("private") else ""
            options.add_option(Option(f"{row['code']}  {row['title']} · {state} · {pace}"
                                      f"{private} · {names}", id=row["code"]))
        if not rows:
            options.add_option(Option("No open tables yet: host one from your tables (h).",
                                      disabled=True))

    def _error(self, reason: str) -> None:
        self.query_one("#setup-error", Static).update(Text(reason[:1].upper() + reason[1:],
                                                           style="bold red"))

    def _code(self) -> str:
        typed = self.query_one("#code", Input).value.strip()
        if typed:
            return typed
        options = self.query_one("#tables", OptionList)
        if options.highlighted is not None:
            return str(options.get_option_at_index(options.highlighted).id or "")
        return ""

    def _join(self, code: str, watch: bool = False) -> None:
        if not code:
            self._error("type a table's code, or pick a table from the list")
            return
        try:
            self.napp.link.request({"op": "join", "code": code, "watch": watch})
        except RailgamesError as exc:
            self._error(exc.reason)
            return
        self.napp.at_table(code.upper())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._join(event.value.strip())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._join(str(event.option.id or ""))

    def action_watch(self) -> None:
        self._join(self._code(), watch=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "join":
            self._join(self._code())
        elif event.button.id == "watch":
            self.action_watch()
        else:
            self.app.pop_screen()


class WaitingScreen(Screen[None]):
    """A table that has not started: its code, who is there, who is still awaited."""

    BINDINGS = [Binding("escape", "leave", "Leave the table")]

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code

    def compose(self) -> Any:
        with VerticalScroll(id="setup"):
            yield Static(f"[b]Table {self.code}[/b]", id="setup-title")
            yield Static(id="waiting")
        yield KeyFooter()

    def show(self, message: dict[str, Any]) -> None:
        lines = [f"{message['title']}: the game starts when every seat is taken.",
                 f"Give the others the code  {self.code}  (Join a table, then the code).", ""]
        for i, s in enumerate(message["seats"]):
            who = s["name"] or "(waiting for a player)"
            kind = "" if s["kind"] == "human" else f" — {s['kind']} bot"
            lines.append(f"  Seat {i + 1}: {who}{kind}")
        self.query_one("#waiting", Static).update("\n".join(lines))

    def action_leave(self) -> None:
        (self.app).leave_table()  # type: ignore[attr-defined]


class WebLoginScreen(Screen[None]):
    """A browser player's name and its passphrase (an SSH player gives them to ssh).

    A name nobody owns yet comes in with the table password and then chooses its
    passphrase (``ChoosePassphraseScreen``).
    """

    BINDINGS = [Binding("escape", "app.quit", "Quit")]

    def compose(self) -> Any:
        with VerticalScroll(id="setup"):
            yield Static("[b]railgames: sit down at the host's tables[/b]", id="setup-title")
            with Horizontal(classes="setup-row"):
                yield Label("Your name", classes="setup-label")
                yield Input("", placeholder="as the others will see it", id="name", max_length=24,
                            compact=True, classes="seat-name")
            with Horizontal(classes="setup-row"):
                yield Label("Password", classes="setup-label")
                yield Input("", placeholder="your passphrase", id="password", password=True,
                            compact=True, classes="seat-name")
            yield Static("A name of your own: its passphrase. A new name: the table password, "
                         "then you choose its passphrase.", id="setup-note")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Enter", id="enter", variant="primary", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "name":
            self.query_one("#password", Input).focus()
        else:
            self._enter()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._enter()

    def _enter(self) -> None:
        app: NetApp = self.app  # type: ignore[assignment]
        name = self.query_one("#name", Input).value.strip()
        password = self.query_one("#password", Input).value
        try:
            app.link.login(name, password, os.environ.get(PEER_ENV, ""))
        except Ended as exc:
            app.exit(1, message=f"railgames: {exc.reason}.")
            return
        except RailgamesError as exc:
            self.query_one("#setup-error", Static).update(
                Text(exc.reason[:1].upper() + exc.reason[1:], style="bold red"))
            return
        if app.link.choose:
            app.switch_screen(ChoosePassphraseScreen(web=True))
        else:
            app.logged_in()


class ChoosePassphraseScreen(Screen[None]):
    """A new name's first login: its player chooses the passphrase that makes it theirs.

    Shown before anything else; the host refuses every other request from this
    login until the passphrase is kept.
    """

    BINDINGS = [Binding("escape", "app.quit", "Quit")]
    DEFAULT_CSS = "ChoosePassphraseScreen #setup-note { margin-bottom: 1; }"

    def __init__(self, web: bool = False) -> None:
        super().__init__()
        self.web = web

    def compose(self) -> Any:
        name = self.app.link.name  # type: ignore[attr-defined]
        with VerticalScroll(id="setup"):
            yield Static(f"[b]Choose a passphrase for {name}[/b]", id="setup-title")
            yield Static(f"{name} is a new name on this host. Choose a passphrase to make it "
                         f"yours: from now on only that passphrase logs in as {name} (typed "
                         "as the password over SSH, or on the page in a browser); the table "
                         "password no longer does.", id="setup-note")
            with Horizontal(classes="setup-row"):
                yield Label("Choose it", classes="setup-label")
                yield Input("", placeholder="8 characters or more", id="passphrase",
                            password=True, compact=True, max_length=200, classes="seat-name")
            with Horizontal(classes="setup-row"):
                yield Label("Again", classes="setup-label")
                yield Input("", placeholder="the same again", id="again", password=True,
                            compact=True, max_length=200, classes="seat-name")
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Keep it", id="keep", variant="primary", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#passphrase", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "passphrase":
            self.query_one("#again", Input).focus()
        else:
            self._keep()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._keep()

    def _error(self, reason: str) -> None:
        self.query_one("#setup-error", Static).update(
            Text(reason[:1].upper() + reason[1:], style="bold red"))

    def _keep(self) -> None:
        app: NetApp = self.app  # type: ignore[assignment]
        first = self.query_one("#passphrase", Input)
        again = self.query_one("#again", Input)
        if first.value != again.value:
            first.value = again.value = ""
            first.focus()
            self._error("the two passphrases differ: type yours twice again")
            return
        try:
            app.link.claim(first.value)
        except Ended as exc:
            app.exit(1, message=f"railgames: {exc.reason}.")
            return
        except RailgamesError as exc:
            first.value = again.value = ""
            first.focus()
            self._error(exc.reason)
            return
        app.notify(f"{app.link.name} is yours: log in with your passphrase from now on.",
                   title="Passphrase kept")
        if self.web:
            app.logged_in()
        else:
            app.pop_screen()


class NetApp(RailgamesApp):
    """The app on one SSH terminal, reaching the host's tables through ``link``."""

    CSS_PATH = [str(Path(__file__).parent.parent / "app" / name)  # the hot-seat app's look
                for name in ("launcher.tcss", "app.tcss")]

    def __init__(self, link: RemoteLink, **kw: Any) -> None:
        super().__init__(handoff=False, **kw)
        self.link = link
        self.table_code: str | None = None
        self.remote_seat: RemoteSeat | None = None
        self._host_loop: asyncio.AbstractEventLoop | None = None  # the app's, once mounted
        self._refresh_due = False
        self._ended = False  # the host ended this session, and said why

    def get_default_screen(self) -> HomeScreen:  # type: ignore[override]
        # The player's tables are the bottom of the screen stack: back from a table (or a
        # hot-seat game) is back home.
        return HomeScreen()

    def notify(self, message: str, *args: Any, **kwargs: Any) -> None:
        """Every notice, with the host's own folders left out (see ``saves.shown``)."""
        from railgames.app.saves import shown

        super().notify(shown(str(message)), *args, **kwargs)

    def logged_in(self) -> None:
        """The browser player has given a name and the password: on to their tables."""
        from railgames.net.players import player_dir

        host_dir = os.environ.get("RAILGAMES_HOST_DIR")
        if host_dir:  # their own hot-seat saves, as over SSH
            os.environ["RAILGAMES_DATA_DIR"] = str(player_dir(Path(host_dir), self.link.name))
        self.pop_screen()  # the home screen, under the login, asks for their tables now

    def on_mount(self) -> None:
        super().on_mount()
        self._host_loop = asyncio.get_running_loop()
        self.link.listener = self._from_host
        if not self.link.name:  # a browser: who is this, and do they know the password?
            self.push_screen(WebLoginScreen())
        elif self.link.choose:  # a new name: its passphrase first
            self.push_screen(ChoosePassphraseScreen())

    def _from_host(self, message: dict[str, Any]) -> None:
        # Called on the link's reader thread: hand over to the app's loop without waiting
        # (the app thread may itself be waiting for this thread to deliver an answer).
        # (Until the app ends: Textual forgets its loop then, and nothing more is handed over.)
        loop = self._host_loop
        if loop is not None and compat.app_loop(self) is not None:
            # call_later runs it as a message of the app's, where the app is the active one.
            loop.call_soon_threadsafe(self.call_later, self._on_host_message, message)

    def _on_host_message(self, message: dict[str, Any]) -> None:
        if message.get("ev") == "kicked":
            self._ended = True
            self.exit(1, message=f"railgames: {message.get('reason', 'the host ended this session')}.")
            return
        if message.get("ev") == "gone":
            if not self._ended:
                self.exit(1, message="railgames: the host has gone away; connect again to go on.")
            return
        if message.get("ev") == "notice":
            self.show_notice(message)
            return
        if message.get("ev") == "home":  # one of this player's tables changed
            if isinstance(self.screen, HomeScreen):
                self.screen.reload()
            return
        if message.get("ev") in ("chat", "here"):  # the link keeps them; the screen reads it
            if message.get("code") == self.table_code:
                self._talk_changed()
            return
        if message.get("code") != self.table_code:
            return
        seat = self.remote_seat
        if seat is not None:
            # Several moves may arrive while the screen is busy: draw once, the latest.
            if seat.update(message) and not self._refresh_due:
                self._refresh_due = True
                self.call_later(self._refresh_game)
            return
        if "view" in message:
            self._open_remote(message)
        elif isinstance(self.screen, WaitingScreen):
            self.screen.show(message)

    # ------------------------------------------------------------ from the home screen
    def host_table(self) -> None:
        from railgames.games import playable_games

        self.push_screen(HostTableScreen(playable_games()[0].id))

    def join_table(self) -> None:
        self.push_screen(JoinTableScreen())

    def open_games(self) -> None:
        """The games on this terminal, hot seat (the launcher)."""
        self.push_screen(NetLauncherScreen())

    def show_notice(self, message: dict[str, Any]) -> None:
        """Something at another table: one line in a toast; the bell for a move of theirs,
        unless they switched it off for that table."""
        text = printable(str(message.get("text") or ""))[:200]
        if not text:
            return
        kind = message.get("kind")
        if kind == "your_move":
            if message.get("code") == self.table_code:
                return  # the table on the screen says so itself
            self.notify(text, title="Your move", timeout=10)
            if message.get("bell") is not False:
                self.bell()
        else:
            titles = {"invited": "Invited", "over": "Game over"}
            self.notify(text, title=titles.get(str(kind), "Notice"), timeout=10)

    def at_table(self, code: str) -> None:
        """We sit at (or watch) table ``code``: show it as soon as the host says how it is."""
        self.table_code = code
        self.remote_seat = None
        message = self.link.last_table
        if message is not None and message.get("code") == code and "view" in message:
            self._open_remote(message)
            return
        self._pop_to_launcher()
        waiting = WaitingScreen(code)
        self.push_screen(waiting)
        if message is not None and message.get("code") == code:
            self.call_after_refresh(waiting.show, message)

    def _open_remote(self, message: dict[str, Any]) -> None:
        from railgames.app.screens.game import GameScreen

        try:
            seat = RemoteSeat(self.link, message)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot open the table", severity="error")
            return
        self.remote_seat = seat
        self.session = seat  # type: ignore[assignment]
        self._pop_to_launcher()
        self.push_screen(GameScreen(seat, handoff=False))
        if seat.seat is None:
            self.notify("You are watching: you see what every player may see.", title="Watching")

    def _refresh_game(self) -> None:
        from railgames.app.screens.game import GameScreen

        self._refresh_due = False

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen.session is self.remote_seat:
                screen.refresh_all()

    def _talk_changed(self) -> None:
        from railgames.app.screens.game import GameScreen

        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen.session is self.remote_seat:
                screen.refresh_talk()

    def leave_table(self) -> None:
        if self.table_code is not None:
            try:
                self.link.request({"op": "leave"})
            except RailgamesError:
                pass
            self.link.forget(self.table_code)
        self.table_code = None
        self.remote_seat = None
        self._pop_to_launcher()

    def play_from(self, record: Any) -> None:
        """A game on this terminal (in the player's own saves on the host) from a finished
        table's moment: the table is left first, as for any game played here."""
        if self.remote_seat is not None or self.table_code is not None:
            self.leave_table()
        super().play_from(record)

    def to_launcher(self) -> None:
        if self.remote_seat is not None or self.table_code is not None:
            self.leave_table()
        else:
            super().to_launcher()


def printable(text: str) -> str:
    """``text`` without control characters (a notice is shown as it came)."""
    return "".join(c if c.isprintable() else " " for c in text)


def run(web: bool = False) -> int:
    import sys

    from railgames.net.remote import TABLES_ENV

    try:
        if web:
            link: RemoteLink | None = RemoteLink(os.environ.get(TABLES_ENV, ""), None)
        else:
            link = RemoteLink.from_env()
    except (OSError, RailgamesError) as exc:
        print(f"railgames: cannot reach the host's tables: {exc}", file=sys.stderr)
        return 1
    if link is None:
        print("railgames: this command is started by 'railgames host'", file=sys.stderr)
        return 2
    app = NetApp(link)
    try:
        app.run()
    finally:
        link.close()
    return int(app.return_code or 0)
