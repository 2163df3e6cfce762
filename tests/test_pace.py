"""A table's pace: live or turn-based, its deadlines on an injectable clock."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from railgames.net.pace import HOUR, LIVE, ManualClock, MoveClock, Pace, time_left


def test_a_live_table_has_no_deadline() -> None:
    assert LIVE.deadline(1000.0) is None and LIVE.describe() == "live"
    assert Pace(mode="turn").deadline(1000.0) is None  # turn-based without a limit


def test_a_turn_based_move_runs_out_after_its_hours() -> None:
    pace = Pace(mode="turn", move_hours=24, on_timeout="bot")
    assert pace.deadline(1000.0) == 1000.0 + 24 * HOUR
    assert pace.describe() == "turn-based, 24 h a move (then a bot moves)"


@pytest.mark.parametrize("bad", [
    {"mode": "fast"}, {"move_hours": 0}, {"move_hours": 10**9}, {"move_hours": "24"},
    {"on_timeout": "forfeit"}, {"mode": "turn", "extra": 1}])
def test_a_pace_from_outside_is_checked(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Pace.model_validate(bad)


def test_time_left_reads_as_a_player_would() -> None:
    assert time_left(None, 0) == ""
    assert time_left(0, 5) == "time is up"
    assert time_left(2 * 24 * HOUR + 3 * HOUR + 59, 0) == "2 d 3 h"
    assert time_left(5 * HOUR + 30 * 60, 0) == "5 h 30 min"
    assert time_left(20, 0) == "1 min"


def test_the_clock_restarts_only_when_the_move_asked_for_changes() -> None:
    clock = ManualClock()
    move = MoveClock(Pace(mode="turn", move_hours=24, on_timeout="bot"))
    move.ask(seat=1, played=10, now=clock.now())
    started = move.since
    clock.advance(20 * HOUR)
    move.ask(seat=1, played=10, now=clock.now())  # asked again (a restart): time spent counts
    assert move.since == started and move.due(clock.now()) is None
    clock.advance(4 * HOUR)
    assert move.due(clock.now()) == "bot"
    move.ask(seat=1, played=11, now=clock.now())  # the same seat again, a new move
    assert move.due(clock.now()) is None and move.since == clock.now()


def test_a_reminder_comes_once_per_move() -> None:
    clock = ManualClock()
    move = MoveClock(Pace(mode="turn", move_hours=1, on_timeout="remind"))
    move.ask(seat=0, played=0, now=clock.now())
    clock.advance(2 * HOUR)
    assert [move.due(clock.now()) for _ in range(3)] == ["remind", None, None]
    move.ask(seat=1, played=1, now=clock.now())
    clock.advance(2 * HOUR)
    assert move.due(clock.now()) == "remind"


def test_no_one_to_move_is_never_due() -> None:
    move = MoveClock(Pace(mode="turn", move_hours=1, on_timeout="bot"))
    move.ask(seat=None, played=5, now=0.0)  # the game is over
    assert move.deadline is None and move.due(10**9) is None


def test_a_clock_does_not_go_back() -> None:
    with pytest.raises(ValueError):
        ManualClock().advance(-1)
