"""Helpers for the SSH tests and the load benchmark: a host process and terminals that read it.

``HostProcess`` runs ``railgames host`` on a free loopback port; ``Terminal`` is
an asyncssh client session on a PTY whose output feeds a pyte screen, so a test
reads what a player would see.

A name belongs to its player: the first login under a new name (with the table
password) chooses the name's passphrase, and later logins give that passphrase.
``Terminal.open`` logs in as that player would: given the table password for a
name the host already knows, it gives the name's passphrase (``passphrase_for``)
instead, and at a new name's first login it chooses that passphrase on the
screen the app shows first. ``exactly=True`` sends the password as given and
nothing more (a test of the login itself).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import asyncssh
import pyte

# The hosts these helpers started: port -> data directory (where the register of players is).
HOSTS: dict[int, Path] = {}


def passphrase_for(name: str) -> str:
    """The passphrase the player called ``name`` chooses in these tests."""
    return f"{name} own passphrase"


def has_passphrase(port: int, name: str) -> bool:
    """Whether the host on ``port`` (started here) keeps a passphrase for ``name``."""
    data = HOSTS.get(port)
    if data is None:
        return False
    try:
        players = json.loads((data / "host" / "players.json").read_text())["players"]
    except (OSError, ValueError, KeyError):
        return False
    entry = players.get(name.lower())
    return bool(entry and entry.get("passphrase"))


KEYS = {"enter": "\r", "down": "\x1b[B", "up": "\x1b[A", "left": "\x1b[D", "right": "\x1b[C",
        "tab": "\t", "escape": "\x1b", "home": "\x1b[H", "end": "\x1b[F",
        "ctrl+p": "\x10"}


def client_key(folder: Path) -> tuple[asyncssh.SSHKey, Path, Path]:
    """A player's new SSH key: the key, its private file (mode 600, for ``ssh -i``) and an
    authorized_keys file holding it (for ``--authorized-keys``), in ``folder``."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = folder / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    authorized = folder / "authorized_keys"
    authorized.write_bytes(key.export_public_key())
    return key, key_file, authorized


class HostProcess:
    def __init__(self, data_dir: Path, *extra: str, password: str = "table-pw") -> None:
        self.data_dir = data_dir
        self.password = password
        self.extra = list(extra)
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.greeting = ""

    def start(self, timeout: float = 30.0) -> HostProcess:
        args = [sys.executable, "-m", "railgames.cli", "host", "--port", "0", "--data-dir",
                str(self.data_dir), "--bot-delay", "0", *self.extra]
        if self.password and "--authorized-keys" not in self.extra:
            args += ["--password", self.password]
        env = {**os.environ, "RAILGAMES_DATA_DIR": str(self.data_dir)}
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.data_dir / "host.log", "a")  # noqa: SIM115 - lives as long as the host
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True, env=env,
                                     stdin=subprocess.DEVNULL)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        lines = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the host stopped: " + (self.data_dir / "host.log").read_text())
            lines.append(line)
            found = re.search(r"listening on [0-9.]+:(\d+)", line)
            if found:
                self.port = int(found.group(1))
            if line.startswith("tables are kept"):
                break
        self.greeting = "".join(lines)
        if not self.port:
            raise RuntimeError("the host did not say where it listens")
        HOSTS[self.port] = self.data_dir
        return self

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        # A killed host leaves its app processes to notice the closed socket; make sure.
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()

    def log_lines(self) -> str:
        return (self.data_dir / "host.log").read_text()


def login_secret(port: int, name: str, password: str | None,
                 exactly: bool) -> tuple[str | None, bool]:
    """What a player types to log in as ``name``: its passphrase once it has one, else the
    table password given (``exactly``: the password as given); and whether this is the
    name's first login, when the player chooses its passphrase."""
    if password is None or exactly:
        return password, False
    if has_passphrase(port, name):
        return passphrase_for(name), False
    return password, True


