"""The railgames Textual app, and ``run_app`` which the command line calls."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual.app import App

from railgames.app.saves import saves_dir
from railgames.app.screens.launcher import LauncherScreen
from railgames.app.session import Session
from railgames.core.errors import RailgamesError
from railgames.core.record import GameRecord, PlayerSpec, load_record

BOT_DELAY_ENV = "RAILGAMES_BOT_DELAY"
DEFAULT_BOT_DELAY = 0.7  # seconds a bot "thinks", so people can follow its moves


def _env_delay() -> float:
    try:
        return max(0.0, float(os.environ.get(BOT_DELAY_ENV, DEFAULT_BOT_DELAY)))
    except ValueError:
        return DEFAULT_BOT_DELAY


class RailgamesApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "railgames"

    def __init__(
        self,
        new_game: dict[str, Any] | None = None,
        load_path: str | Path | None = None,
        *,
        bot_delay: float | None = None,
        handoff: bool = True,
    ) -> None:
        super().__init__()
        self.new_game = new_game
        self.load_path = load_path
        self.bot_delay = _env_delay() if bot_delay is None else bot_delay
        self.handoff_default = handoff
        self.session: Session | None = None

    def on_mount(self) -> None:
        self.push_screen(LauncherScreen())
        if self.load_path is not None:
            self.load_file(self.load_path)
        elif self.new_game:
            self._start_from_command_line(self.new_game)

    def _start_from_command_line(self, spec: dict[str, Any]) -> None:
        from railgames.app.screens.setup import SetupScreen

        game_id = spec["game"]
        players: list[PlayerSpec] | None = spec.get("players")
        seed = spec.get("seed")
        if players:
            import random

            try:
                self.start_new(game_id, players, seed if seed is not None else random.randrange(1, 1_000_000))
                return
            except RailgamesError as exc:
                self.notify(exc.reason, title="Cannot start", severity="error")
        self.push_screen(SetupScreen(game_id, players, seed))

    # ------------------------------------------------------------ opening games
    def start_new(self, game_id: str, players: list[PlayerSpec], seed: int,
                  handoff: bool | None = None) -> None:
        """Raises IllegalAction (wrong player count, same names) before anything changes."""
        session = Session.new(game_id, players, seed)
        if handoff is not None:
            self.handoff_default = handoff
        self._save_quietly(session)
        self._open(session)

    def resume(self, record: GameRecord, path: Path | None = None) -> None:
        try:
            session = Session.resume(record, save_path=path)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot resume", severity="error")
            return
        self._open(session)

    def load_file(self, path: str | Path) -> None:
        path = Path(path)
        try:
            record = load_record(path)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot load", severity="error")
            return
        # A file from elsewhere is left as it is; the game goes on in a save of its own.
        inside = path.resolve().parent == saves_dir().resolve()
        self.resume(record, path if inside else saves_dir() / path.name)

    def _save_quietly(self, session: Session) -> None:
        try:
            session.save()
        except OSError as exc:
            self.notify(f"The game could not be saved: {exc}", severity="error")

    def _open(self, session: Session) -> None:
        from railgames.app.screens.game import GameScreen

        self.session = session
        self._pop_to_launcher()
        self.push_screen(GameScreen(session, handoff=self.handoff_default))

    # ------------------------------------------------------------ moving between screens
    def _pop_to_launcher(self) -> None:
        while len(self.screen_stack) > 2:
            self.pop_screen()

    def to_launcher(self) -> None:
        self._pop_to_launcher()

    def show_game_over(self, session: Session) -> None:
        from railgames.app.screens.game_over import GameOverScreen

        def switch() -> None:
            self._pop_to_launcher()
            self.push_screen(GameOverScreen(session))

        self.call_later(switch)


def run_app(new_game: dict[str, Any] | None = None, load_path: str | None = None) -> int:
    app = RailgamesApp(new_game=new_game, load_path=load_path)
    app.run()
    return int(app.return_code or 0)
