"""The local socket the app processes use to reach the tables (JSON lines).

Each app process is started by the SSH host with a one-time token in its
environment; its first message (``hello``) hands the token back, and from then
on the connection speaks for that login only. The socket lives in a directory
only the host's user can enter.

Requests carry an ``id``; the answer repeats it. Table changes are pushed as
``{"ev": "table", ...}`` to every member of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from pathlib import Path
from typing import Any

from railgames.core.errors import RailgamesError
from railgames.net.protocol import MAX_REQUEST, ProtocolError, decode, encode
from railgames.net.service import TableService
from railgames.net.tables import Login, Member, event, name_problem

# Requests that change a table: each waits for the table's earlier changes to be kept.
CHANGES = frozenset({"act", "undo", "join", "create", "leave"})


class TableServer:
    def __init__(self, service: TableService, socket_path: Path) -> None:
        self.service = service
        self.socket_path = socket_path
        self.tokens: dict[str, Login] = {}
        # The table password, for players in a browser (``railgames serve``); None when the
        # host admits keys only, and then a browser cannot log in.
        self.password: str | None = None
        self.server: asyncio.AbstractServer | None = None
        self._ticker: asyncio.Task[None] | None = None

    def issue_token(self, login: Login) -> str:
        token = secrets.token_urlsafe(24)
        self.tokens[token] = login
        return token

    def revoke(self, token: str) -> None:
        self.tokens.pop(token, None)

    async def start(self) -> None:
        self.socket_path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(self.socket_path.parent, 0o700)
        self.socket_path.unlink(missing_ok=True)
        self.server = await asyncio.start_unix_server(self._serve, path=str(self.socket_path),
                                                      limit=MAX_REQUEST)
        os.chmod(self.socket_path, 0o600)
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def close(self) -> None:
        if self._ticker:
            self._ticker.cancel()
        if self.server:
            self.server.close()
            with contextlib.suppress(Exception):
                await self.server.wait_closed()
        self.socket_path.unlink(missing_ok=True)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            try:
                self.service.tick()
            except Exception as exc:  # pragma: no cover - logged, never fatal
                event("tick_error", error=repr(exc))

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        member: Member | None = None

        def send(message: dict[str, Any]) -> None:
            if not writer.is_closing():
                writer.write(encode(message))

        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    send({"ok": False, "reason": "message too long"})
                    break
                if not line:
                    break
                try:
                    request = decode(line)
                except ProtocolError as exc:
                    send({"ok": False, "reason": str(exc)})
                    continue
                rid = request.get("id")
                if member is None:
                    login, refusal = self._login(request)
                    if login is None:
                        send({"id": rid, "ok": False, "reason": refusal})
                        if request.get("op") == "login":
                            continue  # a mistyped password may be typed again
                        break
                    member = Member(login=login, send=send)
                    send({"id": rid, "ok": True, "name": login.name})
                    continue
                op = request.get("op")
                if op == "history":
                    answer = await self._open_history(member)
                elif op in CHANGES:
                    # One change at a time per table, each kept and shown before it is
                    # answered: the asker's screen has the new view when the answer comes.
                    await self.service.settled(member.table)
                    answer = self._handle(member, request)
                    await self.service.settled(member.table)
                else:
                    answer = self._handle(member, request)
                send({"id": rid, **answer})
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            if member is not None:
                self.service.leave(member)
            writer.close()

    def _login(self, request: dict[str, Any]) -> tuple[Login | None, str]:
        op = request.get("op")
        if op == "hello":  # an app process the SSH host started, with its token
            login = self.tokens.get(str(request.get("token", "")))
            return login, "unknown session"
        if op == "login":  # a browser player: name and the table password
            name, password = str(request.get("name", "")), str(request.get("password", ""))
            problem = name_problem(name)
            if problem:
                return None, problem
            if self.password is None:
                return None, "this host admits players by SSH key only"
            if not secrets.compare_digest(password.encode(), self.password.encode()):
                event("login_failed", user=name, method="web password")
                return None, "wrong table password"
            event("login", user=name, method="web password")
            return Login(name=name, peer="web"), ""
        return None, "log in first"

    def _handle(self, member: Member, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        service = self.service
        try:
            if op == "list":
                return {"ok": True, "tables": service.listing()}
            if op == "mine":
                return {"ok": True, "tables": service.tables_of(member)}
            if op == "create":
                table = service.create(member, str(request.get("game", "")),
                                       _int(request.get("seats")), _int(request.get("humans")),
                                       str(request.get("bots", "greedy")),
                                       map_id=_map_id(request.get("map")))
                return {"ok": True, "code": table.code}
            if op == "join":
                table = service.join(member, str(request.get("code", "")),
                                     watch=bool(request.get("watch")))
                return {"ok": True, "code": table.code, "seat": member.seat}
            if op == "act":
                service.act(member, request.get("action"))
                return {"ok": True}
            if op == "undo":
                service.undo(member)
                return {"ok": True}
            if op == "leave":
                service.leave(member)
                return {"ok": True}
            if op == "history_at":
                return {"ok": True, **service.history_at(member, _int(request.get("position")))}
            if op == "history_close":
                service.history_closed(member)
                return {"ok": True}
            return {"ok": False, "reason": f"unknown request '{op}'"}
        except RailgamesError as exc:
            return {"ok": False, "reason": exc.reason}
        except Exception as exc:  # logged; the session gets one line and goes on
            event("request_error", op=op, player=member.login.name, error=repr(exc))
            return {"ok": False, "reason": "the host could not do that (see its log)"}


    async def _open_history(self, member: Member) -> dict[str, Any]:
        """Replay the table's game so far for the member's seat, in a thread.

        A long game takes a moment to replay; the loop carries every player's keys
        and screens meanwhile.
        """
        from railgames.core.table import Recording

        try:
            table, ruleset, record = self.service.history_record(member)
            recording = await asyncio.to_thread(Recording, ruleset, record, seat=member.seat)
            if member.table is not table:
                return {"ok": False, "reason": "you have left the table"}
            return {"ok": True, **self.service.history_opened(member, table, recording)}
        except RailgamesError as exc:
            return {"ok": False, "reason": exc.reason}
        except Exception as exc:  # logged; the session gets one line and goes on
            event("request_error", op="history", player=member.login.name, error=repr(exc))
            return {"ok": False, "reason": "the host could not do that (see its log)"}


def _map_id(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise RailgamesError("a board's id was expected")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RailgamesError("a number was expected")
    return value
