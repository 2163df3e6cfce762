"""``railgames host`` and ``railgames serve``: the command-line side (asyncssh loads on use)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from railgames.core.errors import RailgamesError

if TYPE_CHECKING:
    import argparse


def add_commands(sub: Any) -> None:
    host = sub.add_parser(
        "host", help="run an SSH server where friends play at shared tables",
        description="Run an SSH server: each connection gets the launcher on its own terminal, "
                    "where players host and join tables. Connect with: ssh -p PORT NAME@HOST. "
                    "'railgames host admin ...' manages the players' names and keys.")
    host.add_argument("--bind", default="127.0.0.1",
                      help="address to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)")
    host.add_argument("--port", type=int, default=2222, help="port (default 2222)")
    host.add_argument("--password", help="the table password (default: a new one, printed at start)")
    host.add_argument("--authorized-keys", metavar="FILE",
                      help="allow only the public keys in FILE (no password)")
    host.add_argument("--data-dir", metavar="DIR",
                      help="host key, tables and saves (default: railgames' data directory)")
    host.add_argument("--store", metavar="WHERE",
                      help="where the tables are kept (default: tables.sqlite3 in the data "
                           "directory); sqlite:PATH for another SQLite file, "
                           "postgresql://USER@HOST/DB for a database several hosts share (with their players and notifications), "
                           "'files' for one file per table in the data directory's tables "
                           "folder, as earlier versions kept them")
    host.add_argument("--max-sessions", type=int, default=50, help="sessions at once (default 50)")
    host.add_argument("--per-ip", type=int, default=8, help="sessions from one address (default 8)")
    host.add_argument("--login-timeout", type=float, default=30,
                      help="seconds to log in (default 30)")
    host.add_argument("--idle-timeout", type=float, default=1800,
                      help="seconds without a key press before a session is closed "
                           "(default 1800; 0 never)")
    host.add_argument("--keepalive", type=float, default=30,
                      help="seconds between keepalives; 3 unanswered close the connection "
                           "(default 30; 0 none)")
    host.add_argument("--bot-delay", type=float, default=0.7,
                      help="seconds each bot move takes, so people can follow (default 0.7)")
    host.add_argument("--bot-takeover", type=float, default=0, metavar="SECONDS",
                      help="a bot plays a seat left empty this long (default 0: never), "
                           "while another player is at the table; its player takes it back "
                           "on return")
    host.add_argument("--bot-takeover-unattended", action="store_true",
                      help="bots move even at a table nobody is at (by default a table "
                           "everyone has left waits for them)")
    host.add_argument("--login-failures", type=int, default=10, metavar="N",
                      help="failed logins one address may make in a minute, over SSH and in "
                           "browsers alike; then it is refused until the minute is up (default 10)")
    host.add_argument("--notify-command", metavar="CMD",
                      help="run CMD (with sh -c) when it becomes a player's move, or a game "
                           "they play ends, while they are away; it reads one JSON object "
                           "on standard input (see the README)")
    host.add_argument("--notify-join", metavar="TEXT",
                      help="how a notification says to come back, {player} and {code} filled "
                           "in (default: 'ssh -p PORT {player}@HOST, then table {code}')")
    host.add_argument("--proxy-protocol", action="store_true",
                      help="the port is behind a TCP load balancer that starts every "
                           "connection with a PROXY protocol header (HAProxy's send-proxy or "
                           "send-proxy-v2): the client it names counts for the per-address "
                           "limits and the log; a connection without one is closed")
    host.add_argument("--host-key", metavar="FILE",
                      help="the host's private SSH key (OpenSSH format; default: "
                           "DATA_DIR/host/ssh_host_ed25519_key, made at the first start); "
                           "hosts behind one address give each the same key")
    host.set_defaults(func=cmd_host)
    _add_admin(host)

    serve = sub.add_parser(
        "serve", help="offer the launcher and the host's tables in a web browser",
        description="Serve the app to web browsers (textual-serve). Run it beside "
                    "'railgames host' with the same --data-dir to share its tables.")
    serve.add_argument("--bind", default="127.0.0.1", help="address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--data-dir", metavar="DIR", help="the host's data directory")
    serve.add_argument("--max-sessions", type=int, default=50,
                       help="browser sessions at once (default 50)")
    serve.add_argument("--per-ip", type=int, default=8,
                       help="browser sessions from one address (default 8)")
    serve.add_argument("--certfile", metavar="FILE",
                       help="serve HTTPS with this certificate (PEM; with --keyfile)")
    serve.add_argument("--keyfile", metavar="FILE", help="the certificate's private key (PEM)")
    serve.add_argument("--forwarded-for", action="store_true",
                       help="behind a reverse proxy that adds the browser's address to "
                            "X-Forwarded-For (HAProxy's 'option forwardfor'): count that "
                            "address for --per-ip and failed logins")
    serve.set_defaults(func=cmd_serve)


def _add_admin(host: Any) -> None:
    """``railgames host admin ...``: the operator's commands on names and keys."""
    import argparse

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS,
                        help="the host's data directory (default: railgames' data directory)")
    common.add_argument("--store", metavar="WHERE", default=argparse.SUPPRESS,
                        help="the host's --store: with postgresql://... the register is in "
                             "that database, shared by every host using it")
    sub = host.add_subparsers(dest="host_command", metavar="admin")
    admin = sub.add_parser(
        "admin", help="list, rename, kick and ban players (names and keys)",
        description="The host's operator's commands on the register of players. While a host "
                    "runs with the same data directory they reach it (a kick or ban ends the "
                    "sessions it concerns at once); every change is logged as one JSON line.")
    what = admin.add_subparsers(dest="admin_command", metavar="COMMAND", required=True)
    commands = [
        ("list", [], "the names claimed, how (key or passphrase), bans, who is online"),
        ("rename", ["OLD", "NEW"], "give a player a new name; seats taken as OLD stay theirs, "
                                   "and OLD stays kept for them"),
        ("kick", ["NAME"], "end NAME's sessions now (they may log in again)"),
        ("ban", ["NAME"], "refuse NAME from now on, and end its sessions"),
        ("unban", ["NAME_OR_KEY"], "lift a ban on a name or a key"),
        ("ban-key", ["FINGERPRINT"], "refuse an SSH key (SHA256:...) from now on, and end "
                                     "its sessions"),
        ("forget", ["NAME"], "drop a name's claim: anyone may claim it again (with its seats)"),
    ]
    for name, params, text in commands:
        command = what.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".",
                                  parents=[common])
        for param in params:
            command.add_argument(param.lower(), metavar=param)
        command.set_defaults(func=cmd_admin, admin_args=[p.lower() for p in params])


