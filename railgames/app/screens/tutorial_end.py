"""The end of a tutorial: how many rules came up, any that did not, and a real game to play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Static

from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from railgames.app.shell import GameShell
    from railgames.tables.coached import Lesson


class TutorialEndScreen(SizeGuard, Screen[None]):
    DEFAULT_CSS = """
    TutorialEndScreen { align: center middle; }
    TutorialEndScreen > Vertical { width: 76; max-width: 100%; height: auto; max-height: 100%;
                                   border: thick $success; padding: 0 1; }
    TutorialEndScreen #te-body { height: auto; max-height: 14; }
    TutorialEndScreen #te-buttons { height: auto; margin-top: 1; }
    TutorialEndScreen Button { margin-right: 2; }
    """
    BINDINGS = [
        Binding("p", "play", "Play a real game"),
        Binding("b,escape", "launcher", "Launcher"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, game_id: str, lesson: Lesson) -> None:
        super().__init__()
        self.game_id = game_id
        self.lesson = lesson

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        from railgames.games import ruleset_class

        title = ruleset_class(self.game_id).title
        lesson = self.lesson
        body = [f"You have played the {title} tutorial to its end. " + " ".join(lesson.lines)]
        if lesson.untaught:
            body.append("Rules that did not come up in your game:")
            body.extend(f"• {line}" for line in lesson.untaught)
        body.append("Ready for a real game? Set one up against bots or friends.")
        with Vertical():
            yield Static(Content.from_markup("[b]Tutorial finished[/b]"))
            with VerticalScroll(id="te-body"):
                yield Static("\n".join(body))
            with Horizontal(id="te-buttons"):
                yield Button(Content("Play a real game [p]"), id="te-play", variant="success")
                yield Button(Content("Launcher [b]"), id="te-launcher")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#te-play", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "te-play":
            self.action_play()
        else:
            self.action_launcher()

    def action_play(self) -> None:
        from railgames.app.screens.setup import SetupScreen

        self.rapp.to_launcher()
        self.app.push_screen(SetupScreen(self.game_id))

    def action_launcher(self) -> None:
        self.rapp.to_launcher()
