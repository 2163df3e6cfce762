"""After the game: the archive, export, playing again and the players' pages, at the
host's service and table socket (no terminals)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from railgames.core.record import parse_record
from railgames.net import after, ops
from railgames.net.pace import ManualClock, Pace
from railgames.net.service import TableService
from railgames.net.store import FileTableStore
from railgames.net.tables import HostTable, Login, Member
from railgames.net.tableserver import TableServer

GAME = "steel-driver"  # a random game of it is over in a few hundred moves, in a blink


class Inbox(list[dict[str, Any]]):
    def __call__(self, message: dict[str, Any]) -> None:
        self.append(json.loads(json.dumps(message)))


def member(name: str, key: str | None = None) -> tuple[Member, Inbox]:
    inbox = Inbox()
    return Member(login=Login(name=name, key=key, peer="127.0.0.1:1"), send=inbox), inbox


def play_out(service: TableService, table: HostTable, members: dict[str, Member],
             seed: int = 1) -> None:
    """Random moves from whoever's turn it is (bots move on their own) to the end."""
    pick = random.Random(seed)
    assert table.game is not None
    for _ in range(20_000):
        prompt = table.game.prompt()
        if prompt is None:
            break
        seat = table.seats[prompt.seat]
        action = pick.choice(table.game.legal_actions()).model_dump(mode="json")
        if seat.human:
            service.act(members[seat.name], action)
        else:
            table.game.apply(action)
            service._keep(table, {"act": table.game.record.actions[-1]})
    assert table.status == "over"


def finished(service: TableService, names: list[str], bots: int = 0, game: str = GAME,
             seed: int = 1, **options: Any) -> HostTable:
    """A table of ``names`` (and ``bots`` random bots) played to its end; its players leave."""
    members = {n: member(n)[0] for n in names}
    first = members[names[0]]
    table = service.create(first, game, len(names) + bots, len(names), "random", **options)
    for n in names[1:]:
        service.join(members[n], table.code)
    play_out(service, table, members, seed)
    for m in members.values():
        service.leave(m)
    if isinstance(service.clock, ManualClock):
        service.clock.advance(3600)
    return table


def quick_service(root: Path) -> TableService:
    """A host's tables kept on disk without waiting for it after each move (as a test of
    many games may: nothing here kills the host halfway)."""
    return TableService(root, bot_delay=0, bot_workers=0, clock=ManualClock(),
                        store=FileTableStore(root, sync=False))


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    return quick_service(tmp_path / "data" / "tables")


@pytest.fixture
def server(service: TableService, tmp_path: Path) -> TableServer:
    server = TableServer(service, tmp_path / "sock" / "tables.sock")
    server.keep_players(tmp_path / "data" / "host")
    return server


def ask(server: TableServer, who: Member, **request: Any) -> dict[str, Any]:
    """One request as the table socket answers it (a registered one, through ``ops``)."""
    async def go() -> dict[str, Any]:
        await server.service.settled(who.table)
        answer = await ops.call(server, who, request)
        await server.service.settled(who.table)
        return answer

    return asyncio.run(go())


def connect(server: TableServer, name: str) -> tuple[Member, Inbox]:
    who, inbox = member(name)
    server.connections[who] = None  # type: ignore[assignment]
    return who, inbox


# ------------------------------------------------------------------ the archive
def test_the_archive_lists_only_the_players_finished_games_newest_first(
        service: TableService, server: TableServer) -> None:
    first = finished(service, ["ann", "bob", "cat"])
    second = finished(service, ["ann", "bob"], bots=1)
    others = finished(service, ["bob", "cat", "dan"])
    ann, _ = member("ann")
    going = service.create(ann, GAME, 3, 3)  # not over: not in the archive
    ann_rows = ask(server, ann, op="archive")["games"]
    assert [r["code"] for r in ann_rows] == [second.code, first.code]
    row = ann_rows[1]
    assert row["title"] == "Steel Driver" and row["board"] == "United States"
    assert row["ended"] == first.game.record.updated  # type: ignore[union-attr]
    result = first.game.result()  # type: ignore[union-attr]
    assert {p["name"]: p["score"] for p in row["players"]} == result.scores
    places = [p["place"] for p in row["players"]]
    assert places == sorted(places) and places[0] == 1
    assert row["place"] == next(p["place"] for p in row["players"] if p["name"] == "ann")
    assert row["won"] == ("ann" in result.winners)
    assert going.code not in {r["code"] for r in ann_rows}
    dan, _ = member("dan")
    assert [r["code"] for r in ask(server, dan, op="archive")["games"]] == [others.code]
    assert ask(server, member("eve")[0], op="archive")["games"] == []


