"""After the game: each player's archive of finished games, their export, playing again,
and each player's page (games played and won, and a rating, per game).

A finished table stays on the host as it was (its log is its record), so the
archive is the host's tables that are over where the player had a seat. What
belongs to a player is decided as the lobby seats them again (``own_seat``):
their name (or a former one), and the key the seat was first taken with.

Ratings come from openskill's Plackett-Luce model, one per game, computed from the
finished tables in the order they ended. Only games between people count: every
seat of the table was a person's when it was set up. A seat a bot played for a
while (its person away at a live table, or out of time at a turn-based one) is
still its person's: the table's pace says what happens then, everyone at it
agreed to it, and the result is theirs. (The log keeps only a table's last
timeout once it is compacted, so counting them would not give the same ratings
after a restart.) Equal scores are a tie.
"""

from __future__ import annotations

import asyncio
import functools
import re
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from railgames.core.errors import IllegalAction, MalformedAction
from railgames.net.ops import op
from railgames.net.tables import HostTable, Login, Member, event, name_problem

if TYPE_CHECKING:
    from railgames.net.service import TableService
    from railgames.net.tableserver import TableServer

CODE = re.compile(r"^[A-Za-z]{4}$")
MAX_ARCHIVE = 500  # rows the archive sends, newest first
# A rating as players are shown it: 1000 for a newcomer, then 40 points for each point of
# openskill's cautious estimate (mu - 3 sigma); it rises as you beat people, and a little
# with each game as the host grows surer of how well you play.
RATING_START = 1000
RATING_SCALE = 40


# ------------------------------------------------------------------ whose it is
def own_seat(table: HostTable, login: Login) -> int | None:
    """The seat ``login`` had at ``table`` (as the lobby would seat them there again)."""
    names = login.names
    for i, s in enumerate(table.seats):
        if s.human and s.name and s.name.lower() in names \
                and (s.key is None or s.key == login.key):
            return i
    return None


def table_code(value: Any) -> str:
    if not isinstance(value, str) or not CODE.match(value.strip()):
        raise MalformedAction("a table's code is 4 letters")
    return value.strip().upper()


def finished_table(tables: dict[str, HostTable], login: Login, code: Any) -> HostTable:
    """Table ``code`` if it is over and ``login`` played at it; else one line, the same
    whether the table is unknown, someone else's or still being played."""
    code = table_code(code)
    table = tables.get(code)
    if table is None or table.status != "over" or own_seat(table, login) is None:
        raise IllegalAction(f"there is no finished game '{code}' of yours on this host")
    return table


# ------------------------------------------------------------------ the archive
def ended(table: HostTable) -> str:
    """When the game ended, as its record says (ISO text)."""
    assert table.game is not None
    return table.game.record.updated or table.game.record.created


def standings(table: HostTable) -> list[dict[str, Any]]:
    """Each seat's final score and place (1 is first; equal scores share a place), best
    first."""
    assert table.game is not None
    result = table.game.result()
    rows: list[dict[str, Any]] = []
    for i, s in enumerate(table.seats):
        final = result.scores.get(s.name) if result is not None else None
        rows.append({"seat": i, "name": s.name, "kind": s.kind, "score": final,
                     "winner": result is not None and s.name in result.winners})
    scores: list[int] = [r["score"] for r in rows if r["score"] is not None]
    for r in rows:
        score = r["score"]
        r["place"] = None if score is None else 1 + sum(1 for v in scores if v > score)
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, r["seat"]))
    return rows


def board_title(table: HostTable) -> str:
    assert table.game is not None
    return _board_title(table.game_id, table.game.record.map or table.map_id)


@functools.lru_cache(maxsize=256)
def _board_title(game_id: str, board: str | None) -> str:
    """A board's title (its map file's header is read once, not for every archive row)."""
    from railgames.games import maps_for

    boards = maps_for(game_id)
    if board is None:
        return boards[0][1] if boards else ""
    return next((title for map_id, title in boards if map_id == board), board)


def archive(tables: Iterable[HostTable], login: Login) -> list[dict[str, Any]]:
    """The finished games ``login`` played, newest first."""
    rows = []
    for t in tables:
        if t.status != "over":
            continue
        seat = own_seat(t, login)
        if seat is None:
            continue
        places = standings(t)
        mine = next(r for r in places if r["seat"] == seat)
        rows.append({"code": t.code, "game": t.game_id, "title": t.title,
                     "board": board_title(t), "ended": ended(t), "players": places,
                     "seat": seat, "place": mine["place"], "of": len(places),
                     "won": mine["winner"], "private": t.private})
    rows.sort(key=lambda r: (r["ended"], r["code"]), reverse=True)
    return rows[:MAX_ARCHIVE]


