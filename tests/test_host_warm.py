"""Each session's app forked from the host's warm process (railgames/net/warm.py).

The host runs in this process with a stand-in app (tests/warm_stand_in.py) forked the
way the seat app is: what each app is given (its player's environment, its terminal,
nothing of the warm process or of another session), its exit status and last words
passed to the client, its process group ended with its session, the warm process lost
and replaced (sessions meanwhile started the old way, one line logged), and clients that
vanish while their session starts leave no app behind.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from support import host_events, host_running, running, until

from railgames.net import warm
from railgames.net.sshhost import Host, HostConfig, Limits

LIMIT = 60  # seconds any one test may take
TESTS = Path(__file__).resolve().parent


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), LIMIT))


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """The host's events, as logged in this process (the warm process imports the stand-in
    from the tests' folder)."""
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (str(TESTS), path))))
    with host_events() as records:
        yield records


@asynccontextmanager
async def warm_host(tmp_path: Path) -> AsyncIterator[Host]:
    config = HostConfig(port=0, data_dir=tmp_path / "data", password="table-pw", bot_delay=0,
                        warm_app="warm_stand_in:main", limits=Limits(keepalive=0))
    async with host_running(config) as host:
        yield host


class Session:
    def __init__(self, conn: asyncssh.SSHClientConnection,
                 proc: asyncssh.SSHClientProcess[bytes], state: dict[str, Any]) -> None:
        self.conn, self.proc, self.state = conn, proc, state

    async def line(self) -> bytes:
        return await asyncio.wait_for(self.proc.stdout.readline(), 20)


async def session(host: Host, name: str) -> Session:
    conn = await asyncssh.connect("127.0.0.1", host.port, username=name, password="table-pw",
                                  known_hosts=None, client_keys=None, agent_path=None)
    proc = await conn.create_process(term_type="xterm", encoding=None)
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    assert line.startswith(b"state "), line
    return Session(conn, proc, json.loads(line[6:]))


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def started(events: list[dict[str, Any]], user: str) -> dict[str, Any]:
    return [e for e in events if e.get("event") == "session_started" and e["user"] == user][-1]


def test_each_app_is_forked_with_its_own_player_and_nothing_of_another(
        tmp_path: Path, events: list[dict[str, Any]]) -> None:
    """Two players at once: each app is the warm process's child, leads a session of its
    own on its terminal, holds no descriptor but the terminal's, and has its own player,
    folder and token; what one changes (module state, environment, folder, umask) the
    other never sees. Quitting passes the app's last line and exit status to the client."""
    async def scenario() -> None:
        async with warm_host(tmp_path) as host:
            assert host.warm is not None
            ann = await session(host, "ann")
            bob = await session(host, "bob")
            warm_pid = host.warm.pid
            for who, s in (("ann", ann), ("bob", bob)):
                state = s.state
                assert state["player"] == who and state["seen"] == [who]
                assert Path(state["data_dir"]).name == who
                assert state["ppid"] == warm_pid
                assert state["sid"] == state["pgid"] == state["pid"]
                assert state["tty"].startswith("/dev/pts/") and state["stdout_tty"]
                assert state["fds"] == [0, 1, 2]
                assert state["cwd"] == os.getcwd()
                assert state["umask"] == ann.state["umask"]
                assert set(state["env"]) == {
                    "TERM", "COLORTERM", "LANG", "LC_ALL", "PATH", "HOME", "PYTHONPATH",
                    "RAILGAMES_DATA_DIR", "RAILGAMES_TABLES", "RAILGAMES_TOKEN",
                    "RAILGAMES_PLAYER", *(n for n in ("VIRTUAL_ENV", "RAILGAMES_BOT_DELAY")
                                          if n in os.environ)}
                assert started(events, who)["app"] == "forked"
            assert ann.state["data_dir"] != bob.state["data_dir"]
            assert ann.state["token"] != bob.state["token"]
            # ann quits: her last line and exit status reach her; then a third app starts
            # as clean as the first, whatever ann's changed in hers.
            ann.proc.stdin.write(b"quit")
            assert (await ann.line()).strip() == b"bye"
            await asyncio.wait_for(ann.proc.wait_closed(), 20)
            assert ann.proc.exit_status == 3
            ended = [e for e in events if e.get("event") == "session_ended"]
            assert ended[-1]["user"] == "ann" and ended[-1]["code"] == 3
            cat = await session(host, "cat")
            assert cat.state["seen"] == ["cat"] and cat.state["umask"] == ann.state["umask"]
            assert cat.state["cwd"] == os.getcwd()
            bob.proc.stdin.write(b"x")
            assert (await bob.line()).strip() == b"got 1"
            for s in (bob, cat):
                s.conn.close()
            await until(lambda: not host.sessions, "the sessions to end")

    run(scenario)


