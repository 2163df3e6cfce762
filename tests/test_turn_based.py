"""Turn-based tables on the host: moves that run out of time, and tables that outlive it.

Everything here runs on a ``ManualClock``: a day passes in a line.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from test_host_tables import LogLines, member

from railgames.core.engine import Game
from railgames.core.record import PlayerSpec
from railgames.games import GAMES, load_ruleset, ruleset_class
from railgames.net.pace import HOUR, LIVE, ManualClock, Pace
from railgames.net.service import TableService
from railgames.net.store import FileTableStore
from railgames.net.tables import HostTable, Member
from railgames.net.tableserver import TableServer

ROOT = Path(__file__).resolve().parent.parent


class Told:
    """What the service says to its listeners, kind by kind."""

    def __init__(self, service: TableService) -> None:
        self.heard: list[tuple[str, str, dict[str, Any]]] = []
        service.listen(lambda kind, table, info: self.heard.append((kind, table.code, info)))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [info for k, _, info in self.heard if k == kind]


def new_service(root: Path, clock: ManualClock) -> TableService:
    return TableService(root, bot_delay=0, bot_workers=0, clock=clock)


def turn_table(service: TableService, game_id: str, on_timeout: str, *, hours: int | None = 24,
               seats: int = 3, humans: int = 3) -> tuple[HostTable, list[Member]]:
    """A started turn-based table of ``humans`` people (and bots in the other seats)."""
    people = [member(name)[0] for name in ("ann", "bob", "cy", "dee")[:humans]]
    pace = Pace(mode="turn", move_hours=hours, on_timeout=on_timeout)  # type: ignore[arg-type]
    table = service.create(people[0], game_id, seats=seats, humans=humans, pace=pace)
    for person in people[1:]:
        service.join(person, table.code)
    assert table.status == "playing"
    asyncio.run(asyncio.wait_for(service.run_bots(table), 60))  # a bot may be drawn to start
    return table, people


def person_to_move(table: HostTable, people: list[Member]) -> Member:
    seat = table.to_move()
    assert seat is not None
    return next(p for p in people if p.seat == seat)


def log_entries(service: TableService, table: HostTable) -> list[dict[str, Any]]:
    return [json.loads(line) for line in service.path_of(table).read_text().splitlines()[1:]]


# ------------------------------------------------------------ a bot plays the seat's turn
def test_a_bot_plays_the_turn_of_a_move_out_of_time_and_then_the_next_person_is_awaited(
        tmp_path: Path) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    told = Told(service)
    table, people = turn_table(service, "railways-of-the-world", "bot")
    seat, played = table.to_move(), table.played()
    assert service.deadline(table) == clock.now() + 24 * HOUR

    clock.advance(24 * HOUR - 1)
    service.tick()
    assert told.of("timeout") == [] and table.timed_out == -1 and not table.bot_moves(seat)

    clock.advance(1)
    service.tick()
    assert told.of("timeout") == [{"seat": seat, "played": played, "did": "bot"}]
    assert table.timed_out == played and table.bot_moves(seat)
    assert log_entries(service, table)[-1] == {
        "timeout": {"played": played, "seat": seat, "did": "bot"}, "at": service.now_text()}
    service.tick()  # said once
    assert len(told.of("timeout")) == 1

    asyncio.run(asyncio.wait_for(service.run_bots(table), 60))
    assert table.played() > played  # the bot played that seat's turn ...
    after = table.to_move()
    assert after is not None and after != seat  # ... and no further:
    assert not table.bot_moves(seat) and not table.bot_moves(after)
    assert table.stand_in is None
    bot_acts = [e["act"] for e in log_entries(service, table) if "act" in e][played:]
    assert {a["seat"] for a in bot_acts} == {seat}
    assert service.deadline(table) == clock.now() + 24 * HOUR  # the next person has a day


def test_a_player_who_acts_while_the_bot_stands_in_takes_the_seat_back(tmp_path: Path) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    table, people = turn_table(service, "paris-connection", "bot")
    late = person_to_move(table, people)
    game = table.game
    assert game is not None
    clock.advance(25 * HOUR)
    service.tick()
    assert table.bot_moves(late.seat)  # type: ignore[arg-type]
    service.act(late, game.legal_actions()[0].model_dump(mode="json"))  # back in time to move
    assert table.stand_in is None


def test_a_restart_before_the_bot_moved_lets_it_play_and_after_gives_the_turn_back(
        tmp_path: Path) -> None:
    clock = ManualClock()
    root = tmp_path / "tables"
    service = new_service(root, clock)
    table, people = turn_table(service, "paris-connection", "bot")
    seat = table.to_move()
    clock.advance(25 * HOUR)
    service.tick()
    service.close()

    again = new_service(root, clock)
    again.load()
    back = again.tables[table.code]
    assert back.stand_in == seat and back.bot_moves(seat)  # type: ignore[arg-type]
    again.tick()
    assert back.timed_out == table.played()  # not fired a second time

    # The bot makes part of the turn (one placement of a build), as its runner does, and
    # the host stops before the rest: the rest of the turn is the player's, with a new day.
    game = back.game
    assert game is not None
    game.apply(next(a for a in game.legal_actions() if a.type == "build"))
    clock.advance(HOUR)
    back.moved_at = clock.now()
    again._keep(back, {"act": game.record.actions[-1], "at": again.now_text()})
    assert back.to_move() == seat
    again.close()
    third = new_service(root, clock)
    told = Told(third)
    third.load()
    last = third.tables[table.code]
    assert last.stand_in is None and not last.bot_moves(seat)  # type: ignore[arg-type]
    assert last.timed_out == -1 and third.deadline(last) == clock.now() + 24 * HOUR
    clock.advance(24 * HOUR)
    third.tick()
    assert told.of("timeout") == [{"seat": seat, "played": last.played(), "did": "bot"}]


def test_a_table_written_whole_keeps_the_seat_a_bot_is_to_play(tmp_path: Path) -> None:
    """As after a failed write: the table's log is written again from what it holds."""
    clock = ManualClock()
    root = tmp_path / "tables"
    service = new_service(root, clock)
    table, _ = turn_table(service, "paris-connection", "bot")
    seat = table.to_move()
    clock.advance(25 * HOUR)
    service.tick()
    assert table.game is not None
    moved = datetime.fromtimestamp(table.moved_at, UTC).isoformat(timespec="seconds")
    FileTableStore(root).rewrite(table.code, table.header(), table.game.record, table.extras(),
                                 moved)
    again = new_service(root, clock)
    again.load()
    back = again.tables[table.code]
    assert back.stand_in == seat and back.timed_out == table.played()


