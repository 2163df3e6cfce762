"""``railgames host admin``: the host's operator lists, renames, kicks and bans names and keys.

The register of players lives in the host's data directory (or, for hosts started
with ``--store postgresql://...``, in that database: give the same ``--store``); these
commands change it there. While a host runs with that directory, the command goes to the
host instead, through its table socket, with the admin token the host keeps
beside its key (readable by the host's user only): the host changes the
register, ends the sessions a kick, ban or rename concerns, and logs the change
as one JSON line (``"event": "admin"``). With no host running, the command
changes the file itself and writes the same line on standard error; a kick
then has nobody to end. With a PostgreSQL ``--store``, every host using the
database is told to end the sessions a kick, ban or rename concerns.
"""

from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path

from railgames.core.errors import RailgamesError
from railgames.net.players import Players, apply_admin
from railgames.net.protocol import decode, encode


def _running_host(data_dir: Path) -> tuple[str, str] | None:
    """The table socket and admin token of a host running with ``data_dir``, if one is."""
    host_dir = data_dir / "host"
    try:
        socket_path = (host_dir / "socket-path").read_text().strip()
    except OSError:
        return None
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(5)
        probe.connect(socket_path)
    except OSError:
        return None  # left behind by a host that was killed
    finally:
        probe.close()
    try:
        token = (host_dir / "admin-token").read_text().strip()
    except OSError as exc:
        raise RailgamesError(f"a host is running with {data_dir}, but its admin token "
                             f"{host_dir / 'admin-token'} cannot be read ({exc.strerror or exc}): "
                             "run this as the user the host runs as") from None
    return socket_path, token


def _ask_host(socket_path: str, token: str, command: str, args: list[str]) -> str:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(60)
        conn.connect(socket_path)
        conn.sendall(encode({"op": "admin", "id": 1, "token": token, "command": command,
                             "args": args}))
        data = b""
        while not data.endswith(b"\n"):
            chunk = conn.recv(1 << 16)
            if not chunk:
                break
            data += chunk
    if not data:
        raise RailgamesError("the host closed the connection without an answer")
    answer = decode(data, from_host=True)
    if not answer.get("ok"):
        raise RailgamesError(str(answer.get("reason", "refused by the host")))
    return str(answer.get("text", ""))


def run_admin(data_dir: Path, command: str, args: list[str], store: str | None = None) -> str:
    """Carry out ``command``; the text for the operator (RailgamesError: one line why not).

    ``store`` is the host's ``--store``: with a PostgreSQL address the register is the one
    in that database, which every host using it reads."""
    host = _running_host(data_dir)
    if host is not None:
        return _ask_host(*host, command, args)
    shared = bool(store) and str(store).startswith(("postgresql://", "postgres://"))
    if command == "kick" and not shared:
        raise RailgamesError(f"no host is running with the data directory {data_dir}: there is "
                             "no session to end")
    opened = None
    if shared:
        from railgames.net.docstore import SharedDocs, tell_kick
        from railgames.net.sqlstore import PostgresTableStore

        opened = PostgresTableStore(str(store))
    try:
        docs = SharedDocs(opened) if opened is not None else None
        outcome = apply_admin(Players(data_dir / "host", docs), command, args)
        if opened is not None and outcome.kick is not None:  # every host ends those sessions
            kick = outcome.kick
            tell_kick(opened, sorted(kick.names), sorted(kick.keys), kick.reason)
            told = "every host using the database is told to end its sessions"
            outcome.text = f"{args[0]}: {told}" if command == "kick" else \
                f"{outcome.text}; {told}"
    finally:
        if opened is not None:
            opened.close()
    if outcome.changed is not None:
        from railgames.net.tables import event

        logger = logging.getLogger("railgames.host")
        if not logger.handlers:
            from railgames.net.sshhost import setup_logging

            setup_logging(sys.stderr)
        event("admin", **outcome.changed, host_running=False)
    return outcome.text