def test_equal_scores_share_a_place() -> None:
    table = HostTable(code="ABCD", game_id=GAME, seats=[], humans=3)

    class Over:
        def result(self) -> Any:
            from railgames.core.engine import Result

            return Result(scores={"ann": 5, "bob": 9, "cat": 5}, winners=["bob"])

    from railgames.net.tables import Seat

    table.seats = [Seat(name=n) for n in ("ann", "bob", "cat")]
    table.game = Over()  # type: ignore[assignment]
    assert [(r["name"], r["place"]) for r in after.standings(table)] == [
        ("bob", 1), ("ann", 2), ("cat", 2)]


def test_a_seat_kept_for_a_key_is_not_anothers_archive(service: TableService,
                                                        server: TableServer) -> None:
    table = finished(service, ["ann", "bob", "cat"])
    table.seats[0].key = "SHA256:annkey"
    assert ask(server, member("ann", key="SHA256:other")[0], op="archive")["games"] == []
    assert ask(server, member("ann")[0], op="archive")["games"] == []  # a password login
    rows = ask(server, member("ann", key="SHA256:annkey")[0], op="archive")["games"]
    assert [r["code"] for r in rows] == [table.code]


# ------------------------------------------------------------------ export
def test_export_writes_the_record_into_the_players_saves(
        service: TableService, server: TableServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = finished(service, ["ann", "bob", "cat"])
    ann, _ = member("ann")
    answer = ask(server, ann, op="export", code=table.code.lower())
    saves = tmp_path / "data" / "players" / "ann" / "saves"
    path = saves / answer["file"]
    assert answer["file"] == f"{GAME}-{table.code}.json"
    assert "\n" not in answer["text"] and answer["file"] in answer["text"]
    assert str(tmp_path) not in answer["text"]  # the host's folders stay its own
    record = parse_record(path.read_text(encoding="utf-8"), str(path))
    assert record == table.game.record  # type: ignore[union-attr]
    # What the hot-seat app lists and opens: the same saves folder, read as a save is.
    from railgames.app.saves import saves_dir
    from railgames.core.record import load_record

    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(tmp_path / "data" / "players" / "ann"))
    assert path.parent == saves_dir()
    assert load_record(path) == table.game.record  # type: ignore[union-attr]
    # Again: the same file, not a second one.
    assert ask(server, ann, op="export", code=table.code)["file"] == answer["file"]
    assert len(list(saves.glob("*.json"))) == 1


def test_export_is_for_the_players_own_finished_games(service: TableService,
                                                      server: TableServer,
                                                      tmp_path: Path) -> None:
    theirs = finished(service, ["bob", "cat", "dan"])
    ann, _ = member("ann")
    going = service.create(ann, GAME, 3, 3)
    mine = finished(service, ["ann", "bob", "cat"])
    for code in (theirs.code, going.code, "ZZZZ"):
        answer = ask(server, ann, op="export", code=code)
        assert answer == {"ok": False,
                          "reason": f"there is no finished game '{code}' of yours on this host"}
    for bad in (None, 7, ["ABCD"], {"a": 1}, "", "X" * 5000, True):
        answer = ask(server, ann, op="export", code=bad)
        assert answer["ok"] is False and "\n" not in answer["reason"]
    assert not (tmp_path / "data" / "players" / "ann").exists()
    assert ask(server, ann, op="export", code=mine.code)["ok"]


