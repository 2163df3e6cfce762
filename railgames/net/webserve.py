"""``railgames serve``: the launcher and the host's tables in a web browser (textual-serve).

It runs beside ``railgames host`` (same data directory) and reaches the same
tables through the host's local socket, so an SSH player and a browser player
can share a table. Each browser gets its own app process, as each SSH
connection does; the player gives a name and its passphrase first (a new name:
the table password, then it chooses its passphrase). The host checks both and
counts failed logins per address, browsers and SSH alike: this server tells
each app process the address its browser connected from.

textual-serve's ``Server`` runs each app process (``AppService``); this one
adds what a server open to strangers needs: session caps as the SSH host has
(``--max-sessions``, ``--per-ip``, one session per websocket), HTTPS
(``--certfile``/``--keyfile``), websockets only from its own page, and a page
of its own whose every file comes from this server (textual-serve's page asks
an outside service for its font).
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import shlex
import ssl
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import urlsplit

from railgames.core.errors import RailgamesError
from railgames.net.remote import PEER_ENV
from railgames.net.tables import event

PAGE = Path(__file__).with_name("webpage.html")
MAX_MESSAGE = 64 * 1024  # a browser's message is a key or a size, a few bytes


@dataclass
class WebLimits:
    max_sessions: int = 50
    per_ip: int = 8
    # Behind a reverse proxy (HAProxy's 'option forwardfor'): the address counted is the
    # last one X-Forwarded-For names, the one the proxy added (see client_address).
    forwarded_for: bool = False


def client_address(remote: str | None, forwarded: list[str], trusted: bool) -> str:
    """The browser's address: the connection's own, or behind a trusted proxy the last
    address of its X-Forwarded-For (earlier ones are the browser's to say, and worth
    nothing). Without a usable one, the connection's address."""
    if trusted and forwarded:
        import ipaddress

        try:
            return str(ipaddress.ip_address(forwarded[-1].split(",")[-1].strip()))
        except ValueError:
            pass
    return remote or "?"


