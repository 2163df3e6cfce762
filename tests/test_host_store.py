"""The host's table store: a log appended to, read back as strictly as a saved game."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_host_tables import LogLines, first_legal, member, two_player_table

from railgames.core.errors import RecordError
from railgames.net.service import TableService
from railgames.net.store import COMPACT_AFTER, FileTableStore, TableStore


def play(service: TableService, code: str, moves: int, seed: int = 3) -> None:
    """``moves`` random moves by whoever is to move (both players are people here)."""
    table = service.tables[code]
    game = table.game
    assert game is not None
    people = {m.seat: m for m in table.members if m.seat is not None}
    pick = random.Random(seed)
    for _ in range(moves):
        prompt = game.prompt()
        if prompt is None:
            return
        if prompt.seat in people:
            service.act(people[prompt.seat], pick.choice(game.legal_actions()).model_dump(mode="json"))
        else:
            asyncio.run(asyncio.wait_for(service.run_bots(table), 30))


def test_the_file_store_is_a_table_store(tmp_path: Path) -> None:
    assert isinstance(FileTableStore(tmp_path), TableStore)


def test_an_action_appends_one_line_and_rewrites_nothing(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, ann, _, bob, _ = two_player_table(service)
    path = service.path_of(service.tables[code])
    for _ in range(6):
        before = path.read_bytes()
        game = service.tables[code].game
        assert game is not None
        mover = [ann, bob][game.prompt().seat]
        service.act(mover, first_legal(service, code))
        after = path.read_bytes()
        assert after.startswith(before)  # nothing written before was touched
        added = after[len(before):]
        assert added.count(b"\n") == 1 and added.endswith(b"\n")
        assert json.loads(added)["act"] == game.record.actions[-1]


def test_what_is_kept_replays_to_the_table_after_moves_and_undo(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, ann, _, bob, _ = two_player_table(service)
    play(service, code, 8)
    game = service.tables[code].game
    assert game is not None
    asyncio.run(asyncio.wait_for(service.run_bots(service.tables[code]), 30))
    # The table's game is dealt at random: play on until a person may build (a build is
    # the move taken back below).
    for more in range(40):
        if any(a.type == "build" for a in game.legal_actions()):
            break
        play(service, code, 1, seed=100 + more)
        asyncio.run(asyncio.wait_for(service.run_bots(service.tables[code]), 30))
    seat = game.prompt().seat
    mover = [ann, bob][seat]
    build = next(a for a in game.legal_actions() if a.type == "build")
    service.act(mover, build.model_dump(mode="json"))
    service.undo(mover)
    play(service, code, 3, seed=9)
    stored = service.store.load(code)
    assert stored.record is not None and stored.record.actions == game.record.actions
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    again.load()
    back = again.tables[code].game
    assert back is not None and back.record.actions == game.record.actions
    assert back.state.__dict__.keys() == game.state.__dict__.keys()
    assert [s.name for s in again.tables[code].seats] == [s.name for s in service.tables[code].seats]


def test_a_last_line_cut_short_is_left_out_and_said_once(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, *_ = two_player_table(service)
    play(service, code, 4)
    game = service.tables[code].game
    assert game is not None
    path = service.path_of(service.tables[code])
    with path.open("ab") as handle:  # a write killed halfway through its line
        handle.write(b'{"act":{"type":"bui')
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    back = again.tables[code].game
    assert back is not None and back.record.actions == game.record.actions
    assert [line["code"] for line in log.kind("table_torn")] == [code]
    # The log was written again without it: the next load finds nothing to say.
    assert path.read_bytes().endswith(b"\n")
    with LogLines() as log:
        TableService(service.root, bot_delay=0, bot_workers=0).load()
    assert not log.kind("table_torn") and [r["code"] for r in log.kind("table_restored")] == [code]


def spoiled(path: Path, how: str) -> None:
    lines = path.read_text().splitlines()
    if how == "not json":
        lines.insert(2, "{oops")
    elif how == "unknown entry":
        lines.append(json.dumps({"cheat": 1}))
    elif how == "forged action":
        lines.append(json.dumps({"act": {"type": "no_such_move", "seat": 0}}))
    elif how == "huge number":
        lines.append('{"act":{"type":"pass","seat":' + "9" * 40 + "}}")
    elif how == "deep nesting":
        lines.append('{"act":' + "[" * 5000 + "]" * 5000 + "}")
    elif how == "undo past the start":
        lines.append(json.dumps({"undo": 10_000}))
    elif how == "header of another format":
        lines[0] = lines[0].replace('"format":2', '"format":9')
    elif how == "action before the start":
        start = next(i for i, line in enumerate(lines) if line.startswith('{"start"'))
        lines.insert(start, lines[-1])
    elif how == "seats as text":
        lines.append(json.dumps({"seats": "ann, bob"}))
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("how", ["not json", "unknown entry", "forged action", "huge number",
                                 "deep nesting", "undo past the start",
                                 "header of another format", "action before the start",
                                 "seats as text"])
def test_a_spoiled_log_is_one_line_and_the_others_come_back(tmp_path: Path, how: str) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    good, *_ = two_player_table(service)
    bad, *_ = two_player_table(service)
    play(service, bad, 3)
    path = service.path_of(service.tables[bad])
    spoiled(path, how)
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    assert set(again.tables) == {good}
    [line] = log.kind("table_not_restored")
    assert line["file"] == str(path) and line["reason"].startswith(str(path))
    assert "\n" not in line["reason"] and "Traceback" not in line["reason"]


def test_a_table_kept_by_an_earlier_version_is_carried_over_once(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, *_ = two_player_table(service)
    play(service, code, 5)
    table = service.tables[code]
    assert table.game is not None
    old = service.root / f"{code}.json"
    old.write_text(json.dumps(table.to_dict(), indent=1))  # as earlier versions kept it
    service.path_of(table).unlink()
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    assert [line["code"] for line in log.kind("table_imported")] == [code]
    back = again.tables[code].game
    assert back is not None and back.record.actions == table.game.record.actions
    assert not old.exists() and (service.root / f"{code}.json.imported").exists()
    assert service.path_of(table).exists()
    with LogLines() as log:
        TableService(service.root, bot_delay=0, bot_workers=0).load()
    assert not log.kind("table_imported") and log.kind("table_restored")


def test_a_log_of_many_seat_changes_is_compacted_when_loaded(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_takeover=1, bot_workers=0)
    code, ann, _, bob, _ = two_player_table(service)
    table = service.tables[code]
    path = service.path_of(table)
    for _ in range(COMPACT_AFTER):  # Bob drops and comes back, again and again
        service.leave(bob)
        table.seats[1].empty_since = 0.0
        service.tick(10.0)  # a bot takes his seat, Ann being there
        assert table.seats[1].bot_taken
        service.join(bob, code)
    lines = path.read_text().count("\n")
    assert lines > COMPACT_AFTER
    TableService(service.root, bot_delay=0, bot_workers=0).load()
    assert path.read_text().count("\n") < lines
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    again.load()
    assert [s.name for s in again.tables[code].seats] == [s.name for s in table.seats]


def test_a_table_with_search_bots_comes_back(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    ann, _ = member("ann")
    table = service.create(ann, "paris-connection", seats=3, humans=1, bot_kind="search:easy")
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    assert not log.kind("table_not_restored")
    assert again.tables[table.code].bot_kind == "search:easy"


def test_watchers_hear_of_every_change_kept(tmp_path: Path) -> None:
    store = FileTableStore(tmp_path / "tables", sync=False)
    heard: list[tuple[str, dict[str, Any]]] = []
    stop = store.watch(lambda code, entry: heard.append((code, entry)))
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0, store=store)
    code, ann, _, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    before = len(heard)
    mover = [ann, bob][game.prompt().seat]
    service.act(mover, first_legal(service, code))
    assert heard[before:] == [(code, {"act": game.record.actions[-1], "at": game.record.updated})]
    stop()
    play(service, code, 1)
    assert len(heard) == before + 1


def test_a_failed_write_is_logged_and_the_table_is_written_whole_next_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    code, ann, _, bob, _ = two_player_table(service)
    game = service.tables[code].game
    assert game is not None
    real = FileTableStore.append

    def full_disk(self: FileTableStore, code: str, entry: dict[str, Any]) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(FileTableStore, "append", full_disk)
    with LogLines() as log:
        service.act([ann, bob][game.prompt().seat], first_legal(service, code))
    assert log.kind("save_failed")
    monkeypatch.setattr(FileTableStore, "append", real)
    play(service, code, 2)
    stored = service.store.load(code)
    assert stored.record is not None and stored.record.actions == game.record.actions


def test_special_files_in_the_tables_folder_never_stop_the_host(tmp_path: Path) -> None:
    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    good, *_ = two_player_table(service)
    (service.root / "DIRR.table").mkdir()
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    assert set(again.tables) == {good}
    assert [line["file"] for line in log.kind("table_not_restored")] == [
        str(service.root / "DIRR.table")]


def test_a_code_not_of_four_letters_is_refused(tmp_path: Path) -> None:
    store = FileTableStore(tmp_path)
    with pytest.raises(RecordError):
        store.append("../../etc", {"act": {}})


@pytest.mark.parametrize("game_id, kind", [("new-england", "borrow"),
                                           ("railways-of-the-world", "bid")])
def test_a_fortune_sent_by_a_remote_seat_is_refused_and_the_table_still_loads(
        tmp_path: Path, game_id: str, kind: str) -> None:
    """A bid or loan of 10**30, sent as a remote seat sends it, is refused in one line; the
    table plays on, and its log reads back as strictly as ever."""
    from test_host_feed import people_at

    from railgames.core.errors import RailgamesError

    service = TableService(tmp_path / "tables", bot_delay=0, bot_workers=0)
    table, people = people_at(service, game_id, seed=5)
    game = table.game
    assert game is not None
    pick = random.Random(1)
    refused = 0
    for _ in range(400):
        prompt = game.prompt()
        if prompt is None:
            break
        mover = people[prompt.seat][0]
        if prompt.amount is not None and prompt.amount.action_type == kind:
            before = list(game.record.actions)
            with pytest.raises(RailgamesError) as refusal:
                service.act(mover, {"type": kind, "seat": prompt.seat, "amount": 10**30})
            assert "\n" not in refusal.value.reason and game.record.actions == before
            refused += 1
        service.act(mover, pick.choice(game.legal_actions()).model_dump(mode="json"))
    assert refused
    again = TableService(service.root, bot_delay=0, bot_workers=0)
    with LogLines() as log:
        again.load()
    assert not log.kind("table_not_restored")
    back = again.tables[table.code].game
    assert back is not None and back.record.actions == game.record.actions
