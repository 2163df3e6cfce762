"""Where games are saved, the list the Continue screen shows, and keeping saves safe.

Saves live in the user's data directory (``platformdirs``), or under
``$RAILGAMES_DATA_DIR`` when it is set, so tests and portable installs can
point it elsewhere. A save is ``<name>.json``; nothing else in the folder ends
in ``.json``.

Two windows, one folder:

* a new save is created exclusively (a hard link that fails if the name is
  taken), so games started in the same second each keep their own file;
* a save in play is locked (``SaveLock``) for as long as a window has it open;
  another window is told and may open it read-only;
* every write checks that the file on disk is still the one this window last
  wrote or read (``SaveFile``), so even without the lock no move is dropped
  silently: the second writer is told instead. The check and the rename are made
  under a lock of their own (``WRITE_LOCK``, held for those two steps only, apart
  from the window lock), so of two windows writing at the same moment exactly one
  succeeds and the other is told.

Where ``flock`` does not exist (Windows) neither lock is taken: the check and
the rename are then two steps, and a write by another window that lands between
them is replaced by this one's without a word. A move can be lost there only when
two windows write the same save within those few milliseconds.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from railgames.core.errors import RailgamesError
from railgames.core.filenames import TEMP_PREFIX, TEMP_SUFFIX
from railgames.core.sources import DATA_DIR_ENV

if TYPE_CHECKING:
    from railgames.core.record import GameRecord

SAVE_SUFFIX = ".json"
LOCK_PREFIX = ".lock-"
LOCK_SUFFIX = ".lock"
WRITE_LOCK = ".save-writes.lock"  # held for a write's check and rename only (SaveFile)
STALE_SECONDS = 600  # a write takes milliseconds; a temporary file this old was left by a killed one
MAX_SAVE_NAME = 40
SAVE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _().,'+-]*$")


class SaveInUse(RailgamesError):
    """The save is open in another window."""


class SaveConflict(OSError):
    """The file on disk changed since this window last wrote or read it.

    An OSError, so every place that reports a failed save reports this one too.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("railgames"))


def saves_dir() -> Path:
    return data_dir() / "saves"


# Set by the host for the app it runs on a player's terminal (SSH or a browser).
REMOTE_ENV = "RAILGAMES_TABLES"


def shown(text: str) -> str:
    """``text`` as a player may be shown it: on a host, the host's folders are its own
    business, so a path under the player's folder is given from there ("saves/x.json")."""
    if not os.environ.get(REMOTE_ENV):
        return text
    home = str(data_dir())
    return text.replace(home + os.sep, "").replace(home, "your folder")


def where_saves_are() -> str:
    """Where saves are kept, in the words a player is shown."""
    if os.environ.get(REMOTE_ENV):
        return "on the host, in a folder of your own"
    return f"in {saves_dir()}"


def is_save_name(path: Path) -> bool:
    return path.suffix == SAVE_SUFFIX and not path.name.startswith(".")


# ------------------------------------------------------------------ creating
def default_stem(record: GameRecord) -> str:
    """The game and the moment it was created.

    The seed is left out of the name: in a game with secrets, knowing it would
    let a player work out the deal.
    """
    stamp = re.sub(r"[^0-9A-Za-z]", "", record.created)[:15] or "game"
    return f"{record.game}-{stamp}"


def create_save(record: GameRecord, folder: Path | None = None, stem: str | None = None,
                touch: bool = True) -> Path:
    """Write ``record`` to a new file that no other game has: never overwrites.

    ``touch``: the record says it was updated now (a game saved while played); an
    archived game keeps the time it ended.

    The record is written and flushed under a temporary name first, then
    linked under the first free name ``stem``, ``stem-2``, ...; the link fails
    if the name exists, whoever made it and however close in time.
    """
    from railgames.core.record import fsync_folder, write_temp

    folder = folder or saves_dir()
    stem = stem or default_stem(record)
    if touch:
        record.updated = datetime.now(UTC).isoformat(timespec="seconds")
    tmp = write_temp(record, folder)
    try:
        n = 1
        while True:
            path = folder / (f"{stem}{SAVE_SUFFIX}" if n == 1 else f"{stem}-{n}{SAVE_SUFFIX}")
            try:
                _link_exclusive(tmp, path)
            except FileExistsError:
                n += 1
                continue
            fsync_folder(folder)
            return path
    finally:
        tmp.unlink(missing_ok=True)


def _link_exclusive(source: Path, target: Path) -> None:
    """Give ``source``'s content the name ``target``; FileExistsError if it is taken."""
    try:
        os.link(source, target)
        return
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: claim the name, then fill it
        pass
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(source.read_bytes())
        handle.flush()
        os.fsync(handle.fileno())


# ------------------------------------------------------------------ locking
def lock_path(save: Path) -> Path:
    return save.parent / f"{LOCK_PREFIX}{save.stem}{LOCK_SUFFIX}"


def _save_of_lock(lock: Path) -> Path | None:
    name = lock.name
    if not (name.startswith(LOCK_PREFIX) and name.endswith(LOCK_SUFFIX)):
        return None
    return lock.with_name(name[len(LOCK_PREFIX):-len(LOCK_SUFFIX)] + SAVE_SUFFIX)


