"""The tables a host keeps: each a game record, its seats, its bots and who is watching.

A table's truth is its record (saved after every action under the host's data
directory); the state is what replaying it gives, so a restarted host brings
its tables back as they were. Every action from a player goes through
``Game.apply`` here, and a player can act only for the seat they sit in.

Nothing here touches sockets or terminals: a ``Member`` is anyone at a table
(one app process), reached through its ``send`` callable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import random
import re
import string
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from railgames.core.bots import Bot, make_bot, think, worker_setup
from railgames.core.engine import Game, Prompt
from railgames.core.errors import IllegalAction, MalformedAction, RailgamesError, RecordError
from railgames.core.record import GameRecord, PlayerSpec
from railgames.games import load_ruleset, maps_for, playable_games, ruleset_class
from railgames.net.protocol import pack

log = logging.getLogger("railgames.host")

CODE_LETTERS = "".join(c for c in string.ascii_uppercase if c not in "IOQ")  # nothing to misread
BOT_NAMES = ["Otto", "Ada", "Rex", "Ivy", "Max", "Una"]
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,23}$")


def name_problem(name: str) -> str | None:
    if NAME_RE.match(name):
        return None
    return ("a player's name is 1 to 24 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit")


def event(kind: str, **fields: Any) -> None:
    """One structured log line (the host's handler writes it as JSON)."""
    log.info(kind, extra={"fields": {"event": kind, **fields}})


@dataclass
class Login:
    """Who is behind an app process: the SSH login name and key (if they used one)."""

    name: str
    key: str | None = None
    peer: str = ""
    former: tuple[str, ...] = ()  # this player's names before a rename: those seats are theirs
    unclaimed: bool = False  # in with the table password under a name nobody owns yet


@dataclass(eq=False)
class Member:
    login: Login
    send: Callable[[dict[str, Any]], None]
    table: Table | None = None
    seat: int | None = None  # None: watching
    history: Any = None  # the Recording this member is stepping through, if any


@dataclass
class Seat:
    name: str
    kind: str = "human"  # "human", or the bot kind sitting in it from the start
    key: str | None = None  # a seat first taken with a key is kept for that key
    bot_taken: bool = False  # a bot plays it while its player is away
    empty_since: float | None = None

    @property
    def human(self) -> bool:
        return self.kind == "human"


@dataclass(eq=False)
class Table:
    code: str
    game_id: str
    seats: list[Seat]  # humans first join in order; the named ones are taken
    humans: int
    bot_kind: str = "greedy"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    map_id: str | None = None  # None: the game's default board
    game: Game | None = None
    members: list[Member] = field(default_factory=list)
    bots: list[Bot] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None

    @property
    def title(self) -> str:
        return ruleset_class(self.game_id).title

    @property
    def status(self) -> str:
        if self.game is None:
            return "waiting"
        return "over" if self.game.is_over() else "playing"

    def seated(self) -> list[Seat]:
        return [s for s in self.seats if s.name]

    def free_human_seats(self) -> int:
        return sum(1 for s in self.seats if s.human and not s.name)

    def member_at(self, seat: int) -> Member | None:
        for m in self.members:
            if m.seat == seat:
                return m
        return None

    def bot_moves(self, seat: int) -> bool:
        s = self.seats[seat]
        return not s.human or s.bot_taken

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": 1, "code": self.code, "game": self.game_id, "humans": self.humans,
            "bot_kind": self.bot_kind, "options": self.options, "seed": self.seed,
            "map": self.map_id,
            "seats": [{"name": s.name, "kind": s.kind, "key": s.key, "bot_taken": s.bot_taken}
                      for s in self.seats],
            "record": None if self.game is None else self.game.record.model_dump(mode="json"),
        }


# The bots a table may seat (search thinks about 1 s a move; easy 0.3 s, hard 2 s).
TABLE_BOTS = ("random", "greedy", "search", "search:easy", "search:hard")