# ------------------------------------------------------------------ export
def record_text(table: HostTable) -> str:
    """The finished game's record, as ``railgames`` saves a game (the same JSON)."""
    assert table.game is not None
    return table.game.record.dump_json()


def export_to(table: HostTable, folder: Path) -> Path:
    """Write the finished game into ``folder`` (a player's saves) as a saved game; the file.

    Exported again, the same file is given back rather than a copy beside it."""
    from railgames.app.saves import SAVE_SUFFIX, create_save

    assert table.game is not None
    record = table.game.record.model_copy(deep=True)
    stem = f"{record.game}-{table.code}"
    same = folder / f"{stem}{SAVE_SUFFIX}"
    try:
        if same.is_file() and same.read_text(encoding="utf-8") == record.dump_json():
            return same
    except (OSError, UnicodeDecodeError):
        pass
    return create_save(record, folder, stem, touch=False)


def saves_folder(server: TableServer, name: str) -> Path:
    """The player's own saves on the host (their hot-seat Continue lists them)."""
    from railgames.net.players import player_dir

    if server.players is None:
        raise IllegalAction("this host keeps no folders for its players")
    # The register of players is in DATA/host; each player's folder is DATA/players/<name>.
    return player_dir(server.players.folder.parent, name) / "saves"


# ------------------------------------------------------------------ ratings
def rated(table: HostTable) -> bool:
    """Whether the table counts for ratings: over, and every seat a person's."""
    return (table.status == "over" and len(table.seats) > 1
            and all(s.human and s.name for s in table.seats)
            and table.game is not None and table.game.result() is not None)


class Ratings:
    """Every player's rating in each game, from the finished tables between people in the
    order they ended; worked out again only when a table has ended since."""

    def __init__(self) -> None:
        self._key: tuple[tuple[str, int], ...] | None = None
        self._ratings: dict[str, dict[str, Any]] = {}  # game -> lower-case name -> rating
        self._games: dict[str, dict[str, int]] = {}  # game -> lower-case name -> rated games

    def of(self, tables: Iterable[HostTable]) -> tuple[dict[str, dict[str, Any]],
                                                       dict[str, dict[str, int]]]:
        over = sorted((t for t in tables if rated(t)), key=lambda t: (ended(t), t.code))
        key = tuple((t.code, t.played()) for t in over)
        if key != self._key:
            self._ratings, self._games = compute(over)
            self._key = key
        return self._ratings, self._games


def compute(over: list[HostTable]) -> tuple[dict[str, dict[str, Any]],
                                            dict[str, dict[str, int]]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, dict[str, Any]] = {}
    counts: dict[str, dict[str, int]] = {}
    for table in over:
        game = ratings.setdefault(table.game_id, {})
        played = counts.setdefault(table.game_id, {})
        places = standings(table)
        names = [r["name"].lower() for r in places]
        teams = [[game.get(n) or model.rating(name=n)] for n in names]
        new = model.rate(teams, ranks=[float(r["place"]) for r in places])
        for n, team in zip(names, new, strict=True):
            game[n] = team[0]
            played[n] = played.get(n, 0) + 1
    return ratings, counts


def shown_rating(rating: Any) -> int:
    return round(RATING_START + RATING_SCALE * (rating.mu - 3 * rating.sigma))


_RATINGS: weakref.WeakKeyDictionary[TableService, Ratings] = weakref.WeakKeyDictionary()


def ratings_for(service: TableService) -> Ratings:
    kept = _RATINGS.get(service)
    if kept is None:
        kept = _RATINGS[service] = Ratings()
    return kept


def player_page(service: TableService, names: set[str], shown_name: str) -> dict[str, Any]:
    """Per game: finished games played and won by the player called any of ``names``,
    and their rating (None before a game between people)."""
    ratings, counts = ratings_for(service).of(service.tables.values())
    games: dict[str, dict[str, Any]] = {}
    for t in service.tables.values():
        if t.status != "over":
            continue
        seat = next((i for i, s in enumerate(t.seats)
                     if s.human and s.name and s.name.lower() in names), None)
        if seat is None:
            continue
        row = games.setdefault(t.game_id, {"game": t.game_id, "title": t.title, "played": 0,
                                           "won": 0, "rated": 0, "rating": None})
        row["played"] += 1
        result = t.game.result() if t.game is not None else None
        if result is not None and t.seats[seat].name in result.winners:
            row["won"] += 1
    for game_id, row in games.items():
        best = None
        for n in names:  # a player renamed: the name with the most rated games
            if n in ratings.get(game_id, {}) and (
                    best is None or counts[game_id][n] > counts[game_id][best]):
                best = n
        if best is not None:
            row["rated"] = counts[game_id][best]
            row["rating"] = shown_rating(ratings[game_id][best])
    return {"name": shown_name, "games": sorted(games.values(), key=lambda r: r["title"])}


