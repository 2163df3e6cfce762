"""``railgames host``: an SSH server giving each session the app on its own PTY.

One app process per session channel (a crash or a slow screen in one session
never stalls another), forked from a warm process that has imported the app once
(``warm``); the tables live in this process and the app processes reach them over
a local socket (see ``tableserver``). Only an interactive
session with a PTY is served: commands, subsystems and every kind of forwarding
are refused. Limits count session channels, however many share a connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import json
import logging
import os
import secrets
import signal
import struct
import sys
import termios
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from railgames import compat
from railgames.core.errors import RailgamesError, RecordError
from railgames.net import proxyproto
from railgames.net.docstore import hear_kicks, shared_docs
from railgames.net.notify import Notifier
from railgames.net.players import (
    Kick,
    Player,
    Verdict,
    cheap_passphrases,
    check_key,
    check_password,
    now_text,
    player_dir,
)
from railgames.net.service import TableService
from railgames.net.sqlstore import open_store
from railgames.net.store import FileTableStore, TableStore
from railgames.net.tableimport import import_table_files
from railgames.net.tables import Login, event, name_problem
from railgames.net.tableserver import TableServer
from railgames.net.warm import SEAT_APP, ForkedApp, WarmForker, WarmLost, fresh_command

log = logging.getLogger("railgames.host")


@dataclass
class Limits:
    max_sessions: int = 50
    per_ip: int = 8
    login_timeout: float = 30.0
    idle_timeout: float = 1800.0  # seconds without a key press
    keepalive: float = 30.0  # seconds between keepalives; 3 unanswered close the connection
    login_failures: int = 10  # failed logins per address per minute (SSH and browser alike)
    input_buffer: int = 64 * 1024  # bytes of keys held for one app, at most (the rest dropped)
    app_grace: float = 3.0  # seconds an app has to end after SIGHUP, before SIGKILL
    proxy_header: float = 5.0  # seconds a connection has to send its PROXY protocol header


@dataclass
class HostConfig:
    bind: str = "127.0.0.1"
    port: int = 2222
    data_dir: Path = field(default_factory=Path)
    password: str | None = None
    authorized_keys: Path | None = None
    limits: Limits = field(default_factory=Limits)
    bot_delay: float = 0.7
    bot_takeover: float | None = None
    unattended: bool = False  # bots move at a table with nobody there
    app_command: list[str] | None = None  # what runs on each PTY (default: the app)
    # Without an app command, what each PTY's app is forked from the warm process to run
    # ("module:function", see warm.py): the seat app, or a stand-in of a test's or a
    # benchmark's.
    warm_app: str = SEAT_APP
    # Run for each notification, its JSON on standard input (notify.py); None: none sent.
    notify_command: str | None = None
    # How a notification says to come back ({player}, {code}); default: the ssh command.
    notify_join: str | None = None
    # Where the tables are kept (``sqlstore.open_store``): None is tables.sqlite3 in data_dir.
    store: str | None = None
    # Behind a load balancer: each connection starts with a PROXY protocol header (v1 or v2)
    # naming the client, whose address counts for everything per address (proxyproto.py).
    proxy_protocol: bool = False
    host_key: Path | None = None  # the host's private key; default: made in data_dir/host


# Back from the app's screen: main screen, cursor shown, no mouse reports, no bracketed paste.
TERMINAL_RESET = (b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"
                  b"\x1b[?1015l\x1b[?2004l\x1b[0m")


class JsonLines(logging.Formatter):
    """One JSON object per line, whatever logged it (a traceback goes in a field)."""

    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", None)
        if not fields:
            fields = {"event": "log", "logger": record.name, "level": record.levelname,
                      "message": record.getMessage()}
            if record.exc_info:
                fields["traceback"] = self.formatException(record.exc_info)
        return json.dumps({"ts": round(time.time(), 3), **fields}, default=str)


def setup_logging(stream: Any = None) -> None:
    """Everything the host process logs goes out as JSON lines: its own events, and what
    asyncio, asyncssh, warnings, threads and finalizers would otherwise print as text."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("railgames.host")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    logging.captureWarnings(True)

    def unraisable(info: Any) -> None:
        event("unraisable", message=info.err_msg or "exception ignored",
              error=repr(info.exc_value), where=repr(info.object)[:200])

    def thread_error(info: Any) -> None:
        event("thread_error", thread=getattr(info.thread, "name", None),
              error=repr(info.exc_value),
              traceback="".join(traceback.format_exception(info.exc_value)))

    sys.unraisablehook = unraisable
    threading.excepthook = thread_error


def join_hint(config: HostConfig) -> str:
    """How a notification tells a player to come back: the operator's text, or the ssh
    command for this host's address and port."""
    if config.notify_join:
        return config.notify_join
    import socket

    host = config.bind if config.bind not in ("", "0.0.0.0", "::") else socket.gethostname()
    if ":" in host:
        host = f"[{host}]"
    return f"ssh -p {config.port} {{player}}@{host}, then table {{code}}"


def host_key(data_dir: Path, given: Path | None = None) -> tuple[asyncssh.SSHKey, bool]:
    """The host's key: the one given (--host-key: several hosts behind one address show
    the same), else the data directory's ed25519 key, made on the first run; True when
    it was just made."""
    if given is not None:
        return asyncssh.read_private_key(str(given)), False
    path = data_dir / "host" / "ssh_host_ed25519_key"
    if path.exists():
        return asyncssh.read_private_key(str(path)), False
    path.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="railgames host")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    return key, True


