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
                    "where players host and join tables. Connect with: ssh -p PORT NAME@HOST.")
    host.add_argument("--bind", default="127.0.0.1",
                      help="address to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)")
    host.add_argument("--port", type=int, default=2222, help="port (default 2222)")
    host.add_argument("--password", help="the table password (default: a new one, printed at start)")
    host.add_argument("--authorized-keys", metavar="FILE",
                      help="allow only the public keys in FILE (no password)")
    host.add_argument("--data-dir", metavar="DIR",
                      help="host key, tables and saves (default: railgames' data directory)")
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
                      help="a bot plays a seat left empty this long (default 0: never); "
                           "its player takes it back on return")
    host.set_defaults(func=cmd_host)

    serve = sub.add_parser(
        "serve", help="offer the launcher and the host's tables in a web browser",
        description="Serve the app to web browsers (textual-serve). Run it beside "
                    "'railgames host' with the same --data-dir to share its tables.")
    serve.add_argument("--bind", default="127.0.0.1", help="address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--data-dir", metavar="DIR", help="the host's data directory")
    serve.set_defaults(func=cmd_serve)


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
    for name in ("max_sessions", "per_ip"):
        if getattr(args, name) < 1:
            raise RailgamesError(f"--{name.replace('_', '-')} must be at least 1")
    config = HostConfig(
        bind=args.bind, port=args.port, data_dir=_data_dir(args), password=args.password,
        authorized_keys=Path(args.authorized_keys) if args.authorized_keys else None,
        limits=Limits(max_sessions=args.max_sessions, per_ip=args.per_ip,
                      login_timeout=args.login_timeout, idle_timeout=args.idle_timeout,
                      keepalive=args.keepalive),
        bot_delay=max(0.0, args.bot_delay), bot_takeover=args.bot_takeover or None,
    )
    setup_logging()
    try:
        asyncio.run(serve_forever(config))
    except OSError as exc:
        raise RailgamesError(f"cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}") from None
    except Exception as exc:  # a fault in the host itself: still one JSON line in the log
        import traceback

        from railgames.net.tables import event

        event("host_failed", error=repr(exc),
              traceback="".join(traceback.format_exception(exc)))
        return 1
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from railgames.net.webserve import serve

    return serve(args.bind, args.port, _data_dir(args))
