"""A small yes/no question over the current screen."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from railgames.app.screens.guard import SizeGuard


class ConfirmScreen(SizeGuard, ModalScreen[str | None]):
    """Dismisses with the id of the chosen button, or None on Esc."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 60; max-width: 95%; height: auto; border: thick $warning;
                               background: $surface; padding: 1 2; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS = [Binding("escape,n", "dismiss_none", "Cancel")]

    def __init__(self, question: str, buttons: list[tuple[str, str, str]]) -> None:
        """``buttons``: (id, label, key) — the key chooses that button."""
        super().__init__()
        self.question = question
        self.buttons = buttons

    def compose(self) -> Any:
        with Vertical():
            yield Static(self.question)
            with Horizontal():
                for i, (bid, label, key) in enumerate(self.buttons):
                    yield Button(Content(f"{label} [{key}]"), id=bid, variant="warning" if i == 0 else "default")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_key(self, event: Any) -> None:
        for bid, _, key in self.buttons:
            if event.key == key:
                event.stop()
                self.dismiss(bid)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
