"""What the screens may ask of the app that holds them.

The screens type the app they run in as this protocol, never as the app class
itself: the app imports the screens, and this module imports none, so there is
no circle between them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from railgames.core.record import GameRecord, PlayerSpec
    from railgames.tables.table import Table


@runtime_checkable
class GameShell(Protocol):
    bot_delay: float  # seconds a bot "thinks" before it moves (0: at once)
    handoff_default: bool  # whether new games show hand-off screens between people

    def start_new(self, game_id: str, players: list[PlayerSpec], seed: int,
                  handoff: bool | None = None) -> None: ...

    def resume(self, record: GameRecord, path: Path | None = None) -> None: ...

    def play_from(self, record: GameRecord) -> None: ...

    def load_file(self, path: str | Path) -> None: ...

    def to_launcher(self) -> None: ...

    def show_game_over(self, session: Table) -> None: ...

    def show_final_board(self, session: Table) -> None: ...

    def open_viewer(self, record: GameRecord, kind: str, speed: float = 1.0, start: int = 0,
                    playing: bool = True) -> None: ...

    def start_demo(self, game_id: str) -> None: ...

    def start_tour(self, game_id: str) -> None: ...

    def start_tutorial(self, game_id: str) -> None: ...

    def show_recording_over(self, viewer: Any) -> None: ...
