"""Two windows, one folder: no save overwritten, no move dropped, no temp file taken for a save."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from railgames.app import saves
from railgames.app.saves import (
    SaveConflict,
    SaveInUse,
    create_save,
    delete_save,
    list_saves,
    remove_stale_files,
    rename_save,
)
from railgames.cli import parse_seats
from railgames.core.errors import IllegalAction, RailgamesError
from railgames.core.record import TEMP_PREFIX, TEMP_SUFFIX, load_record, write_temp
from railgames.tables.local import Session

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(data))
    return data


def new_session(seed: int = 5) -> Session:
    return Session.new("new-england", parse_seats("Ann,Bob,Cat"), seed)


def play_one(session: Session) -> None:
    """The seat to move takes no loan (the first decision of New England)."""
    prompt = session.prompt()
    assert prompt is not None and prompt.amount is not None
    session.apply({"type": prompt.amount.action_type, "seat": prompt.seat, "amount": 0})


def run_python(code: str, data: Path, *args: str, wait: bool = True) -> subprocess.Popen[str]:
    env = dict(os.environ, RAILGAMES_DATA_DIR=str(data), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *args], env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if wait:
        proc.wait(timeout=120)
    return proc


# ------------------------------------------------------------------ point 7: exclusive creation
def test_games_created_in_the_same_second_each_keep_their_file() -> None:
    sessions = [new_session(seed) for seed in range(8)]
    for s in sessions:
        s.game.record.created = "2026-01-01T10:00:00+00:00"  # the same second for all
    paths = [s.save() for s in sessions]
    assert len(set(paths)) == 8
    assert sorted(load_record(p).seed for p in paths) == list(range(8))


def test_n_processes_starting_games_at_once_keep_n_files(data_dir: Path) -> None:
    n = 8
    code = """
        import sys, time
        from railgames.tables.local import Session
        from railgames.cli import parse_seats
        s = Session.new("new-england", parse_seats("Ann,Bob,Cat"), int(sys.argv[1]))
        s.game.record.created = "2026-01-01T10:00:00+00:00"
        while time.time() < float(sys.argv[2]):  # all start writing together
            pass
        print(s.save())
    """
    go = str(time.time() + 3)
    procs = [run_python(code, data_dir, str(seed), go, wait=False) for seed in range(n)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append(out.strip())
    assert len(set(outs)) == n
    files = sorted((data_dir / "saves").glob("*.json"))
    assert len(files) == n
    assert sorted(load_record(f).seed for f in files) == list(range(n))


def test_create_save_never_overwrites(tmp_path: Path) -> None:
    record = new_session().game.record
    first = create_save(record, tmp_path, stem="game")
    first_text = first.read_text()
    second = create_save(record.model_copy(update={"seed": 99}), tmp_path, stem="game")
    assert (first.name, second.name) == ("game.json", "game-2.json")
    assert first.read_text() == first_text


# ------------------------------------------------------------------ point 8: two windows
def test_a_save_in_play_is_locked_and_offered_read_only() -> None:
    first = new_session()
    path = first.save()
    play_one(first)
    with pytest.raises(SaveInUse, match=path.name):
        Session.open(path)
    viewer = Session.open(path, read_only=True)
    assert viewer.read_only and not viewer.bot_to_move()
    before = list(viewer.game.record.actions)
    prompt = viewer.prompt()
    with pytest.raises(IllegalAction, match="read-only"):
        viewer.apply({"type": "borrow", "seat": prompt.seat, "amount": 0})
    with pytest.raises(IllegalAction, match="read-only"):
        viewer.undo(prompt.seat)
    with pytest.raises(OSError, match="read-only"):
        viewer.save()
    assert viewer.game.record.actions == before
    play_one(first)
    assert len(load_record(path).actions) == 2  # nothing the first window did is lost
    first.close()
    again = Session.open(path)  # free once the first window lets go
    assert len(again.game.record.actions) == 2
    again.close()


def test_a_lock_held_by_another_process_is_seen_and_goes_with_it(data_dir: Path) -> None:
    mine = new_session()
    path = mine.save()
    mine.close()
    code = """
        import sys
        from pathlib import Path
        from railgames.tables.local import Session
        s = Session.open(Path(sys.argv[1]))
        print("open", flush=True)
        __import__("time").sleep(60)
    """
    proc = run_python(code, data_dir, str(path), wait=False)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
        with pytest.raises(SaveInUse):
            Session.open(path)
        with pytest.raises(SaveInUse):
            delete_save(path)
        with pytest.raises(SaveInUse):
            rename_save(path, "mine")
    finally:
        proc.kill()  # like kill -9: the lock goes with the process
        proc.wait(timeout=60)
    Session.open(path).close()


def test_two_windows_without_the_lock_lose_nothing_silently() -> None:
    """Where locks do not work, the second writer is told and the first one's moves stay."""
    first = new_session()
    path = first.save()
    first.close()
    a = Session.resume(load_record(path), save_path=path)
    b = Session.resume(load_record(path), save_path=path)
    play_one(a)
    play_one(a)
    with pytest.raises(SaveConflict, match="another window"):
        play_one(b)
    assert len(load_record(path).actions) == 2
    play_one(a)  # the first window goes on writing
    assert len(load_record(path).actions) == 3


