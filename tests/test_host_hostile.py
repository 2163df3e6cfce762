"""``railgames host`` against clients that misbehave: bursts, no input, many sessions on
one connection, name churn, forwarding requests, logins cut short, killed clients, and
a host stopped under its players.

For each: another player's session opened before keeps answering keys while and after
the hostile client acts, no app process is left running, and every line of the host's
log is one JSON object. The clients are the system ``ssh`` (OpenSSH) where it is
installed; where it is not, the tests that need its behaviour (multiplexing, -A, -X)
skip and say so, and the rest use asyncssh's client. Names like ``eve`` are the hostile
ones; ``ann`` is the player who must not notice.

The first group runs the host in this process with a tiny stand-in app (it says
``ready`` and answers each read with ``got N``), to check the session counts directly
after every kind of ending; the rest run ``railgames host`` as players do.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from host_terminal import HostProcess, OpenSshTerminal, Terminal
from support import host_events, host_running, running, until

from railgames.net.sshhost import TERMINAL_RESET, Host, HostConfig, Limits

LIMIT = 100  # seconds any one test may take (each takes far less)
SSH = shutil.which("ssh")
NO_SSH = "the OpenSSH client is not installed (Debian: apt-get install openssh-client)"
needs_ssh = pytest.mark.skipif(SSH is None, reason=NO_SSH)

# The stand-in app: one line when it is up, then one line per read of its terminal.
FAKE_APP = [sys.executable, "-c", (
    "import os\n"
    "os.write(1, b'ready\\r\\n')\n"
    "while True:\n"
    "    data = os.read(0, 65536)\n"
    "    if not data: break\n"
    "    if data == b'quit': raise SystemExit(3)\n"
    "    os.write(1, b'got %d\\r\\n' % len(data))\n")]


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), LIMIT))


class Keys:
    """One key pair for every name (the host runs with --authorized-keys)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        self.private = folder / "id_ed25519"
        self.private.write_bytes(self.key.export_private_key())
        self.private.chmod(0o600)
        self.authorized = folder / "authorized_keys"
        self.authorized.write_bytes(self.key.export_public_key())

    def ssh(self, port: int, *options: str) -> list[str]:
        """The system ssh's command line up to the destination (no escape character: random
        bytes are sent as they are, never read by ssh as '~.' or '~^Z')."""
        assert SSH is not None
        return [SSH, "-p", str(port), "-i", str(self.private), "-F", "/dev/null", "-e", "none",
                "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=20", *options]

    async def connect(self, port: int, name: str) -> asyncssh.SSHClientConnection:
        return await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                      client_keys=[self.key], agent_path=None)


@pytest.fixture
def keys(tmp_path: Path) -> Keys:
    return Keys(tmp_path / "keys")


def ssh_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k not in ("SSH_AUTH_SOCK", "DISPLAY", "SSH_ASKPASS")}


# --------------------------------------------------------------------- the host in-process
@asynccontextmanager
async def inprocess_host(tmp_path: Path, keys: Keys, **limits: Any) -> AsyncIterator[Host]:
    config = HostConfig(port=0, data_dir=tmp_path / "data", authorized_keys=keys.authorized,
                        app_command=FAKE_APP, bot_delay=0,
                        limits=Limits(**{"keepalive": 0, **limits}))
    async with host_running(config) as host:
        yield host


def counts_are_zero(host: Host) -> bool:
    return not host.sessions and not host.connections_by_ip


async def fake_session(keys: Keys, port: int, name: str,
                       conn: asyncssh.SSHClientConnection | None = None
                       ) -> tuple[asyncssh.SSHClientConnection, asyncssh.SSHClientProcess[bytes]]:
    conn = conn or await keys.connect(port, name)
    proc = await conn.create_process(term_type="xterm", encoding=None)
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    assert b"ready" in line
    return conn, proc


async def answers(proc: asyncssh.SSHClientProcess[bytes]) -> None:
    proc.stdin.write(b"x")
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    assert line.startswith(b"got"), line


