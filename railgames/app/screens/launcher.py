"""The launcher: the suite's games, and New game / Continue / Rules / Quit."""

from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from railgames import compat
from railgames.app.cards import GameCard, cached_cards, launcher_cards, placeholder_cards
from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from railgames.app.shell import GameShell

TITLE = r"""
 ┏━┓┏━┓╻╻  ┏━╸┏━┓┏┳┓┏━╸┏━┓
 ┣┳┛┣━┫┃┃  ┃╺┓┣━┫┃┃┃┣╸ ┗━┓
 ╹┗╸╹ ╹╹┗━╸┗━┛╹ ╹╹ ╹┗━╸┗━┛"""


class LauncherButton(compat.SkipsDefaultCSS, Button):
    """A Button styled as Textual styles one, by the rules for the two kinds the
    launcher has (the default and the primary variant, in the default style, in a
    terminal of full or of ANSI colours) and no others. Textual's own rules for every
    kind of button are four times as long, and parsing them was a sixth of the work
    before the launcher's first frame; the other screens' buttons still use them.
    It is a Button in every other way: type selectors naming Button (launcher.tcss)
    match it, and were Textual's rules loaded later they would style it the same."""

    DEFAULT_CSS = """
    LauncherButton:ansi.-style-default {
        border: tall $border-blurred;
        background: ansi_default;
        &:disabled {
            text-opacity: 1;
            text-style: bold dim;
            border: tall $border-blurred !important;
            background: ansi_default !important;
            pointer: not-allowed;
            &:hover { background: ansi_default; }
        }
        &:hover {
            background: $ansi-background;
            border: tall $border;
        }
        &.-active {
            background: $ansi-background !important;
            border: blank $background !important;
            tint: transparent;
        }
        &.-primary {
            color: $primary;
            border: tall $primary;
            background: ansi_default;
            &:hover { background: $ansi-background; }
        }
    }
    LauncherButton {
        width: auto;
        min-width: 16;
        height: auto;
        line-pad: 1;
        text-align: center;
        content-align: center middle;
        pointer: pointer;
        &.-style-default {
            text-style: bold;
            color: $button-foreground;
            background: $surface;
            border: none;
            border-top: tall $surface-lighten-1;
            border-bottom: tall $surface-darken-1;
            &.-textual-compact { border: none !important; }
            &:disabled {
                text-opacity: 0.6;
                pointer: not-allowed;
            }
            &:focus {
                text-style: $button-focus-text-style;
                background-tint: $foreground 5%;
            }
            &:hover {
                border-top: tall $surface;
                background: $surface-darken-1;
            }
            &.-active {
                background: $surface;
                border-bottom: tall $surface-lighten-1;
                border-top: tall $surface-darken-1;
                tint: $background 30%;
            }
            &.-primary {
                color: $button-color-foreground;
                background: $primary;
                border-top: tall $primary-lighten-3;
                border-bottom: tall $primary-darken-3;
                &:hover {
                    background: $primary-darken-2;
                    border-top: tall $primary;
                }
                &.-active {
                    background: $primary;
                    border-bottom: tall $primary-lighten-3;
                    border-top: tall $primary-darken-3;
                }
            }
        }
    }
    """

    SKIPPED_DEFAULT_CSS = ("Button.DEFAULT_CSS",)


def launcher_buttons() -> list[Button]:
    return [
        LauncherButton(Content("New game [n]"), id="new", variant="primary"),
        LauncherButton(Content("Continue [c]"), id="continue"),
        LauncherButton(Content("Demo [w]"), id="demo"),
        LauncherButton(Content("Learn [l]"), id="learn"),
        LauncherButton(Content("Quick tour [t]"), id="tour"),
        LauncherButton(Content("Rules [r]"), id="rules"),
        LauncherButton(Content("Quit [q]"), id="quit"),
    ]


