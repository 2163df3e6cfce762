"""The phase table: each action class goes to exactly one phase."""

from __future__ import annotations

from typing import Any

import pytest

from railgames.core.phases import Phase, by_action


class Bid:
    pass


class Build:
    pass


class Auction(Phase[Any, Any]):
    actions = (Bid,)


class Building(Phase[Any, Any]):
    actions = (Build,)


class AlsoBids(Phase[Any, Any]):
    actions = (Bid, Build)


def test_each_action_class_goes_to_its_phase() -> None:
    auction, building = Auction(None), Building(None)
    table = by_action([auction, building])
    assert table == {Bid: auction, Build: building}


def test_an_action_class_taken_twice_is_refused_when_the_rules_are_built() -> None:
    with pytest.raises(TypeError, match="Bid is taken by both Auction and AlsoBids"):
        by_action([Auction(None), AlsoBids(None)])


def test_a_phase_that_lists_nothing_says_so() -> None:
    with pytest.raises(NotImplementedError, match="Building lists no choices"):
        Building(None).prompt(None)