def test_each_kind_of_ending_gives_the_counts_back(tmp_path: Path, keys: Keys) -> None:
    """The counts go back to zero whatever way a session ends (one place takes and gives)."""
    async def scenario() -> None:
        async with inprocess_host(tmp_path, keys, per_ip=3, login_timeout=2) as host:
            ann_conn, ann = await fake_session(keys, host.port, "ann")
            port = host.port

            async def one_ends(how: str) -> None:
                conn, proc = await fake_session(keys, port, "eve")
                assert len(host.sessions) == 2
                if how == "eof":
                    proc.stdin.write_eof()
                elif how == "channel closed":
                    proc.close()
                elif how == "connection lost":
                    conn.abort()
                elif how == "app ended":
                    proc.stdin.write(b"quit")
                await until(lambda: len(host.sessions) == 1, f"the session to end ({how})")
                await answers(ann)
                conn.close()

            for how in ("eof", "channel closed", "connection lost", "app ended"):
                await one_ends(how)
            # Refused sessions are counted while they last, and given back.
            async with await keys.connect(port, "eve") as conn:
                result = await conn.run("id", timeout=30)
                assert result.exit_status == 1
                shell = await conn.run(timeout=30)  # no PTY
                assert shell.exit_status == 1
            # A channel that never asks for a shell (paramiko can open one) is closed after
            # the login timeout.
            paramiko = pytest.importorskip("paramiko")

            def idle_channel() -> None:
                with paramiko.Transport(("127.0.0.1", port)) as transport:
                    transport.connect(username="eve",
                                      pkey=paramiko.Ed25519Key(filename=str(keys.private)))
                    channel = transport.open_session(timeout=20)
                    deadline = time.monotonic() + 30
                    while not channel.closed and time.monotonic() < deadline:
                        time.sleep(0.1)
                    assert channel.closed

            await asyncio.to_thread(idle_channel)
            await until(lambda: len(host.sessions) == 1, "the idle channel to end")
            await answers(ann)
            assert host.connections_by_ip == {"127.0.0.1": 1}
            ann_conn.close()
            await until(lambda: counts_are_zero(host), "every count back")
            # And the address can open exactly per_ip sessions again.
            conns = [await fake_session(keys, port, f"p{i}") for i in range(3)]
            with pytest.raises(asyncssh.ChannelOpenError, match="too many sessions from"):
                await conns[0][0].create_process(term_type="xterm", encoding=None)
            for conn, _ in conns:
                conn.close()
            await until(lambda: counts_are_zero(host), "every count back")

    run(scenario)


def test_sessions_over_one_connection_are_each_counted(tmp_path: Path, keys: Keys) -> None:
    async def scenario() -> None:
        async with inprocess_host(tmp_path, keys, per_ip=3, max_sessions=10) as host:
            conn, first = await fake_session(keys, host.port, "eve")
            more = [(await fake_session(keys, host.port, "eve", conn))[1] for _ in range(2)]
            with pytest.raises(asyncssh.ChannelOpenError, match="too many sessions from"):
                await conn.create_process(term_type="xterm", encoding=None)
            assert len(host.sessions) == 3
            more[0].close()  # one ends: one more may open, over the same connection
            await until(lambda: len(host.sessions) == 2, "the session to end")
            await fake_session(keys, host.port, "eve", conn)
            conn.abort()  # all three go with the connection
            await until(lambda: counts_are_zero(host), "every count back")

    run(scenario)


@pytest.fixture
def events() -> Iterator[list[dict[str, Any]]]:
    """The host's events, as logged in this process."""
    with host_events() as records:
        yield records


# How much lower a flooding session's app runs than the host (never past the lowest, 19).
LOWERED = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10) - os.getpriority(os.PRIO_PROCESS, 0)


def niceness(pid: int) -> int:
    """A process's niceness relative to this one's (the host runs in this process)."""
    own = os.getpriority(os.PRIO_PROCESS, 0)
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16]) - own