class Host:
    """The SSH server, the sessions it runs, and the tables behind them."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.store = open_host_store(config.store, config.data_dir)
        self.service = TableService(config.data_dir / "tables", bot_delay=config.bot_delay,
                                    bot_takeover=config.bot_takeover,
                                    unattended=config.unattended, store=self.store)
        # Players, profiles and notifications beside tables that several hosts share
        # (PostgreSQL); None: files in the host's folder, as for one host.
        self.docs = shared_docs(self.service.store)
        self._loop: asyncio.AbstractEventLoop | None = None
        if self.docs is not None:  # a ban or kick made on another host ends sessions here
            hear_kicks(self.service.store, self._kick_from_elsewhere)
        self.tables = TableServer(self.service, _socket_path(config.data_dir))
        self.notifier: Notifier | None = None
        if config.notify_command:
            self.notifier = Notifier(config.notify_command, config.data_dir / "host" / "outbox",
                                     clock=self.service.clock, join_hint=join_hint(config),
                                     docs=self.docs)
        # The sessions (channels) counted against --max-sessions, and how many of them each
        # address has (--per-ip): see admit and release.
        self.sessions: set[PtySession] = set()
        self.connections_by_ip: dict[str, int] = {}
        self.open_connections = 0
        # Addresses whose sessions flooded their games lately, and when (see FLOOD_MEMORY).
        self.flooded: dict[str, float] = {}
        self.connections: set[HostConnection] = set()
        self.server: asyncssh.SSHAcceptor | ProxiedListener | None = None
        self.authorized: asyncssh.SSHAuthorizedKeys | None = None
        self.password = config.password
        self.key: asyncssh.SSHKey | None = None
        self.key_is_new = False
        # For measuring (benchmarks/ssh_load.py): each key's time from reaching the host to
        # the app's first output after it, one line per key, in this file.
        echo_log = os.environ.get("RAILGAMES_ECHO_LOG")
        self.echo_log = open(echo_log, "a", buffering=1) if echo_log else None  # noqa: SIM115
        # The process each session's app is forked from, the app's modules imported once
        # (warm.py); None with an app command of the operator's, which is started afresh.
        self.warm: WarmForker | None = (
            WarmForker(app_env(), event, config.warm_app) if config.app_command is None
            else None)

    def note_echo(self, seconds: float) -> None:
        if self.echo_log is not None:
            self.echo_log.write(f"{time.time():.3f} {seconds * 1000:.2f}\n")

    async def start(self) -> None:
        cfg = self.config
        self._loop = asyncio.get_running_loop()
        self.key, self.key_is_new = host_key(cfg.data_dir, cfg.host_key)
        if cfg.authorized_keys is not None:
            self.authorized = asyncssh.read_authorized_keys(str(cfg.authorized_keys))
            self.password = None
        elif not self.password:
            self.password = "-".join(secrets.token_hex(2) for _ in range(3))
        self.tables.password = self.password
        self.tables.keep_players(cfg.data_dir / "host", cfg.limits.login_failures, self.docs)
        if self.notifier is not None:  # before the tables come back: they say whose move it is
            self.notifier.watch(self.service, self.tables)
        # Tables an earlier version kept as files come into the database once.
        import_table_files(cfg.data_dir / "tables", self.store)
        self.service.load()
        self.service.follow()  # hosts sharing a database: what the others change comes here
        self.tables.on_kick = self.kick
        await self.tables.start()
        if self.warm is not None:  # importing while the rest starts
            self.warm.start()
        # Where the table socket is, for 'railgames serve' beside this host.
        (cfg.data_dir / "host" / "socket-path").write_text(str(self.tables.socket_path))
        for table in self.service.tables.values():  # a bot whose turn it was goes on
            self.service.schedule_bots(table)
        try:
            self.server = await self._listen()
        except BaseException:
            if self.warm is not None:
                await self.warm.close()
            await self.tables.close()  # no socket left behind for 'railgames serve' to find
            (cfg.data_dir / "host" / "socket-path").unlink(missing_ok=True)
            raise
        if self.notifier is not None and not cfg.port and not cfg.notify_join:
            self.notifier.join_hint = join_hint(dataclasses.replace(cfg, port=self.port))
        event("host_started", bind=cfg.bind, port=self.port,
              fingerprint=self.key.get_fingerprint("sha256"),
              auth="public key" if self.authorized else "password",
              **({"proxy_protocol": True} if cfg.proxy_protocol else {}),
              **({"passphrases": "hashed cheaply, for tests only"}
                 if cheap_passphrases() else {}))

    def ssh_options(self) -> dict[str, Any]:
        """The SSH server's settings, the same for every connection."""
        cfg = self.config
        assert self.key is not None
        return dict(
            server_host_keys=[self.key],
            login_timeout=cfg.limits.login_timeout,
            keepalive_interval=cfg.limits.keepalive or None,
            keepalive_count_max=3,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            encoding=None, line_editor=False,
        )

    async def _listen(self) -> asyncssh.SSHAcceptor | ProxiedListener:
        cfg = self.config
        if cfg.proxy_protocol:
            return ProxiedListener(self)
        return await asyncssh.create_server(
            lambda: HostConnection(self), cfg.bind, cfg.port, **self.ssh_options())

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    def admit(self, session: PtySession) -> str | None:
        """Count a new session channel, or say why it cannot be had (nothing counted then).

        ``release`` gives the count back; between them they are the only places the
        counts change, so each count taken is given back exactly once.
        """
        limits = self.config.limits
        if len(self.sessions) >= limits.max_sessions:
            return f"the host is full ({limits.max_sessions} sessions); try again later."
        if self.connections_by_ip.get(session.ip, 0) >= limits.per_ip:
            return f"too many sessions from {session.ip} ({limits.per_ip} at most)."
        self.sessions.add(session)
        self.connections_by_ip[session.ip] = self.connections_by_ip.get(session.ip, 0) + 1
        return None

    def release(self, session: PtySession) -> None:
        if session not in self.sessions:
            return
        self.sessions.discard(session)
        left = self.connections_by_ip[session.ip] - 1
        if left:
            self.connections_by_ip[session.ip] = left
        else:
            del self.connections_by_ip[session.ip]

    async def close(self) -> None:
        """Stop in order: no one new; every session's app ended and its client told (its
        terminal given back); the connections closed; then the tables, saved."""
        if self.server is not None:
            self.server.close()
        sessions = list(self.sessions)
        for session in sessions:
            session.end("host stopping", "railgames: the host is shutting down.")
        running = [s.task for s in sessions if s.task is not None]
        if running:
            await asyncio.wait(running, timeout=self.config.limits.app_grace + 5)
        # The clients leave by themselves once their sessions are closed; those that stay,
        # a moment later, are disconnected.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2.0
        while self.connections and loop.time() < deadline:
            await asyncio.sleep(0.05)
        for connection in list(self.connections):
            if connection.conn is not None:
                connection.conn.close()
        deadline = loop.time() + 2.0
        while self.connections and loop.time() < deadline:
            await asyncio.sleep(0.05)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2.0)
        if self.warm is not None:
            await self.warm.close()
        await self.tables.close()
        (self.config.data_dir / "host" / "socket-path").unlink(missing_ok=True)
        self.service.close()
        if self.notifier is not None:  # a command under way may finish; the rest waits
            await asyncio.to_thread(self.notifier.close)
        if self.store is not None:
            await asyncio.to_thread(self.store.close)

    def kick(self, kick: Kick) -> int:
        """End the SSH sessions of a kicked, banned or renamed login, and their connections
        (a connection that stayed open could start a new session without logging in)."""
        ended = 0
        for session in list(self.sessions):
            login = session.login
            if kick.matches(login.name, login.former, login.key):
                event("kicked", user=login.name, peer=login.peer, reason=kick.reason)
                session.end("kicked", f"railgames: {kick.reason}.")
                asyncio.get_running_loop().call_later(0.5, session.conn.close)
                ended += 1
        return ended

    def _kick_from_elsewhere(self, names: list[str], keys: list[str], reason: str) -> None:
        """What another host (or the operator's command there) asks: from the store's
        listening thread, so handed to the loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        kick = Kick(names=set(names), keys=set(keys), reason=reason)
        with contextlib.suppress(RuntimeError):  # the loop has just closed
            loop.call_soon_threadsafe(self.tables.kick, kick)

    def greeting(self) -> str:
        assert self.key is not None
        cfg = self.config
        where = "127.0.0.1" if cfg.bind in ("0.0.0.0", "::", "") else cfg.bind
        lines = [
            f"railgames host listening on {cfg.bind}:{self.port}",
            f"host key ({'new' if self.key_is_new else 'kept' if not cfg.host_key else cfg.host_key}): "
            f"{self.key.get_fingerprint('sha256')}",
            f"players connect with:  ssh -p {self.port} NAME@{where}   (NAME is the player's name)"
            if not cfg.proxy_protocol else
            "players connect through the load balancer in front (this port takes only "
            "connections that start with a PROXY protocol header)",
        ]
        if self.authorized is not None:
            lines.append(f"only the keys in {cfg.authorized_keys} may log in")
        else:
            lines.append(f"table password: {self.password}")
        lines.append(f"tables are kept in {store_place(self.store)}")
        return "\n".join(lines)


def open_host_store(spec: str | None, data_dir: Path) -> TableStore:
    """The store ``--store`` names (see ``sqlstore.open_store``), opened and read once: one
    that cannot be used (a folder, a pipe or another kind of file where the database
    should be, a database of another shape, a server out of reach) is a RecordError of one
    line, and the host does not start."""
    try:
        store: TableStore = open_store(spec, data_dir)
    except RailgamesError as exc:
        raise RecordError(f"the tables cannot be kept: {exc.reason}"[:500]) from None
    except OSError as exc:  # e.g. the data directory cannot be made
        where = f"{exc.filename}: " if exc.filename else ""
        raise RecordError(f"the tables cannot be kept: {where}{exc.strerror or exc}"[:500]
                          ) from None
    try:
        store.list()
    except Exception as exc:
        with contextlib.suppress(Exception):
            store.close()
        place = store_place(store)
        reason = getattr(exc, "reason", None) or f"{type(exc).__name__}: {exc}"
        reason = reason if place in reason else f"{place}: {reason}"
        raise RecordError(f"the tables cannot be kept: {reason}"[:500]) from None
    return store


def store_place(store: Any) -> str:
    """Where ``store`` keeps the tables, for the greeting and messages."""
    if isinstance(store, FileTableStore):
        return str(store.root)
    return str(getattr(store, "name", None) or type(store).__name__)


class ProxiedListener:
    """The SSH port behind a load balancer (``--proxy-protocol``).

    Each connection is accepted here; its PROXY protocol header is read first (exactly,
    in at most ``Limits.proxy_header`` seconds), then the SSH server runs on the rest of
    the connection with the client the header names as its peer. A connection without a
    valid header is closed with one line in the log; it holds up no other, since each
    header is read in a task of its own.
    """

    def __init__(self, host: Host) -> None:
        import socket

        self.host = host
        cfg = host.config
        family = socket.AF_INET6 if ":" in cfg.bind else socket.AF_INET
        listening = socket.create_server((cfg.bind, cfg.port), family=family, backlog=100)
        listening.setblocking(False)
        self.sockets = [listening]
        self.options = host.ssh_options()
        # Connections still sending their header (bounded), and those in SSH's handshake.
        self.waiting: set[asyncio.Task[None]] = set()
        self.starting: set[asyncio.Task[None]] = set()
        self.closed = asyncio.Event()
        self.accepting = asyncio.get_running_loop().create_task(self._accept())

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        listening = self.sockets[0]
        try:
            while True:
                try:
                    sock, address = await loop.sock_accept(listening)
                except OSError as exc:  # out of file descriptors, say: a moment, then on
                    event("accept_failed", error=str(exc))
                    await asyncio.sleep(0.1)
                    continue
                sock.setblocking(False)
                peer = f"{address[0]}:{address[1]}"
                if len(self.waiting) >= 2 * self.host.config.limits.max_sessions:
                    event("refused", peer=peer, reason="too many connections at once")
                    sock.close()
                    continue
                task = loop.create_task(self._header(sock, (str(address[0]), int(address[1]))))
                self.waiting.add(task)
                task.add_done_callback(self.waiting.discard)
        finally:
            listening.close()
            self.closed.set()

    async def _header(self, sock: Any, proxy: tuple[str, int]) -> None:
        peer = f"{proxy[0]}:{proxy[1]}"
        try:
            header = await proxyproto.read_header(sock, self.host.config.limits.proxy_header)
        except proxyproto.ProxyHeaderError as exc:
            event("refused", peer=peer, reason=f"PROXY protocol: {exc}")
            sock.close()
            return
        except BaseException:
            sock.close()
            raise
        # A LOCAL header (the balancer's own check) or an UNKNOWN one names no client:
        # the balancer's address is the peer then.
        client = header.source or proxy
        task = asyncio.get_running_loop().create_task(self._ssh(sock, client, peer))
        self.starting.add(task)
        task.add_done_callback(self.starting.discard)

    async def _ssh(self, sock: Any, client: tuple[str, int], proxy: str) -> None:
        host = self.host
        # Returns once the client has logged in; how a connection that never does ended
        # is logged by HostConnection.
        try:
            await asyncssh.run_server(
                sock, server_factory=lambda: HostConnection(host, client, proxy),
                **self.options)
        except asyncio.CancelledError:  # the host stopping: the socket may not be handed on yet
            sock.close()
            raise
        except Exception:
            pass

    def close(self) -> None:
        """No new connections; those still sending a header or logging in are dropped."""
        self.accepting.cancel()
        for task in (*self.waiting, *self.starting):
            task.cancel()

    async def wait_closed(self) -> None:
        await self.closed.wait()


def _socket_path(data_dir: Path) -> Path:
    path = data_dir / "host" / "tables.sock"
    if len(str(path)) < 100:
        return path
    # A socket path has to be short; a private folder in the temp dir will do.
    import tempfile

    return Path(tempfile.mkdtemp(prefix="railgames-")) / "tables.sock"


class HostConnection(asyncssh.SSHServer):
    def __init__(self, host: Host, client: tuple[str, int] | None = None,
                 proxy: str | None = None) -> None:
        self.host = host
        # Behind a load balancer: the client its PROXY header named, and the balancer's end.
        self.client = client
        self.proxy = proxy
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = ""
        self.ip = ""
        self.key_fingerprint: str | None = None
        self.verdict: Verdict | None = None  # what the register of players said at login
        self.login: Login | None = None  # one for all the sessions of this connection
        self._claim: asyncio.Task[None] | None = None
        self._bannered = False
        self.opened = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = self.client or conn.get_extra_info("peername") or ("?", 0)
        self.ip = str(peer[0])
        self.peer = f"{peer[0]}:{peer[1]}"
        event("connection", peer=self.peer, **({"proxy": self.proxy} if self.proxy else {}))
        self.host.connections.add(self)
        self.host.open_connections += 1
        self.opened = True
        # Connections that never log in are bounded too (the login timeout ends each one).
        if self.host.open_connections > 2 * self.host.config.limits.max_sessions:
            event("refused", peer=self.peer, reason="too many connections at once")
            conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.opened:
            self.host.open_connections -= 1
            self.opened = False
        self.host.connections.discard(self)
        event("disconnection", peer=self.peer, error=str(exc) if exc else None)

    def _refuse(self, reason: str, code: int = asyncssh.DISC_TOO_MANY_CONNECTIONS) -> None:
        event("refused", peer=self.peer, reason=reason)
        assert self.conn is not None
        self.conn.disconnect(code, f"railgames: {reason}")

    def begin_auth(self, username: str) -> bool:
        limits = self.host.config.limits
        problem = name_problem(username)
        if problem:
            self._refuse(f"'{username}' cannot be a player's name: {problem}.",
                         asyncssh.DISC_ILLEGAL_USER_NAME)
            return True
        if not self.host.tables.limiter.allowed(self.ip):
            self._refuse(self.host.tables.limiter.refusal(self.ip) + ".",
                         asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
            return True
        if len(self.host.sessions) >= limits.max_sessions:
            self._refuse(f"the host is full ({limits.max_sessions} sessions); try again later.")
            return True
        if self.host.connections_by_ip.get(self.ip, 0) >= limits.per_ip:
            self._refuse(f"too many sessions from {self.ip} ({limits.per_ip} at most).")
            return True
        return True

    # --- password, and keyboard-interactive (asyncssh asks for the password that way too)
    def password_auth_supported(self) -> bool:
        return self.host.authorized is None

    async def validate_password(self, username: str, password: str) -> bool:
        """The name's own passphrase, or the table password for a name nobody owns yet."""
        if not self._may_try():
            return False
        tables = self.host.tables
        assert tables.players is not None
        verdict = await tables.check(check_password, tables.players, self.host.password,
                                     username, password)
        if not verdict.ok:
            self._failed(username, verdict, "password")
            return False
        self.verdict = verdict
        event("login", peer=self.peer, user=verdict.name, method="password",
              **({"new_name": True} if verdict.unclaimed else {}))
        return True

    # --- public keys
    def public_key_auth_supported(self) -> bool:
        return self.host.authorized is not None

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """A key in the authorized keys, and the name free or already this key's.

        (asyncssh asks this for a key the client only offers, and again for the key
        it signs with; the name is claimed once the login is complete.)"""
        assert self.host.authorized is not None
        if not self._may_try():
            return False
        fingerprint = key.get_fingerprint("sha256")
        tables = self.host.tables
        assert tables.players is not None
        admitted = self.host.authorized.validate(key, username, self.ip, self.ip) is not None
        if not admitted:  # nothing to say: a client tries its keys in turn
            verdict = Verdict(False, "this key is not admitted here")
        else:
            verdict = await tables.check(check_key, tables.players, username, fingerprint)
        if not verdict.ok:
            self._failed(username, verdict, "publickey", say=admitted, key=fingerprint)
            return False
        self.key_fingerprint = fingerprint
        self.verdict = verdict
        return True

    def auth_completed(self) -> None:
        verdict, key = self.verdict, self.key_fingerprint
        if verdict is None or key is None:
            return
        players = self.host.tables.players
        assert players is not None
        if verdict.unclaimed:  # the first key to log in under this name: it is theirs now
            player = Player(name=verdict.name, key=key, since=now_text())
            refusal = players.reserve(player)
            if refusal is not None:
                self._refuse(refusal + ".", asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
                return
            verdict.unclaimed = False
            event("name_claimed", user=verdict.name, peer=self.peer, method="publickey",
                  key=key)
            self._claim = asyncio.get_running_loop().create_task(self._write_claim(player))
        event("login", peer=self.peer, user=verdict.name, method="publickey", key=key)

    async def _write_claim(self, player: Player) -> None:
        assert self.host.tables.players is not None
        try:
            await asyncio.to_thread(self.host.tables.players.write_claim, player)
        except Exception as exc:  # the claim holds no longer than this host runs
            event("players_save_failed", user=player.name, error=repr(exc))

    def _may_try(self) -> bool:
        limiter = self.host.tables.limiter
        if limiter.allowed(self.ip):
            return True
        self._refuse(limiter.refusal(self.ip) + ".", asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
        return False

    def _failed(self, username: str, verdict: Verdict, method: str, say: bool = True,
                **fields: Any) -> None:
        """One failed try: counted against the address, logged, and said to the client."""
        limiter = self.host.tables.limiter
        used_up = limiter.failed(self.ip)
        event("login_failed", peer=self.peer, user=username, method=method,
              reason=verdict.reason, **fields, **({"limited": True} if used_up else {}))
        if verdict.end:
            self._refuse(verdict.reason + ".", asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
        elif used_up:
            self._refuse(limiter.refusal(self.ip) + ".",
                         asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
        elif say and not self._bannered:
            # Shown by OpenSSH before its next prompt (or before it gives up).
            self._bannered = True
            assert self.conn is not None
            with contextlib.suppress(Exception):
                self.conn.send_auth_banner(f"railgames: {verdict.reason}.\r\n")

    def _still_admitted(self, login: Login) -> str | None:
        """Why a new session of this connection is refused now (a ban or rename since)."""
        players = self.host.tables.players
        assert players is not None
        try:
            owner, former = players.find(login.name)
            key_banned = login.key is not None and players.key_banned(login.key)
        except RailgamesError as exc:
            return exc.reason
        if key_banned:
            return "this key is banned on this host"
        if former is not None:
            return f"the name '{login.name}' is now '{former.name}'"
        if owner is not None and owner.banned:
            return f"the name '{login.name}' is banned on this host"
        return None

    # --- nothing but a session channel
    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        event("refused", peer=self.peer, reason="port forwarding", dest=f"{dest_host}:{dest_port}")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        event("refused", peer=self.peer, reason="remote port forwarding")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        event("refused", peer=self.peer, reason="unix socket forwarding")
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        event("refused", peer=self.peer, reason="unix socket forwarding")
        return False

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[bytes], PtySession]:
        """A session channel: counted from here (however many share this connection)."""
        assert self.conn is not None
        verdict = self.verdict
        if verdict is None:  # every login goes through validate_*: never, but never open
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            "railgames: log in first")
        if self.login is None:
            self.login = Login(name=verdict.name, key=self.key_fingerprint, peer=self.peer,
                               former=verdict.former, unclaimed=verdict.unclaimed)
        refusal = self._still_admitted(self.login)
        if refusal is not None:
            event("refused", peer=self.peer, user=self.login.name, reason=refusal)
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            f"railgames: {refusal}")
        session = PtySession(self.host, self.conn, self.login, self.ip)
        refusal = self.host.admit(session)
        if refusal is not None:
            event("refused", peer=self.peer, user=self.login.name, reason=refusal)
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            f"railgames: {refusal}")
        chan = self.conn.create_server_channel(encoding=None, window=SESSION_WINDOW)
        # asyncssh refuses agent and X11 forwarding by itself (agent_forwarding and
        # x11_forwarding are off) without telling the server: the same channel refuses
        # them the same way after one line in the log.
        compat.refuse_forwarding(chan, session.forwarding_refused)
        return chan, session


