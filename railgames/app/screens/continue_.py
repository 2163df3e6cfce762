"""Continue: the saved games, newest first; Enter resumes one exactly as it was left."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from railgames.app.saves import SavedGame, list_saves, saves_dir

if TYPE_CHECKING:
    from railgames.app.shell import GameShell


class ContinueScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self) -> None:
        super().__init__()
        self.saves: list[SavedGame] = []

    @property
    def rapp(self) -> GameShell:
        return self.app  # type: ignore[return-value]

    def compose(self) -> Any:
        with Vertical(id="continue"):
            yield Static("[b]Continue a saved game[/b]", id="continue-title")
            yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            yield Static(id="continue-note")
        yield Footer()

    def on_mount(self) -> None:
        every = list_saves()
        self.saves = [s for s in every if s.problem is None]
        damaged = [s for s in every if s.problem is not None]
        table = self.query_one(DataTable)
        table.add_columns("Game", "Players", "Turn", "Last played")
        for save in self.saves:
            turn = "over" if save.finished else str(save.turn)
            table.add_row(save.title, save.players, turn, save.last_played)
        note = self.query_one("#continue-note", Static)
        if self.saves:
            text = f"Enter resumes the chosen game. Saves are kept in {saves_dir()}."
        else:
            text = f"No saved games yet (they are kept in {saves_dir()})."
        for save in damaged:  # listed, not offered: they cannot be resumed
            text += f"\nSkipped {save.path.name}: {save.problem}"
        note.update(Text(text))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        save = self.saves[event.cursor_row]
        if save.record is not None:
            self.rapp.resume(save.record, save.path)
