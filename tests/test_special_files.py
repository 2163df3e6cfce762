"""Only regular files are read as saves, table files and maps.

A named pipe, a device, a socket or a folder where a file is expected is refused
at once in one line naming it: never waited on (a pipe's reader waits for a
writer forever), by the commands, the Continue list and the host alike.

Every test that could wait on a pipe has a guard that, after a generous time,
opens the pipe's other end: a reader that waited then sees an empty file and the
test fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from railgames.cli import parse_seats
from railgames.core.errors import MapError, RecordError
from railgames.core.record import MAX_RECORD_BYTES, load_record, read_capped_text
from railgames.tables.local import Session

ROOT = Path(__file__).resolve().parents[1]
GUARD = 60.0  # seconds before a reader stuck on a pipe is given its end of file
KINDS = {"fifo": "a named pipe", "folder": "a folder", "socket": "a socket",
         "device": "a device"}


def make(kind: str, path: Path) -> Path:
    """Put a file of ``kind`` at ``path``: not a regular file."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "socket":
        # A socket's path is limited to about a hundred bytes: bound by its name from its folder.
        here = os.getcwd()
        os.chdir(path.parent)
        try:
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(path.name)  # the file stays after the socket is closed
        finally:
            os.chdir(here)
    elif kind == "device":
        if not os.path.exists("/dev/null"):
            pytest.skip("no /dev/null here")
        path.symlink_to("/dev/null")  # a path that leads to a character device
    return path


@contextlib.contextmanager
def unstick(folder: Path) -> Iterator[None]:
    """If this takes longer than GUARD, every pipe under ``folder`` gets a writer that
    closes at once, so whatever waits on one goes on (and the test fails, not hangs)."""
    done = threading.Event()

    def guard() -> None:
        while not done.wait(GUARD):
            # lstat: a test may stand in for os.stat, and a pipe is never a link here.
            for pipe in [p for p in folder.rglob("*") if stat.S_ISFIFO(os.lstat(p).st_mode)]:
                with contextlib.suppress(OSError):
                    os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))

    thread = threading.Thread(target=guard, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()


def one_line(reason: str) -> bool:
    return "\n" not in reason and "Traceback" not in reason


# ------------------------------------------------------------------ the shared reader
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_reader_refuses_what_is_not_a_regular_file_in_one_line(tmp_path: Path,
                                                                     kind: str) -> None:
    path = make(kind, tmp_path / "x.json")
    with unstick(tmp_path), pytest.raises(RecordError) as refused:
        load_record(path)
    assert refused.value.reason == f"{path}: is {KINDS[kind]}, not a saved game"


def test_a_pipe_put_in_place_after_the_look_is_caught_on_the_opened_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The path is looked at, then opened without waiting and looked at again: a pipe
    that takes a regular file's place between the two is refused, not waited on."""
    import railgames.core.files as files

    regular = tmp_path / "regular.json"
    regular.write_text("{}")
    pipe = make("fifo", tmp_path / "x.json")
    real_stat = os.stat
    # As if the pipe were put in place just after the reader looked at the path.
    monkeypatch.setattr(files.os, "stat",
                        lambda p, *a, **k: real_stat(regular if Path(p) == pipe else p, *a, **k))
    with unstick(tmp_path), pytest.raises(RecordError) as refused:
        read_capped_text(pipe, MAX_RECORD_BYTES, "a saved game")
    assert refused.value.reason == f"{pipe}: is a named pipe, not a saved game"


def test_a_map_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    from railgames.core.maps import GraphMap, load_map_file

    for kind in sorted(KINDS):
        path = make(kind, tmp_path / f"{kind}.toml")
        with unstick(tmp_path), pytest.raises(MapError) as refused:
            load_map_file(path, GraphMap, cached=False)
        assert refused.value.reason == f"{path}: is {KINDS[kind]}, not a map"


def test_a_map_over_its_size_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from railgames.core.maps import MAX_MAP_BYTES, read_map_text

    big = tmp_path / "big.toml"
    with big.open("wb") as handle:
        handle.truncate(MAX_MAP_BYTES + 1)  # sparse: refused by its size
    with pytest.raises(MapError, match="too large for a map"):
        read_map_text(big)
    small = tmp_path / "small.toml"
    small.write_bytes(b'id = "x"\r\ntitle = "y"\r\n')
    assert read_map_text(small) == 'id = "x"\ntitle = "y"\n'  # newlines as in text mode


# ------------------------------------------------------------------ the commands
def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, "-m", "railgames", *args], capture_output=True,
                              text=True, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL,
                              check=False)
    except subprocess.TimeoutExpired:  # the process is killed by run()
        pytest.fail(f"railgames {' '.join(args)} did not answer in 120 s")


@pytest.mark.parametrize("command", ["replay", "load", "watch", "maps check"])
def test_each_command_refuses_what_is_not_a_regular_file_at_once(tmp_path: Path,
                                                                  command: str) -> None:
    maps = command == "maps check"  # its lines are the files' reasons, as they are checked
    for kind in sorted(KINDS):
        path = make(kind, tmp_path / f"{kind}.json")
        proc = run_cli(*command.split(), str(path))
        reason = f"{path}: is {KINDS[kind]}, not {'a map' if maps else 'a saved game'}"
        assert proc.returncode == 1, (kind, proc.stderr)
        assert proc.stderr.splitlines() == [reason if maps else f"railgames: {reason}"]
        assert proc.stdout == ""