def test_a_session_that_hangs_up_ends_its_apps_whole_group(
        tmp_path: Path, events: list[dict[str, Any]]) -> None:
    async def scenario() -> None:
        async with warm_host(tmp_path) as host:
            ann = await session(host, "ann")
            ann.proc.stdin.write(b"spawn")
            line = await ann.line()
            assert line.startswith(b"spawned ")
            sleeper = int(line.split()[1])
            app = ann.state["pid"]
            assert running(sleeper) and running(app)
            ann.conn.abort()  # a client killed: no goodbye
            await until(lambda: not running(app) and not running(sleeper),
                        "the app and what it started to end")
            await until(lambda: not host.sessions, "the session to be given back")
            ended = [e for e in events if e.get("event") == "session_ended"]
            assert ended[-1]["reason"] in ("connection lost", "channel closed")

    run(scenario)


def test_a_lost_warm_process_is_replaced_and_sessions_start_meanwhile(
        tmp_path: Path, events: list[dict[str, Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm process killed under a running session: that session goes on and ends as
    usual; a login meanwhile gets its app the old way (a fresh interpreter); one line is
    logged; and a new warm process forks the apps after that."""
    monkeypatch.setattr(warm, "RESTART_FIRST", 1.5)  # time for a login before the restart

    async def scenario() -> None:
        async with warm_host(tmp_path) as host:
            assert host.warm is not None
            ann = await session(host, "ann")
            first = host.warm.pid
            assert first is not None and ann.state["ppid"] == first
            os.kill(first, signal.SIGKILL)
            await until(lambda: any(e.get("event") == "warm_process_lost" for e in events),
                        "the loss to be logged")
            bob = await session(host, "bob")
            assert started(events, "bob")["app"] == "started"
            assert bob.state["ppid"] == os.getpid() and bob.state["seen"] == ["bob"]
            await until(lambda: host.warm is not None and host.warm.pid not in (None, first),
                        "a new warm process")
            cat = await session(host, "cat")
            assert started(events, "cat")["app"] == "forked"
            assert cat.state["ppid"] == host.warm.pid
            # ann's app, orphaned, still answers; it ends when she leaves.
            ann.proc.stdin.write(b"x")
            assert (await ann.line()).strip() == b"got 1"
            ann.proc.stdin.write(b"quit")
            await asyncio.wait_for(ann.proc.wait_closed(), 20)
            await until(lambda: len(host.sessions) == 2, "ann's session to end")
            for s in (bob, cat):
                s.conn.close()
            await until(lambda: not host.sessions, "the sessions to end")
            lost = [e for e in events if e.get("event") == "warm_process_lost"]
            assert len(lost) == 1 and lost[0]["apps_running"] == 1

    run(scenario)


def test_clients_that_vanish_while_their_app_starts_leave_none_behind(
        tmp_path: Path, events: list[dict[str, Any]]) -> None:
    async def scenario() -> None:
        async with warm_host(tmp_path) as host:
            assert host.warm is not None
            ann = await session(host, "ann")  # the warm process is up
            for pause in (0, 0, 0.001, 0.005, 0.02):
                conn = await asyncssh.connect(
                    "127.0.0.1", host.port, username="eve", password="table-pw",
                    known_hosts=None, client_keys=None, agent_path=None)
                chan, _ = await conn.create_session(asyncssh.SSHClientSession,
                                                    term_type="xterm", encoding=None)
                await asyncio.sleep(pause)
                conn.abort()
            await until(lambda: len(host.sessions) == 1, "eve's sessions to end")
            await until(lambda: children_of(host.warm.pid) == [ann.state["pid"]],  # type: ignore[union-attr]
                        "eve's apps to end")
            ann.conn.close()
            await until(lambda: not host.sessions, "ann's session to end")
            await until(lambda: not children_of(host.warm.pid), "ann's app to end")  # type: ignore[union-attr]

    run(scenario)


def test_a_session_that_ends_while_the_warm_process_imports_gives_its_place_back(
        tmp_path: Path, events: list[dict[str, Any]]) -> None:
    """The first player leaves before the warm process has imported the app: the place is
    free at once, not when the import is done; the app forked for them then is ended."""
    async def scenario() -> None:
        config = HostConfig(port=0, data_dir=tmp_path / "data", password="table-pw",
                            warm_app="warm_stand_in:slow_main", limits=Limits(keepalive=0))
        host = Host(config)
        await host.start()
        try:
            assert host.warm is not None and not host.warm.ready
            warm_pid = host.warm.pid
            assert warm_pid is not None
            conn = await asyncssh.connect(
                "127.0.0.1", host.port, username="eve", password="table-pw",
                known_hosts=None, client_keys=None, agent_path=None)
            await conn.create_session(asyncssh.SSHClientSession, term_type="xterm",
                                      encoding=None)
            await until(lambda: bool(host.sessions), "eve's session")
            conn.abort()
            await until(lambda: not host.sessions, "eve's place given back", 1.5)
            assert not host.warm.ready  # (given back before the import was done)
            await until(lambda: host.warm is not None and host.warm.ready, "the warm process")
            await asyncio.sleep(0.5)  # the fork answered, and its app ended
            await until(lambda: not children_of(warm_pid), "eve's late app to end")
            ended = [e for e in events if e.get("event") == "session_ended"]
            assert len(ended) == 1 and ended[0]["pid"] is None
        finally:
            await host.close()

    run(scenario)
