"""The local socket the app processes use to reach the tables (JSON lines).

Each app process is started by the SSH host with a one-time token in its
environment; its first message (``hello``) hands the token back, and from then
on the connection speaks for that login only. The socket lives in a directory
only the host's user can enter.

A browser player's app process (``railgames serve``) has no token: it logs in
with ``login`` (a name, and the name's passphrase or, for a new name, the table
password), checked against the register of players (``players``) and counted
per address against the failed-login limit. A login under a name nobody owns yet
may do one thing only, ``claim`` (choose the name's passphrase), before anything
else.

The host's operator reaches the host here too (``railgames host admin``): an
``admin`` request carrying the token in the host's folder that only the host's
user can read, as the first and only message of its connection. Nothing an app
process or a browser sends can carry it.

Requests carry an ``id``; the answer repeats it. Table changes are pushed as
``{"ev": "table", ...}`` to every member of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from railgames.core.errors import RailgamesError, RecordError
from railgames.net import ops
from railgames.net.docstore import SharedDocs, tell_kick
from railgames.net.pace import LIVE, Pace
from railgames.net.players import (
    Kick,
    LoginLimiter,
    Player,
    Players,
    Verdict,
    apply_admin,
    check_password,
    hash_passphrase,
    listing,
    now_text,
    passphrase_problem,
)
from railgames.net.profiles import Profiles
from railgames.net.protocol import MAX_REQUEST, ProtocolError, decode, encode
from railgames.net.service import TableService
from railgames.net.tables import Login, Member, event, name_problem

# Requests that change a table: each waits for the table's earlier changes to be kept.
CHANGES = frozenset({"act", "undo", "join", "create", "leave"})

# Passphrase hashes computed at once (each takes tens of MB and most of a core for a
# moment); the others wait their turn off the loop.
HASHING_AT_ONCE = 2


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
        # Who owns which name (see players.py); the failed-login limit, shared with the
        # SSH logins; the operator's token. Set by ``keep_players`` before ``start``.
        self.players: Players | None = None
        # What each player set and has seen (profiles.py): in the host's folder once
        # ``keep_players`` says where it is, in memory until then.
        self.profiles = Profiles(None)
        self.limiter = LoginLimiter()
        self.admin_token: str | None = None
        self.token_path: Path | None = None
        self.hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self.connections: dict[Member, asyncio.StreamWriter] = {}
        self.web_members: set[Member] = set()
        # The host ends its SSH sessions that a kick matches (the app processes of
        # browser players are told here); returns how many it ended.
        self.on_kick: Callable[[Kick], int] | None = None
        # The host's further parts (ops.py): each registers its requests and sets up once.
        ops.load_parts()
        for setup in ops.SETUPS:
            setup(self)

    def members_of(self, name: str) -> list[Member]:
        """Every connection logged in as ``name`` now (a player may have several)."""
        low = name.lower()
        return [m for m in list(self.connections) if m.login.name.lower() == low]

    def tell(self, name: str, message: dict[str, Any]) -> int:
        """Push ``message`` to every connection of ``name``; how many it reached."""
        told = 0
        for member in self.members_of(name):
            try:
                member.send(message)
                told += 1
            except Exception as exc:  # one broken connection never stops the others
                event("send_failed", player=name, error=repr(exc)[:300])
        return told

    def keep_players(self, host_dir: Path, login_failures: int = 10,
                     docs: SharedDocs | None = None) -> None:
        """Use the register of players in ``host_dir`` (or, with ``docs``, the one in the
        database the host shares with others): refused at once if it cannot be read."""
        self.players = Players(host_dir, docs)
        self.profiles = Profiles(host_dir / "profiles", docs)
        try:
            if self.players.import_file():  # the first host to move to a shared database
                event("players_imported", file=str(self.players.path),
                      to=docs.name if docs else "", players=len(self.players.read().players),
                      profiles=self.profiles.import_files())
            self.players.read()
        except RecordError as exc:
            raise RailgamesError(f"{exc.reason} (move it away, or fix it, to start the host)") from None
        self.limiter = LoginLimiter(login_failures)
        self.token_path = host_dir / "admin-token"

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
        if self.token_path is not None:
            self.admin_token = secrets.token_urlsafe(32)
            self.token_path.unlink(missing_ok=True)
            fd = os.open(self.token_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                         0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(self.admin_token + "\n")
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def close(self) -> None:
        if self._ticker:
            self._ticker.cancel()
        if self.server:
            self.server.close()
            with contextlib.suppress(Exception):
                await self.server.wait_closed()
        self.socket_path.unlink(missing_ok=True)
        if self.token_path is not None:
            self.token_path.unlink(missing_ok=True)

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
                    send({**({"id": exc.rid} if exc.rid is not None else {}), "ok": False,
                          "reason": str(exc)})
                    continue
                rid = request.get("id")
                if member is None:
                    if request.get("op") == "admin":  # the operator: one request, then goodbye
                        send({"id": rid, **await self._admin(request)})
                        break
                    login, refusal = await self._login(request)
                    if login is None:
                        send({"id": rid, "ok": False, **refusal})
                        if request.get("op") == "login" and not refusal.get("end"):
                            continue  # a mistyped password may be typed again
                        break
                    member = Member(login=login, send=send)
                    self.connections[member] = writer
                    if request.get("op") == "login":
                        self.web_members.add(member)
                    send({"id": rid, "ok": True, "name": login.name, "choose": login.unclaimed})
                    continue
                op = request.get("op")
                if member.login.unclaimed or op == "claim":
                    # Nothing but choosing the name's passphrase, until it is chosen.
                    answer = await self._claim(member, request)
                elif op == "history":
                    answer = await self._open_history(member)
                elif isinstance(op, str) and op in ops.OPS:
                    if op in ops.CHANGES:
                        await self.service.settled(member.table)
                    answer = await ops.call(self, member, request)
                    if op in ops.CHANGES:
                        await self.service.settled(member.table)
                elif op in CHANGES:
                    # One change at a time per table, each kept and shown before it is
                    # answered: the asker's screen has the new view when the answer comes.
                    await self.service.settled(member.table)
                    member.lost = None
                    answer = self._handle(member, request)
                    await self.service.settled(member.table)
                    if member.lost and answer.get("ok"):  # another host's move came first
                        answer = {"ok": False, "reason": member.lost}
                        member.lost = None
                else:
                    answer = self._handle(member, request)
                send({"id": rid, **answer})
                if answer.get("end"):
                    break
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            if member is not None:
                self.connections.pop(member, None)
                self.web_members.discard(member)
                self.service.leave(member)
            writer.close()

    async def _login(self, request: dict[str, Any]) -> tuple[Login | None, dict[str, Any]]:
        op = request.get("op")
        if op == "hello":  # an app process the SSH host started, with its token
            login = self.tokens.get(str(request.get("token", "")))
            return login, {"reason": "unknown session"}
        if op != "login":
            return None, {"reason": "log in first"}
        # A browser player ('railgames serve' started this app process for one browser
        # and says where it connected from): a name, and its passphrase or the table password.
        name, password = str(request.get("name", "")), str(request.get("password", ""))
        address = str(request.get("peer", "") or "web")[:64]
        problem = name_problem(name)
        if problem:
            return None, {"reason": problem}
        if not self.limiter.allowed(address):
            event("refused", peer=address, user=name, reason="too many failed logins",
                  method="web password")
            return None, {"reason": self.limiter.refusal(address)}
        if self.players is None:
            return None, {"reason": "this host keeps no register of players", "end": True}
        verdict = await self.check(check_password, self.players, self.password, name, password)
        if not verdict.ok:
            used_up = self.limiter.failed(address)
            event("login_failed", user=name, peer=address, method="web password",
                  reason=verdict.reason, **({"limited": True} if used_up else {}))
            return None, {"reason": verdict.reason, "end": verdict.end}
        event("login", user=verdict.name, peer=address, method="web password",
              **({"new_name": True} if verdict.unclaimed else {}))
        return Login(name=verdict.name, peer=f"{address} (web)", former=verdict.former,
                     unclaimed=verdict.unclaimed), {}

    async def check(self, how: Callable[..., Verdict], *args: Any) -> Verdict:
        """A login check, off the loop (a passphrase's hash is slow on purpose)."""
        async with self.hashing:
            return await asyncio.to_thread(how, *args)

    async def _claim(self, member: Member, request: dict[str, Any]) -> dict[str, Any]:
        """The first login under a new name chooses its passphrase: from now on it is theirs."""
        login = member.login
        if request.get("op") != "claim":
            return {"ok": False, "reason": f"choose a passphrase for {login.name} first"}
        if not login.unclaimed:  # chosen meanwhile in another session of the same login
            return {"ok": True, "already": True}
        passphrase = request.get("passphrase")
        if not isinstance(passphrase, str):
            return {"ok": False, "reason": "a passphrase is text"}
        problem = passphrase_problem(passphrase, self.password)
        if problem:
            return {"ok": False, "reason": problem}
        assert self.players is not None
        async with self.hashing:
            stored = await asyncio.to_thread(hash_passphrase, passphrase)
        player = Player(name=login.name, passphrase=stored, since=now_text())
        refusal = self.players.reserve(player)
        if refusal is None:
            try:
                await asyncio.to_thread(self.players.write_claim, player)
            except RailgamesError as exc:
                refusal = exc.reason
            except OSError as exc:
                self.players.release(player)
                event("players_save_failed", user=login.name, error=repr(exc))
                refusal = "the host could not keep your passphrase (see its log)"
        if refusal is not None:
            event("claim_refused", user=login.name, peer=login.peer, reason=refusal)
            return {"ok": False, "reason": f"{refusal}; log in again", "end": True}
        login.unclaimed = False
        event("name_claimed", user=login.name, peer=login.peer, method="passphrase")
        return {"ok": True}

    # ------------------------------------------------------------ the operator
    async def _admin(self, request: dict[str, Any]) -> dict[str, Any]:
        token = request.get("token")
        if (self.admin_token is None or not isinstance(token, str)
                or not secrets.compare_digest(token.encode(), self.admin_token.encode())):
            event("refused", reason="an admin request without the host's admin token")
            return {"ok": False, "reason": "that is not this host's admin token"}
        command, args = request.get("command"), request.get("args", [])
        if (not isinstance(command, str) or not isinstance(args, list) or len(args) > 2
                or not all(isinstance(a, str) and len(a) <= 100 for a in args)):
            return {"ok": False, "reason": "an admin request is a command and its arguments"}
        if self.players is None:
            return {"ok": False, "reason": "this host keeps no register of players"}
        try:
            if command == "list":
                register = await asyncio.to_thread(self.players.read)
                online = {m.login.name.lower() for m in self.connections}
                return {"ok": True, "text": listing(register, online)}
            outcome = await asyncio.to_thread(apply_admin, self.players, command, list(args))
        except RailgamesError as exc:
            return {"ok": False, "reason": exc.reason}
        ended = self.kick(outcome.kick) if outcome.kick is not None else 0
        if outcome.kick is not None and self.players.docs is not None:
            await asyncio.to_thread(self._tell_kick, self.players.docs, outcome.kick)
        if outcome.changed is not None:
            event("admin", **outcome.changed, sessions_ended=ended)
        text = outcome.text
        if outcome.kick is not None:
            text += f"; {ended} session{'' if ended == 1 else 's'} ended"
        return {"ok": True, "text": text}

    @staticmethod
    def _tell_kick(docs: SharedDocs, kick: Kick) -> None:
        """The other hosts sharing the register end their sessions of ``kick`` too."""
        try:
            tell_kick(docs.store, sorted(kick.names), sorted(kick.keys), kick.reason)
        except RecordError as exc:
            event("kick_not_told", reason=exc.reason[:300])

    def kick(self, kick: Kick) -> int:
        """End the sessions ``kick`` matches, each told why in one line; how many."""
        ended = self.on_kick(kick) if self.on_kick is not None else 0
        for member in list(self.connections):
            if self.on_kick is not None and member not in self.web_members:
                continue  # an SSH session: the host has ended it, app and all
            login = member.login
            if kick.matches(login.name, login.former, login.key):
                member.send({"ev": "kicked", "reason": kick.reason})
                self.connections[member].close()
                event("kicked", user=login.name, peer=login.peer, reason=kick.reason)
                ended += 1
        return ended

    def _handle(self, member: Member, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        service = self.service
        try:
            if op == "list":
                return {"ok": True, "tables": service.listing(member)}
            if op == "mine":
                return {"ok": True, "tables": service.tables_of(member)}
            if op == "create":
                table = service.create(member, str(request.get("game", "")),
                                       _int(request.get("seats")), _int(request.get("humans")),
                                       str(request.get("bots", "greedy")),
                                       map_id=_map_id(request.get("map")),
                                       pace=_pace(request.get("pace")),
                                       private=request.get("private") is True,
                                       invited=_names(request.get("invited")),
                                       talk=str(request.get("talk", "everyone")),
                                       hints=_flag(request.get("hints", True), "hints"))
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
        from railgames.tables.recording import Recording

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


def _pace(value: Any) -> Pace:
    """A table's pace as a request gives it ({"mode": "turn", "move_hours": 24, ...})."""
    from pydantic import ValidationError

    from railgames.core.record import describe_validation_error

    if value is None:
        return LIVE
    try:
        return Pace.model_validate(value)
    except ValidationError as exc:
        raise RailgamesError(f"a table's pace: {describe_validation_error(exc)}"[:300]) from None


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > 64 or not all(isinstance(v, str)
                                                                  for v in value):
        raise RailgamesError("the names invited are a list of names")
    return [v[:40] for v in value]


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RailgamesError(f"{what}: true or false was expected")
    return value


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RailgamesError("a number was expected")
    return value
