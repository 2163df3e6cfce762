"""Rules help: the game's rules in the project's words, and what the current step asks."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from railgames.app.screens.guard import SizeGuard
from railgames.app.widgets.footer import KeyFooter
from railgames.games import help_text

KEYS_HELP = """\
# Keys

- **Launcher**: ↑↓ pick a game, **n** or Enter new game, **c** continue a saved game,
  **w** watch a demo (bots play a whole game, every rule explained as it is used),
  **t** a quick tour (every rule once, in under three minutes, the actions between
  skipped), **r** or **?** the rules, **q** quit.
- **Demo or tour**: space pause, → and ← one action (in a tour: one stop) on and back,
  **n** the next new rule, **d** (in a tour) a whole demo, **?** all the keys, Esc leave.
- **Setting up**: Tab moves between fields (Enter in a name too); the game starts only
  with the Start button or **ctrl+s**; Esc goes back.
- **Continue**: ↑↓ pick a save, Enter resumes it; Esc goes back.
- **Playing**: arrows (or hjkl) move on the board, Enter chooses, Tab goes board → choices
  → log, Esc steps back out of a choice, **l** (**L** on the board) the whole log,
  **u** undo, **s** save, **v** the game's history, **H** a hint on your move (again: the
  top three choices), **?** help, **q** quit. On a terminal smaller than 110×34 the map
  comes first: **i** shows or folds the players and the key.
- **Hand-off**: Enter when the named player has the keyboard; **q** or Esc to stop.
- **Game over**: **b** the final board, **l** the whole log, **n** a new game,
  **R** a review of your game, Enter the launcher, **q** quit.
- **Review**: **n** / **N** the next or previous costly decision, **t** try again from
  it (a new game, you against bots), → ← one action, **j** a turn, Esc back.
- **Logs**: ↑↓, PgUp/PgDn, Home/End scroll.

A terminal smaller than a screen needs shows one line saying how big to make it.
"""


def rules_text(game_id: str | None) -> str:
    if game_id is None:
        return KEYS_HELP
    text = help_text(game_id)
    return "No rules help has been written for this game yet." if text is None else text


class HelpScreen(SizeGuard, ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen #help-body { width: 100; max-width: 100%; height: 1fr; border: round $accent;
                            background: $surface; padding: 0 1; }
    HelpScreen #help-now { border: tall $warning; padding: 0 1; margin-bottom: 1; height: auto; }
    """
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("close",)
    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close help"),
        Binding("j", "scroll(1)", "Down", show=False),
        Binding("k", "scroll(-1)", "Up", show=False),
    ]

    def __init__(self, game_id: str | None, step: str | None = None,
                 step_help: str | None = None, table_keys: str | None = None) -> None:
        """``table_keys``: the keys only this table has (its chat, at a host's table)."""
        super().__init__()
        self.game_id = game_id
        self.step = step
        self.step_help = step_help
        self.table_keys = table_keys

    def compose(self) -> Any:
        with VerticalScroll(id="help-body"):
            if self.step:
                yield Static(f"[b]Now: {self.step}[/b]\n{self.step_help or ''}".rstrip(),
                             id="help-now")
            if self.table_keys:
                yield Markdown(self.table_keys, id="help-table")
            yield Markdown(rules_text(self.game_id), id="help-rules")
            if self.game_id is not None:  # the keys of every screen, after the rules
                yield Markdown(KEYS_HELP, id="help-keys")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-body", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