def _simultaneous_writer(me: int, data: str, paths: Any, barrier: Any, results: Any) -> None:
    """A window in a process of its own, without the window lock: for each save it is
    given, it reads it, waits for the other writer, then both make a move at once."""
    os.environ["RAILGAMES_DATA_DIR"] = data
    while (path := paths.get(timeout=120)) is not None:
        session = Session.resume(load_record(Path(path)), save_path=Path(path))
        prompt = session.prompt()
        assert prompt is not None and prompt.amount is not None
        move = {"type": prompt.amount.action_type, "seat": prompt.seat, "amount": 10 * me}
        barrier.wait(timeout=120)
        try:
            session.apply(move)  # written before apply returns, as the app writes every move
        except SaveConflict as exc:
            results.put((me, "refused", str(exc)))
        else:
            results.put((me, "written", move))


def test_two_processes_writing_at_once_without_the_lock_never_lose_a_move_silently(
        data_dir: Path) -> None:
    """The check of what is on disk and the rename are one step for writers: of two
    windows (real processes) writing the same save at the same moment, one is written
    and the other told, in every trial."""
    import multiprocessing

    trials = 40
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    inboxes = [context.Queue(), context.Queue()]
    workers = [context.Process(target=_simultaneous_writer,
                               args=(me, str(data_dir), inboxes[me], barrier, results))
               for me in (0, 1)]
    for worker in workers:
        worker.start()
    try:
        for trial in range(trials):
            first = new_session(seed=trial)
            path = first.save()
            first.close()
            for inbox in inboxes:
                inbox.put(str(path))
            outcome = dict((me, (how, what)) for me, how, what in
                           (results.get(timeout=240) for _ in range(2)))
            written = [outcome[me][1] for me in (0, 1) if outcome[me][0] == "written"]
            refused = [outcome[me][1] for me in (0, 1) if outcome[me][0] == "refused"]
            on_disk = load_record(path).actions
            assert len(written) == 1, f"trial {trial}: {outcome}, on disk {on_disk}"
            assert on_disk == written, f"trial {trial}: {outcome}, on disk {on_disk}"
            assert "changed by another window" in refused[0]
    finally:
        for inbox in inboxes:
            inbox.put(None)
        for worker in workers:
            worker.join(timeout=60)
            if worker.is_alive():
                worker.kill()
                worker.join(timeout=60)


def test_an_undo_is_written_over_this_windows_own_save() -> None:
    s = new_session()
    s.save()
    play_one(s)
    seat = s.game.record.actions[-1]["seat"]
    s.undo(seat)
    assert load_record(s.save_path).actions == []
    s.close()


# ------------------------------------------------------------------ point 9: temp files
def test_temp_files_never_look_like_saves(tmp_path: Path) -> None:
    tmp = write_temp(new_session().game.record, tmp_path)
    assert tmp.name.startswith(TEMP_PREFIX) and tmp.name.endswith(TEMP_SUFFIX)
    assert not saves.is_save_name(tmp)
    assert list(tmp_path.glob("*.json")) == []


