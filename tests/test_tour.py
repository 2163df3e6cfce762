"""The quick tour: every rule of a game explained once, in under three minutes, bids cut."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from railgames.core.demo import demo_game
from railgames.core.narration import narrate
from railgames.core.rulebook import rulebook
from railgames.core.tour import (
    TARGET_SECONDS,
    TOURS_FILE,
    Piece,
    build_tour,
    chosen_tour,
    missing_rules,
    new_rule_stops,
    skip_line,
    stop_seconds,
)
from railgames.games import launcher_ids, load_ruleset

STORED = json.loads(resources.files("railgames.core").joinpath(TOURS_FILE).read_text())


@pytest.mark.parametrize("game", sorted(launcher_ids()))
def test_the_chosen_tour_explains_every_rule_in_under_three_minutes(game: str) -> None:
    ruleset = load_ruleset(game)
    tour = chosen_tour(ruleset)
    assert not missing_rules(tour, ruleset)
    assert tour.rules == {r.id for r in rulebook(ruleset)}
    assert tour.seconds < TARGET_SECONDS
    # The figures benchmarks/tour_search.py stored are what the tour is now: a change
    # to a bot or a rule that changes the tour is noticed (run the search again).
    stored = STORED[game]
    assert (tour.actions, tour.skips, round(tour.seconds)) == \
        (stored["actions_shown"], stored["skipped_stretches"], stored["seconds"])
    # Each rule is explained once: no stop repeats a rule shown before.
    shown = [r for stop in tour.stops for r in stop.rules]
    assert len(shown) == len(set(shown))
    # The viewer's time at each stop adds up to the tour's.
    assert sum(stop_seconds(tour, i) for i in range(len(tour.stops))) == tour.seconds


def test_every_tour_game_is_listed() -> None:
    assert set(STORED) == set(launcher_ids())


def test_the_stops_are_the_actions_the_narration_explains_a_rule_in_first() -> None:
    game = demo_game(load_ruleset("steel-driver"))
    told = narrate(game.log, rulebook(game.ruleset))
    firsts = sorted({max(t.event.action + 1, 0) for t in told if t.first})
    stops = new_rule_stops(game.log, set())
    assert [s.position for s in stops] == firsts
    # What lies between two stops is skipped, and counted.
    assert sum(s.skipped for s in stops) + sum(1 for s in stops if s.position) \
        == max(firsts)


def test_a_later_game_of_a_tour_shows_only_the_rules_still_missing() -> None:
    ruleset = load_ruleset("paris-connection")
    tour = build_tour(ruleset, [Piece(4, "greedy", 1), Piece(4, "random", 1)])
    second = [s for s in tour.stops if s.piece == 1]
    assert [r for s in second for r in s.rules] == ["pc.holding_limit"]


def test_the_opening_bids_are_told_in_one_line() -> None:
    ruleset = load_ruleset("american-rails")
    book = rulebook(ruleset)
    stops = new_rule_stops(demo_game(ruleset).log, set())
    auctions = [s for s in stops if dict(s.skipped_rules).get("ar.auction", 0) >= 20]
    assert auctions  # a stretch of twenty bids and more is passed over in one stop
    line = skip_line(auctions[0], book)
    assert line.startswith(f"{auctions[0].skipped} actions skipped: Share auctions ")
    assert "\n" not in line


def test_demo_tour_text_explains_every_rule_once(capsys: pytest.CaptureFixture[str]) -> None:
    from railgames.cli import main

    assert main(["demo", "american-rails", "--tour", "--text"]) == 0
    out = capsys.readouterr().out
    book = rulebook(load_ruleset("american-rails"))
    for rule in book:
        assert out.count(f"NEW RULE \u2014 {rule.title}.") == 1, rule.id
    assert "actions skipped: Share auctions" in out
    seconds = STORED["american-rails"]["seconds"]
    assert f"About {seconds // 60} min {seconds % 60:02d} s" in out
    assert out.rstrip().endswith(f"Rules shown: {len(book)} of {len(book)}.")


@pytest.mark.parametrize(("args", "reason"), [
    (["--seed", "3", "--text"], "a tour plays its own seeded games: leave out --seed"),
    (["--players", "4"], "a tour plays its own seeded games: leave out --players"),
])
def test_demo_tour_refuses_what_it_cannot_do_in_one_line(
        capsys: pytest.CaptureFixture[str], args: list[str], reason: str) -> None:
    from railgames.cli import main

    assert main(["demo", "paris-connection", "--tour", *args]) == 1
    err = capsys.readouterr().err
    assert reason in err and len(err.strip().splitlines()) == 1