# The channel's output waiting for the client, at most, before the app's terminal is no
# longer read: a client that reads slowly (or not at all) slows its own app, nothing else.
OUTPUT_HIGH_WATER = 64 * 1024
# Keys dropped within this many seconds of the last ones dropped are the same flood
# (logged once).
DROP_EPISODE = 10.0
# A session channel's receive window, and how long its input is left unread once keys
# had to be dropped: a client that floods is held back by SSH's own flow control (it
# may send at most a window per pause), so the host spends little on bytes it drops.
SESSION_WINDOW = 256 * 1024
FLOOD_PAUSE = 0.25
# The niceness a flooding session's game runs at from then on: it may use a core nobody
# else wants, but every other game and the host come first.
FLOOD_NICE = 10
# For this many seconds after a session of an address flooded its game, that address's
# new games start at FLOOD_NICE: a client that floods, quits and logs in again and again
# cannot make every player wait while its fresh games start.
FLOOD_MEMORY = 120.0


class PtySession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel: the app on a PTY of its own, its size following the client's.

    The session is counted (in all and for its address) from the moment its channel
    opens until its app has ended: ``Host.admit`` takes the count and ``_finish`` gives
    it back, once, whatever way the session ends. Every ending goes through ``end``.

    Nothing here waits on the app: the PTY is non-blocking from the first byte, keys
    wait in a bounded buffer until the app's terminal takes them, and the app's output
    is read only while the client keeps up with it.
    """

    def __init__(self, host: Host, conn: asyncssh.SSHServerConnection, login: Login,
                 ip: str) -> None:
        self.host = host
        self.conn = conn
        self.login = login
        self.ip = ip
        self.opened_at = time.monotonic()
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.refusal: str | None = None
        self.output: bytes | None = None  # what a command ('export CODE') prints, then ends
        self.master: int | None = None
        self.proc: asyncio.subprocess.Process | ForkedApp | None = None
        self.token: str | None = None
        self.last_input = time.monotonic()
        self._key_at: float | None = None  # when a key came in that the app has not answered
        # Keys not yet taken by the app's terminal; held until the app has drawn something.
        self.inbox = bytearray()
        self.app_ready = False
        self.dropped = 0  # bytes dropped in all, for want of room
        self._dropped_at = -DROP_EPISODE  # when the last were
        self._held_back = False  # the channel's input is paused for a moment (a flood)
        self._lowered = False  # the game runs at FLOOD_NICE
        self._output_paused = False  # the channel holds more than OUTPUT_HIGH_WATER
        self._pty_done = False  # the app's side of the terminal is closed
        self._reading = False
        self._writing = False
        self.task: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._start_timer: asyncio.TimerHandle | None = None
        self._ending = asyncio.Event()
        self.end_reason: str | None = None
        self.farewell: str | None = None
        self.code = 0
        self.app_ended = False  # the app ended by itself (and left the terminal as it found it)
        self._finished = False

    # ------------------------------------------------------------ the channel's requests
    def forwarding_refused(self, what: str) -> None:
        """The client asked to forward its agent or X11 (refused, see ``session_requested``)."""
        event("refused", peer=self.login.peer, user=self.login.name, reason=what)

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=OUTPUT_HIGH_WATER)
        # A channel that never asks for a shell would hold its count for ever.
        self._start_timer = asyncio.get_running_loop().call_later(
            self.host.config.limits.login_timeout, self._not_started)

    def _not_started(self) -> None:
        if self.task is None and self.end_reason is None:
            event("refused", peer=self.login.peer, user=self.login.name,
                  reason="no shell asked for in time")
            self.code = 1
            self.end("not started")

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type or "xterm-256color"
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        if self.term is None:
            self.refusal = ("railgames needs an interactive terminal; connect with plain "
                            "'ssh' (or 'ssh -t'), not 'ssh -T'.")
            event("refused", peer=self.login.peer, user=self.login.name, reason="no pty")
        return True

    def exec_requested(self, command: str) -> bool:
        # One command runs: 'export CODE', a finished game of the player's as a saved
        # game on standard output (see after.py). Any other is accepted only to say why
        # nothing runs; the session ends at once.
        from railgames.net.after import export_over_ssh, is_export

        if is_export(command):
            self.output, refusal = export_over_ssh(self.host.service, self.login, command)
            if refusal is not None:
                self.refusal = f"railgames: {refusal}."
                event("refused", peer=self.login.peer, user=self.login.name, reason="export",
                      command=command[:80])
            return True
        self.refusal = ("railgames runs no commands but 'export CODE'; connect with plain "
                        "'ssh' to play.")
        event("refused", peer=self.login.peer, user=self.login.name, reason="exec",
              command=command[:80])
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        event("refused", peer=self.login.peer, user=self.login.name, reason="subsystem",
              subsystem=subsystem)
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if self._start_timer is not None:
            self._start_timer.cancel()
        if self.end_reason is not None:
            return
        if self.refusal is not None:
            with contextlib.suppress(OSError):
                self.chan.write_stderr((self.refusal + "\r\n").encode())
            self.code = 1
            self.end("refused")
            return
        if self.output is not None:  # an export: the record, then the session ends
            with contextlib.suppress(OSError):
                self.chan.write(self.output)
            self.end("exported")
            return
        self.task = asyncio.get_running_loop().create_task(self._life())

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.master is not None:
                with contextlib.suppress(OSError):
                    _set_size(self.master, width, height)

    # ------------------------------------------------------------ ways a session ends
    def eof_received(self) -> bool:
        # A terminal sends no end of input (Ctrl-D is a key like another); an input that
        # has ended ('ssh -tt </dev/null', a pipe run dry) can never play, so the session ends.
        self.end("end of input", "railgames: the terminal's input has ended; goodbye.")
        return True  # the channel stays open for the goodbye

    def connection_lost(self, exc: Exception | None) -> None:
        self.chan = None  # nothing more can be sent
        self.end("connection lost" if exc else "channel closed")

    def end(self, reason: str, message: str | None = None) -> None:
        """End the session (the first reason given is the one logged). Safe to call again."""
        if self.end_reason is None:
            self.end_reason = reason
            self.farewell = message
        if self.task is not None:
            self._ending.set()
        elif not self._finished:  # no app was started: nothing to wait for
            self._goodbye()
            self._finish()

    # ------------------------------------------------------------ the app
    async def _life(self) -> None:
        try:
            if await self._start_app():
                await self._until_end()
        except Exception as exc:  # logged, and the session ends like any other
            event("session_error", user=self.login.name, peer=self.login.peer, error=repr(exc))
            self.end_reason = self.end_reason or "error"
        finally:
            await self._wind_down()

    async def _start_app(self) -> bool:
        cfg = self.host.config
        master, slave = os.openpty()
        os.set_blocking(master, False)  # from the first byte: the loop never waits on a PTY
        self.master = master
        try:
            _set_size(master, *self.size)
            _app_mode(slave)
            self.token = self.host.tables.issue_token(self.login)
            env = {
                **app_env(), "TERM": self.term or "xterm-256color",
                # Each player's own hot-seat saves: the Continue screen lists theirs only.
                "RAILGAMES_DATA_DIR": str(player_dir(cfg.data_dir, self.login.name)),
                "RAILGAMES_TABLES": str(self.host.tables.socket_path),
                "RAILGAMES_TOKEN": self.token, "RAILGAMES_PLAYER": self.login.name,
            }
            flooded = self.host.flooded.get(self.ip)
            lowered = flooded is not None and time.monotonic() - flooded < FLOOD_MEMORY
            self._lowered = lowered
            warm = self.host.warm
            if warm is not None:
                forking = asyncio.ensure_future(
                    warm.fork(env, slave, FLOOD_NICE if lowered else 0))
                if not warm.ready:
                    # The warm process is still importing (the host has just started): a
                    # session that ends meanwhile ends now, its count not held until the
                    # fork; an app forked for it after all is ended by the forker.
                    ending = asyncio.ensure_future(self._ending.wait())
                    await asyncio.wait({forking, ending}, return_when=asyncio.FIRST_COMPLETED)
                    ending.cancel()
                    if not forking.done():
                        forking.cancel()
                        return False
                with contextlib.suppress(WarmLost):  # (logged once, by the forker)
                    self.proc = await forking
            if self.proc is None:
                self.proc = await self._spawn(env, slave, lowered)
        except OSError as exc:
            event("session_error", user=self.login.name, error=str(exc))
            self.code = 1
            self.end("app not started", "railgames: the game could not be started on the host.")
            return False
        finally:
            os.close(slave)
        event("session_started", user=self.login.name, peer=self.login.peer, pid=self.proc.pid,
              term=self.term, size=f"{self.size[0]}x{self.size[1]}",
              app="forked" if isinstance(self.proc, ForkedApp) else "started")
        if self.dropped:  # flooded before its game had started
            self._lower_priority()
        self._update_io()
        self._watch = asyncio.get_running_loop().create_task(self._idle_watch())
        return True

    async def _spawn(self, env: dict[str, str], slave: int,
                     lowered: bool) -> asyncio.subprocess.Process:
        """The app as a fresh interpreter on the terminal (an operator's app command, or
        while there is no warm process to fork it from)."""
        cfg = self.host.config
        command = cfg.app_command or fresh_command(cfg.warm_app)

        def controlling_tty() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            if lowered:
                os.nice(FLOOD_NICE)

        return await asyncio.create_subprocess_exec(
            *command, stdin=slave, stdout=slave, stderr=slave, env=env,
            preexec_fn=controlling_tty, close_fds=True)

    async def _until_end(self) -> None:
        assert self.proc is not None
        exited = asyncio.ensure_future(self.proc.wait())
        ending = asyncio.ensure_future(self._ending.wait())
        try:
            await asyncio.wait({exited, ending}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ending.cancel()
            if not exited.done():
                exited.cancel()
        if exited.done() and not exited.cancelled():
            self.app_ended = True
            code = exited.result()
            self.code = code if 0 <= code < 256 else 1
            self.end_reason = self.end_reason or "app ended"
            self._drain_output()  # the app's last frame

    async def _wind_down(self) -> None:
        """The app's terminal and the client's channel closed, the app ended, the count back."""
        self._pty_done = True
        self._update_io()
        if self._watch is not None:
            self._watch.cancel()
        self._goodbye()
        proc = self.proc
        try:
            if proc is not None and proc.returncode is None:
                _signal_group(proc.pid, signal.SIGHUP)  # as a terminal that hangs up would
                self._close_master()
                try:
                    await asyncio.wait_for(proc.wait(), self.host.config.limits.app_grace)
                except TimeoutError:
                    _signal_group(proc.pid, signal.SIGKILL)
                    await proc.wait()
        except asyncio.CancelledError:
            if proc is not None and proc.returncode is None:
                _signal_group(proc.pid, signal.SIGKILL)
            raise
        finally:
            self._close_master()
            self._finish()

    def _goodbye(self) -> None:
        """The client's terminal back as it was (where the app could not do it), one line
        saying why the session ended, and the exit status."""
        chan = self.chan
        if chan is None or chan.is_closing():
            return
        with contextlib.suppress(OSError):
            if self.proc is not None and not self.app_ended:
                chan.write(TERMINAL_RESET)
            if self.farewell:
                chan.write(("\r\n" + self.farewell + "\r\n").encode())
            chan.exit(self.code)

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        if self._start_timer is not None:
            self._start_timer.cancel()
        if self.token:
            self.host.tables.revoke(self.token)
        self.host.release(self)
        event("session_ended", user=self.login.name, peer=self.login.peer,
              pid=self.proc.pid if self.proc is not None else None, reason=self.end_reason,
              code=self.proc.returncode if self.proc is not None else None,
              seconds=round(time.monotonic() - self.opened_at, 1),
              **({"input_dropped": self.dropped} if self.dropped else {}))

    def _close_master(self) -> None:
        if self.master is not None:
            self._pty_done = True
            self._update_io()  # no reader or writer left on it
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None

    async def _idle_watch(self) -> None:
        idle = self.host.config.limits.idle_timeout
        if not idle:
            return
        while True:
            await asyncio.sleep(min(idle, 5.0))
            if time.monotonic() - self.last_input >= idle:
                event("idle_timeout", user=self.login.name, peer=self.login.peer, seconds=idle)
                self.end("idle", f"railgames: no key pressed for {int(idle)} seconds; goodbye. "
                                 "Connect again to take your seat back.")
                return

    # ------------------------------------------------------------ keys in, screens out
    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.host.echo_log is not None and self._key_at is None:
            self._key_at = time.perf_counter()
        room = max(self.host.config.limits.input_buffer - len(self.inbox), 0)
        if len(data) > room:
            now = time.monotonic()
            if now - self._dropped_at >= DROP_EPISODE:  # one line for each flood, not each drop
                event("input_dropped", user=self.login.name, peer=self.login.peer,
                      limit=self.host.config.limits.input_buffer)
            self._dropped_at = now
            self.dropped += len(data) - room
            data = data[:room]
            self._lower_priority()
            if not self._held_back and self.chan is not None:
                self._held_back = True
                self.chan.pause_reading()
                asyncio.get_running_loop().call_later(FLOOD_PAUSE, self._hold_no_more)
        self.inbox += data
        self._write_input()

    def _lower_priority(self) -> None:
        """A session that floods its game with keys has that game run at a low priority, so
        the processor time it takes is time nobody else wanted (once it has a game)."""
        now = time.monotonic()
        flooded = self.host.flooded
        if len(flooded) > 1000:  # only lately matters: forget the rest
            for ip in [ip for ip, at in flooded.items() if now - at >= FLOOD_MEMORY]:
                del flooded[ip]
        flooded[self.ip] = now
        if self.proc is not None and self.proc.returncode is None and not self._lowered:
            self._lowered = True
            with contextlib.suppress(OSError):
                # Relative to the host's own priority, as os.nice in a new app is.
                own = os.getpriority(os.PRIO_PROCESS, 0)
                os.setpriority(os.PRIO_PGRP, self.proc.pid, min(19, own + FLOOD_NICE))

    def _hold_no_more(self) -> None:
        self._held_back = False
        if self.chan is not None:
            self.chan.resume_reading()

    def _write_input(self) -> None:
        """As much of the held input as the app's terminal takes now; the rest when it drains."""
        if self.master is not None and self.app_ready and self.inbox and not self._pty_done:
            try:
                written = os.write(self.master, self.inbox)
            except (BlockingIOError, InterruptedError):
                written = 0
            except OSError:  # the app has closed its end: its keys go nowhere
                written = len(self.inbox)
            del self.inbox[:written]
        self._update_io()

    def _read_output(self) -> bool:
        """Pass on what the app wrote; False when there was nothing to read."""
        if self.master is None or self._pty_done:
            return False
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:  # EIO: the app has closed its end (its exit ends the session)
            data = b""
        if not data:
            self._pty_done = True
            self._update_io()
            return False
        if not self.app_ready:  # the app is up: the keys held for it go in now
            self.app_ready = True
            self._write_input()
        if self._key_at is not None:
            self.host.note_echo(time.perf_counter() - self._key_at)
            self._key_at = None
        chan = self.chan
        if chan is not None and not chan.is_closing():
            chan.write(data)
        return True

    def _drain_output(self) -> None:
        """What the app wrote before it ended, as far as the PTY still holds it (a few kB)."""
        self._output_paused = False  # its last frame goes out, however slow the client
        while self._read_output():
            pass

    def pause_writing(self) -> None:
        self._output_paused = True
        self._update_io()

    def resume_writing(self) -> None:
        self._output_paused = False
        self._update_io()

    def _update_io(self) -> None:
        """Watch the PTY for output while the client keeps up, and for room while keys wait."""
        loop = asyncio.get_running_loop()
        live = self.master is not None and not self._pty_done
        reading = live and not self._output_paused
        writing = live and self.app_ready and bool(self.inbox)
        # (The master is closed only after both are off: see _close_master.)
        if reading != self._reading:
            if reading:
                loop.add_reader(self.master, self._read_output)  # type: ignore[arg-type]
            else:
                loop.remove_reader(self.master)  # type: ignore[arg-type]
            self._reading = reading
        if writing != self._writing:
            if writing:
                loop.add_writer(self.master, self._write_input)  # type: ignore[arg-type]
            else:
                loop.remove_writer(self.master)  # type: ignore[arg-type]
            self._writing = writing