class SaveLock:
    """An advisory lock on one save, held while a window has that game open.

    The lock is the operating system's (``flock``): a window that is killed
    lets go of it at once, so a lock never outlives the window holding it.
    Where ``flock`` does not exist, writes are still compare-and-swap.
    """

    def __init__(self, save: Path) -> None:
        self.save = save
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, or raise SaveInUse naming the save."""
        try:
            import fcntl
        except ImportError:  # no flock here: compare-and-swap alone guards the writes
            return
        self.save.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path(self.save), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise SaveInUse(f"the save {self.save.name} is open in another window") from None
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing lets go of the flock
            self._fd = None


def in_use(save: Path) -> bool:
    """True if another window holds this save's lock (the caller holds none on it)."""
    lock = SaveLock(save)
    try:
        lock.acquire()
    except SaveInUse:
        return True
    lock.release()
    return False


# ------------------------------------------------------------------ compare and swap
def disk_stamp(path: Path) -> tuple[int, int, int] | None:
    """Identity of the file now under ``path``: every atomic write makes a new one."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@contextmanager
def _writing(folder: Path) -> Iterator[None]:
    """Hold the folder's write lock: the moments between a write's check and its rename.

    It is separate from the window lock (``SaveLock``) and held only for a stat and a
    rename, so it also serialises writers that bypass or never took that lock. Where
    ``flock`` does not exist it holds nothing (see the module docstring).
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(folder / WRITE_LOCK, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # waits milliseconds at most: no holder does more
        yield
    finally:
        os.close(fd)  # closing lets go of the flock


class SaveFile:
    """One save on disk, written only if it is still what this window last saw there."""

    def __init__(self, path: Path, stamp: tuple[int, int, int] | None) -> None:
        self.path = path
        self.stamp = stamp

    def write(self, record: GameRecord) -> None:
        """Compare and swap: the new file replaces the one on disk only if that is still the
        one this window last wrote or read; else SaveConflict, and nothing is written."""
        from railgames.core.record import write_temp

        if disk_stamp(self.path) != self.stamp:  # told at once, without writing anything
            raise self._conflict()
        record.updated = datetime.now(UTC).isoformat(timespec="seconds")
        tmp = write_temp(record, self.path.parent)  # on the disk (flushed) before the rename
        try:
            with _writing(self.path.parent):
                # Checked again under the lock: another writer may have renamed its file
                # into place since, and no other can now until this rename is done.
                if disk_stamp(self.path) != self.stamp:
                    raise self._conflict()
                os.replace(tmp, self.path)
                self.stamp = disk_stamp(self.path)  # this file's, before any other writer's
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        # The rename is made to survive a power cut by the folder syncer, not here: it
        # costs a few milliseconds of each move, and until it is done a power cut can
        # only bring back the save as it was one move ago, whole.
        FOLDER_SYNCER.sync_soon(self.path.parent)

    def _conflict(self) -> SaveConflict:
        return SaveConflict(
            f"{self.path.name} was changed by another window since this one last saved it; "
            "this window's moves since then are not written (reopen the game to see the other's)"
        )


class FolderSyncer:
    """Flushes folders (renames in them) to the disk in a thread of its own.

    ``wait()`` returns once every folder asked for so far is flushed: a game that
    closes calls it, so nothing is left unflushed when the app ends.
    """

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._due: set[Path] = set()
        self._wake = threading.Condition(self._lock)
        self._busy = False
        self._thread: Any = None

    def sync_soon(self, folder: Path) -> None:
        import threading

        with self._lock:
            self._due.add(folder)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="folder-sync", daemon=True)
                self._thread.start()
            self._wake.notify_all()

    def _run(self) -> None:
        from railgames.core.record import fsync_folder

        while True:
            with self._lock:
                while not self._due:
                    self._busy = False
                    self._wake.notify_all()
                    if not self._wake.wait(timeout=5.0) and not self._due:
                        self._thread = None
                        return
                folders, self._due = self._due, set()
                self._busy = True
            for folder in folders:
                fsync_folder(folder)

    def wait(self, timeout: float = 5.0) -> bool:
        """Wait until every folder asked for is flushed; False if that took too long."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._due or self._busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._thread is None:
                    return not (self._due or self._busy)
                self._wake.wait(timeout=left)
        return True


FOLDER_SYNCER = FolderSyncer()


# ------------------------------------------------------------------ housekeeping
def remove_stale_files(folder: Path | None = None, now: float | None = None) -> list[Path]:
    """Delete temporary files left by killed writes, and lock files of deleted saves.

    A temporary file younger than ``STALE_SECONDS`` may be another window's
    write in progress, and is left alone.
    """
    folder = folder or saves_dir()
    now = time.time() if now is None else now
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for path in folder.iterdir():
        name = path.name
        # ".tmp-*.json" is how temporary files were named before they stopped looking like saves.
        temp = (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)) or (
            name.startswith(".tmp-") and name.endswith(SAVE_SUFFIX))
        save = _save_of_lock(path)
        orphan_lock = save is not None and not save.exists()
        try:
            if temp and now - path.stat().st_mtime > STALE_SECONDS:
                path.unlink()
                removed.append(path)
            elif save is not None and orphan_lock and not in_use(save):
                path.unlink()
                removed.append(path)
        except OSError:
            continue
    return removed


# ------------------------------------------------------------------ the list
@dataclass
class SavedGame:
    path: Path
    record: GameRecord | None
    title: str
    players: str
    turn: int | None
    finished: bool
    last_played: str
    problem: str | None = None
    winners: str = ""

    @property
    def name(self) -> str:
        return self.path.stem


def format_time(iso: str | None) -> str:
    """'2025-01-02T15:04:05+00:00' -> '2025-01-02 15:04' in local time."""
    if not iso:
        return "?"
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def describe_save(path: Path) -> SavedGame:
    from railgames.core.engine import Game
    from railgames.core.record import load_record
    from railgames.games import ruleset_for_record

    try:
        record = load_record(path)
        ruleset = ruleset_for_record(record, str(path))
        game = Game.replay(ruleset, record)
    except RailgamesError as exc:
        return SavedGame(path, None, path.name, "", None, False, "?", problem=_short(exc.reason, path))
    except Exception as exc:  # a damaged save must not stop the list from showing  # noqa: BLE001
        return SavedGame(path, None, path.name, "", None, False, "?",
                         problem=f"cannot be replayed ({type(exc).__name__})")
    players = ", ".join(
        p.name + ("" if not p.is_bot or "bot" in p.name else f" ({p.kind} bot)") for p in record.players
    )
    result = game.result()
    return SavedGame(
        path=path,
        record=record,
        title=ruleset.title,
        players=players,
        turn=ruleset.turn_of(game.state),
        finished=game.is_over(),
        last_played=format_time(record.updated or record.created),
        problem=None,
        winners=" and ".join(result.winners) if result else "",
    )


def _short(reason: str, path: Path) -> str:
    """The reason without the path in front (the list names the file already)."""
    for head in (f"{path}: ", f"{path.name}: "):
        if reason.startswith(head):
            return reason[len(head):]
    return reason


def list_saves() -> list[SavedGame]:
    """Every ``*.json`` in the saves folder. One that is not a regular file (a named pipe,
    a folder) is listed as one that cannot be opened, saying what it is: it is never read."""
    folder = saves_dir()
    if not folder.is_dir():
        return []
    remove_stale_files(folder)
    saves = [describe_save(p) for p in folder.iterdir() if is_save_name(p)]
    saves.sort(key=lambda s: (s.record.updated or s.record.created) if s.record else "", reverse=True)
    return saves


# ------------------------------------------------------------------ delete and rename
def check_save_name(name: str) -> str:
    """The name cleaned of outer spaces, or RailgamesError saying what is wrong with it."""
    name = name.strip()
    if name.lower().endswith(SAVE_SUFFIX):
        name = name[: -len(SAVE_SUFFIX)].rstrip()
    if not name:
        raise RailgamesError("a save needs a name")
    if len(name) > MAX_SAVE_NAME:
        raise RailgamesError(f"a save's name is at most {MAX_SAVE_NAME} characters")
    if not SAVE_NAME.match(name):
        raise RailgamesError("a save's name uses letters, digits, spaces and - _ ( ) . , ' + "
                             "and starts with a letter or digit")
    return name


def delete_save(path: Path) -> None:
    """Delete a save no window has open; SaveInUse if one has."""
    lock = SaveLock(path)
    lock.acquire()
    try:
        path.unlink(missing_ok=True)
        lock_path(path).unlink(missing_ok=True)
    finally:
        lock.release()


def rename_save(path: Path, name: str) -> Path:
    """Give a save a new name (never another save's); returns the new path."""
    name = check_save_name(name)
    target = path.with_name(name + SAVE_SUFFIX)
    if target == path:
        return path
    lock = SaveLock(path)
    lock.acquire()
    try:
        try:
            os.link(path, target)
        except FileExistsError:
            raise RailgamesError(f"there is already a save called '{name}'") from None
        except OSError:  # no hard links here: check, then rename
            if target.exists():
                raise RailgamesError(f"there is already a save called '{name}'") from None
            os.rename(path, target)
        else:
            path.unlink()
        from railgames.core.record import fsync_folder

        fsync_folder(path.parent)
        lock_path(path).unlink(missing_ok=True)
    finally:
        lock.release()
    return target


def open_for_play(path: Path) -> tuple[SaveLock, SaveFile, Any]:
    """Lock a save and read it as it is now: (lock, file, record).

    SaveInUse if another window has it; RecordError if it cannot be read.
    """
    from railgames.core.record import load_record

    lock = SaveLock(path)
    lock.acquire()
    try:
        for _ in range(3):  # the stamp must be that of the very file read
            stamp = disk_stamp(path)
            record = load_record(path)
            if disk_stamp(path) == stamp:
                break
    except BaseException:
        lock.release()
        raise
    return lock, SaveFile(path, stamp), record