class Terminal:
    """A player's terminal: an SSH session with a PTY, read through a screen emulator."""

    def __init__(self, width: int = 120, height: int = 40) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.size = (width, height)
        self.conn: asyncssh.SSHClientConnection | None = None
        self.proc: asyncssh.SSHClientProcess[bytes] | None = None
        self._reader: asyncio.Task[None] | None = None
        self.received = 0
        self.changed = asyncio.Event()
        # The raw output since ``mark()``; with ``emulate`` off the screen is not kept up
        # (the load benchmark reads the raw bytes, to spend its time on the host, not on pyte).
        self.emulate = True
        self.raw = bytearray()

    async def open(self, port: int, name: str, password: str | None = None,
                   exactly: bool = False, **kw: Any) -> Terminal:
        password, first = login_secret(port, name, password, exactly)
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, username=name, password=password, known_hosts=None,
            client_keys=kw.pop("client_keys", None), agent_path=None, **kw)
        self.proc = await self.conn.create_process(
            term_type="xterm-256color", term_size=self.size, encoding=None)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        if first:
            await self.choose_passphrase(passphrase_for(name))
        return self

    async def choose_passphrase(self, passphrase: str) -> None:
        """At a new name's first login: choose its passphrase, and wait for the launcher."""
        await self.wait_for("Choose a passphrase for", 60)
        # The passphrase, Tab; the same again, Enter; with a moment for the focus to move
        # (a busy app may take a key before it has moved the focus for the one before).
        for field, then in (("Choose it", "tab"), ("Again", "enter")):
            await asyncio.sleep(1.0)
            self.press(passphrase)
            await self.wait_for(field + r"\s*•", 60)
            self.press(then)
        await self.wait_for("Host a table", 60)

    async def _read(self) -> None:
        assert self.proc is not None
        while True:
            data = await self.proc.stdout.read(65536)
            if not data:
                break
            self.received += len(data)
            self.raw += data
            if self.emulate:
                self.stream.feed(data)
            self.changed.set()

    def mark(self) -> None:
        self.raw.clear()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """Wait until the screen shows ``pattern`` (a regular expression)."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text())
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {pattern!r} on the screen:\n{self.text()}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
            except TimeoutError:
                pass

    def press(self, *keys: str) -> None:
        assert self.proc is not None
        for key in keys:
            self.proc.stdin.write(KEYS.get(key, key).encode())

    def abort(self) -> None:
        """Drop the connection as a killed client would: no goodbye."""
        if self.conn is not None:
            self.conn.abort()
        if self._reader is not None:
            self._reader.cancel()

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            try:
                await asyncio.wait_for(self.conn.wait_closed(), 5)
            except TimeoutError:
                self.conn.abort()
        if self._reader is not None:
            self._reader.cancel()


class WebTerminal(Terminal):
    """A browser at ``railgames serve``: the same websocket messages its page sends."""

    async def open_web(self, port: int, *, tls: Any = None, source: str | None = None,
                       headers: dict[str, str] | None = None) -> WebTerminal:
        """Open the page's websocket: over TLS with ``tls`` (an SSL context), from the
        loopback address ``source`` if given (127.0.0.2: another browser's address)."""
        import aiohttp

        connector = aiohttp.TCPConnector(local_addr=(source, 0) if source else None)
        self.session = aiohttp.ClientSession(connector=connector)
        width, height = self.size
        scheme = "wss" if tls is not None else "ws"
        self.ws = await self.session.ws_connect(
            f"{scheme}://127.0.0.1:{port}/ws?width={width}&height={height}",
            ssl=tls if tls is not None else True, headers=headers)
        self._reader = asyncio.get_running_loop().create_task(self._read_ws())
        return self

    async def _read_ws(self) -> None:
        import aiohttp

        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.received += len(message.data)
                self.stream.feed(message.data)
                self.changed.set()

    def press(self, *keys: str) -> None:
        for key in keys:
            asyncio.get_running_loop().create_task(
                self.ws.send_json(["stdin", KEYS.get(key, key)]))

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        await self.ws.close()
        await self.session.close()


TMUX_KEYS = {"enter": "Enter", "down": "Down", "up": "Up", "left": "Left", "right": "Right",
             "tab": "Tab", "escape": "Escape", "home": "Home", "end": "End", "ctrl+p": "C-p",
             "\x1b[Z": "BTab", "\x13": "C-s", "\r": "Enter", "shift+tab": "BTab",
             "ctrl+s": "C-s"}


class OpenSshTerminal:
    """A player's terminal as a person has it: the system ``ssh`` in a tmux window.

    The same questions as ``Terminal`` (press keys, read the screen), answered by
    ``tmux send-keys`` and ``tmux capture-pane``; the password is typed at ssh's prompt.
    """

    count = 0

    def __init__(self, width: int = 120, height: int = 40, prefix: str = "railgames-test") -> None:
        OpenSshTerminal.count += 1
        self.session = f"{prefix}-{os.getpid()}-{OpenSshTerminal.count}"
        self.size = (width, height)
        self.opened = False

    @staticmethod
    def available() -> bool:
        import shutil

        return bool(shutil.which("ssh") and shutil.which("tmux"))

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL)
        return done.stdout

    async def open(self, port: int, name: str, password: str | None = None,
                   exactly: bool = False, **kw: Any) -> OpenSshTerminal:
        password, first = login_secret(port, name, password, exactly)
        width, height = self.size
        command = (f"ssh -p {port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                   f"-o LogLevel=ERROR -o PubkeyAuthentication=no {name}@127.0.0.1")
        self._tmux("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height),
                   command)
        self.opened = True
        if password is not None:
            await self.wait_for(r"[Pp]assword:", 30)
            self._tmux("send-keys", "-t", self.session, "-l", password)
            self._tmux("send-keys", "-t", self.session, "Enter")
        if first:
            await self.wait_for("Choose a passphrase for", 60)
            for field, then in (("Choose it", "tab"), ("Again", "enter")):
                await asyncio.sleep(0.3)
                self.press(passphrase_for(name))
                await self.wait_for(field + r"\s*•", 60)
                self.press(then)
            await self.wait_for("Host a table", 60)
        return self

    def text(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.session)

    def alive(self) -> bool:
        """Whether the ssh client still runs (its tmux window closes when it ends)."""
        done = subprocess.run(["tmux", "has-session", "-t", self.session], capture_output=True,
                              timeout=20, stdin=subprocess.DEVNULL)
        return done.returncode == 0

    async def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.text()
            found = re.search(pattern, shown)
            if found:
                return found
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {pattern!r} on the screen:\n{shown}")
            await asyncio.sleep(0.25)  # a look is one short tmux call

    def press(self, *keys: str) -> None:
        for key in keys:
            if key in TMUX_KEYS:
                self._tmux("send-keys", "-t", self.session, TMUX_KEYS[key])
            else:
                self._tmux("send-keys", "-t", self.session, "-l", KEYS.get(key, key))

    def abort(self) -> None:
        if self.opened:
            self._tmux("kill-session", "-t", self.session)
            self.opened = False

    async def close(self) -> None:
        self.abort()


def kept_record(data_dir: Path, code: str) -> Any:
    """The record of table ``code`` as the host keeps it (None before its game begins), read
    from the host's database while it runs."""
    from railgames.net.sqlstore import open_store

    store = open_store(None, data_dir)
    try:
        return store.load(code).record
    finally:
        store.close()


async def until(check: Any, what: str, timeout: float = 30.0) -> None:
    """Wait until ``check()`` is true, saying ``what`` did not happen if it never is."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.1)
