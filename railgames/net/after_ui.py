"""After the game, on a host's terminal: the archive of your finished games, and your page.

``ArchiveScreen`` lists the finished games you played, newest first. Enter opens one
(its scores; ``v`` steps through the whole game), ``e`` puts it in your saves on
the host, ``r`` sets up the same table again and invites the others.
``PlayerScreen`` shows the games you (or another player) played and won, and a
rating per game. Both ask the host (``railgames.net.after``) for what they show.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from railgames.app.screens.game_over import GameOverScreen
from railgames.app.screens.guard import SizeGuard
from railgames.app.screens.help import HelpScreen
from railgames.app.widgets.footer import KeyFooter
from railgames.core.errors import RailgamesError

ARCHIVE_HELP = """\
# Your finished games

Every game you finished at this host stays here, newest first, with each player's
final score and place (★ marks the winners; equal scores share a place).

- **↑↓** pick a game; **Enter** opens it: its final scores, and **v** steps through the
  whole game from the first move (everything is shown now that it is over).
- **e** exports it: the game goes into your saves on the host, where **Continue a game**
  of the games on your own keyboard opens it. `ssh -p PORT NAME@HOST export CODE`
  prints the same saved game on your own computer.
- **r** plays it again: a new table with the same game, board, seats, options and
  pace, which only the players of this one may join. They are told; you wait at it
  for them. Pressed again (by you or another of its players), it is the same table.
- **F5** asks the host again; **Esc** goes back; **?** this help.
"""

PLAYER_HELP = """\
# A player's page

For each game: the finished games played at this host, how many were won (equal
best scores each count as a win), and a rating.

**Rating**: everyone starts at 1000. It goes up when you finish ahead of other
people and down when they finish ahead of you, more so against players rated
above you. It counts only games where every seat was a person's (a table with a
bot seat counts as played, not rated; a seat a bot played for while its person was
away or out of time still counts as that person's). It is a cautious estimate: the
host rates you a little lower while it has seen few of your games, so it also
rises as you play. Each game has its own rating.

- **n** types another player's name (Enter shows their page; Esc goes back to yours).
- **Esc** goes back; **?** this help.
"""


class AfterHelpScreen(HelpScreen):
    """Help for a screen of this module: its own text, in the rules help's frame."""

    def __init__(self, text: str) -> None:
        super().__init__(None)
        self.text = text

    def compose(self) -> Any:
        from textual.containers import VerticalScroll

        with VerticalScroll(id="help-body"):
            yield Markdown(self.text, id="help-rules")
        yield KeyFooter()


def when(text: str) -> str:
    """An ISO time as a player reads it: "28 Nov 2026 17:40"."""
    try:
        stamp = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return str(text)[:20]
    return f"{stamp.day} {stamp:%b %Y %H:%M}"


def ordinal(n: int | None) -> str:
    if n is None:
        return "?"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def archive_line(row: dict[str, Any]) -> str:
    """One finished game in the list: "HWNB  Steel Driver · 1st of 3 · 28 Nov 2026 17:40"."""
    mark = "★" if row["won"] else " "
    return (f"{mark} {row['code']}  {row['title']} · {ordinal(row['place'])} of {row['of']} · "
            f"{when(row['ended'])}")


def standings_text(row: dict[str, Any]) -> Text:
    """The chosen game: its board and end, then each player's place and score."""
    text = Text(f"{row['title']} on {row['board']}, ended {when(row['ended'])} (UTC). "
                f"Table {row['code']}.\n", style="bold")
    for i, p in enumerate(row["players"]):
        if i:
            text.append("   ")
        who = p["name"] + ("" if p["kind"] == "human" else " (bot)")
        text.append(f"{ordinal(p['place'])} {'★ ' if p['winner'] else ''}{who} {p['score']}",
                    style="bold" if p["seat"] == row["seat"] else "")
    return text


