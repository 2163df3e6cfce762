"""A turn-based Railways of the World table over a week of the host's clock.

Three people move when they have a minute, each logging in for their move and out
again; the host is restarted between every two moves; some moves run out of time
and a bot plays them. Every move awaited of a person who is away is told to them
through the notify command exactly once, however often the host restarts, and the
table's record is the same read back as played.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from test_notify import Host, delivered, person

from railgames.net.pace import HOUR, ManualClock, Pace
from railgames.net.service import TableService
from railgames.net.tables import HostTable

NAMES = ("ann", "bob", "cy")
PACE = Pace(mode="turn", move_hours=24, on_timeout="bot")
# Of the moves through the week, these run out of time (nobody comes for a day).
LATE = {3, 8, 13}


class Awaited:
    """The moves awaited of people, in order. Each should be told once: the host is
    restarted while each is awaited, with its player away, so even the first (awaited
    while its player was still at the table) is told then. (A restarted host says the
    move it finds awaited again; those are the same moves, not new ones, left out here.)"""

    def __init__(self) -> None:
        self.moves: list[tuple[str, int]] = []

    def listen(self, service: TableService) -> None:
        def heard(kind: str, table: HostTable, info: dict[str, Any]) -> None:
            if kind == "turn" and info["person"] and not info["restored"]:
                self.moves.append((table.seats[info["seat"]].name, info["played"]))

        service.listen(heard)


def play_turn(host: Host, code: str) -> str:
    """The person to move logs in, plays their whole turn (first choices), logs out."""
    table = host.service.tables[code]
    seat = table.to_move()
    assert seat is not None
    who = person(table.seats[seat].name)
    host.service.join(who, code)
    assert who.seat == seat
    while table.to_move() == seat and not table.game.is_over():  # type: ignore[union-attr]
        action = table.game.legal_actions()[0]  # type: ignore[union-attr]
        host.service.act(who, action.model_dump(mode="json"))
    host.service.leave(who)
    return who.login.name


def test_a_week_of_moves_with_restarts_timeouts_and_one_notice_each(tmp_path: Path) -> None:
    out = tmp_path / "told.jsonl"
    command = f"cat >> '{out}'; echo >> '{out}'"
    clock = ManualClock()
    started = clock.now()
    awaited = Awaited()

    host = Host(tmp_path, command, clock)
    awaited.listen(host.service)
    people = [person(n) for n in NAMES]
    table = host.service.create(people[0], "railways-of-the-world", seats=3, humans=3, pace=PACE)
    code = table.code
    for p in people[1:]:
        host.service.join(p, code)
    for p in people:  # everyone goes off to their day
        host.service.leave(p)
    assert table.status == "playing"

    moved: list[str] = []
    timeouts = 0
    step = 0
    while clock.now() - started < 7 * 24 * HOUR:
        host.stop()  # between every two moves the host is restarted
        host = Host(tmp_path, command, clock)
        awaited.listen(host.service)
        table = host.service.tables[code]
        assert table.status == "playing" and table.pace == PACE
        if step in LATE:
            clock.advance(25 * HOUR)  # nobody came: the move runs out of time
            waiting_for = table.to_move()
            host.service.tick()
            host.service.tick()  # a second look the same hour does nothing more
            timeouts += 1
            asyncio.run(asyncio.wait_for(host.service.run_bots(table), 120))
            assert table.to_move() != waiting_for
        else:
            clock.advance(7 * HOUR)
            host.service.tick()  # within the day: no timeout
            moved.append(play_turn(host, code))
        assert host.notifier.drain(30)
        step += 1

    host.stop()
    # Read back once more: the same game, move for move, and the timeouts kept once each.
    host = Host(tmp_path, command, clock)
    assert host.notifier.drain(30)
    back = host.service.tables[code]
    assert back.game is not None and table.game is not None
    assert back.game.record.actions == table.game.record.actions
    log = [json.loads(line) for line in host.service.path_of(back).read_text().splitlines()[1:]]
    assert sum(1 for entry in log if "timeout" in entry) == timeouts == len(LATE)
    assert all(e["timeout"]["did"] == "bot" for e in log if "timeout" in e)
    host.stop()

    assert set(moved) == set(NAMES) and len(moved) >= 2 * len(NAMES)
    told = delivered(out)
    ids = [t["id"] for t in told]
    assert len(ids) == len(set(ids)), "a notification was delivered twice"
    assert all(t["kind"] == "your_move" and t["table"] == code for t in told)
    said = [(t["player"], int(t["id"].split("/")[1])) for t in told]
    assert said == awaited.moves
    assert len(said) >= step - 1  # about one per move of the week