def _data_dir(args: argparse.Namespace) -> Path:
    if args.data_dir:
        return Path(args.data_dir)
    from railgames.app.saves import data_dir

    return data_dir()


def cmd_host(args: argparse.Namespace) -> int:
    import asyncio

    try:
        from railgames.net.sshhost import HostConfig, Limits, serve_forever, setup_logging
    except ImportError as exc:  # pragma: no cover - asyncssh is a dependency
        raise RailgamesError(f"'railgames host' needs asyncssh ({exc})") from None
    if args.authorized_keys and args.password:
        raise RailgamesError("--authorized-keys and --password do not go together: "
                             "keys only, or a password")
    if args.authorized_keys and not Path(args.authorized_keys).is_file():
        raise RailgamesError(f"--authorized-keys: no file {args.authorized_keys}")
    for name in ("max_sessions", "per_ip", "login_failures"):
        if getattr(args, name) < 1:
            raise RailgamesError(f"--{name.replace('_', '-')} must be at least 1")
    if args.host_key:
        import asyncssh

        try:
            asyncssh.read_private_key(args.host_key)
        except OSError as exc:
            raise RailgamesError(f"--host-key: cannot read {args.host_key} "
                                 f"({exc.strerror or exc})") from None
        except (asyncssh.KeyImportError, ValueError) as exc:
            raise RailgamesError(f"--host-key: {args.host_key} is not a private key "
                                 f"without a passphrase ({exc})") from None
    config = HostConfig(
        bind=args.bind, port=args.port, data_dir=_data_dir(args), password=args.password,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        limits=Limits(max_sessions=args.max_sessions, per_ip=args.per_ip,
                      login_timeout=args.login_timeout, idle_timeout=args.idle_timeout,
                      keepalive=args.keepalive),
        bot_delay=max(0.0, args.bot_delay), bot_takeover=args.bot_takeover or None,
        unattended=args.bot_takeover_unattended,
        notify_command=args.notify_command or None,
        notify_join=args.notify_join or None,
        store=args.store or None,
        proxy_protocol=args.proxy_protocol,
        host_key=Path(args.host_key) if args.host_key else None,
    )
    config.limits.login_failures = args.login_failures
    setup_logging()
    try:
        asyncio.run(serve_forever(config))
    except OSError as exc:
        raise RailgamesError(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}") from None
    except RailgamesError:  # a start problem (the tables' store): one line, as the others
        raise
    except Exception as exc:  # a fault in the host itself: still one JSON line in the log
        import traceback

        from railgames.net.tables import event

        event("host_failed", error=repr(exc),
              traceback="".join(traceback.format_exception(exc)))
        return 1
    return 0


def cmd_admin(args: argparse.Namespace) -> int:
    from railgames.net.admin import run_admin

    print(run_admin(_data_dir(args), args.admin_command,
                    [getattr(args, name) for name in args.admin_args],
                    store=getattr(args, "store", None) or None))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from railgames.net.webserve import WebLimits, serve

    for name in ("max_sessions", "per_ip"):
        if getattr(args, name) < 1:
            raise RailgamesError(f"--{name.replace('_', '-')} must be at least 1")
    if bool(args.certfile) != bool(args.keyfile):
        raise RailgamesError("--certfile and --keyfile go together (HTTPS needs both)")
    return serve(args.bind, args.port, _data_dir(args),
                 WebLimits(max_sessions=args.max_sessions, per_ip=args.per_ip,
                           forwarded_for=args.forwarded_for),
                 certfile=Path(args.certfile) if args.certfile else None,
                 keyfile=Path(args.keyfile) if args.keyfile else None)