# ------------------------------------------------------------ a reminder, once a move
def test_a_reminder_comes_once_per_move_even_across_restarts(tmp_path: Path) -> None:
    clock = ManualClock()
    root = tmp_path / "tables"
    service = new_service(root, clock)
    told = Told(service)
    table, people = turn_table(service, "paris-connection", "remind", hours=72)
    seat = table.to_move()
    clock.advance(73 * HOUR)
    service.tick()
    service.tick()
    assert [t["did"] for t in told.of("timeout")] == ["remind"]
    assert table.to_move() == seat and not table.bot_moves(seat)  # type: ignore[arg-type]

    for _ in range(2):  # a restarted host knows it was said
        service.close()
        service = new_service(root, clock)
        again = Told(service)
        service.load()
        clock.advance(HOUR)
        service.tick()
        assert again.of("timeout") == []
        assert service.tables[table.code].timed_out == table.played()

    table = service.tables[table.code]
    mover, _ = member(table.seats[seat].name)  # type: ignore[index]
    service.join(mover, table.code)
    game = table.game
    assert game is not None
    service.act(mover, game.legal_actions()[0].model_dump(mode="json"))
    clock.advance(73 * HOUR)
    service.tick()
    assert [t["played"] for t in again.of("timeout")] == [table.played()]  # the next move's


def test_a_turn_based_table_without_a_time_limit_never_times_out(tmp_path: Path) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    told = Told(service)
    table, _ = turn_table(service, "paris-connection", "bot", hours=None)
    clock.advance(365 * 24 * HOUR)
    service.tick()
    assert service.deadline(table) is None and told.of("timeout") == []


def test_a_live_table_never_times_out_and_still_hands_empty_seats_to_bots(
        tmp_path: Path) -> None:
    clock = ManualClock()
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0, clock=clock,
                           bot_takeover=60)
    told = Told(service)
    ann, _ = member("ann")
    bob, _ = member("bob")
    table = service.create(ann, "paris-connection", seats=3, humans=2, pace=LIVE)
    service.join(bob, table.code)
    asyncio.run(asyncio.wait_for(service.run_bots(table), 60))
    service.leave(bob)
    left = table.seats[1].empty_since
    assert left is not None
    clock.advance(30 * 24 * HOUR)
    service.tick(left + 61)
    assert told.of("timeout") == [] and table.seats[1].bot_taken


