"""``railgames host``: an SSH server giving each connection the app on its own PTY.

One app process per connection (a crash or a slow screen in one session never
stalls another); the tables live in this process and the app processes reach
them over a local socket (see ``tableserver``). Only an interactive session with
a PTY is served: commands, subsystems and every kind of forwarding are refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import secrets
import signal
import struct
import sys
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from railgames.core.errors import RailgamesError
from railgames.net.players import Kick, Player, Verdict, check_key, check_password, now_text
from railgames.net.service import TableService
from railgames.net.tables import Login, event, name_problem
from railgames.net.tableserver import TableServer

log = logging.getLogger("railgames.host")


@dataclass
class Limits:
    max_sessions: int = 50
    per_ip: int = 8
    login_timeout: float = 30.0
    idle_timeout: float = 1800.0  # seconds without a key press
    keepalive: float = 30.0  # seconds between keepalives; 3 unanswered close the connection
    login_failures: int = 10  # failed logins per address per minute (SSH and browser alike)


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


# Back from the app's screen: main screen, cursor shown, no mouse reports, no bracketed paste.
TERMINAL_RESET = (b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"
                  b"\x1b[?1015l\x1b[?2004l\x1b[0m")


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", None) or {"event": "log", "message": record.getMessage()}
        return json.dumps({"ts": round(time.time(), 3), **fields}, default=str)


def setup_logging(stream: Any = None) -> None:
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("railgames.host")
    logger.handlers[:] = [handler]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logging.getLogger("asyncssh").setLevel(logging.WARNING)


def host_key(data_dir: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host's ed25519 key, made on the first run; True when it was just made."""
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
        self.service = TableService(config.data_dir / "tables", bot_delay=config.bot_delay,
                                    bot_takeover=config.bot_takeover,
                                    unattended=config.unattended)
        self.tables = TableServer(self.service, _socket_path(config.data_dir))
        self.sessions: set[PtySession] = set()
        self.connections_by_ip: dict[str, int] = {}
        self.open_connections = 0
        self.server: asyncssh.SSHAcceptor | None = None
        self.authorized: asyncssh.SSHAuthorizedKeys | None = None
        self.password = config.password
        self.key: asyncssh.SSHKey | None = None
        self.key_is_new = False
        # For measuring (benchmarks/ssh_load.py): each key's time from reaching the host to
        # the app's first output after it, one line per key, in this file.
        echo_log = os.environ.get("RAILGAMES_ECHO_LOG")
        self.echo_log = open(echo_log, "a", buffering=1) if echo_log else None  # noqa: SIM115

    def note_echo(self, seconds: float) -> None:
        if self.echo_log is not None:
            self.echo_log.write(f"{time.time():.3f} {seconds * 1000:.2f}\n")

    async def start(self) -> None:
        cfg = self.config
        self.key, self.key_is_new = host_key(cfg.data_dir)
        if cfg.authorized_keys is not None:
            self.authorized = asyncssh.read_authorized_keys(str(cfg.authorized_keys))
            self.password = None
        elif not self.password:
            self.password = "-".join(secrets.token_hex(2) for _ in range(3))
        self.service.load()
        self.tables.password = self.password
        self.tables.keep_players(cfg.data_dir / "host", cfg.limits.login_failures)
        self.tables.on_kick = self.kick
        await self.tables.start()
        # Where the table socket is, for 'railgames serve' beside this host.
        (cfg.data_dir / "host" / "socket-path").write_text(str(self.tables.socket_path))
        for table in self.service.tables.values():  # a bot whose turn it was goes on
            self.service.schedule_bots(table)
        try:
            self.server = await self._listen()
        except BaseException:
            await self.tables.close()  # no socket left behind for 'railgames serve' to find
            (cfg.data_dir / "host" / "socket-path").unlink(missing_ok=True)
            raise
        event("host_started", bind=cfg.bind, port=self.port,
              fingerprint=self.key.get_fingerprint("sha256"),
              auth="public key" if self.authorized else "password")

    async def _listen(self) -> asyncssh.SSHAcceptor:
        cfg = self.config
        assert self.key is not None
        return await asyncssh.create_server(
            lambda: HostConnection(self), cfg.bind, cfg.port,
            server_host_keys=[self.key],
            login_timeout=cfg.limits.login_timeout,
            keepalive_interval=cfg.limits.keepalive or None,
            keepalive_count_max=3,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False,
            encoding=None, line_editor=False,
        )

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await self.server.wait_closed()
        for session in list(self.sessions):
            session.stop("railgames: the host is shutting down.")
        await self.tables.close()
        (self.config.data_dir / "host" / "socket-path").unlink(missing_ok=True)
        self.service.close()

    def kick(self, kick: Kick) -> int:
        """End the SSH sessions of a kicked, banned or renamed login, and their connections
        (a connection that stayed open could start a new session without logging in)."""
        ended = 0
        for session in list(self.sessions):
            login = session.login
            if kick.matches(login.name, login.former, login.key):
                event("kicked", user=login.name, peer=login.peer, reason=kick.reason)
                session.stop(f"\r\nrailgames: {kick.reason}.")
                asyncio.get_running_loop().call_later(0.5, session.conn.close)
                ended += 1
        return ended

    def greeting(self) -> str:
        assert self.key is not None
        cfg = self.config
        where = "127.0.0.1" if cfg.bind in ("0.0.0.0", "::", "") else cfg.bind
        lines = [
            f"railgames host listening on {cfg.bind}:{self.port}",
            f"host key ({'new' if self.key_is_new else 'kept'}): "
            f"{self.key.get_fingerprint('sha256')}",
            f"players connect with:  ssh -p {self.port} NAME@{where}   (NAME is the player's name)",
        ]
        if self.authorized is not None:
            lines.append(f"only the keys in {cfg.authorized_keys} may log in")
        else:
            lines.append(f"table password: {self.password}")
        lines.append(f"tables are kept in {self.service.root}")
        return "\n".join(lines)