def test_a_flood_of_keys_and_an_unread_screen_hold_no_one_up(
        tmp_path: Path, keys: Keys, events: list[dict[str, Any]]) -> None:
    """Keys the app does not take are held up to the bound, the rest dropped with one line;
    an app whose output the client does not read is paused, not buffered without end."""
    async def scenario() -> None:
        async with inprocess_host(tmp_path, keys, input_buffer=4096) as host:
            _, ann = await fake_session(keys, host.port, "ann")
            # eve's app never reads its keys and writes without end...
            host.config.app_command = [sys.executable, "-c",
                                       "import os\nos.write(1, b'ready\\r\\n')\n"
                                       "while True: os.write(1, b'y' * 4096)\n"]
            eve_conn = await keys.connect(host.port, "eve")
            chan, _ = await eve_conn.create_session(asyncssh.SSHClientSession, term_type="xterm",
                                                    encoding=None)
            chan.pause_reading()  # ...and eve's client reads nothing
            await until(lambda: any(s.proc for s in host.sessions if s.login.name == "eve"),
                        "eve's app")
            eve = next(s for s in host.sessions if s.login.name == "eve")
            for _ in range(50):  # 5 MB of keys, as fast as the connection takes them
                chan.write(os.urandom(100_000))
                await asyncio.sleep(0)
            # Once keys are dropped the host takes at most a window (256 kB) each quarter
            # second: a second later most of the flood still waits on eve's side.
            await asyncio.sleep(1.0)
            assert chan.get_write_buffer_size() > 2_000_000
            for _ in range(20):
                await answers(ann)
                assert len(eve.inbox) <= 4096
                assert eve.chan is not None
                assert eve.chan.get_write_buffer_size() <= 64 * 1024 + 65536
                await asyncio.sleep(0.1)
            dropped = [r for r in events if r.get("event") == "input_dropped"]
            assert len(dropped) == 1 and dropped[0]["user"] == "eve"
            # eve's game runs at a low priority from then on; ann's does not.
            assert eve.proc is not None and niceness(eve.proc.pid) == LOWERED
            assert [niceness(s.proc.pid) for s in host.sessions
                    if s.login.name == "ann" and s.proc] == [0]
            eve_conn.abort()
            await until(lambda: len(host.sessions) == 1, "eve's session to end")
            ended = [r for r in events if r.get("event") == "session_ended"]
            assert ended[-1]["user"] == "eve" and ended[-1]["input_dropped"] > 0
            # A new game from the address that flooded starts at a low priority, so that
            # flooding, quitting and logging in again costs the others little; ann's game,
            # started before, goes on as it was.
            again = await keys.connect(host.port, "eve")
            await again.create_session(asyncssh.SSHClientSession, term_type="xterm",
                                       encoding=None)
            await until(lambda: any(s.proc for s in host.sessions if s.login.name == "eve"),
                        "eve's second app")
            second = next(s for s in host.sessions if s.login.name == "eve")
            assert second.proc is not None and niceness(second.proc.pid) == LOWERED
            assert [niceness(s.proc.pid) for s in host.sessions
                    if s.login.name == "ann" and s.proc] == [0]
            again.abort()

    run(scenario)


# --------------------------------------------------------------------- the host as players have it
@pytest.fixture
def host(tmp_path: Path, keys: Keys) -> Iterator[HostProcess]:
    process = HostProcess(tmp_path / "data", "--authorized-keys", str(keys.authorized),
                          "--per-ip", "4", password="").start()
    yield process
    process.kill()


def log_records(host: HostProcess) -> list[dict[str, Any]]:
    """Every line of the host's log, each parsed as JSON (a line that is not fails here)."""
    records = []
    for number, line in enumerate(host.log_lines().splitlines(), 1):
        try:
            records.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"log line {number} is not JSON: {line[:300]}") from None
    return records


def app_pids(host: HostProcess, user: str | None = None) -> list[int]:
    return [r["pid"] for r in log_records(host)
            if r.get("event") == "session_started" and user in (None, r.get("user"))]


def apps_of(host: HostProcess) -> list[int]:
    """The host's children that are app processes (its bot worker is not one)."""
    assert host.proc is not None
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == host.proc.pid and b"seat_app" in cmdline:
            found.append(int(entry.name))
    return found


async def none_left(host: HostProcess, pids: list[int], what: str) -> None:
    assert pids, "no app was started"
    await until(lambda: not any(running(p) for p in pids), f"{what}: app processes left running")


async def player(host: HostProcess, keys: Keys, name: str = "ann") -> Terminal:
    term = await Terminal().open(host.port, name, client_keys=[keys.key])
    await term.wait_for("Host a table", 60)
    return term


async def echoes(term: Terminal) -> None:
    """A key changes the player's screen: Join a table opens, and Escape goes back."""
    term.press("j")
    await term.wait_for(r"Code\s+4 letters", 30)
    term.press("escape")
    deadline = time.monotonic() + 30
    while "Code" in term.text() or "Host a table" not in term.text():
        if time.monotonic() > deadline:
            raise TimeoutError("no way back to the launcher:\n" + term.text())
        await asyncio.sleep(0.05)


