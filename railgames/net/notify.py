"""Telling players outside the terminal that it is their move: ``--notify-command``.

A host started with ``--notify-command CMD`` runs CMD (through ``sh -c``) once for
each thing a player should hear of while away, with one JSON object on its
standard input::

    {"id": "RFXP/12/turn/bo", "player": "Bo", "to": "bo@example.org" | null,
     "table": "RFXP", "game": "Railways of the World",
     "kind": "your_move" | "over" | "reminder" | "invited",
     "text": "Your move at RFXP (Railways of the World): Cy delivered a red cube ...",
     "join": "ssh -p 2222 Bo@games.example.org, then table RFXP",
     "at": "2026-01-01T09:00:00+00:00"}

What is told, and to whom (``Notifier.heard``, a listener on the ``TableService``):

- "your_move": a seat's move is awaited and a person plays it;
- "over": a game ends, to every person seated;
- "reminder": a turn-based table's move ran out of time and its pace says remind
  (the service's "timeout" with did="remind");
- "invited": a table was set up to play again, to each name it invites (the
  service's "invited", info ``names`` and ``by``, the one who set it up, not told).

A game a restarted host finds over is not told again (nor at all, if it ended
before the host notified: a host upgraded to notify would tell of every old game);
the move a restarted host finds awaited is told if it was not before.

Nobody hears of a table they muted. A player who set no address is still told,
with ``"to": null``: the command routes by address, or by name, or skips them
(the example in docs/notify-mail.sh skips them). A player who is looking at the
table already is not told: at a turn-based table, one sitting at that table
now; at a live table, one connected to the host at all (the app tells them).

Each event has an id (table, actions played, kind, player), and the outbox
(``outbox.jsonl`` in the host's folder) keeps which were accepted and which
are done (delivered, given up, or not needed), one JSON line each. A restarted
host says again whose move each table awaits; an event already accepted is not
sent again, and one accepted but not done when the host stopped is sent at the
next start, as are those still queued when the host stops. The line saying an
event is done is written after its command has run: a host killed between the
two runs that one command again on restart. A host killed in the moment between
a move and its event's line in the outbox loses that event, except a move
awaited, which the restarted host tells.

Hosts sharing a PostgreSQL database (``--store postgresql://...``) keep the outbox
there instead (``docstore``: one row per event, its id the key). Every host serving
a table hears its turns; the first to keep an event's row is the one that runs the
command for it, and the others find the row kept and do nothing, so a player is told
once however many hosts there are. A host that stops lets go of the events it did
not deliver, and the next host to start sends them.

Delivery is one worker thread: the host's loop only puts events on a bounded
queue (a flood beyond it is dropped with a log line). A command that runs
longer than ``timeout`` is killed (its whole process group); one that fails
(non-zero exit, not found, killed) is tried again after growing pauses, a
bounded number of times, each failure one ``notify_failed`` log line, then
given up (``notify_given_up``). What it prints is kept to a few hundred bytes
for the log.

The player's own settings are requests on the table socket (``ops``)::

    {"op": "settings"} -> {"ok", "notify_to", "muted": [codes], "quiet": [codes],
                           "tables": [{"code", "title", "status", "muted", "bell"}]}
    {"op": "set_address", "to": text ("" for none)} -> {"ok", "notify_to"}
    {"op": "mute", "code": CODE, "on": bool} -> {"ok", "muted"}    (no notifications)
    {"op": "bell", "code": CODE, "on": bool} -> {"ok", "quiet"}    (terminal bell; off: quiet)
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from railgames.core.errors import IllegalAction, MalformedAction, RecordError
from railgames.core.record import read_strict_json
from railgames.net.ops import op
from railgames.net.pace import Clock, SystemClock
from railgames.net.profiles import MAX_ADDRESS, Profile, Profiles, address_problem
from railgames.net.tables import HostTable, Member, event

if TYPE_CHECKING:
    from railgames.net.docstore import SharedDocs
    from railgames.net.service import TableService
    from railgames.net.tableserver import TableServer

OUTBOX = "outbox.jsonl"
MAX_OUTBOX_BYTES = 32 * 1024 * 1024  # beyond this the file is set aside whole
MAX_TEXT = 300  # characters of "text"
MAX_NOTICE = 16 * 1024  # bytes of one event kept in a shared database
OUTPUT_CAP = 600  # bytes of a failed command's output kept for its log line
QUEUE_SIZE = 2000
RETRY_PAUSES = (10.0, 60.0, 300.0)  # seconds before each further try: 4 tries in all
Kind = Literal["your_move", "over", "reminder", "invited"]


class Notice(BaseModel):
    """The document the command reads on its standard input (and the outbox keeps)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: str
    player: str
    to: str | None
    table: str
    game: str
    kind: Kind
    text: str
    join: str
    at: str


