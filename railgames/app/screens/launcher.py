"""The launcher: the suite's games, and New game / Continue / Rules / Quit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from railgames.app.cards import launcher_cards
from railgames.app.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from railgames.app.shell import GameShell

TITLE = r"""
 ┏━┓┏━┓╻╻  ┏━╸┏━┓┏┳┓┏━╸┏━┓
 ┣┳┛┣━┫┃┃  ┃╺┓┣━┫┃┃┃┣╸ ┗━┓
 ╹┗╸╹ ╹╹┗━╸┗━┛╹ ╹╹ ╹┗━╸┗━┛"""


class LauncherScreen(Screen[None]):
    # Five buttons fit in 80 columns only at the width of their labels.
    DEFAULT_CSS = """
    LauncherScreen #launcher-buttons Button { min-width: 8; }
    """
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("c", "continue_game", "Continue"),
        Binding("w", "watch_demo", "Watch a demo"),
        Binding("r,question_mark,f1", "rules", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        # Titles, facts and previews, without importing the games' rules (see cards.py).
        self.games = launcher_cards()

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        with Vertical(id="launcher"):
            yield Static(Text(TITLE.strip("\n"), style="bold"), id="title")
            yield Static("Railway board games for one shared keyboard.", id="subtitle")
            with Horizontal(id="launcher-main"):
                yield OptionList(
                    *[Option(g.title, id=g.id) for g in self.games], id="game-list"
                )
                yield Static(id="game-details")
            with Horizontal(id="launcher-buttons"):
                yield Button("New game [n]", id="new", variant="primary")
                yield Button("Continue [c]", id="continue")
                yield Button("Watch a demo [w]", id="demo")
                yield Button("Rules [r]", id="rules")
                yield Button("Quit [q]", id="quit")
        yield KeyFooter()

    def on_mount(self) -> None:
        games = self.query_one("#game-list", OptionList)
        games.highlighted = 0
        games.focus()
        self._show_details(0)

    @property
    def selected(self) -> str:
        index = self.query_one("#game-list", OptionList).highlighted or 0
        return self.games[index].id

    def _show_details(self, index: int) -> None:
        self.query_one("#game-details", Static).update(self.games[index].details.copy())

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_details(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_new_game()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"new": self.action_new_game, "continue": self.action_continue_game,
                   "rules": self.action_rules, "demo": self.action_watch_demo, "quit": self.app.exit}
        actions[event.button.id or "quit"]()

    def action_new_game(self) -> None:
        from railgames.app.screens.setup import SetupScreen

        self.app.push_screen(SetupScreen(self.selected))

    def action_continue_game(self) -> None:
        from railgames.app.screens.continue_ import ContinueScreen

        self.app.push_screen(ContinueScreen())

    def action_watch_demo(self) -> None:
        self.notify("Bots are playing the game for the demo…", timeout=2)
        self.call_after_refresh(self.rapp.start_demo, self.selected)

    def action_rules(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.selected))
