"""Steel Driver's rules split by phase: each action to one phase, and the kept answers
(caches.py) the same as working them out again."""

from __future__ import annotations

from typing import get_args

from steel_driver_support import make_ruleset

from railgames.games.steel_driver.actions import SteelDriverAction
from railgames.games.steel_driver.caches import SHARERS_KEPT, FirstLinks, SharersMemo
from railgames.games.steel_driver.phases.auction import AuctionPhase
from railgames.games.steel_driver.phases.building import BuildPhase
from railgames.games.steel_driver.phases.final import FinalPhase


def test_every_action_is_listed_checked_and_carried_out_by_one_phase() -> None:
    rules = make_ruleset()
    union = get_args(get_args(SteelDriverAction)[0])
    phases = rules._by_action
    assert set(phases) == set(union)
    kinds = {kind.__name__: type(phase) for kind, phase in phases.items()}
    assert kinds == {"PutUp": AuctionPhase, "PassMarker": AuctionPhase, "Bid": AuctionPhase,
                     "PassBid": AuctionPhase, "BuildTrack": BuildPhase, "ClaimGoods": FinalPhase}


def test_first_links_are_read_off_the_map_as_the_rules_define_them() -> None:
    rules = make_ruleset()
    index = FirstLinks(rules.map)
    for r in rules.map.links:
        assert index.starts[r.id] == tuple(end for end in (r.a, r.b) if rules.is_starting(end))
    assert index.routes == [r for r in rules.map.links
                            if rules.is_starting(r.a) or rules.is_starting(r.b)]
    assert index.routes and len(index.routes) < len(rules.map.links)


def test_the_sharers_memo_works_each_track_out_once_and_starts_afresh_when_full() -> None:
    asked: list[dict[str, str]] = []

    def find(track: dict[str, str]) -> tuple[list[frozenset[str]], int] | None:
        asked.append(track)
        return ([frozenset(track.values())], len(track)) if track else None

    memo = SharersMemo(find)
    assert memo({}) is None and memo({}) is None
    assert memo({"r1": "red"}) == ([frozenset({"red"})], 1)
    assert memo({"r1": "red"}) == ([frozenset({"red"})], 1)
    assert len(asked) == 2
    for k in range(SHARERS_KEPT):
        memo({f"x{k}": "red"})
    memo({"r1": "red"})  # forgotten when the memo started afresh
    assert len(asked) == 2 + SHARERS_KEPT + 1


def test_the_rules_answer_sharers_as_the_search_does() -> None:
    rules = make_ruleset()
    links = [r.id for r in rules.map.links]
    track = {rid: rules.companies[i % 2] for i, rid in enumerate(links)}
    assert rules.transcontinental_sharers(track) == rules._find_sharers(track)
    assert rules.transcontinental_sharers({}) is None