class ArchivedGameOver(GameOverScreen):
    """A finished game opened from the archive: Enter or Esc goes back to the archive."""

    BINDINGS = [Binding("enter,escape", "launcher", "Archive")]

    def __init__(self, session: Any, code: str) -> None:
        super().__init__(session)
        self.code = code

    def action_launcher(self) -> None:
        if self._run is not None:  # Esc stops a review under way
            self._stop_review("Review stopped.")
            return
        napp: Any = self.app
        try:
            napp.link.request({"op": "leave"})
        except RailgamesError:
            pass
        napp.link.forget(self.code)
        if napp.table_code == self.code:
            napp.table_code = None
            napp.remote_seat = None
        self.app.pop_screen()


class ArchiveScreen(SizeGuard, Screen[None]):
    MIN_SIZE = (60, 20)
    FOOTER_KEEP = ("app.pop_screen", "export", "again", "help", "reload")
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("e", "export", "Export"),
        Binding("r", "again", "Play again"),
        Binding("f5,ctrl+r", "reload", "Refresh"),
        Binding("question_mark,f1", "help", "Help"),
    ]
    DEFAULT_CSS = """
    ArchiveScreen #archive { height: 1fr; }
    ArchiveScreen #archive-detail { height: auto; max-height: 6; margin-top: 1; }
    ArchiveScreen #archive-status { height: auto; max-height: 2; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, Any]] = []

    @property
    def napp(self) -> Any:
        return self.app

    def compose(self) -> Any:
        with Vertical(id="setup"):
            yield Static("[b]Your finished games[/b]  (Enter opens one, ? help)",
                         id="setup-title")
            yield OptionList(id="archive")
            yield Static(id="archive-detail")
            yield Static(id="archive-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.action_reload()
        self.query_one("#archive", OptionList).focus()

    def action_reload(self) -> None:
        try:
            self.rows = list(self.napp.link.request({"op": "archive"})["games"])
        except RailgamesError as exc:
            self.say(exc.reason, error=True)
            return
        options = self.query_one("#archive", OptionList)
        options.clear_options()
        for row in self.rows:
            options.add_option(Option(archive_line(row), id=row["code"]))
        if not self.rows:
            options.add_option(Option("No finished games yet: they stay here once over.",
                                      disabled=True))
        else:
            options.highlighted = 0
        self._detail()

    def _chosen(self) -> dict[str, Any] | None:
        options = self.query_one("#archive", OptionList)
        if options.highlighted is None or not self.rows:
            return None
        return self.rows[min(options.highlighted, len(self.rows) - 1)]

    def _detail(self) -> None:
        row = self._chosen()
        self.query_one("#archive-detail", Static).update(
            standings_text(row) if row is not None else "")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_open()

    def say(self, text: str, error: bool = False) -> None:
        line = text[:1].upper() + text[1:]
        self.query_one("#archive-status", Static).update(
            Text(line, style="bold red" if error else "bold"))

    def action_open(self) -> None:
        """Sit at the finished table again (your own seat) and show its final scores."""
        from railgames.tables.remote import RemoteSeat

        row = self._chosen()
        if row is None:
            return
        code = str(row["code"])
        napp = self.napp
        try:
            napp.link.request({"op": "join", "code": code})
            message = napp.link.last_table
            if message is None or message.get("code") != code or "view" not in message:
                raise RailgamesError("the host has not sent that game")
            seat = RemoteSeat(napp.link, message)
        except RailgamesError as exc:
            self.say(exc.reason, error=True)
            return
        # The app routes this table's messages to this seat from now on (not to a new
        # game screen): set before any of them is handled.
        napp.table_code, napp.remote_seat = code, seat
        self.app.push_screen(ArchivedGameOver(seat, code))

    def action_export(self) -> None:
        row = self._chosen()
        if row is None:
            return
        try:
            answer = self.napp.link.request({"op": "export", "code": row["code"]})
        except RailgamesError as exc:
            self.say(exc.reason, error=True)
            return
        self.say(str(answer.get("text", "exported")))

    def action_again(self) -> None:
        row = self._chosen()
        if row is None:
            return
        try:
            answer = self.napp.link.request({"op": "again", "code": row["code"]})
        except RailgamesError as exc:
            self.say(exc.reason, error=True)
            return
        code = str(answer["code"])
        if answer.get("new"):
            self.app.notify(f"Table {code} is set up again; the others are invited.",
                            title="Play again")
        self.napp.at_table(code)

    def action_help(self) -> None:
        self.app.push_screen(AfterHelpScreen(ARCHIVE_HELP))


class PlayerScreen(SizeGuard, Screen[None]):
    """A player's page (yours unless ``name`` is given): per game, played, won, rating."""

    MIN_SIZE = (60, 20)
    AUTO_FOCUS = ""  # the name box takes keys only once n opens it
    FOOTER_KEEP = ("back", "name", "help")
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("n", "name", "Another player"),
        Binding("question_mark,f1", "help", "Help"),
    ]
    DEFAULT_CSS = """
    PlayerScreen #player-name { width: 30; display: none; }
    PlayerScreen #player-name.asking { display: block; }
    PlayerScreen #player-status { height: 1; }
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__()
        self.name_asked = name
        self.page: dict[str, Any] | None = None

    @property
    def napp(self) -> Any:
        return self.app

    def compose(self) -> Any:
        with Vertical(id="setup"):
            yield Static(id="setup-title")
            yield Input("", placeholder="a player's name, then Enter", id="player-name",
                        max_length=24, compact=True, restrict=r"[A-Za-z0-9_.-]*")
            yield Static(id="player-games")
            yield Static(id="player-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.show(self.name_asked)

    def show(self, name: str | None) -> None:
        request: dict[str, Any] = {"op": "player"}
        if name:
            request["name"] = name
        try:
            page = self.napp.link.request(request)
        except RailgamesError as exc:
            self.query_one("#player-status", Static).update(
                Text(exc.reason[:1].upper() + exc.reason[1:], style="bold red"))
            return
        self.page = page
        self.name_asked = name
        mine = page["name"].lower() == str(self.napp.link.name).lower()
        title = "Your page" if mine else f"{page['name']}'s page"
        self.query_one("#setup-title", Static).update(
            Text.assemble((title, "bold"), "  (? says what the rating means)"))
        self.query_one("#player-games", Static).update(games_table(page, mine))
        self.query_one("#player-status", Static).update("")

    def action_name(self) -> None:
        box = self.query_one("#player-name", Input)
        box.add_class("asking")
        box.value = ""
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        event.input.remove_class("asking")
        self.set_focus(None)
        self.show(name or None)

    def action_back(self) -> None:
        box = self.query_one("#player-name", Input)
        if box.has_class("asking"):
            box.remove_class("asking")
            self.set_focus(None)
            return
        if self.name_asked and self.page is not None \
                and self.page["name"].lower() != str(self.napp.link.name).lower():
            self.show(None)  # from another player's page back to yours
            return
        self.app.pop_screen()

    def action_help(self) -> None:
        self.app.push_screen(AfterHelpScreen(PLAYER_HELP))


def games_table(page: dict[str, Any], mine: bool) -> RichTable | Text:
    games = page["games"]
    if not games:
        who = "You have" if mine else f"{page['name']} has"
        return Text(f"{who} finished no game at this host yet.")
    table = RichTable(expand=False, padding=(0, 1), box=None, header_style="bold")
    table.add_column("Game")
    table.add_column("Played", justify="right")
    table.add_column("Won", justify="right")
    table.add_column("Rating", justify="right")
    table.add_column("", style="dim")
    for g in games:
        rating = "—" if g["rating"] is None else str(g["rating"])
        note = ("no game between people yet" if g["rating"] is None
                else f"from {g['rated']} game{'' if g['rated'] == 1 else 's'} between people")
        table.add_row(g["title"], str(g["played"]), str(g["won"]), rating, note)
    return table
