"""Continue: games in progress, newest first, and finished games apart.

Enter resumes a game exactly as it was left, or opens a finished one on its
final board and log. ``d`` deletes a save (after asking), ``r`` renames it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Static

from railgames.app.saves import (
    MAX_SAVE_NAME,
    SavedGame,
    SaveInUse,
    check_save_name,
    delete_save,
    list_saves,
    rename_save,
    where_saves_are,
)
from railgames.app.screens.guard import SCREENS_CSS, SizeGuard
from railgames.app.widgets.footer import KeyFooter
from railgames.core.errors import RailgamesError

if TYPE_CHECKING:
    from railgames.app.shell import GameShell


class RenameScreen(ModalScreen[str | None]):
    """Ask for a save's new name; dismisses with it, or None on Esc."""

    CSS_PATH = SCREENS_CSS

    DEFAULT_CSS = """
    RenameScreen { align: center middle; }
    RenameScreen > Vertical { width: 60; max-width: 95%; height: auto; border: thick $accent;
                              background: $surface; padding: 1 2; }
    RenameScreen #rename-error { color: $error; height: auto; }
    RenameScreen Horizontal { height: auto; margin-top: 1; }
    RenameScreen Button { margin-right: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> Any:
        with Vertical():
            yield Static(f"New name for the save [b]{self.current}[/b]:")
            yield Input(value=self.current, max_length=MAX_SAVE_NAME, id="rename-input")
            yield Static(id="rename-error")
            with Horizontal():
                yield Button("Rename", id="rename-ok", variant="primary")
                yield Button("Cancel", id="rename-cancel")

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        self.call_after_refresh(field.select_all)  # typing replaces the old name

    def _submit(self) -> None:
        value = self.query_one(Input).value
        try:
            name = check_save_name(value)
        except RailgamesError as exc:
            self.query_one("#rename-error", Static).update(Text(exc.reason[:1].upper() + exc.reason[1:]))
            return
        self.dismiss(name)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "rename-ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ContinueScreen(SizeGuard, Screen[None]):
    DEFAULT_CSS = """
    ContinueScreen .continue-heading { margin-top: 1; text-style: bold; }
    ContinueScreen #finished, ContinueScreen #damaged { height: auto; max-height: 1fr; }
    """
    # What the footer keeps on a short line, most important first.
    FOOTER_KEEP = ("app.pop_screen", "help", "delete", "rename")
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("d,delete", "delete", "Delete"),
        Binding("r", "rename", "Rename"),
        Binding("question_mark,f1", "help", "Help"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saves: list[SavedGame] = []  # in progress, in the order of the first table
        self.finished: list[SavedGame] = []  # in the order of the second table
        self.damaged: list[SavedGame] = []

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        # Players come last: on a narrow terminal the long column is the one cut.
        with Vertical(id="continue"):
            yield Static("[b]Continue a saved game[/b]", id="continue-title")
            yield Static("In progress", classes="continue-heading", id="saves-heading")
            yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            yield Static("Finished", classes="continue-heading", id="finished-heading")
            yield DataTable(id="finished", cursor_type="row", zebra_stripes=True)
            yield Static("Cannot be opened", classes="continue-heading", id="damaged-heading")
            yield DataTable(id="damaged", cursor_type="row", zebra_stripes=True)
            yield Static(id="continue-note")
        yield KeyFooter()

    def on_mount(self) -> None:
        live = self.query_one("#saves", DataTable)
        live.add_columns("Name", "Game", "Turn", "Last played", "Players")
        done = self.query_one("#finished", DataTable)
        done.add_columns("Name", "Game", "Winner", "Finished", "Players")
        self.query_one("#damaged", DataTable).add_columns("File", "Why")
        self.reload()

    def reload(self, keep: str | None = None) -> None:
        every = list_saves()
        self.saves = [s for s in every if s.problem is None and not s.finished]
        self.finished = [s for s in every if s.problem is None and s.finished]
        self.damaged = [s for s in every if s.problem is not None]
        live = self.query_one("#saves", DataTable)
        done = self.query_one("#finished", DataTable)
        bad = self.query_one("#damaged", DataTable)
        live.clear()
        done.clear()
        bad.clear()
        for save in self.saves:
            live.add_row(save.name, save.title, str(save.turn), save.last_played, save.players)
        for save in self.finished:
            done.add_row(save.name, save.title, save.winners, save.last_played, save.players)
        for save in self.damaged:
            bad.add_row(save.path.name, save.problem or "")
        bad.display = bool(self.damaged)
        self.query_one("#damaged-heading").display = bool(self.damaged)
        live.display = bool(self.saves)
        self.query_one("#saves-heading").display = bool(self.saves)
        done.display = bool(self.finished)
        self.query_one("#finished-heading").display = bool(self.finished)
        note = self.query_one("#continue-note", Static)
        if self.saves or self.finished or self.damaged:
            text = (f"Enter opens the chosen game; d deletes it, r renames it. "
                    f"Saves are kept {where_saves_are()}.")
        else:
            text = f"No saved games yet (they are kept {where_saves_are()})."
        note.update(Text(text))
        self._focus(keep)

    def _focus(self, name: str | None) -> None:
        for table_id, saves in self._tables():
            for row, save in enumerate(saves):
                if save.name == name:
                    table = self.query_one(table_id, DataTable)
                    table.focus()
                    table.move_cursor(row=row)
                    return
        for table_id, saves in self._tables():
            if saves:
                self.query_one(table_id, DataTable).focus()
                return

    def _tables(self) -> list[tuple[str, list[SavedGame]]]:
        return [("#saves", self.saves), ("#finished", self.finished), ("#damaged", self.damaged)]

    def chosen(self) -> SavedGame | None:
        """The save under the cursor of the table that has the focus."""
        focused = self.focused
        if not isinstance(focused, DataTable):
            return None
        saves = dict(self._tables()).get(f"#{focused.id}", [])
        row = focused.cursor_row
        return saves[row] if 0 <= row < len(saves) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("delete", "rename"):
            return bool(self.saves or self.finished or self.damaged)
        return True

    def action_help(self) -> None:
        from railgames.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(None))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        saves = dict(self._tables()).get(f"#{event.data_table.id}", [])
        if not 0 <= event.cursor_row < len(saves):
            return
        save = saves[event.cursor_row]
        if save.problem is not None:
            self.notify(f"{save.path.name}: {save.problem}", title="Cannot be opened",
                        severity="warning")
            return
        self.rapp.open_save(save.path)

    def action_delete(self) -> None:
        from railgames.app.screens.confirm import ConfirmScreen

        save = self.chosen()
        if save is None:
            return

        def answered(answer: str | None) -> None:
            if answer != "delete":
                return
            try:
                delete_save(save.path)
            except SaveInUse as exc:
                self.notify(f"Not deleted: {exc.reason}.", title="Delete", severity="warning")
                return
            except OSError as exc:
                self.notify(f"Not deleted: {exc.strerror or exc}", title="Delete", severity="error")
                return
            self.notify(f"Deleted {save.name}.", title="Delete")
            self.reload()

        if save.problem is not None:
            question = f"Delete {save.path.name}, which cannot be opened ({save.problem})?"
        else:
            what = "finished " if save.finished else ""
            question = f"Delete the {what}{save.title} game '{save.name}' ({save.players})?"
        self.app.push_screen(ConfirmScreen(
            question + " It cannot be brought back.",
            [("delete", "Delete", "y"), ("cancel", "Keep it", "n")]), answered)

    def action_rename(self) -> None:
        save = self.chosen()
        if save is None:
            return

        def answered(name: str | None) -> None:
            if name is None:
                return
            try:
                path = rename_save(save.path, name)
            except SaveInUse as exc:
                self.notify(f"Not renamed: {exc.reason}.", title="Rename", severity="warning")
                return
            except RailgamesError as exc:
                self.notify(f"Not renamed: {exc.reason}.", title="Rename", severity="warning")
                return
            except OSError as exc:
                self.notify(f"Not renamed: {exc.strerror or exc}", title="Rename", severity="error")
                return
            self.reload(keep=path.stem)

        self.app.push_screen(RenameScreen(save.name), answered)
