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
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from railgames.core.engine import Game, Prompt
from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError
from railgames.core.record import GameRecord
from railgames.net.botrunner import BotRunner
from railgames.net.feed import Feed, Moment
from railgames.net.lobby import Lobby
from railgames.net.pace import LIVE, Clock, Pace, SystemClock
from railgames.net.store import MAX_CHAT_KEPT, FileTableStore, TableStore, TimeoutEntry
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

    @property
    def tables(self) -> dict[str, HostTable]:
        return self.lobby.tables

    def close(self) -> None:
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
    def _keep(self, table: HostTable, *entries: Entry, created: bool = False) -> None:
        """Keep ``entries`` (and the seats, if they changed) in the store, then show the
        table to its members and let its bots go on."""
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
        if table.code in self._broken and todo:
            # The last write failed: the table is written whole, as it is now.
            record = table.game.record.model_copy(deep=True) if table.game is not None else None
            moved = datetime.fromtimestamp(table.moved_at, UTC).isoformat(timespec="seconds")
            todo = [{"rewrite": (table.header(), record, table.extras(), moved)}]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a plain test, a tool): write now, after any queued
            self.flush()
            self._write(table.code, todo)
            self._show(table)
            return
        if not todo:
            if table.pending is None:
                self._show(table)
            return  # else the write under way shows the table as it is when it is done
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="railgames-store")
        done = self._writer.submit(self._write, table.code, todo)
        pending = loop.create_future()
        table.pending = pending

        def written(future: Future[None]) -> None:
            loop.call_soon_threadsafe(self._written, table, pending, future)

        done.add_done_callback(written)

    def _write(self, code: str, entries: list[Entry]) -> None:
        try:
            for entry in entries:
                if "create" in entry:
                    self.store.create(code, entry["create"])
                elif "rewrite" in entry:
                    header, record, extras, moved_at = entry["rewrite"]
                    self.store.rewrite(code, header, record,  # type: ignore[attr-defined]
                                       extras, moved_at)
                else:
                    self.store.append(code, entry)
        except Exception as exc:  # the table goes on in memory; the log says the disk failed
            self._broken.add(code)
            event("save_failed", code=code, error=repr(exc)[:300])
        else:
            self._broken.discard(code)

    def _written(self, table: HostTable, pending: asyncio.Future[None], done: Future[None]) -> None:
        if table.pending is pending:
            table.pending = None
        if not pending.done():
            pending.set_result(None)
        self._show(table)

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
                tidy = getattr(self.store, "tidy", None)
                if tidy is not None and tidy(code, stored) and source.endswith(".json"):
                    event("table_imported", code=code, file=source)
            except OSError as exc:  # it is read as it is next time
                event("table_not_tidied", code=code, error=repr(exc)[:300])
            table.chat = [line.model_dump() for line in stored.chat]
            table.timed_out = stored.timeout.played if stored.timeout is not None else -1
            table.stand_in = _standing_in(table, stored.timeout)
            table.moved_at = _seconds(stored.moved_at, self.clock.now())
            event("table_restored", code=table.code, game=table.game_id, status=table.status,
                  actions=len(table.game.record.actions) if table.game else 0)
            self._announce(table, restored=True)

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
        return table

    def leave(self, member: Member) -> None:
        table = self.lobby.leave(member)
        if table is not None:
            self._keep(table)

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
        self._keep(table, {"act": game.record.actions[-1], "at": stamp})

    def undo(self, member: Member) -> None:
        table, game = self._playing(member)
        assert member.seat is not None
        game.undo(member.seat)  # refuses anyone else's move, draws, a new turn
        event("undo", code=table.code, player=member.login.name)
        table.moved_at = self.clock.now()
        self._keep(table, {"undo": len(game.record.actions), "at": self.now_text()})

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
        import time

        now = time.monotonic() if now is None else now
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
                or self.clock.now() < deadline:
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