# ------------------------------------------------------------------ playing again
def test_play_again_makes_one_private_table_with_the_same_settings(
        service: TableService, server: TableServer) -> None:
    told: list[tuple[str, str, dict[str, Any]]] = []
    service.listen(lambda kind, table, info: told.append((kind, table.code, info)))
    pace = Pace(mode="turn", move_hours=24, on_timeout="bot")
    old = finished(service, ["ann", "bob"], bots=1, pace=pace, talk="players")
    bob, bob_in = connect(server, "bob")
    eve, eve_in = connect(server, "eve")
    ann, _ = member("ann")
    answer = ask(server, ann, op="again", code=old.code)
    assert answer["ok"] and answer["new"] and answer["seat"] == 0
    new = service.tables[answer["code"]]
    assert new.code != old.code and new.again_of == old.code and new.private
    assert (new.game_id, new.map_id, new.options, new.humans, new.bot_kind) == (
        old.game_id, old.map_id, old.options, old.humans, old.bot_kind)
    assert [s.kind for s in new.seats] == [s.kind for s in old.seats]
    assert new.pace == pace and new.talk == "players"
    assert [s.name for s in new.seats if s.human] == ["ann", ""]
    assert ann.table is new and ann.seat == 0
    assert sorted(n.lower() for n in new.invited) == ["ann", "bob"]
    assert ("invited", new.code, {"names": ["bob"], "by": "ann"}) in told
    notice = [m for m in bob_in if m.get("ev") == "notice"]
    assert notice == [{"ev": "notice", "kind": "invited", "code": new.code,
                       "title": "Steel Driver",
                       "text": f"ann asks you to play Steel Driver again: table {new.code}."}]
    assert not [m for m in eve_in if m.get("ev") == "notice"]
    # Asked twice, by either player: the same table, and nobody is told twice.
    assert ask(server, ann, op="again", code=old.code)["code"] == new.code
    again = ask(server, bob, op="again", code=old.code)
    assert again == {"ok": True, "code": new.code, "new": False, "seat": 1}
    assert len([t for t in service.tables.values() if t.again_of == old.code]) == 1
    assert len([m for m in bob_in if m.get("ev") == "notice"]) == 1
    # A stranger is told there is no such table; it is not listed for them.
    with pytest.raises(Exception, match="no table"):
        service.join(eve, new.code)
    assert new.code not in {r["code"] for r in service.listing(eve)}
    assert ask(server, eve, op="again", code=old.code)["ok"] is False


def test_play_again_starts_when_the_invited_sit_down(service: TableService,
                                                     server: TableServer) -> None:
    old = finished(service, ["ann", "bob", "cat"])
    ann, _ = member("ann")
    code = ask(server, ann, op="again", code=old.code)["code"]
    for name in ("cat", "bob"):
        service.join(member(name)[0], code)
    new = service.tables[code]
    assert new.status == "playing"
    assert [s.name for s in new.seats] == ["ann", "cat", "bob"]


def test_play_again_is_only_for_the_players_of_a_finished_table(service: TableService,
                                                                server: TableServer) -> None:
    old = finished(service, ["bob", "cat", "dan"])
    ann, _ = member("ann")
    going = service.create(ann, GAME, 3, 3)
    before = set(service.tables)
    for code in (old.code, going.code, "QQQQ", None, 12, ["x"], "\x1b[2J"):
        answer = ask(server, ann, op="again", code=code)
        assert answer["ok"] is False and "\n" not in answer["reason"]
        assert "\x1b" not in answer["reason"]
    assert set(service.tables) == before


# ------------------------------------------------------------------ ratings
def rating(server: TableServer, name: str, game: str = GAME) -> dict[str, Any] | None:
    page = ask(server, member("zed")[0], op="player", name=name)
    return next((g for g in page["games"] if g["game"] == game), None)


def test_a_person_who_beats_another_goes_up(service: TableService, server: TableServer) -> None:
    table = finished(service, ["ann", "bob", "cat"])
    result = table.game.result()  # type: ignore[union-attr]
    order = sorted(result.scores, key=lambda n: -result.scores[n])
    assert result.scores[order[0]] > result.scores[order[-1]]
    best, worst = rating(server, order[0]), rating(server, order[-1])
    assert best is not None and worst is not None
    assert best["rating"] > after.RATING_START > worst["rating"]
    assert (best["played"], best["won"], best["rated"]) == (1, 1, 1)
    assert (worst["played"], worst["won"]) == (1, 0)


def test_games_with_a_bot_seat_count_as_played_but_not_for_ratings(
        service: TableService, server: TableServer) -> None:
    finished(service, ["ann", "bob"], bots=1)
    row = rating(server, "ann")
    assert row is not None and row["played"] == 1
    assert row["rating"] is None and row["rated"] == 0


