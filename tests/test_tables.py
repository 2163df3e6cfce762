"""Tables: the local Session and the read-only Recording answer the same interface."""

from __future__ import annotations

from pathlib import Path

import pytest

from railgames.core.engine import Game
from railgames.core.errors import IllegalAction
from railgames.core.record import load_record
from railgames.core.simulate import bot_players, play_bot_game
from railgames.games import load_ruleset
from railgames.games.paris_connection.actions import EndBuild
from railgames.tables.local import Session
from railgames.tables.recording import SNAPSHOT_EVERY, Recording
from railgames.tables.table import Table

TITLES = ("new-england", "paris-connection", "steel-driver")


@pytest.mark.parametrize("game", TITLES)
def test_a_recording_reaches_every_position_as_a_fresh_replay_would(game: str) -> None:
    ruleset = load_ruleset(game)
    played = play_bot_game(ruleset, bot_players(3, "greedy"), 5)
    rec = Recording.of_game(played, reveal_all=True)
    assert isinstance(rec, Table) and rec.at_end and rec.length == len(played.record.actions)
    n = rec.length
    # Forward, back across snapshots, far jumps, and the ends.
    for position in (0, 1, 2, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, n // 2,
                     n // 2 - 1, n // 2 - 2, 3, n, n - 1, 0, n):
        rec.seek(position)
        assert rec.position == position
        fresh = Game.replay(ruleset, played.record, upto=position)
        assert rec.state == fresh.state, position
        assert rec.events_for() == fresh.log
        assert rec.turn_at(position) == ruleset.turn_of(fresh.state)
    assert rec.result() == played.result()
    # Seeking never touched the record it was opened with.
    assert rec.record.actions == played.record.actions


def test_a_recording_is_read_only() -> None:
    played = play_bot_game(load_ruleset("paris-connection"), bot_players(3, "greedy"), 2)
    rec = Recording.of_game(played, reveal_all=True)
    rec.seek(3)
    prompt = rec.prompt()
    assert prompt is not None
    before = rec.state
    with pytest.raises(IllegalAction, match="recording"):
        rec.submit(prompt.choices[0] if prompt.choices else EndBuild(seat=prompt.seat))
    with pytest.raises(IllegalAction, match="recording"):
        rec.undo(prompt.seat)
    assert rec.position == 3 and rec.state is before


def test_changes_name_new_events_or_a_full_redraw() -> None:
    played = play_bot_game(load_ruleset("new-england"), bot_players(3, "greedy"), 3)
    rec = Recording.of_game(played, reveal_all=True)
    rec.seek(10)
    mark = rec.mark()
    drawn = rec.events_for()
    rec.seek(12)
    change = rec.changes(mark)
    assert not change.full and change.events
    assert drawn + list(change.events) == rec.events_for()
    assert all(e.action in (10, 11) for e in change.events)
    rec.seek(11)
    assert rec.changes(rec.mark()).events == ()
    assert rec.changes(12).full


def test_the_history_of_a_hidden_game_shows_only_the_watching_seat() -> None:
    ruleset = load_ruleset("paris-connection")
    played = play_bot_game(ruleset, bot_players(3, "greedy"), 4)
    mid = Game.replay(ruleset, played.record, upto=len(played.record.actions) // 2)
    rec = Recording.of_game(mid, seat=1)
    for position in (0, rec.length // 2, rec.length):
        rec.seek(position)
        view = rec.view()
        assert [p.shares is not None for p in view.players] == [False, True, False]
        dealt = [e for e in rec.events_for() if e.kind == "deal"]
        assert [e.data["seat"] for e in dealt] == [1]
        assert all(e.visible(1) for e in rec.all_events())
    public = Recording.of_game(mid, seat=None)
    assert not [e for e in public.all_events() if e.kind == "deal"]


def test_the_local_session_is_a_table(tmp_path: object) -> None:
    session = Session.new("new-england", bot_players(3, "human"), seed=9, autosave=False)
    assert isinstance(session, Table) and not session.read_only
    mark = session.mark()
    prompt = session.prompt()
    assert prompt is not None
    action = {"type": "borrow", "seat": prompt.seat, "amount": 0}
    events = session.submit(action)
    change = session.changes(mark)
    assert not change.full and list(change.events) == events
    session.undo(prompt.seat)
    assert session.changes(session.mark()).events == ()
    assert session.changes(mark).full  # undo replays: the screen redraws everything
    with pytest.raises(IllegalAction):
        session.submit({"type": "borrow", "seat": (prompt.seat + 1) % 3, "amount": 0})


def test_the_local_table_saves_a_move_itself_when_it_is_submitted(tmp_path: Path) -> None:
    """Saving is the local table's business: the move is in the file when submit returns."""
    session = Session.new("new-england", bot_players(3, "human"), seed=9,
                          save_path=tmp_path / "game.json")
    session.save()
    assert session.can_save and session.shared and session.seat is None
    prompt = session.prompt()
    assert prompt is not None
    session.submit({"type": "borrow", "seat": prompt.seat, "amount": 0})
    assert session.played() == 1
    assert load_record(tmp_path / "game.json").actions == session.game.record.actions


def test_a_save_that_fails_leaves_the_move_made_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.new("new-england", bot_players(3, "human"), seed=9, save_path=path)
    session.save()
    path.write_text(path.read_text(encoding="utf-8") + " ", encoding="utf-8")  # another window
    prompt = session.prompt()
    assert prompt is not None
    with pytest.raises(OSError):
        session.submit({"type": "borrow", "seat": prompt.seat, "amount": 0})
    assert session.played() == 1 and load_record(path).actions == []


def test_undo_and_why_not_agree_and_a_recording_never_allows_it() -> None:
    session = Session.new("new-england", bot_players(3, "human"), seed=9, autosave=False)
    prompt = session.prompt()
    assert prompt is not None
    first = prompt.seat
    assert session.why_not_undo(first) is not None  # nothing of theirs yet
    session.submit({"type": "borrow", "seat": first, "amount": 0})
    assert session.why_not_undo(first) is None
    history = session.history(None, reveal_all=True)
    assert isinstance(history, Recording) and history.played() == 1 and history.at_end
    session.undo(first)
    assert session.played() == 0 and not session.is_over() and session.away() == []
    assert history.why_not_undo(first) == "this is a recording: step back with \u2190 instead"
    assert (history.read_only, history.shared, history.can_save) == (True, False, False)
    assert not history.bot_to_move() and history.prepare_think() is None


def test_a_game_on_this_terminal_gives_hints_and_a_recording_has_nothing_to_decide() -> None:
    session = Session.new("new-england", bot_players(3, "human"), seed=9, autosave=False)
    assert session.why_no_hint() is None
    history = session.history(None, reveal_all=True)
    assert history.why_no_hint() == "this is a recording: there is nothing to decide"