def app_env() -> dict[str, str]:
    """The environment every app on a terminal shares (a session adds its own terminal
    type, player, folder and token): the warm process imports with it, so what a module
    reads as it is imported is what a fresh app would read."""
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "HOME": os.environ.get("HOME", "/")}
    for name in ("RAILGAMES_BOT_DELAY", "PYTHONPATH", "VIRTUAL_ENV"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def _app_mode(fd: int) -> None:
    """The terminal mode the app's driver sets for itself once it runs (Textual's: no echo,
    no line editing, no signal keys, no XON/XOFF, Return kept as Return), set before it
    starts: a Ctrl-C, Ctrl-Z or Ctrl-\\ among the first keys is a key for it, not a signal."""
    attrs = termios.tcgetattr(fd)
    attrs[0] &= ~(termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR | termios.IGNCR)
    attrs[3] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
    attrs[6][termios.VMIN] = 1
    attrs[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def _signal_group(pid: int, sig: int) -> None:
    """Signal the app's whole process group (it leads a session of its own)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def _loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """What asyncio would print as a traceback, as one line of the log."""
    exc = context.get("exception")
    if isinstance(exc, asyncio.CancelledError):
        return  # a task stopped as the host stops
    event("loop_error", message=context.get("message"), error=repr(exc) if exc else None,
          traceback="".join(traceback.format_exception(exc)) if exc else None)


async def serve_forever(config: HostConfig) -> None:
    asyncio.get_running_loop().set_exception_handler(_loop_error)
    host = Host(config)
    try:
        await host.start()
    except BaseException:
        host.service.close()  # what was written is kept; the database let go
        host.store.close()
        raise
    print(host.greeting(), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        event("host_stopping")
        await host.close()
        event("host_stopped")
