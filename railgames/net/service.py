"""Every table of one host, put together: the lobby, the store, the bots, the feed.

Every action from a player goes through ``Game.apply`` here, and a player can
act only for the seat they sit in. Each change is kept by the table store
before anyone is shown it: the store's writes run in one writer thread, in
order, so the host's loop (every player's keys and screens) never waits for
the disk; when a write is done the table is sent to its members and its bots
go on. A caller on the loop that must answer after the move is shown (the
table socket) awaits ``settled``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from railgames.core.engine import Game, Prompt
from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError
from railgames.core.record import GameRecord
from railgames.games import load_ruleset
from railgames.net.botrunner import BotRunner
from railgames.net.feed import Feed, Moment
from railgames.net.lobby import Lobby, bots_for
from railgames.net.pace import LIVE, Clock, Pace, SystemClock
from railgames.net.store import (
    MAX_CHAT_KEPT,
    ChatLine,
    FileTableStore,
    StoredTable,
    TableMoved,
    TableStore,
    TimeoutEntry,
)
from railgames.net.tables import HostTable, Member, event
from railgames.net.wire import encode

Entry = dict[str, Any]
# Passes played for a seat whose time ran out, at most (each game's turn needs one or two).
MAX_PASSES = 8
# Told of what happens at the tables, once each change is kept:
# ``listener(kind, table, info)``. Kinds: "changed" (anything the table's members are shown),
# "turn" (a seat's move is now awaited: info has seat, played, person, restored), "over".
Listener = Callable[[str, HostTable, dict[str, Any]], None]


class TableService:
    def __init__(self, root: Path, *, bot_delay: float = 0.7, bot_takeover: float | None = None,
                 bot_workers: int = 1, unattended: bool = False,
                 store: TableStore | None = None, clock: Clock | None = None) -> None:
        self.root = root
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.listeners: list[Listener] = []
        self.store: TableStore = store if store is not None else FileTableStore(root)
        self.lobby = Lobby(taken=self._code_kept)
        self.bots = BotRunner(self._commit_async, delay=bot_delay, takeover=bot_takeover,
                              unattended=unattended, workers=bot_workers)
        self.feed = Feed()
        self._writer: ThreadPoolExecutor | None = None
        self._broken: set[str] = set()  # tables whose last write failed: written whole next
        # Several hosts sharing one database (a store that says it is ``shared``): each
        # change says which version of its table it follows, and one that comes second is
        # refused by the store; this host then reads the table again and checks its own
        # changes again (``_repair``). What the other hosts change is read as they say so
        # (``follow``), and who sits where at which host is told between them (``Presence``).
        self.shared = bool(getattr(self.store, "shared", False))
        self.host_id = str(getattr(self.store, "origin", "")) or "here"
        self.presence = Presence(self.host_id)
        self._failed: dict[str, int] = {}  # writer thread: a table's epoch whose write failed
        self._loop: asyncio.AbstractEventLoop | None = None
        self._told_at = 0.0
        self._told: str = ""

    @property
    def tables(self) -> dict[str, HostTable]:
        return self.lobby.tables

    def close(self) -> None:
        # The bots stop first: a move of theirs made after the last write would find the
        # store closed (a database is, once the host has stopped).
        for table in self.tables.values():
            if table.bot_task is not None and not table.bot_task.done():
                table.bot_task.cancel()
        self.flush()
        self.bots.close()

    def _code_kept(self, code: str) -> bool:
        exists = getattr(self.store, "exists", None)
        return bool(exists(code)) if exists is not None else code in self.store.list()

    def path_of(self, table: HostTable) -> Path | str:
        """Where the store keeps ``table`` (for tools and tests; never sent to players): the
        file store's file, or how a database store names its row."""
        if isinstance(self.store, FileTableStore):
            return self.store.path(table.code)
        return self.store.describe(table.code)

    # ------------------------------------------------------------ keeping, then showing
    def _keep(self, table: HostTable, *entries: Entry, created: bool = False,
              by: Member | None = None) -> None:
        """Keep ``entries`` (and the seats, if they changed) in the store, then show the
        table to its members and let its bots go on (``by``: the member who made them)."""
        if table.stand_in is not None and table.to_move() != table.stand_in:
            table.stand_in = None  # the seat's turn has passed: its player is awaited again
        todo: list[Entry] = []
        if created:
            todo.append({"create": table.header()})
            table.kept_seats = table.seats_kept()
        seats = table.seats_kept()
        if seats != table.kept_seats:
            todo.append({"seats": seats})
            table.kept_seats = seats
        todo.extend(entries)
        if table.code in self._broken and todo and not self.shared:
            # The last write failed: the table is written whole, as it is now.
            record = table.game.record.model_copy(deep=True) if table.game is not None else None
            moved = datetime.fromtimestamp(table.moved_at, UTC).isoformat(timespec="seconds")
            todo = [{"rewrite": (table.header(), record, table.extras(), moved)}]
        after = table.version if self.shared and not created else None
        if self.shared:
            table.version += sum(1 for entry in todo if "create" not in entry)
            table.unsent.extend((entry, by) for entry in todo if "create" not in entry)
        job = (table.code, todo, after, table.epoch)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a plain test, a tool): write now, after any queued
            self.flush()
            outcome = self._write(*job)
            if not isinstance(outcome, Exception):
                self._confirmed(table, outcome, todo)
            self._show(table)
            return
        if not todo:
            if table.pending is None:
                self._show(table)
            return  # else the write under way shows the table as it is when it is done
        done = self._writer_pool().submit(self._write, *job)
        pending = loop.create_future()
        table.pending = pending

        def written(future: Future[int | Exception | None]) -> None:
            loop.call_soon_threadsafe(self._written, table, pending, future, job)

        done.add_done_callback(written)

    def _writer_pool(self) -> ThreadPoolExecutor:
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="railgames-store")
        return self._writer

    def _write(self, code: str, entries: list[Entry], after: int | None,
               epoch: int) -> int | Exception | None:
        """In the writer thread: keep ``entries``; the table's version after (None: the
        store does not count them), or what went wrong."""
        if self.shared and epoch <= self._failed.get(code, -1):
            return TableMoved(code, -1)  # an earlier change of this table was refused
        version: int | None = None
        try:
            appends: list[Entry] = []
            for entry in entries:
                if "create" in entry:
                    self.store.create(code, entry["create"])
                    version = 0
                elif "rewrite" in entry:
                    header, record, extras, moved_at = entry["rewrite"]
                    version = self.store.rewrite(code, header, record, extras, moved_at)
                else:
                    appends.append(entry)
            if appends:
                version = self.store.extend(code, appends, after=after)
        except Exception as exc:  # the table goes on in memory; the log says the disk failed
            self._broken.add(code)
            if self.shared:
                self._failed[code] = epoch
            if not isinstance(exc, TableMoved):
                event("save_failed", code=code, error=repr(exc)[:300])
            return exc
        self._broken.discard(code)
        return version

    def _confirmed(self, table: HostTable, version: int | None, todo: list[Entry]) -> None:
        """The store kept ``todo``: so many of the changes sent are no longer unsent."""
        if self.shared and version is not None:
            table.kept = version
            del table.unsent[:sum(1 for entry in todo if "create" not in entry)]
            self._behind(table)

    def _written(self, table: HostTable, pending: asyncio.Future[None],
                 done: Future[int | Exception | None],
                 job: tuple[str, list[Entry], int | None, int]) -> None:
        outcome = done.result()
        _code, todo, _after, epoch = job
        if table.pending is pending:
            table.pending = None
        if self.shared and epoch == table.epoch:
            if isinstance(outcome, Exception):
                self._repair(table, refused=isinstance(outcome, TableMoved))
            else:
                self._confirmed(table, outcome, todo)
        if not pending.done():
            pending.set_result(None)
        if not (self.shared and epoch != table.epoch) and table.pending is None:
            self._show(table)

    # ------------------------------------------------------------ several hosts, one store
    def _repair(self, table: HostTable, refused: bool) -> None:
        """A change of ``table`` was refused (another host changed it first) or its fate is
        not known (the link to the database broke): read the table again, and make again
        those of this host's changes that still can be.

        Where the store refused the write (``refused``), nothing of it was kept. Where its
        fate is not known, the changes the store holds after the last one confirmed are
        compared with this host's: if they are the same (the write was kept, only its
        answer was lost), nothing is made again. Else each move is checked again against the table as it now is: one
        that is still legal is made again; one that is not is dropped, and the player who
        made it is told (``Member.lost``). Lines said are said again; seats are worked out
        again from who sits here."""
        table.epoch += 1
        lost, table.unsent = table.unsent, []
        base = table.kept
        loop = asyncio.get_running_loop()
        repairing: asyncio.Future[None] = loop.create_future()
        table.pending = repairing

        def read() -> tuple[StoredTable | None, list[Entry] | None, str]:
            why = ""
            for _attempt in range(3):  # a link found cut is made again by the next call
                try:
                    return self.store.load(table.code), self.store.since(table.code, base), ""
                except Exception as exc:
                    why = str(getattr(exc, "reason", exc))
                    time.sleep(RETRY)
            return None, None, why

        async def repair() -> None:
            try:
                stored, since, why = await loop.run_in_executor(self._writer_pool(), read)
                if stored is None:
                    event("table_not_reread", code=table.code, reason=why[:300])
                    for _entry, member in lost:
                        if member is not None:
                            member.lost = "the table could not be read again: try again"
                    return
                mine = [entry for entry, _ in lost]
                kept = not refused and since is not None and _same(since[:len(mine)], mine)
                started = self._rebuild(table, stored)
                event("table_reread", code=table.code, version=stored.version,
                      remade=0 if kept else len(mine))
                self._remake(table, [] if kept else lost, started)
            finally:
                if table.pending is repairing:
                    table.pending = None
                repairing.set_result(None)
                if table.pending is None:
                    self._show(table)
                self._behind(table)

        loop.create_task(repair())

    def _rebuild(self, table: HostTable, stored: StoredTable) -> list[Entry]:
        """Make ``table`` (in place: its members keep it) what the store holds; what that
        adds (the game's start, when a player here takes the last seat)."""
        fresh = self.lobby.build(stored.settings, stored.record, self.store.describe(table.code))
        here = {m.seat for m in table.members if m.seat is not None}
        for i, seat in enumerate(fresh.seats):
            before = table.seats[i] if i < len(table.seats) else None
            if i in here:
                seat.empty_since = None
            elif before is not None and before.name == seat.name:
                seat.empty_since = before.empty_since
        table.seats, table.game, table.bots = fresh.seats, fresh.game, fresh.bots
        table.kept_seats = fresh.kept_seats
        self._restored(table, stored)
        table.stale = False
        table.tracks = {}
        added: list[Entry] = []
        for member in list(table.members):
            member.sent = None  # sent whole again
            if member.seat is not None and not (
                    member.seat < len(table.seats)
                    and table.seats[member.seat].name.lower() in member.login.names):
                member.seat = None  # their seat was taken at another host first
                table.members.remove(member)
                try:
                    started = self.lobby.join(member, table)
                except RailgamesError:
                    started = self.lobby.join(member, table, watch=True)
                if started and table.game is not None:
                    table.moved_at = self.clock.now()
                    added.append({"start": _header(table.game.record), "at": self.now_text()})
        return added

    def _remake(self, table: HostTable, lost: list[tuple[Entry, Member | None]],
                again: list[Entry]) -> None:
        """Make again the changes of ``lost`` that still can be (see ``_repair``), after
        ``again``."""
        for entry, member in lost:
            if "act" in entry and table.game is not None:
                try:
                    table.game.apply(entry["act"], recorded=True)
                except (IllegalAction, MalformedAction) as exc:
                    if member is not None:
                        member.lost = ("another move was made first at this table; yours "
                                       f"was not played ({exc.reason})")[:300]
                    event("action_lost", code=table.code, reason=exc.reason[:200])
                    continue
                again.append({"act": table.game.record.actions[-1],
                              **({"at": entry["at"]} if "at" in entry else {})})
            elif "chat" in entry:
                table.chat.append(entry["chat"])
                del table.chat[:-MAX_CHAT_KEPT]
                again.append(entry)
            elif "undo" in entry and member is not None:
                member.lost = "another move was made first at this table: nothing was taken back"
        if again or table.seats_kept() != table.kept_seats:
            self._keep(table, *again)

    def follow(self) -> None:
        """Hear what other hosts change (a store shared with them): call on the host's loop
        once its tables are loaded."""
        if not self.shared:
            return
        loop = self._loop = asyncio.get_running_loop()

        def heard(code: str | None, version: int, entries: list[Entry] | None) -> None:
            loop.call_soon_threadsafe(self._heard, code, version, entries)

        self.store.follow(heard)
        hear = getattr(self.store, "hear", None)
        if hear is not None:
            hear(PRESENCE, lambda text: loop.call_soon_threadsafe(self._presence_heard, text))
        self.tell_presence(force=True)

    def _heard(self, code: str | None, version: int, entries: list[Entry] | None = None) -> None:
        """Another host changed table ``code`` to ``version`` (None: perhaps any table),
        adding ``entries`` if told: apply them, or catch up from the store."""
        if code is None:
            for each in list(self.tables.values()):
                each.stale = True
                self._behind(each)
            self._off_loop(self.store.list, self._new_tables)
            return
        table = self.tables.get(code)
        if table is None:
            self._load_one(code)
            return
        table.heard = max(table.heard, version)
        if entries and version - len(entries) == table.version and not table.unsent:
            if self._apply_all(table, entries):
                table.version = table.kept = version
                self._show(table)
            else:
                self._reload(table)
            return
        self._behind(table)

    def _behind(self, table: HostTable) -> None:
        """Catch ``table`` up if another host said it is further on than this host has it
        (with changes of this host's under way, not now: then either their write is
        refused, and the repair reads the table again, or it is kept and this is called
        again)."""
        if self.shared and (table.heard > table.version or table.stale) and not table.unsent \
                and self._loop is not None:
            self._catch_up(table)

    def _new_tables(self, codes: list[str] | Exception) -> None:
        if isinstance(codes, Exception):  # the store is away: asked again shortly
            assert self._loop is not None
            self._loop.call_later(RETRY, self._heard, None, 0)
            return
        for code in codes:
            if code not in self.tables:
                self._load_one(code)

    def _off_loop(self, read: Callable[[], Any], then: Callable[[Any], None]) -> None:
        """Run ``read`` in the writer thread (after the writes queued before it), then
        ``then(what it gave, or what it raised)`` on the host's loop."""
        loop = self._loop
        assert loop is not None

        def run() -> Any:
            try:
                return read()
            except Exception as exc:
                return exc

        self._writer_pool().submit(run).add_done_callback(
            lambda done: loop.call_soon_threadsafe(then, done.result()))

    def _load_one(self, code: str) -> None:
        """A table made at another host: brought here as the store keeps it."""

        def loaded(stored: StoredTable | Exception) -> None:
            if code in self.tables:
                return  # loaded meanwhile (told twice)
            if isinstance(stored, Exception):
                event("table_not_restored", file=self.store.describe(code),
                      reason=str(getattr(stored, "reason", stored))[:300])
                return
            try:
                table = self.lobby.restore(stored.settings, stored.record,
                                           self.store.describe(code))
            except RailgamesError as exc:
                event("table_not_restored", file=self.store.describe(code), reason=exc.reason)
                return
            self._restored(table, stored)
            self.presence.apply(table)
            self._announce(table, restored=True)
            self.bots.schedule(table)

        self._off_loop(lambda: self.store.load(code), loaded)

    def _catch_up(self, table: HostTable) -> None:
        """Read what other hosts added to ``table`` since this host's version, and apply it."""
        assert self._loop is not None
        loop, base = self._loop, table.version

        def got(entries: list[Entry] | None | Exception) -> None:
            if isinstance(entries, Exception):  # the store is away: tried again shortly
                loop.call_later(RETRY, self._behind, table)
                return
            if table.version != base or table.unsent:
                return  # this host changed it meanwhile: told again when its write is done
            if entries is None or not self._apply_all(table, entries):
                self._reload(table)
                return
            table.version = table.kept = base + len(entries)
            table.stale = False
            if entries:
                self._show(table)
            self._behind(table)

        self._off_loop(lambda: self.store.since(table.code, base), got)

    def _reload(self, table: HostTable) -> None:
        """Read ``table`` whole again (its log was compacted, or what came could not be
        applied in order)."""
        assert self._loop is not None
        loop = self._loop

        def loaded(stored: StoredTable | Exception) -> None:
            if isinstance(stored, Exception):
                table.stale = True  # the store is away: tried again shortly
                loop.call_later(RETRY, self._behind, table)
                return
            if table.unsent:
                return
            try:
                started = self._rebuild(table, stored)
            except RailgamesError as exc:
                event("table_not_reread", code=table.code, reason=exc.reason[:300])
                return
            if started:
                self._keep(table, *started)
            else:
                self._show(table)

        self._off_loop(lambda: self.store.load(table.code), loaded)

    def _apply_all(self, table: HostTable, entries: list[Entry]) -> bool:
        """Apply another host's changes to ``table`` in order; False (and ``table`` left as
        the entries before the faulty one made it) if one cannot be."""
        for entry in entries:
            try:
                self._apply(table, entry)
            except Exception as exc:  # read whole again instead, strictly
                event("change_not_applied", code=table.code, error=repr(exc)[:300])
                return False
        return True

    def _apply(self, table: HostTable, entry: Entry) -> None:
        at = entry.get("at")
        if "seats" in entry:
            seats = entry["seats"]
            if not isinstance(seats, list) or len(seats) != len(table.seats):
                raise RailgamesError("the seats do not fit the table")
            for seat, kept in zip(table.seats, seats, strict=True):
                seat.name, seat.kind = str(kept["name"]), str(kept["kind"])
                seat.key = kept.get("key") if isinstance(kept.get("key"), str) else None
                seat.bot_taken = kept.get("bot_taken") is True
            table.kept_seats = table.seats_kept()
        elif "start" in entry:
            if table.game is not None:
                raise RailgamesError("the game began twice")
            record = GameRecord.model_validate({**entry["start"], "actions": []})
            table.game = Game.replay(load_ruleset(record.game, record.map), record)
            table.bots = bots_for(table)
            table.moved_at = _seconds(at, self.clock.now())
        elif "act" in entry:
            if table.game is None:
                raise RailgamesError("an action before the game began")
            table.game.apply(entry["act"], recorded=True)
            if isinstance(at, str):
                table.game.record.updated = at
            table.moved_at = _seconds(at, self.clock.now())
            if table.stand_in is not None and table.to_move() != table.stand_in:
                table.stand_in = None
        elif "undo" in entry:
            game, back = table.game, entry["undo"]
            if game is None or type(back) is not int or not 0 <= back <= len(game.record.actions):
                raise RailgamesError("an undo that does not fit")
            game.rewind(back)
            table.moved_at = _seconds(at, self.clock.now())
        elif "chat" in entry:
            line = ChatLine.model_validate(entry["chat"]).model_dump()
            table.chat.append(line)
            del table.chat[:-MAX_CHAT_KEPT]
            self.emit("said", table, line=line)  # shown to those here as it is said there
        elif "timeout" in entry:
            timeout = TimeoutEntry.model_validate(entry["timeout"])
            table.timed_out = timeout.played
            table.stand_in = _standing_in(table, timeout)
        else:
            raise RailgamesError("not a table's change")

    # --- who sits where, told between hosts
    def tell_presence(self, force: bool = False) -> None:
        """Tell the other hosts which seats have their players here (when it changed, and
        every few seconds so that a host that stopped is forgotten)."""
        tell = getattr(self.store, "tell", None)
        if not self.shared or tell is None:
            return
        now = time.monotonic()
        seats = {code: sorted({m.seat for m in t.members if m.seat is not None})
                 for code, t in self.tables.items() if any(m.seat is not None for m in t.members)}
        text = json.dumps({"host": self.host_id, "seats": seats}, separators=(",", ":"))
        if not force and text == self._told and now - self._told_at < PRESENCE_EVERY:
            return
        self._told, self._told_at = text, now
        self.presence.heard(self.host_id, seats, now)
        self._writer_pool().submit(_quietly, tell, PRESENCE, text)
        self._lead()

    def _presence_heard(self, text: str) -> None:
        try:
            told = json.loads(text)
            host, seats = str(told["host"]), told["seats"]
            if host == self.host_id or not isinstance(seats, dict):
                return
            self.presence.heard(host, {str(c): [int(s) for s in v] for c, v in seats.items()},
                                time.monotonic())
        except (ValueError, KeyError, TypeError):
            return
        self._lead()

    def _lead(self) -> None:
        """Work out again, for every table, who sits elsewhere and whether this host leads."""
        self.presence.forget_quiet(time.monotonic())
        for table in self.tables.values():
            was, there = table.led_elsewhere, set(table.elsewhere)
            self.presence.apply(table)
            if there != table.elsewhere:  # who is at the table, as its members are shown
                self.broadcast(table)
                self.emit("changed", table)
            if was and not table.led_elsewhere:
                self.bots.schedule(table)  # the host that ran its bots has gone: here now

    def _show(self, table: HostTable) -> None:
        self.broadcast(table)
        self._announce(table)
        self.bots.schedule(table)

    # ------------------------------------------------------------ what happened, told
    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def emit(self, kind: str, table: HostTable, **info: Any) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, table, info)
            except Exception as exc:  # one listener's fault never stops the table
                event("listener_error", kind=kind, code=table.code, error=repr(exc)[:300])

    def _announce(self, table: HostTable, restored: bool = False) -> None:
        """Tell the listeners what changed: always "changed"; "turn" when the seat whose
        move is awaited is another than last told; "over" once, when the game ends.

        A restarted host tells the move awaited again (``restored``): what listens
        (notifications) knows each turn by its table, seat and actions played, and does
        not repeat one it already did."""
        self.emit("changed", table)
        now = (table.to_move(), table.played())
        before, table.announced = table.announced, now
        if before == now and not restored:
            return
        if table.status == "over":
            if restored or before is None or before[0] is not None:
                self.emit("over", table, played=now[1], restored=restored)
            return
        seat = now[0]
        if seat is not None and (restored or before is None or before[0] != seat):
            self.emit("turn", table, seat=seat, played=now[1], person=not table.bot_moves(seat),
                      restored=restored)

    def now_text(self) -> str:
        """The host's clock as a log entry keeps it."""
        return datetime.fromtimestamp(self.clock.now(), UTC).isoformat(timespec="seconds")

    def deadline(self, table: HostTable) -> float | None:
        """When the move a turn-based table awaits runs out of time (None: no limit, or no
        person's move awaited)."""
        seat = table.to_move()
        if seat is None or table.bot_moves(seat):
            return None
        return table.pace.deadline(table.moved_at)

    async def _commit_async(self, table: HostTable, entry: Entry) -> None:
        entry = {**entry, "at": self.now_text()}
        table.moved_at = self.clock.now()
        if "act" in entry and table.game is not None:
            # As a person's move does: the record says when it was last played (a game a
            # bot ends ended then, as the store gives it back after a restart).
            table.game.record.updated = entry["at"]
        self._keep(table, entry)
        await self.settled(table)

    async def settled(self, table: HostTable | None) -> None:
        """Once every change of ``table`` made so far is kept and shown."""
        while table is not None and table.pending is not None:
            await asyncio.shield(table.pending)

    def flush(self) -> None:
        """Wait for every write still under way (off the loop, or at shutdown)."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    # ------------------------------------------------------------ bringing tables back
    def load(self) -> None:
        """Bring back every table the store keeps.

        Each is read as strictly as a saved game; one that cannot be used is skipped
        with one log line naming it, and the other tables come back.
        """
        for code in self.store.list():
            source = self._source(code)
            try:
                stored = self.store.load(code)
                table = self.lobby.restore(stored.settings, stored.record, source)
            except RailgamesError as exc:
                reason = exc.reason if exc.reason.startswith(source) else f"{source}: {exc.reason}"
                event("table_not_restored", file=source, reason=reason[:500])
                continue
            except Exception as exc:  # whatever a damaged file does, the other tables go on
                event("table_not_restored", file=source,
                      reason=f"{source}: {type(exc).__name__}: {exc}"[:500])
                continue
            if stored.torn:
                event("table_torn", code=code, file=source,
                      reason="its last line was cut short (a write killed halfway); left out")
            try:
                # (Hosts sharing a store leave it as it is: compacting moves the version
                # on under the others' feet, for no gain a database needs.)
                if not self.shared and self.store.tidy(code, stored) \
                        and source.endswith(".json"):
                    event("table_imported", code=code, file=source)
            except (OSError, RailgamesError) as exc:  # it is read as it is next time
                event("table_not_tidied", code=code, error=repr(exc)[:300])
            self._restored(table, stored)
            event("table_restored", code=table.code, game=table.game_id, status=table.status,
                  actions=len(table.game.record.actions) if table.game else 0)
            self._announce(table, restored=True)

    def _restored(self, table: HostTable, stored: StoredTable) -> None:
        table.chat = [line.model_dump() for line in stored.chat]
        table.timed_out = stored.timeout.played if stored.timeout is not None else -1
        table.stand_in = _standing_in(table, stored.timeout)
        table.moved_at = _seconds(stored.moved_at, self.clock.now())
        table.version = table.kept = stored.version

    def _source(self, code: str) -> str:
        """Where table ``code`` is kept, as the log names it (a file, a database's row)."""
        return self.store.describe(code)

    # ------------------------------------------------------------ the lobby
    def listing(self, member: Member | None = None) -> list[dict[str, Any]]:
        return self.lobby.listing(member.login if member is not None else None)

    def create(self, member: Member, game_id: str, seats: int, humans: int,
               bot_kind: str = "greedy", options: dict[str, Any] | None = None,
               map_id: str | None = None, seed: int | None = None, *,
               pace: Pace = LIVE, private: bool = False, invited: list[str] | None = None,
               talk: str = "everyone", hints: bool = True,
               again_of: str | None = None) -> HostTable:
        table = self.lobby.create(member, game_id, seats, humans, bot_kind, options, map_id,
                                  seed, pace=pace, private=private, invited=invited, talk=talk,
                                  hints=hints, again_of=again_of)
        table.moved_at = self.clock.now()
        self._keep(table, created=True)
        self.join(member, table.code)
        return table

    def join(self, member: Member, code: str, watch: bool = False) -> HostTable:
        table = self.lobby.find(code)
        self.leave(member)
        started = self.lobby.join(member, table, watch)
        start = []
        if started and table.game:
            table.moved_at = self.clock.now()
            start = [{"start": _header(table.game.record), "at": self.now_text()}]
        self._keep(table, *start)
        self.tell_presence()
        return table

    def leave(self, member: Member) -> None:
        table = self.lobby.leave(member)
        if table is not None:
            self._keep(table)
            self.tell_presence()

    # ------------------------------------------------------------ playing
    def act(self, member: Member, raw: Any) -> None:
        """Apply ``raw`` for the member's seat; refusals carry the rules layer's reason."""
        table, game = self._playing(member)
        if not isinstance(raw, dict):
            raise MalformedAction("an action is a JSON object")
        seat = member.seat
        assert seat is not None
        claimed = raw.get("seat")
        if isinstance(claimed, int) and not isinstance(claimed, bool) and claimed != seat \
                and 0 <= claimed < len(table.seats):
            raise IllegalAction(f"you play {table.seats[seat].name}'s seat and cannot act for "
                                f"{table.seats[claimed].name}")
        try:
            game.apply(raw)
        except (IllegalAction, MalformedAction) as exc:
            event("action_refused", code=table.code, player=member.login.name, reason=exc.reason)
            raise
        if seat == table.stand_in:
            table.stand_in = None  # its player is back: the bot stands down
        stamp = self.now_text()
        table.moved_at = self.clock.now()
        game.record.updated = stamp
        event("action", code=table.code, player=member.login.name, type=raw.get("type"),
              index=len(game.record.actions) - 1)
        self._keep(table, {"act": game.record.actions[-1], "at": stamp}, by=member)

    def undo(self, member: Member) -> None:
        table, game = self._playing(member)
        assert member.seat is not None
        game.undo(member.seat)  # refuses anyone else's move, draws, a new turn
        event("undo", code=table.code, player=member.login.name)
        table.moved_at = self.clock.now()
        self._keep(table, {"undo": len(game.record.actions), "at": self.now_text()}, by=member)

    def say(self, table: HostTable, name: str, seat: int | None, text: str) -> dict[str, Any]:
        """Keep a line said at ``table`` (already checked and cleaned: ``chat``) in its
        log, after the changes before it; the line as kept."""
        line = {"name": name, "text": text, "seat": seat, "at": self.now_text()}
        table.chat.append(line)
        del table.chat[:-MAX_CHAT_KEPT]
        self._keep(table, {"chat": line})
        return line

    def _playing(self, member: Member) -> tuple[HostTable, Game]:
        table = member.table
        if table is None:
            raise IllegalAction("you are not at a table")
        if member.seat is None:
            raise IllegalAction("you are watching this table; only its players act")
        if table.game is None:
            raise IllegalAction(f"the game starts when {table.free_human_seats()} more "
                                "player(s) have joined")
        return table, table.game

    # ------------------------------------------------------------ bots
    def bot_to_move(self, table: HostTable) -> int | None:
        return self.bots.to_move(table)

    def schedule_bots(self, table: HostTable) -> None:
        self.bots.schedule(table)

    async def run_bots(self, table: HostTable) -> None:
        await self.bots.run(table)

    def tick(self, now: float | None = None) -> None:
        """Called every second: hand each seat of a live table left empty long enough to a
        bot (while someone is at its table; ``now`` is ``time.monotonic``'s), and at a
        turn-based table do what its pace says once the awaited move's time, by the
        service's clock, has run out."""
        now = time.monotonic() if now is None else now
        if self.shared:
            self.tell_presence()
        for table in list(self.tables.values()):
            due = self.bots.due(table, now)
            for i in due:
                table.seats[i].bot_taken = True
                event("seat_taken_by_bot", code=table.code, seat=i, player=table.seats[i].name)
            if due:
                self._keep(table)
            try:
                self._time_out(table)
            except Exception as exc:  # one table's fault never stops the others' clocks
                table.timed_out = table.played()  # not tried again every second
                self._broken.add(table.code)  # kept whole next time, whatever was played
                event("timeout_error", code=table.code, error=repr(exc)[:300])

    def _time_out(self, table: HostTable) -> None:
        """The awaited move has run out of time: said once per move (a "timeout" entry in
        the table's log, read back after a restart as ``timed_out``), then a bot plays the
        seat's turn, or its turn is passed where the rules allow a pass now (else only a
        reminder, and the log says why), or nothing is done but the telling."""
        deadline = self.deadline(table)
        game, seat, played = table.game, table.to_move(), table.played()
        if game is None or seat is None or deadline is None or table.timed_out == played \
                or self.clock.now() < deadline or table.led_elsewhere:
            return
        did = table.pace.on_timeout
        passed: list[Entry] = []
        if did == "skip":
            passed = self._pass(table, seat)
            if not passed:
                did = "remind"
                event("timeout_not_skipped", code=table.code, seat=seat,
                      reason="the rules allow no pass at this moment: the player is reminded")
        table.timed_out = played
        if did == "bot":
            table.stand_in = seat
        stamp = self.now_text()
        entries: list[Entry] = [{"timeout": {"played": played, "seat": seat, "did": did},
                                 "at": stamp}]
        if passed:
            table.moved_at = self.clock.now()
            game.record.updated = stamp
            entries.extend({"act": action, "at": stamp} for action in passed)
        event("move_timed_out", code=table.code, seat=seat, player=table.seats[seat].name,
              played=played, did=did)
        # Told before the change is shown, so that the "turn" it brings comes after it.
        self.emit("timeout", table, seat=seat, played=played, did=did)
        self._keep(table, *entries)

    def _pass(self, table: HostTable, seat: int) -> list[Entry]:
        """Pass ``seat``'s turn as far as its rules allow (see ``Ruleset.passes``): the
        actions played, as the record keeps them (none: no pass is legal now)."""
        game = table.game
        assert game is not None
        done: list[Entry] = []
        for _ in range(MAX_PASSES):
            if table.to_move() != seat:
                break
            action = game.ruleset.pass_action(game.state, seat)
            if action is None:
                break
            try:
                game.apply(action)
            except (IllegalAction, MalformedAction) as exc:  # a game's pass list is wrong
                event("pass_refused", code=table.code, seat=seat, reason=exc.reason)
                break
            event("action", code=table.code, player=table.seats[seat].name, type=action.type,
                  index=len(game.record.actions) - 1, timeout=True)
            done.append(game.record.actions[-1])
        return done

    # ------------------------------------------------------------ history
    def history_record(self, member: Member) -> tuple[HostTable, Any, GameRecord]:
        """The table's rules and its record so far, copied: the Recording is built from
        them off the loop."""
        table = member.table
        if table is None:
            raise IllegalAction("you are not at a table")
        if table.game is None:
            raise IllegalAction("the game has not started yet: there is no history")
        return table, table.game.ruleset, table.game.record.model_copy(deep=True)

    def history_opened(self, member: Member, table: HostTable, recording: Any) -> dict[str, Any]:
        """Keep ``recording`` for the member and say what it holds, as its seat may see it.

        The record itself (its seed decides every draw to come, and the actions may
        say what others hold) stays here: the member gets the events its seat may
        see, the turn at each position, and one position's view at a time.
        """
        member.history = recording
        event("history_opened", code=table.code, player=member.login.name,
              actions=recording.length)
        return {"length": recording.length,
                "turns": [recording.turn_at(p) for p in range(recording.length + 1)],
                "events": encode(recording.all_events()), **self.history_at(member, None)}

    def history_at(self, member: Member, position: int | None) -> dict[str, Any]:
        """One position of the member's history: its seat's view, the banner, the result."""
        recording = member.history
        if recording is None or member.table is None:
            raise IllegalAction("open the history first")
        recording.seek(recording.length if position is None else position)
        prompt = recording.prompt()
        if prompt is not None and prompt.seat != member.seat:
            prompt = Prompt(seat=prompt.seat, step=prompt.step, text=prompt.text, help=prompt.help)
        return {"position": recording.position, "at": encode({
            "state": recording.view(), "prompt": prompt, "result": recording.result()})}

    def history_closed(self, member: Member) -> None:
        member.history = None

    # ------------------------------------------------------------ what each member sees
    def broadcast(self, table: HostTable) -> None:
        moment = Moment(table)
        for member in list(table.members):
            try:
                message = self.feed.message(member, moment)
                if message is not None:
                    member.send(message)
            except Exception as exc:  # one broken connection never stops the others
                event("send_failed", code=table.code, player=member.login.name, error=repr(exc))

    def tables_of(self, member: Member) -> list[dict[str, Any]]:
        return self.lobby.tables_of(member.login)


PRESENCE = "railgames_here"  # the channel hosts tell each other who sits where on
RETRY = 0.5  # seconds before a table is read again when the store was away
PRESENCE_EVERY = 5.0  # seconds between tellings when nothing changed
PRESENCE_FORGET = 16.0  # a host not heard from for this long has stopped


class Presence:
    """Which seats of which tables have their players at which host (hosts sharing a
    store tell each other: ``TableService.tell_presence``), and so which host leads each
    table: runs its bots and its clocks. That is the first host, by name, with a player at
    the table; at a table nobody sits at, the first of all the hosts heard from lately."""

    def __init__(self, me: str) -> None:
        self.me = me
        self.hosts: dict[str, tuple[float, dict[str, list[int]]]] = {}

    def heard(self, host: str, seats: dict[str, list[int]], now: float) -> None:
        self.hosts[host] = (now, seats)

    def forget_quiet(self, now: float) -> None:
        for host in [h for h, (at, _) in self.hosts.items()
                     if h != self.me and now - at > PRESENCE_FORGET]:
            del self.hosts[host]

    def apply(self, table: HostTable) -> None:
        seated = sorted(h for h, (_, seats) in self.hosts.items() if seats.get(table.code))
        mine = any(m.seat is not None for m in table.members)
        table.elsewhere = {s for h, (_, seats) in self.hosts.items() if h != self.me
                           for s in seats.get(table.code, ())}
        if mine and self.me not in seated:
            seated = sorted([*seated, self.me])
        leader = seated[0] if seated else min([self.me, *self.hosts])
        table.led_elsewhere = leader != self.me


def _same(a: list[Entry], b: list[Entry]) -> bool:
    def norm(entries: list[Entry]) -> str:
        return json.dumps(entries, sort_keys=True, default=str)

    return len(a) == len(b) and norm(a) == norm(b)


def _quietly(call: Callable[..., Any], *args: Any) -> None:
    try:
        call(*args)
    except Exception as exc:  # the others hear again at the next telling
        event("presence_not_told", error=repr(exc)[:200])


def _standing_in(table: HostTable, timeout: TimeoutEntry | None) -> int | None:
    """The seat a bot goes on playing after a restart: the one whose move ran out of time
    (timeouts "bot") if the bot had not moved for it yet. Once it had, the log's last
    action is the bot's and the rest of the turn is its player's again, with a new time."""
    if timeout is None or timeout.did != "bot" or timeout.seat is None:
        return None
    return timeout.seat if table.to_move() == timeout.seat else None


def _seconds(text: str | None, default: float) -> float:
    """A log entry's time as clock seconds (``default`` if it has none or it is unreadable)."""
    if not text:
        return default
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return default
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.timestamp()


def _header(record: GameRecord) -> dict[str, Any]:
    """A new game's record without its actions: what the store keeps when it starts."""
    return record.model_dump(mode="json", exclude={"actions"})

