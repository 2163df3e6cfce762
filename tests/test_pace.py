"""A table's pace: live or turn-based, its deadlines on an injectable clock."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from railgames.net.pace import HOUR, LIVE, ManualClock, Pace, time_left


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


def test_a_clock_does_not_go_back() -> None:
    with pytest.raises(ValueError):
        ManualClock().advance(-1)
