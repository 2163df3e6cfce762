"""The local table: a game played in this process, with its bots and its save file.

Nothing here imports Textual, so the flow (apply, bots, undo, autosave) can be
tested on its own. Every change goes through ``Game.apply`` or ``Game.undo``, and
is on disk (when the table saves itself) before the screen shows it, or, for a
player's move made under ``save_after_showing``, as soon as the screen shows it
and before anything else happens to the game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from railgames.app.saves import SaveConflict, SaveFile, SaveLock, create_save, open_for_play
from railgames.core.bots import Bot
from railgames.core.engine import Action, Game, Prompt, Result
from railgames.core.errors import IllegalAction
from railgames.core.events import Event
from railgames.core.record import GameRecord, PlayerSpec, load_record
from railgames.core.simulate import bots_for, step_bot
from railgames.games import load_ruleset, ruleset_for_record
from railgames.tables.recording import Recording
from railgames.tables.table import BotThink, Change

READ_ONLY = ("this game is open in another window, so here it is read-only; "
             "play it in that window")


class Session:
    """The local table (see ``railgames.tables.table.Table``): a game played in this process.

    ``save_path`` None: the first save creates a new file of its own.

    ``read_only``: the save is open in another window; this one shows the game
    and refuses every change.
    """

    shared = True  # hot seat: the people pass the keyboard
    can_save = True
    seat = None  # no seat of its own: whoever is to move has the keyboard
    talk = None  # nobody at another terminal to talk with
    lesson: Any = None  # no tutorial's lesson (railgames/tables/coached.py has one)
    # A move made under ``save_after_showing`` whose save is not written yet.
    owes_save = False
    _saves_held = False

    def __init__(self, game: Game, save_path: Path | None = None, autosave: bool = True,
                 read_only: bool = False, *, lock: SaveLock | None = None,
                 file: SaveFile | None = None) -> None:
        self.game = game
        self.autosave = autosave and not read_only
        self.read_only = read_only
        self.bots: list[Bot] = bots_for(game, game.record.seed)
        self._lock = lock
        self._file = file
        self.new_stem: str | None = None  # the name a first save takes, if free
        self._prompt_for: tuple[Any, int, Prompt | None] | None = None
        if file is None and save_path is not None:
            # A path given without being opened for play: written only while it is
            # still what this session found there (or nothing).
            from railgames.app.saves import disk_stamp

            self._file = SaveFile(save_path, disk_stamp(save_path))

    # --- creation
    @classmethod
    def new(cls, game_id: str, players: list[Any], seed: int, *, map_id: str | None = None,
            options: dict[str, Any] | None = None, **kw: Any) -> Session:
        ruleset = load_ruleset(game_id, map_id)
        return cls(Game.new(ruleset, players, seed, options), **kw)

    @classmethod
    def resume(cls, record: GameRecord, save_path: Path | None = None, *,
               source: str | Path | None = None, **kw: Any) -> Session:
        """Replay ``record``; a refusal is a RecordError naming ``source`` (the file it came from)."""
        where = source or save_path or "the record"
        return cls(cls._replay(record, Path(where)), save_path=save_path, **kw)

    @classmethod
    def open(cls, path: Path, *, read_only: bool = False, **kw: Any) -> Session:
        """Open a save for play: locked, and read as it is on disk now.

        Raises SaveInUse if another window has it (then try ``read_only=True``),
        RecordError if it cannot be read or replayed.
        """
        if read_only:
            record = load_record(path)
            return cls(cls._replay(record, path), read_only=True, **kw)
        lock, file, record = open_for_play(path)
        try:
            return cls(cls._replay(record, path), lock=lock, file=file, **kw)
        except BaseException:
            lock.release()
            raise

    @staticmethod
    def _replay(record: GameRecord, path: Path) -> Game:
        """Every refusal names ``path``."""
        from railgames.core.errors import RailgamesError, RecordError

        try:
            return Game.replay(ruleset_for_record(record, str(path)), record)
        except RecordError as exc:
            if exc.reason.startswith(str(path)):
                raise
            raise RecordError(f"{path}: {exc.reason}") from None
        except RailgamesError as exc:
            raise RecordError(f"{path}: {exc.reason}") from None

    def close(self) -> None:
        """Let go of the save (another window may open it for play)."""
        from railgames.app.saves import FOLDER_SYNCER

        try:
            self.pay_save()  # a move on the screen whose save was still to be written
        except OSError:
            pass  # (the game is closing: nobody is left to be told; the last save stands)
        FOLDER_SYNCER.wait()  # the last moves' renames are on the disk
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def save_path(self) -> Path | None:
        return self._file.path if self._file is not None else None

    # --- queries
    @property
    def ruleset(self) -> Any:
        return self.game.ruleset

    @property
    def state(self) -> Any:
        return self.game.state

    def prompt(self) -> Prompt | None:
        # Asked for many times for each frame drawn (keys on offer, panels, bots), and
        # worked out anew by the rules each time: kept until the state changes. The
        # state is held, not its id, so an undo's new state is never taken for it.
        state, actions = self.game.state, len(self.game.record.actions)
        kept = self._prompt_for
        if kept is not None and kept[0] is state and kept[1] == actions:
            return kept[2]
        prompt = self.game.prompt()
        self._prompt_for = (state, actions, prompt)
        return prompt

    # --- the Table interface (railgames.tables.table)
    @property
    def players(self) -> list[PlayerSpec]:
        return self.game.players

    @property
    def record(self) -> GameRecord:
        return self.game.record

    def is_over(self) -> bool:
        return self.game.is_over()

    def played(self) -> int:
        return len(self.game.record.actions)

    def why_not_undo(self, seat: int) -> str | None:
        return self.game.undo_refusal(seat)

    def away(self) -> list[int]:
        return []  # everyone is at this keyboard

    def why_no_hint(self) -> str | None:
        return None  # a game on this terminal: the players may ask for advice

    def history(self, seat: int | None, reveal_all: bool) -> Recording:
        return Recording.of_game(self.game, seat=seat, reveal_all=reveal_all)

    def view(self, seat: int | None) -> Any:
        return self.game.view(seat)

    def events_for(self, seat: int | None) -> list[Event]:
        return self.game.events_for(seat)

    def result(self) -> Result | None:
        return self.game.result()

    def submit(self, action: Mapping[str, Any] | Action) -> list[Event]:
        """Apply, and (autosaving) write the save before the move is shown: a move a
        player has seen is never lost. An OSError says the write failed (the move stands)."""
        return self.apply(action)

    def mark(self) -> tuple[int, int]:
        # Undo replaces the state object (a replay), while an action adds to its log.
        return id(self.game.state), len(self.game.log)

    def changes(self, mark: tuple[int, int]) -> Change:
        state_id, logged = mark
        if state_id != id(self.game.state) or logged > len(self.game.log):
            return Change(full=True)
        return Change(full=False, events=tuple(self.game.log[logged:]))

    def name(self, seat: int) -> str:
        return self.game.players[seat].name

    def is_bot(self, seat: int) -> bool:
        return self.game.players[seat].is_bot

    def humans(self) -> list[int]:
        return [i for i, p in enumerate(self.game.players) if not p.is_bot]

    def bot_to_move(self) -> bool:
        if self.read_only:
            return False
        prompt = self.prompt()
        return prompt is not None and self.is_bot(prompt.seat)

    # --- changes
    def apply(self, action: Mapping[str, Any] | Action, *, save: bool = True) -> list[Event]:
        """Apply through the rules engine; IllegalAction/MalformedAction leave everything as it was.

        With ``save`` the move is on disk when this returns (an OSError says it is
        not); ``save=False`` leaves the save to the caller, which must write it
        before the move is shown.
        """
        if self.read_only:
            raise IllegalAction(READ_ONLY)
        events = self.game.apply(action)
        if save:
            self.save_if_auto()
        return events

    def bot_thinks_long(self) -> bool:
        """Whether the bot to move searches (it then thinks in a worker, off the screen's thread)."""
        prompt = self.prompt()
        return (prompt is not None and self.is_bot(prompt.seat)
                and str(self.game.players[prompt.seat].kind).startswith("search"))

    def prepare_think(self) -> BotThink | None:
        """The bot to move's decision, ready to be thought about in another thread.

        It carries its own copy of what the seat sees, so the game may be redrawn
        (or a move taken back) while the bot thinks; ``finish_think`` then applies
        the choice only if the game is still where it was.
        """
        if self.read_only:
            return None
        prompt = self.prompt()
        if prompt is None or not self.is_bot(prompt.seat):
            return None
        from railgames.core.search import SearchHooks

        view = SearchHooks.copy(self.game.view(prompt.seat))
        return BotThink(self.bots[prompt.seat], self.ruleset, view, prompt, self.game)

    def finish_think(self, think: BotThink, action: Any, bot: Bot | None = None) -> bool:
        """Apply what ``think`` chose, if the game has not moved on since; True if applied.

        ``bot``: the bot as it came back from a worker process, its random source
        moved on, which takes its seat's place.
        """
        if self.read_only or think.moved_on():
            return False
        self.game.apply(action)
        if bot is not None:
            self.bots[think.prompt.seat] = bot
        self.save_if_auto()
        return True

    def bot_step(self) -> list[Event]:
        if self.read_only:
            return []
        start = len(self.game.log)
        step_bot(self.game, self.bots)
        self.save_if_auto()
        return self.game.log[start:]

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s own last decision, and any bots' moves after it.

        Raises IllegalAction with the reason when refused (another person has
        moved since, or dice, a draw or a secret came out).

        ``seat`` is the player at the keyboard: nobody can take back another
        player's move, however the keys are passed around.
        """
        if self.read_only:
            raise IllegalAction(READ_ONLY)
        self.game.undo(seat)
        self.save_if_auto()

    def save(self) -> Path:
        """Write the record now: into a new file on the first save, else over this game's own.

        The write is compare-and-swap: if another window wrote the file since,
        nothing is written and SaveConflict (an OSError) says so.
        """
        if self.read_only:
            raise SaveConflict(READ_ONLY)
        self.owes_save = False  # whatever was owed is in this write
        if self._file is None:
            path = create_save(self.game.record, stem=self.new_stem)
            lock = SaveLock(path)
            try:
                lock.acquire()
            except Exception:  # noqa: BLE001 - a new name nobody knows yet; the swap check remains
                lock = None  # type: ignore[assignment]
            from railgames.app.saves import disk_stamp

            self._lock = lock
            self._file = SaveFile(path, disk_stamp(path))
            return path
        self._file.write(self.game.record)
        return self._file.path

    def save_if_auto(self) -> None:
        if self.autosave:
            if self._saves_held:
                self.owes_save = True
                return
            self.save()

    @contextmanager
    def save_after_showing(self) -> Iterator[None]:
        """The saves that changes made inside would write are owed instead (``owes_save``),
        for ``pay_save`` to write once the move is on the screen.

        Writing a save (and flushing it to the disk) takes a good part of the time
        between a player's key and the move on the screen. Whoever holds saves back must
        pay them before anything else can happen to the game: the app pays after the
        frame that shows the move, and again before it handles the next key, and
        ``close`` and a hang-up of the terminal pay too (see app/main.py).
        """
        self._saves_held = True
        try:
            yield
        finally:
            self._saves_held = False

    def pay_save(self) -> None:
        """Write the save owed since ``save_after_showing``, if any (OSError if it fails:
        it is then no longer owed, and the next save writes the move with the next)."""
        if self.owes_save:
            self.owes_save = False
            self.save()