def test_a_seat_a_bot_played_for_a_while_stays_its_persons(service: TableService,
                                                            server: TableServer) -> None:
    """Its person was away (or out of time) and the table's pace had a bot move for them:
    the game is still one between people, and the result theirs."""
    table = finished(service, ["ann", "bob", "cat"])
    table.seats[1].bot_taken = True
    table.timed_out = table.played() - 1
    row = rating(server, "bob")
    assert row is not None and row["rated"] == 1 and row["rating"] is not None


def test_ratings_are_per_game(service: TableService, server: TableServer) -> None:
    finished(service, ["ann", "bob", "cat"])
    steel = rating(server, "ann")
    finished(service, ["ann", "bob", "cat"], game="american-rails")
    assert rating(server, "ann") == steel  # another game's result leaves this one alone
    other = rating(server, "ann", "american-rails")
    assert other is not None and other["played"] == 1 and other["rated"] == 1


def test_ratings_follow_the_order_games_ended_and_are_worked_out_again_when_one_ends(
        service: TableService, server: TableServer) -> None:
    tables = [finished(service, ["ann", "bob", "cat"], seed=s) for s in (1, 2)]
    got = {n: rating(server, n) for n in ("ann", "bob", "cat")}
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    kept: dict[str, Any] = {}
    for t in tables:
        scores = t.game.result().scores  # type: ignore[union-attr]
        names = list(scores)
        ranks = [1 + sum(1 for v in scores.values() if v > scores[n]) for n in names]
        new = model.rate([[kept.get(n) or model.rating()] for n in names], ranks=ranks)
        kept.update({n: team[0] for n, team in zip(names, new, strict=True)})
    for n, row in got.items():
        assert row is not None
        assert row["rating"] == round(after.RATING_START + after.RATING_SCALE
                                      * (kept[n].mu - 3 * kept[n].sigma))
    finished(service, ["ann", "bob", "cat"], seed=4)
    assert {n: rating(server, n) for n in got} != got


def test_a_players_own_page_and_hostile_names(service: TableService,
                                              server: TableServer) -> None:
    finished(service, ["ann", "bob", "cat"])
    ann, _ = member("ann")
    page = ask(server, ann, op="player")
    assert page["name"] == "ann" and [g["game"] for g in page["games"]] == [GAME]
    assert ask(server, ann, op="player", name="ANN")["games"] == page["games"]
    assert ask(server, ann, op="player", name="nobody")["games"] == []
    for bad in (7, ["ann"], {"n": "ann"}, "a" * 5000, "ann\x1b[2J", "../etc"):
        answer = ask(server, ann, op="player", name=bad)
        assert answer["ok"] is False and "\n" not in answer["reason"]


def test_a_restarted_host_gives_the_same_archive_and_ratings(service: TableService,
                                                             server: TableServer,
                                                             tmp_path: Path) -> None:
    finished(service, ["ann", "bob", "cat"], seed=1)
    finished(service, ["bob", "cat", "ann"], seed=2)
    service.flush()
    ann, _ = member("ann")
    before = (ask(server, ann, op="archive"), ask(server, ann, op="player"))
    again = quick_service(service.root)
    again.load()
    restarted = TableServer(again, tmp_path / "sock2" / "tables.sock")
    assert (ask(restarted, ann, op="archive"), ask(restarted, ann, op="player")) == before


def test_a_bots_move_stamps_the_record_as_a_persons_does(service: TableService) -> None:
    """When a game a bot ends ended is the time of that move, also before a restart."""
    ann, _ = member("ann")
    table = service.create(ann, GAME, 3, 1, "random")
    assert table.game is not None
    pick = random.Random(5)
    bot_moves = 0
    while (prompt := table.game.prompt()) is not None:
        assert isinstance(service.clock, ManualClock)
        service.clock.advance(60)
        played = table.played()
        if table.seats[prompt.seat].human:
            service.act(ann, pick.choice(table.game.legal_actions()).model_dump(mode="json"))
        else:
            asyncio.run(service.run_bots(table))
            assert table.played() > played
            bot_moves += 1
        assert table.game.record.updated == service.now_text()
    assert bot_moves
    service.flush()
    assert service.store.load(table.code).record == table.game.record