# ------------------------------------------------------------------ the saves folder
def saves_with_one_game_and_every_kind(data: Path) -> Path:
    """A saves folder with one real game and ``<kind>.json`` of every kind beside it."""
    session = Session.new("new-england", parse_seats("Ann,Bob,Cat"), 5)
    path = session.save()
    session.close()
    for kind in KINDS:
        make(kind, path.parent / f"{kind}.json")
    return path


def test_the_saves_list_names_what_is_not_a_save_without_reading_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from railgames.app.saves import list_saves

    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(tmp_path / "data"))
    good = saves_with_one_game_and_every_kind(tmp_path / "data")
    with unstick(tmp_path):
        listed = list_saves()
    assert [s.path for s in listed if s.problem is None] == [good]
    problems = {s.path.name: s.problem for s in listed if s.problem is not None}
    assert problems == {f"{kind}.json": f"is {label}, not a saved game"
                        for kind, label in KINDS.items()}


def test_the_continue_screen_lists_them_as_not_openable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from railgames.app.main import RailgamesApp
    from railgames.app.screens.continue_ import ContinueScreen
    from tests.app.driving import screen_text

    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RAILGAMES_BOT_DELAY", "0")
    good = saves_with_one_game_and_every_kind(tmp_path / "data")

    async def scenario() -> None:
        app = RailgamesApp(bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("c")
            screen = app.screen
            assert isinstance(screen, ContinueScreen)
            assert [s.path for s in screen.saves] == [good]
            assert sorted(s.path.name for s in screen.damaged) == sorted(
                f"{kind}.json" for kind in KINDS)
            text = screen_text(app)
            assert "Cannot be opened" in text and "is a named pipe, not a saved game" in text
            pipe = next(s for s in screen.damaged if s.path.name == "fifo.json")
            await pilot.press("tab")
            while screen.chosen() is not pipe:
                await pilot.press("down")
            await pilot.press("enter")  # says what it is, opens nothing
            await pilot.pause()
            assert app.screen is screen
            await pilot.press("d", "y")  # and it can be deleted like any other
            await pilot.pause()
            assert not (good.parent / "fifo.json").exists()

    with unstick(tmp_path):
        asyncio.run(asyncio.wait_for(scenario(), 240))


# ------------------------------------------------------------------ the host's tables
def a_waiting_table(tables: Path) -> str:
    """A table file as the host writes it: a Paris Connection table waiting for Bob."""
    from railgames.net.service import TableService
    from railgames.net.tables import Login, Member

    service = TableService(tables, bot_delay=0, bot_workers=0)
    ann = Member(login=Login(name="ann"), send=lambda message: None)
    code = service.create(ann, "paris-connection", seats=3, humans=2).code
    service.flush()
    return code


def test_the_host_skips_them_in_its_tables_folder_and_restores_the_rest(tmp_path: Path) -> None:
    from test_host_tables import LogLines

    from railgames.net.service import TableService

    tables = tmp_path / "tables"
    code = a_waiting_table(tables)
    # A table's log (.table) and a table kept by an earlier version (.json) alike.
    odd = {kind: make(kind, tables / name)
           for kind, name in zip(sorted(KINDS), ["AAAA.json", "BBBB.table", "YYYY.json",
                                                 "ZZZZ.table"], strict=True)}
    service = TableService(tables, bot_delay=0, bot_workers=0)
    with unstick(tmp_path), LogLines() as log:
        service.load()
    assert set(service.tables) == {code}
    skipped = {line["file"]: line["reason"] for line in log.kind("table_not_restored")}
    assert skipped == {str(path): f"{path}: is {KINDS[kind]}, not a table"
                       for kind, path in odd.items()}


def test_a_host_with_a_pipe_in_its_tables_folder_still_listens(tmp_path: Path) -> None:
    """``railgames host`` itself: the good table comes back, the pipe is one log line,
    and a player can log in."""
    import asyncio

    from host_terminal import HostProcess, Terminal

    data = tmp_path / "data"
    code = a_waiting_table(data / "tables")
    pipe = make("fifo", data / "tables" / "AAAA.table")  # read first: the files go in order
    make("device", data / "tables" / "BBBB.json")
    host = HostProcess(data)
    # If the host never says where it listens, it is killed, and start() says so.
    watchdog = threading.Timer(120, lambda: host.proc is not None and host.proc.kill())
    watchdog.start()
    try:
        with unstick(data):
            host.start(timeout=120)
        watchdog.cancel()

        async def log_in() -> None:
            ann = await Terminal().open(host.port, "ann", host.password)
            try:
                await ann.wait_for("Host a table", 60)
            finally:
                await ann.close()

        asyncio.run(asyncio.wait_for(log_in(), 120))
        events = [json.loads(line) for line in host.log_lines().splitlines()
                  if line.startswith("{")]
        assert [e["code"] for e in events if e["event"] == "table_restored"] == [code]
        # The host reads the files of its tables folder once, to bring them into its
        # database: the good table comes in, each odd file is one line naming it.
        assert [e["code"] for e in events if e["event"] == "table_imported"] == [code]
        refused = {e["file"]: e["reason"] for e in events if e["event"] == "table_not_imported"}
        assert refused == {str(pipe): f"{pipe}: is a named pipe, not a table",
                           str(data / "tables" / "BBBB.json"):
                               f"{data / 'tables' / 'BBBB.json'}: is a device, not a table"}
    finally:
        watchdog.cancel()
        host.kill()
