"""Between two human seats: hide the game and name who takes the keyboard next."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from railgames.app.palette import player_style
from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.footer import KeyFooter

QUIT_QUESTION = ("Stop playing? The game is saved after every action; "
                 "choose Continue in the launcher to pick it up again.")
QUIT_BUTTONS = [("quit", "Quit", "y"), ("menu", "Launcher", "l"), ("cancel", "Keep playing", "n")]


class HandoffScreen(SizeGuard, Screen[str | None]):
    DEFAULT_CSS = """
    HandoffScreen #handoff-box { width: 56; max-width: 95%; height: auto; border: heavy $accent;
                                 padding: 1 2; content-align: center middle; text-align: center; }
    """
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("ready", "take_back", "help", "quit_game")
    BINDINGS = [
        Binding("enter,space", "ready", "I'm ready"),
        Binding("u", "take_back", "Undo my move"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q,escape", "quit_game", "Quit"),
    ]

    def __init__(self, name: str, seat: int, letter: str, note: str = "",
                 previous: str | None = None, game_id: str | None = None) -> None:
        super().__init__()
        self.game_id = game_id
        self.player = name
        self.seat = seat
        self.letter = letter
        self.note = note
        self.previous = previous  # who is still at the keyboard, and may take back their move

    def compose(self) -> Any:
        text = Text(justify="center")
        text.append("Pass the keyboard to\n\n")
        text.append(f" {self.letter} ", style="reverse " + player_style(self.seat))
        text.append(f" {self.player}", style=player_style(self.seat))
        if self.note:
            text.append(f"\n\n{self.note}")
        text.append("\n\nPress Enter when you are ready.", style="dim")
        if self.previous:
            text.append(f"\n{self.previous}: press u to take back your move.", style="dim")
        with Middle(), Center():
            yield Static(text, id="handoff-box")
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if SizeGuard.check_action(self, action, parameters) is False:
            return False
        if action == "help":
            return self.game_id is not None
        return self.previous is not None if action == "take_back" else True

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        if self.game_id is not None:  # the rules only: nothing of anyone's hand shows
            self.app.push_screen(HelpScreen(self.game_id))

    def action_quit_game(self) -> None:
        from railgames.app.screens.confirm import ConfirmScreen

        def chosen(answer: str | None) -> None:
            if answer == "quit":
                self.app.exit(0)
            elif answer == "menu":
                self.app.to_launcher()  # type: ignore[attr-defined]

        self.app.push_screen(ConfirmScreen(QUIT_QUESTION, QUIT_BUTTONS), chosen)

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_take_back(self) -> None:
        self.dismiss("undo")