def one_line(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` as one line a mail subject or a chat message can carry: no control
    characters, spaces folded, at most ``limit`` characters."""
    cleaned = "".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c for c in text)
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1] + "…"


def latest(table: HostTable, seat: int | None) -> str:
    """What the last action at ``table`` did, as ``seat`` may see it: the first line it
    added ("Cy ends the build (5 red locomotives)."; the lines after it are its
    consequences, such as whose turn it is now); "" before any move."""
    game = table.game
    if game is None:
        return ""
    action: int | None = None
    text = ""
    for told in reversed(game.log):
        if told.action < 0:
            break
        if not told.visible(seat):
            continue
        if action is None:
            action = told.action
        elif told.action != action:
            break
        text = told.text  # going back: the action's first line, in the end
    return one_line(text, 200)


def turn_began(table: HostTable, seat: int) -> int:
    """How many actions had been played when ``seat``'s present turn began: the same for
    every action of a turn of several (the service tells a turn once, a restarted host
    once more, with the actions played by then)."""
    actions = table.game.record.actions if table.game is not None else []
    began = len(actions)
    while began > 0 and actions[began - 1].get("seat") == seat:
        began -= 1
    return began


class Notifier:
    """Hears the tables' events, keeps them in the outbox, and runs the command for each."""

    def __init__(self, command: str | None, folder: Path | None, *,
                 clock: Clock | None = None, join_hint: str = "",
                 timeout: float = 30.0, retry_pauses: tuple[float, ...] = RETRY_PAUSES,
                 queue_size: int = QUEUE_SIZE, docs: SharedDocs | None = None) -> None:
        self.command = command
        self.folder = folder
        self.docs = docs  # the outbox in a database several hosts share (else the file)
        self.clock: Clock = clock if clock is not None else SystemClock()
        # How a notification says to come back: {player} and {code} are filled in.
        self.join_hint = join_hint
        self.timeout = timeout
        self.retry_pauses = retry_pauses
        alone = Profiles(None)  # no table server: nobody has set anything
        self.profiles: Callable[[], Profiles] = lambda: alone
        self.present: Callable[[str, HostTable], bool] = lambda name, table: False
        # Ids accepted or done (what a restarted host must not send again): the loop's.
        self.known: set[str] = set()
        self._queue: queue.Queue[Notice | None] = queue.Queue(maxsize=queue_size)
        self._done_only: list[tuple[str, str]] = []  # (id, outcome) for the worker to record
        self._busy = 0  # events put on the queue and not yet done
        self._idle = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._file: Any = None
        self._pending = self._read_outbox()

    # ------------------------------------------------------------ the outbox
    @property
    def path(self) -> Path | None:
        return None if self.folder is None else self.folder / OUTBOX

    def _read_outbox(self) -> list[Notice]:
        """The events accepted and not done when the host last stopped (sent again now);
        every id seen goes in ``known``. A file that cannot be read is set aside."""
        if self.docs is not None:
            return self._read_shared(self.docs)
        path = self.path
        if path is None or not path.exists():
            return []
        try:
            if path.stat().st_size > MAX_OUTBOX_BYTES:
                raise ValueError(f"larger than {MAX_OUTBOX_BYTES // (1024 * 1024)} MB")
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            self._set_aside(path, f"cannot be read: {exc}"[:300])
            return []
        accepted: dict[str, Notice] = {}
        done: dict[str, str] = {}
        lines = text.split("\n")
        bad: str | None = None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if not isinstance(entry, dict):
                    raise ValueError("not an object")
                if "accepted" in entry:
                    notice = Notice.model_validate(entry["accepted"])
                    accepted[notice.id] = notice
                elif isinstance(entry.get("done"), str) and isinstance(entry.get("outcome"), str):
                    done[entry["done"]] = entry["outcome"][:40]
                else:
                    raise ValueError("neither an event accepted nor one done")
            except (ValueError, ValidationError) as exc:
                if number == len(lines):  # the last line, cut short by a killed write
                    event("outbox_torn", file=str(path), line=number)
                    continue
                bad = bad or f"line {number}: {str(exc).splitlines()[0]}"[:300]
        if bad is not None:
            self._set_aside(path, bad)
        self.known = set(accepted) | set(done)
        pending = [n for i, n in accepted.items() if i not in done]
        self._compact(path, pending, done, len(lines))
        return pending

    def _read_shared(self, docs: SharedDocs) -> list[Notice]:
        """The events nobody is delivering (left by a host that stopped, or held too long
        by one that was killed), now this host's to send; every id kept goes in ``known``.
        A row that cannot be read is one log line, and is marked done."""
        if self.command is None:
            return []
        try:
            self.known, taken = docs.take_pending(MAX_NOTICE)
        except RecordError as exc:
            event("outbox_unreadable", file=docs.name, reason=exc.reason[:300],
                  note="events accepted before may be sent again")
            return []
        pending: list[Notice] = []
        bad: list[tuple[str, str]] = []
        for nid, text in taken:
            try:
                raw = read_strict_json(text, f"{docs.name}: outbox {nid[:60]}",
                                       "notification", MAX_NOTICE)
                notice = Notice.model_validate(raw)
                if notice.id != nid:
                    raise RecordError(f"{docs.name}: outbox {nid[:60]}: holds another id")
                pending.append(notice)
            except (RecordError, ValidationError) as exc:
                reason = exc.reason if isinstance(exc, RecordError) else \
                    str(exc).splitlines()[0]
                event("outbox_unreadable", file=docs.name, id=nid[:100], reason=reason[:300])
                bad.append((nid, "unreadable"))
        try:
            docs.done(bad)
        except RecordError as exc:
            event("outbox_write_failed", file=docs.name, error=exc.reason[:300])
        return pending

    def _set_aside(self, path: Path, reason: str) -> None:
        aside = path.with_name(f"{path.name}.unreadable")
        try:
            os.replace(path, aside)
        except OSError:
            aside = path
        event("outbox_unreadable", file=str(path), kept_as=str(aside), reason=reason,
              note="events accepted before may be sent again")

    def _compact(self, path: Path, pending: list[Notice], done: dict[str, str],
                 lines: int) -> None:
        """Write the outbox again as what it means (an event done: its id alone; one
        pending: whole), once it has a thousand lines more than that (or was set aside)."""
        if path.exists() and lines < len(done) + len(pending) + 1000:
            return
        body = "".join(json.dumps({"done": i, "outcome": o}) + "\n" for i, o in done.items())
        body += "".join(_accepted_line(n) for n in pending)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".outbox-", suffix=".partial", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(body)
            os.replace(tmp, path)
        except OSError as exc:
            event("outbox_not_compacted", file=str(path), error=repr(exc)[:300])

    def _record(self, text: str) -> None:
        """Append to the outbox (the worker thread only)."""
        path = self.path
        if path is None or not text:
            return
        try:
            if self._file is None:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115
            self._file.write(text)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:  # delivery goes on; a restart may repeat these events
            event("outbox_write_failed", file=str(path), error=repr(exc)[:300])

    # ------------------------------------------------------------ hearing the tables
    def watch(self, service: TableService, server: TableServer | None = None) -> None:
        """Listen to ``service``; ``server`` says who is connected and what they set."""
        if server is not None:
            self.profiles = lambda: server.profiles
            self.present = lambda name, table: _present(server, name, table)
        service.listen(self.heard)
        self.start()

    def heard(self, kind: str, table: HostTable, info: dict[str, Any]) -> None:
        if self.command is None:
            return
        played = int(info.get("played", table.played()))
        if kind == "turn" and info.get("person"):
            seat = int(info["seat"])
            self._tell(table, table.seats[seat].name, "your_move",
                       f"{table.code}/{turn_began(table, seat)}/turn", seat=seat)
        elif kind == "over" and not info.get("restored"):
            # (Said again by a restarted host for every table ever finished: not told then,
            # or a host upgraded to notify would tell of every old game.)
            for seat, s in enumerate(table.seats):
                if s.human and s.name:
                    self._tell(table, s.name, "over", f"{table.code}/{played}/over", seat=seat)
        elif kind == "timeout" and info.get("did") == "remind":
            seat = int(info["seat"])
            self._tell(table, table.seats[seat].name, "reminder",
                       f"{table.code}/{played}/remind", seat=seat)
        elif kind == "invited":
            by = info.get("by")
            for name in info.get("names") or []:
                if isinstance(name, str) and name and name != by:
                    self._tell(table, name, "invited", f"{table.code}/invited", seat=None,
                               by=by if isinstance(by, str) else None)

    def _tell(self, table: HostTable, name: str, kind: Kind, key: str, *, seat: int | None,
              by: str | None = None) -> None:
        if not name:
            return
        nid = f"{key}/{name.lower()}"
        if nid in self.known:
            return
        profile = self.profiles().get(name)
        if table.code in profile.muted:
            return  # not recorded: unmuted later, a restarted host may tell the move awaited
        self.known.add(nid)
        if self.present(name, table):  # they see it; a restarted host need not tell them
            with self._idle:
                self._busy += 1
            self._done_only.append((nid, "present"))
            self._wake()
            return
        where = f"{table.code} ({table.title})"
        what = latest(table, seat)
        text = {
            "your_move": f"Your move at {where}" + (f": {what}" if what else "."),
            "over": f"Game over at {where}" + (f": {what}" if what else "."),
            "reminder": f"Reminder: your move at {where} is past its time.",
            "invited": f"{by or 'A player'} invites you to play again at {where}.",
        }[kind]
        notice = Notice(id=nid, player=name, to=profile.notify_to or None, table=table.code,
                        game=table.title, kind=kind, text=one_line(text),
                        join=self.join_hint.replace("{player}", name).replace("{code}", table.code),
                        at=datetime.fromtimestamp(self.clock.now(), UTC).isoformat(
                            timespec="seconds"))
        with self._idle:
            self._busy += 1
        try:
            self._queue.put_nowait(notice)
        except queue.Full:
            self.known.discard(nid)
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()
            event("notify_dropped", id=nid, reason="too many notifications waiting")

    def _wake(self) -> None:
        if self._queue.empty():
            try:
                self._queue.put_nowait(None)  # a nudge: record the ids done without a command
            except queue.Full:
                pass

    # ------------------------------------------------------------ delivering
    def start(self) -> None:
        if self._thread is not None or self.command is None:
            return
        for notice in self._pending:  # accepted before the host stopped, not done
            with self._idle:
                self._busy += 1
            try:
                self._queue.put_nowait(notice)
            except queue.Full:
                with self._idle:
                    self._busy -= 1
                event("notify_dropped", id=notice.id, reason="too many notifications waiting")
        restored = {n.id for n in self._pending}
        self._pending = []
        self._thread = threading.Thread(target=self._work, args=(restored,),
                                        name="railgames-notify", daemon=True)
        self._thread.start()

    def _work(self, restored: set[str]) -> None:
        while True:
            stopping = self._stop.is_set()
            batch: list[Notice] = []
            first = None if stopping else self._queue.get()
            if first is not None:
                batch.append(first)
            while True:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is not None:
                    batch.append(more)
            done, self._done_only = self._done_only, []
            # Every event taken is written as accepted before any command runs (and, as the
            # host stops, those still waiting, to be sent at its next start).
            if self.docs is not None:
                ours = self._keep_shared(self.docs, done, batch, restored, stopping)
                with self._idle:
                    self._busy -= len(batch) - len(ours)  # another host's to deliver
                    self._idle.notify_all()
                batch = ours
            else:
                self._record("".join(_done_line(i, o) for i, o in done)
                             + "".join(_accepted_line(n) for n in batch
                                       if n.id not in restored))
            with self._idle:
                self._busy -= len(done)
                self._idle.notify_all()
            if stopping:
                if self.docs is not None:
                    self._shared("let_go")
                return
            for notice in batch:
                if self._stop.is_set():
                    break  # left pending in the outbox: sent at the next start
                try:
                    outcome = self._deliver(notice)
                    if outcome is not None and self.docs is not None:
                        self._shared("done", [(notice.id, outcome)])
                    elif outcome is not None:
                        self._record(_done_line(notice.id, outcome))
                except Exception as exc:  # logged; the next event is still delivered
                    event("notify_error", id=notice.id, error=repr(exc)[:300])
                finally:
                    with self._idle:
                        self._busy -= 1
                        self._idle.notify_all()

    def _keep_shared(self, docs: SharedDocs, done: list[tuple[str, str]], batch: list[Notice],
                     restored: set[str], stopping: bool) -> list[Notice]:
        """The database's side of recording a batch: the events this host is to deliver.

        Each new event is kept once for every host: the one whose row went in delivers it
        (those taken at the start are this host's already). Stopping, the batch is kept
        held by nobody, for the next host to start. If the database cannot be reached the
        events are delivered anyway, as with a file that cannot be written."""
        fresh = [(n.id, n.model_dump_json()) for n in batch if n.id not in restored]
        self._shared("done", done)
        try:
            kept = docs.accept(fresh, None if stopping else docs.holder)
        except RecordError as exc:
            event("outbox_write_failed", file=docs.name, error=exc.reason[:300])
            return [] if stopping else batch
        if stopping:
            return []
        return [n for n in batch if n.id in restored or n.id in kept]

    def _shared(self, what: str, *args: Any) -> None:
        """A call on the shared outbox that only logs when the database cannot be reached."""
        assert self.docs is not None
        try:
            getattr(self.docs, what)(*args)
        except RecordError as exc:
            event("outbox_write_failed", file=self.docs.name, error=exc.reason[:300])

    def _deliver(self, notice: Notice) -> str | None:
        """Run the command for ``notice`` until it works or the tries run out: the outcome
        ("delivered", "given_up"), or None when the host stops meanwhile."""
        tries = len(self.retry_pauses) + 1
        for attempt in range(1, tries + 1):
            failure = self._run(notice)
            if failure is None:
                event("notified", id=notice.id, player=notice.player, what=notice.kind)
                return "delivered"
            reason, output = failure
            event("notify_failed", id=notice.id, player=notice.player, what=notice.kind,
                  attempt=attempt, of=tries, reason=reason, output=output)
            if attempt < tries and self._stop.wait(self.retry_pauses[attempt - 1]):
                return None
        event("notify_given_up", id=notice.id, player=notice.player, what=notice.kind,
              attempts=tries)
        return "given_up"

    def _run(self, notice: Notice) -> tuple[str, str] | None:
        """Run the command once with ``notice`` on its input: None if it worked, else why
        not and the start of what it printed."""
        assert self.command is not None
        try:
            proc = subprocess.Popen(["/bin/sh", "-c", self.command], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    start_new_session=True, close_fds=True)
        except OSError as exc:
            return f"cannot run the command: {exc.strerror or exc}", ""
        output = bytearray()

        def read() -> None:  # keeps the first bytes; the rest is read and dropped
            assert proc.stdout is not None
            fd = proc.stdout.fileno()
            for chunk in iter(lambda: os.read(fd, 65536), b""):
                if len(output) < OUTPUT_CAP:
                    output.extend(chunk[:OUTPUT_CAP - len(output)])

        reader = threading.Thread(target=read, daemon=True, name="railgames-notify-output")
        reader.start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(notice.model_dump_json().encode() + b"\n")
            proc.stdin.close()
        except OSError:  # it did not read its input: its exit status says the rest
            pass
        reason: str | None = None
        try:
            status = proc.wait(self.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.wait()
            reason = f"still running after {self.timeout:g} s: killed"
        else:
            if status == 127:
                reason = "command not found (exit status 127)"
            elif status < 0:
                reason = f"killed by signal {-status}"
            elif status:
                reason = f"exit status {status}"
        reader.join(5)  # a process that left the group may hold the pipe: not waited for
        if proc.stdout is not None and not reader.is_alive():
            proc.stdout.close()
        if reason is None:
            return None
        return reason, one_line(output.decode("utf-8", "replace"), OUTPUT_CAP)

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until every event heard so far is done (for tests); False on timeout."""
        self._wake()
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    def close(self, wait: float = 5.0) -> None:
        """Stop: the command under way may finish within ``wait`` seconds; events not done
        stay in the outbox for the next start."""
        self._stop.set()
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass
        if self._thread is not None:
            self._thread.join(wait)
        if self._file is not None and (self._thread is None or not self._thread.is_alive()):
            self._file.close()
            self._file = None


def _accepted_line(notice: Notice) -> str:
    return json.dumps({"accepted": notice.model_dump()}, ensure_ascii=False) + "\n"


def _done_line(nid: str, outcome: str) -> str:
    return json.dumps({"done": nid, "outcome": outcome}, ensure_ascii=False) + "\n"


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _present(server: TableServer, name: str, table: HostTable) -> bool:
    """Whether ``name`` sees what happens at ``table`` now, without being told: at a
    turn-based table, sitting at it; at a live one, connected to the host at all. (Sitting
    at the table at another host sharing its database counts as well.)"""
    seat = table.seat_of(name)
    if seat is not None and seat in table.elsewhere:
        return True
    members = server.members_of(name)
    if table.pace.turn_based:
        return any(m.table is table and m.seat is not None for m in members)
    return bool(members)


# ---------------------------------------------------------------- the player's settings
def _theirs(table: HostTable, member: Member) -> bool:
    names = member.login.names
    return any(s.human and s.name.lower() in names for s in table.seats if s.name) or (
        table.private and table.may_join(member.login))


def _code(server: TableServer, member: Member, value: Any, on: Any) -> str:
    """The table a mute or bell request names: one of the player's (to switch off), or
    one in their lists (to switch back on, even when the table is gone)."""
    if not isinstance(on, bool):
        raise MalformedAction("'on' is true or false")
    if not isinstance(value, str) or len(value) != 4 or not value.isascii() \
            or not value.isalpha():
        raise MalformedAction("a table's code is 4 letters")
    code = value.upper()
    table = server.service.tables.get(code)
    if table is None or not _theirs(table, member):
        profile = server.profiles.get(member.login.name)
        if code in profile.muted or code in profile.quiet:
            return code
        raise IllegalAction(f"you have no table '{code}' on this host")
    return code


def _keep(server: TableServer, member: Member, change: Callable[[Profile], None]) -> Profile:
    try:
        return server.profiles.update(member.login.name, change)
    except ValidationError:
        raise IllegalAction("that is more tables than a player's settings keep") from None


@op("settings")
def settings(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    profile = server.profiles.get(member.login.name)
    rows = []
    for table in list(server.service.tables.values()):
        if _theirs(table, member) and (table.status != "over" or table.code in profile.muted
                                       or table.code in profile.quiet):
            rows.append({"code": table.code, "title": table.title, "status": table.status,
                         "pace": table.pace.describe(),
                         "muted": table.code in profile.muted,
                         "bell": table.code not in profile.quiet})
    return {"ok": True, "notify_to": profile.notify_to, "muted": profile.muted,
            "quiet": profile.quiet, "tables": rows}


@op("set_address")
def set_address(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    to = request.get("to")
    if to is None:
        to = ""
    if not isinstance(to, str):
        raise MalformedAction("an address is text")
    if len(to) > MAX_ADDRESS * 2:
        raise IllegalAction(f"an address is at most {MAX_ADDRESS} characters")
    to = to.strip()
    problem = address_problem(to)
    if problem:
        raise IllegalAction(problem)
    if to.startswith("-"):
        raise IllegalAction("an address does not start with '-'")

    def change(profile: Profile) -> None:
        profile.notify_to = to or None

    profile = _keep(server, member, change)
    event("notify_address_set", player=member.login.name, set=bool(profile.notify_to))
    return {"ok": True, "notify_to": profile.notify_to}


@op("mute")
def mute(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    on = request.get("on")
    code = _code(server, member, request.get("code"), on)

    def change(profile: Profile) -> None:
        profile.muted = [c for c in profile.muted if c != code] + ([code] if on else [])

    return {"ok": True, "muted": _keep(server, member, change).muted}


@op("bell")
def bell(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    on = request.get("on")
    code = _code(server, member, request.get("code"), on)

    def change(profile: Profile) -> None:
        profile.quiet = [c for c in profile.quiet if c != code] + ([] if on else [code])

    return {"ok": True, "quiet": _keep(server, member, change).quiet}