def player_dir(data_dir: Path, name: str) -> Path:
    return data_dir / "players" / name.lower()


def _socket_path(data_dir: Path) -> Path:
    path = data_dir / "host" / "tables.sock"
    if len(str(path)) < 100:
        return path
    # A socket path has to be short; a private folder in the temp dir will do.
    import tempfile

    return Path(tempfile.mkdtemp(prefix="railgames-")) / "tables.sock"


class HostConnection(asyncssh.SSHServer):
    def __init__(self, host: Host) -> None:
        self.host = host
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = ""
        self.ip = ""
        self.key_fingerprint: str | None = None
        self.verdict: Verdict | None = None  # what the register of players said at login
        self.login: Login | None = None  # one for all the sessions of this connection
        self._claim: asyncio.Task[None] | None = None
        self._bannered = False
        self.counted = False
        self.opened = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.ip = str(peer[0])
        self.peer = f"{peer[0]}:{peer[1]}"
        event("connection", peer=self.peer)
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
        if self.counted:
            self.host.connections_by_ip[self.ip] -= 1
            if not self.host.connections_by_ip[self.ip]:
                del self.host.connections_by_ip[self.ip]
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
        self.host.connections_by_ip[self.ip] = self.host.connections_by_ip.get(self.ip, 0) + 1
        self.counted = True
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

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
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
        return PtySession(self.host, self.conn, self.login)