# ------------------------------------------------------------------ playing again
def play_again(server: TableServer, member: Member, old: HostTable) -> tuple[HostTable, bool]:
    """The table that plays ``old`` again, the asker seated at it; True when it is new.

    It has the same game, board, seats, options, pace, talk and hints, and is private to the
    people who played ``old``. Asked again (by anyone who played), the same table."""
    service = server.service
    again = next((t for t in service.tables.values()
                  if t.again_of == old.code and t.status != "over"), None)
    if again is not None:
        if member.table is not again:
            service.join(member, again.code)
        return again, False
    mine = member.login.names
    guests = [s.name for s in old.seats if s.human and s.name and s.name.lower() not in mine]
    table = service.create(member, old.game_id, len(old.seats), old.humans, old.bot_kind,
                           dict(old.options), old.map_id, pace=old.pace, private=True,
                           invited=guests, talk=old.talk, hints=old.hints,
                           again_of=old.code)
    by = member.login.name
    event("play_again", code=table.code, of=old.code, by=by, invited=guests)
    service.emit("invited", table, names=guests, by=by)
    text = f"{by} asks you to play {table.title} again: table {table.code}."
    for name in guests:
        server.tell(name, {"ev": "notice", "kind": "invited", "code": table.code,
                           "title": table.title, "text": text})
    return table, True


# ------------------------------------------------------------------ the requests
@op("archive")
def archive_op(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "games": archive(server.service.tables.values(), member.login)}


@op("export")
async def export_op(server: TableServer, member: Member,
                    request: dict[str, Any]) -> dict[str, Any]:
    table = finished_table(server.service.tables, member.login, request.get("code"))
    folder = saves_folder(server, member.login.name)
    try:
        path = await asyncio.to_thread(export_to, table, folder)
    except OSError as exc:
        event("export_failed", code=table.code, player=member.login.name, error=repr(exc)[:300])
        raise IllegalAction("the host could not write the game into your saves "
                            "(see its log)") from None
    event("exported", code=table.code, player=member.login.name, file=path.name)
    return {"ok": True, "file": path.name,
            "text": f"In your saves as {path.name}: Continue a game opens it."}


@op("again", changes=True)
def again_op(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    old = finished_table(server.service.tables, member.login, request.get("code"))
    table, new = play_again(server, member, old)
    return {"ok": True, "code": table.code, "new": new, "seat": member.seat}


@op("player")
def player_op(server: TableServer, member: Member, request: dict[str, Any]) -> dict[str, Any]:
    name = request.get("name")
    if name is None or (isinstance(name, str) and name.strip().lower() in member.login.names):
        return {"ok": True, **player_page(server.service, member.login.names,
                                          member.login.name)}
    if not isinstance(name, str) or len(name) > 40:
        raise MalformedAction("a player's name is text")
    name = name.strip()
    problem = name_problem(name)
    if problem:
        raise IllegalAction(problem)
    return {"ok": True, **player_page(server.service, {name.lower()}, name)}


# ------------------------------------------------------------------ over SSH
def export_over_ssh(service: TableService, login: Login, command: str) -> tuple[bytes, str | None]:
    """``ssh NAME@HOST export CODE``: the finished game's record (JSON), or why not."""
    words = command.split()
    if login.unclaimed:
        return b"", (f"{login.name} is a new name here: log in with plain 'ssh' first to "
                     "choose its passphrase")
    try:
        table = finished_table(service.tables, login, words[1] if len(words) == 2 else None)
    except (IllegalAction, MalformedAction) as exc:
        return b"", exc.reason
    event("exported", code=table.code, player=login.name, via="ssh")
    return (record_text(table) + "\n").encode(), None


def is_export(command: str) -> bool:
    """Whether an SSH command asks for an export (the one command the host runs)."""
    words = command.split()
    return len(words) == 2 and words[0] == "export"
