"""The railgames Textual app, and ``run_app`` which the command line calls."""

from __future__ import annotations

import asyncio
import gc
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App

from railgames import compat
from railgames.app import css_cache, layout_once
from railgames.app.key_queue import KeyQueue
from railgames.app.screen_diff import ScreenDiff
from railgames.app.screens.launcher import LauncherScreen
from railgames.core.errors import RailgamesError

if TYPE_CHECKING:
    # The rules engine, records and saves (pydantic) load with the first game, not
    # before the launcher is on the screen.
    from railgames.core.record import GameRecord, PlayerSpec
    from railgames.tables.local import Session
    from railgames.tables.table import Table

BOT_DELAY_ENV = "RAILGAMES_BOT_DELAY"
DEFAULT_BOT_DELAY = 0.7  # seconds a bot "thinks", so people can follow its moves


def _env_delay() -> float:
    try:
        return max(0.0, float(os.environ.get(BOT_DELAY_ENV, DEFAULT_BOT_DELAY)))
    except ValueError:
        return DEFAULT_BOT_DELAY


class RailgamesApp(compat.FrameFilter, App[int]):
    CSS_PATH = "launcher.tcss"  # the other screens bring app.tcss (see screens/guard.py)
    TITLE = "railgames"

    def __init__(
        self,
        new_game: dict[str, Any] | None = None,
        load_path: str | Path | None = None,
        *,
        bot_delay: float | None = None,
        handoff: bool = False,
        watch: dict[str, Any] | None = None,
        tutorial: str | None = None,
    ) -> None:
        layout_once.install()
        css_cache.install()  # the CSS parsed at an earlier start, not parsed again
        super().__init__()
        self.to_watch = watch  # a record (demo or watch command) or a tour to open in the viewer
        self.new_game = new_game
        self.load_path = load_path
        self.tutorial = tutorial  # a game whose tutorial to open (the learn command)
        self.bot_delay = _env_delay() if bot_delay is None else bot_delay
        # Hand-off screens between people at one keyboard, in a game without secrets (a
        # game with them always has its hand-off screen): off unless set up so.
        self.handoff_default = handoff
        self.session: Session | None = None
        self._screen_diff = ScreenDiff()
        self.key_queue = KeyQueue(self)
        self._caught_signals: list[int] = []

    async def on_event(self, event: events.Event) -> None:
        # Typed keys are handled one at a time, each after the app is at rest from the
        # one before (see key_queue.py): Textual alone lets the keys of a burst overtake
        # each other.
        keys = self.key_queue
        if keys.hold(event):
            return
        typed = keys.typed(event)
        if typed:
            self.pay_save()  # the last move is on disk before the next key does anything
            self._hold_collector()
        try:
            await super().on_event(event)
        finally:
            if typed:
                keys.handed_on()

    # A key's work, from the key to its frame, allocates tens of thousands of objects:
    # the cycle collector would run a dozen times meanwhile, now and then over every
    # object not frozen (milliseconds each, in the middle of a key). It waits until the
    # first frame after the key is handed to the terminal (or GC_HOLD_LIMIT seconds at
    # most), then catches up.
    GC_HOLD_LIMIT = 0.5
    _gc_held = False

    def _hold_collector(self) -> None:
        if self._gc_held or not gc.isenabled():
            return  # held already, or off for a reason of its own (starting up)
        gc.disable()
        self._gc_held = True
        self.set_timer(self.GC_HOLD_LIMIT, self._release_collector)

    def frame_written(self) -> None:
        self._release_collector()

    def _release_collector(self) -> None:
        if self._gc_held:
            self._gc_held = False
            gc.enable()

    def pay_save(self) -> None:
        """Write the game's save if a move already shown is not in it yet (a move's save
        is written after the frame that shows it: see GameScreen.submit)."""
        session = self.session
        if session is None or not session.owes_save:
            return
        try:
            session.pay_save()
        except OSError as exc:
            self.notify(f"The game could not be saved: {exc}", severity="error")

    def _on_end_signal(self, signum: int) -> None:
        """The terminal hung up or the app is told to end: a move on the screen whose save
        was still to be written is written, then the signal ends the app as it would have."""
        import signal

        try:
            self.pay_save()
        finally:
            asyncio.get_running_loop().remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    def _catch_end_signals(self, on: bool) -> None:
        """Hang-up and terminate pay an owed save first (see ``_on_end_signal``); only where
        nothing else has a handler for them, and only in a real terminal."""
        import signal

        if self.is_headless:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for signum in (signal.SIGHUP, signal.SIGTERM):
            try:
                if on and signal.getsignal(signum) is signal.SIG_DFL:
                    loop.add_signal_handler(signum, self._on_end_signal, signum)
                    self._caught_signals.append(signum)
                elif not on and signum in self._caught_signals:
                    loop.remove_signal_handler(signum)
            except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
                continue
        if not on:
            self._caught_signals.clear()

    def frame_text(self, update: Any) -> str:
        # Only the cells the terminal does not show already are written (see screen_diff.py).
        self._screen_diff.resize(*self.size)
        return self._screen_diff.render(update, self.console)

    def get_default_screen(self) -> LauncherScreen:
        # The launcher is the bottom of the screen stack, drawn in the app's first frame.
        return LauncherScreen()

    def on_mount(self) -> None:
        # Back from a suspend the terminal may show anything: the next frame is written whole.
        self.app_resume_signal.subscribe(self, lambda _: self._screen_diff.forget(), immediate=True)
        self._catch_end_signals(True)
        self.call_after_refresh(gc.enable)  # see run_app
        self.call_after_refresh(css_cache.save)  # what this start parsed, for the next
        self.call_after_refresh(self._tidy_saves)
        spec = self.to_watch
        if spec is not None and "tour" in spec:
            self.open_tour(spec["tour"], speed=float(spec.get("speed", 1.0)))
        elif spec is not None:
            self.open_viewer(spec["record"], "demo" if spec.get("demo") else "watch",
                             speed=float(spec.get("speed", 1.0)), start=int(spec.get("start", 0)),
                             playing=bool(spec.get("playing", True)))
        elif self.tutorial is not None:
            self.start_tutorial(self.tutorial)
        elif self.load_path is not None:
            self.load_file(self.load_path)
        elif self.new_game:
            self._start_from_command_line(self.new_game)

    def on_unmount(self) -> None:
        self._release_collector()
        self._catch_end_signals(False)
        css_cache.save()  # the other screens' CSS too
        gc.unfreeze()  # nothing stays frozen once the app is over (tests run many in one process)
        if self.session is not None:
            self.session.close()

    def _start_from_command_line(self, spec: dict[str, Any]) -> None:
        from railgames.app.screens.setup import SetupScreen

        game_id = spec["game"]
        if spec.get("handoff"):  # play --handoff: as if ticked in the setup screen
            self.handoff_default = True
        players: list[PlayerSpec] | None = spec.get("players")
        seed = spec.get("seed")
        if players:
            import random

            try:
                self.start_new(game_id, players, seed if seed is not None else random.randrange(1, 1_000_000),
                               map_id=spec.get("map"))
                return
            except RailgamesError as exc:
                self.notify(exc.reason, title="Cannot start", severity="error")
        self.push_screen(SetupScreen(game_id, players, seed))

    # ------------------------------------------------------------ opening games
    def start_new(self, game_id: str, players: list[PlayerSpec], seed: int,
                  handoff: bool | None = None, map_id: str | None = None,
                  options: dict[str, Any] | None = None) -> None:
        """Raises IllegalAction (wrong player count, same names) before anything changes."""
        from railgames.tables.local import Session

        session = Session.new(game_id, players, seed, map_id=map_id, options=options)
        if handoff is not None:
            self.handoff_default = handoff
        self._save_quietly(session)
        self._open(session)

    def resume(self, record: GameRecord, path: Path | None = None) -> None:
        """Open a game: a save in the saves folder is opened for play (locked, as on disk now)."""
        from railgames.app.saves import saves_dir
        from railgames.tables.local import Session

        if path is not None and path.exists() and path.resolve().parent == saves_dir().resolve():
            self.open_save(path)
            return
        try:
            session = Session.resume(record, save_path=path)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot resume", severity="error")
            return
        self._open(session)

    def play_from(self, record: GameRecord) -> None:
        """A new game from ``record`` as it stands (a review's "try again"): replayed,
        saved in a file of its own as any new game, and opened where it stands."""
        from railgames.tables.local import Session

        try:
            session = Session.resume(record, save_path=None)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot start", severity="error")
            return
        self._save_quietly(session)
        self._open(session)

    def open_save(self, path: Path, read_only: bool = False) -> None:
        """Open a save; if another window has it, say so and offer it read-only."""
        from railgames.app.saves import SaveInUse
        from railgames.tables.local import Session

        try:
            session = Session.open(path, read_only=read_only)
        except SaveInUse as exc:
            from railgames.app.screens.confirm import ConfirmScreen

            def chosen(answer: str | None) -> None:
                if answer == "read":
                    self.open_save(path, read_only=True)

            self.push_screen(ConfirmScreen(
                f"{exc.reason[:1].upper()}{exc.reason[1:]}. Moves made there would be lost if "
                "this window played too. Open it here read-only (look, no moves)?",
                [("read", "Read-only", "r"), ("cancel", "Cancel", "n")]), chosen)
            return
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot open", severity="error")
            return
        if session.read_only:
            self.notify("Open read-only: the game is being played in another window.",
                        title="Read-only", timeout=8)
        self._open(session)

    def load_file(self, path: str | Path) -> None:
        from railgames.app.saves import saves_dir
        from railgames.core.record import load_record
        from railgames.tables.local import Session

        path = Path(path)
        if path.exists() and path.resolve().parent == saves_dir().resolve():
            self.open_save(path)
            return
        # A file from elsewhere is left as it is; the game goes on in a new save of its
        # own, under the same name if no save has it.
        try:
            session = Session.resume(load_record(path), save_path=None, source=path)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot load", severity="error")
            return
        session.new_stem = path.stem
        self._save_quietly(session)
        self._open(session)

    def _tidy_saves(self) -> None:
        """Temporary files left by killed writes go (they were never saves)."""
        from railgames.app.saves import remove_stale_files

        try:
            remove_stale_files()
        except OSError:
            pass

    def _save_quietly(self, session: Session) -> None:
        try:
            session.save()
        except OSError as exc:
            self.notify(f"The game could not be saved: {exc}", severity="error")

    def _open(self, session: Session) -> None:
        from railgames.app.screens.game import GameScreen

        self._pop_to_launcher()
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session
        self.push_screen(GameScreen(session, handoff=self.handoff_default))
        # Everything there is once the game is on the screen stays for the whole game:
        # kept out of the collector's full passes, which would otherwise walk it all
        # (most of a tenth of a second) in the middle of some key press.
        self.call_after_refresh(gc.freeze)

    # ------------------------------------------------------------ moving between screens
    def _pop_to_launcher(self) -> None:
        gc.unfreeze()  # what the game leaves behind can be collected again
        if self.session is not None:
            self.session.close()  # another window may open the save now
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def to_launcher(self) -> None:
        self._pop_to_launcher()

    # ------------------------------------------------------------ watching
    def open_viewer(self, record: GameRecord, kind: str, speed: float = 1.0, start: int = 0,
                    playing: bool = True) -> None:
        """Play back a record: a demo, or a saved game (hidden holdings shown only once it is over)."""
        from railgames.app.screens.viewer import ViewerScreen
        from railgames.games import ruleset_for_record
        from railgames.tables.recording import Recording

        try:
            ruleset = ruleset_for_record(record, "the record")  # on the map version it names
            probe = Recording(ruleset, record, reveal_all=True)
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot open", severity="error")
            return
        if kind != "demo" and ruleset.hidden_information and probe.result() is None:
            recording = Recording(ruleset, record, seat=None, reveal_all=False)
        else:
            recording = probe
        self._pop_to_launcher()
        self.push_screen(ViewerScreen(recording, kind=kind, speed=speed, start=start,
                                      playing=playing))
        # As for a game (see _open): the record, its snapshots and its events stay put.
        self.call_after_refresh(gc.freeze)

    def start_demo(self, game_id: str) -> None:
        from railgames.core.demo import demo_record
        from railgames.games import load_ruleset

        try:
            record = demo_record(load_ruleset(game_id))
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot start the demo", severity="error")
            return
        self.open_viewer(record, "demo")

    def start_tour(self, game_id: str) -> None:
        from railgames.core.tour import chosen_tour
        from railgames.games import load_ruleset

        try:
            tour = chosen_tour(load_ruleset(game_id))
        except RailgamesError as exc:
            self.notify(exc.reason, title="Cannot start the tour", severity="error")
            return
        self.open_tour(tour)

    def open_tour(self, tour: Any, speed: float = 1.0) -> None:
        """The quick tour (a ``railgames.core.tour.Tour``) in the viewer: its stops only."""
        from railgames.app.screens.tour import TourScreen

        self._pop_to_launcher()
        self.push_screen(TourScreen.of_tour(tour, speed=speed))
        self.call_after_refresh(gc.freeze)  # as for a demo: the tour's games stay put

    def start_tutorial(self, game_id: str) -> None:
        """Open the tutorial of ``game_id``: where it was left, or from its start."""
        from railgames.app.saves import SaveInUse
        from railgames.tables.coached import open_tutorial

        try:
            table, resumed = open_tutorial(game_id)
        except SaveInUse:
            self.notify("This tutorial is open in another window: go on with it there.",
                        title="Cannot start the tutorial", severity="error")
            return
        except (RailgamesError, OSError) as exc:
            reason = exc.reason if isinstance(exc, RailgamesError) else str(exc)
            self.notify(reason, title="Cannot start the tutorial", severity="error")
            return
        self._open(table)
        if resumed:
            self.notify("Your tutorial goes on where you left it.", title="Tutorial", timeout=4)

    def show_recording_over(self, viewer: Any) -> None:
        """The game-over screen at the end of a demo or replay; h goes back to the viewer."""
        from railgames.app.screens.game_over import GameOverScreen

        self.push_screen(GameOverScreen(viewer.recording, viewer=viewer))

    def show_final_board(self, session: Table) -> None:
        """The finished game's board, over the game-over screen (Esc goes back to it)."""
        from railgames.app.screens.game import GameScreen

        self.push_screen(GameScreen(session, handoff=False, review=True))

    def show_game_over(self, session: Table) -> None:
        from railgames.app.screens.game_over import GameOverScreen

        def switch() -> None:
            self._pop_to_launcher()
            self.push_screen(GameOverScreen(session))

        self.call_later(switch)


def run_app(new_game: dict[str, Any] | None = None, load_path: str | None = None,
            watch: dict[str, Any] | None = None, tutorial: str | None = None) -> int:
    # The modules just imported live as long as the process: the collector need not
    # walk them again (a full pass would otherwise fall in the middle of starting up).
    # The command line turned the collector off for the imports; it comes back on
    # once the first screen is drawn.
    gc.freeze()
    app = RailgamesApp(new_game=new_game, load_path=load_path, watch=watch, tutorial=tutorial)
    try:
        app.run()
    finally:
        gc.enable()
    return int(app.return_code or 0)
