"""Between two human seats: hide the game and name who takes the keyboard next."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Footer, Static

from railgames.app.palette import player_style


class HandoffScreen(Screen[str | None]):
    DEFAULT_CSS = """
    HandoffScreen #handoff-box { width: 56; max-width: 95%; height: auto; border: heavy $accent;
                                 padding: 1 2; content-align: center middle; text-align: center; }
    """
    BINDINGS = [
        Binding("enter,space", "ready", "I'm ready"),
        Binding("u", "take_back", "Undo my move"),
    ]

    def __init__(self, name: str, seat: int, letter: str, note: str = "",
                 previous: str | None = None) -> None:
        super().__init__()
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
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.previous is not None if action == "take_back" else True

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_take_back(self) -> None:
        self.dismiss("undo")
