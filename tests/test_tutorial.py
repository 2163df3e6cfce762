"""The tutorials: every rule of each game is taught on the expected path, the lesson
holds the learner to a move only where it matters, and a tutorial resumes in place."""

from __future__ import annotations

from pathlib import Path

import pytest

from railgames.core.errors import IllegalAction
from railgames.core.rulebook import rulebook
from railgames.core.search import action_key
from railgames.core.tutorial import (
    TutorialSpec,
    candidates,
    chosen_spec,
    imperative,
    play_path,
    probe,
)
from railgames.games import launcher_ids, load_ruleset
from railgames.tables.coached import CoachedTable, lesson_of, open_tutorial

GAMES = launcher_ids()


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_is_taught_on_the_expected_path(game: str) -> None:
    ruleset = load_ruleset(game)
    path = play_path(ruleset, chosen_spec(game))
    assert path.game.is_over()
    assert path.missing == [], f"{game}: never taught {path.missing}"
    assert set(path.taught) >= {r.id for r in rulebook(ruleset)}
    assert path.learner_moves <= 90, path.learner_moves


def test_a_rule_missing_from_the_path_is_caught() -> None:
    # The check above can fail: a plain greedy game of Railways of the World, its options
    # off, never shows the rules only an option brings.
    spec = TutorialSpec("railways-of-the-world", 3, 0, 1)
    missing = play_path(load_ruleset(spec.game), spec).missing
    assert "rw.urbanize" in missing or "rw.first_turn_fixed" in missing


def drive_to_learner(table: CoachedTable) -> None:
    while table.bot_to_move():
        table.bot_step()


def test_the_coached_table_follows_the_expected_path() -> None:
    game = "paris-connection"
    table = CoachedTable.start(game, autosave=False)
    path = play_path(load_ruleset(game), chosen_spec(game))
    while not table.is_over():
        drive_to_learner(table)
        if table.is_over():
            break
        lesson = table.lesson
        assert lesson.expected is not None and lesson.lines
        table.submit(lesson.expected)
    assert table.record.actions == path.game.record.actions
    assert table.lesson.finished and not table.lesson.untaught


def refused_and_allowed(table: CoachedTable) -> tuple[object, object]:
    """Walk the expected path to a decision where another move would lose the lesson;
    return (a move refused there, the expected move). Then on to one where the expected
    move shows nothing new, and another move there (allowed)."""
    while True:
        drive_to_learner(table)
        exp = table.expected()
        assert exp is not None
        if exp.new:
            prompt = table.prompt()
            assert prompt is not None
            for other in candidates(table.ruleset, prompt):
                if action_key(other) != action_key(exp.action) and \
                        not set(exp.new) <= set(probe(table.ruleset, table.state, other)):
                    return other, exp.action
        table.submit(exp.action)


def test_a_move_that_loses_the_lesson_is_refused_and_changes_nothing() -> None:
    table = CoachedTable.start("railways-of-the-world", autosave=False)
    other, expected = refused_and_allowed(table)
    before = list(table.record.actions)
    with pytest.raises(IllegalAction) as refused:
        table.submit(other)
    assert "highlighted move shows" in refused.value.reason
    assert "\n" not in refused.value.reason
    assert table.record.actions == before
    table.submit(expected)
    assert len(table.record.actions) == len(before) + 1


def test_another_move_is_allowed_where_nothing_new_hangs_on_it() -> None:
    table = CoachedTable.start("american-rails", autosave=False)
    for _ in range(200):
        drive_to_learner(table)
        exp = table.expected()
        assert exp is not None
        prompt = table.prompt()
        assert prompt is not None
        others = [a for a in candidates(table.ruleset, prompt)
                  if action_key(a) != action_key(exp.action)]
        if not exp.new and others:
            table.submit(others[0])
            assert table.record.actions[-1]["type"] == others[0].model_dump()["type"]
            return
        table.submit(exp.action)
    pytest.fail("no decision where the lesson leaves the move free")


def test_only_a_tutorial_table_has_a_lesson() -> None:
    from railgames.core.record import PlayerSpec
    from railgames.tables.local import Session

    plain = Session.new("american-rails", [PlayerSpec(name=n) for n in ("A", "B", "C")], 1,
                        autosave=False)
    assert lesson_of(plain) is None
    assert lesson_of(CoachedTable.start("american-rails", autosave=False)) is not None


def test_the_learners_move_is_said_as_what_to_do() -> None:
    assert imperative("Lee puts a Liberty share up for auction") == \
        "put a Liberty share up for auction"
    assert imperative("Lee passes") == "pass"
    assert imperative("Lee returns a red locomotive and takes 2 yellow") == \
        "return a red locomotive and take 2 yellow"
    assert imperative("Lee builds 3 track") == "build 3 track"
    assert imperative("Ann passes") == "Ann passes"


def test_a_tutorial_resumes_where_it_was_left(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.setenv("RAILGAMES_DATA_DIR", str(tmp_path))
    table, resumed = open_tutorial("paris-connection")
    assert not resumed
    for _ in range(3):
        drive_to_learner(table)
        exp = table.expected()
        assert exp is not None
        table.submit(exp.action)
    made = list(table.record.actions)
    table.close()
    again, resumed = open_tutorial("paris-connection")
    assert resumed and again.record.actions == made
    again.close()


def test_a_move_away_from_a_lead_is_refused() -> None:
    # Paris Connection's hand over its limit comes from taking two, trade after trade.
    table = CoachedTable.start("paris-connection", autosave=False)
    for _ in range(200):
        drive_to_learner(table)
        exp = table.expected()
        assert exp is not None
        if exp.lead is not None:
            prompt = table.prompt()
            assert prompt is not None
            other = next(a for a in prompt.choices if a.type != "trade")
            before = list(table.record.actions)
            with pytest.raises(IllegalAction) as refused:
                table.submit(other)
            assert "works towards Too many locomotives" in refused.value.reason
            assert table.record.actions == before
            return
        table.submit(exp.action)
    pytest.fail("no lead on the way")