class PtySession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One terminal: the app on a PTY of its own, its size following the client's."""

    def __init__(self, host: Host, conn: asyncssh.SSHServerConnection, login: Login) -> None:
        self.host = host
        self.conn = conn
        self.login = login
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.refusal: str | None = None
        self.master: int | None = None
        self.proc: asyncio.subprocess.Process | None = None
        self.token: str | None = None
        self.last_input = time.monotonic()
        self._key_at: float | None = None  # when a key came in that the app has not answered
        self._watch: asyncio.Task[None] | None = None
        self._stopped = False

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

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
        return True

    def exec_requested(self, command: str) -> bool:
        # Accepted only to say why nothing runs; the session ends at once.
        self.refusal = "railgames runs no commands; connect with plain 'ssh' to play."
        event("refused", peer=self.login.peer, user=self.login.name, reason="exec",
              command=command[:80])
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        event("refused", peer=self.login.peer, user=self.login.name, reason="subsystem",
              subsystem=subsystem)
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if self.refusal is not None:
            if "no commands" not in self.refusal:
                event("refused", peer=self.login.peer, user=self.login.name, reason="no pty")
            self.chan.write_stderr((self.refusal + "\r\n").encode())
            self.chan.exit(1)
            return
        limits = self.host.config.limits
        if len(self.host.sessions) >= limits.max_sessions:
            event("refused", peer=self.login.peer, reason="max sessions")
            self.chan.write(f"railgames: the host is full ({limits.max_sessions} sessions); "
                            "try again later.\r\n".encode())
            self.chan.exit(1)
            return
        self.host.sessions.add(self)
        asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self.chan is not None
        cfg = self.host.config
        master, slave = os.openpty()
        self.master = master
        _set_size(master, *self.size)
        self.token = self.host.tables.issue_token(self.login)
        env = {
            "TERM": self.term or "xterm-256color", "COLORTERM": "truecolor",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.environ.get("HOME", "/"),
            # Each player's own hot-seat saves: the Continue screen lists theirs only.
            "RAILGAMES_DATA_DIR": str(player_dir(cfg.data_dir, self.login.name)),
            "RAILGAMES_TABLES": str(self.host.tables.socket_path),
            "RAILGAMES_TOKEN": self.token, "RAILGAMES_PLAYER": self.login.name,
        }
        for name in ("RAILGAMES_BOT_DELAY", "PYTHONPATH", "VIRTUAL_ENV"):
            if name in os.environ:
                env[name] = os.environ[name]
        command = cfg.app_command or [sys.executable, "-m", "railgames.net.seat_app"]

        def controlling_tty() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        try:
            self.proc = await asyncio.create_subprocess_exec(
                *command, stdin=slave, stdout=slave, stderr=slave, env=env,
                preexec_fn=controlling_tty, close_fds=True)
        except OSError as exc:
            event("session_error", user=self.login.name, error=str(exc))
            os.close(slave)
            self.stop("railgames: the game could not be started on the host.")
            return
        finally:
            with contextlib.suppress(OSError):
                os.close(slave)
        event("session_started", user=self.login.name, peer=self.login.peer, pid=self.proc.pid,
              term=self.term, size=f"{self.size[0]}x{self.size[1]}")
        loop = asyncio.get_running_loop()
        os.set_blocking(master, False)
        loop.add_reader(master, self._pty_output)
        self._watch = loop.create_task(self._idle_watch())
        code = await self.proc.wait()
        await asyncio.sleep(0.05)  # let the last frame out
        self._pty_output()
        event("session_ended", user=self.login.name, pid=self.proc.pid, code=code)
        self.stop(None, code)

    def _pty_output(self) -> None:
        if self.master is None or self.chan is None:
            return
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # the app has closed its end
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
            return
        if data:
            if self._key_at is not None:
                self.host.note_echo(time.perf_counter() - self._key_at)
                self._key_at = None
            self.chan.write(data)

    async def _idle_watch(self) -> None:
        idle = self.host.config.limits.idle_timeout
        if not idle:
            return
        while True:
            await asyncio.sleep(min(idle, 5.0))
            if time.monotonic() - self.last_input >= idle:
                event("idle_timeout", user=self.login.name, peer=self.login.peer, seconds=idle)
                self.stop(f"\r\nrailgames: no key pressed for {int(idle)} seconds; goodbye. "
                          "Connect again to take your seat back.")
                return

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.host.echo_log is not None and self._key_at is None:
            self._key_at = time.perf_counter()
        if self.master is not None:
            with contextlib.suppress(OSError):
                os.write(self.master, data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if width and height:
            self.size = (width, height)
            if self.master is not None:
                _set_size(self.master, width, height)

    def eof_received(self) -> bool:
        self.stop(None)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop(None)

    def stop(self, message: str | None, code: int = 0) -> None:
        """End the session: the app first (SIGHUP, as a closed terminal would), then the channel."""
        if self._stopped:
            return
        self._stopped = True
        self.host.sessions.discard(self)
        if self._watch is not None:
            self._watch.cancel()
        if self.token:
            self.host.tables.revoke(self.token)
        killed = self.proc is not None and self.proc.returncode is None
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGHUP)
            asyncio.get_running_loop().create_task(_reap(self.proc))
        if self.master is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = None
        if self.chan is not None:
            with contextlib.suppress(Exception):
                if killed:  # the app had no chance to give the terminal back as it found it
                    self.chan.write(TERMINAL_RESET)
                if message:
                    self.chan.write((message + "\r\n").encode())
                self.chan.exit(code)


async def _reap(proc: asyncio.subprocess.Process) -> None:
    try:
        await asyncio.wait_for(proc.wait(), 3.0)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()


def _set_size(fd: int, width: int, height: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


async def serve_forever(config: HostConfig) -> None:
    host = Host(config)
    await host.start()
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