# ------------------------------------------------------------ skipping where a pass is allowed
def test_skip_passes_where_the_rules_allow_a_pass(tmp_path: Path) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    told = Told(service)
    table, people = turn_table(service, "railways-of-the-world", "skip")  # opens with an auction
    game = table.game
    assert game is not None and game.prompt().step == "Auction"
    seat, played = table.to_move(), table.played()
    clock.advance(24 * HOUR)
    service.tick()
    assert told.of("timeout") == [{"seat": seat, "played": played, "did": "skip"}]
    assert game.record.actions[played:] == [{"type": "pass_bid", "seat": seat}]
    assert table.to_move() != seat
    entries = log_entries(service, table)
    assert [list(e)[0] for e in entries[-2:]] == ["timeout", "act"]
    assert service.deadline(table) == clock.now() + 24 * HOUR


def test_skip_ends_a_build_begun(tmp_path: Path) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    table, people = turn_table(service, "paris-connection", "skip")
    game = table.game
    assert game is not None
    mover = person_to_move(table, people)
    build = next(a for a in game.legal_actions() if a.type == "build")
    service.act(mover, build.model_dump(mode="json"))
    played = table.played()
    clock.advance(24 * HOUR)
    service.tick()
    assert [a["type"] for a in game.record.actions[played:]] == ["end_build"]
    assert table.to_move() != mover.seat


def test_skip_falls_back_to_a_reminder_where_no_pass_is_allowed(tmp_path: Path) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    told = Told(service)
    table, people = turn_table(service, "paris-connection", "skip")
    game = table.game
    assert game is not None and game.prompt().step == "Build or trade"  # a turn is never passed
    seat, played = table.to_move(), table.played()
    clock.advance(24 * HOUR)
    with LogLines() as log:
        service.tick()
    assert told.of("timeout") == [{"seat": seat, "played": played, "did": "remind"}]
    assert table.played() == played and table.to_move() == seat
    [why] = log.kind("timeout_not_skipped")
    assert why["seat"] == seat and "no pass" in why["reason"]
    assert log_entries(service, table)[-1]["timeout"]["did"] == "remind"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_pass_offered_is_always_a_legal_move_of_the_seat_to_move(game_id: str) -> None:
    rules = load_ruleset(game_id, None)
    seats = max(rules.min_players, 3)
    game = Game.new(rules, [PlayerSpec(name=f"p{i}", kind="human") for i in range(seats)], 5, {})
    pick = random.Random(game_id)
    offered = set()
    for _ in range(300):
        prompt = game.prompt()
        if prompt is None:
            break
        action = rules.pass_action(game.state, prompt.seat)
        if action is not None:
            game.check(action)  # legal now, for that seat
            offered.add(action.type)
        assert rules.pass_action(game.state, (prompt.seat + 1) % seats) is None
        game.apply(pick.choice(game.legal_actions()))
    assert offered and offered <= {p["type"] for p in ruleset_class(game_id).passes}


# ------------------------------------------------------------ kept through kill -9
KILLED = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from railgames.net.pace import HOUR, ManualClock, Pace
    from railgames.net.service import TableService
    from railgames.net.tables import Login, Member

    clock = ManualClock()
    service = TableService(Path(sys.argv[1]), bot_delay=0, bot_workers=0, clock=clock)
    people = [Member(login=Login(name=n), send=lambda m: None) for n in ("ann", "bob", "cy")]
    table = service.create(people[0], "paris-connection", seats=3, humans=3,
                           pace=Pace(mode="turn", move_hours=24, on_timeout="remind"))
    for p in people[1:]:
        service.join(p, table.code)
    for _ in range(5):
        clock.advance(3 * HOUR)
        seat = table.to_move()
        mover = next(p for p in people if p.seat == seat)
        service.act(mover, table.game.legal_actions()[0].model_dump(mode="json"))
    moved_at = clock.now()
    clock.advance(30 * HOUR)
    service.tick()
    print(json.dumps({"code": table.code, "played": table.played(), "moved_at": moved_at,
                      "now": clock.now(), "timed_out": table.timed_out}), flush=True)
    time.sleep(600)
