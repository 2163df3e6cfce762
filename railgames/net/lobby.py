"""The host's tables as players find them: making one, sitting down, leaving, the list.

The lobby decides who sits where and never touches the store, the bots or the
members' terminals: each of its changes says what the service must keep and
show (``Lobby.create`` and ``join`` return the table they changed).
"""

from __future__ import annotations

import random
import time
from typing import Any

from railgames.core.bots import Bot, make_bot
from railgames.core.engine import Game
from railgames.core.errors import IllegalAction, MalformedAction, RecordError
from railgames.core.record import GameRecord, PlayerSpec
from railgames.games import load_ruleset, maps_for, playable_games, ruleset_class
from railgames.net.pace import LIVE, Pace
from railgames.net.tablefile import TableFile
from railgames.net.tables import (
    BOT_NAMES,
    CODE_LETTERS,
    TABLE_BOTS,
    HostTable,
    Login,
    Member,
    Seat,
    event,
    invited_names,
)


class Lobby:
    def __init__(self, taken: Any = None) -> None:
        self.tables: dict[str, HostTable] = {}
        # Whether a code is in use beyond the tables here (a table the store keeps that
        # could not be brought back still owns its code).
        self._taken = taken or (lambda code: False)

    # ------------------------------------------------------------ listing
    def listing(self, login: Login | None = None) -> list[dict[str, Any]]:
        """The tables not over, as the Join screen lists them: a private table only to
        those it invites (and its own players)."""
        rows = []
        for t in self.tables.values():
            if t.status == "over" or (t.private and (login is None or not t.may_join(login))):
                continue
            rows.append({
                "code": t.code, "game": t.game_id, "title": t.title, "status": t.status,
                "seats": [seat_info(t, i) for i in range(len(t.seats))],
                "free": t.free_human_seats(), "watching": sum(1 for m in t.members if m.seat is None),
                "pace": t.pace.describe(), "private": t.private,
            })
        return rows

    def tables_of(self, login: Login) -> list[dict[str, Any]]:
        """The tables where ``login`` has a seat, not over, and whether it is their move."""
        rows = []
        for t in self.tables.values():
            seat = next((i for i, s in enumerate(t.seats)
                         if s.human and s.name and s.name.lower() == login.name.lower()), None)
            if seat is None or t.status == "over":
                continue
            to_move = t.game.ruleset.to_move(t.game.state) if t.game is not None else None
            rows.append({"code": t.code, "title": t.title, "status": t.status, "seat": seat,
                         "your_move": to_move == seat,
                         "to_move": t.seats[to_move].name if to_move is not None else None})
        return rows

    # ------------------------------------------------------------ sitting down
    def _new_code(self) -> str:
        while True:
            code = "".join(random.choice(CODE_LETTERS) for _ in range(4))
            if code not in self.tables and not self._taken(code):
                return code

    def create(self, member: Member, game_id: str, seats: int, humans: int,
               bot_kind: str = "greedy", options: dict[str, Any] | None = None,
               map_id: str | None = None, seed: int | None = None, *,
               pace: Pace = LIVE, private: bool = False, invited: list[str] | None = None,
               talk: str = "everyone", hints: bool = True,
               again_of: str | None = None) -> HostTable:
        """A new table (its creator is not seated yet: the service has them join); its game
        is dealt from ``seed``, a new one unless given. A private table is joined only by
        the names ``invited`` (its creator is one of them)."""
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
        if talk not in ("players", "everyone"):
            raise MalformedAction("who may talk at a table: 'players' or 'everyone'")
        if not isinstance(hints, bool):
            raise MalformedAction("whether a table allows hints: true or false")
        guests = invited_names(invited or [], member.login.name)
        table = HostTable(code=self._new_code(), game_id=game_id, humans=humans, bot_kind=bot_kind,
                      options=dict(options or {}),
                      seed=random.randrange(1, 1_000_000) if seed is None else seed,
                      map_id=map_id,
                      seats=[Seat(name="") for _ in range(humans)],
                      pace=pace, private=private, invited=guests, talk=talk, hints=hints,
                      again_of=again_of)
        names = iter(n for n in BOT_NAMES if n.lower() != member.login.name.lower())
        for _ in range(seats - humans):
            table.seats.append(Seat(name=f"{next(names)}-bot", kind=bot_kind))
        self.tables[table.code] = table
        event("table_created", code=table.code, game=game_id, seats=seats, humans=humans,
              by=member.login.name, pace=pace.describe(), private=private)
        return table

    def find(self, code: str) -> HostTable:
        table = self.tables.get(code.strip().upper())
        if table is None:
            raise IllegalAction(f"there is no table '{code.strip().upper()}' on this host")
        return table

    def join(self, member: Member, table: HostTable, watch: bool = False) -> bool:
        """Seat ``member`` at ``table`` (or let them watch); True when the game starts now."""
        login = member.login
        if not table.may_join(login):
            # Said as if it were not there: a private table's code is not a way in.
            raise IllegalAction(f"there is no table '{table.code}' on this host")
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
            return True
        return False

    def _seat_for(self, table: HostTable, login: Login) -> int | None:
        """The seat this login takes: its own again, else a free one, else it watches.

        A name belongs to one player (see players.py), so the seat taken under it is theirs.
        """
        names = login.names
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

    def _start(self, table: HostTable) -> None:
        ruleset = load_ruleset(table.game_id, table.map_id)
        players = [PlayerSpec(name=s.name, kind=s.kind) for s in table.seats]  # type: ignore[arg-type]
        table.game = Game.new(ruleset, players, table.seed, table.options)
        table.bots = bots_for(table)
        event("table_started", code=table.code, game=table.game_id,
              players=[s.name for s in table.seats])

    def leave(self, member: Member) -> HostTable | None:
        """Take ``member`` from its table; the table they left, if any."""
        table = member.table
        if table is None:
            return None
        if member in table.members:
            table.members.remove(member)
        if member.seat is not None:
            table.seats[member.seat].empty_since = time.monotonic()
        event("table_left", code=table.code, player=member.login.name, seat=member.seat)
        member.table, member.seat, member.history, member.sent = None, None, None, None
        return table

    # ------------------------------------------------------------ brought back
    def restore(self, settings: TableFile, record: GameRecord | None, source: str) -> HostTable:
        """A table as its store kept it: the game replayed, nobody connected yet."""
        table = self.build(settings, record, source)
        self.tables[table.code] = table
        return table

    def build(self, settings: TableFile, record: GameRecord | None, source: str) -> HostTable:
        """A table as its store kept it, not yet among this lobby's tables."""
        cls = ruleset_class(settings.game)  # an unknown game is refused here, by name
        table = HostTable(
            code=settings.code, game_id=settings.game, humans=settings.humans,
            bot_kind=settings.bot_kind, options=dict(settings.options), seed=settings.seed,
            map_id=settings.map,
            seats=[Seat(name=s.name, kind=s.kind, key=s.key, bot_taken=s.bot_taken)
                   for s in settings.seats],
            pace=settings.pace, private=settings.private, invited=list(settings.invited),
            talk=settings.talk, hints=settings.hints, again_of=settings.again_of,
        )
        if record is None:
            rules = load_ruleset(settings.game, settings.map)
            if not rules.min_players <= len(settings.seats) <= rules.max_players:
                raise RecordError(f"{source}: {cls.title} is for {rules.min_players} to "
                                  f"{rules.max_players} players, not {len(settings.seats)}")
        else:
            table.game = Game.replay(load_ruleset(record.game, record.map), record)
            table.bots = bots_for(table)
        now = time.monotonic()
        for seat in table.seats:  # nobody is connected after a restart
            seat.empty_since = now
        table.kept_seats = table.seats_kept()
        return table


def bots_for(table: HostTable) -> list[Bot]:
    """A bot for every seat (a person's seat gets the table's kind, for when it is away)."""
    assert table.game is not None
    ruleset = table.game.ruleset
    return [make_bot(s.kind if not s.human else table.bot_kind, ruleset,
                     table.seed * 7919 + i) for i, s in enumerate(table.seats)]


def seat_info(table: HostTable, i: int) -> dict[str, Any]:
    s = table.seats[i]
    return {"name": s.name, "kind": s.kind, "bot_taken": s.bot_taken,
            "connected": table.connected(i)}