def test_a_killed_write_leaves_no_save_and_its_temp_file_is_removed(data_dir: Path) -> None:
    s = new_session()
    path = s.save()
    code = """
        import os, sys
        from pathlib import Path
        from railgames.core.record import load_record, save_record
        import railgames.core.record as record
        path = Path(sys.argv[1])
        rec = load_record(path)
        record.os.replace = lambda a, b: os.kill(os.getpid(), 9)  # killed before the rename
        save_record(rec, path)
    """
    s.close()
    before = path.read_bytes()
    proc = run_python(code, data_dir, str(path))
    assert proc.returncode == -9
    folder = data_dir / "saves"
    temps = [p for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX)]
    assert len(temps) == 1
    assert path.read_bytes() == before
    assert [g.path for g in list_saves()] == [path]  # not listed as an unreadable save
    old = time.time() - saves.STALE_SECONDS - 5
    os.utime(temps[0], (old, old))
    (folder / ".tmp-abc.json").write_text("{")  # as killed writes used to leave them
    os.utime(folder / ".tmp-abc.json", (old, old))
    (folder / f"{TEMP_PREFIX}fresh{TEMP_SUFFIX}").write_text("")  # another window's write now
    removed = remove_stale_files(folder)
    assert sorted(p.name for p in removed) == sorted([temps[0].name, ".tmp-abc.json"])
    assert (folder / f"{TEMP_PREFIX}fresh{TEMP_SUFFIX}").exists()


def test_the_app_removes_stale_temp_files_when_it_starts(data_dir: Path) -> None:
    import asyncio

    from railgames.app.main import RailgamesApp

    folder = data_dir / "saves"
    folder.mkdir(parents=True)
    stale = folder / f"{TEMP_PREFIX}x{TEMP_SUFFIX}"
    stale.write_text("{")
    old = time.time() - saves.STALE_SECONDS - 5
    os.utime(stale, (old, old))

    async def run() -> None:
        app = RailgamesApp(bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.pause()

    asyncio.run(run())
    assert not stale.exists()


# ------------------------------------------------------------------ point 10: durable writes
def test_every_save_syncs_the_folder_after_the_rename(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    real_replace, real_fsync = os.replace, os.fsync

    def replace(a: str, b: str) -> None:
        calls.append(("replace", str(b)))
        real_replace(a, b)

    def fsync(fd: int) -> None:
        import stat

        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        calls.append(("fsync", kind))
        real_fsync(fd)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "fsync", fsync)
    s = new_session()
    s.save()
    assert ("fsync", "folder") in calls  # the new file's name is on disk too
    from railgames.app.saves import FOLDER_SYNCER

    assert FOLDER_SYNCER.wait()  # nothing of an earlier save left to flush
    calls.clear()
    play_one(s)
    assert FOLDER_SYNCER.wait()  # the folder is flushed in a thread of its own, soon after
    assert calls[0] == ("fsync", "file")
    i = calls.index(("replace", str(s.save_path)))
    assert ("fsync", "folder") in calls[i + 1:]
    s.close()


# ------------------------------------------------------------------ delete and rename
def test_delete_and_rename(data_dir: Path) -> None:
    a = new_session()
    path = a.save()
    a.close()
    renamed = rename_save(path, "  Sunday game  ")
    assert renamed.name == "Sunday game.json" and not path.exists()
    other = new_session(6)
    other_path = other.save()
    other.close()
    with pytest.raises(RailgamesError, match="already a save"):
        rename_save(other_path, "Sunday game")
    for bad in ("", "../escape", ".hidden", "x" * 41, "a/b"):
        with pytest.raises(RailgamesError):
            rename_save(other_path, bad)
    assert other_path.exists()
    delete_save(renamed)
    assert not renamed.exists()
    assert [g.path for g in list_saves()] == [other_path]
    assert json.loads(other_path.read_text())["seed"] == 6


def test_opening_a_bad_record_in_the_app_names_the_file(tmp_path: Path) -> None:
    from railgames.core.errors import RecordError

    good = ROOT / "tests" / "fixtures" / "records" / "new-england-3p-greedy.json"
    data = json.loads(good.read_text())
    data["actions"][0]["amount"] = 99_999
    path = tmp_path / "friend.json"
    path.write_text(json.dumps(data))
    record = load_record(path)
    with pytest.raises(RecordError) as refused:
        Session.resume(record, source=path)
    assert refused.value.reason.startswith(f"{path}: action 0")
    saved = saves.saves_dir() / "bad.json"
    saved.parent.mkdir(parents=True)
    saved.write_text(json.dumps(data))
    with pytest.raises(RecordError) as refused:
        Session.open(saved)
    assert refused.value.reason.startswith(f"{saved}: action 0")
    assert not saves.in_use(saved)  # the lock taken to read it was let go