async def echoes_while(term: Terminal, hostile: asyncio.Future[Any] | asyncio.Task[Any],
                       at_least: int = 2) -> None:
    """Keep checking the player's echo while the hostile client acts, and after."""
    done = 0
    while not hostile.done() or done < at_least:
        await echoes(term)
        done += 1
    await hostile


async def start_ssh(args: list[str], **kw: Any) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(*args, env=ssh_env(), **kw)


async def ended(proc: asyncio.subprocess.Process, timeout: float = 30) -> int:
    return await asyncio.wait_for(proc.wait(), timeout)


@needs_ssh
def test_a_burst_of_random_bytes_stalls_no_one(host: HostProcess, keys: Keys) -> None:
    """100 kB of random bytes (Ctrl-C, Ctrl-Z and Ctrl-\\ among them) in one write."""
    async def scenario() -> None:
        ann = await player(host, keys)
        await echoes(ann)
        burst = bytearray(os.urandom(100_000))
        burst[10:16] = b"\x03\x1a\x1c\x03\x1a\x1c"
        eve = await start_ssh([*keys.ssh(host.port, "-tt"), "eve@127.0.0.1"],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        assert eve.stdin is not None
        eve.stdin.write(bytes(burst))

        async def hostile() -> None:
            await until(lambda: "input_dropped" in host.log_lines(), "the excess to be dropped")
            await asyncio.sleep(2)

        await echoes_while(ann, asyncio.ensure_future(hostile()))
        # The host still takes new players while eve's session lasts.
        bob = await player(host, keys, "bob")
        await echoes(bob)
        eve.stdin.close()  # eve's input ends: so does eve's session
        await ended(eve)
        await none_left(host, app_pids(host, "eve"), "eve gone")
        await echoes(ann)
        await bob.close()
        await ann.close()
        await none_left(host, app_pids(host), "everyone gone")
        dropped = [r for r in log_records(host) if r["event"] == "input_dropped"]
        assert len(dropped) == 1 and dropped[0]["user"] == "eve"

    run(scenario)


@needs_ssh
def test_signal_keys_before_the_app_is_up_are_only_keys(host: HostProcess, keys: Keys) -> None:
    """Ctrl-C, Ctrl-Z and Ctrl-\\ typed all through the app's start reach it as keys, never
    as signals: the app comes up and answers."""
    async def scenario() -> None:
        eve = await start_ssh([*keys.ssh(host.port, "-tt"), "eve@127.0.0.1"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
        assert eve.stdin is not None and eve.stdout is not None
        seen = bytearray()

        async def read() -> None:
            assert eve.stdout is not None
            while chunk := await eve.stdout.read(65536):
                seen.extend(chunk)

        reader = asyncio.ensure_future(read())
        deadline = time.monotonic() + 60
        up_at = None
        # From the login until a second after the launcher shows, every 20 ms.
        while time.monotonic() < deadline and not reader.done():
            if up_at is None and b"Host a table" in seen:
                up_at = time.monotonic()
            if up_at is not None and time.monotonic() > up_at + 1:
                break
            eve.stdin.write(b"\x03\x1a\x1c")
            await asyncio.sleep(0.02)
        assert up_at is not None, "the app did not come up: " + host.log_lines()
        eve.stdin.write(b"j")
        await until(lambda: b"4 letters" in seen, "the app to answer a key")
        assert [r for r in log_records(host) if r["event"] == "session_ended"] == []
        eve.stdin.close()
        await ended(eve)
        reader.cancel()
        await none_left(host, app_pids(host), "eve gone")

    run(scenario)


@pytest.mark.skipif(not OpenSshTerminal.available(),
                    reason="needs the OpenSSH client and tmux, for a terminal as a person has it")
def test_an_interactive_ssh_sends_no_end_of_input(tmp_path: Path) -> None:
    """The session ends when its input ends; a person's ssh never ends it that way: in a real
    terminal Ctrl-D (and Ctrl-C) are keys sent to the game."""
    host = HostProcess(tmp_path / "data").start()  # the table password: ssh asks for it

    async def scenario() -> None:
        term = OpenSshTerminal(prefix="railgames-hostile")
        try:
            await term.open(host.port, "ann", host.password)
            await term.wait_for("Host a table", 60)
            term.press("\x04", "\x03", "\x04")
            await asyncio.sleep(2)
            term.press("j")
            await term.wait_for(r"Code\s+4 letters", 30)
            assert [r for r in log_records(host) if r["event"] == "session_ended"] == []
        finally:
            term.abort()
        await none_left(host, app_pids(host), "ann gone")

    try:
        run(scenario)
    finally:
        host.kill()


@needs_ssh
def test_sessions_without_input_end_and_free_their_place(tmp_path: Path, keys: Keys) -> None:
    """``ssh -tt </dev/null`` five times: five sessions that end, each logged, none left."""
    host = HostProcess(tmp_path / "data", "--authorized-keys", str(keys.authorized),
                       "--per-ip", "3", password="").start()

    async def scenario() -> None:
        ann = await player(host, keys)
        for round_ in range(5):
            eve = await start_ssh([*keys.ssh(host.port, "-tt"), f"x{round_}@127.0.0.1"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            await echoes_while(ann, asyncio.ensure_future(ended(eve)), at_least=1)
        pids = [p for p in app_pids(host) if p not in app_pids(host, "ann")]
        await none_left(host, pids, "five sessions without input")
        records = log_records(host)
        for pid in pids:
            assert len([r for r in records if r["event"] == "session_ended"
                        and r["pid"] == pid]) == 1
        # Their places are free again: ann and two more (--per-ip 3).
        more = [await player(host, keys, name) for name in ("bob", "cat")]
        for term in (ann, *more):
            await echoes(term)
        for term in (ann, *more):
            await term.close()
        await none_left(host, app_pids(host), "everyone gone")
        assert apps_of(host) == []

    try:
        run(scenario)
    finally:
        host.kill()


@needs_ssh
def test_multiplexed_sessions_count_against_the_address(tmp_path: Path, keys: Keys) -> None:
    """One ``ssh -M`` master and sessions over it: each session counts against --per-ip."""
    host = HostProcess(tmp_path / "data", "--authorized-keys", str(keys.authorized),
                       "--per-ip", "3", password="").start()
    sock = tmp_path / "mux"

    async def scenario() -> None:
        ann = await player(host, keys)  # one of the three
        master = await start_ssh([*keys.ssh(host.port, "-tt", "-M", "-S", str(sock),
                                            "-o", "ControlPersist=no"), "eve@127.0.0.1"],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        await until(sock.exists, "the master's socket")
        muxed = []
        for _ in range(2):
            proc = await start_ssh([*keys.ssh(host.port, "-tt", "-S", str(sock)),
                                    "eve@127.0.0.1"], stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            muxed.append(proc)
        # Two sessions from eve and ann's: a third of eve's is refused, with one line.
        await until(lambda: len(app_pids(host)) == 3 or "too many sessions" in host.log_lines(),
                    "the sessions to start", 60)
        refused = [p for p in muxed if p.returncode is not None]
        await asyncio.sleep(1)
        refused = [p for p in muxed if p.returncode is not None]
        assert len(refused) == 1, host.log_lines()
        assert refused[0].stderr is not None
        said = (await refused[0].stderr.read()).decode()
        assert "too many sessions from 127.0.0.1 (3 at most)" in said
        await echoes(ann)
        assert len(app_pids(host)) == 3
        # The master goes: every session over it ends, and frees its place.
        master.kill()
        await ended(master)
        for proc in muxed:
            if proc.returncode is None:
                proc.kill()
                await ended(proc)
        await none_left(host, app_pids(host, "eve"), "the master killed")
        more = [await player(host, keys, name) for name in ("bob", "cat")]
        for term in (ann, *more):
            await echoes(term)
            await term.close()
        await none_left(host, app_pids(host), "everyone gone")
        log_records(host)

    try:
        run(scenario)
    finally:
        host.kill()


def test_trying_several_names_on_one_connection_takes_no_place(tmp_path: Path,
                                                                keys: Keys) -> None:
    """One connection trying names x0..x3 (paramiko) leaves the address its whole --per-ip."""
    paramiko = pytest.importorskip("paramiko", reason="paramiko (in the test extras) is needed "
                                                      "to try several names on one connection")
    host = HostProcess(tmp_path / "data", "--authorized-keys", str(keys.authorized),
                       "--per-ip", "3", password="").start()

    async def scenario() -> None:
        ann = await player(host, keys)

        def churn() -> None:
            # (ServiceRequestingTransport asks for the login service once, then tries each
            # name on it, as a client trying names would.)
            with paramiko.transport.ServiceRequestingTransport(
                    ("127.0.0.1", host.port)) as transport:
                transport.start_client(timeout=20)
                for i in range(4):
                    try:
                        transport.auth_password(f"x{i}", "not a key", fallback=False)
                    except paramiko.AuthenticationException:
                        pass  # no way in without a key: the next name
                    except paramiko.SSHException:
                        return  # the host hung up

        await echoes_while(ann, asyncio.ensure_future(asyncio.to_thread(churn)))
        await until(lambda: host.log_lines().count('"event": "disconnection"') >= 1,
                    "the churning connection to end")
        # ann and exactly two more (--per-ip 3).
        bob = await player(host, keys, "bob")
        cat = await player(host, keys, "cat")
        with pytest.raises((asyncssh.DisconnectError, asyncssh.ChannelOpenError),
                           match="too many sessions from"):
            async with await keys.connect(host.port, "dan") as conn:
                await conn.create_process(term_type="xterm")
        await echoes(cat)
        await cat.close()
        await echoes(ann)
        await echoes(bob)
        await bob.close()
        await ann.close()
        await none_left(host, app_pids(host), "everyone gone")
        log_records(host)

    try:
        run(scenario)
    finally:
        host.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@needs_ssh
def test_forwarding_requests_are_refused_and_logged(host: HostProcess, keys: Keys,
                                                    tmp_path: Path) -> None:
    """-A, -X, -L and -R: each refused, each one line in the log; the session still plays."""
    async def scenario() -> None:
        ann = await player(host, keys)
        agent_sock = tmp_path / "agent"
        agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(agent_sock)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) \
            if shutil.which("ssh-agent") else None
        local = free_port()
        try:
            if agent is not None:
                await until(agent_sock.exists, "the agent's socket")
            env = {**ssh_env(), "DISPLAY": "127.0.0.1:0"}
            if agent is not None:
                env["SSH_AUTH_SOCK"] = str(agent_sock)
            eve = await asyncio.create_subprocess_exec(
                *keys.ssh(host.port, "-tt", "-A", "-X", "-o", "ForwardX11Trusted=yes",
                          "-L", f"127.0.0.1:{local}:127.0.0.1:22",
                          "-R", "127.0.0.1:0:127.0.0.1:22"), "eve@127.0.0.1",
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=env)
            assert eve.stdout is not None
            await until(lambda: bool(app_pids(host, "eve")), "eve's session", 60)
            # -L asks the host only when something connects to the local end.
            await until(lambda: _connects(local), "ssh's local forward to listen")
            await until(lambda: '"reason": "port forwarding"' in host.log_lines(),
                        "the -L request")
            await echoes(ann)
            eve.kill()
            await ended(eve)
        finally:
            if agent is not None:
                agent.kill()
                agent.wait(10)
        log = host.log_lines()
        reasons = {r.get("reason") for r in log_records(host) if r["event"] == "refused"}
        assert {"port forwarding", "remote port forwarding"} <= reasons, log
        assert "X11 forwarding" in reasons, log
        if agent is not None:
            assert "agent forwarding" in reasons, log
        await ann.close()
        await none_left(host, app_pids(host), "everyone gone")

    run(scenario)


def _connects(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.settimeout(2)
            try:
                sock.recv(1)
            except OSError:
                pass
        return True
    except OSError:
        return False


def test_logins_cut_short_and_killed_clients_leave_nothing(host: HostProcess, keys: Keys) -> None:
    """EOF in the middle of the login, and clients killed mid-session (ssh where it is
    installed, asyncssh's client otherwise)."""
    async def scenario() -> None:
        ann = await player(host, keys)

        async def cut_short() -> None:
            # A banner, half a key exchange, then the end of the stream.
            reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
            await reader.readline()
            writer.write(b"SSH-2.0-eve\r\n\x00\x00\x01")
            writer.write_eof()
            await asyncio.wait_for(reader.read(), 30)
            writer.close()
            # Logged in by name, then gone before any session.
            conn = await keys.connect(host.port, "eve")
            conn.abort()
            # Killed with a session running.
            if SSH is not None:
                eve = await start_ssh([*keys.ssh(host.port, "-tt"), "eve@127.0.0.1"],
                                      stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
                await until(lambda: bool(app_pids(host, "eve")), "eve's session", 60)
                eve.kill()
                await ended(eve)
            else:  # asyncssh's client, dropped without a goodbye
                term = await Terminal().open(host.port, "eve", client_keys=[keys.key])
                await until(lambda: bool(app_pids(host, "eve")), "eve's session", 60)
                term.abort()
            await none_left(host, app_pids(host, "eve"), "eve killed")

        await echoes_while(ann, asyncio.ensure_future(cut_short()))
        records = log_records(host)
        ends = [r for r in records if r["event"] == "session_ended" and r["user"] == "eve"]
        assert len(ends) == 1 and ends[0]["reason"] in ("connection lost", "channel closed")
        await ann.close()
        await none_left(host, app_pids(host), "everyone gone")

    run(scenario)


def test_a_stopped_host_gives_its_players_their_terminals_back(tmp_path: Path,
                                                               keys: Keys) -> None:
    """SIGTERM with players connected: their apps end, their terminals leave the app's
    screen with the cursor shown, and the log stays JSON to its last line."""
    host = HostProcess(tmp_path / "data", "--authorized-keys", str(keys.authorized),
                       password="").start()

    async def scenario() -> None:
        ann = await player(host, keys)
        bob = await player(host, keys, "bob")
        cat = None
        if SSH is not None:
            cat = await start_ssh([*keys.ssh(host.port, "-tt"), "cat@127.0.0.1"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
            await until(lambda: bool(app_pids(host, "cat")), "cat's session", 60)
        await echoes(ann)
        ann.mark()
        bob.mark()
        pids = app_pids(host)
        assert host.proc is not None
        host.proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(asyncio.to_thread(host.proc.wait, 60), 70)
        for term in (ann, bob):
            await until(lambda t=term: b"shutting down" in t.raw, "the goodbye")  # type: ignore[misc]
            assert TERMINAL_RESET in bytes(term.raw)
        if cat is not None:
            assert cat.stdout is not None
            out = await asyncio.wait_for(cat.stdout.read(), 30)
            assert TERMINAL_RESET in out and b"shutting down" in out
            await ended(cat)
        await none_left(host, pids, "the host stopped")
        records = log_records(host)
        assert records[-1]["event"] == "host_stopped"
        assert len([r for r in records if r["event"] == "session_ended"]) == len(pids)
        assert not [r for r in records if r["event"] in ("loop_error", "log", "unraisable")], \
            host.log_lines()

    try:
        run(scenario)
    finally:
        host.kill()


def test_the_log_is_json_whatever_else_logs(tmp_path: Path) -> None:
    """A warning, another library's log line and an error in a callback, through the
    host's logging: each one JSON line."""
    import io
    import logging
    import warnings

    from railgames.net import sshhost

    stream = io.StringIO()
    saved = (logging.getLogger().handlers[:], logging.getLogger().level, sys.unraisablehook)
    try:
        sshhost.setup_logging(stream)
        warnings.warn("something odd", UserWarning, stacklevel=1)
        logging.getLogger("asyncio").error("Task exception was never retrieved",
                                           exc_info=ValueError("x"))

        async def loop_error() -> None:
            loop = asyncio.get_running_loop()
            loop.set_exception_handler(sshhost._loop_error)
            loop.call_soon(lambda: 1 / 0)
            await asyncio.sleep(0.05)

        asyncio.run(loop_error())
    finally:
        logging.captureWarnings(False)
        root = logging.getLogger()
        root.handlers[:], level, sys.unraisablehook = saved
        root.setLevel(level)
        logging.getLogger("railgames.host").handlers.clear()
        logging.getLogger("railgames.host").propagate = True
    lines = stream.getvalue().splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == 3, lines
    assert "something odd" in records[0]["message"]
    assert records[1]["logger"] == "asyncio" and "ValueError" in records[1]["traceback"]
    assert records[2]["event"] == "loop_error" and "ZeroDivisionError" in records[2]["error"]
    assert all(re.fullmatch(r"\{.*\}", line) for line in lines)