""")


def test_a_turn_based_table_killed_mid_game_comes_back_with_its_clock(tmp_path: Path) -> None:
    root = tmp_path / "tables"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(root)], stdout=subprocess.PIPE,
                            env=env, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(60)
    said = json.loads(line)

    clock = ManualClock(said["now"])
    service = new_service(root, clock)
    told = Told(service)
    service.load()
    table = service.tables[said["code"]]
    assert table.pace == Pace(mode="turn", move_hours=24, on_timeout="remind")
    assert table.played() == said["played"] and table.moved_at == said["moved_at"]
    assert table.timed_out == said["timed_out"] == said["played"]
    service.tick()
    assert told.of("timeout") == []  # said before the kill: not again
    assert service.deadline(table) == said["moved_at"] + 24 * HOUR


# ------------------------------------------------------------ the log, compacted and spoiled
def test_chat_and_timeouts_survive_compaction(tmp_path: Path) -> None:
    clock = ManualClock()
    root = tmp_path / "tables"
    service = new_service(root, clock)
    table, people = turn_table(service, "paris-connection", "remind")
    game = table.game
    assert game is not None
    mover = person_to_move(table, people)
    for _ in range(40):  # moves taken back: what compaction leaves out
        service.act(mover, next(a for a in game.legal_actions() if a.type == "build")
                    .model_dump(mode="json"))
        service.undo(mover)
    store = service.store
    for i in range(3):
        store.append(table.code, {"chat": {"name": "ann", "text": f"line {i}", "seat": 0,
                                           "at": service.now_text()}})
    clock.advance(25 * HOUR)
    service.tick()
    lines_before = len(service.path_of(table).read_text().splitlines())
    service.close()

    again = new_service(root, clock)
    assert store.load(table.code).untidy
    again.load()
    back = again.tables[table.code]
    assert len(again.path_of(back).read_text().splitlines()) < lines_before  # compacted
    assert [c["text"] for c in back.chat] == ["line 0", "line 1", "line 2"]
    assert back.timed_out == table.played() and back.moved_at == table.moved_at
    third = new_service(root, clock)
    told = Told(third)
    third.load()
    third.tick()
    assert told.of("timeout") == [] and third.tables[table.code].chat == back.chat


@pytest.mark.parametrize("entry", [
    {"chat": {"name": "ann", "text": 5}},
    {"chat": {"name": "", "text": "hi"}},
    {"chat": {"name": "ann", "text": "x" * 5000}},
    {"chat": "hello"},
    {"timeout": {"played": -1}},
    {"timeout": {"played": 0, "did": "explode"}},
    {"timeout": {"played": 0, "seat": 99}},
    {"timeout": [[[[{"played": 0}]]]]},
    {"timeout": {"played": 0, "extra": {"a": [1]}}},
    {"timeout": {"played": 0}, "chat": {"name": "ann", "text": "hi"}},
    {"timeout": {"played": 0}, "at": 12},
])
def test_a_spoiled_chat_or_timeout_line_is_one_log_line_naming_the_file(
        tmp_path: Path, entry: dict[str, Any]) -> None:
    clock = ManualClock()
    root = tmp_path / "tables"
    service = new_service(root, clock)
    table, _ = turn_table(service, "paris-connection", "remind")
    other, _ = turn_table(service, "paris-connection", "bot")
    service.close()
    path = service.path_of(table)
    with path.open("a") as handle:
        handle.write(json.dumps(entry) + "\n")
    again = new_service(root, clock)
    with LogLines() as log:
        again.load()
    [line] = log.kind("table_not_restored")
    assert line["file"] == str(path) and line["reason"].startswith(str(path))
    assert "\n" not in line["reason"]
    assert list(again.tables) == [other.code]


# ------------------------------------------------------------ private tables
def test_a_private_table_is_hidden_from_strangers_and_refuses_them(tmp_path: Path) -> None:
    service = new_service(tmp_path / "tables", ManualClock())
    ann, _ = member("ann")
    table = service.create(ann, "paris-connection", seats=3, humans=3, private=True,
                           invited=["Bob"], pace=Pace(mode="turn", move_hours=72))
    bob, _ = member("bob")
    cy, _ = member("cy")
    assert [r["code"] for r in service.listing(cy)] == []
    [row] = service.listing(bob)
    assert row["private"] and row["pace"] == "turn-based, 72 h a move (then a reminder)"
    with pytest.raises(Exception) as refused:
        service.join(cy, table.code)
    assert refused.value.reason == f"there is no table '{table.code}' on this host"  # type: ignore[attr-defined]
    assert cy.table is None and [m.login.name for m in table.members] == ["ann"]
    service.join(bob, table.code)
    assert bob.seat == 1
    server = TableServer(service, tmp_path / "sock" / "tables.sock")  # as the Join screen asks
    assert server._handle(cy, {"op": "list"}) == {"ok": True, "tables": []}
    assert [r["code"] for r in server._handle(bob, {"op": "list"})["tables"]] == [table.code]


def test_one_tables_fault_at_its_timeout_never_stops_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    service = new_service(tmp_path / "tables", clock)
    told = Told(service)
    broken, people = turn_table(service, "paris-connection", "skip")
    fine, _ = turn_table(service, "railways-of-the-world", "remind")
    assert broken.game is not None

    def fails(state: Any, seat: int) -> Any:
        game = broken.game
        assert game is not None
        game.apply(next(a for a in game.legal_actions() if a.type == "build"))  # then breaks
        raise RuntimeError("a game's pass that breaks")

    monkeypatch.setattr(broken.game.ruleset, "pass_action", fails)
    clock.advance(25 * HOUR)
    with LogLines() as log:
        service.tick()
        service.tick()
    assert [(code, info["did"]) for kind, code, info in told.heard if kind == "timeout"] == [
        (fine.code, "remind")]
    [fault] = log.kind("timeout_error")
    assert fault["code"] == broken.code and "breaks" in fault["error"]
    late = person_to_move(broken, people)  # the table goes on, and is kept as it is
    service.act(late, broken.game.legal_actions()[-1].model_dump(mode="json"))
    again = new_service(tmp_path / "tables", clock)
    again.load()
    assert again.tables[broken.code].game.record.actions == broken.game.record.actions  # type: ignore[union-attr]


# ------------------------------------------------------------ the create request, hostile
def create(server: TableServer, who: Member, **fields: Any) -> dict[str, Any]:
    request = {"op": "create", "game": "paris-connection", "seats": 3, "humans": 2, **fields}
    return server._handle(who, request)


@pytest.mark.parametrize("fields", [
    {"pace": {"mode": "turn", "move_hours": 10**12}},
    {"pace": {"mode": "turn", "move_hours": 24.0}},
    {"pace": {"mode": "turn", "move_hours": "24"}},
    {"pace": {"mode": "turn", "move_hours": True}},
    {"pace": {"mode": "turn", "move_hours": 0}},
    {"pace": {"mode": "turn", "on_timeout": "forfeit"}},
    {"pace": {"mode": ["turn"]}},
    {"pace": {"mode": "turn", "move_hours": {"h": [[[[[[24]]]]]]}}},
    {"pace": {"mode": "turn", "then": "explode"}},
    {"pace": "turn"},
    {"pace": [24, "bot"]},
    {"pace": 24},
    {"invited": "bob"},
    {"invited": [["bob"]]},
    {"invited": ["bob\x1b[2J"]},
    {"invited": ["x" * 5000]},
    {"invited": [f"p{i}" for i in range(40)]},
    {"talk": "nobody"},
])
def test_a_create_request_with_hostile_settings_is_refused_in_one_line(
        tmp_path: Path, fields: dict[str, Any]) -> None:
    service = new_service(tmp_path / "tables", ManualClock())
    server = TableServer(service, tmp_path / "sock" / "tables.sock")
    ann, _ = member("ann")
    answer = create(server, ann, **fields)
    assert answer["ok"] is False
    reason = answer["reason"]
    assert isinstance(reason, str) and 0 < len(reason) <= 300 and "\n" not in reason
    assert "\x1b" not in reason and "Traceback" not in reason
    assert service.tables == {} and service.store.list() == []


def test_a_create_request_makes_a_private_turn_based_table(tmp_path: Path) -> None:
    service = new_service(tmp_path / "tables", ManualClock())
    server = TableServer(service, tmp_path / "sock" / "tables.sock")
    ann, _ = member("ann")
    answer = create(server, ann, pace={"mode": "turn", "move_hours": 24, "on_timeout": "bot"},
                    private=True, invited=["bob", " cy "], talk="players")
    assert answer["ok"]
    table = service.tables[answer["code"]]
    assert table.pace.describe() == "turn-based, 24 h a move (then a bot moves)"
    assert (table.private, table.invited, table.talk) == (True, ["ann", "bob", "cy"], "players")
    stored = FileTableStore(tmp_path / "tables").load(table.code).settings
    assert stored.pace == table.pace and stored.invited == ["ann", "bob", "cy"]


# ------------------------------------------------------------ bots with nobody there
def test_bots_at_a_turn_based_table_move_with_nobody_connected(tmp_path: Path) -> None:
    for pace, moves in ((Pace(mode="turn", move_hours=24), True), (LIVE, False)):
        service = new_service(tmp_path / pace.mode, ManualClock())
        ann, _ = member("ann")
        table = service.create(ann, "paris-connection", seats=3, humans=1, pace=pace)
        assert table.game is not None
        while table.to_move() == 0:  # ann moves until a bot is to move (none has moved yet)
            service.act(ann, table.game.legal_actions()[0].model_dump(mode="json"))
        service.leave(ann)
        assert table.people_here() == 0
        before = table.played()
        asyncio.run(asyncio.wait_for(service.run_bots(table), 60))
        assert (table.played() > before) is moves
        if moves:
            assert table.to_move() == 0  # ann's move is awaited again
