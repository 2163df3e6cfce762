"""What the tests of every game share: player names, whose move it is, refusals."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from railgames.core.engine import Game
from railgames.core.errors import RailgamesError

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def seat_of(game: Game, name: str) -> int:
    return [p.name for p in game.players].index(name)


def to_move(game: Game) -> int:
    seat = game.ruleset.to_move(game.state)
    assert seat is not None
    return seat


def assert_refused(game: Game, raw: Any, kind: type[RailgamesError], reason: str) -> RailgamesError:
    """The action is refused with ``kind`` (exactly), a reason containing ``reason``,
    and neither the state nor the record changes."""
    before = copy.deepcopy(game.state)
    count = len(game.record.actions)
    with pytest.raises(RailgamesError) as info:
        game.apply(raw)
    err = info.value
    assert type(err) is kind, f"expected {kind.__name__}, got {type(err).__name__}: {err.reason}"
    assert reason.lower() in err.reason.lower(), f"reason {err.reason!r} lacks {reason!r}"
    assert game.state == before
    assert len(game.record.actions) == count
    return err