class LauncherScreen(SizeGuard, compat.ScreenResumeHook, Screen[None]):
    CSS_PATH = None  # its rules are the app's own (launcher.tcss), there for the first frame
    # The buttons fit in 80 columns only at the width of their labels.
    DEFAULT_CSS = """
    LauncherScreen #launcher-buttons Button { min-width: 8; }
    """
    # Below 100 columns the Rules and Quit buttons make way (r and q, and the footer, remain).
    HORIZONTAL_BREAKPOINTS = [(0, "-cramped"), (100, "-roomy")]
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("new_game", "rules", "app.quit", "continue_game", "learn", "watch_demo",
                   "quick_tour")
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("c", "continue_game", "Continue"),
        Binding("w", "watch_demo", "Watch a demo"),
        Binding("t", "quick_tour", "Quick tour"),
        Binding("l", "learn", "Learn to play"),
        Binding("r,question_mark,f1", "rules", "Rules"),
        Binding("q", "app.quit", "Quit"),
    ]

    # Where the cards are not in the cache, they are worked out after the first frame,
    # in a thread, the list showing the titles meanwhile (None: so in a terminal, at
    # once in a headless app, as tests run it).
    CARDS_IN_BACKGROUND: bool | None = None

    def __init__(self) -> None:
        super().__init__()
        # Titles, facts and previews, without importing the games' rules (see cards.py).
        self.games: list[GameCard] = cached_cards() or []
        self.cards_pending = not self.games

    def _cards_now(self) -> None:
        """The cards, worked out here and now unless the first frame must not wait for them."""
        if not self.cards_pending:
            return
        background = self.CARDS_IN_BACKGROUND
        if background is None:
            background = not self.app.is_headless
        if background:
            self.games = placeholder_cards()
            # After the first frame is on the terminal: the thread would slow it down.
            self.call_after_refresh(self.run_worker, self._work_out_cards, thread=True,
                                    exclusive=True, group="cards")
        else:
            self.games = launcher_cards()
            self.cards_pending = False

    def _work_out_cards(self) -> None:
        cards = launcher_cards()  # writes the cache for the next start
        self.app.call_from_thread(self._cards_ready, cards)

    def _cards_ready(self, cards: list[GameCard]) -> None:
        self.games, self.cards_pending = cards, False
        try:
            games = self.query_one("#game-list", OptionList)
        except NoMatches:  # left meanwhile (a demo or a tour opened at once): nothing to show
            return  # them on (a screen being taken down is still attached, its list gone)
        index = games.highlighted or 0
        for i, card in enumerate(cards):
            if games.get_option_at_index(i).prompt != card.title:
                games.replace_option_prompt_at_index(i, card.title)
        self._show_details(index)

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        self._cards_now()
        with Vertical(id="launcher"):
            yield Static(Text(TITLE.strip("\n"), style="bold"), id="title")
            yield Static("Railway board games for one shared keyboard.", id="subtitle")
            with Horizontal(id="launcher-main"):
                yield OptionList(
                    *[Option(g.title, id=g.id) for g in self.games], id="game-list"
                )
                yield Static(id="game-details")
            with Horizontal(id="launcher-buttons"):
                # Made outside the app's context: a Button restyles itself twice as it is
                # made (its variant, its flatness), before it is even mounted, when an app
                # is running; mounted, it is styled once, the same (a test checks).
                yield from contextvars.Context().run(launcher_buttons)
        yield KeyFooter()

    _shown_before = False

    def before_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual styles a screen that comes to the top again, every node of it. When the
        # launcher first shows, each node was styled as it was mounted, a moment before:
        # doing it all again changes nothing (a test checks) and would be a good part of
        # the work before the app's first frame. Later (back from a game, say, with
        # app.tcss loaded meanwhile) it is styled again as usual. Textual calls this
        # before Screen's own handler, which reads the flag.
        if not self._shown_before:
            self._shown_before = True
            event.refresh_styles = False

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
                   "rules": self.action_rules, "demo": self.action_watch_demo,
                   "tour": self.action_quick_tour, "learn": self.action_learn, "quit": self.app.exit}
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

    def action_quick_tour(self) -> None:
        """Every rule of the game once, in under three minutes (the viewer over a tour)."""
        self.notify("Bots are playing the games of the tour…", timeout=2)
        self.call_after_refresh(self.rapp.start_tour, self.selected)

    def action_learn(self) -> None:
        """The selected game's tutorial: a game against bots, played with a lesson at each step."""
        self.notify("Setting up the tutorial…", timeout=2)
        self.call_after_refresh(self.rapp.start_tutorial, self.selected)

    def action_rules(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.selected))