def security_headers(websocket_url: str | None = None) -> dict[str, str]:
    """What every answer says to the browser: load nothing from elsewhere, in no frame."""
    connect = "'self'" + (f" {websocket_url}" if websocket_url else "")
    return {
        "Content-Security-Policy": (
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            f"font-src 'self'; img-src 'self' data:; connect-src {connect}; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "X-Frame-Options": "DENY",
    }


def _server_class() -> type[Any]:
    """The server, made when asked for (textual-serve and aiohttp load only for 'serve')."""
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    class PeerAppService(AppService):
        """textual-serve's app process, told which address its browser connected from."""

        def __init__(self, *args: Any, peer: str, **kw: Any) -> None:
            super().__init__(*args, **kw)
            self.peer = peer

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            environment = super()._build_environment(width=width, height=height)
            environment[PEER_ENV] = self.peer
            return environment

    class WebServer(Server):  # type: ignore[misc]
        def __init__(self, command: str, *, host: str, port: int, limits: WebLimits,
                     ssl_context: ssl.SSLContext | None = None) -> None:
            super().__init__(command, host=host, port=port, title="railgames")
            self.limits = limits
            self.ssl_context = ssl_context
            self.sessions = 0
            self.by_ip: dict[str, int] = {}
            self.page = Template(PAGE.read_text(encoding="utf-8"))

        def initialize_logging(self) -> None:
            from railgames.net.sshhost import setup_logging

            setup_logging()  # one JSON object per line, as the host's log

        async def on_startup(self, app: web.Application) -> None:
            event("serve_started", bind=self.host, port=self.port,
                  https=self.ssl_context is not None, max_sessions=self.limits.max_sessions,
                  per_ip=self.limits.per_ip,
                  **({"forwarded_for": True} if self.limits.forwarded_for else {}))

        async def _make_app(self) -> web.Application:
            @web.middleware
            async def headers(request: web.Request, handler: Any) -> web.StreamResponse:
                response = await handler(request)
                if not response.prepared:
                    response.headers.update(security_headers())
                return response

            app = web.Application(middlewares=[headers])
            app.add_routes([
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.static("/static", self.statics_path, show_index=False,
                           follow_symlinks=False, name="static"),
            ])
            app.on_startup.append(self.on_startup)
            return app

        def _websocket_url(self, request: web.Request) -> str:
            return f"{'wss' if request.secure else 'ws'}://{request.host}/ws"

        async def handle_index(self, request: web.Request) -> web.Response:
            font_size = max(6, min(64, to_int(request.query.get("fontsize", "16"), 16)))
            url = self._websocket_url(request)
            text = self.page.substitute(websocket_url=html.escape(url, quote=True),
                                        font_size=font_size)
            response = web.Response(text=text, content_type="text/html")
            response.headers.update(security_headers(url))
            return response

        def _refusal(self, ip: str) -> str | None:
            if self.sessions >= self.limits.max_sessions:
                return (f"the host is full ({self.limits.max_sessions} browser sessions); "
                        "try again later.")
            if self.by_ip.get(ip, 0) >= self.limits.per_ip:
                return f"too many sessions from {ip} ({self.limits.per_ip} at most)."
            return None

        async def handle_websocket(  # type: ignore[override]
                self, request: web.Request) -> web.StreamResponse:
            ip = client_address(request.remote, request.headers.getall("X-Forwarded-For", []),
                                self.limits.forwarded_for)
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.host:
                # Another site's page driving a game in its visitor's browser: no.
                event("refused", peer=ip, reason="a websocket from another site's page",
                      origin=origin[:200], via="web")
                return web.Response(status=403, text="railgames: not from this server's page\n")
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
            refusal = self._refusal(ip)
            await websocket.prepare(request)
            if refusal is not None:
                event("refused", peer=ip, reason=refusal, via="web")
                await websocket.send_bytes(f"railgames: {refusal}\r\n".encode())
                await websocket.close()
                return websocket
            # Counted from here; given back exactly once, in the finally below.
            self.sessions += 1
            self.by_ip[ip] = self.by_ip.get(ip, 0) + 1
            started = time.monotonic()
            event("web_session_started", peer=ip, sessions=self.sessions)
            width = max(1, min(1000, to_int(request.query.get("width", "80"), 80)))
            height = max(1, min(1000, to_int(request.query.get("height", "24"), 24)))
            app_service: Any = None
            try:
                app_service = PeerAppService(
                    self.command, write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str, close=websocket.close,
                    download_manager=self.download_manager, peer=ip)
                await app_service.start(width, height)
                await self._messages(websocket, app_service)
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as exc:  # one browser's trouble is logged; the others go on
                event("web_session_error", peer=ip, error=repr(exc))
            finally:
                if app_service is not None:
                    try:
                        await app_service.stop()
                    except Exception as exc:
                        event("web_session_error", peer=ip, error=repr(exc))
                self.sessions -= 1
                self.by_ip[ip] -= 1
                if not self.by_ip[ip]:
                    del self.by_ip[ip]
                event("web_session_ended", peer=ip,
                      seconds=round(time.monotonic() - started, 1))
            return websocket

        async def _messages(self, websocket: web.WebSocketResponse, app_service: Any) -> None:
            """The browser's keys, sizes and pings; anything else is dropped, never fatal."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(message.data)
                except ValueError:
                    continue
                if not isinstance(envelope, list) or not envelope:
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8", "replace"))
                elif kind == "resize" and isinstance(data, dict):
                    width, height = data.get("width"), data.get("height")
                    if (isinstance(width, int) and isinstance(height, int)
                            and 0 < width <= 1000 and 0 < height <= 1000):
                        await app_service.set_terminal_size(width, height)
                elif kind == "ping" and isinstance(data, (str, int, float)):
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()

        def serve(self, debug: bool = False) -> None:
            self.initialize_logging()
            web.run_app(self._make_app(), host=self.host, port=self.port,
                        ssl_context=self.ssl_context, access_log=None,
                        print=lambda *args: None, handle_signals=True)

    return WebServer


def tls_context(certfile: Path, keyfile: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(str(certfile), str(keyfile))
    except (OSError, ssl.SSLError) as exc:
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
        raise RailgamesError(f"--certfile {certfile} / --keyfile {keyfile}: cannot be used "
                             f"({reason})") from None
    return context


def serve(bind: str, port: int, data_dir: Path, limits: WebLimits | None = None, *,
          certfile: Path | None = None, keyfile: Path | None = None) -> int:
    marker = data_dir / "host" / "socket-path"
    try:
        socket_path = marker.read_text().strip()
    except OSError:
        socket_path = ""
    if not socket_path or not Path(socket_path).exists():
        raise RailgamesError(f"no host is running with the data directory {data_dir}: start "
                             "'railgames host' first (with the same --data-dir)")
    context = tls_context(certfile, keyfile) if certfile and keyfile else None
    os.environ["RAILGAMES_TABLES"] = socket_path
    os.environ["RAILGAMES_HOST_DIR"] = str(data_dir)
    os.environ.pop("RAILGAMES_TOKEN", None)
    os.environ.pop(PEER_ENV, None)
    command = f"{shlex.quote(sys.executable)} -m railgames.net.web_app"
    scheme = "https" if context else "http"
    print(f"railgames in a browser: {scheme}://{bind}:{port}/  (tables of the host in "
          f"{data_dir})", flush=True)
    _server_class()(command, host=bind, port=port, limits=limits or WebLimits(),
                    ssl_context=context).serve()
    return 0
