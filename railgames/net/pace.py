"""How fast a host's table is played: live, or turn-based with a time per move.

A live table is played by people sitting at it together (what the host has always
done). A turn-based table waits for each player, for days if it must: it has a time
per move (or none), and what happens when that time runs out is one of its
settings — a bot moves for the seat, the seat's turn is skipped where the game's
rules allow a pass, or the player is only reminded.

Time comes from a ``Clock``, so that a test can play a week in a second: the host
uses ``SystemClock``, a test a ``ManualClock`` it moves on by hand. Deadlines are
kept as seconds since the epoch (UTC), which a table file stores as plain numbers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

HOUR = 3600.0
# The longest time per move a table may ask for: four weeks.
MAX_MOVE_HOURS = 24 * 28
# The times a player is offered when creating a table (None: no limit).
MOVE_TIMES: tuple[int | None, ...] = (24, 72, None)


class Clock(Protocol):
    """Where the host reads the time: seconds since the epoch."""

    def now(self) -> float: ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()


@dataclass
class ManualClock:
    """A clock that moves only when told (for tests: a week of play in a second)."""

    at: float = 1_767_225_600.0  # 2026-01-01T00:00:00Z

    def now(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self.at += seconds


OnTimeout = Literal["bot", "skip", "remind"]


class Pace(BaseModel):
    """A table's pace, as its file keeps it and a remote player may ask for it."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    mode: Literal["live", "turn"] = "live"
    # Hours a player has for a move at a turn-based table; None: as long as it takes.
    move_hours: Annotated[int, Field(ge=1, le=MAX_MOVE_HOURS)] | None = None
    on_timeout: OnTimeout = "remind"

    @property
    def turn_based(self) -> bool:
        return self.mode == "turn"

    def deadline(self, since: float) -> float | None:
        """When a move asked for at ``since`` runs out of time (None: never)."""
        if not self.turn_based or self.move_hours is None:
            return None
        return since + self.move_hours * HOUR

    def describe(self) -> str:
        """One line for a table list: "live", "turn-based, 24 h a move (then a bot moves)"."""
        if not self.turn_based:
            return "live"
        if self.move_hours is None:
            return "turn-based, no time limit"
        then = {"bot": "then a bot moves", "skip": "then the turn is passed",
                "remind": "then a reminder"}[self.on_timeout]
        return f"turn-based, {self.move_hours} h a move ({then})"


LIVE = Pace()


def time_left(deadline: float | None, now: float) -> str:
    """A deadline as a player reads it: "2 d 3 h", "45 min", "time is up", "" (none)."""
    if deadline is None:
        return ""
    left = deadline - now
    if left <= 0:
        return "time is up"
    minutes = int(left // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{max(minutes, 1)} min"