class TableService:
    """Every table of one host, and the rules for sitting at them."""

    def __init__(self, root: Path, *, bot_delay: float = 0.7,
                 bot_takeover: float | None = None, bot_workers: int = 1) -> None:
        self.root = root
        self.bot_delay = bot_delay
        self.bot_takeover = bot_takeover  # seconds a seat may stay empty before a bot plays it
        self.tables: dict[str, Table] = {}
        # Bots think in worker processes (0: in a thread), never on the host's event loop,
        # which carries every player's keys and screens.
        self.bot_workers = bot_workers
        self._pool: ProcessPoolExecutor | None = None
        self._writer: ThreadPoolExecutor | None = None

    def close(self) -> None:
        self.flush()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _think(self, bot: Bot, ruleset: Any, view: Any, prompt: Prompt) -> tuple[Any, Bot]:
        if not self.bot_workers:
            return await asyncio.to_thread(think, bot, ruleset, view, prompt)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.bot_workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=worker_setup, initargs=(os.getpid(),))
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, think, bot, ruleset, view, prompt)
        except BrokenProcessPool:
            self._pool = None  # a worker died: the next move gets a fresh one
            raise

    # ------------------------------------------------------------ storage
    def path_of(self, table: Table) -> Path:
        return self.root / f"{table.code}.json"

    def save(self, table: Table) -> None:
        """Write the table's file; on the host's loop the disk work goes to a writer thread.

        The text is made here, so the file says what the table was at this action;
        one writer thread keeps the writes in order. Waiting for the disk (an fsync
        takes milliseconds, tens on a busy disk) on the loop would hold up every
        player's keys and screens.
        """
        if table.game is not None:
            from datetime import UTC, datetime

            table.game.record.updated = datetime.now(UTC).isoformat(timespec="seconds")
        text = json.dumps(table.to_dict(), indent=1)
        path = self.path_of(table)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop (a plain test, a tool): write now, after any queued
            self.flush()
            self._write(text, path)
            return
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="railgames-save")
        self._writer.submit(self._write_logged, text, path, table.code)

    def _write_logged(self, text: str, path: Path, code: str) -> None:
        try:
            self._write(text, path)
        except Exception as exc:  # the table goes on in memory; the log says the disk failed
            event("save_failed", code=code, file=str(path), error=repr(exc))

    def _write(self, text: str, path: Path) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        # The temporary name never ends in .json, so a killed write is never read as a table.
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".partial", dir=self.root)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def flush(self) -> None:
        """Wait for every table file still being written."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    def load(self) -> None:
        """Bring back every table saved under ``root``.

        A file is read as strictly as a saved game; one that cannot be used is
        skipped with one log line naming it, and the other tables come back.
        """
        if not self.root.is_dir():
            return
        for path in sorted(self.root.glob("*.json")):
            try:
                table = self._table_from(path)
            except RailgamesError as exc:
                reason = exc.reason if exc.reason.startswith(str(path)) else f"{path}: {exc.reason}"
                event("table_not_restored", file=str(path), reason=reason[:500])
                continue
            except Exception as exc:  # whatever a damaged file does, the other tables go on
                event("table_not_restored", file=str(path),
                      reason=f"{path}: {type(exc).__name__}: {exc}"[:500])
                continue
            now = time.monotonic()
            for seat in table.seats:  # nobody is connected after a restart
                seat.empty_since = now
            self.tables[table.code] = table
            event("table_restored", code=table.code, game=table.game_id, status=table.status,
                  actions=len(table.game.record.actions) if table.game else 0)

    def _table_from(self, path: Path) -> Table:
        from railgames.net.tablefile import read_table

        saved, record = read_table(path)
        cls = ruleset_class(saved.game)  # an unknown game is refused here, by name
        table = Table(
            code=saved.code, game_id=saved.game, humans=saved.humans, bot_kind=saved.bot_kind,
            options=dict(saved.options), seed=saved.seed, map_id=saved.map,
            seats=[Seat(name=s.name, kind=s.kind, key=s.key, bot_taken=s.bot_taken)
                   for s in saved.seats],
        )
        if record is None:
            rules = load_ruleset(saved.game, saved.map)
            if not rules.min_players <= len(saved.seats) <= rules.max_players:
                raise RecordError(f"{path}: {cls.title} is for {rules.min_players} to "
                                  f"{rules.max_players} players, not {len(saved.seats)}")
        else:
            table.game = Game.replay(load_ruleset(record.game, record.map), record)
            table.bots = self._bots_for(table)
        return table

    # ------------------------------------------------------------ listing
    def listing(self) -> list[dict[str, Any]]:
        rows = []
        for t in self.tables.values():
            if t.status == "over":
                continue
            rows.append({
                "code": t.code, "game": t.game_id, "title": t.title, "status": t.status,
                "seats": [self._seat_info(t, i) for i in range(len(t.seats))],
                "free": t.free_human_seats(), "watching": sum(1 for m in t.members if m.seat is None),
            })
        return rows

    def _seat_info(self, table: Table, i: int) -> dict[str, Any]:
        s = table.seats[i]
        return {"name": s.name, "kind": s.kind, "bot_taken": s.bot_taken,
                "connected": table.member_at(i) is not None}

    # ------------------------------------------------------------ sitting down
    def _new_code(self) -> str:
        while True:
            code = "".join(random.choice(CODE_LETTERS) for _ in range(4))
            if code not in self.tables and not (self.root / f"{code}.json").exists():
                return code

    def create(self, member: Member, game_id: str, seats: int, humans: int,
               bot_kind: str = "greedy", options: dict[str, Any] | None = None,
               map_id: str | None = None) -> Table:
        cls = ruleset_class(game_id)
        if cls not in playable_games():
            raise IllegalAction(f"{cls.title} cannot be played yet")
        if map_id is not None and map_id not in {m for m, _ in maps_for(game_id)}:
            raise IllegalAction(f"{cls.title} has no board called '{map_id}'")
        rules = load_ruleset(game_id, map_id)  # each board may take its own range of players
        if not rules.min_players <= seats <= rules.max_players:
            raise IllegalAction(f"{cls.title} on this board is for {rules.min_players} to "
                                f"{rules.max_players} players, not {seats}")
        if not 1 <= humans <= seats:
            raise IllegalAction(f"a table of {seats} seats has 1 to {seats} players at keyboards, not {humans}")
        if bot_kind not in TABLE_BOTS:
            raise MalformedAction(f"no bot called '{bot_kind}' ({', '.join(TABLE_BOTS)})")
        table = Table(code=self._new_code(), game_id=game_id, humans=humans, bot_kind=bot_kind,
                      options=dict(options or {}), seed=random.randrange(1, 1_000_000),
                      map_id=map_id,
                      seats=[Seat(name="") for _ in range(humans)])
        names = iter(n for n in BOT_NAMES if n.lower() != member.login.name.lower())
        for _ in range(seats - humans):
            table.seats.append(Seat(name=f"{next(names)}-bot", kind=bot_kind))
        self.tables[table.code] = table
        event("table_created", code=table.code, game=game_id, seats=seats, humans=humans,
              by=member.login.name)
        self.join(member, table.code)
        return table

    def join(self, member: Member, code: str, watch: bool = False) -> Table:
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise IllegalAction(f"there is no table '{code.strip().upper()}' on this host")
        self.leave(member)
        login = member.login
        seat: int | None = None
        if not watch:
            seat = self._seat_for(table, login)
        member.table, member.seat = table, seat
        table.members.append(member)
        if seat is not None:
            s = table.seats[seat]
            if not s.name:
                s.name = login.name
            if s.key is None and login.key is not None:
                s.key = login.key
            s.empty_since = None
            if s.bot_taken:
                s.bot_taken = False
                event("seat_returned", code=table.code, seat=seat, player=s.name)
        event("table_joined", code=table.code, player=login.name, seat=seat, peer=login.peer)
        if table.game is None and table.free_human_seats() == 0:
            self._start(table)
        self.save(table)
        self.broadcast(table)
        self.schedule_bots(table)
        return table

    def _seat_for(self, table: Table, login: Login) -> int | None:
        """The seat this login takes: its own again, else a free one, else it watches.

        A name belongs to one player (see players.py), so the seat taken under it is theirs.
        """
        names = {login.name.lower(), *(n.lower() for n in login.former)}
        for i, s in enumerate(table.seats):
            if not s.human or not s.name:
                continue
            same_key = s.key is not None and login.key is not None and s.key == login.key
            if not (same_key or s.name.lower() in names):
                continue
            if s.key is not None and not same_key:
                raise IllegalAction(f"{s.name}'s seat at this table is kept for the key "
                                    "they first played with")
            if table.member_at(i) is not None:
                raise IllegalAction(f"{s.name} is already playing at this table from another "
                                    "connection")
            return i
        if table.status == "over":
            return None
        for i, s in enumerate(table.seats):
            if s.human and not s.name:
                if any(o.name.lower() == login.name.lower() for o in table.seats):
                    raise IllegalAction(f"someone called {login.name} already sits at this table")
                return i
        return None  # the table is full: watch

    def _start(self, table: Table) -> None:
        ruleset = load_ruleset(table.game_id, table.map_id)
        players = [PlayerSpec(name=s.name, kind=s.kind) for s in table.seats]  # type: ignore[arg-type]
        table.game = Game.new(ruleset, players, table.seed, table.options)
        table.bots = self._bots_for(table)
        event("table_started", code=table.code, game=table.game_id,
              players=[s.name for s in table.seats])

    def _bots_for(self, table: Table) -> list[Bot]:
        assert table.game is not None
        ruleset = table.game.ruleset
        return [make_bot(s.kind if not s.human else table.bot_kind, ruleset,
                         table.seed * 7919 + i) for i, s in enumerate(table.seats)]

    def leave(self, member: Member) -> None:
        table = member.table
        if table is None:
            return
        if member in table.members:
            table.members.remove(member)
        if member.seat is not None:
            table.seats[member.seat].empty_since = time.monotonic()
        event("table_left", code=table.code, player=member.login.name, seat=member.seat)
        member.table, member.seat, member.history = None, None, None
        self.broadcast(table)

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
        event("action", code=table.code, player=member.login.name, type=raw.get("type"),
              index=len(game.record.actions) - 1)
        self._changed(table)

    def undo(self, member: Member) -> None:
        table, game = self._playing(member)
        assert member.seat is not None
        game.undo(member.seat)  # refuses anyone else's move, draws, a new turn
        event("undo", code=table.code, player=member.login.name)
        self._changed(table)

    def _playing(self, member: Member) -> tuple[Table, Game]:
        table = member.table
        if table is None:
            raise IllegalAction("you are not at a table")
        if member.seat is None:
            raise IllegalAction("you are watching this table; only its players act")
        if table.game is None:
            raise IllegalAction(f"the game starts when {table.free_human_seats()} more "
                                "player(s) have joined")
        return table, table.game

    def _changed(self, table: Table) -> None:
        self.save(table)
        self.broadcast(table)
        self.schedule_bots(table)

    # ------------------------------------------------------------ history
    def history_record(self, member: Member) -> tuple[Table, Any, GameRecord]:
        """The table's rules and its record so far, copied: the Recording is built from
        them off the loop."""
        table = member.table
        if table is None:
            raise IllegalAction("you are not at a table")
        if table.game is None:
            raise IllegalAction("the game has not started yet: there is no history")
        return table, table.game.ruleset, table.game.record.model_copy(deep=True)

    def history_opened(self, member: Member, table: Table, recording: Any) -> dict[str, Any]:
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
                "events": pack(recording.all_events()), **self.history_at(member, None)}

    def history_at(self, member: Member, position: int | None) -> dict[str, Any]:
        """One position of the member's history: its seat's view, the banner, the result."""
        recording = member.history
        if recording is None or member.table is None:
            raise IllegalAction("open the history first")
        recording.seek(recording.length if position is None else position)
        prompt = recording.prompt()
        if prompt is not None and prompt.seat != member.seat:
            prompt = Prompt(seat=prompt.seat, step=prompt.step, text=prompt.text, help=prompt.help)
        return {"position": recording.position, "at": pack({
            "state": recording.view(), "prompt": prompt, "result": recording.result()})}

    def history_closed(self, member: Member) -> None:
        member.history = None

    # ------------------------------------------------------------ bots
    def bot_to_move(self, table: Table) -> int | None:
        if table.game is None:
            return None
        seat = table.game.ruleset.to_move(table.game.state)
        if seat is None or not table.bot_moves(seat):
            return None
        return int(seat)

    def schedule_bots(self, table: Table) -> None:
        if self.bot_to_move(table) is None or (table.bot_task and not table.bot_task.done()):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a plain test): run_bots is called by hand
        table.bot_task = loop.create_task(self.run_bots(table))

    async def run_bots(self, table: Table) -> None:
        """Bots move one after another; each thinks in a worker thread, off the host's loop."""
        while (seat := self.bot_to_move(table)) is not None:
            game = table.game
            assert game is not None
            version = (id(game.state), len(game.record.actions))
            prompt = game.prompt()
            assert prompt is not None
            view = game.view(seat)
            started = time.monotonic()
            try:
                action, table.bots[seat] = await self._think(table.bots[seat], game.ruleset, view,
                                                             prompt)
            except Exception as exc:  # a bot's fault must not take the host down
                event("bot_error", code=table.code, seat=seat, error=repr(exc))
                return
            wait = self.bot_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            if (id(game.state), len(game.record.actions)) != version or table.game is not game:
                continue  # someone took a move back while the bot thought: think again
            try:
                game.apply(action)
            except (IllegalAction, MalformedAction) as exc:
                event("bot_refused", code=table.code, seat=seat, reason=exc.reason)
                return
            event("action", code=table.code, player=table.seats[seat].name, type=action.type,
                  index=len(game.record.actions) - 1, bot=True)
            self.save(table)
            self.broadcast(table)

    def tick(self, now: float | None = None) -> None:
        """Hand an empty seat to a bot once it has been empty for ``bot_takeover`` seconds."""
        if not self.bot_takeover:
            return
        now = time.monotonic() if now is None else now
        for table in self.tables.values():
            if table.status != "playing":
                continue
            changed = False
            for i, s in enumerate(table.seats):
                if (s.human and not s.bot_taken and s.empty_since is not None
                        and now - s.empty_since >= self.bot_takeover and table.member_at(i) is None):
                    s.bot_taken = True
                    changed = True
                    event("seat_taken_by_bot", code=table.code, seat=i, player=s.name)
            if changed:
                self._changed(table)

    # ------------------------------------------------------------ what each member sees
    def payload(self, table: Table, member: Member) -> dict[str, Any]:
        seat = member.seat
        message: dict[str, Any] = {
            "ev": "table", "code": table.code, "game": table.game_id, "title": table.title,
            "status": table.status, "you": seat, "name": member.login.name,
            "seats": [self._seat_info(table, i) for i in range(len(table.seats))],
            "free": table.free_human_seats(), "file": str(self.path_of(table)),
        }
        game = table.game
        if game is not None:
            prompt = game.prompt()
            if prompt is not None and prompt.seat != seat:
                # Another seat's choices are theirs alone: only what the banner says.
                prompt = Prompt(seat=prompt.seat, step=prompt.step, text=prompt.text, help=prompt.help)
            players = [p.model_copy(update={"kind": table.bot_kind})
                       if table.seats[i].bot_taken else p for i, p in enumerate(game.players)]
            message["version"] = len(game.record.actions)
            message["view"] = pack({
                "map": game.record.map, "state": game.view(seat), "prompt": prompt,
                "events": game.events_for(seat), "result": game.result(), "players": players,
                "undo": game.undo_refusal(seat) if seat is not None else "you are watching",
                # Once it is over nothing is secret: the whole record, for its history.
                "record": game.record if game.is_over() else None,
            })
        return message

    def broadcast(self, table: Table) -> None:
        for member in list(table.members):
            try:
                member.send(self.payload(table, member))
            except Exception as exc:  # one broken connection never stops the others
                event("send_failed", code=table.code, player=member.login.name, error=repr(exc))
